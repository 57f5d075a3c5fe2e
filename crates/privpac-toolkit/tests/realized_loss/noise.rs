//! Realized-loss properties of the mechanisms built on exact discrete Laplace noise
//! (report-noisy-max, the discrete Laplace mechanism, the grid Laplace mechanism and the
//! sparse vector) and of amplification by subsampling and secrecy of the sample (see the
//! harness's module documentation).
//!
//! Every sampler here draws exactly from `Lap_Z(t/s)` (`DiscreteLaplace::scale_ratio`), so
//! the realized output distributions are sums of geometric terms, computed in log space:
//! in closed form where the instance is too wide to sum (two-candidate report-noisy-max,
//! the single releases), by summing over one noise variable in a window whose left-out
//! mass is bounded and checked to be below 10⁻³⁰ of every probability otherwise.

use super::*;
use privpac_accounting::{Subsampling, amplification_by_subsampling, secrecy_of_the_sample};
use privpac_mechanisms::{
    DiscreteLaplace, DiscreteLaplaceMechanism, LaplaceMechanism, RandomBits, ReportNoisyMax,
    SparseVector,
};

/// `Lap_Z(t/s)` in log space: `Pr[Z = k] = c·r^|k|`, `r = e^{−rate}`, `rate = s/t`,
/// `c = (1 − r)/(1 + r)`. Every quantity is kept in logs so that a rate up to 2^62 (r
/// underflows) and tails at 2^64 keep their values.
#[derive(Debug, Clone, Copy)]
pub(super) struct LogNoise {
    rate: f64,
    /// `ln(1 + r)`.
    ln1p_r: f64,
    /// `ln c`.
    ln_c: f64,
    /// `r`.
    r: f64,
}

impl LogNoise {
    pub(super) fn of(noise: DiscreteLaplace) -> LogNoise {
        let (t, s) = noise.scale_ratio();
        let rate = s as f64 / t as f64;
        let r = (-rate).exp();
        let ln1p_r = r.ln_1p();
        LogNoise {
            rate,
            ln1p_r,
            ln_c: (-(-rate).exp_m1()).ln() - ln1p_r,
            r,
        }
    }

    /// `ln Pr[Z = k]`.
    pub(super) fn ln_pmf(&self, k: i128) -> f64 {
        self.ln_c - k.unsigned_abs() as f64 * self.rate
    }

    /// `ln Pr[Z ≥ k]`: `k ln r − ln(1 + r)` for k ≥ 1, `ln(1 − Pr[Z ≥ 1 − k])` below.
    pub(super) fn ln_survival(&self, k: i128) -> f64 {
        if k >= 1 {
            -(k as f64) * self.rate - self.ln1p_r
        } else {
            (-(-((1 - k) as f64) * self.rate - self.ln1p_r).exp()).ln_1p()
        }
    }

    /// `ln Pr[Z ≤ k]` (Z is symmetric).
    pub(super) fn ln_cdf(&self, k: i128) -> f64 {
        self.ln_survival(-k)
    }

    /// A window `[−w, w]` for summing over a draw of this noise that leaves out less than
    /// `e^{−80}` of the mass beyond a gap of `gap` (checked by [`Self::ln_outside`]).
    pub(super) fn window(&self, gap: i128) -> i128 {
        gap + (80.0 / self.rate).ceil() as i128 + 2
    }

    /// `ln Pr[|Z| > w]`, an upper bound on what a sum over `[−w, w]` leaves out.
    pub(super) fn ln_outside(&self, w: i128) -> f64 {
        std::f64::consts::LN_2 + self.ln_survival(w + 1)
    }
}

/// `ln Σ e^{x_i}`.
fn log_sum_exp(values: impl Iterator<Item = f64> + Clone) -> f64 {
    let max = values.clone().fold(f64::NEG_INFINITY, f64::max);
    if max == f64::NEG_INFINITY {
        return max;
    }
    max + values.map(|x| (x - max).exp()).sum::<f64>().ln()
}

/// Seeds for the coupling checks: the mechanism and the model of it above read the same
/// random stream, and must give the same output.
const COUPLED_SEEDS: u64 = 8;

/// One exact draw `value + Z` from a fresh bit buffer on `rng`, as the mechanisms draw.
fn exact_draw(value: i64, noise: DiscreteLaplace, rng: &mut ChaCha8Rng) -> i128 {
    i128::from(value) + noise.sample_wide_bits(&mut RandomBits::new(rng))
}

/// `ln Σ_{z=−w}^{w} Pr[Z = z]·e^{f(z)}` for the noise `noise`, and checks that what the
/// window leaves out (at most `Pr[|Z| > w]`, as `e^{f} ≤ 1`) is below 10⁻³⁰ of the sum.
fn windowed_sum(
    noise: &LogNoise,
    w: i128,
    f: impl Fn(i128) -> f64 + Clone,
) -> Result<f64, TestCaseError> {
    let sum = log_sum_exp((-w..=w).map(move |z| noise.ln_pmf(z) + f(z)));
    let outside = noise.ln_outside(w);
    prop_assert!(
        outside <= sum - 69.1,
        "harness: the window ±{w} leaves out e^{outside}, not below 1e-30 of e^{sum}"
    );
    Ok(sum)
}

/// The loss `|ln p − ln q|` of one output whose log-probabilities are `−a·rate + x` and
/// `−b·rate + y` with integer `a`, `b` (their difference exact, so that logs near 2^126 do
/// not cancel).
fn split_loss(rate: f64, (a, x): (i128, f64), (b, y): (i128, f64)) -> f64 {
    ((b - a) as f64 * rate + (x - y)).abs()
}

/// The tolerance of a measured pure loss against a claim: a few ulps of the claim (the
/// noise rate is `ε/Δ'` rounded to a float, the loss a sum of a few rounded logs) plus an
/// absolute 10⁻¹⁵ for the logs of moderate probabilities.
fn within(loss: f64, claimed: f64) -> bool {
    loss <= claimed * (1.0 + 1e-14) + 1e-15
}

/// Three scores within `spread` of `base` (saturating at the ends of `i64`).
fn scores_near(base: i64, spread: i64) -> impl Strategy<Value = Vec<i64>> {
    prop::collection::vec(-spread..=spread, 3).prop_map(move |offsets| {
        offsets
            .into_iter()
            .map(|o| base.saturating_add(o))
            .collect()
    })
}

/// Scores moved by `steps` (each within ±Δ), kept where they leave `i64`.
fn moved(scores: &[i64], steps: &[i64]) -> Vec<i64> {
    scores
        .iter()
        .zip(steps)
        .map(|(&s, &d)| s.checked_add(d).unwrap_or(s))
        .collect()
}

fn any_base() -> impl Strategy<Value = i64> {
    prop_oneof![
        Just(0i64),
        any::<i64>(),
        Just(i64::MAX),
        Just(i64::MIN),
        (0i64..=3).prop_map(|d| i64::MAX - d),
        (0i64..=3).prop_map(|d| i64::MIN + d),
    ]
}

// ---------------------------------------------------------------------------------------
// Report-noisy-max.

#[derive(Debug, Clone)]
pub(super) struct NoisyMaxCase {
    pub(super) epsilon: f64,
    pub(super) sensitivity: u64,
    pub(super) scores: Vec<i64>,
    pub(super) steps: Vec<i64>,
}

/// Two candidates anywhere in `i64` (gaps up to 2^64), Δ up to 2^62, ε over the whole range.
pub(super) fn noisy_max_pair_case() -> impl Strategy<Value = NoisyMaxCase> {
    let sensitivity = prop_oneof![1u64..=4, (0u32..=62).prop_map(|e| 1u64 << e)];
    (any_epsilon(), sensitivity)
        .prop_flat_map(|(epsilon, sensitivity)| {
            let s = sensitivity.min(i64::MAX as u64) as i64;
            let score = prop_oneof![
                -100i64..=100,
                (-20i64..=20).prop_map(move |u| u.saturating_mul(s)),
                any::<i64>(),
                (0i64..=3).prop_map(|d| i64::MAX - d),
                (0i64..=3).prop_map(|d| i64::MIN + d),
            ];
            (
                Just(epsilon),
                Just(sensitivity),
                prop::collection::vec(score, 2),
                prop::collection::vec(prop_oneof![Just(-s), Just(s), -s..=s], 2),
            )
        })
        .prop_map(|(epsilon, sensitivity, scores, steps)| NoisyMaxCase {
            epsilon,
            sensitivity,
            scores,
            steps,
        })
}

/// `ln Pr[Z₀ − Z₁ ≥ k]` for independent `Z₀, Z₁ ~ Lap_Z`, as `(a, x)` with the value
/// `−a·rate + x`. The difference has `Pr[W = w] = c² r^|w| (|w| + (1 + r²)/(1 − r²))`,
/// whose tail is, for k ≥ 1, `r^k (k(1 − r²) + 1 + r + 2r²)/(1 + r)³`; below, by symmetry,
/// `1 − Pr[W ≥ 1 − k]`.
fn ln_difference_survival(noise: &LogNoise, k: i128) -> (i128, f64) {
    let r = noise.r;
    let one_minus_r2 = -(-noise.rate).exp_m1() * (1.0 + r);
    let extra =
        |k: i128| (k as f64 * one_minus_r2 + 1.0 + r + 2.0 * r * r).ln() - 3.0 * noise.ln1p_r;
    if k >= 1 {
        (k, extra(k))
    } else {
        let upper = -((1 - k) as f64) * noise.rate + extra(1 - k);
        (0, (-upper.exp()).ln_1p())
    }
}

/// Two candidates: `select` takes candidate 0 on ties (a strict `>` against the running
/// best, in index order), so `Pr[0] = Pr[W ≥ q₁ − q₀]` and `Pr[1] = Pr[W ≥ q₀ − q₁ + 1]`
/// for `W = Z₀ − Z₁`, the gaps exact in `i128`.
fn noisy_max_pair_logs(noise: &LogNoise, scores: &[i64]) -> [(i128, f64); 2] {
    let (q0, q1) = (i128::from(scores[0]), i128::from(scores[1]));
    [
        ln_difference_survival(noise, q1 - q0),
        ln_difference_survival(noise, q0 - q1 + 1),
    ]
}

/// Three candidates (or two, as a cross-check of the closed form): `Pr[i wins] = Σ_z
/// Pr[Z_i = z] Π_{j<i} Pr[q_j + Z_j < q_i + z] Π_{j>i} Pr[q_j + Z_j ≤ q_i + z]` (the tie
/// rule of `select`), summed over a window that holds all but 10⁻³⁰ of each probability.
fn noisy_max_logs(noise: &LogNoise, scores: &[i64], gap: i128) -> Result<Vec<f64>, TestCaseError> {
    let w = noise.window(gap);
    (0..scores.len())
        .map(|i| {
            let scores = scores.to_vec();
            windowed_sum(noise, w, move |z| {
                let noisy = i128::from(scores[i]) + z;
                (0..scores.len())
                    .filter(|&j| j != i)
                    .map(|j| {
                        let margin = noisy - i128::from(scores[j]);
                        noise.ln_cdf(if j < i { margin - 1 } else { margin })
                    })
                    .sum()
            })
        })
        .collect()
}

/// `select` is the argmax of the exact noisy scores, the lowest index among ties (the rule
/// the distributions above encode): coupled on the same random streams.
fn check_noisy_max_coupling(rnm: &ReportNoisyMax, scores: &[i64]) -> Result<(), TestCaseError> {
    for seed in 0..COUPLED_SEEDS {
        let selected = rnm
            .select(scores, &mut ChaCha8Rng::seed_from_u64(seed))
            .unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut bits = RandomBits::new(&mut rng);
        let noisy: Vec<i128> = scores
            .iter()
            .map(|&q| i128::from(q) + rnm.noise().sample_wide_bits(&mut bits))
            .collect();
        let best = noisy.iter().max().unwrap();
        let first = noisy.iter().position(|v| v == best).unwrap();
        prop_assert_eq!(selected, first, "seed {}: noisy scores {:?}", seed, noisy);
    }
    Ok(())
}

fn spread(scores: &[i64]) -> i128 {
    let max = scores.iter().max().unwrap();
    let min = scores.iter().min().unwrap();
    i128::from(*max) - i128::from(*min)
}

pub(super) fn noisy_max_pair(case: NoisyMaxCase) -> Result<bool, TestCaseError> {
    let Ok(privacy) = Privacy::pure(case.epsilon) else {
        return Ok(false);
    };
    let Ok(rnm) = ReportNoisyMax::new(privacy, case.sensitivity) else {
        return Ok(false);
    };
    let claimed = rnm.privacy().epsilon();
    let noise = LogNoise::of(rnm.noise());
    let other = moved(&case.scores, &case.steps);
    check_noisy_max_coupling(&rnm, &case.scores)?;
    let (p, q) = (
        noisy_max_pair_logs(&noise, &case.scores),
        noisy_max_pair_logs(&noise, &other),
    );
    let loss = (0..2)
        .map(|i| split_loss(noise.rate, p[i], q[i]))
        .fold(0.0, f64::max);
    prop_assert!(
        within(loss, claimed),
        "{case:?}: loss {loss} > reported {claimed} (neighbour {other:?})"
    );
    // The closed form against the sum where the sum is affordable.
    if noise.rate >= 1.0 / 64.0 && spread(&case.scores).max(spread(&other)) <= 4096 {
        let gap = spread(&case.scores).max(spread(&other));
        let summed = noisy_max_logs(&noise, &case.scores, gap)?;
        for (i, &(a, x)) in p.iter().enumerate() {
            let closed = -(a as f64) * noise.rate + x;
            prop_assert!(
                (closed - summed[i]).abs() <= 1e-9 * (1.0 + closed.abs()),
                "{case:?}: closed form {closed} against the sum {}",
                summed[i]
            );
        }
    }
    Ok(true)
}

/// Three candidates near a base anywhere in `i64` (the ends included), within a few noise
/// scales of each other, the noise scale at most 64 (so that the sum is affordable).
pub(super) fn noisy_max_triple_case() -> impl Strategy<Value = NoisyMaxCase> {
    (1u64..=8, any_base())
        .prop_flat_map(|(sensitivity, base)| {
            let s = sensitivity as i64;
            // Scale 2Δ/ε ≤ 64.
            let epsilon = prop_oneof![
                log_uniform(2.0 * sensitivity as f64 / 64.0, 20.0),
                log_uniform(20.0, 1e300),
                Just(f64::MAX),
            ];
            (
                epsilon,
                Just(sensitivity),
                scores_near(base, 6 * s + 12),
                prop::collection::vec(prop_oneof![Just(-s), Just(s), -s..=s], 3),
            )
        })
        .prop_map(|(epsilon, sensitivity, scores, steps)| NoisyMaxCase {
            epsilon,
            sensitivity,
            scores,
            steps,
        })
}

pub(super) fn noisy_max_triple(case: NoisyMaxCase) -> Result<bool, TestCaseError> {
    let Ok(privacy) = Privacy::pure(case.epsilon) else {
        return Ok(false);
    };
    let Ok(rnm) = ReportNoisyMax::new(privacy, case.sensitivity) else {
        return Ok(false);
    };
    let claimed = rnm.privacy().epsilon();
    let noise = LogNoise::of(rnm.noise());
    prop_assert!(noise.rate >= 1.0 / 64.0, "harness: scale above 64");
    let other = moved(&case.scores, &case.steps);
    check_noisy_max_coupling(&rnm, &case.scores)?;
    let gap = spread(&case.scores).max(spread(&other));
    let p = noisy_max_logs(&noise, &case.scores, gap)?;
    let q = noisy_max_logs(&noise, &other, gap)?;
    let loss = max_divergence_log(&p, &q).unwrap();
    prop_assert!(
        within(loss, claimed),
        "{case:?}: loss {loss} > reported {claimed} (neighbour {other:?}; {p:?} vs {q:?})"
    );
    Ok(true)
}

// ---------------------------------------------------------------------------------------
// The discrete Laplace and grid Laplace mechanisms.

/// The loss between `v + Z` and `v′ + Z` over the integer outputs in `[lo, hi]` (both
/// centres inside) and the error outcome `v + Z ∉ [lo, hi]`, which the mechanisms report
/// as `Error::Overflow`. Over the integers the log-ratio `(|m − v′| − |m − v|)·rate` is
/// piecewise linear in m with kinks at v and v′, so its extremes are at v, v′, lo and hi;
/// the error outcome has `Pr = Pr[Z ≥ hi − v + 1] + Pr[Z ≥ v − lo + 1]`, compared with
/// the common factor r^{min k} taken out exactly.
fn shifted_loss(noise: &LogNoise, v: i128, w: i128, lo: i128, hi: i128) -> f64 {
    let mut loss: f64 = 0.0;
    for m in [v, w, lo, hi] {
        let a = (m - v).abs();
        let b = (m - w).abs();
        loss = loss.max(split_loss(noise.rate, (a, 0.0), (b, 0.0)));
    }
    let tails = [hi - v + 1, v - lo + 1, hi - w + 1, w - lo + 1];
    let least = *tails.iter().min().unwrap();
    let ln_error = |x: i128, y: i128| {
        let (ex, ey) = (
            -((x - least) as f64) * noise.rate,
            -((y - least) as f64) * noise.rate,
        );
        let max = ex.max(ey);
        max + ((ex - max).exp() + (ey - max).exp()).ln()
    };
    loss.max((ln_error(tails[0], tails[1]) - ln_error(tails[2], tails[3])).abs())
}

#[derive(Debug, Clone)]
pub(super) struct ReleaseCase {
    pub(super) epsilon: f64,
    pub(super) sensitivity: u64,
    pub(super) value: i64,
    pub(super) step: i64,
}

pub(super) fn release_case() -> impl Strategy<Value = ReleaseCase> {
    let sensitivity = prop_oneof![1u64..=4, (0u32..=63).prop_map(|e| 1u64 << e), any::<u64>()];
    (any_epsilon(), sensitivity, any_base(), any::<i64>(), 0u8..4).prop_map(
        |(epsilon, sensitivity, value, raw, kind)| {
            let s = sensitivity.min(i64::MAX as u64) as i64;
            let step = match kind {
                0 => s,
                1 => -s,
                _ => raw % s.max(1),
            };
            ReleaseCase {
                epsilon,
                sensitivity,
                value,
                step,
            }
        },
    )
}

pub(super) fn discrete_laplace_release(case: ReleaseCase) -> Result<bool, TestCaseError> {
    let Ok(privacy) = Privacy::pure(case.epsilon) else {
        return Ok(false);
    };
    let Ok(mechanism) = DiscreteLaplaceMechanism::new(privacy, case.sensitivity) else {
        return Ok(false);
    };
    let claimed = mechanism.privacy().epsilon();
    let noise = LogNoise::of(mechanism.noise());
    // `release` returns v + Z when it fits in i64, `Error::Overflow` otherwise (coupled).
    for seed in 0..COUPLED_SEEDS {
        let released = mechanism.release(case.value, &mut ChaCha8Rng::seed_from_u64(seed));
        let exact = exact_draw(
            case.value,
            mechanism.noise(),
            &mut ChaCha8Rng::seed_from_u64(seed),
        );
        prop_assert_eq!(released.ok(), i64::try_from(exact).ok(), "seed {}", seed);
    }
    let other = case.value.checked_add(case.step).unwrap_or(case.value);
    let loss = shifted_loss(
        &noise,
        i128::from(case.value),
        i128::from(other),
        i128::from(i64::MIN),
        i128::from(i64::MAX),
    );
    prop_assert!(
        within(loss, claimed),
        "{case:?}: loss {loss} > reported {claimed} (neighbour {other})"
    );
    Ok(true)
}

#[derive(Debug, Clone)]
pub(super) struct GridCase {
    pub(super) epsilon: f64,
    pub(super) sensitivity: f64,
    /// `None`: the default grid.
    pub(super) grid_exponent: Option<i32>,
    /// A query value relative to the range (`u·range`), or in grid units near a tie.
    pub(super) position: f64,
    pub(super) near_tie: Option<i64>,
    pub(super) step: f64,
}

pub(super) fn grid_case() -> impl Strategy<Value = GridCase> {
    let sensitivity = prop_oneof![
        (-60i32..=60).prop_map(|e| 2f64.powi(e)),
        log_uniform(1e-300, 1e300),
        0.1f64..10.0,
    ];
    (
        any_epsilon(),
        sensitivity,
        prop_oneof![Just(None), (-40i32..=60).prop_map(Some)],
        prop_oneof![-1.0f64..=1.0, Just(1.0), Just(-1.0), Just(0.0)],
        prop_oneof![Just(None), (-1000i64..=1000).prop_map(Some)],
        prop_oneof![Just(-1.0), Just(1.0), -1.0f64..=1.0],
    )
        .prop_map(
            |(epsilon, sensitivity, grid_exponent, position, near_tie, step)| GridCase {
                epsilon,
                sensitivity,
                grid_exponent,
                position,
                near_tie,
                step,
            },
        )
}

pub(super) fn grid_laplace(case: GridCase) -> Result<bool, TestCaseError> {
    let Ok(privacy) = Privacy::pure(case.epsilon) else {
        return Ok(false);
    };
    let built = match case.grid_exponent {
        None => LaplaceMechanism::new(privacy, case.sensitivity),
        Some(k) => {
            // Exponents relative to the sensitivity's, so that Δ/g is moderate to large.
            let relative = k - case.sensitivity.log2().floor() as i32;
            LaplaceMechanism::with_grid(privacy, case.sensitivity, relative)
        }
    };
    let Ok(mechanism) = built else {
        return Ok(false);
    };
    let claimed = mechanism.privacy().epsilon();
    let value = match case.near_tie {
        // Half a grid step beside an integer multiple (the rounding's ties), or the range.
        Some(n) => (n as f64 + 0.5) * mechanism.grid(),
        None => case.position * mechanism.range(),
    };
    let other = neighbour_scores(&[value], &[case.step], case.sensitivity)[0];
    let (Ok(n), Ok(m)) = (mechanism.grid_index(value), mechanism.grid_index(other)) else {
        return Ok(false);
    };
    prop_assert!(
        (m - n).unsigned_abs() <= mechanism.grid_sensitivity(),
        "{case:?}: grid indices {n} and {m} differ by more than Δ_g = {}",
        mechanism.grid_sensitivity()
    );
    let limit = i128::from(LaplaceMechanism::MAX_NOISY_INDEX);
    // `release_index` is `n + Z`, or `Error::Overflow` beyond ±2^62 (coupled).
    for seed in 0..COUPLED_SEEDS {
        let released = mechanism.release_index(value, &mut ChaCha8Rng::seed_from_u64(seed));
        let exact = exact_draw(n, mechanism.noise(), &mut ChaCha8Rng::seed_from_u64(seed));
        let expected = (exact.abs() <= limit).then_some(exact as i64);
        prop_assert_eq!(released.ok(), expected, "seed {}", seed);
    }
    let noise = LogNoise::of(mechanism.noise());
    let loss = shifted_loss(&noise, i128::from(n), i128::from(m), -limit, limit);
    prop_assert!(
        within(loss, claimed),
        "{case:?}: loss {loss} > reported {claimed} (values {value} and {other}, indices {n} and {m})"
    );
    Ok(true)
}

// ---------------------------------------------------------------------------------------
// The sparse vector with c = 1.

#[derive(Debug, Clone)]
pub(super) struct SparseVectorCase {
    pub(super) epsilon: f64,
    pub(super) delta: f64,
    pub(super) sensitivity: u64,
    pub(super) threshold: i64,
    pub(super) answers: Vec<i64>,
    pub(super) steps: Vec<i64>,
}

pub(super) fn sparse_vector_case() -> impl Strategy<Value = SparseVectorCase> {
    (
        1u64..=4,
        any_base(),
        2usize..=3,
        prop_oneof![3 => Just(0.0), 1 => any_delta()],
    )
        .prop_flat_map(|(sensitivity, threshold, k, delta)| {
            let s = sensitivity as i64;
            // Query noise scale 4Δ/ε ≤ 64.
            let epsilon = prop_oneof![
                log_uniform(4.0 * sensitivity as f64 / 64.0, 20.0),
                log_uniform(20.0, 1e300),
            ];
            let spread = 8 * s + 16;
            (
                epsilon,
                Just(delta),
                Just(sensitivity),
                Just(threshold),
                prop::collection::vec(-spread..=spread, k).prop_map(move |offsets| {
                    offsets
                        .into_iter()
                        .map(|o| threshold.saturating_add(o))
                        .collect::<Vec<i64>>()
                }),
                prop::collection::vec(prop_oneof![Just(-s), Just(s), -s..=s], k),
            )
        })
        .prop_map(
            |(epsilon, delta, sensitivity, threshold, answers, steps)| SparseVectorCase {
                epsilon,
                delta,
                sensitivity,
                threshold,
                answers,
                steps,
            },
        )
}

/// With c = 1 the outputs are "above at query i" (then every query is refused) for each i,
/// and "below every time": `Pr[above at i] = Σ_ρ Pr[ρ] Π_{j<i} Pr[q_j + Z_j < T + ρ]
/// Pr[q_i + Z_i ≥ T + ρ]` (the comparison of `query` is `≥`), ρ the threshold noise.
fn sparse_vector_logs(
    threshold_noise: &LogNoise,
    query_noise: &LogNoise,
    threshold: i64,
    answers: &[i64],
    gap: i128,
) -> Result<Vec<f64>, TestCaseError> {
    // Every outcome has probability at least Pr[ρ = 0]·Π_j Pr[Z_j moves q_j past T + 0],
    // about e^{−k(gap + 1)·rate_q} with rate_q ≤ rate_T: the window's left-out mass,
    // below e^{−(w + 1)·rate_T}, is then below 10⁻³⁰ of it.
    let w = threshold_noise.window(answers.len() as i128 * (gap + 1));
    let t = i128::from(threshold);
    (0..=answers.len())
        .map(|i| {
            let answers = answers.to_vec();
            let query_noise = *query_noise;
            windowed_sum(threshold_noise, w, move |rho| {
                let level = t + rho;
                let below: f64 = answers[..i]
                    .iter()
                    .map(|&q| query_noise.ln_cdf(level - i128::from(q) - 1))
                    .sum();
                let above = answers
                    .get(i)
                    .map_or(0.0, |&q| query_noise.ln_survival(level - i128::from(q)));
                below + above
            })
        })
        .collect()
}

pub(super) fn sparse_vector(case: SparseVectorCase) -> Result<bool, TestCaseError> {
    let Ok(privacy) = Privacy::new(case.epsilon, case.delta) else {
        return Ok(false);
    };
    let Ok(svt) = SparseVector::new(
        privacy,
        case.sensitivity,
        case.threshold,
        1,
        &mut ChaCha8Rng::seed_from_u64(0),
    ) else {
        return Ok(false);
    };
    let claimed = svt.privacy();
    // The noises `new` builds: `Lap_Z(2Δ/ε₀)` and `Lap_Z(4Δ/ε₀)` at the round budget.
    let round = SparseVector::round_epsilon(privacy, 1);
    let (Ok(threshold_noise), Ok(query_noise)) = (
        DiscreteLaplace::for_epsilon(round, 2 * case.sensitivity),
        DiscreteLaplace::for_epsilon(round, 4 * case.sensitivity),
    ) else {
        return Ok(false);
    };
    // `query` is `q + Z ≥ T + ρ` with these noises, each draw from a fresh bit buffer:
    // coupled on the same random streams (which also checks the noises are the ones `new`
    // built).
    for seed in 0..COUPLED_SEEDS {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut svt =
            SparseVector::new(privacy, case.sensitivity, case.threshold, 1, &mut rng).unwrap();
        let answered: Vec<Option<bool>> = case
            .answers
            .iter()
            .map(|&q| svt.query(q, &mut rng).ok())
            .collect();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let level = exact_draw(case.threshold, threshold_noise, &mut rng);
        let mut expected = Vec::new();
        let mut halted = false;
        for &q in &case.answers {
            if halted {
                expected.push(None);
                continue;
            }
            let above = exact_draw(q, query_noise, &mut rng) >= level;
            if above {
                // The next threshold is drawn (and c = 1 then refuses every query).
                exact_draw(case.threshold, threshold_noise, &mut rng);
                halted = true;
            }
            expected.push(Some(above));
        }
        prop_assert_eq!(answered, expected, "seed {}", seed);
    }
    let (threshold_noise, query_noise) = (LogNoise::of(threshold_noise), LogNoise::of(query_noise));
    let other = moved(&case.answers, &case.steps);
    let gap = case
        .answers
        .iter()
        .chain(&other)
        .map(|&q| (i128::from(q) - i128::from(case.threshold)).abs())
        .max()
        .unwrap();
    let p = sparse_vector_logs(
        &threshold_noise,
        &query_noise,
        case.threshold,
        &case.answers,
        gap,
    )?;
    let q = sparse_vector_logs(&threshold_noise, &query_noise, case.threshold, &other, gap)?;
    if claimed.is_pure() {
        let loss = max_divergence_log(&p, &q).unwrap();
        prop_assert!(
            within(loss, claimed.epsilon()),
            "{case:?}: loss {loss} > reported {claimed:?} (neighbour {other:?}; {p:?} vs {q:?})"
        );
    } else {
        let delta = delta_of_logs(&p, &q, claimed.epsilon());
        prop_assert!(
            delta <= claimed.delta() * (1.0 + 1e-9) + 1e-15,
            "{case:?}: δ({}) = {delta:e} > reported {} ({p:?} vs {q:?})",
            claimed.epsilon(),
            claimed.delta()
        );
    }
    Ok(true)
}

// ---------------------------------------------------------------------------------------
// Amplification by subsampling and secrecy of the sample, randomized response inside.

/// How the amplified mechanism subsamples.
#[derive(Debug, Clone, Copy)]
pub(super) enum Sampler {
    /// Poisson at `rate` (add/remove one row).
    Poisson(f64),
    /// `sample` of `population` rows without replacement (replace one row).
    WithoutReplacement { sample: u64, population: u64 },
    /// Secrecy of the sample: `inner` rows drawn with replacement from `outer`.
    Secrecy { inner: u64, outer: u64 },
}

#[derive(Debug, Clone)]
pub(super) struct AmplificationCase {
    pub(super) epsilon: f64,
    pub(super) delta: f64,
    pub(super) sampler: Sampler,
    /// Ones among the rows of D (D′ has one more: an added one, or a zero replaced).
    pub(super) ones: u64,
    /// The inner mechanism answers `f(c)` for c ones in the subsample: `c ≥ θ` for θ ≥ 1,
    /// the parity of c for θ = 0.
    pub(super) theta: u64,
}

pub(super) fn amplification_case() -> impl Strategy<Value = AmplificationCase> {
    let sampler = prop_oneof![
        prop_oneof![log_uniform(1e-6, 1.0), Just(1.0), 0.01f64..1.0].prop_map(Sampler::Poisson),
        (1u64..=8)
            .prop_flat_map(|population| (1..=population, Just(population)))
            .prop_map(|(sample, population)| Sampler::WithoutReplacement { sample, population }),
        (1u64..=3)
            .prop_flat_map(|inner| (Just(inner), 2 * inner..=8))
            .prop_map(|(inner, outer)| Sampler::Secrecy { inner, outer }),
    ];
    (
        prop_oneof![
            log_uniform(MIN_EPSILON, 1.0),
            Just(1.0),
            log_uniform(1.0, 50.0)
        ],
        prop_oneof![2 => Just(0.0), 1 => log_uniform(1e-12, 0.5)],
        sampler,
        0u64..=7,
        0u64..=4,
    )
        .prop_map(|(epsilon, delta, sampler, ones, theta)| AmplificationCase {
            epsilon,
            delta,
            sampler,
            ones,
            theta,
        })
}

fn binomial_coefficient(n: u64, k: u64) -> f64 {
    (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
}

/// The distribution of the number of ones in the subsample, given k ones in the data.
fn ones_in_subsample(sampler: Sampler, k: u64) -> Vec<f64> {
    let binomial = |n: u64, q: f64| -> Vec<f64> {
        (0..=n)
            .map(|c| binomial_coefficient(n, c) * q.powi(c as i32) * (1.0 - q).powi((n - c) as i32))
            .collect()
    };
    match sampler {
        Sampler::Poisson(rate) => binomial(k, rate),
        Sampler::WithoutReplacement { sample, population } => (0..=k.min(sample))
            .map(|c| {
                if sample - c > population - k {
                    0.0
                } else {
                    binomial_coefficient(k, c) * binomial_coefficient(population - k, sample - c)
                        / binomial_coefficient(population, sample)
                }
            })
            .collect(),
        Sampler::Secrecy { inner, outer } => binomial(inner, k as f64 / outer as f64),
    }
}

/// The realized output distribution of "subsample, then the inner mechanism", as natural
/// logs over `[clear 0, clear 1, RR 0, RR 1]`: with probability δ the inner mechanism
/// releases `f(S)` in the clear, otherwise randomized response at ε of `f(S)` (exact odds
/// e^ε, see `RandomizedResponse`); it is (ε, δ)-DP for any neighbouring subsamples. With
/// `a = Pr[f(S) = 1]` and `ā = Pr[f(S) = 0]` (each summed on its own, so that neither is
/// a rounded `1 − x`), `Pr[RR 1] = (ā + a·e^ε)/(1 + e^ε) = (1 + a(e^ε − 1))/(1 + e^ε)` and
/// `Pr[RR 0] = (1 + ā(e^ε − 1))/(1 + e^ε)`, accurate at every ε.
fn amplified_logs(epsilon: f64, delta: f64, a: f64, abar: f64) -> [f64; 4] {
    let e = epsilon.exp_m1();
    let kept = (-delta).ln_1p() - epsilon.exp().ln_1p(); // ε ≤ 50
    [
        delta.ln() + abar.ln(),
        delta.ln() + a.ln(),
        kept + (abar * e).ln_1p(),
        kept + (a * e).ln_1p(),
    ]
}

pub(super) fn amplification(case: AmplificationCase) -> Result<bool, TestCaseError> {
    let Ok(inner) = Privacy::new(case.epsilon, case.delta) else {
        return Ok(false);
    };
    // The inner mechanism's randomized response, at the ε it realizes.
    let epsilon = RandomizedResponse::new(inner).privacy().epsilon();
    let (claimed, rows) = match case.sampler {
        Sampler::Poisson(rate) => (
            amplification_by_subsampling(inner, Subsampling::Poisson { rate }),
            u64::MAX,
        ),
        Sampler::WithoutReplacement { sample, population } => (
            amplification_by_subsampling(
                inner,
                Subsampling::WithoutReplacement {
                    sample_size: sample,
                    population_size: population,
                },
            ),
            population,
        ),
        Sampler::Secrecy { inner: n, outer } => (secrecy_of_the_sample(inner, n, outer), outer),
    };
    let Ok(claimed) = claimed else {
        return Ok(false);
    };
    // D has k ones; D′ adds a one (Poisson) or replaces a zero by a one.
    let k = case.ones.min(rows - 1);
    let f = |c: usize| {
        if case.theta == 0 {
            c % 2 == 1
        } else {
            c as u64 >= case.theta
        }
    };
    // [Pr[f(S) = 0], Pr[f(S) = 1]] with k ones in the data.
    let answer = |k: u64| -> [f64; 2] {
        let mut sums = [0.0; 2];
        for (c, p) in ones_in_subsample(case.sampler, k).into_iter().enumerate() {
            sums[usize::from(f(c))] += p;
        }
        sums.map(|x| x.min(1.0))
    };
    let ([abar, a], [bbar, b]) = (answer(k), answer(k + 1));
    let p = amplified_logs(epsilon, case.delta, a, abar);
    let q = amplified_logs(epsilon, case.delta, b, bbar);
    let (loss_epsilon, loss_delta) = (claimed.epsilon(), claimed.delta());
    if case.delta == 0.0 {
        let loss = max_divergence_log(&p[2..], &q[2..]).unwrap();
        prop_assert!(
            within(loss, loss_epsilon),
            "{case:?}: loss {loss} > reported {claimed:?} (Pr[f = 1] {a} against {b})"
        );
    } else {
        // δ(ε) at the reported ε plus the float tolerance of the pure part.
        let at = loss_epsilon * (1.0 + 1e-14) + 1e-15;
        let realized = delta_of_logs(&p, &q, at);
        prop_assert!(
            realized <= loss_delta * (1.0 + 1e-9),
            "{case:?}: δ({loss_epsilon}) = {realized:e} > reported {claimed:?} (Pr[f = 1] {a} against {b})"
        );
    }
    Ok(true)
}
