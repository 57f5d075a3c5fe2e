//! Command-line syntax (clap derive). Values are parsed here and validated by the library
//! types they are handed to.

use clap::{Args, Parser, Subcommand};

/// privpac: differentially private PAC learning, runnable.
#[derive(Debug, Parser)]
#[command(name = "privpac", version, about, long_about = None)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// A short tour of what privpac can do today.
    Demo(DemoArgs),
    /// Run a single privacy mechanism.
    #[command(subcommand)]
    Mech(MechCommand),
}

#[derive(Debug, Args)]
pub(crate) struct DemoArgs {
    #[command(flatten)]
    pub(crate) common: Common,
}

/// Options shared by every command.
#[derive(Debug, Args, Clone, Copy)]
pub(crate) struct Common {
    /// Seed for the random generator (reproducible runs). Anyone who knows the seed can
    /// recompute the noise, so never publish outputs made with a known seed. Default: OS
    /// entropy.
    #[arg(long, global = true)]
    pub(crate) seed: Option<u64>,
    /// Print JSON instead of a table.
    #[arg(long, global = true)]
    pub(crate) json: bool,
}

#[derive(Debug, Subcommand)]
pub(crate) enum MechCommand {
    /// The exponential mechanism: choose an index with probability ∝ exp(ε·score/(2Δ)).
    Exponential(ExponentialArgs),
    /// The Laplace mechanism: value + noise of scale Δ/ε (exact discrete noise with
    /// --discrete).
    Laplace(LaplaceArgs),
}

#[derive(Debug, Args)]
pub(crate) struct ExponentialArgs {
    /// Candidate scores, higher is better, separated by commas (e.g. 3,1,0 or -2,-5).
    #[arg(long, allow_hyphen_values = true)]
    pub(crate) scores: String,
    /// Privacy parameter ε (> 0).
    #[arg(long, allow_negative_numbers = true)]
    pub(crate) epsilon: f64,
    /// Sensitivity Δ of the scores.
    #[arg(long, default_value_t = 1.0, allow_negative_numbers = true)]
    pub(crate) sensitivity: f64,
    /// Print the exact output probabilities instead of sampling.
    #[arg(long)]
    pub(crate) probabilities: bool,
    #[command(flatten)]
    pub(crate) common: Common,
}

#[derive(Debug, Args)]
pub(crate) struct LaplaceArgs {
    /// The true query answer.
    #[arg(long, allow_negative_numbers = true)]
    pub(crate) value: String,
    /// Privacy parameter ε (> 0).
    #[arg(long, allow_negative_numbers = true)]
    pub(crate) epsilon: f64,
    /// Sensitivity Δ of the query (a positive integer with --discrete).
    #[arg(long, default_value = "1", allow_negative_numbers = true)]
    pub(crate) sensitivity: String,
    /// Use exact discrete Laplace noise (integer value and sensitivity required).
    #[arg(long)]
    pub(crate) discrete: bool,
    /// How many independent releases to draw (each one spends ε).
    #[arg(long, default_value_t = 1)]
    pub(crate) count: usize,
    #[command(flatten)]
    pub(crate) common: Common,
}
