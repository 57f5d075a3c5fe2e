//! MWEM on the XOR class of point functions, `POINT_[N] ⊕ POINT_[N]`, by its structure:
//! the synthetic distribution is a [`PiecewiseDistribution`] and the exponential mechanism
//! runs over classes of equal score instead of over a query matrix of `N² × N` bits.
//!
//! # The queries
//! The pair `(a, b)` of [`privpac_classes::XorPoints`] (id `a·N + b`, as
//! [`privpac_classes::Xor`] numbers the pairs of [`privpac_classes::Points`]) is
//! `1[x = a] ⊕ 1[x = b]`: the indicator of `{a, b}` for `a ≠ b`, of the empty set for
//! `a = b`. Its answer on a distribution A is `A(a) + A(b)` (or 0), its count on the data
//! `D(a) + D(b)` (or 0). So [`Mwem`]'s score of the pair on the current synthetic
//! distribution, `⌊|n·q(A) − a_q|⌋`, is `floor_abs_gap(n·(A(a) + A(b)), D(a) + D(b))` for
//! `a ≠ b` and 0 on the diagonal.
//!
//! # Classes of equal score
//! A(x) is constant on each piece of the synthetic distribution, and D(x) is 0 away from
//! the data. Call two points equivalent when they lie in the same piece and have the same
//! data count: their A and D are equal, so any pair's score depends only on the classes of
//! its two points. With V classes (at most the pieces times one more than the distinct
//! counts per piece, independent of N) the N² ordered pairs fall into:
//! - the N diagonal pairs `(a, a)`, score 0;
//! - for classes `c₁ ≠ c₂`, the `|c₁|·|c₂|` pairs with `a ∈ c₁`, `b ∈ c₂`, all of score
//!   `s(c₁, c₂) = floor_abs_gap(n·(A₁ + A₂), D₁ + D₂)`;
//! - for one class c, its `|c|·(|c| − 1)` off-diagonal pairs, of score `s(c, c)`.
//!
//! These blocks partition the N² pairs, so the number of pairs at every score k is the sum
//! of the sizes of the blocks of score k (exact, in `u128`: N² < 2^128 for every N < 2^64).
//!
//! # Why the selection is the exponential mechanism over the dense query list
//! The exponential mechanism over a finite list of candidates with integer scores gives
//! candidate q the probability `exp(λ·s_q)/Σ_{q′} exp(λ·s_{q′})`, which depends only on
//! q's score and on the number of candidates at each score. The structured selection draws
//! a score level k with probability `m_k·exp(λ·k)/Σ_j m_j·exp(λ·j)` (`m_k` the number of
//! unmeasured pairs of score k), then a uniform unmeasured pair of level k: each pair of
//! score k gets `exp(λ·k)/Σ_j m_j·exp(λ·j)`, exactly its probability under the mechanism
//! over the unmeasured pairs one by one. The uniform member is exact: the level's pairs
//! are enumerated by a bijection from `0..(count)` (blocks in a fixed order, the diagonal
//! first in level 0, row-major inside a block, a class's members in increasing order), the
//! measured pairs of the level are located by the inverse map and skipped, and a uniform
//! offset among the unmeasured ones is drawn by the mechanism's level sampler
//! ([`privpac_mechanisms::ExponentialMechanism::select_levels`], or
//! [`privpac_mechanisms::ExponentialMechanism::select_wide_levels`] above 2^60 pairs). The
//! scores are [`Mwem`]'s own integer scores on the same distribution, so the sensitivity-1
//! argument and the privacy proof of [`Mwem`] apply unchanged. The tests enumerate both
//! distributions on small domains and compare them pair by pair.
//!
//! # The update
//! Measuring `{a, b}` multiplies the masses of a and b by one factor and every other point
//! by another: the pieces holding a and b are cut so that a and b are pieces of one point,
//! and every piece is rescaled. After T rounds there are at most `4T + 1` pieces. In exact
//! arithmetic this is the dense histogram of the same updates (tested against
//! [`Mwem::run`] on the dense XOR class: its measured pairs and noisy counts replayed here
//! give the same distribution up to rounding).

use std::collections::{BTreeMap, HashMap};

use privpac_classes::Point;
use privpac_mechanisms::WideScoreLevel;
use rand::Rng;

use crate::error::{Error, Result};
use crate::mwem::{Mwem, MwemVariant, floor_abs_gap, update_factors};
use crate::ordered::select;
use crate::pieces::PiecewiseDistribution;

/// What one MWEM run on `POINT_[N] ⊕ POINT_[N]` did.
#[derive(Debug, Clone, PartialEq)]
pub struct PointMwemRun {
    /// The synthetic distribution (the last iterate for replay, the average of iterates
    /// otherwise).
    pub synthetic: PiecewiseDistribution,
    /// The measured pairs, in round order, as ids `a·N + b` of
    /// [`privpac_classes::XorPoints`] (the ids of [`privpac_classes::Xor`] of the points),
    /// in `u128` (above 2^32 points they exceed u64).
    pub measured: Vec<u128>,
    /// The noisy counts of the measured pairs, in round order.
    pub measurements: Vec<i64>,
}

/// The points of one class: data points with one count in one piece, or the points of a
/// piece that hold no data.
#[derive(Debug, Clone)]
enum Members {
    /// These points, increasing.
    Data(Vec<Point>),
    /// The points of `[start, end)` other than the distinct data points
    /// `distinct[lo..hi]` (those inside the piece).
    Gap { start: u64, lo: usize, hi: usize },
}

/// A class of equivalent points (same piece, same data count).
#[derive(Debug, Clone)]
struct Class {
    /// A(x) of every member.
    mass: f64,
    /// D(x) of every member.
    count: i64,
    /// The number of members.
    size: u128,
    members: Members,
}

/// A block of a score level: the diagonal, or the pairs of two classes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Block {
    Diagonal,
    Pair(usize, usize),
}

/// The classes of one round and the enumeration of every score level.
#[derive(Debug)]
pub(crate) struct PairLevels<'a> {
    classes: Vec<Class>,
    /// Distinct data points, increasing, with their counts.
    distinct: &'a [(Point, i64)],
    /// `(piece, count)` → class.
    index: HashMap<(usize, i64), usize>,
    /// The number of pairs of each score.
    counts: BTreeMap<i64, u128>,
    /// For the block of classes `(c₁, c₂)` (index `c₁·V + c₂`, row-major: the enumeration
    /// order): its score, the number of pairs of its level before it, and its pairs.
    block_at: Vec<(i64, u128, u128)>,
    /// N.
    size: u64,
}

impl<'a> PairLevels<'a> {
    /// The classes of `dist` and the data (`distinct`: points with counts, increasing), and
    /// the enumeration of the N² pairs by score.
    pub(crate) fn new(dist: &PiecewiseDistribution, distinct: &'a [(Point, i64)], n: f64) -> Self {
        let mut classes = Vec::new();
        let mut index = HashMap::new();
        for (piece, (start, end, mass)) in dist.pieces().enumerate() {
            // The mass of one point of the piece, by `mass_of`'s formula.
            let point_mass = mass / (end - start) as f64;
            let lo = distinct.partition_point(|&(x, _)| x < start);
            let hi = distinct.partition_point(|&(x, _)| x < end);
            let mut by_count: BTreeMap<i64, Vec<Point>> = BTreeMap::new();
            for &(x, c) in &distinct[lo..hi] {
                by_count.entry(c).or_default().push(x);
            }
            for (count, points) in by_count {
                index.insert((piece, count), classes.len());
                classes.push(Class {
                    mass: point_mass,
                    count,
                    size: points.len() as u128,
                    members: Members::Data(points),
                });
            }
            let gap = u128::from(end - start) - (hi - lo) as u128;
            if gap > 0 {
                index.insert((piece, 0), classes.len());
                classes.push(Class {
                    mass: point_mass,
                    count: 0,
                    size: gap,
                    members: Members::Gap { start, lo, hi },
                });
            }
        }
        let v = classes.len();
        // Per-score running totals; level 0 starts with the N diagonal pairs.
        let mut totals: HashMap<i64, u128> = HashMap::new();
        totals.insert(0, u128::from(dist.size()));
        let mut block_at = Vec::with_capacity(v * v);
        for (i, ci) in classes.iter().enumerate() {
            for (j, cj) in classes.iter().enumerate() {
                let pairs = if i == j {
                    ci.size * (ci.size - 1)
                } else {
                    ci.size * cj.size
                };
                let score = floor_abs_gap(n * (ci.mass + cj.mass), ci.count + cj.count);
                let total = totals.entry(score).or_default();
                block_at.push((score, *total, pairs));
                *total += pairs;
            }
        }
        let counts = totals.into_iter().filter(|&(_, c)| c > 0).collect();
        PairLevels {
            classes,
            distinct,
            index,
            counts,
            block_at,
            size: dist.size(),
        }
    }

    /// The number of pairs at every score, in increasing order of score.
    pub(crate) fn counts(&self) -> &BTreeMap<i64, u128> {
        &self.counts
    }

    /// The class of point x (in piece `piece`).
    fn class_of(&self, piece: usize, x: Point) -> usize {
        let count = match self.distinct.binary_search_by_key(&x, |&(p, _)| p) {
            Ok(k) => self.distinct[k].1,
            Err(_) => 0,
        };
        self.index[&(piece, count)]
    }

    /// The rank of x among the members of its class.
    fn rank_in(&self, class: usize, x: Point) -> u128 {
        match &self.classes[class].members {
            Members::Data(points) => points.partition_point(|&p| p < x) as u128,
            Members::Gap { start, lo, hi } => {
                let before = self.distinct[*lo..*hi].partition_point(|&(p, _)| p < x);
                u128::from(x - start) - before as u128
            }
        }
    }

    /// The member of rank `rank` of a class.
    fn member(&self, class: usize, rank: u128) -> Point {
        match &self.classes[class].members {
            Members::Data(points) => points[rank as usize],
            Members::Gap { start, lo, hi } => {
                // The rank-th point of [start, end) skipping the data points inside.
                let mut x = start + rank as u64;
                for &(p, _) in &self.distinct[*lo..*hi] {
                    if p <= x {
                        x += 1;
                    } else {
                        break;
                    }
                }
                x
            }
        }
    }

    /// The score of the pair `(a, b)` and its rank in the enumeration of its level.
    pub(crate) fn locate(&self, dist: &PiecewiseDistribution, a: Point, b: Point) -> (i64, u128) {
        if a == b {
            return (0, u128::from(a));
        }
        let (ca, cb) = (
            self.class_of(dist.piece_of(a), a),
            self.class_of(dist.piece_of(b), b),
        );
        let (ra, rb) = (self.rank_in(ca, a), self.rank_in(cb, b));
        let (score, offset, _) = self.block_at[ca * self.classes.len() + cb];
        let within = if ca == cb {
            ra * (self.classes[ca].size - 1) + rb - u128::from(rb > ra)
        } else {
            ra * self.classes[cb].size + rb
        };
        (score, offset + within)
    }

    /// N.
    fn size(&self) -> u64 {
        self.size
    }

    /// The pair of rank `rank` in the enumeration of score level `score`.
    pub(crate) fn pair_at(&self, score: i64, rank: u128) -> (Point, Point) {
        // The level's blocks in enumeration order: the diagonal first in level 0, then the
        // blocks of that score with pairs, row-major (one O(V²) scan, once per round).
        let v = self.classes.len();
        let diagonal = (score == 0).then_some((Block::Diagonal, 0u128, u128::from(self.size())));
        let (block, before, _) = diagonal
            .into_iter()
            .chain(
                self.block_at
                    .iter()
                    .enumerate()
                    .filter_map(|(k, &(s, before, pairs))| {
                        (s == score && pairs > 0).then_some((
                            Block::Pair(k / v, k % v),
                            before,
                            pairs,
                        ))
                    }),
            )
            .find(|&(_, before, pairs)| rank < before + pairs)
            .expect("the rank is below the level's count");
        let r = rank - before;
        match block {
            Block::Diagonal => (r as u64, r as u64),
            Block::Pair(i, j) if i == j => {
                let width = self.classes[i].size - 1;
                let (ra, t) = (r / width, r % width);
                let rb = t + u128::from(t >= ra);
                (self.member(i, ra), self.member(i, rb))
            }
            Block::Pair(i, j) => {
                let width = self.classes[j].size;
                (self.member(i, r / width), self.member(j, r % width))
            }
        }
    }
}

/// The mass of `{a, b}` (`a ≠ b`), after cutting a and b into pieces of one point.
fn pair_mass(dist: &mut PiecewiseDistribution, a: Point, b: Point) -> f64 {
    dist.range_mass(a, a + 1) + dist.range_mass(b, b + 1)
}

/// The multiplicative-weights update of the query `{a, b}` (`a ≠ b`) towards `target`:
/// the masses of a and b times `inside`, every other point's times `outside`, normalized
/// (the dense [`Mwem`] update of the same query).
pub(crate) fn update_pair(dist: &mut PiecewiseDistribution, a: Point, b: Point, target: f64) {
    let current = pair_mass(dist, a, b);
    let (inside, outside) = update_factors(target, current);
    let (pa, pb) = (dist.piece_of(a), dist.piece_of(b));
    let mut total = 0.0;
    for (i, m) in dist.masses.iter_mut().enumerate() {
        *m *= if i == pa || i == pb { inside } else { outside };
        total += *m;
    }
    if total > 0.0 && total.is_finite() {
        dist.masses.iter_mut().for_each(|m| *m /= total);
    }
}

/// Round t's updates after its measurement: the update of the newest measurement in
/// `history` (`(a, b, target)` per round), then `passes` replays of all of them in order
/// (post-processing of the released pairs, see [`Mwem`]). Pairs `a = b` (the empty set)
/// leave the distribution as it is.
///
/// The replay runs on unnormalized masses: after the round's update every measured point is
/// a piece of its own (pieces are only ever cut), and the update `A ∝ A·exp(η·q)` of a pair
/// multiplies its two pieces by `e^η` (the ratio of the factors of [`update_factors`]) and
/// leaves the others, so one update is O(1) with the running total, and the masses are
/// normalized (and the total recomputed) once per pass. In exact arithmetic this is the
/// normalized update of every step.
pub(crate) fn apply_round(
    dist: &mut PiecewiseDistribution,
    history: &[(Point, Point, f64)],
    passes: usize,
) {
    if let Some(&(a, b, target)) = history.last()
        && a != b
    {
        update_pair(dist, a, b, target);
    }
    if passes == 0 {
        return;
    }
    // Cut first (a no-op: every measured point is already a piece), then locate.
    let pairs: Vec<(Point, Point, f64)> = history.iter().copied().filter(|h| h.0 != h.1).collect();
    for &(a, b, _) in &pairs {
        pair_mass(dist, a, b);
    }
    let slots: Vec<(usize, usize, f64)> = pairs
        .iter()
        .map(|&(a, b, target)| (dist.piece_of(a), dist.piece_of(b), target))
        .collect();
    let masses = &mut dist.masses;
    for _ in 0..passes {
        let mut total: f64 = masses.iter().sum();
        for &(pa, pb, target) in &slots {
            let before = masses[pa] + masses[pb];
            let (inside, outside) = update_factors(target, before / total);
            let ratio = inside / outside;
            masses[pa] *= ratio;
            masses[pb] *= ratio;
            total += masses[pa] + masses[pb] - before;
        }
        let total: f64 = masses.iter().sum();
        if total > 0.0 && total.is_finite() {
            masses.iter_mut().for_each(|m| *m /= total);
        }
    }
}

/// The distinct points of `data` with their counts, increasing; the first point outside
/// `[size]` is an error.
fn tally(size: u64, data: &[Point]) -> Result<Vec<(Point, i64)>> {
    let sorted = crate::ordered::sorted_in_domain(size, data)?;
    let mut distinct: Vec<(Point, i64)> = Vec::new();
    for x in sorted {
        match distinct.last_mut() {
            Some((p, c)) if *p == x => *c += 1,
            _ => distinct.push((x, 1)),
        }
    }
    Ok(distinct)
}

impl Mwem {
    /// MWEM with the queries of `POINT_[N] ⊕ POINT_[N]` (all N² ordered pairs of points,
    /// the sanitizer learners' C⊕ for point functions) over a [`PiecewiseDistribution`],
    /// at every N up to `2^64 − 1`, in time independent of N (see the module
    /// documentation of `xor_points`).
    ///
    /// The algorithm is [`Mwem`]'s, on the same queries and with the same integer scores:
    /// each round selects among the unmeasured pairs with the exponential mechanism at
    /// `ε/(2T)` on `⌊|n·q(A) − a_q|⌋`, measures `a_q + Lap_Z(2T/ε)` and applies the
    /// multiplicative-weights update of the pair's set (nothing for `a = b`, whose set is
    /// empty: every point gets the same factor), with replay or the average of iterates as
    /// the variant says.
    ///
    /// # Privacy
    /// ε-differentially private (pure) for data sets that differ in one replaced point:
    /// the proof on [`Mwem`] (Hardt–Ligett–McSherry; 2T steps of `ε/(2T)`, basic
    /// composition, Dwork–Roth Theorem 3.16, replay and the output post-processing), since
    /// the selection draws each unmeasured pair with exactly the exponential mechanism's
    /// probability on the dense list of pairs (the module documentation proves it) and the
    /// scores are the same sensitivity-1 scores.
    ///
    /// # Running time
    /// Per round O(V²) for V classes (V ≤ (#pieces)·(1 + distinct data counts per piece),
    /// #pieces ≤ 4T + 1) plus O(T·log) to place the measured pairs, and replay on the O(T)
    /// pieces; nothing proportional to N.
    ///
    /// # Errors
    /// [`Error::EmptyData`]; [`Error::Class`] wrapping a point outside `[N]`;
    /// [`Error::InvalidParameter`] for N = 0; [`Error::TooManyRounds`] if T exceeds N²;
    /// [`Error::Mechanism`].
    pub fn run_point_xor<R: Rng + ?Sized>(
        &self,
        size: u64,
        data: &[Point],
        rng: &mut R,
    ) -> Result<PointMwemRun> {
        if data.is_empty() {
            return Err(Error::EmptyData);
        }
        let mut dist = PiecewiseDistribution::uniform(size)?;
        let pairs = u128::from(size) * u128::from(size);
        if self.rounds() as u128 > pairs {
            return Err(Error::TooManyRounds {
                rounds: self.rounds(),
                queries: pairs.min(usize::MAX as u128) as usize,
            });
        }
        let distinct = tally(size, data)?;
        let count_of = |x: Point| match distinct.binary_search_by_key(&x, |&(p, _)| p) {
            Ok(k) => distinct[k].1,
            Err(_) => 0,
        };
        let n = data.len() as f64;
        let passes = match self.variant() {
            MwemVariant::Replay { passes } => passes,
            MwemVariant::AverageOfIterates => 0,
        };
        let mut iterates: Vec<PiecewiseDistribution> = Vec::new();
        let mut measured: Vec<(Point, Point)> = Vec::new();
        let mut measurements = Vec::new();
        let mut history: Vec<(Point, Point, f64)> = Vec::new();
        for _ in 0..self.rounds() {
            let levels = PairLevels::new(&dist, &distinct, n);
            let mut counts = levels.counts().clone();
            let mut excluded: BTreeMap<i64, Vec<u128>> = BTreeMap::new();
            for &(a, b) in &measured {
                let (score, rank) = levels.locate(&dist, a, b);
                *counts.get_mut(&score).expect("a measured pair has a level") -= 1;
                excluded.entry(score).or_default().push(rank);
            }
            let score_levels: Vec<WideScoreLevel> = counts
                .iter()
                .filter(|&(_, &c)| c > 0)
                .map(|(&score, &count)| WideScoreLevel { score, count })
                .collect();
            let (level, offset) = select(self.selection(), pairs, &score_levels, rng)?;
            let score = score_levels[level].score;
            let mut rank = offset;
            if let Some(ranks) = excluded.get_mut(&score) {
                ranks.sort_unstable();
                for &r in ranks.iter() {
                    if r <= rank {
                        rank += 1;
                    }
                }
            }
            let (a, b) = levels.pair_at(score, rank);
            let truth = if a == b { 0 } else { count_of(a) + count_of(b) };
            let noisy = truth.saturating_add(self.measurement_noise().sample(rng));
            measured.push((a, b));
            measurements.push(noisy);
            history.push((a, b, noisy as f64 / n));
            apply_round(&mut dist, &history, passes);
            if passes == 0 {
                iterates.push(dist.clone());
            }
        }
        let synthetic = if passes == 0 {
            average(&iterates, &dist)
        } else {
            dist
        };
        let measured = measured
            .into_iter()
            .map(|(a, b)| u128::from(a) * u128::from(size) + u128::from(b))
            .collect();
        Ok(PointMwemRun {
            synthetic,
            measured,
            measurements,
        })
    }
}

/// The average of the iterates on the pieces of `last` (which refine every iterate:
/// pieces are only ever cut).
pub(crate) fn average(
    iterates: &[PiecewiseDistribution],
    last: &PiecewiseDistribution,
) -> PiecewiseDistribution {
    let mut sum = vec![0.0f64; last.len()];
    for iterate in iterates {
        for (s, m) in sum.iter_mut().zip(iterate.masses_on(last)) {
            *s += m;
        }
    }
    let total: f64 = sum.iter().sum();
    let mut out = last.clone();
    out.masses = sum.into_iter().map(|m| m / total).collect();
    out
}

#[cfg(test)]
mod tests;
