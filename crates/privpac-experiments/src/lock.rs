//! The lock of a results file: two runs appending to one results file would duplicate
//! units (or interleave a repair with an append), so a run holds `FILE.lock` while it
//! reads, repairs and appends to `FILE`.
//!
//! The lock file is created with `create_new` (atomic: exactly one run creates it) and
//! holds the PID of its run; it is removed when the [`ResultsLock`] is dropped. A run that
//! finds it refuses with [`Error::ResultsLocked`], naming the file and the PID, unless
//! that PID is no longer alive (on Linux: no `/proc/PID`): the lock of a killed run is
//! then stale, removed and taken over, and [`ResultsLock::acquire`] says so
//! ([`StaleLock`]). Where liveness cannot be checked (no `/proc`), or when the lock file
//! names no PID, the lock counts as held; the error says to delete the lock file if no
//! run is going.

use std::fs::OpenOptions;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use crate::{Error, Result, io};

/// A lock left by a run that is no longer alive, removed by [`ResultsLock::acquire`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct StaleLock {
    /// The lock file.
    pub lock: PathBuf,
    /// The PID it named.
    pub pid: u32,
}

impl std::fmt::Display for StaleLock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: removed a stale lock of process {}, which is no longer running",
            self.lock.display(),
            self.pid
        )
    }
}

/// The held lock of a results file; dropping it removes the lock file.
#[derive(Debug)]
pub struct ResultsLock {
    lock: PathBuf,
}

/// `FILE.lock` beside `FILE`.
pub fn lock_path(results: &Path) -> PathBuf {
    let mut lock = results.as_os_str().to_owned();
    lock.push(".lock");
    PathBuf::from(lock)
}

/// Whether process `pid` is alive: `None` where this cannot be told (no `/proc`).
fn alive(pid: u32) -> Option<bool> {
    if pid == std::process::id() {
        return Some(true);
    }
    let proc = Path::new("/proc");
    if !proc.join("self").exists() {
        return None;
    }
    Some(proc.join(pid.to_string()).exists())
}

impl ResultsLock {
    /// Takes the lock of `results` (the file `results.lock`), removing a stale one first.
    ///
    /// # Errors
    /// [`Error::ResultsLocked`] while another live run (or one whose liveness cannot be
    /// told) holds it; I/O errors.
    pub fn acquire(results: &Path) -> Result<(ResultsLock, Option<StaleLock>)> {
        let lock = lock_path(results);
        let mut stale = None;
        // Twice at most: once more after removing a stale lock (if another run took the
        // lock in between, the second attempt reports it).
        for _ in 0..2 {
            match OpenOptions::new().write(true).create_new(true).open(&lock) {
                Ok(mut file) => {
                    let held = ResultsLock { lock: lock.clone() };
                    file.write_all(format!("{}\n", std::process::id()).as_bytes())
                        .and_then(|()| file.sync_all())
                        .map_err(|source| io(&lock, source))?;
                    return Ok((held, stale));
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
                Err(source) => return Err(io(&lock, source)),
            }
            let pid = std::fs::read_to_string(&lock)
                .ok()
                .and_then(|text| text.trim().parse::<u32>().ok());
            match pid {
                Some(pid) if alive(pid) == Some(false) && stale.is_none() => {
                    match std::fs::remove_file(&lock) {
                        Ok(()) => {}
                        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                        Err(source) => return Err(io(&lock, source)),
                    }
                    stale = Some(StaleLock {
                        lock: lock.clone(),
                        pid,
                    });
                }
                _ => {
                    return Err(Error::ResultsLocked {
                        path: results.to_path_buf(),
                        lock,
                        holder: match pid {
                            Some(pid) => format!("process {pid}"),
                            None => "a process the lock file does not name".into(),
                        },
                    });
                }
            }
        }
        Err(Error::ResultsLocked {
            path: results.to_path_buf(),
            holder: "another process".into(),
            lock,
        })
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.lock
    }
}

impl Drop for ResultsLock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.lock);
    }
}
