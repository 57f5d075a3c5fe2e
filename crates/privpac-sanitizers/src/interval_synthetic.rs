//! The output of a sanitizer on `INTERVAL ⊕ INTERVAL` ([`IntervalXorSynthetic`]) and the
//! size of that class's dense query matrix, shared by the sanitizers that answer it by
//! structure (the `xor_intervals` module and MWEM's dispatch in `mwem`), kept below both.

use crate::pieces::PiecewiseDistribution;
use crate::synthetic::SyntheticDatabase;

/// A sanitization of data over `[N]` for `INTERVAL ⊕ INTERVAL`, in the form the sanitizer
/// produced it ([`crate::Sanitizer::sanitize_interval_xor`]).
#[derive(Debug, Clone, PartialEq)]
pub enum IntervalXorSynthetic {
    /// A distribution of O(#pieces) uniform pieces (the tree sanitizer).
    Pieces(PiecewiseDistribution),
    /// A synthetic database with an explicit (sparse) support (the point sanitizer).
    Database(SyntheticDatabase),
}

impl IntervalXorSynthetic {
    /// The domain size N.
    pub fn size(&self) -> u64 {
        match self {
            IntervalXorSynthetic::Pieces(p) => p.size(),
            IntervalXorSynthetic::Database(d) => d.domain().size().min(u128::from(u64::MAX)) as u64,
        }
    }
}

/// The query matrix of `INTERVAL ⊕ INTERVAL` over `[N]`, in bits (`|C⊕|·N` with
/// `|C| = 1 + N(N+1)/2`), saturating.
pub fn interval_xor_matrix_bits(size: u64) -> u128 {
    let n = u128::from(size);
    let concepts = 1 + n * (n + 1) / 2;
    concepts.saturating_mul(concepts).saturating_mul(n)
}
