//! Notes the learning commands (`learn`, `multi-learn`, `sample-complexity`) print beside
//! a result, shared so that every command words a guarantee's limits the same way.

use privpac_accounting::Guarantee;

/// What a per-prediction guarantee does not cover in a printed report: the model itself
/// and its training-set error are computed from the (not private) trained model.
pub(crate) fn not_covered_note(guarantee: Guarantee) -> Option<String> {
    matches!(guarantee, Guarantee::PerPrediction { .. }).then(|| {
        "the per-prediction guarantee covers one prediction per model on a query point; the model (hypothesis) and the training-set (empirical) error printed here are computed from the trained model itself and are NOT covered by it: do not publish them".to_string()
    })
}
