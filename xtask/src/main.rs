//! `xtask`: privpac's project automation, written in Rust and run as `cargo xtask <command>`.
//!
//! This follows the [cargo-xtask](https://github.com/matklad/cargo-xtask) convention: the alias
//! `xtask = "run --quiet --package xtask --"` in `.cargo/config.toml` builds and runs this
//! binary, so the only tool a contributor needs is cargo. It stays small and boring on purpose:
//! std plus `anyhow` and `serde_json`, so that it compiles in seconds on a fresh clone.
//!
//! Commands (one module each):
//! - `ci`: the CI steps, from the single list in `.ci/run`;
//! - `bench [AREA] [--quick] [--no-docs] [--save NAME] [--compare NAME] [-- CRITERION_ARGS]`:
//!   criterion benches saved under a named criterion baseline, then a medians-and-ratios table
//!   read from that baseline, written to `docs/benchmarks.md` for a run of the whole suite;
//! - `docs [--open]`: the workspace API docs; `docs --layering`: regenerates the layering
//!   drawing in `docs/ARCHITECTURE.md` from `cargo metadata`;
//! - `tidy`: the tidy checks (they are `#[test]`s, so `cargo test --workspace` runs them too),
//!   then the table of each crate's share of the workspace's Rust lines.

// xtask is a developer tool whose whole job is to report to the terminal, so printing is allowed
// here (the workspace warns on `print_stdout` because libraries must never print).
#![allow(clippy::print_stdout)]

mod bench;
mod ci;
mod docs;
mod experiments;
mod tidy;

use std::{
    env,
    ffi::OsString,
    path::{Path, PathBuf},
    process::{Command, ExitCode},
};

use anyhow::{Context, bail};

fn main() -> ExitCode {
    match try_main() {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            // `{:#}` prints the chain of causes on one line, without a backtrace.
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}

fn try_main() -> anyhow::Result<()> {
    let args: Vec<String> = env::args().skip(2).collect();
    match env::args().nth(1).as_deref() {
        Some("ci") => ci::run(&args),
        Some("bench") => bench::run(&args),
        Some("docs") => docs::run(&args),
        Some("experiments") => experiments::run(&args),
        Some("tidy") => tidy::run(&args),
        Some("help" | "-h" | "--help") | None => {
            print_help();
            Ok(())
        }
        Some(unknown) => {
            print_help();
            bail!("unknown command `{unknown}`")
        }
    }
}

fn print_help() {
    println!(
        "\
Usage: cargo xtask <COMMAND>

Commands:
  ci                            run the CI steps listed in .ci/run (fmt, clippy, test, doc)
  bench [AREA] [--quick] [--no-docs] [--save NAME] [--compare NAME] [-- ARGS...]
                                run the criterion benches (all, or benches/benches/AREA.rs),
                                passing ARGS to criterion and saving the results as the
                                criterion baseline NAME (default: xtask-latest, replaced on
                                each run); print medians, speed-ups over the `reference` or
                                `naive` id and, with --compare, over the saved baseline NAME;
                                write the table to target/criterion/summary.md and, for a
                                run of every file without ARGS, to docs/benchmarks.md
                                (--no-docs: not there); --quick: short measurements
  docs [--open]                 build the workspace API docs (cargo doc --workspace --no-deps)
  docs --layering               regenerate the layering drawing in docs/ARCHITECTURE.md from
                                cargo metadata (the crates by floor, and their dependencies)
  experiments [NAME...] [--quick]
                                run the named experiments (default: all) with the release
                                privpac binary; outputs go to docs/experiments/NAME/
                                (full) or docs/experiments/quick/NAME/ (--quick)
  tidy                          run the tidy checks (cargo test -p xtask tidy), then print
                                each crate's share of the workspace's Rust lines
  help                          print this message"
    );
}

/// The workspace root: the parent of this crate's directory.
pub(crate) fn project_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask/ always sits inside the workspace root")
        .to_path_buf()
}

/// A `cargo` command run from the project root, using the cargo that is running us (so the
/// toolchain matches), or `cargo` from `PATH` when started some other way.
pub(crate) fn cargo() -> Command {
    let cargo = env::var_os("CARGO").unwrap_or_else(|| OsString::from("cargo"));
    let mut command = Command::new(cargo);
    command.current_dir(project_root());
    command
}

/// Echoes `command`, runs it with inherited stdio, and fails unless it exits successfully.
pub(crate) fn run_command(command: &mut Command) -> anyhow::Result<()> {
    let shown = show_command(command);
    println!("$ {shown}");
    let status = command
        .status()
        .with_context(|| format!("could not start `{shown}`"))?;
    if !status.success() {
        bail!("`{shown}` failed ({status})");
    }
    Ok(())
}

fn show_command(command: &Command) -> String {
    let program = Path::new(command.get_program())
        .file_name()
        .unwrap_or(command.get_program())
        .to_string_lossy()
        .into_owned();
    let mut words = vec![program];
    words.extend(
        command
            .get_args()
            .map(|arg| arg.to_string_lossy().into_owned()),
    );
    words.join(" ")
}
