//! Sanitizers over an ordered domain `[N]` without a dense histogram: the synthetic
//! distribution is a [`PiecewiseDistribution`] (uniform inside each of O(#queries)
//! pieces), and MWEM answers the XOR class of thresholds, `THRESH ⊕ THRESH`, by its
//! structure (every query is an interval between two cut points) instead of by a query
//! matrix of `N² × N` bits.
//!
//! # Why pieces suffice
//! The multiplicative-weights update for an interval query multiplies a contiguous range
//! of the domain by one factor and the rest by another. Starting from the uniform
//! distribution, after t updates the distribution is constant on each of the at most
//! `2t + 1` pieces cut by the queries' end points, so it is kept as a sorted list of pieces
//! with their masses; an update splits at most two pieces and rescales the rest. In exact
//! arithmetic this is the dense histogram of the same updates (a unit test compares the two
//! on small domains).
//!
//! # Why the selection is structured
//! Concept `t` of `THRESH_[N]` labels `y ≤ t`, so the pair `(i, j)` of `THRESH ⊕ THRESH`
//! (ids `i·N + j`, as [`privpac_classes::Xor`] numbers them) is the indicator of the points
//! `y` with `min(i, j) < y ≤ max(i, j)`: the interval between the cut points `g_i = i + 1`
//! and `g_j = j + 1`, empty when `i = j`. With `P(g)` the synthetic mass of `[0, g)` and
//! `D(g)` the number of data points below g, the selection score of the pair is
//! `|H(g_j) − H(g_i)|` with `H(g) = ⌊n·P(g)⌋ − D(g)`. H is a step function with O(n + #pieces)
//! steps over the N cut points, so the number of pairs at every score is a sum over pairs of
//! H's values, and the exponential mechanism samples a score level and then a uniform pair of
//! that level ([`ExponentialMechanism::select_levels`]), the same distribution as the
//! mechanism over the N² pairs one by one.
//!
//! # Above 2^60 pairs
//! `select_levels` carries its envelope sums in `u128` and takes at most 2^60 candidates
//! (N = 2^30 for thresholds). Above that the level is drawn by
//! [`ExponentialMechanism::select_wide_levels`] (levels of up to 2^128 candidates in all,
//! 256-bit envelope sums): a level with probability proportional to `count·exp(λ·score)`,
//! then a uniform member, which is again the exponential mechanism over the pairs one by one
//! (the proof is in that method's module documentation and never uses the number of
//! candidates). Below 2^60 pairs the narrow sampler is kept, so runs there draw the same
//! values for a seed as before; the two samplers have the same distribution on the same
//! levels, not the same draws. The level counts, ranks and offsets are `u128` throughout,
//! so N goes up to [`ORDERED_XOR_LIMIT`] = 2^62 (4N² < 2^128 pairs for `both(thresholds)`).

use std::collections::BTreeMap;

use privpac_classes::Point;
use privpac_mechanisms::{ExponentialMechanism, ScoreLevel, WideScoreLevel};
use rand::Rng;

use crate::error::{Error, Result};
use crate::mwem::{Mwem, MwemVariant, update_factors};
use crate::pieces::PiecewiseDistribution;

/// The largest N for which MWEM runs on `THRESH_[N] ⊕ THRESH_[N]` (and on
/// `both(thresholds)`): the class has N² pairs (4N² for `both(thresholds)`), counted,
/// ranked and sampled in `u128` ([`ExponentialMechanism::select_wide_levels`] above 2^60
/// pairs), and 4·(2^62)² = 2^126 leaves room for the level sums.
pub const ORDERED_XOR_LIMIT: u64 = 1 << 62;

/// The most pairs the narrow sampler [`ExponentialMechanism::select_levels`] takes; above
/// this the wide one runs.
const NARROW_PAIRS: u128 = 1 << 60;

/// The step function `H(g) = ⌊n·P(g)⌋ − D(g)` over the cut points `g = 1..=N`, as maximal
/// runs `(first cut point, length, value)`.
pub(crate) fn score_runs(dist: &PiecewiseDistribution, sorted: &[Point]) -> Vec<(u64, u64, i64)> {
    let n = sorted.len() as f64;
    let size = dist.size;
    // Breakpoints: piece starts and one past every data point, within [1, N].
    let mut cuts: Vec<u64> = dist.starts.iter().copied().filter(|&s| s >= 1).collect();
    cuts.extend(sorted.iter().map(|&x| x + 1).filter(|&g| g <= size));
    cuts.push(1);
    cuts.sort_unstable();
    cuts.dedup();
    let cumulative = dist.cumulative();
    let mut runs: Vec<(u64, u64, i64)> = Vec::new();
    let mut push = |first: u64, len: u64, value: i64| match runs.last_mut() {
        Some(last) if last.2 == value && last.0 + last.1 == first => last.1 += len,
        _ => runs.push((first, len, value)),
    };
    for (k, &u) in cuts.iter().enumerate() {
        let v = cuts.get(k + 1).copied().unwrap_or(size + 1); // segment [u, v)
        let below = sorted.partition_point(|&x| x < u) as i64;
        // [u, v) lies in one piece (piece starts are cuts), where P is the piece's fixed
        // formula: the same value as `mass_below_with` (which finds the same piece).
        let piece = dist.piece_of(u.min(size));
        let (start, len, mass) = (
            dist.starts[piece],
            dist.end(piece) - dist.starts[piece],
            dist.masses[piece],
        );
        let floor_at = |g: u64| (n * (cumulative[piece] + dist.fraction(piece, g))).floor() as i64;
        let mut g = u;
        while g < v {
            let value = floor_at(g);
            // The last cut point of [g, v) with the same floor. P is linear on the piece, so
            // the next step is near `start + ((value + 1)/n − C)·len/m`; that guess only
            // brackets a search that evaluates the exact formula (monotone in g), so the
            // runs are those of the exact H whatever the guess.
            let guess = if mass > 0.0 {
                let x =
                    start as f64 + ((value + 1) as f64 / n - cumulative[piece]) * len as f64 / mass;
                if x.is_finite() {
                    (x.max(0.0) as u64).saturating_sub(1)
                } else {
                    v - 1
                }
            } else {
                v - 1
            };
            let guess = guess.clamp(g, v - 1);
            // Gallop from the guess to a bracket lo ≤ answer < hi + 1, then bisect.
            let (mut lo, mut hi);
            if floor_at(guess) == value {
                lo = guess;
                let mut step = 1u64;
                loop {
                    let next = lo.saturating_add(step);
                    if next >= v {
                        hi = v - 1;
                        break;
                    }
                    if floor_at(next) == value {
                        lo = next;
                        step = step.saturating_mul(2);
                    } else {
                        hi = next - 1;
                        break;
                    }
                }
            } else {
                hi = guess - 1; // guess > g, since floor_at(g) == value
                let mut step = 1u64;
                loop {
                    let next = hi.saturating_sub(step).max(g);
                    if floor_at(next) == value {
                        lo = next;
                        break;
                    }
                    hi = next - 1;
                    step = step.saturating_mul(2);
                }
            }
            while lo < hi {
                let mid = lo + (hi - lo).div_ceil(2);
                if floor_at(mid) == value {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
            push(g, lo - g + 1, value - below);
            g = lo + 1;
        }
    }
    runs
}

/// One level set of H: its runs `(first, len)` in increasing order and the total length
/// of the runs before each.
type LevelSet = (Vec<(u64, u64)>, Vec<u64>);

/// The blocks of one score level: `(h_i, h_j, size)` ([`blocks`]).
type Blocks = std::rc::Rc<Vec<(i64, i64, u128)>>;

/// The level sets of H: for every value h, its runs and their cumulative sizes.
struct Levels {
    /// value → (runs `(first, len)` in increasing order, cumulative lengths before each).
    sets: BTreeMap<i64, LevelSet>,
    /// The blocks of each score level asked for so far ([`blocks`]).
    blocks: std::cell::RefCell<BTreeMap<u64, Blocks>>,
}

impl Levels {
    fn new(runs: &[(u64, u64, i64)]) -> Self {
        let mut sets: BTreeMap<i64, LevelSet> = BTreeMap::new();
        for &(first, len, value) in runs {
            let (members, before) = sets.entry(value).or_default();
            let total = before.last().copied().unwrap_or(0)
                + members.last().map_or(0, |&(_, l): &(u64, u64)| l);
            members.push((first, len));
            before.push(total);
        }
        Levels {
            sets,
            blocks: Default::default(),
        }
    }

    fn count(&self, h: i64) -> u64 {
        self.sets.get(&h).map_or(0, |(m, b)| {
            b.last().copied().unwrap_or(0) + m.last().map_or(0, |r| r.1)
        })
    }

    /// The value of H at cut point g and g's rank among the members of its level.
    fn locate(&self, runs: &[(u64, u64, i64)], g: u64) -> (i64, u64) {
        let r = runs.partition_point(|&(first, _, _)| first <= g) - 1;
        let (first, _, value) = runs[r];
        let (members, before) = &self.sets[&value];
        let k = members.partition_point(|&(f, _)| f <= first) - 1;
        (value, before[k] + (g - first))
    }

    /// The member of rank `rank` of level h.
    fn member(&self, h: i64, rank: u64) -> u64 {
        let (members, before) = &self.sets[&h];
        let k = before.partition_point(|&b| b <= rank) - 1;
        members[k].0 + (rank - before[k])
    }
}

/// The blocks of score level k, in enumeration order: `(h_i, h_j)` pairs of H values with
/// `|h_j − h_i| = k` and their sizes `c_{h_i}·c_{h_j}`. For k > 0 every unordered value
/// pair appears in both orientations, lower first.
fn blocks(levels: &Levels, k: u64) -> Blocks {
    if let Some(cached) = levels.blocks.borrow().get(&k) {
        return cached.clone();
    }
    let mut out = Vec::new();
    for (&h, _) in levels.sets.iter() {
        let c = u128::from(levels.count(h));
        if k == 0 {
            out.push((h, h, c * c));
            continue;
        }
        let other = h + k as i64;
        let d = u128::from(levels.count(other));
        if d > 0 {
            out.push((h, other, c * d));
            out.push((other, h, c * d));
        }
    }
    let out = std::rc::Rc::new(out);
    levels.blocks.borrow_mut().insert(k, out.clone());
    out
}

/// The rank of the pair `(g_i, g_j)` in the enumeration of its level (blocks in the order
/// of [`blocks`], row-major inside a block).
fn pair_rank(levels: &Levels, runs: &[(u64, u64, i64)], gi: u64, gj: u64) -> (u64, u128) {
    let (hi_, ri) = levels.locate(runs, gi);
    let (hj, rj) = levels.locate(runs, gj);
    let k = hi_.abs_diff(hj);
    let mut offset = 0u128;
    for &(a, b, size) in blocks(levels, k).iter() {
        if a == hi_ && b == hj {
            return (
                k,
                offset + u128::from(ri) * u128::from(levels.count(hj)) + u128::from(rj),
            );
        }
        offset += size;
    }
    unreachable!("every pair lies in a block of its level")
}

/// The pair of the given rank in the enumeration of level k.
fn pair_at(levels: &Levels, k: u64, mut rank: u128) -> (u64, u64) {
    for &(a, b, size) in blocks(levels, k).iter() {
        if rank < size {
            let cb = u128::from(levels.count(b));
            return (
                levels.member(a, (rank / cb) as u64),
                levels.member(b, (rank % cb) as u64),
            );
        }
        rank -= size;
    }
    unreachable!("the rank is below the level's count")
}

/// The score levels of all N² pairs (ordered, diagonal included): for every k, the number
/// of pairs with `|H(g_j) − H(g_i)| = k`.
fn level_counts(levels: &Levels) -> BTreeMap<u64, u128> {
    let values: Vec<(i64, u128)> = levels
        .sets
        .keys()
        .map(|&h| (h, u128::from(levels.count(h))))
        .collect();
    let mut counts: BTreeMap<u64, u128> = BTreeMap::new();
    for (a, &(ha, ca)) in values.iter().enumerate() {
        *counts.entry(0).or_default() += ca * ca;
        for &(hb, cb) in &values[a + 1..] {
            *counts.entry(hb.abs_diff(ha)).or_default() += 2 * ca * cb;
        }
    }
    counts
}

/// What one MWEM run on `THRESH_[N] ⊕ THRESH_[N]` did.
#[derive(Debug, Clone, PartialEq)]
pub struct OrderedMwemRun {
    /// The synthetic distribution (the last iterate for replay, the average of iterates
    /// otherwise).
    pub synthetic: PiecewiseDistribution,
    /// The measured queries, in round order, as ids of the XOR class
    /// ([`privpac_classes::Xor`] of the thresholds class, or of `both(thresholds)` when run
    /// with two orientations), in `u128` (above 2^32 points they exceed u64).
    pub measured: Vec<u128>,
    /// The noisy counts of the measured queries (of the complement of the interval for the
    /// complemented pairs of `both(thresholds)`), in round order.
    pub measurements: Vec<i64>,
}

impl Mwem {
    /// MWEM with the queries of `THRESH_[N] ⊕ THRESH_[N]` (all N² pairs of thresholds,
    /// the sanitizer learners' C⊕ for thresholds) over a [`PiecewiseDistribution`], in
    /// time polynomial in n and T and logarithmic in N (see the module documentation).
    ///
    /// With `orientations = 2` the class is `both(thresholds)` (ids `t` and `N + t`, the
    /// complement), and C⊕ has 4N² pairs: `c ⊕ c′` and `¬c ⊕ ¬c′` are the interval of the
    /// thresholds' pair, `c ⊕ ¬c′` and `¬c ⊕ c′` its complement. A complement query has the
    /// same score (`|n·(1 − q(A)) − (n − a_q)| = |n·q(A) − a_q|`) and the same update: with
    /// the complement's noisy count `m′`, the update `A ∝ A·exp(η′·(1 − q))` with
    /// `η′ = clamp((m′/n − (1 − q(A)))/2, −1, 1)` is, after normalization, the interval's
    /// update `A ∝ A·exp(η·q)` with target `(n − m′)/n` (η = −η′, the clamp being
    /// symmetric). So every pair is one of 4 candidates with equal score, and a measured
    /// candidate leaves only itself out of later rounds.
    ///
    /// The algorithm is [`Mwem`]'s with one change of score: the pair's score is
    /// `|H(g_j) − H(g_i)|` with `H(g) = ⌊n·P(g)⌋ − D(g)` instead of `⌊|n·q(A) − a_q|⌋`.
    /// Both are within 1 of `|n·q(A) − a_q|` (so the *Utility* analysis of [`Mwem`], whose
    /// `+1` pays for integer scores, is unchanged), and the new score also has sensitivity
    /// exactly 1: `H(g_j) − H(g_i) = (⌊n·P(g_j)⌋ − ⌊n·P(g_i)⌋) − a_q`, where the first term
    /// depends only on earlier released measurements and `a_q` is a count that changes by at
    /// most 1 when one point is replaced.
    ///
    /// # Privacy
    /// ε-differentially private (pure) for data sets that differ in one replaced point, by
    /// the proof on [`Mwem`] (Hardt–Ligett–McSherry; 2T steps of `ε/(2T)` — T exponential
    /// mechanisms on sensitivity-1 scores and T discrete Laplace measurements of counts —
    /// composed by basic composition, Dwork–Roth Theorem 3.16, with replay and the output
    /// post-processing). The selection draws a score level with probability proportional
    /// to `count·exp(λ·score)` and then a uniform unmeasured pair of that level, which is the
    /// exponential mechanism over the unmeasured pairs ([`ExponentialMechanism::select_levels`],
    /// or [`ExponentialMechanism::select_wide_levels`] above 2^60 pairs).
    ///
    /// # Running time
    /// Per round: the steps of H, O((n + T)·log N) evaluations of P; the level counts,
    /// O(V²) for the V distinct values of H (V ≤ 2n + 1); replay on the O(T) pieces.
    ///
    /// # Errors
    /// [`Error::EmptyData`]; [`Error::Class`] wrapping a point outside `[N]`;
    /// [`Error::InvalidParameter`] unless `orientations` is 1 or 2; [`Error::TooLarge`]
    /// for N above [`ORDERED_XOR_LIMIT`]; [`Error::TooManyRounds`] if T exceeds the
    /// candidates; [`Error::Mechanism`].
    pub fn run_threshold_xor<R: Rng + ?Sized>(
        &self,
        size: u64,
        orientations: u64,
        data: &[Point],
        rng: &mut R,
    ) -> Result<OrderedMwemRun> {
        if data.is_empty() {
            return Err(Error::EmptyData);
        }
        if !(1..=2).contains(&orientations) {
            return Err(Error::InvalidParameter {
                name: "orientations",
                requirement: "1 (thresholds) or 2 (both(thresholds))",
                value: orientations as f64,
            });
        }
        let copies = orientations * orientations;
        if size > ORDERED_XOR_LIMIT {
            return Err(Error::TooLarge {
                what: "MWEM on the XOR class of thresholds",
                needed: u128::from(size),
                unit: "domain points (its pairs are counted in u128)",
                limit: u128::from(ORDERED_XOR_LIMIT),
            });
        }
        let pairs = u128::from(size) * u128::from(size) * u128::from(copies);
        if self.rounds() as u128 > pairs {
            return Err(Error::TooManyRounds {
                rounds: self.rounds(),
                queries: pairs.min(usize::MAX as u128) as usize,
            });
        }
        let sorted = sorted_in_domain(size, data)?;
        let count_below = |g: u64| sorted.partition_point(|&x| x < g) as i64;
        let n = sorted.len() as f64;
        let passes = match self.variant() {
            MwemVariant::Replay { passes } => passes,
            MwemVariant::AverageOfIterates => 0,
        };
        let mut dist = PiecewiseDistribution::uniform(size)?;
        let mut iterates: Vec<PiecewiseDistribution> = Vec::new();
        let mut measured: Vec<(u64, u64, u64)> = Vec::new();
        let mut measurements = Vec::new();
        let mut history: Vec<(u64, u64, f64)> = Vec::new();
        for _ in 0..self.rounds() {
            let runs = score_runs(&dist, &sorted);
            let levels = Levels::new(&runs);
            let mut counts = level_counts(&levels);
            // The measured pairs leave the candidate set: their ranks in their levels.
            let mut excluded: BTreeMap<u64, Vec<u128>> = BTreeMap::new();
            counts.values_mut().for_each(|c| *c *= u128::from(copies));
            for &(i, j, version) in &measured {
                let (k, rank) = pair_rank(&levels, &runs, i + 1, j + 1);
                *counts.get_mut(&k).expect("a measured pair has a level") -= 1;
                excluded
                    .entry(k)
                    .or_default()
                    .push(rank * u128::from(copies) + u128::from(version));
            }
            let score_levels: Vec<WideScoreLevel> = counts
                .iter()
                .filter(|&(_, &c)| c > 0)
                .map(|(&k, &c)| WideScoreLevel {
                    score: k as i64,
                    count: c,
                })
                .collect();
            let (level, offset) = select(self.selection(), pairs, &score_levels, rng)?;
            let k = score_levels[level].score as u64;
            // The offset-th unmeasured pair of level k: skip the measured ranks below it.
            let mut rank = offset;
            if let Some(ranks) = excluded.get_mut(&k) {
                ranks.sort_unstable();
                for &r in ranks.iter() {
                    if r <= rank {
                        rank += 1;
                    }
                }
            }
            let version = (rank % u128::from(copies)) as u64;
            let (gi, gj) = pair_at(&levels, k, rank / u128::from(copies));
            let (a, b) = (gi.min(gj), gi.max(gj));
            // Versions 1 and 2 (c ⊕ ¬c′, ¬c ⊕ c′) are the interval's complement.
            let complement = version == 1 || version == 2;
            let inside_count = count_below(b) - count_below(a);
            let truth = if complement {
                sorted.len() as i64 - inside_count
            } else {
                inside_count
            };
            let noisy = truth.saturating_add(self.measurement_noise().sample(rng));
            let target = if complement {
                (sorted.len() as i64 - noisy) as f64 / n
            } else {
                noisy as f64 / n
            };
            if a < b {
                let current = dist.range_mass(a, b);
                let (inside, outside) = update_factors(target, current);
                dist.reweight(a, b, inside, outside);
            }
            measured.push((gi - 1, gj - 1, version));
            measurements.push(noisy);
            history.push((a, b, target));
            // Replay: post-processing of the released pairs (see `Mwem`).
            for _ in 0..passes {
                for &(a, b, target) in &history {
                    if a < b {
                        let current = dist.range_mass(a, b);
                        let (inside, outside) = update_factors(target, current);
                        dist.reweight(a, b, inside, outside);
                    }
                }
            }
            if passes == 0 {
                iterates.push(dist.clone());
            }
        }
        let synthetic = if passes == 0 {
            let mut average = vec![0.0f64; dist.len()];
            for iterate in &iterates {
                for (s, m) in average.iter_mut().zip(iterate.masses_on(&dist)) {
                    *s += m;
                }
            }
            let total: f64 = average.iter().sum();
            let mut out = dist.clone();
            out.masses = average.into_iter().map(|m| m / total).collect();
            out
        } else {
            dist
        };
        // XOR ids: concept ids of the class are t (and N + t for complements); pair
        // version v = 2·[first complemented] + [second complemented].
        let (size, len) = (u128::from(size), u128::from(size * orientations));
        let measured = measured
            .into_iter()
            .map(|(i, j, v)| {
                let (i, j, v) = (u128::from(i), u128::from(j), u128::from(v));
                (i + (v >> 1) * size) * len + (j + (v & 1) * size)
            })
            .collect();
        Ok(OrderedMwemRun {
            synthetic,
            measured,
            measurements,
        })
    }
}

/// The exponential mechanism over the levels: `(level index, offset in the level)`, by
/// the narrow sampler when the class has at most 2^60 pairs (the draws of earlier
/// versions for a seed), by the wide one above (the same distribution; module
/// documentation).
pub(crate) fn select<R: Rng + ?Sized>(
    mechanism: &ExponentialMechanism,
    pairs: u128,
    levels: &[WideScoreLevel],
    rng: &mut R,
) -> Result<(usize, u128)> {
    if pairs <= NARROW_PAIRS {
        let narrow: Vec<ScoreLevel> = levels
            .iter()
            .map(|l| ScoreLevel {
                score: l.score,
                count: l.count as u64,
            })
            .collect();
        let choice = mechanism.select_levels(&narrow, rng)?;
        Ok((choice.level, u128::from(choice.offset)))
    } else {
        let choice = mechanism.select_wide_levels(levels, rng)?;
        Ok((choice.level, choice.offset))
    }
}

/// `data` sorted increasingly; the largest point outside `[size]` is an error.
pub(crate) fn sorted_in_domain(size: u64, data: &[Point]) -> Result<Vec<Point>> {
    let mut sorted = data.to_vec();
    sorted.sort_unstable();
    if let Some(&x) = sorted.last()
        && x >= size
    {
        return Err(privpac_classes::Error::PointOutsideDomain {
            point: x,
            domain: format!("[{size}]"),
        }
        .into());
    }
    Ok(sorted)
}

#[cfg(test)]
mod tests;
