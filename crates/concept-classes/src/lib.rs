//! Finite domains and concept classes, exact VC and Littlestone dimensions, and online
//! learners (Halving, SOA).
//!
//! **Status: not implemented yet.** This crate is a placeholder in the workspace layout; its
//! contents are specified by the concept-classes issue and it exports nothing today. See
//! `docs/ARCHITECTURE.md` for what exists.
#![doc(test(attr(deny(warnings))))]
