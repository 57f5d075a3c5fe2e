//! Private synthetic data (sanitizers) for counting queries: the point-function sanitizer,
//! Blum–Ligett–Roth, private multiplicative weights / MWEM and threshold sanitizers.
//!
//! **Status: not implemented yet.** This crate is a placeholder in the workspace layout; its
//! contents are specified by the sanitizers issue and it exports nothing today. See
//! `docs/ARCHITECTURE.md` for what exists.
#![doc(test(attr(deny(warnings))))]
