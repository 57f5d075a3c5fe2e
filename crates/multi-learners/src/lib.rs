//! Multi-learners: learning k concepts at once from k-labeled data (direct sum, the
//! sanitizer-based multi-learner, parity and point multi-learners) and fingerprinting-code
//! lower bounds run as attacks.
//!
//! **Status:** the [`fingerprinting`] codes exist; the multi-learners are being built.
#![doc(test(attr(deny(warnings))))]

pub mod fingerprinting;
pub mod lower_bounds;
