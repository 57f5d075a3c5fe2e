//! Limits on user-given counts and sizes, checked before anything is allocated in
//! proportion to them (a front end passes counts straight from its users).
//!
//! Each limit is far above what a run on one machine finishes in reasonable time, and low
//! enough that the memory it implies (a few words per unit) cannot exhaust a machine.

use crate::error::{Error, Result};

/// Largest domain that is materialized (the O(|X|) reference path). Larger domains are
/// accepted for the structured classes and distributions of [`crate::structured`], whose
/// true errors take time independent of |X|.
pub const MAX_EXACT_DOMAIN: u128 = 1 << 24;

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
/// Largest whole file the lab reads (class matrix, experiment results, experiment files):
/// 512 MiB. Files are read through a reader capped one byte past it, so `/dev/zero`, a FIFO
/// or a growing file stop with [`Error::FileTooLarge`] instead of exhausting memory. Data
/// files are not read whole: `privpac_toolkit` streams them with a row limit and a
/// line-length limit instead.
pub const MAX_INPUT_BYTES: u64 = 512 << 20;

/// Reads at most [`MAX_INPUT_BYTES`] of the file at `path`.
///
/// # Errors
/// [`Error::Io`] if it cannot be read; [`Error::FileTooLarge`] past the limit.
pub fn read_capped(path: &std::path::Path) -> Result<Vec<u8>> {
    read_capped_at(path, MAX_INPUT_BYTES)
}

/// [`read_capped`] with another limit (for tests).
pub(crate) fn read_capped_at(path: &std::path::Path, limit: u64) -> Result<Vec<u8>> {
    use std::io::Read as _;
    let io = |e: std::io::Error| Error::Io {
        path: path.display().to_string(),
        reason: e.to_string(),
    };
    let file = std::fs::File::open(path).map_err(io)?;
    if file.metadata().map_err(io)?.is_dir() {
        return Err(Error::Io {
            path: path.display().to_string(),
            reason: "is a directory".into(),
        });
    }
    let mut bytes = Vec::new();
    file.take(limit + 1).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 > limit {
        return Err(Error::FileTooLarge {
            path: path.display().to_string(),
            limit,
        });
    }
    Ok(bytes)
}

/// Checks `value ≤ limit` for the count `name`.
///
/// # Errors
/// [`Error::TooLarge`] naming the count and the limit.
///
/// # Example
/// ```
/// assert!(privpac_engine::check_count("trials", 10, privpac_engine::limits::MAX_TRIALS).is_ok());
/// assert!(privpac_engine::check_count("trials", usize::MAX, privpac_engine::limits::MAX_TRIALS).is_err());
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

#[cfg(test)]
mod tests {
    use super::*;

    /// An endless file (`/dev/zero`) stops at the limit with a typed error; a small file
    /// reads whole; a directory and a missing file are I/O errors.
    #[test]
    fn reads_stop_at_the_limit() {
        if std::path::Path::new("/dev/zero").exists() {
            assert!(matches!(
                read_capped_at(std::path::Path::new("/dev/zero"), 1 << 16),
                Err(Error::FileTooLarge { limit: 65536, .. })
            ));
        }
        let dir = std::env::temp_dir().join(format!("privpac-capped-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("small.txt");
        std::fs::write(&file, "0123456789").unwrap();
        assert_eq!(read_capped_at(&file, 10).unwrap().len(), 10);
        assert!(matches!(
            read_capped_at(&file, 9),
            Err(Error::FileTooLarge { limit: 9, .. })
        ));
        assert!(matches!(read_capped_at(&dir, 100), Err(Error::Io { .. })));
        assert!(matches!(
            read_capped_at(&dir.join("missing"), 100),
            Err(Error::Io { .. })
        ));
    }
}
