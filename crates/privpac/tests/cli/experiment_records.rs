//! `privpac experiment` against edited experiment files and shared results files: a rerun
//! drops and reruns the records of changed settings with a notice naming the key, `merge`
//! refuses them naming the file, line and key; a results file another run holds is
//! refused, a dead run's lock taken over; every learner a file accepts runs from it.

use super::*;

const FILE: &str = r#"name = "cli-records"
seed = 4
learners = ["generic"]
beta = 0.2
search = { start = 2, max_size = 4096 }
classes = ["thresholds:16"]
trials = 4

[[grid]]
epsilon = [1.0, 2.0, 4.0]
alpha = [0.2]
"#;

fn scratch(name: &str) -> std::path::PathBuf {
    let root =
        std::env::temp_dir().join(format!("privpac-exprecords-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).expect("a scratch directory");
    root
}

/// Runs `args`, asserting success; returns the JSON report and standard error.
#[track_caller]
fn run_ok(args: &[&str]) -> (Value, String) {
    let output = privpac(args);
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "{args:?}: {stderr}");
    let report = serde_json::from_str(&stdout(&output)).expect("a JSON report");
    (report, stderr)
}

#[test]
fn an_edited_file_reruns_its_stale_records_and_merge_refuses_them() {
    for (key, from, to) in [
        ("trials", "trials = 4", "trials = 3"),
        ("beta", "beta = 0.2", "beta = 0.25"),
        ("label_noise", "beta = 0.2", "beta = 0.2\nlabel_noise = 0.1"),
        ("search.max_size", "max_size = 4096", "max_size = 2048"),
    ] {
        let root = scratch(key);
        let s = |name: &str| root.join(name).to_string_lossy().into_owned();
        let file = s("sweep.toml");
        std::fs::write(&file, FILE).unwrap();
        let (results, out) = (s("results.jsonl"), s("out"));
        let whole = [
            "experiment",
            "run",
            &file,
            "--scale",
            "tiny",
            "--json",
            "--results",
            &results,
            "--out",
            &out,
        ];
        let (report, _) = run_ok(&whole);
        assert_eq!(report["units_run"], 3);
        let header = std::fs::read_to_string(root.join("out/results.csv")).unwrap();
        assert!(
            header.lines().next().unwrap().contains("label_noise"),
            "{header}"
        );
        let shards: Vec<String> = ["0/2", "1/2"]
            .iter()
            .enumerate()
            .map(|(i, shard)| {
                let path = s(&format!("shard{i}.jsonl"));
                run_ok(&[
                    "experiment",
                    "run",
                    &file,
                    "--scale",
                    "tiny",
                    "--json",
                    "--shard",
                    shard,
                    "--results",
                    &path,
                    "--out",
                    &out,
                ]);
                path
            })
            .collect();

        std::fs::write(&file, FILE.replace(from, to)).unwrap();
        // Merge: the shards were computed under the old file.
        let merged = s("merged");
        let mut merge = vec![
            "experiment",
            "merge",
            &file,
            "--scale",
            "tiny",
            "--out",
            &merged,
        ];
        merge.extend(shards.iter().map(String::as_str));
        check_error(&merge, &format!("shard0.jsonl line 1: {key} is "));
        assert!(!root.join("merged").exists(), "nothing written");
        // Resume: the stale records are dropped and rerun, with a notice.
        let (report, stderr) = run_ok(&whole);
        assert_eq!(report["units_run"], 3, "{key}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.starts_with("privpac: note: ")
                && stderr.contains("dropped 3 stale records")
                && stderr.contains(&format!("3 with {key} changed"))
                && stderr.contains("in the record")
                && stderr.contains("in the file"),
            "{key}: {stderr}"
        );
        let json: Value =
            serde_json::from_str(&std::fs::read_to_string(root.join("out/results.json")).unwrap())
                .unwrap();
        let rows = json["rows"].as_array().unwrap();
        assert_eq!(rows.len(), 3);
        if key != "search.max_size" {
            let now: Value = match key {
                "trials" => 3.into(),
                "beta" => 0.25.into(),
                _ => 0.1.into(),
            };
            assert!(rows.iter().all(|row| row[key] == now), "{key}: {rows:?}");
        }
        // And again: nothing is stale now.
        let (report, stderr) = run_ok(&whole);
        assert_eq!(
            (report["units_run"].as_u64(), stderr.as_str()),
            (Some(0), "")
        );
        let _ = std::fs::remove_dir_all(&root);
    }
}

#[test]
fn a_held_results_file_is_refused_and_a_dead_runs_lock_taken_over() {
    let root = scratch("lock");
    let s = |name: &str| root.join(name).to_string_lossy().into_owned();
    let file = s("sweep.toml");
    std::fs::write(&file, FILE).unwrap();
    let (results, out) = (s("results.jsonl"), s("out"));
    let lock = root.join("results.jsonl.lock");
    let args = [
        "experiment",
        "run",
        &file,
        "--scale",
        "tiny",
        "--json",
        "--results",
        &results,
        "--out",
        &out,
    ];
    // This test's process is alive: its lock holds.
    let me = std::process::id();
    std::fs::write(&lock, format!("{me}\n")).unwrap();
    check_error(
        &args,
        &format!("results.jsonl: another run is writing it (process {me} holds"),
    );
    assert!(!root.join("results.jsonl").exists());
    assert!(lock.exists());
    if std::path::Path::new("/proc/self").exists() {
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let dead = child.id();
        child.wait().unwrap();
        std::fs::write(&lock, format!("{dead}\n")).unwrap();
        let (report, stderr) = run_ok(&args);
        assert_eq!(report["units_run"], 3);
        assert!(
            stderr.contains("removed a stale lock of process")
                && stderr.contains(&dead.to_string()),
            "{stderr}"
        );
        assert!(!lock.exists(), "the run removed its lock");
    }
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn every_learner_a_file_accepts_runs_from_it() {
    let root = scratch("learners");
    let s = |name: &str| root.join(name).to_string_lossy().into_owned();
    for learner in [
        "erm",
        "generic",
        "improper-point",
        "stable",
        "private-prediction",
        "voting",
        "relabeling",
        "dagan-feldman",
        "sanitizer:blr",
        "sanitizer:pmw",
        "sanitizer:mwem",
        "sanitizer:tree",
    ] {
        let mut text = FILE
            .replace("\"generic\"", &format!("{learner:?}"))
            .replace("[1.0, 2.0, 4.0]", "[2.0]");
        if learner == "improper-point" {
            text = text.replace("thresholds:16", "points:16");
        }
        let file = s("sweep.toml");
        std::fs::write(&file, text).unwrap();
        let (report, _) = run_ok(&[
            "experiment",
            "run",
            &file,
            "--scale",
            "tiny",
            "--json",
            "--out",
            &s(learner),
        ]);
        assert_eq!(report["units_run"], 1, "{learner}");
    }
    // The point sanitizer needs δ > 0: refused before anything runs.
    let file = s("point.toml");
    std::fs::write(&file, FILE.replace("\"generic\"", "\"sanitizer:point\"")).unwrap();
    check_error(
        &["experiment", "run", &file, "--out", &s("point")],
        "line 3, key `learners`: \"sanitizer:point\" cannot run in a sweep",
    );
    let _ = std::fs::remove_dir_all(&root);
}
