//! Sample-complexity bounds as plain functions, each with its source.
//!
//! All functions return the number of examples (as `f64`, not rounded) that the cited
//! theorem says suffices; callers round up. Arguments are not validated beyond returning
//! NaN or ∞ for meaningless inputs (α, β outside (0, 1), ε ≤ 0).

/// The finite-class private learner: `n ≥ max{4 ln(2|C|/β)/(εα), 2 ln(2|C|/β)/α²}`
/// examples suffice for the exponential-mechanism learner to be (α, β)-accurate in the
/// realizable case.
///
/// The statement is the one quoted for Bun, Nissim and Stemmer, "Simultaneous private
/// learning of multiple concepts" (ITCS 2016) in privpac's issue tracker; we have not
/// verified its theorem number against the paper. Its constants follow from the
/// exponential mechanism with score gap α/2 and failure β/2 (the `4/(εα)` term) and a
/// one-sided Hoeffding bound at α/2 (the `2/α²` term).
pub fn finite_class_private_learner(class_size: f64, epsilon: f64, alpha: f64, beta: f64) -> f64 {
    let log_term = (2.0 * class_size / beta).ln();
    (4.0 * log_term / (epsilon * alpha)).max(2.0 * log_term / (alpha * alpha))
}

/// The generic private learner (agnostic): with probability at least 1 − β its true
/// error is at most `OPT + α` once
/// `n ≥ max{ (9/(2α²))·ln(4|C|/β), (6/(εα))·ln(2|C|/β) }`.
///
/// Kasiviswanathan, Lee, Nissim, Raskhodnikova, Smith, "What can we learn privately?"
/// (SICOMP 2011), Theorem 3.4 states `O((ln|C| + ln(1/β))·max{1/(εα), 1/α²})`; the
/// explicit constants here are our own instantiation of its two proof steps (uniform
/// convergence `Pr[∃h: |err(h) − err_S(h)| ≥ ρ] ≤ 2|C|e^{−2nρ²}` and the exponential
/// mechanism's `Pr[err_S(out) ≥ OPT_S + 2ρ] ≤ |C|e^{−εnρ/2}`) with `ρ = α/3` and β/2 for
/// each step.
pub fn generic_learner_sample_size(class_size: f64, epsilon: f64, alpha: f64, beta: f64) -> f64 {
    let convergence = 9.0 / (2.0 * alpha * alpha) * (4.0 * class_size / beta).ln();
    let selection = 6.0 / (epsilon * alpha) * (2.0 * class_size / beta).ln();
    convergence.max(selection)
}

/// TEMP stub (replaced by the papers branch): the generic learner in the realizable case,
/// `n ≥ ln(2|C|/β)/α · max{8, 4/ε}`.
pub fn realizable_generic_learner_sample_size(
    class_size: f64,
    epsilon: f64,
    alpha: f64,
    beta: f64,
) -> f64 {
    (2.0 * class_size / beta).ln() / alpha * 8.0f64.max(4.0 / epsilon)
}

/// Realizable VC bound (Blumer, Ehrenfeucht, Haussler, Warmuth, J. ACM 1989; Kearns and
/// Vazirani, *An Introduction to Computational Learning Theory*, Theorem 3.3): every
/// hypothesis consistent with `m ≥ max{(4/α)·log2(2/β), (8d/α)·log2(13/α)}` examples has
/// error at most α with probability at least 1 − β, for a class of VC dimension d.
pub fn vc_realizable_sample_size(vc_dimension: u32, alpha: f64, beta: f64) -> f64 {
    let d = f64::from(vc_dimension);
    (4.0 / alpha * (2.0 / beta).log2()).max(8.0 * d / alpha * (13.0 / alpha).log2())
}

/// Agnostic VC bound (Shalev-Shwartz and Ben-David, *Understanding Machine Learning*,
/// §28.1, natural logarithms): uniform convergence to within ε holds with probability
/// 1 − β once `m ≥ 4·(32d/ε²)·ln(64d/ε²) + (8/ε²)·(8d·ln(e/d) + 2·ln(4/β))`; we take
/// `ε = α/2`, so that ERM's excess error is at most α. Requires d ≥ 1.
pub fn vc_agnostic_sample_size(vc_dimension: u32, alpha: f64, beta: f64) -> f64 {
    let d = f64::from(vc_dimension);
    let eps = alpha / 2.0;
    let eps2 = eps * eps;
    4.0 * (32.0 * d / eps2) * (64.0 * d / eps2).ln()
        + 8.0 / eps2 * (8.0 * d * (std::f64::consts::E / d).ln() + 2.0 * (4.0 / beta).ln())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_match_hand_computations() {
        // |C| = 100, ε = 1, α = 0.1, β = 0.05: ln(4000) = 8.294.
        let log_term = (2.0f64 * 100.0 / 0.05).ln();
        let expected = (4.0 * log_term / 0.1).max(2.0 * log_term / 0.01);
        assert!((finite_class_private_learner(100.0, 1.0, 0.1, 0.05) - expected).abs() < 1e-9);
        assert!((expected - 1658.8).abs() < 0.1);
        // BEHW with d = 1, α = 0.1, β = 0.05: max{40·log2(40), 80·log2(130)} = 561.8.
        assert!((vc_realizable_sample_size(1, 0.1, 0.05) - 80.0 * 130f64.log2()).abs() < 1e-9);
    }

    #[test]
    fn bounds_grow_as_parameters_tighten() {
        let base = generic_learner_sample_size(1024.0, 1.0, 0.1, 0.1);
        // At ε = 1 the 1/α² term dominates, so a smaller ε cannot lower the bound …
        assert!(generic_learner_sample_size(1024.0, 0.5, 0.1, 0.1) >= base);
        // … and at ε = 0.05 the privacy term dominates and grows.
        assert!(generic_learner_sample_size(1024.0, 0.05, 0.1, 0.1) > base);
        assert!(generic_learner_sample_size(1024.0, 1.0, 0.05, 0.1) > base);
        assert!(generic_learner_sample_size(2048.0, 1.0, 0.1, 0.1) > base);
        // In the privacy-dominated regime, halving ε doubles the bound.
        let small_eps = generic_learner_sample_size(1024.0, 0.01, 0.1, 0.1);
        let half = generic_learner_sample_size(1024.0, 0.005, 0.1, 0.1);
        assert!((half / small_eps - 2.0).abs() < 1e-12);
        assert!(vc_agnostic_sample_size(3, 0.1, 0.1) > vc_realizable_sample_size(3, 0.1, 0.1));
    }
}
