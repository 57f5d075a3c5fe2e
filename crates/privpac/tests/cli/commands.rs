//! Commands end to end: demo, mech, dim, online, sample-complexity, sanitize, and their
//! one-line errors (`learn` is in `learn.rs`; this module keeps the data-file helper both
//! use).

use super::*;
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

/// Messages name what was typed and what is accepted: a malformed `--shard` is echoed (it
/// was reported as "invalid shard 0/0"), and the unknown-learner error lists every learner
/// the parser accepts.
#[test]
fn messages_echo_the_input_and_list_what_is_accepted() {
    check_error(
        &["experiment", "threshold-domain", "--shard", "two/4"],
        "malformed shard \"two/4\": expected I/N",
    );
    let data = data_file("messages-learner.csv", "0,0\n5,1\n");
    let output = privpac(&[
        "learn",
        "--class",
        "thresholds:8",
        "--learner",
        "nope",
        "--epsilon",
        "1",
        "--data",
        data.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    for name in [
        "erm",
        "generic",
        "improper-point",
        "stable",
        "private-prediction",
        "voting",
        "relabeling",
        "dagan-feldman",
        "sanitizer[:NAME]",
    ] {
        assert!(stderr.contains(&format!(" {name}")), "{name}: {stderr}");
    }
    // A mistyped subcommand is named as one, with the likely one (clap's message).
    let output = privpac(&["lern"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("unrecognized subcommand 'lern'"),
        "{stderr}"
    );
    assert!(
        stderr.contains("similar subcommand exists: 'learn'"),
        "{stderr}"
    );
}

#[test]
fn dim_reports_closed_form_dimensions_with_witnesses() {
    // (spec, VC, Ldim): points VC 1 / Ldim 1; N thresholds ⌊log2 N⌋; with zero ⌊log2(N+1)⌋;
    // parities d / d; all functions N / N; halfspaces VC 3; complements as their class.
    for (spec, vc, ldim) in [
        ("points:10", 1, 1),
        ("thresholds:64", 1, 6),
        ("zero(thresholds:63)", 1, 6),
        ("zero(thresholds:64)", 1, 6),
        ("thresholds:100", 1, 6),
        ("parities:5", 5, 5),
        ("all:4", 4, 4),
        // Complements keep the dimensions; both orientations of thresholds: VC 2 and
        // ⌊log2 N⌋ + 1.
        ("not(thresholds:64)", 1, 6),
        ("not(parities:5)", 5, 5),
        ("both(thresholds:64)", 2, 7),
        ("both(thresholds:100)", 2, 7),
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

pub(crate) fn data_file(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("privpac-learn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("the temporary directory is writable");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("the temporary directory is writable");
    path
}

/// The probe: with --label-noise 0.1 (OPT = 0.1) and α = 0.05, success means true
/// error at most OPT + α; judged on the true error no size up to 2^20 reached 0.9. OPT is
/// in the JSON and the text.
#[test]
fn agnostic_sample_complexity_means_excess_error_and_reports_opt() {
    let args = [
        "sample-complexity",
        "--class",
        "thresholds:1024",
        "--learner",
        "generic",
        "--epsilon",
        "3",
        "--alpha",
        "0.05",
        "--beta",
        "0.1",
        "--label-noise",
        "0.1",
        "--trials",
        "30",
        "--max-size",
        "16384",
        "--seed",
        "1",
    ];
    let text = stdout(&privpac(&args));
    assert!(text.contains("OPT = 0.1"), "{text}");
    let mut json = args.to_vec();
    json.push("--json");
    let parsed = json_of(&json);
    assert_eq!(parsed["scenario"], "agnostic", "{parsed}");
    assert_eq!(parsed["opt"], 0.1, "{parsed}");
    assert!(parsed["success_rate"].as_f64().unwrap() >= 0.9, "{parsed}");
    assert_eq!(parsed["bound"]["kind"], "explicit", "{parsed}");
}

/// Intervals over 2^40 points (about 2^79 concepts, beyond 64-bit ids): refused before
/// ("intervals support at most 6074000999 points"); now ERM and the generic learner are
/// measured (the target is an id: the interval [2^23, 2^39]), and parities over {0,1}^40 by
/// ERM (Gaussian elimination) while the generic learner's refusal names the obstacle.
#[test]
fn sample_complexity_runs_on_intervals_over_two_to_the_forty_points_and_parities_by_elimination() {
    for learner in ["erm", "generic"] {
        let parsed = json_of(&[
            "sample-complexity",
            "--class",
            "intervals:1099511627776",
            "--learner",
            learner,
            "--epsilon",
            "1",
            "--alpha",
            "0.1",
            "--beta",
            "0.2",
            "--trials",
            "20",
            "--seed",
            "1",
            "--target",
            "9223337402234306561",
            "--json",
        ]);
        assert!(
            parsed["empirical_sample_size"].as_f64().unwrap() > 0.0,
            "{parsed}"
        );
        assert!(parsed["success_rate"].as_f64().unwrap() >= 0.8, "{parsed}");
    }
    let parsed = json_of(&[
        "sample-complexity",
        "--class",
        "parities:40",
        "--learner",
        "erm",
        "--alpha",
        "0.1",
        "--beta",
        "0.2",
        "--trials",
        "20",
        "--seed",
        "1",
        "--json",
    ]);
    assert!(
        parsed["empirical_sample_size"].as_f64().unwrap() > 0.0,
        "{parsed}"
    );
    assert!(parsed["success_rate"].as_f64().unwrap() >= 0.8, "{parsed}");
    check_error(
        &[
            "sample-complexity",
            "--class",
            "parities:40",
            "--learner",
            "generic",
            "--epsilon",
            "1",
            "--alpha",
            "0.1",
            "--beta",
            "0.2",
            "--trials",
            "20",
            "--seed",
            "1",
        ],
        "#P-hard",
    );
}

/// Intervals over 2^30 points (2^59 concepts) with the generic learner: refused before
/// ("dense error profile needs 576460752840294401 concepts"), measured now, below the
/// realizable bound.
#[test]
fn sample_complexity_runs_the_generic_learner_on_intervals_over_two_to_the_thirty_points() {
    let parsed = json_of(&[
        "sample-complexity",
        "--class",
        "intervals:1073741824",
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
        "1",
        "--json",
    ]);
    let n = parsed["empirical_sample_size"].as_f64().unwrap();
    let bound = parsed["bound"]["sample_size"].as_f64().unwrap();
    assert!(n > 0.0 && n < bound, "{parsed}");
    assert!(parsed["success_rate"].as_f64().unwrap() >= 0.9, "{parsed}");
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

/// `--sanitizer treelog-quantiles`: (ε, δ) as asked, at most ⌈1/α⌉ + 1 support points, the
/// measured error within α at a sample size above the proved one (776 points for
/// |X| = 256, α = 0.25, β = 10⁻⁴); without --delta, a one-line reason and a non-zero exit;
/// below 2⌈1/α⌉ points the data-independent release of two points.
#[test]
fn sanitize_with_treelog_quantiles() {
    let mut csv = String::from("x\n");
    for i in 0..3000u64 {
        csv.push_str(&format!("{}\n", (i * i + 7 * i) % 256));
    }
    let path = data_file("quantile-points.csv", &csv);
    let data = path.to_str().unwrap();
    let base = [
        "sanitize",
        "--class",
        "thresholds:256",
        "--sanitizer",
        "treelog-quantiles",
        "--epsilon",
        "1",
        "--alpha",
        "0.25",
        "--data",
    ];
    let mut args = base.to_vec();
    args.extend([data, "--delta", "1e-6", "--seed", "9", "--json"]);
    let output = privpac(&args);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let parsed: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(parsed["sanitizer"], "treelog-quantiles");
    assert_eq!(parsed["guarantee"]["epsilon"], 1.0, "{parsed}");
    assert_eq!(parsed["guarantee"]["delta"], 1e-6, "{parsed}");
    assert!(parsed["support_points"].as_u64().unwrap() <= 5, "{parsed}");
    let error = parsed["max_query_error"].as_f64().unwrap();
    assert!((0.0..=0.25).contains(&error), "{parsed}");
    let mut args = base.to_vec();
    args.push(data);
    check_error(&args, "delta");
    let few = data_file("quantile-few.csv", "x\n1\n2\n3\n");
    let mut args = base.to_vec();
    args.extend([few.to_str().unwrap(), "--delta", "1e-6", "--json"]);
    let parsed = json_of(&args);
    assert_eq!(parsed["support_points"], 2, "{parsed}");
    // The proved sample size is the library's at β = 0.1; three points are fewer, and the
    // text says the error may exceed α.
    let expected = privpac_sanitizers::QuantileSanitizer::new(
        privpac_accounting::Privacy::new(1.0, 1e-6).unwrap(),
        0.25,
    )
    .unwrap()
    .min_sample_size(256, 0.1)
    .unwrap();
    assert_eq!(parsed["proved_sample_size"]["n"], expected, "{parsed}");
    assert_eq!(parsed["proved_sample_size"]["beta"], 0.1, "{parsed}");
    args.pop();
    let text = String::from_utf8(privpac(&args).stdout).unwrap();
    assert!(
        text.contains(&format!(
            "proved (with probability 0.9) from {expected} points"
        )) && text.contains("these 3 points are fewer"),
        "{text}"
    );
    // Sanitizers without a proved size in the CLI report none.
    let tree = json_of(&[
        "sanitize",
        "--class",
        "thresholds:256",
        "--sanitizer",
        "tree",
        "--epsilon",
        "1",
        "--data",
        data,
        "--seed",
        "9",
        "--json",
    ]);
    assert!(tree.get("proved_sample_size").is_none(), "{tree}");
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

/// `--alpha 1` without `--flip-probability`: `learn` says the flip defaulted to α/2 = 0.5
/// and what to pass (not only "got 0.5"), in one line, and runs with a flip given;
/// `sample-complexity`, whose α must be below 1 anyway, names α itself, with or without a
/// flip.
#[test]
fn a_defaulted_flip_outside_the_range_names_the_default_rule() {
    let mut csv = String::from("x,y\n");
    for i in 0..200u64 {
        let x = (i * 37) % 64;
        csv.push_str(&format!("{x},{}\n", u8::from(x <= 20)));
    }
    let path = data_file("flip-default.csv", &csv);
    let learn = [
        "learn",
        "--class",
        "thresholds:64",
        "--learner",
        "private-prediction",
        "--epsilon",
        "1",
        "--alpha",
        "1",
        "--data",
        path.to_str().unwrap(),
        "--seed",
        "1",
    ];
    let output = privpac(&learn);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    for needle in ["defaulted to α/2", "--flip-probability", "got 0.5"] {
        assert!(stderr.contains(needle), "{needle}: {stderr}");
    }
    let mut given = learn.to_vec();
    given.extend(["--flip-probability", "0.25"]);
    let output = privpac(&given);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let search = [
        "sample-complexity",
        "--class",
        "thresholds:64",
        "--learner",
        "private-prediction",
        "--epsilon",
        "1",
        "--alpha",
        "1",
        "--beta",
        "0.2",
        "--trials",
        "5",
        "--seed",
        "1",
    ];
    for flip in [None, Some("0.25")] {
        let mut args = search.to_vec();
        args.extend(
            flip.map(|f| ["--flip-probability", f])
                .into_iter()
                .flatten(),
        );
        let output = privpac(&args);
        assert_eq!(output.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains("alpha must be in (0, 1), got 1"),
            "{stderr}"
        );
        assert!(!stderr.contains("flip"), "{stderr}");
    }
}
