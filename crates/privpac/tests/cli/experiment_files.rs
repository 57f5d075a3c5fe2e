//! `privpac experiment run FILE.toml`: an experiment file run whole, sharded and merged,
//! resumed, and the shipped sample-complexity and threshold-domain files giving the
//! catalogue's outputs; bad files are one-line errors naming the key and the line.

use super::*;

const TINY: &str = r#"name = "cli-sweep"
seed = 4
learners = ["generic"]
beta = 0.2
search = { start = 2, max_size = 4096 }
figures = ["epsilon"]
classes = ["thresholds:16"]
trials = 4

[[grid]]
name = "epsilon"
epsilon = [1.0, 2.0, 4.0]
alpha = [0.2]
"#;

fn dir_bytes(dir: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .expect("the output directory exists")
        .map(|e| {
            let e = e.expect("a readable directory entry");
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).expect("a readable output file"),
            )
        })
        .filter(|(name, _)| !name.ends_with(".jsonl"))
        .collect();
    files.sort();
    files
}

#[test]
fn an_experiment_file_runs_whole_or_sharded_to_the_same_outputs() {
    let root = std::env::temp_dir().join(format!("privpac-expfile-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).unwrap();
    let path = |name: &str| root.join(name).to_string_lossy().into_owned();
    std::fs::write(root.join("sweep.toml"), TINY).unwrap();
    let file = path("sweep.toml");
    let run = |extra: &[&str]| {
        let mut args = vec!["experiment", "run", &file, "--scale", "tiny", "--json"];
        args.extend_from_slice(extra);
        let output = privpac(&args);
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        serde_json::from_str::<Value>(&stdout(&output)).unwrap()
    };
    let whole = run(&["--out", &path("whole")]);
    assert_eq!(whole["experiment"], "cli-sweep");
    assert_eq!(whole["seed"], 4, "the file's seed");
    assert_eq!(whole["units_run"], 3);
    // A rerun resumes: nothing left to run.
    assert_eq!(run(&["--out", &path("whole")])["units_run"], 0);
    let mut files = Vec::new();
    for shard in ["0/2", "1/2"] {
        let report = run(&["--out", &path("shards"), "--shard", shard]);
        assert_eq!(report["outputs"], serde_json::json!([]));
        files.push(report["results_files"][0].as_str().unwrap().to_string());
    }
    let mut merge = vec![
        "experiment",
        "merge",
        &file,
        "--scale",
        "tiny",
        "--out",
        root.to_str().unwrap(),
    ];
    let merged_dir = path("merged");
    merge[6] = &merged_dir;
    merge.extend(files.iter().map(String::as_str));
    let output = privpac(&merge);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let a = dir_bytes(&root.join("whole"));
    assert_eq!(a, dir_bytes(&root.join("merged")));
    let names: Vec<&str> = a.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "README.md",
            "results.csv",
            "results.json",
            "sample-complexity-vs-epsilon.svg"
        ]
    );
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn the_shipped_files_give_the_catalogue_outputs() {
    for name in [
        "sample-complexity",
        "threshold-domain",
        "interior-point-domain",
        "k-curves",
    ] {
        let root =
            std::env::temp_dir().join(format!("privpac-expfile-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let file = format!(
            "{}/../privpac-experiments/experiments/{name}.toml",
            env!("CARGO_MANIFEST_DIR")
        );
        let out = |dir: &str| root.join(dir).to_string_lossy().into_owned();
        for (args, dir) in [
            (vec!["experiment", "run", file.as_str()], "file"),
            (vec!["experiment", name], "catalogue"),
        ] {
            let dir = out(dir);
            let mut args = args.clone();
            args.extend(["--scale", "tiny", "--seed", "2", "--out", &dir]);
            let output = privpac(&args);
            assert!(
                output.status.success(),
                "{}",
                String::from_utf8_lossy(&output.stderr)
            );
        }
        let file_outputs = dir_bytes(&root.join("file"));
        assert_eq!(file_outputs, dir_bytes(&root.join("catalogue")), "{name}");
        assert!(file_outputs.len() >= 4, "{name}");
        let _ = std::fs::remove_dir_all(&root);
    }
}

#[test]
fn bad_experiment_files_are_one_line_errors_naming_the_key_and_line() {
    let root = std::env::temp_dir().join(format!("privpac-expfile-bad-{}", std::process::id()));
    std::fs::create_dir_all(&root).unwrap();
    let write = |name: &str, text: &str| {
        let path = root.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_string_lossy().into_owned()
    };
    let out = root.join("out").to_string_lossy().into_owned();
    let unknown = write(
        "unknown.toml",
        &TINY.replace("trials = 4", "trials = 4\ntrails = 5"),
    );
    check_error(
        &["experiment", "run", &unknown, "--out", &out],
        "line 9, key `trails`",
    );
    let spec = write("spec.toml", &TINY.replace("\"generic\"", "\"gneric\""));
    check_error(
        &["experiment", "run", &spec, "--out", &out],
        "line 3, key `learners`",
    );
    let many = write("many.toml", &format!("max_units = 2\n{TINY}"));
    check_error(
        &["experiment", "run", &many, "--out", &out],
        "more than max_units = 2",
    );
    let taken = write(
        "taken.toml",
        &TINY.replace("cli-sweep", "sample-complexity"),
    );
    check_error(
        &["experiment", "run", &taken],
        "belongs to a catalogue experiment",
    );
    // Refused before anything runs: no output directory was made.
    assert!(!root.join("out").exists());
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_file_whose_full_level_is_broken_runs_at_the_tiny_scale_with_a_warning() {
    let root = std::env::temp_dir().join(format!("privpac-expfile-scale-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).unwrap();
    let file = root.join("sweep.toml").to_string_lossy().into_owned();
    std::fs::write(&file, format!("{TINY}\n[scale.full]\ntrials = 0\n")).unwrap();
    let out = root.join("out").to_string_lossy().into_owned();
    let output = privpac(&[
        "experiment",
        "run",
        &file,
        "--scale",
        "tiny",
        "--out",
        &out,
        "--json",
    ]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let report: Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(report["units_run"], 3);
    assert!(
        stderr.contains("warning") && stderr.contains("in the full scale: "),
        "{stderr}"
    );
    // The full scale itself is refused, naming it.
    check_error(
        &["experiment", "run", &file, "--out", &out],
        "in the full scale: ",
    );
    // An error in the quick level names the quick scale.
    std::fs::write(&file, format!("{TINY}\n[scale.quick]\ntrials = 0\n")).unwrap();
    check_error(
        &["experiment", "run", &file, "--quick", "--out", &out],
        "in the quick scale: ",
    );
    let _ = std::fs::remove_dir_all(&root);
}
