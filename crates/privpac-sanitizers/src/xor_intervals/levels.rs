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
//! s, and the pairs of score k are those at `s = ±k`. Counts are exact: a partial count
//! (and every product formed from one) never exceeds the ways of choosing the two
//! intervals' ends placed so far, below `(1 + (N + 1)²/2)² ≤ (N + 1)⁴`, which fits `u128`
//! for N up to [`INTERVAL_XOR_LIMIT`], the 192-bit count of the `count` module up to
//! [`INTERVAL_XOR_192_LIMIT`] and its 256-bit count up to 2^62.
//!
//! # The pair of a given rank
//! The pairs of level k are ranked in a fixed order by the walk read backwards: first the
//! pairs with final sum `−k`, then `+k`; at each run (from the last), the moves into the
//! current state in a fixed order, a move with `c` prefixes (the forward count of its source
//! state and sum) and `w` ways holding the `c·w` ranks `prefix rank · w + way index`. This
//! is a mixed-radix bijection from `0..count` onto the level, so a uniform offset gives a
//! uniform pair of the level ([`IntervalPairLevels::pair_at`]; tested against brute force).
//! The forward counts before every run are kept as snapshots of their nonzero spans when
//! they take at most [`SNAPSHOT_BUDGET`] bytes (at most R·6·W counts: six representative
//! states of W partial sums before each of the R runs), and otherwise at checkpoints every
//! √R runs and recomputed between them, so memory is O(√R) count vectors (the
//! recomputation repeats the whole forward walk once per rank walk).

use std::collections::BTreeMap;

use privpac_classes::Point;

use super::count::Count;
use crate::ordered::score_runs;
use crate::pieces::PiecewiseDistribution;

/// The largest N for which the pairs of `INTERVAL ⊕ INTERVAL` over `[N]` are counted in
/// `u128`: `(N + 1)⁴ < 2^128`, so that every count of the dynamic program fits (the class
/// has `(1 + N(N+1)/2)² ≈ N⁴/4` pairs). Above it, up to
/// [`ORDERED_XOR_LIMIT`](crate::ORDERED_XOR_LIMIT) = 2^62 points, the counts are 256-bit
/// (2^40 points have about 2^158 pairs; `(2^62 + 1)⁴ < 2^256`).
pub const INTERVAL_XOR_LIMIT: u64 = (1 << 32) - 2;

/// The largest N for which the counts fit 192 bits (`(N + 1)⁴ < 2^192`); above it they are
/// 256-bit. The width changes no value, only the cost of the program's additions.
pub(crate) const INTERVAL_XOR_192_LIMIT: u64 = (1 << 48) - 2;

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

/// The forward counts of the nine states at one point of the walk: `vectors[state][sum +
/// offset]`, with the range of indices that may be nonzero (`None`: all zero).
#[derive(Debug, Clone)]
struct Forward<C> {
    vectors: Vec<Vec<C>>,
    spans: [Option<(usize, usize)>; STATES],
}

/// Snapshots of [`Forward`] keeping only each state's span, in one arena: snapshot k of
/// state s holds `arena[at..at + len]` for the indices `first..first + len`.
#[derive(Debug, Default)]
struct Snapshots<C> {
    arena: Vec<C>,
    index: Vec<[(usize, usize, usize); STATES]>,
}

impl<C: Count> Snapshots<C> {
    fn clear(&mut self) {
        self.arena.clear();
        self.index.clear();
    }

    fn push(&mut self, forward: &Forward<C>) {
        let mut entry = [(0usize, 0usize, 0usize); STATES];
        for (state, slot) in entry.iter_mut().enumerate() {
            if let Some((lo, hi)) = forward.spans[state] {
                *slot = (lo, self.arena.len(), hi - lo + 1);
                self.arena
                    .extend_from_slice(&forward.vectors[state][lo..=hi]);
            }
        }
        self.index.push(entry);
    }

    /// The count of snapshot k at (state, index).
    fn get(&self, k: usize, state: usize, index: usize) -> C {
        let (first, at, len) = self.index[k][state];
        if index >= first && index < first + len {
            self.arena[at + index - first]
        } else {
            C::default()
        }
    }
}

/// The joint moves `(from, to, ends placed by the first, by the second)`, `from ≠ to`, in
/// increasing order of `from`, then `to`.
fn joint_moves() -> Vec<(usize, usize, usize, usize)> {
    let mut out = Vec::new();
    for from in 0..STATES {
        for &(b1, m1) in moves(from / 3) {
            for &(b2, m2) in moves(from % 3) {
                let to = b1 * 3 + b2;
                if to != from {
                    out.push((from, to, m1, m2));
                }
            }
        }
    }
    out.sort_unstable();
    out
}

/// The representative `(min, max)` of a joint state, whose counts it shares.
fn mirror(state: usize) -> usize {
    let (a, b) = (state / 3, state % 3);
    a.min(b) * 3 + a.max(b)
}

/// The joint moves into representatives, from mirrored sources, targets by decreasing
/// statuses' sum: `(source representative, to, ends placed by the first, by the second)`.
fn step_moves() -> Vec<(usize, usize, usize, usize)> {
    let mut out: Vec<(usize, usize, usize, usize)> = joint_moves()
        .into_iter()
        .filter(|&(_, to, _, _)| mirror(to) == to)
        .map(|(from, to, m1, m2)| (mirror(from), to, m1, m2))
        .collect();
    out.sort_by_key(|&(_, to, _, _)| std::cmp::Reverse(to / 3 + to % 3));
    out
}

/// The memory (in bytes, 256 MiB) up to which a snapshot is kept before every run; above
/// it, every √R-th run, and the rank walk recomputes the runs between (which doubles the
/// program's work). The bound is the worst case R·6·W counts; the spans stored are
/// usually much shorter than W.
const SNAPSHOT_BUDGET: usize = 1 << 28;

/// The joint states stored in a snapshot: the representatives `(a, b)`, `a ≤ b`.
const REPRESENTATIVES: usize = 6;

/// The score levels of all ordered pairs of `INTERVAL ⊕ INTERVAL` for one synthetic
/// distribution and data set, and the pair of any rank in a level (module documentation).
#[derive(Debug)]
pub(crate) struct IntervalPairLevels<C: Count> {
    /// The runs of G over the cut points `0..=N`: `(first, length, value)`.
    runs: Vec<(u64, u64, i64)>,
    /// Partial sums are stored at index `sum + offset`.
    offset: i64,
    /// The length of every count vector.
    width: usize,
    /// The joint moves ([`joint_moves`]).
    transitions: Vec<(usize, usize, usize, usize)>,
    /// The joint moves into the symmetric representatives `(a, b)`, `a ≤ b`, with their
    /// sources mirrored to representatives too, the targets in decreasing order of their
    /// statuses' sum ([`Self::step`]).
    step_moves: Vec<(usize, usize, usize, usize)>,
    /// The forward counts before runs `0, stride, 2·stride, …` (before every run when
    /// the stride is 1).
    checkpoints: Snapshots<C>,
    stride: usize,
    /// The final counts of state (2, 2).
    done: Vec<C>,
    /// The number of pairs at every score.
    counts: BTreeMap<i64, C>,
}

impl<C: Count> IntervalPairLevels<C> {
    /// The levels on `dist` for the data `sorted` (increasing, inside `[N]`).
    pub(crate) fn new(dist: &PiecewiseDistribution, sorted: &[Point]) -> Self {
        Self::from_runs(runs_from_zero(dist, sorted))
    }
}

/// The runs of G over the cut points `0..=N`: [`score_runs`] (over `1..=N`) with the cut
/// point 0 added.
pub(crate) fn runs_from_zero(
    dist: &PiecewiseDistribution,
    sorted: &[Point],
) -> Vec<(u64, u64, i64)> {
    {
        let mut runs = score_runs(dist, sorted);
        // G(0) = ⌊n·0⌋ − 0 = 0: the cut point 0 joins the first run or starts its own.
        match runs.first_mut() {
            Some(first) if first.2 == 0 => {
                first.0 = 0;
                first.1 += 1;
            }
            _ => runs.insert(0, (0, 1, 0)),
        }
        runs
    }
}

impl<C: Count> IntervalPairLevels<C> {
    /// The levels for the runs `(first, length, value)` of G, which cover `0..=N` in order.
    pub(crate) fn from_runs(runs: Vec<(u64, u64, i64)>) -> Self {
        Self::with_budget(runs, SNAPSHOT_BUDGET / std::mem::size_of::<C>())
    }

    /// [`Self::from_runs`] with snapshots before every run only if they take at most
    /// `budget` counts (tests pass 0 to exercise the √R checkpoints).
    pub(crate) fn with_budget(runs: Vec<(u64, u64, i64)>, budget: usize) -> Self {
        let (lo, hi) = runs
            .iter()
            .fold((0i64, 0i64), |(lo, hi), r| (lo.min(r.2), hi.max(r.2)));
        // |partial sums| ≤ 2·(max − min) + max|G| (module documentation).
        let bound = 2 * (hi - lo) + lo.abs().max(hi.abs());
        let width = (2 * bound + 1) as usize;
        let stride = if runs.len().saturating_mul(REPRESENTATIVES * width) <= budget {
            1
        } else {
            ((runs.len() as f64).sqrt().ceil() as usize).max(1)
        };
        let mut levels = IntervalPairLevels::<C> {
            runs,
            offset: bound,
            width,
            transitions: joint_moves(),
            step_moves: step_moves(),
            checkpoints: Snapshots::default(),
            stride,
            done: Vec::new(),
            counts: BTreeMap::new(),
        };
        let mut current = levels.initial();
        for r in 0..levels.runs.len() {
            if r % stride == 0 {
                levels.checkpoints.push(&current);
            }
            levels.step(&mut current, r);
        }
        let done = std::mem::take(&mut current.vectors[STATES - 1]);
        for (i, &c) in done.iter().enumerate() {
            if !c.is_zero() {
                let sum = i as i64 - levels.offset;
                let entry = levels.counts.entry(sum.abs()).or_default();
                *entry = entry.add(c);
            }
        }
        levels.done = done;
        levels
    }

    /// Weight 1 at sum 0 in the states `{0, 2} × {0, 2}`: only (0, 0), (0, 2) and (2, 2)
    /// are stored, since the state (2, 0) is the mirror of (0, 2) and is read through it
    /// (the two intervals play symmetric roles in the walk).
    fn initial(&self) -> Forward<C> {
        let mut forward = Forward {
            vectors: vec![vec![C::default(); self.width]; STATES],
            spans: [None; STATES],
        };
        let at = self.offset as usize;
        for state in [0, 2, 8] {
            forward.vectors[state][at] = C::from_u128(1);
            forward.spans[state] = Some((at, at));
        }
        forward
    }

    /// The forward counts of snapshot k.
    fn restore(&self, snapshots: &Snapshots<C>, k: usize) -> Forward<C> {
        let mut forward = Forward {
            vectors: vec![vec![C::default(); self.width]; STATES],
            spans: [None; STATES],
        };
        for (state, &(first, at, len)) in snapshots.index[k].iter().enumerate() {
            if len > 0 {
                forward.vectors[state][first..first + len]
                    .copy_from_slice(&snapshots.arena[at..at + len]);
                forward.spans[state] = Some((first, first + len - 1));
            }
        }
        forward
    }

    /// The ways and the change of the partial sum of the joint move `(from, m1, m2)` across
    /// run r (`None` if the run is too short for it).
    fn joint_move(&self, r: usize, from: usize, m1: usize, m2: usize) -> Option<(u128, u128, i64)> {
        let (_, len, h) = self.runs[r];
        let len = u128::from(len);
        let (w1, w2) = (ways(m1, len), ways(m2, len));
        if w1 == 0 || w2 == 0 {
            return None;
        }
        let parity = (from / 3 + from % 3) % 2;
        let delta = if (m1 + m2).is_multiple_of(2) {
            0
        } else if parity == 0 {
            -h
        } else {
            h
        };
        Some((w1, w2, delta))
    }

    /// The forward counts after run r, in place, for the representatives `(a, b)`, `a ≤ b`,
    /// only: the counts of `(b, a)` are those of `(a, b)` (swapping the two intervals of
    /// the pairs maps one set onto the other and keeps every sum). Every move raises a
    /// status, so a state's sources have a smaller statuses' sum (and, mirrored, a smaller
    /// index); the targets are updated in decreasing order of that sum, so every source is
    /// read before it changes (the staying move, of one way and no change, is the count
    /// already in place).
    fn step(&self, forward: &mut Forward<C>, r: usize) {
        for &(from, to, m1, m2) in &self.step_moves {
            let Some((lo, hi)) = forward.spans[from] else {
                continue;
            };
            let Some((w1, w2, delta)) = self.joint_move(r, from, m1, m2) else {
                continue;
            };
            let (left, right) = forward.vectors.split_at_mut(to);
            let (source, target) = (&left[from][lo..=hi], &mut right[0]);
            let at = (lo as i64 + delta) as usize;
            let target = &mut target[at..at + source.len()];
            if w1 == 1 && w2 == 1 {
                for (t, &c) in target.iter_mut().zip(source) {
                    *t = t.add(c);
                }
            } else if let Some(w) = w1.checked_mul(w2) {
                for (t, &c) in target.iter_mut().zip(source) {
                    if !c.is_zero() {
                        *t = t.add_mul(c, w);
                    }
                }
            } else {
                for (t, &c) in target.iter_mut().zip(source) {
                    if !c.is_zero() {
                        *t = t.add(c.mul_pair(w1, w2));
                    }
                }
            }
            let shifted = (at, at + (hi - lo));
            forward.spans[to] = Some(match forward.spans[to] {
                Some((a, b)) => (a.min(shifted.0), b.max(shifted.1)),
                None => shifted,
            });
        }
    }

    /// The number of ordered pairs at every score, increasing in the score.
    pub(crate) fn counts(&self) -> &BTreeMap<i64, C> {
        &self.counts
    }

    /// The ordered pair of rank `rank` in the enumeration of score level `score`
    /// (`rank` below the level's count; module documentation).
    pub(crate) fn pair_at(&self, score: i64, rank: C) -> (Cut, Cut) {
        let mut rank = rank;
        let mut sum = -score;
        let below = self.done[(sum + self.offset) as usize];
        if rank >= below {
            rank = rank.sub(below);
            sum = score;
        }
        let mut state = STATES - 1;
        // Ends found so far, per interval: (left, right).
        let mut ends: [(Option<u64>, Option<u64>); 2] = [(None, None); 2];
        let segments = self.runs.len().div_ceil(self.stride);
        let mut local = Snapshots::default();
        for segment in (0..segments).rev() {
            let start = segment * self.stride;
            let end = (start + self.stride).min(self.runs.len());
            // The forward counts before every run of the segment: stored when the stride
            // is 1, recomputed from the segment's checkpoint otherwise.
            let (snapshots, base) = if self.stride == 1 {
                (&self.checkpoints, start)
            } else {
                local.clear();
                let mut current = self.restore(&self.checkpoints, segment);
                for r in start..end {
                    local.push(&current);
                    self.step(&mut current, r);
                }
                (&local, 0)
            };
            for r in (start..end).rev() {
                let k = base + r - start;
                let mut chosen = None;
                // The moves into `state`, by increasing source (the staying move first).
                let stay = std::iter::once((state, state, 0, 0));
                let into = self.transitions.iter().copied().filter(|t| t.1 == state);
                for (from, _, m1, m2) in stay.chain(into) {
                    let Some((w1, w2, delta)) = self.joint_move(r, from, m1, m2) else {
                        continue;
                    };
                    let index = sum - delta + self.offset;
                    if index < 0 || index as usize >= self.width {
                        continue;
                    }
                    let options = snapshots
                        .get(k, mirror(from), index as usize)
                        .mul_pair(w1, w2);
                    if rank < options {
                        chosen = Some((from, w1, w2, delta));
                        break;
                    }
                    rank = rank.sub(options);
                }
                let (from, w1, w2, delta) = chosen.expect("the rank is below the level's count");
                let (rest, second) = rank.div_rem_small(w2);
                let (rest, first) = rest.div_rem_small(w1);
                rank = rest;
                self.place(r, from, state, [first, second], &mut ends);
                state = from;
                sum -= delta;
            }
        }
        debug_assert!(rank.is_zero() && sum == 0);
        let cut = |(u, v): (Option<u64>, Option<u64>)| match (u, v) {
            (Some(u), Some(v)) => Some((u, v)),
            _ => None,
        };
        (cut(ends[0]), cut(ends[1]))
    }

    /// Records the ends placed in run r by the joint move `from → to` with way indices
    /// `index` (one per interval; in the rank the second varies fastest).
    fn place(
        &self,
        r: usize,
        from: usize,
        to: usize,
        index: [u128; 2],
        ends: &mut [(Option<u64>, Option<u64>); 2],
    ) {
        let first = self.runs[r].0;
        let placed = [to / 3 - from / 3, to % 3 - from % 3];
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
