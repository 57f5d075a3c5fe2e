//! Command dispatch and the pieces every command shares (the random generator).

mod demo;
mod dim;
mod learn;
mod mech;
mod online;
mod sanitize;

use rand::SeedableRng;
use rand::rngs::StdRng;

use crate::cli::{Cli, Command, Common, MechCommand};

/// Runs the parsed command line.
pub(crate) fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Demo(args) => demo::run(&args),
        Command::Mech(MechCommand::Exponential(args)) => mech::exponential(&args),
        Command::Mech(MechCommand::Laplace(args)) => mech::laplace(&args),
        Command::Dim(args) => dim::run(&args),
        Command::Online(args) => online::run(&args),
        Command::Learn(args) => learn::learn(&args),
        Command::SampleComplexity(args) => learn::sample_complexity(&args),
        Command::Sanitize(args) => sanitize::run(&args),
    }
}

/// The generator for a run: seeded when `--seed` is given, from OS entropy otherwise.
pub(crate) fn rng(common: &Common) -> StdRng {
    match common.seed {
        Some(seed) => StdRng::seed_from_u64(seed),
        None => rand::make_rng(),
    }
}
