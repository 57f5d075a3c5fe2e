//! `privpac experiment`: run a named, seeded experiment (or one shard of it), merge shards,
//! and write its CSV, JSON, SVG plots and Markdown report (the machinery is
//! `privpac_experiments`; this file parses, shows progress and prints).
//!
//! A rerun resumes from its results file, holding its lock (`FILE.lock`; a second run on
//! the same file is refused, a dead run's lock is taken over with a notice). Records
//! computed under other settings (an edited experiment file, another privpac version) are
//! dropped and rerun with a one-line notice naming the key that changed; `merge` refuses
//! them with an error naming the file, the line and the key.

use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};
use privpac_experiments::{EXPERIMENTS, Experiment, Scale, Shard, ShardEvent};
use serde::Serialize;

use crate::cli::ExperimentArgs;
use crate::output::{Render, emit};

#[derive(Debug, Serialize)]
struct ExperimentReport {
    experiment: String,
    scale: Scale,
    seed: u64,
    shard: Option<String>,
    results_files: Vec<PathBuf>,
    units_run: usize,
    units_total: usize,
    outputs: Vec<PathBuf>,
}

impl Render for ExperimentReport {
    fn render(&self) -> String {
        let mut out = format!(
            "experiment: {}   scale: {}   seed: {}{}\nunits run now: {} (of {})\nresults: {}\n",
            self.experiment,
            self.scale,
            self.seed,
            self.shard
                .as_ref()
                .map(|s| format!("   shard: {s}"))
                .unwrap_or_default(),
            self.units_run,
            self.units_total,
            self.results_files
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", "),
        );
        if self.outputs.is_empty() {
            out.push_str(
                "outputs: none yet (run the other shards, then `privpac experiment merge`)\n",
            );
        } else {
            for path in &self.outputs {
                out.push_str(&format!("wrote {}\n", path.display()));
            }
        }
        out
    }
}

#[derive(Debug, Serialize)]
struct ListReport {
    experiments: Vec<ListEntry>,
}

#[derive(Debug, Serialize)]
struct ListEntry {
    name: &'static str,
    summary: &'static str,
}

impl Render for ListReport {
    fn render(&self) -> String {
        self.experiments
            .iter()
            .map(|e| format!("{:<20} {}\n", e.name, e.summary))
            .collect()
    }
}

fn scale(args: &ExperimentArgs) -> anyhow::Result<Scale> {
    Ok(match (&args.scale, args.quick) {
        (Some(text), _) => text.parse()?,
        (None, true) => Scale::Quick,
        (None, false) => Scale::Full,
    })
}

/// `--out`, or by default `docs/experiments/NAME` for the full scale and
/// `docs/experiments/SCALE/NAME` for the others, so a quick run never overwrites the full
/// run's figures.
fn out_dir(args: &ExperimentArgs, name: &str, scale: Scale) -> PathBuf {
    args.out.clone().unwrap_or_else(|| {
        let base = Path::new("docs").join("experiments");
        match scale {
            Scale::Full => base.join(name),
            other => base.join(other.to_string()).join(name),
        }
    })
}

/// A catalogue name, or an experiment file (a name ending in `.toml`) read for a run at
/// the scale of `args`: only that scale's level must be valid; the others' errors are a
/// warning on stderr.
fn experiment(args: &ExperimentArgs, name_or_file: &str) -> anyhow::Result<Experiment> {
    if !name_or_file.ends_with(".toml") {
        return Ok(Experiment::named(name_or_file)?);
    }
    file_experiment(args, name_or_file)
}

/// The experiment file `file`, read for a run at the scale of `args` (see [`experiment`]).
fn file_experiment(args: &ExperimentArgs, file: &str) -> anyhow::Result<Experiment> {
    let experiment = Experiment::from_file_for(Path::new(file), scale(args)?)?;
    for (scale, error) in experiment.broken_scales() {
        eprintln!("warning: {file}: the {scale} scale cannot run: {error}");
    }
    Ok(experiment)
}

pub(crate) fn run(args: &ExperimentArgs) -> anyhow::Result<()> {
    let json = args.common.json;
    let Some(first) = args.args.first() else {
        bail!("name an experiment, `run FILE`, `list`, or `merge NAME|FILE RESULTS...`");
    };
    match first.as_str() {
        "list" => emit(
            &ListReport {
                experiments: EXPERIMENTS
                    .iter()
                    .map(|e| ListEntry {
                        name: e.name,
                        summary: e.summary,
                    })
                    .collect(),
            },
            json,
        ),
        "merge" => {
            let (name, files) = match &args.args[1..] {
                [name, files @ ..] if !files.is_empty() => (name, files),
                _ => bail!("usage: privpac experiment merge NAME|FILE.toml RESULTS..."),
            };
            let experiment = experiment(args, name)?;
            let seed = args.common.seed.or(experiment.default_seed()).unwrap_or(1);
            let scale = scale(args)?;
            let files: Vec<PathBuf> = files.iter().map(PathBuf::from).collect();
            let rows = experiment.merge(scale, seed, &files)?;
            let outputs = experiment.write_outputs(
                scale,
                seed,
                &rows,
                &out_dir(args, experiment.name(), scale),
            )?;
            emit(
                &ExperimentReport {
                    experiment: experiment.name().to_string(),
                    scale,
                    seed,
                    shard: None,
                    results_files: files,
                    units_run: 0,
                    units_total: rows.len(),
                    outputs,
                },
                json,
            )
        }
        "run" => match &args.args[1..] {
            [file] => run_experiment(args, &file_experiment(args, file)?),
            _ => bail!("usage: privpac experiment run FILE.toml"),
        },
        name => {
            if !name.ends_with(".toml") && Experiment::named(name).is_err() {
                bail!("{}", unknown_name(name));
            }
            if args.args.len() > 1 {
                bail!("one experiment per run (got {})", args.args.join(" "));
            }
            run_experiment(args, &experiment(args, name)?)
        }
    }
}

/// The subcommands of `privpac experiment` besides experiment names and files.
const SUBCOMMANDS: [&str; 3] = ["list", "merge", "run"];

/// The message for a first argument that is neither a subcommand, an experiment of the
/// catalogue nor a `.toml` file: it names the closest subcommand or experiment (edit
/// distance at most 2) when there is one.
fn unknown_name(name: &str) -> String {
    let candidates = SUBCOMMANDS
        .iter()
        .map(|s| (*s, "subcommand"))
        .chain(EXPERIMENTS.iter().map(|e| (e.name, "experiment")));
    let best = candidates
        .map(|(candidate, kind)| (edit_distance(name, candidate), candidate, kind))
        .min_by_key(|&(distance, _, _)| distance);
    let names: Vec<&str> = EXPERIMENTS.iter().map(|e| e.name).collect();
    let known = format!(
        "subcommands: list, merge, run; experiments: {}; or an experiment file ending in .toml",
        names.join(", ")
    );
    match best {
        Some((distance, candidate, kind)) if distance <= 2 => format!(
            "unknown experiment or subcommand {name:?}: did you mean the {kind} `{candidate}`? ({known})"
        ),
        _ => format!("unknown experiment or subcommand {name:?} ({known})"),
    }
}

/// The Levenshtein distance between two strings (in characters).
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

/// Runs an experiment (or one shard of it), resuming from its results file, and writes its
/// outputs when the run is whole.
fn run_experiment(args: &ExperimentArgs, experiment: &Experiment) -> anyhow::Result<()> {
    let json = args.common.json;
    let name = experiment.name();
    let seed = args.common.seed.or(experiment.default_seed()).unwrap_or(1);
    let scale = scale(args)?;
    let shard = match &args.shard {
        Some(text) => Some(text.parse::<Shard>()?),
        None => None,
    };
    let total = experiment.units(scale).len();
    let dir = out_dir(args, name, scale);
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let results = args.results.clone().unwrap_or_else(|| match &args.shard {
        Some(text) => dir.join(format!(
            "units-{scale}-shard-{}.jsonl",
            text.replace('/', "-of-")
        )),
        None => dir.join(format!("units-{scale}.jsonl")),
    });
    let bar = progress_bar(name);
    let ran = experiment.run_shard_with(
        scale,
        seed,
        shard.unwrap_or_else(Shard::whole),
        &results,
        &mut |event| match event {
            ShardEvent::Progress { done, total } => {
                if let Some(bar) = &bar {
                    bar.set_length(total as u64);
                    bar.set_position(done as u64);
                }
            }
            ShardEvent::StaleLock(stale) => eprintln!("privpac: note: {stale}"),
            ShardEvent::TornLine(torn) => eprintln!(
                "privpac: warning: {}: dropped a torn last line (line {}, {} bytes, from an interrupted run); its unit runs again",
                results.display(),
                torn.line,
                torn.bytes
            ),
            ShardEvent::StaleRecords(stale) => {
                eprintln!("privpac: note: {}: {stale}", results.display());
            }
            _ => {}
        },
    )?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    // A whole run writes the outputs; a shard waits for `merge`.
    let outputs = if shard.is_none() {
        let rows = experiment.merge(scale, seed, std::slice::from_ref(&results))?;
        experiment.write_outputs(scale, seed, &rows, &dir)?
    } else {
        Vec::new()
    };
    emit(
        &ExperimentReport {
            experiment: name.to_string(),
            scale,
            seed,
            shard: args.shard.clone(),
            results_files: vec![results],
            units_run: ran,
            units_total: total,
            outputs,
        },
        json,
    )
}

/// A progress bar with an ETA on a terminal; `None` (quiet) otherwise.
fn progress_bar(name: &str) -> Option<indicatif::ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(0);
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{msg} [{elapsed_precise}] {wide_bar} {pos}/{len} units, ETA {eta}",
    ) {
        bar.set_style(style);
    }
    bar.set_message(name.to_string());
    Some(bar)
}
