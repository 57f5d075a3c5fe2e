//! Tests of the exact audits: closed-form cases, hand-computed examples, every
//! error variant, and a no-panic property test.

use proptest::prelude::*;

use crate::error::Error;
use crate::exact::{
    AuditReport, PureAuditReport, check_claim, check_pure_claim, check_pure_claim_log, delta_curve,
    epsilon_for_delta, hockey_stick, hockey_stick_symmetric, max_divergence, max_divergence_log,
};

/// Output distributions of randomized response on inputs 1 and 0: report the
/// true bit with probability `e^ε / (1 + e^ε)`, i.e. flip it with probability
/// `1 / (1 + e^ε)`.
fn randomized_response(epsilon: f64) -> ([f64; 2], [f64; 2]) {
    let flip = 1.0 / (1.0 + epsilon.exp());
    ([1.0 - flip, flip], [flip, 1.0 - flip])
}

#[track_caller]
fn assert_close(actual: f64, expected: f64, tolerance: f64) {
    assert!(
        actual == expected || (actual - expected).abs() <= tolerance,
        "{actual} is not within {tolerance} of {expected}"
    );
}

// ---------------------------------------------------------------------------
// max_divergence

#[track_caller]
fn check_max_divergence(p: &[f64], q: &[f64], expected: f64) {
    let actual = max_divergence(p, q).unwrap();
    assert_close(actual, expected, 1e-13 * expected.max(1.0));
    // Symmetric by definition.
    assert_eq!(max_divergence(q, p).unwrap(), actual);
    // The log-space version agrees wherever nothing underflows.
    let log = |v: &[f64]| v.iter().map(|x| x.ln()).collect::<Vec<_>>();
    assert_close(
        max_divergence_log(&log(p), &log(q)).unwrap(),
        expected,
        1e-12 * expected.max(1.0),
    );
}

#[test]
fn max_divergence_of_randomized_response_is_epsilon() {
    for epsilon in [1e-6, 0.01, 0.1, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0] {
        let (p, q) = randomized_response(epsilon);
        check_max_divergence(&p, &q, epsilon);
    }
}

#[test]
fn max_divergence_of_identical_distributions_is_zero() {
    check_max_divergence(&[0.25, 0.25, 0.5], &[0.25, 0.25, 0.5], 0.0);
}

#[test]
fn max_divergence_of_disjoint_supports_is_infinite() {
    check_max_divergence(&[1.0, 0.0], &[0.0, 1.0], f64::INFINITY);
}

#[test]
fn max_divergence_of_partially_shared_support_is_infinite() {
    check_max_divergence(&[0.5, 0.5, 0.0], &[0.5, 0.25, 0.25], f64::INFINITY);
}

#[test]
fn max_divergence_ignores_outputs_impossible_under_both() {
    check_max_divergence(&[0.5, 0.0, 0.5], &[0.25, 0.0, 0.75], 2.0_f64.ln());
}

#[test]
fn max_divergence_by_hand() {
    // Losses ln(0.5/0.2), 0, ln(0.2/0.5): the worst is ln 2.5.
    check_max_divergence(&[0.5, 0.3, 0.2], &[0.2, 0.3, 0.5], 2.5_f64.ln());
}

#[test]
fn max_divergence_with_tiny_probabilities() {
    // The ratio e^-700 / e^-702 is computed accurately although its terms are
    // close to the smallest normal f64.
    let p = [1.0 - (-700.0_f64).exp(), (-700.0_f64).exp()];
    let q = [1.0 - (-702.0_f64).exp(), (-702.0_f64).exp()];
    check_max_divergence(&p, &q, 2.0);
}

#[track_caller]
fn check_max_divergence_log(log_p: &[f64], log_q: &[f64], expected: f64) {
    assert_close(
        max_divergence_log(log_p, log_q).unwrap(),
        expected,
        1e-12 * expected.max(1.0),
    );
}

#[test]
fn max_divergence_log_below_f64_range() {
    // e^-800 underflows to zero: the linear-space audit would see [1, 0] twice
    // and report 0.
    check_max_divergence_log(&[0.0, -800.0], &[0.0, -801.0], 1.0);
    assert_eq!(
        max_divergence(&[1.0, (-800.0_f64).exp()], &[1.0, (-801.0_f64).exp()]),
        Ok(0.0)
    );
}

#[test]
fn max_divergence_log_with_zero_probabilities() {
    let ninf = f64::NEG_INFINITY;
    check_max_divergence_log(&[0.0, ninf], &[0.0, ninf], 0.0);
    check_max_divergence_log(&[0.0, ninf], &[ninf, 0.0], f64::INFINITY);
}

#[test]
fn max_divergence_log_of_randomized_response() {
    let epsilon = 3.0_f64;
    // ln(e^ε / (1 + e^ε)) = −ln(1 + e^−ε), ln(1 / (1 + e^ε)) = −ε − ln(1 + e^−ε).
    let keep = -(-epsilon).exp().ln_1p();
    let flip = keep - epsilon;
    check_max_divergence_log(&[keep, flip], &[flip, keep], epsilon);
}

// ---------------------------------------------------------------------------
// hockey_stick, hockey_stick_symmetric, delta_curve

#[track_caller]
fn check_hockey_stick(p: &[f64], q: &[f64], epsilon: f64, expected_pq: f64, expected_qp: f64) {
    assert_close(hockey_stick(p, q, epsilon).unwrap(), expected_pq, 1e-15);
    assert_close(hockey_stick(q, p, epsilon).unwrap(), expected_qp, 1e-15);
    assert_close(
        hockey_stick_symmetric(p, q, epsilon).unwrap(),
        expected_pq.max(expected_qp),
        1e-15,
    );
}

#[test]
fn hockey_stick_at_zero_is_total_variation() {
    check_hockey_stick(&[0.5, 0.3, 0.2], &[0.2, 0.3, 0.5], 0.0, 0.3, 0.3);
}

#[test]
fn hockey_stick_by_hand_at_ln_2() {
    // p‖q: max(0, .5 − .4) + max(0, .3 − .6) + max(0, .2 − 1) = 0.1.
    // q‖p: max(0, .2 − 1) + max(0, .3 − .6) + max(0, .5 − .4) = 0.1.
    check_hockey_stick(&[0.5, 0.3, 0.2], &[0.2, 0.3, 0.5], 2.0_f64.ln(), 0.1, 0.1);
}

#[test]
fn hockey_stick_by_hand_asymmetric() {
    // At e^ε = 1.5, p‖q: (0.6 − 0.45) + 0 + 0 = 0.15, since 0.3 < 0.45 and
    // 0.1 < 0.6; q‖p: 0 + 0 + (0.4 − 0.15) = 0.25, since 0.3 < 0.9 and
    // 0.3 < 0.45.
    check_hockey_stick(&[0.6, 0.3, 0.1], &[0.3, 0.3, 0.4], 1.5_f64.ln(), 0.15, 0.25);
}

#[test]
fn hockey_stick_of_identical_distributions_is_zero() {
    check_hockey_stick(&[0.1, 0.9], &[0.1, 0.9], 0.0, 0.0, 0.0);
}

#[test]
fn hockey_stick_of_disjoint_supports_is_one() {
    for epsilon in [0.0, 1.0, 100.0, 1e300, f64::INFINITY] {
        check_hockey_stick(&[1.0, 0.0], &[0.0, 1.0], epsilon, 1.0, 1.0);
    }
}

#[test]
fn hockey_stick_at_infinite_epsilon_is_mass_outside_support() {
    check_hockey_stick(
        &[0.5, 0.25, 0.25],
        &[0.5, 0.5, 0.0],
        f64::INFINITY,
        0.25,
        0.0,
    );
}

#[test]
fn hockey_stick_of_randomized_response_below_its_epsilon() {
    // At ε' < ε only the "truth" output exceeds its bound:
    // δ(ε') = (e^ε − e^ε') / (1 + e^ε).
    let epsilon = 1.0_f64;
    let (p, q) = randomized_response(epsilon);
    for smaller in [0.0_f64, 0.25, 0.5, 0.9] {
        let expected = (epsilon.exp() - smaller.exp()) / (1.0 + epsilon.exp());
        check_hockey_stick(&p, &q, smaller, expected, expected);
    }
    // At ε itself the divergence is zero up to rounding (an ulp of e^ε q_0).
    assert!(hockey_stick_symmetric(&p, &q, epsilon).unwrap() < 1e-15);
}

#[test]
fn delta_curve_of_hand_example() {
    // Symmetric curve: 0.3 at 0, 0.5 − 0.2 e^ε above ln 1.5, zero from ln 2.5.
    let curve = delta_curve(
        &[0.5, 0.3, 0.2],
        &[0.2, 0.3, 0.5],
        &[0.0, 2.0_f64.ln(), 3.0],
    )
    .unwrap();
    assert_eq!(curve.len(), 3);
    assert_close(curve[0], 0.3, 1e-15);
    assert_close(curve[1], 0.1, 1e-15);
    assert_eq!(curve[2], 0.0);
}

#[test]
fn delta_curve_is_non_increasing() {
    let p = [0.1, 0.2, 0.3, 0.4];
    let q = [0.4, 0.3, 0.2, 0.1];
    let epsilons: Vec<f64> = (0..100).map(|i| f64::from(i) * 0.02).collect();
    let curve = delta_curve(&p, &q, &epsilons).unwrap();
    assert!(curve.windows(2).all(|w| w[1] <= w[0]), "{curve:?}");
    assert_eq!(curve.last(), Some(&0.0));
}

#[test]
fn delta_curve_of_no_epsilons_is_empty() {
    assert_eq!(delta_curve(&[1.0], &[1.0], &[]), Ok(vec![]));
}

// ---------------------------------------------------------------------------
// epsilon_for_delta

#[track_caller]
fn check_epsilon_for_delta(p: &[f64], q: &[f64], delta: f64, expected: f64) {
    let actual = epsilon_for_delta(p, q, delta).unwrap();
    assert_close(actual, expected, 1e-12);
    if actual.is_finite() {
        // Conservative: the curve at the answer is within rounding of δ.
        assert!(hockey_stick_symmetric(p, q, actual).unwrap() <= delta + 1e-15);
    }
}

#[test]
fn epsilon_for_delta_by_hand() {
    let (p, q) = ([0.5, 0.3, 0.2], [0.2, 0.3, 0.5]);
    check_epsilon_for_delta(&p, &q, 0.1, 2.0_f64.ln());
    check_epsilon_for_delta(&p, &q, 0.0, 2.5_f64.ln());
    check_epsilon_for_delta(&p, &q, 0.3, 0.0);
    check_epsilon_for_delta(&p, &q, 1.0, 0.0);
}

#[test]
fn epsilon_for_zero_delta_is_max_divergence() {
    for epsilon in [0.1, 1.0, 4.0] {
        let (p, q) = randomized_response(epsilon);
        check_epsilon_for_delta(&p, &q, 0.0, epsilon);
    }
}

#[test]
fn epsilon_for_delta_with_mass_outside_support() {
    // 0.1 of p's mass is impossible under q: δ < 0.1 needs ε = ∞.
    let (p, q) = ([0.6, 0.3, 0.1], [0.3, 0.7, 0.0]);
    check_epsilon_for_delta(&p, &q, 0.05, f64::INFINITY);
    // p‖q is 0.1 + max(0, 0.6 − 0.3 e^ε) and q‖p is max(0, 0.7 − 0.3 e^ε):
    // both reach 0.1 at e^ε = 2.
    check_epsilon_for_delta(&p, &q, 0.1, 2.0_f64.ln());
}

// ---------------------------------------------------------------------------
// check_claim, check_pure_claim, check_pure_claim_log

#[test]
fn claim_of_randomized_response_holds_at_its_epsilon() {
    let epsilon = 0.7;
    let (p, q) = randomized_response(epsilon);
    let report = check_claim([(p, q), (q, p)], epsilon, 0.0, 1e-12).unwrap();
    assert_eq!(report.pairs_checked, 2);
    assert_eq!(report.worst_pair, 0);
    assert!(report.worst_delta < 1e-15);
    assert_close(report.max_epsilon_at_zero_delta, epsilon, 1e-14);
}

#[test]
fn claim_with_delta_reports_worst_pair() {
    let identical = [0.5, 0.5];
    let (p, q) = ([0.5, 0.3, 0.2], [0.2, 0.3, 0.5]);
    let pairs: Vec<(&[f64], &[f64])> =
        vec![(&identical, &identical), (&p, &q), (&identical, &identical)];
    let report = check_claim(pairs, 2.0_f64.ln(), 0.1, 1e-12).unwrap();
    let expected = AuditReport {
        pairs_checked: 3,
        worst_pair: 1,
        worst_delta: report.worst_delta,
        max_epsilon_at_zero_delta: report.max_epsilon_at_zero_delta,
    };
    assert_eq!(report, expected);
    assert_close(report.worst_delta, 0.1, 1e-15);
    assert_close(report.max_epsilon_at_zero_delta, 2.5_f64.ln(), 1e-15);
}

#[test]
fn claim_below_randomized_response_epsilon_is_violated() {
    let epsilon = 1.0_f64;
    let (p, q) = randomized_response(epsilon);
    let error = check_claim([(p, p), (p, q)], 0.5, 0.01, 1e-12).unwrap_err();
    let Error::ClaimViolated {
        pair_index,
        epsilon: claimed,
        claimed_delta,
        measured_delta,
    } = error
    else {
        panic!("unexpected error {error:?}");
    };
    assert_eq!((pair_index, claimed, claimed_delta), (1, 0.5, 0.01));
    assert_close(
        measured_delta,
        (epsilon.exp() - 0.5_f64.exp()) / (1.0 + epsilon.exp()),
        1e-15,
    );
}

#[test]
fn claim_violation_names_first_violating_pair() {
    let (p, q) = ([1.0, 0.0], [0.0, 1.0]);
    let error = check_claim([(p, p), (p, q), (q, p)], 10.0, 0.5, 0.0).unwrap_err();
    assert_eq!(
        error,
        Error::ClaimViolated {
            pair_index: 1,
            epsilon: 10.0,
            claimed_delta: 0.5,
            measured_delta: 1.0
        }
    );
}

#[test]
fn claim_tolerance_absorbs_rounding() {
    // Probabilities perturbed by 1e-13 make δ slightly positive at the true ε.
    let (p, q) = randomized_response(1.0);
    let p = [p[0] + 1e-13, p[1] - 1e-13];
    assert!(matches!(
        check_claim([(p, q)], 1.0, 0.0, 0.0),
        Err(Error::ClaimViolated { .. })
    ));
    assert!(check_claim([(p, q)], 1.0, 0.0, 1e-12).is_ok());
}

#[test]
fn pure_claim_of_randomized_response() {
    let epsilon = 2.0;
    let (p, q) = randomized_response(epsilon);
    let report = check_pure_claim([(p, q)], epsilon, 1e-12).unwrap();
    assert_eq!(report.pairs_checked, 1);
    assert_close(report.worst_epsilon, epsilon, 1e-14);
    let error = check_pure_claim([(p, p), (p, q)], 1.9, 1e-12).unwrap_err();
    assert!(
        matches!(error, Error::PureClaimViolated { pair_index: 1, claimed_epsilon, .. } if claimed_epsilon == 1.9),
        "{error:?}"
    );
}

#[test]
fn pure_claim_log_reports_worst_pair() {
    let ninf = f64::NEG_INFINITY;
    let pairs = [
        (vec![0.0, ninf], vec![0.0, ninf]),
        (vec![0.0, -900.0], vec![0.0, -903.0]),
        (vec![0.0, -900.0], vec![0.0, -901.0]),
    ];
    let report = check_pure_claim_log(pairs.iter().map(|(p, q)| (p, q)), 3.0, 1e-9).unwrap();
    assert_eq!(
        report,
        PureAuditReport {
            pairs_checked: 3,
            worst_pair: 1,
            worst_epsilon: 3.0
        }
    );
}

#[test]
fn pure_claim_log_violated_by_disjoint_supports() {
    let ninf = f64::NEG_INFINITY;
    let error = check_pure_claim_log([([0.0, ninf], [ninf, 0.0])], 50.0, 0.0).unwrap_err();
    assert_eq!(
        error,
        Error::PureClaimViolated {
            pair_index: 0,
            claimed_epsilon: 50.0,
            measured_epsilon: f64::INFINITY
        }
    );
}

// ---------------------------------------------------------------------------
// Every error variant of the exact audits.

#[track_caller]
fn check_error(actual: Result<impl std::fmt::Debug, Error>, expected: Error) {
    match actual {
        Err(error) => assert_eq!(error, expected),
        Ok(value) => panic!("expected {expected:?}, got Ok({value:?})"),
    }
}

#[test]
fn error_empty_distribution() {
    check_error(max_divergence(&[], &[1.0]), Error::EmptyDistribution);
    check_error(max_divergence_log(&[0.0], &[]), Error::EmptyDistribution);
}

#[test]
fn error_length_mismatch() {
    check_error(
        hockey_stick(&[1.0], &[0.5, 0.5], 0.0),
        Error::LengthMismatch { left: 1, right: 2 },
    );
    check_error(
        max_divergence_log(&[0.0, f64::NEG_INFINITY], &[0.0]),
        Error::LengthMismatch { left: 2, right: 1 },
    );
}

#[test]
fn error_invalid_probability() {
    for value in [-0.1, 1.5, f64::INFINITY, f64::NEG_INFINITY] {
        check_error(
            max_divergence(&[1.0, 0.0], &[0.0, value]),
            Error::InvalidProbability { index: 1, value },
        );
    }
}

#[test]
fn error_invalid_probability_nan_compares_unequal() {
    // NaN != NaN, so PartialEq cannot compare this variant; match instead.
    let error = hockey_stick(&[f64::NAN], &[1.0], 0.0).unwrap_err();
    assert!(matches!(error, Error::InvalidProbability { index: 0, value } if value.is_nan()));
}

#[test]
fn error_invalid_log_probability() {
    check_error(
        max_divergence_log(&[0.0, f64::INFINITY], &[0.0, 0.0]),
        Error::InvalidLogProbability {
            index: 1,
            value: f64::INFINITY,
        },
    );
    let error = max_divergence_log(&[f64::NAN], &[0.0]).unwrap_err();
    assert!(matches!(error, Error::InvalidLogProbability { index: 0, value } if value.is_nan()));
}

#[test]
fn error_not_normalized() {
    check_error(
        max_divergence(&[0.5, 0.75], &[0.5, 0.5]),
        Error::NotNormalized { sum: 1.25 },
    );
    check_error(
        max_divergence(&[0.5, 0.5], &[0.0, 0.0]),
        Error::NotNormalized { sum: 0.0 },
    );
    // Within the tolerance is fine.
    assert!(max_divergence(&[0.5, 0.5 + 1e-7], &[0.5, 0.5]).is_ok());
}

#[test]
fn error_not_normalized_log() {
    check_error(
        max_divergence_log(&[0.0, 0.0], &[0.0, f64::NEG_INFINITY]),
        Error::NotNormalizedLog {
            log_sum: 2.0_f64.ln(),
        },
    );
    check_error(
        max_divergence_log(&[0.0], &[f64::NEG_INFINITY]),
        Error::NotNormalizedLog {
            log_sum: f64::NEG_INFINITY,
        },
    );
}

#[test]
fn error_invalid_epsilon() {
    check_error(
        hockey_stick(&[1.0], &[1.0], -1.0),
        Error::InvalidEpsilon { value: -1.0 },
    );
    check_error(
        hockey_stick_symmetric(&[1.0], &[1.0], f64::NEG_INFINITY),
        Error::InvalidEpsilon {
            value: f64::NEG_INFINITY,
        },
    );
    check_error(
        delta_curve(&[1.0], &[1.0], &[0.0, -0.5]),
        Error::InvalidEpsilon { value: -0.5 },
    );
    check_error(
        check_claim([([1.0], [1.0])], -2.0, 0.0, 0.0),
        Error::InvalidEpsilon { value: -2.0 },
    );
    check_error(
        check_pure_claim([([1.0], [1.0])], -2.0, 0.0),
        Error::InvalidEpsilon { value: -2.0 },
    );
    let error = check_pure_claim_log([([0.0], [0.0])], f64::NAN, 0.0).unwrap_err();
    assert!(matches!(error, Error::InvalidEpsilon { value } if value.is_nan()));
}

#[test]
fn error_invalid_delta() {
    check_error(
        check_claim([([1.0], [1.0])], 1.0, 1.5, 0.0),
        Error::InvalidDelta { value: 1.5 },
    );
    check_error(
        epsilon_for_delta(&[1.0], &[1.0], -0.1),
        Error::InvalidDelta { value: -0.1 },
    );
}

#[test]
fn error_invalid_tolerance() {
    check_error(
        check_claim([([1.0], [1.0])], 1.0, 0.0, -1e-9),
        Error::InvalidTolerance { value: -1e-9 },
    );
    check_error(
        check_pure_claim_log([([0.0], [0.0])], 1.0, f64::INFINITY),
        Error::InvalidTolerance {
            value: f64::INFINITY,
        },
    );
}

#[test]
fn error_no_pairs() {
    let no_pairs: [(&[f64], &[f64]); 0] = [];
    check_error(check_claim(no_pairs, 1.0, 0.0, 0.0), Error::NoPairs);
    check_error(check_pure_claim(no_pairs, 1.0, 0.0), Error::NoPairs);
    check_error(check_pure_claim_log(no_pairs, 1.0, 0.0), Error::NoPairs);
}

#[test]
fn error_invalid_pair() {
    let good = [0.5, 0.5];
    let bad = [0.5, 0.4];
    let pairs: [(&[f64], &[f64]); 2] = [(&good, &good), (&good, &bad)];
    let expected = Error::InvalidPair {
        pair_index: 1,
        error: Box::new(Error::NotNormalized { sum: 0.9 }),
    };
    check_error(check_claim(pairs, 1.0, 0.0, 0.0), expected.clone());
    check_error(check_pure_claim(pairs, 1.0, 0.0), expected);
    check_error(
        check_pure_claim_log([([0.0], [0.0, f64::NEG_INFINITY])], 1.0, 0.0),
        Error::InvalidPair {
            pair_index: 0,
            error: Box::new(Error::LengthMismatch { left: 1, right: 2 }),
        },
    );
}

#[test]
fn error_messages_are_lower_case_without_period() {
    let errors = [
        Error::EmptyDistribution,
        Error::NotNormalized { sum: 0.5 },
        Error::InvalidPair {
            pair_index: 3,
            error: Box::new(Error::EmptyDistribution),
        },
        Error::ClaimViolated {
            pair_index: 0,
            epsilon: 1.0,
            claimed_delta: 0.0,
            measured_delta: 0.1,
        },
    ];
    for error in errors {
        let message = error.to_string();
        assert!(!message.ends_with('.'), "{message}");
        assert!(
            message.chars().next().is_some_and(|c| !c.is_uppercase()),
            "{message}"
        );
    }
    assert_eq!(
        Error::InvalidPair {
            pair_index: 3,
            error: Box::new(Error::EmptyDistribution)
        }
        .to_string(),
        "pair 3 is invalid: distribution is empty"
    );
}

// ---------------------------------------------------------------------------
// No panics on arbitrary floats.

fn any_vector() -> impl Strategy<Value = Vec<f64>> {
    prop::collection::vec(prop::num::f64::ANY, 0..6)
}

/// A valid distribution or close to one, so that the code past validation runs.
fn distribution() -> impl Strategy<Value = Vec<f64>> {
    prop::collection::vec(
        prop_oneof![Just(0.0), 0.0..1.0, prop::num::f64::POSITIVE],
        1..6,
    )
    .prop_map(|weights| {
        let total: f64 = weights.iter().sum();
        if total.is_finite() && total > 0.0 {
            weights.iter().map(|w| w / total).collect()
        } else {
            weights
        }
    })
}

fn run_everything(p: &[f64], q: &[f64], number: f64) {
    let _ = max_divergence(p, q);
    let _ = max_divergence_log(p, q);
    let _ = hockey_stick(p, q, number);
    let _ = hockey_stick_symmetric(p, q, number);
    let _ = delta_curve(p, q, &[number, 0.0, f64::INFINITY]);
    let _ = epsilon_for_delta(p, q, number);
    let _ = check_claim([(p, q), (q, p)], number, number, number);
    let _ = check_claim([(p, q)], 1.0, 0.0, 0.0);
    let _ = check_pure_claim([(p, q)], number, number);
    let _ = check_pure_claim_log([(p, q)], number, 0.0);
    let log = |v: &[f64]| v.iter().map(|x| x.ln()).collect::<Vec<_>>();
    let _ = max_divergence_log(&log(p), &log(q));
    let _ = check_pure_claim_log([(log(p), log(q))], 1.0, 1e-9);
}

proptest! {
    #[test]
    fn no_panic_on_arbitrary_floats(p in any_vector(), q in any_vector(), number in prop::num::f64::ANY) {
        run_everything(&p, &q, number);
    }

    #[test]
    fn no_panic_on_near_valid_distributions(
        p in distribution(),
        q in distribution(),
        number in prop_oneof![prop::num::f64::ANY, 0.0..1.0],
    ) {
        run_everything(&p, &q, number);
    }

    #[test]
    fn measures_are_consistent_on_valid_distributions(
        (p, q) in (1..6_usize).prop_flat_map(|n| (
            prop::collection::vec(0.0..1.0_f64, n),
            prop::collection::vec(0.0..1.0_f64, n),
        )),
        epsilon in 0.0..5.0_f64,
    ) {
        let normalize = |v: Vec<f64>| {
            let total: f64 = v.iter().sum();
            if total > 0.0 { v.iter().map(|x| x / total).collect() } else { vec![1.0 / v.len() as f64; v.len()] }
        };
        let (p, q): (Vec<f64>, Vec<f64>) = (normalize(p), normalize(q));
        let loss = max_divergence(&p, &q).unwrap();
        let delta = hockey_stick_symmetric(&p, &q, epsilon).unwrap();
        prop_assert!((0.0..=1.0).contains(&delta));
        // δ vanishes (up to rounding) from the max divergence on.
        if epsilon >= loss {
            prop_assert!(delta <= 1e-15, "delta {delta} at {epsilon} >= {loss}");
        }
        // epsilon_for_delta inverts the curve.
        let inverse = epsilon_for_delta(&p, &q, delta).unwrap();
        prop_assert!(inverse <= epsilon + 1e-9, "{inverse} > {epsilon}");
    }
}

#[test]
fn public_types_are_send_sync_unpin() {
    fn has_autotraits<T: Send + Sync + Unpin>() {}
    has_autotraits::<AuditReport>();
    has_autotraits::<PureAuditReport>();
    has_autotraits::<Error>();
}
