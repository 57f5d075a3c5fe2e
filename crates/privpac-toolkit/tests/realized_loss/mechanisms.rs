//! Realized-loss properties of the mechanisms and accounting: the exponential mechanism,
//! randomized response, stable selection, the parity learner's selection step and optimal
//! composition (see the harness's module documentation).

use super::*;
// ---------------------------------------------------------------------------------------
// The exponential mechanism.

#[derive(Debug, Clone)]
pub(super) struct EmCase {
    pub(super) epsilon: f64,
    pub(super) sensitivity: f64,
    pub(super) scores: Vec<f64>,
    pub(super) steps: Vec<f64>,
}

pub(super) fn em_case() -> impl Strategy<Value = EmCase> {
    prop_oneof![3 => em_general_case(), 1 => em_overflow_case()]
}

/// Two scores near ±f64::MAX/2 whose gap `q_max − q_i` is near f64::MAX, so that one side
/// of the neighbouring pair overflows it and the other need not, with Δ from 10³⁰⁰ up (a
/// shift of Δ crosses the threshold) and a moderate ε (the gap times λ stays below the
/// clamp at 700 on the side that does not overflow).
pub(super) fn em_overflow_case() -> impl Strategy<Value = EmCase> {
    (
        log_uniform(MIN_EPSILON, 20.0),
        log_uniform(1e300, 1e308),
        -2.0f64..2.0,
        -2.0f64..2.0,
        prop::collection::vec(prop_oneof![Just(-1.0), Just(1.0), -1.0f64..=1.0], 2),
    )
        .prop_map(|(epsilon, sensitivity, a, b, steps)| {
            let half = f64::MAX / 2.0;
            let scale = sensitivity.min(1e307);
            EmCase {
                epsilon,
                sensitivity,
                scores: vec![half + a * scale, -(half + b * scale)],
                steps,
            }
        })
}

pub(super) fn em_general_case() -> impl Strategy<Value = EmCase> {
    let sensitivity = prop_oneof![
        3 => (-60i32..=1000).prop_map(|e| 2f64.powi(e)),
        2 => log_uniform(1e-300, 1e307),
        1 => Just(1e306),
    ];
    (any_epsilon(), sensitivity, 2usize..=5)
        .prop_flat_map(|(epsilon, sensitivity, n)| {
            let half = f64::MAX / 2.0;
            let score = prop_oneof![
                // Relative to Δ: gaps of a few Δ.
                (-8.0f64..8.0).prop_map(move |u| u * sensitivity),
                // Anywhere in the f64 range.
                (-1.0f64..=1.0).prop_map(|u| u * f64::MAX),
                // Around ±f64::MAX/2, where the gap q_max − q_i crosses the overflow threshold.
                (any::<bool>(), -2.0f64..2.0).prop_map(move |(sign, u)| {
                    let s = half + u * sensitivity.min(1e306);
                    if sign { s } else { -s }
                }),
            ];
            (
                Just(epsilon),
                Just(sensitivity),
                prop::collection::vec(score, n),
                prop::collection::vec(
                    prop_oneof![Just(-1.0), Just(1.0), -1.0f64..=1.0, Just(0.0)],
                    n,
                ),
            )
        })
        .prop_map(|(epsilon, sensitivity, scores, steps)| EmCase {
            epsilon,
            sensitivity,
            scores,
            steps,
        })
}

/// A neighbour of `scores`: each moved by `step·Δ`, kept only where finite and provably
/// within Δ (the computed difference, with a relative margin for its rounding).
pub(super) fn neighbour_scores(scores: &[f64], steps: &[f64], sensitivity: f64) -> Vec<f64> {
    scores
        .iter()
        .zip(steps)
        .map(|(&s, &u)| {
            let shift = u * sensitivity; // |shift| ≤ Δ: |u| ≤ 1 and rounding is monotone
            let moved = s + shift;
            // TwoSum: moved + error = s + shift exactly, so moved − s = shift − error,
            // within Δ when the rounding moved less than the shift, or had room to spare.
            let virtual_shift = moved - s;
            let error = (s - (moved - virtual_shift)) + (shift - virtual_shift);
            let within = error == 0.0
                || (error.signum() == shift.signum() && error.abs() <= shift.abs())
                || sensitivity - shift.abs() >= 2.0 * error.abs();
            if moved.is_finite() && virtual_shift.is_finite() && within {
                moved
            } else {
                s
            }
        })
        .collect()
}

/// The internal ε the sampler realizes is at most `ε − 4η` (the mechanism's proof runs the
/// ideal mechanism there and pays its float error η out of the rest). For Δ a power of two
/// `2Δ·rate()` is exact; for other Δ the rounding of the rate is part of η.
pub(super) fn check_rate(
    mechanism: &ExponentialMechanism,
    epsilon: f64,
) -> Result<(), TestCaseError> {
    let sensitivity = mechanism.sensitivity();
    let twice = 2.0 * sensitivity;
    if twice.is_finite() && twice.to_bits() & ((1u64 << 52) - 1) == 0 {
        let internal = twice * mechanism.rate(); // exact: a power of two times a float
        prop_assert!(internal.is_finite());
        // ε − internal is exact when internal ≥ ε/2 (Sterbenz); below that it is ≥ ε/2.
        prop_assert!(
            internal <= epsilon
                && (internal < epsilon / 2.0 || epsilon - internal >= 4.0 * FLOAT_ERROR_BUDGET),
            "ε = {epsilon}, Δ = {sensitivity}: the sampler runs at 2Δλ = {internal}, above ε − 4η"
        );
    }
    Ok(())
}

/// The mechanism at (ε, Δ) if it accepts them, with its reported ε, after checking the rate
/// it samples at ([`check_rate`]).
fn rated_mechanism(
    epsilon: f64,
    sensitivity: f64,
) -> Result<Option<(ExponentialMechanism, f64)>, TestCaseError> {
    let Ok(privacy) = Privacy::pure(epsilon) else {
        return Ok(None);
    };
    let Ok(mechanism) = ExponentialMechanism::new(privacy, sensitivity) else {
        return Ok(None);
    };
    let claimed = mechanism.privacy().epsilon();
    check_rate(&mechanism, claimed)?;
    Ok(Some((mechanism, claimed)))
}

pub(super) fn em_real(case: EmCase) -> Result<bool, TestCaseError> {
    let Some((mechanism, claimed)) = rated_mechanism(case.epsilon, case.sensitivity)? else {
        return Ok(false);
    };
    let other = neighbour_scores(&case.scores, &case.steps, case.sensitivity);
    let p = mechanism.log_probabilities(&case.scores).unwrap();
    let q = mechanism.log_probabilities(&other).unwrap();
    let loss = max_divergence_log(&p, &q).unwrap();
    prop_assert!(
        loss <= claimed,
        "{case:?}: loss {loss} > reported {claimed} (neighbour {other:?})"
    );
    Ok(true)
}

#[derive(Debug, Clone)]
pub(super) struct EmIntCase {
    pub(super) epsilon: f64,
    pub(super) sensitivity: u64,
    pub(super) scores: Vec<i64>,
    pub(super) steps: Vec<f64>,
}

pub(super) fn em_int_case() -> impl Strategy<Value = EmIntCase> {
    let sensitivity = prop_oneof![
        1u64..=4,
        (0u32..=62).prop_map(|e| 1u64 << e),
        (1u64..u64::MAX).prop_map(|r| (r >> (r % 64)).clamp(1, 1 << 62)),
    ];
    let score = prop_oneof![
        -100i64..=100,
        any::<i64>(),
        (0i64..=1000).prop_map(|d| i64::MAX - d),
        (0i64..=1000).prop_map(|d| i64::MIN + d),
    ];
    (
        any_epsilon(),
        sensitivity,
        prop::collection::vec(score, 2..=5),
        prop::collection::vec(
            prop_oneof![Just(-1.0), Just(1.0), -1.0f64..=1.0, Just(0.0)],
            5,
        ),
    )
        .prop_map(|(epsilon, sensitivity, scores, steps)| EmIntCase {
            epsilon,
            sensitivity,
            scores,
            steps,
        })
}

pub(super) fn em_integer(case: EmIntCase) -> Result<bool, TestCaseError> {
    let Some((mechanism, claimed)) = rated_mechanism(case.epsilon, case.sensitivity as f64)? else {
        return Ok(false);
    };
    let other: Vec<i64> = case
        .scores
        .iter()
        .zip(&case.steps)
        .map(|(&s, &u)| {
            let d = (u * case.sensitivity as f64) as i128;
            let d = d.clamp(-(case.sensitivity as i128), case.sensitivity as i128);
            i64::try_from(s as i128 + d).unwrap_or(s)
        })
        .collect();
    let p = mechanism.log_probabilities_integer(&case.scores).unwrap();
    let q = mechanism.log_probabilities_integer(&other).unwrap();
    let loss = max_divergence_log(&p, &q).unwrap();
    prop_assert!(
        loss <= claimed,
        "{case:?}: loss {loss} > reported {claimed} (neighbour {other:?})"
    );
    Ok(true)
}

// ---------------------------------------------------------------------------------------
// The exponential mechanism over levels with 256-bit counts (MWEM's interval-pair selection).

#[derive(Debug, Clone)]
pub(super) struct HugeLevelsCase {
    pub(super) epsilon: f64,
    pub(super) sensitivity: u64,
    pub(super) base: i64,
    /// Per block of candidates: its score's offset from `base` in units of Δ, its count
    /// `(high, low)` (below 2^253, so that five blocks stay below 2^256), and the fraction
    /// of Δ its score moves by in the neighbour.
    pub(super) blocks: Vec<(i64, u128, u128, f64)>,
}

/// ε up to 5 and offsets within ±40Δ keep every level's normalized log-probability above
/// −(5/2)·82 − ln(2^253) − ln 5 > −400, so no probability underflows and the loss is
/// measured, not lost to a zero on one side.
pub(super) fn huge_levels_case() -> impl Strategy<Value = HugeLevelsCase> {
    let sensitivity = prop_oneof![1u64..=4, (0u32..=50).prop_map(|e| 1u64 << e)];
    let high = prop_oneof![
        Just(0u128),
        1u128..=1000,
        (0u32..125).prop_map(|e| 1u128 << e),
        any::<u128>().prop_map(|h| h >> 3),
    ];
    let low = prop_oneof![1u128..=1000, any::<u128>()];
    let step = prop_oneof![Just(-1.0), Just(1.0), -1.0f64..=1.0, Just(0.0)];
    (
        log_uniform(MIN_EPSILON, 5.0),
        sensitivity,
        -(1i64 << 62)..=(1i64 << 62),
        prop::collection::vec((-40i64..=40, high, low, step), 1..=5),
    )
        .prop_map(|(epsilon, sensitivity, base, blocks)| HugeLevelsCase {
            epsilon,
            sensitivity,
            base,
            blocks: blocks
                .into_iter()
                .map(|(o, h, l, u)| (o, h, if h == 0 { l.max(1) } else { l }, u))
                .collect(),
        })
}

/// `ExponentialMechanism::select_huge_levels` (the path of MWEM on `INTERVAL ⊕ INTERVAL`
/// beyond 2^32 points): pure ε over blocks of up to 2^253 candidates each, every candidate
/// of a block moved by the same amount of at most Δ in the neighbour (a block can stand for
/// one candidate, so this is the general case at block granularity). A candidate's
/// probability is its level's (`huge_level_probabilities`, the law the sampler's seeded χ²
/// tests check it draws) over the level's count; blocks with equal scores are separate
/// levels, which the mechanism accepts.
pub(super) fn huge_levels(case: HugeLevelsCase) -> Result<bool, TestCaseError> {
    let Some((mechanism, claimed)) = rated_mechanism(case.epsilon, case.sensitivity as f64)? else {
        return Ok(false);
    };
    let delta = i128::from(case.sensitivity);
    let levels = |moved: bool| -> Vec<HugeScoreLevel> {
        case.blocks
            .iter()
            .map(|&(offset, count_high, count_low, step)| {
                let mut score = i128::from(case.base) + i128::from(offset) * delta;
                if moved {
                    score += ((step * case.sensitivity as f64) as i128).clamp(-delta, delta);
                }
                HugeScoreLevel {
                    score: i64::try_from(score).unwrap(),
                    count_high,
                    count_low,
                }
            })
            .collect()
    };
    let per_candidate = |levels: &[HugeScoreLevel]| -> Vec<f64> {
        let probabilities = mechanism.huge_level_probabilities(levels).unwrap();
        probabilities
            .iter()
            .zip(levels)
            .map(|(p, l)| p.ln() - (l.count_high as f64 * 2f64.powi(128) + l.count_low as f64).ln())
            .collect()
    };
    let (p, q) = (per_candidate(&levels(false)), per_candidate(&levels(true)));
    prop_assert!(
        p.iter().chain(&q).all(|l| l.is_finite()),
        "{case:?}: a probability underflowed ({p:?}, {q:?})"
    );
    let loss = p
        .iter()
        .zip(&q)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0f64, f64::max);
    prop_assert!(
        loss <= claimed,
        "{case:?}: loss {loss} > reported {claimed}"
    );
    Ok(true)
}

// ---------------------------------------------------------------------------------------
// Randomized response, stable selection, the parity learner's selection.

pub(super) fn randomized_response(epsilon: f64) -> Result<bool, TestCaseError> {
    let Ok(privacy) = Privacy::pure(epsilon) else {
        return Ok(false);
    };
    let rr = RandomizedResponse::new(privacy);
    let claimed = rr.privacy().epsilon();
    let loss = max_divergence(
        &rr.output_distribution(false),
        &rr.output_distribution(true),
    )
    .unwrap();
    // The computed probabilities are accurate to a few ulps of 1/2 (the sampler's flip is
    // exact: Pr = e^-ε/(1 + e^-ε)), so the loss is measured to ~10⁻¹⁵ absolute.
    prop_assert!(
        loss <= claimed * (1.0 + 1e-14) + 1e-15,
        "ε = {epsilon}: loss {loss} > reported {claimed}"
    );
    Ok(true)
}

/// δ(ε) of two output distributions given as natural-log probabilities:
/// `max over both orders of Σ_i p_i·(1 − e^{ε − (ln p_i − ln q_i)})` over the outputs with
/// loss above ε, each term from logs (relative accuracy, so δ down to 10⁻³⁰⁰ and losses
/// beyond e^709 are measured), and `hockey_stick_symmetric` of the audit as a cross-check
/// where the probabilities and e^ε are representable.
pub(super) fn delta_of_logs(lp: &[f64], lq: &[f64], epsilon: f64) -> f64 {
    let one_way = |a: &[f64], b: &[f64]| -> f64 {
        a.iter()
            .zip(b)
            .filter(|&(&x, &y)| x - y > epsilon)
            .map(|(&x, &y)| x.exp() * -(epsilon - (x - y)).exp_m1())
            .sum()
    };
    let delta = one_way(lp, lq).max(one_way(lq, lp));
    if epsilon <= 700.0
        && lp
            .iter()
            .chain(lq)
            .all(|&l| l == f64::NEG_INFINITY || l > -700.0)
    {
        let p: Vec<f64> = lp.iter().map(|l| l.exp()).collect();
        let q: Vec<f64> = lq.iter().map(|l| l.exp()).collect();
        if let Ok(audit) = hockey_stick_symmetric(&p, &q, epsilon) {
            // The audit sums rounded probabilities: absolute accuracy ~10⁻¹⁵.
            return delta.max(audit - 1e-14);
        }
    }
    delta
}

/// `ln Pr[Z ≥ k]` for the selection's discrete Laplace noise (`Pr[Z = z] ∝ r^|z|`, `r =
/// e^{−1/b}` with b its exact scale t/s): `k ln r − ln(1 + r)` for k ≥ 1, and `ln(1 − Pr[Z ≥
/// 1 − k])` by symmetry below, in log space so that the tails of a large ε (r underflows
/// from ε ≈ 1500 on) keep their values.
pub(super) fn ln_survival(selection: &StableSelection, k: i128) -> f64 {
    let (t, s) = selection.noise().scale_ratio();
    let rate = s as f64 / t as f64;
    let ln1p_r = (-rate).exp().ln_1p();
    if k >= 1 {
        -(k as f64) * rate - ln1p_r
    } else {
        (-(-((1 - k) as f64) * rate - ln1p_r).exp()).ln_1p()
    }
}

/// The log-probabilities `StableSelection::select` realizes for a score gap, `[selected,
/// ⊥]`: it releases the best candidate when `gap + Z ≥ T` for the exact draw Z (an `i128`),
/// so `Pr[selected] = Pr[Z ≥ T − gap]` and `Pr[⊥] = Pr[Z ≥ 1 − T + gap]` (Z is symmetric),
/// each on its own: the public `output_distribution` gives ⊥ as `1 − Pr[selected]`, which
/// rounds a tiny Pr[⊥] to 0, and underflows both tails of a large ε.
pub(super) fn realized_selection(selection: &StableSelection, gap: i128) -> [f64; 2] {
    let needed = i128::from(selection.threshold()) - gap;
    [
        ln_survival(selection, needed),
        ln_survival(selection, 1 - needed),
    ]
}

/// The stated probability of release against the realized one, where the float value is
/// meaningful (not underflowed, not within 10⁻⁹ of 1), for a gap `gap`. The statement's
/// `r.powf(k)` carries the rounding of r times k (relative 2⁻⁵³·|k|).
pub(super) fn check_stated(
    selection: &StableSelection,
    gap: i128,
    stated: f64,
    realized_log: f64,
) -> Result<(), TestCaseError> {
    let realized = realized_log.exp();
    let k = (i128::from(selection.threshold()) - gap) as f64;
    if realized_log > -600.0 && realized < 1.0 - 1e-9 {
        prop_assert!(
            (stated - realized).abs() <= (1e-9 + 4.0 * k.abs() * f64::EPSILON) * realized,
            "output_distribution states {stated}, the sampler realizes {realized}"
        );
    }
    Ok(())
}

#[derive(Debug, Clone)]
pub(super) struct SelectionCase {
    pub(super) epsilon: f64,
    pub(super) delta: f64,
    pub(super) sensitivity: u64,
    pub(super) scores: Vec<i64>,
    pub(super) steps: Vec<i64>,
}

pub(super) fn any_delta() -> impl Strategy<Value = f64> {
    prop_oneof![
        log_uniform(1e-300, 0.5),
        log_uniform(1e-12, 0.5),
        Just(f64::from_bits(1)),
        Just(1e-310),
    ]
}

pub(super) fn selection_case() -> impl Strategy<Value = SelectionCase> {
    let sensitivity = prop_oneof![1u64..=3, (0u32..=38).prop_map(|e| 1u64 << e)];
    (any_epsilon(), any_delta(), sensitivity)
        .prop_flat_map(|(epsilon, delta, sensitivity)| {
            let s = sensitivity as i64;
            let score = prop_oneof![
                -200i64..=200,
                (-20i64..=20).prop_map(move |u| u.saturating_mul(s)),
                any::<i64>(),
                (0i64..=3).prop_map(|d| i64::MAX - d),
                (0i64..=3).prop_map(|d| i64::MIN + d),
            ];
            (
                Just(epsilon),
                Just(delta),
                Just(sensitivity),
                prop::collection::vec(score, 2..=4),
                prop::collection::vec(prop_oneof![Just(-s), Just(s), -s..=s], 4),
            )
        })
        .prop_map(
            |(epsilon, delta, sensitivity, scores, steps)| SelectionCase {
                epsilon,
                delta,
                sensitivity,
                scores,
                steps,
            },
        )
}

pub(super) fn stable_selection(case: SelectionCase) -> Result<bool, TestCaseError> {
    let Ok(privacy) = Privacy::new(case.epsilon, case.delta) else {
        return Ok(false);
    };
    let Ok(selection) = StableSelection::new(privacy, case.sensitivity) else {
        return Ok(false);
    };
    let claimed = selection.privacy();
    let other: Vec<i64> = case
        .scores
        .iter()
        .zip(&case.steps)
        .map(|(&s, &d)| s.checked_add(d).unwrap_or(s))
        .collect();
    let realized = |scores: &[i64]| -> Result<Vec<f64>, TestCaseError> {
        let (best, gap) = StableSelection::best_and_gap(scores).unwrap();
        let [selected, bottom] = realized_selection(&selection, gap);
        check_stated(
            &selection,
            gap,
            selection.output_distribution(scores).unwrap()[best],
            selected,
        )?;
        let mut distribution = vec![f64::NEG_INFINITY; scores.len() + 1];
        distribution[best] = selected;
        distribution[scores.len()] = bottom;
        Ok(distribution)
    };
    let (p, q) = (realized(&case.scores)?, realized(&other)?);
    let delta = delta_of_logs(&p, &q, claimed.epsilon());
    prop_assert!(
        delta <= claimed.delta() * (1.0 + 1e-9),
        "{case:?}: δ({}) = {delta:e} > reported {} (log-probabilities {p:?} vs {q:?})",
        claimed.epsilon(),
        claimed.delta()
    );
    Ok(true)
}

#[derive(Debug, Clone)]
pub(super) struct ParityCase {
    pub(super) epsilon: f64,
    pub(super) delta: f64,
    pub(super) columns: usize,
    pub(super) votes: usize,
}

pub(super) fn parity_selection(case: ParityCase) -> Result<bool, TestCaseError> {
    let Ok(privacy) = Privacy::new(case.epsilon, case.delta) else {
        return Ok(false);
    };
    let Ok(selection) = StableSelection::new(privacy, 1) else {
        return Ok(false);
    };
    let claimed = selection.privacy();
    // Votes: ⊥ or one of three vectors of `columns` parity ids.
    let alphabet: Vec<Vote> = (0..4u64)
        .map(|i| (i > 0).then(|| vec![i; case.columns]))
        .collect();
    let distribution = |encoded: &[u64]| -> BTreeMap<Option<Vec<u64>>, f64> {
        let votes: Vec<Vote> = encoded
            .iter()
            .map(|&i| alphabet[i as usize].clone())
            .collect();
        let (best, released) =
            most_frequent_distribution(&selection, &votes, case.columns).unwrap();
        // The gap between the two most frequent vectors (⊥ votes do not count), for the
        // realized probabilities (see `realized_selection`).
        let mut counts = [0i128; 4];
        for &i in encoded.iter().filter(|&&i| i > 0) {
            counts[i as usize] += 1;
        }
        counts.sort_unstable();
        let gap = counts[3] - counts[2];
        let [selected, bottom] = realized_selection(&selection, gap);
        check_stated(&selection, gap, released, selected).unwrap();
        BTreeMap::from([(Some(best), selected), (None, bottom)])
    };
    let mut worst = 0.0f64;
    let mut pair = String::new();
    for (a, b) in neighbouring_datasets(4, case.votes).unwrap() {
        let (da, db) = (distribution(&a), distribution(&b));
        let mut keys: Vec<&Option<Vec<u64>>> = da.keys().chain(db.keys()).collect();
        keys.sort();
        keys.dedup();
        let log = |d: &BTreeMap<Option<Vec<u64>>, f64>| -> Vec<f64> {
            keys.iter()
                .map(|k| d.get(*k).copied().unwrap_or(f64::NEG_INFINITY))
                .collect()
        };
        let delta = delta_of_logs(&log(&da), &log(&db), claimed.epsilon());
        if delta > worst {
            worst = delta;
            pair = format!("{a:?} vs {b:?}: {da:?} vs {db:?}");
        }
    }
    prop_assert!(
        worst <= claimed.delta() * (1.0 + 1e-9),
        "{case:?}: δ({}) = {worst:e} > reported {} on {pair}",
        claimed.epsilon(),
        claimed.delta()
    );
    Ok(true)
}

// ---------------------------------------------------------------------------------------
// Optimal composition against k randomized responses.

/// `ln H_{e^{ε'}}(RR_ε^k ‖ RR_ε^k mirrored)`: with j the number of truthful answers,
/// `p_j = C(k, j) a^j (1 − a)^{k−j}`, `a = e^ε/(1 + e^ε)`, and loss `L_j = ε(2j − k)`,
/// `H = Σ_{L_j > ε'} p_j (1 − e^{ε' − L_j})`, summed in log space (−∞ for H = 0). By
/// Kairouz–Oh–Viswanath this is the exact δ(ε') of k-fold composition of ε-DP steps.
pub(super) fn ln_hockey_stick_rr(epsilon: f64, k: u64, epsilon_prime: f64) -> f64 {
    let ln_a = -(-epsilon).exp().ln_1p();
    let ln_b = -epsilon + ln_a;
    let mut ln_binomial = 0.0f64; // ln C(k, j), built from j = k down
    let mut terms = Vec::new();
    for j in (0..=k).rev() {
        if j < k {
            // C(k, j) = C(k, j + 1)·(j + 1)/(k − j)
            ln_binomial += ((j + 1) as f64 / (k - j) as f64).ln();
        }
        let loss = epsilon * (2.0 * j as f64 - k as f64);
        if loss <= epsilon_prime {
            break;
        }
        let ln_p = ln_binomial + j as f64 * ln_a + (k - j) as f64 * ln_b;
        terms.push(ln_p + (-(epsilon_prime - loss).exp_m1()).ln());
    }
    let Some(top) = terms.iter().copied().reduce(f64::max) else {
        return f64::NEG_INFINITY;
    };
    if top == f64::NEG_INFINITY {
        return top;
    }
    top + terms.iter().map(|t| (t - top).exp()).sum::<f64>().ln()
}

/// Whether `at_least ≥ k·epsilon` exactly (the product's rounding error by fma).
pub(super) fn at_least_k_times(at_least: f64, k: u64, epsilon: f64) -> bool {
    let kf = k as f64; // exact: k ≤ 2^53
    let product = kf * epsilon;
    let error = kf.mul_add(epsilon, -product);
    at_least > product || (at_least == product && error <= 0.0)
}

/// The reported (ε', δ) of k ε-steps against the exact δ(ε') of k randomized responses.
pub(super) fn check_composed(
    what: &str,
    epsilon: f64,
    k: u64,
    delta_prime: f64,
    reported: Privacy,
) -> Result<(), TestCaseError> {
    let ctx =
        || format!("{what}: ε = {epsilon}, k = {k}, δ' = {delta_prime:e}: reported {reported:?}");
    if reported.delta() == 0.0 {
        prop_assert!(
            at_least_k_times(reported.epsilon(), k, epsilon),
            "{}: ε' below kε at δ = 0",
            ctx()
        );
        return Ok(());
    }
    let ln_h = ln_hockey_stick_rr(epsilon, k, reported.epsilon());
    // Relative 10⁻⁶ on δ: the reference sums k terms of ln C(k, j) (error ≈ 10⁻⁹ at k = 10⁴).
    prop_assert!(
        ln_h <= reported.delta().ln() + 1e-6,
        "{}: exact δ(ε') = e^{ln_h} = {:e}",
        ctx(),
        ln_h.exp()
    );
    if k <= 300 && reported.delta() >= 1e-250 && reported.epsilon() <= 700.0 {
        let ln_a = -(-epsilon).exp().ln_1p();
        let ln_b = -epsilon + ln_a;
        let mut ln_binomial = 0.0f64;
        let mut p = vec![0.0; k as usize + 1];
        for j in 0..=k {
            if j > 0 {
                ln_binomial += ((k - j + 1) as f64 / j as f64).ln();
            }
            p[j as usize] = (ln_binomial + j as f64 * ln_a + (k - j) as f64 * ln_b).exp();
        }
        let q: Vec<f64> = p.iter().rev().copied().collect();
        if let Ok(audit) = hockey_stick_symmetric(&p, &q, reported.epsilon()) {
            prop_assert!(
                audit <= reported.delta() * (1.0 + 1e-6) + 1e-13,
                "{}: hockey_stick_symmetric gives {audit:e}",
                ctx()
            );
        }
    }
    Ok(())
}

#[derive(Debug, Clone)]
pub(super) struct CompositionCase {
    pub(super) epsilon: f64,
    pub(super) k: u64,
    pub(super) delta_prime: f64,
}

pub(super) fn composition_case() -> impl Strategy<Value = CompositionCase> {
    let epsilon = prop_oneof![
        4 => log_uniform(1e-4, 2.0),
        1 => log_uniform(MIN_EPSILON, 1e-4),
        1 => log_uniform(2.0, 50.0),
    ];
    let k = prop_oneof![1u64..=20, log_uniform(20.0, 4000.0).prop_map(|k| k as u64)];
    let delta_prime = prop_oneof![
        2 => Just(0.0),
        1 => Just(f64::from_bits(1)),
        1 => Just(1e-320),
        1 => Just(1e-305),
        1 => Just(1e-300),
        3 => log_uniform(1e-300, 0.5),
        2 => log_uniform(1e-12, 0.5),
    ];
    (epsilon, k, delta_prime).prop_map(|(epsilon, k, delta_prime)| CompositionCase {
        epsilon,
        k,
        delta_prime,
    })
}

pub(super) fn composition(case: CompositionCase) -> Result<bool, TestCaseError> {
    let CompositionCase {
        epsilon,
        k,
        delta_prime,
    } = case;
    let each = Privacy::pure(epsilon).unwrap();
    let Ok(reported) = optimal_composition(each, k, delta_prime) else {
        return Ok(false);
    };
    check_composed("optimal_composition", epsilon, k, delta_prime, reported)?;
    // The accountant's optimal rule on the same steps.
    if k <= 2000 {
        let mut accountant = Accountant::new();
        for _ in 0..k {
            accountant.record("step", each);
        }
        if let Ok(total) = accountant.total(CompositionRule::Optimal { delta_prime }) {
            check_composed("Accountant::total", epsilon, k, delta_prime, total)?;
        }
    }
    // The inverse: steps of the returned ε₀ compose to at most the target.
    let target = reported.epsilon().max(epsilon);
    if let Ok(step) = optimal_step_epsilon(target, k, 0.0, delta_prime)
        && let Ok(step_privacy) = Privacy::pure(step)
    {
        let composed = Privacy::new(target, delta_prime).unwrap();
        check_composed(
            "optimal_step_epsilon",
            step_privacy.epsilon(),
            k,
            delta_prime,
            composed,
        )?;
    }
    Ok(true)
}
