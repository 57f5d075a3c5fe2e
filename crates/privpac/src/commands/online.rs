//! `privpac online`: play an online-learning game and compare mistakes with the bound.

use anyhow::Context as _;
use concept_classes::dimension::{Budget, Engine, LittlestoneSolver};
use concept_classes::online::{Adversary, Halving, OnlineLearner, Soa, TieRule, run_online};
use concept_classes::{DEFAULT_CELL_LIMIT, materialize, parse_spec};
use serde_json::json;

use crate::cli::{AdversaryArg, LearnerArg, OnlineArgs, TieArg};
use crate::commands::rng;
use crate::output::print_json;

/// Runs `privpac online`.
pub(crate) fn run(args: &OnlineArgs) -> anyhow::Result<()> {
    let class = parse_spec(&args.class)?;
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
    let halving_bound = (matrix.n_concepts() as f64).log2().floor() as i64;
    let (mut learner, bound): (Box<dyn OnlineLearner + '_>, i64) = match args.learner {
        LearnerArg::Soa => (
            Box::new(Soa::new(&matrix, tie_rule, Budget::default())),
            i64::from(ldim),
        ),
        LearnerArg::Halving => (Box::new(Halving::new(&matrix, tie_rule)), halving_bound),
    };
    let report = run_online(
        learner.as_mut(),
        &matrix,
        &adversary,
        args.rounds,
        &mut rng(&args.common),
    )?;
    if args.common.json {
        print_json(&json!({
            "class": class.name(),
            "learner": report.learner,
            "adversary": format!("{:?}", args.adversary).to_lowercase(),
            "rounds": report.rounds,
            "mistakes": report.mistakes,
            "mistake_bound": bound,
            "littlestone_dimension": ldim,
            "transcript": report.transcript,
        }));
    } else {
        println!(
            "class: {}   learner: {}   rounds: {}",
            class.name(),
            report.learner,
            report.rounds
        );
        println!(
            "mistakes: {}   bound: {bound}   (Ldim = {ldim}, ⌊log2 |C|⌋ = {halving_bound})",
            report.mistakes
        );
    }
    Ok(())
}
