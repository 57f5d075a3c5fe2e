//! Multi-learners: learning k concepts at once from one k-labeled sample, privately
//! (Bun, Nissim and Stemmer, "Simultaneous private learning of multiple concepts",
//! ITCS 2016 / JMLR 2019).
//!
//! For users who hold examples labeled by k concepts at once (`x, y_1, …, y_k`) and want k
//! hypotheses with one privacy guarantee for the whole k-tuple, and for researchers who
//! want to compare the sample cost of doing so against learning each concept separately.
//!
//! # Map
//! * [`MultiLabeledSample`]: n points with an n × k label matrix, bit-packed by column;
//!   [`multi_error`] / [`column_errors`] (Definition 2.3, exact over a listed distribution),
//!   [`agnostic_multi_error`] (Definition 2.4, exact over a listed joint distribution),
//!   [`empirical_multi_error`] and [`empirical_excess_multi_error`] (Definitions 2.9, 2.10).
//! * [`MultiLearner`]: the object-safe trait (k hypotheses out, the guarantee of the whole
//!   k-tuple as a `privpac_accounting::Guarantee`).
//! * [`DirectSum`]: any `privpac_learners::Learner` once per column, composed (Observation 3.2);
//!   [`DirectSum::for_total`] splits a total (ε, δ) with [`split_budget`] (or, for a
//!   bounded-range inner learner such as the exponential mechanism, with
//!   [`split_budget_bounded_range`]).
//! * [`ParityLearner`]: parities under the uniform distribution (Algorithm 4, Theorem
//!   3.12), sample size independent of k; its GF(2) solver is in [`gf2`].
//! * [`SanitizerMultiLearner`]: Algorithm 2 of the paper ("GenericLearner"): sanitize once
//!   for C⊕, cover, one exponential-mechanism selection per column; both guarantees of
//!   Lemma 3.7 ([`lemma_3_7`]); the agnostic Corollary 3.9 (points), Corollary 3.10's
//!   construction with privpac's interior-point quantile sanitizer in place of Proposition
//!   2.21's (its bound from the proof beside the printed one), and the same construction
//!   with the tree sanitizer (labelled: not Corollary 3.10).
//! * [`PointLearner`]: point functions (Algorithm 5, Theorem 3.13), sample size
//!   independent of k and running time independent of |X|.
//! * [`bounds`]: explicit sample sizes (with derivations) and the paper's O-forms, clearly
//!   labelled.
//!
//! Sibling crates: `privpac-mechanisms` (`StableSelection` is `A_dist`, Algorithm 3, with the
//! corrected calibration), `privpac-sanitizers` (`PointSanitizer`), `privpac-learners` (single-concept
//! learners for the direct sum), `privpac-classes` (classes and hypotheses). The §4–§5 lower
//! bounds (fingerprinting codes, the tracing attack on any [`MultiLearner`], the packing and
//! fingerprinting calculators) are in `privpac-attacks`, which builds on this crate.
//!
//! # Design
//! Neighbouring samples differ in one whole row `(x_i, y_{i,1}, …, y_{i,k})` (Definition
//! 2.15). Labels are stored column-major and bit-packed because every algorithm here reads
//! whole columns (the direct sum) or 64 columns at a time (the GF(2) solver and the point
//! learner transpose 64 × 64 blocks). `A_dist` always runs on *implicit* candidate sets
//! (`(PAR_d)^k`, `({0,1}^k)^G`): the best and second-best scores are computed in closed form
//! and passed to `StableSelection` as two scores, which gives exactly the output
//! distribution of `A_dist` on the full set. Where a learner's `A_dist` answers ⊥,
//! [`MultiLearner::learn`] returns constant-0 hypotheses and the learner's `learn_outcome`
//! says so. Privacy is checked exactly with `privpac-audit` on tiny instances (tests in this
//! crate), each with a negative control that must fail.
//!
//! # Example
//! ```
//! use privpac_classes::{Domain, Parities, Points};
//! use privpac_accounting::Privacy;
//! use privpac_learners::{GenericLearner, Learner};
//! use privpac_multi::{DirectSum, MultiLabeledSample, MultiLearner, ParityLearner, multi_error};
//! use rand::{RngExt, SeedableRng};
//!
//! let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
//! // 64 parities over {0,1}^10 from one sample: the parity learner's n does not grow with k.
//! let class = Parities::new(10)?;
//! let targets: Vec<u64> = (0..64).map(|_| rng.random_range(0..1024)).collect();
//! let plan = privpac_multi::bounds::parity_learner_plan(10, Privacy::new(1.0, 1e-6)?, 0.05)?;
//! let points: Vec<u64> = (0..plan.examples).map(|_| rng.random_range(0..1024)).collect();
//! let sample = MultiLabeledSample::label_with(&class, points, &targets)?;
//! let learner = ParityLearner::new(Privacy::new(1.0, 1e-6)?)?.with_extra_points(plan.extra_points)?;
//! let hypotheses = learner.learn(&class, &sample, &mut rng)?;
//! let uniform: Vec<(u64, f64)> = (0..1024).map(|x| (x, 1.0 / 1024.0)).collect();
//! assert_eq!(multi_error(&class, &hypotheses, &targets, &uniform)?, 0.0);
//! assert_eq!(learner.guarantee(sample.len(), 64).epsilon(), Some(1.0));
//!
//! // The direct sum of a single-concept learner, with a total budget split over k columns.
//! let points_class = Points::new(Domain::ordered(16)?);
//! let data: Vec<u64> = (0..4000).map(|i| i % 4).collect();
//! let labeled = MultiLabeledSample::label_with(&points_class, data, &[0, 1, 2])?;
//! let direct = DirectSum::for_total(Privacy::pure(3.0)?, 3, 300, &|per_column| {
//!     Ok(Box::new(GenericLearner::new(per_column)?) as Box<dyn Learner>)
//! })?;
//! let hypotheses = direct.learn(&points_class, &labeled, &mut rng)?;
//! assert_eq!(hypotheses.len(), 3);
//! assert!(direct.guarantee(4000, 3).epsilon() <= Some(3.0));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![doc(test(attr(deny(warnings))))]

pub mod bounds;
mod direct_sum;
mod error;
mod generic;
pub mod gf2;
mod learner;
mod parity;
mod point;
mod sample;

pub use direct_sum::{
    DirectSum, EXACT_BOUNDED_RANGE_MAX_K, LearnerFactory, compose_privacy, split_budget,
    split_budget_among, split_budget_bounded_range,
};
pub use error::{Error, Result};
pub use generic::{Lemma37, SanitizerFactory, SanitizerMultiLearner, lemma_3_7};
pub use learner::MultiLearner;
pub use parity::{
    DEFAULT_EXTRA_POINTS, ParityLearner, ParityOutcome, Vote, most_frequent_distribution,
    parity_dimension, select_most_frequent,
};
pub use point::{
    HeavyLabelScores, PointLearner, PointOutcome, check_points_class, heavy_label_scores,
    heavy_labels_distribution, select_heavy_labels,
};
pub use sample::{
    AGNOSTIC_ERROR_WORK_LIMIT, MultiLabeledSample, agnostic_multi_error, column_errors,
    empirical_excess_multi_error, empirical_multi_error, multi_error,
};

#[cfg(test)]
mod tests;

/// The examples of the crate's README, compiled and run by `cargo test --doc`.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
