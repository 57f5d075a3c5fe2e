//! Realized-loss properties of the learners and the sanitizer: the noisy vote on both
//! prediction paths, relabeling, Dagan–Feldman, private prediction and the stable learner,
//! the generic and improper point learners and Blum–Ligett–Roth (see the harness's module
//! documentation).

use super::*;
// ---------------------------------------------------------------------------------------
// The noisy vote: `VotingPredictor` and `Predictor::NoisyVote`.

#[derive(Debug, Clone)]
pub(super) struct VoteCase {
    pub(super) epsilon: f64,
    pub(super) voters: usize,
    pub(super) margins: Vec<usize>,
}

pub(super) fn vote_case() -> impl Strategy<Value = VoteCase> {
    let voters = prop_oneof![
        1usize..=8,
        9usize..=200,
        log_uniform(200.0, 5000.0).prop_map(|k| k as usize),
        Just(74usize),
    ];
    (any_epsilon(), voters)
        .prop_flat_map(|(epsilon, voters)| {
            (
                Just(epsilon),
                Just(voters),
                prop::collection::vec(0..=voters, 6),
            )
        })
        .prop_map(|(epsilon, voters, margins)| VoteCase {
            epsilon,
            voters,
            margins,
        })
}

/// A noisy vote of k constant members of which `ones` vote 1.
pub(super) fn noisy_vote(ones: usize, k: usize, epsilon: f64) -> Predictor {
    Predictor::NoisyVote {
        members: (0..k)
            .map(|i| Hypothesis::Constant { label: i < ones })
            .collect(),
        epsilon,
    }
}

pub(super) fn vote(case: VoteCase) -> Result<bool, TestCaseError> {
    let VoteCase {
        epsilon, voters: k, ..
    } = case;
    let mechanism = Privacy::pure(epsilon)
        .map_err(privpac_mechanisms::Error::from)
        .and_then(|p| ExponentialMechanism::new(p, 1.0));
    let voting = VotingPredictor::new(epsilon, k);
    prop_assert_eq!(mechanism.is_ok(), voting.is_ok(), "ε = {}", epsilon);
    let (Ok(mechanism), Ok(voting)) = (mechanism, voting) else {
        return Ok(false);
    };
    let Some(claimed) = reported_epsilon(voting.guarantee(k)) else {
        return Ok(false);
    };
    let floor = voting.floor_epsilon();
    // The realized per-label log-probabilities with `ones` of k votes for 1: those of the
    // mechanism the predictors sample with (checked below).
    let realized = |ones: usize| {
        mechanism
            .log_probabilities_integer(&[(k - ones) as i64, ones as i64])
            .unwrap()
    };
    let mut margins: Vec<usize> = if k <= 300 {
        (0..=k).collect()
    } else {
        let mut m = vec![0, 1, 2, k / 2, k - 2, k - 1, k];
        m.extend(&case.margins);
        m
    };
    margins.sort_unstable();
    margins.dedup();
    let (mut lowest, mut highest) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
    for &ones in &margins {
        let here = realized(ones);
        for label in 0..2 {
            lowest[label] = lowest[label].min(here[label]);
            highest[label] = highest[label].max(here[label]);
        }
        if ones < k {
            // One changed example moves one member: one vote.
            let loss = max_divergence_log(&here, &realized(ones + 1)).unwrap();
            prop_assert!(
                loss <= claimed,
                "ε = {epsilon}, k = {k}: {ones} → {} votes for 1: loss {loss} > reported {claimed}",
                ones + 1
            );
        }
    }
    // Any two votes (the bound relabeling relies on): margins 0 and k are included.
    for label in 0..2 {
        let spread = highest[label] - lowest[label];
        prop_assert!(
            spread <= floor,
            "ε = {epsilon}, k = {k}: label {label} spreads e^{spread} > floor bound {floor}"
        );
    }
    // The predictors realize exactly these probabilities.
    let class = one_point();
    let concept_of = |label: bool| (0..2u64).find(|&c| class.eval(c, 0) == label).unwrap();
    for &ones in case.margins.iter().take(3).chain([&0, &k]) {
        let scores = [(k - ones) as i64, ones as i64];
        let here = realized(ones);
        let members: Vec<u64> = (0..k).map(|i| concept_of(i < ones)).collect();
        prop_assert_eq!(
            voting.vote_probability(&*class, &members, 0).unwrap(),
            here[1].exp()
        );
        let h = noisy_vote(ones, k, epsilon);
        for label in [false, true] {
            let stated = h.probability_of_label(&*class, 0, label).ln();
            let exact = here[usize::from(label)];
            prop_assert!(
                (stated - exact).abs() <= 1e-12 * (1.0 + exact.abs()),
                "ε = {epsilon}, {ones} of {k}: probability_of_label({label}) = e^{stated}, \
                 the sampler realizes e^{exact}"
            );
        }
        // Coupled on the same random streams, `Predictor::predict` and the voting
        // learner's `predict` draw what the mechanism draws.
        let sample_pairs: Vec<(u64, bool)> = (0..k).map(|i| (0, i < ones)).collect();
        let sample = LabeledSample::from_pairs(class.domain(), &sample_pairs).unwrap();
        for seed in 0..4u64 {
            let expected = mechanism
                .select_integer(&scores, &mut ChaCha8Rng::seed_from_u64(seed))
                .unwrap()
                == 1;
            let predicted = h
                .predict(&*class, 0, &mut ChaCha8Rng::seed_from_u64(seed))
                .unwrap();
            prop_assert_eq!(
                predicted,
                expected,
                "ε = {}, {} of {}, seed {}: Predictor::predict is not the mechanism's draw",
                epsilon,
                ones,
                k,
                seed
            );
            if k <= 300 {
                // One example per block: the members are the labels themselves.
                let learner = voting
                    .predict(&*class, &sample, 0, &mut ChaCha8Rng::seed_from_u64(seed))
                    .unwrap();
                prop_assert_eq!(learner, expected);
            }
        }
    }
    Ok(true)
}

// ---------------------------------------------------------------------------------------
// Prediction learners on tiny domains.

#[derive(Debug, Clone)]
pub(super) struct PipelineCase {
    pub(super) class: usize,
    pub(super) n: usize,
    pub(super) subset: usize,
    pub(super) voters: usize,
    pub(super) vote_epsilon: f64,
    pub(super) epsilon: f64,
    pub(super) by_target: bool,
    pub(super) radius: usize,
    pub(super) flip: f64,
}

/// The vote's ε with `ε₂k/2 ≤ 25`, so that every prediction probability is at least
/// e^-25 and the measured loss keeps ~6 digits.
pub(super) fn pipeline_case(max_n: usize) -> impl Strategy<Value = PipelineCase> {
    (0usize..3, 2usize..=max_n).prop_flat_map(move |(class, n_max)| {
        // One point: samples up to size 6; two points: up to 4 (4^n samples).
        let n = if class == 0 { n_max } else { n_max.min(4) };
        (1usize..n).prop_flat_map(move |subset| {
            (
                Just(class),
                Just(n),
                Just(subset),
                1usize..=subset.min(5),
                0.0f64..=1.0,
                any_epsilon(),
                any::<bool>(),
                0usize..=2,
                prop_oneof![Just(0.0), log_uniform(1e-6, 0.49)],
            )
                .prop_map(
                    |(class, n, subset, voters, u, epsilon, by_target, radius, flip)| {
                        let top = (50.0 / voters as f64).log10();
                        PipelineCase {
                            class,
                            n,
                            subset,
                            voters,
                            vote_epsilon: 10f64.powf(-9.0 + u * (top + 9.0)),
                            epsilon,
                            by_target,
                            radius,
                            flip,
                        }
                    },
                )
        })
    })
}

/// The worst per-prediction loss of `probability` (Pr[1] at every point) over every
/// sample of size n and neighbour, against the reported ε.
pub(super) fn check_prediction_learner(
    what: &str,
    case: &PipelineCase,
    class: &dyn ConceptClass,
    claimed: f64,
    probability: &dyn Fn(&LabeledSample) -> Vec<f64>,
) -> Result<(), TestCaseError> {
    // Both pipelines draw T uniformly at random, so they do not depend on the order of S.
    // The measure is a lower bound on the loss: the measured loss less its rounding error.
    let (loss, a, b) = worst_over_samples(class, case.n, true, probability, &|p, q| {
        let (loss, error) = prediction_loss_with_error(p, q);
        loss - error
    });
    prop_assert!(
        loss <= claimed + 1e-12,
        "{what} {case:?} on {}: loss at least {loss} on {a:?} vs {b:?}, above the reported \
         {claimed}",
        class.name()
    );
    Ok(())
}

pub(super) fn relabeling(case: PipelineCase) -> Result<bool, TestCaseError> {
    let class = tiny_class(case.class);
    let Ok(voting) = VotingPredictor::new(case.vote_epsilon, case.voters) else {
        return Ok(false);
    };
    let predictor = if case.by_target {
        RelabelingPredictor::with_prediction_epsilon(case.epsilon.min(1e3), case.n, voting)
    } else {
        RelabelingPredictor::new(case.epsilon, case.subset, voting)
    };
    let Ok(predictor) = predictor else {
        return Ok(false);
    };
    let t = predictor.subset_size();
    // n!/(n − t)! sequences are enumerated per sample.
    if (case.n - t + 1..=case.n).product::<usize>() > 720 {
        return Ok(false);
    }
    let Some(claimed) = reported_epsilon(predictor.guarantee(case.n)) else {
        return Ok(false);
    };
    let size = class.domain().size() as u64;
    check_prediction_learner("relabeling", &case, &*class, claimed, &|s| {
        (0..size)
            .map(|x| predictor.prediction_probability(&*class, s, x).unwrap())
            .collect()
    })?;
    Ok(true)
}

pub(super) fn dagan_feldman(case: PipelineCase) -> Result<bool, TestCaseError> {
    let class = tiny_class(case.class);
    let Ok(voting) = VotingPredictor::new(case.vote_epsilon, case.voters) else {
        return Ok(false);
    };
    let Ok(predictor) = DaganFeldmanPredictor::new(
        case.epsilon,
        case.subset,
        case.radius,
        class.len(),
        voting,
        case.flip,
    ) else {
        return Ok(false);
    };
    if case.n < case.voters.max(case.subset + 1) {
        return Ok(false);
    }
    let Some(claimed) = reported_epsilon(predictor.guarantee(case.n)) else {
        return Ok(false);
    };
    let size = class.domain().size() as u64;
    check_prediction_learner("Dagan–Feldman", &case, &*class, claimed, &|s| {
        (0..size)
            .map(|x| predictor.prediction_probability(&*class, s, x).unwrap())
            .collect()
    })?;
    Ok(true)
}

#[derive(Debug, Clone)]
pub(super) struct FlipCase {
    pub(super) class: usize,
    pub(super) n: usize,
    pub(super) subset: usize,
    pub(super) epsilon: f64,
    pub(super) flip: f64,
}

pub(super) fn flip_case() -> impl Strategy<Value = FlipCase> {
    let flip = prop_oneof![
        Just(1e-300),
        log_uniform(1e-300, 0.49),
        log_uniform(1e-4, 0.49),
        Just(0.5f64.next_down()),
        Just(0.5 - 2f64.powi(-50)),
        (0.4f64..0.5),
    ];
    (0usize..6, 1usize..=3, 1usize..=4, any_epsilon(), flip).prop_map(
        |(class, n, subset, epsilon, flip)| FlipCase {
            class,
            n: if class == 0 { n + 1 } else { n },
            subset,
            epsilon,
            flip,
        },
    )
}

pub(super) fn private_prediction(case: FlipCase) -> Result<bool, TestCaseError> {
    let class = tiny_class(case.class);
    private_prediction_on(case, class, false)
}

/// Private prediction whose stable learner runs the exponential mechanism over the cells of
/// intervals by score level (a level, then a uniform cell: the path above
/// `MAX_INTERVAL_CELLS` cells), on intervals over 1 to 3 points, from
/// `StableLearner::cell_level_distribution`.
pub(super) fn private_prediction_cell_levels(case: FlipCase) -> Result<bool, TestCaseError> {
    let class = Box::new(Intervals::new(1 + case.class as u64 % 3).unwrap());
    private_prediction_on(case, class, true)
}

/// Private prediction on `class`, its base distribution from the listed cover or, with
/// `levels`, from the cell-level path.
fn private_prediction_on(
    case: FlipCase,
    class: Box<dyn ConceptClass>,
    levels: bool,
) -> Result<bool, TestCaseError> {
    let Ok(stable) = StableLearner::new(case.epsilon, case.subset) else {
        return Ok(false);
    };
    let Ok(predictor) = PrivatePrediction::new(stable, case.flip) else {
        return Ok(false);
    };
    let eta = case.flip;
    let size = class.domain().size() as u64;
    // Per point: Pr[base label = 1] and Pr[base label = 0], each summed on its own.
    let base = |s: &LabeledSample| -> Vec<[f64; 2]> {
        let distribution = if levels {
            stable.cell_level_distribution(&*class, s).unwrap().unwrap()
        } else {
            stable.concept_distribution(&*class, s).unwrap()
        };
        (0..size)
            .map(|x| {
                let mut by_label = [0.0; 2];
                for (c, &p) in distribution.iter().enumerate() {
                    by_label[usize::from(class.eval(c as u64, x))] += p;
                }
                by_label
            })
            .collect()
    };
    // The flip is an exact Bernoulli(η) coin: Pr[label] = η + (1 − 2η)·Pr[base label], and
    // the ratio of two such is 1 + (1 − 2η)(p − p′)/p̃′, with 1 − 2η exact.
    let loss = |p: &Vec<[f64; 2]>, q: &Vec<[f64; 2]>| -> f64 {
        let mut worst: f64 = 0.0;
        for (a, b) in p.iter().zip(q) {
            for label in 0..2 {
                let d = (1.0 - 2.0 * eta) * (a[label] - b[label]);
                let (at_a, at_b) = (
                    eta + (1.0 - 2.0 * eta) * a[label],
                    eta + (1.0 - 2.0 * eta) * b[label],
                );
                // ln(p̃/p̃′) = ln_1p(d/p̃′) near 1; far from 1 the logs of the two
                // probabilities (each accurate to a relative ulp or two) are as good.
                let ratio = d / at_b;
                let loss = if ratio.abs() < 0.5 {
                    ratio.ln_1p().abs()
                } else {
                    (at_a.ln() - at_b.ln()).abs()
                };
                worst = worst.max(loss);
            }
        }
        worst
    };
    let mut accepted = false;
    if let Some(claimed) = reported_epsilon(predictor.guarantee(case.n)) {
        // Base probabilities are sums accurate to ~10⁻¹⁵ absolute: the loss to a relative
        // ~10⁻¹⁵(1 − 2η)/η of the difference.
        let error = 1e-14 * (1.0 - 2.0 * eta) / eta;
        let (worst, a, b) = worst_over_samples(&*class, case.n, false, &base, &loss);
        prop_assert!(
            worst <= claimed + error,
            "{case:?} on {}: loss {worst} on {a:?} vs {b:?} > reported {claimed}",
            class.name()
        );
        accepted = true;
    }
    // The stable learner's uniform stability.
    if let Guarantee::UniformStability { beta } = stable.guarantee(case.n) {
        let ones =
            |s: &LabeledSample| -> Vec<f64> { base(s).iter().map(|p| p[1].min(1.0)).collect() };
        let (worst, a, b) = worst_over_samples(&*class, case.n, false, &ones, &|p, q| {
            prediction_stability(p, q).unwrap()
        });
        prop_assert!(
            worst <= beta + 1e-14,
            "{case:?} on {}: stability {worst} on {a:?} vs {b:?} > reported {beta}",
            class.name()
        );
        accepted = true;
    }
    Ok(accepted)
}

// ---------------------------------------------------------------------------------------
// Pure learners and the BLR sanitizer on tiny domains.

#[derive(Debug, Clone)]
pub(super) struct PureCase {
    pub(super) class: usize,
    pub(super) n: usize,
    pub(super) epsilon: f64,
    pub(super) buckets: u64,
    pub(super) multiplier: u64,
    pub(super) offset: u64,
}

pub(super) fn pure_case() -> impl Strategy<Value = PureCase> {
    let buckets = prop_oneof![
        4 => 1u64..=8,
        2 => 9u64..=1000,
        1 => Just(MAX_LISTED_BUCKETS),
    ];
    (
        0usize..6,
        1usize..=3,
        any_epsilon(),
        buckets,
        1..HASH_PRIME,
        0..HASH_PRIME,
    )
        .prop_map(
            |(class, n, epsilon, buckets, multiplier, offset)| PureCase {
                class,
                n,
                epsilon,
                buckets,
                multiplier,
                offset,
            },
        )
}

pub(super) fn pure_loss(
    what: &str,
    case: &PureCase,
    class: &dyn ConceptClass,
    claimed: f64,
    v: &dyn Fn(&LabeledSample) -> Vec<f64>,
) -> Result<(), TestCaseError> {
    let (loss, a, b) = worst_over_samples(class, case.n, false, v, &|p, q| {
        max_divergence(p, q).unwrap()
    });
    // Probabilities computed from log-probabilities accurate to a few ulps of 700.
    prop_assert!(
        loss <= claimed + 1e-12,
        "{what} {case:?} on {}: loss {loss} on {a:?} vs {b:?} > reported {claimed}",
        class.name()
    );
    Ok(())
}

pub(super) fn generic(case: PureCase) -> Result<bool, TestCaseError> {
    let class = tiny_class(case.class);
    let Ok(learner) = Privacy::pure(case.epsilon)
        .map_err(|_| ())
        .and_then(|p| GenericLearner::new(p).map_err(|_| ()))
    else {
        return Ok(false);
    };
    let Some(claimed) = reported_epsilon(learner.guarantee(case.n)) else {
        return Ok(false);
    };
    pure_loss("generic", &case, &*class, claimed, &|s| {
        learner.concept_distribution(&*class, s).unwrap()
    })?;
    Ok(true)
}

/// The generic learner's wide-levels path (a level by count·exp(−ε·errors/2), then a uniform
/// member named by its ends; the path of intervals beyond 2^60 concepts) on intervals over 2
/// to 4 points: its exact distribution over concepts, each member of a level getting the
/// level's probability over its count.
pub(super) fn generic_wide(case: PureCase) -> Result<bool, TestCaseError> {
    let class = Intervals::new(2 + case.class as u64 % 3).unwrap();
    let Ok(learner) = Privacy::pure(case.epsilon)
        .map_err(|_| ())
        .and_then(|p| GenericLearner::new(p).map_err(|_| ()))
    else {
        return Ok(false);
    };
    let Some(claimed) = reported_epsilon(learner.guarantee(case.n)) else {
        return Ok(false);
    };
    pure_loss("generic (wide levels)", &case, &class, claimed, &|s| {
        let mut p = vec![0.0; class.len() as usize];
        for (errors, count, probability) in
            learner.wide_level_distribution(&class, s).unwrap().unwrap()
        {
            for offset in 0..count {
                let id = match class.parts_with_errors(s, errors, offset).unwrap().unwrap() {
                    ConceptParts::Empty => 0,
                    ConceptParts::Interval { low, high } => class.id_of(low, high),
                    other => panic!("intervals name no {other:?}"),
                };
                p[id as usize] = probability / count as f64;
            }
        }
        p
    })?;
    Ok(true)
}

/// The generic learner's wide-runs path (the runs grouped into levels with 128-bit counts,
/// a level by count·exp(−ε·errors/2), then the member in id order; the path of thresholds
/// and point functions beyond 2^60 concepts) on thresholds and point functions over 2 to 4
/// points: its exact distribution over concepts, each concept getting its level's
/// probability over the level's count.
pub(super) fn generic_wide_runs(case: PureCase) -> Result<bool, TestCaseError> {
    let size = 2 + case.class as u64 % 3;
    let class: Box<dyn ConceptClass> = if case.class.is_multiple_of(2) {
        Box::new(Thresholds::new(size).unwrap())
    } else {
        Box::new(Points::new(Domain::Ordered { size }))
    };
    let Ok(learner) = Privacy::pure(case.epsilon)
        .map_err(|_| ())
        .and_then(|p| GenericLearner::new(p).map_err(|_| ()))
    else {
        return Ok(false);
    };
    let Some(claimed) = reported_epsilon(learner.guarantee(case.n)) else {
        return Ok(false);
    };
    pure_loss("generic (wide runs)", &case, &*class, claimed, &|s| {
        let levels = learner
            .wide_run_level_distribution(&*class, s)
            .unwrap()
            .unwrap();
        class
            .error_counts(s)
            .unwrap()
            .iter()
            .map(|errors| {
                let &(_, count, probability) = levels.iter().find(|l| l.0 == *errors).unwrap();
                probability / count as f64
            })
            .collect()
    })?;
    Ok(true)
}

pub(super) fn improper_point(case: PureCase) -> Result<bool, TestCaseError> {
    let class: Box<dyn ConceptClass> = Box::new(Points::new(Domain::Ordered {
        size: 2 + case.class as u64 % 3,
    }));
    let n = if case.buckets > 1000 { 1 } else { case.n };
    let Ok(learner) = Privacy::pure(case.epsilon)
        .map_err(|_| ())
        .and_then(|p| ImproperPointLearner::new(p, case.buckets).map_err(|_| ()))
    else {
        return Ok(false);
    };
    let Some(claimed) = reported_epsilon(learner.guarantee(n)) else {
        return Ok(false);
    };
    let hash = BucketHash::new(case.multiplier, case.offset, case.buckets).unwrap();
    let case = PureCase { n, ..case };
    pure_loss("improper point", &case, &*class, claimed, &|s| {
        learner.output_distribution(&*class, s, hash).unwrap()
    })?;
    Ok(true)
}

pub(super) fn blr(case: PureCase) -> Result<bool, TestCaseError> {
    let class = tiny_class(case.class);
    let database_size = 1 + case.buckets as usize % 3;
    let Ok(sanitizer) = Privacy::pure(case.epsilon)
        .map_err(|_| ())
        .and_then(|p| BlumLigettRoth::new(p, database_size).map_err(|_| ()))
    else {
        return Ok(false);
    };
    let claimed = sanitizer.privacy().epsilon();
    let size = class.domain().size() as u64;
    let distribution = |data: &[u64]| -> Vec<f64> {
        sanitizer
            .output_distribution(&*class, data)
            .unwrap()
            .into_iter()
            .map(|(_, p)| p)
            .collect()
    };
    let mut worst = (0.0f64, Vec::new(), Vec::new());
    let mut cache: HashMap<Vec<u64>, Vec<f64>> = HashMap::new();
    for (a, b) in neighbouring_datasets(size, case.n).unwrap() {
        for d in [&a, &b] {
            cache.entry(d.clone()).or_insert_with(|| distribution(d));
        }
        let loss = max_divergence(&cache[&a], &cache[&b]).unwrap();
        if loss > worst.0 {
            worst = (loss, a, b);
        }
    }
    prop_assert!(
        worst.0 <= claimed + 1e-12,
        "BLR {case:?} (m = {database_size}) on {}: loss {} on {:?} vs {:?} > reported {claimed}",
        class.name(),
        worst.0,
        worst.1,
        worst.2
    );
    Ok(true)
}
