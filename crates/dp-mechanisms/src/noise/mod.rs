//! Additive noise: the Laplace distribution for real-valued queries and the exact discrete
//! Laplace (two-sided geometric) distribution for integer-valued (counting) queries.
//!
//! Prefer [`DiscreteLaplaceMechanism`] whenever the query is integer-valued: it is sampled
//! from random bits with exact rational arithmetic, so its guarantee holds for the
//! implementation and not only for the idealized real-number mechanism. The continuous
//! [`LaplaceMechanism`] is implemented in floating point and inherits the caveat of
//! Mironov (CCS 2012) documented there.

mod discrete_laplace;
mod laplace;

pub use discrete_laplace::{DiscreteLaplace, DiscreteLaplaceMechanism};
pub use laplace::{Laplace, LaplaceMechanism};
