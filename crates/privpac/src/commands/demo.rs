//! `privpac demo`: a short tour of the toolkit: mechanisms, dimensions (with checked
//! witnesses), private learning against ε and n with the bound that applies, private
//! prediction under label noise, private synthetic data, learning k concepts at once
//! (n against k for the parity k-learner and the direct sum), the fingerprinting attack
//! against a non-private and a private multi-learner, and the black-box auditor on correct
//! and broken mechanisms. Every section is a typed report; the text is rendered from it.

use privpac_accounting::{Accountant, CompositionRule, Privacy, Private, advanced_composition};
use privpac_classes::dimension::{
    Budget, Engine, check_littlestone_tree, check_shattered, littlestone_dimension, vc_dimension,
};
use privpac_classes::{ConceptClass, DEFAULT_CELL_LIMIT, materialize, parse_spec};
use privpac_learners::{
    Erm, GenericLearner, Learner, PrivatePrediction, RelabelingPredictor, VotingPredictor,
};
use privpac_mechanisms::{
    DiscreteLaplaceMechanism, ExponentialMechanism, RandomizedResponse, ScoreLevel, SparseVector,
    StableSelection, StableSelectionOutcome,
};
use privpac_toolkit::{
    Bound, ExampleDistribution, LearnerSpec, Scenario, ScenarioKind, TrialConfig, bounds_for,
    run_trials,
};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

mod learning;

use learning::*;

use crate::cli::DemoArgs;
use crate::commands::rng;
use crate::output::{Render, Table, emit};

/// The JSON of `privpac demo`: `{"demo": [section, …]}`, each section tagged by
/// `"section"`.
#[derive(Debug, Serialize)]
struct DemoReport {
    demo: Vec<Section>,
}

impl Render for DemoReport {
    fn render(&self) -> String {
        let mut out = String::from("privpac demo: a tour of the privpac crates\n\n");
        for section in &self.demo {
            out.push_str(&format!(
                "== {} ==\n{}\n",
                section.title(),
                section.render()
            ));
        }
        out
    }
}

/// One section of the tour.
#[derive(Debug, Serialize)]
#[serde(tag = "section", rename_all = "snake_case")]
enum Section {
    Exponential(ExponentialSection),
    CountWeighted(CountWeightedSection),
    Counting(CountingSection),
    Selection(SelectionSection),
    Accounting(AccountingSection),
    Dimensions(DimensionsSection),
    Learning(LearningSection),
    Prediction(PredictionSection),
    Sanitizing(SanitizingSection),
    MultiLearning(MultiLearningSection),
    Attack(AttackSection),
    Auditing(AuditingSection),
}

impl Section {
    fn title(&self) -> &'static str {
        match self {
            Section::Exponential(_) => "exponential mechanism",
            Section::CountWeighted(_) => "exponential mechanism, count-weighted",
            Section::Counting(_) => "noise for counts",
            Section::Selection(_) => "stable selection and sparse vector",
            Section::Accounting(_) => "accounting",
            Section::Dimensions(_) => "exact VC and Littlestone dimensions (with witnesses)",
            Section::Learning(_) => "private learning: accuracy against ε and n",
            Section::Prediction(_) => "private prediction under label noise",
            Section::Sanitizing(_) => "private synthetic data",
            Section::MultiLearning(_) => "learning k concepts at once: n against k",
            Section::Attack(_) => "the fingerprinting attack behind the lower bounds",
            Section::Auditing(_) => "black-box privacy auditing",
        }
    }

    fn render(&self) -> String {
        match self {
            Section::Exponential(s) => s.render(),
            Section::CountWeighted(s) => s.render(),
            Section::Counting(s) => s.render(),
            Section::Selection(s) => s.render(),
            Section::Accounting(s) => s.render(),
            Section::Dimensions(s) => s.render(),
            Section::Learning(s) => s.render(),
            Section::Prediction(s) => s.render(),
            Section::Sanitizing(s) => s.render(),
            Section::MultiLearning(s) => s.render(),
            Section::Attack(s) => s.render(),
            Section::Auditing(s) => s.render(),
        }
    }
}

/// Runs the tour.
pub(crate) fn run(args: &DemoArgs) -> anyhow::Result<()> {
    let mut rng = rng(&args.common);
    let seed = args.common.seed.unwrap_or(2026);
    let report = DemoReport {
        demo: vec![
            Section::Exponential(exponential_section(&mut rng)?),
            Section::CountWeighted(count_weighted_section(&mut rng)?),
            Section::Counting(counting_section(&mut rng)?),
            Section::Selection(selection_section(&mut rng)?),
            Section::Accounting(accounting_section()?),
            Section::Dimensions(dimensions_section()?),
            Section::Learning(learning_section(seed)?),
            Section::Prediction(prediction_section(seed)?),
            Section::Sanitizing(sanitizing_section(&mut rng)?),
            Section::MultiLearning(multi_learning_section(seed)?),
            Section::Attack(attack_section(seed)?),
            Section::Auditing(auditing_section(seed)?),
        ],
    };
    emit(&report, args.common.json)
}

#[derive(Debug, Serialize)]
struct ProbabilityColumn {
    epsilon: f64,
    probabilities: Vec<f64>,
}

#[derive(Debug, Serialize)]
struct ExponentialSection {
    scores: Vec<f64>,
    sensitivity: f64,
    columns: Vec<ProbabilityColumn>,
    sample_epsilon: f64,
    sample: usize,
    guarantee: Privacy,
    guarantee_text: String,
}

impl ExponentialSection {
    fn render(&self) -> String {
        let mut header = vec!["index".to_string(), "score".to_string()];
        header.extend(self.columns.iter().map(|c| format!("Pr (ε={})", c.epsilon)));
        let header: Vec<&str> = header.iter().map(String::as_str).collect();
        let mut table = Table::new(&header);
        for (i, score) in self.scores.iter().enumerate() {
            let mut row = vec![i.to_string(), score.to_string()];
            row.extend(
                self.columns
                    .iter()
                    .map(|c| format!("{:.4}", c.probabilities[i])),
            );
            table.row(row);
        }
        format!(
            "Exact output probabilities of the exponential mechanism (sensitivity {}):\n{}\
             one sample at ε = {}: index {}; guarantee {}\n",
            self.sensitivity,
            table.render(),
            self.sample_epsilon,
            self.sample,
            self.guarantee_text
        )
    }
}

fn exponential_section(rng: &mut ChaCha8Rng) -> anyhow::Result<ExponentialSection> {
    let scores = vec![10.0, 9.0, 7.0, 2.0, 0.0];
    let mut columns = Vec::new();
    for epsilon in [0.5, 2.0, 8.0] {
        let mechanism = ExponentialMechanism::new(Privacy::pure(epsilon)?, 1.0)?;
        columns.push(ProbabilityColumn {
            epsilon,
            probabilities: mechanism.probabilities(&scores)?,
        });
    }
    let mechanism = ExponentialMechanism::new(Privacy::pure(2.0)?, 1.0)?;
    let sample = mechanism.select(&scores, rng)?;
    Ok(ExponentialSection {
        scores,
        sensitivity: 1.0,
        columns,
        sample_epsilon: 2.0,
        sample,
        guarantee: mechanism.privacy(),
        guarantee_text: mechanism.privacy().to_string(),
    })
}

#[derive(Debug, Serialize)]
struct Level {
    mistakes: i64,
    candidates: u64,
    probability: f64,
}

#[derive(Debug, Serialize)]
struct CountWeightedSection {
    epsilon: f64,
    levels: Vec<Level>,
    chosen_level: usize,
    chosen_offset: u64,
}

impl CountWeightedSection {
    fn render(&self) -> String {
        let mut table = Table::new(&["mistakes", "candidates", "Pr(level)"]);
        for level in &self.levels {
            table.row(vec![
                level.mistakes.to_string(),
                level.candidates.to_string(),
                format!("{:.3e}", level.probability),
            ]);
        }
        let total: u64 = self.levels.iter().map(|l| l.candidates).sum();
        format!(
            "Count-weighted fast path over {total} candidates (ε = {}):\n{}\
             chose a candidate with {} mistakes (offset {} within its level)\n",
            self.epsilon,
            table.render(),
            self.levels[self.chosen_level].mistakes,
            self.chosen_offset
        )
    }
}

fn count_weighted_section(rng: &mut ChaCha8Rng) -> anyhow::Result<CountWeightedSection> {
    // A million candidate hypotheses whose error counts on a sample fall into few levels.
    let levels = [
        ScoreLevel { score: 0, count: 1 },
        ScoreLevel {
            score: -3,
            count: 20,
        },
        ScoreLevel {
            score: -10,
            count: 5_000,
        },
        ScoreLevel {
            score: -40,
            count: 994_979,
        },
    ];
    let mechanism = ExponentialMechanism::new(Privacy::pure(1.0)?, 1.0)?;
    let probabilities = mechanism.level_probabilities(&levels)?;
    let choice = mechanism.select_levels(&levels, rng)?;
    Ok(CountWeightedSection {
        epsilon: 1.0,
        levels: levels
            .iter()
            .zip(&probabilities)
            .map(|(level, &probability)| Level {
                mistakes: -level.score,
                candidates: level.count,
                probability,
            })
            .collect(),
        chosen_level: choice.level,
        chosen_offset: choice.offset,
    })
}

#[derive(Debug, Serialize)]
struct CountRelease {
    epsilon: f64,
    noise_scale: f64,
    noisy: i64,
    guarantee: Privacy,
    guarantee_text: String,
}

#[derive(Debug, Serialize)]
struct CountingSection {
    true_count: i64,
    releases: Vec<CountRelease>,
    labels: usize,
    flip_epsilon: f64,
    labels_flipped: usize,
    expected_flipped: f64,
}

impl CountingSection {
    fn render(&self) -> String {
        let mut table = Table::new(&["epsilon", "noise scale", "noisy count", "guarantee"]);
        for r in &self.releases {
            table.row(vec![
                r.epsilon.to_string(),
                r.noise_scale.to_string(),
                r.noisy.to_string(),
                r.guarantee_text.clone(),
            ]);
        }
        format!(
            "A count of {} released with exact discrete Laplace noise:\n{}\
             Label flipping at ε = {} flipped {} of {} labels (expected {:.0}).\n",
            self.true_count,
            table.render(),
            self.flip_epsilon,
            self.labels_flipped,
            self.labels,
            self.expected_flipped
        )
    }
}

fn counting_section(rng: &mut ChaCha8Rng) -> anyhow::Result<CountingSection> {
    let true_count = 1_000;
    let mut releases = Vec::new();
    for epsilon in [0.1, 1.0, 10.0] {
        let mechanism = DiscreteLaplaceMechanism::new(Privacy::pure(epsilon)?, 1)?;
        let noisy = mechanism.release(true_count, rng)?;
        releases.push(CountRelease {
            epsilon,
            noise_scale: mechanism.noise().scale(),
            noisy,
            guarantee: mechanism.privacy(),
            guarantee_text: mechanism.privacy().to_string(),
        });
    }
    let labels: Vec<bool> = (0..10_000).map(|i| i % 3 == 0).collect();
    let rr = RandomizedResponse::new(Privacy::pure(1.0)?);
    let flipped = rr.flip_labels(&labels, rng);
    let changed = labels.iter().zip(&flipped).filter(|(a, b)| a != b).count();
    Ok(CountingSection {
        true_count,
        releases,
        labels: labels.len(),
        flip_epsilon: 1.0,
        labels_flipped: changed,
        expected_flipped: rr.flip_probability() * labels.len() as f64,
    })
}

#[derive(Debug, Serialize)]
struct SelectionSection {
    a_dist_guarantee: Privacy,
    a_dist_threshold: i64,
    clear_scores: Vec<i64>,
    /// The selected candidate, or null for ⊥.
    clear_selected: Option<usize>,
    close_scores: Vec<i64>,
    close_selected: Option<usize>,
    sparse_vector_threshold: i64,
    stream: Vec<i64>,
    sparse_vector_first_above: Option<usize>,
}

impl SelectionSection {
    fn render(&self) -> String {
        let describe = |outcome: Option<usize>| match outcome {
            Some(i) => format!("candidate {i}"),
            None => "⊥ (no stable winner)".to_string(),
        };
        format!(
            "A_dist at {}, threshold {} on the gap:\n  scores {:?} -> {}\n  scores {:?} -> {}\n\
             Sparse vector (threshold {}, ε = 1) over {:?}: first 'above' at {}\n",
            self.a_dist_guarantee,
            self.a_dist_threshold,
            self.clear_scores,
            describe(self.clear_selected),
            self.close_scores,
            describe(self.close_selected),
            self.sparse_vector_threshold,
            self.stream,
            self.sparse_vector_first_above
                .map_or("none".to_string(), |i| format!("index {i}")),
        )
    }
}

fn selection_section(rng: &mut ChaCha8Rng) -> anyhow::Result<SelectionSection> {
    let privacy = Privacy::new(1.0, 1e-6)?;
    let a_dist = StableSelection::new(privacy, 1)?;
    let clear = [100, 20, 15];
    let close = [21, 20, 15];
    let selected = |outcome: StableSelectionOutcome| match outcome {
        StableSelectionOutcome::Selected(i) => Some(i),
        StableSelectionOutcome::Bottom => None,
    };
    let clear_selected = selected(a_dist.select(&clear, rng)?);
    let close_selected = selected(a_dist.select(&close, rng)?);
    let threshold = 50;
    let mut svt = SparseVector::new(Privacy::pure(1.0)?, 1, threshold, 1, rng)?;
    let stream = [3, 10, 12, 8, 90, 5];
    let mut first_above = None;
    for (i, &answer) in stream.iter().enumerate() {
        if svt.query(answer, rng)? {
            first_above = Some(i);
            break;
        }
    }
    Ok(SelectionSection {
        a_dist_guarantee: privacy,
        a_dist_threshold: a_dist.threshold(),
        clear_scores: clear.to_vec(),
        clear_selected,
        close_scores: close.to_vec(),
        close_selected,
        sparse_vector_threshold: threshold,
        stream: stream.to_vec(),
        sparse_vector_first_above: first_above,
    })
}

#[derive(Debug, Serialize)]
struct AccountingSection {
    mechanisms: u64,
    each: Privacy,
    basic: Privacy,
    basic_text: String,
    advanced_delta_prime: f64,
    advanced: Privacy,
    advanced_text: String,
    optimal: Privacy,
    optimal_text: String,
    pld: Privacy,
    pld_text: String,
    tightest_rule: &'static str,
}

impl AccountingSection {
    fn render(&self) -> String {
        format!(
            "{} mechanisms at {} each:\n  basic composition    {}\n  advanced composition {}\n  optimal composition  {} (Kairouz–Oh–Viswanath)\n  PLD                  {} (rigorous upper bound, within max(0.01, 1% of ε) of a lower bound)\n  the accountant's tightest: {}\n",
            self.mechanisms,
            self.each,
            self.basic_text,
            self.advanced_text,
            self.optimal_text,
            self.pld_text,
            self.tightest_rule
        )
    }
}

fn accounting_section() -> anyhow::Result<AccountingSection> {
    let each = Privacy::pure(0.01)?;
    let mechanisms = 1_000u64;
    let mut accountant = Accountant::new();
    for i in 0..mechanisms {
        accountant.record(format!("query {i}"), each);
    }
    let basic = accountant.total(CompositionRule::Basic)?;
    let advanced = advanced_composition(each, mechanisms, 1e-6)?;
    let optimal = accountant.total(CompositionRule::Optimal { delta_prime: 1e-6 })?;
    let pld = accountant.total(CompositionRule::Pld { delta_prime: 1e-6 })?;
    let (_, rule) = accountant.tightest(1e-6)?;
    Ok(AccountingSection {
        mechanisms,
        each,
        basic,
        basic_text: basic.to_string(),
        advanced_delta_prime: 1e-6,
        advanced,
        advanced_text: advanced.to_string(),
        optimal,
        optimal_text: optimal.to_string(),
        pld,
        pld_text: pld.to_string(),
        tightest_rule: rule.name(),
    })
}
