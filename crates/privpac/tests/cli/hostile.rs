//! Hostile inputs found by a sweep of every learner × class × boundary size and of hostile
//! parameters and data files (issue 38): each must be refused with one clear line, not a
//! panic, a hang or a 300-digit number.

use super::{check_error, privpac};
use crate::commands::data_file;

/// `sample-complexity` with the lab's usual parameters and the given class and learner.
fn sample_complexity<'a>(class: &'a str, learner: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "sample-complexity",
        "--class",
        class,
        "--learner",
        learner,
        "--seed",
        "1",
        "--trials",
        "2",
        "--max-size",
        "64",
    ];
    args.extend_from_slice(extra);
    args
}

/// A size of 2^64 is all digits: it is refused as too large ("not a non-negative integer"
/// before), for every class kind and inside combinators.
#[test]
fn sizes_of_two_to_the_sixty_four_are_refused_as_too_large() {
    for class in [
        "points:18446744073709551616",
        "thresholds:18446744073709551616",
        "both(thresholds:18446744073709551616)",
        "intervals:18446744073709551616",
    ] {
        let args = sample_complexity(
            class,
            "generic",
            &["--epsilon", "1", "--alpha", "0.1", "--beta", "0.2"],
        );
        check_error(&args, "takes at most 2^64 − 1 = 18446744073709551615");
    }
}

/// ε = 1e-300 and α = 1e-300 used to print 300-digit decimals ("0.000…0001"); the line
/// now carries the number in scientific notation and stays short.
#[test]
fn extreme_floats_are_printed_in_scientific_notation() {
    for (learner, extra) in [
        (
            "generic",
            ["--epsilon", "1e-300", "--alpha", "0.1", "--beta", "0.2"],
        ),
        (
            "voting",
            ["--epsilon", "1", "--alpha", "1e-300", "--beta", "0.2"],
        ),
    ] {
        let args = sample_complexity("thresholds:16", learner, &extra);
        check_error(&args, "1e-300");
        let output = privpac(&args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.len() < 400, "{learner}: {stderr}");
    }
}

/// The improper point learner's default bucket count ⌈16/(αβ)⌉ at α = 1e-300 is named with
/// its rule, not as "number of hash buckets … got 18446744073709552000".
#[test]
fn a_derived_bucket_count_names_its_rule() {
    let args = sample_complexity(
        "points:16",
        "improper-point",
        &["--epsilon", "1", "--alpha", "1e-300", "--beta", "0.2"],
    );
    check_error(&args, "⌈16/(αβ)⌉");
}

/// ERM is not private, but a given ε or δ must still be one: NaN, 0 and δ ≥ 1 are refused
/// (they were accepted silently).
#[test]
fn erm_refuses_invalid_privacy_parameters() {
    for (extra, needle) in [
        (&["--epsilon", "NaN"][..], "epsilon must be finite and > 0"),
        (&["--epsilon", "0"], "epsilon must be finite and > 0"),
        (
            &["--epsilon", "1", "--delta", "2"],
            "delta must be in [0, 1)",
        ),
        (&["--delta", "-1"], "delta must be in [0, 1)"),
    ] {
        let mut args = sample_complexity("thresholds:16", "erm", &["--alpha", "0.1"]);
        args.extend_from_slice(&["--beta", "0.2"]);
        args.extend_from_slice(extra);
        check_error(&args, needle);
    }
    let ok = privpac(&sample_complexity(
        "thresholds:16",
        "erm",
        &["--epsilon", "1", "--alpha", "0.1", "--beta", "0.2"],
    ));
    assert_eq!(ok.status.code(), Some(0));
}

/// A data point of 20 digits is too large, not "not a non-negative integer"; a sanitizer
/// with more MWEM rounds than the class has queries says which option to change.
#[test]
fn data_and_sanitizer_refusals_name_the_cause() {
    let path = data_file("hostile-huge-point.csv", "0,1\n99999999999999999999,0\n");
    let data = path.to_str().unwrap();
    check_error(
        &[
            "learn",
            "--class",
            "thresholds:16",
            "--learner",
            "generic",
            "--epsilon",
            "1",
            "--data",
            data,
        ],
        "line 2: point 99999999999999999999 is above 2^64 − 1",
    );
    let path = data_file("hostile-points.csv", "0\n1\n1\n");
    check_error(
        &[
            "sanitize",
            "--class",
            "thresholds:16",
            "--sanitizer",
            "mwem",
            "--epsilon",
            "1",
            "--data",
            path.to_str().unwrap(),
        ],
        "take at most 16 rounds: --rounds",
    );
}

/// Saturated counts are not printed as exact: BLR on intervals over 2^64 − 1 points.
#[test]
fn saturated_counts_say_at_least() {
    let args = sample_complexity(
        "intervals:18446744073709551615",
        "sanitizer:blr",
        &["--epsilon", "1", "--alpha", "0.1", "--beta", "0.2"],
    );
    check_error(&args, "at least 2^128 − 1");
}
