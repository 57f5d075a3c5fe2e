//! Limits on user-given counts and sizes, checked before anything is allocated in
//! proportion to them (a front end passes counts straight from its users).
//!
//! Each limit is far above what a run on one machine finishes in reasonable time, and low
//! enough that the memory it implies (a few words per unit) cannot exhaust a machine.

use crate::error::{Error, Result};

/// Most independent trials per sample size ([`crate::run_trials`]).
pub const MAX_TRIALS: usize = 1_000_000;
/// Largest sample size drawn per trial, and largest subset size of a stable learner
/// (`2^24` examples, 16 bytes each per concurrent trial).
pub const MAX_SAMPLE_SIZE: usize = 1 << 24;
/// Most voters (blocks) of the voting and relabeling learners.
pub const MAX_VOTERS: usize = 1 << 20;
/// Most rounds of an iterative sanitizer (MWEM's T).
pub const MAX_SANITIZER_ROUNDS: usize = 1 << 16;
/// Most rounds of an online-learning game (each round is kept in the transcript).
pub const MAX_ONLINE_ROUNDS: usize = 1_000_000;
/// Most independent releases of one mechanism in one run.
pub const MAX_RELEASES: usize = 1_000_000;

/// Checks `value ≤ limit` for the count `name`.
///
/// # Errors
/// [`Error::TooLarge`] naming the count and the limit.
///
/// # Example
/// ```
/// assert!(lab::check_count("trials", 10, lab::limits::MAX_TRIALS).is_ok());
/// assert!(lab::check_count("trials", usize::MAX, lab::limits::MAX_TRIALS).is_err());
/// ```
pub fn check_count(name: &'static str, value: usize, limit: usize) -> Result<()> {
    if value > limit {
        return Err(Error::TooLarge {
            name,
            limit: limit as u64,
            value: value as u64,
        });
    }
    Ok(())
}
