//! Synthetic databases and how far their counting-query answers are from the real data's.
//!
//! # Counting queries
//! A concept `c` of a class C over a domain X defines the counting query
//! `c(D) = |{i : c(x_i) = 1}| / |D|` on a data set `D ∈ X^n`. A sanitizer outputs a
//! [`SyntheticDatabase`] `D̂` and is α-accurate for C on D when
//! `max_{c ∈ C} |c(D) − c(D̂)| ≤ α` ([`max_query_error`]).
//!
//! # Answering all queries at once
//! [`max_query_error`] never evaluates concept by concept. Labeling every point of a
//! multiset 1 and asking the class for its error profile gives, for every concept at once,
//! the number of points it labels 0, hence `c(D)`; the classes' fast profiles (prefix
//! counts for thresholds, counting for points, the Walsh–Hadamard transform for parities)
//! then do the work, and [`ConceptClass::error_runs`] keeps classes over huge domains
//! (points and thresholds over `[2^40]`) at O(n log n). A weighted histogram is handled
//! bit by bit: its weights are rounded down to multiples of 2^-60, and bit `b` of the
//! weights defines a multiset whose profile is added with weight `2^b`. The answers are
//! therefore exact for multisets and within `support · 2^-60` for histograms.

use privpac_classes::{ConceptClass, Domain, ErrorRun, LabeledSample, Point};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// Weights are quantized to multiples of `2^-WEIGHT_BITS` when all queries are answered at
/// once.
const WEIGHT_BITS: u32 = 60;

/// The output of a sanitizer: a small multiset of domain points, or a probability
/// distribution (weighted histogram) over the domain, stored sparsely or densely.
///
/// Whatever the representation, the database has total mass 1 and answers a counting
/// query with the fraction of its mass that the concept labels 1 ([`Self::answer`]).
/// Constructors validate their input (points in the domain, weights finite and
/// non-negative with a positive sum) and normalize weights to sum to 1.
///
/// # Example
/// ```
/// use privpac_classes::{Domain, Thresholds};
/// use privpac_sanitizers::SyntheticDatabase;
///
/// let class = Thresholds::new(10)?;
/// let domain = Domain::ordered(10)?;
/// let multiset = SyntheticDatabase::from_points(&domain, vec![1, 1, 7, 9])?;
/// assert_eq!(multiset.answer(&class, 5), 0.5); // c_5 labels y ≤ 5 with 1
/// let histogram = SyntheticDatabase::from_weights(&domain, vec![(1, 3.0), (8, 1.0)])?;
/// assert_eq!(histogram.answer(&class, 5), 0.75); // weights are normalized
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// Serializes as `{"domain": ..., "body": {"multiset": {"points": [...]}}}` (or
/// `sparse`/`dense` with `weights`); deserializing rebuilds through
/// [`SyntheticDatabase::from_points`], [`SyntheticDatabase::from_weights`] or
/// [`SyntheticDatabase::from_dense`], so a loaded database is validated (points inside the
/// domain, weights finite, non-negative and renormalized).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "RawSynthetic")]
pub struct SyntheticDatabase {
    domain: Domain,
    body: Body,
}

/// The stored representation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Body {
    /// Points sorted in increasing order (repeats allowed).
    Multiset { points: Vec<Point> },
    /// Distinct points in increasing order with positive weights summing to 1.
    Sparse { weights: Vec<(Point, f64)> },
    /// One weight per domain point, in the domain's enumeration order, summing to 1.
    Dense { weights: Vec<f64> },
}

/// The serialized form of a [`SyntheticDatabase`], validated on the way in.
#[derive(Deserialize)]
struct RawSynthetic {
    domain: Domain,
    body: Body,
}

impl TryFrom<RawSynthetic> for SyntheticDatabase {
    type Error = Error;

    fn try_from(raw: RawSynthetic) -> Result<Self> {
        match raw.body {
            Body::Multiset { points } => SyntheticDatabase::from_points(&raw.domain, points),
            Body::Sparse { weights } => SyntheticDatabase::from_weights(&raw.domain, weights),
            Body::Dense { weights } => SyntheticDatabase::from_dense(&raw.domain, weights),
        }
    }
}

/// Which representation a [`SyntheticDatabase`] uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SyntheticKind {
    /// A multiset of points; each point has mass `1/len`.
    Multiset,
    /// A weighted histogram stored as (point, weight) pairs.
    SparseHistogram,
    /// A weighted histogram with one weight per domain point.
    DenseHistogram,
}

impl SyntheticDatabase {
    /// A multiset of points; the order of `points` does not matter.
    ///
    /// # Errors
    /// [`Error::EmptySynthetic`] for no points; [`Error::Class`] wrapping
    /// `PointOutsideDomain` for the first point outside `domain`.
    pub fn from_points(domain: &Domain, mut points: Vec<Point>) -> Result<Self> {
        if points.is_empty() {
            return Err(Error::EmptySynthetic);
        }
        for &x in &points {
            domain.check(x)?;
        }
        points.sort_unstable();
        Ok(SyntheticDatabase {
            domain: domain.clone(),
            body: Body::Multiset { points },
        })
    }

    /// A sparse weighted histogram from (point, weight) pairs. Repeated points have their
    /// weights added, zero weights are dropped, and the weights are normalized to sum to 1.
    ///
    /// # Errors
    /// [`Error::InvalidWeight`] for a negative or non-finite weight,
    /// [`Error::EmptySynthetic`] if no weight is positive, [`Error::Class`] for a point
    /// outside `domain`.
    pub fn from_weights(domain: &Domain, weights: Vec<(Point, f64)>) -> Result<Self> {
        for (index, &(x, w)) in weights.iter().enumerate() {
            check_weight(index, w)?;
            domain.check(x)?;
        }
        let mut pairs: Vec<(Point, f64)> = weights.into_iter().filter(|p| p.1 > 0.0).collect();
        pairs.sort_unstable_by_key(|p| p.0);
        let mut merged: Vec<(Point, f64)> = Vec::with_capacity(pairs.len());
        for (x, w) in pairs {
            match merged.last_mut() {
                Some(last) if last.0 == x => last.1 += w,
                _ => merged.push((x, w)),
            }
        }
        let mut values: Vec<f64> = merged.iter().map(|p| p.1).collect();
        normalize(&mut values)?;
        for (pair, w) in merged.iter_mut().zip(values) {
            pair.1 = w;
        }
        Ok(SyntheticDatabase {
            domain: domain.clone(),
            body: Body::Sparse { weights: merged },
        })
    }

    /// A dense weighted histogram: `weights[i]` is the weight of the domain's `i`-th point
    /// (see [`Domain::point_at`]). The weights are normalized to sum to 1.
    ///
    /// # Errors
    /// [`Error::HistogramLength`] unless there is one weight per domain point,
    /// [`Error::InvalidWeight`], [`Error::EmptySynthetic`].
    pub fn from_dense(domain: &Domain, mut weights: Vec<f64>) -> Result<Self> {
        if weights.len() as u128 != domain.size() {
            return Err(Error::HistogramLength {
                domain: domain.to_string(),
                expected: domain.size(),
                found: weights.len(),
            });
        }
        for (index, &w) in weights.iter().enumerate() {
            check_weight(index, w)?;
        }
        normalize(&mut weights)?;
        Ok(SyntheticDatabase {
            domain: domain.clone(),
            body: Body::Dense { weights },
        })
    }

    /// The domain the database lives on.
    pub fn domain(&self) -> &Domain {
        &self.domain
    }

    /// The representation.
    pub fn kind(&self) -> SyntheticKind {
        match self.body {
            Body::Multiset { .. } => SyntheticKind::Multiset,
            Body::Sparse { .. } => SyntheticKind::SparseHistogram,
            Body::Dense { .. } => SyntheticKind::DenseHistogram,
        }
    }

    /// The points of a multiset, in increasing order; `None` for a histogram.
    pub fn points(&self) -> Option<&[Point]> {
        match &self.body {
            Body::Multiset { points } => Some(points),
            _ => None,
        }
    }

    /// The dense weights (one per domain point in enumeration order); `None` unless the
    /// database is a dense histogram.
    pub fn dense_weights(&self) -> Option<&[f64]> {
        match &self.body {
            Body::Dense { weights } => Some(weights),
            _ => None,
        }
    }

    /// The database as (point, mass) pairs with positive mass, in increasing point order.
    /// A multiset point repeated `k` times out of `m` has mass `k/m`.
    pub fn weights(&self) -> Vec<(Point, f64)> {
        match &self.body {
            Body::Multiset { points } => {
                let m = points.len() as f64;
                let mut out: Vec<(Point, f64)> = Vec::new();
                for &x in points {
                    match out.last_mut() {
                        Some(last) if last.0 == x => last.1 += 1.0,
                        _ => out.push((x, 1.0)),
                    }
                }
                for pair in &mut out {
                    pair.1 /= m;
                }
                out
            }
            Body::Sparse { weights } => weights.clone(),
            Body::Dense { weights } => weights
                .iter()
                .enumerate()
                .filter(|(_, w)| **w > 0.0)
                .map(|(i, &w)| (self.point_of(i), w))
                .collect(),
        }
    }

    /// The number of distinct points with positive mass.
    pub fn support_len(&self) -> usize {
        match &self.body {
            Body::Multiset { points } => points.windows(2).filter(|w| w[0] != w[1]).count() + 1,
            Body::Sparse { weights } => weights.len(),
            Body::Dense { weights } => weights.iter().filter(|w| **w > 0.0).count(),
        }
    }

    /// The mass of one point (0 for points outside the support or the domain).
    pub fn mass_of(&self, x: Point) -> f64 {
        match &self.body {
            Body::Multiset { points } => {
                let lo = points.partition_point(|&p| p < x);
                let hi = points.partition_point(|&p| p <= x);
                (hi - lo) as f64 / points.len() as f64
            }
            Body::Sparse { weights } => weights
                .binary_search_by_key(&x, |p| p.0)
                .map_or(0.0, |i| weights[i].1),
            Body::Dense { weights } => self
                .domain
                .index_of(x)
                .and_then(|i| weights.get(i as usize))
                .copied()
                .unwrap_or(0.0),
        }
    }

    /// The counting query `c_id(D̂)`: the fraction of the database's mass that concept
    /// `id` labels 1.
    ///
    /// Evaluates the concept on every point of the support (O(support)). An `id` outside
    /// the class or a class over another domain gives an unspecified value (as
    /// [`ConceptClass::eval`] does) but never panics; use [`max_query_error`] for checked,
    /// all-concepts-at-once answers.
    pub fn answer<C: ConceptClass + ?Sized>(&self, class: &C, id: u64) -> f64 {
        match &self.body {
            Body::Multiset { points } => {
                let ones = points.iter().filter(|&&x| class.eval(id, x)).count();
                ones as f64 / points.len() as f64
            }
            Body::Sparse { weights } => weights
                .iter()
                .filter(|&&(x, _)| class.eval(id, x))
                .map(|p| p.1)
                .sum(),
            Body::Dense { weights } => weights
                .iter()
                .enumerate()
                .filter(|&(i, &w)| w > 0.0 && class.eval(id, self.point_of(i)))
                .map(|(_, &w)| w)
                .sum(),
        }
    }

    /// The domain point at enumeration index `i`.
    fn point_of(&self, i: usize) -> Point {
        self.domain.point_at(i as u64).unwrap_or(i as u64)
    }

    /// Every concept's answer as a step function over concept ids, scaled to an integer
    /// numerator over the returned denominator.
    fn answer_steps<C: ConceptClass + ?Sized>(&self, class: &C) -> Result<(Steps, f64)> {
        match &self.body {
            Body::Multiset { points } => Ok((ones_steps(class, points)?, points.len() as f64)),
            Body::Sparse { .. } | Body::Dense { .. } => {
                let pairs = self.weights();
                let quantized: Vec<(Point, u64)> = pairs
                    .iter()
                    .map(|&(x, w)| (x, (w * (1u64 << WEIGHT_BITS) as f64) as u64))
                    .collect();
                let mut total: Option<Steps> = None;
                for bit in 0..=WEIGHT_BITS + 1 {
                    let level: Vec<Point> = quantized
                        .iter()
                        .filter(|&&(_, q)| q >> bit & 1 == 1)
                        .map(|p| p.0)
                        .collect();
                    if level.is_empty() {
                        continue;
                    }
                    let steps: Steps = ones_steps(class, &level)?
                        .into_iter()
                        .map(|(start, ones)| (start, ones << bit))
                        .collect();
                    total = Some(match total {
                        None => steps,
                        Some(acc) => merge_steps(&acc, &steps),
                    });
                }
                // Every weight rounds to zero only if the support exceeds 2^60 points.
                let steps = total.unwrap_or_else(|| vec![(0, 0)]);
                Ok((steps, (1u64 << WEIGHT_BITS) as f64))
            }
        }
    }
}

/// Checks one histogram weight.
fn check_weight(index: usize, w: f64) -> Result<()> {
    if w.is_finite() && w >= 0.0 {
        Ok(())
    } else {
        Err(Error::InvalidWeight { index, value: w })
    }
}

/// Scales finite non-negative weights to sum to 1 (dividing by the maximum first, so the
/// sum cannot overflow).
pub(crate) fn normalize(weights: &mut [f64]) -> Result<()> {
    let max = weights.iter().copied().fold(0.0f64, f64::max);
    if max <= 0.0 {
        return Err(Error::EmptySynthetic);
    }
    let total: f64 = weights.iter().map(|w| w / max).sum();
    let scale = 1.0 / (max * total);
    if scale.is_finite() && scale > 0.0 {
        for w in weights.iter_mut() {
            *w *= scale;
        }
    } else {
        for w in weights.iter_mut() {
            *w = *w / max / total;
        }
    }
    Ok(())
}

/// A step function over concept ids: `(first id, value)` pairs with increasing first ids,
/// the first one 0; each value holds up to the next first id (or the end of the class).
type Steps = Vec<(u64, u128)>;

/// For every concept, how many of `points` it labels 1, as a step function: label every
/// point 1 and read the error profile (a concept errs exactly on the points it labels 0).
fn ones_steps<C: ConceptClass + ?Sized>(class: &C, points: &[Point]) -> Result<Steps> {
    let sample = LabeledSample::new(class.domain(), points.to_vec(), vec![true; points.len()])?;
    let total = points.len() as u128;
    let runs: Vec<ErrorRun> = class.error_runs(&sample)?;
    let mut steps: Steps = runs
        .iter()
        .map(|run| (run.first, total.saturating_sub(u128::from(run.errors))))
        .collect();
    if steps.first().is_none_or(|s| s.0 != 0) {
        // Defensive: a profile that does not start at id 0 would misalign the merge.
        steps.insert(0, (0, total));
    }
    Ok(steps)
}

/// The pointwise sum of two step functions.
fn merge_steps(a: &Steps, b: &Steps) -> Steps {
    merge_with(a, b, |x, y| x + y)
}

/// Combines two step functions pointwise with `f`, walking their breakpoints in order.
fn merge_with<A: Copy, B: Copy, T>(
    a: &[(u64, A)],
    b: &[(u64, B)],
    f: impl Fn(A, B) -> T,
) -> Vec<(u64, T)> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        out.push((a[i].0.max(b[j].0), f(a[i].1, b[j].1)));
        let next_a = a.get(i + 1).map(|s| s.0);
        let next_b = b.get(j + 1).map(|s| s.0);
        match (next_a, next_b) {
            (None, None) => break,
            (Some(_), None) => i += 1,
            (None, Some(_)) => j += 1,
            (Some(x), Some(y)) => {
                if x <= y {
                    i += 1;
                }
                if y <= x {
                    j += 1;
                }
            }
        }
    }
    out
}

/// The largest counting-query error of a synthetic database over all concepts of a class,
/// `max_{c ∈ C} |c(D) − c(D̂)|` with both answers as fractions, and the first concept id
/// attaining it.
///
/// # Utility
/// Exact for a multiset `D̂`. For a histogram the answers are computed from weights rounded
/// down to multiples of 2^-60, so the result is within `support_len · 2^-60` of the exact
/// value (plus floating-point rounding of the final division).
///
/// # Running time
/// One error profile of the class per multiset, or per populated bit level (at most 61)
/// of a histogram's quantized weights. With the classes' fast profiles this is
/// O(n log n) for points and thresholds over any domain size (even `[2^40]`), O(n + |C|)
/// for dense profiles, and O(|C|·n) for classes with only the brute-force reference.
///
/// # Errors
/// [`Error::EmptyData`] for empty real data; [`Error::DomainMismatch`] if `synthetic`
/// lives on another domain than `class`; [`Error::Class`] for a real point outside the
/// domain, or (wrapping `TooLarge`) when the class has more concepts than a dense error
/// profile allows (`privpac_classes::ERROR_PROFILE_LIMIT`) and no run-length profile.
///
/// # Example
/// ```
/// use privpac_classes::{ConceptClass, Thresholds};
/// use privpac_sanitizers::{SyntheticDatabase, max_query_error};
///
/// let class = Thresholds::new(8)?;
/// let real = [0, 1, 2, 3];
/// let synthetic = SyntheticDatabase::from_points(class.domain(), vec![0, 3])?;
/// let (error, worst) = max_query_error(&class, &real, &synthetic)?;
/// assert_eq!((error, worst), (0.25, 0)); // c_0: 1/4 of the real data, 1/2 of the synthetic
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn max_query_error<C: ConceptClass + ?Sized>(
    class: &C,
    real_data: &[Point],
    synthetic: &SyntheticDatabase,
) -> Result<(f64, u64)> {
    if real_data.is_empty() {
        return Err(Error::EmptyData);
    }
    if synthetic.domain() != class.domain() {
        return Err(Error::DomainMismatch {
            synthetic: synthetic.domain().to_string(),
            class: class.domain().to_string(),
        });
    }
    let real = ones_steps(class, real_data)?;
    let n = real_data.len() as f64;
    let (fake, scale) = synthetic.answer_steps(class)?;
    let differences = merge_with(&real, &fake, |r, s| (r as f64 / n - s as f64 / scale).abs());
    let mut best = (0.0f64, 0u64);
    for (start, diff) in differences {
        if diff > best.0 {
            best = (diff, start);
        }
    }
    Ok(best)
}

/// [`max_query_error`] restricted to a list of queries (concept ids): the largest
/// `|c(D) − c(D̂)|` over `queries`, and the first id in the list attaining it.
///
/// # Utility
/// Exact up to floating-point summation (each answer is a sum over the data and over the
/// synthetic database's support).
///
/// # Running time
/// O(|Q|·(n + support)) evaluations, in parallel over queries (results do not depend on
/// the thread count). Use it for query subsets of large classes, and for classes without a
/// fast error profile.
///
/// # Errors
/// [`Error::EmptyData`], [`Error::NoQueries`], [`Error::DomainMismatch`], and
/// [`Error::Class`] for a real point outside the domain or an id outside the class.
///
/// # Example
/// ```
/// use privpac_classes::{ConceptClass, Thresholds};
/// use privpac_sanitizers::{SyntheticDatabase, max_query_error_on};
///
/// let class = Thresholds::new(8)?;
/// let synthetic = SyntheticDatabase::from_points(class.domain(), vec![0, 3])?;
/// let (error, worst) = max_query_error_on(&class, &[2, 5], &[0, 1, 2, 3], &synthetic)?;
/// assert_eq!((error, worst), (0.25, 2)); // c_2: 3/4 of the real data, 1/2 of the synthetic
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn max_query_error_on<C: ConceptClass + ?Sized>(
    class: &C,
    queries: &[u64],
    real_data: &[Point],
    synthetic: &SyntheticDatabase,
) -> Result<(f64, u64)> {
    if real_data.is_empty() {
        return Err(Error::EmptyData);
    }
    if queries.is_empty() {
        return Err(Error::NoQueries);
    }
    if synthetic.domain() != class.domain() {
        return Err(Error::DomainMismatch {
            synthetic: synthetic.domain().to_string(),
            class: class.domain().to_string(),
        });
    }
    for &x in real_data {
        class.domain().check(x)?;
    }
    for &id in queries {
        privpac_classes::check_concept(class, id)?;
    }
    let support = synthetic.weights();
    let n = real_data.len() as f64;
    let errors: Vec<f64> = queries
        .par_iter()
        .map(|&id| {
            let truth = real_data.iter().filter(|&&x| class.eval(id, x)).count() as f64 / n;
            let fake: f64 = support
                .iter()
                .filter(|&&(x, _)| class.eval(id, x))
                .map(|p| p.1)
                .sum();
            (truth - fake).abs()
        })
        .collect();
    let mut best = (0.0f64, queries[0]);
    for (&id, &error) in queries.iter().zip(&errors) {
        if error > best.0 {
            best = (error, id);
        }
    }
    Ok(best)
}

#[cfg(test)]
mod serde_tests {
    use super::*;

    #[test]
    fn serde_round_trips_and_validates() {
        let domain = Domain::ordered(10).unwrap();
        for db in [
            SyntheticDatabase::from_points(&domain, vec![1, 1, 7]).unwrap(),
            SyntheticDatabase::from_weights(&domain, vec![(1, 3.0), (8, 1.0)]).unwrap(),
            SyntheticDatabase::from_dense(&domain, vec![1.0; 10]).unwrap(),
        ] {
            let json = serde_json::to_string(&db).unwrap();
            assert_eq!(
                serde_json::from_str::<SyntheticDatabase>(&json).unwrap(),
                db
            );
        }
        for bad in [
            r#"{"domain":{"ordered":{"size":4}},"body":{"multiset":{"points":[4]}}}"#,
            r#"{"domain":{"ordered":{"size":4}},"body":{"multiset":{"points":[]}}}"#,
            r#"{"domain":{"ordered":{"size":4}},"body":{"sparse":{"weights":[[1,-1.0]]}}}"#,
            r#"{"domain":{"ordered":{"size":4}},"body":{"dense":{"weights":[1.0]}}}"#,
        ] {
            assert!(
                serde_json::from_str::<SyntheticDatabase>(bad).is_err(),
                "{bad}"
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use privpac_classes::{Intervals, Parities, Points, Thresholds};

    use super::*;

    /// The reference: evaluate every concept on every point.
    fn brute_force<C: ConceptClass + ?Sized>(
        class: &C,
        real: &[Point],
        synthetic: &SyntheticDatabase,
    ) -> (f64, u64) {
        let mut best = (0.0f64, 0u64);
        for id in 0..class.len() as u64 {
            let truth =
                real.iter().filter(|&&x| class.eval(id, x)).count() as f64 / real.len() as f64;
            let diff = (truth - synthetic.answer(class, id)).abs();
            if diff > best.0 + 1e-12 {
                best = (diff, id);
            }
        }
        best
    }

    #[track_caller]
    fn check<C: ConceptClass + ?Sized>(class: &C, real: &[Point], synthetic: &SyntheticDatabase) {
        let fast = max_query_error(class, real, synthetic).unwrap();
        let slow = brute_force(class, real, synthetic);
        let all: Vec<u64> = (0..class.len() as u64).collect();
        let listed = max_query_error_on(class, &all, real, synthetic).unwrap();
        assert!((listed.0 - slow.0).abs() < 1e-12, "{listed:?} vs {slow:?}");
        assert!((fast.0 - slow.0).abs() < 1e-12, "{fast:?} vs {slow:?}");
        if slow.0 > 0.0 {
            // The reported concept attains the maximum.
            let truth =
                real.iter().filter(|&&x| class.eval(fast.1, x)).count() as f64 / real.len() as f64;
            let at_worst = (truth - synthetic.answer(class, fast.1)).abs();
            assert!((at_worst - slow.0).abs() < 1e-12);
        }
    }

    #[test]
    fn fast_answers_match_brute_force() {
        let thresholds = Thresholds::new(16).unwrap();
        let domain = thresholds.domain().clone();
        let real = [0, 3, 3, 7, 15, 15, 15, 9];
        let multiset = SyntheticDatabase::from_points(&domain, vec![1, 3, 8]).unwrap();
        let sparse =
            SyntheticDatabase::from_weights(&domain, vec![(2, 0.1), (9, 0.7), (15, 0.2)]).unwrap();
        let dense =
            SyntheticDatabase::from_dense(&domain, (0..16).map(|i| (i * i % 7) as f64).collect())
                .unwrap();
        for synthetic in [&multiset, &sparse, &dense] {
            check(&thresholds, &real, synthetic);
            check(&Points::new(domain.clone()), &real, synthetic);
            check(&Intervals::new(16).unwrap(), &real, synthetic);
        }
        let parities = Parities::new(4).unwrap();
        let cube = parities.domain().clone();
        let odd =
            SyntheticDatabase::from_weights(&cube, vec![(1, 1.0), (6, 2.0), (7, 0.5)]).unwrap();
        check(&parities, &[0, 1, 2, 3, 15], &odd);
    }

    #[test]
    fn identical_data_has_zero_error() {
        let class = Thresholds::new(100).unwrap();
        let real: Vec<Point> = (0..50).map(|i| i * 2).collect();
        let same = SyntheticDatabase::from_points(class.domain(), real.clone()).unwrap();
        assert_eq!(max_query_error(&class, &real, &same).unwrap().0, 0.0);
    }

    #[test]
    fn huge_implicit_domains_use_run_profiles() {
        let domain = Domain::ordered(1 << 40).unwrap();
        let class = Points::new(domain.clone());
        let real = [5, 5, 1 << 39, 12];
        let synthetic = SyntheticDatabase::from_points(&domain, vec![5, 12]).unwrap();
        let (error, worst) = max_query_error(&class, &real, &synthetic).unwrap();
        assert_eq!((error, worst), (0.25, 12)); // 1/4 vs 1/2 at 12; 1/4 at 2^39 ties later
        let thresholds = Thresholds::new(1 << 40).unwrap();
        let (error, worst) = max_query_error(&thresholds, &real, &synthetic).unwrap();
        assert_eq!((error, worst), (0.25, 12)); // c_t for 12 ≤ t: 3/4 vs all of it
    }

    #[test]
    fn invalid_input_is_a_typed_error() {
        let class = Thresholds::new(4).unwrap();
        let domain = class.domain().clone();
        let ok = SyntheticDatabase::from_points(&domain, vec![1]).unwrap();
        assert_eq!(max_query_error(&class, &[], &ok), Err(Error::EmptyData));
        assert!(matches!(
            max_query_error(&class, &[4], &ok),
            Err(Error::Class(privpac_classes::Error::PointOutsideDomain {
                point: 4,
                ..
            }))
        ));
        let other = SyntheticDatabase::from_points(&Domain::ordered(5).unwrap(), vec![1]).unwrap();
        assert!(matches!(
            max_query_error(&class, &[1], &other),
            Err(Error::DomainMismatch { .. })
        ));
        let huge = Parities::new(40).unwrap();
        let cube = SyntheticDatabase::from_points(huge.domain(), vec![1]).unwrap();
        assert!(matches!(
            max_query_error(&huge, &[1], &cube),
            Err(Error::Class(privpac_classes::Error::OutOfReach { .. }))
        ));
        assert_eq!(
            SyntheticDatabase::from_points(&domain, vec![]),
            Err(Error::EmptySynthetic)
        );
        assert!(matches!(
            SyntheticDatabase::from_points(&domain, vec![9]),
            Err(Error::Class(_))
        ));
        assert_eq!(
            SyntheticDatabase::from_weights(&domain, vec![(1, 0.0)]),
            Err(Error::EmptySynthetic)
        );
        assert!(matches!(
            SyntheticDatabase::from_weights(&domain, vec![(1, 1.0), (2, f64::NAN)]),
            Err(Error::InvalidWeight { index: 1, .. })
        ));
        assert!(matches!(
            SyntheticDatabase::from_dense(&domain, vec![1.0; 3]),
            Err(Error::HistogramLength {
                expected: 4,
                found: 3,
                ..
            })
        ));
        assert!(matches!(
            SyntheticDatabase::from_dense(&domain, vec![1.0, -1.0, 0.0, 0.0]),
            Err(Error::InvalidWeight { index: 1, .. })
        ));
    }

    #[test]
    fn representations_agree() {
        let domain = Domain::explicit(vec![3, 10, 40]).unwrap();
        let dense = SyntheticDatabase::from_dense(&domain, vec![1.0, 0.0, 3.0]).unwrap();
        assert_eq!(dense.weights(), vec![(3, 0.25), (40, 0.75)]);
        assert_eq!(dense.mass_of(40), 0.75);
        assert_eq!(dense.support_len(), 2);
        let multiset = SyntheticDatabase::from_points(&domain, vec![40, 3, 40, 40]).unwrap();
        assert_eq!(multiset.weights(), dense.weights());
        assert_eq!(multiset.mass_of(3), 0.25);
        assert_eq!(multiset.kind(), SyntheticKind::Multiset);
        let huge = SyntheticDatabase::from_weights(&domain, vec![(3, f64::MAX), (10, f64::MAX)]);
        assert_eq!(huge.unwrap().mass_of(10), 0.5);
    }
}
