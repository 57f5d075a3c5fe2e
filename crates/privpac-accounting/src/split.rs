//! Splitting a total budget over c runs of one pure mechanism: the largest per-run ε₀ that
//! some composition rule proves within the total.

use crate::accountant::CompositionRule;
use crate::composition::advanced_composition;
use crate::optimal::{MAX_OPTIMAL_COMPOSITIONS, optimal_composition, optimal_step_epsilon};
use crate::privacy::Privacy;
use crate::rounding::mul_up;

/// The per-run budget ε₀ for `c` runs of an ε₀-DP mechanism within `privacy`, and the
/// composition rule that proves it: the largest ε₀ among basic composition (ε/c), advanced
/// composition and, for δ > 0 and c ≤ [`MAX_OPTIMAL_COMPOSITIONS`], optimal composition
/// (Kairouz–Oh–Viswanath Theorem 3.3), each checked by evaluating its rule rounding up.
/// `c = 0` is read as 1. The optimal rule's root finder takes about 40 ms at c = 2^20.
/// (The sparse vector technique splits its budget over its c rounds with it.)
///
/// # Example
/// ```
/// use privpac_accounting::{CompositionRule, Privacy, split_pure_budget};
/// let (each, rule) = split_pure_budget(Privacy::new(1.0, 1e-6)?, 100);
/// assert!(matches!(rule, CompositionRule::Optimal { .. }));
/// assert!(each > 0.0240); // advanced composition: 0.0178; basic: 0.01
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn split_pure_budget(privacy: Privacy, runs: u64) -> (f64, CompositionRule) {
    let c = runs.max(1);
    let epsilon = privacy.epsilon();
    let delta = privacy.delta();
    let basic = epsilon / c as f64;
    let mut candidates = vec![(basic, CompositionRule::Basic)];
    if !privacy.is_pure() {
        // Solve 2c·x² + a·x − ε = 0 with a = √(2c ln(1/δ)), keep x ≤ 1.
        let cf = c as f64;
        let a = (2.0 * cf * (1.0 / delta).ln()).sqrt();
        let advanced = (-a + (a * a + 8.0 * cf * epsilon).sqrt()) / (4.0 * cf);
        candidates.push((
            advanced.min(1.0),
            CompositionRule::Advanced { delta_prime: delta },
        ));
        if c <= MAX_OPTIMAL_COMPOSITIONS
            && let Ok(optimal) = optimal_step_epsilon(epsilon, c, 0.0, delta)
        {
            candidates.push((optimal, CompositionRule::Optimal { delta_prime: delta }));
        }
    }
    // The closed forms and the root finder may land a little above the exact root;
    // shrink each until its composition, evaluated rounding up as the accounting
    // functions report it, is within ε.
    let fits = |x: f64, rule: CompositionRule| match rule {
        CompositionRule::Advanced { .. } => Privacy::pure(x)
            .and_then(|p| advanced_composition(p, c, delta))
            .is_ok_and(|total| total.epsilon() <= epsilon),
        CompositionRule::Optimal { .. } => Privacy::pure(x)
            .and_then(|p| optimal_composition(p, c, delta))
            .is_ok_and(|total| total.epsilon() <= epsilon),
        _ => mul_up(c as f64, x) <= epsilon,
    };
    let mut best = (0.0, CompositionRule::Basic);
    for (candidate, rule) in candidates {
        let mut x = candidate;
        for _ in 0..200 {
            if fits(x, rule) {
                if x > best.0 {
                    best = (x, rule);
                }
                break;
            }
            x *= 1.0 - 1e-15;
        }
    }
    best
}
