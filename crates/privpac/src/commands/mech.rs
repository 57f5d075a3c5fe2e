//! `privpac mech …`: run one mechanism from the command line.

use anyhow::{Context as _, bail};
use dp_mechanisms::{
    DiscreteLaplaceMechanism, ExponentialMechanism, LaplaceMechanism, Privacy, Private,
};
use serde_json::json;

use crate::cli::{ExponentialArgs, LaplaceArgs};
use crate::commands::rng;
use crate::output::{Table, print_json};

/// `privpac mech exponential`.
pub(crate) fn exponential(args: &ExponentialArgs) -> anyhow::Result<()> {
    let scores = parse_scores(&args.scores)?;
    let mechanism = ExponentialMechanism::new(Privacy::pure(args.epsilon)?, args.sensitivity)?;
    let guarantee = mechanism.privacy().to_string();
    if args.probabilities {
        let probabilities = mechanism.probabilities(&scores)?;
        if args.common.json {
            print_json(&json!({
                "mechanism": "exponential",
                "epsilon": args.epsilon,
                "sensitivity": args.sensitivity,
                "scores": scores,
                "probabilities": probabilities,
                "privacy": guarantee,
            }));
        } else {
            let mut table = Table::new(&["index", "score", "probability"]);
            for (i, (score, p)) in scores.iter().zip(&probabilities).enumerate() {
                table.row(vec![i.to_string(), score.to_string(), format!("{p:.6e}")]);
            }
            print!("{}", table.render());
            println!("guarantee: {guarantee}");
        }
        return Ok(());
    }
    let chosen = mechanism.select(&scores, &mut rng(&args.common))?;
    if args.common.json {
        print_json(&json!({
            "mechanism": "exponential",
            "chosen": chosen,
            "score": scores[chosen],
            "privacy": guarantee,
        }));
    } else {
        println!("chosen index: {chosen} (score {})", scores[chosen]);
        println!("guarantee: {guarantee}");
    }
    Ok(())
}

/// `privpac mech laplace`.
pub(crate) fn laplace(args: &LaplaceArgs) -> anyhow::Result<()> {
    let privacy = Privacy::pure(args.epsilon)?;
    if args.count == 0 {
        bail!("--count must be at least 1");
    }
    let mut rng = rng(&args.common);
    let (releases, guarantee, kind): (Vec<serde_json::Value>, String, &str) = if args.discrete {
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
        let mut releases = Vec::with_capacity(args.count);
        for _ in 0..args.count {
            releases.push(json!(mechanism.release(value, &mut rng)?));
        }
        (
            releases,
            mechanism.privacy().to_string(),
            "discrete-laplace",
        )
    } else {
        let value = parse_number("--value", &args.value)?;
        let sensitivity = parse_number("--sensitivity", &args.sensitivity)?;
        let mechanism = LaplaceMechanism::new(privacy, sensitivity)?;
        let mut releases = Vec::with_capacity(args.count);
        for _ in 0..args.count {
            releases.push(json!(mechanism.release(value, &mut rng)?));
        }
        (releases, mechanism.privacy().to_string(), "laplace")
    };
    let total_epsilon = args.epsilon * args.count as f64;
    if args.common.json {
        print_json(&json!({
            "mechanism": kind,
            "releases": releases,
            "privacy_each": guarantee,
            "total_epsilon": total_epsilon,
        }));
    } else {
        for release in &releases {
            println!("{release}");
        }
        println!("guarantee: {guarantee} each; {total_epsilon} in total (basic composition)");
    }
    Ok(())
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
