//! The score levels of `INTERVAL ⊕ INTERVAL` over `[N]`, counted exactly by a dynamic
//! program over the runs of the score step function, and the pair of any rank in a level.
//!
//! # The score
//! Cut points are `g ∈ {0, …, N}`; the interval `[a, b]` has the cut points `(a, b + 1)`.
//! With `P(g)` the synthetic mass of `[0, g)` and `D(g)` the number of data points below g,
//! `G(g) = ⌊n·P(g)⌋ − D(g)` (`G(0) = 0`). A pair of intervals whose sorted ends are
//! `p₁ ≤ p₂ ≤ p₃ ≤ p₄` is the query `[p₁, p₂) ∪ [p₃, p₄)` (see the parent module), and its
//! score is `|G(p₂) − G(p₁) + G(p₄) − G(p₃)|`; with one empty interval (two ends) it is
//! `|G(p₂) − G(p₁)|`, with two it is 0. In every case it is `|Σ_r (−1)^(r+1)·G(p_r)|` over
//! the sorted ends `p_0 ≤ p_1 ≤ …` (ranks from 0): the alternating sum of G over the ends.
//!
//! # Counting the ordered pairs at every score
//! G is constant on maximal runs of cut points (O(n + #pieces) runs, [`score_runs`]). Walk
//! the runs in increasing order, keeping for each of the two intervals (the first and the
//! second of the ordered pair) a status: 0 (no end placed yet), 1 (its left end placed),
//! 2 (both placed, or the interval is empty). Across a run of L cut points an interval moves
//! from status 0 to 0, 1 or 2 in `1`, `L` or `L(L − 1)/2` ways (no end, the left end at one
//! of the L points, both ends at two distinct points, left one first), from 1 to 1 or 2 in
//! `1` or `L` ways (the right end lies after the left one because the run does), and
//! stays at 2. The two intervals move independently (their ends may coincide), so a joint
//! move has the product of the ways. This enumerates every ordered pair of intervals once:
//! a nonempty interval is exactly a choice of two cut points `u < v`, i.e. of the runs
//! holding them and of their places in those runs; the empty interval is the one start at
//! status 2 (so the walk starts with weight 1 at each of the four states
//! `{0, 2} × {0, 2}`: nonempty or empty, for each of the two, and ends at status (2, 2)).
//!
//! The alternating sum is accumulated along the walk: if e ends were placed before a run of
//! value h and the move places m more, they are the sorted ends of ranks `e, …, e + m − 1`
//! (all of value h, whatever their order inside the run), so they add
//! `h·Σ_{r=e}^{e+m−1} (−1)^(r+1)`, that is `0` for even m and `(−1)^(e+1)·h` for odd m. The
//! parity of e is the parity of the statuses' sum (an empty interval at status 2 has placed
//! no end, an even number like 2). So the state `(status₁, status₂, partial sum)` after
//! the last run, at `(2, 2, s)`, counts exactly the ordered pairs whose alternating sum is
//! s, and the pairs of score k are those at `s = ±k`. Counts are exact in `u128`: a partial
//! count never exceeds the ways of placing at most four cut points, `(N + 1)⁴ < 2^128` for
//! N up to [`INTERVAL_XOR_LIMIT`].
//!
//! # The pair of a given rank
//! The pairs of level k are ranked in a fixed order by the walk read backwards: first the
//! pairs with final sum `−k`, then `+k`; at each run (from the last), the moves into the
//! current state in a fixed order, a move with `c` prefixes (the forward count of its source
//! state and sum) and `w` ways holding the `c·w` ranks `prefix rank · w + way index`. This
//! is a mixed-radix bijection from `0..count` onto the level, so a uniform offset gives a
//! uniform pair of the level ([`IntervalPairLevels::pair_at`]; tested against brute force).
//! The forward counts before every run are kept at checkpoints every √R runs and recomputed
//! between them, so memory is O(√R) count vectors.

use std::collections::BTreeMap;

use privpac_classes::Point;

use crate::ordered::score_runs;
use crate::pieces::PiecewiseDistribution;

/// The largest N for which the pairs of `INTERVAL ⊕ INTERVAL` over `[N]` are counted:
/// `(N + 1)⁴ < 2^128`, so that every count of the dynamic program fits `u128` (the class
/// has `(1 + N(N+1)/2)² ≈ N⁴/4` pairs; 2^40 points have about 2^158).
pub const INTERVAL_XOR_LIMIT: u64 = (1 << 32) - 2;

/// One interval of a pair by its cut points `(u, v)`, `u < v` (the interval `[u, v − 1]`),
/// or `None` for the empty interval.
pub(crate) type Cut = Option<(u64, u64)>;

/// The joint states: `status₁·3 + status₂`.
const STATES: usize = 9;

/// The moves of one interval across a run from `status`: `(to, ends placed)` (the ways
/// are [`ways`] of the ends placed).
fn moves(status: usize) -> &'static [(usize, usize)] {
    match status {
        0 => &[(0, 0), (1, 1), (2, 2)],
        1 => &[(1, 0), (2, 1)],
        _ => &[(2, 0)],
    }
}

/// The ways of placing `ends` ends in a run of `len` points (`1`, `len`, `len(len−1)/2`).
fn ways(ends: usize, len: u128) -> u128 {
    match ends {
        0 => 1,
        1 => len,
        _ => len * (len - 1) / 2,
    }
}

/// Count vectors of the nine states, indexed by partial sum + offset; `None` when zero.
type Vectors = Vec<Option<Vec<u128>>>;

/// The score levels of all ordered pairs of `INTERVAL ⊕ INTERVAL` for one synthetic
/// distribution and data set, and the pair of any rank in a level (module documentation).
#[derive(Debug)]
pub(crate) struct IntervalPairLevels {
    /// The runs of G over the cut points `0..=N`: `(first, length, value)`.
    runs: Vec<(u64, u64, i64)>,
    /// Partial sums are stored at index `sum + offset`.
    offset: i64,
    /// The length of every count vector.
    width: usize,
    /// The forward vectors before runs `0, stride, 2·stride, …`.
    checkpoints: Vec<Vectors>,
    stride: usize,
    /// The forward vectors after the last run.
    last: Vectors,
    /// The number of pairs at every score.
    counts: BTreeMap<i64, u128>,
}

impl IntervalPairLevels {
    /// The levels on `dist` for the data `sorted` (increasing, inside `[N]`).
    pub(crate) fn new(dist: &PiecewiseDistribution, sorted: &[Point]) -> Self {
        let mut runs = score_runs(dist, sorted);
        // G(0) = ⌊n·0⌋ − 0 = 0: the cut point 0 joins the first run or starts its own.
        match runs.first_mut() {
            Some(first) if first.2 == 0 => {
                first.0 = 0;
                first.1 += 1;
            }
            _ => runs.insert(0, (0, 1, 0)),
        }
        Self::from_runs(runs)
    }

    /// The levels for the runs `(first, length, value)` of G, which cover `0..=N` in order.
    pub(crate) fn from_runs(runs: Vec<(u64, u64, i64)>) -> Self {
        let (lo, hi) = runs
            .iter()
            .fold((0i64, 0i64), |(lo, hi), r| (lo.min(r.2), hi.max(r.2)));
        // |partial sums| ≤ 2·(max − min) + max|G| (module documentation).
        let bound = 2 * (hi - lo) + lo.abs().max(hi.abs());
        let width = (2 * bound + 1) as usize;
        let stride = ((runs.len() as f64).sqrt().ceil() as usize).max(1);
        let mut levels = IntervalPairLevels {
            runs,
            offset: bound,
            width,
            checkpoints: Vec::new(),
            stride,
            last: Vec::new(),
            counts: BTreeMap::new(),
        };
        let mut current = levels.initial();
        for r in 0..levels.runs.len() {
            if r % stride == 0 {
                levels.checkpoints.push(current.clone());
            }
            current = levels.step(&current, r);
        }
        if let Some(done) = &current[STATES - 1] {
            for (i, &c) in done.iter().enumerate() {
                if c > 0 {
                    let sum = i as i64 - levels.offset;
                    *levels.counts.entry(sum.abs()).or_default() += c;
                }
            }
        }
        levels.last = current;
        levels
    }

    /// Weight 1 at sum 0 in the states `{0, 2} × {0, 2}`.
    fn initial(&self) -> Vectors {
        let mut v: Vectors = vec![None; STATES];
        for state in [0, 2, 6, 8] {
            let mut vector = vec![0u128; self.width];
            vector[self.offset as usize] = 1;
            v[state] = Some(vector);
        }
        v
    }

    /// The move of `from` (joint state) into `to` across run `r`, if there is one:
    /// `(ways, change of the partial sum)`.
    fn joint_move(&self, r: usize, from: usize, to: usize) -> Option<(u128, i64)> {
        let (_, len, h) = self.runs[r];
        let len = u128::from(len);
        let (a1, a2, b1, b2) = (from / 3, from % 3, to / 3, to % 3);
        let m1 = moves(a1).iter().find(|m| m.0 == b1)?.1;
        let m2 = moves(a2).iter().find(|m| m.0 == b2)?.1;
        let w = ways(m1, len) * ways(m2, len);
        if w == 0 {
            return None;
        }
        let parity = (a1 + a2) % 2;
        let delta = if (m1 + m2) % 2 == 0 {
            0
        } else if parity == 0 {
            -h
        } else {
            h
        };
        Some((w, delta))
    }

    /// The forward vectors after run r from those before it.
    fn step(&self, before: &Vectors, r: usize) -> Vectors {
        let mut after: Vectors = vec![None; STATES];
        for (from, source) in before.iter().enumerate() {
            let Some(source) = source else { continue };
            let (lo, hi) = match (
                source.iter().position(|&c| c > 0),
                source.iter().rposition(|&c| c > 0),
            ) {
                (Some(lo), Some(hi)) => (lo, hi),
                _ => continue,
            };
            for to in 0..STATES {
                let Some((w, delta)) = self.joint_move(r, from, to) else {
                    continue;
                };
                let target = after[to].get_or_insert_with(|| vec![0u128; self.width]);
                let shift = delta as isize;
                for i in lo..=hi {
                    let c = source[i];
                    if c > 0 {
                        target[(i as isize + shift) as usize] += c * w;
                    }
                }
            }
        }
        after
    }

    /// The number of ordered pairs at every score, increasing in the score.
    pub(crate) fn counts(&self) -> &BTreeMap<i64, u128> {
        &self.counts
    }

    /// The ordered pair of rank `rank` in the enumeration of score level `score`
    /// (`rank` below the level's count; module documentation).
    pub(crate) fn pair_at(&self, score: i64, rank: u128) -> (Cut, Cut) {
        let done = self.last[STATES - 1]
            .as_ref()
            .expect("every level ends in state (2, 2)");
        let mut rank = rank;
        let mut sum = -score;
        let below = done[(sum + self.offset) as usize];
        if rank >= below {
            rank -= below;
            sum = score;
        }
        let mut state = STATES - 1;
        // Ends found so far, per interval: (left, right).
        let mut ends: [(Option<u64>, Option<u64>); 2] = [(None, None); 2];
        let segments = self.runs.len().div_ceil(self.stride);
        for segment in (0..segments).rev() {
            let start = segment * self.stride;
            let end = (start + self.stride).min(self.runs.len());
            // The forward vectors before every run of the segment.
            let mut before = Vec::with_capacity(end - start);
            let mut current = self.checkpoints[segment].clone();
            for r in start..end {
                let next = self.step(&current, r);
                before.push(current);
                current = next;
            }
            for r in (start..end).rev() {
                let vectors = &before[r - start];
                let mut chosen = None;
                for from in 0..STATES {
                    let Some(source) = &vectors[from] else {
                        continue;
                    };
                    let Some((w, delta)) = self.joint_move(r, from, state) else {
                        continue;
                    };
                    let index = sum - delta + self.offset;
                    if index < 0 || index as usize >= self.width {
                        continue;
                    }
                    let options = source[index as usize] * w;
                    if rank < options {
                        chosen = Some((from, w, delta));
                        break;
                    }
                    rank -= options;
                }
                let (from, w, delta) = chosen.expect("the rank is below the level's count");
                let way = rank % w;
                rank /= w;
                self.place(r, from, state, way, &mut ends);
                state = from;
                sum -= delta;
            }
        }
        debug_assert!(rank == 0 && sum == 0);
        let cut = |(u, v): (Option<u64>, Option<u64>)| match (u, v) {
            (Some(u), Some(v)) => Some((u, v)),
            _ => None,
        };
        (cut(ends[0]), cut(ends[1]))
    }

    /// Records the ends placed in run r by the joint move `from → to` with way index `way`
    /// (the second interval's ways vary fastest).
    fn place(
        &self,
        r: usize,
        from: usize,
        to: usize,
        way: u128,
        ends: &mut [(Option<u64>, Option<u64>); 2],
    ) {
        let (first, len, _) = self.runs[r];
        let len128 = u128::from(len);
        let placed = [to / 3 - from / 3, to % 3 - from % 3];
        let second_ways = ways(placed[1], len128);
        let index = [way / second_ways, way % second_ways];
        for k in 0..2 {
            let i = index[k];
            match placed[k] {
                0 => {}
                1 if from_status(from, k) == 0 => ends[k].0 = Some(first + i as u64),
                1 => ends[k].1 = Some(first + i as u64),
                _ => {
                    let (a, b) = unrank_two(i);
                    ends[k] = (Some(first + a), Some(first + b));
                }
            }
        }
    }
}

/// The status of interval k (0 or 1) in a joint state.
fn from_status(state: usize, k: usize) -> usize {
    if k == 0 { state / 3 } else { state % 3 }
}

/// The 2-subset `a < b` of rank i in the order `(0, 1), (0, 2), (1, 2), (0, 3), …` (by b,
/// then a): b is the largest with `b(b − 1)/2 ≤ i`.
fn unrank_two(i: u128) -> (u64, u64) {
    let before = |b: u128| b * (b - 1) / 2;
    let mut b = ((1.0 + (1.0 + 8.0 * i as f64).sqrt()) / 2.0)
        .floor()
        .max(1.0) as u128;
    while b > 1 && before(b) > i {
        b -= 1;
    }
    while before(b + 1) <= i {
        b += 1;
    }
    ((i - before(b)) as u64, b as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_subsets_are_ranked_by_their_larger_element() {
        let mut rank = 0u128;
        for b in 1..60u64 {
            for a in 0..b {
                assert_eq!(unrank_two(rank), (a, b));
                rank += 1;
            }
        }
        let big = 1u128 << 70;
        let (a, b) = unrank_two(big);
        let b128 = u128::from(b);
        assert_eq!(b128 * (b128 - 1) / 2 + u128::from(a), big);
        assert!(a < b);
    }
}
