//! The exponential mechanism over a finite candidate set, sampled exactly in proportion to
//! log-space weights with a proven floating-point error budget.
//!
//! # How sampling works, and why it is private
//! For candidates with scores `q_i` (higher is better) of sensitivity Δ, the exponential
//! mechanism (McSherry–Talwar 2007; Dwork–Roth Theorem 3.10) outputs `i` with probability
//! proportional to `exp(ε q_i / (2Δ))`. We work with the gaps `g_i = q_max - q_i ≥ 0` and
//! log-weights `-x_i = -λ g_i`, `λ = ε_int / (2Δ)`, so nothing overflows for scores of 10^9
//! and ε of 10^3. Three steps make the implementation exact up to a proven bound:
//!
//! 1. **Clamping.** `x_i` is clamped at [`SCORE_CLAMP`] (700): weights never underflow to
//!    zero. This is exactly the exponential mechanism on the clamped scores
//!    `q̃_i = max(q_i, q_max - 700/λ)`, which have sensitivity Δ as well (a maximum of
//!    sensitivity-Δ functions), so it is private with the same ε; the clamped candidates
//!    carry total weight at most `N·e^-700` of the maximum's.
//! 2. **Exact sampling proportional to the computed weights.** Each weight `ŵ_i =
//!    exp(-x_i)` is dominated by the envelope `2^{-k_i}`, `k_i = ⌊x_i log2 e − 10^-9⌋⁺`
//!    (the margin covers every rounding error, see `band`). We draw from the envelope with
//!    exact integer arithmetic (band totals in `u128`, a uniform `u128`, candidates with
//!    `k_i ≥ 64` handled by fair coins) and accept with the exact dyadic probability
//!    `ŵ_i · 2^{k_i} ∈ (2^(−1−10⁻⁹), 1]`. The output distribution is then *exactly*
//!    proportional to the floating-point weights `ŵ_i`, and the expected number of rounds
//!    is at most about 2 whatever the scores are, so the running time (O(N) per round)
//!    does not depend on the score values.
//! 3. **A budget for floating-point error.** The only deviation from the ideal mechanism is
//!    `|ln ŵ_i - (-λ g_i)| ≤ η`, from rounding `λ`, `g_i` and their product (relative
//!    error at most `3·2^-53` on an argument at most 700, plus at most `2^-1074` where the
//!    product is subnormal) and from `exp` itself (assumed accurate to relative `2^-40`;
//!    glibc documents 1 ulp, and a test checks the platform's `exp` on [-700, 0] against a
//!    double-double reference). This gives `η ≤ 700·3·2^-53 + 2^-1074 + 2^-40 <
//!    1.2·10^-12`; we budget [`FLOAT_ERROR_BUDGET`] = `2·10^-12`. Every output probability
//!    is then within a factor `e^{±2η}` of the ideal one, so running the ideal mechanism at
//!    `ε_int ≤ ε - 4η` gives an implementation that is ε-differentially private. ε below
//!    [`MIN_EPSILON`] is rejected.
//!
//!    Two details keep these error bounds true at the extremes of the `f64` range. `ε_int`
//!    is `ε - 4η` rounded **down** (to nearest, the deduction would vanish for ε above
//!    about 2^17, whose ulp exceeds 8·10^-12). A real-score gap `q_max - q_i` that
//!    overflows `f64` (scores near ±1.8·10^308) is computed as `2·(q_max/2 - q_i/2)`:
//!    halving is exact there (both scores are at least 2^970 in magnitude), so the gap is
//!    rounded once, as any other gap, instead of becoming +∞ and being clamped whatever λ
//!    is. `λ` itself must be a normal float (relative rounding error `2^-53`);
//!    a Δ so large against ε that `ε_int/(2Δ)` is subnormal is refused.
//!
//! The same sampler serves three entry points: `f64` scores, `i64` scores (gaps computed
//! exactly in 128-bit integers), and *score levels*: when many candidates share an integer
//! score (error counts of a concept class on a sample), a level is chosen with its
//! count-weighted probability and a candidate uniformly within it, in O(number of levels).

use rand::Rng;

use crate::error::validate_sensitivity;
use crate::error::{Error, Result};
use crate::exact_bits::RandomBits;
use privpac_accounting::rounding::add_up;
use privpac_accounting::{PldStep, Privacy, Private};

mod envelope;
mod huge;
mod wide;
pub use huge::{HugeLevelChoice, HugeScoreLevel};
pub use wide::{WideLevelChoice, WideScoreLevel};

/// Log-weights below `-SCORE_CLAMP` (relative to the best candidate) are clamped to it.
pub const SCORE_CLAMP: f64 = 700.0;
/// The budget η for floating-point deviation of a log-weight; the mechanism runs at
/// `ε - 4η` internally. See the module documentation for the derivation.
pub const FLOAT_ERROR_BUDGET: f64 = 2e-12;
/// The smallest ε the mechanism accepts (the error budget must be negligible beside it).
pub const MIN_EPSILON: f64 = 1e-9;

/// Bands `0..HEAD_BANDS` get exact integer envelope weights; larger bands share one tail.
const HEAD_BANDS: usize = 64;
/// From this many candidates on, [`ExponentialMechanism::select_integer`] groups integer
/// scores by value when their span allows (see there).
pub const COUNTED_PATH_MIN: usize = 1 << 16;

/// Largest total count the count-weighted path [`ExponentialMechanism::select_levels`]
/// supports (keeps envelope sums in `u128`); [`ExponentialMechanism::select_wide_levels`]
/// takes up to `2^128 − 1`.
pub const MAX_TOTAL_COUNT: u64 = 1 << 60;

/// A group of candidates that share one integer score, for the count-weighted path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScoreLevel {
    /// The shared score (higher is better; use `-(mistakes)` for error counts).
    pub score: i64,
    /// How many candidates have this score (at least 1).
    pub count: u64,
}

/// The outcome of the count-weighted path: a level and a uniformly chosen candidate in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct LevelChoice {
    /// Index into the slice of levels.
    pub level: usize,
    /// Which of the level's `count` candidates, uniform in `0..count`.
    pub offset: u64,
}

/// The exponential mechanism of McSherry and Talwar.
///
/// # Privacy
/// ε-differentially private (pure) for scores of sensitivity Δ, i.e. `|q_i(D) - q_i(D')| ≤
/// Δ` for every candidate on neighbouring `D, D'` (McSherry–Talwar 2007, Theorem 6;
/// Dwork–Roth Theorem 3.10). The guarantee covers the implementation: floating-point
/// deviation is bounded and paid for out of ε, as derived in the module documentation.
///
/// # Utility
/// With probability at least `1 - β` the output's score is at least
/// `q_max - (2Δ/ε)(ln N + ln(1/β))` (Dwork–Roth Theorem 3.11).
///
/// # Running time
/// O(N) per sample for N candidates (O(L) for L score levels), with at most 2 expected
/// rounds independent of the score values; O(N) extra memory (one byte per candidate).
///
/// # Errors
/// Construction: [`Error::InvalidDelta`] for a non-pure guarantee,
/// [`Error::InvalidSensitivity`], [`Error::InvalidParameter`] (ε/(2Δ) below 2^-1022),
/// [`Error::EpsilonTooSmall`]. Sampling:
/// [`Error::EmptyCandidates`], [`Error::NonFiniteScore`], and for levels
/// [`Error::ZeroCount`] and [`Error::TooManyCandidates`].
///
/// # Example
/// ```
/// use privpac_mechanisms::{ExponentialMechanism, Privacy, Private};
/// use rand::SeedableRng;
/// let mech = ExponentialMechanism::new(Privacy::pure(1.0)?, 1.0)?;
/// let scores = [3.0, 1.0, 0.0];
/// let probabilities = mech.probabilities(&scores)?;
/// assert!(probabilities[0] > probabilities[1]);
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(42);
/// let chosen = mech.select(&scores, &mut rng)?;
/// assert!(chosen < 3);
/// assert!(mech.privacy().is_pure());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # References
/// F. McSherry, K. Talwar, "Mechanism design via differential privacy", FOCS 2007.
/// C. Ilvento, "Implementing the exponential mechanism with base-2 differential privacy",
/// CCS 2020 (why floating-point implementations need an explicit error analysis).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ExponentialMechanism {
    privacy: Privacy,
    sensitivity: f64,
    /// `λ = ε_int / (2Δ)`, `ε_int = ε - 4η` rounded down.
    lambda: f64,
}

/// The bounded range of privpac's exponential mechanism at privacy ε: `ε + 4η` rounded up,
/// η = [`FLOAT_ERROR_BUDGET`] (the mechanism samples the ideal one at `ε − 4η` up to a
/// factor `e^{±2η}` per output probability, which widens the ideal range `ε − 4η` by `8η`;
/// the width of [`ExponentialMechanism::pld_step`]). The bounded-range composition rules of
/// `privpac-accounting` (`bounded_range_composition`, `PldStep::bounded_range`) take it.
pub fn exponential_mechanism_range(epsilon: f64) -> f64 {
    add_up(epsilon, 4.0 * FLOAT_ERROR_BUDGET)
}

impl ExponentialMechanism {
    /// One run of this mechanism as a privacy-loss step for `privpac-accounting`'s PLD
    /// bounds: a bounded-range step of width `ε + 4η` ([`exponential_mechanism_range`]; the
    /// mechanism samples the ideal one at `ε − 4η` up to a factor `e^{±2η}` per output
    /// probability, which widens the range by 8η).
    pub fn pld_step(&self) -> PldStep {
        // ε is finite and > 0 (validated at construction), so the width is too.
        PldStep::bounded_range(exponential_mechanism_range(self.privacy.epsilon()))
            .expect("the range of a valid exponential mechanism is a valid bounded range")
    }

    /// Builds the mechanism for a pure guarantee and score sensitivity Δ.
    ///
    /// # Errors
    /// [`Error::InvalidDelta`] if `privacy` has δ > 0, [`Error::InvalidSensitivity`] unless
    /// Δ is finite and > 0 (and `ε/(2Δ)` finite), [`Error::InvalidParameter`] if `ε/(2Δ)`
    /// is below 2^-1022 (not a normal `f64`), [`Error::EpsilonTooSmall`] for ε below
    /// [`MIN_EPSILON`].
    pub fn new(privacy: Privacy, sensitivity: f64) -> Result<Self> {
        if !privacy.is_pure() {
            return Err(Error::InvalidDelta {
                value: privacy.delta(),
            });
        }
        let sensitivity = validate_sensitivity(sensitivity)?;
        let epsilon = privacy.epsilon();
        if epsilon < MIN_EPSILON {
            return Err(Error::EpsilonTooSmall {
                value: epsilon,
                minimum: MIN_EPSILON,
            });
        }
        let lambda = internal_epsilon(epsilon) / (2.0 * sensitivity);
        if !(lambda.is_finite() && lambda > 0.0) {
            return Err(Error::InvalidSensitivity { value: sensitivity });
        }
        // A subnormal λ would carry a relative rounding error above the budget's 2^-53.
        if lambda < f64::MIN_POSITIVE {
            return Err(Error::InvalidParameter {
                name: "epsilon / (2 sensitivity)",
                range: "[2^-1022, +inf) (a normal f64)",
                value: lambda,
            });
        }
        Ok(ExponentialMechanism {
            privacy,
            sensitivity,
            lambda,
        })
    }

    /// The score sensitivity Δ.
    pub fn sensitivity(&self) -> f64 {
        self.sensitivity
    }

    /// The log-weight per unit of score, `λ = ε_int/(2Δ)` with `ε_int = ε - 4η` rounded
    /// down, that the sampler uses.
    pub fn rate(&self) -> f64 {
        self.lambda
    }

    /// Selects a candidate index for real-valued scores (higher is better).
    ///
    /// `select` is the one verb for "choose an index" across the selection mechanisms
    /// ([`crate::ReportNoisyMax::select`], [`crate::StableSelection::select`]); noise
    /// distributions `sample`.
    ///
    /// # Errors
    /// [`Error::EmptyCandidates`] or [`Error::NonFiniteScore`].
    pub fn select<R: Rng + ?Sized>(&self, scores: &[f64], rng: &mut R) -> Result<usize> {
        let best = max_finite(scores)?;
        let lambda = self.lambda;
        let gap = |i: usize| float_gap(lambda, best, scores[i]);
        let (index, _) = sample_weighted(scores.len(), gap, |_| 1, &mut RandomBits::new(rng));
        Ok(index)
    }

    /// Selects a candidate index for integer scores; gaps are computed exactly.
    ///
    /// From [`COUNTED_PATH_MIN`] candidates on, when the scores span at most about twice as
    /// many values as there are candidates, the candidates are grouped by score in one
    /// counting pass and the count-weighted path [`Self::select_levels`] picks a score and
    /// an offset, which a last pass turns into an index: the same distribution (see
    /// [`Self::select_levels`]) in three streaming passes instead of a band per candidate.
    /// A seed gives a different index on the two paths, so the path depends only on the
    /// input's size and span, never on the random draws.
    ///
    /// # Errors
    /// [`Error::EmptyCandidates`].
    pub fn select_integer<R: Rng + ?Sized>(&self, scores: &[i64], rng: &mut R) -> Result<usize> {
        if scores.len() >= COUNTED_PATH_MIN
            && let Some(index) = self.select_integer_counted(scores, rng)?
        {
            return Ok(index);
        }
        self.select_integer_banded(scores, rng)
    }

    /// [`Self::select_integer`]'s general path at every size: each candidate's weight is
    /// bounded by a power-of-two envelope band, a band and a candidate are proposed exactly
    /// and accepted with the exact ratio. The same distribution as [`Self::select_integer`];
    /// for inputs below [`COUNTED_PATH_MIN`] candidates the same index for the same seed.
    ///
    /// # Errors
    /// [`Error::EmptyCandidates`].
    pub fn select_integer_banded<R: Rng + ?Sized>(
        &self,
        scores: &[i64],
        rng: &mut R,
    ) -> Result<usize> {
        let best = *scores.iter().max().ok_or(Error::EmptyCandidates)?;
        let lambda = self.lambda;
        let gap = |i: usize| clamp_gap(lambda * integer_gap(best, scores[i]));
        let (index, _) = sample_weighted(scores.len(), gap, |_| 1, &mut RandomBits::new(rng));
        Ok(index)
    }

    /// [`Self::select_integer`]'s counting path, or `None` when the scores span too many
    /// values for a counting table.
    fn select_integer_counted<R: Rng + ?Sized>(
        &self,
        scores: &[i64],
        rng: &mut R,
    ) -> Result<Option<usize>> {
        // One pass for both ends (the input is read three times in all; this path is
        // memory-bound).
        let Some((min, max)) = scores.iter().fold(None, |range, &score| match range {
            None => Some((score, score)),
            Some((lo, hi)) => Some((score.min(lo), score.max(hi))),
        }) else {
            return Err(Error::EmptyCandidates);
        };
        let span = (i128::from(max) - i128::from(min)) as u128;
        if span > 2 * scores.len() as u128 + 1024 {
            return Ok(None);
        }
        let mut counts = vec![0u64; span as usize + 1];
        for &score in scores {
            counts[(score.wrapping_sub(min)) as u64 as usize] += 1;
        }
        let levels: Vec<ScoreLevel> = counts
            .iter()
            .enumerate()
            .filter(|&(_, &count)| count > 0)
            .map(|(offset, &count)| ScoreLevel {
                score: min.wrapping_add(offset as i64),
                count,
            })
            .collect();
        let choice = self.select_levels(&levels, rng)?;
        let target = levels[choice.level].score;
        let mut remaining = choice.offset;
        for (index, &score) in scores.iter().enumerate() {
            if score == target {
                if remaining == 0 {
                    return Ok(Some(index));
                }
                remaining -= 1;
            }
        }
        Err(Error::EmptyCandidates) // unreachable: the level has `count` members
    }

    /// The count-weighted fast path: picks a level with probability proportional to
    /// `count · exp(λ·score)`, then one of its candidates uniformly. Equivalent in
    /// distribution to [`Self::select_integer`] over the expanded candidate list, in
    /// O(number of levels).
    ///
    /// # Errors
    /// [`Error::EmptyCandidates`], [`Error::ZeroCount`], [`Error::TooManyCandidates`] if
    /// the counts sum above 2^60.
    pub fn select_levels<R: Rng + ?Sized>(
        &self,
        levels: &[ScoreLevel],
        rng: &mut R,
    ) -> Result<LevelChoice> {
        let best = validate_levels(levels)?;
        let lambda = self.lambda;
        let gap = |i: usize| clamp_gap(lambda * integer_gap(best, levels[i].score));
        let (level, offset) = sample_weighted(
            levels.len(),
            gap,
            |i| levels[i].count,
            &mut RandomBits::new(rng),
        );
        Ok(LevelChoice { level, offset })
    }

    /// The output probabilities of [`Self::select`] on `scores` (of the ideal mechanism the
    /// sampler realizes up to a factor `e^{±2η}`), for tests and teaching. Probabilities
    /// below about `1e-308` underflow to 0 here; use [`Self::log_probabilities`] for those.
    ///
    /// # Errors
    /// As for [`Self::select`].
    pub fn probabilities(&self, scores: &[f64]) -> Result<Vec<f64>> {
        Ok(self
            .log_probabilities(scores)?
            .into_iter()
            .map(f64::exp)
            .collect())
    }

    /// Natural logarithms of the output probabilities of [`Self::select`].
    ///
    /// # Errors
    /// As for [`Self::select`].
    pub fn log_probabilities(&self, scores: &[f64]) -> Result<Vec<f64>> {
        let best = max_finite(scores)?;
        let log_weights: Vec<f64> = scores
            .iter()
            .map(|&score| -float_gap(self.lambda, best, score))
            .collect();
        Ok(normalize_log_weights(log_weights))
    }

    /// Natural logarithms of the output probabilities of [`Self::select_integer`].
    ///
    /// # Errors
    /// [`Error::EmptyCandidates`].
    pub fn log_probabilities_integer(&self, scores: &[i64]) -> Result<Vec<f64>> {
        let best = *scores.iter().max().ok_or(Error::EmptyCandidates)?;
        let log_weights = scores
            .iter()
            .map(|&score| -clamp_gap(self.lambda * integer_gap(best, score)))
            .collect();
        Ok(normalize_log_weights(log_weights))
    }

    /// For each level, the probability that [`Self::select_levels`] picks it (the sum over
    /// its `count` candidates).
    ///
    /// # Errors
    /// As for [`Self::select_levels`].
    pub fn level_probabilities(&self, levels: &[ScoreLevel]) -> Result<Vec<f64>> {
        // The narrow checks (and their error, the 2^60 cap) first; the weights are the wide
        // path's, which takes the same levels with wider counts.
        validate_levels(levels)?;
        let wide: Vec<WideScoreLevel> = levels
            .iter()
            .map(|level| WideScoreLevel {
                score: level.score,
                count: u128::from(level.count),
            })
            .collect();
        self.wide_level_probabilities(&wide)
    }
}

impl Private for ExponentialMechanism {
    fn privacy(&self) -> Privacy {
        self.privacy
    }
}

/// The largest score, after checking that every score is finite.
fn max_finite(scores: &[f64]) -> Result<f64> {
    if scores.is_empty() {
        return Err(Error::EmptyCandidates);
    }
    let mut best = f64::NEG_INFINITY;
    for (index, &value) in scores.iter().enumerate() {
        if !value.is_finite() {
            return Err(Error::NonFiniteScore { index, value });
        }
        best = best.max(value);
    }
    Ok(best)
}

/// Checks levels and returns the best score.
fn validate_levels(levels: &[ScoreLevel]) -> Result<i64> {
    let mut best = None::<i64>;
    let mut total: u64 = 0;
    for (index, level) in levels.iter().enumerate() {
        if level.count == 0 {
            return Err(Error::ZeroCount { index });
        }
        total = total.saturating_add(level.count);
        best = Some(best.map_or(level.score, |b| b.max(level.score)));
    }
    if total > MAX_TOTAL_COUNT {
        return Err(Error::TooManyCandidates {
            limit: MAX_TOTAL_COUNT,
        });
    }
    best.ok_or(Error::EmptyCandidates)
}

/// `ε - 4η` rounded toward −∞ (never above the exact difference, so the deduction
/// survives rounding for every ε; see the module documentation).
fn internal_epsilon(epsilon: f64) -> f64 {
    // a − b rounded down is −((−a) + b) rounded up.
    -add_up(-epsilon, 4.0 * FLOAT_ERROR_BUDGET)
}

/// The clamped log-weight gap `λ·(best - score)` of a real score (`best ≥ score`, both
/// finite). When `best - score` overflows to +∞, both scores have magnitude at least
/// 2^970 (an overflowing difference needs `best - score ≥ 2^1024 - 2^970` with `|best|`,
/// `|score| ≤ 2^1024 - 2^971`), so halving them is exact and `best/2 - score/2` is the gap's
/// half rounded once; doubling the product is exact or overflows to +∞ (the exact value
/// is then above 700 as well). Both branches carry the module's error bound.
#[inline]
fn float_gap(lambda: f64, best: f64, score: f64) -> f64 {
    let difference = best - score;
    let x = if difference.is_finite() {
        lambda * difference
    } else {
        lambda * (0.5 * best - 0.5 * score) * 2.0
    };
    clamp_gap(x)
}

/// `best - score ≥ 0` as `f64`: exact as a `u64` before the one final rounding.
#[inline]
fn integer_gap(best: i64, score: i64) -> f64 {
    best.abs_diff(score) as f64
}

/// Clamps a log-weight gap to `[0, SCORE_CLAMP]`.
#[inline]
fn clamp_gap(x: f64) -> f64 {
    x.clamp(0.0, SCORE_CLAMP)
}

/// The envelope band `k = ⌊x log2 e − 10^-9⌋⁺` of a clamped gap `x ∈ [0, 700]` (so
/// `k ≤ 1009`). The margin 10^-9 dwarfs the rounding of `x · log2 e` (below 3·10^-13 for
/// `x ≤ 700`) and the assumed error of `exp` (2^-40 relative, i.e. below 1.3·10^-12 in
/// log2), so `2^-k ≥ ŵ = exp(-x)` holds for the floating-point weight. Since `ŵ ≤ 1` for
/// `x ≥ 0`, the clamp at 0 keeps the envelope valid near `x = 0`.
#[inline]
fn band(x: f64) -> u32 {
    // `as u32` saturates negative values to 0.
    (x * std::f64::consts::LOG2_E - ENVELOPE_MARGIN) as u32
}

/// Safety margin (in log2 units) between a weight and its envelope band.
const ENVELOPE_MARGIN: f64 = 1e-9;

/// Turns log-weights into normalized log-probabilities (log-sum-exp around the maximum,
/// which is 0 here because the best candidate has gap 0).
fn normalize_log_weights(mut log_weights: Vec<f64>) -> Vec<f64> {
    let top = log_weights
        .iter()
        .copied()
        .fold(f64::NEG_INFINITY, f64::max);
    let log_total = top
        + log_weights
            .iter()
            .map(|w| (w - top).exp())
            .sum::<f64>()
            .ln();
    for w in &mut log_weights {
        *w -= log_total;
    }
    log_weights
}

/// Draws item `i` (and a uniform unit `0..count(i)` inside it) with probability exactly
/// proportional to `count(i) · exp(-gap(i))`, where `exp` is the floating-point function.
/// `gap` must return values in `[0, SCORE_CLAMP]`; counts must sum to at most 2^60.
fn sample_weighted<R: Rng + ?Sized>(
    n_items: usize,
    gap: impl Fn(usize) -> f64,
    count: impl Fn(usize) -> u64,
    bits: &mut RandomBits<'_, R>,
) -> (usize, u64) {
    sample_weighted_with_head(HEAD_BANDS, n_items, gap, count, bits)
}

/// [`sample_weighted`] with a configurable number of exact head bands (`1..=64`); tests use
/// small values to exercise the tail path at observable probabilities.
fn sample_weighted_with_head<R: Rng + ?Sized>(
    head_bands: usize,
    n_items: usize,
    gap: impl Fn(usize) -> f64,
    count: impl Fn(usize) -> u64,
    bits: &mut RandomBits<'_, R>,
) -> (usize, u64) {
    // Pass 1: the envelope band of every item and the total count per band.
    let mut bands: Vec<u8> = Vec::with_capacity(n_items);
    let mut band_counts = vec![0u64; head_bands + 1];
    for i in 0..n_items {
        let b = band(gap(i)).min(head_bands as u32) as usize;
        bands.push(b as u8);
        band_counts[b] += count(i);
    }
    // Envelope weight per unit of count is 2^-b for band b (2^-head for the tail, whose
    // members pay the remaining factor 2^(head-k) with fair coins); in units of 2^-64 that
    // is the integer 2^(64-b).
    let unit_weight = |b: usize| -> u128 { 1u128 << (HEAD_BANDS - b) };
    let band_weights: Vec<u128> = (0..=head_bands)
        .map(|b| band_counts[b] as u128 * unit_weight(b))
        .collect();
    let total: u128 = band_weights.iter().sum();
    loop {
        // Propose a unit from the envelope.
        let mut r = bits.uniform_below_u128(total);
        let mut chosen_band = head_bands;
        for (b, &weight) in band_weights.iter().enumerate() {
            if r < weight {
                chosen_band = b;
                break;
            }
            r -= weight;
        }
        let unit = (r / unit_weight(chosen_band)) as u64;
        let (item, offset) = find_unit(&bands, chosen_band as u8, unit, &count);
        // Accept with probability ŵ / envelope = exp(-x)·2^k ∈ (2^(−1−10⁻⁹), 1], exactly.
        let x = gap(item);
        let k = band(x);
        if k as usize >= head_bands && !bits.all_zero_bits(k - head_bands as u32) {
            continue;
        }
        let ratio = scale_by_power_of_two(x, k);
        if bits.bernoulli_f64(ratio) {
            return (item, offset);
        }
    }
}

/// `exp(-x) · 2^k` computed exactly from the floating-point `exp(-x)` (multiplying by a
/// power of two is exact here: the result lies in (2^(−1−10⁻⁹), 1], about (1/2, 1], the
/// margin of `band`).
#[inline]
fn scale_by_power_of_two(x: f64, k: u32) -> f64 {
    let weight = (-x).exp();
    // 2^k with k ≤ 1009, split in two factors to stay inside the f64 range.
    let exponent = k as i32;
    let half = exponent / 2;
    let ratio = weight * power_of_two(half) * power_of_two(exponent - half);
    debug_assert!(ratio <= 1.0, "envelope must dominate the weight: {ratio}");
    ratio
}

/// `2^n` for `-1022 ≤ n ≤ 1023`, built from its bit pattern (exact by construction).
#[inline]
fn power_of_two(n: i32) -> f64 {
    debug_assert!((-1022..=1023).contains(&n));
    f64::from_bits(((n + 1023) as u64) << 52)
}

/// The item whose cumulative count range in `band` contains `unit`, and the offset inside.
fn find_unit(bands: &[u8], band: u8, unit: u64, count: &impl Fn(usize) -> u64) -> (usize, u64) {
    let mut remaining = unit;
    let mut start = 0;
    // Skip whole chunks by counting matches (vectorizes well when every count is 1).
    const CHUNK: usize = 256;
    for chunk in bands.chunks(CHUNK) {
        let in_chunk: u64 = chunk
            .iter()
            .enumerate()
            .filter(|&(_, &b)| b == band)
            .map(|(j, _)| count(start + j))
            .sum();
        if remaining < in_chunk {
            break;
        }
        remaining -= in_chunk;
        start += chunk.len();
    }
    for (i, &b) in bands.iter().enumerate().skip(start) {
        if b == band {
            let c = count(i);
            if remaining < c {
                return (i, remaining);
            }
            remaining -= c;
        }
    }
    unreachable!("the envelope only proposes units that exist")
}

#[cfg(test)]
mod pinned;
#[cfg(test)]
mod tests;
