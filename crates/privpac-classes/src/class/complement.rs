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
use crate::class::{ConceptClass, ErrorLevel, ErrorRun, IdRange, LabelingCell, dense_len};
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
    /// concept) with their labelings complemented; the concepts keep their ids but are no
    /// longer named by the inner class's parts.
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
}

/// A cell of the inner class as a cell of its complement scored on the flipped sample:
/// the same ids, the labeling complemented, no parts.
fn complemented(cell: LabelingCell) -> LabelingCell {
    LabelingCell {
        parts: None,
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
    inner_len: u64,
}

impl<C: ConceptClass> Both<C> {
    /// `inner ∪ ¬inner`.
    ///
    /// # Errors
    /// [`Error::TooLarge`] if `|C| > ⌊(2^64 − 1)/2⌋`, so that the `2·|C|` ids and the
    /// level counts fit in `u64`.
    pub fn new(inner: C) -> Result<Self> {
        let len = inner.len();
        let limit = u128::from(u64::MAX / 2);
        if len > limit {
            return Err(Error::TooLarge {
                what: "class plus its complement",
                needed: len.saturating_mul(2),
                unit: "concepts",
                limit: 2 * limit,
            });
        }
        Ok(Both {
            inner,
            inner_len: len as u64,
        })
    }

    /// The class and its complement's inner class.
    pub fn inner(&self) -> &C {
        &self.inner
    }

    /// `(i, complemented)` for an id: concept `i` of the inner class, complemented or not.
    pub fn split(&self, id: u64) -> (u64, bool) {
        if id < self.inner_len {
            (id, false)
        } else {
            (id - self.inner_len, true)
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

    /// `Both(N)` when the inner class is plain thresholds over `[N]`.
    fn threshold_structure(&self) -> Option<crate::class::ThresholdStructure> {
        match self.inner.threshold_structure()? {
            crate::class::ThresholdStructure::Plain(n) => {
                Some(crate::class::ThresholdStructure::Both(n))
            }
            crate::class::ThresholdStructure::Both(_) => None,
        }
    }

    fn len(&self) -> u128 {
        2 * u128::from(self.inner_len)
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
    fn error_runs(&self, sample: &LabeledSample) -> Result<Vec<ErrorRun>> {
        let mut runs = self.inner.error_runs(sample)?;
        let complements = self
            .inner
            .error_runs(&flipped(self.inner.domain(), sample)?)?;
        for run in complements {
            let run = ErrorRun {
                first: run.first + self.inner_len,
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
    fn labeling_ranges(&self, points: &[Point]) -> Result<Option<Vec<IdRange>>> {
        let Some(plain) = self.inner.labeling_ranges(points)? else {
            return Ok(None);
        };
        let shifted = plain.iter().map(|range| IdRange {
            first: range.first + self.inner_len,
            last: range.last + self.inner_len,
            positives: range.positives.complement(),
        });
        Ok(Some(plain.iter().copied().chain(shifted).collect()))
    }

    /// The inner class's cells on the sample, then its cells on the flipped sample with
    /// ids shifted by `|C|` and labelings complemented (ids increase along the list;
    /// grouping by labeling merges the coincidences).
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
            first: cell.first.map(|id| id + self.inner_len),
            ..complemented(cell)
        }));
        Ok(Some(cells))
    }

    /// The inner levels of both halves merged, when the inner class has levels.
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
        let mut merged: Vec<ErrorLevel> = Vec::with_capacity(plain.len() + complements.len());
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
        Ok(Some(merged))
    }

    /// In id order: the inner class's concepts with `errors` mistakes on the sample first,
    /// then those on the flipped sample, shifted by `|C|`.
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
            .map(|id| id + self.inner_len))
    }
}
