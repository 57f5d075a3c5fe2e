//! Exact checks of the prediction learners' claims away from the defaults: the relabeling
//! and Dagan–Feldman pipelines with three or more voters, and the flipping learner with η
//! next to 1/2.

use privpac_accounting::Guarantee;
use privpac_classes::WithZero;

use super::prediction::worst_prediction_loss;
use super::*;

/// The class `[[0], [1]]`: one point, labelled 0 by concept 0 and 1 by concept 1.
fn one_point_class() -> WithZero<Thresholds> {
    WithZero::new(Thresholds::new(1).unwrap()).unwrap()
}

/// With k ≥ 3 voters the relabeling learner's claim is capped by the vote's floor bound
/// ε₂k/2, not by ε₂: after the selection, neighbouring samples can train the vote on
/// entirely different data. Exact over every sample and neighbour; the negative control
/// records a loss above the old cap min{subsample bound, ε₂}.
#[test]
fn relabeling_with_three_or_more_voters_meets_its_claim_exactly() {
    let one_point = one_point_class();
    let thresholds = Thresholds::new(2).unwrap();
    let points = Points::new(Domain::Ordered { size: 2 });
    let mut old_cap_refuted = false;
    let cases: [(&dyn ConceptClass, f64, usize, f64, usize); 5] = [
        (&one_point, 20.0, 3, 2.0, 3),
        (&one_point, 2.5, 5, 1.0, 5),
        (&one_point, 1.0, 3, 0.5, 3),
        (&thresholds, 20.0, 3, 2.0, 3),
        (&points, 4.0, 3, 1.0, 3),
    ];
    for (class, epsilon, t, vote_epsilon, voters) in cases {
        let voting = crate::VotingPredictor::new(vote_epsilon, voters).unwrap();
        let predictor = crate::RelabelingPredictor::new(epsilon, t, voting).unwrap();
        let size = class.domain().size() as u64;
        let probabilities = |s: &LabeledSample| -> Vec<f64> {
            (0..size)
                .map(|x| predictor.prediction_probability(class, s, x).unwrap())
                .collect()
        };
        let n = t + 1;
        let loss = worst_prediction_loss(class, n, &probabilities);
        let claimed = predictor.prediction_epsilon(n);
        let old_cap = predictor
            .subsample_bound(n)
            .min(voting.prediction_epsilon());
        eprintln!(
            "{} ε₁ = {epsilon} t = {t} ε₂ = {vote_epsilon} k = {voters} n = {n}: \
             measured {loss:.4}, claimed {claimed:.4}, old claim {old_cap:.4}",
            class.name()
        );
        assert!(loss <= claimed + 1e-9, "loss {loss} > {claimed}");
        assert_eq!(
            predictor.guarantee(n),
            Guarantee::per_prediction(claimed).unwrap()
        );
        old_cap_refuted |= loss > old_cap + 1e-6;
    }
    assert!(old_cap_refuted, "no case exceeds the old cap ε₂");
}

/// The witness: `Learner("relabeling", epsilon=5.0)` with the defaults (7 voters,
/// vote ε 1) on the one-point class, 20 copies of the point, 9 against 10 ones. On one
/// point the relabeled subsample is the point t times labelled all 0 or all 1 and the
/// selection scores do not depend on T, so the probability given any one T is the exact
/// prediction probability (checked on two different T).
#[test]
fn relabeling_witness_with_seven_voters_is_within_the_claim() {
    let class = one_point_class();
    let voting = crate::VotingPredictor::new(1.0, 7).unwrap();
    let predictor = crate::RelabelingPredictor::with_prediction_epsilon(5.0, 20, voting).unwrap();
    let t = predictor.subset_size();
    let probability = |ones: usize| {
        let pairs: Vec<(u64, bool)> = (0..20).map(|i| (0, i < ones)).collect();
        let sample = LabeledSample::from_pairs(class.domain(), &pairs).unwrap();
        let errors = class.error_counts(&sample).unwrap();
        let first: Vec<usize> = (0..t).collect();
        let last: Vec<usize> = (20 - t..20).rev().collect();
        let p = predictor
            .probability_given_positions(&class, &sample, &errors, &first, 0)
            .unwrap();
        let q = predictor
            .probability_given_positions(&class, &sample, &errors, &last, 0)
            .unwrap();
        assert_eq!(p, q);
        p
    };
    let (nine, ten) = (probability(9), probability(10));
    assert!((nine - 0.1007).abs() < 5e-5, "{nine}");
    assert!((ten - 0.5).abs() < 1e-12, "{ten}");
    let loss = privpac_audit::prediction_privacy_loss(&[nine], &[ten]).unwrap();
    let claimed = predictor.prediction_epsilon(20);
    eprintln!("t = {t}: Pr[1] {nine:.4} vs {ten:.4}, loss {loss:.4}, claimed {claimed:.4}");
    assert!(loss > 1.59 && loss > voting.prediction_epsilon(), "{loss}");
    assert!(loss <= claimed, "{loss} > {claimed}");
    assert_eq!(claimed, voting.floor_epsilon());
    assert!(claimed <= 5.0);
}

/// The Dagan–Feldman learner keeps the vote's ε₂ term (its relabeled samples differ in
/// one position when h is fixed); exact audits with three voters confirm its claim.
#[test]
fn dagan_feldman_with_three_voters_meets_its_claim_exactly() {
    let one_point = one_point_class();
    let thresholds = Thresholds::new(2).unwrap();
    // (class, ε₁, t, r, ε₂, k, η)
    type Case<'a> = (&'a dyn ConceptClass, f64, usize, usize, f64, usize, f64);
    let cases: [Case<'_>; 4] = [
        (&one_point, 3.0, 1, 1, 2.0, 3, 0.0),
        (&one_point, 0.5, 2, 0, 1.0, 3, 0.1),
        (&thresholds, 2.0, 1, 1, 1.0, 3, 0.0),
        (&thresholds, 1.0, 2, 2, 3.0, 4, 0.05),
    ];
    for (class, epsilon, t, radius, vote_epsilon, voters, eta) in cases {
        let voting = crate::VotingPredictor::new(vote_epsilon, voters).unwrap();
        let predictor =
            crate::DaganFeldmanPredictor::new(epsilon, t, radius, 4, voting, eta).unwrap();
        let size = class.domain().size() as u64;
        let probabilities = |s: &LabeledSample| -> Vec<f64> {
            (0..size)
                .map(|x| predictor.prediction_probability(class, s, x).unwrap())
                .collect()
        };
        for n in voters.max(t + 1)..=4 {
            let loss = worst_prediction_loss(class, n, &probabilities);
            let claimed = predictor.prediction_epsilon(n);
            eprintln!(
                "{} ε₁ = {epsilon} t = {t} r = {radius} ε₂ = {vote_epsilon} k = {voters} \
                 η = {eta} n = {n}: measured {loss:.4}, claimed {claimed:.4}",
                class.name()
            );
            assert!(loss <= claimed + 1e-9, "n = {n}: loss {loss} > {claimed}");
        }
    }
}

/// For η within 2⁻⁵⁴ of 1/2 the old `(1 + x).ln()` rounded the flipping learner's claim
/// to exactly 0, which then bypassed `Guarantee::per_prediction`'s check. The claim is now
/// positive and at least `ln(1 + x)`, and the guarantee goes through the check.
#[test]
fn flipping_learner_claims_a_positive_epsilon_next_to_one_half() {
    let eta = 0.5f64.next_down(); // 1/2 − 2⁻⁵⁴
    let stable = crate::StableLearner::new(0.05, 1).unwrap();
    let predictor = crate::PrivatePrediction::new(stable, eta).unwrap();
    let n = 1000;
    let claimed = predictor.prediction_epsilon(n);
    // x = (1 − 2η)β/η = 2⁻⁵³·β/η ≈ 5.8·10⁻¹⁸; ln(1 + x) ≥ x − x²/2.
    let x = (1.0 - 2.0 * eta) * stable.stability(n) / eta;
    assert!(x > 0.0 && 1.0 + x == 1.0, "{x}");
    assert!(claimed >= x * (1.0 - 1e-12), "{claimed} < {x}");
    assert!(claimed <= x * (1.0 + 1e-12), "{claimed} ≫ {x}");
    assert_eq!(
        predictor.guarantee(n),
        Guarantee::per_prediction(claimed).unwrap()
    );
    // A subnormal η overflows the quotient: no finite claim, so no guarantee.
    let tiny = crate::PrivatePrediction::new(stable, f64::from_bits(1)).unwrap();
    assert_eq!(tiny.prediction_epsilon(n), f64::INFINITY);
    assert_eq!(tiny.guarantee(n), Guarantee::None);
}

/// Over a grid of η, ε, t and n the rounded-up claim is never below the formula evaluated
/// to nearest with `ln_1p`, and at most a few ulps above it.
#[test]
fn flipping_learner_claim_is_rounded_up() {
    for eta in [
        1e-300,
        1e-9,
        0.01,
        0.05,
        0.25,
        0.4999999,
        0.5f64.next_down(),
    ] {
        for epsilon in [1e-9, 0.05, 1.0, 30.0] {
            for (t, n) in [(1, 2), (3, 10), (1, 1_000_000), (999, 1000)] {
                let stable = crate::StableLearner::new(epsilon, t).unwrap();
                let predictor = crate::PrivatePrediction::new(stable, eta).unwrap();
                let nearest = ((1.0 - 2.0 * eta) * stable.stability(n) / eta).ln_1p();
                let claimed = predictor.prediction_epsilon(n);
                assert!(
                    claimed >= nearest && claimed <= nearest * (1.0 + 1e-14) && claimed > 0.0,
                    "η = {eta}, ε = {epsilon}, t = {t}, n = {n}: {claimed} vs {nearest}"
                );
            }
        }
    }
}

/// The learned noisy vote predicts exactly as the voting learner's own exact `predict`
/// (the same draw for the same random bits), at margins up to 74 votes, where the old
/// float coin of `Hypothesis::predict` never answered the minority label.
#[test]
fn learned_noisy_votes_predict_with_the_voting_learners_sampler() {
    let class = Thresholds::new(4).unwrap();
    for (epsilon, voters) in [(1.0, 3), (1.0, 74), (0.2, 7), (30.0, 5)] {
        let voting = crate::VotingPredictor::new(epsilon, voters).unwrap();
        for ones in [0, voters / 2, voters] {
            let pairs: Vec<(u64, bool)> = (0..voters).map(|i| (1, i < ones)).collect();
            let sample = LabeledSample::from_pairs(class.domain(), &pairs).unwrap();
            let mut unused = ChaCha8Rng::seed_from_u64(0);
            let h = voting.learn(&class, &sample, &mut unused).unwrap();
            for x in 0..4 {
                for seed in 0..16 {
                    let mut a = ChaCha8Rng::seed_from_u64(seed);
                    let mut b = ChaCha8Rng::seed_from_u64(seed);
                    assert_eq!(
                        h.predict(&class, x, &mut a).unwrap(),
                        voting.predict(&class, &sample, x, &mut b).unwrap(),
                        "ε = {epsilon}, k = {voters}, {ones} ones, x = {x}, seed {seed}"
                    );
                }
                assert_eq!(
                    h.probability_of_one(&class, x),
                    voting.prediction_probability(&class, &sample, x).unwrap()
                );
            }
        }
    }
}

/// The stable learner's uniform-stability claim `β = f + (1 − f)·tanh(ε/2)` is an upper
/// bound on the exact value: at least two floats above the round-to-nearest evaluation
/// (whose error is at most about 1.5 ulps of β from +, −, × and the quotient t/n, plus
/// `tanh`'s assumed two ulps of τ scaled by 1 − f), and never above 1.
#[test]
fn stable_learner_stability_is_rounded_up() {
    for epsilon in [1e-9, 1e-3, 0.05, 0.7, 1.0, 3.0, 40.0] {
        let stable = crate::StableLearner::new(epsilon, 7).unwrap();
        for n in [7usize, 8, 13, 100, 999, 1_000_000] {
            let f = 7.0 / n as f64;
            let nearest = f + (1.0 - f) * (epsilon / 2.0).tanh();
            let mut floor = nearest;
            for _ in 0..2 {
                floor = floor.next_up();
            }
            let claimed = stable.stability(n);
            assert!(
                claimed >= floor.min(1.0) && claimed <= 1.0,
                "ε = {epsilon}, n = {n}: {claimed} vs {nearest}"
            );
        }
    }
}
