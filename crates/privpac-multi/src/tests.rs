//! Crate-level tests: exact privacy audits on tiny instances (each with a negative
//! control), the closed-form `A_dist` scores against enumeration, end-to-end learning, and
//! the typed errors.

use std::collections::HashMap;

use privpac_accounting::{CompositionRule, Guarantee, Privacy};
use privpac_classes::{ConceptClass, Domain, Hypothesis, Parities, Points, Thresholds};
use privpac_learners::{GenericLearner, Learner, Predictor};
use privpac_mechanisms::StableSelection;
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::*;

/// Every multiset of `size` items from `types` kinds, as count vectors.
fn multisets(types: usize, size: usize) -> Vec<Vec<usize>> {
    if types == 1 {
        return vec![vec![size]];
    }
    let mut out = Vec::new();
    for first in 0..=size {
        for mut rest in multisets(types - 1, size - first) {
            rest.insert(0, first);
            out.push(rest);
        }
    }
    out
}

/// The neighbours of a count vector: one item of kind `from` replaced by one of kind `to`.
fn neighbours(counts: &[usize]) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    for from in 0..counts.len() {
        if counts[from] == 0 {
            continue;
        }
        for to in 0..counts.len() {
            if to != from {
                let mut next = counts.to_vec();
                next[from] -= 1;
                next[to] += 1;
                out.push(next);
            }
        }
    }
    out
}

/// Aligns two distributions given as (outcome, probability) lists over their union.
fn align<K: PartialEq + Clone>(p: &[(K, f64)], q: &[(K, f64)]) -> (Vec<f64>, Vec<f64>) {
    let mut keys: Vec<K> = Vec::new();
    for (key, _) in p.iter().chain(q) {
        if !keys.contains(key) {
            keys.push(key.clone());
        }
    }
    let lookup = |list: &[(K, f64)], key: &K| -> f64 {
        list.iter().filter(|(k, _)| k == key).map(|(_, v)| v).sum()
    };
    (
        keys.iter().map(|key| lookup(p, key)).collect(),
        keys.iter().map(|key| lookup(q, key)).collect(),
    )
}

// ---------------------------------------------------------------------------------------
// Direct sum.

/// Row types of a 2-labeled sample over X = {0, 1, 2}: (x, y1, y2).
fn direct_sum_row(t: usize) -> (u64, [bool; 2]) {
    ((t / 4) as u64, [t & 1 == 1, t & 2 == 2])
}

/// The exact output distribution of the direct sum of the generic learner: the product of
/// the per-column distributions (the runs use independent randomness).
fn direct_sum_distribution(inner: &GenericLearner, class: &Points, rows: &[usize]) -> Vec<f64> {
    let points: Vec<u64> = rows.iter().map(|&t| direct_sum_row(t).0).collect();
    let labels: Vec<[bool; 2]> = rows.iter().map(|&t| direct_sum_row(t).1).collect();
    let sample = MultiLabeledSample::from_rows(class.domain(), points, &labels).unwrap();
    let first = inner
        .concept_distribution(class, &sample.column(0).unwrap())
        .unwrap();
    let second = inner
        .concept_distribution(class, &sample.column(1).unwrap())
        .unwrap();
    first
        .iter()
        .flat_map(|a| second.iter().map(move |b| a * b))
        .collect()
}

/// All neighbouring pairs of 2-row samples (ordered rows, one row replaced).
fn direct_sum_pairs(inner: &GenericLearner, class: &Points) -> Vec<(Vec<f64>, Vec<f64>)> {
    let mut pairs = Vec::new();
    for a in 0..12 {
        for b in 0..12 {
            let p = direct_sum_distribution(inner, class, &[a, b]);
            for c in 0..12 {
                if c != b {
                    pairs.push((p.clone(), direct_sum_distribution(inner, class, &[a, c])));
                }
            }
        }
    }
    pairs
}

#[test]
fn direct_sum_meets_its_composed_guarantee_exactly() {
    let class = Points::new(Domain::ordered(3).unwrap());
    let total = Privacy::pure(2.0).unwrap();
    let learner = DirectSum::for_total(total, 2, 1000, &|p| {
        Ok(Box::new(GenericLearner::new(p)?) as Box<dyn Learner>)
    })
    .unwrap();
    let per_column = learner.per_column();
    assert_eq!(per_column.epsilon(), 1.0);
    let claimed = learner.guarantee(2, 2).privacy().unwrap();
    assert_eq!(claimed, total);
    let inner = GenericLearner::new(per_column).unwrap();
    let pairs = direct_sum_pairs(&inner, &class);
    let report =
        privpac_audit::check_pure_claim(pairs.iter().map(|(p, q)| (p, q)), 2.0, 1e-9).unwrap();
    // The composition is what makes the claim hold: one column alone already uses more
    // than half of it on some pair, so the k-tuple's loss exceeds the per-column ε.
    assert!(report.worst_epsilon > 1.0 + 1e-6, "{report:?}");
    // Negative control: claiming the per-column budget for the whole k-tuple must fail.
    let control = privpac_audit::check_pure_claim(pairs.iter().map(|(p, q)| (p, q)), 1.0, 1e-9);
    assert!(control.is_err(), "{control:?}");
}

#[test]
fn direct_sum_statistics_match_the_product_distribution() {
    // The learner really runs the inner learner once per column: its samples follow the
    // product of the per-column exact distributions (χ², α = 1e-6).
    let class = Points::new(Domain::ordered(3).unwrap());
    let per_column = Privacy::pure(1.0).unwrap();
    let inner = GenericLearner::new(per_column).unwrap();
    let learner = DirectSum::new(Box::new(inner), 2, CompositionRule::Basic, per_column).unwrap();
    let rows = [1, 6, 10];
    let points: Vec<u64> = rows.iter().map(|&t| direct_sum_row(t).0).collect();
    let labels: Vec<[bool; 2]> = rows.iter().map(|&t| direct_sum_row(t).1).collect();
    let sample = MultiLabeledSample::from_rows(class.domain(), points, &labels).unwrap();
    let expected = direct_sum_distribution(&inner, &class, &rows);
    let mut observed = vec![0u64; 9];
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for _ in 0..20_000 {
        let h = learner.learn(&class, &sample, &mut rng).unwrap();
        let id = |h: &Predictor| match h {
            Predictor::Hypothesis(Hypothesis::Concept { id }) => *id as usize,
            other => panic!("{other:?}"),
        };
        observed[id(&h[0]) * 3 + id(&h[1])] += 1;
    }
    let outcome = privpac_audit::chi_square_gof(&observed, &expected, 1e-6).unwrap();
    assert!(!outcome.rejected, "{outcome:?}");
}

#[test]
fn approximate_totals_are_split_and_met() {
    let class = Points::new(Domain::ordered(3).unwrap());
    let total = Privacy::new(1.0, 1e-3).unwrap();
    let learner = DirectSum::for_total(total, 2, 1000, &|p| {
        Ok(Box::new(GenericLearner::new(Privacy::pure(p.epsilon())?)?) as Box<dyn Learner>)
    })
    .unwrap();
    let claimed = learner.guarantee(2, 2).privacy().unwrap();
    assert!(
        claimed.epsilon() <= 1.0 && claimed.delta() <= 1e-3,
        "{claimed:?}"
    );
    let inner =
        GenericLearner::new(Privacy::pure(learner.per_column().epsilon()).unwrap()).unwrap();
    let pairs = direct_sum_pairs(&inner, &class);
    privpac_audit::check_claim(
        pairs.iter().map(|(p, q)| (p, q)),
        claimed.epsilon(),
        claimed.delta(),
        1e-9,
    )
    .unwrap();
}

/// The exponential mechanism's distributions on every neighbouring pair of 2-row samples
/// (one column): their privacy losses span at most the width the learner reports
/// (`Learner::bounded_range`, ε + 4η), exactly; negative control: half that width is
/// exceeded (the claim is nearly tight).
#[test]
fn the_generic_learner_is_bounded_range_exactly() {
    let class = Points::new(Domain::ordered(3).unwrap());
    let epsilon = 0.8;
    let inner = GenericLearner::new(Privacy::pure(epsilon).unwrap()).unwrap();
    let width = inner.bounded_range(2).unwrap();
    assert_eq!(
        width,
        privpac_mechanisms::exponential_mechanism_range(epsilon)
    );
    let mut widest: f64 = 0.0;
    for (p, q) in direct_sum_pairs(&inner, &class) {
        let losses: Vec<f64> = p.iter().zip(&q).map(|(a, b)| (a / b).ln()).collect();
        let range = losses.iter().cloned().fold(f64::MIN, f64::max)
            - losses.iter().cloned().fold(f64::MAX, f64::min);
        // Two columns: the product's range is at most twice one column's.
        assert!(range <= 2.0 * width + 1e-9, "{range} > 2·{width}");
        widest = widest.max(range);
    }
    // One column's range reaches ε on some pair (the score of a concept changes by 1 and
    // the others' do not, in opposite directions across the pair): halving it fails.
    assert!(widest > 1.2 * epsilon, "{widest}");
    // Learners that do not claim a bounded range report None (the default).
    assert_eq!(Unclaimed(inner).bounded_range(2), None);
}

/// An inner learner that is the exponential mechanism but does not claim it (the
/// default `bounded_range`): the direct sum must not use the bounded-range split.
#[derive(Debug)]
struct Unclaimed(GenericLearner);

impl Learner for Unclaimed {
    fn learn(
        &self,
        class: &dyn ConceptClass,
        sample: &privpac_classes::LabeledSample,
        rng: &mut dyn rand::Rng,
    ) -> privpac_learners::Result<Predictor> {
        self.0.learn(class, sample, rng)
    }
    fn guarantee(&self, examples: usize) -> Guarantee {
        self.0.guarantee(examples)
    }
    fn name(&self) -> String {
        "unclaimed".into()
    }
}

/// Issue 29 §4: the direct sum of exponential-mechanism learners splits an approximate
/// total by the optimal non-adaptive composition of bounded-range mechanisms (about twice
/// the per-column ε of the canonical pair's optimal composition at k = 64), and the
/// reported guarantee, which `for_total` checks against the total, is that composition.
#[test]
fn direct_sum_of_the_exponential_mechanism_uses_the_bounded_range_split() {
    let total = Privacy::new(1.0, 1e-6).unwrap();
    let k = 64;
    let learner = DirectSum::for_total(total, k, 1000, &|p| {
        Ok(Box::new(GenericLearner::new(Privacy::pure(p.epsilon())?)?) as Box<dyn Learner>)
    })
    .unwrap();
    let (canonical, _) = split_budget(total, k).unwrap();
    let per_column = learner.per_column();
    assert!(per_column.is_pure());
    assert!(
        per_column.epsilon() > 2.0 * canonical.epsilon(),
        "{per_column:?} vs {canonical:?}"
    );
    assert_eq!(per_column, split_budget_bounded_range(total, k).unwrap());
    assert_eq!(learner.bounded_range_delta(), Some(1e-6));
    let reported = learner.guarantee(1000, k).privacy().unwrap();
    let width = privpac_mechanisms::exponential_mechanism_range(per_column.epsilon());
    let composed = privpac_accounting::bounded_range_composition(width, k as u64, 1e-6).unwrap();
    assert_eq!(reported, composed);
    assert!(reported.epsilon() <= 1.0 && reported.delta() <= 1e-6);
    // The split is tight: 0.1% more per column composes above the total.
    let over = privpac_mechanisms::exponential_mechanism_range(per_column.epsilon() * 1.001);
    let over = privpac_accounting::bounded_range_composition(over, k as u64, 1e-6).unwrap();
    assert!(over.epsilon() > 1.0, "{over:?}");
    // Pure totals keep basic composition (a pure composition of BR steps is kε).
    let pure = DirectSum::for_total(Privacy::pure(1.0).unwrap(), k, 1000, &|p| {
        Ok(Box::new(GenericLearner::new(p)?) as Box<dyn Learner>)
    })
    .unwrap();
    assert_eq!(pure.bounded_range_delta(), None);
    assert_eq!(pure.per_column().epsilon(), 1.0 / 64.0);
    // An inner learner that does not claim a bounded range gets the canonical split.
    let unclaimed = DirectSum::for_total(total, k, 1000, &|p| {
        Ok(
            Box::new(Unclaimed(GenericLearner::new(Privacy::pure(p.epsilon())?)?))
                as Box<dyn Learner>,
        )
    })
    .unwrap();
    assert_eq!(unclaimed.bounded_range_delta(), None);
    assert_eq!(unclaimed.per_column().epsilon(), canonical.epsilon());
}

/// The bounded-range split of a tiny direct sum meets its reported (ε, δ) exactly on every
/// neighbouring pair of 2-row samples; negative control: the per-column ε claimed for the
/// pair of columns (at the same δ) is refuted.
#[test]
fn bounded_range_split_meets_its_guarantee_exactly() {
    let class = Points::new(Domain::ordered(3).unwrap());
    let total = Privacy::new(1.0, 1e-2).unwrap();
    let learner = DirectSum::for_total(total, 2, 1000, &|p| {
        Ok(Box::new(GenericLearner::new(Privacy::pure(p.epsilon())?)?) as Box<dyn Learner>)
    })
    .unwrap();
    assert_eq!(learner.bounded_range_delta(), Some(1e-2));
    let (canonical, _) = split_budget(total, 2).unwrap();
    assert!(learner.per_column().epsilon() > canonical.epsilon());
    let claimed = learner.guarantee(2, 2).privacy().unwrap();
    assert!(
        claimed.epsilon() <= 1.0 && claimed.delta() <= 1e-2,
        "{claimed:?}"
    );
    let inner =
        GenericLearner::new(Privacy::pure(learner.per_column().epsilon()).unwrap()).unwrap();
    let pairs = direct_sum_pairs(&inner, &class);
    privpac_audit::check_claim(
        pairs.iter().map(|(p, q)| (p, q)),
        claimed.epsilon(),
        claimed.delta(),
        1e-9,
    )
    .unwrap();
    let control = privpac_audit::check_claim(
        pairs.iter().map(|(p, q)| (p, q)),
        learner.per_column().epsilon(),
        claimed.delta(),
        1e-9,
    );
    assert!(control.is_err(), "{control:?}");
}

#[test]
fn budget_splitting_picks_the_better_rule() {
    // Pure totals: basic composition, ε/k.
    let (p, rule) = split_budget(Privacy::pure(1.0).unwrap(), 8).unwrap();
    assert_eq!(
        (p.epsilon(), p.delta(), rule),
        (0.125, 0.0, CompositionRule::Basic)
    );
    // Approximate totals: optimal composition (Kairouz–Oh–Viswanath), which is never
    // worse than basic or advanced composition, gives the largest per-column ε at every k,
    // and the composition of the split is within the total.
    let total = Privacy::new(1.0, 1e-6).unwrap();
    for (k, advanced_root) in [(2usize, 0.0), (1000, 0.005)] {
        let (p, rule) = split_budget(total, k).unwrap();
        assert!(
            matches!(rule, CompositionRule::Optimal { .. }),
            "k = {k}: {rule:?}"
        );
        assert!(
            p.epsilon() >= 1.0 / k as f64 && p.epsilon() > advanced_root,
            "{p:?}"
        );
        let composed = compose_privacy(p, k, rule).unwrap();
        assert!(
            composed.epsilon() <= 1.0 && composed.delta() <= 1e-6,
            "{composed:?}"
        );
        // A slightly larger per-column ε would overshoot (the split is tight).
        let bigger = Privacy::new(p.epsilon() * 1.001, p.delta()).unwrap();
        assert!(compose_privacy(bigger, k, rule).unwrap().epsilon() > 1.0);
    }
    // At k = 1000 advanced composition alone would give about 0.0054 per column; the
    // optimal split gives more.
    let (p, _) = split_budget(total, 1000).unwrap();
    assert!(p.epsilon() > 0.0065, "{p:?}");
}

#[test]
fn budgets_too_small_to_split_are_typed_errors() {
    assert!(matches!(
        split_budget(Privacy::pure(1e-6).unwrap(), 10_000),
        Err(Error::BudgetTooSmall { k: 10_000, .. })
    ));
    assert!(matches!(
        split_budget(Privacy::new(1.0, 5e-324).unwrap(), 4),
        Err(Error::BudgetTooSmall { k: 4, .. })
    ));
    assert!(matches!(
        DirectSum::for_total(Privacy::pure(1e-6).unwrap(), 10_000, 1000, &|p| {
            Ok(Box::new(GenericLearner::new(p)?) as Box<dyn Learner>)
        }),
        Err(Error::BudgetTooSmall { .. })
    ));
    assert_eq!(
        split_budget(Privacy::pure(1.0).unwrap(), 0),
        Err(Error::NoLabelColumns)
    );
}

#[test]
fn direct_sum_checks_k_and_domain() {
    let class = Points::new(Domain::ordered(3).unwrap());
    let per_column = Privacy::pure(1.0).unwrap();
    let make = || Box::new(GenericLearner::new(per_column).unwrap()) as Box<dyn Learner>;
    assert!(matches!(
        DirectSum::new(make(), 0, CompositionRule::Basic, per_column),
        Err(Error::NoLabelColumns)
    ));
    let learner = DirectSum::new(make(), 3, CompositionRule::Basic, per_column).unwrap();
    let sample = MultiLabeledSample::label_with(&class, vec![0, 1], &[0, 1]).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    assert!(matches!(
        learner.learn(&class, &sample, &mut rng),
        Err(Error::LabelCountMismatch {
            expected: 3,
            found: 2
        })
    ));
    let other = Points::new(Domain::ordered(4).unwrap());
    let sample = MultiLabeledSample::label_with(&other, vec![0, 1], &[0, 1, 2]).unwrap();
    assert!(matches!(
        learner.learn(&class, &sample, &mut rng),
        Err(Error::DomainMismatch { .. })
    ));
    assert_eq!(learner.name(), "direct-sum(generic)");
}

// ---------------------------------------------------------------------------------------
// ParityLearner's A_dist step.

/// The vote kinds of the audit: ⊥ and three k = 2 vectors.
fn vote_of(kind: usize) -> Vote {
    match kind {
        0 => None,
        1 => Some(vec![1, 2]),
        2 => Some(vec![3, 4]),
        _ => Some(vec![5, 6]),
    }
}

fn vote_distribution(selection: &StableSelection, counts: &[usize]) -> Vec<(Vote, f64)> {
    let votes: Vec<Vote> = counts
        .iter()
        .enumerate()
        .flat_map(|(kind, &c)| std::iter::repeat_n(vote_of(kind), c))
        .collect();
    let (best, p) = most_frequent_distribution(selection, &votes, 2).unwrap();
    vec![(Some(best), p), (None, 1.0 - p)]
}

fn vote_pairs(selection: &StableSelection, parts: usize) -> Vec<(Vec<f64>, Vec<f64>)> {
    let mut pairs = Vec::new();
    for counts in multisets(4, parts) {
        let p = vote_distribution(selection, &counts);
        for next in neighbours(&counts) {
            pairs.push(align(&p, &vote_distribution(selection, &next)));
        }
    }
    pairs
}

#[test]
fn parity_aggregation_is_private_on_all_neighbouring_vote_multisets() {
    let (epsilon, delta) = (1.0, 0.05);
    let learner = ParityLearner::new(Privacy::new(epsilon, delta).unwrap()).unwrap();
    // Enough parts that gaps reach the threshold (τ = 9 here) from both sides.
    let parts = learner.selection().threshold() as usize + 3;
    let pairs = vote_pairs(learner.selection(), parts);
    assert!(pairs.len() > 1000);
    let report =
        privpac_audit::check_claim(pairs.iter().map(|(p, q)| (p, q)), epsilon, delta, 1e-12)
            .unwrap();
    assert!(report.worst_delta > 0.0, "{report:?}");
    // Negative control: Algorithm 3 as printed (noise Lap(1/ε), i.e. the corrected
    // mechanism at 2ε) must fail the same audit.
    let printed = StableSelection::new(Privacy::new(2.0 * epsilon, delta).unwrap(), 1).unwrap();
    let pairs = vote_pairs(&printed, parts);
    let control =
        privpac_audit::check_claim(pairs.iter().map(|(p, q)| (p, q)), epsilon, delta, 1e-12);
    assert!(control.is_err(), "{control:?}");
}

#[test]
fn plurality_breaks_ties_and_counts_runner_ups() {
    let selection = StableSelection::new(Privacy::new(1.0, 1e-6).unwrap(), 1).unwrap();
    // No part voted: the all-zero vector with gap 0.
    let (best, p) = most_frequent_distribution(&selection, &[None, None], 3).unwrap();
    assert_eq!(best, vec![0, 0, 0]);
    assert!(p <= 1e-6);
    // A tie goes to the lexicographically smallest vector.
    let votes = [
        Some(vec![5, 1]),
        Some(vec![2, 9]),
        Some(vec![5, 1]),
        Some(vec![2, 9]),
    ];
    let (best, _) = most_frequent_distribution(&selection, &votes, 2).unwrap();
    assert_eq!(best, vec![2, 9]);
}

// ---------------------------------------------------------------------------------------
// PointLearner's A_dist step.

/// Row kinds over X = {0, …, xs − 1} with k labels: kind t is x = t mod xs, labels t / xs.
fn point_rows(counts: &[usize], xs: usize, k: usize) -> MultiLabeledSample {
    let domain = Domain::ordered(xs as u64).unwrap();
    let mut points = Vec::new();
    let mut rows = Vec::new();
    for (kind, &c) in counts.iter().enumerate() {
        for _ in 0..c {
            points.push((kind % xs) as u64);
            rows.push(
                (0..k)
                    .map(|j| (kind / xs) >> j & 1 == 1)
                    .collect::<Vec<bool>>(),
            );
        }
    }
    MultiLabeledSample::from_rows(&domain, points, &rows).unwrap()
}

fn heavy_pairs(
    selection: &StableSelection,
    xs: usize,
    k: usize,
    n: usize,
    heavy: &[u64],
) -> Vec<(Vec<f64>, Vec<f64>)> {
    let distribution = |counts: &[usize]| -> Vec<(Option<Vec<Vec<u64>>>, f64)> {
        let sample = point_rows(counts, xs, k);
        let (best, p) = heavy_labels_distribution(selection, &sample, heavy).unwrap();
        vec![(Some(best), p), (None, 1.0 - p)]
    };
    let mut pairs = Vec::new();
    for counts in multisets(xs << k, n) {
        let p = distribution(&counts);
        for next in neighbours(&counts) {
            pairs.push(align(&p, &distribution(&next)));
        }
    }
    pairs
}

#[test]
fn point_label_selection_is_private_on_all_neighbouring_samples() {
    let (epsilon, delta) = (2.0, 0.02);
    let learner = PointLearner::new(Privacy::new(epsilon, delta).unwrap(), 0.5).unwrap();
    let selection = learner.selection();
    // A_dist runs at (ε/2, δ/2) = (1, 0.01): noise Lap_Z(2), threshold 2 + ⌈2 ln 100⌉ + 1.
    assert_eq!(selection.threshold(), 13);
    // Algorithm 3 as printed: noise Lap(1/ε) at (ε/2, δ/2), i.e. the corrected mechanism
    // at twice the ε.
    let printed = StableSelection::new(Privacy::new(epsilon, delta / 2.0).unwrap(), 1).unwrap();
    // (|X|, k, n, G): samples of n = 16 rows reach gaps above the threshold.
    for (xs, k, n, heavy) in [
        (2, 1, 16, vec![0, 1]),
        (2, 1, 16, vec![0]),
        (1, 2, 16, vec![0]),
    ] {
        let pairs = heavy_pairs(selection, xs, k, n, &heavy);
        let report = privpac_audit::check_claim(
            pairs.iter().map(|(p, q)| (p, q)),
            epsilon / 2.0,
            delta / 2.0,
            1e-12,
        )
        .unwrap();
        assert!(report.worst_delta > 0.0, "k = {k}: {report:?}");
        // Negative control: the printed calibration must fail the same audit.
        let pairs = heavy_pairs(&printed, xs, k, n, &heavy);
        let control = privpac_audit::check_claim(
            pairs.iter().map(|(p, q)| (p, q)),
            epsilon / 2.0,
            delta / 2.0,
            1e-12,
        );
        assert!(control.is_err(), "G = {heavy:?}, k = {k}: {control:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    /// The closed-form best and runner-up scores equal those of the explicit candidate set
    /// `({0,1}^k)^G`, enumerated.
    #[test]
    fn closed_form_scores_match_enumeration(
        rows in proptest::collection::vec((0u64..3, 0u64..8), 1..10),
        k in 1usize..=3,
        heavy_mask in 1u8..8,
    ) {
        let domain = Domain::ordered(3).unwrap();
        let points: Vec<u64> = rows.iter().map(|r| r.0).collect();
        let labels: Vec<Vec<bool>> = rows
            .iter()
            .map(|r| (0..k).map(|j| r.1 >> j & 1 == 1).collect())
            .collect();
        let sample = MultiLabeledSample::from_rows(&domain, points, &labels).unwrap();
        let heavy: Vec<u64> = (0..3).filter(|x| heavy_mask >> x & 1 == 1).collect();
        let scores = heavy_label_scores(&sample, &heavy).unwrap();
        let vectors = 1usize << k;
        let q = |x: u64, v: usize| -> i64 {
            (0..sample.len())
                .filter(|&i| {
                    sample.points()[i] == x
                        && (0..k).all(|j| sample.label(i, j) == (v >> j & 1 == 1))
                })
                .count() as i64
        };
        let best: Vec<usize> = scores.best.iter().map(|w| w[0] as usize).collect();
        let mut best_seen = i64::MIN;
        let mut second_seen = i64::MIN;
        let total = vectors.pow(heavy.len() as u32);
        for code in 0..total {
            let choice: Vec<usize> = (0..heavy.len())
                .map(|g| code / vectors.pow(g as u32) % vectors)
                .collect();
            let value = heavy.iter().zip(&choice).map(|(&x, &v)| q(x, v)).min().unwrap();
            best_seen = best_seen.max(value);
            if choice != best {
                second_seen = second_seen.max(value);
            }
        }
        let value_of_best = heavy.iter().zip(&best).map(|(&x, &v)| q(x, v)).min().unwrap();
        prop_assert_eq!(value_of_best, best_seen);
        prop_assert_eq!(scores.best_score, best_seen);
        prop_assert_eq!(scores.runner_up, second_seen);
    }
}

// ---------------------------------------------------------------------------------------
// End to end.

#[test]
fn parity_learner_recovers_every_target_and_matches_the_reference() {
    let d = 12;
    let class = Parities::new(d).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    let targets: Vec<u64> = (0..300).map(|_| rng.random::<u64>() & 0xFFF).collect();
    let privacy = Privacy::new(1.0, 1e-6).unwrap();
    let plan = bounds::parity_learner_plan(d, privacy, 0.01).unwrap();
    let points: Vec<u64> = (0..plan.examples)
        .map(|_| rng.random::<u64>() & 0xFFF)
        .collect();
    let sample = MultiLabeledSample::label_with(&class, points, &targets).unwrap();
    let learner = ParityLearner::new(privacy)
        .unwrap()
        .with_extra_points(plan.extra_points)
        .unwrap();
    let votes = learner.votes(&class, &sample).unwrap();
    assert_eq!(votes, learner.votes_reference(&class, &sample).unwrap());
    assert_eq!(votes.len(), plan.parts);
    let outcome = learner.learn_outcome(&class, &sample, &mut rng).unwrap();
    assert_eq!(outcome, ParityOutcome::Selected(targets.clone()));
    let hypotheses = learner.learn(&class, &sample, &mut rng).unwrap();
    let uniform: Vec<(u64, f64)> = (0..1u64 << d).map(|x| (x, 1.0 / 4096.0)).collect();
    assert_eq!(
        multi_error(&class, &hypotheses, &targets, &uniform).unwrap(),
        0.0
    );
    assert_eq!(
        learner.guarantee(sample.len(), 300),
        Guarantee::DifferentialPrivacy(privacy)
    );
}

#[test]
fn point_learner_learns_heavy_points_and_zeros_light_ones() {
    let class = Points::new(Domain::hypercube(40).unwrap());
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    let support: Vec<u64> = (0..6).map(|_| rng.random::<u64>() >> 24).collect();
    // Weights 0.3, 0.3, 0.2, 0.1, 0.09, 0.01: with α = 0.1 the last point may be missed.
    let weights = [0.3, 0.3, 0.2, 0.1, 0.09, 0.01];
    let distribution: Vec<(u64, f64)> = support.iter().copied().zip(weights).collect();
    let mut targets: Vec<u64> = (0..200).map(|j| support[j % 6]).collect();
    targets.push(12345); // a point never drawn
    let alpha = 0.1;
    let privacy = Privacy::new(1.0, 1e-6).unwrap();
    let n = bounds::point_learner_sample_size(privacy, alpha, 0.05, 1 << 40).unwrap();
    let points: Vec<u64> = (0..n)
        .map(|_| {
            let u: f64 = rng.random();
            let mut acc = 0.0;
            for &(x, w) in &distribution {
                acc += w;
                if u < acc {
                    return x;
                }
            }
            support[5]
        })
        .collect();
    let sample = MultiLabeledSample::label_with(&class, points, &targets).unwrap();
    let learner = PointLearner::new(privacy, alpha).unwrap();
    let hypotheses = learner.learn(&class, &sample, &mut rng).unwrap();
    let mut full = distribution.clone();
    full.push((12345, 0.0));
    let error = multi_error(&class, &hypotheses, &targets, &full).unwrap();
    assert!(error <= alpha, "error {error}");
    assert_eq!(hypotheses[0], Hypothesis::Concept { id: support[0] }.into());
    assert_eq!(
        hypotheses[200],
        Hypothesis::Constant { label: false }.into()
    );
}

// ---------------------------------------------------------------------------------------
// Typed errors.

#[test]
fn learners_reject_wrong_classes_domains_and_pure_privacy() {
    let pure = Privacy::pure(1.0).unwrap();
    assert!(matches!(
        ParityLearner::new(pure),
        Err(Error::DeltaRequired { .. })
    ));
    assert!(matches!(
        PointLearner::new(pure, 0.1),
        Err(Error::DeltaRequired { .. })
    ));
    let privacy = Privacy::new(1.0, 1e-6).unwrap();
    assert!(matches!(
        PointLearner::new(privacy, 0.0),
        Err(Error::InvalidParameter { .. })
    ));
    let parity = ParityLearner::new(privacy).unwrap();
    let point = PointLearner::new(privacy, 0.1).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(0);

    let points_on_cube = Points::new(Domain::hypercube(4).unwrap());
    let sample = MultiLabeledSample::label_with(&points_on_cube, vec![1, 2, 3], &[1]).unwrap();
    assert!(matches!(
        parity.learn(&points_on_cube, &sample, &mut rng),
        Err(Error::UnsupportedClass { .. })
    ));
    let thresholds = Thresholds::new(16).unwrap();
    let sample = MultiLabeledSample::label_with(&thresholds, vec![1, 2, 3], &[1]).unwrap();
    assert!(matches!(
        parity.learn(&thresholds, &sample, &mut rng),
        Err(Error::NotHypercube { .. })
    ));
    assert!(matches!(
        point.learn(&thresholds, &sample, &mut rng),
        Err(Error::UnsupportedClass { .. })
    ));
    let parities = Parities::new(4).unwrap();
    let sample = MultiLabeledSample::label_with(&parities, vec![1, 2, 3], &[1]).unwrap();
    assert!(matches!(
        point.learn(&parities, &sample, &mut rng),
        Err(Error::UnsupportedClass { .. })
    ));
    // A parity sample handed with the parities of another dimension.
    let other = Parities::new(5).unwrap();
    assert!(matches!(
        parity.learn(&other, &sample, &mut rng),
        Err(Error::DomainMismatch { .. })
    ));
    assert!(parity_dimension(&parities).is_ok());
    assert!(check_points_class(&points_on_cube).is_ok());
}

#[test]
fn multisets_and_neighbours_are_complete() {
    // Guards the audits above: C(4 + 3 − 1, 2) = 15 multisets, and each neighbour list
    // moves exactly one item.
    let all = multisets(3, 4);
    assert_eq!(all.len(), 15);
    let mut seen = HashMap::new();
    for m in &all {
        assert_eq!(m.iter().sum::<usize>(), 4);
        *seen.entry(m.clone()).or_insert(0) += 1;
        for next in neighbours(m) {
            let moved: usize = m.iter().zip(&next).map(|(a, b)| a.abs_diff(*b)).sum();
            assert_eq!(moved, 2);
        }
    }
    assert_eq!(seen.len(), all.len());
}

// The required n against k (flat for the parity and point learners, growing for the pure
// direct sum) is measured by the lab: `lab/tests/multi_k.rs`, with per-(k, n, trial)
// seeds and a fitted log–log slope.

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]
    /// The sensitivity claim behind ParityLearner's privacy: replacing one row changes at
    /// most one part's vote (so every candidate's count moves by at most 1).
    #[test]
    fn one_replaced_row_changes_at_most_one_vote(
        seed in any::<u64>(),
        d in 1u32..=8,
        k in 1usize..=70,
        parts in 1usize..6,
        row in any::<prop::sample::Index>(),
        new_point in any::<u64>(),
        new_labels in any::<u128>(),
    ) {
        let class = Parities::new(d).unwrap();
        let learner = ParityLearner::new(Privacy::new(1.0, 1e-6).unwrap()).unwrap();
        let mask = (1u64 << d) - 1;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let n = parts * learner.part_size(d) + 3;
        let targets: Vec<u64> = (0..k).map(|_| rng.random::<u64>() & mask).collect();
        let points: Vec<u64> = (0..n).map(|_| rng.random::<u64>() & mask).collect();
        let sample = MultiLabeledSample::label_with(&class, points.clone(), &targets).unwrap();
        let i = row.index(n);
        let mut rows: Vec<Vec<bool>> = (0..n).map(|r| sample.row(r)).collect();
        rows[i] = (0..k).map(|j| new_labels >> (j % 128) & 1 == 1).collect();
        let mut replaced = points;
        replaced[i] = new_point & mask;
        let neighbour = MultiLabeledSample::from_rows(class.domain(), replaced, &rows).unwrap();
        let before = learner.votes(&class, &sample).unwrap();
        let after = learner.votes(&class, &neighbour).unwrap();
        prop_assert_eq!(before.len(), after.len());
        let changed = before.iter().zip(&after).filter(|(a, b)| a != b).count();
        prop_assert!(changed <= 1);
    }
}

/// Issue 27 §4: a direct sum keeps its total for per-prediction inner learners. Private
/// prediction built with the per-column *mechanism* ε (the old toolkit's reading) reports a
/// per-prediction ε up to ln 9 per column; four columns at total ε = 1 composed to about
/// 8.8 and were accepted. `for_total` now checks the composed report and refuses.
#[test]
fn direct_sum_refuses_per_prediction_learners_over_the_total() {
    use privpac_learners::{PrivatePrediction, StableLearner};
    let n = 400;
    let over = DirectSum::for_total(Privacy::pure(1.0).unwrap(), 4, n, &|p| {
        Ok(Box::new(PrivatePrediction::new(
            StableLearner::new(p.epsilon(), 20)?,
            0.1,
        )?) as Box<dyn Learner>)
    });
    assert!(
        matches!(over, Err(Error::BudgetTooSmall { .. })),
        "{:?}",
        over.map(|l| l.guarantee(n, 4))
    );
    // Built for the per-column target instead, the per-prediction guarantees compose by
    // basic composition within the total, even for an approximate total (whose DP split
    // would give each column more than ε/k).
    for total in [
        Privacy::pure(1.0).unwrap(),
        Privacy::new(1.0, 1e-6).unwrap(),
    ] {
        let learner = DirectSum::for_total(total, 4, n, &|p| {
            Ok(Box::new(PrivatePrediction::with_prediction_epsilon(
                p.epsilon(),
                n,
                0.01,
                0.1,
            )?) as Box<dyn Learner>)
        })
        .unwrap();
        assert_eq!(learner.rule(), CompositionRule::Basic);
        assert!(learner.per_column().epsilon() <= 0.25);
        match learner.guarantee(n, 4) {
            Guarantee::PerPrediction { epsilon } => assert!(epsilon <= 1.0, "{epsilon}"),
            other => panic!("{other:?}"),
        }
    }
}

/// A uniformly stable (not private) inner learner has no budget to keep: refused.
#[test]
fn direct_sum_refuses_inner_learners_without_a_privacy_guarantee() {
    use privpac_learners::{Erm, StableLearner};
    let stable = DirectSum::for_total(Privacy::pure(1.0).unwrap(), 4, 100, &|p| {
        Ok(Box::new(StableLearner::new(p.epsilon(), 10)?) as Box<dyn Learner>)
    });
    assert!(
        matches!(stable, Err(Error::InnerNotPrivate { .. })),
        "{stable:?}"
    );
    let erm = DirectSum::for_total(Privacy::pure(1.0).unwrap(), 4, 100, &|_| {
        Ok(Box::new(Erm::default()) as Box<dyn Learner>)
    });
    let message = erm.unwrap_err().to_string();
    assert!(message.contains("per-prediction"), "{message}");
}

/// Exact audit of a direct sum of private prediction over the total: on every pair of
/// neighbouring 2-labeled samples of 4 examples over 2 points (a row changed, so both
/// columns change), the joint law of the two predictions at one query point (one query
/// per model) is within the reported per-prediction ε, which is within the total.
#[test]
fn direct_sum_of_private_prediction_is_exactly_within_its_total() {
    use privpac_learners::PrivatePrediction;
    let class = Thresholds::new(2).unwrap();
    let domain = class.domain().clone();
    let (n, k, total) = (4, 2, Privacy::pure(4.0).unwrap());
    let direct = DirectSum::for_total(total, k, n, &|p| {
        Ok(Box::new(PrivatePrediction::with_prediction_epsilon(
            p.epsilon(),
            n,
            1.0,
            0.1,
        )?) as Box<dyn Learner>)
    })
    .unwrap();
    let claimed = direct.guarantee(n, k).epsilon().unwrap();
    assert!(claimed <= total.epsilon());
    let inner =
        PrivatePrediction::with_prediction_epsilon(direct.per_column().epsilon(), n, 1.0, 0.1)
            .unwrap();
    // Row types (x, y1, y2): 2 points × 4 label pairs.
    let rows: Vec<(u64, [bool; 2])> = (0..2u64)
        .flat_map(|x| (0..4u8).map(move |l| (x, [l & 1 == 1, l & 2 == 2])))
        .collect();
    let law = |counts: &[usize], x: u64| -> Vec<f64> {
        let mut ones = [0.0; 2];
        for (j, one) in ones.iter_mut().enumerate() {
            let pairs: Vec<(u64, bool)> = counts
                .iter()
                .enumerate()
                .flat_map(|(r, &c)| std::iter::repeat_n((rows[r].0, rows[r].1[j]), c))
                .collect();
            let sample = privpac_classes::LabeledSample::from_pairs(&domain, &pairs).unwrap();
            *one = inner.prediction_probability(&class, &sample, x).unwrap();
        }
        (0..4)
            .map(|b| {
                let p0 = if b & 1 == 1 { ones[0] } else { 1.0 - ones[0] };
                let p1 = if b & 2 == 2 { ones[1] } else { 1.0 - ones[1] };
                p0 * p1
            })
            .collect()
    };
    let mut pairs = Vec::new();
    for counts in multisets(rows.len(), n) {
        for other in neighbours(&counts) {
            for x in 0..2 {
                pairs.push((law(&counts, x), law(&other, x)));
            }
        }
    }
    let report =
        privpac_audit::check_pure_claim(pairs.iter().map(|(p, q)| (p, q)), claimed, 1e-9).unwrap();
    assert!(report.worst_epsilon <= total.epsilon(), "{report:?}");
}
