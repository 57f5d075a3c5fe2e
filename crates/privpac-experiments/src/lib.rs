//! Named, seeded, shardable experiments: each expands into independent work units whose
//! seeds derive from (master seed, unit index), so any slice of the units can run
//! anywhere, in any order, and the merged results are bit-identical to one unsharded run.
//!
//! The workflow:
//!
//! 1. [`run_shard`] runs the units of shard `I/N` (units `i` with `i mod N = I`) and
//!    appends one JSON line per finished unit to a results file; a rerun on the same file
//!    skips the units already there (resume after an interruption). A run holds the
//!    file's lock `FILE.lock` meanwhile (module `lock`: a second run on the same file is
//!    refused, [`Error::ResultsLocked`]; the lock of a killed run is taken over).
//! 2. [`merge`] reads any number of results files, checks that they belong to the same
//!    experiment, scale and seed and that every unit is present exactly once (duplicates
//!    must agree), and returns the rows in unit order.
//!
//! Every record states everything its row depends on besides the seed
//! ([`UnitRecord::params`]: the unit's parameters, the settings such as `trials`, `beta`,
//! `label_noise` and `search.max_size`, and the privpac version). A record whose parameters
//! differ from the experiment's as it is now is *stale*: resume drops it and runs its unit
//! again (reported as [`StaleRecords`], naming the keys that changed and how many
//! records); merge refuses it ([`Error::StaleRecord`], naming the file, the line and the
//! key). See the module `records`.
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
mod lock;
mod plot;
mod records;
mod scale;
mod sweep;

use std::collections::BTreeMap;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};

use rand::Rng as _;
use serde::{Deserialize, Serialize};

pub use catalog::{EXPERIMENTS, ExperimentInfo};
pub use lock::{ResultsLock, StaleLock, lock_path};
pub use plot::{Axis, Figure, Layout, Series, Style};
use records::{
    Line, check_params, check_record, read_records, read_results_bytes, stale_error, staleness,
};
pub use records::{PRIVPAC_VERSION, StaleChange, StaleRecords, TornLine, repair_torn_tail};
pub use scale::{Scale, Shard};
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
    /// A record computed under other parameters than the experiment's as it is now (an
    /// edited experiment file, another privpac version), given to a merge: names the
    /// record and the keys that changed.
    #[error("{origin}: {reason} (computed under other settings; rerun it)")]
    StaleRecord {
        /// The record: `FILE line N`, or `record of unit N`.
        origin: String,
        /// The first key that changed (`trials`, `beta`, `label_noise`,
        /// `search.max_size`, `privpac_version`, …; `params` for a record stating none).
        key: String,
        /// Every change: `trials is 300 in the record, 200 in the file; …`.
        reason: String,
    },
    /// A results file that another run is writing (it holds `FILE.lock`).
    #[error(
        "{path}: another run is writing it ({holder} holds {lock}); wait for it to finish, or delete the lock file if no such run is going"
    )]
    ResultsLocked {
        /// The results file.
        path: PathBuf,
        /// The lock file.
        lock: PathBuf,
        /// Who holds it: `process PID`.
        holder: String,
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
    /// Everything the row depends on besides the seed, as the experiment stated it when
    /// the unit ran ([`Experiment::record_params`]): the unit's parameters, the settings
    /// (`trials`, `beta`, `label_noise`, `search.start`, `search.max_size`, …) and
    /// `privpac_version`. Resume and merge compare it with the experiment as it is now;
    /// a record without it (written before it existed) matches nothing.
    #[serde(default)]
    pub params: Row,
    /// The unit's result row (column name → value).
    pub row: Row,
}

/// What [`Experiment::run_shard_with`] reports while it runs.
#[derive(Debug)]
#[non_exhaustive]
pub enum ShardEvent<'a> {
    /// `done` of the shard's `total` units are finished.
    Progress {
        /// Finished units of this shard.
        done: usize,
        /// Units of this shard.
        total: usize,
    },
    /// The lock of a run that is no longer alive was removed.
    StaleLock(&'a StaleLock),
    /// A torn last line was dropped (its unit runs again).
    TornLine(&'a TornLine),
    /// Stale records were dropped (their units run again).
    StaleRecords(&'a StaleRecords),
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
        Experiment::read_file(path, None)
    }

    /// Reads an experiment file for a run at `scale` (as [`Experiment::from_file`], with
    /// [`Sweep::parse_for`] or [`KCurveSweep::parse_for`]): only the level of `scale` must
    /// pass its checks; the others' errors are in [`Experiment::broken_scales`].
    ///
    /// # Errors
    /// Those of [`Experiment::from_file`], for the shared keys and the level of `scale`.
    pub fn from_file_for(path: &Path, scale: Scale) -> Result<Self> {
        Experiment::read_file(path, Some(scale))
    }

    /// Reads an experiment file, checking every level (`scale` = `None`) or that of `scale`.
    fn read_file(path: &Path, scale: Option<Scale>) -> Result<Self> {
        let origin = path.display().to_string();
        let text =
            String::from_utf8(read_results_bytes(path)?).map_err(|_| Error::BadExperimentFile {
                origin: origin.clone(),
                line: 1,
                key: String::new(),
                message: "not UTF-8 text".into(),
            })?;
        if sweep::declared_kind(&text).as_deref() == Some("k-curves") {
            let sweep = match scale {
                Some(scale) => KCurveSweep::parse_for(&text, &origin, scale)?,
                None => KCurveSweep::parse(&text, &origin)?,
            };
            return Experiment::from_k_curves(sweep, &origin);
        }
        let sweep = match scale {
            Some(scale) => Sweep::parse_for(&text, &origin, scale)?,
            None => Sweep::parse(&text, &origin)?,
        };
        Experiment::from_sweep(sweep, &origin)
    }

    /// The scales of a file read by [`Experiment::from_file_for`] whose levels fail their
    /// checks, with their errors (which name the scale); they cannot run.
    pub fn broken_scales(&self) -> Vec<(Scale, String)> {
        match &self.def {
            Def::Catalog(_) => Vec::new(),
            Def::File(sweep) => sweep.broken_scales(),
            Def::KCurves(sweep) => sweep.broken_scales(),
        }
    }

    /// Whether `scale` can run: run, resume and merge refuse a broken scale (see
    /// [`Experiment::broken_scales`]).
    ///
    /// # Errors
    /// The [`Error::BadExperimentFile`] of the level of `scale`.
    pub fn check_scale(&self, scale: Scale) -> Result<()> {
        match &self.def {
            Def::Catalog(_) => Ok(()),
            Def::File(sweep) => sweep.check_scale(scale),
            Def::KCurves(sweep) => sweep.check_scale(scale),
        }
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

    /// Everything each unit's result depends on besides the seed, in unit order: the
    /// unit's parameters ([`Experiment::units`]), the settings of a sample-complexity sweep
    /// (`beta`, `label_noise`, `trials`, `search.start`, `search.max_size`) or of a
    /// k-curves sweep (also `alpha` and `curve_definition`), and `privpac_version`. A
    /// record states them as [`UnitRecord::params`]; resume and merge compare.
    pub fn record_params(&self, scale: Scale) -> Vec<Row> {
        let units = self.units(scale);
        units
            .into_iter()
            .map(|unit| self.full_params(scale, unit))
            .collect()
    }

    /// A unit's parameters completed with the settings and the version.
    fn full_params(&self, scale: Scale, mut params: Row) -> Row {
        let (sweep, k_curves) = match &self.def {
            Def::Catalog(info) => (
                catalog::sweep_of(info.name),
                catalog::k_curves_sweep_of(info.name),
            ),
            Def::File(sweep) => (Some(sweep.as_ref()), None),
            Def::KCurves(sweep) => (None, Some(sweep.as_ref())),
        };
        if let Some(sweep) = sweep {
            params.extend(sweep.settings(scale).params());
        }
        if let Some(k_curves) = k_curves {
            let settings = k_curves.unit_settings(scale, &params);
            params.extend(settings);
        }
        params.insert("privpac_version".into(), PRIVPAC_VERSION.into());
        params
    }

    /// What holds the parameters a record is compared with, as messages name it.
    fn against(&self) -> &'static str {
        match self.def {
            Def::Catalog(_) => "the catalogue",
            Def::File(_) | Def::KCurves(_) => "the file",
        }
    }

    /// Runs unit `unit` at `scale` with master seed `seed` and returns its record: exactly
    /// the line [`Experiment::run_shard`] appends for it, a function of (experiment, scale,
    /// seed, unit) alone.
    ///
    /// # Errors
    /// [`Error::UnitOutOfRange`], the unit's own errors.
    pub fn run_unit(&self, scale: Scale, seed: u64, unit: usize) -> Result<UnitRecord> {
        self.check_scale(scale)?;
        let units = self.units(scale);
        let params = units.get(unit).ok_or(Error::UnitOutOfRange {
            unit,
            total: units.len(),
        })?;
        let unit_seed = unit_seed(seed, unit);
        let row = match &self.def {
            Def::Catalog(info) => catalog::run_unit(info.name, scale, params, unit_seed, unit)?,
            Def::File(sweep) => {
                let settings = sweep.settings(scale);
                let mut row =
                    catalog::run_sample_complexity_unit(params, settings, unit_seed, unit)?;
                // A sweep's rows always state their label noise (0: realizable).
                row.insert("label_noise".into(), settings.label_noise.into());
                row
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
            params: self.full_params(scale, params.clone()),
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
        self.run_shard_with(scale, seed, shard, results, &mut |event| {
            if let ShardEvent::Progress { done, total } = event {
                progress(done, total);
            }
        })
    }

    /// [`run_shard`], reporting what it does as [`ShardEvent`]s: progress, and before
    /// running anything the stale lock it took over, the torn line it dropped and the
    /// stale records it dropped (records computed under other parameters than
    /// [`Experiment::record_params`] gives now: the file is rewritten without them and
    /// their units run again). Holds the lock of `results` throughout.
    ///
    /// # Errors
    /// As [`run_shard`]; [`Error::ResultsLocked`] while another run writes `results`.
    pub fn run_shard_with(
        &self,
        scale: Scale,
        seed: u64,
        shard: Shard,
        results: &Path,
        events: &mut dyn FnMut(ShardEvent<'_>),
    ) -> Result<usize> {
        self.check_scale(scale)?;
        let (_lock, stale_lock) = ResultsLock::acquire(results)?;
        if let Some(stale_lock) = &stale_lock {
            events(ShardEvent::StaleLock(stale_lock));
        }
        let name = self.name();
        let units = self.units(scale);
        let total_units = units.len();
        let mut done = BTreeMap::new();
        if results.exists() {
            if let Some(torn) = repair_torn_tail(results)? {
                events(ShardEvent::TornLine(&torn));
            }
            let expected = self.record_params(scale);
            let (mut kept, mut stale) = (String::new(), StaleRecords::default());
            for line in read_records(results)? {
                check_record(&line.record, name, scale, seed, Some(results))?;
                if let Some(why) = staleness(&line.record, &expected, self.against()) {
                    stale.add(line.number, why);
                    continue;
                }
                check_params(&line.record, &units, Some(results))?;
                kept.push_str(&line.text);
                kept.push('\n');
                done.insert(line.record.unit, line.record);
            }
            if stale.dropped > 0 {
                write_file(results, kept.as_bytes())?;
                events(ShardEvent::StaleRecords(&stale));
            }
        }
        let mine: Vec<usize> = (0..total_units).filter(|&u| shard.contains(u)).collect();
        let total = mine.len();
        let finished = mine.iter().filter(|u| done.contains_key(u)).count();
        events(ShardEvent::Progress {
            done: finished,
            total,
        });
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
            events(ShardEvent::Progress {
                done: finished + ran,
                total,
            });
        }
        Ok(ran)
    }

    /// [`merge`] for this experiment.
    ///
    /// # Errors
    /// As [`merge`].
    pub fn merge(&self, scale: Scale, seed: u64, files: &[PathBuf]) -> Result<Vec<Row>> {
        self.check_scale(scale)?;
        let name = self.name();
        let expected = self.record_params(scale);
        let total = expected.len();
        let mut records = Vec::new();
        for path in files {
            for Line { number, record, .. } in read_records(path)? {
                check_record(&record, name, scale, seed, Some(path))?;
                if record.unit >= total {
                    return Err(Error::MismatchedResults {
                        path: path.clone(),
                        found: format!("unit {}", record.unit),
                        expected: format!("{total} units"),
                    });
                }
                if let Some(why) = staleness(&record, &expected, self.against()) {
                    let origin = format!("{} line {number}", path.display());
                    return Err(stale_error(origin, why));
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
        let expected = self.record_params(scale);
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
            if let Some(why) = staleness(&record, &expected, self.against()) {
                return Err(stale_error(format!("record of unit {}", record.unit), why));
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

#[cfg(test)]
mod tests;

/// The examples of the crate's README, compiled and run by `cargo test --doc`.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
