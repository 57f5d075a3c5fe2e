//! Data files (issue 31): the row limit (`--max-rows`) and the line-length limit as
//! one-line errors naming the line, endless inputs (`/dev/zero`, a pipe that never ends),
//! and real-valued points (`--bounds LOW:HIGH --bins N`).

use std::io::Write as _;
use std::process::{Command, Stdio};

use super::{check_error, data_file, json_of, privpac, stdout};

/// Five data lines and a header: `--max-rows 6` passes, `--max-rows 5` stops at line 6,
/// on every command that reads examples.
#[test]
fn the_row_limit_is_stated_overridable_and_names_the_line() {
    let labeled = data_file("rows.csv", "x,y\n1,1\n2,1\n9,0\n12,0\n3,1\n");
    let multi = data_file(
        "rows-multi.csv",
        "x,y1,y2\n1,1,0\n2,1,0\n9,0,1\n12,0,1\n3,1,0\n",
    );
    let commands: [(&str, &[&str], &std::path::Path); 3] = [
        ("learn", &["--learner", "erm"], &labeled),
        (
            "multi-learn",
            &["--learner", "direct-sum", "--epsilon", "1"],
            &multi,
        ),
        (
            "sanitize",
            &["--sanitizer", "tree", "--epsilon", "1"],
            &labeled,
        ),
    ];
    for (command, extra, path) in commands {
        let mut args = vec![command, "--class", "thresholds:16"];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--data", path.to_str().unwrap(), "--seed", "1"]);
        let output = privpac(&[args.as_slice(), &["--max-rows", "6"]].concat());
        assert!(output.status.success(), "{args:?}: {output:?}");
        check_error(
            &[args.as_slice(), &["--max-rows", "5"]].concat(),
            "line 6: more than 5 lines (the row limit, counting header, comment and blank lines; raise it with --max-rows)",
        );
    }
    // The default is stated in the help.
    let help = stdout(&privpac(&["learn", "--help"]));
    assert!(
        help.contains("--max-rows") && help.contains("100000000"),
        "{help}"
    );
}

/// `/dev/zero` stops at the line-length limit of line 1 (it once stopped at a byte cap).
#[test]
fn dev_zero_stops_at_the_line_length_limit() {
    if !std::path::Path::new("/dev/zero").exists() {
        return;
    }
    for args in [
        &["learn", "--learner", "generic", "--epsilon", "1"][..],
        &["multi-learn", "--learner", "direct-sum", "--epsilon", "1"],
        &["sanitize", "--sanitizer", "mwem", "--epsilon", "1"],
    ] {
        check_error(
            &[args, &["--class", "points:8", "--data", "/dev/zero"]].concat(),
            "line 1: longer than 1048576 bytes (the line-length limit",
        );
    }
}

/// A pipe that never ends (valid rows written until the reader hangs up) stops at the
/// row limit with an error naming the line.
#[test]
fn an_endless_pipe_stops_at_the_row_limit() {
    if !std::path::Path::new("/dev/stdin").exists() {
        return;
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_privpac"))
        .args([
            "learn",
            "--class",
            "thresholds:16",
            "--learner",
            "erm",
            "--data",
            "/dev/stdin",
            "--max-rows",
            "20000",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the privpac binary runs");
    let mut stdin = child.stdin.take().expect("piped");
    let writer = std::thread::spawn(move || {
        let block = "3,1\n".repeat(1024);
        // Until privpac stops reading (a broken pipe).
        while stdin.write_all(block.as_bytes()).is_ok() {}
    });
    let output = child.wait_with_output().expect("privpac exits");
    writer.join().expect("the writer stops");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("line 20001: more than 20000 lines"),
        "{stderr}"
    );
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
}

/// Real-valued points: each x goes to its bin of the public bounds (clipped outside), on
/// the class's domain of --bins points.
#[test]
fn real_points_are_binned_with_public_bounds() {
    // Bins of width 10 on [0, 100]: 1 on x < 40 is the threshold at bin 3.
    let mut csv = String::from("x,y\n");
    for i in 0..200u32 {
        let x = f64::from(i) * 0.55 - 2.0; // -2 … 107.45: some clipped on both sides
        csv.push_str(&format!("{x},{}\n", u8::from(x < 40.0)));
    }
    let path = data_file("real.csv", &csv);
    let data = path.to_str().unwrap();
    let learn = |extra: &[&str]| {
        let mut args = vec![
            "learn",
            "--class",
            "thresholds:10",
            "--learner",
            "erm",
            "--data",
            data,
            "--json",
        ];
        args.extend_from_slice(extra);
        json_of(&args)
    };
    let report = learn(&["--bounds", "0:100", "--bins", "10"]);
    assert_eq!(report["examples"], 200);
    assert_eq!(report["empirical_error"], 0.0, "{report}");
    assert_eq!(report["hypothesis"]["id"], 3, "{report}");
    // Negative bounds, and the same data refused without bounds (real numbers are not
    // point indices), with a mismatched domain, or with bad bounds.
    // Bins of width 20 on [-50, 150]: x < 40 ends inside bin 4 ([30, 50)), so the best
    // threshold is at bin 3 or 4, each with the points of [30, 50) on its wrong side.
    let shifted = learn(&["--bounds", "-50:150", "--bins", "10"]);
    assert_eq!(shifted["examples"], 200);
    assert!(
        matches!(shifted["hypothesis"]["id"].as_u64(), Some(3 | 4)),
        "{shifted}"
    );
    check_error(
        &[
            "learn",
            "--class",
            "thresholds:10",
            "--learner",
            "erm",
            "--data",
            data,
        ],
        "line 2: point \"-2\" is not a non-negative integer",
    );
    for (extra, needle) in [
        (
            &["--bounds", "0:100", "--bins", "12"][..],
            "--bins 12 needs a class on the ordered domain of 12 points",
        ),
        (&["--bounds", "100:0", "--bins", "10"], "low < high"),
        (&["--bounds", "0-100", "--bins", "10"], "expected LOW:HIGH"),
        (
            &["--bounds", "0:x", "--bins", "10"],
            "\"x\" is not a number",
        ),
    ] {
        let mut args = vec![
            "learn",
            "--class",
            "thresholds:10",
            "--learner",
            "erm",
            "--data",
            data,
        ];
        args.extend_from_slice(extra);
        check_error(&args, needle);
    }
    // --bounds needs --bins (and the other way round).
    let output = privpac(&[
        "learn",
        "--class",
        "thresholds:10",
        "--learner",
        "erm",
        "--data",
        data,
        "--bounds",
        "0:1",
    ]);
    assert_eq!(output.status.code(), Some(2));
}
