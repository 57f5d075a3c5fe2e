//! The labelings of a few points by intervals, two-dimensionally: the cells of
//! [`crate::ConceptClass::labeling_cells`] for [`crate::Intervals`] at every size up to
//! 2^64 − 1 points.
//!
//! Intervals are indexed a-major (`(a, b)` with `a` increasing, then `b`), so the concepts
//! that label the points alike are not runs of consecutive ids (the job of
//! [`crate::ConceptClass::labeling_ranges`]) but rectangles of ends: with the distinct points
//! `q_0 < … < q_{m−1}`, the intervals `[a, b]` that contain exactly `q_i … q_j` are
//! `a ∈ (q_{i−1}, q_i]`, `b ∈ [q_j, q_{j+1})`, and the rest (the empty interval and the
//! intervals inside the gaps between the points) label every point 0. On a sample with
//! `P` positives and `D(x) = Σ_{examples at points ≤ x} (negative − positive)`, the
//! interval `[a, b]` makes `P + D(b) − D(a − 1)` mistakes, and `a` and `b` range
//! independently over a rectangle, so the fewest mistakes of a cell is
//! `P + min_b D(b) − max_a D(a − 1)`, and of the all-zero cell `P` plus the smallest
//! (non-positive) sum of `negative − positive` over a run of sample points inside one gap.

use crate::class::{ConceptParts, LabelingCell, PointInterval, check_sample, sorted_distinct};
use crate::domain::{Domain, Point};
use crate::error::{Error, Result};
use crate::sample::LabeledSample;

/// The most cells [`crate::ConceptClass::labeling_cells`] lists for intervals: `m(m + 1)/2 + 1`
/// cells for m distinct points, so about 2900 distinct points (a few hundred megabytes in
/// a learner's cover). Larger subsets are a typed error.
pub const MAX_INTERVAL_CELLS: u128 = 1 << 22;

/// The cells of the intervals over `domain` on `points`, scored on `sample` (see the
/// module docs), with `id_of(a, b)` the id of `[a, b]` when it fits 64 bits: the
/// all-zero cell first (its first concept is id 0, the empty interval), then the cells of
/// `q_i … q_j` with `i` increasing, then `j`, which is the order of their smallest ids.
/// O(n log n + m log n + m²).
pub(crate) fn cells(
    domain: &Domain,
    id_of: impl Fn(Point, Point) -> Option<u64>,
    points: &[Point],
    sample: &LabeledSample,
) -> Result<Vec<LabelingCell>> {
    domain.check_all(points)?;
    check_sample(domain, sample)?;
    let q = sorted_distinct(points);
    let m = q.len();
    let count = m as u128 * (m as u128 + 1) / 2 + 1;
    if count > MAX_INTERVAL_CELLS {
        return Err(Error::TooLarge {
            what: "labelings of the points by intervals",
            needed: count,
            unit: "cells",
            limit: MAX_INTERVAL_CELLS,
        });
    }
    let walk = Walk::new(sample);
    let at_q: Vec<i64> = q.iter().map(|&x| walk.prefix(x)).collect();
    let max_left: Vec<i64> = (0..m).map(|i| walk.max_left(&q, &at_q, i)).collect();
    let min_right: Vec<i64> = (0..m).map(|j| walk.min_right(&q, &at_q, j)).collect();
    let best_inside = walk.best_inside(&q);
    let positives = walk.positives;
    let mistakes = |value: i64| (positives + value) as u64;
    let mut cells = Vec::with_capacity(count as usize);
    cells.push(LabelingCell {
        first: Some(0),
        parts: Some(ConceptParts::Empty),
        positives: PointInterval::plain(0, 0),
        first_errors: mistakes(0),
        fewest_errors: mistakes(best_inside),
    });
    for i in 0..m {
        let low = if i == 0 { 0 } else { q[i - 1] + 1 };
        let before = if i == 0 { 0 } else { at_q[i - 1] };
        for j in i..m {
            cells.push(LabelingCell {
                first: id_of(low, q[j]),
                parts: Some(ConceptParts::Interval { low, high: q[j] }),
                positives: PointInterval::plain(i, j + 1),
                first_errors: mistakes(at_q[j] - before),
                fewest_errors: mistakes(min_right[j] - max_left[i]),
            });
        }
    }
    Ok(cells)
}

/// The sample seen from the sorted points: its distinct points `s_k`, their weights
/// `w_k = negatives − positives`, the prefix sums `d_k = D(s_k)` and the number of
/// positives P (module docs). O(n log n) to build.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Walk {
    s: Vec<Point>,
    w: Vec<i64>,
    d: Vec<i64>,
    pub(crate) positives: i64,
}

impl Walk {
    pub(crate) fn new(sample: &LabeledSample) -> Self {
        let mut examples: Vec<(Point, bool)> = sample.iter().collect();
        examples.sort_unstable();
        let mut s: Vec<Point> = Vec::new();
        let mut w: Vec<i64> = Vec::new();
        let mut positives: i64 = 0;
        for (x, y) in examples {
            if s.last() != Some(&x) {
                s.push(x);
                w.push(0);
            }
            let last = w.len() - 1;
            if y {
                positives += 1;
                w[last] -= 1;
            } else {
                w[last] += 1;
            }
        }
        let mut d = Vec::with_capacity(w.len());
        let mut running = 0i64;
        for &weight in &w {
            running += weight;
            d.push(running);
        }
        Walk { s, w, d, positives }
    }

    /// #{k : s_k ≤ x}.
    fn at_most(&self, x: Point) -> usize {
        self.s.partition_point(|&p| p <= x)
    }

    /// #{k : s_k < x}.
    fn below(&self, x: Point) -> usize {
        self.s.partition_point(|&p| p < x)
    }

    /// `D(x)`: the sum of `negative − positive` over the examples at points ≤ x.
    pub(crate) fn prefix(&self, x: Point) -> i64 {
        match self.at_most(x) {
            0 => 0,
            k => self.d[k - 1],
        }
    }

    /// `max_a D(a − 1)` over `a ∈ (q_{i−1}, q_i]`: D at `q_{i−1}` (or `D(−1) = 0`) and at
    /// the sample points strictly between; `at_q[k] = D(q_k)`.
    pub(crate) fn max_left(&self, q: &[Point], at_q: &[i64], i: usize) -> i64 {
        let (start, value) = if i == 0 {
            (0, 0)
        } else {
            (self.at_most(q[i - 1]), at_q[i - 1])
        };
        self.d[start..self.below(q[i])]
            .iter()
            .fold(value, |acc, &v| acc.max(v))
    }

    /// `min_b D(b)` over `b ∈ [q_j, q_{j+1})` (or to the last point of the domain).
    pub(crate) fn min_right(&self, q: &[Point], at_q: &[i64], j: usize) -> i64 {
        let end = if j + 1 < q.len() {
            self.below(q[j + 1])
        } else {
            self.s.len()
        };
        self.d[self.at_most(q[j])..end]
            .iter()
            .fold(at_q[j], |acc, &v| acc.min(v))
    }

    /// The all-zero cell's smallest sum over a run of sample points inside one gap of `q`
    /// (Kadane's scan, restarted at every point of `q`), or 0 (the empty interval).
    pub(crate) fn best_inside(&self, q: &[Point]) -> i64 {
        let mut best_inside = 0i64;
        let mut current = 0i64;
        let mut gap = usize::MAX;
        for (k, &x) in self.s.iter().enumerate() {
            let rank = q.partition_point(|&p| p < x);
            if q.get(rank) == Some(&x) {
                gap = usize::MAX;
                current = 0;
                continue;
            }
            if rank != gap {
                gap = rank;
                current = 0;
            }
            current = current.min(0) + self.w[k];
            best_inside = best_inside.min(current);
        }
        best_inside
    }
}

/// The id of `[a, b]` (`a ≤ b < N`) among the intervals over N points, a-major after the
/// empty interval (id 0), as a `u128` (below 2^127 for every N).
pub(crate) fn wide_interval_id(size: u64, a: u64, b: u64) -> u128 {
    let (a, b, n) = (u128::from(a), u128::from(b), u128::from(size));
    1 + a * n - a * a.saturating_sub(1) / 2 + (b - a)
}
