//! `cargo xtask bench [AREA] [--save NAME] [--compare NAME] [-- CRITERION_ARGS]`: runs the
//! criterion benches under a named baseline, then summarizes them in one table of medians and
//! speed-ups.
//!
//! Benches follow the naming rule of STYLE.md (rule 25): the criterion group is the area name,
//! function ids are `reference`, `fast` and `naive`, and sizes are the `BenchmarkId` parameter.
//! We pass criterion `--save-baseline NAME` (default [`DEFAULT_BASELINE`]), so that it copies
//! each result of this run to `target/criterion/<group>/<id>/<size>/NAME/estimates.json`, and
//! read `median.point_estimate` (nanoseconds) from exactly those files. Each id is compared with
//! the reference of the same group and size (`reference` if present, else `naive`), and with
//! `--compare OTHER` also with the same benchmark in the saved baseline `OTHER`. The table is
//! printed and also written as Markdown to `target/criterion/summary.md`.
//!
//! Before running under the default name, its old copies are deleted, so the table shows this
//! run only. A name given with `--save` is kept: running a subset of the benches updates those
//! entries and the table shows everything saved under that name.

use std::{
    cmp::Ordering,
    env, fmt, fs,
    path::{Path, PathBuf},
};

use anyhow::{Context, Result, bail};
use serde_json::Value;

use crate::{cargo, project_root, run_command};

/// The baseline this tool saves to when not told a name; cleared before each run.
const DEFAULT_BASELINE: &str = "xtask-latest";

/// Runs `cargo bench -p benches [--bench AREA] -- --save-baseline NAME [CRITERION_ARGS]` and
/// prints the summary.
pub(crate) fn run(args: &[String]) -> Result<()> {
    let args = BenchArgs::parse(args)?;
    let criterion_dir = criterion_dir();
    if args.save == DEFAULT_BASELINE {
        remove_baseline(&criterion_dir, DEFAULT_BASELINE)?;
    }

    let mut command = cargo();
    // `--bench '*'` selects every [[bench]] target but not the `benches` library, whose libtest
    // harness would reject criterion's arguments.
    command
        .args(["bench", "-p", "benches", "--bench"])
        .arg(args.area.as_deref().unwrap_or("*"))
        .args(["--", "--save-baseline", &args.save])
        .args(&args.criterion_args);
    run_command(&mut command)?;

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
    Ok(())
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
    /// Everything after `--`, passed to criterion.
    criterion_args: Vec<String>,
}

const USAGE: &str = "usage: cargo xtask bench [AREA] [--save NAME] [--compare NAME] \
                     [-- CRITERION_ARGS...]";

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
                // Accept the crate spelling (`dp-mechanisms`) for the bench file
                // (`dp_mechanisms`).
                area if !area.starts_with('-') && parsed.area.is_none() => {
                    parsed.area = Some(area.replace('-', "_"));
                }
                _ => bail!("{USAGE} (got `{}`)", ours.join(" ")),
            }
        }
        Ok(parsed)
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
mod tests {
    use std::process;

    use super::*;

    /// An `estimates.json` as criterion 0.8 writes it (one line, shortened to what we read
    /// and its neighbours).
    const ESTIMATES_JSON: &str = r#"{"mean":{"confidence_interval":{"confidence_level":0.95,"lower_bound":1510.2,"upper_bound":1540.9},"point_estimate":1524.7,"standard_error":7.8},"median":{"confidence_interval":{"confidence_level":0.95,"lower_bound":1498.0,"upper_bound":1512.5},"point_estimate":1503.25,"standard_error":3.9},"median_abs_dev":{"confidence_interval":{"confidence_level":0.95,"lower_bound":10.1,"upper_bound":19.6},"point_estimate":14.2,"standard_error":2.5},"slope":{"confidence_interval":{"confidence_level":0.95,"lower_bound":1505.0,"upper_bound":1530.0},"point_estimate":1517.0,"standard_error":6.4},"std_dev":{"confidence_interval":{"confidence_level":0.95,"lower_bound":40.0,"upper_bound":120.0},"point_estimate":77.0,"standard_error":20.0}}"#;

    const BENCHMARK_JSON: &str = r#"{"group_id":"exp_mech","function_id":"fast","value_str":"1000","throughput":null,"full_id":"exp_mech/fast/1000","directory_name":"exp_mech/fast/1000","title":"exp_mech/fast/1000"}"#;

    fn name(group: &str, id: &str, size: Option<&str>) -> BenchmarkName {
        BenchmarkName {
            group: group.to_owned(),
            id: id.to_owned(),
            size: size.map(str::to_owned),
        }
    }

    fn estimate(group: &str, id: &str, size: Option<&str>, median_ns: f64) -> Estimate {
        Estimate {
            name: name(group, id, size),
            median_ns,
        }
    }

    fn strings(words: &[&str]) -> Vec<String> {
        words.iter().map(|word| (*word).to_owned()).collect()
    }

    #[test]
    fn parses_the_median_from_estimates_json() {
        assert_eq!(parse_median_ns(ESTIMATES_JSON).unwrap(), 1503.25);
    }

    #[test]
    fn rejects_estimates_json_without_a_median() {
        let error = parse_median_ns(r#"{"mean":{"point_estimate":1.0}}"#).unwrap_err();
        assert!(
            error.to_string().contains("median.point_estimate"),
            "{error}"
        );
        assert!(parse_median_ns("not json").is_err());
    }

    #[test]
    fn parses_the_name_from_benchmark_json() {
        assert_eq!(
            parse_benchmark_name(BENCHMARK_JSON).unwrap(),
            name("exp_mech", "fast", Some("1000"))
        );
        let without_id = r#"{"group_id":"laplace","function_id":null,"value_str":"64"}"#;
        assert_eq!(
            parse_benchmark_name(without_id).unwrap(),
            name("laplace", "", Some("64"))
        );
    }

    #[test]
    fn names_benchmarks_from_their_directories() {
        let from = |path: &str| name_from_path(Path::new(path));
        assert_eq!(
            from("exp_mech/fast/1000"),
            Some(name("exp_mech", "fast", Some("1000")))
        );
        assert_eq!(from("exp_mech/fast"), Some(name("exp_mech", "fast", None)));
        assert_eq!(from("sampling"), Some(name("sampling", "", None)));
        assert_eq!(from("a/b/c/d"), None);
    }

    #[test]
    fn formats_durations_in_human_units() {
        assert_eq!(format_duration(0.0), "0.00 ns");
        assert_eq!(format_duration(523.4), "523.40 ns");
        assert_eq!(format_duration(1503.25), "1.50 µs");
        assert_eq!(format_duration(12_345_678.0), "12.35 ms");
        assert_eq!(format_duration(2.5e9), "2.50 s");
        assert_eq!(format_duration(125e9), "125.00 s");
    }

    #[test]
    fn ratios_are_speed_ups_over_reference_then_naive() {
        let rows = build_rows(
            vec![
                estimate("exp_mech", "fast", Some("1000"), 250.0),
                estimate("exp_mech", "reference", Some("1000"), 1000.0),
                estimate("exp_mech", "naive", Some("1000"), 4000.0),
                estimate("fwht", "fast", Some("64"), 10.0),
                estimate("fwht", "naive", Some("64"), 80.0),
                estimate("lonely", "fast", Some("8"), 5.0),
            ],
            None,
        );
        let summary: Vec<(&str, &str, Ratio)> = rows
            .iter()
            .map(|row| {
                let name = &row.estimate.name;
                (name.group.as_str(), name.id.as_str(), row.ratio)
            })
            .collect();
        assert_eq!(
            summary,
            [
                ("exp_mech", "fast", Ratio::SpeedUp(4.0)),
                ("exp_mech", "naive", Ratio::SpeedUp(0.25)),
                ("exp_mech", "reference", Ratio::Reference),
                ("fwht", "fast", Ratio::SpeedUp(8.0)),
                ("fwht", "naive", Ratio::Reference),
                ("lonely", "fast", Ratio::NoBaseline),
            ]
        );
    }

    #[test]
    fn baselines_are_per_group_and_size() {
        let rows = build_rows(
            vec![
                estimate("g", "fast", Some("10"), 1.0),
                estimate("g", "reference", Some("100"), 100.0),
                estimate("g", "fast", Some("100"), 50.0),
            ],
            None,
        );
        let ratios: Vec<Ratio> = rows.iter().map(|row| row.ratio).collect();
        assert_eq!(
            ratios,
            [Ratio::NoBaseline, Ratio::SpeedUp(2.0), Ratio::Reference]
        );
    }

    #[test]
    fn rows_sort_by_group_then_numeric_size_then_id() {
        let rows = build_rows(
            vec![
                estimate("b", "fast", Some("1000"), 1.0),
                estimate("b", "fast", Some("64"), 1.0),
                estimate("b", "fast", Some("big"), 1.0),
                estimate("b", "fast", None, 1.0),
                estimate("a", "reference", Some("100"), 1.0),
                estimate("a", "fast", Some("100"), 1.0),
            ],
            None,
        );
        let order: Vec<(&str, Option<&str>, &str)> = rows
            .iter()
            .map(|row| {
                let name = &row.estimate.name;
                (name.group.as_str(), name.size.as_deref(), name.id.as_str())
            })
            .collect();
        assert_eq!(
            order,
            [
                ("a", Some("100"), "fast"),
                ("a", Some("100"), "reference"),
                ("b", None, "fast"),
                ("b", Some("64"), "fast"),
                ("b", Some("1000"), "fast"),
                ("b", Some("big"), "fast"),
            ]
        );
    }

    #[test]
    fn renders_a_padded_markdown_table() {
        let table = render_table(
            &build_rows(
                vec![
                    estimate("exp_mech", "fast", Some("1000"), 1503.25),
                    estimate("exp_mech", "reference", Some("1000"), 6013.0),
                    estimate("sampling", "", None, 42.0),
                ],
                None,
            ),
            false,
        );
        let expected = "\
| group    | size | id        |   median |            ratio |
| -------- | ---: | --------- | -------: | ---------------: |
| exp_mech | 1000 | fast      |  1.50 µs |             4.00 |
| exp_mech | 1000 | reference |  6.01 µs | 1.00 (reference) |
| sampling |    - | -         | 42.00 ns |                - |
";
        assert_eq!(table, expected);
    }

    #[test]
    fn compares_with_a_saved_baseline_benchmark_by_benchmark() {
        let rows = build_rows(
            vec![
                estimate("exp_mech", "fast", Some("1000"), 1000.0),
                estimate("exp_mech", "reference", Some("1000"), 4000.0),
                estimate("fwht", "fast", Some("64"), 10.0),
            ],
            Some(&[
                estimate("exp_mech", "fast", Some("1000"), 3000.0),
                estimate("exp_mech", "reference", Some("1000"), 4000.0),
                estimate("fwht", "fast", Some("128"), 10.0),
            ]),
        );
        let versus: Vec<Ratio> = rows.iter().map(|row| row.versus).collect();
        assert_eq!(
            versus,
            [Ratio::SpeedUp(3.0), Ratio::SpeedUp(1.0), Ratio::NoBaseline]
        );
        let table = render_table(&rows, true);
        assert!(
            table.starts_with(
                "| group    | size | id        |   median |            ratio |   vs |\n"
            ),
            "{table}"
        );
        assert!(
            table.contains("| exp_mech | 1000 | fast      |  1.00 µs |             4.00 | 3.00 |"),
            "{table}"
        );
    }

    fn args(area: Option<&str>, save: &str, compare: Option<&str>, rest: &[&str]) -> BenchArgs {
        BenchArgs {
            area: area.map(str::to_owned),
            save: save.to_owned(),
            compare: compare.map(str::to_owned),
            criterion_args: strings(rest),
        }
    }

    #[test]
    fn parses_the_command_line() {
        assert_eq!(
            BenchArgs::parse(&[]).unwrap(),
            args(None, DEFAULT_BASELINE, None, &[])
        );
        assert_eq!(
            BenchArgs::parse(&strings(&["dp-mechanisms", "--", "--quick", "exp_mech"])).unwrap(),
            args(
                Some("dp_mechanisms"),
                DEFAULT_BASELINE,
                None,
                &["--quick", "exp_mech"]
            )
        );
        assert_eq!(
            BenchArgs::parse(&strings(&[
                "--save",
                "after",
                "--compare",
                "main",
                "learners"
            ]))
            .unwrap(),
            args(Some("learners"), "after", Some("main"), &[])
        );
        // Baselines are ours to set, and need usable names.
        for bad in [
            &["a", "b"][..],
            &["--quick"],
            &["--save"],
            &["--save", "new"],
            &["--compare", "../x"],
            &["--save", ""],
            &["--", "--save-baseline", "main"],
            &["--", "--baseline", "main"],
        ] {
            assert!(BenchArgs::parse(&strings(bad)).is_err(), "{bad:?}");
        }
    }

    /// A directory under the system temp dir, removed when dropped.
    struct TempDir(PathBuf);

    impl TempDir {
        fn new(label: &str) -> TempDir {
            let path = env::temp_dir().join(format!("xtask-{label}-{}", process::id()));
            let _ = fs::remove_dir_all(&path);
            fs::create_dir_all(&path).unwrap();
            TempDir(path)
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    fn write_file(path: &Path, contents: &str) {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, contents).unwrap();
    }

    fn estimates_with_median(median_ns: f64) -> String {
        format!(r#"{{"median":{{"point_estimate":{median_ns},"standard_error":1.0}}}}"#)
    }

    #[test]
    fn collects_the_estimates_of_one_named_baseline() {
        let temp = TempDir::new("bench-tree");
        let criterion = temp.0.join("criterion");
        let bench_file = |relative: &str, median_ns: f64| {
            write_file(&criterion.join(relative), &estimates_with_median(median_ns));
        };
        bench_file("exp_mech/reference/1000/run/estimates.json", 4000.0);
        bench_file("exp_mech/fast/1000/run/estimates.json", 1000.0);
        // Criterion's working copy and other baselines are not this run's results.
        bench_file("exp_mech/fast/1000/new/estimates.json", 1111.0);
        bench_file("exp_mech/fast/1000/base/estimates.json", 9999.0);
        bench_file("exp_mech/fast/1000/main/estimates.json", 3000.0);
        bench_file("sampling/naive/run/estimates.json", 70.0);
        bench_file("sampling/fast/run/estimates.json", 7.0);
        // The ids in benchmark.json win over the (filename-safe) directory names.
        write_file(
            &criterion.join("odd_dir/x/run/estimates.json"),
            &estimates_with_median(5.0),
        );
        write_file(
            &criterion.join("odd_dir/x/run/benchmark.json"),
            r#"{"group_id":"odd","function_id":"fast","value_str":"3"}"#,
        );
        write_file(&criterion.join("exp_mech/report/index.html"), "<html/>");
        write_file(&criterion.join("summary.md"), "old summary");

        let rows = build_rows(collect_estimates(&criterion, "run").unwrap(), None);
        let summary: Vec<(String, Option<String>, String, f64, Ratio)> = rows
            .into_iter()
            .map(|row| {
                let name = row.estimate.name;
                (
                    name.group,
                    name.size,
                    name.id,
                    row.estimate.median_ns,
                    row.ratio,
                )
            })
            .collect();
        let expected = [
            (
                "exp_mech",
                Some("1000"),
                "fast",
                1000.0,
                Ratio::SpeedUp(4.0),
            ),
            (
                "exp_mech",
                Some("1000"),
                "reference",
                4000.0,
                Ratio::Reference,
            ),
            ("odd", Some("3"), "fast", 5.0, Ratio::NoBaseline),
            ("sampling", None, "fast", 7.0, Ratio::SpeedUp(10.0)),
            ("sampling", None, "naive", 70.0, Ratio::Reference),
        ]
        .map(|(group, size, id, median_ns, ratio)| {
            (
                group.to_owned(),
                size.map(str::to_owned),
                id.to_owned(),
                median_ns,
                ratio,
            )
        });
        assert_eq!(summary, expected);
        assert_eq!(
            collect_estimates(&criterion, "main").unwrap(),
            [estimate("exp_mech", "fast", Some("1000"), 3000.0)]
        );
    }

    #[test]
    fn removing_a_baseline_keeps_the_others() {
        let temp = TempDir::new("bench-remove");
        let criterion = temp.0.join("criterion");
        for baseline in [DEFAULT_BASELINE, "new", "main"] {
            write_file(
                &criterion.join(format!("g/fast/10/{baseline}/estimates.json")),
                &estimates_with_median(2.0),
            );
        }
        // A group that happens to share the baseline's name is not a baseline copy.
        write_file(
            &criterion.join(format!("{DEFAULT_BASELINE}/fast/main/estimates.json")),
            &estimates_with_median(3.0),
        );
        remove_baseline(&criterion, DEFAULT_BASELINE).unwrap();
        assert!(
            collect_estimates(&criterion, DEFAULT_BASELINE)
                .unwrap()
                .is_empty()
        );
        assert!(criterion.join("g/fast/10/new/estimates.json").is_file());
        assert_eq!(collect_estimates(&criterion, "main").unwrap().len(), 2);
    }

    #[test]
    fn a_missing_criterion_dir_has_no_estimates() {
        let temp = TempDir::new("bench-missing");
        let estimates = collect_estimates(&temp.0.join("criterion"), "run").unwrap();
        assert!(estimates.is_empty());
        remove_baseline(&temp.0.join("criterion"), "run").unwrap();
    }

    #[test]
    fn a_broken_estimates_file_names_its_path() {
        let temp = TempDir::new("bench-broken");
        let criterion = temp.0.join("criterion");
        write_file(&criterion.join("g/fast/1/run/estimates.json"), "{");
        let error = format!("{:#}", collect_estimates(&criterion, "run").unwrap_err());
        assert!(error.contains("g/fast/1/run/estimates.json"), "{error}");
    }
}
