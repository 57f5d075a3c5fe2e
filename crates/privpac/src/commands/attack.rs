//! `privpac attack`: the fingerprinting attack of the multi-learning lower bounds
//! (`privpac_attacks::attack`) against a multi-learner chosen by name, with the ε lower
//! bound it certifies printed beside the learner's claimed ε.

use anyhow::bail;
use privpac_accounting::{Guarantee, Privacy};
use privpac_attacks::attack::{AttackConfig, CodeKind, ColumnErm, run_attack};
use privpac_multi::{MultiLearner, ParityLearner, PointLearner};
use privpac_toolkit::{ClassSpec, LearnerParams, LearnerSpec};
use serde::Serialize;

use crate::cli::{AttackArgs, CodeArg};
use crate::commands::rng;
use crate::output::{Render, Table, emit, spinner};

/// The JSON of `privpac attack`.
#[derive(Debug, Serialize)]
struct AttackReport {
    class: String,
    /// The learner as built.
    learner: String,
    /// `boneh-shaw` or `tardos`.
    code: &'static str,
    users: usize,
    k: usize,
    /// The traced columns (the code's length).
    code_length: usize,
    xi: f64,
    padding_rows: usize,
    /// The database size the learner saw.
    examples: usize,
    trials: usize,
    /// Full coalition: feasible pirate words, accusations, both (completeness).
    feasible: usize,
    traced: usize,
    complete: usize,
    completeness: f64,
    /// One user replaced by a junk row: that user accused (all words; feasible words).
    innocent_accused: usize,
    innocent_accused_feasible: usize,
    innocent_rate: f64,
    member_accused: usize,
    confidence: f64,
    /// Clopper–Pearson bounds behind the ε bound.
    traced_lower: f64,
    innocent_upper: f64,
    /// The δ at which ε is bounded (the learner's claimed δ, else 0).
    delta: f64,
    /// The certified lower bound on the learner's ε (null: the rates imply nothing).
    epsilon_lower_bound: Option<f64>,
    /// The ε the learner claims (null: no differential-privacy claim).
    claimed_epsilon: Option<f64>,
    guarantee: Guarantee,
    guarantee_text: String,
    /// Whether the bound exceeds the claimed ε.
    refutes_claim: bool,
}

impl Render for AttackReport {
    fn render(&self) -> String {
        let mut table = Table::new(&["quantity", "value"]);
        let mut row = |name: &str, value: String| table.row(vec![name.into(), value]);
        row("code length (traced columns)", self.code_length.to_string());
        row("examples (with padding)", self.examples.to_string());
        row("trials per experiment", self.trials.to_string());
        row("complete (feasible and traced)", self.complete.to_string());
        row("completeness", format!("{:.4}", self.completeness));
        row("innocent accused", self.innocent_accused.to_string());
        row(
            "innocent accused (feasible word)",
            self.innocent_accused_feasible.to_string(),
        );
        row(
            "traced rate, lower bound",
            format!("{:.4}", self.traced_lower),
        );
        row(
            "innocent rate, upper bound",
            format!("{:.4}", self.innocent_upper),
        );
        let mut out = format!(
            "attack: {} code, n = {}, k = {}, xi = {}; learner {} on {}\n",
            self.code, self.users, self.k, self.xi, self.learner, self.class
        );
        out.push_str(&table.render());
        let bound = self.epsilon_lower_bound.map_or_else(
            || "none (the rates imply nothing)".to_string(),
            |b| format!("{b:.4}"),
        );
        let claimed = self
            .claimed_epsilon
            .map_or_else(|| "none".to_string(), |e| e.to_string());
        out.push_str(&format!(
            "epsilon lower bound ({}% Clopper–Pearson, at delta = {}): {bound}   claimed epsilon: {claimed}{}\n",
            self.confidence * 100.0,
            self.delta,
            if self.refutes_claim { "   REFUTED" } else { "" }
        ));
        out.push_str(&format!("guarantee: {}\n", self.guarantee_text));
        out
    }
}

/// The multi-learner named on the command line, for `examples` rows and k columns.
fn build_multi_learner(
    args: &AttackArgs,
    examples: usize,
) -> anyhow::Result<Box<dyn MultiLearner>> {
    let name = args.learner.trim().to_ascii_lowercase();
    if name == "erm" {
        return Ok(Box::new(ColumnErm));
    }
    if name == "parity" {
        return Ok(Box::new(ParityLearner::new(Privacy::new(
            args.epsilon,
            args.delta,
        )?)?));
    }
    if name == "point" {
        return Ok(Box::new(PointLearner::new(
            Privacy::new(args.epsilon, args.delta)?,
            args.alpha,
        )?));
    }
    if let Some(rest) = name.strip_prefix("direct-sum") {
        let inner: LearnerSpec = match rest.strip_prefix(':') {
            Some(inner) => inner.parse()?,
            None if rest.is_empty() => LearnerSpec::Generic,
            None => bail!(
                "unknown learner {:?} (erm, direct-sum[:INNER], parity, point)",
                args.learner
            ),
        };
        // Pure inner learners get a pure total; only sanitizer learners take δ.
        let total = match inner {
            LearnerSpec::Sanitizer(_) => Privacy::new(args.epsilon, args.delta)?,
            _ => Privacy::pure(args.epsilon)?,
        };
        // The toolkit's direct sum: the composed report (per prediction for prediction
        // learners) is checked against the total, and stable (not private) is refused.
        return Ok(privpac_toolkit::build_multi_learner(
            privpac_toolkit::MultiLearnerSpec::DirectSum(inner),
            total,
            args.k,
            &LearnerParams::default(),
            examples,
        )?);
    }
    bail!(
        "unknown learner {:?} (erm, direct-sum[:INNER], parity, point)",
        args.learner
    )
}

/// `privpac attack`.
pub(crate) fn run(args: &AttackArgs) -> anyhow::Result<()> {
    let code = match args.code {
        CodeArg::BonehShaw => CodeKind::BonehShaw,
        CodeArg::Tardos => CodeKind::Tardos,
    };
    // The configuration checks n, k and the trials (and the database size) first.
    let mut config = AttackConfig::new(code, args.n, args.k, args.xi, args.trials)?
        .with_confidence(args.confidence)?;
    if let Some(alpha) = args.padding {
        config = config.with_padding(alpha)?;
    }
    let class = args.class.parse::<ClassSpec>()?.build()?;
    let learner = build_multi_learner(args, config.examples())?;
    let bar = spinner("attacking");
    let result = run_attack(
        learner.as_ref(),
        class.as_ref(),
        &config,
        &mut rng(&args.common),
    );
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let result = result?;
    let report = AttackReport {
        class: class.name(),
        learner: learner.name(),
        code: code.name(),
        users: result.users,
        k: result.k,
        code_length: result.code_length,
        xi: result.xi,
        padding_rows: result.padding_rows,
        examples: result.examples,
        trials: result.trials,
        feasible: result.feasible,
        traced: result.traced,
        complete: result.complete,
        completeness: result.completeness(),
        innocent_accused: result.innocent_accused,
        innocent_accused_feasible: result.innocent_accused_feasible,
        innocent_rate: result.innocent_rate(),
        member_accused: result.member_accused,
        confidence: result.confidence,
        traced_lower: result.traced_lower,
        innocent_upper: result.innocent_upper,
        delta: result.delta,
        epsilon_lower_bound: result.epsilon_lower_bound,
        claimed_epsilon: match result.guarantee {
            Guarantee::DifferentialPrivacy(p) => Some(p.epsilon()),
            _ => None,
        },
        guarantee: result.guarantee,
        guarantee_text: result.guarantee.to_string(),
        refutes_claim: result.refutes_claim(),
    };
    emit(&report, args.common.json)
}
