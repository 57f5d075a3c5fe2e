//! Tests of the exponential mechanism: exact probabilities, sampler distributions (seeded
//! χ² tests at stated α), exact privacy audits on neighbouring score vectors, and errors.

use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::*;

/// False-failure rate of each seeded goodness-of-fit test in this file.
const ALPHA: f64 = 1e-6;

fn mechanism(epsilon: f64, sensitivity: f64) -> ExponentialMechanism {
    ExponentialMechanism::new(Privacy::pure(epsilon).unwrap(), sensitivity).unwrap()
}

#[track_caller]
fn check_sampler(expected: &[f64], draws: usize, mut draw: impl FnMut(&mut ChaCha8Rng) -> usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(0x5eed);
    let mut counts = vec![0u64; expected.len()];
    for _ in 0..draws {
        counts[draw(&mut rng)] += 1;
    }
    let outcome = privpac_audit::chi_square_gof(&counts, expected, ALPHA).unwrap();
    assert!(
        !outcome.rejected,
        "counts {counts:?} vs {expected:?}: {outcome:?}"
    );
}

#[test]
fn probabilities_match_the_closed_form() {
    let mech = mechanism(2.0, 1.0);
    let scores = [3.0, 1.0, 0.0];
    let got = mech.probabilities(&scores).unwrap();
    let lambda = mech.rate();
    let weights: Vec<f64> = scores.iter().map(|q| (lambda * q).exp()).collect();
    let total: f64 = weights.iter().sum();
    for (g, w) in got.iter().zip(&weights) {
        assert!((g - w / total).abs() < 1e-15, "{got:?}");
    }
    // λ is ε/(2Δ) up to the 4η error budget.
    assert!((lambda - 1.0).abs() < 1e-11);
}

#[test]
fn general_sampler_matches_probabilities() {
    let mech = mechanism(1.5, 1.0);
    let scores = [0.0, -1.0, -2.5, 2.0, 2.0, -7.0, 1.25];
    let expected = mech.probabilities(&scores).unwrap();
    check_sampler(&expected, 200_000, |rng| mech.select(&scores, rng).unwrap());
}

#[test]
fn integer_sampler_matches_probabilities() {
    let mech = mechanism(0.7, 2.0);
    let scores: Vec<i64> = vec![10, 8, 8, 3, 0, -4, 12, 11];
    let expected: Vec<f64> = mech
        .log_probabilities_integer(&scores)
        .unwrap()
        .into_iter()
        .map(f64::exp)
        .collect();
    check_sampler(&expected, 200_000, |rng| {
        mech.select_integer(&scores, rng).unwrap()
    });
}

#[test]
fn level_sampler_matches_level_probabilities() {
    let mech = mechanism(1.0, 1.0);
    let levels = [
        ScoreLevel { score: 0, count: 1 },
        ScoreLevel {
            score: -1,
            count: 5,
        },
        ScoreLevel {
            score: -3,
            count: 40,
        },
        ScoreLevel {
            score: -10,
            count: 100_000,
        },
    ];
    let expected = mech.level_probabilities(&levels).unwrap();
    check_sampler(&expected, 200_000, |rng| {
        mech.select_levels(&levels, rng).unwrap().level
    });
}

#[test]
fn offsets_within_a_level_are_uniform() {
    let mech = mechanism(1.0, 1.0);
    let levels = [
        ScoreLevel { score: 5, count: 6 },
        ScoreLevel { score: 4, count: 2 },
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut counts = [0u64; 6];
    for _ in 0..60_000 {
        let choice = mech.select_levels(&levels, &mut rng).unwrap();
        if choice.level == 0 {
            counts[choice.offset as usize] += 1;
        }
        assert!(choice.offset < levels[choice.level].count);
    }
    let outcome = privpac_audit::chi_square_gof(&counts, &[1.0 / 6.0; 6], ALPHA).unwrap();
    assert!(!outcome.rejected, "{outcome:?}");
}

#[test]
fn fast_path_and_general_path_define_the_same_distribution() {
    // Expanding levels into one candidate per unit gives the same level probabilities.
    let mech = mechanism(0.8, 1.0);
    let levels = [
        ScoreLevel {
            score: -2,
            count: 3,
        },
        ScoreLevel { score: 0, count: 1 },
        ScoreLevel {
            score: -5,
            count: 7,
        },
    ];
    let expanded: Vec<i64> = levels
        .iter()
        .flat_map(|l| std::iter::repeat_n(l.score, l.count as usize))
        .collect();
    let per_candidate = mech.log_probabilities_integer(&expanded).unwrap();
    let mut start = 0;
    for (level, p) in levels
        .iter()
        .zip(mech.level_probabilities(&levels).unwrap())
    {
        let summed: f64 = per_candidate[start..start + level.count as usize]
            .iter()
            .map(|lp| lp.exp())
            .sum();
        assert!((summed - p).abs() < 1e-14, "{summed} vs {p}");
        start += level.count as usize;
    }
}

#[test]
fn tail_path_is_exact_at_observable_probabilities() {
    // With a single exact head band almost every item goes through the tail's fair coins;
    // the sampled distribution must still be proportional to exp(-gap).
    let gaps = [0.0, 0.4, 1.0, 2.2, 3.0, 4.5, 6.0];
    let log_weights: Vec<f64> = gaps.iter().map(|g| -g).collect();
    let expected: Vec<f64> = normalize_log_weights(log_weights)
        .into_iter()
        .map(f64::exp)
        .collect();
    for head in [1, 2, 3] {
        check_sampler(&expected, 200_000, |rng| {
            let mut bits = RandomBits::new(rng);
            sample_weighted_with_head(head, gaps.len(), |i| gaps[i], |_| 1, &mut bits).0
        });
    }
}

#[test]
fn extreme_scores_and_epsilon_stay_finite() {
    let mech = mechanism(1e3, 1.0);
    let scores = [1e9, -1e9, 0.0, 1e9 - 1.0];
    let probabilities = mech.probabilities(&scores).unwrap();
    assert!(probabilities.iter().all(|p| p.is_finite()));
    assert!((probabilities.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    let log_p = mech.log_probabilities(&scores).unwrap();
    // Clamped candidates keep a positive probability of about e^-700.
    assert!(log_p[1].is_finite() && log_p[1] < -699.0);
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for _ in 0..100 {
        assert_eq!(mech.select(&scores, &mut rng).unwrap(), 0);
    }
    let integer = [i64::MAX, i64::MIN, 0];
    assert_eq!(mech.select_integer(&integer, &mut rng).unwrap(), 0);
    let lp = mech.log_probabilities_integer(&integer).unwrap();
    assert!(lp.iter().all(|p| p.is_finite()));
}

/// The exact privacy loss (max divergence of the output distributions) of `mech` between
/// two score vectors.
fn measured_loss(mech: &ExponentialMechanism, scores: &[f64], neighbour: &[f64]) -> f64 {
    let p = mech.log_probabilities(scores).unwrap();
    let q = mech.log_probabilities(neighbour).unwrap();
    privpac_audit::max_divergence_log(&p, &q).unwrap()
}

#[test]
fn exact_privacy_holds_on_random_neighbours() {
    // For random score vectors and neighbours whose scores move by at most Δ, the exact
    // output distributions must satisfy the claimed pure ε.
    let mut rng = ChaCha8Rng::seed_from_u64(99);
    for trial in 0..300 {
        let epsilon = [0.1, 0.5, 1.0, 3.0, 50.0][trial % 5];
        let sensitivity = [1.0, 0.5, 4.0][trial % 3];
        let mech = mechanism(epsilon, sensitivity);
        let n = rng.random_range(2..12);
        let scores: Vec<f64> = (0..n).map(|_| rng.random_range(-20.0..20.0)).collect();
        let neighbour: Vec<f64> = scores
            .iter()
            .map(|q| q + sensitivity * rng.random_range(-1.0..=1.0))
            .collect();
        let measured = measured_loss(&mech, &scores, &neighbour);
        assert!(
            measured <= epsilon,
            "trial {trial}: measured {measured} > ε = {epsilon}"
        );
    }
}

/// One score moves up by Δ = 1 while the others move down by 1: the worst case.
const WORST_SCORES: [f64; 4] = [0.0, 0.0, 0.0, 0.0];
const WORST_NEIGHBOUR: [f64; 4] = [1.0, -1.0, -1.0, -1.0];

#[test]
fn worst_case_neighbours_come_close_to_epsilon() {
    // The bound is tight up to the weight of the other candidates: the audit sees most of ε.
    let measured = measured_loss(&mechanism(1.0, 1.0), &WORST_SCORES, &WORST_NEIGHBOUR);
    assert!(measured > 0.5 && measured <= 1.0, "{measured}");
}

#[test]
fn a_mis_parameterized_mechanism_fails_the_audit() {
    // Negative control: a mechanism told Δ = 0.5 while neighbours move scores by 1 claims ε
    // but is only 2ε-private; the same audit must catch it.
    let measured = measured_loss(&mechanism(1.0, 0.5), &WORST_SCORES, &WORST_NEIGHBOUR);
    assert!(measured > 1.0, "{measured}");
}

/// The exponential mechanism selecting the most frequent point of a dataset (score = the
/// point's count, sensitivity 1 under replace-one neighbours): its worst privacy loss over
/// every pair of neighbouring datasets of `n` points from a domain of `k`.
fn worst_loss_over_all_datasets(mech: &ExponentialMechanism, k: u64, n: usize) -> f64 {
    let pairs = privpac_audit::neighbouring_datasets(k, n).unwrap();
    let log_distribution = |data: &[u64]| -> Vec<f64> {
        let counts: Vec<f64> = (0..k)
            .map(|point| data.iter().filter(|&&x| x == point).count() as f64)
            .collect();
        mech.log_probabilities(&counts).unwrap()
    };
    privpac_audit::worst_case_by(&pairs, log_distribution, privpac_audit::max_divergence_log)
        .unwrap()
        .value
}

#[test]
fn exact_privacy_holds_on_all_neighbouring_datasets() {
    for epsilon in [0.1, 1.0, 3.0] {
        let measured = worst_loss_over_all_datasets(&mechanism(epsilon, 1.0), 3, 3);
        assert!(measured <= epsilon, "measured {measured} > ε = {epsilon}");
        // A replacement moves two counts in opposite directions: most of ε is attained.
        assert!(measured > 0.5 * epsilon, "measured only {measured}");
    }
    // Negative control: told Δ = 1/2, the mechanism claims ε but loses more on the same pairs.
    let measured = worst_loss_over_all_datasets(&mechanism(1.0, 0.5), 3, 3);
    assert!(measured > 1.0, "{measured}");
}

#[test]
fn invalid_input_gives_typed_errors() {
    let mech = mechanism(1.0, 1.0);
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    assert_eq!(mech.select(&[], &mut rng), Err(Error::EmptyCandidates));
    assert_eq!(
        mech.select_integer(&[], &mut rng),
        Err(Error::EmptyCandidates)
    );
    assert_eq!(
        mech.select_levels(&[], &mut rng),
        Err(Error::EmptyCandidates)
    );
    assert_eq!(mech.probabilities(&[]), Err(Error::EmptyCandidates));
    let nan = mech.select(&[1.0, f64::NAN], &mut rng).unwrap_err();
    assert!(
        matches!(nan, Error::NonFiniteScore { index: 1, .. }),
        "{nan}"
    );
    assert_eq!(
        mech.probabilities(&[f64::INFINITY]),
        Err(Error::NonFiniteScore {
            index: 0,
            value: f64::INFINITY
        })
    );
    assert_eq!(
        mech.select_levels(&[ScoreLevel { score: 1, count: 0 }], &mut rng),
        Err(Error::ZeroCount { index: 0 })
    );
    let huge = [
        ScoreLevel {
            score: 1,
            count: u64::MAX,
        },
        ScoreLevel { score: 0, count: 5 },
    ];
    assert!(matches!(
        mech.select_levels(&huge, &mut rng),
        Err(Error::TooManyCandidates { .. })
    ));
    let approx = Privacy::new(1.0, 1e-6).unwrap();
    assert!(matches!(
        ExponentialMechanism::new(approx, 1.0),
        Err(Error::InvalidDelta { .. })
    ));
    for sensitivity in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        let pure = Privacy::pure(1.0).unwrap();
        assert!(matches!(
            ExponentialMechanism::new(pure, sensitivity),
            Err(Error::InvalidSensitivity { .. })
        ));
    }
    let tiny = Privacy::pure(1e-12).unwrap();
    assert!(matches!(
        ExponentialMechanism::new(tiny, 1.0),
        Err(Error::EpsilonTooSmall { .. })
    ));
}

#[test]
fn has_autotraits() {
    fn assert_auto<T: Send + Sync + Unpin>() {}
    assert_auto::<ExponentialMechanism>();
    assert_auto::<ScoreLevel>();
    assert_auto::<LevelChoice>();
}

proptest! {
    #[test]
    fn probabilities_sum_to_one(
        scores in prop::collection::vec(-1e9f64..1e9, 1..50),
        epsilon in 1e-3f64..1e3,
        sensitivity in 1e-3f64..1e3,
    ) {
        let mech = mechanism(epsilon, sensitivity);
        let p = mech.probabilities(&scores).unwrap();
        let total: f64 = p.iter().sum();
        prop_assert!((total - 1.0).abs() < 1e-12, "total {}", total);
        prop_assert!(p.iter().all(|x| (0.0..=1.0).contains(x)));
    }

    #[test]
    fn sampling_never_panics_on_arbitrary_floats(
        scores in prop::collection::vec(any::<f64>(), 0..20),
        seed in any::<u64>(),
    ) {
        let mech = mechanism(1.0, 1.0);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        match mech.select(&scores, &mut rng) {
            Ok(index) => prop_assert!(index < scores.len()),
            Err(error) => {
                let expected = matches!(error, Error::EmptyCandidates | Error::NonFiniteScore { .. });
                prop_assert!(expected, "unexpected error {}", error);
            }
        }
    }

    #[test]
    fn level_and_expanded_probabilities_agree(
        raw in prop::collection::vec((-30i64..30, 1u64..6), 1..8),
        epsilon in 0.01f64..10.0,
    ) {
        let mech = mechanism(epsilon, 1.0);
        let levels: Vec<ScoreLevel> =
            raw.iter().map(|&(score, count)| ScoreLevel { score, count }).collect();
        let expanded: Vec<i64> = levels
            .iter()
            .flat_map(|l| std::iter::repeat_n(l.score, l.count as usize))
            .collect();
        let per_candidate = mech.log_probabilities_integer(&expanded).unwrap();
        let mut start = 0;
        for (level, p) in levels.iter().zip(mech.level_probabilities(&levels).unwrap()) {
            let end = start + level.count as usize;
            let summed: f64 = per_candidate[start..end].iter().map(|lp| lp.exp()).sum();
            prop_assert!((summed - p).abs() < 1e-12);
            start = end;
        }
    }
}

/// A double-double number `hi + lo` (about 106 bits of precision).
#[derive(Clone, Copy)]
struct DoubleDouble {
    hi: f64,
    lo: f64,
}

impl DoubleDouble {
    fn from(value: f64) -> Self {
        DoubleDouble { hi: value, lo: 0.0 }
    }

    fn add(self, other: Self) -> Self {
        let s = self.hi + other.hi;
        let bb = s - self.hi;
        let error = (self.hi - (s - bb)) + (other.hi - bb);
        let lo = error + self.lo + other.lo;
        let hi = s + lo;
        DoubleDouble {
            hi,
            lo: lo - (hi - s),
        }
    }

    fn mul(self, other: Self) -> Self {
        let p = self.hi * other.hi;
        let error = self.hi.mul_add(other.hi, -p);
        let lo = error + self.hi * other.lo + self.lo * other.hi;
        let hi = p + lo;
        DoubleDouble {
            hi,
            lo: lo - (hi - p),
        }
    }
}

/// `exp(x)` for `x ∈ [-700, 0]` to about 100 bits: argument reduction `x = k ln 2 + r` with a
/// two-part ln 2, then the Taylor series of `exp(r)` in double-double arithmetic.
fn reference_exp(x: f64) -> f64 {
    const LN2_HI: f64 = std::f64::consts::LN_2;
    const LN2_LO: f64 = 2.319_046_813_846_299_6e-17;
    let k = (x / LN2_HI).round();
    let r = DoubleDouble::from(x)
        .add(DoubleDouble::from(-k).mul(DoubleDouble::from(LN2_HI)))
        .add(DoubleDouble::from(-k).mul(DoubleDouble::from(LN2_LO)));
    let mut term = DoubleDouble::from(1.0);
    let mut sum = DoubleDouble::from(1.0);
    for i in 1..30 {
        term = term.mul(r).mul(DoubleDouble::from(1.0 / i as f64));
        // 1/i is rounded, but its error (< 2^-53 relative per term) only touches terms
        // already below 2^-60 for i ≥ 13, and below 2^-53 · r^i/i! overall.
        sum = sum.add(term);
    }
    (sum.hi + sum.lo) * 2f64.powi(k as i32)
}

#[test]
fn platform_exp_meets_the_assumed_accuracy() {
    // The error budget assumes exp has relative error ≤ 2^-40 on [-700, 0]; check it on a
    // dense grid and on random points against a ~100-bit reference. A platform whose exp
    // fails this would void the budget, so the test must fail there.
    let mut rng = ChaCha8Rng::seed_from_u64(77);
    let grid = (0..=70_000).map(|i| -(i as f64) * 0.01);
    let random = (0..100_000).map(|_| -rng.random_range(0.0..700.0));
    let mut worst: f64 = 0.0;
    for x in grid.chain(random) {
        let relative = ((x.exp() - reference_exp(x)) / reference_exp(x)).abs();
        worst = worst.max(relative);
    }
    assert!(worst <= 2f64.powi(-40), "worst relative error {worst:e}");
    // Both agree to within a few ulp here (glibc documents exp as accurate to 1 ulp), far
    // inside the budget; a reference bug would show up as a large disagreement.
    assert!(worst < 4.0 * f64::EPSILON, "worst relative error {worst:e}");
    assert!((reference_exp(-1.0) - 0.367_879_441_171_442_3).abs() < 1e-16);
}

/// The counting path of `select_integer` (from `COUNTED_PATH_MIN` candidates on) samples
/// the exact distribution: the chosen score by χ² against the level probabilities, and the
/// position within the chosen score's candidates by χ² against uniform (each at α = 10⁻⁶,
/// the false-failure rate of this seeded test for a correct sampler).
#[test]
fn counted_integer_path_samples_the_exact_distribution() {
    let m = mechanism(1.0, 1.0);
    let n = COUNTED_PATH_MIN + 4464; // 70,000 candidates
    let scores: Vec<i64> = (0..n as i64).map(|i| -(i % 7) / 2).collect(); // 0, 0, -1, -1, …
    let distinct: Vec<i64> = vec![-3, -2, -1, 0];
    let levels: Vec<ScoreLevel> = distinct
        .iter()
        .map(|&score| ScoreLevel {
            score,
            count: scores.iter().filter(|&&s| s == score).count() as u64,
        })
        .collect();
    let expected = m.level_probabilities(&levels).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    let mut by_level = vec![0u64; 4];
    let mut by_position = vec![0u64; 4]; // quarter of the domain of the chosen index
    for _ in 0..20_000 {
        let index = m.select_integer(&scores, &mut rng).unwrap();
        let level = distinct.iter().position(|&s| s == scores[index]).unwrap();
        by_level[level] += 1;
        if scores[index] == 0 {
            by_position[index * 4 / n] += 1;
        }
    }
    let outcome = privpac_audit::chi_square_gof(&by_level, &expected, 1e-6).unwrap();
    assert!(!outcome.rejected, "{by_level:?} vs {expected:?}");
    let outcome = privpac_audit::chi_square_gof(&by_position, &[0.25; 4], 1e-6).unwrap();
    assert!(
        !outcome.rejected,
        "positions within the level: {by_position:?}"
    );
    // A span too wide for a counting table takes the general path, still correctly.
    let wide: Vec<i64> = (0..n as i64)
        .map(|i| if i == 5 { 0 } else { -(i * 1_000_003) })
        .collect();
    let picks: Vec<usize> = (0..200)
        .map(|_| m.select_integer(&wide, &mut rng).unwrap())
        .collect();
    assert!(picks.iter().all(|&i| i == 5 || wide[i] > -40), "{picks:?}");
}

/// Issue 27: a gap `best − score` that overflowed `f64` became +∞ and was clamped to 700
/// whatever λ was. With Δ = 10^306 the scores ±9·10^307 and their neighbours
/// ±8.9·10^307 (each moved by Δ) have gaps of 90 and 89 in units of λ; the clamp gave one
/// of them the weight e^-700 and a loss of about 611 against the claimed ε = 1.
#[test]
fn gaps_that_overflow_f64_are_computed_not_clamped() {
    let mech = mechanism(1.0, 1e306);
    let measured = measured_loss(&mech, &[9e307, -9e307], &[8.9e307, -8.9e307]);
    assert!(measured <= 1.0, "measured {measured} > ε = 1");
    // The loss is there to be measured: most of ε is attained.
    assert!(measured > 0.99, "measured only {measured}");
    // The same through the sampler's own gaps: x = λ·(best − score) ≈ 90, not 700.
    let log_p = mech.log_probabilities(&[9e307, -9e307]).unwrap();
    assert!((log_p[1] + 90.0).abs() < 1e-9, "{log_p:?}");
    // At the very edge of the range, too.
    let edge = mechanism(8.0, f64::MAX / 4.0);
    let measured = measured_loss(
        &edge,
        &[f64::MAX, -f64::MAX],
        &[f64::MAX - f64::MAX / 4.0, -f64::MAX + f64::MAX / 4.0],
    );
    assert!(measured <= 8.0 && measured > 7.9, "measured {measured}");
}

/// Issue 27: `ε − 4η` rounded to nearest is ε itself above about 2^17 (the ulp of ε
/// exceeds 8·10^-12), so the implementation paid nothing for its float error there. The
/// internal ε is now rounded down, and the whole deduction survives.
#[test]
fn the_float_error_deduction_survives_rounding_at_every_epsilon() {
    for epsilon in [
        1e-9,
        1.0,
        1e3,
        131_072.0,
        (1u64 << 20) as f64,
        3.5e7,
        1e10,
        1e15,
        1e300,
        f64::MAX,
    ] {
        // With Δ = 1/2, λ = ε_int exactly (dividing by 2Δ = 1).
        let mech = mechanism(epsilon, 0.5);
        let used = mech.rate();
        // ε − used is exact (Sterbenz: used lies in [ε/2, ε]).
        assert!(
            epsilon - used >= 4.0 * FLOAT_ERROR_BUDGET,
            "ε = {epsilon}: the mechanism runs at {used}"
        );
    }
}

#[test]
fn a_subnormal_rate_is_refused() {
    // ε/(2Δ) below 2^-1022 has a relative rounding error above the budget's 2^-53.
    assert!(matches!(
        ExponentialMechanism::new(Privacy::pure(1e-9).unwrap(), 1e300),
        Err(Error::InvalidParameter { .. })
    ));
    // The smallest normal rate is accepted.
    assert!(ExponentialMechanism::new(Privacy::pure(1.0).unwrap(), 1e307).is_ok());
}

/// Scores anywhere in the `f64` range, half of them near ±`f64::MAX` (where a gap
/// between two of them overflows or nearly does).
fn extreme_score() -> impl Strategy<Value = f64> {
    prop_oneof![
        (0.4f64..=1.0, any::<bool>()).prop_map(|(f, negative)| {
            let q = f64::MAX * f;
            if negative { -q } else { q }
        }),
        prop::num::f64::NORMAL | prop::num::f64::SUBNORMAL | prop::num::f64::ZERO,
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// The realized loss between neighbouring score vectors (every score moved by at most
    /// Δ, checked with a margin that covers the rounding of the check itself) never
    /// exceeds ε, for scores up to ±`f64::MAX`, Δ from 10^-300 to 10^308 (half of the
    /// cases above 10^305, where such gaps are a few hundred units of λ or less) and ε
    /// from 10^-9 to 10^6.
    #[test]
    fn realized_loss_stays_within_epsilon_at_extreme_scores(
        scores in prop::collection::vec(extreme_score(), 2..6),
        moves in prop::collection::vec(-1.0f64..=1.0, 6),
        log_sensitivity in prop_oneof![-300.0f64..308.2, 305.0f64..308.2],
        log_epsilon in -9.0f64..6.0,
    ) {
        let sensitivity = 10f64.powf(log_sensitivity);
        let epsilon = 10f64.powf(log_epsilon);
        let Ok(mech) = ExponentialMechanism::new(Privacy::pure(epsilon).unwrap(), sensitivity)
        else {
            return Ok(()); // a refused (ε, Δ): nothing to audit
        };
        let neighbour: Vec<f64> = scores
            .iter()
            .zip(&moves)
            .map(|(&q, &u)| {
                let moved = (q + sensitivity * u).clamp(-f64::MAX, f64::MAX);
                // Keep the move only if it is certainly within Δ (|fl(a − b)| has relative
                // error 2^-53).
                if (moved - q).abs() <= sensitivity * (1.0 - 1e-15) { moved } else { q }
            })
            .collect();
        let measured = measured_loss(&mech, &scores, &neighbour);
        prop_assert!(measured <= epsilon, "measured {} > ε = {}", measured, epsilon);
    }
}
