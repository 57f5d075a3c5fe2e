//! `cargo xtask docs [--open]`: builds the API docs of every workspace crate.

use anyhow::bail;

use crate::{cargo, run_command};

/// Runs `cargo doc --workspace --no-deps`, passing `--open` through.
pub(crate) fn run(args: &[String]) -> anyhow::Result<()> {
    let mut command = cargo();
    command.args(["doc", "--workspace", "--no-deps"]);
    match args {
        [] => {}
        [open] if open == "--open" => {
            command.arg("--open");
        }
        _ => bail!(
            "usage: cargo xtask docs [--open] (got `{}`)",
            args.join(" ")
        ),
    }
    run_command(&mut command)
}
