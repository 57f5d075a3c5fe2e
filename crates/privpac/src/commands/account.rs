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
//! (ε, δ) guarantee (amplified by subsampling), the PLD composes its dominating pair, and
//! reports rigorous lower and upper bounds ([`Accountant::pld_bounds`]) within
//! `--epsilon-error` of each other (default: the library's, the larger of 0.01 and 1% of ε);
//! its total is the upper bound. The rule picked is the smallest ε of those printed, ties
//! going to the earlier rule, as [`Accountant::tightest`] picks (the same rule and total
//! when `--epsilon-error` is not given and basic composition applies: `tightest` refuses a
//! list whose summed δ reaches 1, where this command still picks among the other rules).
//! The rules other than basic composition spend the slack δ′ on top of the runs' δ, so the
//! text names what the pick compares (the smallest ε, each at its own total δ) and prints
//! basic composition's total, which spends no slack, beside it.
//!
//! `--delta-prime 0` asks the pure question: basic, optimal and PLD composition at δ′ = 0
//! (the PLD's total is then the steps' largest losses summed); the advanced rule needs
//! δ′ > 0 and is reported as not applicable. When the PLD bounds miss the accuracy asked
//! for, the text names what limited them ([`privpac_accounting::AccuracyLimit`]).
//!
//! The text rounds every ε and δ of a total up to six significant digits (still upper
//! bounds); the PLD bounds line keeps every digit (a lower bound must not be rounded up, and
//! the gap is compared with `--epsilon-error`), in exponent form below 10⁻⁵, so no number
//! runs to hundreds of digits; `--json` keeps every number exact. Identical steps (same
//! mechanism and rate) are printed as one row with their counts summed, at most 20 rows
//! (`--json` lists every step as given).

use anyhow::{Context as _, anyhow, bail};
use privpac_accounting::{
    Accountant, CompositionRule, PldBounds, PldStep, Privacy, RoundedUp, default_epsilon_error,
};
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

/// The PLD rule's two bounds on ε at its δ.
#[derive(Debug, Serialize)]
struct BoundsReport {
    /// A rigorous lower bound on the exact ε of the composed dominating pairs.
    lower: f64,
    /// A point estimate between the bounds.
    estimate: f64,
    /// A rigorous upper bound: the PLD rule's ε.
    upper: f64,
    /// The δ of the bounds.
    delta: f64,
    /// The grid step used.
    interval: f64,
    /// The accuracy asked for: `--epsilon-error`, or the default for this ε.
    epsilon_error: f64,
    /// Whether `lower` also bounds the worst case over the mechanisms the steps stand for:
    /// false with a bounded-range step, composed through an envelope pair that no
    /// bounded-range mechanism attains (the upper bound holds for all of them).
    lower_applies_to_mechanisms: bool,
    /// What kept the bounds further apart than the accuracy asked for, or null.
    limited_by: Option<String>,
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
    /// The PLD's lower and upper bounds, or null when the PLD rule does not apply.
    pld_bounds: Option<BoundsReport>,
    picked: Picked,
}

impl Render for AccountReport {
    fn render(&self) -> String {
        let mut steps = Table::new(&["step", "rate", "count", "each run"]);
        let groups = grouped(&self.steps);
        for (step, count, members) in groups.iter().take(SHOWN_GROUPS) {
            // A step given once keeps its spelling; merged ones drop their own counts.
            let spec = if *members == 1 {
                step.spec.as_str()
            } else {
                without_count(&step.spec)
            };
            steps.row(vec![
                spec.to_string(),
                full(step.rate),
                count.to_string(),
                step.guarantee_each.to_string(),
            ]);
        }
        let hidden = if groups.len() > SHOWN_GROUPS {
            let rest = &groups[SHOWN_GROUPS..];
            let runs: u64 = rest.iter().map(|g| g.1).sum();
            format!(
                "... and {} more distinct steps ({runs} runs; --json lists every step)\n",
                rest.len()
            )
        } else {
            String::new()
        };
        let mut rules = Table::new(&["rule", "epsilon", "delta", "note"]);
        for rule in &self.rules {
            match (&rule.total, &rule.error) {
                (Some(total), _) => rules.row(vec![
                    rule.rule.to_string(),
                    RoundedUp(total.epsilon()).to_string(),
                    if total.delta() == 0.0 {
                        "0".to_string()
                    } else {
                        format!("{:e}", RoundedUp(total.delta()))
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
        let bounds = match &self.pld_bounds {
            Some(b) => {
                let grid = if b.interval == 0.0 {
                    "closed form".to_string()
                } else {
                    format!("grid {:e}", b.interval)
                };
                let mut line = format!(
                    "pld bounds: epsilon in [{}, {}] (gap {:.3e}, asked {}; {grid})\n",
                    full(b.lower),
                    full(b.upper),
                    b.upper - b.lower,
                    full(b.epsilon_error),
                );
                if !b.lower_applies_to_mechanisms {
                    line.push_str(
                        "pld bounds: the lower end is the bounded-range steps' envelope pair's, \
                         which no bounded-range mechanism attains: it is not a lower bound for \
                         the mechanisms (the upper end holds for all of them)\n",
                    );
                }
                if b.upper - b.lower > b.epsilon_error {
                    line.push_str(&format!(
                        "pld bounds: the gap is above the accuracy asked for: {}\n",
                        b.limited_by
                            .as_deref()
                            .unwrap_or("the finest grid that fits in memory was reached")
                    ));
                }
                line
            }
            None => String::new(),
        };
        // Basic composition spends no slack: its total beside the pick, which may spend δ′
        // to save ε.
        let no_slack = match self.rules.first() {
            Some(RuleReport {
                total: Some(total), ..
            }) => format!("no slack: basic {total}\n"),
            _ => "no slack: basic composition does not apply\n".to_string(),
        };
        let slack = if self.delta_prime == 0.0 {
            "0".to_string()
        } else {
            format!("{:e}", self.delta_prime)
        };
        format!(
            "{}{hidden}{} runs, slack delta' = {slack}\n{}{}{no_slack}picked: {} {}, the smallest \
             epsilon among the rules at slack delta' = {slack} (each at its own total delta)\n",
            steps.render(),
            self.runs,
            rules.render(),
            bounds,
            self.picked.rule,
            self.picked.total,
        )
    }
}

/// Most rows of distinct steps the text prints (the JSON lists every step).
const SHOWN_GROUPS: usize = 20;

/// Identical steps (the same mechanism and rate, however written) with their counts summed,
/// in order of first appearance: a list of 10^4 lines of a few kinds prints a few rows.
/// Each group: its first step, the summed count and how many steps it merges.
fn grouped(steps: &[StepReport]) -> Vec<(&StepReport, u64, usize)> {
    let key = |s: &StepReport| {
        let (kind, a, b) = match s.mechanism {
            Mechanism::EpsDelta { epsilon, delta } => (0, epsilon.to_bits(), delta.to_bits()),
            Mechanism::BoundedRange { epsilon } => (1, epsilon.to_bits(), 0),
            Mechanism::DiscreteLaplace { scale, sensitivity } => (2, scale.to_bits(), sensitivity),
        };
        (kind, a, b, s.rate.to_bits())
    };
    let mut index = std::collections::HashMap::new();
    let mut groups: Vec<(&StepReport, u64, usize)> = Vec::new();
    for step in steps {
        let i = *index.entry(key(step)).or_insert_with(|| {
            groups.push((step, 0, 0));
            groups.len() - 1
        });
        groups[i].1 += step.count;
        groups[i].2 += 1;
    }
    groups
}

/// A step as written without its `xCOUNT` (the row carries the summed count).
fn without_count(spec: &str) -> &str {
    match spec.rsplit_once('x') {
        Some((head, count)) if count.trim().parse::<u64>().is_ok() => head,
        _ => spec,
    }
}

/// A number in full (the shortest decimal that reads back as the same f64), in exponent
/// form when a plain decimal would run to many digits (below 10⁻⁵, or 10¹⁶ and above).
fn full(x: f64) -> String {
    if x != 0.0 && x.is_finite() && (x.abs() < 1e-5 || x.abs() >= 1e16) {
        format!("{x:e}")
    } else {
        format!("{x}")
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
    if !(0.0..1.0).contains(&delta_prime) {
        bail!("--delta-prime ({delta_prime}) must be at least 0 and below 1");
    }
    // A bad --epsilon-error is the user's mistake, not a rule that does not apply.
    if let Some(error) = args.epsilon_error
        && !(error.is_finite() && error > 0.0)
    {
        bail!("--epsilon-error ({error}) must be finite and positive");
    }
    let mut accountant = Accountant::new();
    for (index, step) in steps.iter().enumerate() {
        for _ in 0..step.count {
            accountant.record_step(index.to_string(), step.step)?;
        }
    }
    // Advanced composition trades a slack δ′ > 0 for ε; at δ′ = 0 it answers nothing (the
    // pure question is basic, optimal and PLD composition's).
    let needs_slack = "the rule needs a slack delta' > 0 (not applicable at delta' = 0)";
    // The PLD answers δ′ = 0 as well (the steps' largest losses summed).
    let pld: anyhow::Result<(PldBounds, Privacy)> = accountant
        .pld_bounds(delta_prime, args.epsilon_error)
        .and_then(|bounds| Ok((bounds, bounds.privacy()?)))
        .map_err(anyhow::Error::from);
    let mut totals: Vec<(&'static str, Result<Privacy, String>)> = [
        CompositionRule::Basic,
        CompositionRule::Advanced { delta_prime },
        CompositionRule::Optimal { delta_prime },
    ]
    .into_iter()
    .map(|rule| {
        let total = if delta_prime == 0.0 && matches!(rule, CompositionRule::Advanced { .. }) {
            Err(needs_slack.to_string())
        } else {
            accountant.total(rule).map_err(|e| e.to_string())
        };
        (rule.name(), total)
    })
    .collect();
    let pld_bounds = match &pld {
        Ok((bounds, total)) => {
            totals.push(("pld", Ok(*total)));
            Some(BoundsReport {
                lower: bounds.lower,
                estimate: bounds.estimate,
                upper: bounds.upper,
                delta: bounds.delta,
                interval: bounds.interval,
                epsilon_error: args
                    .epsilon_error
                    .unwrap_or_else(|| default_epsilon_error(bounds.lower)),
                lower_applies_to_mechanisms: bounds.lower_applies_to_mechanisms,
                limited_by: bounds.limited_by.map(|l| l.to_string()),
            })
        }
        Err(error) => {
            totals.push(("pld", Err(error.to_string())));
            None
        }
    };
    // The smallest ε, ties to the earlier rule (basic first), as Accountant::tightest.
    let mut picked: Option<Picked> = None;
    for (rule, total) in &totals {
        if let Ok(total) = total
            && picked
                .as_ref()
                .is_none_or(|p| total.epsilon() < p.total.epsilon())
        {
            picked = Some(Picked {
                rule,
                total: *total,
            });
        }
    }
    let picked = picked.ok_or_else(|| anyhow!("no composition rule applies"))?;
    let rules = totals
        .into_iter()
        .map(|(rule, total)| match total {
            Ok(total) => RuleReport {
                rule,
                total: Some(total),
                error: None,
            },
            Err(error) => RuleReport {
                rule,
                total: None,
                error: Some(error),
            },
        })
        .collect();
    let report = AccountReport {
        delta_prime,
        runs,
        steps,
        rules,
        pld_bounds,
        picked,
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
