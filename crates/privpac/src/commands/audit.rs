//! `privpac audit`: the black-box auditor (`privpac_audit::black_box`) on a mechanism of the
//! zoo (`privpac_zoo`: every shipped mechanism and every known-broken one), with the
//! certified ε lower bound printed beside the claimed ε.

use privpac_audit::black_box::BlackBoxConfig;
use privpac_zoo::Zoo;
use rand::Rng as _;
use serde::Serialize;

use crate::cli::AuditArgs;
use crate::commands::rng;
use crate::output::{Render, Table, emit, progress};

/// One audited mechanism.
#[derive(Debug, Serialize)]
struct AuditRow {
    mechanism: &'static str,
    /// Whether the entry is a known-broken mechanism.
    broken: bool,
    claimed_epsilon: f64,
    claimed_delta: f64,
    /// The certified lower bound on ε at the claimed δ.
    epsilon_lower_bound: f64,
    /// Whether the bound exceeds the claimed ε.
    refuted: bool,
    /// Neighbouring pairs audited (screened, or all selected when there are few).
    pairs: usize,
    /// Pairs whose chosen event was certified on fresh runs.
    pairs_certified: usize,
    /// Runs of the mechanism in all (selection and certification).
    total_runs: u64,
    /// The certified pair with the largest bound and its event, as text.
    certified_event: String,
}

/// The JSON of `privpac audit`.
#[derive(Debug, Serialize)]
struct AuditReport {
    /// Certification runs per input of each certified pair.
    runs: u64,
    /// Selection runs per input of every finalist pair.
    selection_runs: u64,
    /// Screening runs per input of every pair (used when there are more pairs than
    /// finalists).
    screening_runs: u64,
    confidence: f64,
    seed: u64,
    audits: Vec<AuditRow>,
}

impl Render for AuditReport {
    fn render(&self) -> String {
        let mut table = Table::new(&[
            "mechanism",
            "broken",
            "claimed eps",
            "claimed delta",
            "eps lower bound",
            "verdict",
        ]);
        for row in &self.audits {
            table.row(vec![
                row.mechanism.into(),
                if row.broken { "yes" } else { "no" }.into(),
                row.claimed_epsilon.to_string(),
                row.claimed_delta.to_string(),
                format!("{:.4}", row.epsilon_lower_bound),
                if row.refuted { "REFUTED" } else { "passes" }.into(),
            ]);
        }
        format!(
            "black-box audit: {} screening runs per input of every pair (when there are more than \
             two), {} selection runs per input of each finalist, {} certification runs per input \
             of each certified pair; every bound holds with probability {}\n{}",
            self.screening_runs,
            self.selection_runs,
            self.runs,
            self.confidence,
            table.render()
        )
    }
}

/// `privpac audit`.
pub(crate) fn run(args: &AuditArgs) -> anyhow::Result<()> {
    let entries: Vec<Zoo> = match &args.mechanism {
        Some(name) => vec![Zoo::from_name(name.trim())?],
        None => Zoo::ALL.to_vec(),
    };
    let seed = match args.common.seed {
        Some(seed) => seed,
        None => rng(&args.common).next_u64(),
    };
    // Validates the runs (0 and the maximum), the confidence and the certified pairs
    // before any run.
    let mut config = BlackBoxConfig::new(args.runs, args.confidence, seed)?
        .with_certified_pairs(args.certified_pairs)?;
    if let Some(selection_runs) = args.selection_runs {
        config = config.with_selection_runs(selection_runs)?;
    }
    if let Some(screening_runs) = args.screening_runs {
        config = config.with_screening_runs(screening_runs)?;
    }
    let bar = progress(entries.len() as u64, "auditing");
    let mut audits = Vec::with_capacity(entries.len());
    for entry in entries {
        let audit = entry.audit(args.epsilon, &config)?;
        audits.push(AuditRow {
            mechanism: entry.name(),
            broken: entry.broken(),
            claimed_epsilon: args.epsilon,
            claimed_delta: entry.claimed_delta(),
            epsilon_lower_bound: audit.epsilon_lower_bound,
            refuted: audit.refutes(args.epsilon),
            pairs: audit.selection.len(),
            pairs_certified: audit.pairs.len(),
            total_runs: audit.total_runs,
            certified_event: audit
                .pairs
                .iter()
                .max_by(|x, y| x.epsilon_lower_bound.total_cmp(&y.epsilon_lower_bound))
                .map(|p| {
                    format!(
                        "pair {}{}: {} (hits {} vs {})",
                        p.pair,
                        if p.swapped { " (b → a)" } else { "" },
                        p.event,
                        p.hits_large,
                        p.hits_small
                    )
                })
                .unwrap_or_default(),
        });
        if let Some(bar) = &bar {
            bar.inc(1);
        }
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    emit(
        &AuditReport {
            runs: config.runs,
            selection_runs: config.selection_runs,
            screening_runs: config.screening_runs,
            confidence: config.confidence,
            seed,
            audits,
        },
        args.common.json,
    )
}
