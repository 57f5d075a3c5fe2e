//! `THRESH_X`: thresholds `c_t(y) = 1 iff y ≤ t` over an ordered domain.

use crate::class::closed_form::{ClosedFormVc, Family};
use crate::class::points::push_run;
use crate::class::{
    ConceptClass, ErrorRun, IdRange, PointInterval, check_sample, dense_len, ranges_between_cuts,
    sorted_distinct,
};
use crate::domain::{Domain, Point};
use crate::error::{Error, Result};
use crate::sample::LabeledSample;

/// Thresholds over `[N]`: concept `t ∈ [N]` labels `y` with 1 iff `y ≤ t`, i.e. the
/// indicators of the N non-empty prefixes of the domain (Bun–Nissim–Stemmer's `THRESH_X`
/// is "1 on a prefix"; add the empty prefix with [`crate::class::WithZero`]). VC dimension 1; Littlestone dimension ⌊log2 N⌋ (a chain of N nested
/// sets; ⌊log2(N+1)⌋ with the all-zero concept added, see [`crate::class::WithZero`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Thresholds {
    domain: Domain,
    size: u64,
}

impl Thresholds {
    /// Thresholds over `[size]`.
    ///
    /// # Errors
    /// [`Error::InvalidDomain`] for size 0.
    pub fn new(size: u64) -> Result<Self> {
        Ok(Thresholds {
            domain: Domain::ordered(size)?,
            size,
        })
    }

    /// Thresholds over an ordered domain.
    ///
    /// # Errors
    /// [`Error::InvalidClass`] for a domain that is not ordered.
    pub fn over(domain: Domain) -> Result<Self> {
        match domain {
            Domain::Ordered { size } => Thresholds::new(size),
            other => Err(Error::InvalidClass {
                reason: format!("thresholds need an ordered domain, got {other}"),
            }),
        }
    }
}

impl ConceptClass for Thresholds {
    /// 1 for N ≥ 2 (0 for N = 1: one concept), exactly.
    fn vc_dimension_closed_form(&self) -> Option<ClosedFormVc> {
        let d = u64::from(self.size >= 2);
        Some(ClosedFormVc::exact(
            d,
            "thresholds",
            Some(Family::Thresholds),
        ))
    }
    fn domain(&self) -> &Domain {
        &self.domain
    }

    fn len(&self) -> u128 {
        u128::from(self.size)
    }

    fn eval(&self, id: u64, x: Point) -> bool {
        x <= id
    }

    fn threshold_structure(&self) -> Option<crate::class::ThresholdStructure> {
        Some(crate::class::ThresholdStructure::Plain(self.size))
    }

    /// `1 on x ≤ 17`.
    fn describe(&self, id: u64) -> String {
        format!("1 on x ≤ {id}")
    }

    fn name(&self) -> String {
        format!("thresholds:{}", self.size)
    }

    /// Threshold `c` labels point p by `p ≤ c`, so the labeling of `points` changes exactly
    /// at the ids `c = p`: the ranges between consecutive distinct points, the one after
    /// the j-th labeling the j smallest 1. O(t log t).
    fn labeling_ranges(&self, points: &[Point]) -> Result<Option<Vec<IdRange>>> {
        self.domain.check_all(points)?;
        let cuts = sorted_distinct(points);
        Ok(Some(ranges_between_cuts(&cuts, self.len(), |j| {
            PointInterval::plain(0, j)
        })))
    }

    /// Prefix counts, O(n + |X|): `errors(t) = #{positives with x > t} + #{negatives with
    /// x ≤ t}`, computed from per-point tallies in one sweep over `t`.
    fn error_counts(&self, sample: &LabeledSample) -> Result<Vec<u64>> {
        check_sample(&self.domain, sample)?;
        let len = dense_len(self)?;
        let mut positives_at = vec![0u64; len];
        let mut negatives_at = vec![0u64; len];
        let mut positives_total = 0;
        for (x, y) in sample.iter() {
            if y {
                positives_at[x as usize] += 1;
                positives_total += 1;
            } else {
                negatives_at[x as usize] += 1;
            }
        }
        let mut counts = Vec::with_capacity(len);
        let (mut positives_at_or_below, mut negatives_at_or_below) = (0, 0);
        for t in 0..len {
            positives_at_or_below += positives_at[t];
            negatives_at_or_below += negatives_at[t];
            counts.push(positives_total - positives_at_or_below + negatives_at_or_below);
        }
        Ok(counts)
    }

    /// O(n log n) without materializing |X|: sort the sample, sweep its distinct points;
    /// between consecutive sample points the count is constant.
    ///
    /// On domains of at most 2^63 points each example is packed into one `u64` key
    /// `2x + y`, whose order is the order of the pairs `(x, y)`, and the keys are sorted
    /// (half the bytes of the pairs, and one integer comparison instead of two); the domain
    /// check then needs only the largest point. Both give the same runs. Larger domains sort the pairs themselves.
    fn error_runs(&self, sample: &LabeledSample) -> Result<Vec<ErrorRun>> {
        let positives_total = sample.labels().count_ones() as u64;
        if self.size <= 1 << 63 {
            let mut keys = Vec::with_capacity(sample.len());
            let mut largest = 0;
            for (x, y) in sample.iter() {
                largest = largest.max(x);
                keys.push((x << 1) | u64::from(y));
            }
            // Every point is in the domain iff the largest is (and then below 2^63, so the
            // keys are exact); otherwise the full check names the first offending point in
            // sample order, as elsewhere.
            if largest >= self.size {
                check_sample(&self.domain, sample)?;
            }
            keys.sort_unstable();
            return Ok(self.sweep(
                keys.iter().map(|&key| (key >> 1, key & 1 == 1)),
                positives_total,
            ));
        }
        check_sample(&self.domain, sample)?;
        let mut examples: Vec<(u64, bool)> = sample.iter().collect();
        examples.sort_unstable();
        Ok(self.sweep(examples.into_iter(), positives_total))
    }
}

impl Thresholds {
    /// The error runs from the examples sorted by point (ties in any order): below the
    /// smallest point every positive is missed; each distinct point `x` moves the count by
    /// its negatives minus its positives for `t ≥ x`.
    fn sweep(
        &self,
        sorted: impl Iterator<Item = (Point, bool)>,
        positives_total: u64,
    ) -> Vec<ErrorRun> {
        let mut runs = Vec::new();
        let mut errors = positives_total;
        // The first threshold not yet covered by a run, and the point being swept.
        let mut next_t: u64 = 0;
        let mut current: Option<u64> = None;
        for (x, y) in sorted {
            if current != Some(x) {
                if let Some(previous) = current {
                    push_run(&mut runs, previous, 1, errors);
                    next_t = previous + 1;
                }
                if x > next_t {
                    push_run(&mut runs, next_t, u128::from(x - next_t), errors);
                }
                current = Some(x);
            }
            if y {
                errors -= 1; // a positive at x is now covered by t ≥ x
            } else {
                errors += 1; // a negative at x is now wrongly covered
            }
        }
        if let Some(last) = current {
            push_run(&mut runs, last, 1, errors);
            next_t = last + 1;
        }
        if u128::from(next_t) < self.len() {
            push_run(&mut runs, next_t, self.len() - u128::from(next_t), errors);
        }
        runs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_and_pair_sorts_give_the_same_runs() {
        // 2^63 points packs the keys; one more point sorts the pairs.
        let packed = Thresholds::new(1 << 63).unwrap();
        let pairs = Thresholds::new((1 << 63) + 1).unwrap();
        let top = (1u64 << 63) - 1;
        let points = vec![top, 5, 5, 0, top - 7, 5, 1 << 40, 0];
        let labels = vec![false, true, false, true, false, true, false, true];
        let sample = LabeledSample::new(pairs.domain(), points, labels).unwrap();
        let mut expected = pairs.error_runs(&sample).unwrap();
        // The larger class has one more threshold, in the last run.
        expected.last_mut().unwrap().len -= 1;
        assert_eq!(packed.error_runs(&sample).unwrap(), expected);
    }

    #[test]
    fn out_of_domain_points_name_the_first_one_in_sample_order() {
        let small = Thresholds::new(100).unwrap();
        let large = Domain::ordered(u64::MAX).unwrap();
        let sample = LabeledSample::new(
            &large,
            vec![5, 1000, 1 << 63, 2000],
            vec![true, false, true, false],
        )
        .unwrap();
        assert!(matches!(
            small.error_runs(&sample),
            Err(Error::PointOutsideDomain { point: 1000, .. })
        ));
    }
}
