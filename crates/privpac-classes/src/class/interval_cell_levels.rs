//! The labeling cells of intervals on a few points grouped by score, without listing them:
//! [`CellLevels`], what [`crate::ConceptClass::labeling_cell_levels`] gives for
//! [`crate::Intervals`] at every number of points.
//!
//! With the distinct points `q_0 < … < q_{m−1}` and the sample's walk
//! `D(x) = Σ_{examples at points ≤ x} (negative − positive)` (see `interval_cells`), the
//! cell of `q_i … q_j` (`0 ≤ i ≤ j < m`) has first concept `[q_{i−1} + 1, q_j]` (`[0, q_j]`
//! for `i = 0`), which makes `P + a_{j+1} − a_i` mistakes, where `a_0 = 0`,
//! `a_{k+1} = D(q_k)` and P is the number of positives; the all-zero cell's first concept
//! (the empty interval) makes P. So the cells are the pairs `k < l` of indices into
//! `a_0 … a_m` plus one, and a cell's score is a difference `a_l − a_k` shifted by P: the
//! number of cells with each number of mistakes e is the number of pairs `k < l` with
//! `a_l − a_k = e − P`, counted in one pass over `l` with a table of the values `a_k`,
//! `k < l`, seen so far, in O(m·W + n log n) time and O(n + m + W) memory for the W
//! levels asked for (the cells themselves, `m(m + 1)/2 + 1` of them, are never listed).
//!
//! Levels above a window (`errors ≥ fewest + W`) are counted together, as the total minus
//! the window: the exponential mechanism gives all of them the same weight once its
//! log-weight gap is clamped (`privpac_mechanisms`' mechanism clamps at 700), so a learner
//! loses nothing by asking only for the levels below its clamp.
//!
//! [`CellLevels::cell`] names the `offset`-th cell of a level in the order of
//! [`crate::ConceptClass::labeling_cells`] (the all-zero cell, then `i` increasing, then
//! `j`), in O(m log n): with a Fenwick tree over the values `a_l`, `l > k`, for `k`
//! decreasing, it counts each row's members, finds the row and scans it. So a uniform
//! offset of a level chosen with probability ∝ count·weight is a cell chosen with
//! probability ∝ its own weight: the exponential mechanism over the dense list of cells,
//! exactly (checked against the dense cells in `cells_tests.rs` and in the learners).

use crate::class::interval_cells::{Walk, wide_interval_id};
use crate::class::{ConceptParts, LabelingCell, PointInterval, sorted_distinct};
use crate::domain::Point;
use crate::sample::LabeledSample;

/// One group of cells of [`CellLevels::levels`]: the cells whose first concepts make
/// `errors` mistakes on the sample, or, when `at_least`, every cell whose first concept
/// makes at least `errors`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CellLevel {
    /// The mistakes of the cells' first concepts (the smallest, when `at_least`).
    pub errors: u64,
    /// How many cells the level holds (at least 1).
    pub count: u128,
    /// Whether the level is the tail beyond the window: every cell with at least `errors`.
    pub at_least: bool,
}

/// The labeling cells of intervals on a list of points, scored on a sample, kept as the
/// walk they come from (O(n + m) memory for n examples and m distinct points) instead of
/// the `m(m + 1)/2 + 1` cells: their numbers per score ([`Self::levels`]) and any one of
/// them by its level and offset ([`Self::cell`]). See the module documentation.
#[derive(Debug, Clone)]
pub struct CellLevels {
    /// The number of points N of the domain (for the ids of the intervals).
    size: u64,
    /// The sorted distinct points.
    q: Vec<Point>,
    /// `a_0 = 0`, `a_{k+1} = D(q_k)`.
    a: Vec<i64>,
    walk: Walk,
    /// The fewest mistakes of any cell's first concept.
    fewest: u64,
}

impl CellLevels {
    /// The cells of the intervals over `size` points on `points`, scored on `sample`.
    /// Points and examples are checked against the domain by the caller
    /// ([`crate::ConceptClass::labeling_cell_levels`]).
    pub(crate) fn new(size: u64, points: &[Point], sample: &LabeledSample) -> Self {
        let q = sorted_distinct(points);
        let walk = Walk::new(sample);
        let mut a = Vec::with_capacity(q.len() + 1);
        a.push(0);
        a.extend(q.iter().map(|&x| walk.prefix(x)));
        // The fewest mistakes: the empty interval's P, or P + min over k < l of a_l − a_k
        // (a running maximum of the prefix).
        let mut top = a[0];
        let mut smallest_difference = i64::MAX;
        for &value in &a[1..] {
            smallest_difference = smallest_difference.min(value - top);
            top = top.max(value);
        }
        let fewest = walk.positives + smallest_difference.min(0);
        CellLevels {
            size,
            q,
            a,
            fewest: fewest as u64,
            walk,
        }
    }

    /// The number of cells, `m(m + 1)/2 + 1` for m distinct points.
    pub fn cell_count(&self) -> u128 {
        let m = self.q.len() as u128;
        m * (m + 1) / 2 + 1
    }

    /// The fewest mistakes of any cell's first concept (the best score).
    pub fn fewest_errors(&self) -> u64 {
        self.fewest
    }

    /// The cells grouped by their first concepts' mistakes: one [`CellLevel`] per number
    /// of mistakes `e` in `fewest … fewest + window − 1` that some cell makes, in
    /// increasing order, then (if any cell is left) one `at_least` level with every cell
    /// that makes `fewest + window` or more. The counts add up to [`Self::cell_count`].
    /// O(m·min(window, span)) for m distinct points and a span of the walk of `span`
    /// (at most n, the sample size).
    pub fn levels(&self, window: u64) -> Vec<CellLevel> {
        let positives = self.walk.positives;
        let shift = positives - self.fewest as i64; // ≥ 0: the empty interval makes P
        let low = *self.a.iter().min().unwrap_or(&0);
        let high = *self.a.iter().max().unwrap_or(&0);
        let span = (high - low) as usize;
        // No cell has a gap above shift + span.
        let width = window.min(shift as u64 + span as u64 + 1) as usize;
        let mut counts = vec![0u64; width];
        // reversed[high − a_k] = #{k < l : a_k}: the gap of (k, l) is shift + a_l − a_k,
        // so gap g reads reversed[base + g] with base = high − a_l − shift.
        let mut reversed = vec![0u32; span + 1];
        for l in 1..self.a.len() {
            reversed[(high - self.a[l - 1]) as usize] += 1;
            let base = high - self.a[l] - shift;
            let from = (-base).max(0) as usize;
            let to = (span as i64 - base + 1).clamp(0, width as i64) as usize;
            if from >= to {
                continue;
            }
            let start = (base + from as i64) as usize;
            for (count, &seen) in counts[from..to]
                .iter_mut()
                .zip(&reversed[start..start + (to - from)])
            {
                *count += u64::from(seen);
            }
        }
        let mut total_in_window: u128 = 0;
        if (shift as usize) < width {
            counts[shift as usize] += 1; // the all-zero cell
        }
        let mut levels = Vec::new();
        for (gap, &count) in counts.iter().enumerate() {
            if count > 0 {
                total_in_window += u128::from(count);
                levels.push(CellLevel {
                    errors: self.fewest + gap as u64,
                    count: u128::from(count),
                    at_least: false,
                });
            }
        }
        let rest = self.cell_count() - total_in_window;
        if rest > 0 {
            levels.push(CellLevel {
                errors: self.fewest + width as u64,
                count: rest,
                at_least: true,
            });
        }
        levels
    }

    /// The `offset`-th cell (from 0) of `level` in the order of
    /// [`crate::ConceptClass::labeling_cells`], with the same fields as there, or `None`
    /// when the level has no such cell. O(m log n).
    pub fn cell(&self, level: CellLevel, offset: u128) -> Option<LabelingCell> {
        let positives = self.walk.positives;
        let matches = |errors: i64| {
            if level.at_least {
                errors >= level.errors as i64
            } else {
                errors == level.errors as i64
            }
        };
        let mut offset = offset;
        if matches(positives) {
            if offset == 0 {
                return Some(self.zero_cell());
            }
            offset -= 1;
        }
        // Row k (cell start i = k) holds the l > k with a_l ≥ a_k + d (at_least) or
        // a_l = a_k + d, d = errors − P. Count every row from a Fenwick tree over the values
        // a_l, l > k, filled for k decreasing.
        let d = level.errors as i64 - positives;
        let low = *self.a.iter().min().unwrap_or(&0);
        let span = (*self.a.iter().max().unwrap_or(&0) - low) as usize;
        let mut tree = Fenwick::new(span + 1);
        let m = self.q.len();
        let mut rows = vec![0u64; m];
        for k in (0..m).rev() {
            tree.add((self.a[k + 1] - low) as usize);
            let at_least = |value: i64| -> u64 {
                let index = value - low;
                if index <= 0 {
                    tree.total()
                } else if index as usize > span {
                    0
                } else {
                    tree.total() - tree.prefix(index as usize)
                }
            };
            let wanted = self.a[k] + d;
            rows[k] = if level.at_least {
                at_least(wanted)
            } else {
                at_least(wanted) - at_least(wanted + 1)
            };
        }
        for (k, &row) in rows.iter().enumerate() {
            if offset >= u128::from(row) {
                offset -= u128::from(row);
                continue;
            }
            for l in k + 1..=m {
                if matches(positives + self.a[l] - self.a[k]) {
                    if offset == 0 {
                        return Some(self.pair_cell(k, l - 1));
                    }
                    offset -= 1;
                }
            }
            return None; // unreachable: the row's count said so
        }
        None
    }

    /// The all-zero cell (first concept: the empty interval).
    fn zero_cell(&self) -> LabelingCell {
        let mistakes = |value: i64| (self.walk.positives + value) as u64;
        LabelingCell {
            first: Some(0),
            parts: Some(ConceptParts::Empty),
            positives: PointInterval::plain(0, 0),
            first_errors: mistakes(0),
            fewest_errors: mistakes(self.walk.best_inside(&self.q)),
        }
    }

    /// The cell of `q_i … q_j`, as `interval_cells::cells` lists it.
    fn pair_cell(&self, i: usize, j: usize) -> LabelingCell {
        let q = &self.q;
        let at_q = &self.a[1..];
        let mistakes = |value: i64| (self.walk.positives + value) as u64;
        let low = if i == 0 { 0 } else { q[i - 1] + 1 };
        LabelingCell {
            first: u64::try_from(wide_interval_id(self.size, low, q[j])).ok(),
            parts: Some(ConceptParts::Interval { low, high: q[j] }),
            positives: PointInterval::plain(i, j + 1),
            first_errors: mistakes(self.a[j + 1] - self.a[i]),
            fewest_errors: mistakes(
                self.walk.min_right(q, at_q, j) - self.walk.max_left(q, at_q, i),
            ),
        }
    }
}

/// Counts of values `0..len` with prefix sums (a Fenwick tree).
struct Fenwick {
    tree: Vec<u64>,
    total: u64,
}

impl Fenwick {
    fn new(len: usize) -> Self {
        Fenwick {
            tree: vec![0; len + 1],
            total: 0,
        }
    }

    /// One more of `value`.
    fn add(&mut self, value: usize) {
        self.total += 1;
        let mut i = value + 1;
        while i < self.tree.len() {
            self.tree[i] += 1;
            i += i & i.wrapping_neg();
        }
    }

    /// How many values are below `end`.
    fn prefix(&self, end: usize) -> u64 {
        let mut sum = 0;
        let mut i = end.min(self.tree.len() - 1);
        while i > 0 {
            sum += self.tree[i];
            i -= i & i.wrapping_neg();
        }
        sum
    }

    fn total(&self) -> u64 {
        self.total
    }
}

#[cfg(test)]
mod tests {
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::class::{ConceptClass, Intervals};

    /// On intervals over 1 to 40 points, random samples (repeats and points outside the
    /// subset included) and random point lists of up to 30 points, for windows from 1 (every
    /// cell in the tail but the best) to beyond the largest gap: the levels are exactly the
    /// histogram of the listed cells' first mistakes (the tail holding the rest), and
    /// reading a level by offsets gives exactly its listed cells, in the listed order, then
    /// `None`.
    #[test]
    fn levels_and_offsets_are_the_listed_cells() {
        let mut rng = ChaCha8Rng::seed_from_u64(3838);
        for round in 0..300 {
            let size = rng.random_range(1u64..41);
            let n = rng.random_range(0usize..60);
            let bias = rng.random_range(0.0..1.0);
            let pairs: Vec<(u64, bool)> = (0..n)
                .map(|_| (rng.random_range(0..size), rng.random_bool(bias)))
                .collect();
            let t = rng.random_range(0usize..31);
            let points: Vec<Point> = (0..t).map(|_| rng.random_range(0..size)).collect();
            let class = Intervals::new(size).unwrap();
            let sample = LabeledSample::from_pairs(class.domain(), &pairs).unwrap();
            let listed = class.labeling_cells(&points, &sample).unwrap().unwrap();
            let structured = class
                .labeling_cell_levels(&points, &sample)
                .unwrap()
                .unwrap();
            assert_eq!(structured.cell_count(), listed.len() as u128);
            let fewest = listed.iter().map(|c| c.first_errors).min().unwrap();
            assert_eq!(structured.fewest_errors(), fewest, "round {round}");
            for window in [1u64, 2, 3, 7, 1 << 40] {
                let levels = structured.levels(window);
                let total: u128 = levels.iter().map(|l| l.count).sum();
                assert_eq!(
                    total,
                    listed.len() as u128,
                    "round {round}, window {window}"
                );
                for (index, &level) in levels.iter().enumerate() {
                    assert!(level.count > 0);
                    assert_eq!(level.at_least, index + 1 == levels.len() && level.at_least);
                    let members: Vec<&LabelingCell> = listed
                        .iter()
                        .filter(|c| {
                            if level.at_least {
                                c.first_errors >= level.errors
                            } else {
                                c.first_errors == level.errors
                            }
                        })
                        .collect();
                    assert_eq!(members.len() as u128, level.count, "round {round}");
                    if level.at_least {
                        assert_eq!(level.errors, fewest + window);
                    } else {
                        assert!(level.errors < fewest + window);
                    }
                    for (offset, &member) in members.iter().enumerate() {
                        assert_eq!(
                            structured.cell(level, offset as u128).as_ref(),
                            Some(member),
                            "round {round}, level {level:?}, offset {offset}"
                        );
                    }
                    assert_eq!(structured.cell(level, level.count), None);
                }
                // Every listed score below the window has its level.
                for cell in &listed {
                    if cell.first_errors < fewest + window {
                        assert!(
                            levels
                                .iter()
                                .any(|l| !l.at_least && l.errors == cell.first_errors)
                        );
                    }
                }
            }
        }
    }

    /// Far beyond the listing limit (2^14 distinct points: 1.3·10^8 cells over 2^40 points)
    /// the levels are counted in memory proportional to the sample, and their counts add up.
    #[test]
    fn levels_count_cells_beyond_the_listing_limit() {
        let size = 1u64 << 40;
        let class = Intervals::new(size).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(38);
        let pairs: Vec<(u64, bool)> = (0..1usize << 15)
            .map(|_| {
                let x = rng.random_range(0..size);
                (x, (size / 4..size / 2).contains(&x))
            })
            .collect();
        let sample = LabeledSample::from_pairs(class.domain(), &pairs).unwrap();
        let points: Vec<Point> = pairs[..1 << 14].iter().map(|&(x, _)| x).collect();
        assert!(class.labeling_cells(&points, &sample).is_err());
        let structured = class
            .labeling_cell_levels(&points, &sample)
            .unwrap()
            .unwrap();
        assert!(structured.cell_count() > crate::MAX_INTERVAL_CELLS);
        let levels = structured.levels(7000);
        assert_eq!(
            levels.iter().map(|l| l.count).sum::<u128>(),
            structured.cell_count()
        );
        // The best level's first cell is a consistent interval (the target labels the
        // sample without noise, and its ends are among the subset's gaps).
        let best = structured.cell(levels[0], 0).unwrap();
        assert_eq!(best.first_errors, structured.fewest_errors());
        assert_eq!(best.first_errors, levels[0].errors);
    }
}
