//! The sanitize → small database → cover step of the sanitizer-based learners, reusable:
//! sanitize the sample's points with respect to C⊕ once, draw a small database D̃ from the
//! synthetic distribution, and keep one concept per dichotomy of C on the points B of D̃.
//!
//! This is steps 2–4 of Algorithm 2 (`GenericLearner`) of Bun, Nissim and Stemmer,
//! "Simultaneous private learning of multiple concepts" (the construction behind their
//! Theorem 2.23, after Beimel, Nissim and Stemmer): the single-concept
//! [`crate::SanitizerLearner`] selects from the cover once, the multi-concept learner once
//! per label column (step 5).
//!
//! # Why the small database
//! Algorithm 2 asks for a sanitization D̃ with `|D̃| = O(VC(C)·log(1/α)/α²)` points. A
//! sanitizer that outputs a dense weighted histogram (MWEM, private multiplicative
//! weights) gives every domain point positive weight, so the cover of C on its support is
//! all of C, the exponential mechanism then pays `ln|C|` instead of
//! `ln|Π_C(B)| = O(VC(C)·ln|B|)`, and the sample-complexity advantage of Theorem 2.23 is
//! lost (the learner becomes the generic learner at half the budget). [`SanitizedCover`]
//! therefore draws `m` points i.i.d. from the synthetic distribution whenever its support
//! has more than `m` points. This is **post-processing** of the sanitizer's output (it
//! reads only D̂ and fresh coins), so it costs no privacy. It keeps the accuracy: if D̂ is
//! α/5-accurate for C⊕ and the m draws are an α/5-approximation of D̂ for C⊕ (uniform
//! convergence, probability 1 − β/5), then D̃ is 2α/5-accurate for C⊕, which is event E₁ of
//! the paper's proof of Lemma 3.7 (the multi-concept version of Theorem 2.23).
//!
//! # How many points
//! - [`proved_support_size`]: the size for which the uniform-convergence step is proved,
//!   from the paper's Theorem 2.8 (`n ≥ (64/α²)(VC(H)·ln(6/α) + ln(8/β))`, applied to
//!   H = C⊕ with accuracy α/5 and failure β/5), with `VC(C⊕)` bounded by
//!   [`xor_vc_bound`]. This is large (about 5.5·10⁶ points for VC(C) = 1, α = 0.1,
//!   β = 0.1), so it only pays off on huge domains.
//! - [`order_support_size`]: `⌈d·ln(1/α)/α²⌉`, the paper's `O(VC(C)·log(1/α)/α²)` with
//!   constant 1. The constant is **ours** (the O hides it); it is the default of
//!   [`crate::SanitizerLearner`] and carries no proved accuracy guarantee beyond the
//!   order of growth.

use std::collections::HashSet;

use privpac_classes::{
    ConceptClass, ConceptParts, Hypothesis, IdRange, LabeledSample, ParityLabelings, Point,
    ThresholdStructure, Xor, sauer_shelah_bound,
};
use privpac_mechanisms::ExponentialMechanism;
use privpac_sanitizers::{
    IntervalXorSynthetic, PiecewiseDistribution, Sanitizer, SyntheticDatabase,
};
use rand::Rng;
use rand::distr::Distribution;
use rand::distr::weighted::WeightedIndex;

use crate::cover::Labelings;
use crate::error::{Error, Result};

/// The smallest concept id of every dichotomy on `distinct` sorted distinct points, in
/// increasing order, from the class's labeling ranges
/// ([`ConceptClass::labeling_ranges`]): the ranges partition the ids in increasing order
/// and every concept of a range labels the points as the range says, so the first id of
/// the first range with a given labeling (compared by [`PointInterval::canonical`] form)
/// is the smallest id inducing it: the same list as evaluating every concept on the
/// points, in O(r log r) for r ranges instead of O(|C|·|B|).
///
/// [`PointInterval::canonical`]: privpac_classes::PointInterval::canonical
pub(crate) fn ranges_cover(ranges: &[IdRange], distinct: usize) -> Vec<u64> {
    let mut seen = HashSet::with_capacity(ranges.len());
    ranges
        .iter()
        .filter(|range| {
            let key = range.positives.canonical(distinct);
            seen.insert((key.start, key.end, key.complemented))
        })
        .map(|range| range.first)
        .collect()
}

mod points;
pub use points::point_cover;

/// Largest small-database size accepted (the draws are stored).
const MAX_SUPPORT_SIZE: usize = 1 << 26;

/// The hypothesis set H of Algorithm 2: one concept of C per dichotomy of C on the points
/// B of a small database drawn from a sanitization of the sample's points with respect to
/// C⊕.
///
/// Build it once ([`Self::build`], or [`Self::from_synthetic`] from a sanitization already
/// made) and select from it any number of times ([`Self::select`]), each selection with
/// its own labeled sample (one label column of a multi-labeled database) and its own
/// exponential mechanism.
///
/// # Privacy
/// [`Self::build`] is exactly as private as the sanitizer (it reads the points only
/// through it; replacing one example replaces at most one point); everything after the
/// sanitization is post-processing. Each [`Self::select`] is the exponential mechanism
/// with the given mechanism's ε on scores `−(mistakes on the sample)` (sensitivity 1).
/// The caller composes: one sanitization plus k selections is `(ε_san + k·ε_sel, δ_san)`
/// by basic composition (as in the paper's proof of Lemma 3.7).
///
/// # Example
/// ```
/// use privpac_classes::{ConceptClass, LabeledSample, Thresholds};
/// use privpac_mechanisms::{ExponentialMechanism, Privacy};
/// use privpac_learners::SanitizedCover;
/// use rand::SeedableRng;
/// use privpac_sanitizers::Mwem;
///
/// let class = Thresholds::new(1024)?;
/// let points: Vec<u64> = (0..2000u64).map(|i| (i * 37) % 1024).collect();
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
/// let mwem = Mwem::new(Privacy::pure(1.0)?, 10)?;
/// let cover = SanitizedCover::build(&mwem, &class, &points, 100, &mut rng)?;
/// assert!(cover.support().len() <= 100);
/// assert!(cover.len() <= cover.support().len() + 1); // thresholds: |B| + 1 dichotomies
/// let pairs: Vec<(u64, bool)> = points.iter().map(|&x| (x, x <= 300)).collect();
/// let sample = LabeledSample::from_pairs(class.domain(), &pairs)?;
/// let mechanism = ExponentialMechanism::new(Privacy::pure(1.0)?, 1.0)?;
/// let hypothesis = cover.select(&class, &sample, &mechanism, &mut rng)?;
/// println!("{hypothesis:?}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct SanitizedCover {
    support: Vec<Point>,
    hypotheses: Vec<u64>,
    /// `Some(N)` for intervals over `[N]` ([`ConceptClass::interval_structure`]): H is
    /// implicit (every run of B and the empty interval, see the `sanitized_intervals`
    /// module) and `hypotheses` is empty.
    intervals: Option<u64>,
}

impl SanitizedCover {
    /// Sanitizes `points` with respect to C⊕ with `sanitizer`, then
    /// [`Self::from_synthetic`] with at most `support_size` points.
    ///
    /// # Errors
    /// [`Error::EmptySample`] for no points; [`Error::SanitizerFailed`] if the sanitizer
    /// fails;
    /// as for [`Self::from_synthetic`] otherwise.
    pub fn build(
        sanitizer: &dyn Sanitizer,
        class: &dyn ConceptClass,
        points: &[Point],
        support_size: usize,
        rng: &mut dyn Rng,
    ) -> Result<Self> {
        if points.is_empty() {
            return Err(Error::EmptySample);
        }
        check_support_size(support_size)?;
        if let Some(structure) = class.threshold_structure()
            && let Some(result) = sanitizer.sanitize_threshold_xor(structure, points, rng)
        {
            let synthetic = result.map_err(Error::SanitizerFailed)?;
            return Self::from_pieces(&synthetic, class, support_size, rng);
        }
        if let Some(size) = class.interval_structure()
            && let Some(result) = sanitizer.sanitize_interval_xor(size, points, rng)
        {
            return match result.map_err(Error::SanitizerFailed)? {
                IntervalXorSynthetic::Pieces(pieces) => {
                    let support = pieces_support(&pieces, support_size, rng)?;
                    Ok(Self::intervals(size, support))
                }
                IntervalXorSynthetic::Database(synthetic) => {
                    Self::from_synthetic(&synthetic, class, support_size, rng)
                }
            };
        }
        if let Some(size) = class.point_structure() {
            return match points::sanitize(sanitizer, class, size, points, rng)? {
                points::PointSynthetic::Pieces(synthetic) => {
                    Self::from_pieces(&synthetic, class, support_size, rng)
                }
                points::PointSynthetic::Database(synthetic) => {
                    Self::from_synthetic(&synthetic, class, support_size, rng)
                }
            };
        }
        Xor::new(class)?;
        let synthetic = sanitizer
            .sanitize_xor(class, points, rng)
            .map_err(Error::SanitizerFailed)?;
        Self::from_synthetic(&synthetic, class, support_size, rng)
    }

    /// The cover from a synthetic database (post-processing only): if the database's
    /// support has at most `support_size` points, B is that support; otherwise B is the
    /// set of distinct points among `support_size` i.i.d. draws from the database's
    /// distribution. H holds the smallest concept id of every dichotomy of C on B.
    ///
    /// # Running time
    /// For classes that give their labeling ranges
    /// ([`ConceptClass::labeling_ranges`]: point functions, complements) H comes from
    /// the ranges in O(|B| log |B|) (first id per distinct labeling), with no concept evaluated;
    /// parities ([`ConceptClass::parity_structure`]) from the cosets of B's kernel
    /// ([`ParityLabelings`]) in O(|B|·d + 2^r·d) for B of rank r; otherwise every concept
    /// is evaluated on B: O(|C|·|B|).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] unless `1 ≤ support_size ≤ 2^26`; a point outside the
    /// class's domain; the class's dense-profile limit when it gives no ranges.
    pub fn from_synthetic(
        synthetic: &SyntheticDatabase,
        class: &dyn ConceptClass,
        support_size: usize,
        rng: &mut dyn Rng,
    ) -> Result<Self> {
        check_support_size(support_size)?;
        let weights = synthetic.weights();
        let mut support: Vec<Point> = if weights.len() <= support_size {
            weights.iter().map(|&(x, _)| x).collect()
        } else {
            let index = WeightedIndex::new(weights.iter().map(|&(_, w)| w)).map_err(|e| {
                Error::Sanitizer(format!("synthetic weights cannot be sampled: {e}"))
            })?;
            (0..support_size)
                .map(|_| weights[index.sample(rng)].0)
                .collect()
        };
        support.sort_unstable();
        support.dedup();
        if let Some(structure) = class.threshold_structure() {
            let hypotheses = threshold_cover(structure, &support);
            return Ok(SanitizedCover {
                support,
                hypotheses,
                intervals: None,
            });
        }
        if let Some(size) = class.interval_structure() {
            return Ok(Self::intervals(size, support));
        }
        if let Some(size) = class.point_structure() {
            let hypotheses = point_cover(size, &support);
            return Ok(SanitizedCover {
                support,
                hypotheses,
                intervals: None,
            });
        }
        if let Some(ranges) = class.labeling_ranges(&support)? {
            let hypotheses = ranges_cover(&ranges, support.len());
            return Ok(SanitizedCover {
                support,
                hypotheses,
                intervals: None,
            });
        }
        // Parities: the coset minima of the support's kernel, the same list as the dense
        // grouping (the first parity of every dichotomy in id order) in O(2^r·d) for
        // rank r, no parity evaluated; up to the same dense-profile limit.
        if let Some(dim) = class.parity_structure()
            && class.len() <= privpac_classes::ERROR_PROFILE_LIMIT
        {
            let labelings = ParityLabelings::new(dim, &support)?;
            let hypotheses = (0..1u64 << labelings.rank())
                .map(|slot| labelings.representative(slot))
                .collect();
            return Ok(SanitizedCover {
                support,
                hypotheses,
                intervals: None,
            });
        }
        // The dense profile of an empty sample checks the class's size limit for us.
        let len = class
            .error_counts(&LabeledSample::new(class.domain(), Vec::new(), Vec::new())?)?
            .len();
        let hypotheses = Labelings::new(class, &support, len)
            .first
            .into_iter()
            .map(|c| c as u64)
            .collect();
        Ok(SanitizedCover {
            support,
            hypotheses,
            intervals: None,
        })
    }

    /// The implicit cover of intervals over `[size]` on the sorted distinct `support`.
    fn intervals(size: u64, support: Vec<Point>) -> Self {
        SanitizedCover {
            support,
            hypotheses: Vec::new(),
            intervals: Some(size),
        }
    }

    /// The cover from a piecewise-uniform synthetic distribution over the domain of
    /// thresholds or of point functions (post-processing only, as
    /// [`Self::from_synthetic`]): B is the support if it has at most `support_size` points,
    /// otherwise the distinct points among `support_size` i.i.d. draws; H is
    /// [`threshold_cover`] or [`point_cover`] of B.
    ///
    /// # Running time
    /// O(m·#pieces) for the m draws, O(m log m) for the cover: independent of |X|.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] unless `1 ≤ support_size ≤ 2^26` and the class is
    /// thresholds, `both(thresholds)` or points over the distribution's domain;
    /// [`Error::SanitizerFailed`] if the
    /// distribution has no mass.
    pub fn from_pieces(
        synthetic: &PiecewiseDistribution,
        class: &dyn ConceptClass,
        support_size: usize,
        rng: &mut dyn Rng,
    ) -> Result<Self> {
        check_support_size(support_size)?;
        let structure = class
            .threshold_structure()
            .filter(|s| s.domain_size() == synthetic.size());
        let point_size = class.point_structure().filter(|&s| s == synthetic.size());
        if structure.is_none() && point_size.is_none() {
            return Err(Error::InvalidParameter {
                name: "class of a piecewise synthetic distribution",
                requirement: "thresholds, both(thresholds) or points over the distribution's \
                              domain",
                value: synthetic.size() as f64,
            });
        }
        let support = pieces_support(synthetic, support_size, rng)?;
        let hypotheses = match (structure, point_size) {
            (Some(structure), _) => threshold_cover(structure, &support),
            (None, size) => point_cover(size.unwrap_or(synthetic.size()), &support),
        };
        Ok(SanitizedCover {
            support,
            hypotheses,
            intervals: None,
        })
    }

    /// B: the distinct points of the small database, increasing.
    pub fn support(&self) -> &[Point] {
        &self.support
    }

    /// H: the smallest concept id of every dichotomy of C on B, in increasing order.
    /// Empty for intervals ([`ConceptClass::interval_structure`]), whose H (the empty
    /// interval and `[a_i, b_j]` for every run `b_i … b_j` of B, `1 + |B|(|B| + 1)/2`
    /// members) is implicit: see [`Self::interval_hypotheses`].
    pub fn hypotheses(&self) -> &[u64] {
        &self.hypotheses
    }

    /// For intervals, H by its members' ends in id order (O(|B|²) items; for inspection):
    /// the empty interval, then `[a_i, b_j]` for `i ≤ j`, with `a_i = b_{i−1} + 1` and
    /// `a₀ = 0`, the smallest interval inducing each run. `None` for other classes.
    pub fn interval_hypotheses(&self) -> Option<Vec<ConceptParts>> {
        self.intervals
            .map(|_| crate::sanitized_intervals::members(&self.support).collect())
    }

    /// |H|.
    pub fn len(&self) -> usize {
        match self.intervals {
            Some(_) => crate::sanitized_intervals::cover_len(self.support.len()),
            None => self.hypotheses.len(),
        }
    }

    /// Whether H is empty (never, for a non-empty class).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The exponential mechanism over H with score `−(mistakes on sample)`: step 5 of
    /// Algorithm 2 for one label column.
    ///
    /// # Errors
    /// [`Error::EmptySample`] for an empty sample; the class's error-profile errors;
    /// [`Error::Mechanism`] if the mechanism refuses the scores.
    pub fn select(
        &self,
        class: &dyn ConceptClass,
        sample: &LabeledSample,
        mechanism: &ExponentialMechanism,
        rng: &mut dyn Rng,
    ) -> Result<Hypothesis> {
        if let Some(size) = self.intervals {
            return crate::sanitized_intervals::select(
                class,
                size,
                &self.support,
                sample,
                mechanism,
                rng,
            );
        }
        let scores = self.scores(class, sample)?;
        let chosen = mechanism.select_integer(&scores, rng)?;
        Ok(Hypothesis::Concept {
            id: self.hypotheses[chosen],
        })
    }

    /// The scores `−(mistakes on sample)` of H's members, in the order of
    /// [`Self::hypotheses`].
    ///
    /// # Errors
    /// [`Error::EmptySample`] for an empty sample; the class's error-profile errors.
    pub fn scores(&self, class: &dyn ConceptClass, sample: &LabeledSample) -> Result<Vec<i64>> {
        if sample.is_empty() {
            return Err(Error::EmptySample);
        }
        if self.intervals.is_some() {
            return crate::sanitized_intervals::scores(&self.support, sample);
        }
        if class.threshold_structure().is_some()
            || class.point_structure().is_some()
            || class.labeling_ranges(&[])?.is_some()
        {
            // Thresholds, point functions and complements over huge domains: the
            // run-length profile, O(n log n) (the same counts as the dense profile).
            let runs = class.error_runs(sample)?;
            return self
                .hypotheses
                .iter()
                .map(|&c| {
                    let r = runs.partition_point(|run| run.first <= c);
                    runs.get(r.wrapping_sub(1))
                        .filter(|run| c - run.first < run.len)
                        .map(|run| -(run.errors as i64))
                        .ok_or(Error::InvalidParameter {
                            name: "class of the selection",
                            requirement: "the class the cover was built for",
                            value: c as f64,
                        })
                })
                .collect();
        }
        // Parities with few members against the profile's d·2^d: each member's mistakes
        // counted on the sample directly, O(n·|H|) (the same counts).
        if let Some(dim) = class.parity_structure()
            && (sample.len() as u128).saturating_mul(self.hypotheses.len() as u128)
                <= class.len().saturating_mul(u128::from(dim))
        {
            class.domain().check_all(sample.points())?;
            return Ok(self
                .hypotheses
                .iter()
                .map(|&a| {
                    let mistakes = sample
                        .iter()
                        .filter(|&(x, y)| ((a & x).count_ones() % 2 == 1) != y)
                        .count();
                    -(mistakes as i64)
                })
                .collect());
        }
        let errors = class.error_counts(sample)?;
        self.hypotheses
            .iter()
            .map(|&c| {
                errors
                    .get(c as usize)
                    .map(|&e| -(e as i64))
                    .ok_or(Error::InvalidParameter {
                        name: "class of the selection",
                        requirement: "the class the cover was built for",
                        value: c as f64,
                    })
            })
            .collect()
    }
}

/// The smallest concept id of every dichotomy of a threshold class on the distinct
/// increasing points B, in increasing order, in O(|B|) instead of O(|C|·|B|).
///
/// Thresholds label B "1 on the first j points" (`0 ≤ j ≤ |B|`) exactly when
/// `B_{j−1} ≤ t < B_j`; the smallest such t is `B_{j−1}` for j ≥ 1, and 0 for j = 0 when
/// `B_0 > 0` (when `B_0 = 0` every threshold labels B_0 with 1). So for
/// [`ThresholdStructure::Plain`] H = `{0 if B_0 > 0} ∪ B`, at most |B| + 1 concepts. For
/// [`ThresholdStructure::Both`] the complements `N + t` add "0 on the first j points, 1 on
/// the rest", with smallest id `N + B_{j−1}`; the all-ones labeling (a complement with
/// j = 0) is never new, and the all-zeros labeling (j = |B|) is new only
/// when `B_0 = 0`, so H adds `N + B_{j−1}` for `1 ≤ j < |B|` and `N + B_last` when
/// `B_0 = 0`: at most 2|B| concepts.
pub fn threshold_cover(structure: ThresholdStructure, support: &[Point]) -> Vec<u64> {
    let mut out = Vec::with_capacity(2 * support.len() + 1);
    let starts_at_zero = support.first() == Some(&0);
    if !starts_at_zero {
        out.push(0);
    }
    out.extend_from_slice(support);
    if let ThresholdStructure::Both(size) = structure
        && let Some((&last, rest)) = support.split_last()
    {
        out.extend(rest.iter().map(|&b| size + b));
        if starts_at_zero {
            out.push(size + last);
        }
    }
    out
}

/// B from a piecewise distribution: its support if it has at most `support_size` points,
/// otherwise the distinct points among `support_size` i.i.d. draws; sorted.
fn pieces_support(
    synthetic: &PiecewiseDistribution,
    support_size: usize,
    rng: &mut dyn Rng,
) -> Result<Vec<Point>> {
    let mut support = match synthetic.support_points(support_size) {
        Some(points) => points,
        None => synthetic
            .sample_many(support_size, rng)
            .map_err(Error::SanitizerFailed)?,
    };
    support.sort_unstable();
    support.dedup();
    Ok(support)
}

fn check_support_size(support_size: usize) -> Result<()> {
    if support_size == 0 || support_size > MAX_SUPPORT_SIZE {
        return Err(Error::InvalidParameter {
            name: "small database size",
            requirement: "between 1 and 2^26",
            value: support_size as f64,
        });
    }
    Ok(())
}

/// An upper bound on `VC(C⊕)` for a class C of VC dimension at most `vc_dimension`: the
/// largest m with `2^m ≤ Π_C(m)²`, where `Π_C(m) ≤ Σ_{i≤d} C(m, i)` (Sauer–Shelah).
/// Every dichotomy of `C⊕ = {f ⊕ g}` on m points is fixed by a pair of dichotomies of C,
/// so `Π_{C⊕}(m) ≤ Π_C(m)²`, and shattering m points needs `2^m` of them. (The paper
/// states `VC(C⊕) = O(VC(C))` without a constant; this bound is ours. It gives 5 for
/// d = 1 and about 10·d for large d.)
pub fn xor_vc_bound(vc_dimension: u32) -> u32 {
    let d = vc_dimension;
    if d == 0 {
        return 0;
    }
    let mut m = 2 * d; // Π_C(2d)² ≥ 2^{2d}: every m ≤ 2d qualifies.
    loop {
        let next = m + 1;
        let growth = sauer_shelah_bound(d, u64::from(next));
        let squared = growth.saturating_mul(growth);
        // 2^next ≤ growth²  ⟺  next ≤ log₂(growth²); growth² < 2^128 when not saturated.
        let fits = squared == u128::MAX || next < 128 && (1u128 << next) <= squared;
        if !fits {
            return m;
        }
        m = next;
    }
}

/// The small-database size for which the sampling step is proved: Theorem 2.8 of
/// Bun–Nissim–Stemmer (agnostic VC generalization, `n ≥ (64/a²)(VC(H)·ln(6/a) + ln(8/b))`)
/// with `H = C⊕`, `a = α/5`, `b = β/5` (Algorithm 2's budget: the sanitizer's α/5 plus
/// the draws' α/5 make event E₁'s 2α/5), and `VC(C⊕) ≤` [`xor_vc_bound`]`(vc_dimension)`.
/// Rounded up.
///
/// # Errors
/// [`Error::InvalidParameter`] unless `0 < α, β < 1`.
pub fn proved_support_size(vc_dimension: u32, alpha: f64, beta: f64) -> Result<usize> {
    check_unit("alpha", alpha)?;
    check_unit("beta", beta)?;
    let (a, b) = (alpha / 5.0, beta / 5.0);
    let d = f64::from(xor_vc_bound(vc_dimension));
    let m = (64.0 / (a * a)) * (d * (6.0 / a).ln() + (8.0 / b).ln());
    Ok(m.ceil().min(usize::MAX as f64) as usize)
}

/// The default small-database size `⌈d·ln(1/α)/α²⌉` (at least 1): the paper's
/// `O(VC(C)·log(1/α)/α²)` (Algorithm 2, step 2) with constant 1, **our** choice; see
/// [`proved_support_size`] for the size with a proof.
///
/// # Errors
/// [`Error::InvalidParameter`] unless `0 < α < 1`.
pub fn order_support_size(vc_dimension: u32, alpha: f64) -> Result<usize> {
    check_unit("alpha", alpha)?;
    let m = f64::from(vc_dimension.max(1)) * (1.0 / alpha).ln() / (alpha * alpha);
    Ok((m.ceil().min(usize::MAX as f64) as usize).max(1))
}

fn check_unit(name: &'static str, value: f64) -> Result<()> {
    if value > 0.0 && value < 1.0 {
        Ok(())
    } else {
        Err(Error::InvalidParameter {
            name,
            requirement: "in (0, 1)",
            value,
        })
    }
}
