//! Tests of `SparseVector::first_above`: χ² against the exact law of the first "above"
//! (streams of 300 and 10^18 questions, and streams at small, comparable and large noise
//! against the answers, each with a negative control), an "above" found at position 10^20,
//! enclosures against floating point, and the precision escalation.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::*;
use crate::noise::DiscreteLaplace;
use privpac_accounting::Privacy;

/// A stream given as runs `(answer, length)`.
struct Runs(Vec<(i64, u128)>);

impl AnswerStream for Runs {
    fn questions(&self) -> u128 {
        self.0.iter().map(|&(_, l)| l).sum()
    }
    fn answer(&self, index: u128) -> i64 {
        let mut start = 0;
        for &(a, l) in &self.0 {
            if index < start + l {
                return a;
            }
            start += l;
        }
        panic!("index {index} beyond the stream");
    }
    fn prefix_counts(&self, m: u128) -> Vec<(i64, u128)> {
        let mut out = Vec::new();
        let mut left = m;
        for &(a, l) in &self.0 {
            let take = left.min(l);
            out.push((a, take));
            left -= take;
        }
        out
    }
}

/// `P(J ≥ m)` for each m of `cuts`: the mixture over the threshold noise (a window holding
/// all but ~1e-30 of its mass) of `Π_v β(v)^{e_v(m)}`, in floating point.
fn exact_survival(svt: &SparseVector, runs: &Runs, cuts: &[u128]) -> Vec<f64> {
    let tn = svt.threshold_noise;
    let qn = svt.query_noise;
    let window = (tn.scale() * 80.0).ceil() as i64 + 2;
    let mut out = vec![0.0; cuts.len()];
    for z in -window..=window {
        let weight = tn.pmf(z);
        let noisy_threshold = svt.threshold + z;
        for (slot, &m) in out.iter_mut().zip(cuts) {
            let log: f64 = runs
                .prefix_counts(m)
                .iter()
                .filter(|&&(_, e)| e > 0)
                .map(|&(a, e)| {
                    let k = noisy_threshold - a;
                    let log_beta = if k >= 1 {
                        (-qn.survival(k)).ln_1p()
                    } else {
                        qn.survival(1 - k).ln()
                    };
                    e as f64 * log_beta
                })
                .sum();
            *slot += weight * log.exp();
        }
    }
    out
}

/// Draws `first_above` `draws` times (a fresh instance each) and compares the bins given
/// by `cuts` (positions; the last bin is "none") with the exact law for the threshold
/// `law_threshold` (3 is the sampled one), χ² at 1e-6.
fn chi_square_against_exact(
    runs: &Runs,
    cuts: &[u128],
    draws: usize,
    seed: u64,
    law_threshold: i64,
) -> privpac_audit::GofOutcome {
    chi_square_at(1.0, 3, law_threshold, runs, cuts, draws, seed)
}

/// [`chi_square_against_exact`] at privacy ε (one round: threshold noise at scale 2/ε,
/// query noise at scale 4/ε) and sampled threshold `threshold`.
fn chi_square_at(
    epsilon: f64,
    threshold: i64,
    law_threshold: i64,
    runs: &Runs,
    cuts: &[u128],
    draws: usize,
    seed: u64,
) -> privpac_audit::GofOutcome {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let privacy = Privacy::pure(epsilon).unwrap();
    let template = SparseVector::new(privacy, 1, law_threshold, 1, &mut rng).unwrap();
    let total = runs.questions();
    let mut bounds = cuts.to_vec();
    bounds.push(total);
    let survival = exact_survival(&template, runs, &bounds);
    let mut expected = vec![1.0 - survival[0]];
    expected.extend(survival.windows(2).map(|w| w[0] - w[1]));
    expected.push(survival[survival.len() - 1]);
    let mut counts = vec![0u64; expected.len()];
    for _ in 0..draws {
        let mut svt = SparseVector::new(privacy, 1, threshold, 1, &mut rng).unwrap();
        let bin = match svt.first_above(runs, &mut rng).unwrap() {
            Some(i) => {
                assert_eq!(svt.remaining(), 0);
                bounds.partition_point(|&b| b <= i)
            }
            None => {
                assert_eq!(svt.remaining(), 1);
                bounds.len()
            }
        };
        counts[bin] += 1;
    }
    // χ² at false-failure rate 1e-6.
    privpac_audit::chi_square_gof(&counts, &expected, 1e-6).unwrap()
}

fn check_against_exact(runs: &Runs, cuts: &[u128], draws: usize, seed: u64) {
    let outcome = chi_square_against_exact(runs, cuts, draws, seed, 3);
    assert!(!outcome.rejected, "{outcome:?}");
}

#[test]
fn the_chi_square_check_rejects_a_shifted_threshold() {
    // Negative control: the law for threshold 5 is not the sampled one (threshold 3).
    let runs = Runs(vec![(0, 40), (-20, 200), (2, 10), (-40, 50)]);
    let outcome = chi_square_against_exact(&runs, &[20, 40, 64, 100, 150, 240, 250], 6000, 13, 5);
    assert!(outcome.rejected, "{outcome:?}");
}

#[test]
fn first_above_matches_the_exact_law_on_a_short_stream() {
    // ε₀ = 1: threshold noise at scale 2, query noise at scale 4; threshold 3.
    let runs = Runs(vec![(0, 40), (-20, 200), (2, 10), (-40, 50)]);
    check_against_exact(&runs, &[20, 40, 64, 100, 150, 240, 250], 6000, 11);
}

#[test]
fn first_above_matches_the_exact_law_on_a_stream_of_1e18_questions() {
    let runs = Runs(vec![
        (-10, 30),
        (-60, 1_000_000),
        (-120, 1_000_000_000_000),
        (-5, 10),
        (-170, 1_000_000_000_000_000_000),
    ]);
    let a = 30;
    let b = a + 1_000_000;
    let c = b + 1_000_000_000_000;
    let d = c + 10;
    check_against_exact(&runs, &[a, 64, b, c, d], 6000, 12);
}

/// The three noise regimes below: (ε, sampled threshold, stream, bin cuts, negative-control
/// threshold). One round at ε has threshold noise at scale 2/ε and query noise at scale
/// 4/ε; the first 64 questions are asked one at a time, so each stream keeps them mostly
/// "below" and puts the questions that decide the law after them, where `first_above`
/// samples from counts.
///
/// * **Small noise** (ε = 8: scales 1/4 and 1/2, against answers 3 to 20 below the
///   threshold): the first "above" lies within about 45 questions of the explicit part in
///   a stream of 10^15 (answers 3 below, then 1 below, then at the threshold).
/// * **Comparable** (ε = 1: scales 2 and 4, answers 8 to 30 below a threshold of −1000):
///   the first "above" spreads over a few hundred questions.
/// * **Large noise** (ε = 1/64: scales 128 and 256, the first 110,064 answers 2048 to 2560
///   below the threshold, that is 8 to 10 query-noise scales, then 10^12 answers 4003
///   below, about 15.6 scales): each of the first questions is "above" with probability
///   near 10^-4, so the first "above" spreads over about 10^5 questions.
fn regimes() -> [(f64, i64, Runs, Vec<u128>, i64); 3] {
    [
        (
            8.0,
            3,
            Runs(vec![
                (-17, 64),
                (0, 30),
                (2, 10),
                (3, 1_000_000_000_000_000),
            ]),
            vec![64, 94, 96, 98, 100, 104, 105, 106, 108],
            4,
        ),
        (
            1.0,
            -1000,
            Runs(vec![(-1030, 64), (-1016, 200), (-1008, 1_000_000)]),
            vec![40, 64, 80, 100, 130, 170, 230, 264, 270, 280, 300, 330],
            -998,
        ),
        (
            1.0 / 64.0,
            3,
            Runs(vec![
                (-2557, 64),
                (-2300, 10_000),
                (-2045, 100_000),
                (-4000, 1_000_000_000_000),
            ]),
            vec![
                64, 2_000, 5_000, 10_064, 15_000, 20_000, 30_000, 45_000, 70_000, 110_064,
            ],
            3 + 128,
        ),
    ]
}

/// Seeded χ² tests (false-failure rate 1e-6 each, 6000 draws) of `first_above` against
/// the exact law (the threshold noise enumerated, the product of the "below"
/// probabilities per threshold) at small, comparable and large noise against the answers.
#[test]
fn first_above_matches_the_exact_law_at_three_noise_ratios() {
    for (i, (epsilon, threshold, runs, cuts, _)) in regimes().into_iter().enumerate() {
        let outcome = chi_square_at(
            epsilon,
            threshold,
            threshold,
            &runs,
            &cuts,
            6000,
            21 + i as u64,
        );
        assert!(!outcome.rejected, "ε = {epsilon}: {outcome:?}");
    }
}

/// Negative controls for the three regimes: the law at a shifted threshold (by 1 at small
/// noise, by 2 at comparable noise, by 128 — one threshold-noise scale, half a query-noise
/// scale — at large noise) is rejected by the same χ² test on fresh draws.
#[test]
fn the_chi_square_check_rejects_shifted_thresholds_at_three_noise_ratios() {
    for (i, (epsilon, threshold, runs, cuts, shifted)) in regimes().into_iter().enumerate() {
        let outcome = chi_square_at(
            epsilon,
            threshold,
            shifted,
            &runs,
            &cuts,
            6000,
            31 + i as u64,
        );
        assert!(outcome.rejected, "ε = {epsilon}: {outcome:?}");
    }
}

#[test]
fn first_above_finds_an_above_at_position_1e20() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let privacy = Privacy::pure(1.0).unwrap();
    let at = 100_000_000_000_000_000_000u128;
    // Below by 10^6 (each "above" has probability below e^-2.4e5), then above by 10^6.
    let runs = Runs(vec![(-1_000_000, at), (1_000_000, 5)]);
    for _ in 0..20 {
        let mut svt = SparseVector::new(privacy, 1, 3, 2, &mut rng).unwrap();
        assert_eq!(svt.first_above(&runs, &mut rng).unwrap(), Some(at));
        assert_eq!(svt.remaining(), 1);
        // Only the explicit part: 64 questions far above.
        let short = Runs(vec![(1_000_000, 3)]);
        assert_eq!(svt.first_above(&short, &mut rng).unwrap(), Some(0));
        assert!(matches!(
            svt.first_above(&short, &mut rng),
            Err(Error::SparseVectorExhausted { limit: 2 })
        ));
    }
    // All below: none, and the budget is untouched.
    let mut svt = SparseVector::new(privacy, 1, 3, 1, &mut rng).unwrap();
    let quiet = Runs(vec![(-1_000_000, u128::MAX / 4)]);
    assert_eq!(svt.first_above(&quiet, &mut rng).unwrap(), None);
    assert_eq!(svt.remaining(), 1);
}

#[test]
fn enclosures_contain_the_floating_point_values() {
    let noise = DiscreteLaplace::from_ratio(4, 1).unwrap();
    let (t, s) = noise.scale_ratio();
    for threshold in [-7i128, 0, 3, 40] {
        let mut exact = Survival::new(threshold, t, s);
        for (a, e) in [(0i64, 1u128), (-20, 500), (5, 3), (50, 2), (-300, 1 << 40)] {
            let k = threshold - i128::from(a);
            let k = i64::try_from(k).unwrap();
            let beta = if k >= 1 {
                1.0 - noise.survival(k)
            } else {
                noise.survival(1 - k)
            };
            let value = (e as f64 * beta.ln()).exp();
            let q = 200;
            let enc = exact.survival(&[(a, e)], q);
            let scale = 2f64.powi(q as i32);
            let (lo, hi) = (
                enc.lo.to_string().parse::<f64>().unwrap() / scale,
                enc.hi.to_string().parse::<f64>().unwrap() / scale,
            );
            let tol = 1e-9 * value + 1e-300;
            assert!(
                lo <= value + tol && value <= hi + tol,
                "{a} {e}: {lo} {value} {hi}"
            );
            assert!(hi - lo <= 1e-12 * value.max(1e-40) + 1e-40, "{lo} {hi}");
        }
    }
}

/// U is set to agree with `S` on its first 200 binary digits, so the first precision
/// (`q = 128 + 9`) cannot decide `U < S`: the decision must escalate, and it must agree
/// with an enclosure of `S` at 4096 bits.
#[test]
fn comparisons_escalate_precision_when_u_is_close_to_s() {
    let (t, s) = (4u64, 1u64);
    let counts = [(-20i64, 500u128)];
    let mut reference = Survival::new(3, t, s);
    let big_q = 4096;
    let truth = reference.survival(&counts, big_q);
    let prefix_bits = 200;
    let prefix = &truth.lo >> (big_q - prefix_bits);
    assert_eq!(prefix, &truth.hi >> (big_q - prefix_bits));
    let mut seen = [false; 2];
    for seed in 0..100u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut bits = RandomBits::new(&mut rng);
        let mut u = LazyUniform {
            digits: prefix.clone(),
            bits: prefix_bits,
            escalations: 0,
        };
        let mut exact = Survival::new(3, t, s);
        let below = u.below(&mut exact, &counts, &mut bits);
        assert!(u.escalations >= 1, "seed {seed}");
        assert!(u.bits > prefix_bits);
        if below {
            // (u + 1)/2^b ≤ S ≤ hi/2^Q.
            assert!(((&u.digits + 1u32) << big_q) <= (&truth.hi << u.bits));
        } else {
            // u/2^b ≥ S ≥ lo/2^Q.
            assert!((&u.digits << big_q) >= (&truth.lo << u.bits));
        }
        seen[usize::from(below)] = true;
    }
    // Each outcome has probability about 1/2 per seed.
    assert!(seen[0] && seen[1]);
}

/// A stream whose prefix counts miss questions (here: always half of them).
struct HalfCounted(u128);

impl AnswerStream for HalfCounted {
    fn questions(&self) -> u128 {
        self.0
    }
    fn answer(&self, _index: u128) -> i64 {
        -1_000_000_000
    }
    fn prefix_counts(&self, m: u128) -> Vec<(i64, u128)> {
        vec![(-1_000_000_000, m / 2)]
    }
}

/// A stream that breaks the prefix-count contract is refused with a typed error, not
/// sampled under another stream's law, and the budget is not charged; the same answers
/// counted correctly give "none above" (every answer is 10^9 below the threshold).
#[test]
fn a_stream_with_wrong_prefix_counts_is_refused() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let mut svt = SparseVector::new(Privacy::pure(1.0).unwrap(), 1, 100, 1, &mut rng).unwrap();
    let bad = svt.first_above(&HalfCounted(10_000), &mut rng);
    assert!(matches!(bad, Err(Error::InvalidCount { .. })), "{bad:?}");
    assert_eq!(svt.remaining(), 1);
    let good = Runs(vec![(-1_000_000_000, 10_000)]);
    assert_eq!(svt.first_above(&good, &mut rng).unwrap(), None);
}
