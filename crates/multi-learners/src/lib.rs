//! Multi-learners: learning k concepts at once from k-labeled data (direct sum, the
//! sanitizer-based multi-learner, parity and point multi-learners) and fingerprinting-code
//! lower bounds run as attacks.
//!
//! **Status: not implemented yet.** This crate is a placeholder in the workspace layout and
//! exports nothing today. See `docs/ARCHITECTURE.md` for what exists.
#![doc(test(attr(deny(warnings))))]
