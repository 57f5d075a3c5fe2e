//! End-to-end tests of the `privpac` binary: each runs the built executable and checks its
//! exit status, standard output and standard error.

use std::process::{Command, Output};

fn privpac(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_privpac"))
        .args(args)
        .output()
        .expect("the privpac binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// A failing run must exit with status 2 and print exactly one line naming the problem.
#[track_caller]
fn check_error(args: &[&str], needle: &str) {
    let output = privpac(args);
    assert_eq!(output.status.code(), Some(2), "{args:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
    assert!(stderr.contains(needle), "{args:?}: {stderr}");
    assert!(
        output.stdout.is_empty(),
        "{args:?}: stdout must be empty on error"
    );
}

#[test]
fn demo_runs_and_covers_the_mechanisms() {
    let output = privpac(&["demo", "--seed", "1"]);
    assert!(output.status.success());
    let text = stdout(&output);
    for needle in [
        "exponential mechanism",
        "discrete Laplace",
        "A_dist",
        "advanced composition",
    ] {
        assert!(text.contains(needle), "missing {needle}: {text}");
    }
}

#[test]
fn demo_json_is_valid_and_seeded_runs_repeat() {
    let first = privpac(&["demo", "--seed", "5", "--json"]);
    let second = privpac(&["demo", "--seed", "5", "--json"]);
    assert!(first.status.success());
    let parsed: serde_json::Value = serde_json::from_slice(&first.stdout).unwrap();
    assert_eq!(parsed["demo"].as_array().unwrap().len(), 5);
    // Timing is the only nondeterministic part of the text output; JSON has none.
    assert_eq!(first.stdout, second.stdout);
}

#[test]
fn exponential_probabilities_are_exact_and_sum_to_one() {
    let output = privpac(&[
        "mech",
        "exponential",
        "--scores",
        "3,1,0",
        "--epsilon",
        "1",
        "--probabilities",
        "--json",
    ]);
    assert!(output.status.success());
    let parsed: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let p: Vec<f64> = parsed["probabilities"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    let weights = [1.5f64.exp(), 0.5f64.exp(), 1.0];
    let total: f64 = weights.iter().sum();
    for (got, w) in p.iter().zip(weights) {
        assert!((got - w / total).abs() < 1e-9, "{p:?}");
    }
}

#[test]
fn exponential_sampling_is_reproducible_with_a_seed() {
    let args = [
        "mech",
        "exponential",
        "--scores",
        "1,1,1,1,1,1",
        "--epsilon",
        "1",
        "--seed",
        "9",
    ];
    let first = privpac(&args);
    assert!(first.status.success());
    assert_eq!(first.stdout, privpac(&args).stdout);
    // Negative scores parse as numbers, not flags.
    assert!(
        privpac(&["mech", "exponential", "--scores", "-3,-1", "--epsilon", "2"])
            .status
            .success()
    );
}

#[test]
fn laplace_releases_integers_with_discrete_noise() {
    let output = privpac(&[
        "mech",
        "laplace",
        "--value",
        "100",
        "--epsilon",
        "0.5",
        "--discrete",
        "--count",
        "4",
        "--json",
        "--seed",
        "3",
    ]);
    assert!(output.status.success());
    let parsed: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let releases = parsed["releases"].as_array().unwrap();
    assert_eq!(releases.len(), 4);
    assert!(releases.iter().all(|r| r.is_i64()));
    assert_eq!(parsed["total_epsilon"].as_f64(), Some(2.0));
    let continuous = privpac(&["mech", "laplace", "--value", "2.5", "--epsilon", "1"]);
    assert!(continuous.status.success());
}

#[test]
fn bad_input_exits_2_with_one_line() {
    check_error(
        &["mech", "exponential", "--scores", "3,1", "--epsilon", "NaN"],
        "epsilon",
    );
    check_error(
        &["mech", "exponential", "--scores", "3,1", "--epsilon", "-1"],
        "epsilon",
    );
    check_error(
        &["mech", "exponential", "--scores", "3,1", "--epsilon", "inf"],
        "epsilon",
    );
    check_error(
        &[
            "mech",
            "exponential",
            "--scores",
            "3,oops",
            "--epsilon",
            "1",
        ],
        "score 2",
    );
    check_error(
        &["mech", "exponential", "--scores", "3,NaN", "--epsilon", "1"],
        "score 2",
    );
    check_error(
        &["mech", "exponential", "--scores", "", "--epsilon", "1"],
        "score 1",
    );
    check_error(
        &[
            "mech",
            "exponential",
            "--scores",
            "1",
            "--epsilon",
            "1",
            "--sensitivity",
            "0",
        ],
        "sensitivity",
    );
    check_error(
        &[
            "mech",
            "laplace",
            "--value",
            "1.5",
            "--epsilon",
            "1",
            "--discrete",
        ],
        "integer",
    );
    check_error(
        &[
            "mech",
            "laplace",
            "--value",
            "1",
            "--epsilon",
            "1",
            "--discrete",
            "--sensitivity",
            "0",
        ],
        "sensitivity",
    );
    check_error(
        &[
            "mech",
            "laplace",
            "--value",
            "1",
            "--epsilon",
            "1",
            "--count",
            "0",
        ],
        "count",
    );
}

#[test]
fn usage_errors_exit_2() {
    let output = privpac(&["mech", "exponential", "--epsilon", "1"]);
    assert_eq!(output.status.code(), Some(2));
    let output = privpac(&["no-such-command"]);
    assert_eq!(output.status.code(), Some(2));
}
