//! The result part of a k-curves report (the catalogue's `k-curves` and every experiment
//! file of kind `k-curves`): the result table, the fitted log–log exponent of each curve
//! against the exponent of its §1.3 table cell with the reasons a fit departs from it, what
//! the optimal split of the approximate direct sum buys, and Corollary 3.10's explicit bound
//! for the curve run with privpac's interior-point quantile sanitizer.

use serde_json::{Map, Value};

use super::{escape_cell, get_f64, get_str, not_reached_note, series, table, unique};
use privpac_toolkit::fit_log_log;

/// The approximate direct sum's sample sizes under the default split (the best of basic,
/// advanced and optimal composition) against the advanced-only split, k by k.
fn split_comparison(rows: &[Map<String, Value>]) -> String {
    let column = |curve: &str, y: &str| series(rows, |r| get_str(r, "curve") == curve, "k", y);
    let (default, other) = (
        "direct-sum approximate",
        "direct-sum approximate, advanced split",
    );
    let (optimal, advanced) = (column(default, "sample_size"), column(other, "sample_size"));
    let (eps_optimal, eps_advanced) = (
        column(default, "per_column_epsilon"),
        column(other, "per_column_epsilon"),
    );
    let at = |points: &[(f64, f64)], k: f64| points.iter().find(|(j, _)| *j == k).map(|p| p.1);
    let ratios: Vec<String> = optimal
        .iter()
        .filter_map(|&(k, n)| {
            let m = at(&advanced, k)?;
            Some(format!(
                "k = {k}: {n} against {m} (ratio {:.2}; per-column ε {:.4} against {:.4})",
                n / m,
                at(&eps_optimal, k).unwrap_or(f64::NAN),
                at(&eps_advanced, k).unwrap_or(f64::NAN)
            ))
        })
        .collect();
    if ratios.is_empty() {
        return String::new();
    }
    format!(
        "\n## What the optimal split buys\n\nThe approximate direct sum at (1, 10⁻⁶), split by the best of basic, advanced, \
         optimal and (its inner learner being the exponential mechanism) bounded-range composition, against the same learner split by basic or advanced composition only (examples needed, \
         and their ratio): {}. Where the per-column ε are nearly equal (small k) the differences are trial noise: \
         the two curves' units have different seeds.\n",
        ratios.join("; ")
    )
}

/// `x` to two decimals (no negative zero).
pub(super) fn two(x: f64) -> String {
    format!("{:.2}", (x * 100.0).round() / 100.0 + 0.0)
}

/// The result part of a k-curves report: the result table, the searches that gave up, the
/// fitted exponents against the table's, and (for the two approximate direct sums) what
/// the optimal split buys.
pub(crate) fn k_curves_results(rows: &[Map<String, Value>]) -> String {
    let mut out = format!(
        "## Result\n\n{}\n",
        table(
            rows,
            &[
                "curve",
                "k",
                "sample_size",
                "success_rate",
                "composition",
                "per_column_epsilon"
            ]
        )
    );
    out.push_str(&not_reached_note(rows));
    out.push_str("## Fitted exponents\n\n| curve | fitted exponent of k | 95% interval | table exponent | table entry |\n|---:|---:|---:|---:|---:|\n");
    let mut notes = Vec::new();
    for curve in unique(rows, "curve") {
        let mine: Vec<&Map<String, Value>> = rows
            .iter()
            .filter(|r| get_str(r, "curve") == curve)
            .collect();
        let points = series(rows, |r| get_str(r, "curve") == curve, "k", "sample_size");
        let table_exponent = mine
            .first()
            .map_or(f64::NAN, |r| get_f64(r, "table_exponent"));
        let entry = escape_cell(
            mine.first()
                .map(|r| get_str(r, "table_entry"))
                .unwrap_or_default(),
        );
        let curve_cell = escape_cell(&curve);
        match fit_log_log(&points) {
            Ok(fit) => {
                let (lo, hi) = fit.slope_interval;
                let interval = if lo.is_finite() && hi.is_finite() {
                    format!("[{}, {}]", two(lo), two(hi))
                } else {
                    "–".into()
                };
                out.push_str(&format!(
                    "| {curve_cell} | {} | {interval} | {} | {entry} |\n",
                    two(fit.slope),
                    two(table_exponent)
                ));
                if (fit.slope - table_exponent).abs() > 0.25 {
                    notes.push(disagreement(&curve, fit.slope, table_exponent, &mine));
                }
            }
            Err(_) => out.push_str(&format!(
                "| {curve_cell} | – | – | {} | {entry} |\n",
                two(table_exponent)
            )),
        }
    }
    out.push_str("\n## What it shows\n\n");
    if notes.is_empty() {
        out.push_str("Every fitted exponent is within 0.25 of its table exponent.\n");
    } else {
        out.push_str("Fitted exponents more than 0.25 away from the table's:\n\n");
        for note in notes {
            out.push_str(&format!("- {note}\n"));
        }
    }
    out.push_str(&split_comparison(rows));
    out.push_str(&corollary_3_10_section(rows));
    out
}

/// The rows run with Corollary 3.10's construction and privpac's quantile sanitizer (those
/// with a `corollary_3_10_bound`): each measured n beside the explicit bound of the
/// corollary's proof with this sanitizer and the printed O-form, which assumes Bun et al.'s
/// sanitizer (Proposition 2.21).
fn corollary_3_10_section(rows: &[Map<String, Value>]) -> String {
    let mine: Vec<&Map<String, Value>> = rows
        .iter()
        .filter(|r| r.get("corollary_3_10_bound").is_some_and(Value::is_number))
        .collect();
    if mine.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "\n## Corollary 3.10 with the interior-point quantile sanitizer\n\n\
         These curves run Corollary 3.10's construction (Algorithm 2, `SanitizerMultiLearner::corollary_3_10`) \
         with privpac's threshold sanitizer: ⌈10/α⌉ − 1 approximate quantiles, each from a TreeLog call \
         (Kaplan–Ligett–Mansour–Naor–Stemmer 2020, Algorithm 1), at accuracy α/10 for thresholds. This is **not** \
         the sanitizer of Bun–Nissim–Stemmer–Vadhan (Proposition 2.21) that the corollary as printed assumes. \
         `corollary_3_10_bound` is the sample size the corollary's proof gives with this sanitizer (explicit \
         constants; `corollary_3_10_sanitizer_term` is its sanitizer term); `corollary_3_10_printed` is the printed \
         O-form with unit constants, which assumes Bun et al.'s sanitizer: its shape only, not a sufficient size.\n\n\
         | curve | class | k | measured n | bound (proof, this sanitizer) | its sanitizer term | printed O-form (Bun et al.'s sanitizer) |\n\
         |---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for r in mine {
        let cell = |key: &str| {
            r.get(key)
                .and_then(Value::as_f64)
                .map_or("–".into(), |x| format!("{x:.0}"))
        };
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} |\n",
            escape_cell(get_str(r, "curve")),
            escape_cell(get_str(r, "class")),
            cell("k"),
            cell("sample_size"),
            cell("corollary_3_10_bound"),
            cell("corollary_3_10_sanitizer_term"),
            cell("corollary_3_10_printed")
        ));
    }
    out
}

/// Why a fitted exponent differs from the table's, from what the rows show.
fn disagreement(
    curve: &str,
    slope: f64,
    table_exponent: f64,
    rows: &[&Map<String, Value>],
) -> String {
    let head = format!(
        "`{curve}`: fitted {} against the table's {}",
        two(slope),
        two(table_exponent)
    );
    let rules: Vec<String> = rows
        .iter()
        .map(|r| get_str(r, "composition").to_string())
        .filter(|s| !s.is_empty())
        .collect();
    let delta = rows.first().map_or(0.0, |r| get_f64(r, "delta"));
    let epsilon = rows.first().map_or(f64::NAN, |r| get_f64(r, "epsilon"));
    let learner = rows
        .first()
        .map(|r| get_str(r, "learner"))
        .unwrap_or_default();
    if delta > 0.0 && table_exponent < 1.0 && !learner.starts_with("parity") && learner != "point" {
        // The split of the k selections' budget E (the direct sum: all of ε; Algorithm 2:
        // ε/2): basic gives E/k each, advanced the root x of 2k·x² + √(2k·ln(2/δ))·x = E.
        // At x = E/k the left side is E·(2E + √(2k·ln(2/δ)))/k, so advanced gives more
        // exactly when k > 2E + √(2k·ln(2/δ)).
        let budget = if learner.starts_with("direct-sum") {
            epsilon
        } else {
            epsilon / 2.0
        };
        let crossover = (1..=1 << 20)
            .find(|&k| {
                let k = k as f64;
                k > 2.0 * budget + (2.0 * k * (2.0 / delta).ln()).sqrt()
            })
            .unwrap_or(usize::MAX);
        let measured: Vec<String> = rows
            .iter()
            .map(|r| get_f64(r, "k"))
            .filter(|&k| k < crossover as f64)
            .map(|k| k.to_string())
            .collect();
        let rule_column = if rules.is_empty() {
            String::new()
        } else {
            format!(" (`composition` column: {})", rules.join(", "))
        };
        // The same fit over the measured k at or above the crossover only (the regime the
        // table's exponent describes), when there are at least two such points.
        let above: Vec<(f64, f64)> = rows
            .iter()
            .filter_map(|r| Some((r.get("k")?.as_f64()?, r.get("sample_size")?.as_f64()?)))
            .filter(|&(k, _)| k >= crossover as f64)
            .collect();
        let regime = match fit_log_log(&above) {
            Ok(fit) if above.len() >= 2 => format!(
                " Over the measured k ≥ {crossover} alone ({}), the fitted exponent is {:.2}, against the table's {:.2}.",
                above
                    .iter()
                    .map(|&(k, _)| k.to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                fit.slope,
                table_exponent
            ),
            _ => String::new(),
        };
        if rules.iter().any(|rule| rule == "optimal") {
            return format!(
                "{head}. This curve splits the budget by optimal composition (Kairouz–Oh–Viswanath){rule_column}, which \
                 gives at least the per-column ε of basic and of advanced composition at every k; but the √k of the table \
                 is asymptotic, and at small k the optimal per-column ε is still close to ε/k, where n grows like k.{regime} \
                 Compare the curve split by basic or advanced composition only (`advanced split`) for what the optimal \
                 split buys."
            );
        }
        return format!(
            "{head}. The √k of the table comes from advanced composition of the k per-column selections, but with \
             δ = {delta:e} advanced composition only gives a larger per-column ε than basic composition (ε/k) once \
             k > 2E + √(2k·ln(2/δ)), i.e. from k = {crossover} on (E = {budget} is the selections' budget){rule_column}. \
             Of the measured k, {} lie below that crossover, where the learner splits by basic composition and its n grows like k; \
             a fit dominated by them measures the basic-composition regime, not the table's asymptotic √k.{regime}",
            measured.join(", ")
        );
    }
    let sizes: Vec<f64> = rows
        .iter()
        .filter_map(|r| r.get("sample_size")?.as_f64())
        .collect();
    if slope < table_exponent {
        format!(
            "{head}. The table's exponent is an upper bound's, dominated at small k by the k-independent term \
             (log|C|, the sanitizer's error): the measured n goes from {} to {}, so the k-dependent term has not taken over \
             over this range of k.",
            sizes.first().copied().unwrap_or(f64::NAN),
            sizes.last().copied().unwrap_or(f64::NAN)
        )
    } else {
        format!(
            "{head}. The learner needs more than the table's rate over this range (n from {} to {}): its \
             constants and logarithmic factors (e.g. log k from the union bound over columns) are not in the exponent.",
            sizes.first().copied().unwrap_or(f64::NAN),
            sizes.last().copied().unwrap_or(f64::NAN)
        )
    }
}
