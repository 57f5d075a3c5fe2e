//! The demo's learning sections: dimensions, private learners against their bounds,
//! private prediction, sanitizers, multi-learners and the tracing attack.

use super::*;

#[derive(Debug, Serialize)]
pub(super) struct DimensionRow {
    class: String,
    concepts: u128,
    vc_dimension: u32,
    shattered_set: Vec<usize>,
    littlestone_dimension: u32,
    tree_depth: u32,
    /// Both witnesses passed their checkers (a failure is an error, not a row).
    witnesses_verified: bool,
}

#[derive(Debug, Serialize)]
pub(super) struct DimensionsSection {
    classes: Vec<DimensionRow>,
}

impl DimensionsSection {
    pub(super) fn render(&self) -> String {
        let mut table = Table::new(&[
            "class",
            "|C|",
            "VC",
            "shattered set",
            "Ldim",
            "tree depth",
            "witnesses",
        ]);
        for row in &self.classes {
            table.row(vec![
                row.class.clone(),
                row.concepts.to_string(),
                row.vc_dimension.to_string(),
                format!("{:?}", row.shattered_set),
                row.littlestone_dimension.to_string(),
                row.tree_depth.to_string(),
                if row.witnesses_verified {
                    "checked".to_string()
                } else {
                    "NOT checked".to_string()
                },
            ]);
        }
        format!(
            "Dimensions computed exactly; each witness (a shattered set, a shattered tree) is \
             checked against the class by an independent checker:\n{}",
            table.render()
        )
    }
}

pub(super) fn dimensions_section() -> anyhow::Result<DimensionsSection> {
    let mut classes = Vec::new();
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
        check_shattered(&matrix, &vc.shattered)?;
        let depth = check_littlestone_tree(&matrix, &ldim.tree)?;
        anyhow::ensure!(
            depth == ldim.dimension,
            "{spec}: witness tree of depth {depth} for Ldim {}",
            ldim.dimension
        );
        classes.push(DimensionRow {
            class: spec.to_string(),
            concepts: class.len(),
            vc_dimension: vc.dimension,
            shattered_set: vc.shattered,
            littlestone_dimension: ldim.dimension,
            tree_depth: depth,
            witnesses_verified: true,
        });
    }
    Ok(DimensionsSection { classes })
}

#[derive(Debug, Serialize)]
pub(super) struct EpsilonRate {
    epsilon: f64,
    success_rate: f64,
}

#[derive(Debug, Serialize)]
pub(super) struct LearningRow {
    n: usize,
    erm_success_rate: f64,
    generic: Vec<EpsilonRate>,
}

#[derive(Debug, Serialize)]
pub(super) struct EpsilonBound {
    epsilon: f64,
    bound: Bound,
}

#[derive(Debug, Serialize)]
pub(super) struct LearningSetup {
    class: String,
    scenario: ScenarioKind,
    rows: Vec<LearningRow>,
    /// The generic learner's bound for this scenario kind, per ε.
    bounds: Vec<EpsilonBound>,
}

#[derive(Debug, Serialize)]
pub(super) struct LearningSection {
    trials: usize,
    alpha: f64,
    beta: f64,
    setups: Vec<LearningSetup>,
}

/// "ε=…: n ≤ …" for each explicit bound.
pub(super) fn bound_list(bounds: &[EpsilonBound]) -> String {
    bounds
        .iter()
        .map(|b| match b.bound.sample_size() {
            Some(n) => format!("ε={}: {n:.0}", b.epsilon),
            None => format!("ε={}: none with explicit constants", b.epsilon),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

impl LearningSection {
    pub(super) fn render(&self) -> String {
        let mut out = format!(
            "Success rate (true error ≤ {}) over {} trials; generic = ε-DP exponential \
             mechanism, erm = non-private baseline.\n",
            self.alpha, self.trials
        );
        for setup in &self.setups {
            let mut header = vec!["n".to_string(), "erm".to_string()];
            if let Some(row) = setup.rows.first() {
                header.extend(
                    row.generic
                        .iter()
                        .map(|g| format!("generic ε={}", g.epsilon)),
                );
            }
            let header: Vec<&str> = header.iter().map(String::as_str).collect();
            let mut table = Table::new(&header);
            for row in &setup.rows {
                let mut cells = vec![row.n.to_string(), format!("{:.2}", row.erm_success_rate)];
                cells.extend(row.generic.iter().map(|g| format!("{:.2}", g.success_rate)));
                table.row(cells);
            }
            let name = match setup.bounds.first().map(|b| &b.bound) {
                Some(Bound::Explicit { name, source, .. }) => format!("{name}; {source}"),
                _ => "no explicit constants".to_string(),
            };
            out.push_str(&format!(
                "\n{} ({:?})\n{}bound on n for success ≥ {} ({name}): {}\n",
                setup.class,
                setup.scenario,
                table.render(),
                1.0 - self.beta,
                bound_list(&setup.bounds)
            ));
        }
        out
    }
}

pub(super) fn learning_section(seed: u64) -> anyhow::Result<LearningSection> {
    const TRIALS: usize = 40;
    const ALPHA: f64 = 0.1;
    const BETA: f64 = 0.1;
    const EPSILONS: [f64; 3] = [0.25, 1.0, 4.0];
    let setups: [(&str, Box<dyn ConceptClass>, ExampleDistribution, u64); 3] = [
        (
            "thresholds:1024",
            parse_spec("thresholds:1024")?,
            ExampleDistribution::Uniform,
            300,
        ),
        (
            "points:1024 (mass 0.2 on the target)",
            parse_spec("points:1024")?,
            ExampleDistribution::PointMass {
                point: 7,
                mass: 0.2,
            },
            7,
        ),
        (
            "parities:8",
            parse_spec("parities:8")?,
            ExampleDistribution::Uniform,
            0b1011_0010,
        ),
    ];
    let mut out = Vec::new();
    for (name, class, distribution, target) in setups {
        let scenario = Scenario::new(class, distribution, target, 0.0)?;
        let mut rows = Vec::new();
        for n in [25usize, 100, 400] {
            let config = TrialConfig {
                trials: TRIALS,
                sample_size: n,
                alpha: ALPHA,
                master_seed: seed,
            };
            let erm = run_trials(&scenario, &Erm::default() as &dyn Learner, config)?;
            let mut generic = Vec::new();
            for epsilon in EPSILONS {
                let learner = GenericLearner::new(Privacy::pure(epsilon)?)?;
                let outcome = run_trials(&scenario, &learner, config)?;
                generic.push(EpsilonRate {
                    epsilon,
                    success_rate: outcome.success_rate,
                });
            }
            rows.push(LearningRow {
                n,
                erm_success_rate: erm.success_rate,
                generic,
            });
        }
        // The labels come from the target (no noise): the realizable bound applies.
        let bounds = EPSILONS
            .iter()
            .map(|&epsilon| {
                Ok(EpsilonBound {
                    epsilon,
                    bound: bounds_for(
                        LearnerSpec::Generic,
                        scenario.class(),
                        scenario.kind(),
                        epsilon,
                        ALPHA,
                        BETA,
                    )?,
                })
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        out.push(LearningSetup {
            class: name.to_string(),
            scenario: scenario.kind(),
            rows,
            bounds,
        });
    }
    Ok(LearningSection {
        trials: TRIALS,
        alpha: ALPHA,
        beta: BETA,
        setups: out,
    })
}

#[derive(Debug, Serialize)]
pub(super) struct LearnerError {
    learner: String,
    mean_error: f64,
}

#[derive(Debug, Serialize)]
pub(super) struct PredictionRow {
    n: usize,
    results: Vec<LearnerError>,
}

#[derive(Debug, Serialize)]
pub(super) struct PredictionSection {
    class: String,
    label_noise: f64,
    scenario: ScenarioKind,
    trials: usize,
    flip_probability: f64,
    per_prediction_epsilon: f64,
    rows: Vec<PredictionRow>,
    /// The generic learner's agnostic bound at ε = 1 (for excess error α = 0.1, β = 0.1).
    generic_bound: Bound,
}

impl PredictionSection {
    pub(super) fn render(&self) -> String {
        let mut table = Table::new(&["n", "erm", "stable + flips", "voting", "relabeling"]);
        for row in &self.rows {
            let mut cells = vec![row.n.to_string()];
            cells.extend(row.results.iter().map(|r| format!("{:.3}", r.mean_error)));
            table.row(cells);
        }
        let bound = match &self.generic_bound {
            Bound::Explicit {
                name,
                source,
                sample_size,
            } => format!(
                "For comparison, the {name} bound ({source}) at ε = 1, α = β = 0.1: n ≤ {sample_size:.0}.\n"
            ),
            Bound::NoExplicitConstants { reason } => format!("{reason}\n"),
        };
        format!(
            "Mean true error over {} trials, {} with {} label noise (OPT = {}, an agnostic \
             scenario); every private learner answers each query with ε ≤ {}. Flipping with \
             η = {} floors the error at η + (1 − 2η)·OPT = {:.2}; voting (ERM on 7 blocks, \
             noisy vote) pays only the vote's noise, about (1 − 2·OPT)/(1 + e^3.5) = 0.024 \
             once the blocks agree. Relabeling ends in the same vote; its privacy is proven, \
             but its accuracy guarantee is a conjecture: the column shows what it measured.\n{}{bound}",
            self.trials,
            self.class,
            self.label_noise,
            self.label_noise,
            self.per_prediction_epsilon,
            self.flip_probability,
            self.flip_probability + (1.0 - 2.0 * self.flip_probability) * self.label_noise,
            table.render()
        )
    }
}

/// Private prediction under label noise: the three per-prediction learners at ε ≤ 1
/// against the non-private ERM, by mean true error.
pub(super) fn prediction_section(seed: u64) -> anyhow::Result<PredictionSection> {
    const TRIALS: usize = 40;
    const NOISE: f64 = 0.1;
    const ETA: f64 = 0.05;
    let scenario = Scenario::new(
        parse_spec("thresholds:64")?,
        ExampleDistribution::Uniform,
        20,
        NOISE,
    )?;
    let mut rows = Vec::new();
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
        let mut results = Vec::new();
        for learner in &learners {
            let outcome = run_trials(&scenario, learner.as_ref(), config)?;
            results.push(LearnerError {
                learner: learner.name(),
                mean_error: outcome.mean_error,
            });
        }
        rows.push(PredictionRow { n, results });
    }
    // Noisy labels: the agnostic bound applies.
    let generic_bound = bounds_for(
        LearnerSpec::Generic,
        scenario.class(),
        scenario.kind(),
        1.0,
        0.1,
        0.1,
    )?;
    Ok(PredictionSection {
        class: "thresholds:64".to_string(),
        label_noise: NOISE,
        scenario: scenario.kind(),
        trials: TRIALS,
        flip_probability: ETA,
        per_prediction_epsilon: 1.0,
        rows,
        generic_bound,
    })
}

#[derive(Debug, Serialize)]
pub(super) struct SanitizerResult {
    sanitizer: String,
    guarantee: Privacy,
    guarantee_text: String,
    max_query_error: f64,
}

#[derive(Debug, Serialize)]
pub(super) struct SanitizingSection {
    class: String,
    data_points: usize,
    results: Vec<SanitizerResult>,
}

impl SanitizingSection {
    pub(super) fn render(&self) -> String {
        let mut table = Table::new(&["sanitizer", "guarantee", "max query error"]);
        for r in &self.results {
            table.row(vec![
                r.sanitizer.clone(),
                r.guarantee_text.clone(),
                format!("{:.4}", r.max_query_error),
            ]);
        }
        format!(
            "Synthetic data for the counting queries of {} ({} points):\n{}",
            self.class,
            self.data_points,
            table.render()
        )
    }
}

pub(super) fn sanitizing_section(rng: &mut ChaCha8Rng) -> anyhow::Result<SanitizingSection> {
    use privpac_sanitizers::{Mwem, Sanitizer, ThresholdSanitizer, max_query_error};
    let class = parse_spec("thresholds:1024")?;
    // 5000 points, skewed towards small values.
    let data: Vec<u64> = (0..5000u64)
        .map(|i| (i * i) % 1024 * (i % 3 + 1) / 3)
        .collect();
    let sanitizers: Vec<Box<dyn Sanitizer>> = vec![
        Box::new(ThresholdSanitizer::new(Privacy::pure(1.0)?)?),
        Box::new(Mwem::new(Privacy::pure(1.0)?, 20)?),
    ];
    let mut results = Vec::new();
    for sanitizer in sanitizers {
        let synthetic = sanitizer.sanitize(class.as_ref(), &data, rng)?;
        let (error, _) = max_query_error(class.as_ref(), &data, &synthetic)?;
        results.push(SanitizerResult {
            sanitizer: sanitizer.name(),
            guarantee: sanitizer.privacy(),
            guarantee_text: sanitizer.privacy().to_string(),
            max_query_error: error,
        });
    }
    Ok(SanitizingSection {
        class: "thresholds:1024".to_string(),
        data_points: data.len(),
        results,
    })
}

/// The multi-learner section: empirical n against k for the parity k-learner and the pure
/// direct sum on a small instance (parities over {0,1}^6, uniform, k = 1, 4, 16).
#[derive(Debug, Serialize)]
pub(super) struct MultiLearningSection {
    class: String,
    trials: usize,
    alpha: f64,
    beta: f64,
    ks: Vec<usize>,
    /// One curve per learner: n per k and the fitted log–log slope.
    curves: Vec<privpac_toolkit::KCurve>,
}

impl MultiLearningSection {
    pub(super) fn render(&self) -> String {
        let mut header = vec!["learner".to_string()];
        header.extend(self.ks.iter().map(|k| format!("n at k = {k}")));
        header.push("slope (95% CI)".to_string());
        let header: Vec<&str> = header.iter().map(String::as_str).collect();
        let mut table = Table::new(&header);
        for curve in &self.curves {
            let mut row = vec![curve.learner.clone()];
            row.extend(curve.points.iter().map(|p| p.sample_size.to_string()));
            row.push(curve.fit.map_or_else(String::new, |f| {
                format!(
                    "{:.2} [{:.2}, {:.2}]",
                    f.slope, f.slope_interval.0, f.slope_interval.1
                )
            }));
            table.row(row);
        }
        format!(
            "{} under the uniform distribution; n = the smallest size at which {} trials reach \
             multi-error ≤ {} with rate ≥ {}.\nThe parity learner (A_dist, (1, 1e-6)) needs the same n for every k; \
             the pure direct sum (ε = 1 split over k columns) needs n growing like k.\n{}",
            self.class,
            self.trials,
            self.alpha,
            1.0 - self.beta,
            table.render()
        )
    }
}

pub(super) fn multi_learning_section(seed: u64) -> anyhow::Result<MultiLearningSection> {
    const TRIALS: usize = 10;
    const ALPHA: f64 = 0.1;
    const BETA: f64 = 0.1;
    let ks = vec![1, 4, 16];
    let class = "parities:6";
    let scenario_for = |k: usize| -> privpac_toolkit::Result<privpac_toolkit::MultiScenario> {
        privpac_toolkit::MultiScenario::new(
            parse_spec(class)?,
            &ExampleDistribution::Uniform,
            privpac_toolkit::MultiTargets::Random { k, seed },
            0.0,
        )
    };
    let config = privpac_toolkit::SearchConfig {
        alpha: ALPHA,
        beta: BETA,
        trials: TRIALS,
        master_seed: seed,
        start: 16,
        max_size: 1 << 16,
    };
    let mut curves = Vec::new();
    for (spec, total) in [
        ("parity", Privacy::new(1.0, 1e-6)?),
        ("direct-sum:generic", Privacy::pure(1.0)?),
    ] {
        let spec: privpac_toolkit::MultiLearnerSpec = spec.parse()?;
        let learner_for = |k: usize| {
            privpac_toolkit::build_multi_learner(
                spec,
                total,
                k,
                &privpac_toolkit::LearnerParams::default(),
                1 << 16,
            )
        };
        curves.push(privpac_toolkit::sample_complexity_curve(
            &ks,
            &scenario_for,
            &learner_for,
            config,
            &mut |_, _| {},
        )?);
    }
    Ok(MultiLearningSection {
        class: class.to_string(),
        trials: TRIALS,
        alpha: ALPHA,
        beta: BETA,
        ks,
        curves,
    })
}

/// The attack section: the Boneh–Shaw tracing attack (Theorem 4.3) against non-private
/// per-column ERM and against the pure direct sum at ε = 1, on thresholds.
#[derive(Debug, Serialize)]
pub(super) struct AttackSection {
    class: String,
    users: usize,
    k: usize,
    trials: usize,
    rows: Vec<AttackRow>,
}

/// One learner under attack.
#[derive(Debug, Serialize)]
pub(super) struct AttackRow {
    learner: String,
    guarantee: privpac_accounting::Guarantee,
    guarantee_text: String,
    /// Full-coalition trials in which a member was accused.
    traced: usize,
    /// Trials in which the user whose row was replaced was accused anyway.
    innocent_accused: usize,
    /// The certified ε lower bound (95%), if the rates imply one.
    epsilon_lower_bound: Option<f64>,
}

impl AttackSection {
    pub(super) fn render(&self) -> String {
        let mut table = Table::new(&[
            "learner",
            "guarantee",
            "traced",
            "innocents accused",
            "certified ε ≥",
        ]);
        for row in &self.rows {
            table.row(vec![
                row.learner.clone(),
                row.guarantee_text.clone(),
                format!("{}/{}", row.traced, self.trials),
                format!("{}/{}", row.innocent_accused, self.trials),
                row.epsilon_lower_bound
                    .map_or_else(|| "none".to_string(), |e| format!("{e:.2}")),
            ]);
        }
        format!(
            "{} users' Boneh–Shaw codewords (k = {} columns) as a k-labeled database on {}; \
             the learner's hypotheses are rounded into a pirate word and traced.\n\
             A learner that memorizes its data gets its users traced; a private one does not.\n{}",
            self.users,
            self.k,
            self.class,
            table.render()
        )
    }
}

pub(super) fn attack_section(seed: u64) -> anyhow::Result<AttackSection> {
    use privpac_attacks::attack::{AttackConfig, CodeKind, ColumnErm, run_attack};
    const USERS: usize = 5;
    const TRIALS: usize = 60;
    let class = parse_spec("thresholds:8")?;
    let k = privpac_attacks::fingerprinting::FingerprintingCode::length(
        &privpac_attacks::fingerprinting::BonehShaw::for_security(USERS, 0.1)?,
    );
    let config = AttackConfig::new(CodeKind::BonehShaw, USERS, k, 0.1, TRIALS)?;
    let direct = privpac_multi::DirectSum::for_total(
        privpac_accounting::Privacy::pure(1.0)?,
        k,
        USERS,
        &|p| {
            Ok(Box::new(privpac_learners::GenericLearner::new(p)?)
                as Box<dyn privpac_learners::Learner>)
        },
    )?;
    let learners: [&dyn privpac_multi::MultiLearner; 2] = [&ColumnErm, &direct];
    let mut rng = rand::SeedableRng::seed_from_u64(seed);
    let rng: &mut ChaCha8Rng = &mut rng;
    let mut rows = Vec::new();
    for learner in learners {
        let report = run_attack(learner, class.as_ref(), &config, rng)?;
        rows.push(AttackRow {
            learner: learner.name(),
            guarantee: report.guarantee,
            guarantee_text: report.guarantee.to_string(),
            traced: report.traced,
            innocent_accused: report.innocent_accused,
            epsilon_lower_bound: report.epsilon_lower_bound,
        });
    }
    Ok(AttackSection {
        class: class.name(),
        users: USERS,
        k,
        trials: TRIALS,
        rows,
    })
}

/// The auditing section: the black-box auditor on correct mechanisms and their broken
/// twins, at a claimed ε.
#[derive(Debug, Serialize)]
pub(super) struct AuditingSection {
    claimed_epsilon: f64,
    runs: u64,
    confidence: f64,
    rows: Vec<AuditingRow>,
}

/// One audited mechanism.
#[derive(Debug, Serialize)]
pub(super) struct AuditingRow {
    mechanism: String,
    broken: bool,
    epsilon_lower_bound: f64,
    refuted: bool,
}

impl AuditingSection {
    pub(super) fn render(&self) -> String {
        let mut table = Table::new(&["mechanism", "certified ε ≥", "claim refuted"]);
        for row in &self.rows {
            table.row(vec![
                row.mechanism.clone(),
                format!("{:.3}", row.epsilon_lower_bound),
                if row.refuted { "yes" } else { "no" }.to_string(),
            ]);
        }
        format!(
            "claimed ε = {}, {} certification runs per input, confidence {}: a bound above the claim \
             refutes it.\n{}\nMore: `privpac audit --all`; figures in docs/experiments/ \
             (`privpac experiment list`).",
            self.claimed_epsilon,
            self.runs,
            self.confidence,
            table.render()
        )
    }
}

pub(super) fn auditing_section(seed: u64) -> anyhow::Result<AuditingSection> {
    const EPSILON: f64 = 0.5;
    const RUNS: u64 = 20_000;
    const CONFIDENCE: f64 = 0.99;
    let config = privpac_audit::BlackBoxConfig::new(RUNS, CONFIDENCE, seed)?;
    let mut rows = Vec::new();
    for name in [
        "randomized-response",
        "discrete-laplace",
        "broken-noise-scale-epsilon",
        "broken-sensitivity-off-by-2",
    ] {
        let entry = privpac_zoo::Zoo::from_name(name)?;
        let audit = entry.audit(EPSILON, &config)?;
        rows.push(AuditingRow {
            mechanism: name.to_string(),
            broken: entry.broken(),
            epsilon_lower_bound: audit.epsilon_lower_bound,
            refuted: audit.refutes(EPSILON),
        });
    }
    Ok(AuditingSection {
        claimed_epsilon: EPSILON,
        runs: RUNS,
        confidence: CONFIDENCE,
        rows,
    })
}
