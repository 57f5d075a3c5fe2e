//! The `interior-point-domain` experiment's figure and report: n against log₂|X| for the
//! (ε, δ) interior-point learner (TreeLog), the pure generic learner and the binary-tree
//! sanitizer path, with the crossover domain size.
//!
//! The experiment itself is the shipped file `experiments/interior-point-domain.toml`
//! (units through `run_sample_complexity_unit`, as every experiment file's). The crossover
//! is read off the rows: the smallest measured log₂|X| at which the interior-point learner
//! needs fewer examples than the other two; when there is none, it is extrapolated from
//! constants fitted to the rows, each stated with its fit: the generic learner's n as
//! `a + b·log₂|X|` (least squares; its bound `ln(2|C|/β)/α·max{8, 4/ε}` is linear in
//! log|X| too) and the tree's as `c·(log₂|X|)^p` (least squares on logs). The
//! interior-point learner's n at the largest domain measured stands for its n beyond it: it
//! grows with log*|X| only, and log*|X| = 5 for every 2^17 ≤ |X| ≤ 2^65536, so taking it
//! constant is the assumption the extrapolation states.

use serde_json::{Map, Value};

use super::reports::{not_reached_note, table, with_delta_text};
use super::{get_f64, get_str, series};
use crate::Result;
use crate::plot::Figure;
use crate::sweep::Sweep;

/// The experiment's name.
pub(super) const NAME: &str = "interior-point-domain";

const INTERIOR: &str = "interior-point";
const GENERIC: &str = "generic";
const TREE: &str = "sanitizer:tree";

/// The figure: n against log₂|X| for each learner, bounds dashed (the sweep's
/// `log2_domain` figure, titled with the experiment's parameters).
pub(super) fn plots(rows: &[Map<String, Value>]) -> Result<Vec<Figure>> {
    let mut figures = super::sweep_plots(super::interior_point_domain_sweep(), rows)?;
    for figure in &mut figures {
        figure.title = "thresholds, Zipf(2): n against log₂|X| (ε = 1, δ = 1e-6 for interior-point, α = β = 0.1)".into();
    }
    Ok(figures)
}

/// Least squares `y = a + b·x`, as `(a, b)`; `None` with fewer than two distinct x.
fn line(points: &[(f64, f64)]) -> Option<(f64, f64)> {
    let n = points.len() as f64;
    if points.len() < 2 {
        return None;
    }
    let mx = points.iter().map(|p| p.0).sum::<f64>() / n;
    let my = points.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = points.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let sxy: f64 = points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    (sxx > 0.0).then(|| (my - sxy / sxx * mx, sxy / sxx))
}

/// log₂|X| as the report prints it: `2^k`, or `2^64 − 1` for the last entry.
fn domain(k: f64) -> String {
    if k >= 64.0 {
        "2^64 − 1".into()
    } else {
        format!("2^{k}")
    }
}

/// The report sections after the title: setup, result table, fits, crossover, why.
pub(super) fn report(sweep: &Sweep, rows: &[Map<String, Value>]) -> String {
    let trials = rows
        .first()
        .map_or(f64::NAN, |r| get_f64(r, "trials"))
        .to_string();
    let of = |learner: &'static str| move |r: &Map<String, Value>| get_str(r, "learner") == learner;
    let measured = |learner| series(rows, of(learner), "log2_domain", "sample_size");
    let (interior, generic, tree) = (measured(INTERIOR), measured(GENERIC), measured(TREE));
    let alpha = rows.first().map_or(f64::NAN, |r| get_f64(r, "alpha"));
    let cap = |learner: &str| {
        sweep
            .max_log2_domain
            .iter()
            .find(|(l, _)| l == learner)
            // log2 = 64 stands for 2^64 − 1 points, the largest ordered domain.
            .filter(|(_, k)| *k < 64)
            .map_or("2^64 − 1".to_string(), |(_, k)| format!("2^{k}"))
    };
    let (tree_cap, generic_cap) = (cap(TREE), cap(GENERIC));
    let mut out = format!(
        "## Setup\n\nThresholds over |X| = 2^k points (the last entry 2^64 − 1, the largest ordered domain), Zipf distribution \
         Pr[x] ∝ (x + 1)^(−2), target threshold 1, realizable; ε = 1, α = {alpha}, β = {}, {trials} trials per size. \
         At α = 0.1 only thresholds 1 and 2 are α-accurate, so a learner must single out 2 of |X| + 1 concepts. Learners: \
         `interior-point` (proper, (ε, δ)-DP with δ = {:e} (its `delta` column): TreeLog of Kaplan, Ligett, Mansour, Naor and Stemmer 2020 \
         on the m = ⌊αn/4⌋ largest positives and smallest negatives), `generic` (pure ε-DP: the exponential mechanism over the \
         thresholds, scored by empirical error, sampled exactly as a level of the error profile and then a uniform threshold in it; \
         run up to {generic_cap}) and `sanitizer:tree` (pure ε-DP: the binary-tree threshold sanitizer at ε/2, then the \
         exponential mechanism at ε/2 on the sanitized data; dense, so run up to {tree_cap}). The `guarantee` column of `results.csv` \
         is each learner's own `Learner::guarantee(n)`.\n\n\
         **Where n comes from.** The empirical sample complexity is the smallest n (doubling from {}, then binary search to n/64, \
         giving up above {}) at which at least 1 − β of the trials reach true error ≤ α; true errors are exact (closed forms, \
         Euler–Maclaurin for the Zipf sums), so 2^64 points cost no more than 2^4. Every trial draws its whole sample \
         (n `u64` points and n label bits): the largest n measured, {}, is {:.1} MB per trial, far below the search's limit, so \
         neither the lab's size cap nor memory bounds the measurement.\n\n\
         ## Bounds\n\n`bound` is the learner's sample-complexity bound with explicit constants: for `interior-point` \
         `interior_point_learner_sample_size` (TreeLog's Lemmas 11–13 with privpac's constants, δ included), for `generic` \
         `ln(2|C|/β)/α·max{{8, 4/ε}}`; the tree path has none.\n\n## Result\n\n{}\n",
        sweep.beta,
        sweep.delta,
        sweep.start,
        sweep.max_size,
        rows.iter()
            .filter_map(|r| r.get("sample_size")?.as_u64())
            .max()
            .unwrap_or(0),
        rows.iter()
            .filter_map(|r| r.get("sample_size")?.as_f64())
            .fold(0.0, f64::max)
            * 8.125
            / 1e6,
        table(
            &with_delta_text(rows),
            &[
                "learner",
                "log2_domain",
                "delta",
                "sample_size",
                "success_rate",
                "bound"
            ]
        ),
    );
    out.push_str(&not_reached_note(rows));
    out.push_str("## Fits and crossover\n\n");
    let generic_fit = line(&generic);
    let tree_fit = line(
        &tree
            .iter()
            .map(|&(k, n)| (k.ln(), n.ln()))
            .collect::<Vec<_>>(),
    );
    if let Some((a, b)) = generic_fit {
        out.push_str(&format!(
            "- generic: n ≈ {a:.1} + {b:.2}·log₂|X| (least squares over {} domain sizes).\n",
            generic.len()
        ));
    }
    if let Some((c, p)) = tree_fit {
        out.push_str(&format!(
            "- sanitizer:tree: n ≈ {:.1}·(log₂|X|)^{p:.2} (least squares on logs over {} domain sizes).\n",
            c.exp(),
            tree.len()
        ));
    }
    // Another learner's n at log₂|X| = k: measured where it ran, else its fit (the
    // generic line, the tree's power law), else unknown.
    let other_at = |k: f64, measured: &[(f64, f64)], fit: Option<f64>| {
        measured.iter().find(|p| p.0 == k).map(|p| p.1).or(fit)
    };
    let generic_at = |k: f64| other_at(k, &generic, generic_fit.map(|(a, b)| a + b * k));
    let tree_at = |k: f64| other_at(k, &tree, tree_fit.map(|(c, p)| (c + p * k.ln()).exp()));
    let wins: Vec<f64> = interior
        .iter()
        .filter(|&&(k, n)| {
            let others = [generic_at(k), tree_at(k)];
            others.iter().any(Option::is_some) && others.iter().flatten().all(|&o| n < o)
        })
        .map(|p| p.0)
        .collect();
    let Some(&(last_k, last_n)) = interior.iter().max_by(|a, b| a.0.total_cmp(&b.0)) else {
        out.push_str("\nNo interior-point row reached success 1 − β: no crossover can be read.\n");
        return out;
    };
    let ratio = generic
        .iter()
        .find(|p| p.0 == last_k)
        .map(|&(_, g)| last_n / g);
    out.push_str(&format!(
        "- interior-point: n = {last_n} at |X| = {} (the largest domain measured){}.\n\n",
        domain(last_k),
        ratio.map_or(String::new(), |r| format!(
            ", {r:.0}× the generic learner's n there"
        )),
    ));
    if let Some(&k) = wins.first() {
        out.push_str(&format!(
            "**Crossover.** The interior-point learner needs fewer examples than the other learners at the same size (measured, or \
             their fits beyond their range) from |X| = {} on (the sizes where it does: {}).\n",
            domain(k),
            wins.iter().map(|&k| domain(k)).collect::<Vec<_>>().join(", ")
        ));
    } else {
        out.push_str(&format!(
            "**Crossover (extrapolated).** TreeLog loses at every measured size, up to {}{}, against each other learner's \
             measurement where it ran and its fit beyond. Taking TreeLog's n at {} as its n beyond (it grows with log*|X| only), \
             the fitted lines reach it at",
            domain(last_k),
            if last_k >= 64.0 { ", the largest domain privpac represents" } else { "" },
            domain(last_k)
        ));
        let mut beyond = Vec::new();
        if let Some((a, b)) = generic_fit.filter(|f| f.1 > 0.0) {
            beyond.push(format!(
                " log₂|X| ≈ {:.3e} for the generic learner (|X| ≈ 2^{:.0})",
                (last_n - a) / b,
                (last_n - a) / b
            ));
        }
        if let Some((c, p)) = tree_fit.filter(|f| f.1 > 0.0) {
            let k = ((last_n.ln() - c) / p).exp();
            beyond.push(format!(
                " log₂|X| ≈ {k:.3e} for the tree path (|X| ≈ 2^{k:.0})"
            ));
        }
        if beyond.is_empty() {
            out.push_str(" no size: the fits do not grow.\n");
        } else {
            out.push_str(&beyond.join(" and"));
            out.push_str(
                ". These are the crossover domain sizes these constants give, far beyond any representable domain; a \
                 TreeLog whose n still grows (more recursive levels) would only move them further out.\n",
            );
        }
    }
    out.push_str(&format!(
        "\n## Why\n\nThe generic learner's n grows linearly in log|X| ({} examples per doubling in the fit above): the exponential \
         mechanism must single out 2 of |X| + 1 candidates. The interior-point learner's n depends on |X| only through log*|X|, \
         but it pays TreeLog's constants: its input is only m = ⌊αn/4⌋ points per side, and TreeLog splits its budget over its \
         levels' exponential mechanisms and a choosing mechanism whose noisy test and trimming need on the order of \
         ln(1/δ)/ε points each (every constant is in `privpac_mechanisms::TreeLog`'s module doc). {}\n",
        generic_fit.map_or("–".to_string(), |(_, b)| format!("{b:.2}")),
        match (generic_fit, generic_at(last_k)) {
            (Some((_, b)), Some(g)) if b > 0.0 && g < last_n => format!(
                "At {b:.2} examples per doubling, the generic learner takes about {:.0} more doublings of |X| beyond {} to \
                 need the {last_n} examples TreeLog needs there.",
                (last_n - g) / b,
                domain(last_k),
            ),
            _ => String::new(),
        },
    ));
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn rows(values: &[(&str, u32, Option<u64>)]) -> Vec<Map<String, Value>> {
        values
            .iter()
            .map(|&(learner, k, n)| {
                json!({"learner": learner, "log2_domain": k, "sample_size": n,
                       "alpha": 0.1, "trials": 10, "success_rate": 0.9})
                .as_object()
                .cloned()
                .unwrap()
            })
            .collect()
    }

    #[test]
    fn a_learner_that_loses_everywhere_gets_an_extrapolated_crossover_from_the_fits() {
        let sweep = super::super::interior_point_domain_sweep();
        // generic: n = 100 + 10·k; interior-point flat at 2100: the line reaches it at 200.
        let rows = rows(&[
            (GENERIC, 4, Some(140)),
            (GENERIC, 64, Some(740)),
            (INTERIOR, 4, Some(2100)),
            (INTERIOR, 64, Some(2100)),
        ]);
        let text = report(sweep, &rows);
        assert!(
            text.contains("TreeLog loses at every measured size"),
            "{text}"
        );
        assert!(
            text.contains("log₂|X| ≈ 2.000e2 for the generic learner"),
            "{text}"
        );
        assert!(text.contains("n ≈ 100.0 + 10.00·log₂|X|"), "{text}");
    }

    #[test]
    fn a_measured_win_is_reported_as_the_measured_crossover() {
        let sweep = super::super::interior_point_domain_sweep();
        let rows = rows(&[
            (GENERIC, 4, Some(140)),
            (GENERIC, 64, Some(740)),
            (INTERIOR, 4, Some(2100)),
            (INTERIOR, 64, Some(700)),
        ]);
        let text = report(sweep, &rows);
        assert!(text.contains("**Crossover.**"), "{text}");
        assert!(text.contains("from |X| = 2^64 − 1 on"), "{text}");
        assert!(!text.contains("loses at every"), "{text}");
    }
}
