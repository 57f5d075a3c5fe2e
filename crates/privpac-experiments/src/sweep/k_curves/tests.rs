//! Tests of k-curves experiment files: the shipped `k-curves.toml` gives the catalogue's
//! old hand-written units at every scale and reproduces committed rows, bad files are
//! named by key and line, and a user's k-curves file runs and writes its outputs.

use super::*;
use crate::{Experiment, Row};

/// The catalogue's hand-written `k-curves` units before the experiment became a file
/// (ids, specs and totals of the old `CURVES` table; k lists of the old `units`).
fn old_units(scale: Scale) -> Vec<Map<String, Value>> {
    const CURVES: [(&str, &str, f64, f64); 8] = [
        ("parity", "parity", 1.0, 1e-6),
        ("point", "point", 1.0, 1e-6),
        ("direct-sum pure", "direct-sum:generic", 1.0, 0.0),
        ("direct-sum approximate", "direct-sum:generic", 1.0, 1e-6),
        ("generic:mwem", "generic:mwem", 1.0, 0.0),
        ("generic:pmw", "generic:pmw", 1.0, 1e-6),
        (
            "direct-sum improper-point",
            "direct-sum:improper-point",
            1.0,
            0.0,
        ),
        (
            "direct-sum approximate, advanced split",
            "direct-sum:generic",
            1.0,
            1e-6,
        ),
    ];
    let ks: &[usize] = match scale {
        Scale::Tiny => &[1, 2],
        Scale::Quick => &[1, 4, 16, 64],
        Scale::Full => &[1, 4, 16, 64, 256, 1024],
    };
    let mut units = Vec::new();
    for (id, spec, epsilon, delta) in CURVES {
        for &k in ks {
            let Value::Object(unit) = json!({"curve": id, "learner": spec, "k": k,
                "epsilon": epsilon, "delta": delta})
            else {
                unreachable!()
            };
            units.push(unit);
        }
    }
    units
}

/// The units of the curves added after the catalogue became a file, in file order (after
/// the old units, which keep their indices): Corollary 3.10 with the quantile sanitizer.
fn new_units(scale: Scale) -> Vec<Map<String, Value>> {
    let ks: &[usize] = match scale {
        Scale::Tiny => &[1, 2],
        Scale::Quick => &[1, 4, 16, 64],
        Scale::Full => &[1, 4, 16, 64, 256, 1024],
    };
    ks.iter()
        .map(|&k| {
            let Value::Object(unit) = json!({"curve": "generic:treelog-quantiles",
                "learner": "generic:treelog-quantiles", "k": k, "epsilon": 1.0, "delta": 1e-6})
            else {
                unreachable!()
            };
            unit
        })
        .collect()
}

#[test]
fn the_shipped_k_curves_file_expands_into_the_old_catalogue_units() {
    let experiment = Experiment::named("k-curves").unwrap();
    for scale in [Scale::Tiny, Scale::Quick, Scale::Full] {
        let units = experiment.units(scale);
        let old = old_units(scale);
        assert_eq!(units[..old.len()], old[..], "scale {scale}");
        assert_eq!(units[old.len()..], new_units(scale)[..], "scale {scale}");
        let trials = match scale {
            Scale::Tiny => 4,
            Scale::Quick => 20,
            Scale::Full => 50,
        };
        let level = crate::catalog::k_curves_sweep_of("k-curves")
            .unwrap()
            .level(scale);
        assert_eq!(level.trials, trials);
        let max = if scale == Scale::Tiny {
            1 << 16
        } else {
            1 << 22
        };
        assert_eq!((level.start, level.max_size), (16, max));
    }
    // The shipped file read as a user file is the catalogue experiment itself.
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/k-curves.toml");
    let from_file = Experiment::from_file(&path).unwrap();
    assert_eq!(from_file.name(), "k-curves");
    assert_eq!(from_file.default_seed(), None);
    let mut all = old_units(Scale::Quick);
    all.extend(new_units(Scale::Quick));
    assert_eq!(from_file.units(Scale::Quick), all);
}

/// Every curve's k = 1 unit (and k = 4 of the two approximate direct sums, whose splits
/// differ) at the quick scale, run from the file, equals the committed row value for value:
/// scenario, learner, split, search and table cell are the old ones.
#[test]
fn the_shipped_k_curves_file_reproduces_committed_quick_rows() {
    let results = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../docs/experiments/quick/k-curves/results.json");
    let json: Value = serde_json::from_str(&std::fs::read_to_string(results).unwrap()).unwrap();
    let seed = json["seed"].as_u64().unwrap();
    let rows: Vec<Row> = serde_json::from_value(json["rows"].clone()).unwrap();
    let experiment = Experiment::named("k-curves").unwrap();
    let units = experiment.units(Scale::Quick);
    let mut checked = 0;
    for (i, unit) in units.iter().enumerate() {
        let k = unit["k"].as_u64().unwrap();
        let curve = unit["curve"].as_str().unwrap();
        if k == 1 || (k == 4 && curve.starts_with("direct-sum approximate")) {
            let record = experiment.run_unit(Scale::Quick, seed, i).unwrap();
            assert_eq!(record.row, rows[i], "unit {i} ({curve}, k = {k})");
            checked += 1;
        }
    }
    assert_eq!(checked, 11);
}

const TINY: &str = r#"
kind = "k-curves"
name = "my-k-curves"
alpha = 0.2
beta = 0.2
search = { start = 4, max_size = 4096 }
k = [1, 2]
trials = 4

[[curve]]
id = "pure sum"
learner = "direct-sum:generic"
epsilon = 2.0
delta = 0.0
scenario = { class = "points:16", support = [1, 5, 9], weights = [0.5, 0.3, 0.2] }
table = { class = "POINT_X", privacy = "pure" }
"#;

fn bad(text: &str) -> (usize, String, String) {
    match KCurveSweep::parse(text, "f.toml") {
        Err(Error::BadExperimentFile {
            line, key, message, ..
        }) => (line, key, message),
        other => panic!("expected a BadExperimentFile, got {other:?}"),
    }
}

#[test]
fn bad_k_curves_files_name_the_key_and_line() {
    let sweep = KCurveSweep::parse(TINY, "f.toml").unwrap();
    assert_eq!(sweep.units(Scale::Full).len(), 2);
    let (line, key, _) = bad(&TINY.replace("delta = 0.0", "delta = 0.0\ncolour = 1"));
    assert_eq!((line, key.as_str()), (15, "colour"));
    let (line, key, message) = bad(&TINY.replace("direct-sum:generic", "direct-sum:nope"));
    assert_eq!((line, key.as_str()), (12, "curve.learner"), "{message}");
    let (line, key, message) = bad(&TINY.replace("\"POINT_X\"", "\"POINTS\""));
    assert_eq!((line, key.as_str()), (16, "curve.table"), "{message}");
    let (line, key, _) = bad(&TINY.replace("privacy = \"pure\"", "privacy = \"both\""));
    assert_eq!((line, key.as_str()), (16, "curve.table.privacy"));
    let (line, key, message) = bad(&TINY.replace("[1, 5, 9]", "[1, 5, 99]"));
    assert_eq!((line, key.as_str()), (15, "curve.scenario"), "{message}");
    let (line, key, _) = bad(&TINY.replace("weights = [0.5, 0.3, 0.2]", "target_seed = 3"));
    assert_eq!((line, key.as_str()), (15, "curve.scenario"));
    let (line, key, _) = bad(&TINY.replace("k = [1, 2]", "k = [0, 2]"));
    assert_eq!((line, key.as_str()), (7, "k"));
    let (line, key, _) = bad(&TINY.replace(
        "learner = \"direct-sum:generic\"",
        "learner = \"parity\"\nsplit = \"advanced\"",
    ));
    assert_eq!((line, key.as_str()), (13, "curve.split"));
    let twice = format!("{TINY}\n{}", &TINY[TINY.find("[[curve]]").unwrap()..]);
    let (line, key, _) = bad(&twice);
    assert_eq!((line, key.as_str()), (19, "curve.id"));
    let (line, key, message) = bad(&TINY.replace("trials = 4", "trials = 4\nmax_units = 1"));
    assert_eq!((line, key.as_str()), (9, "max_units"), "{message}");
    // A kind no parser reads is named in a sample-complexity file too.
    let text = format!(
        "kind = \"k-curve\"\n{}",
        crate::catalog::SAMPLE_COMPLEXITY_FILE
    );
    match crate::Sweep::parse(&text, "f.toml") {
        Err(Error::BadExperimentFile { line, key, .. }) => {
            assert_eq!((line, key.as_str()), (1, "kind"))
        }
        other => panic!("expected a BadExperimentFile, got {other:?}"),
    }
}

#[test]
fn a_user_k_curves_file_runs_and_writes_its_outputs() {
    let dir = std::env::temp_dir().join(format!("privpac-k-curves-file-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("my.toml");
    std::fs::write(&path, TINY).unwrap();
    let experiment = Experiment::from_file(&path).unwrap();
    assert_eq!(experiment.name(), "my-k-curves");
    let rows: Vec<Row> = (0..2)
        .map(|i| experiment.run_unit(Scale::Quick, 3, i).unwrap().row)
        .collect();
    for (row, k) in rows.iter().zip([1, 2]) {
        assert_eq!(row["k"], json!(k));
        assert_eq!(row["trials"], json!(4));
        assert!(
            row["sample_size"].as_u64().is_some_and(|n| n >= 4),
            "{row:?}"
        );
        assert_eq!(
            row["table_entry"]
                .as_str()
                .map(|e| e.starts_with("POINT_X, pure")),
            Some(true)
        );
        assert!(row["composition"].as_str().is_some());
    }
    let out = dir.join("out");
    let written = experiment
        .write_outputs(Scale::Quick, 3, &rows, &out)
        .unwrap();
    assert!(
        written
            .iter()
            .any(|p| p.ends_with("sample-complexity-vs-k.svg"))
    );
    let report = std::fs::read_to_string(out.join("README.md")).unwrap();
    assert!(
        report.contains("| pure sum | direct-sum:generic | (2, 0) | points:16 on [1, 5, 9]"),
        "{report}"
    );
    assert!(report.contains("## Fitted exponents"));
    // A catalogue name with another definition is refused.
    std::fs::write(&path, TINY.replace("my-k-curves", "k-curves")).unwrap();
    assert!(matches!(
        Experiment::from_file(&path),
        Err(Error::NameTaken { .. })
    ));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_k_curves_file_whose_full_level_is_broken_runs_at_the_quick_scale() {
    let text = format!("{TINY}\n[scale.full]\nk = [0]\n");
    let (_, key, message) = bad(&text);
    assert_eq!(key, "k");
    assert!(message.starts_with("in the full scale: "), "{message}");
    let sweep = KCurveSweep::parse_for(&text, "f.toml", Scale::Quick).unwrap();
    assert_eq!(sweep.units(Scale::Quick).len(), 2);
    assert_eq!(sweep.broken_scales()[0].0, Scale::Full);
    assert!(sweep.check_scale(Scale::Full).is_err());
    // An error in the quick level names the quick scale.
    let text = format!("{TINY}\n[scale.quick]\ntrials = 0\n");
    match KCurveSweep::parse_for(&text, "f.toml", Scale::Quick) {
        Err(Error::BadExperimentFile { key, message, .. }) => {
            assert_eq!(key, "trials");
            assert!(message.starts_with("in the quick scale: "), "{message}");
        }
        other => panic!("expected a BadExperimentFile, got {other:?}"),
    }
}
