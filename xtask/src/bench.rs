//! `cargo xtask bench [AREA] [--quick] [--no-docs] [--save NAME] [--compare NAME]
//! [-- CRITERION_ARGS]`: runs the criterion benches under a named baseline, summarizes them in
//! one table of medians and speed-ups, and (for a run of the whole suite) writes that table to
//! `docs/benchmarks.md` with the machine, the date, the commit and the load.
//!
//! Benches follow the naming rule of STYLE.md (rule 25): the criterion group is the area name,
//! function ids are `reference`, `fast` and `naive`, and sizes are the `BenchmarkId` parameter.
//! We pass criterion `--save-baseline NAME` (default [`DEFAULT_BASELINE`]), so that it copies
//! each result of this run to `target/criterion/<group>/<id>/<size>/NAME/estimates.json`, and
//! read `median.point_estimate` (nanoseconds) from exactly those files (the same numbers as
//! criterion's working copy `new/estimates.json` of this run, but immune to later runs of a
//! subset). Each id is compared with the reference of the same group and size (`reference` if
//! present, else `naive`), and with `--compare OTHER` also with the same benchmark in the saved
//! baseline `OTHER`. The table is printed and also written as Markdown to
//! `target/criterion/summary.md`.
//!
//! `--quick` passes criterion [`QUICK_ARGS`] (short warm-up and measurement, 10 samples, fewer
//! bootstrap resamples, which leave the median itself unchanged), so that the whole suite runs
//! in a few minutes on two cores.
//!
//! A run of every bench file with no criterion arguments of its own (so the mode is known)
//! replaces the part of `docs/benchmarks.md` between [`BEGIN_MARKER`] and [`END_MARKER`] (the
//! rest of the page is hand-written and kept); `--no-docs` skips that.
//!
//! Before running under the default name, its old copies are deleted, so the table shows this
//! run only. A name given with `--save` is kept: running a subset of the benches updates those
//! entries and the table shows everything saved under that name.

use std::{
    cmp::Ordering,
    env, fmt, fs,
    path::{Path, PathBuf},
    process::Command,
    time::SystemTime,
};

use anyhow::{Context, Result, bail};
use serde_json::Value;

use crate::{cargo, project_root, run_command};

/// The baseline this tool saves to when not told a name; cleared before each run.
const DEFAULT_BASELINE: &str = "xtask-latest";

/// Criterion arguments of `--quick`: 0.3 s warm-up, 1 s measurement, 10 samples (criterion's
/// minimum), and 1 000 bootstrap resamples for the confidence intervals (the median point
/// estimate is computed from the samples themselves and does not depend on them).
const QUICK_ARGS: [&str; 8] = [
    "--warm-up-time",
    "0.3",
    "--measurement-time",
    "1",
    "--sample-size",
    "10",
    "--nresamples",
    "1000",
];

/// The page that a run of the whole suite updates, relative to the project root.
const DOCS_PAGE: &str = "docs/benchmarks.md";

/// Runs `cargo bench -p benches [--bench AREA] -- --save-baseline NAME [CRITERION_ARGS]`,
/// prints the summary and, for a run of the whole suite, writes it to [`DOCS_PAGE`].
pub(crate) fn run(args: &[String]) -> Result<()> {
    let args = BenchArgs::parse(args)?;
    let criterion_dir = criterion_dir();
    if args.save == DEFAULT_BASELINE {
        remove_baseline(&criterion_dir, DEFAULT_BASELINE)?;
    }
    let root = project_root();
    // Read before the run: the commit benchmarked and the load the benches start under.
    let commit = git_commit(&root);
    let load_before = read_load();
    let started = SystemTime::now();

    let mut command = cargo();
    // `--bench '*'` selects every [[bench]] target but not the `benches` library, whose libtest
    // harness would reject criterion's arguments.
    command
        .args(["bench", "-p", "benches", "--bench"])
        .arg(args.area.as_deref().unwrap_or("*"))
        .args(["--", "--save-baseline", &args.save]);
    if args.quick {
        command.args(QUICK_ARGS);
    }
    command.args(&args.criterion_args);
    run_command(&mut command)?;
    let finished = SystemTime::now();
    let load_after = read_load();

    let estimates = collect_estimates(&criterion_dir, &args.save)?;
    if estimates.is_empty() {
        println!(
            "no criterion results are saved under the baseline `{}` in {}",
            args.save,
            criterion_dir.display()
        );
        return Ok(());
    }
    let compared = match &args.compare {
        Some(other) => {
            let saved = collect_estimates(&criterion_dir, other)?;
            if saved.is_empty() {
                bail!(
                    "no criterion results are saved under the baseline `{other}` in {} \
                     (save one with `cargo xtask bench --save {other}`)",
                    criterion_dir.display()
                );
            }
            Some((other.as_str(), saved))
        }
        None => None,
    };
    let rows = build_rows(
        estimates,
        compared.as_ref().map(|(_, saved)| saved.as_slice()),
    );
    let legend = legend(&args.save, compared.as_ref().map(|(name, _)| *name));
    let table = render_table(&rows, compared.is_some());
    println!("\n{legend}\n\n{table}");

    let summary_path = criterion_dir.join("summary.md");
    fs::write(
        &summary_path,
        format!("# Benchmark summary\n\n{legend}\n\n{table}"),
    )
    .with_context(|| format!("could not write {}", summary_path.display()))?;
    println!("\nwritten to {}", summary_path.display());

    if !args.writes_docs() {
        if args.docs {
            println!(
                "{DOCS_PAGE} not updated: only a run of every bench file without criterion \
                 arguments (other than --quick) is written there"
            );
        }
        return Ok(());
    }
    let run = RunInfo {
        command: args.command_line(),
        mode: if args.quick {
            format!("quick (`--quick`: criterion `{}`)", QUICK_ARGS.join(" "))
        } else {
            "full (the criterion settings of `benches::config()` and of each group)".to_owned()
        },
        started: format_utc(started),
        finished: format_utc(finished),
        commit,
        machine: describe_machine(),
        load_before,
        load_after,
    };
    let section = render_section(&run, &legend, &table);
    let page_path = root.join(DOCS_PAGE);
    let page = fs::read_to_string(&page_path)
        .with_context(|| format!("could not read {}", page_path.display()))?;
    fs::write(&page_path, replace_generated(&page, &section))
        .with_context(|| format!("could not write {}", page_path.display()))?;
    println!("written to {DOCS_PAGE}");
    Ok(())
}

/// Where the generated part of [`DOCS_PAGE`] begins and ends.
const BEGIN_MARKER: &str =
    "<!-- BEGIN xtask-bench: generated by `cargo xtask bench`; edits here are overwritten -->";
const END_MARKER: &str = "<!-- END xtask-bench -->";

/// What the generated part of the page says about a run, besides the table.
#[derive(Debug, Clone, PartialEq)]
struct RunInfo {
    /// The `cargo xtask bench ...` command line.
    command: String,
    /// Which criterion settings produced the medians.
    mode: String,
    /// Start and end of the run, UTC.
    started: String,
    finished: String,
    /// `git rev-parse --short HEAD`, with `-dirty` when the tree had changes.
    commit: String,
    /// CPU model, logical cores, memory, kernel.
    machine: String,
    /// `/proc/loadavg`'s 1-, 5- and 15-minute averages before and after the run.
    load_before: String,
    load_after: String,
}

/// The generated part of the page, markers included.
fn render_section(run: &RunInfo, legend: &str, table: &str) -> String {
    format!(
        "{BEGIN_MARKER}\n\n\
         - Command: `{command}`\n\
         - Mode: {mode}\n\
         - Date: {started} to {finished} (UTC)\n\
         - Code: commit `{commit}`\n\
         - Machine: {machine}\n\
         - Load average (1, 5, 15 min): {before} before the run, {after} after it\n\n\
         {legend}\n\n\
         {table}\n\
         {END_MARKER}",
        command = run.command,
        mode = run.mode,
        started = run.started,
        finished = run.finished,
        commit = run.commit,
        machine = run.machine,
        before = run.load_before,
        after = run.load_after,
    )
}

/// `page` with the text between the markers (inclusive) replaced by `section`; without
/// markers, `section` is appended under a heading of its own.
fn replace_generated(page: &str, section: &str) -> String {
    if let Some(begin) = page.find(BEGIN_MARKER)
        && let Some(end) = page[begin..].find(END_MARKER)
    {
        let end = begin + end + END_MARKER.len();
        return format!("{}{section}{}", &page[..begin], &page[end..]);
    }
    let mut page = page.trim_end().to_owned();
    page.push_str("\n\n## Latest table\n\n");
    page.push_str(section);
    page.push('\n');
    page
}

/// `git rev-parse --short HEAD`, plus `-dirty` when tracked files other than [`DOCS_PAGE`]
/// (which this tool writes) differ from it; `unknown` outside a git checkout.
fn git_commit(root: &Path) -> String {
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .current_dir(root)
            .output()
            .ok()
            .filter(|output| output.status.success())
            .map(|output| String::from_utf8_lossy(&output.stdout).into_owned())
    };
    let Some(head) = git(&["rev-parse", "--short", "HEAD"]) else {
        return "unknown".to_owned();
    };
    let status = git(&["status", "--porcelain", "--untracked-files=no"]).unwrap_or_default();
    format!("{}{}", head.trim(), dirty_suffix(&status))
}

/// `-dirty` when `git status --porcelain` lists a file other than [`DOCS_PAGE`].
fn dirty_suffix(porcelain: &str) -> &'static str {
    let dirty = porcelain
        .lines()
        .filter(|line| line.len() > 3)
        .any(|line| line[3..].trim() != DOCS_PAGE);
    if dirty { "-dirty" } else { "" }
}

/// The 1-, 5- and 15-minute load averages, or `unknown`.
fn read_load() -> String {
    fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|text| parse_loadavg(&text))
        .unwrap_or_else(|| "unknown".to_owned())
}

/// `"0.52 0.58 0.59 1/467 12345"` → `"0.52, 0.58, 0.59"`.
fn parse_loadavg(text: &str) -> Option<String> {
    let fields: Vec<&str> = text.split_whitespace().take(3).collect();
    (fields.len() == 3 && fields.iter().all(|f| f.parse::<f64>().is_ok()))
        .then(|| fields.join(", "))
}

/// CPU model and logical cores (from `/proc/cpuinfo`), memory (`/proc/meminfo`) and kernel.
fn describe_machine() -> String {
    let cpuinfo = fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let meminfo = fs::read_to_string("/proc/meminfo").unwrap_or_default();
    let kernel = fs::read_to_string("/proc/sys/kernel/osrelease").ok();
    let cores = std::thread::available_parallelism().map_or(0, usize::from);
    machine_description(&cpuinfo, &meminfo, kernel.as_deref(), cores)
}

/// The machine line from the texts of `/proc/cpuinfo` and `/proc/meminfo`, the kernel
/// release, and the cores this process may use (used when cpuinfo lists no processors).
fn machine_description(
    cpuinfo: &str,
    meminfo: &str,
    kernel: Option<&str>,
    usable_cores: usize,
) -> String {
    let value = |line: &str| line.split_once(':').map(|(_, v)| v.trim().to_owned());
    let model = cpuinfo
        .lines()
        .find(|line| line.starts_with("model name"))
        .and_then(value)
        .unwrap_or_else(|| "unknown CPU".to_owned());
    let listed = cpuinfo
        .lines()
        .filter(|line| line.split(':').next().map(str::trim) == Some("processor"))
        .count();
    let cores = if listed > 0 { listed } else { usable_cores };
    let mut parts = vec![format!(
        "{model}, {cores} logical core{}",
        if cores == 1 { "" } else { "s" }
    )];
    let memory_kib = meminfo
        .lines()
        .find(|line| line.starts_with("MemTotal:"))
        .and_then(|line| line.split_whitespace().nth(1))
        .and_then(|kib| kib.parse::<f64>().ok());
    if let Some(kib) = memory_kib {
        parts.push(format!("{:.0} GiB RAM", kib / (1024.0 * 1024.0)));
    }
    if let Some(kernel) = kernel {
        parts.push(format!("Linux {}", kernel.trim()));
    }
    parts.join(", ")
}

/// `YYYY-MM-DD HH:MM` in UTC (the calendar arithmetic is `humantime`'s RFC 3339 formatter).
fn format_utc(time: SystemTime) -> String {
    let rfc3339 = humantime::format_rfc3339_seconds(time).to_string();
    // "2023-11-14T22:13:20Z": keep the date and the minutes.
    format!("{} {}", &rfc3339[..10], &rfc3339[11..16])
}

/// Function ids that serve as the reference of a group and size, in order of preference.
const REFERENCE_IDS: [&str; 2] = ["reference", "naive"];

/// Directory names that criterion uses itself, so they cannot name a baseline.
const RESERVED_NAMES: [&str; 3] = ["new", "report", "change"];

fn legend(saved: &str, compared: Option<&str>) -> String {
    let mut legend = format!(
        "median: criterion's median time per iteration (baseline `{saved}`). \
         ratio: speed-up over the reference of the same group and size \
         (reference median / this median; the reference is `reference` if present, else `naive`)."
    );
    if let Some(other) = compared {
        legend.push_str(&format!(
            " vs {other}: speed-up over the same benchmark in the saved baseline `{other}` \
             (its median / this median)."
        ));
    }
    legend
}

/// The command line of `cargo xtask bench`.
#[derive(Debug, PartialEq)]
struct BenchArgs {
    /// A bench target (`benches/benches/<area>.rs`); all of them when `None`.
    area: Option<String>,
    /// The criterion baseline this run saves to.
    save: String,
    /// A saved baseline to compare with.
    compare: Option<String>,
    /// `--quick`: criterion runs with [`QUICK_ARGS`].
    quick: bool,
    /// Whether a run of the whole suite writes [`DOCS_PAGE`] (`--no-docs` turns it off).
    docs: bool,
    /// Everything after `--`, passed to criterion.
    criterion_args: Vec<String>,
}

const USAGE: &str = "usage: cargo xtask bench [AREA] [--quick] [--no-docs] [--save NAME] \
                     [--compare NAME] [-- CRITERION_ARGS...]";

impl BenchArgs {
    fn parse(args: &[String]) -> Result<BenchArgs> {
        let (ours, criterion_args) = match args.iter().position(|arg| arg == "--") {
            Some(dashes) => (&args[..dashes], args[dashes + 1..].to_vec()),
            None => (args, Vec::new()),
        };
        if let Some(arg) = criterion_args.iter().find(|arg| {
            [
                "--save-baseline",
                "--baseline",
                "--baseline-lenient",
                "--discard-baseline",
            ]
            .contains(&arg.as_str())
        }) {
            bail!("`{arg}` is set by cargo xtask bench; use `--save NAME` or `--compare NAME`");
        }
        let mut parsed = BenchArgs {
            area: None,
            save: DEFAULT_BASELINE.to_owned(),
            compare: None,
            quick: false,
            docs: true,
            criterion_args,
        };
        let mut words = ours.iter();
        while let Some(word) = words.next() {
            match word.as_str() {
                "--save" | "--compare" => {
                    let Some(name) = words.next() else {
                        bail!("`{word}` needs a baseline name; {USAGE}");
                    };
                    validate_baseline_name(name)?;
                    if word == "--save" {
                        parsed.save = name.clone();
                    } else {
                        parsed.compare = Some(name.clone());
                    }
                }
                "--quick" => parsed.quick = true,
                "--no-docs" => parsed.docs = false,
                // Accept the crate spelling (`privpac-mechanisms`) for the bench file
                // (`privpac_mechanisms`).
                area if !area.starts_with('-') && parsed.area.is_none() => {
                    parsed.area = Some(area.replace('-', "_"));
                }
                _ => bail!("{USAGE} (got `{}`)", ours.join(" ")),
            }
        }
        Ok(parsed)
    }

    /// Whether this run covers the whole suite in a known mode, so its table may replace the
    /// one in [`DOCS_PAGE`].
    fn writes_docs(&self) -> bool {
        self.docs && self.area.is_none() && self.criterion_args.is_empty()
    }

    /// The command line that would repeat this run.
    fn command_line(&self) -> String {
        let mut words = vec!["cargo xtask bench".to_owned()];
        words.extend(self.area.clone());
        if self.quick {
            words.push("--quick".to_owned());
        }
        if self.save != DEFAULT_BASELINE {
            words.push(format!("--save {}", self.save));
        }
        if let Some(other) = &self.compare {
            words.push(format!("--compare {other}"));
        }
        if !self.criterion_args.is_empty() {
            words.push(format!("-- {}", self.criterion_args.join(" ")));
        }
        words.join(" ")
    }
}

fn validate_baseline_name(name: &str) -> Result<()> {
    let usable = !name.is_empty()
        && !name.starts_with('-')
        && !RESERVED_NAMES.contains(&name)
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        && name != "."
        && name != "..";
    if !usable {
        bail!(
            "`{name}` cannot name a baseline: use letters, digits, `-`, `_` and `.`, \
             and none of {RESERVED_NAMES:?}"
        );
    }
    Ok(())
}

/// Where criterion writes its results, found the way criterion finds it.
fn criterion_dir() -> PathBuf {
    let root = project_root();
    if let Some(home) = env::var_os("CRITERION_HOME") {
        return root.join(home);
    }
    let target = env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from);
    root.join(target).join("criterion")
}

/// Which benchmark a result belongs to.
#[derive(Debug, Clone, PartialEq)]
struct BenchmarkName {
    /// The criterion group, named after the bench area (`exp_mech`).
    group: String,
    /// The function id (`reference`, `fast`, `naive`); empty when criterion had none.
    id: String,
    /// The `BenchmarkId` parameter, usually the input size.
    size: Option<String>,
}

/// One benchmark's median time.
#[derive(Debug, Clone, PartialEq)]
struct Estimate {
    name: BenchmarkName,
    median_ns: f64,
}

/// How an estimate compares with the baseline of its group and size.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Ratio {
    /// This estimate is the reference.
    Reference,
    /// Reference (or saved) median divided by this median: above 1 means faster.
    SpeedUp(f64),
    /// There is nothing to compare with.
    NoBaseline,
}

impl fmt::Display for Ratio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ratio::Reference => f.write_str("1.00 (reference)"),
            Ratio::SpeedUp(speed_up) => write!(f, "{speed_up:.2}"),
            Ratio::NoBaseline => f.write_str("-"),
        }
    }
}

/// One line of the summary table.
#[derive(Debug, Clone, PartialEq)]
struct Row {
    estimate: Estimate,
    /// Against the reference id of the same group and size.
    ratio: Ratio,
    /// Against the same benchmark in a saved baseline (`--compare`); `NoBaseline` when the
    /// saved baseline lacks it, or when nothing is compared.
    versus: Ratio,
}

/// Reads `median.point_estimate` (nanoseconds) from the text of a criterion `estimates.json`.
fn parse_median_ns(estimates_json: &str) -> Result<f64> {
    let value: Value = serde_json::from_str(estimates_json).context("not valid JSON")?;
    value
        .pointer("/median/point_estimate")
        .and_then(Value::as_f64)
        .context("no number at `median.point_estimate`")
}

/// Reads the benchmark's name from the text of a criterion `benchmark.json`, which keeps the ids
/// as written (directory names are made filename-safe by criterion).
fn parse_benchmark_name(benchmark_json: &str) -> Result<BenchmarkName> {
    let value: Value = serde_json::from_str(benchmark_json).context("not valid JSON")?;
    let text = |key: &str| value.get(key).and_then(Value::as_str).map(str::to_owned);
    Ok(BenchmarkName {
        group: text("group_id").context("no string at `group_id`")?,
        id: text("function_id").unwrap_or_default(),
        size: text("value_str"),
    })
}

/// Names a benchmark from its directory relative to the criterion directory:
/// `<group>/<id>/<size>`, `<group>/<id>` or `<group>`.
fn name_from_path(relative_dir: &Path) -> Option<BenchmarkName> {
    let parts: Vec<String> = relative_dir
        .iter()
        .map(|part| part.to_string_lossy().into_owned())
        .collect();
    let (group, id, size) = match parts.as_slice() {
        [group] => (group, "", None),
        [group, id] => (group, id.as_str(), None),
        [group, id, size] => (group, id.as_str(), Some(size.clone())),
        _ => return None,
    };
    Some(BenchmarkName {
        group: group.clone(),
        id: id.to_owned(),
        size,
    })
}

/// Deletes every copy of the baseline `name` under `criterion_dir` (the `name/` folders that
/// hold an `estimates.json`).
fn remove_baseline(criterion_dir: &Path, name: &str) -> Result<()> {
    for dir in baseline_dirs(criterion_dir, name)? {
        fs::remove_dir_all(&dir).with_context(|| format!("could not remove {}", dir.display()))?;
    }
    Ok(())
}

/// The folders `<group>[/<id>[/<size>]]/<name>/` under `criterion_dir` that hold an
/// `estimates.json`: criterion's copies of the results saved under the baseline `name`.
fn baseline_dirs(criterion_dir: &Path, name: &str) -> Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    if !criterion_dir.is_dir() {
        return Ok(found);
    }
    let mut pending = vec![criterion_dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let entries =
            fs::read_dir(&dir).with_context(|| format!("could not read {}", dir.display()))?;
        for entry in entries {
            let entry = entry.with_context(|| format!("could not read {}", dir.display()))?;
            if !entry.file_type()?.is_dir() {
                continue;
            }
            let path = entry.path();
            if dir != criterion_dir
                && entry.file_name() == name
                && path.join("estimates.json").is_file()
            {
                found.push(path);
            } else {
                pending.push(path);
            }
        }
    }
    found.sort();
    Ok(found)
}

/// Reads every result saved under the baseline `name`.
fn collect_estimates(criterion_dir: &Path, name: &str) -> Result<Vec<Estimate>> {
    let mut estimates = Vec::new();
    for dir in baseline_dirs(criterion_dir, name)? {
        estimates.extend(read_estimate(criterion_dir, &dir)?);
    }
    Ok(estimates)
}

/// Reads the estimate in one baseline folder.
fn read_estimate(criterion_dir: &Path, baseline_dir: &Path) -> Result<Option<Estimate>> {
    let estimates_path = baseline_dir.join("estimates.json");
    let median_ns = read_and_parse(&estimates_path, parse_median_ns)?;

    let benchmark_path = baseline_dir.join("benchmark.json");
    let name = if benchmark_path.is_file() {
        read_and_parse(&benchmark_path, parse_benchmark_name)?
    } else {
        let bench_dir = baseline_dir.parent().unwrap_or(baseline_dir);
        let relative_dir = bench_dir.strip_prefix(criterion_dir).unwrap_or(bench_dir);
        match name_from_path(relative_dir) {
            Some(name) => name,
            None => {
                eprintln!(
                    "skipping {}: expected <group>/<id>/<size>/<baseline>/estimates.json",
                    estimates_path.display()
                );
                return Ok(None);
            }
        }
    };
    Ok(Some(Estimate { name, median_ns }))
}

fn read_and_parse<T>(path: &Path, parse: fn(&str) -> Result<T>) -> Result<T> {
    let text =
        fs::read_to_string(path).with_context(|| format!("could not read {}", path.display()))?;
    parse(&text).with_context(|| format!("could not parse {}", path.display()))
}

/// Sorts estimates by group, size (numerically) and id, and computes each one's ratio against
/// its reference and, when `saved` is given, against the same benchmark there.
fn build_rows(mut estimates: Vec<Estimate>, saved: Option<&[Estimate]>) -> Vec<Row> {
    estimates.sort_by(|a, b| compare_names(&a.name, &b.name));
    estimates
        .iter()
        .map(|estimate| Row {
            estimate: estimate.clone(),
            ratio: ratio(estimate, &estimates),
            versus: saved.map_or(Ratio::NoBaseline, |saved| versus(estimate, saved)),
        })
        .collect()
}

/// Speed-up over the same benchmark in a saved baseline.
fn versus(estimate: &Estimate, saved: &[Estimate]) -> Ratio {
    match saved.iter().find(|other| other.name == estimate.name) {
        Some(other) if estimate.median_ns > 0.0 => {
            Ratio::SpeedUp(other.median_ns / estimate.median_ns)
        }
        _ => Ratio::NoBaseline,
    }
}

fn ratio(estimate: &Estimate, all: &[Estimate]) -> Ratio {
    let baseline = REFERENCE_IDS.iter().find_map(|baseline_id| {
        all.iter().find(|other| {
            other.name.group == estimate.name.group
                && other.name.size == estimate.name.size
                && other.name.id == *baseline_id
        })
    });
    match baseline {
        Some(baseline) if baseline.name.id == estimate.name.id => Ratio::Reference,
        Some(baseline) if estimate.median_ns > 0.0 => {
            Ratio::SpeedUp(baseline.median_ns / estimate.median_ns)
        }
        _ => Ratio::NoBaseline,
    }
}

fn compare_names(a: &BenchmarkName, b: &BenchmarkName) -> Ordering {
    a.group
        .cmp(&b.group)
        .then_with(|| compare_sizes(a.size.as_deref(), b.size.as_deref()))
        .then_with(|| a.id.cmp(&b.id))
}

/// No size first, then numeric sizes in numeric order, then other sizes alphabetically.
fn compare_sizes(a: Option<&str>, b: Option<&str>) -> Ordering {
    match (a, b) {
        (None, None) => Ordering::Equal,
        (None, Some(_)) => Ordering::Less,
        (Some(_), None) => Ordering::Greater,
        (Some(a), Some(b)) => match (a.parse::<f64>(), b.parse::<f64>()) {
            (Ok(x), Ok(y)) => x.total_cmp(&y).then_with(|| a.cmp(b)),
            (Ok(_), Err(_)) => Ordering::Less,
            (Err(_), Ok(_)) => Ordering::Greater,
            (Err(_), Err(_)) => a.cmp(b),
        },
    }
}

/// Formats a time in nanoseconds with the largest unit that keeps it at least 1.
fn format_duration(nanoseconds: f64) -> String {
    let (value, unit) = if nanoseconds < 1e3 {
        (nanoseconds, "ns")
    } else if nanoseconds < 1e6 {
        (nanoseconds / 1e3, "µs")
    } else if nanoseconds < 1e9 {
        (nanoseconds / 1e6, "ms")
    } else {
        (nanoseconds / 1e9, "s")
    };
    format!("{value:.2} {unit}")
}

/// Renders rows as a Markdown table, padded so that it also lines up in a terminal; with
/// `compared`, a last column `vs` holds the speed-up over the saved baseline.
fn render_table(rows: &[Row], compared: bool) -> String {
    let mut header = vec!["group", "size", "id", "median", "ratio"];
    let mut right_aligned = vec![false, true, false, true, true];
    if compared {
        header.push("vs");
        right_aligned.push(true);
    }

    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|row| {
            let name = &row.estimate.name;
            let mut cells = vec![
                name.group.clone(),
                name.size.clone().unwrap_or_else(|| "-".to_owned()),
                if name.id.is_empty() {
                    "-".to_owned()
                } else {
                    name.id.clone()
                },
                format_duration(row.estimate.median_ns),
                row.ratio.to_string(),
            ];
            if compared {
                cells.push(row.versus.to_string());
            }
            cells
        })
        .collect();
    let mut widths: Vec<usize> = header.iter().map(|title| title.chars().count()).collect();
    for row in &cells {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }

    let line = |row: &[&str]| {
        let padded: Vec<String> = row
            .iter()
            .zip(&widths)
            .zip(&right_aligned)
            .map(|((cell, &width), &right)| {
                if right {
                    format!("{cell:>width$}")
                } else {
                    format!("{cell:<width$}")
                }
            })
            .collect();
        format!("| {} |\n", padded.join(" | "))
    };
    let rules: Vec<String> = widths
        .iter()
        .zip(&right_aligned)
        .map(|(&width, &right)| {
            if right {
                format!("{}:", "-".repeat(width - 1))
            } else {
                "-".repeat(width)
            }
        })
        .collect();

    let mut table = line(&header);
    table.push_str(&format!("| {} |\n", rules.join(" | ")));
    for row in &cells {
        let row: Vec<&str> = row.iter().map(String::as_str).collect();
        table.push_str(&line(&row));
    }
    table
}

#[cfg(test)]
mod tests;
