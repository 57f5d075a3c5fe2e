//! When a sample-complexity search stops early because the accuracy is out of reach: a
//! learner's proven error floor above α ([`privpac_learners::Learner::error_floor`]), or a
//! success rate that has plateaued below 1 − β (the plateau rule below, a one-sided exact binomial
//! test with a stated false-stop rate, on top of evidence that more data stopped helping).
//!
//! **The plateau rule.** The search doubles n; after a failing size it looks at the last
//! [`PLATEAU_WINDOW`] + 1 sizes of the doubling (a factor 2^[`PLATEAU_WINDOW`] in n) that the
//! learner ran (sizes it refused as too small do not count) and stops when all of these hold:
//! 1. *learning has begun*: some size at or before the window's first had a mean excess
//!    error at most the onset level `min(1.5α, e₀/4)`, with `e₀` the smaller excess error
//!    of the two constant hypotheses (a learner still guessing, such as the exponential
//!    mechanism over a large class on a small sample, has not begun, however flat its
//!    curve; a uniformly random threshold already errs e₀/2 in mean against the middle
//!    threshold, so the onset sits at half of that, below what a guess reaches by chance:
//!    an interior-point learner guessing on 10 trials at tiny n, with a mean excess error
//!    of 0.21 against e₀/2 = 0.25, once passed the old onset `e₀/2`);
//! 2. *no more successes*: the success rate at the last size is at most the one at the
//!    first;
//! 3. *evidence that more data stopped helping*, one of ([`PlateauEvidence`]):
//!    - *a positive rate that does not improve* ([`PlateauEvidence::PositiveRate`]): every
//!      size of the window had at least one success (the rate is strictly above 0, so the
//!      learner reaches α on some samples, and eight times the data did not make that more
//!      frequent), and the mean excess error at the last size is at least the first's minus
//!      α/10;
//!    - *a mean error that does not decrease* ([`PlateauEvidence::FlatError`]): the mean
//!      excess error at the last size is at least the first's (eight times the data bought
//!      no reduction at all);
//!
//!    zero successes at every size with a mean error that still decreases, however slowly,
//!    is *not* evidence: the needed n may simply be larger (a randomized-response predictor
//!    whose flip equals α needs an exact hypothesis, which comes only near |X| examples),
//!    and the search goes on doubling (to `max_size`, or until a caller's time budget);
//! 4. *the success rate at the last size is below 1 − β*: the exact binomial tail
//!    `Pr[Bin(T, 1 − β) ≤ s] ≤ γ` with `γ =` [`PLATEAU_LEVEL`] = 10⁻⁴ for s successes in
//!    T trials.
//!
//! **False-stop rate.** Condition 4 is a one-sided test of the null "the success
//! probability at this size is at least 1 − β" at level γ: a learner that already succeeds
//! (in probability) at the size where the rule is checked is stopped with probability at
//! most γ = 10⁻⁴ per check, whatever conditions 1 to 3 say (they only make stopping rarer),
//! so at most 20·γ = 2·10⁻³ over the at most 20 doublings of a search to
//! [`crate::limits::MAX_SAMPLE_SIZE`]. That a learner failing at the window's sizes would
//! not succeed at larger ones is not proved (no learner-independent statement can be: a
//! learner may change its behaviour at any n): conditions 2 and 3 are the evidence, a
//! factor 8 in n without gain, and the stop's reason says which evidence it saw at which
//! sizes.

use privpac_learners::ErrorFloor;
use serde::Serialize;

/// What the plateau rule reads of one size's trials (the fields of
/// [`crate::TrialOutcome`] it needs; kept here so that this module, which the error type
/// uses, depends on no module that uses the error type).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Observed {
    /// Examples per trial.
    pub(crate) sample_size: usize,
    /// Trials run.
    pub(crate) trials: usize,
    /// Trials that succeeded.
    pub(crate) successes: usize,
    /// The mean true error.
    pub(crate) mean_error: f64,
}

/// Doublings the plateau rule looks back over (3: the last four sizes, a factor 8 in n).
pub const PLATEAU_WINDOW: usize = 3;

/// The level γ of the plateau rule's one-sided binomial test: the largest probability of
/// stopping at a size where the learner's success probability is at least 1 − β.
pub const PLATEAU_LEVEL: f64 = 1e-4;

/// Which evidence of condition 3 of the plateau rule (module documentation) a stop saw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PlateauEvidence {
    /// Every size of the window had at least one success, the last no more often than the
    /// first, and the mean excess error fell by less than α/10.
    PositiveRate,
    /// The mean excess error at the last size is at least the first's.
    FlatError,
}

impl std::fmt::Display for PlateauEvidence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            PlateauEvidence::PositiveRate => {
                "a success rate above 0 at every size that did not improve"
            }
            PlateauEvidence::FlatError => "a mean excess error that did not decrease",
        })
    }
}

/// Why a search concluded that α is out of reach.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum StopReason {
    /// The learner proves that its excess error is at least `excess_floor` > α at every
    /// size of the search (checked on the learner built at each size of the doubling).
    ErrorFloor {
        /// The proven lower bound on the excess error, `flip·(1 − 2ν)` (ν the label noise).
        excess_floor: f64,
        /// The learner's floor on either label's probability at any point.
        flip: f64,
        /// The learner's statement of where the floor comes from.
        source: String,
    },
    /// The success rate has plateaued below 1 − β (see the module documentation).
    Plateau {
        /// The window's sizes, in order.
        sizes: Vec<usize>,
        /// Successes at each of the window's sizes.
        successes: Vec<usize>,
        /// Trials per size.
        trials: usize,
        /// The mean excess error at each of the window's sizes.
        mean_excess_errors: Vec<f64>,
        /// Which evidence that more data stopped helping the rule saw.
        evidence: PlateauEvidence,
        /// `Pr[Bin(T, 1 − β) ≤ s]` at the last size.
        p_value: f64,
        /// The test's level γ.
        level: f64,
    },
}

impl std::fmt::Display for StopReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StopReason::ErrorFloor {
                excess_floor,
                source,
                ..
            } => write!(
                f,
                "the learner's excess error is at least {excess_floor:.6} at every size ({source})"
            ),
            StopReason::Plateau {
                sizes,
                successes,
                trials,
                mean_excess_errors,
                evidence,
                p_value,
                level,
            } => write!(
                f,
                "the success rate plateaued below 1 − β: {} of {trials} successes at n = {}, no better than {} at n = {}, mean excess error {:.4} against {:.4} ({evidence}), and Pr[Bin({trials}, 1 − β) ≤ {}] = {p_value:.2e} ≤ {level:e}",
                successes.last().copied().unwrap_or(0),
                sizes.last().copied().unwrap_or(0),
                successes.first().copied().unwrap_or(0),
                sizes.first().copied().unwrap_or(0),
                mean_excess_errors.last().copied().unwrap_or(0.0),
                mean_excess_errors.first().copied().unwrap_or(0.0),
                successes.last().copied().unwrap_or(0),
            ),
        }
    }
}

/// The floor stop for a learner with `floor` on a scenario with label noise `label_noise`:
/// `Some` when its excess floor exceeds α.
pub(crate) fn floor_stop(floor: &ErrorFloor, label_noise: f64, alpha: f64) -> Option<StopReason> {
    let excess_floor = floor.excess_floor(label_noise);
    (excess_floor > alpha).then(|| StopReason::ErrorFloor {
        excess_floor,
        flip: floor.flip,
        source: floor.source.clone(),
    })
}

/// `Pr[Bin(trials, p) ≤ successes]`, summed in log space from the mode downwards (exact up
/// to floating-point rounding; at most `trials + 1` terms).
pub fn binomial_lower_tail(successes: usize, trials: usize, p: f64) -> f64 {
    if successes >= trials || p <= 0.0 {
        return 1.0;
    }
    if p >= 1.0 {
        return 0.0;
    }
    // ln C(T, k) by a running sum of ln((T − i)/(i + 1)).
    let (lp, lq) = (p.ln(), (1.0 - p).ln());
    let mut ln_choose = 0.0;
    let mut terms = Vec::with_capacity(successes + 1);
    for k in 0..=successes {
        terms.push(ln_choose + k as f64 * lp + (trials - k) as f64 * lq);
        ln_choose += ((trials - k) as f64).ln() - ((k + 1) as f64).ln();
    }
    let max = terms.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let sum: f64 = terms.iter().map(|t| (t - max).exp()).sum();
    (max + sum.ln()).exp().min(1.0)
}

/// What the plateau rule knows about the scenario.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct PlateauContext {
    /// α.
    pub(crate) alpha: f64,
    /// The target success rate 1 − β.
    pub(crate) target: f64,
    /// OPT (subtracted from each outcome's mean true error).
    pub(crate) opt: f64,
    /// The onset level `min(1.5α, e₀/4)`.
    pub(crate) onset: f64,
}

impl PlateauContext {
    /// The context for α, β, OPT and the constants' smaller excess error `e₀` (None when
    /// unknown: the onset is then 1.5α).
    pub(crate) fn new(alpha: f64, beta: f64, opt: f64, constant_excess: Option<f64>) -> Self {
        let onset = constant_excess.map_or(1.5 * alpha, |e| (1.5 * alpha).min(e / 4.0));
        PlateauContext {
            alpha,
            target: 1.0 - beta,
            opt,
            onset,
        }
    }
}

/// The plateau rule (module documentation) over the doubling's outcomes so far, in order,
/// sizes the learner refused left out. `Some` means stop.
pub(crate) fn plateau(history: &[Observed], context: PlateauContext) -> Option<StopReason> {
    let len = history.len();
    if len < PLATEAU_WINDOW + 1 {
        return None;
    }
    let start = len - PLATEAU_WINDOW - 1;
    let excess = |o: &Observed| o.mean_error - context.opt;
    // 1. learning has begun at or before the window's first size.
    if !history[..=start].iter().any(|o| excess(o) <= context.onset) {
        return None;
    }
    let window = &history[start..];
    let (first, last) = (&window[0], &window[PLATEAU_WINDOW]);
    // 2. no more successes at the last size than at the first.
    if last.successes * first.trials > first.successes * last.trials {
        return None;
    }
    // 3. evidence that more data stopped helping: a positive rate that does not improve,
    // or a mean error that does not decrease. Zero successes with a decreasing mean error
    // is neither.
    let evidence = if excess(last) >= excess(first) {
        PlateauEvidence::FlatError
    } else if window.iter().all(|o| o.successes > 0)
        && excess(last) >= excess(first) - context.alpha / 10.0
    {
        PlateauEvidence::PositiveRate
    } else {
        return None;
    };
    // 4. the last size's success rate is significantly below 1 − β.
    let p_value = binomial_lower_tail(last.successes, last.trials, context.target);
    if p_value > PLATEAU_LEVEL {
        return None;
    }
    Some(StopReason::Plateau {
        sizes: window.iter().map(|o| o.sample_size).collect(),
        successes: window.iter().map(|o| o.successes).collect(),
        trials: last.trials,
        mean_excess_errors: window.iter().map(excess).collect(),
        evidence,
        p_value,
        level: PLATEAU_LEVEL,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_binomial_tail_matches_direct_sums() {
        // Pr[Bin(4, 1/2) ≤ 1] = 5/16; Pr[Bin(20, 0.8) ≤ 20] = 1.
        assert!((binomial_lower_tail(1, 4, 0.5) - 5.0 / 16.0).abs() < 1e-12);
        assert_eq!(binomial_lower_tail(20, 20, 0.8), 1.0);
        // Pr[Bin(20, 0.8) ≤ 8] by the definition.
        let direct: f64 = (0..=8u32)
            .map(|k| {
                let choose: f64 = (0..k).map(|i| (20 - i) as f64 / (i + 1) as f64).product();
                choose * 0.8f64.powi(k as i32) * 0.2f64.powi(20 - k as i32)
            })
            .sum();
        assert!(
            (binomial_lower_tail(8, 20, 0.8) / direct - 1.0).abs() < 1e-9,
            "{direct}"
        );
    }

    fn outcome(n: usize, successes: usize, mean_error: f64) -> Observed {
        Observed {
            sample_size: n,
            trials: 20,
            successes,
            mean_error,
        }
    }

    #[test]
    fn the_rule_needs_onset_no_improvement_and_a_significant_shortfall() {
        let context = PlateauContext::new(0.1, 0.2, 0.0, Some(0.5));
        let flat = |successes, error| {
            (0..4)
                .map(|i| outcome(4 << i, successes, error))
                .collect::<Vec<_>>()
        };
        // Flat at 2/20 with mean excess 0.11 (past the onset 0.15): stop.
        assert!(matches!(
            plateau(&flat(2, 0.11), context),
            Some(StopReason::Plateau { .. })
        ));
        // Flat but still guessing (mean excess 0.3 > the onset): go on.
        assert_eq!(plateau(&flat(2, 0.3), context), None);
        // Guessing at the level of a random threshold by chance (0.21 < e₀/2 = 0.25, above
        // the onset e₀/4 = 0.125 at α = 0.2): go on.
        let wide = PlateauContext::new(0.2, 0.2, 0.0, Some(0.5));
        assert_eq!(plateau(&flat(2, 0.21), wide), None);
        // Flat at 12/20: not significantly below 0.8 at γ = 10⁻⁴ (Pr[Bin(20, .8) ≤ 12] ≈ 0.03).
        assert_eq!(plateau(&flat(12, 0.11), context), None);
        // Improving successes: go on.
        let mut improving = flat(2, 0.11);
        improving[3].successes = 3;
        assert_eq!(plateau(&improving, context), None);
        // Improving mean error by more than α/10: go on.
        let mut improving = flat(2, 0.15);
        improving[3].mean_error = 0.13;
        assert_eq!(plateau(&improving, context), None);
        // Too few sizes: go on.
        assert_eq!(plateau(&flat(2, 0.11)[1..], context), None);
    }

    /// Zero successes at every size is evidence of a plateau only when the mean error stops
    /// decreasing: a slowly decreasing mean (by less than α/10 over the window, which the
    /// old rule took for a plateau) keeps the search going, since the needed n may simply
    /// be larger; a flat or rising one stops it, and a positive rate that does not improve
    /// stops it with the other evidence.
    #[test]
    fn zero_successes_with_a_decreasing_error_are_not_a_plateau() {
        let context = PlateauContext::new(0.1, 0.2, 0.0, Some(0.5));
        let window = |successes: [usize; 4], errors: [f64; 4]| {
            (0..4)
                .map(|i| outcome(1024 << i, successes[i], errors[i]))
                .collect::<Vec<_>>()
        };
        // 0 of 20 at 1024 … 8192, mean excess 0.108 → 0.1005: go on.
        let slow = window([0; 4], [0.108, 0.105, 0.103, 0.1005]);
        assert_eq!(plateau(&slow, context), None);
        // The same with a mean that does not decrease: stop, naming the evidence.
        let flat = window([0; 4], [0.104, 0.105, 0.103, 0.104]);
        match plateau(&flat, context) {
            Some(StopReason::Plateau { evidence, .. }) => {
                assert_eq!(evidence, PlateauEvidence::FlatError);
            }
            other => panic!("{other:?}"),
        }
        // A positive rate that does not improve while the mean falls by less than α/10.
        let positive = window([3, 2, 4, 3], [0.108, 0.105, 0.103, 0.1005]);
        match plateau(&positive, context) {
            Some(StopReason::Plateau { evidence, .. }) => {
                assert_eq!(evidence, PlateauEvidence::PositiveRate);
            }
            other => panic!("{other:?}"),
        }
        // A rate that was 0 at some size of the window is not a positive rate.
        let mut gap = positive.clone();
        gap[1].successes = 0;
        assert_eq!(plateau(&gap, context), None);
        // The reason prints the evidence and both means.
        let text = plateau(&flat, context).unwrap().to_string();
        assert!(
            text.contains("did not decrease") && text.contains("0.1040"),
            "{text}"
        );
    }
}
