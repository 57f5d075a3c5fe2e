//! When a sample-complexity search stops early because the accuracy is out of reach: a
//! learner's proven error floor above α ([`privpac_learners::Learner::error_floor`]), or a
//! success rate that has plateaued below 1 − β (the plateau rule below, a one-sided exact binomial
//! test with a stated false-stop rate).
//!
//! **The plateau rule.** The search doubles n; after a failing size it looks at the last
//! [`PLATEAU_WINDOW`] + 1 sizes of the doubling (a factor 2^[`PLATEAU_WINDOW`] in n) that the
//! learner ran (sizes it refused as too small do not count) and stops when all of these hold:
//! 1. *learning has begun*: some size at or before the window's first had a mean excess
//!    error at most the onset level `min(1.5α, e₀/2)`, with `e₀` the smaller excess error
//!    of the two constant hypotheses (a learner still guessing, such as the exponential
//!    mechanism over a large class on a small sample, has not begun, however flat its
//!    curve);
//! 2. *no improvement across the window*: the success count at the last size is at most
//!    the one at the first, and the mean excess error at the last size is at least the
//!    first's minus α/10 (eight times the data bought less than a tenth of α);
//! 3. *the success rate at the last size is below 1 − β*: the exact binomial tail
//!    `Pr[Bin(T, 1 − β) ≤ s] ≤ γ` with `γ =` [`PLATEAU_LEVEL`] = 10⁻⁴ for s successes in
//!    T trials.
//!
//! **False-stop rate.** Condition 3 is a one-sided test of the null "the success
//! probability at this size is at least 1 − β" at level γ: a learner that already succeeds
//! (in probability) at the size where the rule is checked is stopped with probability at
//! most γ = 10⁻⁴ per check, whatever conditions 1 and 2 say (they only make stopping rarer),
//! so at most 20·γ = 2·10⁻³ over the at most 20 doublings of a search to
//! [`crate::limits::MAX_SAMPLE_SIZE`]. That a learner failing at the window's sizes would
//! not succeed at larger ones is not proved (no learner-independent statement can be):
//! conditions 1 and 2 are the evidence, and the stop's reason says which sizes it saw.

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
                p_value,
                level,
                ..
            } => write!(
                f,
                "the success rate plateaued below 1 − β: {} of {trials} successes at n = {}, no better than {} at n = {}, and Pr[Bin({trials}, 1 − β) ≤ {}] = {p_value:.2e} ≤ {level:e}",
                successes.last().copied().unwrap_or(0),
                sizes.last().copied().unwrap_or(0),
                successes.first().copied().unwrap_or(0),
                sizes.first().copied().unwrap_or(0),
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
    /// The onset level `min(1.5α, e₀/2)`.
    pub(crate) onset: f64,
}

impl PlateauContext {
    /// The context for α, β, OPT and the constants' smaller excess error `e₀` (None when
    /// unknown: the onset is then 1.5α).
    pub(crate) fn new(alpha: f64, beta: f64, opt: f64, constant_excess: Option<f64>) -> Self {
        let onset = constant_excess.map_or(1.5 * alpha, |e| (1.5 * alpha).min(e / 2.0));
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
    // 2. no improvement across the window.
    if last.successes * first.trials > first.successes * last.trials
        || excess(last) < excess(first) - context.alpha / 10.0
    {
        return None;
    }
    // 3. the last size's success rate is significantly below 1 − β.
    let p_value = binomial_lower_tail(last.successes, last.trials, context.target);
    if p_value > PLATEAU_LEVEL {
        return None;
    }
    Some(StopReason::Plateau {
        sizes: window.iter().map(|o| o.sample_size).collect(),
        successes: window.iter().map(|o| o.successes).collect(),
        trials: last.trials,
        mean_excess_errors: window.iter().map(excess).collect(),
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
}
