//! `privpac learn` and `privpac sample-complexity`.

use anyhow::{Context as _, bail};
use concept_classes::{ConceptClass, Hypothesis, LabeledSample, parse_spec};
use dp_mechanisms::Privacy;
use lab::{Distribution, Scenario, SearchConfig, empirical_sample_complexity_sized};
use learners::bounds::{generic_learner_sample_size, vc_realizable_sample_size};
use learners::{
    Erm, GenericLearner, Learner, PrivatePrediction, RelabelingPredictor, StableLearner,
    VotingPredictor,
};
use serde_json::json;

use crate::cli::{DistributionName, LearnArgs, LearnerName, LearnerTuning, SampleComplexityArgs};
use crate::commands::rng;
use crate::output::print_json;

/// Parses `--learner` for `learn`: a learner name or `sanitizer[:NAME]`.
fn parse_learner(raw: &str) -> anyhow::Result<Result<LearnerName, crate::cli::SanitizerName>> {
    use clap::ValueEnum as _;
    if let Some(rest) = raw.strip_prefix("sanitizer") {
        let name = rest.strip_prefix(':').unwrap_or("mwem");
        return Ok(Err(crate::commands::sanitize::parse_sanitizer_name(name)?));
    }
    LearnerName::from_str(raw, true).map(Ok).map_err(|_| {
        anyhow::anyhow!(
            "unknown learner {raw:?} (expected erm, generic, stable, private-prediction, voting, relabeling or sanitizer[:NAME])"
        )
    })
}

/// What the learners named on the command line are built from.
struct LearnerParams {
    epsilon: Option<f64>,
    delta: f64,
    /// Examples in the data (the relabeling pipeline sizes its subsample from it).
    examples: usize,
    subset_size: usize,
    flip_probability: f64,
    voters: usize,
    vote_epsilon: f64,
}

impl LearnerParams {
    /// The parameters for a sample of `examples` examples.
    fn new(epsilon: Option<f64>, delta: f64, examples: usize, tuning: LearnerTuning) -> Self {
        LearnerParams {
            epsilon,
            delta,
            examples,
            subset_size: tuning
                .subset_size
                .unwrap_or_else(|| (examples as f64).sqrt().ceil() as usize),
            flip_probability: tuning.flip_probability,
            voters: tuning.voters,
            vote_epsilon: tuning.vote_epsilon,
        }
    }

    fn pure_epsilon(&self) -> anyhow::Result<f64> {
        let epsilon = self
            .epsilon
            .context("--epsilon is required for private learners")?;
        let privacy = Privacy::new(epsilon, self.delta)?;
        if !privacy.is_pure() {
            bail!("the learners available here are pure ε-DP; use --delta 0");
        }
        Ok(epsilon)
    }

    fn stable(&self, epsilon: f64) -> learners::Result<StableLearner> {
        StableLearner::new(epsilon, self.subset_size)
    }

    fn relabeling(&self, epsilon: f64) -> learners::Result<RelabelingPredictor> {
        let voting = VotingPredictor::new(self.vote_epsilon, self.voters)?;
        RelabelingPredictor::with_prediction_epsilon(epsilon, self.examples, voting)
    }
}

/// Builds the learner named on the command line, checking ε (required and pure for the
/// private learners).
fn build_learner(name: LearnerName, params: &LearnerParams) -> anyhow::Result<Box<dyn Learner>> {
    let epsilon = match name {
        LearnerName::Erm => f64::NAN, // unused
        _ => params.pure_epsilon()?,
    };
    Ok(construct_learner(name, params, epsilon)?)
}

/// Builds the learner with privacy parameter `epsilon` (ignored by ERM).
fn construct_learner(
    name: LearnerName,
    params: &LearnerParams,
    epsilon: f64,
) -> learners::Result<Box<dyn Learner>> {
    Ok(match name {
        LearnerName::Erm => Box::new(Erm::default()),
        LearnerName::Generic => Box::new(GenericLearner::new(Privacy::pure(epsilon)?)?),
        LearnerName::Stable => Box::new(params.stable(epsilon)?),
        LearnerName::PrivatePrediction => Box::new(PrivatePrediction::new(
            params.stable(epsilon)?,
            params.flip_probability,
        )?),
        LearnerName::Voting => Box::new(VotingPredictor::new(epsilon, params.voters)?),
        LearnerName::Relabeling => Box::new(params.relabeling(epsilon)?),
    })
}

/// `privpac learn`.
pub(crate) fn learn(args: &LearnArgs) -> anyhow::Result<()> {
    let class = parse_spec(&args.class)?;
    let text = std::fs::read_to_string(&args.data)
        .with_context(|| format!("cannot read {}", args.data.display()))?;
    let sample = LabeledSample::parse_csv(class.domain(), &text)
        .with_context(|| format!("{}", args.data.display()))?;
    let params = LearnerParams::new(args.epsilon, args.delta, sample.len(), args.tuning);
    let parsed = parse_learner(&args.learner)?;
    let learner: Box<dyn Learner> = match parsed {
        Ok(name) => build_learner(name, &params)?,
        Err(sanitizer) => {
            let epsilon = args
                .epsilon
                .context("--epsilon is required for private learners")?;
            let half = Privacy::new(epsilon / 2.0, args.delta)?;
            let built = crate::commands::sanitize::build_sanitizer(sanitizer, half, args.options)?;
            Box::new(learners::SanitizerLearner::new(
                built,
                Privacy::pure(epsilon / 2.0)?,
            )?)
        }
    };
    let hypothesis = learner.learn(class.as_ref(), &sample, &mut rng(&args.common))?;
    let empirical_error = empirical_error(class.as_ref(), &sample, &hypothesis);
    let (guarantee, guarantee_text) = describe_guarantee(learner.as_ref(), sample.len());
    if args.common.json {
        print_json(&json!({
            "class": class.name(),
            "learner": learner.name(),
            "examples": sample.len(),
            "hypothesis": hypothesis,
            "empirical_error": empirical_error,
            "guarantee": guarantee,
            "guarantee_text": guarantee_text,
        }));
    } else {
        println!(
            "class: {}   learner: {}   examples: {}",
            class.name(),
            learner.name(),
            sample.len()
        );
        println!("hypothesis: {}", describe_hypothesis(&hypothesis));
        println!("empirical error: {empirical_error:.4}");
        println!("guarantee: {guarantee_text}");
    }
    Ok(())
}

/// The learner's own guarantee at `examples` examples, as JSON numbers and as text.
fn describe_guarantee(learner: &dyn Learner, examples: usize) -> (serde_json::Value, String) {
    let guarantee = learner.guarantee(examples);
    (json!(guarantee), guarantee.to_string())
}

fn describe_hypothesis(hypothesis: &Hypothesis) -> String {
    match hypothesis {
        Hypothesis::Concept { id } => format!("concept {id}"),
        Hypothesis::Flipped {
            base,
            flip_probability,
        } => format!(
            "{} with labels flipped w.p. {flip_probability}",
            describe_hypothesis(base)
        ),
        Hypothesis::NoisyVote { members, epsilon } => format!(
            "noisy vote (ε = {epsilon}) of {} members: {}",
            members.len(),
            members
                .iter()
                .map(describe_hypothesis)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        other => format!("{other:?}"),
    }
}

/// The fraction of examples the hypothesis mislabels (in expectation for randomized ones).
fn empirical_error(class: &dyn ConceptClass, sample: &LabeledSample, h: &Hypothesis) -> f64 {
    let total: f64 = sample
        .iter()
        .map(|(x, y)| {
            let one = h.probability_of_one(class, x);
            if y { 1.0 - one } else { one }
        })
        .sum();
    total / sample.len() as f64
}

/// `privpac sample-complexity`.
pub(crate) fn sample_complexity(args: &SampleComplexityArgs) -> anyhow::Result<()> {
    let class = parse_spec(&args.class)?;
    let class_size = class.len();
    let target = args.target.unwrap_or((class_size / 2) as u64);
    let distribution = match args.distribution {
        DistributionName::Uniform => Distribution::Uniform,
        DistributionName::Zipf => Distribution::Zipf { exponent: 1.0 },
        DistributionName::Point => {
            let domain = class.domain();
            let size = domain.size().min(1 << 24) as u64;
            let point = (0..size)
                .filter_map(|i| domain.point_at(i))
                .find(|&x| class.eval(target, x))
                .unwrap_or(0);
            Distribution::PointMass {
                point,
                mass: (2.0 * args.alpha).min(1.0),
            }
        }
    };
    let epsilon = Privacy::pure(args.epsilon)?.epsilon();
    let learner_for = |n: usize| -> learners::Result<Box<dyn Learner>> {
        let params = LearnerParams::new(Some(epsilon), 0.0, n, args.tuning);
        construct_learner(args.learner, &params, epsilon)
    };
    // Build once at the largest size so that invalid parameters fail before any trial.
    let learner_name = match learner_for(args.max_size) {
        Ok(learner) => learner.name(),
        Err(learners::Error::SampleTooSmall { .. }) => format!("{:?}", args.learner),
        Err(error) => return Err(error.into()),
    };
    let class_name = class.name();
    let scenario = Scenario::new(class, distribution.clone(), target, 0.0)?;
    let found = empirical_sample_complexity_sized(
        &scenario,
        &learner_for,
        SearchConfig {
            alpha: args.alpha,
            beta: args.beta,
            trials: args.trials,
            master_seed: args.common.seed.unwrap_or_else(rand::random),
            start: 4,
            max_size: args.max_size,
        },
    )?;
    let (bound_name, bound) = match args.learner {
        LearnerName::Erm => {
            let vc = concept_classes::dimension::vc_dimension(
                &concept_classes::materialize(
                    scenario.class(),
                    concept_classes::DEFAULT_CELL_LIMIT,
                )?,
                &concept_classes::dimension::Budget::default(),
            )?
            .dimension;
            (
                "realizable VC bound (BEHW)",
                Some(vc_realizable_sample_size(vc, args.alpha, args.beta).ceil()),
            )
        }
        LearnerName::Generic => (
            "generic learner bound (KLNRS Thm 3.4, explicit constants)",
            Some(
                generic_learner_sample_size(class_size as f64, args.epsilon, args.alpha, args.beta)
                    .ceil(),
            ),
        ),
        _ => (
            "no bound with explicit constants (see the learner's docs for its rate)",
            None,
        ),
    };
    let outcome = &found.outcome;
    let at_found = LearnerParams::new(Some(args.epsilon), 0.0, found.sample_size, args.tuning);
    let (guarantee, guarantee_text) = describe_guarantee(
        build_learner(args.learner, &at_found)?.as_ref(),
        found.sample_size,
    );
    if args.common.json {
        print_json(&json!({
            "class": class_name,
            "learner": learner_name,
            "target": target,
            "distribution": format!("{distribution:?}"),
            "empirical_sample_size": found.sample_size,
            "success_rate": outcome.success_rate,
            "interval_95": [outcome.interval.0, outcome.interval.1],
            "trials": outcome.trials,
            "bound_name": bound_name,
            "bound": bound,
            "guarantee_at_n": guarantee,
            "guarantee_at_n_text": guarantee_text,
            "evaluations": found.evaluations,
        }));
    } else {
        println!("class: {class_name}   learner: {learner_name}   target: {target}");
        println!(
            "empirical n = {} (success {:.2}, 95% CI [{:.2}, {:.2}] over {} trials)",
            found.sample_size,
            outcome.success_rate,
            outcome.interval.0,
            outcome.interval.1,
            outcome.trials
        );
        println!("guarantee at that n: {guarantee_text}");
        match bound {
            Some(bound) => println!("{bound_name}: n ≤ {bound:.0}"),
            None => println!("{bound_name}"),
        }
    }
    Ok(())
}
