//! Runs the example: the exact privacy audit of [`RandomizedResponseErm`] on tiny domains
//! (with a negative control), then its empirical sample complexity measured by privpac's
//! engine beside the proved bound and beside the built-in central learner. Exits with a
//! failure status if the audit refutes the claim, the negative control is not refuted, or a
//! measurement exceeds the proved bound.
//!
//! `cargo run --release --manifest-path examples/own-learner/Cargo.toml`

use std::error::Error;
use std::process::ExitCode;

use own_learner::{AuditError, RandomizedResponseErm, exact_audit};
use privpac_accounting::Privacy;
use privpac_classes::Thresholds;
use privpac_engine::{
    ExampleDistribution, Scenario, SearchConfig, empirical_sample_complexity, middle_target,
};
use privpac_learners::{GenericLearner, Learner};

fn main() -> ExitCode {
    match audit().and_then(|()| measure()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

/// The exact audit on every pair of neighbouring samples, and the negative control: the
/// same learner claiming half its ε must be refuted.
fn audit() -> Result<(), Box<dyn Error>> {
    println!(
        "Exact audit (every pair of neighbouring samples of n examples over thresholds on [m]):"
    );
    println!("   m  n     ε   pairs  worst loss  claim ε/2");
    for (m, n) in [(3, 1), (2, 3), (3, 3), (4, 2)] {
        let class = Thresholds::new(m)?;
        for epsilon in [0.5, 1.0, 2.0] {
            let learner = RandomizedResponseErm::new(epsilon)?;
            let claimed = learner.guarantee(n).epsilon().ok_or("no ε claimed")?;
            let report = exact_audit(&learner, &class, n, claimed)?;
            let control = match exact_audit(&learner, &class, n, claimed / 2.0) {
                Err(AuditError::Audit(privpac_audit::Error::PureClaimViolated {
                    measured_epsilon,
                    ..
                })) => format!("refuted ({measured_epsilon:.4} > {:.2})", claimed / 2.0),
                other => return Err(format!("the claim ε/2 was not refuted: {other:?}").into()),
            };
            println!(
                "{m:>4} {n:>2} {epsilon:>5} {:>7} {:>11.6}  {control}",
                report.pairs_checked, report.worst_epsilon
            );
        }
    }
    Ok(())
}

/// The empirical sample complexity (smallest n with success rate ≥ 1 − β over the trials)
/// of the learner and of the built-in generic learner, beside the learner's proved bound.
fn measure() -> Result<(), Box<dyn Error>> {
    let (m, alpha, beta) = (8, 0.1, 0.1);
    let class = Thresholds::new(m)?;
    let target = middle_target(&class);
    let scenario = Scenario::new(Box::new(class), ExampleDistribution::Uniform, target, 0.0)?;
    let config = SearchConfig {
        alpha,
        beta,
        trials: 100,
        master_seed: 1,
        start: 8,
        max_size: 1 << 22,
    };
    println!(
        "\nEmpirical sample complexity on thresholds over [{m}], uniform, target {target}, \
         α = {alpha}, β = {beta}, {} trials per size, seed {}:",
        config.trials, config.master_seed
    );
    println!("     ε   rr-erm  proved bound   generic (central)");
    for epsilon in [0.5, 1.0, 2.0, 4.0] {
        let learner = RandomizedResponseErm::new(epsilon)?;
        let bound = learner.sample_size_bound(scenario.class(), alpha, beta)?;
        let ours = empirical_sample_complexity(&scenario, &learner, config)?.sample_size;
        let generic = GenericLearner::new(Privacy::pure(epsilon)?)?;
        let central = empirical_sample_complexity(&scenario, &generic, config)?.sample_size;
        println!("{epsilon:>6} {ours:>8} {bound:>13} {central:>19}");
        if ours as f64 > bound {
            return Err(format!("ε = {epsilon}: measured {ours} above the proved {bound}").into());
        }
    }
    Ok(())
}
