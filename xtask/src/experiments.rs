//! `cargo xtask experiments [NAME...] [--quick]`: runs the named experiments (all when none
//! is named) through the release `privpac` binary, which writes each one's CSV, JSON, SVG
//! plots and Markdown report into `docs/experiments/NAME/` (`docs/experiments/quick/NAME/`
//! with `--quick`). xtask only orchestrates: it
//! builds the binary once, asks it for the experiment list (`privpac experiment list
//! --json`) and runs `privpac experiment NAME` per name.

use std::process::Command;

use anyhow::{Context as _, bail};

use crate::{cargo, project_root, run_command};

/// Parses the arguments and runs the experiments.
pub(crate) fn run(args: &[String]) -> anyhow::Result<()> {
    let mut names = Vec::new();
    let mut quick = false;
    for arg in args {
        match arg.as_str() {
            "--quick" => quick = true,
            flag if flag.starts_with('-') => {
                bail!("usage: cargo xtask experiments [NAME...] [--quick] (unknown flag `{flag}`)")
            }
            name => names.push(name.to_string()),
        }
    }
    run_command(cargo().args(["build", "--release", "-p", "privpac"]))?;
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| project_root().join("target"));
    let binary = target.join("release").join("privpac");
    if names.is_empty() {
        let output = Command::new(&binary)
            .args(["experiment", "list", "--json"])
            .output()
            .with_context(|| format!("could not run {}", binary.display()))?;
        if !output.status.success() {
            bail!("`privpac experiment list` failed ({})", output.status);
        }
        let list: serde_json::Value = serde_json::from_slice(&output.stdout)
            .context("`privpac experiment list --json` printed invalid JSON")?;
        names = list["experiments"]
            .as_array()
            .context("`privpac experiment list --json` has no `experiments` array")?
            .iter()
            .filter_map(|e| e["name"].as_str().map(str::to_string))
            .collect();
    }
    for name in &names {
        let mut command = Command::new(&binary);
        command
            .current_dir(project_root())
            .args(["experiment", name]);
        if quick {
            command.arg("--quick");
        }
        run_command(&mut command)?;
    }
    Ok(())
}
