//! Results files and the records in them: reading them (with their line numbers),
//! dropping a torn last line, and the checks a record passes before a resume or a merge
//! uses it.
//!
//! A record carries, besides its row, [`UnitRecord::params`]: everything its row depends on
//! but the seed — the unit's parameters, the run's settings (for a sample-complexity sweep
//! `beta`, `label_noise`, `trials`, `search.start` and `search.max_size`; for a k-curves
//! sweep also `alpha` and the curve's definition) and the `privpac_version` that computed
//! it — as [`crate::Experiment::record_params`] states them. A record whose parameters
//! differ from the experiment's as it is now (an edited experiment file, another privpac)
//! is *stale*:
//!
//! - on resume ([`crate::Experiment::run_shard_with`]) stale records are dropped from the
//!   results file (rewritten whole, atomically) and their units run again, reported as one
//!   [`StaleRecords`] naming the keys that changed and how many records;
//! - on merge ([`crate::Experiment::merge`], [`crate::Experiment::merge_records`]) a stale
//!   record is an error, [`Error::StaleRecord`], naming the record (file and line) and the
//!   keys: shards computed under another file are never mixed with each other or reported
//!   under the file's present settings.
//!
//! Records of another experiment, scale or seed are an error in both cases (the file
//! belongs to another run; nothing is dropped).

use std::fs::{File, OpenOptions};
use std::io::Write as _;
use std::path::Path;

use serde_json::Value;

use crate::{Error, Result, Row, Scale, UnitRecord, io};

/// The privpac version every record states (`privpac_version` in its parameters).
pub const PRIVPAC_VERSION: &str = env!("CARGO_PKG_VERSION");

/// The bytes of a results file, at most [`privpac_toolkit::limits::MAX_INPUT_BYTES`].
pub(crate) fn read_results_bytes(path: &Path) -> Result<Vec<u8>> {
    use std::io::Read as _;
    let file = File::open(path).map_err(|source| io(path, source))?;
    let limit = privpac_toolkit::limits::MAX_INPUT_BYTES;
    let mut bytes = Vec::new();
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|source| io(path, source))?;
    if bytes.len() as u64 > limit {
        return Err(Error::ResultsTooLarge {
            path: path.to_path_buf(),
            limit,
        });
    }
    Ok(bytes)
}

/// One record of a results file with its line number (from 1) and its text.
pub(crate) struct Line {
    pub(crate) number: usize,
    pub(crate) text: String,
    pub(crate) record: UnitRecord,
}

/// The records of a results file, in file order.
pub(crate) fn read_records(path: &Path) -> Result<Vec<Line>> {
    let bytes = read_results_bytes(path)?;
    let mut records = Vec::new();
    for (number, line) in bytes.split(|&b| b == b'\n').enumerate() {
        let line = std::str::from_utf8(line).map_err(|_| Error::ResultsNotText {
            path: path.to_path_buf(),
            line: number + 1,
        })?;
        if line.trim().is_empty() {
            continue;
        }
        records.push(Line {
            number: number + 1,
            text: line.to_string(),
            record: serde_json::from_str(line).map_err(|source| Error::BadResultsLine {
                path: path.to_path_buf(),
                line: number + 1,
                source,
            })?,
        });
    }
    Ok(records)
}

/// A torn last line dropped from a results file by [`repair_torn_tail`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct TornLine {
    /// Its line number (from 1).
    pub line: usize,
    /// How many bytes were dropped.
    pub bytes: usize,
}

/// Drops a torn last line from a results file, the trace of a run killed while appending
/// a record (each record is written as one line ending in a newline, so a torn write is a
/// last line with no newline that is not a whole record). The file is truncated to the
/// end of its last complete line and the torn line's unit, now missing, runs again on
/// resume. A last record that is whole but lacks its newline gets the newline. Anything
/// else that is wrong with the file (a bad line followed by others, a bad line that ends
/// in a newline) is left for [`crate::run_shard`] to report as an error.
/// [`crate::Experiment::run_shard_with`] calls this itself, holding the file's lock, and
/// reports the dropped line as a [`crate::ShardEvent::TornLine`]; call it directly only on
/// a file no run is writing.
///
/// # Errors
/// I/O errors; [`Error::ResultsTooLarge`].
pub fn repair_torn_tail(path: &Path) -> Result<Option<TornLine>> {
    if !path.exists() {
        return Ok(None);
    }
    let bytes = read_results_bytes(path)?;
    if bytes.is_empty() || bytes.ends_with(b"\n") {
        return Ok(None);
    }
    let start = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let tail = &bytes[start..];
    let whole = std::str::from_utf8(tail).is_ok_and(|text| {
        text.trim().is_empty() || serde_json::from_str::<UnitRecord>(text).is_ok()
    });
    let mut file = OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(|source| io(path, source))?;
    if whole {
        use std::io::Seek as _;
        file.seek(std::io::SeekFrom::End(0))
            .and_then(|_| file.write_all(b"\n"))
            .map_err(|source| io(path, source))?;
        return Ok(None);
    }
    file.set_len(start as u64)
        .map_err(|source| io(path, source))?;
    let line = bytes[..start].iter().filter(|&&b| b == b'\n').count() + 1;
    Ok(Some(TornLine {
        line,
        bytes: tail.len(),
    }))
}

/// Checks that a record's row holds its unit's parameters (a results file of an edited
/// experiment file with the same name, scale and seed is refused, not mixed in). Units
/// beyond the experiment's are left to the callers' range checks.
pub(crate) fn check_params(record: &UnitRecord, units: &[Row], path: Option<&Path>) -> Result<()> {
    let Some(params) = units.get(record.unit) else {
        return Ok(());
    };
    if params.iter().all(|(k, v)| record.row.get(k) == Some(v)) {
        return Ok(());
    }
    let found = format!(
        "unit {} with parameters {}",
        record.unit,
        serde_json::Value::Object(
            params
                .keys()
                .filter_map(|k| Some((k.clone(), record.row.get(k)?.clone())))
                .collect()
        )
    );
    let expected = format!(
        "unit {} with parameters {}",
        record.unit,
        serde_json::Value::Object(params.clone())
    );
    Err(match path {
        Some(path) => Error::MismatchedResults {
            path: path.to_path_buf(),
            found,
            expected,
        },
        None => Error::MismatchedRecord {
            unit: record.unit,
            found,
            expected,
        },
    })
}

pub(crate) fn check_record(
    record: &UnitRecord,
    name: &str,
    scale: Scale,
    seed: u64,
    path: Option<&Path>,
) -> Result<()> {
    if record.experiment != name || record.scale != scale || record.seed != seed {
        let found = format!(
            "{} ({}, seed {})",
            record.experiment, record.scale, record.seed
        );
        let expected = format!("{name} ({scale}, seed {seed})");
        return Err(match path {
            Some(path) => Error::MismatchedResults {
                path: path.to_path_buf(),
                found,
                expected,
            },
            None => Error::MismatchedRecord {
                unit: record.unit,
                found,
                expected,
            },
        });
    }
    Ok(())
}

/// Why a record is stale: the keys of its parameters that differ from the experiment's
/// as it is now, and one line saying how.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Staleness {
    /// The keys that differ, in key order (`params` for a record with no parameters at
    /// all, `unit` for a unit beyond the experiment's).
    pub(crate) keys: Vec<String>,
    /// `trials is 300 in the record, 200 in the file; …`.
    pub(crate) reason: String,
}

/// A parameter value as a message shows it: strings bare, absent ones as "absent".
fn shown(value: Option<&Value>) -> String {
    match value {
        None => "absent".into(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    }
}

/// Whether `record` is stale against `expected` (every unit's parameters now, in unit
/// order); `against` names what holds the present values ("the file", "the catalogue").
pub(crate) fn staleness(record: &UnitRecord, expected: &[Row], against: &str) -> Option<Staleness> {
    let Some(now) = expected.get(record.unit) else {
        return Some(Staleness {
            keys: vec!["unit".into()],
            reason: format!(
                "unit {} is beyond the {} units of {against}",
                record.unit,
                expected.len()
            ),
        });
    };
    if record.params.is_empty() {
        return Some(Staleness {
            keys: vec!["params".into()],
            reason: format!(
                "the record states no parameters (written by a privpac before {PRIVPAC_VERSION}), so it cannot be checked against {against}"
            ),
        });
    }
    let mut keys: Vec<&String> = now.keys().chain(record.params.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.retain(|k| now.get(*k) != record.params.get(*k));
    if keys.is_empty() {
        return None;
    }
    let reason = keys
        .iter()
        .map(|k| {
            format!(
                "{k} is {} in the record, {} in {against}",
                shown(record.params.get(*k)),
                shown(now.get(*k))
            )
        })
        .collect::<Vec<_>>()
        .join("; ");
    Some(Staleness {
        keys: keys.into_iter().cloned().collect(),
        reason,
    })
}

/// The error of a stale record found by a merge: `origin` names it (`FILE line N`, `record
/// of unit N`).
pub(crate) fn stale_error(origin: String, staleness: Staleness) -> Error {
    Error::StaleRecord {
        origin,
        key: staleness.keys.first().cloned().unwrap_or_default(),
        reason: staleness.reason,
    }
}

/// Stale records dropped from a results file on resume, to run again: how many, and for
/// each set of changed keys how many records and what changed in the first of them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct StaleRecords {
    /// How many records were dropped.
    pub dropped: usize,
    /// For each set of changed keys (in order of first appearance): the keys, how many
    /// records, and the first such record's line and reason (`trials is 300 in the record,
    /// 200 in the file`).
    pub changes: Vec<StaleChange>,
}

/// One set of changed keys of [`StaleRecords`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct StaleChange {
    /// The keys that changed.
    pub keys: Vec<String>,
    /// How many records.
    pub records: usize,
    /// The line (from 1) of the first one.
    pub first_line: usize,
    /// What changed in it.
    pub reason: String,
}

impl StaleRecords {
    pub(crate) fn add(&mut self, line: usize, staleness: Staleness) {
        self.dropped += 1;
        match self.changes.iter_mut().find(|c| c.keys == staleness.keys) {
            Some(change) => change.records += 1,
            None => self.changes.push(StaleChange {
                keys: staleness.keys,
                records: 1,
                first_line: line,
                reason: staleness.reason,
            }),
        }
    }
}

impl std::fmt::Display for StaleRecords {
    /// One line: `dropped 4 stale records (4 with trials changed, line 1: trials is 300 in
    /// the record, 200 in the file); their units run again`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let changes = self
            .changes
            .iter()
            .map(|c| {
                format!(
                    "{} with {} changed, line {}: {}",
                    c.records,
                    c.keys.join(", "),
                    c.first_line,
                    c.reason
                )
            })
            .collect::<Vec<_>>()
            .join("; ");
        write!(
            f,
            "dropped {} stale record{} computed under other settings ({changes}); their units run again",
            self.dropped,
            if self.dropped == 1 { "" } else { "s" }
        )
    }
}

#[cfg(test)]
mod tests;
