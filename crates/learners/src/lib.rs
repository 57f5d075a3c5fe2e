//! Single-concept PAC learners (ERM baselines, the generic exponential-mechanism learner,
//! sanitizer-based and uniformly stable learners, private prediction) and sample-complexity
//! bounds.
//!
//! **Status: not implemented yet.** This crate is a placeholder in the workspace layout; its
//! contents are specified by the learners issue and it exports nothing today. See
//! `docs/ARCHITECTURE.md` for what exists.
#![doc(test(attr(deny(warnings))))]
