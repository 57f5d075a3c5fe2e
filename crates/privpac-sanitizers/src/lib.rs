//! Private synthetic data (sanitizers) for counting queries: given unlabeled data
//! `D ∈ X^n` and a concept class C, release a database `D̂` with `c(D̂) ≈ c(D)` for every
//! concept `c ∈ C`, under differential privacy.
//!
//! This crate is for researchers who need a sanitizer as a building block (the
//! sanitizer-based learners of Bun, Nissim and Stemmer sanitize the XOR class and then learn
//! from the synthetic data) and for implementers of new sanitizers (one object-safe trait,
//! and [`max_query_error`] as the yardstick). It depends on `privpac-mechanisms` (noise,
//! selection, sparse vector) and `privpac-classes` (domains, classes and their fast error
//! profiles) only.
//!
//! # Map
//! - [`Sanitizer`]: the object-safe trait (`sanitize`, `name`; the guarantee comes from
//!   its supertrait [`privpac_accounting::Private`]).
//! - [`SyntheticDatabase`]: a multiset of points or a (sparse or dense) weighted histogram,
//!   with [`SyntheticDatabase::answer`]; [`max_query_error`] measures `max_c |c(D) − c(D̂)|`
//!   for a whole class at once through the class's error profile, and
//!   [`max_query_error_on`] over a list of queries.
//! - [`PointSanitizer`]: `POINT_X` by a thresholded (stability-based) histogram; (ε, δ),
//!   running time independent of |X|.
//! - [`BlumLigettRoth`]: the exponential mechanism over all m-point databases, exact on
//!   tiny domains; pure ε.
//! - [`Mwem`] and [`PrivateMultiplicativeWeights`]: multiplicative weights over an explicit
//!   histogram, with exponential-mechanism or sparse-vector query selection; MWEM replays
//!   its measurements by default ([`MwemVariant`]).
//! - [`ThresholdSanitizer`]: `THRESH_X` by the binary-tree mechanism; pure ε.
//! - [`QuantileSanitizer`]: `THRESH_X` from ⌈1/α⌉ − 1 interior-point calls (TreeLog) on
//!   rank windows (approximate quantiles); (ε, δ) composed by the accountant, running time
//!   independent of |X| (domains up to 2^64 points), at most ⌈1/α⌉ + 1 distinct points out.
//! - [`PiecewiseDistribution`] and [`Mwem::run_threshold_xor`]: MWEM on the XOR class of
//!   thresholds over `[N]` (all intervals between two cut points) with a synthetic
//!   distribution of O(T) uniform pieces, for N up to [`ORDERED_XOR_LIMIT`] = 2^62 (score
//!   levels in `u128`, the wide exponential mechanism above 2^60 pairs)
//!   ([`Sanitizer::sanitize_threshold_xor`] is the trait's entry point; the tree sanitizer
//!   answers it too, with its dense output cut into pieces, up to
//!   [`THRESHOLD_DOMAIN_LIMIT`] points).
//! - [`Sanitizer::sanitize_interval_xor`] and [`IntervalXorSynthetic`]: the XOR class of
//!   intervals without its ids (about N⁴/4 pairs), for the sanitizers whose output does not
//!   depend on the queries (tree, point), and for MWEM by structure
//!   ([`Mwem::run_interval_xor`]: exact score-level counts from the pairs' four sorted
//!   ends, a synthetic distribution of pieces, N up to 2^62, counts in `u128` up to
//!   [`INTERVAL_XOR_LIMIT`], 192 or 256 bits above); private
//!   multiplicative weights takes the dense path where its query matrix fits and refuses
//!   above it with the reason.
//! - [`Sanitizer::sanitize_xor`]: any sanitizer on the XOR class `C ⊕ C`; MWEM and private
//!   multiplicative weights build its query matrix from C's rows.
//! - [`Mwem::run_point_xor`] and [`Sanitizer::sanitize_point_xor`]: MWEM on the XOR class of
//!   point functions over `[N]` (pairs of points, [`privpac_classes::XorPoints`]) with a
//!   [`PiecewiseDistribution`], the exponential mechanism over classes of points of equal
//!   score, at every N up to 2^64 − 1; private multiplicative weights says why it cannot.
//! - [`Error`] and [`Result`].
//!
//! # Design decisions
//! - **Neighbours replace one point.** Every guarantee is for data sets of the same size n
//!   that differ in one entry, so n is public (the root count of the threshold tree and the
//!   fractions `c(D) = count/n` use it).
//! - **Integer noise, integer scores.** Counts get exact discrete Laplace noise, the
//!   Blum–Ligett–Roth scores are integers (`n·m` times the fractional error), and MWEM's
//!   selection scores and the sparse-vector questions of private multiplicative weights are
//!   exact integer floors `⌊|n·q(A) − a_q|⌋` (a floating-point `|x − a|` would round
//!   differently on neighbours and exceed sensitivity 1 by an ulp). The only floating point
//!   on a privacy path is the exponential mechanism's, whose error is budgeted in
//!   `privpac-mechanisms`.
//! - **The trait takes `&mut dyn Rng`** so that `Box<dyn Sanitizer>` works (the lab runs
//!   sanitizers side by side); the algorithms' inherent methods (`run`, `release`,
//!   `output_distribution`) are generic and expose the private steps for audits.
//! - **Never a data-dependent fallback.** MWEM draws each round's query from the queries
//!   not yet measured (a set determined by earlier outputs) and refuses T > |Q|;
//!   algorithms that cannot run exactly (Blum–Ligett–Roth on large domains) return
//!   [`Error::TooLarge`] stating the size instead of approximating.
//! - **Deterministic parallelism.** Histogram products and updates run on rayon over
//!   fixed-size chunks whose partial results are combined in order, so a seed gives the
//!   same output on any number of threads.
//!
//! # Example
//! ```
//! use privpac_classes::{ConceptClass, Thresholds};
//! use privpac_mechanisms::{Privacy, Private};
//! use rand::SeedableRng;
//! use privpac_sanitizers::{Mwem, Sanitizer, ThresholdSanitizer, max_query_error};
//!
//! let class = Thresholds::new(1024)?;
//! let data: Vec<u64> = (0..20_000u64).map(|i| (i * i + 3 * i) % 700).collect();
//! let sanitizers: Vec<Box<dyn Sanitizer>> = vec![
//!     Box::new(ThresholdSanitizer::new(Privacy::pure(1.0)?)?),
//!     Box::new(Mwem::new(Privacy::pure(1.0)?, 30)?),
//! ];
//! let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(42);
//! for sanitizer in &sanitizers {
//!     let synthetic = sanitizer.sanitize(&class, &data, &mut rng)?;
//!     let (error, worst) = max_query_error(&class, &data, &synthetic)?;
//!     assert!(error < 0.2, "{}: error {error} at c_{worst}", sanitizer.name());
//!     assert_eq!(sanitizer.privacy().epsilon(), 1.0);
//! }
//! # let _ = class.len();
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![doc(test(attr(deny(warnings))))]

mod blr;
mod error;
mod histogram;
mod interval_synthetic;
mod mwem;
mod ordered;
mod pieces;
mod pmw;
mod pmw_points;
mod point_function;
mod quantiles;
mod synthetic;
mod threshold;
mod xor_intervals;
mod xor_points;

pub use blr::{BlumLigettRoth, DEFAULT_CANDIDATE_LIMIT, MAX_CANDIDATE_LIMIT, SCORE_WORK_LIMIT};
pub use error::{Error, Result};
pub use histogram::{HISTOGRAM_LIMIT, QUERY_MATRIX_LIMIT};
pub use interval_synthetic::{IntervalXorSynthetic, interval_xor_matrix_bits};
pub use mwem::{DEFAULT_REPLAY_PASSES, MAX_REPLAY_PASSES, Mwem, MwemRun, MwemVariant};
pub use ordered::{ORDERED_XOR_LIMIT, OrderedMwemRun};
pub use pieces::PiecewiseDistribution;
pub use pmw::{PMW_PASS_LIMIT, PMW_WORK_LIMIT, PmwRun, PrivateMultiplicativeWeights};
pub use pmw_points::PointPmwRun;
pub use point_function::{MAX_DATABASE_SIZE, PointSanitizer};
pub use quantiles::{MAX_QUANTILES, QuantileSanitizer};
pub use synthetic::{SyntheticDatabase, SyntheticKind, max_query_error, max_query_error_on};
pub use threshold::{THRESHOLD_DOMAIN_LIMIT, ThresholdSanitizer};
pub use xor_intervals::{INTERVAL_XOR_LIMIT, IntervalEnds, IntervalMwemRun};
pub use xor_points::PointMwemRun;

use privpac_accounting::Private;
use privpac_classes::{ConceptClass, Point, ThresholdStructure};
use rand::Rng;

/// A (differentially private) sanitizer for counting queries: unlabeled data in, a
/// synthetic database out.
///
/// Neighbouring data sets have the same size and differ in one replaced point. The trait
/// is object-safe (the generator is `&mut dyn Rng`) so that the lab can hold
/// `Box<dyn Sanitizer>`. Its guarantee is the supertrait [`Private`]'s: one call to
/// [`Self::sanitize`] is [`Private::privacy`]-differentially private.
pub trait Sanitizer: Private + std::fmt::Debug + Send + Sync {
    /// Sanitizes `data` (points of `class.domain()`) for the counting queries of `class`.
    ///
    /// # Errors
    /// Sanitizer-specific; every implementation returns [`Error::EmptyData`] for empty
    /// data and [`Error::Class`] for a point outside the domain.
    fn sanitize(
        &self,
        class: &dyn ConceptClass,
        data: &[Point],
        rng: &mut dyn Rng,
    ) -> Result<SyntheticDatabase>;

    /// A short name for reports.
    fn name(&self) -> String;

    /// Sanitizes `data` for the XOR class `C ⊕ C` of `inner` (the query class of the
    /// sanitizer learners): the same as [`Self::sanitize`] on
    /// [`privpac_classes::Xor::new`]`(inner)`, which the provided implementation calls.
    /// MWEM and private multiplicative weights override it to build their query matrix
    /// from `inner`'s concepts (`|C|·|X|` evaluations instead of `2|C|²·|X|`), with the
    /// same output for the same generator. Same guarantee as [`Self::sanitize`].
    ///
    /// # Errors
    /// As [`Self::sanitize`]; [`Error::Class`] if `|C|²` exceeds 2^64.
    fn sanitize_xor(
        &self,
        inner: &dyn ConceptClass,
        data: &[Point],
        rng: &mut dyn Rng,
    ) -> Result<SyntheticDatabase> {
        let xor = privpac_classes::Xor::new(inner)?;
        self.sanitize(&xor, data, rng)
    }

    /// Sanitizes `data` (points of `[N]`) for the XOR class of thresholds (or of
    /// `both(thresholds)`) over `[N]`, the C⊕ the sanitizer learners use for those classes,
    /// without materializing it:
    /// `Some` with a [`PiecewiseDistribution`] for sanitizers that run on the class's
    /// structure (MWEM, [`Mwem::run_threshold_xor`]), or with the reason they cannot;
    /// `None` (the provided answer) for sanitizers that only run on
    /// [`Self::sanitize`]. Same guarantee as [`Self::sanitize`].
    fn sanitize_threshold_xor(
        &self,
        _class: ThresholdStructure,
        _data: &[Point],
        _rng: &mut dyn Rng,
    ) -> Option<Result<PiecewiseDistribution>> {
        None
    }

    /// Sanitizes `data` (points of `[N]`) for the XOR class of intervals over `[N]`
    /// (`INTERVAL ⊕ INTERVAL`, the C⊕ the sanitizer learners use for intervals) without
    /// its ids: `Some` with the output ([`IntervalXorSynthetic`]) for sanitizers whose
    /// output does not depend on the queries (the tree and point sanitizers: the same
    /// draws as [`Self::sanitize`] on the XOR class), or with the reason a sanitizer
    /// cannot run; `None` (the provided answer) to take the dense path
    /// ([`Self::sanitize_xor`]). Same guarantee as [`Self::sanitize`]. See the
    /// `xor_intervals` module for the class's structure.
    fn sanitize_interval_xor(
        &self,
        _size: u64,
        _data: &[Point],
        _rng: &mut dyn Rng,
    ) -> Option<Result<IntervalXorSynthetic>> {
        None
    }

    /// Sanitizes `data` (points of `[N]`) for `POINT_[N] ⊕ POINT_[N]`
    /// ([`privpac_classes::XorPoints`]), the C⊕ the sanitizer learners use for point
    /// functions over `[N]`, without materializing it: `Some` with a
    /// [`PiecewiseDistribution`] for sanitizers that run on the pairs' structure where the
    /// dense query matrix would exceed [`QUERY_MATRIX_LIMIT`] (MWEM,
    /// [`Mwem::run_point_xor`]; private multiplicative weights,
    /// [`PrivateMultiplicativeWeights::run_point_xor`]), or with the reason they cannot;
    /// `None` (the provided answer)
    /// for sanitizers that run on [`Self::sanitize`] (or [`Self::sanitize_xor`]). Same
    /// guarantee as [`Self::sanitize`].
    fn sanitize_point_xor(
        &self,
        _size: u64,
        _data: &[Point],
        _rng: &mut dyn Rng,
    ) -> Option<Result<PiecewiseDistribution>> {
        None
    }
}

/// The examples of the crate's README, compiled and run by `cargo test --doc`.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
