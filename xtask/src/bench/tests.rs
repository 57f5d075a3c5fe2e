//! Unit tests of `bench`.

use std::{process, time::UNIX_EPOCH};

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
        table.starts_with("| group    | size | id        |   median |            ratio |   vs |\n"),
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
        quick: false,
        docs: true,
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
        BenchArgs::parse(&strings(&["mechanisms", "--", "--quick", "exp_mech"])).unwrap(),
        args(
            Some("mechanisms"),
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
        &["--fast"],
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

#[test]
fn quick_and_no_docs_flags_decide_the_mode_and_the_page() {
    let quick = BenchArgs::parse(&strings(&["--quick"])).unwrap();
    assert_eq!(
        quick,
        BenchArgs {
            quick: true,
            ..args(None, DEFAULT_BASELINE, None, &[])
        }
    );
    assert!(quick.writes_docs());
    assert_eq!(quick.command_line(), "cargo xtask bench --quick");
    // Only a run of the whole suite in a known mode replaces the page's table.
    for partial in [
        &["learners", "--quick"][..],
        &["--quick", "--", "exp_mech"],
        &["--no-docs"],
    ] {
        assert!(!BenchArgs::parse(&strings(partial)).unwrap().writes_docs());
    }
    let everything = BenchArgs::parse(&strings(&[
        "engine",
        "--quick",
        "--save",
        "b",
        "--compare",
        "a",
        "--",
        "trial",
    ]))
    .unwrap();
    assert_eq!(
        everything.command_line(),
        "cargo xtask bench engine --quick --save b --compare a -- trial"
    );
}

#[test]
fn quick_args_are_accepted_by_criterion_limits() {
    // Criterion asserts a sample size of at least 10 and positive durations.
    let value = |flag: &str| {
        let at = QUICK_ARGS.iter().position(|arg| *arg == flag).unwrap();
        QUICK_ARGS[at + 1].parse::<f64>().unwrap()
    };
    assert!(value("--sample-size") >= 10.0);
    assert!(value("--warm-up-time") > 0.0);
    assert!(value("--measurement-time") > 0.0);
    assert!(value("--nresamples") >= 1.0);
}

#[test]
fn reads_the_load_average() {
    assert_eq!(
        parse_loadavg("3.61 2.95 1.20 5/467 12345\n").as_deref(),
        Some("3.61, 2.95, 1.20")
    );
    assert_eq!(parse_loadavg("garbage"), None);
    assert_eq!(parse_loadavg(""), None);
}

#[test]
fn describes_the_machine_from_proc_files() {
    let cpuinfo = "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 7B13\n\n\
                   processor\t: 1\nmodel name\t: AMD EPYC 7B13\n";
    let meminfo = "MemTotal:       24576000 kB\nMemFree:         1000 kB\n";
    assert_eq!(
        machine_description(cpuinfo, meminfo, Some("6.18.0\n"), 8),
        "AMD EPYC 7B13, 2 logical cores, 23 GiB RAM, Linux 6.18.0"
    );
    // Nothing readable: the usable cores, and no memory or kernel.
    assert_eq!(
        machine_description("", "", None, 1),
        "unknown CPU, 1 logical core"
    );
}

#[test]
fn formats_utc_dates() {
    assert_eq!(format_utc(UNIX_EPOCH), "1970-01-01 00:00");
    assert_eq!(
        format_utc(UNIX_EPOCH + std::time::Duration::from_secs(951_782_400)),
        "2000-02-29 00:00"
    );
    assert_eq!(
        format_utc(UNIX_EPOCH + std::time::Duration::from_secs(1_700_000_000)),
        "2023-11-14 22:13"
    );
    assert_eq!(
        format_utc(UNIX_EPOCH + std::time::Duration::from_secs(1_795_000_000)),
        "2026-11-18 11:06"
    );
}

#[test]
fn only_changes_outside_the_page_make_the_commit_dirty() {
    assert_eq!(dirty_suffix(""), "");
    assert_eq!(dirty_suffix(" M docs/benchmarks.md\n"), "");
    assert_eq!(
        dirty_suffix(" M docs/benchmarks.md\nM  xtask/src/bench.rs\n"),
        "-dirty"
    );
    assert_eq!(dirty_suffix("?? new.rs\n M benches/src/lib.rs\n"), "-dirty");
}

fn run_info() -> RunInfo {
    RunInfo {
        command: "cargo xtask bench --quick".to_owned(),
        mode: "quick".to_owned(),
        started: "2026-11-25 10:00".to_owned(),
        finished: "2026-11-25 10:04".to_owned(),
        commit: "abc1234-dirty".to_owned(),
        machine: "AMD EPYC, 2 logical cores".to_owned(),
        load_before: "1.00, 2.00, 3.00".to_owned(),
        load_after: "4.00, 5.00, 6.00".to_owned(),
    }
}

#[test]
fn writes_the_fixture_run_between_the_markers_of_the_page() {
    // Criterion's files as it writes them, for two benchmarks of one group and size.
    let temp = TempDir::new("bench-page");
    let criterion = temp.0.join("criterion");
    write_file(
        &criterion.join("exp_mech/fast/1000/xtask-latest/estimates.json"),
        ESTIMATES_JSON,
    );
    write_file(
        &criterion.join("exp_mech/fast/1000/xtask-latest/benchmark.json"),
        BENCHMARK_JSON,
    );
    write_file(
        &criterion.join("exp_mech/reference/1000/xtask-latest/estimates.json"),
        &estimates_with_median(6013.0),
    );
    let rows = build_rows(
        collect_estimates(&criterion, DEFAULT_BASELINE).unwrap(),
        None,
    );
    let section = render_section(&run_info(), "legend.", &render_table(&rows, false));
    let expected_section = format!(
        "{BEGIN_MARKER}

- Command: `cargo xtask bench --quick`
- Mode: quick
- Date: 2026-11-25 10:00 to 2026-11-25 10:04 (UTC)
- Code: commit `abc1234-dirty`
- Machine: AMD EPYC, 2 logical cores
- Load average (1, 5, 15 min): 1.00, 2.00, 3.00 before the run, 4.00, 5.00, 6.00 after it

legend.

| group    | size | id        |  median |            ratio |
| -------- | ---: | --------- | ------: | ---------------: |
| exp_mech | 1000 | fast      | 1.50 µs |             4.00 |
| exp_mech | 1000 | reference | 6.01 µs | 1.00 (reference) |

{END_MARKER}"
    );
    assert_eq!(section, expected_section);

    // The hand-written text around the markers stays; the old table goes.
    let page = format!(
        "# Benchmarks\n\nHand-written.\n\n{BEGIN_MARKER}\nold table\n{END_MARKER}\n\nMore prose.\n"
    );
    let written = replace_generated(&page, &section);
    assert_eq!(
        written,
        format!("# Benchmarks\n\nHand-written.\n\n{expected_section}\n\nMore prose.\n")
    );
    // Writing again replaces the section instead of adding another.
    assert_eq!(replace_generated(&written, &section), written);
}

#[test]
fn a_page_without_markers_gets_the_section_appended() {
    let written = replace_generated("# Benchmarks\n\nProse.\n\n", "SECTION");
    assert_eq!(
        written,
        "# Benchmarks\n\nProse.\n\n## Latest table\n\nSECTION\n"
    );
    // An end marker before the begin marker is not a generated part.
    let odd = format!("{END_MARKER}\n{BEGIN_MARKER}\n");
    assert!(replace_generated(&odd, "S").ends_with("## Latest table\n\nS\n"));
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
