//! `privpac online`: play an online-learning game and compare mistakes with the bound.

use anyhow::Context as _;
use privpac_classes::dimension::{Budget, Engine, LittlestoneSolver};
use privpac_classes::online::{Adversary, Halving, OnlineLearner, Soa, TieRule, run_online};
use privpac_classes::{DEFAULT_CELL_LIMIT, materialize};
use privpac_toolkit::ClassSpec;
use privpac_toolkit::limits::MAX_ONLINE_ROUNDS;
use serde::Serialize;

use crate::cli::{AdversaryArg, LearnerArg, OnlineArgs, TieArg};
use crate::commands::rng;
use crate::output::{Render, emit};

/// The JSON of `privpac online`.
#[derive(Debug, Serialize)]
struct OnlineReport {
    class: String,
    learner: String,
    /// "tree" or "random".
    adversary: &'static str,
    rounds: usize,
    mistakes: usize,
    /// The learner's mistake bound: Ldim(C) for SOA, ⌊log2 |C|⌋ for Halving.
    mistake_bound: i64,
    /// Which bound `mistake_bound` is.
    mistake_bound_name: &'static str,
    littlestone_dimension: i32,
    /// One `[point, label, prediction]` per round.
    transcript: Vec<(usize, bool, bool)>,
}

impl Render for OnlineReport {
    fn render(&self) -> String {
        format!(
            "class: {}   learner: {}   adversary: {}   rounds: {}\n\
             mistakes: {}   bound: {} ({})   Ldim = {}\n",
            self.class,
            self.learner,
            self.adversary,
            self.rounds,
            self.mistakes,
            self.mistake_bound,
            self.mistake_bound_name,
            self.littlestone_dimension
        )
    }
}

/// Runs `privpac online`.
pub(crate) fn run(args: &OnlineArgs) -> anyhow::Result<()> {
    // The transcript keeps every round: check the count before anything is built.
    privpac_toolkit::check_count("--rounds", args.rounds, MAX_ONLINE_ROUNDS)?;
    let class = args.class.parse::<ClassSpec>()?.build()?;
    let matrix = materialize(class.as_ref(), DEFAULT_CELL_LIMIT)
        .with_context(|| format!("cannot materialize {}", class.name()))?;
    let mut solver = LittlestoneSolver::new(&matrix, Engine::Pruned, Budget::default());
    let all = matrix.all_concepts();
    let ldim = solver.ldim(&all)?;
    let adversary = match args.adversary {
        AdversaryArg::Tree => Adversary::Tree(solver.tree(&all)?),
        AdversaryArg::Random => Adversary::Random,
    };
    let tie_rule = match args.tie {
        TieArg::One => TieRule::PredictOne,
        TieArg::Zero => TieRule::PredictZero,
    };
    let halving_bound = i64::from(matrix.n_concepts().max(1).ilog2());
    let (mut learner, bound, bound_name): (Box<dyn OnlineLearner + '_>, i64, &'static str) =
        match args.learner {
            LearnerArg::Soa => (
                Box::new(Soa::new(&matrix, tie_rule, Budget::default())),
                i64::from(ldim),
                "Ldim(C)",
            ),
            LearnerArg::Halving => (
                Box::new(Halving::new(&matrix, tie_rule)),
                halving_bound,
                "⌊log2 |C|⌋",
            ),
        };
    let played = run_online(
        learner.as_mut(),
        &matrix,
        &adversary,
        args.rounds,
        &mut rng(&args.common),
    )?;
    let report = OnlineReport {
        class: class.name(),
        learner: played.learner,
        adversary: match args.adversary {
            AdversaryArg::Tree => "tree",
            AdversaryArg::Random => "random",
        },
        rounds: played.rounds,
        mistakes: played.mistakes,
        mistake_bound: bound,
        mistake_bound_name: bound_name,
        littlestone_dimension: ldim,
        transcript: played.transcript,
    };
    emit(&report, args.common.json)
}
