//! The exponential mechanism over the labeling cells of intervals without listing them:
//! a score level and then a uniform member of it ([`privpac_classes::CellLevels`]), so the
//! stable learner (and private prediction on top of it) covers intervals on subsets whose
//! `m(m + 1)/2 + 1` cells are above [`MAX_INTERVAL_CELLS`], in O(n + m + W) memory and
//! O(n log n + m·W) time for W ≤ 700/λ levels.
//!
//! # Why this is the same mechanism as over the listed cells
//! Over the listed cells (the cover of `crate::cover` built from
//! [`ConceptClass::labeling_cells`]) the stable learner runs
//! `ExponentialMechanism::select_integer` on the scores `−(mistakes of the cell's first
//! concept)`. That sampler outputs cell c with probability exactly `ŵ(g_c)/Σ_{c'} ŵ(g_{c'})`
//! (its module documentation), where `g_c` is the integer gap between c's mistakes and the
//! fewest and `ŵ(g) = exp(−min(λ·g, 700))` is the one floating-point weight both of its
//! paths compute from the gap alone (`λ·g` and `exp` rounded as there). Here:
//! 1. the cells are grouped by gap: one level per gap `g < G`, where G is the smallest gap
//!    with `λ·G ≥ 700` in floating point ([`clamp_window`]), and one level for every cell
//!    with gap `≥ G`. Floating-point multiplication by `λ > 0` is monotone, so every cell
//!    of that last level has `λ·g ≥ 700` and weight `ŵ(G) = e^{−700}` rounded, the weight
//!    its level is given (its score is the one of gap G);
//! 2. `ExponentialMechanism::select_levels` picks level L with probability exactly
//!    `count_L·ŵ(g_L)/Σ_{L'} count_{L'}·ŵ(g_{L'})` and an offset uniform in `0..count_L`
//!    (its documentation; it is the counted path of `select_integer` itself);
//! 3. [`privpac_classes::CellLevels::cell`] maps the offsets of a level one-to-one onto its
//!    cells.
//!
//! So a cell c of level L is output with probability `ŵ(g_L)/Σ_{L'} count_{L'}·ŵ(g_{L'})
//! = ŵ(g_c)/Σ_{c'} ŵ(g_{c'})`: the same distribution, with the same floating-point
//! weights, as the listed path, and therefore the same ε-DP guarantee for one fixed cover
//! and the same stability (`crate::StableLearner`: which path runs depends on the subset T
//! alone, so the coupling of its proof, same T on neighbouring samples, sees one path).
//! Only the random bits map to outputs differently (a seed gives a different cell on the
//! two paths), which is why the
//! learner takes this path only where the listed one refuses (more than
//! [`MAX_INTERVAL_CELLS`] cells): every output below that is unchanged. The tests check
//! the two distributions cell by cell on small domains, where both exist.

use privpac_classes::{
    CellLevels, ConceptClass, Hypothesis, LabeledSample, LabelingCell, MAX_INTERVAL_CELLS, Point,
    sorted_distinct,
};
use privpac_mechanisms::{ExponentialMechanism, SCORE_CLAMP, ScoreLevel};
use rand::Rng;

use crate::error::{Error, Result};

/// The smallest integer gap G with `λ·G ≥ 700` in floating point (the gaps the
/// mechanism clamps to weight `e^{−700}`), for the mechanism's rate λ; `u64::MAX` when
/// no gap below 2^52 is clamped.
pub(crate) fn clamp_window(mechanism: &ExponentialMechanism) -> u64 {
    let rate = mechanism.rate();
    let clamped = |g: u64| rate * (g as f64) >= SCORE_CLAMP;
    let guess = (SCORE_CLAMP / rate).floor();
    // A NaN or a guess beyond 2^52 (ε tiny): no gap that fits the levels is clamped.
    if guess.is_nan() || guess >= (1u64 << 52) as f64 {
        return u64::MAX;
    }
    let mut g = guess as u64;
    while g > 0 && clamped(g - 1) {
        g -= 1;
    }
    while !clamped(g) {
        g += 1;
    }
    g
}

/// The levels of `structured` for the mechanism: the cells with gaps below
/// [`clamp_window`] one level per gap, the rest in one level.
fn scored_levels(
    mechanism: &ExponentialMechanism,
    structured: &CellLevels,
) -> Result<(Vec<privpac_classes::CellLevel>, Vec<ScoreLevel>)> {
    let levels = structured.levels(clamp_window(mechanism));
    let scored = levels
        .iter()
        .map(|level| {
            Ok(ScoreLevel {
                score: -i64::try_from(level.errors).map_err(|_| too_many(level.errors))?,
                count: u64::try_from(level.count).map_err(|_| too_many(level.count))?,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok((levels, scored))
}

fn too_many(value: impl Into<u128>) -> Error {
    Error::InvalidParameter {
        name: "cells of one level or mistakes",
        requirement: "at most 2^63",
        value: value.into() as f64,
    }
}

/// The cells of `class` on `points` by level when there are more than
/// [`MAX_INTERVAL_CELLS`] of them and the class gives them by level
/// ([`ConceptClass::labeling_cell_levels`]: intervals); `None` otherwise (the listed
/// cover applies, or refuses).
///
/// # Errors
/// The class's errors (a point outside the domain).
pub(crate) fn beyond_listing(
    class: &dyn ConceptClass,
    points: &[Point],
    sample: &LabeledSample,
) -> Result<Option<CellLevels>> {
    let m = sorted_distinct(points).len() as u128;
    // m(m + 1)/2 + 1 cells at most the limit: the listed cover applies.
    if m * (m + 1) / 2 < MAX_INTERVAL_CELLS {
        return Ok(None);
    }
    Ok(class.labeling_cell_levels(points, sample)?)
}

/// The exponential mechanism over the cells of `structured`, scored by their first
/// concepts' mistakes: a level, then a uniform member (module documentation).
///
/// # Errors
/// The mechanism's errors (more than 2^60 cells).
pub(crate) fn select_cell<R: Rng + ?Sized>(
    mechanism: &ExponentialMechanism,
    structured: &CellLevels,
    rng: &mut R,
) -> Result<LabelingCell> {
    let (levels, scored) = scored_levels(mechanism, structured)?;
    let choice = mechanism.select_levels(&scored, rng)?;
    structured
        .cell(levels[choice.level], u128::from(choice.offset))
        .ok_or(Error::InvalidParameter {
            name: "offset in a level of cells",
            requirement: "below the level's count",
            value: choice.offset as f64,
        })
}

/// The representative of a cell, as the listed cover names it: by its id when it fits 64
/// bits, else by its parts.
///
/// # Errors
/// [`Error::Unnamable`] for a cell with neither.
pub(crate) fn representative(class: &dyn ConceptClass, cell: &LabelingCell) -> Result<Hypothesis> {
    match (cell.first, cell.parts) {
        (Some(id), _) => Ok(Hypothesis::Concept { id }),
        (None, Some(parts)) => Ok(Hypothesis::from(parts)),
        (None, None) => Err(Error::Unnamable {
            class: class.name(),
        }),
    }
}

/// Every cell with the probability [`select_cell`] gives it (a level's probability over
/// its count), for the comparison with the listed path (tests) and the exact distributions
/// of audits (`crate::StableLearner::cell_level_distribution`).
///
/// # Errors
/// As [`select_cell`].
pub(crate) fn cell_probabilities(
    mechanism: &ExponentialMechanism,
    structured: &CellLevels,
) -> Result<Vec<(LabelingCell, f64)>> {
    let (levels, scored) = scored_levels(mechanism, structured)?;
    let probabilities = mechanism.level_probabilities(&scored)?;
    let mut cells = Vec::new();
    for (level, p) in levels.iter().zip(probabilities) {
        for offset in 0..level.count {
            let cell = structured
                .cell(*level, offset)
                .ok_or(Error::InvalidParameter {
                    name: "offset in a level of cells",
                    requirement: "below the level's count",
                    value: offset as f64,
                })?;
            cells.push((cell, p / level.count as f64));
        }
    }
    Ok(cells)
}

#[cfg(test)]
mod tests {
    use privpac_accounting::Privacy;
    use privpac_classes::Intervals;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::{Learner, StableLearner};

    fn mechanism(epsilon: f64) -> ExponentialMechanism {
        ExponentialMechanism::new(Privacy::pure(epsilon).unwrap(), 1.0).unwrap()
    }

    /// G is the first clamped gap, in the mechanism's own arithmetic.
    #[test]
    fn the_window_is_the_first_clamped_gap() {
        for epsilon in [1e-9, 0.01, 0.2, 1.0, 7.0, 1399.9, 1400.0, 1e6] {
            let m = mechanism(epsilon);
            let g = clamp_window(&m);
            if g == u64::MAX {
                assert!(SCORE_CLAMP / m.rate() >= (1u64 << 52) as f64);
                continue;
            }
            assert!(m.rate() * g as f64 >= SCORE_CLAMP, "ε = {epsilon}");
            assert!(
                g == 0 || m.rate() * ((g - 1) as f64) < SCORE_CLAMP,
                "ε = {epsilon}"
            );
        }
    }

    /// On intervals over 1 to 16 points, random samples and subsets, and ε from 0.5 to
    /// 2000 (where gaps from 1 on are clamped, so the tail level holds most cells), every
    /// cell's probability by levels equals its probability over the listed cells
    /// (`select_integer`'s own `log_probabilities_integer`), to 10⁻⁹ relative: the two
    /// are the same ratio of the same floating-point weights, computed in two orders.
    #[test]
    fn levels_give_every_cell_its_listed_probability() {
        let mut rng = ChaCha8Rng::seed_from_u64(3839);
        for round in 0..150 {
            let size = rng.random_range(1u64..17);
            let n = rng.random_range(1usize..25);
            let pairs: Vec<(u64, bool)> = (0..n)
                .map(|_| (rng.random_range(0..size), rng.random_bool(0.5)))
                .collect();
            let t = rng.random_range(1usize..10);
            let points: Vec<Point> = (0..t).map(|_| rng.random_range(0..size)).collect();
            let class = Intervals::new(size).unwrap();
            let sample = LabeledSample::from_pairs(class.domain(), &pairs).unwrap();
            let listed = class.labeling_cells(&points, &sample).unwrap().unwrap();
            let structured = class
                .labeling_cell_levels(&points, &sample)
                .unwrap()
                .unwrap();
            for epsilon in [0.5, 3.0, 2000.0] {
                let m = mechanism(epsilon);
                let scores: Vec<i64> = listed.iter().map(|c| -(c.first_errors as i64)).collect();
                let dense: Vec<f64> = m
                    .log_probabilities_integer(&scores)
                    .unwrap()
                    .into_iter()
                    .map(f64::exp)
                    .collect();
                let by_levels = cell_probabilities(&m, &structured).unwrap();
                assert_eq!(by_levels.len(), listed.len());
                for (cell, p) in &by_levels {
                    let at = listed
                        .iter()
                        .position(|c| c == cell)
                        .expect("a listed cell");
                    let q = dense[at];
                    assert!(
                        (p - q).abs() <= 1e-9 * q.max(f64::MIN_POSITIVE),
                        "round {round}, ε = {epsilon}, cell {cell:?}: {p} against {q}"
                    );
                }
            }
        }
    }

    /// The sampler draws with those probabilities: 40 000 seeded draws on one instance with
    /// 22 cells (the tail level included) fall in every cell within the Hoeffding bound
    /// `√(ln(2K/γ)/(2N))` of its probability, union-bounded over the K cells, false-failure
    /// rate γ = 10⁻⁶.
    #[test]
    fn draws_follow_the_cell_probabilities() {
        let class = Intervals::new(12).unwrap();
        let pairs: Vec<(u64, bool)> = (0..12u64).map(|x| (x, (3..8).contains(&x))).collect();
        let sample = LabeledSample::from_pairs(class.domain(), &pairs).unwrap();
        let points = [1, 3, 5, 7, 9, 11];
        let structured = class
            .labeling_cell_levels(&points, &sample)
            .unwrap()
            .unwrap();
        let m = mechanism(1.5);
        let probabilities = cell_probabilities(&m, &structured).unwrap();
        assert_eq!(probabilities.len(), 22);
        let draws = 40_000usize;
        let mut rng = ChaCha8Rng::seed_from_u64(3840);
        let mut counts = vec![0usize; probabilities.len()];
        for _ in 0..draws {
            let cell = select_cell(&m, &structured, &mut rng).unwrap();
            counts[probabilities.iter().position(|(c, _)| *c == cell).unwrap()] += 1;
        }
        let bound = ((2.0 * probabilities.len() as f64 / 1e-6).ln() / (2.0 * draws as f64)).sqrt();
        for ((cell, p), &count) in probabilities.iter().zip(&counts) {
            let frequency = count as f64 / draws as f64;
            assert!(
                (frequency - p).abs() <= bound,
                "{cell:?}: {frequency} against {p}"
            );
        }
    }

    /// Above the listing limit (4000 distinct points in T: 8·10^6 cells over 2^40 points)
    /// the listed cover refuses and the stable learner answers by levels, with an interval
    /// that errs on few examples of a sample labeled by [2^38, 2^39) (a constant errs on
    /// about 5000 of the 20 000; the best cell on the examples between the subset's points
    /// around the two ends, and the mechanism's utility bound adds (2/ε)(ln N + ln 10⁶) ≈ 60
    /// for N ≈ 8·10^6 cells, except with probability 10⁻⁶).
    #[test]
    fn the_stable_learner_covers_intervals_beyond_the_listing_limit() {
        let size = 1u64 << 40;
        let class = Intervals::new(size).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(3841);
        let inside = |x: u64| (1u64 << 38..1u64 << 39).contains(&x);
        let pairs: Vec<(u64, bool)> = (0..20_000)
            .map(|_| {
                let x = rng.random_range(0..size);
                (x, inside(x))
            })
            .collect();
        let sample = LabeledSample::from_pairs(class.domain(), &pairs).unwrap();
        let points: Vec<Point> = pairs[..4000].iter().map(|&(x, _)| x).collect();
        assert!(crate::cover::ScoredCover::new(&class, &points, &sample).is_err());
        let learner = StableLearner::new(1.0, 4000).unwrap();
        let predictor = learner.learn(&class, &sample, &mut rng).unwrap();
        let hypothesis = predictor.as_hypothesis().unwrap();
        let mistakes = pairs
            .iter()
            .filter(|&&(x, y)| hypothesis.eval(&class, x) != y)
            .count();
        assert!(mistakes <= 300, "{mistakes} mistakes by {hypothesis:?}");
    }
}
