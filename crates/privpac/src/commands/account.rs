//! `privpac account`: compose a list of mechanism runs with the library's [`Accountant`] and
//! print the total under every composition rule, and the rule the accountant picks.
//!
//! A step is `KIND:PARAMS[@RATE][xCOUNT]`:
//! - `eps-delta:EPS[,DELTA]`: any (ε, δ)-DP mechanism (δ defaults to 0);
//! - `bounded-range:EPS`: an ε-bounded-range mechanism (the exponential mechanism at ε);
//! - `discrete-laplace:SCALE[,SENSITIVITY]`: the discrete Laplace mechanism with scale b on
//!   an integer query of sensitivity Δ (default 1);
//!
//! `@RATE` runs it on a Poisson subsample of rate q ∈ (0, 1] and `xCOUNT` repeats it. Every
//! step is recorded with [`Accountant::record_step`], so each rule reports exactly what the
//! library reports for the same list: basic, advanced and optimal composition see each run's
//! (ε, δ) guarantee (amplified by subsampling), the PLD composes its dominating pair.

use anyhow::{Context as _, anyhow, bail};
use privpac_mechanisms::{Accountant, CompositionRule, PldStep, Privacy};
use serde::Serialize;

use crate::cli::AccountArgs;
use crate::output::{Render, Table, emit};

/// Most runs (the counts summed over all steps) one `privpac account` composes: the
/// accountant keeps one entry per run.
pub(crate) const MAX_RUNS: u64 = 1_000_000;

/// The kinds a step may name, for error messages.
const KINDS: &str = "eps-delta, bounded-range, discrete-laplace";

/// A step's mechanism, as given.
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
enum Mechanism {
    /// Any (ε, δ)-DP mechanism.
    EpsDelta { epsilon: f64, delta: f64 },
    /// An ε-bounded-range mechanism.
    BoundedRange { epsilon: f64 },
    /// The discrete Laplace mechanism.
    DiscreteLaplace { scale: f64, sensitivity: u64 },
}

/// One parsed step: a mechanism, its Poisson rate and how many runs of it.
#[derive(Debug, Clone, Serialize)]
struct StepReport {
    /// The step as written.
    spec: String,
    #[serde(flatten)]
    mechanism: Mechanism,
    /// The Poisson subsampling rate (1: the whole dataset).
    rate: f64,
    count: u64,
    /// The (ε, δ) guarantee of one run, as basic, advanced and optimal composition see it.
    guarantee_each: Privacy,
    #[serde(skip)]
    step: PldStep,
}

/// One rule's total, or why it does not apply.
#[derive(Debug, Serialize)]
struct RuleReport {
    /// basic, advanced, optimal or pld.
    rule: &'static str,
    /// The total guarantee, or null when the rule does not apply.
    total: Option<Privacy>,
    /// Why the rule does not apply (the library's error), or null.
    error: Option<String>,
}

/// The rule the accountant picks: the smallest ε of the rules that apply.
#[derive(Debug, Serialize)]
struct Picked {
    rule: &'static str,
    total: Privacy,
}

/// The JSON of `privpac account`.
#[derive(Debug, Serialize)]
struct AccountReport {
    /// The slack δ′ of the advanced, optimal and PLD rules.
    delta_prime: f64,
    /// Runs composed (the steps' counts summed).
    runs: u64,
    steps: Vec<StepReport>,
    /// Every rule, in the order basic, advanced, optimal, pld.
    rules: Vec<RuleReport>,
    picked: Picked,
}

impl Render for AccountReport {
    fn render(&self) -> String {
        let mut steps = Table::new(&["step", "rate", "count", "each run"]);
        for step in &self.steps {
            steps.row(vec![
                step.spec.clone(),
                step.rate.to_string(),
                step.count.to_string(),
                step.guarantee_each.to_string(),
            ]);
        }
        let mut rules = Table::new(&["rule", "epsilon", "delta", "note"]);
        for rule in &self.rules {
            match (&rule.total, &rule.error) {
                (Some(total), _) => rules.row(vec![
                    rule.rule.to_string(),
                    total.epsilon().to_string(),
                    if total.delta() == 0.0 {
                        "0".to_string()
                    } else {
                        format!("{:e}", total.delta())
                    },
                    String::new(),
                ]),
                (None, error) => rules.row(vec![
                    rule.rule.to_string(),
                    "-".to_string(),
                    "-".to_string(),
                    format!("does not apply: {}", error.as_deref().unwrap_or("")),
                ]),
            }
        }
        format!(
            "{}{} runs, slack delta' = {:e}\n{}picked: {} {}\n",
            steps.render(),
            self.runs,
            self.delta_prime,
            rules.render(),
            self.picked.rule,
            self.picked.total,
        )
    }
}

/// `privpac account`.
pub(crate) fn run(args: &AccountArgs) -> anyhow::Result<()> {
    let mut steps = Vec::new();
    if let Some(path) = &args.file {
        let bytes = privpac_toolkit::limits::read_capped(path)?;
        let text =
            String::from_utf8(bytes).map_err(|_| anyhow!("{}: not UTF-8 text", path.display()))?;
        for (number, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let step = parse_step(line)
                .with_context(|| format!("{} line {}", path.display(), number + 1))?;
            steps.push(step);
        }
    }
    for raw in &args.steps {
        steps.push(parse_step(raw).with_context(|| format!("--step {raw:?}"))?);
    }
    if steps.is_empty() {
        bail!("no steps: give at least one --step KIND:PARAMS[@RATE][xCOUNT] or a --file");
    }
    let runs = steps
        .iter()
        .try_fold(0u64, |sum, step| sum.checked_add(step.count))
        .filter(|&runs| runs <= MAX_RUNS)
        .ok_or_else(|| anyhow!("the steps' counts sum to more than {MAX_RUNS} runs"))?;
    let delta_prime = args.delta_prime;
    if !(delta_prime > 0.0 && delta_prime < 1.0) {
        bail!("--delta-prime ({delta_prime}) must be in (0, 1)");
    }
    let mut accountant = Accountant::new();
    for (index, step) in steps.iter().enumerate() {
        for _ in 0..step.count {
            accountant.record_step(index.to_string(), step.step)?;
        }
    }
    let rules = [
        CompositionRule::Basic,
        CompositionRule::Advanced { delta_prime },
        CompositionRule::Optimal { delta_prime },
        CompositionRule::Pld { delta_prime },
    ]
    .into_iter()
    .map(|rule| match accountant.total(rule) {
        Ok(total) => RuleReport {
            rule: rule.name(),
            total: Some(total),
            error: None,
        },
        Err(error) => RuleReport {
            rule: rule.name(),
            total: None,
            error: Some(error.to_string()),
        },
    })
    .collect();
    let (total, rule) = accountant.tightest(delta_prime)?;
    let report = AccountReport {
        delta_prime,
        runs,
        steps,
        rules,
        picked: Picked {
            rule: rule.name(),
            total,
        },
    };
    emit(&report, args.common.json)
}

/// Parses `KIND:PARAMS[@RATE][xCOUNT]`.
fn parse_step(raw: &str) -> anyhow::Result<StepReport> {
    let spec = raw.trim();
    let (kind, rest) = spec
        .split_once(':')
        .ok_or_else(|| anyhow!("expected KIND:PARAMS[@RATE][xCOUNT], with KIND one of {KINDS}"))?;
    let (rest, count) = match rest.rsplit_once('x') {
        Some((rest, count)) => {
            let count: u64 = count
                .trim()
                .parse()
                .map_err(|_| anyhow!("count {count:?} is not a positive integer"))?;
            if count == 0 {
                bail!("count must be at least 1");
            }
            if count > MAX_RUNS {
                bail!("count {count} is above the limit of {MAX_RUNS} runs");
            }
            (rest, count)
        }
        None => (rest, 1),
    };
    let (params, rate) = match rest.split_once('@') {
        Some((params, rate)) => {
            let rate = number("rate", rate)?;
            if !(rate > 0.0 && rate <= 1.0) {
                bail!("rate {rate} is outside (0, 1]");
            }
            (params, rate)
        }
        None => (rest, 1.0),
    };
    let values: Vec<&str> = params.split(',').collect();
    let arity = |min: usize, max: usize, usage: &str| -> anyhow::Result<()> {
        if values.len() < min || values.len() > max {
            bail!("{kind} takes {usage}");
        }
        Ok(())
    };
    let (mechanism, step) = match kind.trim() {
        "eps-delta" => {
            arity(1, 2, "EPS[,DELTA]")?;
            let epsilon = number("epsilon", values[0])?;
            let delta = match values.get(1) {
                Some(delta) => number("delta", delta)?,
                None => 0.0,
            };
            (
                Mechanism::EpsDelta { epsilon, delta },
                PldStep::private(Privacy::new(epsilon, delta)?),
            )
        }
        "bounded-range" => {
            arity(1, 1, "EPS")?;
            let epsilon = number("epsilon", values[0])?;
            (
                Mechanism::BoundedRange { epsilon },
                PldStep::bounded_range(epsilon)?,
            )
        }
        "discrete-laplace" => {
            arity(1, 2, "SCALE[,SENSITIVITY]")?;
            let scale = number("scale", values[0])?;
            let sensitivity = match values.get(1) {
                Some(raw) => raw
                    .trim()
                    .parse::<u64>()
                    .map_err(|_| anyhow!("sensitivity {raw:?} is not a positive integer"))?,
                None => 1,
            };
            (
                Mechanism::DiscreteLaplace { scale, sensitivity },
                PldStep::discrete_laplace(scale, sensitivity)?,
            )
        }
        other => bail!("unknown kind {other:?} (known: {KINDS})"),
    };
    let step = step.poisson_subsampled(rate)?;
    Ok(StepReport {
        spec: spec.to_string(),
        mechanism,
        rate,
        count,
        guarantee_each: step.privacy()?,
        step,
    })
}

/// A finite number, naming the field at fault.
fn number(what: &str, raw: &str) -> anyhow::Result<f64> {
    let value: f64 = raw
        .trim()
        .parse()
        .map_err(|_| anyhow!("{what} {raw:?} is not a number"))?;
    if !value.is_finite() {
        bail!("{what} {raw:?} is not a finite number");
    }
    Ok(value)
}
