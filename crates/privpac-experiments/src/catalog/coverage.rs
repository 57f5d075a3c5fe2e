//! The `coverage` experiment: every single-concept learner on every structured class at
//! several domain sizes, each cell a sample-complexity search (ε = 1, α = 0.1, β = 0.2)
//! with a time budget, reporting per cell the outcome (measured, unreachable, not reached,
//! over budget, refused), n, the reason and the seconds it took. It is the table of issue
//! 38 as a product feature: `privpac experiment run coverage` measures it on the machine
//! at hand.
//!
//! Cells: the learners of [`LEARNERS`] × points, thresholds, both(thresholds), intervals
//! and parities over 2^b points for each b of the scale (tiny: a few cells over 2^4 at
//! α = 0.025, where the vote's floor 1/(1 + e^{3.5}) ≈ 0.029 makes it unreachable; quick:
//! b = 8 with 5 s per cell; full: b = 8, 20, 40 with 10 s per cell, 20 trials). Points
//! get mass min(2α, 0.9) on the target (under the uniform distribution a constant solves
//! them); the other classes the uniform distribution and the default target
//! ([`privpac_toolkit::default_target`]), which no constant solves at α = 0.1.
//!
//! The budget is checked before each size of the search (a size already running is not
//! interrupted), so a cell can overrun it by one size's trials; the seconds are wall-clock
//! time on the machine that ran the unit and are recorded only at the quick and full
//! scales (the tiny scale's rows, which the tests compare across runs, hold no time).

use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};

use crate::{Error, Result, Scale};
use privpac_toolkit::{
    ClassSpec, ExampleDistribution, LearnerParams, LearnerSpec, Scenario, SearchConfig,
    build_learner, default_target, empirical_sample_complexity_observed,
};

/// The experiment's name.
pub(super) const NAME: &str = "coverage";

/// The learners of a full or quick run: every single-concept learner spec.
pub(super) const LEARNERS: [&str; 13] = [
    "erm",
    "generic",
    "improper-point",
    "stable",
    "private-prediction",
    "voting",
    "relabeling",
    "dagan-feldman",
    "sanitizer:point",
    "sanitizer:blr",
    "sanitizer:pmw",
    "sanitizer:mwem",
    "sanitizer:tree",
];

/// δ for the (ε, δ) learners (`sanitizer:point`); the others are pure.
const DELTA: f64 = 1e-6;

/// The classes over 2^b points.
fn classes(b: u32) -> Vec<String> {
    let n = 1u64 << b;
    vec![
        format!("points:{n}"),
        format!("thresholds:{n}"),
        format!("both(thresholds:{n})"),
        format!("intervals:{n}"),
        format!("parities:{b}"),
    ]
}

/// The units of a scale.
pub(super) fn units(scale: Scale) -> Vec<Map<String, Value>> {
    let (sizes, learners, alpha, budget): (&[u32], Vec<&str>, f64, f64) = match scale {
        Scale::Tiny => (&[4], vec!["erm", "generic", "voting"], 0.025, 600.0),
        Scale::Quick => (&[8], LEARNERS.to_vec(), 0.1, 5.0),
        Scale::Full => (&[8, 20, 40], LEARNERS.to_vec(), 0.1, 10.0),
    };
    let mut units = Vec::new();
    for &b in sizes {
        for class in classes(b) {
            if scale == Scale::Tiny && !(class.starts_with("points") || class.starts_with("thr")) {
                continue;
            }
            for learner in &learners {
                let mut unit = Map::new();
                unit.insert("log2_domain".into(), json!(b));
                unit.insert("class".into(), json!(class));
                unit.insert("learner".into(), json!(learner));
                unit.insert("alpha".into(), json!(alpha));
                unit.insert("budget_seconds".into(), json!(budget));
                units.push(unit);
            }
        }
    }
    units
}

/// Runs one cell: the search, its outcome and (at the quick and full scales) its seconds.
pub(super) fn run_unit(
    scale: Scale,
    unit: &Map<String, Value>,
    seed: u64,
    index: usize,
) -> Result<Map<String, Value>> {
    let text = |key: &str| unit.get(key).and_then(Value::as_str).unwrap_or_default();
    let number = |key: &str| unit.get(key).and_then(Value::as_f64).unwrap_or(f64::NAN);
    let (alpha, beta, trials) = (number("alpha"), 0.2, 20);
    let budget = Duration::from_secs_f64(number("budget_seconds"));
    let mut row = unit.clone();
    row.insert("unit".into(), json!(index));
    row.insert("epsilon".into(), json!(1.0));
    row.insert("beta".into(), json!(beta));
    row.insert("trials".into(), json!(trials));
    let spec: LearnerSpec = text("learner").parse().map_err(|source| Error::Unit {
        unit: index,
        source: Box::new(source),
    })?;
    let started = Instant::now();
    let (outcome, sample_size, reason) = match cell(
        text("class"),
        spec,
        alpha,
        beta,
        trials,
        seed,
        budget,
        started,
    ) {
        Ok(n) => ("measured", Some(n), None),
        Err(privpac_toolkit::Error::Unreachable { alpha, reason }) => (
            "unreachable",
            None,
            Some(format!("accuracy α = {alpha} is out of reach: {reason}")),
        ),
        Err(privpac_toolkit::Error::SampleComplexityNotReached { max_size, .. }) => (
            "not reached",
            None,
            Some(format!(
                "no size up to {max_size} reached success rate 1 − β"
            )),
        ),
        Err(privpac_toolkit::Error::TimeBudget { seconds }) => (
            "over budget",
            None,
            Some(format!("no answer within the budget of {seconds} s")),
        ),
        Err(other) => ("refused", None, Some(other.to_string())),
    };
    row.insert("outcome".into(), json!(outcome));
    row.insert("sample_size".into(), json!(sample_size));
    row.insert("reason".into(), json!(reason));
    if scale != Scale::Tiny {
        let seconds = started.elapsed().as_secs_f64();
        row.insert("seconds".into(), json!((seconds * 100.0).round() / 100.0));
    }
    Ok(row)
}

/// One cell's search: its sample size, or why there is none.
#[allow(
    clippy::too_many_arguments,
    reason = "one argument per setting of the cell"
)]
fn cell(
    class: &str,
    spec: LearnerSpec,
    alpha: f64,
    beta: f64,
    trials: usize,
    seed: u64,
    budget: Duration,
    started: Instant,
) -> privpac_toolkit::Result<usize> {
    let class = class.parse::<ClassSpec>()?.build()?;
    let target = default_target(class.as_ref());
    let distribution = if class.name().starts_with("points") {
        ExampleDistribution::mass_on_target(class.as_ref(), target, (2.0 * alpha).min(0.9))
    } else {
        ExampleDistribution::Uniform
    };
    let class_size = class.len();
    let scenario = Scenario::new(class, distribution, target, 0.0)?;
    let (epsilon, em_epsilon) = match spec {
        LearnerSpec::Erm => (None, None),
        LearnerSpec::Stable => (None, Some(1.0)),
        _ => (Some(1.0), None),
    };
    let params = LearnerParams {
        epsilon,
        em_epsilon,
        delta: if matches!(
            spec,
            LearnerSpec::Sanitizer(privpac_toolkit::SanitizerSpec::Point)
        ) {
            DELTA
        } else {
            0.0
        },
        class_size: Some(class_size),
        alpha,
        beta,
        ..LearnerParams::default()
    };
    let builder = |n: usize| {
        if started.elapsed() > budget {
            return Err(privpac_toolkit::Error::TimeBudget {
                seconds: budget.as_secs_f64(),
            });
        }
        build_learner(spec, &params, n)
    };
    let config = SearchConfig {
        alpha,
        beta,
        trials,
        master_seed: seed,
        start: 4,
        max_size: 1 << 20,
    };
    empirical_sample_complexity_observed(&scenario, &builder, config, &mut |_| {})
        .map(|found| found.sample_size)
}

/// The figure: each measured cell's n against the learner's position in [`LEARNERS`]
/// (1 = erm … 13 = sanitizer:tree), one series per class and domain size; cells without
/// an n are absent (the report's table gives their outcome).
pub(super) fn figure(rows: &[Map<String, Value>]) -> crate::plot::Figure {
    let text = |r: &Map<String, Value>, key: &str| {
        r.get(key)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    let mut names: Vec<String> = rows.iter().map(|r| text(r, "class")).collect();
    names.dedup();
    let series = names
        .iter()
        .map(|class| {
            let points = rows
                .iter()
                .filter(|r| &text(r, "class") == class)
                .filter_map(|r| {
                    let n = r.get("sample_size")?.as_f64()?;
                    let position = LEARNERS.iter().position(|l| *l == text(r, "learner"))?;
                    Some(((position + 1) as f64, n))
                })
                .collect();
            crate::plot::Series::measured(class.clone(), points)
        })
        .collect();
    crate::plot::Figure {
        file: "n-by-learner.svg".into(),
        title: "coverage: the measured cells' n by learner (ε = 1, β = 0.2)".into(),
        x_label: "learner (1 = erm, 2 = generic, 3 = improper-point, 4 = stable, 5 = private-prediction, 6 = voting, 7 = relabeling, 8 = dagan-feldman, 9–13 = sanitizer point, blr, pmw, mwem, tree)".into(),
        y_label: "examples n".into(),
        series,
        log_x: false,
        log_y: true,
    }
}

/// The report's sections: setup, a summary per domain size and the cells.
pub(super) fn report(rows: &[Map<String, Value>]) -> String {
    let text = |r: &Map<String, Value>, key: &str| {
        r.get(key)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    let mut out = String::from(
        "## Setup\n\nEvery single-concept learner on points, thresholds, both(thresholds), intervals and parities over 2^b points: \
         a sample-complexity search per cell (ε = 1, δ = 10⁻⁶ for sanitizer:point, β = 0.2, 20 trials, doubling from 4 to at most 2^20, \
         then binary search), with the per-cell time budget of `budget_seconds` checked before each size. Points: mass min(2α, 0.9) \
         on the target; the other classes: uniform distribution, default target (not solved by a constant). Outcomes: `measured` \
         (n found), `unreachable` (the learner's proven error floor exceeds α, or the success rate plateaued below 1 − β; the reason \
         says which), `not reached` (no size up to 2^20 reached 1 − β), `over budget`, `refused` (the learner or class refused the \
         cell; the reason is its error). Seconds are wall-clock on the machine that ran the unit.\n\n## Summary\n\n\
         | log₂ of the domain size | measured | unreachable | not reached | over budget | refused |\n|---|---:|---:|---:|---:|---:|\n",
    );
    let mut sizes: Vec<u64> = rows
        .iter()
        .filter_map(|r| r.get("log2_domain")?.as_u64())
        .collect();
    sizes.sort_unstable();
    sizes.dedup();
    for b in &sizes {
        let count = |outcome: &str| {
            rows.iter()
                .filter(|r| r.get("log2_domain").and_then(Value::as_u64) == Some(*b))
                .filter(|r| text(r, "outcome") == outcome)
                .count()
        };
        out.push_str(&format!(
            "| {b} | {} | {} | {} | {} | {} |\n",
            count("measured"),
            count("unreachable"),
            count("not reached"),
            count("over budget"),
            count("refused")
        ));
    }
    out.push_str("\n## Cells\n\n");
    out.push_str(&super::table(
        rows,
        &[
            "log2_domain",
            "class",
            "learner",
            "outcome",
            "sample_size",
            "seconds",
            "reason",
        ],
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tiny cells (the CI version of the table): ERM and the generic learner are
    /// measured on thresholds and points over 16 points at α = 0.025, and the vote (ε = 1,
    /// 7 voters) is reported unreachable at once with its floor 1/(1 + e^{3.5}) ≈ 0.029 as
    /// the reason. Outcomes and sizes only, no time.
    #[test]
    fn the_tiny_table_measures_erm_and_generic_and_refuses_the_vote_with_its_floor() {
        let units = units(Scale::Tiny);
        assert_eq!(units.len(), 6);
        for (index, unit) in units.iter().enumerate() {
            let row = run_unit(Scale::Tiny, unit, 11, index).unwrap();
            let outcome = row["outcome"].as_str().unwrap();
            let learner = row["learner"].as_str().unwrap();
            assert!(row.get("seconds").is_none());
            if learner == "voting" {
                assert_eq!(outcome, "unreachable", "{row:?}");
                let reason = row["reason"].as_str().unwrap();
                assert!(
                    reason.contains("vote") && reason.contains("0.029"),
                    "{reason}"
                );
            } else {
                assert_eq!(outcome, "measured", "{row:?}");
                assert!(row["sample_size"].as_u64().unwrap() >= 1, "{row:?}");
            }
        }
        let report = report(
            &units
                .iter()
                .enumerate()
                .map(|(i, u)| run_unit(Scale::Tiny, u, 11, i).unwrap())
                .collect::<Vec<_>>(),
        );
        assert!(report.contains("| 4 | 4 | 2 | 0 | 0 | 0 |"), "{report}");
    }
}
