//! Tests of experiment files: parsing and its errors, the unit limit, the catalogue's
//! `sample-complexity` experiment as a file, and a file sweep run, merged and written.

use super::*;
use crate::{Experiment, Shard};

const TINY: &str = r#"
name = "my-sweep"
learners = ["generic", "erm"]
beta = 0.2
search = { start = 2, max_size = 4096 }
figures = ["epsilon"]
classes = ["thresholds:16"]
trials = 4

[[grid]]
name = "epsilon"
epsilon = [1.0, 2.0]
alpha = [0.2]
"#;

fn bad(text: &str) -> (usize, String, String) {
    match Sweep::parse(text, "f.toml") {
        Err(Error::BadExperimentFile {
            line, key, message, ..
        }) => (line, key, message),
        other => panic!("expected a BadExperimentFile, got {other:?}"),
    }
}

#[test]
fn a_good_file_parses_into_its_settings_and_units() {
    let sweep = Sweep::parse(TINY, "f.toml").unwrap();
    assert_eq!(sweep.name, "my-sweep");
    assert_eq!(sweep.learners, ["generic", "erm"]);
    assert_eq!(
        sweep.settings(Scale::Quick),
        Settings {
            beta: 0.2,
            label_noise: 0.0,
            trials: 4,
            start: 2,
            max_size: 4096
        }
    );
    let units = sweep.units(Scale::Tiny);
    // Generic at ε = 1 and 2; ERM, which does not use ε, once (at the block's first ε).
    assert_eq!(units.len(), 3);
    assert_eq!(
        Value::Object(units[1].clone()),
        json!({"sweep": "epsilon", "class": "thresholds:16", "learner": "generic", "epsilon": 2.0, "alpha": 0.2})
    );
    assert_eq!(units[2]["learner"], "erm");
    assert_eq!(units[2]["epsilon"], 1.0);
    assert!(uses_epsilon("generic") && uses_epsilon("stable") && !uses_epsilon("erm"));
}

#[test]
fn an_unknown_key_is_named_with_its_line() {
    let text = TINY.replace("trials = 4", "trials = 4\ntrails = 5");
    let (line, key, message) = bad(&text);
    assert_eq!((line, key.as_str()), (9, "trails"), "{message}");
    // Inside a grid block too.
    let text = TINY.replace("alpha = [0.2]", "alpha = [0.2]\ndelta = 1e-6");
    let (line, key, _) = bad(&text);
    assert_eq!((line, key.as_str()), (14, "delta"));
    let err = Sweep::parse(&text, "f.toml").unwrap_err().to_string();
    assert!(err.contains("f.toml, line 14, key `delta`"), "{err}");
}

#[test]
fn a_bad_spec_or_value_is_named_with_its_key_and_line() {
    let (line, key, message) = bad(&TINY.replace("\"thresholds:16\"", "\"thresholdz:16\""));
    assert_eq!((line, key.as_str()), (7, "classes"));
    assert!(message.contains("thresholdz:16"), "{message}");
    let (line, key, message) = bad(&TINY.replace("\"erm\"", "\"genric\""));
    assert_eq!((line, key.as_str()), (3, "learners"));
    assert!(message.contains("genric"), "{message}");
    let (line, key, _) = bad(&TINY.replace("epsilon = [1.0, 2.0]", "epsilon = [1.0, -2.0]"));
    assert_eq!((line, key.as_str()), (12, "grid.epsilon"));
    let (line, key, _) = bad(&TINY.replace("beta = 0.2", "beta = 1.5"));
    assert_eq!((line, key.as_str()), (4, "beta"));
    let (line, key, _) = bad(&TINY.replace("figures = [\"epsilon\"]", "figures = [\"delta\"]"));
    assert_eq!((line, key.as_str()), (6, "figures"));
    // A wrong type: toml's own error, with its line.
    let (line, _, message) = bad(&TINY.replace("trials = 4", "trials = \"four\""));
    assert_eq!(line, 8, "{message}");
}

#[test]
fn a_grid_with_too_many_units_is_refused_before_running() {
    // 2 learners × 1 class × 600 ε × 1 α = 1200 units > the default limit of 1000.
    let many: Vec<String> = (1..=600).map(|i| format!("{i}.0")).collect();
    let text = TINY.replace("[1.0, 2.0]", &format!("[{}]", many.join(", ")));
    let (_, key, message) = bad(&text);
    assert_eq!(key, "max_units");
    assert!(message.contains("1200 units"), "{message}");
    // A stated limit is obeyed, and may not exceed MAX_UNITS.
    let (line, key, _) = bad(&format!("max_units = 3\n{TINY}"));
    assert_eq!((line, key.as_str()), (1, "max_units"));
    let (_, key, _) = bad(&format!("max_units = {}\n{TINY}", MAX_UNITS + 1));
    assert_eq!(key, "max_units");
    assert!(Sweep::parse(&format!("max_units = 4\n{TINY}"), "f.toml").is_ok());
}

/// The units the catalogue's `sample-complexity` experiment had before it was defined by
/// its file (the hand-written expansion, kept here as the reference).
fn old_catalogue_units(scale: Scale) -> Vec<Map<String, Value>> {
    let (epsilons, alphas): (&[f64], &[f64]) = match scale {
        Scale::Tiny => (&[1.0, 4.0], &[0.2]),
        Scale::Quick => (&[0.25, 0.5, 1.0, 2.0, 4.0], &[0.05, 0.1, 0.2, 0.4]),
        Scale::Full => (
            &[0.125, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0],
            &[0.025, 0.05, 0.1, 0.2, 0.4],
        ),
    };
    let size = if scale == Scale::Tiny { 64 } else { 1024 };
    let obj = |v: Value| v.as_object().cloned().unwrap();
    let mut units = Vec::new();
    for class in ["thresholds", "points"] {
        for learner in ["generic", "stable", "relabeling"] {
            for &epsilon in epsilons {
                units.push(obj(json!({"sweep": "epsilon", "class": format!("{class}:{size}"), "learner": learner, "epsilon": epsilon, "alpha": 0.1})));
            }
            for &alpha in alphas {
                units.push(obj(json!({"sweep": "alpha", "class": format!("{class}:{size}"), "learner": learner, "epsilon": 1.0, "alpha": alpha})));
            }
        }
    }
    units
}

#[test]
fn the_shipped_sample_complexity_file_expands_into_the_catalogue_units() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("experiments")
        .join("sample-complexity.toml");
    let from_file = Experiment::from_file(&path).unwrap();
    let catalogue = Experiment::named("sample-complexity").unwrap();
    assert_eq!(from_file.name(), "sample-complexity");
    for scale in [Scale::Tiny, Scale::Quick, Scale::Full] {
        assert_eq!(
            from_file.units(scale),
            old_catalogue_units(scale),
            "{scale}"
        );
        assert_eq!(
            catalogue.units(scale),
            old_catalogue_units(scale),
            "{scale}"
        );
    }
    // The settings the catalogue used: β = 0.1, trials 8 / 50 / 200, search 4 … 2^22.
    let sweep = Sweep::read(&path).unwrap();
    for (scale, trials) in [(Scale::Tiny, 8), (Scale::Quick, 50), (Scale::Full, 200)] {
        assert_eq!(
            sweep.settings(scale),
            Settings {
                beta: 0.1,
                label_noise: 0.0,
                trials,
                start: 4,
                max_size: 1 << 22
            }
        );
    }
    // The same records, unit by unit (tiny scale, first and last unit).
    let last = catalogue.units(Scale::Tiny).len() - 1;
    for unit in [0, last] {
        assert_eq!(
            from_file.run_unit(Scale::Tiny, 3, unit).unwrap(),
            crate::run_unit("sample-complexity", Scale::Tiny, 3, unit).unwrap()
        );
    }
    // A file with the catalogue's name but another grid is refused.
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("trials = 8", "trials = 9");
    let other = Sweep::parse(&text, "x.toml").unwrap();
    assert!(matches!(
        Experiment::from_sweep(other, "x.toml"),
        Err(Error::NameTaken { .. })
    ));
}

/// The units the catalogue's `threshold-domain` experiment had before it was defined by its
/// file (the hand-written expansion, kept here as the reference).
fn old_threshold_domain_units(scale: Scale) -> Vec<Map<String, Value>> {
    let exponents: Vec<u32> = match scale {
        Scale::Tiny => vec![4, 40],
        _ => (1..=10).map(|k| 4 * k).collect(),
    };
    let mut units = Vec::new();
    for learner in ["generic", "erm"] {
        for &k in &exponents {
            units.push(json!({"class": format!("thresholds:{}", 1u64 << k), "log2_domain": k, "learner": learner, "epsilon": 1.0, "alpha": 0.05, "zipf_exponent": 2.0, "target": 1}).as_object().cloned().unwrap());
        }
    }
    units
}

#[test]
fn the_shipped_threshold_domain_file_expands_into_the_catalogue_units() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("experiments")
        .join("threshold-domain.toml");
    let from_file = Experiment::from_file(&path).unwrap();
    let catalogue = Experiment::named("threshold-domain").unwrap();
    for scale in [Scale::Tiny, Scale::Quick, Scale::Full] {
        assert_eq!(
            from_file.units(scale),
            old_threshold_domain_units(scale),
            "{scale}"
        );
        assert_eq!(
            catalogue.units(scale),
            old_threshold_domain_units(scale),
            "{scale}"
        );
    }
    let sweep = Sweep::read(&path).unwrap();
    for (scale, trials) in [(Scale::Tiny, 8), (Scale::Quick, 50), (Scale::Full, 200)] {
        assert_eq!(
            sweep.settings(scale),
            Settings {
                beta: 0.1,
                label_noise: 0.0,
                trials,
                start: 4,
                max_size: 1 << 22
            }
        );
    }
    assert_eq!(
        from_file.run_unit(Scale::Tiny, 3, 3).unwrap(),
        crate::run_unit("threshold-domain", Scale::Tiny, 3, 3).unwrap()
    );
}

#[test]
fn shipped_files_summarize_their_experiment_as_the_catalogue_does() {
    for name in [
        "sample-complexity",
        "threshold-domain",
        "interior-point-domain",
    ] {
        let info = crate::find(name).unwrap();
        assert_eq!(
            crate::catalog::sweep_of(name).unwrap().summary,
            info.summary
        );
    }
}

#[test]
fn domains_order_and_zipf_are_checked() {
    let both = TINY.replace(
        "trials = 4",
        "trials = 4\ndomains = { family = \"thresholds\", log2 = [3] }",
    );
    let (line, key, _) = bad(&both);
    assert_eq!((line, key.as_str()), (9, "domains"));
    let (_, key, message) = bad(&TINY.replace(
        "classes = [\"thresholds:16\"]",
        // 64 is the largest ordered domain, 2^64 − 1 points; above it nothing is.
        "domains = { family = \"thresholds\", log2 = [65] }",
    ));
    assert_eq!(key, "domains", "{message}");
    let (line, key, _) = bad(&format!("order = \"class\"\n{TINY}"));
    assert_eq!((line, key.as_str()), (1, "order"));
    let (line, key, _) = bad(&format!("zipf = {{ exponent = 0.5, target = 1 }}\n{TINY}"));
    assert_eq!((line, key.as_str()), (1, "zipf.exponent"));
    let sweep = Sweep::parse(
        &format!(
            "order = \"learner,class\"\nzipf = {{ exponent = 2.0, target = 1 }}\n{}",
            TINY.replace(
                "classes = [\"thresholds:16\"]",
                "domains = { family = \"thresholds\", log2 = [3, 5] }"
            )
        ),
        "f.toml",
    )
    .unwrap();
    let units = sweep.units(Scale::Tiny);
    // Generic at two ε on two domains, ERM (which does not use ε) at one ε on each.
    assert_eq!(units.len(), 6);
    assert_eq!(
        Value::Object(units[1].clone()),
        json!({"sweep": "epsilon", "class": "thresholds:8", "log2_domain": 3, "learner": "generic", "epsilon": 2.0, "alpha": 0.2, "zipf_exponent": 2.0, "target": 1})
    );
    assert_eq!(units[2]["class"], "thresholds:32");
    assert_eq!(units[4]["learner"], "erm");
}

/// The `distribution` key: uniform or point mass with a chosen target, or Zipf as the
/// `zipf` key; its columns reach the units and the unit runs on that scenario.
#[test]
fn the_distribution_key_chooses_the_distribution_and_target() {
    let with = |d: &str| Sweep::parse(&format!("distribution = {d}\n{TINY}"), "f.toml");
    let uniform = with("{ kind = \"uniform\", target = 3 }").unwrap();
    assert_eq!(
        uniform.distribution,
        Some(FileDistribution::Uniform { target: Some(3) })
    );
    let units = uniform.units(Scale::Tiny);
    assert_eq!(units[0]["distribution"], "uniform");
    assert_eq!(units[0]["target"], 3);
    let point = with("{ kind = \"point\", mass = 0.25 }").unwrap();
    let units = point.units(Scale::Tiny);
    assert_eq!(units[0]["distribution"], "point");
    assert_eq!(units[0]["point_mass"], 0.25);
    assert!(units[0].get("target").is_none());
    let zipf = with("{ kind = \"zipf\", exponent = 2.0, target = 5 }").unwrap();
    assert_eq!(zipf.zipf, Some((2.0, 5)));
    assert_eq!(zipf.distribution, None);
    assert_eq!(zipf.units(Scale::Tiny)[0]["zipf_exponent"], 2.0);
    // The unit runs on the file's scenario: on thresholds:16 with target 3 (labels 1 on
    // x <= 3) the erm unit's row differs from the default target's (8), and the heavy point
    // changes the generic learner's row.
    let run = |sweep: &Sweep, unit: usize| {
        let exp = Experiment::from_sweep(sweep.clone(), "f.toml").unwrap();
        exp.run_unit(Scale::Tiny, 7, unit).unwrap().row
    };
    let plain = Sweep::parse(TINY, "f.toml").unwrap();
    let (a, b) = (run(&uniform, 2), run(&plain, 2));
    assert_eq!(a["learner"], "erm");
    assert_eq!(a["target"], 3);
    assert_ne!(a["mean_error"], b["mean_error"], "{a:?}");
    let heavy = run(&point, 0);
    assert_eq!(heavy["point_mass"], 0.25);
    assert_ne!(heavy["mean_error"], run(&plain, 0)["mean_error"]);
    // A target outside the class is the unit's error.
    let outside = with("{ kind = \"point\", mass = 0.5, target = 99 }").unwrap();
    let exp = Experiment::from_sweep(outside, "f.toml").unwrap();
    assert!(exp.run_unit(Scale::Tiny, 7, 0).is_err());
    // Bad keys are named with their line.
    for (d, key) in [
        ("{ kind = \"gauss\" }", "distribution.kind"),
        ("{ kind = \"point\" }", "distribution.mass"),
        ("{ kind = \"point\", mass = 1.5 }", "distribution.mass"),
        ("{ kind = \"uniform\", mass = 0.5 }", "distribution.mass"),
        (
            "{ kind = \"uniform\", exponent = 2.0 }",
            "distribution.exponent",
        ),
        (
            "{ kind = \"zipf\", exponent = 1.0 }",
            "distribution.exponent",
        ),
        ("{ kind = \"uniform\", seed = 1 }", "seed"),
    ] {
        let (line, found, message) = bad(&format!("distribution = {d}\n{TINY}"));
        assert_eq!((line, found.as_str()), (1, key), "{d}: {message}");
    }
    let (_, key, _) = bad(&format!(
        "zipf = {{ exponent = 2.0, target = 1 }}\ndistribution = {{ kind = \"uniform\" }}\n{TINY}"
    ));
    assert_eq!(key, "distribution");
}

#[test]
fn a_file_sweep_runs_sharded_merges_and_writes_its_outputs() {
    let dir = std::env::temp_dir().join(format!("privpac-sweep-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let exp = Experiment::from_sweep(Sweep::parse(TINY, "f.toml").unwrap(), "f.toml").unwrap();
    let shards: Vec<std::path::PathBuf> = (0..2)
        .map(|i| {
            let path = dir.join(format!("s{i}.jsonl"));
            exp.run_shard(
                Scale::Tiny,
                7,
                Shard::new(i, 2).unwrap(),
                &path,
                &mut |_, _| {},
            )
            .unwrap();
            path
        })
        .collect();
    let rows = exp.merge(Scale::Tiny, 7, &shards).unwrap();
    // Generic at ε = 1 and 2, ERM once (it does not use ε).
    assert_eq!(rows.len(), 3);
    for row in &rows {
        assert_eq!(row["trials"], 4);
        assert_eq!(row["beta"], 0.2);
        assert!(
            row["sample_size"].as_u64().is_some_and(|n| n >= 2),
            "{row:?}"
        );
    }
    let written = exp
        .write_outputs(Scale::Tiny, 7, &rows, &dir.join("out"))
        .unwrap();
    let names: Vec<String> = written
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names,
        [
            "results.csv",
            "results.json",
            "sample-complexity-vs-epsilon.svg",
            "README.md"
        ]
    );
    let report = std::fs::read_to_string(dir.join("out").join("README.md")).unwrap();
    assert!(report.contains("# Experiment `my-sweep`"), "{report}");
    // ERM is not fitted against ε; the generic learner is.
    let fit = |learner: &str| {
        report
            .lines()
            .find(|l| l.starts_with(&format!("- `thresholds:16`, {learner}:")))
            .unwrap_or_else(|| panic!("no fit line for {learner}: {report}"))
            .to_owned()
    };
    assert!(
        fit("erm").contains("against ε: none (it does not use ε"),
        "{report}"
    );
    assert!(!fit("generic").contains("does not use ε"), "{report}");
    // No temporary files left behind.
    assert_eq!(std::fs::read_dir(dir.join("out")).unwrap().count(), 4);
    // An edited file with the same name does not mix its units with the old results: its
    // merge refuses them, its resume drops them and runs their units again.
    let edited = Experiment::from_sweep(
        Sweep::parse(&TINY.replace("[1.0, 2.0]", "[1.0, 3.0]"), "f.toml").unwrap(),
        "f.toml",
    )
    .unwrap();
    let err = edited.merge(Scale::Tiny, 7, &shards).unwrap_err();
    assert!(
        matches!(&err, Error::StaleRecord { key, .. } if key == "epsilon"),
        "{err}"
    );
    let ran = edited
        .run_shard(Scale::Tiny, 7, Shard::whole(), &shards[1], &mut |_, _| {})
        .unwrap();
    assert_eq!(ran, 3, "unit 1 was stale, 0 and 2 absent");
    // Records of a file sweep are refused by another experiment's merge.
    assert!(crate::merge("sample-complexity", Scale::Tiny, 7, &shards).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The error of `result`, or a panic naming what came instead.
fn error_of<T: std::fmt::Debug>(result: Result<T>) -> (usize, String, String) {
    match result {
        Err(Error::BadExperimentFile {
            line, key, message, ..
        }) => (line, key, message),
        other => panic!("expected a BadExperimentFile, got {other:?}"),
    }
}

#[test]
fn a_file_whose_full_level_is_broken_runs_at_the_quick_and_tiny_scales() {
    let text = format!("{TINY}\n[scale.full]\ntrials = 0\n");
    // Checking every scale names the broken one.
    let (_, key, message) = bad(&text);
    assert_eq!(key, "trials");
    assert!(message.starts_with("in the full scale: "), "{message}");
    for scale in [Scale::Tiny, Scale::Quick] {
        let sweep = Sweep::parse_for(&text, "f.toml", scale).unwrap();
        assert_eq!(sweep.units(scale).len(), 3);
        assert_eq!(sweep.settings(scale).trials, 4);
        sweep.check_scale(scale).unwrap();
        let broken = sweep.broken_scales();
        assert_eq!(broken.len(), 1);
        assert_eq!(broken[0].0, Scale::Full);
        assert!(broken[0].1.contains("in the full scale"), "{broken:?}");
        // The broken scale is refused with its own error, not run as empty.
        let (line, key, message) = error_of(sweep.check_scale(Scale::Full));
        assert_eq!((line, key.as_str()), (text.lines().count(), "trials"));
        assert!(message.starts_with("in the full scale: "), "{message}");
    }
    // A run at the full scale is refused.
    let (_, _, message) = error_of(Sweep::parse_for(&text, "f.toml", Scale::Full));
    assert!(message.starts_with("in the full scale: "), "{message}");
}

#[test]
fn an_error_in_the_quick_level_names_the_quick_scale() {
    let text = format!("{TINY}\n[scale.quick]\nclasses = [\"thresholds:x\"]\n");
    for result in [
        Sweep::parse(&text, "f.toml"),
        Sweep::parse_for(&text, "f.toml", Scale::Quick),
    ] {
        let (_, key, message) = error_of(result);
        assert_eq!(key, "classes");
        assert!(message.starts_with("in the quick scale: "), "{message}");
    }
    // A level missing a key says which scale lacks it.
    let text = format!(
        "{}\n[scale.tiny]\ntrials = 4\n",
        TINY.replace("trials = 4\n", "")
    );
    let (_, key, message) = error_of(Sweep::parse_for(&text, "f.toml", Scale::Quick));
    assert_eq!(key, "trials");
    assert!(
        message.starts_with("in the quick scale: missing"),
        "{message}"
    );
    // The same file runs at the tiny scale, whose table gives the trials.
    let sweep = Sweep::parse_for(&text, "f.toml", Scale::Tiny).unwrap();
    assert_eq!(sweep.settings(Scale::Tiny).trials, 4);
    // A grid too large for max_units at the quick scale only (the limit counts 2 × 2
    // units at the other scales, 3 × 2 at the quick one).
    let text = format!(
        "max_units = 4\n{TINY}\n[[scale.quick.grid]]\nepsilon = [1.0, 2.0, 4.0]\nalpha = [0.2]\n"
    );
    let (_, key, message) = error_of(Sweep::parse_for(&text, "f.toml", Scale::Quick));
    assert_eq!(key, "max_units");
    assert!(message.starts_with("in the quick scale: "), "{message}");
    assert_eq!(
        Sweep::parse_for(&text, "f.toml", Scale::Tiny)
            .unwrap()
            .units(Scale::Tiny)
            .len(),
        3
    );
}

#[test]
fn an_experiment_read_for_one_scale_refuses_to_run_a_broken_one() {
    let dir = std::env::temp_dir().join(format!("privpac-broken-scale-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("sweep.toml");
    std::fs::write(&path, format!("{TINY}\n[scale.full]\ntrials = 0\n")).unwrap();
    let (_, _, message) = error_of(Experiment::from_file(&path));
    assert!(message.starts_with("in the full scale: "), "{message}");
    let experiment = Experiment::from_file_for(&path, Scale::Tiny).unwrap();
    assert_eq!(experiment.units(Scale::Tiny).len(), 3);
    assert_eq!(experiment.broken_scales().len(), 1);
    let (_, _, message) = error_of(experiment.run_unit(Scale::Full, 1, 0));
    assert!(message.starts_with("in the full scale: "), "{message}");
    let results = dir.join("units.jsonl");
    let (_, _, message) =
        error_of(experiment.run_shard_with(Scale::Full, 1, Shard::whole(), &results, &mut |_| {}));
    assert!(message.starts_with("in the full scale: "), "{message}");
    assert!(!results.exists(), "refused before anything runs");
    let (_, _, message) = error_of(experiment.merge(Scale::Full, 1, &[]));
    assert!(message.starts_with("in the full scale: "), "{message}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `delta` reaches only the learners that take it, is refused without one and out of
/// range; the (ε, δ) learners are refused without it; `max_log2_domain` drops a learner's
/// units above its cap and must name a file's learner; `log2 = 64` is 2^64 − 1 points.
#[test]
fn delta_applies_to_the_approximate_learners_only() {
    let text = TINY
        .replace(
            "[\"generic\", \"erm\"]",
            "[\"generic\", \"interior-point\"]",
        )
        .replace("beta = 0.2", "beta = 0.2\ndelta = 1e-6");
    let sweep = Sweep::parse(&text, "f.toml").unwrap();
    assert_eq!(sweep.delta, 1e-6);
    let units = sweep.units(Scale::Tiny);
    assert_eq!(units.len(), 4);
    for unit in &units {
        let approximate = unit["learner"] == "interior-point";
        assert_eq!(unit.get("delta").is_some(), approximate, "{unit:?}");
        if approximate {
            assert_eq!(unit["delta"], 1e-6);
        }
    }
    // Without delta, interior-point is refused at its line; delta without an (ε, δ)
    // learner, or out of range, is refused at its own.
    let (line, key, message) = bad(&text.replace("\ndelta = 1e-6", ""));
    assert_eq!((line, key.as_str()), (3, "learners"), "{message}");
    assert!(message.contains("`delta`"), "{message}");
    let (line, key, message) = bad(&TINY.replace("beta = 0.2", "beta = 0.2\ndelta = 1e-6"));
    assert_eq!((line, key.as_str()), (5, "delta"), "{message}");
    for value in ["0.0", "1.0", "-1e-6"] {
        let (_, key, _) = bad(&text.replace("delta = 1e-6", &format!("delta = {value}")));
        assert_eq!(key, "delta", "{value}");
    }
}

#[test]
fn max_log2_domain_caps_a_learners_units_on_the_domains_axis() {
    let text = TINY
        .replace(
            "classes = [\"thresholds:16\"]",
            "domains = { family = \"thresholds\", log2 = [4, 40, 64] }\nmax_log2_domain = { \"generic\" = 40 }",
        )
        .replace("figures = [\"epsilon\"]", "figures = [\"log2_domain\"]");
    let sweep = Sweep::parse(&text, "f.toml").unwrap();
    let units = sweep.units(Scale::Tiny);
    let of = |learner: &str| -> Vec<u64> {
        units
            .iter()
            .filter(|u| u["learner"] == learner)
            .map(|u| u["log2_domain"].as_u64().unwrap())
            .collect()
    };
    // Generic at two ε per size up to 2^40; ERM (one ε) at every size.
    assert_eq!(of("generic"), [4, 4, 40, 40]);
    assert_eq!(of("erm"), [4, 40, 64]);
    let last = units.iter().find(|u| u["log2_domain"] == 64).unwrap();
    assert_eq!(last["class"], format!("thresholds:{}", u64::MAX));
    let (_, key, message) = bad(&text.replace("\"generic\" = 40", "\"stable\" = 40"));
    assert_eq!(key, "max_log2_domain", "{message}");
    // A cap needs the domains axis.
    let (_, key, _) = bad(&TINY.replace(
        "trials = 4",
        "trials = 4\nmax_log2_domain = { \"generic\" = 40 }",
    ));
    assert_eq!(key, "max_log2_domain");
}
