//! Additive noise: the exact discrete Laplace (two-sided geometric) distribution, the
//! mechanism for integer-valued (counting) queries built on it, and the grid Laplace
//! mechanism for real-valued queries, which rounds to a power-of-two grid and adds exact
//! discrete Laplace noise in grid units.
//!
//! Both mechanisms sample from random bits with exact rational arithmetic, so their
//! guarantees hold for the implementation and not only for the idealized real-number
//! mechanism. The textbook floating-point Laplace sampler ([`Laplace`]) is compiled only
//! with the opt-in feature `unsound-float-laplace`: it is a plain noise distribution with
//! no privacy claim, vulnerable to Mironov's (CCS 2012) floating-point attack, kept for
//! non-private uses and as a known-broken baseline for auditors.
//!
//! For many draws at one scale, [`DiscreteLaplaceTable`] samples the same distribution
//! exactly from one `u64` per draw and a precomputed table of the survival function's exact
//! binary digits.
//!
//! The noise types implement [`rand::distr::Distribution`] (`DiscreteLaplace` for `i64`,
//! `Laplace` for `f64`), so they work with `sample_iter` and generic code; their inherent
//! `sample` methods are the same draws.

mod discrete_laplace;
mod discrete_laplace_table;
#[cfg(feature = "unsound-float-laplace")]
mod float_laplace;
mod laplace;
pub(crate) mod survival_digits;

pub use discrete_laplace::{DiscreteLaplace, DiscreteLaplaceMechanism};
pub use discrete_laplace_table::{DiscreteLaplaceTable, MAX_TABLE_LEN};
#[cfg(feature = "unsound-float-laplace")]
pub use float_laplace::Laplace;
pub use laplace::LaplaceMechanism;
