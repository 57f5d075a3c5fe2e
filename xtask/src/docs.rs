//! `cargo xtask docs [--open]`: builds the API docs of every workspace crate;
//! `cargo xtask docs --layering`: regenerates the layering drawing in `docs/ARCHITECTURE.md`
//! from `cargo metadata` (see `tidy/layering.rs`), and builds nothing.

use anyhow::bail;

use crate::tidy::layering;
use crate::{cargo, run_command};

/// Runs `cargo doc --workspace --no-deps`, passing `--open` through, or rewrites the layering
/// drawing with `--layering`.
pub(crate) fn run(args: &[String]) -> anyhow::Result<()> {
    let mut command = cargo();
    command.args(["doc", "--workspace", "--no-deps"]);
    match args {
        [] => {}
        [open] if open == "--open" => {
            command.arg("--open");
        }
        [flag] if flag == "--layering" => {
            let changed = layering::rewrite()?;
            println!(
                "{}: layering drawing {}",
                layering::DOC,
                if changed {
                    "updated"
                } else {
                    "already up to date"
                }
            );
            return Ok(());
        }
        _ => bail!(
            "usage: cargo xtask docs [--open | --layering] (got `{}`)",
            args.join(" ")
        ),
    }
    run_command(&mut command)
}
