//! MWEM on `INTERVAL ⊕ INTERVAL` over `[N]` by structure: the synthetic distribution is a
//! [`PiecewiseDistribution`], and each round's exponential mechanism samples a score level
//! counted by the `levels` module, then a uniform pair of it.

use std::collections::BTreeSet;

use privpac_classes::Point;
use privpac_mechanisms::ExponentialMechanism;
use rand::Rng;

use super::count::{Count, U192, U256};
use super::levels::{Cut, INTERVAL_XOR_192_LIMIT, INTERVAL_XOR_LIMIT, IntervalPairLevels};
use crate::error::{Error, Result};
use crate::mwem::{Mwem, MwemVariant, update_factors};
use crate::ordered::{ORDERED_XOR_LIMIT, sorted_in_domain};
use crate::pieces::PiecewiseDistribution;

/// One interval of a measured pair: `Some((a, b))` for `[a, b]` (the naming of
/// [`privpac_classes::Intervals`]), `None` for the empty interval.
pub type IntervalEnds = Option<(u64, u64)>;

/// What one MWEM run on `INTERVAL ⊕ INTERVAL` did ([`Mwem::run_interval_xor`]).
#[derive(Debug, Clone, PartialEq)]
pub struct IntervalMwemRun {
    /// The synthetic distribution (the last iterate for replay, the average of iterates
    /// otherwise).
    pub synthetic: PiecewiseDistribution,
    /// The measured pairs of intervals, in round order (distinct ordered pairs; the query
    /// is the symmetric difference of the two).
    pub measured: Vec<[IntervalEnds; 2]>,
    /// The noisy counts of the measured queries, in round order.
    pub measurements: Vec<i64>,
}

/// The ranges `[p₁, p₂)`, `[p₃, p₄)` of the symmetric difference of two intervals given
/// by their cut points (empty ranges dropped).
pub(crate) fn query_ranges(pair: (Cut, Cut)) -> Vec<(u64, u64)> {
    let mut ends: Vec<u64> = [pair.0, pair.1]
        .into_iter()
        .flatten()
        .flat_map(|(u, v)| [u, v])
        .collect();
    ends.sort_unstable();
    ends.chunks(2)
        .map(|c| (c[0], c[1]))
        .filter(|&(a, b)| a < b)
        .collect()
}

/// The number of pairs of `INTERVAL ⊕ INTERVAL` over `[N]`: `(1 + N(N+1)/2)²`, when it
/// fits `u128`.
pub(crate) fn interval_pairs(size: u64) -> Option<u128> {
    let n = u128::from(size);
    let concepts = 1 + n * (n + 1) / 2;
    concepts.checked_mul(concepts)
}

/// Round t's updates after its measurement: the update of the newest measurement in
/// `history` (`(ranges, target)` per round), then `passes` replays of all of them in order
/// (post-processing of the released pairs, see [`Mwem`]).
///
/// The replay runs on unnormalized masses: after the round's update every measured end is
/// a piece boundary (pieces are only ever cut), and the update `A ∝ A·exp(η·q)` multiplies
/// the query's pieces by `e^η` (the ratio of the factors of [`update_factors`]) and leaves
/// the others, so one update touches only the query's pieces with a running total, and
/// the masses are normalized (and the total recomputed) once per pass. In exact arithmetic
/// this is the normalized update of every step (tested against the dense [`Mwem`]).
pub(crate) fn apply_round(
    dist: &mut PiecewiseDistribution,
    history: &[(Vec<(u64, u64)>, f64)],
    passes: usize,
) {
    if let Some((ranges, target)) = history.last() {
        let current = dist.ranges_mass(ranges);
        let (inside, outside) = update_factors(*target, current);
        dist.reweight_ranges(ranges, inside, outside);
    }
    if passes == 0 {
        return;
    }
    // The pieces of every measured query (its ends are piece boundaries by now).
    let starts = &dist.starts;
    let slots: Vec<(Vec<std::ops::Range<usize>>, f64)> = history
        .iter()
        .map(|(ranges, target)| {
            let pieces = ranges
                .iter()
                .map(|&(a, b)| {
                    starts.partition_point(|&s| s < a)..starts.partition_point(|&s| s < b)
                })
                .collect();
            (pieces, *target)
        })
        .collect();
    let masses = &mut dist.masses;
    for _ in 0..passes {
        let mut total: f64 = masses.iter().sum();
        for (pieces, target) in &slots {
            let before: f64 = pieces
                .iter()
                .map(|r| masses[r.clone()].iter().sum::<f64>())
                .sum();
            let (inside, outside) = update_factors(*target, before / total);
            let ratio = inside / outside;
            let mut after = 0.0;
            for r in pieces {
                for m in &mut masses[r.clone()] {
                    *m *= ratio;
                    after += *m;
                }
            }
            total += after - before;
        }
        let total: f64 = masses.iter().sum();
        if total > 0.0 && total.is_finite() {
            masses.iter_mut().for_each(|m| *m /= total);
        }
    }
}

/// One selection of [`Mwem::run_interval_xor`]: the exponential mechanism over the score
/// levels of all pairs (a level, then a uniform offset in it, mapped to its pair), redrawn
/// while the pair was already measured, which is exactly the exponential mechanism over the
/// unmeasured pairs (rejection sampling; the measured set is released, so public).
pub(super) fn select_unmeasured<C: Count, R: Rng + ?Sized>(
    mechanism: &ExponentialMechanism,
    total: C,
    levels: &IntervalPairLevels<C>,
    measured: &BTreeSet<(Cut, Cut)>,
    rng: &mut R,
) -> Result<(Cut, Cut)> {
    let score_levels: Vec<(i64, C)> = levels.counts().iter().map(|(&s, &c)| (s, c)).collect();
    loop {
        let (level, offset) = C::select(mechanism, total, &score_levels, rng)?;
        let pair = levels.pair_at(score_levels[level].0, offset);
        if !measured.contains(&pair) {
            return Ok(pair);
        }
    }
}

impl Mwem {
    /// MWEM with the queries of `INTERVAL ⊕ INTERVAL` over `[N]` (all ordered pairs of
    /// intervals, the empty one included: the sanitizer learners' C⊕ for intervals) over a
    /// [`PiecewiseDistribution`], for N up to [`ORDERED_XOR_LIMIT`] = 2^62 (level counts in
    /// `u128` up to [`INTERVAL_XOR_LIMIT`] ≈ 2^32 points, in 192 bits up to about 2^48 and
    /// 256 bits above), in time polynomial in n and T and independent of N but for its
    /// logarithm.
    ///
    /// # The algorithm
    /// [`Mwem`]'s, with one change of score (as [`Mwem::run_threshold_xor`] has): the
    /// pair whose symmetric difference is `[p₁, p₂) ∪ [p₃, p₄)` scores
    /// `s(q) = |G(p₂) − G(p₁) + G(p₄) − G(p₃)|` with `G(g) = ⌊n·P(g)⌋ − D(g)` (P the
    /// synthetic mass below the cut point g, D the data count below it) instead of
    /// `⌊|n·q(A) − a_q|⌋`. Each round:
    /// 1. **select** a pair among the unmeasured ones with the exponential mechanism at
    ///    `ε/(2T)` on s: a score level with probability proportional to
    ///    `count·exp(λ·score)`, then a uniform pair of that level (the level counts and
    ///    the pair of a rank come from the dynamic program of the `levels` module; the level
    ///    is drawn by [`privpac_mechanisms::ExponentialMechanism::select_levels`] up to
    ///    2^60 pairs, `select_wide_levels` up to 2^128 and `select_huge_levels` above); a draw
    ///    that is an already measured pair is discarded and the whole selection redrawn;
    /// 2. **measure** `m = a_q + Lap_Z(2T/ε)` with `a_q` the data count in the symmetric
    ///    difference;
    /// 3. **update** the pieces: the points of the (at most two) ranges of the query by one
    ///    factor, the others by another (the dense update's factors), then replay
    ///    or average as the variant says.
    ///
    /// # Privacy
    /// ε-differentially private (pure) for data sets that differ in one replaced point:
    /// the proof on [`Mwem`] (Hardt–Ligett–McSherry; 2T steps of `ε/(2T)`: T exponential
    /// mechanisms on sensitivity-1 scores and T discrete Laplace measurements of
    /// sensitivity-1 counts, composed by basic composition, Dwork–Roth Theorem 3.16;
    /// replay and the choice of output are post-processing, Proposition 2.1), given two
    /// facts:
    /// - s has sensitivity 1: `s(q) = |R(q) − a_q|` with
    ///   `R(q) = ⌊nP(p₂)⌋ − ⌊nP(p₁)⌋ + ⌊nP(p₄)⌋ − ⌊nP(p₃)⌋`, an integer fixed by the
    ///   released measurements alone (P is their deterministic function), and
    ///   `a_q = D(p₂) − D(p₁) + D(p₄) − D(p₃)` a count that changes by at most 1 when one
    ///   point is replaced;
    /// - the selection is the exponential mechanism over the unmeasured pairs one by one
    ///   (Dwork–Roth Theorem 3.10): the level-then-member draw gives each pair of score k
    ///   the probability `exp(λk)/Σ_j m_j·exp(λj)` (the wide sampler's proof in
    ///   `privpac-mechanisms`), and conditioning that distribution on "not measured" (the
    ///   redraw) gives each unmeasured pair a probability proportional to `exp(λ·s)` over
    ///   the unmeasured pairs, which is the mechanism over them. The set of measured pairs
    ///   is itself released, so the redraw reads nothing else about the data.
    ///
    /// # Accuracy
    /// `|s(q) − |n·q(A) − a_q|| < 2` (each of the four floors is off by less than 1, and two
    /// enter with each sign), where the dense score is within 1: the selection term of
    /// [`Mwem::error_bound`] (for [`MwemVariant::AverageOfIterates`]) grows by `1/n`, i.e.
    /// `s = ((ln|Q| + ln(2T/β))/λ + 2)/n` here.
    ///
    /// # Running time
    /// Per round, the dynamic program runs over the R = O(n + T) runs of G with vectors of
    /// the O(W) partial sums (W the spread of G, at most about 3n): O(R·W) additions in
    /// exact integers for the counts, then a backward walk over the runs for the chosen pair
    /// (from snapshots of the counts, or, when they would exceed 256 MiB, from checkpoints
    /// and a second forward pass); the update and replay on the O(T) pieces. Nothing is
    /// proportional to N; the counts are 192-bit above [`INTERVAL_XOR_LIMIT`] and 256-bit
    /// above about 2^48 points, which costs a few times the `u128` additions. Measured on a
    /// release build of the CLI, `/usr/bin/time privpac sample-complexity --class
    /// intervals:1099511627776 --learner sanitizer:mwem --epsilon 1 --alpha 0.1 --beta 0.2
    /// --trials 20 --seed 1` (T = 20, n = 332, 2-core machine): 9.5 s wall, 15.5 s user
    /// CPU, 155 MB (16.6 s wall, 29.2 s user before the 192-bit counts and the larger
    /// snapshot budget). The search's MWEM runs spend most of their time in the dynamic
    /// program, O(R·W) per round with R ≈ 2n runs and W ≈ n partial sums.
    ///
    /// # Errors
    /// [`Error::EmptyData`]; [`Error::Class`] wrapping a point outside `[N]`;
    /// [`Error::InvalidParameter`] for N = 0; [`Error::UnsupportedDomain`] for N above
    /// [`ORDERED_XOR_LIMIT`]; [`Error::TooManyRounds`] if T exceeds the pairs;
    /// [`Error::Mechanism`].
    pub fn run_interval_xor<R: Rng + ?Sized>(
        &self,
        size: u64,
        data: &[Point],
        rng: &mut R,
    ) -> Result<IntervalMwemRun> {
        if data.is_empty() {
            return Err(Error::EmptyData);
        }
        let dist = PiecewiseDistribution::uniform(size)?;
        if size > ORDERED_XOR_LIMIT {
            let n = size as f64;
            return Err(Error::UnsupportedDomain {
                algorithm: "MWEM",
                requirement: "at most 2^62 points for INTERVAL ⊕ INTERVAL by structure (its \
                              score levels are counted exactly in 256 bits, which needs \
                              (N + 1)^4 < 2^256, and the score's steps are found over the cut \
                              points 0..=N as for thresholds)",
                domain: format!(
                    "[{size}], whose {:.3e} ordered pairs of intervals exceed those counts",
                    (1.0 + n * (n + 1.0) / 2.0).powi(2)
                ),
            });
        }
        if let Some(pairs) = interval_pairs(size)
            && self.rounds() as u128 > pairs
        {
            return Err(Error::TooManyRounds {
                rounds: self.rounds(),
                queries: pairs.min(usize::MAX as u128) as usize,
            });
        }
        let sorted = sorted_in_domain(size, data)?;
        let n = u128::from(size);
        let concepts = 1 + n * (n + 1) / 2;
        if size <= INTERVAL_XOR_LIMIT {
            self.interval_rounds(dist, &sorted, concepts * concepts, rng)
        } else if size <= INTERVAL_XOR_192_LIMIT {
            let total = U192::from_u128(concepts).mul_small(concepts);
            self.interval_rounds(dist, &sorted, total, rng)
        } else {
            let total = U256::from_u128(concepts).mul_small(concepts);
            self.interval_rounds(dist, &sorted, total, rng)
        }
    }

    /// The T rounds of [`Self::run_interval_xor`] with counts of type C (`total` the number
    /// of pairs).
    pub(super) fn interval_rounds<C: Count, R: Rng + ?Sized>(
        &self,
        mut dist: PiecewiseDistribution,
        sorted: &[Point],
        total: C,
        rng: &mut R,
    ) -> Result<IntervalMwemRun> {
        let count_below = |g: u64| sorted.partition_point(|&x| x < g) as i64;
        let n = sorted.len() as f64;
        let passes = match self.variant() {
            MwemVariant::Replay { passes } => passes,
            MwemVariant::AverageOfIterates => 0,
        };
        let mut iterates: Vec<PiecewiseDistribution> = Vec::new();
        let mut measured: BTreeSet<(Cut, Cut)> = BTreeSet::new();
        let mut order: Vec<(Cut, Cut)> = Vec::new();
        let mut measurements = Vec::new();
        let mut history: Vec<(Vec<(u64, u64)>, f64)> = Vec::new();
        for _ in 0..self.rounds() {
            let levels = IntervalPairLevels::<C>::new(&dist, sorted);
            let pair = select_unmeasured(self.selection(), total, &levels, &measured, rng)?;
            let ranges = query_ranges(pair);
            let truth: i64 = ranges
                .iter()
                .map(|&(a, b)| count_below(b) - count_below(a))
                .sum();
            let noisy = truth.saturating_add(self.measurement_noise().sample(rng));
            let target = noisy as f64 / n;
            measured.insert(pair);
            order.push(pair);
            measurements.push(noisy);
            history.push((ranges, target));
            apply_round(&mut dist, &history, passes);
            if passes == 0 {
                iterates.push(dist.clone());
            }
        }
        let synthetic = if passes == 0 {
            crate::xor_points::average(&iterates, &dist)
        } else {
            dist
        };
        let closed = |cut: Cut| cut.map(|(u, v)| (u, v - 1));
        Ok(IntervalMwemRun {
            synthetic,
            measured: order
                .into_iter()
                .map(|(x, y)| [closed(x), closed(y)])
                .collect(),
            measurements,
        })
    }
}
