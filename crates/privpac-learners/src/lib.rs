//! Single-concept PAC learners, private and not, with their sample-complexity bounds.
//!
//! For researchers who want to run the learners of the private-learning literature side
//! by side on the same data. Every learner implements the object-safe [`Learner`] trait
//! and reports its privacy guarantee (`None` for the non-private baselines).
//!
//! # Map
//! - [`Predictor`]: what a learner outputs, a deterministic
//!   `privpac_classes::Hypothesis` or a randomized predictor (a label flip, a noisy vote)
//!   with exact samplers and the exact probabilities they realize; serializable with serde.
//! - [`Erm`]: empirical risk minimization (realizable or agnostic), the non-private
//!   baseline.
//! - [`GenericLearner`]: the exponential mechanism over the class scored by mistakes
//!   (Kasiviswanathan et al.), ε-DP, proper and agnostic; uses the class's error-profile
//!   fast path and the count-weighted exponential mechanism.
//! - [`StableLearner`] and [`PrivatePrediction`]: subsample, cover, exponential mechanism
//!   (after Dagan–Feldman), with uniform stability of predictions and per-prediction
//!   privacy derived in their docs and measured exactly in the tests.
//! - [`VotingPredictor`]: subsample-and-aggregate private prediction (ERM on blocks, a
//!   noisy vote), the realizable private-prediction learner.
//! - [`RelabelingPredictor`]: agnostic private prediction that relabels only the
//!   subsample (subsample, exponential mechanism over the dichotomies of the subsample,
//!   relabel the subsample, vote); its per-prediction ε is proved and measured exactly,
//!   its accuracy `Õ(d/(αε) + d/α²)` is a **conjecture**. Not Dagan–Feldman's Theorem 2.
//! - [`DaganFeldmanPredictor`]: Dagan–Feldman's Theorem 2 construction as far as the text
//!   can be read (subsample, exponential mechanism over a cover of the subsample, relabel
//!   the **whole** sample, vote, flip), with its per-prediction ε (group privacy, nets,
//!   flip) derived and measured exactly.
//! - [`Subsampled`]: Bun–Nissim–Stemmer's empirical-learner conversion (Theorem 2.24):
//!   run a learner on n rows drawn with replacement from m ≥ 2n, private through secrecy
//!   of the sample (their Lemma 2.25, ratio corrected); [`Subsampled::theorem_2_24`] takes
//!   m = 9n.
//! - [`SanitizerLearner`]: sanitize with respect to C⊕, draw a small database from the
//!   synthetic distribution ([`SupportSize`]), then choose among one concept per
//!   dichotomy on it (generic over any `privpac_sanitizers::Sanitizer`); the sanitize → small
//!   database → cover step is the reusable [`SanitizedCover`] (one sanitization, any
//!   number of selections).
//! - [`bounds`]: sample-complexity formulas, each with its source and the scenario it is
//!   for (realizable or agnostic).
//!
//! # Example
//! ```
//! use privpac_classes::{ConceptClass, LabeledSample, Thresholds};
//! use privpac_accounting::Privacy;
//! use privpac_learners::{Erm, GenericLearner, Learner};
//! use rand::SeedableRng;
//!
//! let class = Thresholds::new(100)?;
//! let pairs: Vec<(u64, bool)> = (0..200u64).map(|i| (i % 100, i % 100 <= 42)).collect();
//! let sample = LabeledSample::from_pairs(class.domain(), &pairs)?;
//! let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
//! for learner in [&Erm::default() as &dyn Learner, &GenericLearner::new(Privacy::pure(1.0)?)?] {
//!     let predictor = learner.learn(&class, &sample, &mut rng)?;
//!     println!("{}: {predictor:?}, {}", learner.name(), learner.guarantee(sample.len()));
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![doc(test(attr(deny(warnings))))]

pub mod bounds;
mod cell_levels;
mod cover;
mod dagan_feldman;
mod erm;
mod error;
mod generic;
mod improper_point;
mod interior_point;
mod learner;
mod predictor;
mod relabeling;
mod sanitized_cover;
mod sanitized_intervals;
mod sanitizer_based;
mod stable;
mod subsample;
mod voting;

pub use dagan_feldman::DaganFeldmanPredictor;
pub use erm::{Erm, ErmMode};
pub use error::{Error, Result};
pub use generic::GenericLearner;
pub use improper_point::{ImproperPointLearner, MAX_LISTED_BUCKETS};
pub use interior_point::InteriorPointLearner;
pub use learner::{ErrorFloor, Learner};
pub use predictor::Predictor;
pub use relabeling::RelabelingPredictor;
pub use sanitized_cover::{
    SanitizedCover, order_support_size, point_cover, proved_support_size, threshold_cover,
    xor_vc_bound,
};
pub use sanitizer_based::{DEFAULT_SUPPORT_ALPHA, SanitizerLearner, SupportSize};
pub use stable::{PrivatePrediction, StableLearner};
pub use subsample::Subsampled;
pub use voting::VotingPredictor;

#[cfg(test)]
mod tests;

/// The examples of the crate's README, compiled and run by `cargo test --doc`.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
