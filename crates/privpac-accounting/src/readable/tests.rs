//! Unit tests of `readable`: short values print as they are, long ones round up, and over
//! random f64s the printed decimal is (exactly) an upper bound within one unit of its last
//! digit.

use std::cmp::Ordering;

use num_bigint::BigInt;
use proptest::prelude::*;

use super::*;

/// A decimal `[-]d.ddde±x` as the exact rational `M·10^e`.
fn decimal(text: &str) -> (BigInt, i32) {
    let (mantissa, exponent) = text.split_once('e').unwrap_or((text, "0"));
    let mut exponent: i32 = exponent.parse().unwrap();
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    exponent -= fraction.len() as i32;
    let digits: BigInt = format!("{whole}{fraction}").parse().unwrap();
    (digits, exponent)
}

/// A finite f64 as the exact rational `m·2^e`.
fn binary(x: f64) -> (BigInt, i32) {
    let bits = x.to_bits();
    let field = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & ((1 << 52) - 1);
    let (m, e) = if field == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1 << 52), field - 1075)
    };
    let m = BigInt::from(m);
    (if x < 0.0 { -m } else { m }, e)
}

/// `M·10^e10 − m·2^e2`, scaled by a positive integer, and that scale: the sign and, against
/// `unit` scaled the same way, the size of the difference.
fn difference(d: &(BigInt, i32), v: &(BigInt, i32), unit: i32) -> (BigInt, BigInt) {
    let scale10 = (-d.1).max(-unit).max(0) as u32;
    let scale2 = (-v.1).max(0) as u32;
    let ten = |k: i32| BigInt::from(10).pow(k as u32);
    let two = |k: i32| BigInt::from(2).pow(k as u32);
    // Everything times 10^scale10 · 2^scale2.
    let dd = &d.0 * ten(d.1 + scale10 as i32) * two(scale2 as i32);
    let vv = &v.0 * two(v.1 + scale2 as i32) * ten(scale10 as i32);
    let uu = ten(unit + scale10 as i32) * two(scale2 as i32);
    (dd - vv, uu)
}

/// Checks the contract of [`RoundedUp`] for `x`: the text has at most READABLE_DIGITS
/// significant digits, reads back as an f64 ≥ x, is exactly ≥ x unless it is x's own
/// shortest decimal, and is within one unit of its last digit of x.
fn check(x: f64) {
    let text = format!("{:e}", RoundedUp(x));
    let plain = RoundedUp(x).to_string();
    assert_eq!(plain.parse::<f64>().unwrap(), text.parse::<f64>().unwrap());
    let read = text.parse::<f64>().unwrap();
    assert!(read >= x, "{x:e} printed {text}");
    let d = decimal(&text);
    let digits = d.0.to_string().trim_start_matches('-').len();
    // Only a value that rounds past f64::MAX prints in full.
    assert!(
        digits <= READABLE_DIGITS || (x.abs() > 1.79e308 && text == format!("{x:e}")),
        "{x:e} printed {text}"
    );
    // The unit of the last significant digit printed (at READABLE_DIGITS digits).
    let leading = text.split_once('e').unwrap().1.parse::<i32>().unwrap();
    let unit = leading - READABLE_DIGITS as i32 + 1;
    let (diff, unit) = difference(&d, &binary(x), unit);
    if text != format!("{x:e}") {
        assert!(
            diff.sign() != num_bigint::Sign::Minus,
            "{x:e} printed {text}"
        );
    }
    let magnitude = if diff.sign() == num_bigint::Sign::Minus {
        -diff
    } else {
        diff
    };
    assert!(
        magnitude.cmp(&unit) != Ordering::Greater,
        "{x:e} printed {text}"
    );
}

#[test]
fn short_values_print_as_they_are_and_long_ones_round_up() {
    for (x, text) in [
        (0.5, "0.5"),
        (1.0, "1"),
        (0.1, "0.1"),
        (1e-6, "0.000001"),
        (0.0, "0"),
        (0.5000000000000001, "0.500001"),
        (0.9999999997239273, "1"),
        (0.24999999989097166, "0.25"),
        (1.3650000000000002, "1.36501"),
        (2.1972245773362213, "2.19723"),
        (999999.5, "1000000"),
        (-0.5000000000000001, "-0.5"),
        (f64::INFINITY, "inf"),
    ] {
        assert_eq!(RoundedUp(x).to_string(), text, "{x:e}");
        if x.is_finite() {
            check(x);
        }
    }
    // Past 10²¹ (and below 10⁻¹⁵) the plain text switches to exponent form: no
    // 300-digit decimals (issue 37 §3); it still reads back as the same f64.
    assert_eq!(RoundedUp(1.25e300).to_string(), "1.25e300");
    assert_eq!(RoundedUp(f64::from_bits(1)).to_string(), "5e-324");
    assert_eq!(RoundedUp(1e-12).to_string(), "0.000000000001");
    assert_eq!(
        format!("{:e}", RoundedUp(f64::MAX)),
        "1.7976931348623157e308"
    );
    assert_eq!(format!("{:e}", RoundedUp(1e-6)), "1e-6");
    assert_eq!(
        format!("{:e}", RoundedUp(1.0000000000000002e-6)),
        "1.00001e-6"
    );
    assert_eq!(format!("{:e}", RoundedUp(f64::from_bits(1))), "5e-324");
    assert!(RoundedUp(f64::NAN).to_string() == "NaN");
    assert_eq!(RoundedUp(0.5000000000000001).value(), 0.500001);
    check(f64::MAX);
    check(f64::from_bits(0x000f_ffff_ffff_ffff)); // the largest subnormal: 767 digits
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    /// Over every finite f64 (any bit pattern), and over values just above short decimals
    /// (the computed ε of a rule near a round request): the contract holds exactly.
    #[test]
    fn the_text_is_an_upper_bound_within_one_unit(bits in any::<u64>(), short in 1u32..1_000_000, exp in -30i32..30, ulps in 0u64..4) {
        let x = f64::from_bits(bits);
        if x.is_finite() {
            check(x);
        }
        let near = f64::from_bits((f64::from(short) * 10f64.powi(exp)).to_bits() + ulps);
        check(near);
        check(-near);
    }
}
