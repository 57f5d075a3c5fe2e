//! End-to-end tests of the `privpac` binary: each runs the built executable and checks its
//! exit status, standard output and standard error.

use std::process::{Command, Output};

use dp_mechanisms::{Privacy, basic_composition};

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
    assert_each_cause_once(&stderr);
}

/// No cause in an error line is printed twice ("EOF while parsing …: EOF while parsing …"
/// once came from an error quoting its own source): the `": "`-separated segments of the
/// line are distinct.
#[track_caller]
fn assert_each_cause_once(stderr: &str) {
    let line = stderr.trim_end().trim_start_matches("privpac: error: ");
    let segments: Vec<&str> = line.split(": ").map(str::trim).collect();
    for (i, a) in segments.iter().enumerate() {
        for b in &segments[i + 1..] {
            assert!(a.len() < 8 || a != b, "repeated cause {a:?} in {stderr}");
        }
    }
}

/// Failure modes whose causes come from nested library errors, each printed once.
#[test]
fn error_lines_state_each_cause_once() {
    let bad = data_file("bad-results.jsonl", "{\n");
    let dir = std::env::temp_dir().join(format!("privpac-missing-{}", std::process::id()));
    let missing = dir.join("none.csv");
    let cases: [&[&str]; 4] = [
        &["experiment", "merge", "k-curves", bad.to_str().unwrap()],
        &[
            "learn",
            "--class",
            "points:8",
            "--learner",
            "generic",
            "--epsilon",
            "1",
            "--data",
            missing.to_str().unwrap(),
        ],
        &["dim", "--class", &format!("matrix:{}", missing.display())],
        &[
            "multi-learn",
            "--class",
            "points:8",
            "--learner",
            "direct-sum",
            "--epsilon",
            "1",
            "--data",
            missing.to_str().unwrap(),
        ],
    ];
    for args in cases {
        let output = privpac(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
        assert_each_cause_once(&stderr);
    }
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
    assert_eq!(parsed["demo"].as_array().unwrap().len(), 12);
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
    // The total is the basic composition of the four releases, rounded up, never down.
    let each = Privacy::pure(0.5).unwrap();
    let total = basic_composition(&[each; 4]).unwrap();
    assert_eq!(
        parsed["guarantee"]["epsilon"].as_f64(),
        Some(total.epsilon())
    );
    assert!(total.epsilon() >= 2.0);
    assert_eq!(parsed["guarantee"]["delta"].as_f64(), Some(0.0));
    assert_eq!(parsed["guarantee_each"]["epsilon"].as_f64(), Some(0.5));
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

#[test]
fn dim_reports_closed_form_dimensions_with_witnesses() {
    // (spec, VC, Ldim): points VC 1 / Ldim 1; N thresholds ⌊log2 N⌋; with zero ⌊log2(N+1)⌋;
    // parities d / d; all functions N / N; halfspaces VC 3.
    for (spec, vc, ldim) in [
        ("points:10", 1, 1),
        ("thresholds:64", 1, 6),
        ("zero(thresholds:63)", 1, 6),
        ("zero(thresholds:64)", 1, 6),
        ("thresholds:100", 1, 6),
        ("parities:5", 5, 5),
        ("all:4", 4, 4),
    ] {
        let output = privpac(&["dim", "--class", spec, "--json"]);
        assert!(
            output.status.success(),
            "{spec}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let parsed: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(parsed["vc_dimension"], vc, "{spec}");
        assert_eq!(parsed["littlestone_dimension"], ldim, "{spec}");
        assert_eq!(
            parsed["shattered_set"].as_array().unwrap().len(),
            vc as usize,
            "{spec}"
        );
        assert!(
            parsed["littlestone_tree"].is_object() || ldim == 0,
            "{spec}"
        );
    }
    let halfspaces = privpac(&["dim", "--class", "halfspaces:3", "--json"]);
    let parsed: serde_json::Value = serde_json::from_slice(&halfspaces.stdout).unwrap();
    assert_eq!(parsed["vc_dimension"], 3);
}

#[test]
fn online_soa_meets_the_bound_against_the_tree_adversary() {
    let output = privpac(&[
        "online",
        "--class",
        "thresholds:100",
        "--learner",
        "soa",
        "--adversary",
        "tree",
        "--rounds",
        "40",
        "--seed",
        "1",
        "--json",
    ]);
    assert!(output.status.success());
    let parsed: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(parsed["mistakes"], 6);
    assert_eq!(parsed["mistake_bound"], 6);
    let random = privpac(&[
        "online",
        "--class",
        "parities:6",
        "--learner",
        "halving",
        "--adversary",
        "random",
        "--rounds",
        "50",
        "--seed",
        "3",
        "--json",
    ]);
    let parsed: serde_json::Value = serde_json::from_slice(&random.stdout).unwrap();
    assert!(parsed["mistakes"].as_u64().unwrap() <= 6);
}

#[test]
fn malformed_classes_exit_2_naming_the_fault() {
    let dir = std::env::temp_dir().join(format!("privpac-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        format!("matrix:{}", path.display())
    };
    let ragged = write("ragged.txt", "0110\n011\n");
    check_error(&["dim", "--class", &ragged], "line 2");
    let cell = write("cell.txt", "0,1\n0,2\n");
    check_error(&["dim", "--class", &cell], "line 2, cell 2");
    let empty = write("empty.txt", "\n# nothing\n");
    check_error(&["dim", "--class", &empty], "empty");
    check_error(&["dim", "--class", "triangles:3"], "unknown kind");
    check_error(
        &["dim", "--class", "thresholds:abc"],
        "not a non-negative integer",
    );
    check_error(&["dim", "--class", "parities:40"], "limit");
    check_error(&["dim", "--class", "matrix:/no/such/file"], "cannot read");
    std::fs::remove_dir_all(&dir).unwrap();
}

fn data_file(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("privpac-learn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("the temporary directory is writable");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("the temporary directory is writable");
    path
}

#[test]
fn learn_runs_every_learner_and_reports_the_guarantee() {
    let mut csv = String::from("x,y\n");
    for i in 0..400u64 {
        let x = (i * 37) % 256;
        csv.push_str(&format!("{x},{}\n", u8::from(x <= 100)));
    }
    let path = data_file("thresholds.csv", &csv);
    let data = path.to_str().unwrap();
    for (learner, guarantee) in [
        ("erm", "none"),
        ("generic", "differential_privacy"),
        ("stable", "uniform_stability"),
        ("private-prediction", "per_prediction"),
        ("voting", "per_prediction"),
    ] {
        let output = privpac(&[
            "learn",
            "--class",
            "thresholds:256",
            "--learner",
            learner,
            "--epsilon",
            "1",
            "--data",
            data,
            "--seed",
            "5",
            "--json",
        ]);
        assert!(
            output.status.success(),
            "{learner}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let parsed: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(
            parsed["guarantee"]["kind"], guarantee,
            "{learner}: {parsed}"
        );
        if guarantee != "none" && guarantee != "uniform_stability" {
            // --epsilon is the whole-model ε of generic and the vote's ε of voting;
            // private-prediction derives its per-prediction ε from the stable learner's.
            let epsilon = parsed["guarantee"]["epsilon"].as_f64().unwrap();
            let cap = if learner == "private-prediction" {
                10.0
            } else {
                1.0 + 1e-9
            };
            assert!(epsilon > 0.0 && epsilon <= cap, "{learner}: {parsed}");
        }
        assert!(
            parsed["empirical_error"].as_f64().unwrap() < 0.2,
            "{learner}: {parsed}"
        );
    }
}

#[test]
fn learn_relabeling_sizes_its_subsample_to_the_requested_epsilon() {
    let mut csv = String::from("x,y\n");
    for i in 0..4000u64 {
        let x = (i * 37) % 256;
        csv.push_str(&format!("{x},{}\n", u8::from(x <= 100)));
    }
    let path = data_file("relabeling.csv", &csv);
    let data = path.to_str().unwrap();
    let run = |epsilon: &str| {
        let output = privpac(&[
            "learn",
            "--class",
            "thresholds:256",
            "--learner",
            "relabeling",
            "--epsilon",
            epsilon,
            "--data",
            data,
            "--seed",
            "2",
            "--json",
        ]);
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        serde_json::from_slice::<serde_json::Value>(&output.stdout).unwrap()
    };
    let parsed = run("1");
    let guarantee = &parsed["guarantee"];
    // The per-prediction ε must not exceed the request.
    assert_eq!(guarantee["kind"], "per_prediction", "{parsed}");
    let claimed = guarantee["epsilon"].as_f64().unwrap();
    assert!(claimed <= 1.0 && claimed > 0.9, "{guarantee}");
    assert_eq!(parsed["hypothesis"]["kind"], "noisy_vote", "{parsed}");
    assert!(
        parsed["empirical_error"].as_f64().unwrap() < 0.1,
        "{parsed}"
    );
    // Too little data for a tiny ε: a one-line error naming the size needed.
    check_error(
        &[
            "learn",
            "--class",
            "thresholds:256",
            "--learner",
            "relabeling",
            "--epsilon",
            "0.001",
            "--data",
            data,
        ],
        "needs at least",
    );
}

#[test]
fn learn_rejects_bad_data_naming_the_line() {
    let cases = [
        ("columns.csv", "point,label\n1,0\n", "line 1"),
        ("label.csv", "x,y\n1,0\n2,7\n", "line 3"),
        ("outside.csv", "x,y\n1,0\n999,1\n", "line 3"),
        ("empty.csv", "", "empty"),
    ];
    for (name, text, needle) in cases {
        let path = data_file(name, text);
        check_error(
            &[
                "learn",
                "--class",
                "thresholds:16",
                "--learner",
                "erm",
                "--data",
                path.to_str().unwrap(),
            ],
            needle,
        );
    }
    check_error(
        &[
            "learn",
            "--class",
            "thresholds:16",
            "--learner",
            "generic",
            "--data",
            "/no/such.csv",
        ],
        "cannot read",
    );
    let path = data_file("ok.csv", "1,1\n");
    check_error(
        &[
            "learn",
            "--class",
            "thresholds:16",
            "--learner",
            "generic",
            "--data",
            path.to_str().unwrap(),
        ],
        "--epsilon is required",
    );
}

#[test]
fn sample_complexity_prints_empirical_n_below_the_bound() {
    let output = privpac(&[
        "sample-complexity",
        "--class",
        "thresholds:256",
        "--learner",
        "generic",
        "--epsilon",
        "1",
        "--alpha",
        "0.1",
        "--beta",
        "0.1",
        "--trials",
        "50",
        "--seed",
        "2",
        "--json",
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let parsed: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let n = parsed["empirical_sample_size"].as_f64().unwrap();
    assert_eq!(parsed["bound"]["kind"], "explicit", "{parsed}");
    assert_eq!(parsed["scenario"], "realizable", "{parsed}");
    let bound = parsed["bound"]["sample_size"].as_f64().unwrap();
    assert!(n > 0.0 && n < bound, "{parsed}");
    check_error(
        &[
            "sample-complexity",
            "--class",
            "thresholds:8",
            "--learner",
            "generic",
            "--epsilon",
            "1",
            "--alpha",
            "0.1",
            "--beta",
            "1.5",
        ],
        "beta",
    );
}

#[test]
fn sample_complexity_rebuilds_sized_learners_and_reports_their_guarantee() {
    for (learner, name) in [("voting", "voting"), ("relabeling", "relabeling(t=")] {
        let output = privpac(&[
            "sample-complexity",
            "--class",
            "thresholds:64",
            "--learner",
            learner,
            "--epsilon",
            "1",
            "--alpha",
            "0.2",
            "--beta",
            "0.2",
            "--trials",
            "30",
            "--seed",
            "4",
            "--json",
        ]);
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let parsed: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(parsed["bound"]["kind"], "no_explicit_constants", "{parsed}");
        assert_eq!(parsed["guarantee"]["kind"], "per_prediction", "{parsed}");
        let epsilon = parsed["guarantee"]["epsilon"].as_f64().unwrap();
        assert!(epsilon > 0.0 && epsilon <= 1.0 + 1e-9, "{parsed}");
        assert!(
            parsed["learner"].as_str().unwrap().starts_with(name),
            "{parsed}"
        );
        // Sizes the learner refused (fewer examples than voters) were recorded as failures.
        let evaluations = parsed["evaluations"].as_array().unwrap();
        assert!(
            evaluations
                .iter()
                .any(|e| e["successes"] == 0 && e["mean_error"] == 1.0),
            "{parsed}"
        );
        assert!(
            parsed["empirical_sample_size"].as_u64().unwrap() >= 7,
            "{parsed}"
        );
    }
}

#[test]
fn sanitize_reports_the_guarantee_and_the_measured_error() {
    let mut csv = String::from("x\n");
    for i in 0..3000u64 {
        csv.push_str(&format!("{}\n", (i * i) % 200));
    }
    let path = data_file("points.csv", &csv);
    let data = path.to_str().unwrap();
    for (sanitizer, extra) in [
        ("tree", vec![]),
        ("mwem", vec![]),
        ("pmw", vec![]),
        ("point", vec!["--delta", "1e-6"]),
    ] {
        let class = if sanitizer == "point" {
            "points:256"
        } else {
            "thresholds:256"
        };
        let mut args = vec![
            "sanitize",
            "--class",
            class,
            "--sanitizer",
            sanitizer,
            "--epsilon",
            "1",
            "--data",
            data,
            "--seed",
            "4",
            "--json",
        ];
        args.extend(extra);
        let output = privpac(&args);
        assert!(
            output.status.success(),
            "{sanitizer}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let parsed: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        let error = parsed["max_query_error"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&error), "{sanitizer}: {parsed}");
        assert!(
            parsed["guarantee_text"]
                .as_str()
                .unwrap()
                .starts_with("(1, "),
            "{sanitizer}"
        );
    }
    check_error(
        &[
            "sanitize",
            "--class",
            "points:256",
            "--sanitizer",
            "point",
            "--epsilon",
            "1",
            "--data",
            data,
        ],
        "delta",
    );
    check_error(
        &[
            "sanitize",
            "--class",
            "thresholds:8",
            "--sanitizer",
            "tree",
            "--epsilon",
            "1",
            "--data",
            data,
        ],
        "outside the domain",
    );
}

#[test]
fn learn_with_a_sanitizer_based_learner() {
    let mut csv = String::from("x,y\n");
    for i in 0..2000u64 {
        let x = (i * 13) % 128;
        csv.push_str(&format!("{x},{}\n", u8::from(x <= 40)));
    }
    let path = data_file("sanitizer-learn.csv", &csv);
    let output = privpac(&[
        "learn",
        "--class",
        "thresholds:128",
        "--learner",
        "sanitizer:tree",
        "--epsilon",
        "2",
        "--data",
        path.to_str().unwrap(),
        "--seed",
        "1",
        "--json",
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let parsed: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert!(
        parsed["empirical_error"].as_f64().unwrap() < 0.05,
        "{parsed}"
    );
    assert!(
        parsed["learner"]
            .as_str()
            .unwrap()
            .starts_with("sanitizer:")
    );
    check_error(
        &[
            "learn",
            "--class",
            "thresholds:128",
            "--learner",
            "sanitizer:magic",
            "--epsilon",
            "1",
            "--data",
            path.to_str().unwrap(),
        ],
        "unknown sanitizer",
    );
}

// ---------------------------------------------------------------------------------------
// JSON schemas: every command's --json parses, has exactly the documented keys with the
// documented types, and carries its guarantee as numbers.

use serde_json::Value;

/// The JSON type of a field.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Ty {
    Num,
    Int,
    Str,
    Bool,
    Arr,
    Obj,
    /// A number, or null when the field does not apply.
    NumOrNull,
    IntOrNull,
    /// An object, or null when the field does not apply.
    ObjOrNull,
    ArrOrNull,
    /// A string or an object (serde's externally tagged unit/struct variants).
    StrOrObj,
    /// A privacy guarantee: `{"epsilon": number, "delta": number}`.
    Privacy,
    /// A guarantee tagged by `kind` with its parameters as numbers.
    Guarantee,
}

fn has_type(value: &Value, ty: Ty) -> bool {
    match ty {
        Ty::Num => value.is_number(),
        Ty::Int => value.is_u64() || value.is_i64(),
        Ty::Str => value.is_string(),
        Ty::Bool => value.is_boolean(),
        Ty::Arr => value.is_array(),
        Ty::Obj => value.is_object(),
        Ty::NumOrNull => value.is_number() || value.is_null(),
        Ty::IntOrNull => value.is_u64() || value.is_null(),
        Ty::ObjOrNull => value.is_object() || value.is_null(),
        Ty::ArrOrNull => value.is_array() || value.is_null(),
        Ty::StrOrObj => value.is_string() || value.is_object(),
        Ty::Privacy => is_privacy(value),
        Ty::Guarantee => is_guarantee(value),
    }
}

fn is_privacy(value: &Value) -> bool {
    let Some(object) = value.as_object() else {
        return false;
    };
    object.len() == 2
        && value["epsilon"].as_f64().is_some_and(|e| e >= 0.0)
        && value["delta"]
            .as_f64()
            .is_some_and(|d| (0.0..1.0).contains(&d))
}

fn is_guarantee(value: &Value) -> bool {
    let Some(object) = value.as_object() else {
        return false;
    };
    let number = |key: &str| value[key].as_f64().is_some_and(|x| x >= 0.0);
    match value["kind"].as_str() {
        Some("differential_privacy") => object.len() == 3 && number("epsilon") && number("delta"),
        Some("per_prediction") => object.len() == 2 && number("epsilon"),
        Some("uniform_stability") => object.len() == 2 && number("beta"),
        Some("none") => object.len() == 1,
        _ => false,
    }
}

/// Checks that `value` is an object with exactly the keys of `fields`, each of its type.
#[track_caller]
fn check_schema(value: &Value, fields: &[(&str, Ty)], context: &str) {
    let object = value
        .as_object()
        .unwrap_or_else(|| panic!("{context}: not an object: {value}"));
    let mut keys: Vec<&str> = object.keys().map(String::as_str).collect();
    let mut expected: Vec<&str> = fields.iter().map(|(k, _)| *k).collect();
    keys.sort_unstable();
    expected.sort_unstable();
    assert_eq!(keys, expected, "{context}: keys of {value}");
    for (key, ty) in fields {
        assert!(
            has_type(&value[*key], *ty),
            "{context}: {key} should be {ty:?}, is {}",
            value[*key]
        );
    }
}

/// Runs a command that must succeed and parses its JSON.
#[track_caller]
fn json_of(args: &[&str]) -> Value {
    let output = privpac(args);
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(
        output.stdout.iter().filter(|&&b| b == b'\n').count(),
        1,
        "{args:?}: JSON is one line"
    );
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: invalid JSON ({e})"))
}

fn threshold_data(name: &str, n: u64) -> std::path::PathBuf {
    let mut csv = String::from("x,y\n");
    for i in 0..n {
        let x = (i * 37) % 256;
        csv.push_str(&format!("{x},{}\n", u8::from(x <= 100)));
    }
    data_file(name, &csv)
}

#[test]
fn mech_json_schemas() {
    let fields = [
        ("mechanism", Ty::Str),
        ("epsilon", Ty::Num),
        ("sensitivity", Ty::Num),
        ("scores", Ty::Arr),
        ("probabilities", Ty::ArrOrNull),
        ("chosen", Ty::IntOrNull),
        ("chosen_score", Ty::NumOrNull),
        ("guarantee", Ty::Privacy),
        ("guarantee_text", Ty::Str),
    ];
    let sampled = json_of(&[
        "mech",
        "exponential",
        "--scores",
        "3,1,0",
        "--epsilon",
        "1",
        "--seed",
        "1",
        "--json",
    ]);
    check_schema(&sampled, &fields, "mech exponential");
    assert!(sampled["chosen"].is_u64() && sampled["probabilities"].is_null());
    assert_eq!(sampled["guarantee"]["epsilon"].as_f64(), Some(1.0));
    let exact = json_of(&[
        "mech",
        "exponential",
        "--scores",
        "3,1,0",
        "--epsilon",
        "1",
        "--probabilities",
        "--json",
    ]);
    check_schema(&exact, &fields, "mech exponential --probabilities");
    assert!(exact["chosen"].is_null() && exact["probabilities"].is_array());
    let laplace_fields = [
        ("mechanism", Ty::Str),
        ("epsilon", Ty::Num),
        ("sensitivity", Ty::Num),
        ("count", Ty::Int),
        ("releases", Ty::Arr),
        ("guarantee", Ty::Privacy),
        ("guarantee_text", Ty::Str),
        ("guarantee_each", Ty::Privacy),
        ("guarantee_each_text", Ty::Str),
    ];
    for discrete in [false, true] {
        let mut args = vec![
            "mech",
            "laplace",
            "--value",
            "7",
            "--epsilon",
            "0.25",
            "--count",
            "3",
            "--seed",
            "1",
            "--json",
        ];
        if discrete {
            args.push("--discrete");
        }
        let parsed = json_of(&args);
        check_schema(&parsed, &laplace_fields, "mech laplace");
        let releases = parsed["releases"].as_array().unwrap();
        assert_eq!(releases.len(), 3);
        assert!(
            releases
                .iter()
                .all(|r| if discrete { r.is_i64() } else { r.is_f64() })
        );
        assert!(parsed["guarantee"]["epsilon"].as_f64().unwrap() >= 0.75);
    }
}

#[test]
fn dim_and_online_json_schemas() {
    let dim = json_of(&["dim", "--class", "thresholds:8", "--json"]);
    check_schema(
        &dim,
        &[
            ("class", Ty::Str),
            ("concepts", Ty::Int),
            ("points", Ty::Int),
            ("vc_dimension", Ty::Int),
            ("shattered_set", Ty::Arr),
            ("littlestone_dimension", Ty::Int),
            ("littlestone_tree", Ty::StrOrObj),
            ("witnesses_verified", Ty::Bool),
            ("vc_seconds", Ty::Num),
            ("littlestone_seconds", Ty::Num),
        ],
        "dim",
    );
    assert_eq!(dim["witnesses_verified"], true);
    let online = json_of(&[
        "online",
        "--class",
        "thresholds:8",
        "--learner",
        "halving",
        "--adversary",
        "random",
        "--rounds",
        "5",
        "--seed",
        "1",
        "--json",
    ]);
    check_schema(
        &online,
        &[
            ("class", Ty::Str),
            ("learner", Ty::Str),
            ("adversary", Ty::Str),
            ("rounds", Ty::Int),
            ("mistakes", Ty::Int),
            ("mistake_bound", Ty::Int),
            ("mistake_bound_name", Ty::Str),
            ("littlestone_dimension", Ty::Int),
            ("transcript", Ty::Arr),
        ],
        "online",
    );
    let transcript = online["transcript"].as_array().unwrap();
    assert_eq!(transcript.len(), 5);
    assert!(transcript.iter().all(|round| {
        let round = round.as_array().unwrap();
        round.len() == 3 && round[0].is_u64() && round[1].is_boolean() && round[2].is_boolean()
    }));
}

#[test]
fn learn_and_sanitize_json_schemas() {
    let path = threshold_data("schema-learn.csv", 400);
    let data = path.to_str().unwrap();
    let fields = [
        ("class", Ty::Str),
        ("learner", Ty::Str),
        ("learner_spec", Ty::Str),
        ("examples", Ty::Int),
        ("hypothesis", Ty::Obj),
        ("hypothesis_text", Ty::Str),
        ("empirical_error", Ty::Num),
        ("guarantee", Ty::Guarantee),
        ("guarantee_text", Ty::Str),
    ];
    for learner in ["erm", "generic", "stable", "voting", "sanitizer:tree"] {
        let parsed = json_of(&[
            "learn",
            "--class",
            "thresholds:256",
            "--learner",
            learner,
            "--epsilon",
            "1",
            "--data",
            data,
            "--seed",
            "1",
            "--json",
        ]);
        check_schema(&parsed, &fields, learner);
        assert_eq!(parsed["learner_spec"], learner);
        assert!(parsed["hypothesis"]["kind"].is_string(), "{parsed}");
    }
    let mut points = String::from("x\n");
    for i in 0..500u64 {
        points.push_str(&format!("{}\n", (i * i) % 200));
    }
    let points = data_file("schema-points.csv", &points);
    let parsed = json_of(&[
        "sanitize",
        "--class",
        "thresholds:256",
        "--sanitizer",
        "mwem",
        "--epsilon",
        "1",
        "--data",
        points.to_str().unwrap(),
        "--show",
        "3",
        "--seed",
        "1",
        "--json",
    ]);
    check_schema(
        &parsed,
        &[
            ("class", Ty::Str),
            ("sanitizer", Ty::Str),
            ("guarantee", Ty::Privacy),
            ("guarantee_text", Ty::Str),
            ("data_points", Ty::Int),
            ("synthetic", Ty::Obj),
            ("support_points", Ty::Int),
            ("max_query_error", Ty::Num),
            ("worst_concept", Ty::Int),
            ("heaviest", Ty::Arr),
        ],
        "sanitize",
    );
    assert!(parsed["heaviest"].as_array().unwrap().len() <= 3);
    check_schema(
        &parsed["synthetic"],
        &[("domain", Ty::Obj), ("body", Ty::Obj)],
        "sanitize synthetic",
    );
}

#[test]
fn sample_complexity_json_schema() {
    let outcome_fields = [
        ("sample_size", Ty::Int),
        ("trials", Ty::Int),
        ("successes", Ty::Int),
        ("success_rate", Ty::Num),
        ("interval", Ty::Arr),
        ("mean_error", Ty::Num),
    ];
    for (learner, noise, bound_kind) in [
        ("generic", "0", "explicit"),
        ("erm", "0.05", "explicit"),
        ("voting", "0", "no_explicit_constants"),
    ] {
        let parsed = json_of(&[
            "sample-complexity",
            "--class",
            "thresholds:32",
            "--learner",
            learner,
            "--epsilon",
            "2",
            "--alpha",
            "0.3",
            "--beta",
            "0.3",
            "--label-noise",
            noise,
            "--trials",
            "10",
            "--seed",
            "1",
            "--json",
        ]);
        check_schema(
            &parsed,
            &[
                ("class", Ty::Str),
                ("learner", Ty::Str),
                ("learner_spec", Ty::Str),
                ("target", Ty::Int),
                ("target_description", Ty::Str),
                ("distribution", Ty::Obj),
                ("label_noise", Ty::Num),
                ("scenario", Ty::Str),
                ("epsilon", Ty::Num),
                ("alpha", Ty::Num),
                ("beta", Ty::Num),
                ("empirical_sample_size", Ty::Int),
                ("success_rate", Ty::Num),
                ("interval", Ty::Arr),
                ("trials", Ty::Int),
                ("bound", Ty::Obj),
                ("guarantee", Ty::Guarantee),
                ("guarantee_text", Ty::Str),
                ("evaluations", Ty::Arr),
                ("trivial", Ty::ObjOrNull),
            ],
            learner,
        );
        let expected_scenario = if noise == "0" {
            "realizable"
        } else {
            "agnostic"
        };
        assert_eq!(parsed["scenario"], expected_scenario, "{parsed}");
        assert_eq!(parsed["bound"]["kind"], bound_kind, "{parsed}");
        if bound_kind == "explicit" {
            check_schema(
                &parsed["bound"],
                &[
                    ("kind", Ty::Str),
                    ("name", Ty::Str),
                    ("source", Ty::Str),
                    ("sample_size", Ty::Num),
                ],
                "bound",
            );
        } else {
            check_schema(
                &parsed["bound"],
                &[("kind", Ty::Str), ("reason", Ty::Str)],
                "bound",
            );
        }
        for evaluation in parsed["evaluations"].as_array().unwrap() {
            check_schema(evaluation, &outcome_fields, "evaluation");
        }
    }
}

#[test]
fn sample_complexity_point_mass_sits_on_the_target() {
    let parsed = json_of(&[
        "sample-complexity",
        "--class",
        "points:32",
        "--learner",
        "erm",
        "--epsilon",
        "1",
        "--alpha",
        "0.2",
        "--beta",
        "0.2",
        "--distribution",
        "point",
        "--trials",
        "10",
        "--seed",
        "1",
        "--json",
    ]);
    // The default target is the middle concept, 16, whose only positive point is 16.
    assert_eq!(parsed["target"], 16, "{parsed}");
    assert_eq!(
        parsed["distribution"],
        serde_json::json!({"kind": "point_mass", "point": 16, "mass": 0.4})
    );
}

#[test]
fn demo_json_schema() {
    let parsed = json_of(&["demo", "--seed", "3", "--json"]);
    check_schema(&parsed, &[("demo", Ty::Arr)], "demo");
    let sections = parsed["demo"].as_array().unwrap();
    let expected: [(&str, &[(&str, Ty)]); 12] = [
        (
            "exponential",
            &[
                ("scores", Ty::Arr),
                ("sensitivity", Ty::Num),
                ("columns", Ty::Arr),
                ("sample_epsilon", Ty::Num),
                ("sample", Ty::Int),
                ("guarantee", Ty::Privacy),
                ("guarantee_text", Ty::Str),
            ],
        ),
        (
            "count_weighted",
            &[
                ("epsilon", Ty::Num),
                ("levels", Ty::Arr),
                ("chosen_level", Ty::Int),
                ("chosen_offset", Ty::Int),
            ],
        ),
        (
            "counting",
            &[
                ("true_count", Ty::Int),
                ("releases", Ty::Arr),
                ("labels", Ty::Int),
                ("flip_epsilon", Ty::Num),
                ("labels_flipped", Ty::Int),
                ("expected_flipped", Ty::Num),
            ],
        ),
        (
            "selection",
            &[
                ("a_dist_guarantee", Ty::Privacy),
                ("a_dist_threshold", Ty::Int),
                ("clear_scores", Ty::Arr),
                ("clear_selected", Ty::IntOrNull),
                ("close_scores", Ty::Arr),
                ("close_selected", Ty::IntOrNull),
                ("sparse_vector_threshold", Ty::Int),
                ("stream", Ty::Arr),
                ("sparse_vector_first_above", Ty::IntOrNull),
            ],
        ),
        (
            "accounting",
            &[
                ("mechanisms", Ty::Int),
                ("each", Ty::Privacy),
                ("basic", Ty::Privacy),
                ("basic_text", Ty::Str),
                ("advanced_delta_prime", Ty::Num),
                ("advanced", Ty::Privacy),
                ("advanced_text", Ty::Str),
            ],
        ),
        ("dimensions", &[("classes", Ty::Arr)]),
        (
            "learning",
            &[
                ("trials", Ty::Int),
                ("alpha", Ty::Num),
                ("beta", Ty::Num),
                ("setups", Ty::Arr),
            ],
        ),
        (
            "prediction",
            &[
                ("class", Ty::Str),
                ("label_noise", Ty::Num),
                ("scenario", Ty::Str),
                ("trials", Ty::Int),
                ("flip_probability", Ty::Num),
                ("per_prediction_epsilon", Ty::Num),
                ("rows", Ty::Arr),
                ("generic_bound", Ty::Obj),
            ],
        ),
        (
            "sanitizing",
            &[
                ("class", Ty::Str),
                ("data_points", Ty::Int),
                ("results", Ty::Arr),
            ],
        ),
        (
            "multi_learning",
            &[
                ("class", Ty::Str),
                ("trials", Ty::Int),
                ("alpha", Ty::Num),
                ("beta", Ty::Num),
                ("ks", Ty::Arr),
                ("curves", Ty::Arr),
            ],
        ),
        (
            "attack",
            &[
                ("class", Ty::Str),
                ("users", Ty::Int),
                ("k", Ty::Int),
                ("trials", Ty::Int),
                ("rows", Ty::Arr),
            ],
        ),
        (
            "auditing",
            &[
                ("claimed_epsilon", Ty::Num),
                ("runs", Ty::Int),
                ("confidence", Ty::Num),
                ("rows", Ty::Arr),
            ],
        ),
    ];
    assert_eq!(sections.len(), expected.len());
    for (section, (name, fields)) in sections.iter().zip(expected) {
        assert_eq!(section["section"], name);
        let mut with_tag = fields.to_vec();
        with_tag.push(("section", Ty::Str));
        check_schema(section, &with_tag, name);
    }
    for row in sections[5]["classes"].as_array().unwrap() {
        assert_eq!(row["witnesses_verified"], true, "{row}");
    }
    // The learning setups are realizable: their bound is the realizable one, which
    // depends on ε where 4/ε > 8 (ε = 0.25) and is below the agnostic bound.
    for setup in sections[6]["setups"].as_array().unwrap() {
        assert_eq!(setup["scenario"], "realizable");
        let bounds: Vec<f64> = setup["bounds"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| {
                assert_eq!(b["bound"]["name"], "generic learner, realizable", "{b}");
                b["bound"]["sample_size"].as_f64().unwrap()
            })
            .collect();
        assert_eq!(bounds.len(), 3);
        assert!(bounds[0] > bounds[1], "{bounds:?}");
    }
    // The multi-learner section: the parity learner's n is flat in k, the pure direct
    // sum's grows (k = 1, 4, 16).
    let curves = sections[9]["curves"].as_array().unwrap();
    assert_eq!(curves.len(), 2);
    let sizes = |c: &Value| -> Vec<f64> {
        c["points"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["sample_size"].as_f64().unwrap())
            .collect()
    };
    let (parity, direct) = (sizes(&curves[0]), sizes(&curves[1]));
    assert!(parity[2] <= 1.5 * parity[0], "{parity:?}");
    assert!(direct[2] >= 4.0 * direct[0], "{direct:?}");
    assert!(
        curves[1]["fit"]["slope"].as_f64().unwrap() > 0.7,
        "{direct:?}"
    );
    // The attack traces every user of the non-private learner and none of the private one.
    let attack = sections[10]["rows"].as_array().unwrap();
    assert_eq!(attack[0]["traced"], sections[10]["trials"], "{attack:?}");
    assert_eq!(attack[1]["traced"], 0, "{attack:?}");
    assert_eq!(attack[1]["innocent_accused"], 0, "{attack:?}");
    // The auditor refutes exactly the broken mechanisms.
    for row in sections[11]["rows"].as_array().unwrap() {
        assert_eq!(row["refuted"], row["broken"], "{row}");
    }
    assert_eq!(sections[7]["scenario"], "agnostic");
    assert_eq!(
        sections[7]["generic_bound"]["name"],
        "generic learner, agnostic"
    );
}

#[test]
fn demo_text_calls_relabeling_accuracy_a_conjecture() {
    let text = stdout(&privpac(&["demo", "--seed", "2"]));
    assert!(text.contains("conjecture"), "{text}");
    assert!(text.contains("realizable"), "{text}");
    assert!(text.contains("checked"), "{text}");
    let help = stdout(&privpac(&["learn", "--help"]));
    assert!(help.contains("conjecture"), "{help}");
}

// ---------------------------------------------------------------------------------------
// Seeded outputs are pinned: --seed drives ChaCha8, whose stream is fixed by its
// specification, so these values change only if the algorithms' use of randomness
// changes (then update them deliberately).

#[test]
fn seeded_outputs_are_stable() {
    let chosen: Vec<u64> = (0..6)
        .map(|seed| {
            let seed = seed.to_string();
            json_of(&[
                "mech",
                "exponential",
                "--scores",
                "1,1,1,1,1,1,1,1",
                "--epsilon",
                "1",
                "--seed",
                &seed,
                "--json",
            ])["chosen"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert_eq!(
        chosen, PINNED_EXPONENTIAL,
        "exponential selections for seeds 0..6"
    );
    let discrete = json_of(&[
        "mech",
        "laplace",
        "--value",
        "100",
        "--epsilon",
        "0.5",
        "--discrete",
        "--count",
        "6",
        "--seed",
        "3",
        "--json",
    ]);
    let releases: Vec<i64> = discrete["releases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect();
    assert_eq!(
        releases, PINNED_DISCRETE_LAPLACE,
        "discrete Laplace, seed 3"
    );
    let online = json_of(&[
        "online",
        "--class",
        "parities:6",
        "--learner",
        "halving",
        "--adversary",
        "random",
        "--rounds",
        "8",
        "--seed",
        "3",
        "--json",
    ]);
    let points: Vec<u64> = online["transcript"]
        .as_array()
        .unwrap()
        .iter()
        .map(|round| round[0].as_u64().unwrap())
        .collect();
    assert_eq!(
        points, PINNED_ONLINE_POINTS,
        "random adversary points, seed 3"
    );
}

/// `mech exponential` over 8 equal scores, seeds 0..6.
const PINNED_EXPONENTIAL: [u64; 6] = [7, 3, 0, 4, 0, 7];
/// `mech laplace --discrete --value 100 --epsilon 0.5 --count 6 --seed 3`.
const PINNED_DISCRETE_LAPLACE: [i64; 6] = [107, 98, 104, 101, 100, 104];
/// The random adversary's points on parities:6, seed 3.
const PINNED_ONLINE_POINTS: [u64; 8] = [39, 40, 5, 58, 20, 51, 5, 49];

// ---------------------------------------------------------------------------------------
// Counts: every count flag is checked against its limit before anything is allocated in
// proportion to it; a huge value is a one-line error with exit status 2, never an abort.

#[test]
fn huge_counts_are_rejected_before_allocating() {
    const HUGE: &str = "1000000000000";
    check_error(
        &[
            "online",
            "--class",
            "thresholds:8",
            "--learner",
            "soa",
            "--adversary",
            "random",
            "--rounds",
            HUGE,
        ],
        "--rounds is 1000000000000, above the limit",
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
            HUGE,
        ],
        "--count is 1000000000000, above the limit",
    );
    let sample_complexity = |flag: &str| {
        vec![
            "sample-complexity".to_string(),
            "--class".into(),
            "thresholds:8".into(),
            "--learner".into(),
            "generic".into(),
            "--epsilon".into(),
            "1".into(),
            "--alpha".into(),
            "0.1".into(),
            "--beta".into(),
            "0.1".into(),
            flag.into(),
            HUGE.into(),
        ]
    };
    for (flag, needle) in [("--trials", "--trials is"), ("--max-size", "--max-size is")] {
        let args = sample_complexity(flag);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        check_error(&args, needle);
    }
    let mut voting = sample_complexity("--voters");
    voting[4] = "voting".into();
    let voting: Vec<&str> = voting.iter().map(String::as_str).collect();
    check_error(&voting, "voters is");
    let mut stable = sample_complexity("--subset-size");
    stable[4] = "stable".into();
    let stable: Vec<&str> = stable.iter().map(String::as_str).collect();
    check_error(&stable, "subset size is");
    let path = threshold_data("counts.csv", 50);
    let data = path.to_str().unwrap();
    for (learner, flag, needle) in [
        ("voting", "--voters", "voters is"),
        ("relabeling", "--voters", "voters is"),
        ("stable", "--subset-size", "subset size is"),
        ("private-prediction", "--subset-size", "subset size is"),
        ("sanitizer:mwem", "--rounds", "MWEM rounds is"),
        ("sanitizer:blr", "--database-size", "database size"),
    ] {
        check_error(
            &[
                "learn",
                "--class",
                "thresholds:256",
                "--learner",
                learner,
                "--epsilon",
                "1",
                "--data",
                data,
                flag,
                HUGE,
            ],
            needle,
        );
    }
    let mut points = String::from("x\n");
    for i in 0..100u64 {
        points.push_str(&format!("{}\n", i % 16));
    }
    let points = data_file("count-points.csv", &points);
    let points = points.to_str().unwrap();
    for (sanitizer, flag, needle) in [
        ("mwem", "--rounds", "MWEM rounds is"),
        ("blr", "--database-size", "database size"),
    ] {
        check_error(
            &[
                "sanitize",
                "--class",
                "thresholds:16",
                "--sanitizer",
                sanitizer,
                "--epsilon",
                "1",
                "--data",
                points,
                flag,
                HUGE,
            ],
            needle,
        );
    }
    // --show only bounds what is printed: a huge value allocates nothing and succeeds.
    let shown = json_of(&[
        "sanitize",
        "--class",
        "thresholds:16",
        "--sanitizer",
        "tree",
        "--epsilon",
        "1",
        "--data",
        points,
        "--show",
        HUGE,
        "--seed",
        "1",
        "--json",
    ]);
    assert!(shown["heaviest"].as_array().unwrap().len() <= 16);
}

#[test]
fn learn_runs_the_dagan_feldman_learner_at_its_per_prediction_epsilon() {
    let mut csv = String::from("x,y\n");
    for i in 0..3000u64 {
        let x = (i * 37) % 32;
        csv.push_str(&format!("{x},{}\n", u8::from(x <= 10)));
    }
    let path = data_file("dagan_feldman.csv", &csv);
    let output = privpac(&[
        "learn",
        "--class",
        "thresholds:32",
        "--learner",
        "dagan-feldman",
        "--epsilon",
        "2",
        "--data",
        path.to_str().unwrap(),
        "--seed",
        "3",
        "--json",
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let parsed: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(parsed["guarantee"]["kind"], "per_prediction", "{parsed}");
    let epsilon = parsed["guarantee"]["epsilon"].as_f64().unwrap();
    assert!(epsilon > 0.0 && epsilon <= 2.0, "{parsed}");
    assert!(
        parsed["learner"]
            .as_str()
            .unwrap()
            .starts_with("dagan-feldman("),
        "{parsed}"
    );
}

fn json(args: &[&str]) -> serde_json::Value {
    let output = privpac(args);
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("valid JSON")
}

/// Boneh–Shaw at n = 5, ξ = 0.1 needs k ≥ 6·(⌊4·25·ln 100⌋ + 1) = 2766 columns.
const ATTACK: [&str; 8] = [
    "attack",
    "--class",
    "thresholds:8",
    "--n",
    "5",
    "--k",
    "2766",
    "--json",
];

/// Non-private ERM is traced (completeness ≥ 1 − ξ predicted; < 80 of 100 at a true rate
/// ≥ 0.9 has probability < 10⁻³) and the certified bound is printed beside "no claim".
#[test]
fn attack_traces_the_non_private_erm_learner() {
    let mut args = ATTACK.to_vec();
    args.extend(["--learner", "erm", "--trials", "100", "--seed", "1"]);
    let report = json(&args);
    assert!(report["complete"].as_u64().unwrap() >= 80, "{report}");
    assert!(
        report["innocent_accused"].as_u64().unwrap() <= 20,
        "{report}"
    );
    assert!(
        report["epsilon_lower_bound"].as_f64().unwrap() > 1.0,
        "{report}"
    );
    assert!(report["claimed_epsilon"].is_null(), "{report}");
    assert_eq!(report["guarantee"]["kind"], "none");
    // The text form shows the bound beside the claim.
    args.retain(|a| *a != "--json");
    let text = stdout(&privpac(&args));
    assert!(text.contains("epsilon lower bound") && text.contains("claimed epsilon"));
}

/// Private learners at their claimed ε: the certified bound does not exceed the claim
/// (wrong with probability ≤ 0.05 per run; seeded), and innocents are accused at most ξ
/// (Tardos: on every word; ≤ 15 of 60 at a rate ≤ 0.1 fails with probability < 10⁻³).
#[test]
fn attack_does_not_refute_private_learners() {
    // Tardos for n = 3 users at ξ = 0.1: c = max(n, 4) = 4, 100·16·⌈ln 30⌉ = 6400 columns.
    for (learner, class) in [
        ("direct-sum", "points:4"),
        ("direct-sum:generic", "thresholds:8"),
        ("parity", "parities:3"),
        ("point", "points:4"),
    ] {
        let report = json(&[
            "attack",
            "--learner",
            learner,
            "--class",
            class,
            "--n",
            "3",
            "--k",
            "6400",
            "--code",
            "tardos",
            "--trials",
            "60",
            "--epsilon",
            "1",
            "--seed",
            "2",
            "--json",
        ]);
        assert_eq!(report["refutes_claim"], false, "{learner}: {report}");
        assert!(
            report["innocent_accused"].as_u64().unwrap() <= 15,
            "{learner}: {report}"
        );
        // The claim is the requested ε = 1, or (where the split over k columns had to
        // round ε/k down) a few ulps below it; never above.
        let claimed = report["claimed_epsilon"].as_f64().unwrap();
        assert!(
            (1.0 - 1e-12..=1.0).contains(&claimed),
            "{learner}: {report}"
        );
    }
}

#[test]
fn attack_rejects_bad_input() {
    let run = |learner: &str, class: &str, n: &str, k: &str, extra: &[&str], needle: &str| {
        let mut args = vec![
            "attack",
            "--learner",
            learner,
            "--class",
            class,
            "--n",
            n,
            "--k",
            k,
        ];
        args.extend(extra);
        check_error(&args, needle);
    };
    run("erm", "thresholds:8", "5", "100", &[], "needs k >= 2766");
    run(
        "erm",
        "thresholds:8",
        "1",
        "2766",
        &[],
        "n (users) must be at least 3 for the Boneh-Shaw attack, got 1",
    );
    // n = 0 and an n no codebook can serve once read "a codebook of 0 users ×
    // 340282366920938463463374607431768211455 positions".
    run(
        "erm",
        "thresholds:8",
        "0",
        "2766",
        &[],
        "n (users) must be at least 3 for the Boneh-Shaw attack, got 0",
    );
    run(
        "erm",
        "points:4",
        "0",
        "2766",
        &["--code", "tardos"],
        "n (users) must be at least 2 for the Tardos attack, got 0",
    );
    for code in ["boneh-shaw", "tardos"] {
        let output = privpac(&[
            "attack",
            "--learner",
            "erm",
            "--class",
            "points:4",
            "--n",
            "100000",
            "--k",
            "100",
            "--code",
            code,
        ]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains("n = 100000 users is too many") && stderr.contains("n can be at most"),
            "{stderr}"
        );
        assert!(
            !stderr.contains("340282366920938463463374607431768211455"),
            "{stderr}"
        );
    }
    run(
        "erm",
        "thresholds:8",
        "5",
        "2766",
        &["--trials", "0"],
        "trials must be at least 1",
    );
    run(
        "erm",
        "thresholds:8",
        "5",
        "2766",
        &["--trials", "18446744073709551615"],
        "above the limit",
    );
    run(
        "erm",
        "thresholds:8",
        "5",
        "18446744073709551615",
        &[],
        "exceeds",
    );
    run("nope", "thresholds:8", "5", "2766", &[], "unknown learner");
    run("erm", "parities:3", "5", "2766", &[], "not compatible");
    run(
        "erm",
        "thresholds:8",
        "5",
        "2766",
        &["--padding", "0.5"],
        "padding alpha",
    );
    run(
        "parity",
        "thresholds:8",
        "5",
        "2766",
        &[],
        "needs the hypercube",
    );
}

/// `privpac audit --all` runs on every zoo mechanism (names from the library, so a new
/// entry is covered), and so does `--mechanism NAME` one by one. Correct mechanisms pass
/// (a false alarm has probability ≤ 0.01 per audit, seeded); the two largest violations
/// are refuted even at 3000 runs.
#[test]
fn audit_runs_on_every_mechanism() {
    let report = json(&["audit", "--all", "--runs", "3000", "--seed", "3", "--json"]);
    let rows = report["audits"].as_array().unwrap();
    assert_eq!(rows.len(), lab::zoo::Zoo::ALL.len());
    for (row, entry) in rows.iter().zip(lab::zoo::Zoo::ALL) {
        assert_eq!(row["mechanism"], entry.name());
        assert_eq!(row["claimed_epsilon"].as_f64(), Some(0.5));
        assert!(row["epsilon_lower_bound"].as_f64().unwrap() >= 0.0);
        if !entry.broken() {
            assert_eq!(row["refuted"], false, "{row}");
        }
        if ["broken-noise-scale-epsilon", "broken-sparse-vector-lsl5"].contains(&entry.name()) {
            assert_eq!(row["refuted"], true, "{row}");
        }
    }
    for entry in lab::zoo::Zoo::ALL {
        let one = json(&[
            "audit",
            "--mechanism",
            entry.name(),
            "--runs",
            "200",
            "--seed",
            "4",
            "--json",
        ]);
        assert_eq!(one["audits"][0]["mechanism"], entry.name());
        // One pair certified by default; the runs add up to at least its certification.
        let row = &one["audits"][0];
        assert_eq!(row["pairs_certified"], 1, "{row}");
        assert!(row["total_runs"].as_u64().unwrap() >= 2 * 200, "{row}");
        assert!(row["pairs"].as_u64().unwrap() >= 1, "{row}");
    }
}

#[test]
fn audit_rejects_bad_input() {
    check_error(&["audit", "--mechanism", "nope"], "unknown mechanism");
    check_error(
        &["audit", "--mechanism", "exponential", "--runs", "0"],
        "zero",
    );
    check_error(
        &["audit", "--mechanism", "exponential", "--epsilon", "-1"],
        "epsilon",
    );
    check_error(
        &["audit", "--mechanism", "exponential", "--confidence", "1"],
        "confidence",
    );
    check_error(
        &[
            "audit",
            "--mechanism",
            "exponential",
            "--selection-runs",
            "1",
        ],
        "selection runs",
    );
    check_error(
        &[
            "audit",
            "--mechanism",
            "exponential",
            "--screening-runs",
            "0",
        ],
        "selection runs",
    );
    check_error(
        &[
            "audit",
            "--mechanism",
            "exponential",
            "--certified-pairs",
            "0",
        ],
        "certified pairs",
    );
}

/// Every file of a directory (name, bytes), sorted by name.
fn directory_files(dir: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .expect("the output directory exists")
        .map(|e| {
            let e = e.expect("a readable directory entry");
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).expect("a readable output file"),
            )
        })
        .collect();
    files.sort();
    files
}

#[test]
fn experiment_shards_run_as_separate_processes_merge_to_the_unsharded_outputs() {
    let root = std::env::temp_dir().join(format!("privpac-experiment-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).unwrap();
    let path = |name: &str| root.join(name).to_string_lossy().into_owned();
    let name = "sample-complexity";
    let whole = privpac(&[
        "experiment",
        name,
        "--scale",
        "tiny",
        "--seed",
        "9",
        "--out",
        &path("whole"),
        "--json",
    ]);
    assert!(
        whole.status.success(),
        "{}",
        String::from_utf8_lossy(&whole.stderr)
    );
    let report: serde_json::Value = serde_json::from_str(&stdout(&whole)).unwrap();
    assert_eq!(report["units_run"], report["units_total"]);
    // Off a terminal there is no progress bar: standard error stays empty.
    assert!(
        whole.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&whole.stderr)
    );
    // Three shards, each its own process, started together.
    let children: Vec<_> = (0..3)
        .map(|i| {
            Command::new(env!("CARGO_BIN_EXE_privpac"))
                .args([
                    "experiment",
                    name,
                    "--scale",
                    "tiny",
                    "--seed",
                    "9",
                    "--shard",
                    &format!("{i}/3"),
                    "--out",
                    &path("shards"),
                    "--json",
                ])
                .stdout(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let mut files = Vec::new();
    for child in children {
        let output = child.wait_with_output().unwrap();
        assert!(output.status.success());
        let report: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
        assert_eq!(report["outputs"], serde_json::json!([]));
        files.push(report["results_files"][0].as_str().unwrap().to_string());
    }
    let mut merge = vec![
        "experiment",
        "merge",
        name,
        "--scale",
        "tiny",
        "--seed",
        "9",
        "--out",
    ];
    let merged_dir = path("merged");
    merge.push(&merged_dir);
    merge.extend(files.iter().map(String::as_str));
    let merged = privpac(&merge);
    assert!(
        merged.status.success(),
        "{}",
        String::from_utf8_lossy(&merged.stderr)
    );
    // The unsharded directory also holds its results file; compare the outputs.
    let outputs = |dir: &str| {
        directory_files(&root.join(dir))
            .into_iter()
            .filter(|(n, _)| !n.ends_with(".jsonl"))
            .collect::<Vec<_>>()
    };
    let (a, b) = (outputs("whole"), outputs("merged"));
    assert!(
        a.len() >= 4,
        "{:?}",
        a.iter().map(|f| &f.0).collect::<Vec<_>>()
    );
    assert_eq!(a, b);
    // A rerun resumes: nothing left to run.
    let again = privpac(&[
        "experiment",
        name,
        "--scale",
        "tiny",
        "--seed",
        "9",
        "--out",
        &path("whole"),
        "--json",
    ]);
    let report: serde_json::Value = serde_json::from_str(&stdout(&again)).unwrap();
    assert_eq!(report["units_run"], 0);
    // Missing shards and bad shard specs are one-line errors.
    check_error(
        &[
            "experiment",
            "merge",
            name,
            "--scale",
            "tiny",
            "--seed",
            "9",
            "--out",
            &path("x"),
            &files[0],
        ],
        "units missing",
    );
    check_error(&["experiment", name, "--shard", "3/3"], "invalid shard");
    check_error(&["experiment", "nope"], "unknown experiment");
    let _ = std::fs::remove_dir_all(&root);
}

// ---------------------------------------------------------------------------------------
// Multi-learners: `multi-learn` and `sample-complexity --k`.

/// Points over [64], 3 label columns: targets 5, 9, 20.
fn multi_data(name: &str, n: u64) -> std::path::PathBuf {
    let mut csv = String::from("x,y1,y2,y3\n");
    for i in 0..n {
        let x = (i * 37) % 64;
        csv.push_str(&format!(
            "{x},{},{},{}\n",
            u8::from(x == 5),
            u8::from(x == 9),
            u8::from(x == 20)
        ));
    }
    data_file(name, &csv)
}

#[test]
fn multi_learn_json_schema() {
    let path = multi_data("schema-multi.csv", 1000);
    let data = path.to_str().unwrap();
    let fields = [
        ("class", Ty::Str),
        ("learner", Ty::Str),
        ("learner_spec", Ty::Str),
        ("examples", Ty::Int),
        ("k", Ty::Int),
        ("columns", Ty::Arr),
        ("max_empirical_error", Ty::Num),
        ("guarantee", Ty::Guarantee),
        ("epsilon", Ty::NumOrNull),
        ("delta", Ty::NumOrNull),
        ("guarantee_text", Ty::Str),
    ];
    let column_fields = [
        ("column", Ty::Int),
        ("hypothesis", Ty::Obj),
        ("hypothesis_text", Ty::Str),
        ("empirical_error", Ty::Num),
    ];
    for (learner, delta) in [
        ("direct-sum:generic", "0"),
        ("generic:point", "1e-6"),
        ("point", "1e-6"),
    ] {
        let parsed = json_of(&[
            "multi-learn",
            "--class",
            "points:64",
            "--learner",
            learner,
            "--epsilon",
            "2",
            "--delta",
            delta,
            "--data",
            data,
            "--seed",
            "1",
            "--json",
        ]);
        check_schema(&parsed, &fields, learner);
        assert_eq!(parsed["learner_spec"], learner);
        assert_eq!(parsed["k"], 3);
        let columns = parsed["columns"].as_array().unwrap();
        assert_eq!(columns.len(), 3);
        for (j, column) in columns.iter().enumerate() {
            check_schema(column, &column_fields, "column");
            assert_eq!(column["column"], j + 1);
        }
        // ε and δ are numbers, equal to the guarantee's, and within the requested total.
        let epsilon = parsed["epsilon"].as_f64().unwrap();
        let delta_out = parsed["delta"].as_f64().unwrap();
        assert_eq!(parsed["guarantee"]["epsilon"].as_f64(), Some(epsilon));
        assert_eq!(parsed["guarantee"]["delta"].as_f64(), Some(delta_out));
        assert!(epsilon <= 2.0, "{parsed}");
        assert!(delta_out <= delta.parse::<f64>().unwrap(), "{parsed}");
    }
    // The pure direct sum finds the three targets from 1000 examples at total ε = 2... the
    // point learner too; check the direct sum's columns name the targets.
    let parsed = json_of(&[
        "multi-learn",
        "--class",
        "points:64",
        "--learner",
        "direct-sum",
        "--epsilon",
        "6",
        "--data",
        data,
        "--seed",
        "2",
        "--json",
    ]);
    let ids: Vec<u64> = parsed["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["hypothesis"]["id"].as_u64().unwrap())
        .collect();
    assert_eq!(ids, vec![5, 9, 20], "{parsed}");
}

#[test]
fn multi_learn_rejects_bad_input_with_typed_errors() {
    let path = multi_data("multi-errors.csv", 200);
    let data = path.to_str().unwrap();
    let run = |learner: &str, epsilon: &str, delta: &str, data: &str, needle: &str| {
        check_error(
            &[
                "multi-learn",
                "--class",
                "points:64",
                "--learner",
                learner,
                "--epsilon",
                epsilon,
                "--delta",
                delta,
                "--data",
                data,
            ],
            needle,
        );
    };
    run("magic", "1", "0", data, "unknown multi-learner \"magic\"");
    run("direct-sum:magic", "1", "0", data, "unknown learner");
    run("parity", "1", "1e-6", data, "needs the hypercube domain");
    run(
        "point",
        "1",
        "0",
        data,
        "needs approximate differential privacy",
    );
    run("direct-sum", "2e-9", "0", data, "too small to split");
    let ragged = data_file("multi-ragged.csv", "x,y1,y2\n1,0,1\n2,1\n");
    run("point", "1", "1e-6", ragged.to_str().unwrap(), "line 3");
    let bad_label = data_file("multi-label.csv", "1,0,1\n2,1,7\n");
    run("point", "1", "1e-6", bad_label.to_str().unwrap(), "line 2");
    let outside = data_file("multi-outside.csv", "1,0,1\n64,1,0\n");
    run("point", "1", "1e-6", outside.to_str().unwrap(), "line 2");
    // Hypercube points as bit strings.
    let cube = data_file("multi-cube.csv", "x,y1,y2\n1100,0,1\n0011,1,0\n");
    let parsed = json_of(&[
        "multi-learn",
        "--class",
        "parities:4",
        "--learner",
        "direct-sum",
        "--epsilon",
        "1",
        "--data",
        cube.to_str().unwrap(),
        "--seed",
        "1",
        "--json",
    ]);
    assert_eq!(parsed["examples"], 2);
    assert_eq!(parsed["k"], 2);
}

#[test]
fn sample_complexity_with_k_fits_a_slope_and_checks_counts() {
    let parsed = json_of(&[
        "sample-complexity",
        "--class",
        "parities:6",
        "--learner",
        "parity",
        "--epsilon",
        "1",
        "--delta",
        "1e-6",
        "--alpha",
        "0.1",
        "--beta",
        "0.1",
        "--k",
        "1,4,16",
        "--trials",
        "20",
        "--seed",
        "3",
        "--json",
    ]);
    check_schema(
        &parsed,
        &[
            ("class", Ty::Str),
            ("learner_spec", Ty::Str),
            ("distribution", Ty::Str),
            ("label_noise", Ty::Num),
            ("scenario", Ty::Str),
            ("epsilon", Ty::Num),
            ("delta", Ty::Num),
            ("alpha", Ty::Num),
            ("beta", Ty::Num),
            ("trials", Ty::Int),
            ("seed", Ty::Int),
            ("curve", Ty::Obj),
        ],
        "sample-complexity --k",
    );
    let curve = &parsed["curve"];
    check_schema(
        curve,
        &[
            ("learner", Ty::Str),
            ("points", Ty::Arr),
            ("trivial", Ty::Arr),
            ("fit", Ty::Obj),
        ],
        "curve",
    );
    let points = curve["points"].as_array().unwrap();
    assert_eq!(points.len(), 3);
    for point in points {
        check_schema(
            point,
            &[
                ("k", Ty::Int),
                ("sample_size", Ty::Int),
                ("guarantee", Ty::Guarantee),
                ("outcome", Ty::Obj),
            ],
            "point",
        );
    }
    let slope = curve["fit"]["slope"].as_f64().unwrap();
    assert!(slope.abs() < 0.15, "{parsed}"); // the parity learner's n does not grow with k
    let base = [
        "sample-complexity",
        "--class",
        "parities:4",
        "--learner",
        "parity",
        "--epsilon",
        "1",
        "--delta",
        "1e-6",
        "--alpha",
        "0.1",
        "--beta",
        "0.1",
    ];
    fn with<'a>(base: &[&'a str], extra: &[&'a str]) -> Vec<&'a str> {
        base.iter().chain(extra).copied().collect()
    }
    check_error(
        &with(&base, &["--k", "1000000000000"]),
        "--k is 1000000000000, above the limit",
    );
    check_error(&with(&base, &["--k", "0"]), "at least 1");
    check_error(
        &with(&base, &["--k", "2", "--target", "3"]),
        "--target does not apply",
    );
    let mut pure = with(&base, &["--k", "2"]);
    pure[8] = "0";
    check_error(&pure, "needs approximate differential privacy");
    // --delta without --k is refused for the single-concept learners.
    check_error(
        &[
            "sample-complexity",
            "--class",
            "thresholds:8",
            "--learner",
            "generic",
            "--epsilon",
            "1",
            "--delta",
            "1e-6",
            "--alpha",
            "0.1",
            "--beta",
            "0.1",
        ],
        "--delta applies to multi-learners",
    );
}

/// Points over [64] with k label columns, target of column j is point j.
fn k_column_data(name: &str, k: usize, n: u64) -> std::path::PathBuf {
    let header: Vec<String> = (1..=k).map(|j| format!("y{j}")).collect();
    let mut csv = format!("x,{}\n", header.join(","));
    for i in 0..n {
        let x = (i * 37) % 64;
        let labels: Vec<&str> = (0..k as u64)
            .map(|j| if x == j { "1" } else { "0" })
            .collect();
        csv.push_str(&format!("{x},{}\n", labels.join(",")));
    }
    data_file(name, &csv)
}

/// The direct sum at (ε, δ) = (1, 10⁻⁶) once refused k = 9, 13, 50 and 100 ("budget too
/// small to split": fl(δ/k) rounded up); every k builds now and reports within the total.
/// k = 1 also checks that the one-column header `x,y1` is accepted.
#[test]
fn multi_learn_direct_sum_splits_every_k() {
    for k in [1usize, 9, 13, 50] {
        let path = k_column_data(&format!("split-k{k}.csv"), k, 200);
        let parsed = json_of(&[
            "multi-learn",
            "--class",
            "points:64",
            "--learner",
            "direct-sum",
            "--epsilon",
            "1",
            "--delta",
            "1e-6",
            "--data",
            path.to_str().unwrap(),
            "--seed",
            "1",
            "--json",
        ]);
        assert_eq!(parsed["k"], k, "{parsed}");
        assert!(parsed["epsilon"].as_f64().unwrap() <= 1.0, "{parsed}");
        assert!(parsed["delta"].as_f64().unwrap() <= 1e-6, "{parsed}");
    }
}

/// Resuming after a kill mid-write: the torn last line of the results file is dropped with
/// a one-line warning, its unit reruns, and the outputs equal an uninterrupted run's.
#[test]
fn experiment_resumes_past_a_torn_last_line() {
    let root = std::env::temp_dir().join(format!("privpac-torn-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).unwrap();
    let run = |out: &str| {
        privpac(&[
            "experiment",
            "online-mistakes",
            "--scale",
            "tiny",
            "--seed",
            "4",
            "--out",
            root.join(out).to_str().unwrap(),
            "--json",
        ])
    };
    let clean = run("clean");
    assert!(
        clean.status.success(),
        "{}",
        String::from_utf8_lossy(&clean.stderr)
    );
    let units = root.join("clean").join("units-tiny.jsonl");
    let text = std::fs::read_to_string(&units).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    std::fs::create_dir_all(root.join("torn")).unwrap();
    let torn_file = root.join("torn").join("units-tiny.jsonl");
    std::fs::write(
        &torn_file,
        format!("{}\n{}", lines[0], &lines[1][..lines[1].len() / 2]),
    )
    .unwrap();
    let resumed = run("torn");
    let stderr = String::from_utf8_lossy(&resumed.stderr);
    assert!(resumed.status.success(), "{stderr}");
    assert!(
        stderr.contains("warning") && stderr.contains("torn last line (line 2"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(root.join("torn").join("results.json")).unwrap(),
        std::fs::read_to_string(root.join("clean").join("results.json")).unwrap()
    );
    // A bad line that is not the last stays an error (exit 2, one line).
    std::fs::write(&torn_file, format!("{{broken\n{}\n", lines[0])).unwrap();
    check_error(
        &[
            "experiment",
            "online-mistakes",
            "--scale",
            "tiny",
            "--seed",
            "4",
            "--out",
            root.join("torn").to_str().unwrap(),
        ],
        "line 1",
    );
    let _ = std::fs::remove_dir_all(&root);
}

/// Reading an endless file stops at the input limit with a one-line error
/// (`dim --class matrix:/dev/zero` never returned).
#[test]
fn endless_input_files_stop_at_the_size_limit() {
    if !std::path::Path::new("/dev/zero").exists() {
        return;
    }
    check_error(
        &["dim", "--class", "matrix:/dev/zero"],
        "larger than the 536870912-byte limit on input files",
    );
    check_error(
        &[
            "learn",
            "--class",
            "points:8",
            "--learner",
            "generic",
            "--epsilon",
            "1",
            "--data",
            "/dev/zero",
        ],
        "larger than the 536870912-byte limit",
    );
}

/// Hypotheses are shown in the data's terms: the parity learner's output for the target
/// whose bit string in the data is 0111010000 names that bit string and its coordinates
/// next to the class's id (46: bit i of the id is coordinate i, the first character).
#[test]
fn hypotheses_are_described_in_the_data_orientation() {
    let targets = ["0111010000", "1000000001"];
    let mut csv = String::from("x,y1,y2\n");
    let mut state = 12345u64;
    for _ in 0..2000 {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let x: Vec<u8> = (0..10).map(|i| (state >> (20 + i) & 1) as u8).collect();
        let labels: Vec<String> = targets
            .iter()
            .map(|t| {
                let dot: u32 = t
                    .bytes()
                    .zip(&x)
                    .map(|(b, &xi)| u32::from(b == b'1') * u32::from(xi))
                    .sum();
                (dot % 2).to_string()
            })
            .collect();
        let bits: String = x.iter().map(|b| b.to_string()).collect();
        csv.push_str(&format!("{bits},{}\n", labels.join(",")));
    }
    let path = data_file("parity-describe.csv", &csv);
    let parsed = json_of(&[
        "multi-learn",
        "--class",
        "parities:10",
        "--learner",
        "parity",
        "--epsilon",
        "1",
        "--delta",
        "1e-6",
        "--data",
        path.to_str().unwrap(),
        "--seed",
        "1",
        "--json",
    ]);
    let texts: Vec<&str> = parsed["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["hypothesis_text"].as_str().unwrap())
        .collect();
    assert_eq!(
        texts,
        [
            "concept 46: parity of coordinates {1, 2, 3, 5} (bit string 0111010000)",
            "concept 513: parity of coordinates {0, 9} (bit string 1000000001)",
        ],
        "{parsed}"
    );
    // A threshold learned by ERM names its cut point.
    let path = data_file("threshold-describe.csv", "x,y\n1,1\n3,1\n4,0\n7,0\n");
    let parsed = json_of(&[
        "learn",
        "--class",
        "thresholds:8",
        "--learner",
        "erm",
        "--data",
        path.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(
        parsed["hypothesis_text"], "concept 3: 1 on x ≤ 3",
        "{parsed}"
    );
}

/// A scenario the constant hypotheses already solve is reported as trivial, not measured:
/// under the uniform distribution on 2^24 points the all-zero hypothesis errs 2^-24. The
/// default point scenario (five heavy points, the targets cycling over them) measures,
/// over 2^40 points, and names its distribution.
#[test]
fn trivial_scenarios_are_reported_and_the_point_default_measures() {
    let base = [
        "sample-complexity",
        "--class",
        "points:16777216",
        "--learner",
        "point",
        "--epsilon",
        "1",
        "--delta",
        "1e-6",
        "--alpha",
        "0.1",
        "--beta",
        "0.1",
        "--trials",
        "5",
        "--seed",
        "1",
        "--k",
        "1,8",
    ];
    let mut uniform = base.to_vec();
    uniform.extend(["--distribution", "uniform", "--json"]);
    let parsed = json_of(&uniform);
    let curve = &parsed["curve"];
    assert_eq!(curve["points"].as_array().unwrap().len(), 0, "{parsed}");
    let trivial = curve["trivial"].as_array().unwrap();
    assert_eq!(trivial.len(), 2, "{parsed}");
    for t in trivial {
        assert_eq!(t["baseline"]["hypothesis"], "all zeros", "{parsed}");
        assert!(
            t["baseline"]["excess_error"].as_f64().unwrap() <= 1e-6,
            "{parsed}"
        );
    }
    let text = stdout(&privpac(&uniform[..uniform.len() - 1]));
    assert!(
        text.contains("warning: at k = 1, 8 the constant hypotheses"),
        "{text}"
    );
    // The default for point functions: heavy points, measured, over 2^40 points.
    let mut heavy = base.to_vec();
    heavy[2] = "points:1099511627776";
    heavy.push("--json");
    let parsed = json_of(&heavy);
    assert!(
        parsed["distribution"]
            .as_str()
            .unwrap()
            .starts_with("heavy points"),
        "{parsed}"
    );
    assert_eq!(
        parsed["curve"]["points"].as_array().unwrap().len(),
        2,
        "{parsed}"
    );
    assert_eq!(
        parsed["curve"]["trivial"].as_array().unwrap().len(),
        0,
        "{parsed}"
    );
    // Single-concept: the same warning in the report and the text.
    let single = [
        "sample-complexity",
        "--class",
        "points:4096",
        "--learner",
        "generic",
        "--epsilon",
        "1",
        "--alpha",
        "0.1",
        "--beta",
        "0.1",
        "--trials",
        "5",
        "--seed",
        "1",
        "--distribution",
        "uniform",
    ];
    let text = stdout(&privpac(&single));
    assert!(
        text.contains("trivial scenario: the constant hypothesis (all zeros)"),
        "{text}"
    );
    let mut json = single.to_vec();
    json.push("--json");
    let parsed = json_of(&json);
    assert_eq!(parsed["trivial"]["hypothesis"], "all zeros", "{parsed}");
    // Without --distribution, point functions get mass on the target: not trivial.
    let parsed = json_of(
        &json[..json.len() - 3]
            .iter()
            .copied()
            .chain(["--json"])
            .collect::<Vec<_>>(),
    );
    assert!(parsed["trivial"].is_null(), "{parsed}");
}
