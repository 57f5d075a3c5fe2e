//! The lab: scenarios (class, distribution, target), a parallel seeded trial runner, and
//! empirical sample-complexity search with confidence intervals.
//!
//! **Status: not implemented yet.** This crate is a placeholder in the workspace layout; its
//! contents are specified by the learners-and-lab issue and it exports nothing today. See
//! `docs/ARCHITECTURE.md` for what exists.
#![doc(test(attr(deny(warnings))))]
