//! Real-valued features onto an ordered domain: public bounds and a number of bins.
//!
//! A [`Discretizer`] maps a real value `x` to a bin in `{0, …, bins − 1}`, the ordered domain
//! of `thresholds:BINS` or `intervals:BINS`; values below `low` go to bin 0 and values above
//! `high` to bin `bins − 1` (clipped); NaN is refused. [`Discretizer::interval`],
//! [`Discretizer::edge`] and [`Discretizer::value`] give the bins back in the data's units,
//! so that a hypothesis is printed as "1 on x < 104.3", not "1 on bin ≤ 411".
//!
//! # Privacy: the bounds must be public
//! Discretizing is a fixed map applied to each example on its own, so two samples that
//! differ in one example are mapped to two samples that differ in (at most) that example:
//! a learner that is (ε, δ)-differentially private on bins is (ε, δ)-differentially private
//! on the raw values composed with the discretizer. This holds **only if `low`, `high` and
//! `bins` are chosen without looking at the data** (public knowledge, a physical range, a
//! previous study). Bounds taken from the data (its minimum and maximum, quantiles) depend on
//! every example and leak them; no guarantee is claimed then.
//!
//! # Exact bin edges
//! Edge `i` (0 ≤ i ≤ bins) is `e(i) = min(low + (w · i) / bins, high)` in `f64` arithmetic
//! (round to nearest), with `w = high − low`, `e(0) = low` and `e(bins) = high`; when
//! `w · bins` overflows, `low + w · (i / bins)` instead (one formula per discretizer). The
//! first form gives the decimal edges one expects (`[40, 200]` in 1600 bins has an edge at
//! `104.3`, printed as such). Each operation is monotone in `i`, so the edges are
//! non-decreasing, and bin `b` is *exactly*
//! the half-open interval `[e(b), e(b + 1))` (the last bin also holds `high` itself):
//! [`Discretizer::bin`] returns the largest `b < bins` with `e(b) ≤ x`, checked against the
//! edges rather than trusted to a rounded division. What is printed is therefore what the
//! learner saw. When the bins are narrower than the spacing of `f64` values near the bounds,
//! some edges coincide and the bins between them are empty; nothing else changes.
//!
//! # Hypotheses in data units
//! [`describe_in_units`] writes a hypothesis learned on the bins as a statement about the
//! values: concept 642 of `thresholds:1600` over `[40, 200]` is `1 on x < 104.3` (bin ≤ 642
//! exactly when `x < edge(643)`, clipped values included), its complement in `both(…)` or
//! `not(…)` `1 on x ≥ 104.3`, an interval `1 on 52.5 ≤ x < 60`, with open ends where a bin
//! range reaches a clipped end; `xor(…)` of these classes as a union of such ranges
//! (`1 on x < 10 or 52.5 ≤ x < 60`). Edges are printed as the shortest decimal that reads back
//! as the same `f64`, so the statement is exact.

use std::fmt;

use privpac_classes::{ConceptClass, Domain, Hypothesis, Intervals};
use privpac_learners::Predictor;

/// The most bins a [`Discretizer`] takes: 2^53, so that every bin index and `bins` itself are
/// exact `f64` values (and the edge fractions `i / bins` are correctly rounded).
pub const MAX_BINS: u64 = 1 << 53;

/// Why a discretizer or a value was refused.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum DiscretizeError {
    /// A bound is NaN or infinite.
    #[error("the bound {name} must be finite, got {value}")]
    NonFiniteBound {
        /// `"low"` or `"high"`.
        name: &'static str,
        /// The rejected bound.
        value: f64,
    },
    /// `low ≥ high`.
    #[error("the bounds must satisfy low < high, got low = {low}, high = {high}")]
    EmptyRange {
        /// The lower bound.
        low: f64,
        /// The upper bound.
        high: f64,
    },
    /// `high − low` overflows `f64`.
    #[error("the width high - low overflows f64 (low = {low}, high = {high})")]
    RangeTooWide {
        /// The lower bound.
        low: f64,
        /// The upper bound.
        high: f64,
    },
    /// `bins` is 0 or above [`MAX_BINS`].
    #[error("bins must be between 1 and 2^53 = {max}, got {bins}")]
    BadBins {
        /// The rejected number of bins.
        bins: u64,
        /// [`MAX_BINS`].
        max: u64,
    },
    /// A value to discretize is NaN (infinities are clipped like any value out of bounds).
    #[error("a value to discretize is NaN")]
    NaN,
    /// The class to describe is not over the ordered domain `[bins]`.
    #[error(
        "the class's domain has {points} points (ordered: {ordered}), not the {bins} bins of the discretizer"
    )]
    BinsMismatch {
        /// The discretizer's bins.
        bins: u64,
        /// The number of points of the class's domain.
        points: u128,
        /// Whether that domain is ordered.
        ordered: bool,
    },
    /// A bin index is not below `bins`.
    #[error("bin {bin} is outside 0 ≤ bin < {bins}")]
    BinOutOfRange {
        /// The rejected bin.
        bin: u64,
        /// The number of bins.
        bins: u64,
    },
}

/// Public bounds `[low, high]` cut into `bins` bins of (nearly) equal width.
///
/// # Example
/// ```
/// use privpac_toolkit::Discretizer;
/// let d = Discretizer::new(0.0, 10.0, 5)?;
/// assert_eq!(d.bin(3.9)?, 1); // [2, 4)
/// assert_eq!(d.bin(-7.0)?, 0); // clipped
/// assert_eq!(d.bin(10.0)?, 4); // high is in the last bin
/// assert_eq!(d.interval(1)?, (2.0, 4.0));
/// assert_eq!(d.value(1)?, 3.0);
/// assert!(d.bin(f64::NAN).is_err());
/// # Ok::<(), privpac_toolkit::DiscretizeError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Discretizer {
    low: f64,
    high: f64,
    bins: u64,
    /// `high − low`, finite and positive.
    width: f64,
    /// `bins` as an `f64` (exact: bins ≤ 2^53).
    bins_f: f64,
    /// Whether `w · bins` is finite, so edges are `low + (w · i) / bins`.
    scale_first: bool,
}

impl Discretizer {
    /// The discretizer of `[low, high]` into `bins` bins.
    ///
    /// # Errors
    /// [`DiscretizeError::NonFiniteBound`] for a NaN or infinite bound,
    /// [`DiscretizeError::EmptyRange`] unless `low < high`, [`DiscretizeError::RangeTooWide`]
    /// if `high − low` overflows, [`DiscretizeError::BadBins`] unless 1 ≤ bins ≤ [`MAX_BINS`].
    pub fn new(low: f64, high: f64, bins: u64) -> Result<Self, DiscretizeError> {
        for (name, value) in [("low", low), ("high", high)] {
            if !value.is_finite() {
                return Err(DiscretizeError::NonFiniteBound { name, value });
            }
        }
        if low >= high {
            return Err(DiscretizeError::EmptyRange { low, high });
        }
        let width = high - low;
        if !width.is_finite() {
            return Err(DiscretizeError::RangeTooWide { low, high });
        }
        if bins == 0 || bins > MAX_BINS {
            return Err(DiscretizeError::BadBins {
                bins,
                max: MAX_BINS,
            });
        }
        #[allow(clippy::cast_precision_loss, reason = "bins ≤ 2^53 is exact in f64")]
        let bins_f = bins as f64;
        Ok(Self {
            low,
            high,
            bins,
            width,
            bins_f,
            scale_first: (width * bins_f).is_finite(),
        })
    }

    /// The lower bound.
    #[must_use]
    pub fn low(&self) -> f64 {
        self.low
    }

    /// The upper bound.
    #[must_use]
    pub fn high(&self) -> f64 {
        self.high
    }

    /// The number of bins: the size of the ordered domain the values are mapped to.
    #[must_use]
    pub fn bins(&self) -> u64 {
        self.bins
    }

    /// Edge `i` for `i ≤ bins`, without the range check: `e(0) = low`, `e(bins) = high`,
    /// non-decreasing in between (see the module docs).
    fn edge_unchecked(&self, i: u64) -> f64 {
        if i == 0 {
            return self.low;
        }
        if i >= self.bins {
            return self.high;
        }
        #[allow(
            clippy::cast_precision_loss,
            reason = "i < bins ≤ 2^53 is exact in f64"
        )]
        let i = i as f64;
        let offset = if self.scale_first {
            self.width * i / self.bins_f
        } else {
            self.width * (i / self.bins_f)
        };
        (self.low + offset).min(self.high)
    }

    /// Edge `i` of the bins, `0 ≤ i ≤ bins`: bin `b` is `[edge(b), edge(b + 1))`, and the last
    /// bin also holds `high`. `edge(0) = low`, `edge(bins) = high`.
    ///
    /// # Errors
    /// [`DiscretizeError::BinOutOfRange`] if `i > bins`.
    pub fn edge(&self, i: u64) -> Result<f64, DiscretizeError> {
        if i > self.bins {
            return Err(DiscretizeError::BinOutOfRange {
                bin: i,
                bins: self.bins + 1,
            });
        }
        Ok(self.edge_unchecked(i))
    }

    /// The bin of `x`: the largest `b < bins` with `edge(b) ≤ x`, so bin 0 for every
    /// `x < edge(1)` (including values below `low` and −∞) and bin `bins − 1` for every
    /// `x ≥ edge(bins − 1)` (including values above `high` and +∞). Non-decreasing in `x`.
    ///
    /// # Errors
    /// [`DiscretizeError::NaN`] if `x` is NaN.
    pub fn bin(&self, x: f64) -> Result<u64, DiscretizeError> {
        if x.is_nan() {
            return Err(DiscretizeError::NaN);
        }
        if x < self.low {
            return Ok(0);
        }
        if x >= self.high {
            return Ok(self.bins - 1);
        }
        // A guess from the rounded division, then checked against the exact edges; the
        // guess is right or off by one except when edges coincide, when a binary search
        // over the edges finds the bin.
        #[allow(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "the product is in [0, bins] (clamped below) and bins ≤ 2^53"
        )]
        let guess = ((x - self.low) / self.width * self.bins_f).floor().max(0.0) as u64;
        let guess = guess.min(self.bins - 1);
        for candidate in [
            guess,
            guess.saturating_sub(1),
            (guess + 1).min(self.bins - 1),
        ] {
            if self.edge_unchecked(candidate) <= x && x < self.edge_unchecked(candidate + 1) {
                return Ok(candidate);
            }
        }
        // Invariant: edge(lo) ≤ x, and edge(hi) > x (edge(bins) = high > x here).
        let (mut lo, mut hi) = (0, self.bins);
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if self.edge_unchecked(mid) <= x {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        Ok(lo)
    }

    /// The bins of `values`, in order.
    ///
    /// # Errors
    /// [`DiscretizeError::NaN`] at the first NaN; its index is `bins.len()` of the values
    /// converted so far, so callers that need it use [`Discretizer::bin`] per value.
    pub fn bin_all(&self, values: &[f64]) -> Result<Vec<u64>, DiscretizeError> {
        values.iter().map(|&x| self.bin(x)).collect()
    }

    /// Bin `b` in data units: `(edge(b), edge(b + 1))`, the half-open interval `[lo, hi)`
    /// of the values mapped to `b` within the bounds (the last bin also holds `hi = high`).
    ///
    /// # Errors
    /// [`DiscretizeError::BinOutOfRange`] if `b ≥ bins`.
    pub fn interval(&self, b: u64) -> Result<(f64, f64), DiscretizeError> {
        self.check_bin(b)?;
        Ok((self.edge_unchecked(b), self.edge_unchecked(b + 1)))
    }

    /// A representative value of bin `b` in data units: the midpoint of
    /// [`Discretizer::interval`].
    ///
    /// # Errors
    /// [`DiscretizeError::BinOutOfRange`] if `b ≥ bins`.
    pub fn value(&self, b: u64) -> Result<f64, DiscretizeError> {
        let (lo, hi) = self.interval(b)?;
        Ok(lo + (hi - lo) / 2.0)
    }

    fn check_bin(&self, b: u64) -> Result<(), DiscretizeError> {
        if b >= self.bins {
            return Err(DiscretizeError::BinOutOfRange {
                bin: b,
                bins: self.bins,
            });
        }
        Ok(())
    }
}

impl fmt::Display for Discretizer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}, {}] in {} bins", self.low, self.high, self.bins)
    }
}

/// The shape of a class over bins that has a statement in data units.
enum UnitShape {
    Thresholds,
    Points,
    Intervals(Intervals),
}

/// A range of values `lo ≤ x < hi`, either end open (`None`) when the bin range reaches a
/// clipped end; labeled 1, or 0 when `complemented`.
fn range_text(lower: Option<f64>, upper: Option<f64>, complemented: bool) -> String {
    match (lower, upper, complemented) {
        (None, None, false) => "1 on every x".into(),
        (None, None, true) => "0 on every x".into(),
        (Some(l), None, false) | (None, Some(l), true) => format!("1 on x ≥ {l}"),
        (None, Some(u), false) | (Some(u), None, true) => format!("1 on x < {u}"),
        (Some(l), Some(u), false) => format!("1 on {l} ≤ x < {u}"),
        (Some(l), Some(u), true) => format!("1 on x < {l} or x ≥ {u}"),
    }
}

/// Concept `id` of `class` (over the ordered domain `[bins]`) as a statement about the
/// values, for `thresholds`, `points` and `intervals`, their `not(…)` / `both(…)`
/// complements, and `xor(…)` of any of these (the symmetric difference of two concepts,
/// printed as a union of ranges: `1 on 52.5 ≤ x < 60 or x ≥ 80`); `None` for other
/// classes.
///
/// # Errors
/// [`DiscretizeError::BinsMismatch`] if the class is not over the ordered domain `[bins]`.
pub fn describe_concept_in_units(
    class: &dyn ConceptClass,
    id: u64,
    discretizer: &Discretizer,
) -> Result<Option<String>, DiscretizeError> {
    let bins = discretizer.bins;
    match class.domain() {
        Domain::Ordered { size } if *size == bins => {}
        other => {
            return Err(DiscretizeError::BinsMismatch {
                bins,
                points: other.size(),
                ordered: matches!(other, Domain::Ordered { .. }),
            });
        }
    }
    let name = class.name();
    if let Some(inner) = name.strip_prefix("xor(").and_then(|r| r.strip_suffix(')')) {
        return Ok(xor_in_units(inner, class.len(), id, discretizer));
    }
    let unwrap = |prefix: &str| name.strip_prefix(prefix).and_then(|r| r.strip_suffix(')'));
    let (inner_name, complemented_class, both) = match (unwrap("not("), unwrap("both(")) {
        (Some(inner), _) => (inner, true, false),
        (_, Some(inner)) => (inner, false, true),
        _ => (name.as_str(), false, false),
    };
    let (shape, inner_len) = match inner_name.split_once(':') {
        Some(("thresholds", _)) => (UnitShape::Thresholds, u128::from(bins)),
        Some(("points", _)) => (UnitShape::Points, u128::from(bins)),
        Some(("intervals", _)) => match Intervals::new(bins) {
            Ok(intervals) => {
                let len = intervals.len();
                (UnitShape::Intervals(intervals), len)
            }
            Err(_) => return Ok(None),
        },
        _ => return Ok(None),
    };
    let expected_len = if both { 2 * inner_len } else { inner_len };
    if class.len() != expected_len || u128::from(id) >= expected_len {
        return Ok(None);
    }
    let (inner, complemented) = if both && u128::from(id) >= inner_len {
        (u128::from(id) - inner_len, true)
    } else {
        (u128::from(id), complemented_class)
    };
    let inner = u64::try_from(inner).unwrap_or(u64::MAX);
    // Bins a..=b, as values: open below when a = 0, above when b = bins − 1.
    let range = |a: u64, b: u64| {
        let lower = (a > 0).then(|| discretizer.edge_unchecked(a));
        let upper = (b + 1 < bins).then(|| discretizer.edge_unchecked(b + 1));
        range_text(lower, upper, complemented)
    };
    Ok(Some(match shape {
        UnitShape::Thresholds => range(0, inner),
        UnitShape::Points => range(inner, inner),
        UnitShape::Intervals(intervals) => match intervals.bounds(inner) {
            Some((a, b)) => range(a, b),
            None => range_text(None, None, !complemented),
        },
    }))
}

/// The bins labeled 1 by concept `id` of the class named `name` over `bins` ordered points,
/// as sorted disjoint runs `[a, b]` of bins, with the class's size; for `thresholds`,
/// `points`, `intervals` and their `not(…)` / `both(…)`; `None` for other classes.
fn concept_runs(name: &str, bins: u64, id: u128) -> Option<(Vec<(u64, u64)>, u128)> {
    let unwrap = |prefix: &str| name.strip_prefix(prefix).and_then(|r| r.strip_suffix(')'));
    let complement = |runs: Vec<(u64, u64)>| {
        let mut out = Vec::new();
        let mut next = 0;
        for (a, b) in runs {
            if a > next {
                out.push((next, a - 1));
            }
            next = b + 1;
        }
        if next < bins {
            out.push((next, bins - 1));
        }
        out
    };
    if let Some(inner) = unwrap("not(") {
        let (runs, len) = concept_runs(inner, bins, id)?;
        return Some((complement(runs), len));
    }
    if let Some(inner) = unwrap("both(") {
        let (_, inner_len) = concept_runs(inner, bins, 0)?;
        let (runs, _) = concept_runs(inner, bins, id % inner_len)?;
        let runs = if id >= inner_len {
            complement(runs)
        } else {
            runs
        };
        return Some((runs, 2 * inner_len));
    }
    let inner = u64::try_from(id).ok()?;
    match name.split_once(':')?.0 {
        "thresholds" => Some((vec![(0, inner)], u128::from(bins))),
        "points" => Some((vec![(inner, inner)], u128::from(bins))),
        "intervals" => {
            let intervals = Intervals::new(bins).ok()?;
            let runs = intervals.bounds(inner).map(|(a, b)| vec![(a, b)]);
            Some((runs.unwrap_or_default(), intervals.len()))
        }
        _ => None,
    }
}

/// The symmetric difference of two sorted lists of disjoint runs of bins, as such a list.
fn xor_runs(left: &[(u64, u64)], right: &[(u64, u64)]) -> Vec<(u64, u64)> {
    // Sweep the run boundaries: the label flips at each run's start and after its end.
    let mut flips: Vec<u64> = left
        .iter()
        .chain(right)
        .flat_map(|&(a, b)| [a, b.saturating_add(1)])
        .collect();
    flips.sort_unstable();
    let mut out = Vec::new();
    let mut open: Option<u64> = None;
    let mut i = 0;
    while i < flips.len() {
        let at = flips[i];
        let mut count = 0;
        while i < flips.len() && flips[i] == at {
            count += 1;
            i += 1;
        }
        if count % 2 == 1 {
            match open.take() {
                Some(start) => out.push((start, at - 1)),
                None => open = Some(at),
            }
        }
    }
    out
}

/// Concept `id` of `xor(inner)` (`class_len` concepts) in data units: the symmetric
/// difference of its two inner concepts as a union of ranges of values; `None` when the
/// inner class has no statement in data units.
fn xor_in_units(
    inner: &str,
    class_len: u128,
    id: u64,
    discretizer: &Discretizer,
) -> Option<String> {
    let bins = discretizer.bins;
    let (_, inner_len) = concept_runs(inner, bins, 0)?;
    if inner_len == 0 || inner_len.checked_mul(inner_len)? != class_len {
        return None;
    }
    let id = u128::from(id);
    if id >= class_len {
        return None;
    }
    let (left, _) = concept_runs(inner, bins, id / inner_len)?;
    let (right, _) = concept_runs(inner, bins, id % inner_len)?;
    let runs = xor_runs(&left, &right);
    if runs.is_empty() {
        return Some("0 on every x".into());
    }
    let pieces: Vec<String> = runs
        .iter()
        .map(|&(a, b)| {
            let lower = (a > 0).then(|| discretizer.edge_unchecked(a));
            let upper = (b + 1 < bins).then(|| discretizer.edge_unchecked(b + 1));
            match (lower, upper) {
                (None, None) => "every x".to_string(),
                (Some(l), None) => format!("x ≥ {l}"),
                (None, Some(u)) => format!("x < {u}"),
                (Some(l), Some(u)) => format!("{l} ≤ x < {u}"),
            }
        })
        .collect();
    Some(format!("1 on {}", pieces.join(" or ")))
}

/// A predictor learned on the bins of `discretizer`, in data units: concepts of the classes
/// [`describe_concept_in_units`] knows as statements about `x`, constants as such, a
/// flipped predictor with its flip probability; anything else (tables, hash buckets, noisy
/// votes, other classes) as [`Predictor::describe`] over the bins, saying so.
///
/// # Errors
/// [`DiscretizeError::BinsMismatch`] if the class is not over the ordered domain `[bins]`.
///
/// # Example
/// ```
/// use privpac_classes::{Hypothesis, parse_spec};
/// use privpac_learners::Predictor;
/// use privpac_toolkit::{Discretizer, describe_in_units};
/// let d = Discretizer::new(40.0, 200.0, 1600)?;
/// let class = parse_spec("both(thresholds:1600)")?;
/// let threshold = Predictor::from(Hypothesis::Concept { id: 642 }); // bins ≤ 642
/// assert_eq!(describe_in_units(&threshold, class.as_ref(), &d)?, "1 on x < 104.3");
/// let other_way = Predictor::from(Hypothesis::Concept { id: 1600 + 642 });
/// assert_eq!(describe_in_units(&other_way, class.as_ref(), &d)?, "1 on x ≥ 104.3");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn describe_in_units(
    predictor: &Predictor,
    class: &dyn ConceptClass,
    discretizer: &Discretizer,
) -> Result<String, DiscretizeError> {
    // The class must be over the bins whatever the predictor.
    describe_concept_in_units(class, 0, discretizer)?;
    Ok(match predictor {
        Predictor::Hypothesis(Hypothesis::Concept { id }) => {
            match describe_concept_in_units(class, *id, discretizer)? {
                Some(text) => text,
                None => format!(
                    "{} (x in the bins of {discretizer})",
                    predictor.describe(class)
                ),
            }
        }
        Predictor::Hypothesis(Hypothesis::Constant { label }) => {
            format!("{} on every x", u8::from(*label))
        }
        Predictor::Flipped {
            base,
            flip_probability,
        } => format!(
            "{} with labels flipped w.p. {flip_probability}",
            describe_in_units(base, class, discretizer)?
        ),
        other => format!("{} (x in the bins of {discretizer})", other.describe(class)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_bad_bounds_and_bins_with_typed_errors() {
        assert_eq!(
            Discretizer::new(1.0, 1.0, 4),
            Err(DiscretizeError::EmptyRange {
                low: 1.0,
                high: 1.0
            })
        );
        assert!(matches!(
            Discretizer::new(2.0, 1.0, 4),
            Err(DiscretizeError::EmptyRange { .. })
        ));
        assert!(matches!(
            Discretizer::new(f64::NAN, 1.0, 4),
            Err(DiscretizeError::NonFiniteBound { name: "low", .. })
        ));
        assert!(matches!(
            Discretizer::new(0.0, f64::INFINITY, 4),
            Err(DiscretizeError::NonFiniteBound { name: "high", .. })
        ));
        assert!(matches!(
            Discretizer::new(-f64::MAX, f64::MAX, 4),
            Err(DiscretizeError::RangeTooWide { .. })
        ));
        assert_eq!(
            Discretizer::new(0.0, 1.0, 0),
            Err(DiscretizeError::BadBins {
                bins: 0,
                max: MAX_BINS
            })
        );
        assert!(matches!(
            Discretizer::new(0.0, 1.0, MAX_BINS + 1),
            Err(DiscretizeError::BadBins { .. })
        ));
        assert!(Discretizer::new(0.0, 1.0, MAX_BINS).is_ok());
        assert!(Discretizer::new(0.0, 1.0, 1).is_ok());
    }

    #[test]
    fn bins_clip_and_refuse_nan() {
        let d = Discretizer::new(0.0, 10.0, 5).unwrap();
        let cases = [
            (f64::NEG_INFINITY, 0),
            (-1.0, 0),
            (0.0, 0),
            (1.999, 0),
            (2.0, 1),
            (3.9, 1),
            (4.0, 2),
            (9.99, 4),
            (10.0, 4),
            (11.0, 4),
            (f64::INFINITY, 4),
        ];
        for (x, b) in cases {
            assert_eq!(d.bin(x), Ok(b), "x = {x}");
        }
        assert_eq!(d.bin(f64::NAN), Err(DiscretizeError::NaN));
        assert_eq!(d.bin_all(&[1.0, f64::NAN]), Err(DiscretizeError::NaN));
        assert_eq!(d.bin_all(&[1.0, 5.0, 99.0]), Ok(vec![0, 2, 4]));
        let one = Discretizer::new(-1.0, 1.0, 1).unwrap();
        assert_eq!(one.bin(0.3), Ok(0));
        assert_eq!(one.interval(0), Ok((-1.0, 1.0)));
    }

    #[test]
    fn intervals_and_values_are_in_data_units() {
        let d = Discretizer::new(0.0, 10.0, 5).unwrap();
        assert_eq!(d.interval(0), Ok((0.0, 2.0)));
        assert_eq!(d.interval(4), Ok((8.0, 10.0)));
        assert_eq!(d.value(2), Ok(5.0));
        assert_eq!(d.edge(5), Ok(10.0));
        assert_eq!(
            d.interval(5),
            Err(DiscretizeError::BinOutOfRange { bin: 5, bins: 5 })
        );
        assert!(d.value(5).is_err());
        assert!(d.edge(6).is_err());
        // The issue's example: a threshold printed at 104.3, not at a bin index.
        let d = Discretizer::new(40.0, 200.0, 1600).unwrap();
        let b = d.bin(104.35).unwrap();
        assert_eq!(b, 643);
        assert_eq!(d.interval(b), Ok((104.3, 104.4)));
    }

    /// Every value lies in the interval of its bin, exactly, also where the division
    /// rounds and where edges coincide.
    #[test]
    fn every_value_lies_in_its_bins_interval() {
        let setups = [
            (0.0, 1.0, 3),
            (-0.3, 0.7, 10),
            (0.1, 0.3, 7),
            (1e16, 1e16 + 64.0, 1000), // edges coincide: bins narrower than the f64 spacing
            (-5.0, 1e-300, 49),
            (0.0, 1.0, MAX_BINS),
            (-1e300, 1e300, MAX_BINS), // w · bins overflows: the other formula
        ];
        for (low, high, bins) in setups {
            let d = Discretizer::new(low, high, bins).unwrap();
            let mut previous = 0;
            for k in 0..=2000 {
                let x = low + (high - low) * (f64::from(k) / 2000.0) * 1.0000001 - 1e-12;
                let b = d.bin(x).unwrap();
                assert!(b >= previous, "not monotone at {x}");
                previous = b;
                let (lo, hi) = d.interval(b).unwrap();
                let inside = (lo <= x || b == 0) && (x < hi || b == bins - 1);
                assert!(inside, "{x} in bin {b} = [{lo}, {hi}) of {d}");
            }
            for i in 0..bins.min(50) {
                let e = d.edge(i).unwrap();
                assert!(e <= d.edge(i + 1).unwrap());
                // An edge that starts a non-empty bin is the first value of it.
                if e < d.edge(i + 1).unwrap() {
                    assert_eq!(d.bin(e), Ok(i), "edge {i} = {e} of {d}");
                }
            }
        }
    }

    /// Every statement in data units agrees with the concept on bins: for each value on a
    /// grid (clipped ones included), the statement's label equals the concept's label of
    /// the value's bin, for every concept of every class it knows.
    #[test]
    fn statements_in_data_units_agree_with_the_concepts() {
        use privpac_classes::parse_spec;
        // Parses "1 on …" / "0 on every x" back into a predicate on x: pieces joined by
        // " or ", each "x < u", "x ≥ l", "l ≤ x < u" or "every x".
        fn holds(text: &str, x: f64) -> bool {
            let number = |s: &str| s.trim().parse::<f64>().unwrap();
            if text == "0 on every x" {
                return false;
            }
            let body = text.strip_prefix("1 on ").unwrap();
            body.split(" or ").any(|piece| {
                if piece == "every x" {
                    return true;
                }
                if let Some((lower, upper)) = piece.split_once(" ≤ x < ") {
                    return number(lower) <= x && x < number(upper);
                }
                if let Some(l) = piece.strip_prefix("x ≥ ") {
                    return x >= number(l);
                }
                x < number(piece.strip_prefix("x < ").unwrap())
            })
        }
        let d = Discretizer::new(-0.3, 0.7, 7).unwrap();
        let grid: Vec<f64> = (-20..=120).map(|k| f64::from(k) / 100.0).collect();
        for spec in [
            "thresholds:7",
            "not(thresholds:7)",
            "both(thresholds:7)",
            "points:7",
            "both(points:7)",
            "intervals:7",
            "not(intervals:7)",
            "both(intervals:7)",
            "xor(thresholds:7)",
            "xor(points:7)",
            "xor(intervals:7)",
            "xor(both(thresholds:7))",
            "xor(not(intervals:7))",
        ] {
            let class = parse_spec(spec).unwrap();
            for id in 0..class.len() as u64 {
                let text =
                    describe_in_units(&Hypothesis::Concept { id }.into(), class.as_ref(), &d)
                        .unwrap();
                for &x in &grid {
                    let bin = d.bin(x).unwrap();
                    assert_eq!(
                        holds(&text, x),
                        class.eval(id, bin),
                        "{spec} {id}: {text} at {x}"
                    );
                }
            }
        }
        let class = parse_spec("thresholds:7").unwrap();
        assert_eq!(
            describe_in_units(
                &Hypothesis::Constant { label: true }.into(),
                class.as_ref(),
                &d
            ),
            Ok("1 on every x".to_string())
        );
        let flipped = Predictor::Flipped {
            base: Box::new(Hypothesis::Concept { id: 6 }.into()),
            flip_probability: 0.25,
        };
        assert_eq!(
            describe_in_units(&flipped, class.as_ref(), &d),
            Ok("1 on every x with labels flipped w.p. 0.25".to_string())
        );
        // xor: a union of ranges in data units, not the bins' description.
        let xor = parse_spec("xor(thresholds:7)").unwrap();
        let text =
            describe_in_units(&Hypothesis::Concept { id: 7 + 4 }.into(), xor.as_ref(), &d).unwrap();
        assert!(!text.contains("bins"), "{text}");
        assert!(text.contains("x <") || text.contains("≤ x"), "{text}");
        let xor_intervals = parse_spec("xor(intervals:7)").unwrap();
        let two_ranges = (0..xor_intervals.len() as u64)
            .map(|id| {
                describe_in_units(
                    &Hypothesis::Concept { id }.into(),
                    xor_intervals.as_ref(),
                    &d,
                )
                .unwrap()
            })
            .any(|text| text.matches(" or ").count() == 1 && !text.contains("bins"));
        assert!(two_ranges, "no xor of intervals printed as two ranges");
        // Other classes: the bins' description, said to be in bins.
        let all = parse_spec("zero(thresholds:7)").unwrap();
        let text =
            describe_in_units(&Hypothesis::Concept { id: 3 }.into(), all.as_ref(), &d).unwrap();
        assert!(
            text.contains("in the bins of [-0.3, 0.7] in 7 bins"),
            "{text}"
        );
        // A class over another domain is refused.
        let other = parse_spec("thresholds:8").unwrap();
        assert_eq!(
            describe_in_units(&Hypothesis::Concept { id: 3 }.into(), other.as_ref(), &d),
            Err(DiscretizeError::BinsMismatch {
                bins: 7,
                points: 8,
                ordered: true
            })
        );
        let cube = parse_spec("parities:3").unwrap();
        assert!(
            describe_in_units(
                &Hypothesis::Constant { label: false }.into(),
                cube.as_ref(),
                &Discretizer::new(0.0, 1.0, 8).unwrap()
            )
            .is_err()
        );
    }
}
