//! Checks differential-privacy claims against measured behaviour: exactly, from
//! a mechanism's output distributions, and statistically, from its samples.
//!
//! privpac-audit is for **implementers of mechanisms and learners** who want tests
//! that compare a claimed guarantee (the `privacy()` of an algorithm) with
//! what the code actually does. It depends on none of privpac's crates: its
//! API takes plain data (probability or log-probability vectors, sample
//! slices, closures and `f64` claims), so every crate can take it as a
//! dev-dependency without a dependency cycle.
//!
//! # Map
//!
//! * [`exact`]: privacy loss of a finite-output mechanism from its output
//!   distributions on neighbouring inputs.
//!   - [`max_divergence`], [`max_divergence_log`]: the pure ε of one pair.
//!   - [`hockey_stick`], [`hockey_stick_symmetric`], [`delta_curve`],
//!     [`epsilon_for_delta`]: δ(ε) of one pair, and its inverse.
//!   - [`check_claim`], [`check_pure_claim`], [`check_pure_claim_log`]: a
//!     claimed (ε, δ) or ε against many pairs, returning an [`AuditReport`] /
//!     [`PureAuditReport`] or [`Error::ClaimViolated`] /
//!     [`Error::PureClaimViolated`].
//! * [`neighbours`]: every pair of neighbouring inputs of a tiny instance, so that an exact
//!   audit covers all of them instead of a hand-picked few.
//!   - [`datasets`], [`neighbouring_datasets`]: sequences of `u64` points differing in one
//!     position; [`histograms`], [`neighbouring_histograms`]: the same relation on multisets.
//!   - [`output_pairs`]: a mechanism's output distributions on both sides of every pair, ready
//!     for the claim checks; [`worst_case_loss`], [`worst_case_by`]: the worst privacy loss
//!     (or any other measure) over all pairs, with the pair that attains it ([`WorstCase`]).
//! * [`statistical`]: seeded goodness-of-fit tests for samplers, each with a
//!   stated false-failure rate α.
//!   - [`chi_square_gof`], [`chi_square_integer_pmf`]: Pearson's χ² against
//!     finite or integer-valued distributions ([`GofOutcome`]).
//!   - [`ks_test`]: Kolmogorov–Smirnov against a continuous CDF
//!     ([`KsOutcome`]).
//!   - [`clopper_pearson`], [`binomial_p_value`], [`binomial_within`]: exact
//!     binomial tests for the frequency of an event.
//! * [`prediction`]: prediction-level measurements for learners,
//!   [`prediction_stability`] (uniform stability) and
//!   [`prediction_privacy_loss`] (the ε of a single private prediction).
//! * [`black_box`]: a certified lower bound on the ε of any randomized
//!   algorithm from its samples on neighbouring inputs (events proposed and
//!   ranked on separate runs, certified with Clopper–Pearson bounds on fresh
//!   ones),
//!   [`audit_finite`], [`audit_real`], [`statdp_patterns`].
//! * [`Error`] and [`Result`]: one variant per kind of bad input.
//!
//! The mechanisms themselves live in the sibling crate `privpac-mechanisms`, whose
//! tests use this crate.
//!
//! # Example
//!
//! Audit randomized response, which reports a bit truthfully with probability
//! `e^ε / (1 + e^ε)`, exactly and from counts:
//!
//! ```
//! use privpac_audit::{Error, check_claim, chi_square_gof};
//!
//! let epsilon = 1.0_f64;
//! let truth = epsilon.exp() / (1.0 + epsilon.exp());
//! let on_one = [1.0 - truth, truth]; // P[output 0], P[output 1] on input 1
//! let on_zero = [truth, 1.0 - truth];
//!
//! // The exact audit confirms ε = 1 with δ = 0 ...
//! let report = check_claim([(on_one, on_zero)], epsilon, 0.0, 1e-12)?;
//! assert!((report.max_epsilon_at_zero_delta - epsilon).abs() < 1e-12);
//! // ... and refutes ε = 0.9 even with δ = 0.01.
//! let refuted = check_claim([(on_one, on_zero)], 0.9, 0.01, 1e-12);
//! assert!(matches!(refuted, Err(Error::ClaimViolated { .. })));
//!
//! // A sampler reporting 7,262 ones in 10,000 runs on input 1 fits the claimed
//! // distribution; α = 10⁻³ is the chance a correct sampler fails this test.
//! let outcome = chi_square_gof(&[2_738, 7_262], &on_one, 1e-3)?;
//! assert!(!outcome.rejected);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![doc(test(attr(deny(warnings))))]

pub mod black_box;
mod error;
pub mod exact;
pub mod neighbours;
mod numeric;
pub mod prediction;
pub mod statistical;

pub use crate::black_box::{
    BlackBoxConfig, Event, FINALISTS_PER_CERTIFIED, MAX_PAIRS, PairAudit, PairSelection,
    StatisticalAudit, audit_finite, audit_real, statdp_patterns,
};
pub use crate::error::{Error, Result};
pub use crate::exact::{
    AuditReport, PureAuditReport, check_claim, check_pure_claim, check_pure_claim_log, delta_curve,
    epsilon_for_delta, hockey_stick, hockey_stick_symmetric, max_divergence, max_divergence_log,
};
pub use crate::neighbours::{
    MAX_DATASETS, OutputPair, WorstCase, datasets, histograms, neighbouring_datasets,
    neighbouring_histograms, output_pairs, worst_case_by, worst_case_loss,
};
pub use crate::numeric::NORMALIZATION_TOLERANCE;
pub use crate::prediction::{prediction_privacy_loss, prediction_stability};
pub use crate::statistical::{
    GofOutcome, KsOutcome, MAX_INTEGER_BINS, MAX_TRIALS, MIN_EXPECTED_COUNT, binomial_p_value,
    binomial_within, chi_square_gof, chi_square_integer_pmf, clopper_pearson, ks_test,
};

/// The examples of the crate's README, compiled and run by `cargo test --doc`.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
