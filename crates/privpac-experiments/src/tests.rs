//! Tests of the experiment machinery on tiny configurations: sharded runs merge to the
//! unsharded results byte for byte, reruns resume, mixed or incomplete results are typed
//! errors.

use std::path::PathBuf;

use super::*;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("lab-experiment-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn outputs(dir: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    files.sort();
    files
}

#[test]
fn sharded_runs_merge_to_the_unsharded_outputs_for_every_experiment() {
    for info in EXPERIMENTS {
        let dir = scratch(info.name);
        let whole = dir.join("whole.jsonl");
        let total = unit_count(info.name, Scale::Tiny).unwrap();
        assert!(total >= 2, "{}", info.name);
        let ran = run_shard(
            info.name,
            Scale::Tiny,
            5,
            Shard::whole(),
            &whole,
            &mut |_, _| {},
        )
        .unwrap();
        assert_eq!(ran, total);
        let shards: Vec<PathBuf> = (0..3)
            .map(|i| {
                let path = dir.join(format!("shard-{i}.jsonl"));
                run_shard(
                    info.name,
                    Scale::Tiny,
                    5,
                    Shard::new(i, 3).unwrap(),
                    &path,
                    &mut |_, _| {},
                )
                .unwrap();
                path
            })
            .collect();
        let a = merge(info.name, Scale::Tiny, 5, &[whole]).unwrap();
        // Shards given in any order.
        let b = merge(
            info.name,
            Scale::Tiny,
            5,
            &[shards[2].clone(), shards[0].clone(), shards[1].clone()],
        )
        .unwrap();
        assert_eq!(a, b);
        write_outputs(info.name, Scale::Tiny, 5, &a, &dir.join("a")).unwrap();
        write_outputs(info.name, Scale::Tiny, 5, &b, &dir.join("b")).unwrap();
        let (oa, ob) = (outputs(&dir.join("a")), outputs(&dir.join("b")));
        assert_eq!(oa, ob, "{}", info.name);
        let names: Vec<&str> = oa.iter().map(|(n, _)| n.as_str()).collect();
        assert!(
            names.contains(&"results.csv") && names.contains(&"README.md"),
            "{names:?}"
        );
        assert!(names.iter().any(|n| n.ends_with(".svg")), "{names:?}");
        let svg = &oa.iter().find(|(n, _)| n.ends_with(".svg")).unwrap().1;
        assert!(String::from_utf8_lossy(svg).contains("<svg"));
        // One CSV line per unit plus the header.
        let csv = String::from_utf8(
            oa.iter()
                .find(|(n, _)| n == "results.csv")
                .unwrap()
                .1
                .clone(),
        )
        .unwrap();
        assert_eq!(csv.lines().count(), total + 1);
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn reruns_resume_without_redoing_finished_units() {
    let dir = scratch("resume");
    let path = dir.join("results.jsonl");
    let name = "online-mistakes";
    let total = unit_count(name, Scale::Tiny).unwrap();
    let first = run_shard(
        name,
        Scale::Tiny,
        1,
        Shard::new(0, 2).unwrap(),
        &path,
        &mut |_, _| {},
    )
    .unwrap();
    assert_eq!(first, total.div_ceil(2));
    // Simulate an interruption: keep only the first finished line.
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.lines().next().unwrap().to_string() + "\n").unwrap();
    let mut seen = Vec::new();
    let rest = run_shard(
        name,
        Scale::Tiny,
        1,
        Shard::whole(),
        &path,
        &mut |done, all| seen.push((done, all)),
    )
    .unwrap();
    assert_eq!(rest, total - 1);
    assert_eq!(seen.first(), Some(&(1, total)));
    assert_eq!(seen.last(), Some(&(total, total)));
    assert_eq!(
        run_shard(name, Scale::Tiny, 1, Shard::whole(), &path, &mut |_, _| {}).unwrap(),
        0
    );
    assert_eq!(merge(name, Scale::Tiny, 1, &[path]).unwrap().len(), total);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A run killed while appending leaves a torn last line: resuming drops it, reruns its
/// unit and gives the outputs of an uninterrupted run; a whole last record without its
/// newline is kept; a bad line anywhere else is still an error.
#[test]
fn a_torn_last_line_is_dropped_and_its_unit_rerun() {
    let dir = scratch("torn");
    let name = "online-mistakes";
    let total = unit_count(name, Scale::Tiny).unwrap();
    let clean = dir.join("clean.jsonl");
    run_shard(name, Scale::Tiny, 1, Shard::whole(), &clean, &mut |_, _| {}).unwrap();
    let text = std::fs::read_to_string(&clean).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let expected = merge(name, Scale::Tiny, 1, std::slice::from_ref(&clean)).unwrap();
    // Two whole lines and half of the third, cut inside a multi-byte character if any.
    let path = dir.join("torn.jsonl");
    let third = lines[2].as_bytes();
    let mut torn = format!("{}\n{}\n", lines[0], lines[1]).into_bytes();
    torn.extend_from_slice(&third[..third.len() / 2]);
    std::fs::write(&path, &torn).unwrap();
    let repaired = repair_torn_tail(&path).unwrap();
    assert_eq!(
        repaired,
        Some(TornLine {
            line: 3,
            bytes: third.len() / 2
        })
    );
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        format!("{}\n{}\n", lines[0], lines[1])
    );
    std::fs::write(&path, &torn).unwrap();
    let ran = run_shard(name, Scale::Tiny, 1, Shard::whole(), &path, &mut |_, _| {}).unwrap();
    assert_eq!(ran, total - 2);
    assert_eq!(
        merge(name, Scale::Tiny, 1, std::slice::from_ref(&path)).unwrap(),
        expected
    );
    // A whole last record without its newline is kept (and gets the newline).
    let whole = dir.join("whole.jsonl");
    std::fs::write(&whole, format!("{}\n{}", lines[0], lines[1])).unwrap();
    assert_eq!(repair_torn_tail(&whole).unwrap(), None);
    let ran = run_shard(name, Scale::Tiny, 1, Shard::whole(), &whole, &mut |_, _| {}).unwrap();
    assert_eq!(ran, total - 2);
    assert_eq!(
        merge(name, Scale::Tiny, 1, std::slice::from_ref(&whole)).unwrap(),
        expected
    );
    // Corruption before the last line, or a bad last line that ends in a newline, stays
    // an error and the file is left alone.
    for bad in [
        format!("{}\n{{broken\n{}\n", lines[0], lines[1]),
        format!("{}\n{{broken\n", lines[0]),
    ] {
        let path = dir.join("bad.jsonl");
        std::fs::write(&path, &bad).unwrap();
        assert!(matches!(
            run_shard(name, Scale::Tiny, 1, Shard::whole(), &path, &mut |_, _| {}),
            Err(Error::BadResultsLine { line: 2, .. })
        ));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), bad);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn mixed_incomplete_or_conflicting_results_are_typed_errors() {
    let dir = scratch("errors");
    let name = "online-mistakes";
    let path = dir.join("results.jsonl");
    run_shard(
        name,
        Scale::Tiny,
        1,
        Shard::new(0, 2).unwrap(),
        &path,
        &mut |_, _| {},
    )
    .unwrap();
    assert!(matches!(
        merge(name, Scale::Tiny, 1, std::slice::from_ref(&path)),
        Err(Error::MissingUnits { .. })
    ));
    assert!(matches!(
        merge(name, Scale::Tiny, 2, std::slice::from_ref(&path)),
        Err(Error::MismatchedResults { .. })
    ));
    assert!(matches!(
        run_shard(name, Scale::Quick, 1, Shard::whole(), &path, &mut |_, _| {}),
        Err(Error::MismatchedResults { .. })
    ));
    // The same unit with a different row in another file.
    let text = std::fs::read_to_string(&path).unwrap();
    let mut record: UnitRecord = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    record.row.insert("mistakes".into(), serde_json::json!(999));
    let other = dir.join("other.jsonl");
    std::fs::write(&other, serde_json::to_string(&record).unwrap() + "\n").unwrap();
    assert!(matches!(
        merge(name, Scale::Tiny, 1, &[path.clone(), other]),
        Err(Error::ConflictingUnit { .. })
    ));
    let garbage = dir.join("garbage.jsonl");
    std::fs::write(&garbage, "{not json\n").unwrap();
    assert!(matches!(
        merge(name, Scale::Tiny, 1, &[garbage]),
        Err(Error::BadResultsLine { line: 1, .. })
    ));
    assert!(matches!(find("nope"), Err(Error::UnknownExperiment { .. })));
    assert!(matches!(Shard::new(3, 3), Err(Error::InvalidShard { .. })));
    assert!("1/0".parse::<Shard>().is_err() && "x".parse::<Shard>().is_err());
    assert_eq!("2/3".parse::<Shard>().unwrap(), Shard::new(2, 3).unwrap());
    assert!(matches!(
        "huge".parse::<Scale>(),
        Err(Error::UnknownScale { .. })
    ));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn unit_seeds_are_distinct_and_pinned_to_the_trial_streams() {
    use rand::Rng as _;
    assert_eq!(unit_seed(1, 0), privpac_toolkit::trial_rng(1, 0).next_u64());
    assert_ne!(unit_seed(1, 0), unit_seed(1, 1));
    assert_ne!(unit_seed(1, 0), unit_seed(2, 0));
}

#[test]
fn units_run_one_by_one_and_merged_in_memory_give_the_outputs_of_run_shard() {
    for info in EXPERIMENTS {
        let dir = scratch(&format!("memory-{}", info.name));
        let whole = dir.join("whole.jsonl");
        run_shard(
            info.name,
            Scale::Tiny,
            7,
            Shard::whole(),
            &whole,
            &mut |_, _| {},
        )
        .unwrap();
        let from_files = merge(info.name, Scale::Tiny, 7, std::slice::from_ref(&whole)).unwrap();
        let params = units(info.name, Scale::Tiny).unwrap();
        assert_eq!(params.len(), unit_count(info.name, Scale::Tiny).unwrap());
        // Run in reverse order (order must not matter) and merge in memory.
        let records: Vec<UnitRecord> = (0..params.len())
            .rev()
            .map(|u| run_unit(info.name, Scale::Tiny, 7, u).unwrap())
            .collect();
        // Each record is exactly the line run_shard wrote for that unit.
        let lines: Vec<String> = std::fs::read_to_string(&whole)
            .unwrap()
            .lines()
            .map(str::to_owned)
            .collect();
        for record in &records {
            assert_eq!(
                serde_json::to_string(record).unwrap(),
                lines[record.unit],
                "{} unit {}",
                info.name,
                record.unit
            );
            // The record's row repeats the unit's parameters.
            for (key, value) in &params[record.unit] {
                assert_eq!(record.row.get(key), Some(value), "{} {key}", info.name);
            }
        }
        let in_memory = merge_records(info.name, Scale::Tiny, 7, records).unwrap();
        assert_eq!(in_memory, from_files, "{}", info.name);
        write_outputs(info.name, Scale::Tiny, 7, &from_files, &dir.join("a")).unwrap();
        write_outputs(info.name, Scale::Tiny, 7, &in_memory, &dir.join("b")).unwrap();
        assert_eq!(
            outputs(&dir.join("a")),
            outputs(&dir.join("b")),
            "{}",
            info.name
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn in_memory_merges_check_like_file_merges() {
    let name = "online-mistakes";
    let total = unit_count(name, Scale::Tiny).unwrap();
    let records: Vec<UnitRecord> = (0..total)
        .map(|u| run_unit(name, Scale::Tiny, 1, u).unwrap())
        .collect();
    // Duplicates that agree are accepted.
    let mut doubled = records.clone();
    doubled.push(records[0].clone());
    assert_eq!(
        merge_records(name, Scale::Tiny, 1, doubled).unwrap().len(),
        total
    );
    assert!(matches!(
        merge_records(name, Scale::Tiny, 1, records[1..].to_vec()),
        Err(Error::MissingUnits {
            missing: 1,
            first: 0,
            ..
        })
    ));
    assert!(matches!(
        merge_records(name, Scale::Tiny, 2, records.clone()),
        Err(Error::MismatchedRecord { .. })
    ));
    assert!(matches!(
        merge_records(name, Scale::Quick, 1, records.clone()),
        Err(Error::MismatchedRecord { .. })
    ));
    assert!(matches!(
        merge_records("threshold-domain", Scale::Tiny, 1, records.clone()),
        Err(Error::MismatchedRecord { .. })
    ));
    let mut conflicting = records.clone();
    let mut changed = records[2].clone();
    changed
        .row
        .insert("mistakes".into(), serde_json::json!(999));
    conflicting.push(changed);
    assert!(matches!(
        merge_records(name, Scale::Tiny, 1, conflicting),
        Err(Error::ConflictingUnit { unit: 2 })
    ));
    let mut beyond = records[0].clone();
    beyond.unit = total;
    assert!(matches!(
        merge_records(name, Scale::Tiny, 1, [beyond]),
        Err(Error::UnitOutOfRange { .. })
    ));
    assert!(matches!(
        run_unit(name, Scale::Tiny, 1, total),
        Err(Error::UnitOutOfRange { unit, total: t }) if unit == total && t == total
    ));
    assert!(matches!(
        units("nope", Scale::Tiny),
        Err(Error::UnknownExperiment { .. })
    ));
}

/// Every committed experiment output (the quick ones and the full ones under
/// `docs/experiments/`) is what `write_outputs` makes of its committed rows today: a
/// change to the plots, tables or reports fails here until the figures are regenerated.
#[test]
fn committed_outputs_are_current_for_their_rows() {
    let docs = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/experiments");
    let mut checked = 0;
    for parent in [docs.clone(), docs.join("quick")] {
        for entry in std::fs::read_dir(&parent).unwrap() {
            let dir = entry.unwrap().path();
            let results = dir.join("results.json");
            if !results.is_file() {
                continue;
            }
            let json: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&results).unwrap()).unwrap();
            let name = json["experiment"].as_str().unwrap();
            let scale: Scale = serde_json::from_value(json["scale"].clone()).unwrap();
            let seed = json["seed"].as_u64().unwrap();
            let rows: Vec<Row> = serde_json::from_value(json["rows"].clone()).unwrap();
            let out = scratch(&format!("committed-{name}-{checked}"));
            write_outputs(name, scale, seed, &rows, &out).unwrap();
            for (file, bytes) in outputs(&out) {
                let committed = std::fs::read(dir.join(&file))
                    .unwrap_or_else(|_| panic!("{}: {file} is not committed", dir.display()));
                assert!(
                    committed == bytes,
                    "{}: {file} differs from what its rows give today (regenerate it)",
                    dir.display()
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 6, "only {checked} committed experiments found");
}
