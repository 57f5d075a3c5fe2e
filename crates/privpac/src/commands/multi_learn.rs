//! `privpac multi-learn` and `privpac sample-complexity --k`: thin front ends over the
//! lab's multi-learner specs, k-labeled data and k-curves.

use anyhow::bail;
use privpac_accounting::{Guarantee, Privacy};
use privpac_classes::ConceptClass;
use privpac_learners::Predictor;
use privpac_multi::{MultiLabeledSample, MultiLearner};
use privpac_toolkit::limits::{MAX_SAMPLE_SIZE, MAX_TRIALS};
use privpac_toolkit::{
    ClassSpec, ExampleDistribution, KCurve, MultiLearnerSpec, MultiScenario, MultiTargets,
    ScenarioKind, SearchConfig, build_multi_learner, describe_in_units,
    read_multi_labeled_csv_named, sample_complexity_curve,
};
use serde::Serialize;

use crate::cli::{DistributionName, MultiLearnArgs, SampleComplexityArgs};
use crate::commands::notes::not_covered_note;
use crate::commands::{data_options, learner_params, rng};
use crate::output::{Render, Table, emit, progress};

/// One label column's result.
#[derive(Debug, Serialize)]
struct ColumnReport {
    /// The column (1-based: the j-th label column read).
    column: usize,
    /// The column's name: its name in the file's header (with `--columns`, the header's
    /// name of the column selected), or `y1`, …, `yk` for a file without a header.
    name: String,
    hypothesis: Predictor,
    hypothesis_text: String,
    /// With `--bounds`/`--bins`: the hypothesis as a statement about the raw values;
    /// absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    hypothesis_in_units: Option<String>,
    /// The fraction of examples whose label in this column the hypothesis gets wrong (in
    /// expectation for randomized hypotheses).
    empirical_error: f64,
}

/// The JSON of `privpac multi-learn`.
#[derive(Debug, Serialize)]
struct MultiLearnReport {
    class: String,
    /// The multi-learner as built, e.g. `direct-sum(generic)`.
    learner: String,
    learner_spec: MultiLearnerSpec,
    examples: usize,
    k: usize,
    columns: Vec<ColumnReport>,
    /// The largest empirical error over the columns (Definition 2.9's multi-error).
    max_empirical_error: f64,
    /// The guarantee of the whole k-tuple.
    guarantee: Guarantee,
    /// ε and δ of the total guarantee as numbers (null if it is not differential privacy).
    epsilon: Option<f64>,
    delta: Option<f64>,
    guarantee_text: String,
    /// For a per-prediction guarantee: what it does not cover (the printed models and
    /// their training-set errors); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    not_covered: Option<String>,
    /// The budget each column's run was built with (`{"epsilon", "delta"}`, exact), for a
    /// learner that splits its budget over the columns (the direct sum), or each column's
    /// selection ε′ for the sanitizer multi-learner (whose one sanitization is shared by
    /// all columns and paid once); null otherwise.
    per_column: Option<Privacy>,
    /// The rule the k runs compose by (`basic`, `advanced`, `optimal`, `best`, `pld`,
    /// `bounded-range (exact)`, `bounded-range (concentration)`; for the sanitizer
    /// multi-learner the rule of its k selections followed by `, plus one sanitization
    /// shared by all columns`); null with `per_column`.
    composition: Option<String>,
    /// For `generic:treelog-quantiles` on thresholds: Corollary 3.10's sample size from its
    /// proof with this sanitizer, beside the printed one; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    corollary_3_10: Option<Corollary310Report>,
}

/// Corollary 3.10's bounds for one k, as the reports show them.
#[derive(Debug, Serialize)]
struct Corollary310Report {
    k: usize,
    alpha: f64,
    beta: f64,
    /// The explicit sample size from the corollary's proof (Lemma 3.7) with privpac's
    /// interior-point quantile sanitizer's proved sample complexity.
    derived_sample_size: f64,
    /// Its terms: the sanitizer's, the selections', uniform convergence's.
    sanitizer_examples: f64,
    selection_examples: f64,
    convergence_examples: f64,
    /// What `derived_sample_size` is.
    derived_label: &'static str,
    /// Corollary 3.10 as printed, with unit constants (shape only, not a sufficient size).
    printed_o_form: f64,
    /// What `printed_o_form` is.
    printed_label: &'static str,
}

const DERIVED_LABEL: &str = "Corollary 3.10's proof (Lemma 3.7, explicit constants) with privpac's interior-point (TreeLog) quantile sanitizer";
const PRINTED_LABEL: &str = "Corollary 3.10 as printed, assuming Bun et al.'s sanitizer (Proposition 2.21), unit constants: shape only";

/// Corollary 3.10's bounds for `spec` on the class `class_text` at k, when the spec is
/// `generic:treelog-quantiles` and the class thresholds over an ordered domain.
fn corollary_3_10(
    spec: MultiLearnerSpec,
    class_text: &str,
    class: &dyn ConceptClass,
    total: Privacy,
    k: usize,
    alpha: f64,
    beta: f64,
) -> anyhow::Result<Option<Corollary310Report>> {
    let applies = spec
        == MultiLearnerSpec::Generic(privpac_toolkit::SanitizerSpec::TreelogQuantiles)
        && class_text
            .trim()
            .to_ascii_lowercase()
            .starts_with("thresholds");
    let privpac_classes::Domain::Ordered { size } = class.domain() else {
        return Ok(None);
    };
    if !applies {
        return Ok(None);
    }
    let bound = privpac_multi::bounds::corollary_3_10_sample_size(*size, total, k, alpha, beta)?;
    let printed = privpac_multi::bounds::corollary_3_10_o_form(
        (*size as f64).log2(),
        bound.sanitizer_privacy.epsilon(),
        bound.epsilon_prime,
        total.delta(),
        k as f64,
        alpha,
        beta,
    );
    Ok(Some(Corollary310Report {
        k,
        alpha,
        beta,
        derived_sample_size: bound.sample_size,
        sanitizer_examples: bound.sanitizer_examples,
        selection_examples: bound.selection_examples,
        convergence_examples: bound.convergence_examples,
        derived_label: DERIVED_LABEL,
        printed_o_form: printed,
        printed_label: PRINTED_LABEL,
    }))
}

/// The text lines of Corollary 3.10's bounds.
fn corollary_3_10_text(report: &Corollary310Report) -> String {
    format!(
        "Corollary 3.10 at k = {}, α = {}, β = {}: n ≥ {:.0} ({}; terms: sanitizer {:.0}, selections {:.0}, convergence {:.0})
  beside it: {:.0} ({})
",
        report.k,
        report.alpha,
        report.beta,
        report.derived_sample_size,
        report.derived_label,
        report.sanitizer_examples,
        report.selection_examples,
        report.convergence_examples,
        report.printed_o_form,
        report.printed_label
    )
}

/// A multi-learner's per-column budget and composition rule, as the reports show them
/// (`MultiLearner::column_split`, with the bounded-range rule named exact or
/// concentration as `DirectSum` composes it at k columns).
fn column_split(learner: &dyn MultiLearner, k: usize) -> (Option<Privacy>, Option<String>) {
    match learner.column_split() {
        Some((per_column, "bounded-range")) => {
            let form = if k <= privpac_multi::EXACT_BOUNDED_RANGE_MAX_K {
                "exact"
            } else {
                "concentration"
            };
            (Some(per_column), Some(format!("bounded-range ({form})")))
        }
        Some((per_column, rule)) => (Some(per_column), Some(rule.to_string())),
        None => (None, None),
    }
}

/// One line for the text output: the per-column budget (rounded up, as `Privacy` prints)
/// and rule, or that there is none.
fn split_text(per_column: Option<Privacy>, composition: Option<&str>) -> String {
    match (per_column, composition) {
        (Some(p), Some(rule)) => format!("per column: {p} (composed by {rule})"),
        _ => "per column: none (the learner does not split its budget over the columns)".into(),
    }
}

impl Render for MultiLearnReport {
    fn render(&self) -> String {
        let mut table = Table::new(&["column", "hypothesis", "empirical error"]);
        for c in &self.columns {
            table.row(vec![
                c.name.clone(),
                match &c.hypothesis_in_units {
                    Some(units) => format!("{units}   (on the bins: {})", c.hypothesis_text),
                    None => c.hypothesis_text.clone(),
                },
                format!("{:.4}", c.empirical_error),
            ]);
        }
        let mut text = format!(
            "class: {}   learner: {}   examples: {}   k: {}\n{}total guarantee (all k hypotheses): {}\n",
            self.class,
            self.learner,
            self.examples,
            self.k,
            table.render(),
            self.guarantee_text
        );
        text.push_str(&split_text(self.per_column, self.composition.as_deref()));
        text.push('\n');
        if let Some(bound) = &self.corollary_3_10 {
            text.push_str(&corollary_3_10_text(bound));
        }
        if let Some(note) = &self.not_covered {
            text.push_str(&format!("note: {note}\n"));
        }
        text
    }
}

fn column_error(
    class: &dyn ConceptClass,
    sample: &MultiLabeledSample,
    j: usize,
    h: &Predictor,
) -> f64 {
    let total: f64 = (0..sample.len())
        .map(|i| {
            let one = h.probability_of_one(class, sample.points()[i]);
            if sample.label(i, j) { 1.0 - one } else { one }
        })
        .sum();
    total / sample.len() as f64
}

/// `privpac multi-learn`.
pub(crate) fn multi_learn(args: &MultiLearnArgs) -> anyhow::Result<()> {
    let spec: MultiLearnerSpec = args.learner.parse()?;
    let total = Privacy::new(args.epsilon, args.delta)?;
    let class = args.class.parse::<ClassSpec>()?.build()?;
    let options = data_options(&args.data_file, class.domain())?;
    let (sample, names) = read_multi_labeled_csv_named(&args.data, class.domain(), &options)?;
    let params = learner_params(Some(args.epsilon), args.delta, args.tuning, args.options);
    let learner = build_multi_learner(spec, total, sample.k(), &params, sample.len())?;
    let hypotheses = learner.learn(class.as_ref(), &sample, &mut rng(&args.common))?;
    let guarantee = learner.guarantee(sample.len(), sample.k());
    let (per_column, composition) = column_split(learner.as_ref(), sample.k());
    let columns = hypotheses
        .into_iter()
        .zip(names)
        .enumerate()
        .map(|(j, (h, name))| {
            Ok(ColumnReport {
                column: j + 1,
                name,
                hypothesis_text: h.describe(class.as_ref()),
                hypothesis_in_units: options
                    .real
                    .as_ref()
                    .map(|bins| describe_in_units(&h, class.as_ref(), bins))
                    .transpose()?,
                empirical_error: column_error(class.as_ref(), &sample, j, &h),
                hypothesis: h,
            })
        })
        .collect::<anyhow::Result<Vec<ColumnReport>>>()?;
    let report = MultiLearnReport {
        class: class.name(),
        learner: learner.name(),
        learner_spec: spec,
        examples: sample.len(),
        k: sample.k(),
        max_empirical_error: columns
            .iter()
            .map(|c| c.empirical_error)
            .fold(0.0, f64::max),
        columns,
        guarantee,
        epsilon: guarantee.privacy().map(|p| p.epsilon()),
        delta: guarantee.privacy().map(|p| p.delta()),
        guarantee_text: guarantee.to_string(),
        not_covered: not_covered_note(guarantee),
        per_column,
        composition,
        corollary_3_10: corollary_3_10(
            spec,
            &args.class,
            class.as_ref(),
            total,
            sample.k(),
            params.sanitizer.alpha,
            params.beta,
        )?,
    };
    emit(&report, args.common.json)
}

/// The JSON of `privpac sample-complexity --k`.
#[derive(Debug, Serialize)]
struct KCurveReport {
    class: String,
    learner_spec: MultiLearnerSpec,
    /// The distribution of examples, in words (the heavy points listed).
    distribution: String,
    label_noise: f64,
    scenario: ScenarioKind,
    epsilon: f64,
    delta: f64,
    alpha: f64,
    beta: f64,
    trials: usize,
    /// The seed the targets and trials derive from.
    seed: u64,
    /// The learner, one point per k (k, empirical n, guarantee, outcome), and the log–log
    /// fit of n against k with the slope's 95% confidence interval.
    curve: KCurve,
    /// For every k asked for (measured or trivial), the per-column budget and composition
    /// rule of the learner as built at that k (null for learners without a per-column
    /// split).
    column_splits: Vec<KSplit>,
    /// For `generic:treelog-quantiles` on thresholds: Corollary 3.10's sample size from its
    /// proof with this sanitizer, beside the printed one, per k; absent otherwise.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    corollary_3_10: Vec<Corollary310Report>,
}

/// The per-column budget of the multi-learner built for one k.
#[derive(Debug, Serialize)]
struct KSplit {
    k: usize,
    per_column: Option<Privacy>,
    composition: Option<String>,
}

impl Render for KCurveReport {
    fn render(&self) -> String {
        let mut table = Table::new(&["k", "empirical n", "success", "95% CI", "guarantee"]);
        for p in &self.curve.points {
            table.row(vec![
                p.k.to_string(),
                p.sample_size.to_string(),
                format!("{:.2}", p.outcome.success_rate),
                format!("[{:.2}, {:.2}]", p.outcome.interval.0, p.outcome.interval.1),
                p.guarantee.to_string(),
            ]);
        }
        let fit = match &self.curve.fit {
            Some(f) => format!(
                "log-log slope of n against k: {:.3} (95% CI [{:.3}, {:.3}], {} points)\n",
                f.slope, f.slope_interval.0, f.slope_interval.1, f.points
            ),
            None => String::new(),
        };
        for t in &self.curve.trivial {
            table.row(vec![
                t.k.to_string(),
                "— (trivial)".into(),
                String::new(),
                String::new(),
                String::new(),
            ]);
        }
        let trivial = if self.curve.trivial.is_empty() {
            String::new()
        } else {
            let ks: Vec<String> = self.curve.trivial.iter().map(|t| t.k.to_string()).collect();
            let worst = self
                .curve
                .trivial
                .iter()
                .map(|t| t.baseline.excess_error)
                .fold(0.0, f64::max);
            format!(
                "warning: at k = {} the constant hypotheses ({}) already have multi-error {worst:.3e} ≤ α = {}: no sample complexity is measured there; choose a distribution with mass on the targets\n",
                ks.join(", "),
                self.curve.trivial[0].baseline.hypothesis,
                self.alpha
            )
        };
        let splits: Vec<String> = self
            .column_splits
            .iter()
            .map(|s| match (s.per_column, &s.composition) {
                (Some(p), Some(rule)) => format!("k = {}: {p} ({rule})", s.k),
                _ => format!("k = {}: none", s.k),
            })
            .collect();
        let bounds: String = self
            .corollary_3_10
            .iter()
            .map(corollary_3_10_text)
            .collect();
        format!(
            "class: {}   learner: {}   scenario: {:?}   seed: {}\ndistribution: {}\n{}{fit}{trivial}per column: {}\n{bounds}",
            self.class,
            self.curve.learner,
            self.scenario,
            self.seed,
            self.distribution,
            table.render(),
            splits.join("; ")
        )
    }
}

/// `privpac sample-complexity --k K[,K...]`.
pub(crate) fn sample_complexity_k(args: &SampleComplexityArgs, ks: &[usize]) -> anyhow::Result<()> {
    privpac_toolkit::check_count("--trials", args.trials, MAX_TRIALS)?;
    privpac_toolkit::check_count("--max-size", args.max_size, MAX_SAMPLE_SIZE)?;
    privpac_toolkit::check_count("number of k values", ks.len(), 64)?;
    for &k in ks {
        privpac_toolkit::check_count("--k", k, privpac_toolkit::MAX_COLUMNS)?;
        if k == 0 {
            bail!("--k values must be at least 1");
        }
    }
    if args.target.is_some() {
        bail!(
            "--target does not apply with --k (the k targets are drawn from the class with --seed)"
        );
    }
    let spec: MultiLearnerSpec = args.learner.parse()?;
    // The search runs one learner per k at every n it tries; a learner whose parameters
    // are solved for n (and whose per-prediction guarantee holds at that n only) would
    // report more than the total at the smaller n. Refused, not overclaimed.
    if let MultiLearnerSpec::DirectSum(inner) = spec
        && inner.is_sized()
        && inner != privpac_toolkit::LearnerSpec::Stable
    {
        bail!(
            "--k runs one learner per k at every sample size it tries, but {inner} solves its parameters (and meets its per-prediction ε) for one sample size: direct-sum:{inner} is not supported with --k (use multi-learn on data, or direct-sum:voting or a DP inner learner)"
        );
    }
    let Some(epsilon) = args.epsilon else {
        bail!("--epsilon (the total ε of the k-tuple) is required with --k");
    };
    let total = Privacy::new(epsilon, args.delta)?;
    let class_spec = args.class.parse::<ClassSpec>()?;
    let choice = DistributionName::or_default_for(args.distribution, &args.class);
    let distribution = match choice {
        DistributionName::Uniform => Some(ExampleDistribution::Uniform),
        DistributionName::Zipf => Some(ExampleDistribution::Zipf { exponent: 1.0 }),
        // The heavy-point scenario: its distribution is drawn with the seed.
        DistributionName::Point => None,
    };
    if distribution.is_none() && !class_spec.to_string().starts_with("points") {
        bail!(
            "--distribution point with --k is for point functions (five heavy points, the targets cycling over them); use uniform or zipf"
        );
    }
    let params = privpac_toolkit::LearnerParams {
        beta: args.beta,
        ..learner_params(
            Some(epsilon),
            args.delta,
            args.tuning,
            crate::cli::SanitizerOptions {
                alpha: args.alpha,
                rounds: privpac_toolkit::SanitizerParams::default().rounds,
                database_size: privpac_toolkit::SanitizerParams::default().database_size,
            },
        )
    };
    // Build once at the largest k so that invalid parameters fail before any trial.
    let largest = ks.iter().copied().max().unwrap_or(1);
    build_multi_learner(spec, total, largest, &params, args.max_size)?;
    let seed = args.common.seed.unwrap_or_else(rand::random);
    let scenario_for = |k: usize| -> privpac_toolkit::Result<MultiScenario> {
        match &distribution {
            Some(distribution) => MultiScenario::new(
                class_spec.build()?,
                distribution,
                MultiTargets::Random { k, seed },
                args.label_noise,
            ),
            None => MultiScenario::heavy_points(class_spec.build()?, k, seed, args.label_noise),
        }
    };
    // The distribution as a reader needs it (the heavy points are the same at every k).
    let distribution_text = match &distribution {
        Some(ExampleDistribution::Uniform) => "uniform over the domain".to_string(),
        Some(ExampleDistribution::Zipf { exponent }) => {
            format!("Zipf with exponent {exponent} over the domain's order")
        }
        Some(other) => format!("{other:?}"),
        None => {
            let scenario = scenario_for(1)?;
            let points: Vec<String> = scenario
                .support()
                .iter()
                .map(|&(x, p)| format!("{} (mass {p})", scenario.class().domain().format_point(x)))
                .collect();
            format!(
                "heavy points {} (drawn with the seed); target j is the point function of point j mod {}",
                points.join(", "),
                points.len()
            )
        }
    };
    let learner_for = |k: usize| -> privpac_toolkit::Result<Box<dyn MultiLearner>> {
        build_multi_learner(spec, total, k, &params, args.max_size)
    };
    let bar = progress(0, "sizes tried");
    let curve = sample_complexity_curve(
        ks,
        &scenario_for,
        &learner_for,
        SearchConfig {
            alpha: args.alpha,
            beta: args.beta,
            trials: args.trials,
            master_seed: seed,
            start: 4,
            max_size: args.max_size,
        },
        &mut |k, outcome| {
            if let Some(bar) = &bar {
                bar.inc_length(1);
                bar.inc(1);
                bar.set_message(format!(
                    "k = {k}, n = {}: success {:.2}",
                    outcome.sample_size, outcome.success_rate
                ));
            }
        },
    );
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let curve = curve?;
    let column_splits = ks
        .iter()
        .map(|&k| {
            let (per_column, composition) = column_split(learner_for(k)?.as_ref(), k);
            Ok(KSplit {
                k,
                per_column,
                composition,
            })
        })
        .collect::<anyhow::Result<Vec<KSplit>>>()?;
    let class = class_spec.build()?;
    let corollary_3_10 = ks
        .iter()
        .map(|&k| {
            corollary_3_10(
                spec,
                &args.class,
                class.as_ref(),
                total,
                k,
                args.alpha,
                args.beta,
            )
        })
        .collect::<anyhow::Result<Vec<_>>>()?
        .into_iter()
        .flatten()
        .collect();
    let report = KCurveReport {
        class: class_spec.build()?.name(),
        learner_spec: spec,
        distribution: distribution_text,
        label_noise: args.label_noise,
        scenario: if args.label_noise > 0.0 {
            ScenarioKind::Agnostic
        } else {
            ScenarioKind::Realizable
        },
        epsilon,
        delta: args.delta,
        alpha: args.alpha,
        beta: args.beta,
        trials: args.trials,
        seed,
        curve,
        column_splits,
        corollary_3_10,
    };
    emit(&report, args.common.json)
}
