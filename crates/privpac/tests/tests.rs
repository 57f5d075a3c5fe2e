//! End-to-end tests of the `privpac` binary: each runs the built executable and checks its
//! exit status, standard output and standard error.

use std::process::{Command, Output};

use privpac_accounting::{Privacy, basic_composition};
use serde_json::Value;

use commands::data_file;
use json_schemas::{Ty, check_schema, json_of, threshold_data};

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

#[path = "cli/account.rs"]
mod account;
#[path = "cli/commands.rs"]
mod commands;
#[path = "cli/counts.rs"]
mod counts;
#[path = "cli/data_files.rs"]
mod data_files;
#[path = "cli/experiment_files.rs"]
mod experiment_files;
#[path = "cli/experiment_records.rs"]
mod experiment_records;
#[path = "cli/hostile.rs"]
mod hostile;
#[path = "cli/json_schemas.rs"]
mod json_schemas;
#[path = "cli/learn.rs"]
mod learn;
#[path = "cli/multi.rs"]
mod multi;
#[path = "cli/pinned.rs"]
mod pinned;
#[path = "cli/real_files.rs"]
mod real_files;
