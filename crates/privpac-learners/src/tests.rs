//! Tests of the learners: exact privacy audits of the generic learner over every sample of
//! size ≤ 4 on domains of ≤ 4 points and all their neighbours, a negative control, the
//! sampler against its exact distribution, and the ERM baselines.

use privpac_accounting::Privacy;
use privpac_classes::{ConceptClass, Domain, Hypothesis, LabeledSample, Points, Thresholds};
use privpac_mechanisms::ExponentialMechanism;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::{Erm, ErmMode, Error, GenericLearner, Learner, Predictor};

mod improper_point;
mod parities;
mod prediction;
mod prediction_extremes;
mod sanitized_points;
mod sanitized_structure;
mod structured;
mod wide;
mod wide_complements;
mod wide_covers;
mod wide_runs;

/// Every labeled sample of size `n` over `domain_size` points.
fn all_samples(domain_size: u64, n: usize) -> Vec<Vec<(u64, bool)>> {
    let examples: Vec<(u64, bool)> = (0..domain_size)
        .flat_map(|x| [(x, false), (x, true)])
        .collect();
    let mut out = vec![Vec::new()];
    for _ in 0..n {
        out = out
            .into_iter()
            .flat_map(|prefix| {
                examples.iter().map(move |&e| {
                    let mut next = prefix.clone();
                    next.push(e);
                    next
                })
            })
            .collect();
    }
    out
}

/// Exact output distributions of a learner on every pair of neighbouring samples (one
/// example replaced) of size 1..=4 over `class`'s domain; returns the largest privacy loss.
fn worst_loss(class: &dyn ConceptClass, distribution: impl Fn(&LabeledSample) -> Vec<f64>) -> f64 {
    let domain_size = class.domain().size() as u64;
    let examples: Vec<(u64, bool)> = (0..domain_size)
        .flat_map(|x| [(x, false), (x, true)])
        .collect();
    let mut worst: f64 = 0.0;
    for n in 1..=4 {
        for sample in all_samples(domain_size, n) {
            let s = LabeledSample::from_pairs(class.domain(), &sample).unwrap();
            let p = distribution(&s);
            for i in 0..n {
                for &replacement in &examples {
                    if replacement == sample[i] {
                        continue;
                    }
                    let mut neighbour = sample.clone();
                    neighbour[i] = replacement;
                    let t = LabeledSample::from_pairs(class.domain(), &neighbour).unwrap();
                    let q = distribution(&t);
                    worst = worst.max(privpac_audit::max_divergence(&p, &q).unwrap());
                }
            }
        }
    }
    worst
}

#[test]
fn generic_learner_is_exactly_private_on_all_tiny_datasets() {
    for epsilon in [0.5, 1.0, 2.0] {
        let learner = GenericLearner::new(Privacy::pure(epsilon).unwrap()).unwrap();
        let classes: Vec<Box<dyn ConceptClass>> = vec![
            Box::new(Thresholds::new(4).unwrap()),
            Box::new(Points::new(Domain::ordered(4).unwrap())),
            Box::new(Thresholds::new(3).unwrap()),
        ];
        for class in &classes {
            let loss = worst_loss(class.as_ref(), |s| {
                learner.concept_distribution(class.as_ref(), s).unwrap()
            });
            assert!(
                loss <= epsilon,
                "{}: loss {loss} > ε = {epsilon}",
                class.name()
            );
            assert!(
                loss > 0.5 * epsilon,
                "{}: the audit should see most of ε ({loss})",
                class.name()
            );
        }
    }
}

#[test]
fn a_mis_parameterized_learner_fails_the_audit() {
    // Negative control: the exponential mechanism told Δ = 1/2 (twice the weight per
    // mistake) claims ε but is only 2ε-private; the same audit must catch it.
    let wrong = ExponentialMechanism::new(Privacy::pure(1.0).unwrap(), 0.5).unwrap();
    let class = Thresholds::new(4).unwrap();
    let loss = worst_loss(&class, |s| {
        let scores: Vec<f64> = class
            .error_counts(s)
            .unwrap()
            .iter()
            .map(|&e| -(e as f64))
            .collect();
        wrong.probabilities(&scores).unwrap()
    });
    assert!(loss > 1.0, "{loss}");
}

#[test]
fn generic_learner_samples_its_exact_distribution() {
    let class = Thresholds::new(8).unwrap();
    let sample = LabeledSample::from_pairs(
        class.domain(),
        &[(1, true), (2, true), (5, false), (6, false)],
    )
    .unwrap();
    let learner = GenericLearner::new(Privacy::pure(1.0).unwrap()).unwrap();
    let exact = learner.concept_distribution(&class, &sample).unwrap();
    let mut counts = vec![0u64; 8];
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    for _ in 0..100_000 {
        match learner.learn(&class, &sample, &mut rng).unwrap() {
            Predictor::Hypothesis(Hypothesis::Concept { id }) => counts[id as usize] += 1,
            other => panic!("improper output {other:?}"),
        }
    }
    // χ² at α = 1e-6 (false-failure rate of this seeded test for a correct sampler).
    let outcome = privpac_audit::chi_square_gof(&counts, &exact, 1e-6).unwrap();
    assert!(!outcome.rejected, "{counts:?} vs {exact:?}: {outcome:?}");
    let levels = learner.level_distribution(&class, &sample).unwrap();
    assert_eq!(levels.iter().map(|l| l.1).sum::<u64>(), 8);
    assert!((levels.iter().map(|l| l.2).sum::<f64>() - 1.0).abs() < 1e-12);
}

#[test]
fn generic_learner_handles_huge_domains_through_runs() {
    let class = Thresholds::new(1 << 40).unwrap();
    let pairs: Vec<(u64, bool)> = (0..500u64).map(|i| (i << 30, i < 250)).collect();
    let sample = LabeledSample::from_pairs(class.domain(), &pairs).unwrap();
    let learner = GenericLearner::new(Privacy::pure(2.0).unwrap()).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let Predictor::Hypothesis(Hypothesis::Concept { id }) =
        learner.learn(&class, &sample, &mut rng).unwrap()
    else {
        panic!("proper learner")
    };
    // Consistent thresholds lie in [249·2^30, 250·2^30); with 500 examples and ε = 2 the
    // output makes few mistakes with overwhelming probability.
    let mistakes = pairs
        .iter()
        .filter(|&&(x, y)| class.eval(id, x) != y)
        .count();
    assert!(mistakes <= 10, "{mistakes}");
    assert_eq!(
        learner.guarantee(500),
        privpac_accounting::Guarantee::from(Privacy::pure(2.0).unwrap())
    );
}

#[test]
fn erm_finds_consistent_and_best_concepts() {
    let class = Thresholds::new(10).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let sample = LabeledSample::from_pairs(class.domain(), &[(3, true), (4, false)]).unwrap();
    let realizable = Erm {
        mode: ErmMode::Realizable,
    };
    assert_eq!(
        realizable.learn(&class, &sample, &mut rng).unwrap(),
        Predictor::from(Hypothesis::Concept { id: 3 })
    );
    let noisy = LabeledSample::from_pairs(class.domain(), &[(3, false), (4, true)]).unwrap();
    assert!(matches!(
        realizable.learn(&class, &noisy, &mut rng),
        Err(Error::NotRealizable { best: 1, .. })
    ));
    assert_eq!(
        Erm::default().learn(&class, &noisy, &mut rng).unwrap(),
        Predictor::from(Hypothesis::Concept { id: 0 })
    );
    assert_eq!(
        Erm::default().guarantee(2),
        privpac_accounting::Guarantee::None
    );
}

#[test]
fn invalid_parameters_are_typed_errors() {
    assert!(matches!(
        GenericLearner::new(Privacy::new(1.0, 1e-6).unwrap()),
        Err(Error::Mechanism(
            privpac_mechanisms::Error::InvalidDelta { .. }
        ))
    ));
}

#[test]
fn learners_have_autotraits() {
    fn assert_auto<T: Send + Sync + Unpin>() {}
    assert_auto::<GenericLearner>();
    assert_auto::<Erm>();
}

/// Over every sample of size 2..=4 on `class`'s domain and every neighbour, the largest
/// measured prediction stability and per-prediction privacy loss.
fn worst_prediction_measurements(
    class: &dyn ConceptClass,
    predictor: &crate::PrivatePrediction,
    stable: &crate::StableLearner,
) -> Vec<(usize, f64, f64)> {
    let domain_size = class.domain().size() as u64;
    let examples: Vec<(u64, bool)> = (0..domain_size)
        .flat_map(|x| [(x, false), (x, true)])
        .collect();
    let probabilities = |pairs: &[(u64, bool)], private: bool| -> Vec<f64> {
        let s = LabeledSample::from_pairs(class.domain(), pairs).unwrap();
        if private {
            (0..domain_size)
                .map(|x| predictor.prediction_probability(class, &s, x).unwrap())
                .collect()
        } else {
            let distribution = stable.concept_distribution(class, &s).unwrap();
            (0..domain_size)
                .map(|x| {
                    distribution
                        .iter()
                        .enumerate()
                        .filter(|&(c, _)| class.eval(c as u64, x))
                        .map(|(_, q)| q)
                        .sum::<f64>()
                        .min(1.0)
                })
                .collect()
        }
    };
    let mut out = Vec::new();
    for n in 2..=4 {
        let (mut beta, mut eps): (f64, f64) = (0.0, 0.0);
        for sample in all_samples(domain_size, n) {
            let p_stable = probabilities(&sample, false);
            let p_private = probabilities(&sample, true);
            for i in 0..n {
                for &replacement in &examples {
                    let mut neighbour = sample.clone();
                    neighbour[i] = replacement;
                    let q_stable = probabilities(&neighbour, false);
                    let q_private = probabilities(&neighbour, true);
                    beta = beta
                        .max(privpac_audit::prediction_stability(&p_stable, &q_stable).unwrap());
                    eps = eps.max(
                        privpac_audit::prediction_privacy_loss(&p_private, &q_private).unwrap(),
                    );
                }
            }
        }
        out.push((n, beta, eps));
    }
    out
}

#[test]
fn stable_learner_and_private_prediction_meet_their_claims_exactly() {
    let class = Thresholds::new(4).unwrap();
    for (epsilon, subset_size, eta) in [(0.5, 1, 0.2), (1.0, 2, 0.1), (0.2, 1, 0.3)] {
        let stable = crate::StableLearner::new(epsilon, subset_size).unwrap();
        let predictor = crate::PrivatePrediction::new(stable, eta).unwrap();
        for (n, beta, eps) in worst_prediction_measurements(&class, &predictor, &stable) {
            let claimed_beta = stable.stability(n);
            let claimed_eps = predictor.prediction_epsilon(n);
            assert!(
                beta <= claimed_beta + 1e-12,
                "n = {n}: β {beta} > {claimed_beta}"
            );
            assert!(
                eps <= claimed_eps + 1e-12,
                "n = {n}: ε {eps} > {claimed_eps}"
            );
            // Negative control: for small ε, a claim that ignores the subsample term t/n
            // (tanh(ε/2) alone) is violated, so the measurement can refute a wrong claim.
            if epsilon <= 0.5 {
                assert!(
                    beta > (epsilon / 2.0).tanh(),
                    "n = {n}: β {beta} ≤ tanh(ε/2)"
                );
            }
        }
    }
}

#[test]
fn stable_learner_samples_its_exact_distribution() {
    let class = Thresholds::new(6).unwrap();
    let sample = LabeledSample::from_pairs(
        class.domain(),
        &[(0, true), (2, true), (3, false), (5, false)],
    )
    .unwrap();
    let stable = crate::StableLearner::new(1.0, 2).unwrap();
    let exact = stable.concept_distribution(&class, &sample).unwrap();
    let mut counts = vec![0u64; 6];
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    for _ in 0..60_000 {
        let Predictor::Hypothesis(Hypothesis::Concept { id }) =
            stable.learn(&class, &sample, &mut rng).unwrap()
        else {
            panic!("proper learner")
        };
        counts[id as usize] += 1;
    }
    // χ² at α = 1e-6.
    let outcome = privpac_audit::chi_square_gof(&counts, &exact, 1e-6).unwrap();
    assert!(!outcome.rejected, "{counts:?} vs {exact:?}: {outcome:?}");
}

#[test]
fn subsampled_learner_reports_the_amplified_guarantee() {
    let inner = GenericLearner::new(Privacy::pure(1.0).unwrap()).unwrap();
    let wrapped = crate::Subsampled::new(Box::new(inner), 10, 100).unwrap();
    let privacy = wrapped.guarantee(100).privacy().unwrap();
    assert!((privacy.epsilon() - 0.6).abs() < 1e-12);
    let class = Thresholds::new(8).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let small = LabeledSample::from_pairs(class.domain(), &[(1, true)]).unwrap();
    assert!(matches!(
        wrapped.learn(&class, &small, &mut rng),
        Err(Error::InvalidParameter { .. })
    ));
    let pairs: Vec<(u64, bool)> = (0..100).map(|i| (i % 8, i % 8 <= 3)).collect();
    let full = LabeledSample::from_pairs(class.domain(), &pairs).unwrap();
    assert!(wrapped.learn(&class, &full, &mut rng).is_ok());
    assert!(crate::Subsampled::new(Box::new(Erm::default()), 10, 100).is_err());
    assert!(crate::Subsampled::new(Box::new(inner), 10, 15).is_err());
}

#[test]
fn sanitizer_learner_learns_thresholds_and_composes_its_guarantee() {
    use privpac_sanitizers::{Mwem, ThresholdSanitizer};
    let class = Thresholds::new(32).unwrap();
    let pairs: Vec<(u64, bool)> = (0..4000u64)
        .map(|i| ((i * 7) % 32, (i * 7) % 32 <= 12))
        .collect();
    let sample = LabeledSample::from_pairs(class.domain(), &pairs).unwrap();
    let sanitizers: Vec<Box<dyn privpac_sanitizers::Sanitizer>> = vec![
        Box::new(ThresholdSanitizer::new(Privacy::pure(1.0).unwrap()).unwrap()),
        Box::new(Mwem::new(Privacy::pure(1.0).unwrap(), 10).unwrap()),
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    for sanitizer in sanitizers {
        let name = sanitizer.name();
        let learner = crate::SanitizerLearner::new(sanitizer, Privacy::pure(1.0).unwrap()).unwrap();
        let total = learner.guarantee(sample.len()).privacy().unwrap();
        assert!((total.epsilon() - 2.0).abs() < 1e-12, "{name}: {total}");
        let Predictor::Hypothesis(Hypothesis::Concept { id }) =
            learner.learn(&class, &sample, &mut rng).unwrap()
        else {
            panic!("proper learner")
        };
        // The target is threshold 12; with 4000 examples the output is within a few
        // thresholds of it (each threshold step costs 125 mistakes).
        assert!(id.abs_diff(12) <= 2, "{name}: chose threshold {id}");
    }
}
