//! Command dispatch and the pieces every command shares (the random generator, the
//! parameters of learners and sanitizers).

mod account;
mod attack;
mod audit;
mod demo;
mod dim;
mod experiment;
mod learn;
mod mech;
mod multi_learn;
mod notes;
mod online;
mod sanitize;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::cli::{
    Cli, Command, Common, DataFileArgs, LearnerTuning, MechCommand, SanitizerOptions,
};

/// Runs the parsed command line.
pub(crate) fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Demo(args) => demo::run(&args),
        Command::Mech(MechCommand::Exponential(args)) => mech::exponential(&args),
        Command::Mech(MechCommand::Laplace(args)) => mech::laplace(&args),
        Command::Dim(args) => dim::run(&args),
        Command::Online(args) => online::run(&args),
        Command::Learn(args) => learn::learn(&args),
        Command::SampleComplexity(args) => match &args.k {
            Some(ks) => multi_learn::sample_complexity_k(&args, ks),
            None => learn::sample_complexity(&args),
        },
        Command::Sanitize(args) => sanitize::run(&args),
        Command::MultiLearn(args) => multi_learn::multi_learn(&args),
        Command::Attack(args) => attack::run(&args),
        Command::Audit(args) => audit::run(&args),
        Command::Account(args) => account::run(&args),
        Command::Experiment(args) => experiment::run(&args),
    }
}

/// The generator of a run: ChaCha8 seeded with `--seed` (the same seed gives the same
/// output on every platform and rand version that keeps ChaCha8), from OS entropy
/// otherwise.
pub(crate) fn rng(common: &Common) -> ChaCha8Rng {
    match common.seed {
        Some(seed) => ChaCha8Rng::seed_from_u64(seed),
        None => rand::make_rng(),
    }
}

/// How `--data` is read (`--max-rows`, `--columns`, and `--bounds LOW:HIGH --bins N` for
/// real-valued points on the class's ordered domain of N points).
pub(crate) fn data_options(
    args: &DataFileArgs,
    domain: &privpac_classes::Domain,
) -> anyhow::Result<privpac_toolkit::DataOptions> {
    let real = match (&args.bounds, args.bins) {
        (Some(bounds), Some(bins)) => {
            let parse = |text: &str| {
                text.trim().parse::<f64>().map_err(|_| {
                    anyhow::anyhow!(
                        "--bounds {bounds}: {text:?} is not a number (expected LOW:HIGH)"
                    )
                })
            };
            let Some((low, high)) = bounds.split_once(':') else {
                anyhow::bail!("--bounds {bounds}: expected LOW:HIGH, e.g. 0:250");
            };
            let discretizer = privpac_toolkit::Discretizer::new(parse(low)?, parse(high)?, bins)
                .map_err(|e| anyhow::anyhow!("--bounds {bounds} --bins {bins}: {e}"))?;
            if !matches!(domain, privpac_classes::Domain::Ordered { size } if *size == bins) {
                anyhow::bail!(
                    "--bins {bins} needs a class on the ordered domain of {bins} points (e.g. thresholds:{bins}), not {domain}"
                );
            }
            Some(discretizer)
        }
        _ => None,
    };
    Ok(privpac_toolkit::DataOptions {
        limits: privpac_toolkit::ReadLimits {
            max_rows: args.max_rows,
            ..privpac_toolkit::ReadLimits::default()
        },
        real,
        columns: args
            .columns
            .as_deref()
            .map(str::parse::<privpac_toolkit::ColumnSelection>)
            .transpose()
            .map_err(|e| anyhow::anyhow!("--{e}"))?,
    })
}

/// The sanitizer knobs of the command line as lab's parameters.
pub(crate) fn sanitizer_params(options: SanitizerOptions) -> privpac_toolkit::SanitizerParams {
    privpac_toolkit::SanitizerParams {
        alpha: options.alpha,
        rounds: options.rounds,
        database_size: options.database_size,
    }
}

/// The learner knobs of the command line as lab's parameters.
pub(crate) fn learner_params(
    epsilon: Option<f64>,
    delta: f64,
    tuning: LearnerTuning,
    options: SanitizerOptions,
) -> privpac_toolkit::LearnerParams {
    privpac_toolkit::LearnerParams {
        epsilon,
        em_epsilon: tuning.em_epsilon,
        delta,
        subset_size: tuning.subset_size,
        flip_probability: tuning
            .flip_probability
            .unwrap_or_else(|| privpac_toolkit::default_flip_probability(options.alpha)),
        voters: tuning.voters,
        vote_epsilon: tuning.vote_epsilon,
        class_size: None,
        alpha: options.alpha,
        beta: 0.1,
        buckets: tuning.buckets,
        sanitizer: sanitizer_params(options),
    }
}
