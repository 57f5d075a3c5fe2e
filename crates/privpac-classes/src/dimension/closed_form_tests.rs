//! The closed-form VC dimensions of structured classes ([`crate::closed_form`]) against
//! the exact search on small classes, and on classes too large for a matrix.

use crate::closed_form::sauer_square_bound;
use crate::dimension::{Budget, vc_dimension};
use crate::{DEFAULT_CELL_LIMIT, materialize, parse_spec};

/// Every closed form against the exact search on small classes: equal where exact, at
/// least the truth where a bound.
#[test]
fn closed_forms_agree_with_the_exact_vc_dimension() {
    let bases = [
        "thresholds:1",
        "thresholds:2",
        "thresholds:3",
        "thresholds:9",
        "points:1",
        "points:2",
        "points:3",
        "points:7",
        "intervals:1",
        "intervals:2",
        "intervals:3",
        "intervals:6",
        "parities:1",
        "parities:2",
        "parities:3",
        "all:3",
    ];
    let mut checked = 0;
    let mut exact = 0;
    for base in bases {
        let mut specs = vec![base.to_string()];
        for wrap in ["not", "zero", "both", "xor"] {
            specs.push(format!("{wrap}({base})"));
        }
        specs.push(format!("not(both({base}))"));
        specs.push(format!("zero(not({base}))"));
        specs.push(format!("both(zero({base}))"));
        for spec in specs {
            let class = parse_spec(&spec).unwrap();
            let Some(closed) = class.vc_dimension_closed_form() else {
                panic!("{spec}: no closed form");
            };
            let matrix = materialize(class.as_ref(), DEFAULT_CELL_LIMIT).unwrap();
            let truth = vc_dimension(&matrix, &Budget::default()).unwrap().dimension;
            let truth = truth as u64;
            if closed.exact {
                assert_eq!(closed.dimension, truth, "{spec}: {closed:?}");
                exact += 1;
            } else {
                assert!(closed.dimension >= truth, "{spec}: {closed:?} < {truth}");
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 16 * 8);
    assert_eq!(exact, 70, "exact closed forms among the {checked}");
}

#[test]
fn large_classes_have_closed_forms() {
    let at = |spec: &str| {
        parse_spec(spec)
            .unwrap()
            .vc_dimension_closed_form()
            .unwrap()
    };
    assert_eq!(at("thresholds:1073741824").dimension, 1);
    assert_eq!(at("intervals:1073741824").dimension, 2);
    assert_eq!(at("both(thresholds:1073741824)").dimension, 2);
    assert_eq!(at("xor(thresholds:1073741824)").dimension, 2);
    assert_eq!(at("parities:40").dimension, 40);
    assert_eq!(at("both(parities:40)").dimension, 41);
    let bound = at("xor(intervals:65536)");
    assert!(!bound.exact && bound.dimension >= 4, "{bound:?}");
    assert!(bound.describe().contains("at most"));
}

#[test]
fn the_sauer_square_bound() {
    // d = 0: one function, its square one function: m = 0.
    assert_eq!(sauer_square_bound(0), 0);
    // d = 1: Σ = m + 1, 2^m ≤ (m + 1)² holds for m ≤ 5 (32 ≤ 36), fails at 6 (64 > 49).
    assert_eq!(sauer_square_bound(1), 5);
    // Monotone in d.
    assert!((1..20).all(|d| sauer_square_bound(d) >= sauer_square_bound(d - 1)));
}
