//! `privpac learn` and `privpac sample-complexity`: thin front ends over the lab (specs →
//! `privpac_toolkit::build_learner` → the learner → a report; `sample-complexity` hands a
//! `privpac_toolkit::SampleComplexityRequest` to `privpac_toolkit::run_sample_complexity`, as the Python bindings do).

use anyhow::bail;
use privpac_accounting::Guarantee;
use privpac_classes::{ConceptClass, LabeledSample};
use privpac_learners::Predictor;
use privpac_toolkit::limits::{MAX_SAMPLE_SIZE, MAX_TRIALS};
use privpac_toolkit::{
    Bound, ClassSpec, DistributionChoice, LearnerSpec, SampleComplexityReport,
    SampleComplexityRequest, build_learner, describe_in_units, read_labeled_csv_with,
};
use serde::Serialize;

use crate::cli::{DistributionName, LearnArgs, SampleComplexityArgs};
use crate::commands::notes::not_covered_note;
use crate::commands::{data_options, learner_params, rng};
use crate::output::{Render, emit, progress};

/// Parses `--learner` and checks that ε is given when the learner needs it (and that the
/// stable learner, which is not private, gets --em-epsilon and no --epsilon).
fn learner_spec(
    raw: &str,
    epsilon: Option<f64>,
    em_epsilon: Option<f64>,
) -> anyhow::Result<LearnerSpec> {
    let spec: LearnerSpec = raw.parse()?;
    if spec == LearnerSpec::Stable {
        if epsilon.is_some() {
            bail!(
                "stable is uniformly stable, not differentially private, so no --epsilon can be guaranteed; give its exponential mechanism's parameter as --em-epsilon (or use private-prediction for an ε per prediction)"
            );
        }
        if em_epsilon.is_none() {
            bail!(
                "--em-epsilon (its exponential mechanism's ε) is required for stable, which is uniformly stable, not private"
            );
        }
    }
    if spec.needs_epsilon() && epsilon.is_none() {
        bail!("--epsilon is required for private learners ({spec})");
    }
    Ok(spec)
}

/// The JSON of `privpac learn`.
#[derive(Debug, Serialize)]
struct LearnReport {
    class: String,
    /// The learner as built (with its parameters), e.g. `relabeling(t=…)`.
    learner: String,
    /// The learner spec given on the command line.
    learner_spec: LearnerSpec,
    examples: usize,
    hypothesis: Predictor,
    hypothesis_text: String,
    /// With `--bounds`/`--bins`: the hypothesis as a statement about the raw values
    /// (`1 on x ≥ 104.3`), from `privpac_toolkit::describe_in_units`; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    hypothesis_in_units: Option<String>,
    /// The fraction of examples mislabeled (in expectation for randomized hypotheses).
    empirical_error: f64,
    /// The learner's own guarantee at this many examples.
    guarantee: Guarantee,
    guarantee_text: String,
    /// For a per-prediction guarantee: what it does not cover (the printed model and its
    /// training-set error); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    not_covered: Option<String>,
}

impl Render for LearnReport {
    fn render(&self) -> String {
        let hypothesis = match &self.hypothesis_in_units {
            Some(units) => format!("{units}   (on the bins: {})", self.hypothesis_text),
            None => self.hypothesis_text.clone(),
        };
        let mut text = format!(
            "class: {}   learner: {}   examples: {}\nhypothesis: {}\nempirical error: {:.4}\nguarantee: {}\n",
            self.class,
            self.learner,
            self.examples,
            hypothesis,
            self.empirical_error,
            self.guarantee_text
        );
        if let Some(note) = &self.not_covered {
            text.push_str(&format!("note: {note}\n"));
        }
        text
    }
}

/// `privpac learn`.
pub(crate) fn learn(args: &LearnArgs) -> anyhow::Result<()> {
    let class = args.class.parse::<ClassSpec>()?.build()?;
    let options = data_options(&args.data_file, class.domain())?;
    let sample = read_labeled_csv_with(&args.data, class.domain(), &options)?;
    let spec = learner_spec(&args.learner, args.epsilon, args.tuning.em_epsilon)?;
    let params = privpac_toolkit::LearnerParams {
        class_size: Some(class.len()),
        ..learner_params(args.epsilon, args.delta, args.tuning, args.options)
    };
    let learner = build_learner(spec, &params, sample.len())?;
    let hypothesis = learner.learn(class.as_ref(), &sample, &mut rng(&args.common))?;
    let guarantee = learner.guarantee(sample.len());
    let report = LearnReport {
        class: class.name(),
        learner: learner.name(),
        learner_spec: spec,
        examples: sample.len(),
        empirical_error: empirical_error(class.as_ref(), &sample, &hypothesis),
        hypothesis_text: hypothesis.describe(class.as_ref()),
        hypothesis_in_units: options
            .real
            .as_ref()
            .map(|bins| describe_in_units(&hypothesis, class.as_ref(), bins))
            .transpose()?,
        hypothesis,
        guarantee,
        guarantee_text: guarantee.to_string(),
        not_covered: not_covered_note(guarantee),
    };
    emit(&report, args.common.json)
}

/// The fraction of examples the hypothesis mislabels (in expectation for randomized ones).
fn empirical_error(class: &dyn ConceptClass, sample: &LabeledSample, h: &Predictor) -> f64 {
    let total: f64 = sample
        .iter()
        .map(|(x, y)| {
            let one = h.probability_of_one(class, x);
            if y { 1.0 - one } else { one }
        })
        .sum();
    total / sample.len() as f64
}

impl Render for SampleComplexityReport {
    fn render(&self) -> String {
        let bound = match &self.bound {
            Bound::Explicit {
                name,
                source,
                sample_size,
            } => format!("bound ({name}; {source}): n ≤ {sample_size:.0}"),
            Bound::NoExplicitConstants { reason } => reason.clone(),
        };
        let opt = match self.scenario {
            privpac_toolkit::ScenarioKind::Agnostic => format!(
                "   OPT = {} (label noise; success means true error ≤ OPT + α)",
                self.opt
            ),
            privpac_toolkit::ScenarioKind::Realizable => String::new(),
        };
        let head = format!(
            "class: {}   learner: {}   target: {} ({})   scenario: {:?}{opt}\ndistribution: {:?}\n",
            self.class,
            self.learner,
            self.target,
            self.target_description,
            self.scenario,
            self.distribution,
        );
        let (Some(n), Some(rate), Some((low, high)), None) = (
            self.empirical_sample_size,
            self.success_rate,
            self.interval,
            &self.trivial,
        ) else {
            let (hypothesis, excess) = self
                .trivial
                .as_ref()
                .map_or(("?", f64::NAN), |t| (t.hypothesis.as_str(), t.excess_error));
            return format!(
                "{head}trivial scenario: the constant hypothesis ({hypothesis}) already has excess error {excess:.3e} ≤ α = {}, so no search was run and no sample complexity is reported; use a distribution with mass on the target (--distribution point)\n",
                self.alpha
            );
        };
        format!(
            "{head}empirical n = {n} (success {rate:.2}, 95% CI [{low:.2}, {high:.2}] over {} trials)\n\
             guarantee at that n: {}\n{bound}\n",
            self.trials,
            self.guarantee_text.as_deref().unwrap_or("none reported")
        )
    }
}

/// The id of `--target` in the class `class` (a readable target resolved against it).
fn target_id(
    target: Option<privpac_toolkit::TargetSpec>,
    class: &str,
) -> anyhow::Result<Option<u64>> {
    match target {
        None => Ok(None),
        Some(privpac_toolkit::TargetSpec::Id(id)) => Ok(Some(id)),
        Some(spec) => {
            let class = class.parse::<privpac_toolkit::ClassSpec>()?.build()?;
            Ok(Some(spec.resolve(class.as_ref())?))
        }
    }
}

/// `privpac sample-complexity` for one concept (without `--k`; `mod.rs` sends `--k` to
/// `multi_learn::sample_complexity_k`).
pub(crate) fn sample_complexity(args: &SampleComplexityArgs) -> anyhow::Result<()> {
    privpac_toolkit::check_count("--trials", args.trials, MAX_TRIALS)?;
    privpac_toolkit::check_count("--max-size", args.max_size, MAX_SAMPLE_SIZE)?;
    let request = SampleComplexityRequest {
        class: args.class.clone(),
        learner: learner_spec(&args.learner, args.epsilon, args.tuning.em_epsilon)?.to_string(),
        epsilon: args.epsilon,
        em_epsilon: args.tuning.em_epsilon,
        delta: args.delta,
        alpha: args.alpha,
        beta: args.beta,
        distribution: match DistributionName::or_default_for(args.distribution, &args.class) {
            DistributionName::Uniform => DistributionChoice::Uniform,
            DistributionName::Zipf => DistributionChoice::Zipf,
            DistributionName::Point => DistributionChoice::Point,
        },
        target: target_id(args.target, &args.class)?,
        label_noise: args.label_noise,
        trials: args.trials,
        max_size: args.max_size,
        seed: args.common.seed.unwrap_or_else(rand::random),
        subset_size: args.tuning.subset_size,
        flip_probability: args
            .tuning
            .flip_probability
            .unwrap_or_else(|| privpac_toolkit::default_flip_probability(args.alpha)),
        voters: args.tuning.voters,
        vote_epsilon: args.tuning.vote_epsilon,
        buckets: args.tuning.buckets,
    };
    let bar = progress(0, "sizes tried");
    let report = privpac_toolkit::run_sample_complexity(&request, &mut |outcome| {
        if let Some(bar) = &bar {
            bar.inc_length(1);
            bar.inc(1);
            bar.set_message(format!(
                "n = {}: success {:.2}",
                outcome.sample_size, outcome.success_rate
            ));
        }
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    emit(&report?, args.common.json)
}
