//! The integration tests of the sanitizers crate, one binary (STYLE.md rule 20).

// clippy.toml's allow-unwrap-in-tests covers #[test] functions only, not the shared helpers
// of an integration-test crate.
#![allow(clippy::unwrap_used)]

// Seeded accuracy tests against each sanitizer's stated bound, and huge-ε checks.
mod accuracy;
// MWEM on skewed data against the target and an independent replaying reference.
mod mwem_accuracy;
// Exact privacy audits with privpac-audit (BLR, the point sanitizer's thresholding step, the
// threshold tree sanitizer).
mod audit;
// Typed errors, the no-panic property test and auto traits.
mod errors;
// The interior-point (TreeLog) quantile sanitizer: exact audit, negative control, χ², accuracy.
mod quantiles;
