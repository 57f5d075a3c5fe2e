//! The named experiments: their units, what one unit computes, their plots and their
//! Markdown reports.
//!
//! * `sample-complexity`: the empirical sample complexity of the generic learner, the
//!   stable learner and the relabeling predictor against ε (α = 0.1) and against α
//!   (ε = 1) on thresholds and points over 2^10 points, with the realizable generic-learner
//!   bound `ln(2|C|/β)/α·max{8, 4/ε}` on the same axes.
//! * `threshold-domain`: the sample complexity of the pure-DP generic learner and of
//!   non-private ERM on thresholds over 2^4 … 2^40 points (uniform, target in the middle),
//!   with the generic learner's bound, which grows like log |X|.
//! * `online-mistakes`: SOA and Halving against the Littlestone-tree adversary and a random
//!   adversary on thresholds, points, intervals and parities, against Ldim(C) and
//!   ⌊log₂|C|⌋.
//! * `k-curves`, `sanitizer-error`, `tracing-attack`: in [`multi_label`].
//!
//! The Markdown reports of this module's experiments and of the experiment files' sweeps
//! are written in [`reports`].
//!
//! `sample-complexity` and `threshold-domain` are defined by the experiment files
//! `experiments/sample-complexity.toml` and `experiments/threshold-domain.toml` of this
//! crate (compiled in): their units are [`Sweep::units`] and every unit runs through
//! [`run_sample_complexity_unit`], as the units of any experiment file do.
//! `k-curves` is defined by `experiments/k-curves.toml` (an experiment file of kind
//! `k-curves`): its units are [`KCurveSweep::units`] and every unit runs through
//! `multi_label::run_k_curve_unit`, as the units of any k-curves file do.

use privpac_classes::dimension::{Budget, Engine, LittlestoneSolver};
use privpac_classes::online::{Adversary, Halving, OnlineLearner, Soa, TieRule, run_online};
use privpac_classes::{DEFAULT_CELL_LIMIT, materialize};
use serde_json::{Map, Value, json};

mod coverage;
mod interior_point;
mod k_curves_report;
mod multi_label;
mod reports;

pub(super) use reports::sweep_report;
use reports::{capitalize, escape_cell, not_reached_note, table, unique};

use crate::plot::{Figure, Series};
use crate::sweep::{CurveScenario, KCurveSweep, Settings, Sweep};
use crate::{Error, Result, Scale};
use privpac_toolkit::{
    ClassSpec, ExampleDistribution, LearnerParams, LearnerSpec, Scenario, ScenarioKind,
    SearchConfig, bounds_for, build_learner, empirical_sample_complexity_observed,
    interior_point_bound, middle_target, trial_rng,
};

/// A named experiment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExperimentInfo {
    /// The name used on the command line and as the output directory.
    pub name: &'static str,
    /// One line saying what it measures.
    pub summary: &'static str,
}

/// Every experiment, in the order `cargo xtask experiments` runs them.
pub const EXPERIMENTS: &[ExperimentInfo] = &[
    ExperimentInfo {
        name: "sample-complexity",
        summary: "sample complexity of the generic, stable and relabeling learners against ε and against α on points and thresholds, with the generic learner's realizable bound",
    },
    ExperimentInfo {
        name: "threshold-domain",
        summary: "sample complexity of the pure-DP generic learner and of non-private ERM on thresholds over 2^4 … 2^40 points",
    },
    ExperimentInfo {
        name: "interior-point-domain",
        summary: "sample complexity of the (ε, δ) interior-point learner (TreeLog) against the pure generic learner and the binary-tree sanitizer path on thresholds over 2^4 … 2^64 points, with the crossover domain size",
    },
    ExperimentInfo {
        name: "online-mistakes",
        summary: "SOA and Halving mistakes against the Littlestone dimension on several classes",
    },
    ExperimentInfo {
        name: "k-curves",
        summary: "sample complexity against the number of label columns k for every multi-learner, with the fitted growth exponent of each curve beside the exponent of the §1.3 tables",
    },
    ExperimentInfo {
        name: "sanitizer-error",
        summary: "maximum query error against the database size n for every sanitizer",
    },
    ExperimentInfo {
        name: "coverage",
        summary: "every single-concept learner on points, thresholds, both(thresholds), intervals and parities at several domain sizes: per cell the outcome, n and the seconds a sample-complexity search takes within a time budget",
    },
    ExperimentInfo {
        name: "tracing-attack",
        summary: "the tracing attack's completeness and certified ε lower bound against the number of users n for private and non-private learners",
    },
];

/// The experiment file that defines the `sample-complexity` experiment: the ε-DP generic
/// learner, the uniformly stable learner (not private: the swept ε is its exponential
/// mechanism's `em_epsilon`, an inner parameter and not a guarantee) and the relabeling
/// predictor (ε per prediction). Their guarantees differ; each row records its own.
pub(crate) const SAMPLE_COMPLEXITY_FILE: &str =
    include_str!("../experiments/sample-complexity.toml");

/// The parsed [`SAMPLE_COMPLEXITY_FILE`] (a test checks that it parses).
fn sample_complexity_sweep() -> &'static Sweep {
    static SWEEP: std::sync::OnceLock<Sweep> = std::sync::OnceLock::new();
    SWEEP.get_or_init(|| {
        Sweep::parse(SAMPLE_COMPLEXITY_FILE, "experiments/sample-complexity.toml")
            .expect("the shipped sample-complexity.toml parses (tested)")
    })
}

/// The experiment file that defines the `threshold-domain` experiment.
pub(crate) const THRESHOLD_DOMAIN_FILE: &str = include_str!("../experiments/threshold-domain.toml");

/// The parsed [`THRESHOLD_DOMAIN_FILE`] (a test checks that it parses).
fn threshold_domain_sweep() -> &'static Sweep {
    static SWEEP: std::sync::OnceLock<Sweep> = std::sync::OnceLock::new();
    SWEEP.get_or_init(|| {
        Sweep::parse(THRESHOLD_DOMAIN_FILE, "experiments/threshold-domain.toml")
            .expect("the shipped threshold-domain.toml parses (tested)")
    })
}

/// The experiment file that defines the `interior-point-domain` experiment.
pub(crate) const INTERIOR_POINT_DOMAIN_FILE: &str =
    include_str!("../experiments/interior-point-domain.toml");

/// The parsed [`INTERIOR_POINT_DOMAIN_FILE`] (a test checks that it parses).
fn interior_point_domain_sweep() -> &'static Sweep {
    static SWEEP: std::sync::OnceLock<Sweep> = std::sync::OnceLock::new();
    SWEEP.get_or_init(|| {
        Sweep::parse(
            INTERIOR_POINT_DOMAIN_FILE,
            "experiments/interior-point-domain.toml",
        )
        .expect("the shipped interior-point-domain.toml parses (tested)")
    })
}

/// The sweep that defines a catalogue experiment, for those defined by an experiment file.
pub(super) fn sweep_of(name: &str) -> Option<&'static Sweep> {
    match name {
        "sample-complexity" => Some(sample_complexity_sweep()),
        "threshold-domain" => Some(threshold_domain_sweep()),
        interior_point::NAME => Some(interior_point_domain_sweep()),
        _ => None,
    }
}

/// The k-curves sweep that defines a catalogue experiment (`k-curves`).
pub(super) fn k_curves_sweep_of(name: &str) -> Option<&'static KCurveSweep> {
    (name == "k-curves").then(multi_label::k_curves_sweep)
}

/// The Markdown report of a catalogue experiment: setup, result table, the bound compared
/// with, what it shows (the multi-label experiments' sections from `multi_label`).
pub(crate) fn report(
    info: &ExperimentInfo,
    scale: Scale,
    seed: u64,
    rows: &[Map<String, Value>],
) -> String {
    reports::report(info, scale, seed, rows, other_sections)
}

/// The report sections of the experiments `reports` does not describe.
fn other_sections(name: &str, rows: &[Map<String, Value>]) -> String {
    if name == coverage::NAME {
        coverage::report(rows)
    } else if name == interior_point::NAME {
        interior_point::report(interior_point_domain_sweep(), rows)
    } else {
        multi_label::report(name, rows)
    }
}

pub(super) use multi_label::run_k_curve_unit;

/// The figure of an experiment file of kind `k-curves`.
pub(super) fn k_curves_plots(
    sweep: &KCurveSweep,
    rows: &[Map<String, Value>],
) -> Result<Vec<Figure>> {
    Ok(vec![multi_label::k_curves_figure(
        rows,
        sweep.alpha,
        sweep.beta,
    )])
}

/// The Markdown report of an experiment file of kind `k-curves`: its settings and curves,
/// then the catalogue's result sections (table, searches that gave up, fitted exponents
/// against the table's). Every number in it is computed from the rows and the file.
pub(super) fn k_curves_report(
    sweep: &KCurveSweep,
    scale: Scale,
    seed: u64,
    rows: &[Map<String, Value>],
) -> String {
    let level = sweep.level(scale);
    let mut out = format!(
        "# Experiment `{}`\n\n{}.\n\nGenerated by `privpac experiment run` on the experiment file of `{}` (scale `{scale}`, master seed {seed}); \
         every number below is computed from `results.csv` / `results.json` in this directory. \
         Unit i seeds its trials with the first word of ChaCha8 stream i of the master seed.\n\n\
         ## Setup\n\nFor each curve and each k in {:?}, the smallest n (doubling from {}, then binary search to n/64, giving up above {}) \
         at which at least 1 − β = {} of {} trials reach excess error ≤ α = {} on every column; true errors are exact. \
         The `guarantee` column is each learner's own report.\n\n| curve | multi-learner | total (ε, δ) | scenario | §1.3 table cell |\n|---|---|---|---|---|\n",
        sweep.name,
        capitalize(&sweep.summary),
        sweep.name,
        level.ks,
        level.start,
        level.max_size,
        1.0 - sweep.beta,
        level.trials,
        sweep.alpha,
    );
    for curve in &sweep.curves {
        let scenario = match &curve.scenario {
            CurveScenario::Uniform { class, target_seed } => {
                format!("{class}, uniform, random targets (seed {target_seed} + k)")
            }
            CurveScenario::Support {
                class,
                support,
                weights,
            } => format!(
                "{class} on {support:?} with weights {weights:?}, targets cycling over them"
            ),
        };
        let (class, privacy, agnostic, reference) = &curve.table;
        let learner = format!(
            "{}{}",
            curve.learner,
            if curve.advanced_split {
                " (basic or advanced split)"
            } else {
                ""
            }
        );
        let cell = format!(
            "{class}, {}{}{}",
            if *privacy == privpac_attacks::lower_bounds::TablePrivacy::Pure {
                "pure"
            } else {
                "approximate"
            },
            if *agnostic { ", agnostic" } else { "" },
            reference
                .as_deref()
                .map_or(String::new(), |r| format!(", {r}")),
        );
        out.push_str(&format!(
            "| {} | {} | ({}, {}) | {} | {} |\n",
            escape_cell(&curve.id),
            escape_cell(&learner),
            curve.epsilon,
            curve.delta,
            escape_cell(&scenario),
            escape_cell(&cell),
        ));
    }
    out.push_str("\n## Bound\n\nThe exponent of k of the matching upper bound in the §1.3 tables of Bun–Nissim–Stemmer 2016 (`table_entry`).\n\n");
    out.push_str(&k_curves_report::k_curves_results(rows));
    out.push_str("\n## Files\n\n`results.csv`, `results.json` (the rows above, all columns), the SVG plots in this directory.\n");
    out
}

/// The units of an experiment, each a map of its parameters.
pub(super) fn units(name: &str, scale: Scale) -> Vec<Map<String, Value>> {
    let obj = |v: Value| match v {
        Value::Object(map) => map,
        _ => Map::new(),
    };
    match name {
        "sample-complexity" => sample_complexity_sweep().units(scale),
        "threshold-domain" => threshold_domain_sweep().units(scale),
        interior_point::NAME => interior_point_domain_sweep().units(scale),
        "online-mistakes" => {
            let classes: &[&str] = match scale {
                Scale::Tiny => &["thresholds:8", "points:8"],
                _ => &[
                    "thresholds:4",
                    "thresholds:16",
                    "thresholds:64",
                    "thresholds:256",
                    "points:16",
                    "points:256",
                    "intervals:16",
                    "intervals:64",
                    "parities:3",
                    "parities:5",
                ],
            };
            let mut units = Vec::new();
            for class in classes {
                for learner in ["soa", "halving"] {
                    for adversary in ["tree", "random"] {
                        units.push(obj(
                            json!({"class": class, "learner": learner, "adversary": adversary}),
                        ));
                    }
                }
            }
            units
        }
        coverage::NAME => coverage::units(scale),
        _ => multi_label::units(name, scale),
    }
}

fn get_str<'a>(unit: &'a Map<String, Value>, key: &str) -> &'a str {
    unit.get(key).and_then(Value::as_str).unwrap_or_default()
}

fn get_f64(unit: &Map<String, Value>, key: &str) -> f64 {
    unit.get(key).and_then(Value::as_f64).unwrap_or(f64::NAN)
}

/// Runs one unit with its derived seed and returns its row.
pub(super) fn run_unit(
    name: &str,
    scale: Scale,
    unit: &Map<String, Value>,
    seed: u64,
    index: usize,
) -> Result<Map<String, Value>> {
    let lab = |source: privpac_toolkit::Error| Error::Unit {
        unit: index,
        source: Box::new(source),
    };
    if multi_label::NAMES.contains(&name) {
        return multi_label::run_unit(name, scale, unit, seed, index);
    }
    if name == coverage::NAME {
        return coverage::run_unit(scale, unit, seed, index);
    }
    let mut row = unit.clone();
    row.insert("unit".into(), json!(index));
    if name == "online-mistakes" {
        let class_error = |source| Error::Class {
            unit: index,
            source,
        };
        let class = get_str(unit, "class")
            .parse::<ClassSpec>()
            .and_then(|spec| spec.build())
            .map_err(lab)?;
        let matrix = materialize(class.as_ref(), DEFAULT_CELL_LIMIT).map_err(class_error)?;
        let mut solver = LittlestoneSolver::new(&matrix, Engine::Pruned, Budget::default());
        let all = matrix.all_concepts();
        let ldim = solver.ldim(&all).map_err(class_error)?;
        let adversary = if get_str(unit, "adversary") == "tree" {
            Adversary::Tree(solver.tree(&all).map_err(class_error)?)
        } else {
            Adversary::Random
        };
        let mut learner: Box<dyn OnlineLearner + '_> = if get_str(unit, "learner") == "soa" {
            Box::new(Soa::new(&matrix, TieRule::PredictOne, Budget::default()))
        } else {
            Box::new(Halving::new(&matrix, TieRule::PredictOne))
        };
        let rounds = 4 * matrix.n_points().max(1);
        let mut rng = trial_rng(seed, 0);
        let played = run_online(learner.as_mut(), &matrix, &adversary, rounds, &mut rng)
            .map_err(class_error)?;
        row.insert("littlestone_dimension".into(), json!(ldim));
        row.insert(
            "log2_class_size".into(),
            json!(matrix.n_concepts().max(1).ilog2()),
        );
        row.insert("rounds".into(), json!(played.rounds));
        row.insert("mistakes".into(), json!(played.mistakes));
        return Ok(row);
    }
    // The two sample-complexity experiments, defined by their files.
    let sweep = sweep_of(name).ok_or_else(|| Error::UnknownExperiment {
        name: name.into(),
        known: String::new(),
    })?;
    run_sample_complexity_unit(unit, sweep.settings(scale), seed, index)
}

/// Runs one sample-complexity unit (the `sample-complexity` and `threshold-domain`
/// experiments and every experiment file): the empirical sample complexity of the unit's
/// learner on its class at its ε and α, with the realizable (agnostic under label noise)
/// bound of `privpac_toolkit::bounds_for`.
pub(super) fn run_sample_complexity_unit(
    unit: &Map<String, Value>,
    settings: Settings,
    seed: u64,
    index: usize,
) -> Result<Map<String, Value>> {
    let lab = |source: privpac_toolkit::Error| Error::Unit {
        unit: index,
        source: Box::new(source),
    };
    let Settings {
        beta,
        label_noise,
        trials,
        start,
        max_size,
    } = settings;
    let mut row = unit.clone();
    row.insert("unit".into(), json!(index));
    let class_text = get_str(unit, "class");
    let spec: LearnerSpec = get_str(unit, "learner").parse().map_err(lab)?;
    let epsilon = get_f64(unit, "epsilon");
    // δ of an (ε, δ) learner (the file's `delta`, in the unit's own `delta` column); the
    // pure learners' units have none and run at δ = 0.
    let delta = unit.get("delta").and_then(Value::as_f64).unwrap_or(0.0);
    let alpha = get_f64(unit, "alpha");
    let class = class_text
        .parse::<ClassSpec>()
        .and_then(|s| s.build())
        .map_err(lab)?;
    let class_size = class.len();
    let (target, distribution) =
        if let Some(exponent) = unit.get("zipf_exponent").and_then(Value::as_f64) {
            // Zipf: Pr[x] ∝ (x + 1)^{−s}, target threshold 1 (labels {0, 1} positive).
            let target = unit.get("target").and_then(Value::as_u64).unwrap_or(1);
            (target, ExampleDistribution::Zipf { exponent })
        } else if let Some(kind) = unit.get("distribution").and_then(Value::as_str) {
            // An experiment file's `distribution`: uniform, or mass `point_mass` on the
            // target's first positive point; the target given or the middle one.
            let target = unit
                .get("target")
                .and_then(Value::as_u64)
                .unwrap_or_else(|| middle_target(class.as_ref()));
            // (A target outside the class is refused by `Scenario::new` below.)
            let in_class = u128::from(target) < class.len();
            let distribution = match (kind, unit.get("point_mass").and_then(Value::as_f64)) {
                ("point", Some(mass)) if in_class => {
                    ExampleDistribution::mass_on_target(class.as_ref(), target, mass)
                }
                _ => ExampleDistribution::Uniform,
            };
            (target, distribution)
        } else if class_text.starts_with("points") {
            // Mass 2α on the target's point, the rest uniform: a learner must find the target
            // (missing it costs 2α > α).
            let target = middle_target(class.as_ref());
            let mass = (2.0 * alpha).min(0.9);
            (
                target,
                ExampleDistribution::mass_on_target(class.as_ref(), target, mass),
            )
        } else {
            (middle_target(class.as_ref()), ExampleDistribution::Uniform)
        };
    let kind = if label_noise > 0.0 {
        ScenarioKind::Agnostic
    } else {
        ScenarioKind::Realizable
    };
    let bound = if spec == LearnerSpec::InteriorPoint {
        Ok(interior_point_bound(
            class.as_ref(),
            kind,
            epsilon,
            delta,
            alpha,
            beta,
        ))
    } else {
        bounds_for(spec, class.as_ref(), kind, epsilon, alpha, beta)
    };
    let bound = bound.ok().and_then(|b| b.sample_size().map(|n| (n, b)));
    let scenario = Scenario::new(class, distribution, target, label_noise).map_err(lab)?;
    // ε is the privacy target of every learner but the stable one, which is not private
    // and takes its exponential mechanism's parameter instead.
    // The Dagan–Feldman learner's guarantee covers a class size (as `privpac learn`
    // passes it).
    let params = if spec == LearnerSpec::Stable {
        LearnerParams {
            em_epsilon: Some(epsilon),
            ..LearnerParams::default()
        }
    } else {
        LearnerParams {
            epsilon: Some(epsilon),
            delta,
            class_size: Some(class_size),
            // The interior-point learner keeps α/2 of empirical error (it sizes its
            // TreeLog input by α), as `privpac sample-complexity` builds it; the other
            // learners keep their defaults, as before.
            alpha: if spec == LearnerSpec::InteriorPoint {
                alpha
            } else {
                LearnerParams::default().alpha
            },
            ..LearnerParams::default()
        }
    };
    let builder = |n: usize| build_learner(spec, &params, n);
    let config = SearchConfig {
        alpha,
        beta,
        trials,
        master_seed: seed,
        start,
        max_size,
    };
    // The last size tried, kept so that a search that gives up still reports what it saw.
    let mut last = None;
    let searched =
        empirical_sample_complexity_observed(&scenario, &builder, config, &mut |outcome| {
            last = Some(outcome.clone());
        });
    // A search that concluded α is out of reach (a proven error floor, or a plateau) is
    // recorded as not reached up to the last size it tried, with the reason.
    let (searched, stopped) = match searched {
        Err(privpac_toolkit::Error::Unreachable { alpha, reason }) => {
            let tried = last.as_ref().map_or(0, |o| o.sample_size);
            (
                Err(privpac_toolkit::Error::SampleComplexityNotReached {
                    max_size: tried,
                    target: 1.0 - beta,
                }),
                Some(format!("accuracy α = {alpha} is out of reach: {reason}")),
            )
        }
        other => (other, None),
    };
    let found = match searched {
        Ok(found) => found,
        Err(privpac_toolkit::Error::SampleComplexityNotReached { max_size, .. }) => {
            if let Some(reason) = stopped {
                row.insert("stopped".into(), json!(reason));
            }
            // A measured fact, not a failure of the run: no size up to the search's
            // limit reached success 1 − β. The row says so; plots and fits skip it.
            insert_settings(&mut row, &settings);
            row.insert("sample_size".into(), Value::Null);
            row.insert("not_reached_up_to".into(), json!(max_size));
            row.insert(
                "success_rate".into(),
                json!(last.as_ref().map(|o| o.success_rate)),
            );
            row.insert(
                "mean_error".into(),
                json!(last.as_ref().map(|o| o.mean_error)),
            );
            row.insert("guarantee".into(), Value::Null);
            row.insert("bound".into(), json!(bound.map(|(n, _)| n)));
            return Ok(row);
        }
        Err(other) => return Err(lab(other)),
    };
    // The privacy actually provided, from the learner as built (never re-derived here).
    let guarantee = match build_learner(spec, &params, found.sample_size) {
        Ok(learner) => serde_json::to_value(learner.guarantee(found.sample_size))?,
        Err(_) => Value::Null,
    };
    insert_settings(&mut row, &settings);
    row.insert("sample_size".into(), json!(found.sample_size));
    row.insert("success_rate".into(), json!(found.outcome.success_rate));
    row.insert("mean_error".into(), json!(found.outcome.mean_error));
    row.insert("sizes_tried".into(), json!(found.evaluations.len()));
    row.insert("guarantee".into(), json!(guarantee));
    match bound {
        Some((n, b)) => {
            row.insert("bound".into(), json!(n));
            row.insert(
                "bound_name".into(),
                json!(match b {
                    privpac_toolkit::Bound::Explicit { name, source, .. } =>
                        format!("{name} ({source})"),
                    privpac_toolkit::Bound::NoExplicitConstants { reason } => reason,
                }),
            );
        }
        None => {
            row.insert("bound".into(), Value::Null);
            row.insert("bound_name".into(), json!("none with explicit constants"));
        }
    }
    Ok(row)
}

/// The settings columns of a sample-complexity row: β and trials, and the label noise
/// when there is some (rows of noiseless runs keep their columns).
fn insert_settings(row: &mut Map<String, Value>, settings: &Settings) {
    row.insert("beta".into(), json!(settings.beta));
    row.insert("trials".into(), json!(settings.trials));
    if settings.label_noise > 0.0 {
        row.insert("label_noise".into(), json!(settings.label_noise));
    }
}

/// Points `(x, y)` of the rows matching `filter`.
fn series(
    rows: &[Map<String, Value>],
    filter: impl Fn(&Map<String, Value>) -> bool,
    x: &str,
    y: &str,
) -> Vec<(f64, f64)> {
    rows.iter()
        .filter(|r| filter(r))
        .filter_map(|r| Some((r.get(x)?.as_f64()?, r.get(y)?.as_f64()?)))
        .collect()
}

/// The figures of a sample-complexity sweep: for each figure named in the file, n against
/// that parameter for every (class, learner) on the rows of the grid of that name, with the
/// bound overlaid where there is one.
pub(super) fn sweep_plots(sweep_file: &Sweep, rows: &[Map<String, Value>]) -> Result<Vec<Figure>> {
    let mut plots = Vec::new();
    for sweep in sweep_file.figures.iter().map(String::as_str) {
        if sweep == "log2_domain" {
            let mut lines = Vec::new();
            for learner in &sweep_file.learners {
                let mine = |r: &Map<String, Value>| get_str(r, "learner") == learner.as_str();
                let measured = series(rows, mine, "log2_domain", "sample_size");
                if measured.is_empty() {
                    continue;
                }
                lines.push(Series::measured(format!("{learner}: measured"), measured));
                let bound = series(rows, mine, "log2_domain", "bound");
                if !bound.is_empty() {
                    lines.push(Series::bound(format!("{learner}: bound"), bound));
                }
            }
            plots.push(Figure {
                file: "sample-complexity-vs-domain.svg".into(),
                title: format!(
                    "sample complexity against log₂|X| (β = {})",
                    sweep_file.beta
                ),
                x_label: "log₂ |X|".into(),
                y_label: "examples n".into(),
                series: lines,
                log_x: false,
                log_y: true,
            });
            continue;
        }
        let mut lines = Vec::new();
        let classes: Vec<String> = unique(rows, "class");
        for class in &classes {
            for learner in &sweep_file.learners {
                let mine = |r: &Map<String, Value>| {
                    get_str(r, "sweep") == sweep
                        && get_str(r, "class") == class
                        && get_str(r, "learner") == learner.as_str()
                };
                let measured = series(rows, mine, sweep, "sample_size");
                if measured.is_empty() {
                    continue;
                }
                lines.push(Series::measured(format!("{class}, {learner}"), measured));
                let bound = series(rows, mine, sweep, "bound");
                if !bound.is_empty() {
                    lines.push(Series::bound(format!("{class}, {learner}: bound"), bound));
                }
            }
        }
        let file = format!("sample-complexity-vs-{sweep}.svg");
        let title = format!(
            "sample complexity against {sweep} (β = {})",
            sweep_file.beta
        );
        plots.push(Figure {
            file: file.clone(),
            title: title.to_string(),
            x_label: if sweep == "epsilon" { "ε" } else { "α" }.into(),
            y_label: "examples n".into(),
            series: lines,
            log_x: true,
            log_y: true,
        });
    }
    Ok(plots)
}

/// The SVG plots of an experiment: (file name, SVG text).
pub(super) fn plots(name: &str, rows: &[Map<String, Value>]) -> Result<Vec<Figure>> {
    let mut plots = Vec::new();
    match name {
        "sample-complexity" => return sweep_plots(sample_complexity_sweep(), rows),
        interior_point::NAME => return interior_point::plots(rows),
        "threshold-domain" => {
            let mut lines = Vec::new();
            for learner in ["generic", "erm"] {
                let mine = |r: &Map<String, Value>| get_str(r, "learner") == learner;
                lines.push(Series::measured(
                    format!("{learner}: measured"),
                    series(rows, mine, "log2_domain", "sample_size"),
                ));
                let bound = series(rows, mine, "log2_domain", "bound");
                if !bound.is_empty() {
                    lines.push(Series::bound(format!("{learner}: bound"), bound));
                }
            }
            let file = "sample-complexity-vs-domain.svg".to_string();
            plots.push(Figure {
 file: file.clone(),
 title: "thresholds, Zipf(2): sample complexity against log₂|X| (ε = 1, α = 0.05, β = 0.1)".into(),
 x_label: "log₂ |X|".into(),
 y_label: "examples n".into(),
 series: lines,
 log_x: false,
 log_y: true,
});
        }
        "online-mistakes" => {
            let mut lines = Vec::new();
            for learner in ["soa", "halving"] {
                for adversary in ["tree", "random"] {
                    let mine = |r: &Map<String, Value>| {
                        get_str(r, "learner") == learner && get_str(r, "adversary") == adversary
                    };
                    let mut points = series(rows, mine, "littlestone_dimension", "mistakes");
                    points.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
                    lines.push(Series::measured(
                        format!("{learner}, {adversary} adversary"),
                        points,
                    ));
                }
            }
            let max = rows
                .iter()
                .filter_map(|r| r.get("littlestone_dimension")?.as_f64())
                .fold(1.0, f64::max);
            lines.push(Series::reference(
                "mistakes = Ldim (SOA's bound)",
                vec![(0.0, 0.0), (max, max)],
            ));
            let file = "mistakes-vs-ldim.svg".to_string();
            plots.push(Figure {
                file: file.clone(),
                title: "online mistakes against the Littlestone dimension".into(),
                x_label: "Ldim(C)".into(),
                y_label: "mistakes".into(),
                series: lines,
                log_x: false,
                log_y: false,
            });
        }
        coverage::NAME => plots.push(coverage::figure(rows)),
        _ => return multi_label::plots(name, rows),
    }
    Ok(plots)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_name_the_rows_whose_search_gave_up() {
        let reached = json!({"sample_size": 40, "success_rate": 0.92});
        let missed =
            json!({"sample_size": null, "not_reached_up_to": 4_194_304, "success_rate": 0.4});
        let rows: Vec<Map<String, Value>> = [reached.clone(), missed]
            .into_iter()
            .filter_map(|v| v.as_object().cloned())
            .collect();
        let note = not_reached_note(&rows);
        assert!(note.contains("1 row(s)"), "{note}");
        assert!(note.contains("4194304"), "{note}");
        // Plots and fits read sample sizes through `series`, which skips the null.
        assert_eq!(
            series(&rows, |_| true, "success_rate", "sample_size").len(),
            1
        );
        let all_reached: Vec<Map<String, Value>> =
            reached.as_object().cloned().into_iter().collect();
        assert_eq!(not_reached_note(&all_reached), "");
    }

    /// The cells of every table line of `markdown` (split at the `|` not escaped as `\|`);
    /// each table's lines have as many as its header.
    #[track_caller]
    fn assert_tables_are_rectangular(markdown: &str) {
        let mut width = None;
        for line in markdown.lines() {
            if !line.starts_with('|') {
                width = None;
                continue;
            }
            let cells = line.replace("\\|", "").matches('|').count();
            assert_eq!(*width.get_or_insert(cells), cells, "{line}\n{markdown}");
        }
    }

    /// A `|` in a cell (`log|C|` in a §1.3 table entry) is escaped as `\|`: unescaped, it
    /// split the cell and broke the k-curves report's table.
    #[test]
    fn table_cells_escape_the_pipe() {
        let rows: Vec<Map<String, Value>> = [
            json!({"curve": "a|b", "k": 1, "sample_size": 40, "table_exponent": 0.0,
                   "table_entry": "PAR_d: log|C| (Thm 3.12)"}),
            json!({"curve": "a|b", "k": 4, "sample_size": 41, "table_exponent": 0.0,
                   "table_entry": "PAR_d: log|C| (Thm 3.12)"}),
        ]
        .into_iter()
        .filter_map(|v| v.as_object().cloned())
        .collect();
        let text = table(&rows, &["curve", "table_entry"]);
        assert!(
            text.contains("| a\\|b | PAR_d: log\\|C\\| (Thm 3.12) |"),
            "{text}"
        );
        assert_tables_are_rectangular(&text);
        let report = k_curves_report::k_curves_results(&rows);
        assert!(report.contains("| a\\|b | "), "{report}");
        assert!(report.contains("log\\|C\\| (Thm 3.12) |"), "{report}");
        assert_tables_are_rectangular(&report);
    }
}
