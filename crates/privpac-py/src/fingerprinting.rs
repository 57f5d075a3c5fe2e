//! The multi-learning lower bounds of Bun–Nissim–Stemmer from Python: the fingerprinting
//! attack of §4 (`privpac_attacks::attack::run_attack`, as `privpac attack`) against a
//! multi-learner, and the §1.3 tables (`privpac_attacks::lower_bounds::SECTION_1_3_TABLES`)
//! with the exponent of k of every entry.

use privpac_accounting::Guarantee as RustGuarantee;
use privpac_attacks::attack::{AttackConfig, CodeKind, ColumnErm, run_attack};
use privpac_attacks::lower_bounds::{BoundKind, SECTION_1_3_TABLES, TablePrivacy};
use privpac_toolkit::ClassSpec;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::errors::{self, invalid};
use crate::learners::MultiLearner;
use crate::mechanisms::Guarantee;
use crate::rng::{Seed, rng};

/// Runs the fingerprinting attack A_FP of Bun–Nissim–Stemmer §4 (the adversary of the
/// proofs of Theorems 4.3 and 4.7) against a multi-learner, exactly as `privpac attack`
/// (same seed, same counts).
///
/// `learner` is "erm" (per-column agnostic ERM, not private: the attack's target) or a
/// `privpac.MultiLearner` (its total (ε, δ) is the k-tuple's; it is built for the attack's
/// database of `users` rows plus padding and `k` columns). `code` is "boneh-shaw"
/// (thresholds, Theorem 4.3, Lemma 4.5; privpac's variant that is sound for every pirate
/// word) or "tardos" (any class with two concepts, Theorem 4.7, Proposition 4.9); `k` must
/// be at least the code's length for `users` users at security `xi`. `padding=α` adds the
/// ⌈n/(3α)⌉ − n junk rows of Remarks 4.4 / 4.8.
///
/// Each of `trials` trials of the full-coalition experiment builds a fresh codebook, labels
/// the users' points with it, runs the learner and traces the rounded column averages; the
/// innocence experiment replaces one random user by a junk row and counts how often that
/// user is still accused. From the two rates (Clopper–Pearson at `confidence`) follows a
/// certified lower bound on the learner's ε at its δ: an (ε, δ)-DP learner accuses the
/// left-out user with probability at least e^{−ε}·(traced/n − δ), so a non-private learner
/// is refuted and a private one is not.
///
/// Returns a dict with the CLI's `--json` fields: `class`, `learner`, `code`, `users`, `k`,
/// `code_length`, `xi`, `padding_rows`, `examples`, `trials`, `feasible`, `traced`,
/// `complete`, `completeness`, `innocent_accused`, `innocent_accused_feasible`,
/// `innocent_rate`, `member_accused`, `confidence`, `traced_lower`, `innocent_upper`,
/// `delta`, `epsilon_lower_bound` (None: the rates imply nothing), `claimed_epsilon` (None
/// without a DP claim), `guarantee` (a Guarantee), `refutes_claim`. Releases the GIL.
///
/// Raises InvalidParameterError (unknown code or learner, users below the code's minimum,
/// k below the code's length, ξ or confidence outside (0, 1), padding outside (0, 1/3],
/// zero trials, a learner the toolkit refuses), TooLargeError (trials above 10^6, more than
/// 2^28 label cells, a code too large) and the errors of privpac_attacks::attack::run_attack
/// (a class without points for the code).
#[pyfunction]
#[pyo3(signature = (learner, class_spec, k, users, *, code = "boneh-shaw", trials = 100,
    xi = 0.1, padding = None, confidence = 0.95, seed = None))]
#[allow(
    clippy::too_many_arguments,
    reason = "keyword arguments of a Python function"
)]
fn fingerprinting_attack<'py>(
    py: Python<'py>,
    learner: &Bound<'py, PyAny>,
    class_spec: &str,
    k: usize,
    users: usize,
    code: &str,
    trials: usize,
    xi: f64,
    padding: Option<f64>,
    confidence: f64,
    seed: Option<Seed>,
) -> PyResult<Bound<'py, PyDict>> {
    let code = match code {
        "boneh-shaw" => CodeKind::BonehShaw,
        "tardos" => CodeKind::Tardos,
        other => {
            return Err(invalid(format!(
                "code must be \"boneh-shaw\" or \"tardos\", got {other:?}"
            )));
        }
    };
    let mut config = AttackConfig::new(code, users, k, xi, trials)
        .and_then(|c| c.with_confidence(confidence))
        .map_err(errors::attacks)?;
    if let Some(alpha) = padding {
        config = config.with_padding(alpha).map_err(errors::attacks)?;
    }
    let class = class_spec
        .parse::<ClassSpec>()
        .and_then(|spec| spec.build())
        .map_err(errors::lab)?;
    let built: Box<dyn privpac_multi::MultiLearner> =
        if let Ok(multi) = learner.cast::<MultiLearner>() {
            multi.get().build(k, config.examples())?
        } else {
            match learner.extract::<String>() {
                Ok(name) if name == "erm" => Box::new(ColumnErm),
                _ => {
                    return Err(invalid(format!(
                        "learner must be \"erm\" or a privpac.MultiLearner, got {}",
                        learner.repr()?
                    )));
                }
            }
        };
    let report = py
        .detach(|| run_attack(built.as_ref(), class.as_ref(), &config, &mut rng(seed)))
        .map_err(errors::attacks)?;
    let out = PyDict::new(py);
    out.set_item("class", class.name())?;
    out.set_item("learner", built.name())?;
    out.set_item("code", report.code.name())?;
    out.set_item("users", report.users)?;
    out.set_item("k", report.k)?;
    out.set_item("code_length", report.code_length)?;
    out.set_item("xi", report.xi)?;
    out.set_item("padding_rows", report.padding_rows)?;
    out.set_item("examples", report.examples)?;
    out.set_item("trials", report.trials)?;
    out.set_item("feasible", report.feasible)?;
    out.set_item("traced", report.traced)?;
    out.set_item("complete", report.complete)?;
    out.set_item("completeness", report.completeness())?;
    out.set_item("innocent_accused", report.innocent_accused)?;
    out.set_item(
        "innocent_accused_feasible",
        report.innocent_accused_feasible,
    )?;
    out.set_item("innocent_rate", report.innocent_rate())?;
    out.set_item("member_accused", report.member_accused)?;
    out.set_item("confidence", report.confidence)?;
    out.set_item("traced_lower", report.traced_lower)?;
    out.set_item("innocent_upper", report.innocent_upper)?;
    out.set_item("delta", report.delta)?;
    out.set_item("epsilon_lower_bound", report.epsilon_lower_bound)?;
    let claimed = match report.guarantee {
        RustGuarantee::DifferentialPrivacy(p) => Some(p.epsilon()),
        _ => None,
    };
    out.set_item("claimed_epsilon", claimed)?;
    out.set_item("guarantee", Guarantee::from(report.guarantee))?;
    out.set_item("refutes_claim", report.refutes_claim())?;
    Ok(out)
}

/// The §1.3 tables of Bun–Nissim–Stemmer, entry by entry (empty cells omitted), as privpac
/// records them: a list of dicts with `privacy` ("pure" or "approximate"), `kind` ("upper"
/// or "lower"), `class` ("POINT_X", "THRESH_X", "PAR_d (uniform)", "general C"),
/// `agnostic` (bool), `proper` (True proper only, False improper, None: the table does not
/// distinguish), `bound` (the entry as printed, constants and the learning and privacy
/// parameters hidden), `k_exponent` (the exponent of k it implies, 0 when flat in k) and
/// `reference` (the results it comes from, e.g. "Thm 3.12").
#[pyfunction]
fn section_1_3_tables(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let rows = PyList::empty(py);
    for entry in SECTION_1_3_TABLES {
        let row = PyDict::new(py);
        row.set_item(
            "privacy",
            match entry.privacy {
                TablePrivacy::Pure => "pure",
                TablePrivacy::Approximate => "approximate",
            },
        )?;
        row.set_item(
            "kind",
            match entry.kind {
                BoundKind::Upper => "upper",
                BoundKind::Lower => "lower",
            },
        )?;
        row.set_item("class", entry.class)?;
        row.set_item("agnostic", entry.agnostic)?;
        row.set_item("proper", entry.proper)?;
        row.set_item("bound", entry.bound)?;
        row.set_item("k_exponent", entry.k_exponent)?;
        row.set_item("reference", entry.reference)?;
        rows.append(row)?;
    }
    Ok(rows)
}

/// Adds the attack and the tables to the native module.
pub(crate) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(fingerprinting_attack, module)?)?;
    module.add_function(wrap_pyfunction!(section_1_3_tables, module)?)?;
    Ok(())
}
