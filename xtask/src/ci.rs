//! `cargo xtask ci`: runs `.ci/run`, the single list of CI steps.
//!
//! The steps (fmt check, clippy with `-D warnings`, `cargo test --workspace`, rustdoc with
//! `-Dwarnings`) live only in that script, so CI and local runs cannot drift apart.

use std::process::Command;

use anyhow::bail;

use crate::{project_root, run_command};

/// Runs `bash .ci/run` from the project root.
pub(crate) fn run(args: &[String]) -> anyhow::Result<()> {
    if !args.is_empty() {
        bail!(
            "`cargo xtask ci` takes no arguments (got `{}`)",
            args.join(" ")
        );
    }
    let root = project_root();
    run_command(Command::new("bash").arg(".ci/run").current_dir(root))
}
