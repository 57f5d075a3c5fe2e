//! `privpac demo`: a short tour of the toolkit: mechanisms, dimensions, private learning
//! against ε and n, private prediction, and private synthetic data.

use std::time::Instant;

use dp_mechanisms::{
    Accountant, CompositionRule, DiscreteLaplaceMechanism, ExponentialMechanism, Privacy, Private,
    RandomizedResponse, ScoreLevel, SparseVector, StableSelection, StableSelectionOutcome,
    advanced_composition,
};
use rand::rngs::StdRng;
use serde_json::json;

use concept_classes::dimension::{Budget, Engine, littlestone_dimension, vc_dimension};
use concept_classes::{ConceptClass, DEFAULT_CELL_LIMIT, materialize, parse_spec};
use lab::{Distribution, Scenario, TrialConfig, run_trials};
use learners::bounds::generic_learner_sample_size;
use learners::{
    Erm, GenericLearner, Learner, PrivatePrediction, RelabelingPredictor, VotingPredictor,
};

use crate::cli::DemoArgs;
use crate::commands::rng;
use crate::output::{Table, print_json};

/// Runs the tour.
pub(crate) fn run(args: &DemoArgs) -> anyhow::Result<()> {
    let mut rng = rng(&args.common);
    let sections = vec![
        exponential_section(&mut rng)?,
        count_weighted_section(&mut rng)?,
        counting_section(&mut rng)?,
        selection_section(&mut rng)?,
        accounting_section()?,
        dimensions_section()?,
        learning_section(args.common.seed.unwrap_or(2026))?,
        prediction_section(args.common.seed.unwrap_or(2026))?,
        sanitizing_section(&mut rng)?,
    ];
    if args.common.json {
        let values: Vec<serde_json::Value> = sections.into_iter().map(|s| s.json).collect();
        print_json(&json!({ "demo": values }));
    } else {
        println!("privpac demo: differential-privacy mechanisms (dp-mechanisms crate)\n");
        for section in sections {
            println!("== {} ==", section.title);
            print!("{}", section.text);
            println!();
        }
        println!("Multi-learners arrive with their own issue; this tour grows with them.");
    }
    Ok(())
}

struct Section {
    title: &'static str,
    text: String,
    json: serde_json::Value,
}

fn exponential_section(rng: &mut StdRng) -> anyhow::Result<Section> {
    let scores = [10.0, 9.0, 7.0, 2.0, 0.0];
    let mut table = Table::new(&["index", "score", "Pr (eps=0.5)", "Pr (eps=2)", "Pr (eps=8)"]);
    let mut columns = Vec::new();
    for epsilon in [0.5, 2.0, 8.0] {
        let mechanism = ExponentialMechanism::new(Privacy::pure(epsilon)?, 1.0)?;
        columns.push(mechanism.probabilities(&scores)?);
    }
    for (i, score) in scores.iter().enumerate() {
        let mut row = vec![i.to_string(), score.to_string()];
        row.extend(columns.iter().map(|c| format!("{:.4}", c[i])));
        table.row(row);
    }
    let mechanism = ExponentialMechanism::new(Privacy::pure(2.0)?, 1.0)?;
    let chosen = mechanism.select(&scores, rng)?;
    let text = format!(
        "Exact output probabilities of the exponential mechanism (sensitivity 1):\n{}\
         one sample at eps = 2: index {chosen}; guarantee {}\n",
        table.render(),
        mechanism.privacy()
    );
    Ok(Section {
        title: "exponential mechanism",
        text,
        json: json!({
            "section": "exponential",
            "scores": scores,
            "probabilities": { "0.5": columns[0], "2": columns[1], "8": columns[2] },
            "sample_eps_2": chosen,
        }),
    })
}

fn count_weighted_section(rng: &mut StdRng) -> anyhow::Result<Section> {
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
    let started = Instant::now();
    let choice = mechanism.select_levels(&levels, rng)?;
    let elapsed = started.elapsed();
    let mut table = Table::new(&["mistakes", "candidates", "Pr(level)"]);
    for (level, p) in levels.iter().zip(&probabilities) {
        table.row(vec![
            (-level.score).to_string(),
            level.count.to_string(),
            format!("{p:.3e}"),
        ]);
    }
    let text = format!(
        "Count-weighted fast path over 1,000,000 candidates (eps = 1), sampled in {elapsed:.1?}:\n{}\
         chose a candidate with {} mistakes (offset {} within its level)\n",
        table.render(),
        -levels[choice.level].score,
        choice.offset
    );
    Ok(Section {
        title: "exponential mechanism, count-weighted",
        text,
        json: json!({
            "section": "count_weighted",
            "levels": levels.iter().map(|l| json!({"score": l.score, "count": l.count})).collect::<Vec<_>>(),
            "probabilities": probabilities,
            "chosen_level": choice.level,
        }),
    })
}

fn counting_section(rng: &mut StdRng) -> anyhow::Result<Section> {
    let true_count = 1_000;
    let mut table = Table::new(&["epsilon", "noise scale", "noisy count", "guarantee"]);
    let mut releases = Vec::new();
    for epsilon in [0.1, 1.0, 10.0] {
        let mechanism = DiscreteLaplaceMechanism::new(Privacy::pure(epsilon)?, 1)?;
        let noisy = mechanism.release(true_count, rng)?;
        releases.push(json!({ "epsilon": epsilon, "noisy": noisy }));
        table.row(vec![
            epsilon.to_string(),
            format!("{}", mechanism.noise().scale()),
            noisy.to_string(),
            mechanism.privacy().to_string(),
        ]);
    }
    let labels: Vec<bool> = (0..10_000).map(|i| i % 3 == 0).collect();
    let rr = RandomizedResponse::new(Privacy::pure(1.0)?);
    let flipped = rr.flip_labels(&labels, rng);
    let changed = labels.iter().zip(&flipped).filter(|(a, b)| a != b).count();
    let text = format!(
        "A count of {true_count} released with exact discrete Laplace noise:\n{}\
         Label flipping at eps = 1 flipped {changed} of 10000 labels (expected {:.0}).\n",
        table.render(),
        rr.flip_probability() * 10_000.0
    );
    Ok(Section {
        title: "noise for counts",
        text,
        json: json!({ "section": "counting", "releases": releases, "labels_flipped": changed }),
    })
}

fn selection_section(rng: &mut StdRng) -> anyhow::Result<Section> {
    let a_dist = StableSelection::new(Privacy::new(1.0, 1e-6)?, 1)?;
    let clear = [100, 20, 15];
    let close = [21, 20, 15];
    let describe = |outcome: StableSelectionOutcome| match outcome {
        StableSelectionOutcome::Selected(i) => format!("candidate {i}"),
        StableSelectionOutcome::Bottom => "⊥ (no stable winner)".to_string(),
    };
    let clear_outcome = a_dist.select(&clear, rng)?;
    let close_outcome = a_dist.select(&close, rng)?;
    let mut svt = SparseVector::new(Privacy::pure(1.0)?, 1, 50, 1, rng)?;
    let stream = [3, 10, 12, 8, 90, 5];
    let mut first_above = None;
    for (i, &answer) in stream.iter().enumerate() {
        if svt.query(answer, rng)? {
            first_above = Some(i);
            break;
        }
    }
    let text = format!(
        "A_dist at (1, 1e-6), threshold {} on the gap:\n  scores {clear:?} -> {}\n  scores {close:?} -> {}\n\
         Sparse vector (threshold 50, eps = 1) over {stream:?}: first 'above' at {}\n",
        a_dist.threshold(),
        describe(clear_outcome),
        describe(close_outcome),
        first_above.map_or("none".to_string(), |i| format!("index {i}")),
    );
    Ok(Section {
        title: "stable selection and sparse vector",
        text,
        json: json!({
            "section": "selection",
            "a_dist_clear": describe(clear_outcome),
            "a_dist_close": describe(close_outcome),
            "sparse_vector_first_above": first_above,
        }),
    })
}

fn accounting_section() -> anyhow::Result<Section> {
    let each = Privacy::pure(0.01)?;
    let mut accountant = Accountant::new();
    for i in 0..1_000 {
        accountant.record(format!("query {i}"), each);
    }
    let basic = accountant.total(CompositionRule::Basic)?;
    let advanced = advanced_composition(each, 1_000, 1e-6)?;
    let text = format!(
        "1000 mechanisms at eps = 0.01 each:\n  basic composition    {basic}\n  advanced composition {advanced}\n"
    );
    Ok(Section {
        title: "accounting",
        text,
        json: json!({
            "section": "accounting",
            "basic": { "epsilon": basic.epsilon(), "delta": basic.delta() },
            "advanced": { "epsilon": advanced.epsilon(), "delta": advanced.delta() },
        }),
    })
}

fn dimensions_section() -> anyhow::Result<Section> {
    let mut table = Table::new(&["class", "|C|", "VC", "shattered set", "Ldim", "tree depth"]);
    let mut rows = Vec::new();
    for spec in [
        "points:16",
        "thresholds:64",
        "zero(thresholds:64)",
        "parities:5",
        "halfspaces:4",
    ] {
        let class = parse_spec(spec)?;
        let matrix = materialize(class.as_ref(), DEFAULT_CELL_LIMIT)?;
        let vc = vc_dimension(&matrix, &Budget::default())?;
        let ldim = littlestone_dimension(&matrix, Engine::Pruned, &Budget::default())?;
        table.row(vec![
            spec.to_string(),
            class.len().to_string(),
            vc.dimension.to_string(),
            format!("{:?}", vc.shattered),
            ldim.dimension.to_string(),
            ldim.tree.depth().to_string(),
        ]);
        rows.push(json!({ "class": spec, "vc": vc.dimension, "ldim": ldim.dimension }));
    }
    Ok(Section {
        title: "exact VC and Littlestone dimensions (with witnesses)",
        text: format!(
            "Dimensions computed exactly, each with a verified witness:\n{}",
            table.render()
        ),
        json: json!({ "section": "dimensions", "classes": rows }),
    })
}

fn learning_section(seed: u64) -> anyhow::Result<Section> {
    const TRIALS: usize = 40;
    const ALPHA: f64 = 0.1;
    let setups: [(&str, Box<dyn ConceptClass>, Distribution, u64); 3] = [
        (
            "thresholds:1024",
            parse_spec("thresholds:1024")?,
            Distribution::Uniform,
            300,
        ),
        (
            "points:1024 (mass 0.2 on the target)",
            parse_spec("points:1024")?,
            Distribution::PointMass {
                point: 7,
                mass: 0.2,
            },
            7,
        ),
        (
            "parities:8",
            parse_spec("parities:8")?,
            Distribution::Uniform,
            0b1011_0010,
        ),
    ];
    let mut text = format!(
        "Success rate (true error ≤ {ALPHA}) over {TRIALS} trials; generic = ε-DP exponential mechanism, \
         erm = non-private baseline.\n"
    );
    let mut results = Vec::new();
    for (name, class, distribution, target) in setups {
        let class_size = class.len() as f64;
        let scenario = Scenario::new(class, distribution, target, 0.0)?;
        let mut table = Table::new(&["n", "erm", "generic ε=0.25", "generic ε=1", "generic ε=4"]);
        for n in [25usize, 100, 400] {
            let config = TrialConfig {
                trials: TRIALS,
                sample_size: n,
                alpha: ALPHA,
                master_seed: seed,
            };
            let mut row = vec![n.to_string()];
            let erm = run_trials(&scenario, &Erm::default() as &dyn Learner, config)?;
            row.push(format!("{:.2}", erm.success_rate));
            for epsilon in [0.25, 1.0, 4.0] {
                let learner = GenericLearner::new(Privacy::pure(epsilon)?)?;
                let outcome = run_trials(&scenario, &learner, config)?;
                row.push(format!("{:.2}", outcome.success_rate));
                results.push(json!({
                    "class": name, "n": n, "epsilon": epsilon, "success_rate": outcome.success_rate,
                }));
            }
            table.row(row);
        }
        let bounds: Vec<String> = [0.25, 1.0, 4.0]
            .iter()
            .map(|&e| {
                format!(
                    "ε={e}: {:.0}",
                    generic_learner_sample_size(class_size, e, ALPHA, 0.1)
                )
            })
            .collect();
        text.push_str(&format!(
            "\n{name}\n{}bound on n for success ≥ 0.9 (KLNRS, explicit constants): {}\n",
            table.render(),
            bounds.join(", ")
        ));
    }
    Ok(Section {
        title: "private learning: accuracy against ε and n",
        text,
        json: json!({ "section": "learning", "results": results }),
    })
}

/// Private prediction under label noise: the three per-prediction learners at ε ≤ 1
/// against the non-private ERM, by mean true error.
fn prediction_section(seed: u64) -> anyhow::Result<Section> {
    const TRIALS: usize = 40;
    const NOISE: f64 = 0.1;
    const ETA: f64 = 0.05;
    let scenario = Scenario::new(
        parse_spec("thresholds:64")?,
        Distribution::Uniform,
        20,
        NOISE,
    )?;
    let mut table = Table::new(&["n", "erm", "stable + flips", "voting", "relabeling"]);
    let mut results = Vec::new();
    for n in [1000usize, 4000, 16000] {
        let config = TrialConfig {
            trials: TRIALS,
            sample_size: n,
            alpha: 0.5,
            master_seed: seed,
        };
        let learners: [Box<dyn Learner>; 4] = [
            Box::new(Erm::default()),
            // The stable learner with flips, at the largest subset meeting ε ≤ 1.
            Box::new(PrivatePrediction::with_prediction_epsilon(
                1.0, n, 0.05, ETA,
            )?),
            Box::new(VotingPredictor::new(1.0, 7)?),
            Box::new(RelabelingPredictor::with_prediction_epsilon(
                1.0,
                n,
                VotingPredictor::new(1.0, 7)?,
            )?),
        ];
        let mut row = vec![n.to_string()];
        for learner in &learners {
            let outcome = run_trials(&scenario, learner.as_ref(), config)?;
            row.push(format!("{:.3}", outcome.mean_error));
            results.push(json!({
                "learner": learner.name(), "n": n, "mean_error": outcome.mean_error,
            }));
        }
        table.row(row);
    }
    Ok(Section {
        title: "private prediction under label noise",
        text: format!(
            "Mean true error over {TRIALS} trials, thresholds:64 with {NOISE} label noise \
             (OPT = {NOISE}); every private learner answers each query with ε ≤ 1. Flipping with \
             η = {ETA} floors the error at η + (1 − 2η)·OPT = 0.14; voting (ERM on 7 blocks, noisy \
             vote) and relabeling (which ends in the same vote) pay only the vote's noise, \
             about (1 − 2·OPT)/(1 + e^3.5) = 0.024 once the blocks agree.\n{}",
            table.render()
        ),
        json: json!({ "section": "prediction", "results": results }),
    })
}

fn sanitizing_section(rng: &mut StdRng) -> anyhow::Result<Section> {
    use sanitizers::{Mwem, Sanitizer, ThresholdSanitizer, max_query_error};
    let class = parse_spec("thresholds:1024")?;
    // 5000 points, skewed towards small values.
    let data: Vec<u64> = (0..5000u64)
        .map(|i| (i * i) % 1024 * (i % 3 + 1) / 3)
        .collect();
    let mut table = Table::new(&[
        "sanitizer",
        "guarantee",
        "max query error over 1024 thresholds",
    ]);
    let mut rows = Vec::new();
    let sanitizers: Vec<Box<dyn Sanitizer>> = vec![
        Box::new(ThresholdSanitizer::new(Privacy::pure(1.0)?)?),
        Box::new(Mwem::new(Privacy::pure(1.0)?, 20)?),
    ];
    for sanitizer in sanitizers {
        let synthetic = sanitizer.sanitize(class.as_ref(), &data, rng)?;
        let (error, _) = max_query_error(class.as_ref(), &data, &synthetic)?;
        table.row(vec![
            sanitizer.name(),
            sanitizer.privacy().to_string(),
            format!("{error:.4}"),
        ]);
        rows.push(json!({ "sanitizer": sanitizer.name(), "max_query_error": error }));
    }
    Ok(Section {
        title: "private synthetic data",
        text: format!(
            "Synthetic data for the counting queries of thresholds:1024 (5000 points):\n{}",
            table.render()
        ),
        json: json!({ "section": "sanitizing", "results": rows }),
    })
}
