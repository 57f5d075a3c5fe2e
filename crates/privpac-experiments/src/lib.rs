//! Named, seeded, shardable experiments: each expands into independent work units whose
//! seeds derive from (master seed, unit index), so any slice of the units can run
//! anywhere, in any order, and the merged results are bit-identical to one unsharded run.
//!
//! The workflow:
//!
//! 1. [`run_shard`] runs the units of shard `I/N` (units `i` with `i mod N = I`) and
//!    appends one JSON line per finished unit to a results file; a rerun on the same file
//!    skips the units already there (resume after an interruption).
//! 2. [`merge`] reads any number of results files, checks that they belong to the same
//!    experiment, scale and seed and that every unit is present exactly once (duplicates
//!    must agree), and returns the rows in unit order.
//! 3. [`write_outputs`] turns the rows into `results.csv`, `results.json`, SVG plots and a
//!    Markdown `README.md` report in a directory. Everything written is a function of the
//!    rows alone, so sharded and unsharded runs write the same bytes.
//!
//! The same steps exist in memory for engines that schedule units themselves (a Python
//! Dask cluster, a job queue): [`units`] lists every unit's parameters, [`run_unit`]
//! computes one unit's [`UnitRecord`] (exactly the line [`run_shard`] appends for it, which
//! uses it), and [`merge_records`] applies [`merge`]'s checks to records held in memory
//! ([`merge`] reads the files and calls it). So results computed by any engine, merged
//! and written, are byte for byte those of `privpac experiment NAME`.
//!
//! Unit `i` seeds its trials with [`unit_seed`]`(master, i)`, the first word of ChaCha8
//! stream `i` of the master seed ([`privpac_toolkit::trial_rng`]); inside a unit, trial `j` uses
//! stream `j` of that seed as everywhere in the lab.

mod catalog;
mod plot;
mod sweep;

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use rand::Rng as _;
use serde::{Deserialize, Serialize};

pub use catalog::{EXPERIMENTS, ExperimentInfo};
pub use plot::{Axis, Figure, Layout, Series, Style};
pub use sweep::{
    CurveDef, CurveScenario, DEFAULT_MAX_UNITS, FileDistribution, Grid, KCurveSweep, KLevel, Level,
    MAX_K, MAX_SEARCH_SIZE, MAX_TRIALS, MAX_UNITS, Settings, Sweep,
};

/// Errors of the experiment machinery.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// An experiment name that is not in [`EXPERIMENTS`].
    #[error("unknown experiment {name:?} (expected one of: {known})")]
    UnknownExperiment {
        /// The rejected name.
        name: String,
        /// The known names, comma-separated.
        known: String,
    },
    /// An experiment file that does not parse or check: names the key (empty for a
    /// syntax error) and the line.
    #[error("{origin}, line {line}{}: {message}", if key.is_empty() { String::new() } else { format!(", key `{key}`") })]
    BadExperimentFile {
        /// The file.
        origin: String,
        /// The line (from 1).
        line: usize,
        /// The key at fault.
        key: String,
        /// What is wrong.
        message: String,
    },
    /// An experiment file named like a catalogue experiment it does not define.
    #[error(
        "{origin}: the name {name:?} belongs to a catalogue experiment this file does not define; rename it"
    )]
    NameTaken {
        /// The file.
        origin: String,
        /// The name.
        name: String,
    },
    /// A shard `I/N` with N = 0 or I ≥ N.
    #[error("invalid shard {index}/{count}: need count ≥ 1 and index < count")]
    InvalidShard {
        /// I.
        index: usize,
        /// N.
        count: usize,
    },
    /// A shard that is not of the form `I/N` with I and N non-negative integers.
    #[error("malformed shard {text:?}: expected I/N, shard I of N with 0 ≤ I < N (e.g. 0/4)")]
    MalformedShard {
        /// The text as given.
        text: String,
    },
    /// A scale name other than tiny, quick or full.
    #[error("unknown scale {name:?} (expected tiny, quick or full)")]
    UnknownScale {
        /// The rejected name.
        name: String,
    },
    /// Reading or writing a file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A results file larger than [`privpac_toolkit::limits::MAX_INPUT_BYTES`].
    #[error("{path} is larger than the {limit}-byte limit on input files")]
    ResultsTooLarge {
        /// The file.
        path: PathBuf,
        /// The limit in bytes.
        limit: u64,
    },
    /// A results line that is not UTF-8 text (anywhere but a torn last line).
    #[error("{path}, line {line}: not UTF-8 text")]
    ResultsNotText {
        /// The file.
        path: PathBuf,
        /// The line number (from 1).
        line: usize,
    },
    /// A results line that is not valid JSON of the expected shape.
    #[error("{path}, line {line}: {source}")]
    BadResultsLine {
        /// The file.
        path: PathBuf,
        /// The line number (from 1).
        line: usize,
        /// The cause.
        source: serde_json::Error,
    },
    /// Results of different runs mixed in one merge or one results file.
    #[error(
        "{path}: results of {found} cannot be combined with {expected} (same experiment, scale and seed needed)"
    )]
    MismatchedResults {
        /// The file.
        path: PathBuf,
        /// What the file holds.
        found: String,
        /// What was expected.
        expected: String,
    },
    /// A record of another experiment, scale or seed given to [`merge_records`].
    #[error(
        "record of unit {unit}: results of {found} cannot be combined with {expected} (same experiment, scale and seed needed)"
    )]
    MismatchedRecord {
        /// The record's unit index.
        unit: usize,
        /// What the record holds.
        found: String,
        /// What was expected.
        expected: String,
    },
    /// A unit index at or beyond the experiment's number of units.
    #[error("unit {unit} does not exist ({total} units)")]
    UnitOutOfRange {
        /// The rejected index.
        unit: usize,
        /// How many units the experiment has at that scale.
        total: usize,
    },
    /// The same unit with different results in two files (or two records).
    #[error("unit {unit} has different results in different files")]
    ConflictingUnit {
        /// The unit index.
        unit: usize,
    },
    /// Units missing from a merge.
    #[error("{missing} of {total} units missing (first missing: unit {first})")]
    MissingUnits {
        /// How many are missing.
        missing: usize,
        /// How many units the experiment has.
        total: usize,
        /// The first missing unit.
        first: usize,
    },
    /// A lab error inside a unit.
    #[error("unit {unit}: {source}")]
    Unit {
        /// The unit index.
        unit: usize,
        /// The cause.
        source: Box<privpac_toolkit::Error>,
    },
    /// A concept-class error inside a unit (online experiments).
    #[error("unit {unit}: {source}")]
    Class {
        /// The unit index.
        unit: usize,
        /// The cause.
        source: privpac_classes::Error,
    },
    /// An error of the tracing attack inside a unit (the `tracing-attack` experiment).
    #[error("unit {unit}: {source}")]
    Attack {
        /// The unit index.
        unit: usize,
        /// The cause.
        source: privpac_attacks::Error,
    },
    /// Drawing a plot failed.
    #[error("plot {name}: {reason}")]
    Plot {
        /// The plot file.
        name: String,
        /// What went wrong.
        reason: String,
    },
    /// Serializing results failed.
    #[error("serializing results: {0}")]
    Json(#[from] serde_json::Error),
    /// Writing CSV failed.
    #[error("writing CSV: {0}")]
    Csv(#[from] csv::Error),
}

/// Results of this module.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// How big a run is: `Tiny` for tests (seconds), `Quick` for the committed example
/// outputs (a minute or so), `Full` for the real thing (not part of `cargo test`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scale {
    /// Tests.
    Tiny,
    /// The committed example outputs.
    Quick,
    /// Full runs.
    Full,
}

impl std::str::FromStr for Scale {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        match s {
            "tiny" => Ok(Scale::Tiny),
            "quick" => Ok(Scale::Quick),
            "full" => Ok(Scale::Full),
            other => Err(Error::UnknownScale { name: other.into() }),
        }
    }
}

impl std::fmt::Display for Scale {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Scale::Tiny => "tiny",
            Scale::Quick => "quick",
            Scale::Full => "full",
        })
    }
}

/// A slice `index/count` of the units.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    index: usize,
    count: usize,
}

impl Shard {
    /// Shard `index` of `count` (0-based).
    ///
    /// # Errors
    /// [`Error::InvalidShard`] for `count` = 0 or `index ≥ count`.
    pub fn new(index: usize, count: usize) -> Result<Self> {
        if count == 0 || index >= count {
            return Err(Error::InvalidShard { index, count });
        }
        Ok(Shard { index, count })
    }

    /// All units.
    pub fn whole() -> Self {
        Shard { index: 0, count: 1 }
    }

    /// Whether unit `unit` belongs to this shard.
    pub fn contains(&self, unit: usize) -> bool {
        unit % self.count == self.index
    }
}

impl std::str::FromStr for Shard {
    type Err = Error;
    /// Parses `I/N`.
    fn from_str(s: &str) -> Result<Self> {
        let bad = || Error::MalformedShard {
            text: s.to_string(),
        };
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        Shard::new(
            i.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        )
    }
}

/// One unit's parameters or one unit's result row (column name → value).
pub type Row = serde_json::Map<String, serde_json::Value>;

/// One line of a results file: a finished unit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UnitRecord {
    /// The experiment name.
    pub experiment: String,
    /// The scale.
    pub scale: Scale,
    /// The master seed.
    pub seed: u64,
    /// The unit index.
    pub unit: usize,
    /// The unit's result row (column name → value).
    pub row: Row,
}

/// The seed of unit `unit`: the first word of ChaCha8 stream `unit` of the master seed.
pub fn unit_seed(master_seed: u64, unit: usize) -> u64 {
    privpac_toolkit::trial_rng(master_seed, unit as u64).next_u64()
}

/// Looks an experiment up by name.
///
/// # Errors
/// [`Error::UnknownExperiment`].
pub fn find(name: &str) -> Result<&'static ExperimentInfo> {
    EXPERIMENTS
        .iter()
        .find(|e| e.name == name)
        .ok_or_else(|| Error::UnknownExperiment {
            name: name.into(),
            known: EXPERIMENTS
                .iter()
                .map(|e| e.name)
                .collect::<Vec<_>>()
                .join(", "),
        })
}

/// An experiment to run: a catalogue entry ([`Experiment::named`]) or a sweep read from an
/// experiment file ([`Experiment::from_file`]). Both expand into unit rows and run, merge
/// and write through the same functions; the free functions of this crate are these
/// methods on a catalogue entry.
#[derive(Debug, Clone)]
pub struct Experiment {
    def: Def,
}

#[derive(Debug, Clone)]
enum Def {
    Catalog(&'static ExperimentInfo),
    File(Box<Sweep>),
    KCurves(Box<KCurveSweep>),
}

impl Experiment {
    /// A catalogue experiment.
    ///
    /// # Errors
    /// [`Error::UnknownExperiment`].
    pub fn named(name: &str) -> Result<Self> {
        Ok(Experiment {
            def: Def::Catalog(find(name)?),
        })
    }

    /// The experiment a sweep declares. A sweep named like a catalogue experiment is that
    /// experiment only if it is its definition (the shipped file, value for value).
    ///
    /// # Errors
    /// [`Error::NameTaken`] for a catalogue name with another definition.
    pub fn from_sweep(sweep: Sweep, origin: &str) -> Result<Self> {
        if let Some(info) = EXPERIMENTS.iter().find(|e| e.name == sweep.name) {
            if catalog::sweep_of(info.name) == Some(&sweep) {
                return Ok(Experiment {
                    def: Def::Catalog(info),
                });
            }
            return Err(Error::NameTaken {
                origin: origin.into(),
                name: sweep.name,
            });
        }
        Ok(Experiment {
            def: Def::File(Box::new(sweep)),
        })
    }

    /// The experiment a k-curves sweep declares (as [`Experiment::from_sweep`]).
    ///
    /// # Errors
    /// [`Error::NameTaken`] for a catalogue name with another definition.
    pub fn from_k_curves(sweep: KCurveSweep, origin: &str) -> Result<Self> {
        if let Some(info) = EXPERIMENTS.iter().find(|e| e.name == sweep.name) {
            if catalog::k_curves_sweep_of(info.name) == Some(&sweep) {
                return Ok(Experiment {
                    def: Def::Catalog(info),
                });
            }
            return Err(Error::NameTaken {
                origin: origin.into(),
                name: sweep.name,
            });
        }
        Ok(Experiment {
            def: Def::KCurves(Box::new(sweep)),
        })
    }

    /// Reads an experiment file: of kind `k-curves` ([`KCurveSweep::parse`],
    /// [`Experiment::from_k_curves`]), else a sample-complexity sweep ([`Sweep::read`],
    /// [`Experiment::from_sweep`]).
    ///
    /// # Errors
    /// Those of [`Sweep::read`], [`KCurveSweep::parse`] and [`Experiment::from_sweep`].
    pub fn from_file(path: &Path) -> Result<Self> {
        let origin = path.display().to_string();
        let text =
            String::from_utf8(read_results_bytes(path)?).map_err(|_| Error::BadExperimentFile {
                origin: origin.clone(),
                line: 1,
                key: String::new(),
                message: "not UTF-8 text".into(),
            })?;
        if sweep::declared_kind(&text).as_deref() == Some("k-curves") {
            return Experiment::from_k_curves(KCurveSweep::parse(&text, &origin)?, &origin);
        }
        Experiment::from_sweep(Sweep::parse(&text, &origin)?, &origin)
    }

    /// The name (results files, output directory).
    pub fn name(&self) -> &str {
        match &self.def {
            Def::Catalog(info) => info.name,
            Def::File(sweep) => &sweep.name,
            Def::KCurves(sweep) => &sweep.name,
        }
    }

    /// The master seed an experiment file states, if any.
    pub fn default_seed(&self) -> Option<u64> {
        match &self.def {
            Def::Catalog(_) => None,
            Def::File(sweep) => sweep.seed,
            Def::KCurves(sweep) => sweep.seed,
        }
    }

    /// The parameters of every unit at a scale, in unit order (unit `i` is element `i`).
    /// Each map holds what distinguishes the unit (class, learner, ε, α, …); its result row
    /// repeats them.
    pub fn units(&self, scale: Scale) -> Vec<Row> {
        match &self.def {
            Def::Catalog(info) => catalog::units(info.name, scale),
            Def::File(sweep) => sweep.units(scale),
            Def::KCurves(sweep) => sweep.units(scale),
        }
    }

    /// Runs unit `unit` at `scale` with master seed `seed` and returns its record: exactly
    /// the line [`Experiment::run_shard`] appends for it, a function of (experiment, scale,
    /// seed, unit) alone.
    ///
    /// # Errors
    /// [`Error::UnitOutOfRange`], the unit's own errors.
    pub fn run_unit(&self, scale: Scale, seed: u64, unit: usize) -> Result<UnitRecord> {
        let units = self.units(scale);
        let params = units.get(unit).ok_or(Error::UnitOutOfRange {
            unit,
            total: units.len(),
        })?;
        let unit_seed = unit_seed(seed, unit);
        let row = match &self.def {
            Def::Catalog(info) => catalog::run_unit(info.name, scale, params, unit_seed, unit)?,
            Def::File(sweep) => {
                catalog::run_sample_complexity_unit(params, sweep.settings(scale), unit_seed, unit)?
            }
            Def::KCurves(sweep) => {
                catalog::run_k_curve_unit(sweep, scale, params, unit_seed, unit)?
            }
        };
        Ok(UnitRecord {
            experiment: self.name().into(),
            scale,
            seed,
            unit,
            row,
        })
    }

    /// [`run_shard`] for this experiment.
    ///
    /// # Errors
    /// As [`run_shard`].
    pub fn run_shard(
        &self,
        scale: Scale,
        seed: u64,
        shard: Shard,
        results: &Path,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<usize> {
        let name = self.name();
        let units = self.units(scale);
        let total_units = units.len();
        let mut done = BTreeMap::new();
        if results.exists() {
            repair_torn_tail(results)?;
            for record in read_records(results)? {
                check_record(&record, name, scale, seed, Some(results))?;
                check_params(&record, &units, Some(results))?;
                done.insert(record.unit, record);
            }
        }
        let mine: Vec<usize> = (0..total_units).filter(|&u| shard.contains(u)).collect();
        let total = mine.len();
        let mut finished = mine.iter().filter(|u| done.contains_key(u)).count();
        progress(finished, total);
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(results)
            .map_err(|source| io(results, source))?;
        let mut ran = 0;
        for &unit in mine.iter().filter(|u| !done.contains_key(u)) {
            let record = self.run_unit(scale, seed, unit)?;
            let mut line = serde_json::to_string(&record)?;
            line.push('\n');
            file.write_all(line.as_bytes())
                .and_then(|()| file.flush())
                .map_err(|source| io(results, source))?;
            ran += 1;
            finished += 1;
            progress(finished, total);
        }
        Ok(ran)
    }

    /// [`merge`] for this experiment.
    ///
    /// # Errors
    /// As [`merge`].
    pub fn merge(&self, scale: Scale, seed: u64, files: &[PathBuf]) -> Result<Vec<Row>> {
        let name = self.name();
        let total = self.units(scale).len();
        let mut records = Vec::new();
        for path in files {
            for record in read_records(path)? {
                check_record(&record, name, scale, seed, Some(path))?;
                if record.unit >= total {
                    return Err(Error::MismatchedResults {
                        path: path.clone(),
                        found: format!("unit {}", record.unit),
                        expected: format!("{total} units"),
                    });
                }
                records.push(record);
            }
        }
        self.merge_records(scale, seed, records)
    }

    /// [`merge_records`] for this experiment.
    ///
    /// # Errors
    /// As [`merge_records`].
    pub fn merge_records(
        &self,
        scale: Scale,
        seed: u64,
        records: impl IntoIterator<Item = UnitRecord>,
    ) -> Result<Vec<Row>> {
        let name = self.name();
        let units = self.units(scale);
        let total = units.len();
        let mut rows: BTreeMap<usize, Row> = BTreeMap::new();
        for record in records {
            check_record(&record, name, scale, seed, None)?;
            if record.unit >= total {
                return Err(Error::UnitOutOfRange {
                    unit: record.unit,
                    total,
                });
            }
            check_params(&record, &units, None)?;
            if let Some(previous) = rows.get(&record.unit) {
                if *previous != record.row {
                    return Err(Error::ConflictingUnit { unit: record.unit });
                }
            } else {
                rows.insert(record.unit, record.row);
            }
        }
        if rows.len() < total {
            let first = (0..total).find(|u| !rows.contains_key(u)).unwrap_or(0);
            return Err(Error::MissingUnits {
                missing: total - rows.len(),
                total,
                first,
            });
        }
        Ok(rows.into_values().collect())
    }

    /// [`write_outputs`] for this experiment.
    ///
    /// # Errors
    /// As [`write_outputs`].
    pub fn write_outputs(
        &self,
        scale: Scale,
        seed: u64,
        rows: &[Row],
        dir: &Path,
    ) -> Result<Vec<PathBuf>> {
        std::fs::create_dir_all(dir).map_err(|source| io(dir, source))?;
        let mut written = Vec::new();
        // CSV: the union of the columns in first-seen order (rows of one experiment share them).
        let mut columns: Vec<String> = Vec::new();
        for row in rows {
            for key in row.keys() {
                if !columns.contains(key) {
                    columns.push(key.clone());
                }
            }
        }
        let csv_path = dir.join("results.csv");
        let mut writer = csv::Writer::from_writer(Vec::new());
        writer.write_record(&columns)?;
        for row in rows {
            writer.write_record(columns.iter().map(|c| match row.get(c) {
                None | Some(serde_json::Value::Null) => String::new(),
                Some(serde_json::Value::String(s)) => s.clone(),
                Some(other) => other.to_string(),
            }))?;
        }
        let csv_bytes = writer
            .into_inner()
            .map_err(|e| io(&csv_path, e.into_error()))?;
        write_file(&csv_path, &csv_bytes)?;
        written.push(csv_path);
        let json_path = dir.join("results.json");
        let json = serde_json::json!({
            "experiment": self.name(),
            "scale": scale,
            "seed": seed,
            "rows": rows,
        });
        write_file(
            &json_path,
            (serde_json::to_string_pretty(&json)? + "\n").as_bytes(),
        )?;
        written.push(json_path);
        for figure in self.plots(rows)? {
            let path = dir.join(&figure.file);
            write_file(&path, figure.to_svg()?.as_bytes())?;
            written.push(path);
        }
        let report_path = dir.join("README.md");
        let report = match &self.def {
            Def::Catalog(info) => catalog::report(info, scale, seed, rows),
            Def::File(sweep) => catalog::sweep_report(sweep, scale, seed, rows),
            Def::KCurves(sweep) => catalog::k_curves_report(sweep, scale, seed, rows),
        };
        write_file(&report_path, report.as_bytes())?;
        written.push(report_path);
        Ok(written)
    }

    fn plots(&self, rows: &[Row]) -> Result<Vec<Figure>> {
        match &self.def {
            Def::Catalog(info) => catalog::plots(info.name, rows),
            Def::File(sweep) => catalog::sweep_plots(sweep, rows),
            Def::KCurves(sweep) => catalog::k_curves_plots(sweep, rows),
        }
    }

    /// [`figures`] for this experiment.
    ///
    /// # Errors
    /// Plotting errors.
    pub fn figures(&self, rows: &[Row]) -> Result<Vec<Figure>> {
        let mut figures = self.plots(rows)?;
        for series in figures.iter_mut().flat_map(|f| f.series.iter_mut()) {
            series
                .points
                .retain(|(x, y)| x.is_finite() && y.is_finite());
        }
        Ok(figures)
    }
}

/// The number of units of an experiment at a scale.
///
/// # Errors
/// [`Error::UnknownExperiment`].
pub fn unit_count(name: &str, scale: Scale) -> Result<usize> {
    Ok(Experiment::named(name)?.units(scale).len())
}

/// The parameters of every unit of an experiment at a scale, in unit order (unit `i` is
/// element `i`). Each map holds what distinguishes the unit (class, learner, ε, α, …); its
/// result row repeats them.
///
/// # Errors
/// [`Error::UnknownExperiment`].
pub fn units(name: &str, scale: Scale) -> Result<Vec<Row>> {
    Ok(Experiment::named(name)?.units(scale))
}

/// Runs unit `unit` of experiment `name` at `scale` with master seed `seed` and returns its
/// record: exactly the line [`run_shard`] appends for that unit (it calls this function),
/// a function of (name, scale, seed, unit) alone, so it may run on any machine, in any
/// order, with any number of threads.
///
/// # Errors
/// [`Error::UnknownExperiment`], [`Error::UnitOutOfRange`], the unit's own errors.
pub fn run_unit(name: &str, scale: Scale, seed: u64, unit: usize) -> Result<UnitRecord> {
    Experiment::named(name)?.run_unit(scale, seed, unit)
}

/// Runs the units of `shard` that are not yet in `results` (created if absent), appending
/// each finished unit as one JSON line (flushed), and calls `progress(done, total)` after
/// each (counting this shard's units). Returns the number of units run now. A torn last
/// line (a run killed mid-write) is dropped first by [`repair_torn_tail`] and its unit
/// reruns; any other bad line is an error.
///
/// # Errors
/// Unknown names, files of another run ([`Error::MismatchedResults`]), I/O errors, unit
/// errors.
pub fn run_shard(
    name: &str,
    scale: Scale,
    seed: u64,
    shard: Shard,
    results: &Path,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<usize> {
    Experiment::named(name)?.run_shard(scale, seed, shard, results, progress)
}

/// Reads results files and returns every unit's row in unit order: the files' records
/// go through [`merge_records`], after each is checked against its file (so an error names
/// the file).
///
/// # Errors
/// [`Error::MismatchedResults`], [`Error::ConflictingUnit`], [`Error::MissingUnits`],
/// I/O and parse errors.
pub fn merge(name: &str, scale: Scale, seed: u64, files: &[PathBuf]) -> Result<Vec<Row>> {
    Experiment::named(name)?.merge(scale, seed, files)
}

/// Checks records held in memory and returns every unit's row in unit order: every record
/// must belong to experiment `name` at `scale` with master seed `seed`, every unit must be
/// present, and a unit present more than once must have the same row each time. The
/// records may come in any order.
///
/// # Errors
/// [`Error::UnknownExperiment`], [`Error::MismatchedRecord`], [`Error::UnitOutOfRange`],
/// [`Error::ConflictingUnit`], [`Error::MissingUnits`].
pub fn merge_records(
    name: &str,
    scale: Scale,
    seed: u64,
    records: impl IntoIterator<Item = UnitRecord>,
) -> Result<Vec<Row>> {
    Experiment::named(name)?.merge_records(scale, seed, records)
}

/// Writes `results.csv`, `results.json`, the plots (SVG) and `README.md` for the rows of
/// experiment `name` into `dir` (created if needed). Returns the files written. Each file
/// is written to a temporary file in `dir` and renamed over its name, so an interrupted
/// write leaves the previous file or the new one, never a half-written one.
///
/// # Errors
/// I/O, CSV, JSON and plotting errors.
pub fn write_outputs(
    name: &str,
    scale: Scale,
    seed: u64,
    rows: &[Row],
    dir: &Path,
) -> Result<Vec<PathBuf>> {
    Experiment::named(name)?.write_outputs(scale, seed, rows, dir)
}

/// The figures [`write_outputs`] draws for an experiment's rows, as data: a renderer other
/// than the built-in SVG one (the Python package's matplotlib helper) draws the same
/// figures from them, with [`Figure::layout`] for the shared ranges, ticks and colours.
/// Points that are not finite (a missing measurement) are left out, as the SVG leaves
/// them out.
///
/// # Errors
/// [`Error::UnknownExperiment`] for an unknown name.
pub fn figures(name: &str, rows: &[Row]) -> Result<Vec<Figure>> {
    Experiment::named(name)?.figures(rows)
}

/// Writes `bytes` to a temporary file beside `path`, then renames it to `path`.
fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut temp = path.as_os_str().to_owned();
    temp.push(format!(".tmp-{}", std::process::id()));
    let temp = PathBuf::from(temp);
    std::fs::write(&temp, bytes).map_err(|source| io(&temp, source))?;
    std::fs::rename(&temp, path).map_err(|source| {
        let _ = std::fs::remove_file(&temp);
        io(path, source)
    })
}

fn io(path: &Path, source: std::io::Error) -> Error {
    Error::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The bytes of a results file, at most [`privpac_toolkit::limits::MAX_INPUT_BYTES`].
fn read_results_bytes(path: &Path) -> Result<Vec<u8>> {
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

fn read_records(path: &Path) -> Result<Vec<UnitRecord>> {
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
        records.push(
            serde_json::from_str(line).map_err(|source| Error::BadResultsLine {
                path: path.to_path_buf(),
                line: number + 1,
                source,
            })?,
        );
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
/// in a newline) is left for [`run_shard`] to report as an error. [`run_shard`] calls this
/// itself; a front end calls it first to warn its user (returns the dropped line).
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
fn check_params(record: &UnitRecord, units: &[Row], path: Option<&Path>) -> Result<()> {
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

fn check_record(
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

#[cfg(test)]
mod tests;

/// The examples of the crate's README, compiled and run by `cargo test --doc`.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
