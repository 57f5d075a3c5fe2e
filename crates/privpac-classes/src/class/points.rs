//! `POINT_X`: the point functions `c_a(x) = 1 iff x = a`.

use crate::class::closed_form::{ClosedFormVc, Family};

use crate::class::{
    ConceptClass, ErrorRun, IdRange, PointInterval, check_sample, dense_len, sorted_distinct,
};
use crate::domain::{Domain, Point};
use crate::error::Result;
use crate::sample::LabeledSample;

/// The class of point functions over any domain: concept `i` is the indicator of the
/// domain's `i`-th point. VC dimension 1 and Littlestone dimension 1 for |X| ≥ 2.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Points {
    domain: Domain,
}

impl Points {
    /// Point functions over `domain`.
    pub fn new(domain: Domain) -> Self {
        Points { domain }
    }

    /// Per distinct point index of the sample, in increasing index order: `(index,
    /// (positive labels, negative labels))`, and the total number of positive labels.
    ///
    /// When the domain is at most [`DENSE_FACTOR`]·n + [`DENSE_MIN`] points, the tallies are
    /// counted in a dense table (no hashing: the hot path of multi-column learners, which
    /// tally one column after another over a small domain); otherwise the examples' indices
    /// are sorted and counted run by run (one sort of n pairs, no hashing). Both give the
    /// same list.
    fn tallies(&self, sample: &LabeledSample) -> Tallies {
        let dense_limit = (sample.len() as u128)
            .saturating_mul(DENSE_FACTOR)
            .saturating_add(DENSE_MIN);
        if self.domain.size() <= dense_limit
            && let Some(tallies) = self.dense_tallies(sample)
        {
            return tallies;
        }
        let mut labeled: Vec<(u64, bool)> = sample
            .iter()
            .map(|(x, y)| (self.domain.index_of(x).unwrap_or(x), y))
            .collect();
        labeled.sort_unstable();
        let mut present: Vec<(u64, (u64, u64))> = Vec::new();
        let mut positives = 0;
        for (index, y) in labeled {
            let one = if y { (1, 0) } else { (0, 1) };
            positives += one.0;
            match present.last_mut() {
                Some((last, counts)) if *last == index => {
                    counts.0 += one.0;
                    counts.1 += one.1;
                }
                _ => present.push((index, one)),
            }
        }
        (present, positives)
    }

    /// The dense-table form of [`Self::tallies`]; `None` if a point's index falls outside
    /// the table (never after `check_sample`; the hash-map path then handles it).
    fn dense_tallies(&self, sample: &LabeledSample) -> Option<Tallies> {
        let size = usize::try_from(self.domain.size()).ok()?;
        let mut table = vec![(0u64, 0u64); size];
        let mut positives = 0;
        for (x, y) in sample.iter() {
            let index = self.domain.index_of(x).unwrap_or(x);
            let entry = table.get_mut(usize::try_from(index).ok()?)?;
            if y {
                entry.0 += 1;
                positives += 1;
            } else {
                entry.1 += 1;
            }
        }
        let present = table
            .into_iter()
            .zip(0u64..)
            .filter(|((pos, neg), _)| pos + neg > 0)
            .map(|(counts, index)| (index, counts))
            .collect();
        Some((present, positives))
    }
}

/// Per distinct point index, in increasing order, `(index, (positives, negatives))`; and
/// the sample's total number of positive labels.
type Tallies = (Vec<(u64, (u64, u64))>, u64);

/// [`Points::tallies`] counts in a dense table when |X| ≤ `DENSE_FACTOR`·n + `DENSE_MIN`:
/// the table then costs O(n) memory and time beyond the O(n) pass.
const DENSE_FACTOR: u128 = 4;
/// See [`DENSE_FACTOR`].
const DENSE_MIN: u128 = 4096;

impl ConceptClass for Points {
    /// 1 for |X| ≥ 2 (0 for one point), exactly.
    fn vc_dimension_closed_form(&self) -> Option<ClosedFormVc> {
        let d = u64::from(self.domain.size() >= 2);
        Some(ClosedFormVc::exact(d, "points", Some(Family::Points)))
    }
    fn domain(&self) -> &Domain {
        &self.domain
    }

    /// `Some(N)` over the ordered domain `[N]` (where concept `a` is the point `a`).
    fn point_structure(&self) -> Option<u64> {
        match self.domain {
            Domain::Ordered { size } => Some(size),
            _ => None,
        }
    }

    fn len(&self) -> u128 {
        self.domain.size()
    }

    fn eval(&self, id: u64, x: Point) -> bool {
        self.domain.point_at(id) == Some(x)
    }

    /// `1 only at x = 42` (x written as the data writes it).
    fn describe(&self, id: u64) -> String {
        match self.domain.point_at(id) {
            Some(x) => format!("1 only at x = {}", self.domain.format_point(x)),
            None => format!("concept {id}"),
        }
    }

    fn name(&self) -> String {
        match &self.domain {
            Domain::Ordered { size } => format!("points:{size}"),
            other => format!("points over {other}"),
        }
    }

    /// Counting: concept `a` errs on every positive example not at `a` and every negative
    /// example at `a`, so `errors(a) = P − pos(a) + neg(a)`. O(n + |X|).
    fn error_counts(&self, sample: &LabeledSample) -> Result<Vec<u64>> {
        check_sample(&self.domain, sample)?;
        let len = dense_len(self)?;
        let (per_point, positives) = self.tallies(sample);
        let mut counts = vec![positives; len];
        for (index, (pos, neg)) in per_point {
            counts[index as usize] = positives - pos + neg;
        }
        Ok(counts)
    }

    /// O(n log n) runs: every concept whose point is absent from the sample errs exactly
    /// `P` times; only the sample's distinct points break the runs. Works for any |X|.
    /// Point function `i` labels only the domain's `i`-th point 1, so the labeling of
    /// `points` changes at each of their indices `q` and again at `q + 1`: every point's
    /// own concept is a range, and the gaps between them label everything 0. O(t log t).
    fn labeling_ranges(&self, points: &[Point]) -> Result<Option<Vec<IdRange>>> {
        self.domain.check_all(points)?;
        // Ranks are of the sorted distinct points; the ids are their domain indices, which
        // need not be in the same order on an explicit domain, so sort by index and keep
        // each index's rank.
        let sorted = sorted_distinct(points);
        let mut indices: Vec<(u64, usize)> = sorted
            .iter()
            .enumerate()
            .map(|(rank, &x)| (self.domain.index_of(x).unwrap_or(x), rank))
            .collect();
        indices.sort_unstable();
        let len = self.len();
        let mut ranges = Vec::with_capacity(2 * indices.len() + 1);
        let mut start: u128 = 0;
        for &(q, rank) in &indices {
            if u128::from(q) > start {
                ranges.push(IdRange {
                    first: start as u64,
                    last: q - 1,
                    positives: PointInterval::plain(0, 0),
                });
            }
            ranges.push(IdRange {
                first: q,
                last: q,
                positives: PointInterval::plain(rank, rank + 1),
            });
            start = u128::from(q) + 1;
        }
        if start < len {
            ranges.push(IdRange {
                first: start as u64,
                last: (len - 1) as u64,
                positives: PointInterval::plain(0, 0),
            });
        }
        Ok(Some(ranges))
    }

    fn error_runs(&self, sample: &LabeledSample) -> Result<Vec<ErrorRun>> {
        check_sample(&self.domain, sample)?;
        let (per_point, positives) = self.tallies(sample);
        let present = per_point
            .into_iter()
            .map(|(index, (pos, neg))| (index, positives - pos + neg));
        let total = self.len();
        let mut runs = Vec::with_capacity(2 * present.len() + 1);
        let mut next: u128 = 0;
        for (index, errors) in present {
            if u128::from(index) > next {
                push_run(&mut runs, next as u64, u128::from(index) - next, positives);
            }
            push_run(&mut runs, index, 1, errors);
            next = u128::from(index) + 1;
        }
        if total > next {
            push_run(&mut runs, next as u64, total - next, positives);
        }
        Ok(runs)
    }
}

/// Appends a run, merging with the previous one when the error counts agree. Lengths up to
/// 2^64 are split so each fits a `u64`.
pub(crate) fn push_run(runs: &mut Vec<ErrorRun>, first: u64, len: u128, errors: u64) {
    let mut first = u128::from(first);
    let mut remaining = len;
    while remaining > 0 {
        let chunk = remaining.min(u128::from(u64::MAX));
        match runs.last_mut() {
            Some(run)
                if run.errors == errors
                    && u128::from(run.first) + u128::from(run.len) == first
                    && u128::from(run.len) + chunk <= u128::from(u64::MAX) =>
            {
                run.len += chunk as u64;
            }
            _ => runs.push(ErrorRun {
                first: first as u64,
                len: chunk as u64,
                errors,
            }),
        }
        first += chunk;
        remaining -= chunk;
    }
}
