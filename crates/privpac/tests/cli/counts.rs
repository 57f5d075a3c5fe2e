//! Counts: every count flag is checked against its limit before anything is allocated in
//! proportion to it; a huge value is a one-line error with exit status 2, never an abort.

use super::*;

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
    stable[5] = "--em-epsilon".into();
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
        // stable is not private: it takes its mechanism's ε, not a target.
        let epsilon_flag = if learner == "stable" {
            "--em-epsilon"
        } else {
            "--epsilon"
        };
        check_error(
            &[
                "learn",
                "--class",
                "thresholds:256",
                "--learner",
                learner,
                epsilon_flag,
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
    assert_eq!(rows.len(), privpac_zoo::Zoo::ALL.len());
    for (row, entry) in rows.iter().zip(privpac_zoo::Zoo::ALL) {
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
    for entry in privpac_zoo::Zoo::ALL {
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
