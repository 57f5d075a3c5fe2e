//! `privpac mech …`: run one mechanism from the command line.

use anyhow::{Context as _, bail};
use privpac_accounting::{Privacy, Private, basic_composition};
use privpac_mechanisms::{DiscreteLaplaceMechanism, ExponentialMechanism, LaplaceMechanism};
use privpac_toolkit::limits::MAX_RELEASES;
use serde::Serialize;

use crate::cli::{ExponentialArgs, LaplaceArgs};
use crate::commands::rng;
use crate::output::{Render, Table, emit};

/// The JSON of `privpac mech exponential`.
#[derive(Debug, Serialize)]
struct ExponentialReport {
    /// Always "exponential".
    mechanism: &'static str,
    epsilon: f64,
    sensitivity: f64,
    scores: Vec<f64>,
    /// Exact output probabilities (with --probabilities), else null.
    probabilities: Option<Vec<f64>>,
    /// The sampled index (without --probabilities), else null.
    chosen: Option<usize>,
    /// Its score, else null.
    chosen_score: Option<f64>,
    guarantee: Privacy,
    guarantee_text: String,
}

impl Render for ExponentialReport {
    fn render(&self) -> String {
        let mut out = String::new();
        if let Some(probabilities) = &self.probabilities {
            let mut table = Table::new(&["index", "score", "probability"]);
            for (i, (score, p)) in self.scores.iter().zip(probabilities).enumerate() {
                table.row(vec![i.to_string(), score.to_string(), format!("{p:.6e}")]);
            }
            out.push_str(&table.render());
        }
        if let (Some(chosen), Some(score)) = (self.chosen, self.chosen_score) {
            out.push_str(&format!("chosen index: {chosen} (score {score})\n"));
        }
        out.push_str(&format!("guarantee: {}\n", self.guarantee_text));
        out
    }
}

/// `privpac mech exponential`.
pub(crate) fn exponential(args: &ExponentialArgs) -> anyhow::Result<()> {
    let scores = parse_scores(&args.scores)?;
    let mechanism = ExponentialMechanism::new(Privacy::pure(args.epsilon)?, args.sensitivity)?;
    let (probabilities, chosen) = if args.probabilities {
        (Some(mechanism.probabilities(&scores)?), None)
    } else {
        (
            None,
            Some(mechanism.select(&scores, &mut rng(&args.common))?),
        )
    };
    let report = ExponentialReport {
        mechanism: "exponential",
        epsilon: args.epsilon,
        sensitivity: args.sensitivity,
        chosen_score: chosen.map(|i| scores[i]),
        scores,
        probabilities,
        chosen,
        guarantee: mechanism.privacy(),
        guarantee_text: mechanism.privacy().to_string(),
    };
    emit(&report, args.common.json)
}

/// The released values: integers with --discrete, reals otherwise.
#[derive(Debug, Serialize)]
#[serde(untagged)]
enum Releases {
    Integers(Vec<i64>),
    Reals(Vec<f64>),
}

/// The JSON of `privpac mech laplace`.
#[derive(Debug, Serialize)]
struct LaplaceReport {
    /// "laplace" or "discrete-laplace".
    mechanism: &'static str,
    epsilon: f64,
    sensitivity: f64,
    count: usize,
    releases: Releases,
    /// The guarantee of all releases together (basic composition, rounded up).
    guarantee: Privacy,
    guarantee_text: String,
    /// The guarantee of each release.
    guarantee_each: Privacy,
    guarantee_each_text: String,
}

impl Render for LaplaceReport {
    fn render(&self) -> String {
        let mut out = String::new();
        match &self.releases {
            Releases::Integers(values) => {
                for v in values {
                    out.push_str(&format!("{v}\n"));
                }
            }
            Releases::Reals(values) => {
                for v in values {
                    out.push_str(&format!("{v}\n"));
                }
            }
        }
        out.push_str(&format!(
            "guarantee: {} each; {} for all {} (basic composition)\n",
            self.guarantee_each_text, self.guarantee_text, self.count
        ));
        out
    }
}

/// `privpac mech laplace`.
pub(crate) fn laplace(args: &LaplaceArgs) -> anyhow::Result<()> {
    let privacy = Privacy::pure(args.epsilon)?;
    if args.count == 0 {
        bail!("--count must be at least 1");
    }
    privpac_toolkit::check_count("--count", args.count, MAX_RELEASES)?;
    let mut rng = rng(&args.common);
    let (releases, each, kind, sensitivity) = if args.discrete {
        let value: i64 = args
            .value
            .trim()
            .parse()
            .with_context(|| format!("--value {:?} is not an integer", args.value))?;
        let sensitivity: u64 = args.sensitivity.trim().parse().with_context(|| {
            format!(
                "--sensitivity {:?} is not a positive integer",
                args.sensitivity
            )
        })?;
        let mechanism = DiscreteLaplaceMechanism::new(privacy, sensitivity)?;
        let releases = (0..args.count)
            .map(|_| mechanism.release(value, &mut rng))
            .collect::<Result<Vec<i64>, _>>()?;
        (
            Releases::Integers(releases),
            mechanism.privacy(),
            "discrete-laplace",
            sensitivity as f64,
        )
    } else {
        let value = parse_number("--value", &args.value)?;
        let sensitivity = parse_number("--sensitivity", &args.sensitivity)?;
        let mechanism = LaplaceMechanism::new(privacy, sensitivity)?;
        let releases = (0..args.count)
            .map(|_| mechanism.release(value, &mut rng))
            .collect::<Result<Vec<f64>, _>>()?;
        (
            Releases::Reals(releases),
            mechanism.privacy(),
            "laplace",
            sensitivity,
        )
    };
    // The count is bounded above, so one entry per release is a bounded allocation.
    let total = basic_composition(&vec![each; args.count])?;
    let report = LaplaceReport {
        mechanism: kind,
        epsilon: args.epsilon,
        sensitivity,
        count: args.count,
        releases,
        guarantee: total,
        guarantee_text: total.to_string(),
        guarantee_each: each,
        guarantee_each_text: each.to_string(),
    };
    emit(&report, args.common.json)
}

/// Parses comma-separated scores, naming the field at fault.
fn parse_scores(raw: &str) -> anyhow::Result<Vec<f64>> {
    raw.split(',')
        .enumerate()
        .map(|(i, s)| parse_number(&format!("score {} of --scores", i + 1), s))
        .collect()
}

fn parse_number(what: &str, raw: &str) -> anyhow::Result<f64> {
    let value: f64 = raw
        .trim()
        .parse()
        .with_context(|| format!("{what} ({raw:?}) is not a number"))?;
    if !value.is_finite() {
        bail!("{what} ({raw:?}) is not a finite number");
    }
    Ok(value)
}
