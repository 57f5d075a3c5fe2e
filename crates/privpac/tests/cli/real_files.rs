//! Real files as they come (issue 37 §4) and the messages of §3: a UTF-8 byte-order mark,
//! other headers and extra columns (`--columns`), standard input (`--data -`), infinite
//! values under `--bounds`, `xor(…)` in data units, a mistyped `experiment` subcommand,
//! the experiments' default seed in `--help`, and ranges written in words.

use std::io::Write as _;
use std::process::{Command, Output, Stdio};

use super::{check_error, data_file, privpac, stdout};

/// Runs privpac with `input` on its standard input.
fn privpac_with_stdin(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_privpac"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the privpac binary runs");
    let mut stdin = child.stdin.take().expect("piped");
    let input = input.to_string();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let output = child.wait_with_output().expect("privpac exits");
    writer.join().expect("the writer stops");
    output
}

/// The three commands that read `--data`, each with a file in the plain form.
fn commands(labeled: &str, multi: &str) -> Vec<(Vec<&'static str>, String, String)> {
    vec![
        (
            vec!["learn", "--class", "thresholds:16", "--learner", "erm"],
            labeled.to_string(),
            "learn".to_string(),
        ),
        (
            vec![
                "multi-learn",
                "--class",
                "thresholds:16",
                "--learner",
                "direct-sum",
                "--epsilon",
                "1",
            ],
            multi.to_string(),
            "multi".to_string(),
        ),
        (
            vec![
                "sanitize",
                "--class",
                "thresholds:16",
                "--sanitizer",
                "tree",
                "--epsilon",
                "1",
            ],
            labeled.to_string(),
            "sanitize".to_string(),
        ),
    ]
}

const LABELED: &str = "x,y\n1,1\n2,1\n9,0\n12,0\n3,1\n";
const MULTI: &str = "x,y1,y2\n1,1,0\n2,1,0\n9,0,1\n12,0,1\n3,1,0\n";

fn run_on(args: &[&str], path: &std::path::Path, extra: &[&str]) -> Output {
    let mut all = args.to_vec();
    all.extend_from_slice(&[
        "--data",
        path.to_str().expect("a UTF-8 temporary path"),
        "--seed",
        "7",
        "--json",
    ]);
    all.extend_from_slice(extra);
    privpac(&all)
}

/// A file saved as "CSV UTF-8" starts with a byte-order mark: it is read as the same file
/// without one, by every command that reads `--data`.
#[test]
fn a_byte_order_mark_is_accepted_everywhere() {
    for (args, text, name) in commands(LABELED, MULTI) {
        let plain = data_file(&format!("bom-plain-{name}.csv"), &text);
        let marked = data_file(&format!("bom-{name}.csv"), &format!("\u{feff}{text}"));
        let expected = run_on(&args, &plain, &[]);
        assert!(expected.status.success(), "{args:?}: {expected:?}");
        let got = run_on(&args, &marked, &[]);
        assert!(got.status.success(), "{args:?} with a BOM: {got:?}");
        assert_eq!(stdout(&got), stdout(&expected), "{args:?}");
    }
}

/// A pandas export (an index column, named columns, extra columns) is read with
/// `--columns`, by name or by 0-based index, giving what the plain file gives; without it,
/// the error names the way out.
#[test]
fn columns_pick_the_feature_and_labels_of_an_export() {
    let export = "Unnamed: 0,age,sick,flu,city\n\
                  0,1,1,0,a\n1,2,1,0,b\n2,9,0,1,c\n3,12,0,1,d\n4,3,1,0,e\n";
    let path = data_file("export.csv", export);
    let headerless = data_file(
        "export-bare.csv",
        "0,1,1,0\n1,2,1,0\n2,9,0,1\n3,12,0,1\n4,3,1,0\n",
    );
    let selections: [(&str, &str, &str); 3] = [
        ("learn", "age,sick", "1,2"),
        ("multi", "age,sick,flu", "1,2,3"),
        ("sanitize", "age", "1"),
    ];
    for ((args, text, name), (_, by_name, by_index)) in
        commands(LABELED, MULTI).into_iter().zip(selections)
    {
        let plain = data_file(&format!("columns-plain-{name}.csv"), &text);
        let expected = stdout(&run_on(&args, &plain, &[]));
        // multi-learn names its columns by the header (`sick`, `flu`) where the file has
        // one, and `y1`, `y2` without: otherwise its JSON is the plain file's.
        let parse = |text: &str| -> serde_json::Value {
            serde_json::from_str(text).expect("--json prints JSON")
        };
        let mut named = parse(&expected);
        if name == "multi" {
            for (column, header) in named["columns"]
                .as_array_mut()
                .expect("columns")
                .iter_mut()
                .zip(["sick", "flu"])
            {
                assert_eq!(column["name"], format!("y{}", column["column"]));
                column["name"] = header.into();
            }
        }
        for (file, columns, headed) in [
            (&path, by_name, true),
            (&path, by_index, true),
            (&headerless, by_index, false),
        ] {
            let got = run_on(&args, file, &["--columns", columns]);
            assert!(
                got.status.success(),
                "{args:?} --columns {columns}: {got:?}"
            );
            if headed && name == "multi" {
                assert_eq!(parse(&stdout(&got)), named, "{args:?} --columns {columns}");
            } else {
                assert_eq!(stdout(&got), expected, "{args:?} --columns {columns}");
            }
        }
        // Without --columns: a clear error suggesting it.
        let mut all = args.clone();
        all.extend_from_slice(&["--data", path.to_str().expect("a UTF-8 temporary path")]);
        check_error(&all, "--columns");
    }
    let two = data_file("other-header.csv", "age,sick\n1,1\n9,0\n");
    check_error(
        &[
            "learn",
            "--class",
            "thresholds:16",
            "--learner",
            "erm",
            "--data",
            two.to_str().expect("a UTF-8 temporary path"),
        ],
        "line 1: unknown columns \"age,sick\"",
    );
    check_error(
        &[
            "learn",
            "--class",
            "thresholds:16",
            "--learner",
            "erm",
            "--data",
            path.to_str().expect("a UTF-8 temporary path"),
            "--columns",
            "age,ill",
        ],
        "line 1: column \"ill\" is not in the header",
    );
    check_error(
        &[
            "learn",
            "--class",
            "thresholds:16",
            "--learner",
            "erm",
            "--data",
            path.to_str().expect("a UTF-8 temporary path"),
            "--columns",
            "age,,sick",
        ],
        "--columns \"age,,sick\": entry 2 is empty",
    );
    let help = stdout(&privpac(&["multi-learn", "--help"]));
    assert!(
        help.contains("--columns") && help.contains("LABEL1"),
        "{help}"
    );
}

/// `--data -` reads standard input, with the same row limit.
#[test]
fn data_dash_reads_standard_input() {
    for (args, text, name) in commands(LABELED, MULTI) {
        let plain = data_file(&format!("stdin-plain-{name}.csv"), &text);
        let expected = run_on(&args, &plain, &[]);
        let mut all = args.clone();
        all.extend_from_slice(&["--data", "-", "--seed", "7", "--json"]);
        let got = privpac_with_stdin(&all, &text);
        assert!(got.status.success(), "{all:?}: {got:?}");
        assert_eq!(stdout(&got), stdout(&expected), "{all:?}");
        all.extend_from_slice(&["--max-rows", "3"]);
        let limited = privpac_with_stdin(&all, &text);
        assert_eq!(limited.status.code(), Some(2), "{all:?}");
        let stderr = String::from_utf8_lossy(&limited.stderr);
        assert!(stderr.contains("line 4: more than 3 lines"), "{stderr}");
    }
}

/// Under `--bounds`, `inf`, `-inf` and values that overflow to them are errors naming
/// the line (finite values outside are clipped), and `--help` says so.
#[test]
fn infinite_values_are_errors_naming_the_line() {
    for value in ["inf", "-inf", "1e400", "-1e999"] {
        let path = data_file(
            &format!("inf-{value}.csv"),
            &format!("x,y\n3.5,1\n{value},0\n"),
        );
        check_error(
            &[
                "learn",
                "--class",
                "thresholds:8",
                "--learner",
                "erm",
                "--data",
                path.to_str().expect("a UTF-8 temporary path"),
                "--bounds",
                "0:10",
                "--bins",
                "8",
            ],
            &format!("line 3: point \"{value}\" is not finite"),
        );
    }
    let clipped = data_file("clipped.csv", "x,y\n-5,1\n1e300,0\n");
    let output = privpac(&[
        "learn",
        "--class",
        "thresholds:8",
        "--learner",
        "erm",
        "--data",
        clipped.to_str().expect("a UTF-8 temporary path"),
        "--bounds",
        "0:10",
        "--bins",
        "8",
    ]);
    assert!(output.status.success(), "{output:?}");
    let help = stdout(&privpac(&["learn", "--help"]));
    assert!(
        help.contains("inf, -inf and values that overflow"),
        "{help}"
    );
}

/// `xor(…)` of an ordered class is printed in data units, like thresholds and intervals.
#[test]
fn xor_hypotheses_print_in_data_units() {
    let path = data_file("xor.csv", "x,y\n1,0\n3.5,1\n4.1,1\n7,0\n9,0\n");
    let output = privpac(&[
        "learn",
        "--class",
        "xor(thresholds:8)",
        "--learner",
        "erm",
        "--data",
        path.to_str().expect("a UTF-8 temporary path"),
        "--bounds",
        "0:10",
        "--bins",
        "8",
    ]);
    assert!(output.status.success(), "{output:?}");
    let text = stdout(&output);
    let line = text
        .lines()
        .find(|l| l.starts_with("hypothesis:"))
        .expect("a hypothesis line");
    assert!(
        line.starts_with("hypothesis: 1 on 1.25 ≤ x < 5   (on the bins:"),
        "{line}"
    );
}

/// `privpac experiment lsit` is named as a mistyped subcommand, with the suggestion.
#[test]
fn a_mistyped_experiment_subcommand_is_named_with_a_suggestion() {
    check_error(
        &["experiment", "lsit"],
        "unknown experiment or subcommand \"lsit\": did you mean the subcommand `list`?",
    );
    check_error(
        &["experiment", "k-curve"],
        "did you mean the experiment `k-curves`?",
    );
    // Top-level commands: clap's own suggestion.
    let output = privpac(&["lern"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("'learn'"), "{stderr}");
}

/// `--seed`'s help says what experiments use when it is not given.
#[test]
fn seed_help_states_the_experiments_default() {
    let help = stdout(&privpac(&["experiment", "--help"]));
    let seed = help
        .split("--seed")
        .nth(1)
        .expect("--seed in the help")
        .split("--json")
        .next()
        .unwrap_or_default();
    assert!(
        seed.contains("experiment file's `seed` key, else 1"),
        "{seed}"
    );
}

/// Ranges are printed in words (`0 ≤ x < 8`), never as `0..8`, which reads as if 8 were
/// allowed: the domain of a data file, a concept id, a shard.
#[test]
fn ranges_are_printed_in_words() {
    let outside = data_file("outside.csv", "x,y\n3,1\n8,0\n");
    let cases: [(&[&str], &str); 3] = [
        (
            &[
                "learn",
                "--class",
                "thresholds:8",
                "--learner",
                "erm",
                "--data",
                outside.to_str().expect("a UTF-8 temporary path"),
            ],
            "outside the domain (points 0 ≤ x < 8)",
        ),
        (
            &[
                "sample-complexity",
                "--class",
                "thresholds:8",
                "--learner",
                "erm",
                "--alpha",
                "0.1",
                "--beta",
                "0.1",
                "--target",
                "8",
            ],
            "the class has 8 concepts",
        ),
        (
            &["experiment", "k-curves", "--quick", "--shard", "4/4"],
            "index < count",
        ),
    ];
    for (args, needle) in cases {
        let output = privpac(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
        assert!(
            !stderr.contains("0.."),
            "{args:?}: a range as 0..N: {stderr}"
        );
        assert!(
            !stderr.contains("[8]"),
            "{args:?}: a range as [N]: {stderr}"
        );
    }
}
