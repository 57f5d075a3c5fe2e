//! Tests of results files against edited experiment files: a resume drops and reruns the
//! records of changed settings, a merge refuses them naming the key, two runs on one file
//! are refused by its lock and a dead run's lock is taken over; every learner a file
//! accepts runs in a unit.

use std::path::PathBuf;

use crate::{Error, Experiment, Scale, Shard, ShardEvent, Sweep, lock_path};

const FILE: &str = r#"
name = "records-sweep"
learners = ["generic"]
beta = 0.2
search = { start = 2, max_size = 4096 }
classes = ["thresholds:16"]
trials = 4

[[grid]]
epsilon = [1.0, 2.0]
alpha = [0.2]
"#;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("privpac-records-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn experiment(text: &str) -> Experiment {
    Experiment::from_sweep(Sweep::parse(text, "f.toml").unwrap(), "f.toml").unwrap()
}

/// Runs the whole experiment on `results`, returning the units run and the events other
/// than progress.
fn run(exp: &Experiment, results: &std::path::Path) -> (usize, Vec<String>) {
    let mut events = Vec::new();
    let ran = exp
        .run_shard_with(
            Scale::Tiny,
            3,
            Shard::whole(),
            results,
            &mut |event| match event {
                ShardEvent::Progress { .. } => {}
                ShardEvent::StaleRecords(stale) => {
                    assert_eq!(stale.dropped, 2, "{stale}");
                    events.push(format!("stale: {stale}"));
                }
                ShardEvent::StaleLock(stale) => events.push(format!("lock: {stale}")),
                other => events.push(format!("{other:?}")),
            },
        )
        .unwrap();
    (ran, events)
}

/// Editing trials, β, the label noise or the search limit between two runs: the resume
/// drops the old records with a notice naming the key and reruns their units (the rows
/// then state the new value), and a merge of the old results refuses them, naming the
/// file, the line and the key.
#[test]
fn edited_settings_rerun_on_resume_and_are_refused_by_merge() {
    let dir = scratch("edits");
    let edits = [
        (
            "trials",
            "trials = 4",
            "trials = 3",
            "trials",
            serde_json::json!(3),
        ),
        (
            "beta",
            "beta = 0.2",
            "beta = 0.25",
            "beta",
            serde_json::json!(0.25),
        ),
        (
            "label_noise",
            "beta = 0.2",
            "beta = 0.2\nlabel_noise = 0.1",
            "label_noise",
            serde_json::json!(0.1),
        ),
        (
            "search.max_size",
            "max_size = 4096",
            "max_size = 2048",
            "search.max_size",
            serde_json::json!(2048),
        ),
    ];
    let old = experiment(FILE);
    for (name, from, to, key, value) in edits {
        let results = dir.join(format!("{name}.jsonl"));
        assert_eq!(run(&old, &results), (2, vec![]));
        // Unchanged: nothing reruns.
        assert_eq!(run(&old, &results), (0, vec![]));
        let shard = dir.join(format!("{name}-old.jsonl"));
        std::fs::copy(&results, &shard).unwrap();
        let edited = experiment(&FILE.replace(from, to));

        let (ran, events) = run(&edited, &results);
        assert_eq!(ran, 2, "{name}: the stale records rerun");
        assert_eq!(events.len(), 1, "{name}: {events:?}");
        assert!(
            events[0].contains(&format!("2 with {key} changed"))
                && events[0].contains(&format!("{key} is ")),
            "{name}: {events:?}"
        );
        let rows = edited
            .merge(Scale::Tiny, 3, std::slice::from_ref(&results))
            .unwrap();
        if key != "search.max_size" {
            assert!(rows.iter().all(|row| row[key] == value), "{name}: {rows:?}");
        }
        assert_eq!(
            std::fs::read_to_string(&results).unwrap().lines().count(),
            2
        );

        let err = edited
            .merge(Scale::Tiny, 3, std::slice::from_ref(&shard))
            .unwrap_err();
        match &err {
            Error::StaleRecord { origin, key: k, .. } => {
                assert_eq!(k, key, "{err}");
                assert!(
                    origin.ends_with(&format!("{name}-old.jsonl line 1")),
                    "{err}"
                );
            }
            other => panic!("{name}: expected StaleRecord, got {other}"),
        }
        let message = err.to_string();
        assert!(message.contains(&format!("{key} is ")), "{message}");
        assert!(message.contains("in the record") && message.contains("in the file"));
        // The same records held in memory.
        let records: Vec<crate::UnitRecord> = std::fs::read_to_string(&shard)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert!(matches!(
            edited.merge_records(Scale::Tiny, 3, records),
            Err(Error::StaleRecord { key: k, .. }) if k == key
        ));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A sweep's rows state their label noise, 0 included; records state the full settings.
#[test]
fn sweep_rows_carry_label_noise_and_records_their_settings() {
    let record = experiment(FILE).run_unit(Scale::Tiny, 3, 0).unwrap();
    assert_eq!(record.row["label_noise"], 0.0);
    for (key, value) in [
        ("trials", serde_json::json!(4)),
        ("beta", serde_json::json!(0.2)),
        ("label_noise", serde_json::json!(0.0)),
        ("search.start", serde_json::json!(2)),
        ("search.max_size", serde_json::json!(4096)),
        ("class", serde_json::json!("thresholds:16")),
        ("privpac_version", serde_json::json!(crate::PRIVPAC_VERSION)),
    ] {
        assert_eq!(record.params[key], value, "{key}");
    }
    // A record without parameters (an older privpac's) matches nothing.
    let mut old = record.clone();
    old.params.clear();
    assert!(matches!(
        experiment(FILE).merge_records(Scale::Tiny, 3, [old]),
        Err(Error::StaleRecord { key, .. }) if key == "params"
    ));
}

/// A second run on a results file whose lock a live process holds is refused, naming the
/// file and the PID, and leaves the file and the lock alone.
#[test]
fn a_locked_results_file_is_refused() {
    let dir = scratch("locked");
    let results = dir.join("results.jsonl");
    let lock = lock_path(&results);
    let pid = std::process::id();
    std::fs::write(&lock, format!("{pid}\n")).unwrap();
    let err = experiment(FILE)
        .run_shard(Scale::Tiny, 3, Shard::whole(), &results, &mut |_, _| {})
        .unwrap_err();
    assert!(
        matches!(&err, Error::ResultsLocked { holder, .. } if holder == &format!("process {pid}")),
        "{err}"
    );
    let message = err.to_string();
    assert!(message.contains("results.jsonl") && message.contains(&pid.to_string()));
    assert!(!results.exists(), "nothing was written");
    assert!(lock.exists(), "the other run's lock stays");
    // While a run holds the lock, another acquire is refused; dropping releases it.
    std::fs::remove_file(&lock).unwrap();
    let (held, stale) = crate::ResultsLock::acquire(&results).unwrap();
    assert_eq!(stale, None);
    assert!(crate::ResultsLock::acquire(&results).is_err());
    drop(held);
    assert!(!lock.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The lock of a process that is no longer running does not block: the run takes it over,
/// says so, and removes it when done.
#[test]
fn a_dead_runs_lock_is_taken_over() {
    if !std::path::Path::new("/proc/self").exists() {
        return; // liveness is told from /proc (Linux)
    }
    let dir = scratch("stale-lock");
    let results = dir.join("results.jsonl");
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let dead = child.id();
    child.wait().unwrap();
    std::fs::write(lock_path(&results), format!("{dead}\n")).unwrap();
    let (ran, events) = run(&experiment(FILE), &results);
    assert_eq!(ran, 2);
    assert_eq!(events.len(), 1, "{events:?}");
    assert!(
        events[0].contains("stale lock") && events[0].contains(&dead.to_string()),
        "{events:?}"
    );
    assert!(!lock_path(&results).exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every learner an experiment file accepts runs one tiny unit (from a file, as from Dask:
/// both run `Experiment::run_unit`), or the file is refused at parse time.
#[test]
fn every_learner_a_file_accepts_runs_a_unit() {
    use privpac_toolkit::{LearnerSpec, SanitizerSpec};
    let names = LearnerSpec::BASIC
        .into_iter()
        .chain(SanitizerSpec::ALL.into_iter().map(LearnerSpec::Sanitizer))
        .map(|spec| spec.to_string());
    let (mut failed, mut refused) = (Vec::new(), Vec::new());
    for name in names {
        let mut text = FILE.replace("[\"generic\"]", &format!("[{name:?}]"));
        if name == "improper-point" {
            // It learns point functions; beside thresholds it is refused at parse time.
            let err = Sweep::parse(&text, "f.toml").unwrap_err().to_string();
            assert!(
                err.contains("`learners`") && err.contains("points:N"),
                "{err}"
            );
            text = text.replace("thresholds:16", "points:16");
        }
        let sweep = match Sweep::parse(&text, "f.toml") {
            Ok(sweep) => sweep,
            Err(e) => {
                let message = e.to_string();
                assert!(message.contains("`learners`"), "{message}");
                refused.push(name);
                continue;
            }
        };
        let exp = Experiment::from_sweep(sweep, "f.toml").unwrap();
        match exp.run_unit(Scale::Tiny, 3, 0) {
            Ok(record) => assert_eq!(record.row["learner"], name.as_str()),
            Err(e) => failed.push(format!("{name}: {e}")),
        }
    }
    assert!(failed.is_empty(), "{failed:#?}");
    // Only the learners that need δ > 0 are refused: the interior-point learner, the point
    // sanitizer and the TreeLog quantile sanitizer.
    assert_eq!(
        refused,
        [
            "interior-point",
            "sanitizer:point",
            "sanitizer:treelog-quantiles"
        ]
    );
}

/// δ of an (ε, δ) learner is part of its units' parameters: a file's `delta` reaches the
/// interior-point learner's units (and their guarantee), not the pure learner's; editing it
/// reruns exactly the interior-point units on resume, and a merge of the old records
/// refuses them naming `delta`.
#[test]
fn an_edited_delta_reruns_the_approximate_learners_units_and_is_refused_by_merge() {
    let dir = scratch("delta");
    let text = FILE
        .replace("[\"generic\"]", "[\"interior-point\", \"generic\"]")
        .replace("beta = 0.2", "beta = 0.2\ndelta = 1e-3");
    let old = experiment(&text);
    let results = dir.join("delta.jsonl");
    assert_eq!(run(&old, &results), (4, vec![]));
    let rows = old
        .merge(Scale::Tiny, 3, std::slice::from_ref(&results))
        .unwrap();
    for row in &rows {
        if row["learner"] == "interior-point" {
            assert_eq!(row["delta"], 1e-3, "{row:?}");
            if let Some(guarantee) = row.get("guarantee").filter(|g| !g.is_null()) {
                assert_eq!(guarantee["delta"], 1e-3, "{row:?}");
            }
        } else {
            assert!(!row.contains_key("delta"), "{row:?}");
        }
    }
    let shard = dir.join("delta-old.jsonl");
    std::fs::copy(&results, &shard).unwrap();
    let edited = experiment(&text.replace("delta = 1e-3", "delta = 2e-3"));
    let (ran, events) = run(&edited, &results);
    assert_eq!(ran, 2, "only the interior-point units rerun");
    assert!(events[0].contains("2 with delta changed"), "{events:?}");
    let err = edited
        .merge(Scale::Tiny, 3, std::slice::from_ref(&shard))
        .unwrap_err();
    assert!(
        matches!(&err, Error::StaleRecord { key, .. } if key == "delta"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
