//! Complement combinators: `¬C = {1 − c : c ∈ C}` ([`Not`], spec `not(SPEC)`) and
//! `C ∪ ¬C` ([`Both`], spec `both(SPEC)`), e.g. thresholds in both orientations
//! (`1 on x ≤ t` and `1 on x > t`).
//!
//! # Error profiles
//! Concept `1 − c` errs on an example `(x, y)` exactly where `c` errs on `(x, 1 − y)`, so
//! the profile of `¬C` on a sample `S` is the profile of `C` on `S` with every label flipped,
//! concept by concept: every fast path of the inner class (prefix counts, O(n log n) runs
//! over 2^40 points, interval levels) serves its complement unchanged, and `C ∪ ¬C` is the
//! two profiles one after the other.

use crate::class::closed_form::{self, ClosedFormVc};
use crate::class::{
    ConceptClass, ConceptParts, ErrorLevel, ErrorRun, IdRange, LabelingCell, ThresholdStructure,
    WideErrorLevel, dense_len,
};
use crate::domain::{Domain, Point};
use crate::error::{Error, Result};
use crate::sample::LabeledSample;

/// `sample` with every label flipped: the sample on which `c` errs where `1 − c` errs on
/// `sample`.
///
/// # Errors
/// [`Error::PointOutsideDomain`] for the first point outside `domain` (the error the inner
/// class would give).
fn flipped(domain: &Domain, sample: &LabeledSample) -> Result<LabeledSample> {
    LabeledSample::new(
        domain,
        sample.points().to_vec(),
        sample.iter().map(|(_, y)| !y).collect(),
    )
}

/// `¬C = {1 − c : c ∈ C}`: concept `id` labels `x` with `1 − c_id(x)`.
///
/// # Dimensions
/// `VC(¬C) = VC(C)` and `Ldim(¬C) = Ldim(C)`, with the witnesses of `C` transformed: the
/// same shattered set, and the Littlestone tree with the two children of every node swapped
/// ([`crate::dimension::LittlestoneTree::complemented`]).
///
/// *Proof.* `φ(c) = 1 − c` is a bijection from `C` onto `¬C` (its own inverse), and on any
/// finite set `S` of points it maps the restriction `c|S = b` to `φ(c)|S = 1 − b`; as `b`
/// ranges over all of `{0,1}^S` so does `1 − b`, so `S` is shattered by `¬C` iff it is
/// shattered by `C`, and the VC dimensions are equal with the same witness. For a mistake
/// tree `T` of depth `d` shattered by `C`, let `T'` be `T` with the children of every node
/// swapped; the root-to-leaf paths of `T'` are the paths `(x_1, 1 − b_1), …, (x_d, 1 − b_d)`
/// for the paths `(x_i, b_i)` of `T`, and if `c` realizes a path of `T` then `φ(c)`
/// realizes the corresponding path of `T'`. So `T'` is shattered by `¬C` with depth `d`,
/// hence `Ldim(¬C) ≥ Ldim(C)`; applied to `¬C` (with `¬¬C = C`) the reverse inequality
/// follows. ∎
///
/// The inner class may be owned (`Box<dyn ConceptClass>`, the default) or borrowed.
///
/// # Example
/// ```
/// use privpac_classes::{ConceptClass, Not, Thresholds};
/// let class = Not::new(Thresholds::new(10)?);
/// assert!(!class.eval(4, 3) && class.eval(4, 5)); // 1 on x > 4
/// assert_eq!(class.name(), "not(thresholds:10)");
/// # Ok::<(), privpac_classes::Error>(())
/// ```
#[derive(Debug)]
pub struct Not<C: ConceptClass = Box<dyn ConceptClass>> {
    inner: C,
}

impl<C: ConceptClass> Not<C> {
    /// The complement class of `inner` (same ids, same number of concepts).
    pub fn new(inner: C) -> Self {
        Not { inner }
    }

    /// The class complemented.
    pub fn inner(&self) -> &C {
        &self.inner
    }
}

impl<C: ConceptClass> ConceptClass for Not<C> {
    /// `VC(C)` (see [`closed_form::not`]).
    fn vc_dimension_closed_form(&self) -> Option<ClosedFormVc> {
        self.inner.vc_dimension_closed_form().map(closed_form::not)
    }
    fn domain(&self) -> &Domain {
        self.inner.domain()
    }

    fn len(&self) -> u128 {
        self.inner.len()
    }

    fn eval(&self, id: u64, x: Point) -> bool {
        !self.inner.eval(id, x)
    }

    fn name(&self) -> String {
        format!("not({})", self.inner.name())
    }

    /// `complement of (1 on x ≤ 17)`.
    fn describe(&self, id: u64) -> String {
        format!("complement of ({})", self.inner.describe(id))
    }

    /// The inner class's counts on the sample with its labels flipped (see the module docs).
    fn error_counts(&self, sample: &LabeledSample) -> Result<Vec<u64>> {
        self.inner
            .error_counts(&flipped(self.inner.domain(), sample)?)
    }

    /// The inner class's runs on the flipped sample.
    fn error_runs(&self, sample: &LabeledSample) -> Result<Vec<ErrorRun>> {
        self.inner
            .error_runs(&flipped(self.inner.domain(), sample)?)
    }

    /// The inner class's levels on the flipped sample.
    fn error_levels(&self, sample: &LabeledSample) -> Result<Option<Vec<ErrorLevel>>> {
        self.inner
            .error_levels(&flipped(self.inner.domain(), sample)?)
    }

    /// The inner class's concept on the flipped sample (ids are shared).
    fn concept_with_errors(
        &self,
        sample: &LabeledSample,
        errors: u64,
        offset: u64,
    ) -> Result<Option<u64>> {
        self.inner
            .concept_with_errors(&flipped(self.inner.domain(), sample)?, errors, offset)
    }

    /// The inner class's ranges with their labelings complemented.
    fn labeling_ranges(&self, points: &[Point]) -> Result<Option<Vec<IdRange>>> {
        Ok(self.inner.labeling_ranges(points)?.map(|ranges| {
            ranges
                .into_iter()
                .map(|range| IdRange {
                    positives: range.positives.complement(),
                    ..range
                })
                .collect()
        }))
    }

    /// The inner class's cells on the flipped sample (the same mistakes, concept by
    /// concept) with their labelings complemented; the concepts keep their ids, and their
    /// parts are the inner parts complemented ([`ConceptParts::complement`]: a complemented
    /// interval beyond 64-bit ids is [`ConceptParts::NotInterval`]).
    fn labeling_cells(
        &self,
        points: &[Point],
        sample: &LabeledSample,
    ) -> Result<Option<Vec<LabelingCell>>> {
        let flipped = flipped(self.inner.domain(), sample)?;
        Ok(self
            .inner
            .labeling_cells(points, &flipped)?
            .map(|cells| cells.into_iter().map(complemented).collect()))
    }

    /// The inner class's wide levels on the flipped sample (the same mistakes, concept by
    /// concept), when it gives them.
    fn wide_error_levels(&self, sample: &LabeledSample) -> Result<Option<Vec<WideErrorLevel>>> {
        self.inner
            .wide_error_levels(&flipped(self.inner.domain(), sample)?)
    }

    /// The inner class's member on the flipped sample, complemented (the same order).
    fn parts_with_errors(
        &self,
        sample: &LabeledSample,
        errors: u64,
        offset: u128,
    ) -> Result<Option<ConceptParts>> {
        Ok(self
            .inner
            .parts_with_errors(&flipped(self.inner.domain(), sample)?, errors, offset)?
            .map(ConceptParts::complement))
    }
}

/// A cell of the inner class as a cell of its complement scored on the flipped sample:
/// the same ids, the labeling and the parts complemented.
fn complemented(cell: LabelingCell) -> LabelingCell {
    LabelingCell {
        parts: cell.parts.map(ConceptParts::complement),
        positives: cell.positives.complement(),
        ..cell
    }
}

/// `C ∪ ¬C`: ids `0..|C|` are the concepts of `C`, ids `|C|..2|C|` their complements
/// (`|C| + i` is `1 − c_i`); thresholds in both orientations are `both(thresholds:N)`.
/// A concept and a complement may name the same function (then the function has two ids,
/// as in [`crate::Xor`]); learners are unaffected.
///
/// # Dimensions
/// No closed form for every `C`: `VC(C ∪ ¬C) ≤ 2·VC(C) + 1` and `Ldim(C ∪ ¬C) ≤ 2·Ldim(C) + 1`
/// (the bounds for a union of two classes); the exact values are computed by
/// [`crate::dimension`] with witnesses (`privpac dim --class 'both(SPEC)'`). For thresholds
/// over `[N]`, `N ≥ 2`: `VC = 2`. *Proof.* Two points `x < y` get `11` from `x ≤ y`, `10`
/// from `x ≤ x`, `01` from the complement of `x ≤ x` and `00` from the complement of
/// `x ≤ N − 1`; three points `x < y < z` never get `101`, which needs a prefix or a suffix
/// holding `x` and `z` but not `y`. ∎ (For `N = 1` the two concepts are the constants,
/// `VC = 1`.) And `Ldim = ⌊log2 N⌋ + 1 = ⌊log2 2N⌋`. *Proof.* The `2N` concepts are distinct
/// (prefixes hold point 0, the complements, suffixes, do not), so `Ldim ≤ ⌊log2 2N⌋`
/// (the halving argument). For the lower bound query point 0 at the root: the concepts
/// labeling it 1 are the `N` prefixes and those labeling it 0 the `N` suffixes, each a chain
/// of `N` distinct nested sets, which shatters a tree of depth `⌊log2 N⌋` (binary search,
/// as for [`crate::Thresholds`]); so a tree of depth `⌊log2 N⌋ + 1` is shattered. ∎
///
/// # Sizes beyond 64-bit ids
/// An inner class of more than `⌊(2^64 − 1)/2⌋` concepts is accepted when it names its
/// concepts by their parts (it gives [`ConceptClass::wide_error_levels`]):
/// `both(intervals:N)` at every N up to 2^64 − 1, about 2^128 concepts. (Others, such as
/// parities over 63 bits, are refused: their complements could be named neither by id nor
/// by parts.) When `|C| > 2^63 − 1` the complements' ids
/// `|C| + i` no longer fit in `u64`: every `u64` id below `|C|` still names concept `i` of
/// `C`, the complements are reached by their parts ([`ConceptClass::wide_error_levels`],
/// [`ConceptClass::parts_with_errors`] and the parts of [`ConceptClass::labeling_cells`],
/// e.g. [`ConceptParts::NotInterval`]), and the methods that would have to name a
/// complement by its id (`error_runs`, `labeling_ranges`) give [`Error::TooLarge`];
/// `concept_with_errors` gives `None` for such a member, as [`crate::Intervals`] does
/// beyond 64-bit ids.
///
/// # Example
/// ```
/// use privpac_classes::{Both, ConceptClass, Thresholds};
/// let class = Both::new(Thresholds::new(10)?)?;
/// assert_eq!(class.len(), 20);
/// assert!(class.eval(4, 3) && !class.eval(4, 5)); // 1 on x ≤ 4
/// assert!(!class.eval(14, 3) && class.eval(14, 5)); // 1 on x > 4
/// # Ok::<(), privpac_classes::Error>(())
/// ```
#[derive(Debug)]
pub struct Both<C: ConceptClass = Box<dyn ConceptClass>> {
    inner: C,
    inner_len: u128,
}

impl<C: ConceptClass> Both<C> {
    /// `inner ∪ ¬inner`.
    ///
    /// # Errors
    /// [`Error::TooLarge`] if `|C| > ⌊(2^64 − 1)/2⌋` (the `2·|C|` ids would not fit in
    /// `u64`) and the inner class does not name its concepts by their parts (it gives no
    /// [`ConceptClass::wide_error_levels`] on the empty sample), or if `2·|C|` exceeds
    /// `u128::MAX`. Intervals name theirs, so `both(intervals:N)` is accepted at every N;
    /// see the type's docs for how its complements are named. Thresholds over more than
    /// `2^63 − 1` points get [`Error::InvalidClass`] saying why (their complements' ids do
    /// not fit and thresholds have no parts) and what to take instead.
    pub fn new(inner: C) -> Result<Self> {
        let len = inner.len();
        let narrow = u128::from(u64::MAX / 2);
        let by_parts = || {
            LabeledSample::new(inner.domain(), Vec::new(), Vec::new())
                .and_then(|empty| inner.wide_error_levels(&empty))
                .is_ok_and(|levels| levels.is_some())
        };
        let limit = if len > narrow && by_parts() {
            u128::MAX / 2
        } else {
            narrow
        };
        if len > limit
            && let Some(ThresholdStructure::Plain(size)) = inner.threshold_structure()
        {
            return Err(Error::InvalidClass {
                reason: format!(
                    "both(thresholds:{size}) needs N ≤ 2^63 − 1 = {}: the complement of \
                     threshold t is concept N + t, whose id does not fit in 64 bits, and \
                     thresholds are named by id only (the threshold learners' covers, error \
                     runs and hypotheses are ids; naming the complements by their parts, as \
                     intervals do, is not implemented); take N ≤ 2^63 − 1, or intervals:{size}, \
                     which holds every threshold and every complement of one",
                    u64::MAX / 2
                ),
            });
        }
        if len > limit {
            return Err(Error::TooLarge {
                what: "class plus its complement (ids beyond 64 bits, and no concepts named by parts)",
                needed: len.saturating_mul(2),
                unit: "concepts",
                limit: 2 * limit,
            });
        }
        Ok(Both {
            inner,
            inner_len: len,
        })
    }

    /// The class and its complement's inner class.
    pub fn inner(&self) -> &C {
        &self.inner
    }

    /// `(i, complemented)` for an id: concept `i` of the inner class, complemented or not
    /// (every `u64` id is an inner concept when `|C| > 2^64 − 1`).
    pub fn split(&self, id: u64) -> (u64, bool) {
        if u128::from(id) < self.inner_len {
            (id, false)
        } else {
            (id - self.inner_len as u64, true)
        }
    }

    /// The id of the complement of inner concept `i`, `|C| + i`, when it fits in `u64`.
    fn complement_id(&self, i: u64) -> Option<u64> {
        u64::try_from(self.inner_len + u128::from(i)).ok()
    }

    /// The id shift of the complements, `|C|`, when every complement's id fits in `u64`.
    ///
    /// # Errors
    /// [`Error::TooLarge`] otherwise, naming `what` (a method that names complements by
    /// their ids).
    fn shift(&self, what: &'static str) -> Result<u64> {
        if self.len() <= u128::from(u64::MAX) + 1 {
            Ok(self.inner_len as u64)
        } else {
            Err(Error::TooLarge {
                what,
                needed: self.len(),
                unit: "concept ids",
                limit: u128::from(u64::MAX) + 1,
            })
        }
    }
}

impl<C: ConceptClass> ConceptClass for Both<C> {
    /// See [`closed_form::both`].
    fn vc_dimension_closed_form(&self) -> Option<ClosedFormVc> {
        let inner = self.inner.vc_dimension_closed_form()?;
        Some(closed_form::both(inner, self))
    }
    fn domain(&self) -> &Domain {
        self.inner.domain()
    }

    /// `Both(N)` when the inner class is plain thresholds over `[N]` (and the `2N` ids fit
    /// in `u64`).
    fn threshold_structure(&self) -> Option<crate::class::ThresholdStructure> {
        match self.inner.threshold_structure()? {
            crate::class::ThresholdStructure::Plain(n)
                if u128::from(n) * 2 <= u128::from(u64::MAX) =>
            {
                Some(crate::class::ThresholdStructure::Both(n))
            }
            _ => None,
        }
    }

    fn len(&self) -> u128 {
        2 * self.inner_len
    }

    fn eval(&self, id: u64, x: Point) -> bool {
        let (i, complemented) = self.split(id);
        self.inner.eval(i, x) != complemented
    }

    fn name(&self) -> String {
        format!("both({})", self.inner.name())
    }

    /// The inner description, or `complement of (…)`.
    fn describe(&self, id: u64) -> String {
        match self.split(id) {
            (i, false) => self.inner.describe(i),
            (i, true) => format!("complement of ({})", self.inner.describe(i)),
        }
    }

    /// The inner counts on the sample, then on the flipped sample.
    fn error_counts(&self, sample: &LabeledSample) -> Result<Vec<u64>> {
        dense_len(self)?;
        let mut counts = self.inner.error_counts(sample)?;
        counts.extend(
            self.inner
                .error_counts(&flipped(self.inner.domain(), sample)?)?,
        );
        Ok(counts)
    }

    /// The inner runs on the sample, then on the flipped sample shifted by `|C|`; the two
    /// runs that meet at id `|C|` are merged when their counts are equal (runs are maximal).
    ///
    /// # Errors
    /// [`Error::TooLarge`] when the complements' ids do not fit in `u64`.
    fn error_runs(&self, sample: &LabeledSample) -> Result<Vec<ErrorRun>> {
        let shift = self.shift("error runs of both(…) (complement ids beyond 64 bits)")?;
        let mut runs = self.inner.error_runs(sample)?;
        let complements = self
            .inner
            .error_runs(&flipped(self.inner.domain(), sample)?)?;
        for run in complements {
            let run = ErrorRun {
                first: run.first + shift,
                ..run
            };
            match runs.last_mut() {
                Some(last) if last.errors == run.errors && last.first + last.len == run.first => {
                    last.len += run.len;
                }
                _ => runs.push(run),
            }
        }
        Ok(runs)
    }

    /// The inner class's ranges, then the same ranges shifted by |C| for the complements
    /// (a labeling of the first half and one of the second may coincide; grouping by
    /// labeling merges them).
    ///
    /// # Errors
    /// [`Error::TooLarge`] when the complements' ids do not fit in `u64`.
    fn labeling_ranges(&self, points: &[Point]) -> Result<Option<Vec<IdRange>>> {
        let Some(plain) = self.inner.labeling_ranges(points)? else {
            return Ok(None);
        };
        let shift = self.shift("labeling ranges of both(…) (complement ids beyond 64 bits)")?;
        let shifted = plain.iter().map(|range| IdRange {
            first: range.first + shift,
            last: range.last + shift,
            positives: range.positives.complement(),
        });
        Ok(Some(plain.iter().copied().chain(shifted).collect()))
    }

    /// The inner class's cells on the sample, then its cells on the flipped sample with
    /// ids shifted by `|C|` (`None` where the shifted id does not fit in `u64`) and
    /// labelings and parts complemented (concepts increase along the list; grouping by
    /// labeling merges the coincidences).
    fn labeling_cells(
        &self,
        points: &[Point],
        sample: &LabeledSample,
    ) -> Result<Option<Vec<LabelingCell>>> {
        let Some(mut cells) = self.inner.labeling_cells(points, sample)? else {
            return Ok(None);
        };
        let flipped = flipped(self.inner.domain(), sample)?;
        let Some(complements) = self.inner.labeling_cells(points, &flipped)? else {
            return Ok(None);
        };
        cells.extend(complements.into_iter().map(|cell| LabelingCell {
            first: cell.first.and_then(|id| self.complement_id(id)),
            ..complemented(cell)
        }));
        Ok(Some(cells))
    }

    /// The inner levels of both halves merged, when the inner class has levels.
    ///
    /// # Errors
    /// [`Error::TooLarge`] when a merged level counts more than `u64::MAX` concepts
    /// ([`ConceptClass::wide_error_levels`] gives those).
    fn error_levels(&self, sample: &LabeledSample) -> Result<Option<Vec<ErrorLevel>>> {
        let Some(plain) = self.inner.error_levels(sample)? else {
            return Ok(None);
        };
        let Some(complements) = self
            .inner
            .error_levels(&flipped(self.inner.domain(), sample)?)?
        else {
            return Ok(None);
        };
        let wide = |levels: Vec<ErrorLevel>| -> Vec<WideErrorLevel> {
            levels
                .into_iter()
                .map(|level| WideErrorLevel {
                    errors: level.errors,
                    count: u128::from(level.count),
                })
                .collect()
        };
        merge_levels(wide(plain), wide(complements))
            .into_iter()
            .map(|level| {
                let count = u64::try_from(level.count).map_err(|_| Error::TooLarge {
                    what: "error level of both(…) with 64-bit count (use the wide levels)",
                    needed: level.count,
                    unit: "concepts",
                    limit: u128::from(u64::MAX),
                })?;
                Ok(ErrorLevel {
                    errors: level.errors,
                    count,
                })
            })
            .collect::<Result<Vec<_>>>()
            .map(Some)
    }

    /// In id order: the inner class's concepts with `errors` mistakes on the sample first,
    /// then those on the flipped sample, shifted by `|C|` (`None` for a complement whose id
    /// does not fit in `u64`).
    fn concept_with_errors(
        &self,
        sample: &LabeledSample,
        errors: u64,
        offset: u64,
    ) -> Result<Option<u64>> {
        let Some(plain) = self.inner.error_levels(sample)? else {
            return Ok(None);
        };
        let first_half = plain
            .iter()
            .find(|level| level.errors == errors)
            .map_or(0, |level| level.count);
        if offset < first_half {
            return self.inner.concept_with_errors(sample, errors, offset);
        }
        Ok(self
            .inner
            .concept_with_errors(
                &flipped(self.inner.domain(), sample)?,
                errors,
                offset - first_half,
            )?
            .and_then(|id| self.complement_id(id)))
    }

    /// The inner class's wide levels on the sample and on the flipped sample, merged, when
    /// it gives them (the counts sum to `2·|C| ≤ u128::MAX`).
    fn wide_error_levels(&self, sample: &LabeledSample) -> Result<Option<Vec<WideErrorLevel>>> {
        let Some(plain) = self.inner.wide_error_levels(sample)? else {
            return Ok(None);
        };
        let Some(complements) = self
            .inner
            .wide_error_levels(&flipped(self.inner.domain(), sample)?)?
        else {
            return Ok(None);
        };
        Ok(Some(merge_levels(plain, complements)))
    }

    /// The order of [`ConceptClass::concept_with_errors`]: the inner class's members of the
    /// level first, then its members on the flipped sample, complemented.
    fn parts_with_errors(
        &self,
        sample: &LabeledSample,
        errors: u64,
        offset: u128,
    ) -> Result<Option<ConceptParts>> {
        let Some(plain) = self.inner.wide_error_levels(sample)? else {
            return Ok(None);
        };
        let first_half = plain
            .iter()
            .find(|level| level.errors == errors)
            .map_or(0, |level| level.count);
        if offset < first_half {
            return self.inner.parts_with_errors(sample, errors, offset);
        }
        Ok(self
            .inner
            .parts_with_errors(
                &flipped(self.inner.domain(), sample)?,
                errors,
                offset - first_half,
            )?
            .map(ConceptParts::complement))
    }
}

/// Two lists of levels in increasing order of mistakes merged into one, the counts of equal
/// mistakes added (the callers' counts sum to at most `u128::MAX`).
fn merge_levels(
    plain: Vec<WideErrorLevel>,
    complements: Vec<WideErrorLevel>,
) -> Vec<WideErrorLevel> {
    let mut merged: Vec<WideErrorLevel> = Vec::with_capacity(plain.len() + complements.len());
    let (mut a, mut b) = (
        plain.into_iter().peekable(),
        complements.into_iter().peekable(),
    );
    loop {
        let next = match (a.peek(), b.peek()) {
            (None, None) => break,
            (Some(_), None) => a.next(),
            (None, Some(_)) => b.next(),
            (Some(x), Some(y)) => {
                if x.errors <= y.errors {
                    a.next()
                } else {
                    b.next()
                }
            }
        };
        let Some(level) = next else { break };
        match merged.last_mut() {
            Some(last) if last.errors == level.errors => last.count += level.count,
            _ => merged.push(level),
        }
    }
    merged
}
