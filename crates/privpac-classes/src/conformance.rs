//! Conformance checks for implementers of [`ConceptClass`]: a class's fast paths must agree
//! with the brute-force reference.
//!
//! The trait's provided [`ConceptClass::error_counts`] evaluates every concept on every
//! example ([`brute_force_error_counts`]), and the provided [`ConceptClass::error_runs`]
//! run-length encodes it. A class that overrides either one with a fast algorithm must return
//! exactly the same profile on every sample; learners choose hypotheses from these numbers, so
//! a wrong count is a wrong (and possibly non-private) learner. The functions here compare
//! both overridable methods with the reference:
//!
//! - [`check_fast_paths`] on samples you give;
//! - [`check_exhaustive`] on every sample up to a length (tiny domains);
//! - [`check_random`] on random samples from an explicit RNG (seed it for a reproducible test).
//!
//! A class that gives its profile as levels ([`ConceptClass::error_levels`]) is checked
//! there too: the levels against the reference's, and
//! [`ConceptClass::concept_with_errors`] against every concept of every level in id order.
//! So are wide levels ([`ConceptClass::wide_error_levels`], the same counts) with
//! [`ConceptClass::parts_with_errors`] (every member of every level, as a function, equal to
//! the concept of that offset in id order), and [`ConceptClass::smallest_consistent`] (the
//! first id with no mistakes, or none).
//!
//! Each returns the number of samples checked, or the first [`Mismatch`], which names the
//! class, the sample and the first concept (or run) that differs. The reference needs a dense
//! profile, so the class must have at most [`ERROR_PROFILE_LIMIT`](crate::ERROR_PROFILE_LIMIT) concepts; check a small
//! instance of a class that is meant for huge domains.
//!
//! # Example
//!
//! ```
//! use privpac_classes::{Thresholds, conformance};
//! use rand::SeedableRng;
//!
//! let class = Thresholds::new(6)?;
//! // Every sample of up to 3 examples over 6 points: 1 + 12 + 144 + 1728.
//! assert_eq!(conformance::check_exhaustive(&class, 3)?, 1885);
//! let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
//! assert_eq!(conformance::check_random(&class, 200, 20, &mut rng)?, 200);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use rand::{Rng, RngExt};

use crate::class::{
    ConceptClass, Consistency, ErrorRun, brute_force_error_counts, run_length_encode,
};
use crate::domain::Point;
use crate::error::Error;
use crate::sample::LabeledSample;

/// The most samples [`check_exhaustive`] enumerates (2²⁰).
pub const MAX_EXHAUSTIVE_SAMPLES: u128 = 1 << 20;

/// The most examples in one sample drawn by [`check_random`] (2¹⁶).
pub const MAX_RANDOM_SAMPLE_LEN: usize = 1 << 16;

/// Why a class does not conform, or why the check could not run.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Mismatch {
    /// `error_counts` differs from the brute-force reference.
    #[error(
        "{class}: error_counts differs from the brute-force reference on the sample {sample:?}: \
         {}",
        describe_counts(fast, reference)
    )]
    ErrorCounts {
        /// The class's name.
        class: String,
        /// The sample, as `(point, label)` pairs.
        sample: Vec<(Point, bool)>,
        /// What the class returned.
        fast: Vec<u64>,
        /// The brute-force profile.
        reference: Vec<u64>,
    },
    /// `error_runs` differs from the run-length encoding of the brute-force reference.
    #[error(
        "{class}: error_runs differs from the encoded reference on the sample {sample:?}: {}",
        describe_runs(fast, reference)
    )]
    ErrorRuns {
        /// The class's name.
        class: String,
        /// The sample, as `(point, label)` pairs.
        sample: Vec<(Point, bool)>,
        /// What the class returned.
        fast: Vec<ErrorRun>,
        /// The maximal runs of the brute-force profile.
        reference: Vec<ErrorRun>,
    },
    /// `error_levels` differs from the levels of the brute-force reference, or
    /// `concept_with_errors` does not list a level's concepts in id order.
    #[error("{class}: {detail} on the sample {sample:?}")]
    ErrorLevels {
        /// The class's name.
        class: String,
        /// The sample, as `(point, label)` pairs.
        sample: Vec<(Point, bool)>,
        /// What differs.
        detail: String,
    },
    /// `labeling_ranges` on the sample's points does not cut `0..len()` into consecutive
    /// ranges, in id order, of concepts that label those points alike.
    #[error("{class}: {detail} on the points of the sample {sample:?}")]
    LabelingRanges {
        /// The class's name.
        class: String,
        /// The sample, as `(point, label)` pairs.
        sample: Vec<(Point, bool)>,
        /// What differs.
        detail: String,
    },
    /// A fast path returned an error where the reference succeeded.
    #[error(
        "{class}: {method} failed on the sample {sample:?} where the reference did not: {error}"
    )]
    FastPathFailed {
        /// The class's name.
        class: String,
        /// The method that failed (`error_counts` or `error_runs`).
        method: &'static str,
        /// The sample, as `(point, label)` pairs.
        sample: Vec<(Point, bool)>,
        /// Its error.
        error: Box<Error>,
    },
    /// The check could not run: the class is too large for the reference, a sample does
    /// not belong to the class's domain, or there would be too many samples.
    #[error("the conformance check could not run: {0}")]
    Unusable(Error),
}

fn describe_counts(fast: &[u64], reference: &[u64]) -> String {
    match fast.iter().zip(reference).position(|(a, b)| a != b) {
        Some(id) => format!(
            "concept {id} makes {} mistakes, the reference {}",
            fast[id], reference[id]
        ),
        None => format!(
            "{} counts instead of {} (one per concept)",
            fast.len(),
            reference.len()
        ),
    }
}

fn describe_runs(fast: &[ErrorRun], reference: &[ErrorRun]) -> String {
    match fast.iter().zip(reference).position(|(a, b)| a != b) {
        Some(index) => format!(
            "run {index} is {:?}, the reference {:?}",
            fast[index], reference[index]
        ),
        None => format!("{} runs instead of {}", fast.len(), reference.len()),
    }
}

/// Checks `error_counts` and `error_runs` of `class` against the brute-force reference on
/// each of `samples`; returns how many samples were checked.
///
/// # Errors
///
/// The first [`Mismatch`]: [`Mismatch::ErrorCounts`], [`Mismatch::ErrorRuns`] or
/// [`Mismatch::FastPathFailed`] when the class is wrong, and [`Mismatch::Unusable`] when the
/// reference cannot run (more than [`ERROR_PROFILE_LIMIT`](crate::ERROR_PROFILE_LIMIT) concepts, or a sample point outside
/// the class's domain).
///
/// # Example
///
/// A class whose fast path forgets the label of negative examples is caught:
///
/// ```
/// use privpac_classes::conformance::{self, Mismatch};
/// use privpac_classes::{ConceptClass, Domain, LabeledSample, Point, Result, Thresholds};
///
/// #[derive(Debug)]
/// struct Broken(Thresholds);
///
/// impl ConceptClass for Broken {
///     fn domain(&self) -> &Domain { self.0.domain() }
///     fn len(&self) -> u128 { self.0.len() }
///     fn eval(&self, id: u64, x: Point) -> bool { self.0.eval(id, x) }
///     fn name(&self) -> String { "broken".into() }
///     fn error_counts(&self, sample: &LabeledSample) -> Result<Vec<u64>> {
///         // Counts only the positive examples a concept misses.
///         Ok((0..4).map(|t| sample.iter().filter(|&(x, y)| y && x > t).count() as u64).collect())
///     }
/// }
///
/// let broken = Broken(Thresholds::new(4)?);
/// let fine = LabeledSample::from_pairs(broken.domain(), &[(2, true)])?;
/// assert_eq!(conformance::check_fast_paths(&broken, [&fine]), Ok(1));
/// let negative = LabeledSample::from_pairs(broken.domain(), &[(0, false)])?;
/// let verdict = conformance::check_fast_paths(&broken, [&fine, &negative]);
/// assert!(matches!(verdict, Err(Mismatch::ErrorCounts { .. })));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn check_fast_paths<'s, C>(
    class: &C,
    samples: impl IntoIterator<Item = &'s LabeledSample>,
) -> Result<usize, Mismatch>
where
    C: ConceptClass + ?Sized,
{
    let mut checked = 0;
    for sample in samples {
        check_one(class, sample)?;
        checked += 1;
    }
    Ok(checked)
}

fn check_one<C: ConceptClass + ?Sized>(class: &C, sample: &LabeledSample) -> Result<(), Mismatch> {
    for x in sample.points() {
        class.domain().check(*x).map_err(Mismatch::Unusable)?;
    }
    let reference = brute_force_error_counts(class, sample).map_err(Mismatch::Unusable)?;
    let pairs = || sample.iter().collect::<Vec<_>>();
    let failed = |method, error| Mismatch::FastPathFailed {
        class: class.name(),
        method,
        sample: pairs(),
        error: Box::new(error),
    };
    let fast = class
        .error_counts(sample)
        .map_err(|error| failed("error_counts", error))?;
    if fast != reference {
        return Err(Mismatch::ErrorCounts {
            class: class.name(),
            sample: pairs(),
            fast,
            reference,
        });
    }
    let runs = class
        .error_runs(sample)
        .map_err(|error| failed("error_runs", error))?;
    let reference_runs = run_length_encode(&reference);
    if runs != reference_runs {
        return Err(Mismatch::ErrorRuns {
            class: class.name(),
            sample: pairs(),
            fast: runs,
            reference: reference_runs,
        });
    }
    check_levels(class, sample, &reference)
        .and_then(|()| check_wide_levels(class, sample, &reference))
        .map_err(|detail| match detail {
            Ok(detail) => Mismatch::ErrorLevels {
                class: class.name(),
                sample: pairs(),
                detail,
            },
            Err((method, error)) => failed(method, error),
        })?;
    let ranges = class
        .labeling_ranges(sample.points())
        .map_err(|error| failed("labeling_ranges", error))?;
    match ranges.map(|ranges| check_ranges(class, sample.points(), &ranges, reference.len())) {
        Some(Err(detail)) => Err(Mismatch::LabelingRanges {
            class: class.name(),
            sample: pairs(),
            detail,
        }),
        _ => Ok(()),
    }
}

/// Checks that `ranges` cut `0..len` into consecutive non-empty ranges in id order, each
/// of concepts that label `points` as the range's [`crate::PointInterval`] says (by
/// evaluating every concept).
fn check_ranges<C: ConceptClass + ?Sized>(
    class: &C,
    points: &[Point],
    ranges: &[crate::class::IdRange],
    len: usize,
) -> Result<(), String> {
    let labels = |id: u64| {
        points
            .iter()
            .map(|&x| class.eval(id, x))
            .collect::<Vec<_>>()
    };
    let sorted = crate::class::sorted_distinct(points);
    let rank = |x: Point| sorted.binary_search(&x).unwrap_or(0);
    let mut next = 0u64;
    for range in ranges {
        if range.first != next || range.last < range.first {
            return Err(format!(
                "labeling_ranges gives {range:?} where a range starting at {next} was due"
            ));
        }
        let expected: Vec<bool> = points
            .iter()
            .map(|&x| range.positives.contains(rank(x)))
            .collect();
        if let Some(id) = (range.first..=range.last).find(|&id| labels(id) != expected) {
            return Err(format!(
                "labeling_ranges gives {range:?}, but concept {id} labels the points {:?}",
                labels(id)
            ));
        }
        next = range.last + 1;
    }
    if next as usize != len {
        return Err(format!(
            "labeling_ranges covers ids 0..{next}, the class has {len} concepts"
        ));
    }
    Ok(())
}

/// Checks `error_levels` (when the class gives levels) against the levels of `reference`,
/// and `concept_with_errors` against every concept of every level in id order (and one
/// offset past each level's end).
fn check_levels<C: ConceptClass + ?Sized>(
    class: &C,
    sample: &LabeledSample,
    reference: &[u64],
) -> Result<(), Result<String, (&'static str, Error)>> {
    let Some(levels) = class
        .error_levels(sample)
        .map_err(|error| Err(("error_levels", error)))?
    else {
        return Ok(());
    };
    let mut by_errors: std::collections::BTreeMap<u64, Vec<u64>> = Default::default();
    for (id, &errors) in reference.iter().enumerate() {
        by_errors.entry(errors).or_default().push(id as u64);
    }
    let expected: Vec<(u64, u64)> = by_errors
        .iter()
        .map(|(&errors, ids)| (errors, ids.len() as u64))
        .collect();
    let found: Vec<(u64, u64)> = levels.iter().map(|l| (l.errors, l.count)).collect();
    if found != expected {
        return Err(Ok(format!(
            "error_levels gives (errors, count) {found:?}, the reference {expected:?}"
        )));
    }
    for (&errors, ids) in &by_errors {
        for offset in 0..=ids.len() as u64 {
            let found = class
                .concept_with_errors(sample, errors, offset)
                .map_err(|error| Err(("concept_with_errors", error)))?;
            let expected = ids.get(offset as usize).copied();
            if found != expected {
                return Err(Ok(format!(
                    "concept_with_errors({errors}, {offset}) is {found:?}, the reference {expected:?}"
                )));
            }
        }
    }
    Ok(())
}

/// Checks `wide_error_levels` and `parts_with_errors` (when the class gives them) against
/// the reference, member by member as functions on the domain (on the sample's points when
/// the domain has more than 2^12), and `smallest_consistent` (when the class gives it).
fn check_wide_levels<C: ConceptClass + ?Sized>(
    class: &C,
    sample: &LabeledSample,
    reference: &[u64],
) -> Result<(), Result<String, (&'static str, Error)>> {
    let first_consistent = reference.iter().position(|&errors| errors == 0);
    if let Some(found) = class
        .smallest_consistent(sample)
        .map_err(|error| Err(("smallest_consistent", error)))?
    {
        let expected = match first_consistent {
            Some(id) => Consistency::Consistent(id as u64),
            None => Consistency::Inconsistent,
        };
        if found != expected {
            return Err(Ok(format!(
                "smallest_consistent is {found:?}, the reference {expected:?}"
            )));
        }
    }
    let Some(levels) = class
        .wide_error_levels(sample)
        .map_err(|error| Err(("wide_error_levels", error)))?
    else {
        return Ok(());
    };
    let mut by_errors: std::collections::BTreeMap<u64, Vec<u64>> = Default::default();
    for (id, &errors) in reference.iter().enumerate() {
        by_errors.entry(errors).or_default().push(id as u64);
    }
    let expected: Vec<(u64, u128)> = by_errors
        .iter()
        .map(|(&errors, ids)| (errors, ids.len() as u128))
        .collect();
    let found: Vec<(u64, u128)> = levels.iter().map(|l| (l.errors, l.count)).collect();
    if found != expected {
        return Err(Ok(format!(
            "wide_error_levels gives (errors, count) {found:?}, the reference {expected:?}"
        )));
    }
    let domain = class.domain();
    let points: Vec<Point> = if domain.size() <= 1 << 12 {
        (0..domain.size() as u64)
            .filter_map(|index| domain.point_at(index))
            .collect()
    } else {
        sample.points().to_vec()
    };
    for (&errors, ids) in &by_errors {
        for offset in 0..=ids.len() {
            let found = class
                .parts_with_errors(sample, errors, offset as u128)
                .map_err(|error| Err(("parts_with_errors", error)))?;
            let agrees = match (found, ids.get(offset)) {
                (None, None) => true,
                (Some(parts), Some(&id)) => points
                    .iter()
                    .all(|&x| parts.contains(x) == class.eval(id, x)),
                _ => false,
            };
            if !agrees {
                return Err(Ok(format!(
                    "parts_with_errors({errors}, {offset}) is {found:?}, the reference concept {:?}",
                    ids.get(offset)
                )));
            }
        }
    }
    Ok(())
}

/// Checks the fast paths of `class` on every sample of at most `max_len` examples over its
/// whole domain, shortest first (the empty sample included); returns how many samples were
/// checked, `Σ_{n ≤ max_len} (2|X|)^n`.
///
/// # Errors
///
/// As [`check_fast_paths`]; [`Mismatch::Unusable`] with [`Error::TooLarge`] before checking
/// anything if there would be more than [`MAX_EXHAUSTIVE_SAMPLES`] samples.
pub fn check_exhaustive<C>(class: &C, max_len: usize) -> Result<usize, Mismatch>
where
    C: ConceptClass + ?Sized,
{
    let domain = class.domain();
    let examples = domain.size().saturating_mul(2);
    let mut total: u128 = 0;
    let mut level: u128 = 1;
    for n in 0..=max_len {
        total = total.saturating_add(level);
        if total > MAX_EXHAUSTIVE_SAMPLES {
            return Err(Mismatch::Unusable(Error::TooLarge {
                what: "exhaustive conformance check",
                needed: total,
                unit: "samples",
                limit: MAX_EXHAUSTIVE_SAMPLES,
            }));
        }
        if n < max_len {
            level = level.saturating_mul(examples);
        }
    }
    // With max_len ≥ 1 the limit bounds the domain by 2^19 points; with max_len = 0 only the
    // empty sample is checked and no point is needed.
    let points: Vec<Point> = if max_len == 0 {
        Vec::new()
    } else {
        (0..domain.size() as u64)
            .filter_map(|index| domain.point_at(index))
            .collect()
    };
    let mut checked = 0;
    let mut pairs: Vec<(Point, bool)> = Vec::with_capacity(max_len);
    for n in 0..=max_len {
        // An odometer over (point index, label) for each of the n positions.
        let mut digits = vec![0usize; n];
        loop {
            pairs.clear();
            pairs.extend(
                digits
                    .iter()
                    .map(|&digit| (points[digit / 2], digit % 2 == 1)),
            );
            let sample = LabeledSample::from_pairs(domain, &pairs).map_err(Mismatch::Unusable)?;
            check_one(class, &sample)?;
            checked += 1;
            let Some(position) = digits
                .iter()
                .rposition(|&digit| digit + 1 < 2 * points.len())
            else {
                break;
            };
            digits[position] += 1;
            digits[position + 1..].fill(0);
        }
    }
    Ok(checked)
}

/// Checks the fast paths of `class` on `samples` random samples, each of a uniform length in
/// `0..=max_len` with uniform points of the domain and fair labels; returns `samples`.
///
/// # Errors
///
/// As [`check_fast_paths`]; [`Mismatch::Unusable`] with [`Error::TooLarge`] if `max_len`
/// exceeds [`MAX_RANDOM_SAMPLE_LEN`].
pub fn check_random<C, R>(
    class: &C,
    samples: usize,
    max_len: usize,
    rng: &mut R,
) -> Result<usize, Mismatch>
where
    C: ConceptClass + ?Sized,
    R: Rng + ?Sized,
{
    if max_len > MAX_RANDOM_SAMPLE_LEN {
        return Err(Mismatch::Unusable(Error::TooLarge {
            what: "random conformance sample",
            needed: max_len as u128,
            unit: "examples",
            limit: MAX_RANDOM_SAMPLE_LEN as u128,
        }));
    }
    let domain = class.domain();
    let size = domain.size();
    let mut pairs = Vec::with_capacity(max_len);
    for _ in 0..samples {
        let len = rng.random_range(0..=max_len);
        pairs.clear();
        for _ in 0..len {
            // Domains have at most 2^64 points; with exactly 2^64 every u64 is an index.
            let index = if size > u128::from(u64::MAX) {
                rng.random::<u64>()
            } else {
                rng.random_range(0..size as u64)
            };
            let Some(x) = domain.point_at(index) else {
                continue;
            };
            pairs.push((x, rng.random::<bool>()));
        }
        let sample = LabeledSample::from_pairs(domain, &pairs).map_err(Mismatch::Unusable)?;
        check_one(class, &sample)?;
    }
    Ok(samples)
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::domain::Domain;
    use crate::{Parities, Points, Thresholds};

    /// Thresholds with a deliberately wrong fast path: `error_counts` is off by one for the
    /// last concept when the sample has a positive example at the last point, and
    /// `error_runs` splits the first run in two.
    #[derive(Debug)]
    struct Faulty {
        inner: Thresholds,
        counts_wrong: bool,
        runs_wrong: bool,
        runs_fail: bool,
    }

    impl Faulty {
        fn new(counts_wrong: bool, runs_wrong: bool, runs_fail: bool) -> Faulty {
            Faulty {
                inner: Thresholds::new(4).unwrap(),
                counts_wrong,
                runs_wrong,
                runs_fail,
            }
        }
    }

    impl ConceptClass for Faulty {
        fn domain(&self) -> &Domain {
            self.inner.domain()
        }
        fn len(&self) -> u128 {
            self.inner.len()
        }
        fn eval(&self, id: u64, x: Point) -> bool {
            self.inner.eval(id, x)
        }
        fn name(&self) -> String {
            "faulty".to_owned()
        }
        fn error_counts(&self, sample: &LabeledSample) -> crate::Result<Vec<u64>> {
            let mut counts = self.inner.error_counts(sample)?;
            if self.counts_wrong && sample.iter().any(|(x, y)| x == 3 && y) {
                counts[3] += 1;
            }
            Ok(counts)
        }
        fn error_runs(&self, sample: &LabeledSample) -> crate::Result<Vec<ErrorRun>> {
            if self.runs_fail {
                return Err(Error::EmptySample);
            }
            let mut runs = self.inner.error_runs(sample)?;
            if self.runs_wrong && runs[0].len > 1 {
                let first = runs[0];
                runs[0].len = 1;
                runs.insert(
                    1,
                    ErrorRun {
                        first: first.first + 1,
                        len: first.len - 1,
                        errors: first.errors,
                    },
                );
            }
            Ok(runs)
        }
    }

    #[test]
    fn correct_classes_conform() {
        assert_eq!(
            check_exhaustive(&Thresholds::new(3).unwrap(), 2),
            Ok(1 + 6 + 36)
        );
        assert_eq!(
            check_exhaustive(&Points::new(Domain::ordered(3).unwrap()), 3),
            Ok(1 + 6 + 36 + 216)
        );
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        assert_eq!(
            check_random(&Parities::new(5).unwrap(), 100, 30, &mut rng),
            Ok(100)
        );
        assert_eq!(check_fast_paths(&Parities::new(2).unwrap(), []), Ok(0));
    }

    #[test]
    fn wrong_counts_are_caught_with_the_first_bad_concept() {
        let faulty = Faulty::new(true, false, false);
        let error = check_exhaustive(&faulty, 2).unwrap_err();
        let Mismatch::ErrorCounts {
            ref sample,
            ref fast,
            ref reference,
            ..
        } = error
        else {
            panic!("{error:?}")
        };
        // The first sample in enumeration order with a positive example at point 3.
        assert_eq!(sample, &[(3, true)]);
        assert_eq!(fast[3], reference[3] + 1);
        assert!(
            error
                .to_string()
                .contains("concept 3 makes 1 mistakes, the reference 0"),
            "{error}"
        );
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        assert!(matches!(
            check_random(&faulty, 200, 6, &mut rng),
            Err(Mismatch::ErrorCounts { .. })
        ));
    }

    #[test]
    fn wrong_or_failing_runs_are_caught() {
        let error = check_exhaustive(&Faulty::new(false, true, false), 1).unwrap_err();
        assert!(matches!(error, Mismatch::ErrorRuns { .. }), "{error:?}");
        assert!(error.to_string().contains("run 0 is"), "{error}");
        let error = check_exhaustive(&Faulty::new(false, false, true), 1).unwrap_err();
        assert!(
            matches!(
                error,
                Mismatch::FastPathFailed {
                    method: "error_runs",
                    ..
                }
            ),
            "{error:?}"
        );
    }

    #[test]
    fn unusable_inputs_are_refused() {
        assert!(matches!(
            check_exhaustive(&Thresholds::new(100).unwrap(), 3),
            Err(Mismatch::Unusable(Error::TooLarge { .. }))
        ));
        assert!(matches!(
            check_exhaustive(&Parities::new(40).unwrap(), 0),
            Err(Mismatch::Unusable(Error::TooLarge { .. }))
        ));
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        assert!(matches!(
            check_random(&Thresholds::new(4).unwrap(), 1, usize::MAX, &mut rng),
            Err(Mismatch::Unusable(Error::TooLarge { .. }))
        ));
        let wide = Domain::ordered(10).unwrap();
        let outside = LabeledSample::from_pairs(&wide, &[(7, true)]).unwrap();
        assert!(matches!(
            check_fast_paths(&Thresholds::new(4).unwrap(), [&outside]),
            Err(Mismatch::Unusable(Error::PointOutsideDomain {
                point: 7,
                ..
            }))
        ));
    }
}
