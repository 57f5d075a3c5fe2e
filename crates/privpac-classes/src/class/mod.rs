//! The [`ConceptClass`] trait and the classes of the literature.
//!
//! # Design
//! A class is a finite, indexed family of concepts over a [`Domain`]: concepts are named by
//! `u64` ids in `0..len()`, and `eval(id, x)` labels a point. The hot path of every
//! exponential-mechanism learner is the *error profile*: the number of mistakes of every
//! concept on a labeled sample. The provided method [`ConceptClass::error_counts`] computes
//! it by brute force in O(|C|·n); it is the **reference** that structured classes override
//! with fast algorithms (prefix counts for thresholds, counting for points, the fast
//! Walsh–Hadamard transform for parities), and property tests check every override
//! against it. [`ConceptClass::error_runs`] is the compressed form (runs of consecutive
//! ids with equal error counts) that lets thresholds over huge ordered domains answer in
//! O(n log n) without materializing |X| counts.

mod all_functions;
pub mod closed_form;
mod complement;
mod halfspaces;
mod interval_cell_levels;
mod interval_cells;
mod intervals;
mod matrix_class;
mod parities;
mod parity_labelings;
mod points;
mod thresholds;
mod xor;
mod xor_points;

pub use all_functions::AllFunctions;
pub use complement::{Both, Not};
pub use halfspaces::{GridHalfspaces, MAX_GRID_SIDE};
pub use interval_cell_levels::{CellLevel, CellLevels};
pub use interval_cells::MAX_INTERVAL_CELLS;
pub use intervals::{Intervals, MAX_INTERVAL_LEVEL_WORK, MAX_INTERVALS_SIZE};
pub use matrix_class::ExplicitClass;
pub use parities::{Parities, walsh_hadamard};
pub use parity_labelings::ParityLabelings;
pub use points::Points;
pub use thresholds::Thresholds;
pub use xor::{WithZero, Xor};
pub use xor_points::XorPoints;

use crate::domain::{Domain, Point};
use crate::error::{Error, Result};
use crate::matrix::ClassMatrix;
use crate::sample::LabeledSample;
use closed_form::ClosedFormVc;

/// Largest class for which a dense error profile (one count per concept) is built.
pub const ERROR_PROFILE_LIMIT: u128 = 1 << 28;

/// A maximal run of consecutive concept ids with the same number of mistakes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ErrorRun {
    /// The first concept id of the run.
    pub first: u64,
    /// How many consecutive ids the run covers (≥ 1).
    pub len: u64,
    /// The number of mistakes of each concept in the run.
    pub errors: u64,
}

/// The number of concepts that make one number of mistakes: a level of the error profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ErrorLevel {
    /// The number of mistakes.
    pub errors: u64,
    /// How many concepts make that many mistakes (≥ 1).
    pub count: u64,
}

/// The order structure of a threshold class ([`ConceptClass::threshold_structure`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThresholdStructure {
    /// [`Thresholds`] over `[N]`: concept `t < N` labels `y` with 1 iff `y ≤ t`.
    Plain(u64),
    /// `both(thresholds)` over `[N]` ([`Both`] of [`Thresholds`]): ids `t < N` as for
    /// `Plain`, ids `N + t` their complements (1 iff `y > t`).
    Both(u64),
}

impl ThresholdStructure {
    /// N.
    pub fn domain_size(self) -> u64 {
        match self {
            ThresholdStructure::Plain(n) | ThresholdStructure::Both(n) => n,
        }
    }

    /// How many concepts each threshold stands for: 1 (plain) or 2 (both orientations).
    pub fn orientations(self) -> u64 {
        match self {
            ThresholdStructure::Plain(_) => 1,
            ThresholdStructure::Both(_) => 2,
        }
    }
}

/// A range of consecutive concept ids `first..=last` (inclusive, so that a range can end at
/// id `u64::MAX`) whose concepts all label a list of points the same way, with that
/// labeling.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IdRange {
    /// The first id of the range.
    pub first: u64,
    /// The last id of the range (≥ `first`).
    pub last: u64,
    /// The points the range's concepts label 1.
    pub positives: PointInterval,
}

/// A set of points given by their ranks among the **sorted distinct** points of a list:
/// the ranks `start..end`, or (`complemented`) every rank outside them. Every concept of
/// the classes over an ordered domain (thresholds, point functions, intervals and their
/// complements) labels a list of points this way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PointInterval {
    /// The first rank in the interval.
    pub start: usize,
    /// One past the last rank (≥ `start`).
    pub end: usize,
    /// Whether the set is the complement of the ranks `start..end`.
    pub complemented: bool,
}

impl PointInterval {
    /// The ranks `start..end`.
    pub fn plain(start: usize, end: usize) -> Self {
        PointInterval {
            start,
            end,
            complemented: false,
        }
    }

    /// The complement.
    pub fn complement(self) -> Self {
        PointInterval {
            complemented: !self.complemented,
            ..self
        }
    }

    /// The unique form of the same set among `distinct` ranks, so that two sets are equal
    /// exactly when their canonical forms are: the empty set as `0..0`, a complement that
    /// is one interval (of an empty, leading or trailing interval) as that interval; what
    /// stays complemented is two non-empty pieces, never an interval.
    #[inline]
    pub fn canonical(self, distinct: usize) -> Self {
        let (start, end) = (self.start.min(distinct), self.end.min(distinct));
        let (start, end, complemented) = if !self.complemented {
            (start, end, false)
        } else if start >= end {
            (0, distinct, false)
        } else if start == 0 {
            (end, distinct, false)
        } else if end == distinct {
            (0, start, false)
        } else {
            (start, end, true)
        };
        if !complemented && start >= end {
            PointInterval::plain(0, 0)
        } else {
            PointInterval {
                start,
                end,
                complemented,
            }
        }
    }

    /// Whether rank `rank` is in the set.
    #[inline]
    pub fn contains(&self, rank: usize) -> bool {
        (self.start <= rank && rank < self.end) != self.complemented
    }
}

/// A level of an error profile whose count may exceed `u64` (intervals over 2^64 points
/// have about 2^127 concepts): [`ConceptClass::wide_error_levels`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WideErrorLevel {
    /// The number of mistakes.
    pub errors: u64,
    /// How many concepts make that many mistakes (≥ 1).
    pub count: u128,
}

/// A concept named by its parts rather than by an id, for classes with more concepts than
/// 64-bit ids name ([`ConceptClass::parts_with_errors`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConceptParts {
    /// The concept that labels every point 0 (the empty interval).
    Empty,
    /// The indicator of `low ≤ x ≤ high` (`low ≤ high`) over an ordered domain.
    Interval {
        /// The first point labelled 1.
        low: Point,
        /// The last point labelled 1.
        high: Point,
    },
    /// The concept that labels every point 1 (the complement of the empty interval, in
    /// `not(intervals)` and `both(intervals)`).
    Full,
    /// The complement of the interval `low ≤ x ≤ high` (`low ≤ high`): 1 outside it (in
    /// `not(intervals)` and `both(intervals)`).
    NotInterval {
        /// The first point labelled 0.
        low: Point,
        /// The last point labelled 0.
        high: Point,
    },
}

impl ConceptParts {
    /// The complement concept: `Empty` and `Full`, `Interval` and `NotInterval` swap.
    pub fn complement(self) -> Self {
        match self {
            ConceptParts::Empty => ConceptParts::Full,
            ConceptParts::Full => ConceptParts::Empty,
            ConceptParts::Interval { low, high } => ConceptParts::NotInterval { low, high },
            ConceptParts::NotInterval { low, high } => ConceptParts::Interval { low, high },
        }
    }

    /// The label of `x`.
    pub fn contains(self, x: Point) -> bool {
        match self {
            ConceptParts::Empty => false,
            ConceptParts::Full => true,
            ConceptParts::Interval { low, high } => low <= x && x <= high,
            ConceptParts::NotInterval { low, high } => !(low <= x && x <= high),
        }
    }
}

/// The concepts of a class that label a list of points alike and form one block of the
/// class's structure (a rectangle of interval ends), with their scores on a sample:
/// an item of [`ConceptClass::labeling_cells`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LabelingCell {
    /// The smallest id of the cell's concepts, when it fits in `u64`.
    pub first: Option<u64>,
    /// The same concept named by its parts, when the class names concepts by parts
    /// ([`ConceptClass::parts_with_errors`]).
    pub parts: Option<ConceptParts>,
    /// The points the cell's concepts label 1, as ranks among the sorted distinct points.
    pub positives: PointInterval,
    /// The mistakes on the sample of the cell's first concept.
    pub first_errors: u64,
    /// The fewest mistakes on the sample of any concept of the cell.
    pub fewest_errors: u64,
}

/// What [`ConceptClass::smallest_consistent`] finds: the smallest id of a concept with no
/// mistakes on the sample, or the proof that none exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Consistency {
    /// The smallest id of a concept consistent with the sample.
    Consistent(u64),
    /// No concept of the class is consistent with the sample.
    Inconsistent,
}

/// A finite concept class over a finite domain.
pub trait ConceptClass: std::fmt::Debug + Send + Sync {
    /// The domain the concepts label.
    fn domain(&self) -> &Domain;

    /// The number of concepts |C| (ids are `0..len()`; `u128` because classes such as
    /// parities over `{0,1}^64` have 2^64 concepts).
    fn len(&self) -> u128;

    /// The label `c_id(x)`. Callers pass `id < len()` and `x` in the domain; other inputs
    /// give an unspecified label but never panic.
    fn eval(&self, id: u64, x: Point) -> bool;

    /// A short name, in the syntax of class specs where one exists (`thresholds:64`).
    fn name(&self) -> String;

    /// What concept `id` is in the data's own terms (a point's x, a threshold's cut, an
    /// interval's ends, a parity's coordinates and bit string in the orientation data files
    /// use), for reports next to the id. The provided form is `concept {id}`.
    fn describe(&self, id: u64) -> String {
        format!("concept {id}")
    }

    /// The VC dimension from the class's structure, exact or a proven upper bound, for
    /// classes of any size (no class matrix): see [`crate::closed_form`]. The
    /// provided form is None (nothing known: compute it from the class matrix).
    fn vc_dimension_closed_form(&self) -> Option<ClosedFormVc> {
        None
    }

    /// Always false: classes have at least one concept. (Present for clippy's
    /// `len_without_is_empty`.)
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The number of mistakes of every concept on `sample`, indexed by concept id.
    ///
    /// The provided implementation is the brute-force reference, O(|C|·n).
    ///
    /// # Errors
    /// [`Error::TooLarge`] if |C| exceeds [`ERROR_PROFILE_LIMIT`].
    fn error_counts(&self, sample: &LabeledSample) -> Result<Vec<u64>> {
        brute_force_error_counts(self, sample)
    }

    /// The error profile as runs of consecutive ids with equal counts.
    ///
    /// The provided implementation run-length encodes [`Self::error_counts`]; classes over
    /// huge domains override it to avoid materializing one count per concept.
    ///
    /// # Errors
    /// As for [`Self::error_counts`].
    fn error_runs(&self, sample: &LabeledSample) -> Result<Vec<ErrorRun>> {
        Ok(run_length_encode(&self.error_counts(sample)?))
    }

    /// The error profile as levels, in increasing order of mistakes, for classes whose runs
    /// are too many to list (intervals: in id order the profile has about `|X|·n` runs), or
    /// `None` (the provided answer) to use [`Self::error_runs`]. A class that returns levels
    /// also answers [`Self::concept_with_errors`]; the counts must sum to `len()` (so they
    /// fit in `u64`).
    ///
    /// # Errors
    /// As for [`Self::error_counts`].
    fn error_levels(&self, _sample: &LabeledSample) -> Result<Option<Vec<ErrorLevel>>> {
        Ok(None)
    }

    /// The concept of index `offset` in id order among the concepts with exactly `errors`
    /// mistakes on `sample`, for classes that return [`Self::error_levels`]: the same
    /// concept a walk over [`Self::error_runs`] in id order finds, so learners give the same
    /// seeded outputs on either path. `None` (the provided answer) when the class has no
    /// levels, or when `offset` is not below the level's count.
    ///
    /// # Errors
    /// As for [`Self::error_counts`].
    fn concept_with_errors(
        &self,
        _sample: &LabeledSample,
        _errors: u64,
        _offset: u64,
    ) -> Result<Option<u64>> {
        Ok(None)
    }
    /// `Some` when this class is [`Thresholds`] over `[N]` or `both(thresholds)` over `[N]`
    /// with exactly their ids, so that algorithms can use the order structure (the
    /// sanitizer learners answer `C ⊕ C` as intervals). The provided answer is `None`.
    fn threshold_structure(&self) -> Option<ThresholdStructure> {
        None
    }

    /// `Some(N)` when this class is [`Intervals`] over `[N]` with exactly its ids (id 0 the
    /// empty interval, then `[a, b]` a-major), so that algorithms can use the order
    /// structure: the sanitizer learners take C's dichotomies on a small database from the
    /// ends and run query-free sanitizers without the ids of `C ⊕ C` (about `N⁴/4`
    /// pairs). The provided answer is `None`.
    fn interval_structure(&self) -> Option<u64> {
        None
    }

    /// `Some(N)` when this class is [`Points`] over the ordered domain `[N]` (concept `a`
    /// is the indicator of the point `a`), so that algorithms can use that structure (the
    /// sanitizer learners answer `C ⊕ C` as pairs of points, [`XorPoints`]). The provided
    /// answer is `None`.
    fn point_structure(&self) -> Option<u64> {
        None
    }

    /// `Some(d)` when this class is [`Parities`] over `{0,1}^d` with exactly its ids
    /// (concept `a` is the parity `⟨a, x⟩ mod 2`), so that algorithms can use its linear
    /// structure: the dichotomies on a set of points are the cosets of their kernel
    /// ([`ParityLabelings`]), and a vote of parities has an exact true error under the
    /// uniform distribution from a transform over the span of its members. The provided
    /// answer is `None`.
    fn parity_structure(&self) -> Option<u32> {
        None
    }

    /// The ids `0..len()` cut into ranges of consecutive ids, listed in id order, on each
    /// of which every concept labels `points` the same way, with that labeling as a
    /// [`PointInterval`] of ranks among the sorted distinct `points`; or `None` (the
    /// provided answer) for classes without such a structure. Two ranges may carry the
    /// same labeling (compare [`PointInterval::canonical`] forms); grouping the ranges by
    /// labeling gives the class's dichotomies on `points`, each with the smallest id
    /// inducing it (the first id of its first range) and all its concepts, without
    /// evaluating any concept: this is how the stable, relabeling and Dagan–Feldman
    /// learners build their covers over huge classes. Classes over an ordered domain
    /// answer with O(|points|) ranges in O(t log t) time (thresholds: the cuts between
    /// consecutive distinct points; point functions: each point and the gaps between
    /// them).
    ///
    /// # Errors
    /// [`Error::PointOutsideDomain`] for a point outside the domain.
    fn labeling_ranges(&self, _points: &[Point]) -> Result<Option<Vec<IdRange>>> {
        Ok(None)
    }

    /// The smallest id of a concept with no mistakes on `sample`, or
    /// [`Consistency::Inconsistent`], for classes with an algebraic consistency test that
    /// needs no error profile (parities: Gaussian elimination over GF(2)), or `None` (the
    /// provided answer). When consistent, this is the concept ERM returns from the profile.
    ///
    /// # Errors
    /// As for [`Self::error_counts`] (a sample outside the domain).
    fn smallest_consistent(&self, _sample: &LabeledSample) -> Result<Option<Consistency>> {
        Ok(None)
    }

    /// The concepts cut into cells on each of which every concept labels `points` the same
    /// way, listed in increasing order of their smallest concept (each cell's first
    /// concept is the smallest of the cell), with each cell's first concept's mistakes on
    /// `sample` and its fewest; or `None` (the provided answer) for classes without such a
    /// structure. Two cells may carry the same labeling (compare
    /// [`PointInterval::canonical`] forms); grouping the cells by labeling gives the
    /// class's dichotomies on `points` with the smallest concept inducing each and the
    /// fewest mistakes among its concepts, as [`Self::labeling_ranges`] with
    /// [`Self::error_runs`] do for classes whose cells are runs of ids. Intervals answer
    /// at every size up to 2^64 − 1 points (a cell is a rectangle of ends, see
    /// [`Intervals`]), with `m(m + 1)/2 + 1` cells for m distinct points.
    ///
    /// # Errors
    /// [`Error::PointOutsideDomain`] for a point or example outside the domain;
    /// [`Error::TooLarge`] above a class's cell limit ([`MAX_INTERVAL_CELLS`]).
    fn labeling_cells(
        &self,
        _points: &[Point],
        _sample: &LabeledSample,
    ) -> Result<Option<Vec<LabelingCell>>> {
        Ok(None)
    }

    /// The cells of [`Self::labeling_cells`] kept as the structure they come from rather
    /// than listed: their numbers per score and any one of them by level and offset
    /// ([`CellLevels`]), for classes whose cells are too many to list, or `None` (the
    /// provided answer). Intervals answer at every number of points, in O(n log n + m)
    /// memory for m distinct points (their `m(m + 1)/2 + 1` cells are never listed).
    ///
    /// # Errors
    /// [`Error::PointOutsideDomain`] for a point or example outside the domain.
    fn labeling_cell_levels(
        &self,
        _points: &[Point],
        _sample: &LabeledSample,
    ) -> Result<Option<CellLevels>> {
        Ok(None)
    }

    /// The error profile as levels with 128-bit counts, in increasing order of mistakes,
    /// for classes with more concepts than 64-bit ids name, or `None` (the provided
    /// answer). A class that returns them also answers [`Self::parts_with_errors`];
    /// the counts sum to `len()`.
    ///
    /// # Errors
    /// As for [`Self::error_counts`].
    fn wide_error_levels(&self, _sample: &LabeledSample) -> Result<Option<Vec<WideErrorLevel>>> {
        Ok(None)
    }

    /// The concept of index `offset` (in the class's order) among those with exactly
    /// `errors` mistakes on `sample`, named by its parts (an interval's ends) rather than by
    /// an id (`Hypothesis::from` turns them into a hypothesis), for classes that return [`Self::wide_error_levels`].
    /// `None` (the provided answer) when the class has no wide levels, or when `offset` is
    /// not below the level's count.
    ///
    /// # Errors
    /// As for [`Self::error_counts`].
    fn parts_with_errors(
        &self,
        _sample: &LabeledSample,
        _errors: u64,
        _offset: u128,
    ) -> Result<Option<ConceptParts>> {
        Ok(None)
    }
}

/// Implements [`ConceptClass`] for a pointer type by forwarding every method to the
/// pointee (`&T` and `Box<T>` below), so that no method can be forgotten in one of them.
macro_rules! forward_concept_class {
    ($(#[$doc:meta])* $ty:ty) => {
        $(#[$doc])*
        impl<T: ConceptClass + ?Sized> ConceptClass for $ty {
            fn domain(&self) -> &Domain {
                (**self).domain()
            }
            fn len(&self) -> u128 {
                (**self).len()
            }
            fn eval(&self, id: u64, x: Point) -> bool {
                (**self).eval(id, x)
            }
            fn name(&self) -> String {
                (**self).name()
            }
            fn describe(&self, id: u64) -> String {
                (**self).describe(id)
            }
            fn vc_dimension_closed_form(&self) -> Option<ClosedFormVc> {
                (**self).vc_dimension_closed_form()
            }
            fn error_counts(&self, sample: &LabeledSample) -> Result<Vec<u64>> {
                (**self).error_counts(sample)
            }
            fn error_runs(&self, sample: &LabeledSample) -> Result<Vec<ErrorRun>> {
                (**self).error_runs(sample)
            }
            fn error_levels(&self, sample: &LabeledSample) -> Result<Option<Vec<ErrorLevel>>> {
                (**self).error_levels(sample)
            }
            fn concept_with_errors(
                &self,
                sample: &LabeledSample,
                errors: u64,
                offset: u64,
            ) -> Result<Option<u64>> {
                (**self).concept_with_errors(sample, errors, offset)
            }
            fn threshold_structure(&self) -> Option<ThresholdStructure> {
                (**self).threshold_structure()
            }
            fn interval_structure(&self) -> Option<u64> {
                (**self).interval_structure()
            }
            fn point_structure(&self) -> Option<u64> {
                (**self).point_structure()
            }
            fn parity_structure(&self) -> Option<u32> {
                (**self).parity_structure()
            }
            fn labeling_ranges(&self, points: &[Point]) -> Result<Option<Vec<IdRange>>> {
                (**self).labeling_ranges(points)
            }
            fn labeling_cells(
                &self,
                points: &[Point],
                sample: &LabeledSample,
            ) -> Result<Option<Vec<LabelingCell>>> {
                (**self).labeling_cells(points, sample)
            }
            fn labeling_cell_levels(
                &self,
                points: &[Point],
                sample: &LabeledSample,
            ) -> Result<Option<CellLevels>> {
                (**self).labeling_cell_levels(points, sample)
            }
            fn wide_error_levels(&self, sample: &LabeledSample) -> Result<Option<Vec<WideErrorLevel>>> {
                (**self).wide_error_levels(sample)
            }
            fn smallest_consistent(&self, sample: &LabeledSample) -> Result<Option<Consistency>> {
                (**self).smallest_consistent(sample)
            }
            fn parts_with_errors(
                &self,
                sample: &LabeledSample,
                errors: u64,
                offset: u128,
            ) -> Result<Option<ConceptParts>> {
                (**self).parts_with_errors(sample, errors, offset)
            }
        }
    };
}

forward_concept_class!(
    /// A borrowed class is a class (so combinators such as [`Xor`] can wrap `&dyn ConceptClass`).
    &T
);
forward_concept_class!(
    /// An owned, boxed class is a class (the form [`crate::parse_spec`] returns).
    Box<T>
);

/// The brute-force error profile: evaluate every concept on every example.
///
/// # Errors
/// [`Error::TooLarge`] if |C| exceeds [`ERROR_PROFILE_LIMIT`].
pub fn brute_force_error_counts<C: ConceptClass + ?Sized>(
    class: &C,
    sample: &LabeledSample,
) -> Result<Vec<u64>> {
    let len = dense_len(class)?;
    Ok((0..len as u64)
        .map(|id| {
            sample
                .iter()
                .filter(|&(x, y)| class.eval(id, x) != y)
                .count() as u64
        })
        .collect())
}

/// Run-length encodes a dense error profile.
pub fn run_length_encode(counts: &[u64]) -> Vec<ErrorRun> {
    let mut runs: Vec<ErrorRun> = Vec::new();
    for (id, &errors) in counts.iter().enumerate() {
        match runs.last_mut() {
            Some(run) if run.errors == errors => run.len += 1,
            _ => runs.push(ErrorRun {
                first: id as u64,
                len: 1,
                errors,
            }),
        }
    }
    runs
}

/// Checks that every point of `sample` lies in `domain` (a sample built for another domain
/// must give an error, not an out-of-bounds index in a fast path).
///
/// # Errors
/// [`Error::PointOutsideDomain`] for the first offending point.
pub(crate) fn check_sample(domain: &Domain, sample: &LabeledSample) -> Result<()> {
    domain.check_all(sample.points())
}

/// The ranges `[0, c₁), [c₁, c₂), …, [c_m, len)` (empty ones left out) for sorted distinct
/// cuts `c_i < len`, as inclusive [`IdRange`]s labeled by `positives(j)` for the range
/// after `j` cuts; `len ≥ 1`.
pub(crate) fn ranges_between_cuts(
    cuts: &[u64],
    len: u128,
    positives: impl Fn(usize) -> PointInterval,
) -> Vec<IdRange> {
    let mut ranges = Vec::with_capacity(cuts.len() + 1);
    let mut start: u128 = 0;
    for (j, &cut) in cuts.iter().enumerate() {
        if u128::from(cut) > start {
            ranges.push(IdRange {
                first: start as u64,
                last: cut - 1,
                positives: positives(j),
            });
        }
        start = u128::from(cut);
    }
    if start < len {
        ranges.push(IdRange {
            first: start as u64,
            last: (len - 1) as u64,
            positives: positives(cuts.len()),
        });
    }
    ranges
}

/// The sorted distinct points of a list.
pub fn sorted_distinct(points: &[Point]) -> Vec<Point> {
    let mut sorted = points.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    sorted
}

/// Checks that a class is small enough for a dense profile and returns |C|.
pub(crate) fn dense_len<C: ConceptClass + ?Sized>(class: &C) -> Result<usize> {
    let len = class.len();
    if len > ERROR_PROFILE_LIMIT {
        return Err(Error::TooLarge {
            what: "dense error profile",
            needed: len,
            unit: "concepts",
            limit: ERROR_PROFILE_LIMIT,
        });
    }
    Ok(len as usize)
}

/// Materializes a class as an explicit [`ClassMatrix`] (rows = concept ids, columns = the
/// domain's points in enumeration order).
///
/// # Errors
/// [`Error::TooLarge`] above `cell_limit` cells (or a domain or class beyond `usize`).
pub fn materialize<C: ConceptClass + ?Sized>(class: &C, cell_limit: u128) -> Result<ClassMatrix> {
    let concepts = class.len();
    let points = class.domain().size();
    let cells = concepts.saturating_mul(points);
    if cells > cell_limit || concepts > usize::MAX as u128 || points > usize::MAX as u128 {
        return Err(Error::TooLarge {
            what: "class matrix",
            needed: cells,
            unit: "cells",
            limit: cell_limit,
        });
    }
    let domain = class.domain();
    let point_list: Vec<Point> = (0..points as u64)
        .map(|i| domain.point_at(i).unwrap_or(i))
        .collect();
    ClassMatrix::from_fn(concepts as usize, points as usize, cell_limit, |c, x| {
        class.eval(c as u64, point_list[x])
    })
}

/// Checks that `id` names a concept of `class`.
///
/// # Errors
/// [`Error::ConceptOutOfRange`].
pub fn check_concept<C: ConceptClass + ?Sized>(class: &C, id: u64) -> Result<()> {
    if u128::from(id) < class.len() {
        Ok(())
    } else {
        Err(Error::ConceptOutOfRange {
            id,
            len: class.len(),
        })
    }
}

#[cfg(test)]
mod cells_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod wide_tests;
