//! The cover and selection steps of the sanitizer-based learner on intervals, by the
//! class's structure: no id of `INTERVAL ⊕ INTERVAL` and no list of the cover's members.
//!
//! # The cover
//! Let `B = b₀ < b₁ < … < b_{m−1}` be the small database's distinct points. An interval
//! labels B by a run `b_i … b_j` of consecutive points (or by none), so the dichotomies of
//! intervals on B are the empty labeling and the `m(m + 1)/2` runs `i ≤ j`. The interval
//! `[a, b]` labels B by the run `i … j` iff `a ∈ (b_{i−1}, b_i]` and `b ∈ [b_j, b_{j+1})`;
//! the smallest id of those (ids enumerate a, then b) is `[a_i, b_j]` with `a_i = b_{i−1} + 1`
//! (`a₀ = 0`), and the empty labeling's is the empty interval, id 0. In id order the cover
//! is therefore: the empty interval, then `[a_i, b_j]` for `i = 0, 1, …` and `j = i, i + 1, …`
//! ([`members`]), the same list as the dense cover built by evaluating every concept on B
//! (a unit test compares them).
//!
//! # The selection by levels
//! The cover is a copy of the intervals over the index domain `[m]`: `[a_i, b_j]` ↔ `[i, j]`.
//! A sample point y lies in `[a_i, b_j]` iff `b_{i−1} < y ≤ b_j`, i.e. iff its index
//! `t(y) = #{k : b_k < y}` satisfies `i ≤ t(y) ≤ j`; points above `b_{m−1}` lie in no
//! member of the cover. So the mistakes of `[a_i, b_j]` on the sample are those of `[i, j]`
//! on the sample moved to `[m]` (points above `b_{m−1}` dropped) plus the number `P′` of
//! positive examples above `b_{m−1}`, and the empty interval's are the empty index
//! interval's plus `P′`. The scores of the whole cover are shifted by the same `−P′`, and
//! the exponential mechanism is invariant under a common shift of its scores (its sampler
//! reads only integer gaps to the best score, so the draws are identical too). The
//! selection is therefore the generic learner's level sampler on the index class
//! ([`privpac_classes::ConceptClass::error_levels`] of [`Intervals`] over `[m]`, then the
//! member of the chosen level and offset in id order): exactly the exponential mechanism
//! over the cover, in O(n log n + m·r) time for r distinct prefix sums, with no list of
//! the `m(m + 1)/2 + 1` members. The chosen member is named by its id when the class's ids
//! fit 64 bits, by its ends ([`Hypothesis::Interval`]) above.
//!
//! # Privacy
//! Unchanged from [`crate::SanitizedCover::select`]: the same exponential mechanism on the
//! same cover with the same sensitivity-1 scores.

use privpac_classes::{
    ConceptClass, ConceptParts, ErrorLevel, Hypothesis, Intervals, LabeledSample, Point,
};
use privpac_mechanisms::{ExponentialMechanism, ScoreLevel};
use rand::Rng;

use crate::error::{Error, Result};

/// `a_i`: the first point of the smallest interval whose run on B starts at `b_i`.
fn start(support: &[Point], i: usize) -> Point {
    if i == 0 { 0 } else { support[i - 1] + 1 }
}

/// The number of members of the cover of m points: `1 + m(m + 1)/2`.
pub(crate) fn cover_len(m: usize) -> usize {
    1 + m * (m + 1) / 2
}

/// The cover's members in id order: the empty interval, then `[a_i, b_j]` for `i ≤ j`
/// (see the module documentation). O(m²) items; for inspection and tests.
pub(crate) fn members(support: &[Point]) -> impl Iterator<Item = ConceptParts> + '_ {
    std::iter::once(ConceptParts::Empty).chain((0..support.len()).flat_map(move |i| {
        (i..support.len()).map(move |j| ConceptParts::Interval {
            low: start(support, i),
            high: support[j],
        })
    }))
}

/// The hypothesis for a member: its id in `class` (intervals over `[size]`) when the
/// class's ids fit 64 bits, its ends otherwise.
pub(crate) fn name(class: &dyn ConceptClass, size: u64, parts: ConceptParts) -> Result<Hypothesis> {
    if class.len() > u128::from(u64::MAX) {
        return Ok(Hypothesis::from(parts));
    }
    let id = match parts {
        ConceptParts::Empty => 0,
        ConceptParts::Interval { low, high } => Intervals::new(size)?.id_of(low, high),
        // Not members of this cover (`members` lists intervals only); named by their parts.
        ConceptParts::Full | ConceptParts::NotInterval { .. } => {
            return Ok(Hypothesis::from(parts));
        }
    };
    Ok(Hypothesis::Concept { id })
}

/// The sample moved to the index domain `[m]` (points above `b_{m−1}` dropped), and the
/// index class.
fn index_sample(support: &[Point], sample: &LabeledSample) -> Result<(Intervals, LabeledSample)> {
    let m = support.len() as u64;
    let index = Intervals::new(m)?;
    let (mut points, mut labels) = (Vec::new(), Vec::new());
    for (&y, label) in sample.points().iter().zip(sample.labels().iter()) {
        let t = support.partition_point(|&b| b < y) as u64;
        if t < m {
            points.push(t);
            labels.push(label);
        }
    }
    let moved = LabeledSample::new(index.domain(), points, labels)?;
    Ok((index, moved))
}

/// The cover's score levels through the index class: the index class over `[m]`, the
/// moved sample, and its error levels (in increasing order of mistakes; every member's
/// mistakes minus `P′`, module documentation).
pub(crate) struct IndexLevels {
    index: Intervals,
    moved: LabeledSample,
    pub(crate) levels: Vec<ErrorLevel>,
}

impl IndexLevels {
    /// The levels of the cover of `support` on `sample`.
    ///
    /// # Errors
    /// [`Error::EmptySample`] for an empty sample or support; the index class's level
    /// errors (its work limit).
    pub(crate) fn new(support: &[Point], sample: &LabeledSample) -> Result<Self> {
        if sample.is_empty() || support.is_empty() {
            return Err(Error::EmptySample);
        }
        let (index, moved) = index_sample(support, sample)?;
        let levels = index.error_levels(&moved)?.ok_or(Error::EmptySample)?;
        Ok(IndexLevels {
            index,
            moved,
            levels,
        })
    }

    /// The member of level `level` at `offset` in id order, by its ends.
    pub(crate) fn member(
        &self,
        support: &[Point],
        level: usize,
        offset: u64,
    ) -> Result<ConceptParts> {
        let errors = self.levels[level].errors;
        let id = self
            .index
            .concept_with_errors(&self.moved, errors, offset)?
            .ok_or(Error::EmptySample)?; // unreachable: the offset is below the level's count
        Ok(match self.index.bounds(id) {
            None => ConceptParts::Empty,
            Some((i, j)) => ConceptParts::Interval {
                low: start(support, i as usize),
                high: support[j as usize],
            },
        })
    }
}

/// The exponential mechanism over the cover of `support` (intervals over `[size]`) with
/// score `−(mistakes on sample)`, by levels of the index class (module documentation).
///
/// # Errors
/// As for [`IndexLevels::new`]; [`Error::Mechanism`].
pub(crate) fn select(
    class: &dyn ConceptClass,
    size: u64,
    support: &[Point],
    sample: &LabeledSample,
    mechanism: &ExponentialMechanism,
    rng: &mut dyn Rng,
) -> Result<Hypothesis> {
    let levels = IndexLevels::new(support, sample)?;
    let scores: Vec<ScoreLevel> = levels
        .levels
        .iter()
        .map(|level| {
            Ok(ScoreLevel {
                score: -i64::try_from(level.errors).map_err(|_| Error::InvalidParameter {
                    name: "number of mistakes",
                    requirement: "below 2^63",
                    value: level.errors as f64,
                })?,
                count: level.count,
            })
        })
        .collect::<Result<_>>()?;
    let choice = mechanism.select_levels(&scores, rng)?;
    let parts = levels.member(support, choice.level, choice.offset)?;
    name(class, size, parts)
}

/// The scores `−(mistakes on sample)` of the cover's members in id order ([`members`]),
/// from prefix sums of the sorted sample: O(n log n + m²).
pub(crate) fn scores(support: &[Point], sample: &LabeledSample) -> Result<Vec<i64>> {
    if sample.is_empty() {
        return Err(Error::EmptySample);
    }
    let mut examples: Vec<(Point, bool)> = sample
        .points()
        .iter()
        .copied()
        .zip(sample.labels().iter())
        .collect();
    examples.sort_unstable();
    // prefix[k]: (negatives − positives) among the first k sorted examples.
    let mut prefix = vec![0i64];
    for &(_, label) in &examples {
        prefix.push(prefix.last().copied().unwrap_or(0) + if label { -1 } else { 1 });
    }
    let positives = examples.iter().filter(|e| e.1).count() as i64;
    let total = examples.len() as i64;
    let below = |x: Point| prefix[examples.partition_point(|e| e.0 < x)];
    let above = |x: Point| prefix[examples.partition_point(|e| e.0 <= x)];
    Ok(members(support)
        .map(|parts| match parts {
            ConceptParts::Empty => -positives,
            ConceptParts::Interval { low, high } => -(positives + above(high) - below(low)),
            // The complements (not members of this cover, matched for completeness): the
            // mistakes of a complement are n minus the concept's.
            ConceptParts::Full => -(total - positives),
            ConceptParts::NotInterval { low, high } => {
                -(total - (positives + above(high) - below(low)))
            }
        })
        .collect())
}

#[cfg(test)]
mod tests;
