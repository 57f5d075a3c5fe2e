//! Unit tests of `mwem`.

use privpac_classes::{Intervals, Parities, Thresholds};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::*;
use crate::pmw::PrivateMultiplicativeWeights;

#[test]
fn integer_scores_are_exact_floors() {
    assert_eq!(floor_abs_gap(2.5, 1), 1);
    assert_eq!(floor_abs_gap(0.5, 1), 0);
    assert_eq!(floor_abs_gap(3.0, 3), 0);
    assert_eq!(floor_abs_gap(0.0, 7), 7);
    assert_eq!(floor_abs_gap(1e15 + 0.5, 0), 1_000_000_000_000_000);
    // |x − 2^53·…| would round in floating point; the integer formula does not.
    let big = 2f64.powi(52) + 0.5;
    assert_eq!(floor_abs_gap(big, 1), (1i64 << 52) - 1);
}

proptest::proptest! {
    /// Neighbouring counts give scores at most one apart, whatever the estimate.
    #[test]
    fn integer_scores_have_sensitivity_one(estimate in 0.0f64..1e12, truth in 0i64..1_000_000_000_000) {
        let gap = floor_abs_gap(estimate, truth).abs_diff(floor_abs_gap(estimate, truth + 1));
        proptest::prop_assert!(gap <= 1);
        proptest::prop_assert!(floor_abs_gap(estimate, truth) >= 0);
    }
}

#[test]
fn pmw_refuses_unbounded_work() {
    let class = Thresholds::new(1 << 16).unwrap();
    let pmw = PrivateMultiplicativeWeights::new(Privacy::pure(1.0).unwrap(), 0.001).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    assert!(matches!(
        pmw.run(&class, &[1, 2], &[3], &mut rng),
        Err(Error::TooLarge {
            what: "private multiplicative weights",
            ..
        })
    ));
}

/// Replay on the atoms of the measured queries equals replay on every point, for
/// classes whose atoms are few (intervals) and many (parities: 2^t after t rounds).
#[test]
fn cell_replay_equals_pointwise_replay() {
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    let intervals = Intervals::new(40).unwrap();
    let parities = Parities::new(7).unwrap();
    for class in [
        &intervals as &dyn ConceptClass,
        &parities as &dyn ConceptClass,
    ] {
        let queries: Vec<u64> = (0..class.len().min(300) as u64).collect();
        let matrix = QueryMatrix::build(class, &queries, "test").unwrap();
        let len = class.domain().size() as usize;
        let mut cells = Cells::new(len);
        let mut fast: Vec<f64> = (0..len).map(|_| rng.random::<f64>() + 0.01).collect();
        normalize_in_place(&mut fast);
        let mut slow = fast.clone();
        let mut history = Vec::new();
        for round in 0..8 {
            let q = (round * 37 + 5) % queries.len();
            let target = rng.random::<f64>();
            history.push((q, target));
            cells.split(&matrix, q);
            cells.replay(&mut fast, &history, 3);
            for _ in 0..3 {
                for &(past, target) in &history {
                    let current = matrix.answer_one(&slow, past);
                    multiplicative_update(&matrix, &mut slow, past, target, current);
                }
            }
            for (x, (a, b)) in fast.iter().zip(&slow).enumerate() {
                assert!(
                    (a - b).abs() < 1e-12,
                    "{}, round {round}, x {x}: {a} vs {b}",
                    class.name()
                );
            }
        }
        assert!(cells.count > 8, "{}: {}", class.name(), cells.count);
    }
}

/// Natural log of the exact distribution of MWEM's transcript `(q_1, m_1, q_2, m_2)`
/// for T = 2 on `data`, computed with the run's own update, replay and score code.
/// Counts outside `[−window, n + window]` are lumped into one "tail" outcome per
/// position, a post-processing of the transcript (an audit of it is sound for the
/// transcript and, by post-processing, for the output).
fn transcript_log_distribution(
    mwem: &Mwem,
    measurement: DiscreteLaplace,
    class: &Thresholds,
    data: &[u64],
    window: i64,
) -> Vec<f64> {
    let queries: Vec<u64> = (0..class.len() as u64).collect();
    let matrix = QueryMatrix::build(class, &queries, "audit").unwrap();
    let len = class.domain().size() as usize;
    let counts = data_histogram(class.domain(), len, data).unwrap();
    let truth = data_answers(&matrix, &counts);
    let n = data.len() as f64;
    let passes = match mwem.variant {
        MwemVariant::Replay { passes } => passes,
        MwemVariant::AverageOfIterates => 0,
    };
    let values: Vec<i64> = (-window..=data.len() as i64 + window).collect();
    // ln P(m | q) for every in-window m, then the tail (summed far out; pmf is tiny).
    let noise = |q: usize| -> Vec<f64> {
        let mut logs: Vec<f64> = values
            .iter()
            .map(|&m| measurement.pmf(m - truth[q]).ln())
            .collect();
        let far = 50 * window;
        let tail: f64 = (-far..-window)
            .chain(data.len() as i64 + window + 1..=data.len() as i64 + far)
            .map(|m| measurement.pmf(m - truth[q]))
            .sum();
        logs.push(tail.ln());
        logs
    };
    let selection = |weights: &[f64], candidates: &[usize]| -> Vec<f64> {
        let answers = matrix.answers(weights);
        let scores: Vec<i64> = candidates
            .iter()
            .map(|&q| floor_abs_gap(n * answers[q], truth[q]))
            .collect();
        mwem.selection.log_probabilities_integer(&scores).unwrap()
    };
    let noises: Vec<Vec<f64>> = (0..queries.len()).map(noise).collect();
    let uniform = vec![1.0 / len as f64; len];
    let all: Vec<usize> = (0..queries.len()).collect();
    let first = selection(&uniform, &all);
    let answers = matrix.answers(&uniform);
    let mut out = Vec::new();
    for (q1, &log_q1) in first.iter().enumerate() {
        for (i, &log_m1) in noises[q1].iter().enumerate() {
            let Some(&m1) = values.get(i) else {
                out.push(log_q1 + log_m1); // (q1, tail): the rest lumped
                continue;
            };
            let mut weights = uniform.clone();
            multiplicative_update(&matrix, &mut weights, q1, m1 as f64 / n, answers[q1]);
            if passes > 0 {
                let mut cells = Cells::new(len);
                cells.split(&matrix, q1);
                cells.replay(&mut weights, &[(q1, m1 as f64 / n)], passes);
            }
            let rest: Vec<usize> = all.iter().copied().filter(|&q| q != q1).collect();
            let second = selection(&weights, &rest);
            for (q2, noise_q2) in noises.iter().enumerate() {
                let position = rest.iter().position(|&q| q == q2);
                for &log_m2 in noise_q2 {
                    out.push(match position {
                        Some(j) => log_q1 + log_m1 + second[j] + log_m2,
                        None => f64::NEG_INFINITY,
                    });
                }
            }
        }
    }
    out
}

/// Every data set of size 3 over 4 points and its neighbours (one point replaced).
fn neighbouring_data() -> Vec<(Vec<u64>, Vec<u64>)> {
    let mut sets = Vec::new();
    for a in 0..4u64 {
        for b in a..4 {
            for c in b..4 {
                sets.push(vec![a, b, c]);
            }
        }
    }
    let mut pairs = Vec::new();
    for set in &sets {
        for i in 0..3 {
            for x in 0..4u64 {
                let mut other = set.clone();
                other[i] = x;
                if other != *set {
                    pairs.push((set.clone(), other));
                }
            }
        }
    }
    pairs
}

/// The largest privacy loss of MWEM's T = 2 transcript over all neighbouring data sets
/// of size 3 on thresholds over 4 points.
fn worst_transcript_loss(mwem: &Mwem, measurement: DiscreteLaplace) -> f64 {
    let class = Thresholds::new(4).unwrap();
    let mut distributions = std::collections::BTreeMap::new();
    let mut worst = 0.0f64;
    for (d, d_prime) in neighbouring_data() {
        for set in [&d, &d_prime] {
            let mut sorted = set.clone();
            sorted.sort_unstable();
            distributions
                .entry(sorted)
                .or_insert_with(|| transcript_log_distribution(mwem, measurement, &class, set, 40));
        }
        let key = |set: &Vec<u64>| {
            let mut sorted = set.clone();
            sorted.sort_unstable();
            sorted
        };
        let p = &distributions[&key(&d)];
        let q = &distributions[&key(&d_prime)];
        worst = worst.max(privpac_audit::max_divergence_log(p, q).unwrap());
    }
    worst
}

/// Exact audit: the transcript of both variants (replay changes the histogram that
/// round 2 selects with) is ε-DP, and the replayed histogram is a function of the
/// transcript. Negative control: measurements calibrated to ε/T instead of ε/(2T) must
/// fail the same audit. (Observed worst losses at ε = 1: 0.640 with replay, 0.668 for
/// the average of iterates, 1.140 for the negative control.)
#[test]
fn mwem_transcript_is_exactly_epsilon_private() {
    let epsilon = 1.0;
    let mwem = Mwem::new(Privacy::pure(epsilon).unwrap(), 2).unwrap();
    let theory = mwem
        .clone()
        .with_variant(MwemVariant::AverageOfIterates)
        .unwrap();
    for variant in [&mwem, &theory] {
        let loss = worst_transcript_loss(variant, variant.measurement);
        assert!(loss <= epsilon + 1e-9, "{}: loss {loss}", variant.name());
        assert!(
            loss > 0.5 * epsilon,
            "{}: the audit is not vacuous: {loss}",
            variant.name()
        );
    }
    let miscalibrated = DiscreteLaplace::for_epsilon(epsilon / 2.0, 1).unwrap();
    let loss = worst_transcript_loss(&mwem, miscalibrated);
    assert!(loss > epsilon + 1e-3, "negative control passed: {loss}");
}

#[test]
fn variants_are_validated_and_named() {
    let mwem = Mwem::new(Privacy::pure(1.0).unwrap(), 5).unwrap();
    assert_eq!(mwem.name(), "mwem(T=5, replay×100)");
    for passes in [0, MAX_REPLAY_PASSES + 1] {
        assert!(matches!(
            mwem.clone().with_variant(MwemVariant::Replay { passes }),
            Err(Error::InvalidParameter {
                name: "replay passes",
                ..
            })
        ));
    }
    let one = mwem
        .clone()
        .with_variant(MwemVariant::Replay { passes: 1 })
        .unwrap();
    assert_eq!(one.name(), "mwem(T=5, replay×1)");
    // Only the analyzed variant carries a bound.
    assert!(matches!(
        one.error_bound(64, 64, 1000, 0.1),
        Err(Error::InvalidParameter {
            name: "variant",
            ..
        })
    ));
    let theory = mwem.with_variant(MwemVariant::AverageOfIterates).unwrap();
    assert_eq!(theory.variant(), MwemVariant::AverageOfIterates);
    assert!(theory.error_bound(64, 64, 1000, 0.1).unwrap() > 0.0);
}

#[test]
fn mwem_never_measures_a_query_twice() {
    let class = Thresholds::new(64).unwrap();
    let data: Vec<u64> = (0..500).map(|i| i % 50).collect();
    // A tiny ε makes the selection nearly uniform: repeats would show up if allowed.
    let mwem = Mwem::new(Privacy::pure(0.01).unwrap(), 10).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    for _ in 0..20 {
        let run = mwem
            .run(&class, &(0..10).collect::<Vec<_>>(), &data, &mut rng)
            .unwrap();
        let mut measured = run.measured.clone();
        measured.sort_unstable();
        assert_eq!(measured, (0..10).collect::<Vec<_>>());
    }
}

/// `sanitize_xor` builds the XOR class's query matrix from the inner class's; the output
/// equals `sanitize` on the XOR class for the same seed, for MWEM (both variants) and
/// private multiplicative weights, on several small classes.
#[test]
fn sanitize_xor_equals_sanitize_on_the_xor_class() {
    use crate::Sanitizer;
    use privpac_classes::{Domain, Points, Xor};
    let pure = Privacy::pure(1.0).unwrap();
    let sanitizers: Vec<Box<dyn Sanitizer>> = vec![
        Box::new(Mwem::new(pure, 6).unwrap()),
        Box::new(
            Mwem::new(pure, 4)
                .unwrap()
                .with_variant(MwemVariant::AverageOfIterates)
                .unwrap(),
        ),
        Box::new(PrivateMultiplicativeWeights::new(pure, 0.2).unwrap()),
    ];
    let classes: Vec<Box<dyn ConceptClass>> = vec![
        Box::new(Thresholds::new(11).unwrap()),
        Box::new(Points::new(Domain::ordered(9).unwrap())),
        Box::new(Intervals::new(5).unwrap()),
        Box::new(Parities::new(3).unwrap()),
    ];
    for sanitizer in &sanitizers {
        for (k, class) in classes.iter().enumerate() {
            let size = class.domain().size() as u64;
            let mut data_rng = ChaCha8Rng::seed_from_u64(40 + k as u64);
            let data: Vec<u64> = (0..60).map(|_| data_rng.random_range(0..size)).collect();
            let xor = Xor::new(class.as_ref()).unwrap();
            let dense = sanitizer
                .sanitize(&xor, &data, &mut ChaCha8Rng::seed_from_u64(k as u64))
                .unwrap();
            let fast = sanitizer
                .sanitize_xor(
                    class.as_ref(),
                    &data,
                    &mut ChaCha8Rng::seed_from_u64(k as u64),
                )
                .unwrap();
            assert_eq!(fast, dense, "{} on {}", sanitizer.name(), class.name());
        }
        assert!(matches!(
            sanitizer.sanitize_xor(classes[0].as_ref(), &[], &mut ChaCha8Rng::seed_from_u64(1)),
            Err(Error::EmptyData)
        ));
    }
}
