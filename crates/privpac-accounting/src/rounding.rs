//! Rounding up: the arithmetic every accounting rule uses, so that a reported ε or δ is
//! never below the exact real value of the rule's formula.
//!
//! The basic operations (+, ×, ÷, √) are rounded toward +∞ exactly, over the whole `f64`
//! range: IEEE 754 rounds them to nearest, and the sign of that rounding's error decides
//! whether the result steps one float up. For a sum the two-sum identity recovers the
//! error exactly (the error of an addition is always a float, subnormal results
//! included). For ×, ÷ and √ a fused multiply-add (`mul_add`, exact before its one
//! rounding) evaluates the residual `a·b − p` (or `a − q·b`, `s² − a`); rounding to
//! nearest keeps a nonzero residual's sign unless the residual is below half the smallest
//! subnormal, where it becomes 0. That happens only for results near the bottom of the
//! range (subnormal, or zero for a nonzero product), so a zero residual is re-checked
//! exactly in integer arithmetic (`cmp_product`) before the result is kept. The transcendental functions
//! (`exp`, `exp_m1`, `ln`, `ln_1p`) are not correctly rounded by the platform library;
//! glibc's table of known maximum errors lists at most 1–2 ulps for them on common
//! targets. We **assume** an error of at most 2 ulps (the same kind of assumption the
//! exponential mechanism's error budget makes for `exp`) and step [`LIBM_STEPS`] = 4
//! floats in the safe direction, which covers 2 ulps even when the true value lies in the
//! next binade; a test checks the resulting bounds against a ~100-bit double-double
//! reference on arguments from 10⁻¹² to 40. Arguments that make the result exact (`exp(0)`, `exp_m1(0)`, `ln_1p(0)`)
//! are returned exact.
//!
//! Every formula of the accounting rules is increasing in each of its (non-negative)
//! arguments, except where an argument enters through a quotient's denominator or
//! `ln(1/δ')`; those use a lower bound ([`to_f64_down`]) or the decreasing form
//! ([`neg_ln_up`]). Composing upward-rounded increasing operations on upper bounds gives an
//! upper bound, which is what the rules report.

use std::cmp::Ordering;

/// How many floats the transcendental functions step in the safe direction.
pub const LIBM_STEPS: u32 = 4;

fn steps_up(mut x: f64, steps: u32) -> f64 {
    for _ in 0..steps {
        x = x.next_up();
    }
    x
}

fn steps_down(mut x: f64, steps: u32) -> f64 {
    for _ in 0..steps {
        x = x.next_down();
    }
    x
}

/// `a + b` rounded toward +∞.
pub fn add_up(a: f64, b: f64) -> f64 {
    let s = a + b;
    if !s.is_finite() {
        return s;
    }
    // Two-sum (Knuth): `error` is exactly `(a + b) − s`.
    let b_virtual = s - a;
    let a_virtual = s - b_virtual;
    let error = (a - a_virtual) + (b - b_virtual);
    if error > 0.0 { s.next_up() } else { s }
}

/// `a · b` rounded toward +∞ (finite `a`, `b`; an overflow is returned as it is).
pub fn mul_up(a: f64, b: f64) -> f64 {
    let p = a * b;
    if !p.is_finite() {
        return p;
    }
    // The residual a·b − p rounded once: its sign is exact unless it rounded to 0.
    let residual = a.mul_add(b, -p);
    let above = if residual == 0.0 {
        cmp_product(a, b, p) == Ordering::Greater
    } else {
        residual > 0.0
    };
    if above { p.next_up() } else { p }
}

/// `a / b` rounded toward +∞, for finite `a` and finite `b > 0`.
pub fn div_up(a: f64, b: f64) -> f64 {
    let q = a / b;
    if !q.is_finite() {
        return q;
    }
    // a − q·b rounded once: positive means q is below a/b (b > 0); a zero is checked
    // exactly (q·b < a?).
    let residual = (-q).mul_add(b, a);
    let below = if residual == 0.0 {
        cmp_product(q, b, a) == Ordering::Less
    } else {
        residual > 0.0
    };
    if below { q.next_up() } else { q }
}

/// `√a` rounded toward +∞, for `a ≥ 0`.
pub fn sqrt_up(a: f64) -> f64 {
    let s = a.sqrt();
    if !s.is_finite() {
        return s;
    }
    let residual = s.mul_add(s, -a);
    let below = if residual == 0.0 {
        cmp_product(s, s, a) == Ordering::Less
    } else {
        residual < 0.0
    };
    if below { s.next_up() } else { s }
}

/// A finite `f64` as `(negative, m, e)` with `|x| = m·2^e` exactly (`m < 2^53`).
fn decompose(x: f64) -> (bool, u64, i32) {
    let bits = x.to_bits();
    let negative = bits >> 63 == 1;
    let field = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & ((1u64 << 52) - 1);
    if field == 0 {
        (negative, fraction, -1074)
    } else {
        (negative, fraction | (1u64 << 52), field - 1075)
    }
}

/// Compares the exact real product `a·b` with `c` (all finite), in integer arithmetic.
fn cmp_product(a: f64, b: f64, c: f64) -> Ordering {
    let (a_negative, a_mantissa, a_exponent) = decompose(a);
    let (b_negative, b_mantissa, b_exponent) = decompose(b);
    let (c_negative, c_mantissa, c_exponent) = decompose(c);
    // |a·b| = m·2^e with m < 2^106.
    let m = u128::from(a_mantissa) * u128::from(b_mantissa);
    let e = a_exponent + b_exponent;
    let sign = |negative: bool, nonzero: bool| match (nonzero, negative) {
        (false, _) => 0i8,
        (true, false) => 1,
        (true, true) => -1,
    };
    let product_sign = sign(a_negative != b_negative, m != 0);
    let c_sign = sign(c_negative, c_mantissa != 0);
    if product_sign != c_sign || product_sign == 0 {
        return product_sign.cmp(&c_sign);
    }
    // Same sign, both nonzero: compare the magnitudes m·2^e and c_m·2^c_e.
    let magnitude = cmp_scaled(m, e, u128::from(c_mantissa), c_exponent);
    if product_sign > 0 {
        magnitude
    } else {
        magnitude.reverse()
    }
}

/// Compares `x·2^ex` with `y·2^ey` for nonzero `x, y < 2^127`.
fn cmp_scaled(x: u128, ex: i32, y: u128, ey: i32) -> Ordering {
    // Shift the one with the larger exponent left; if its bits would leave u128, it is
    // certainly the larger (the other is below 2^127).
    let (big, small, shift, swapped) = if ex >= ey {
        (x, y, ex - ey, false)
    } else {
        (y, x, ey - ex, true)
    };
    let order = if shift as u32 >= big.leading_zeros() {
        Ordering::Greater
    } else {
        (big << shift).cmp(&small)
    };
    if swapped { order.reverse() } else { order }
}

/// An upper bound on `e^x`.
pub fn exp_up(x: f64) -> f64 {
    if x == 0.0 {
        return 1.0;
    }
    steps_up(x.exp(), LIBM_STEPS)
}

/// An upper bound on `e^x − 1`.
pub fn exp_m1_up(x: f64) -> f64 {
    if x == 0.0 {
        return 0.0;
    }
    steps_up(x.exp_m1(), LIBM_STEPS)
}

/// An upper bound on `ln(1 + x)`, for `x ≥ 0`.
pub fn ln_1p_up(x: f64) -> f64 {
    if x == 0.0 {
        return 0.0;
    }
    steps_up(x.ln_1p(), LIBM_STEPS)
}

/// An upper bound on `tanh x` (the same libm assumption as [`exp_up`]: the platform's
/// value stepped [`LIBM_STEPS`] floats up; `tanh 0 = 0` exactly).
pub fn tanh_up(x: f64) -> f64 {
    if x == 0.0 {
        return 0.0;
    }
    steps_up(x.tanh(), LIBM_STEPS)
}

/// A lower bound on `tanh x` ([`tanh_up`]'s counterpart, stepped down).
pub fn tanh_down(x: f64) -> f64 {
    if x == 0.0 {
        return 0.0;
    }
    steps_down(x.tanh(), LIBM_STEPS)
}

/// An upper bound on `ln(1/x) = −ln x`, for `0 < x < 1`.
pub fn neg_ln_up(x: f64) -> f64 {
    -steps_down(x.ln(), LIBM_STEPS)
}

/// The smallest `f64` that is at least `n`.
pub fn to_f64_up(n: u64) -> f64 {
    let f = n as f64;
    // `f as u128` is exact for every f64 that a u64 converts to (at most 2^64).
    if (f as u128) < u128::from(n) {
        f.next_up()
    } else {
        f
    }
}

/// The largest `f64` that is at most `n`.
pub fn to_f64_down(n: u64) -> f64 {
    let f = n as f64;
    if (f as u128) > u128::from(n) {
        f.next_down()
    } else {
        f
    }
}

/// A sum that is never below the exact real sum of its terms: compensated (Neumaier)
/// summation, whose result is within one rounding of the exact sum, then one step up.
pub fn upper_sum(terms: impl Iterator<Item = f64>) -> f64 {
    let mut sum = 0.0f64;
    let mut compensation = 0.0f64;
    let mut any_nonzero = false;
    for term in terms {
        any_nonzero |= term != 0.0;
        let t = sum + term;
        compensation += if sum.abs() >= term.abs() {
            (sum - t) + term
        } else {
            (term - t) + sum
        };
        sum = t;
    }
    let total = sum + compensation;
    if any_nonzero { total.next_up() } else { total }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// The exact value of `a·b` as an unevaluated sum `hi + lo`.
    fn two_product(a: f64, b: f64) -> (f64, f64) {
        let hi = a * b;
        (hi, a.mul_add(b, -hi))
    }

    /// The exact error `(a + b) − fl(a + b)` (Knuth's two-sum).
    fn sum_error(a: f64, b: f64) -> f64 {
        let s = a + b;
        let b_virtual = s - a;
        (a - (s - b_virtual)) + (b - b_virtual)
    }

    #[test]
    fn basic_operations_round_up_where_nearest_rounds_down() {
        // 0.1 + 0.7 rounds down to nearest (the stored sum is below the exact one).
        let (a, b) = (0.1f64, 0.7f64);
        let nearest = a + b;
        assert!(sum_error(a, b) > 0.0);
        assert_eq!(add_up(a, b), nearest.next_up());
        // 3 × 0.1: rounds up to nearest already (0.30000000000000004), so no step.
        let (hi, lo) = two_product(3.0, 0.1);
        assert!(lo < 0.0);
        assert_eq!(mul_up(3.0, 0.1), hi);
        // 0.7 × 0.7 rounds down to nearest.
        let (hi, lo) = two_product(0.7, 0.7);
        assert!(lo > 0.0);
        assert_eq!(mul_up(0.7, 0.7), hi.next_up());
        // Exact results are not moved.
        assert_eq!(mul_up(3.0, 0.5), 1.5);
        assert_eq!(add_up(0.25, 0.5), 0.75);
        assert_eq!(div_up(1.0, 4.0), 0.25);
        assert_eq!(sqrt_up(2.25), 1.5);
        assert_eq!(exp_up(0.0), 1.0);
        assert_eq!(ln_1p_up(0.0), 0.0);
        // √3 to nearest is below √3 (√2 to nearest is above √2).
        let s = 3f64.sqrt();
        assert!(s.mul_add(s, -3.0) < 0.0);
        let above = 2f64.sqrt();
        assert!(above.mul_add(above, -2.0) > 0.0);
        assert_eq!(sqrt_up(2.0), above);
        assert_eq!(sqrt_up(3.0), s.next_up());
    }

    #[test]
    fn conversions_bracket_large_integers() {
        let n = (1u64 << 60) + 1; // not representable
        assert!(to_f64_up(n) as u128 >= u128::from(n));
        assert!((to_f64_down(n) as u128) <= u128::from(n));
        assert_eq!(to_f64_up(n), to_f64_down(n).next_up());
        assert_eq!(to_f64_up(u64::MAX) as u128, 1u128 << 64);
        assert_eq!(to_f64_up(12), 12.0);
        assert_eq!(to_f64_down(12), 12.0);
    }

    #[test]
    fn transcendental_bounds_bracket_the_platform_values() {
        for x in [1e-9, 0.1, 0.5, 1.0, 3.0, 20.0] {
            assert!(exp_up(x) > x.exp());
            assert!(exp_m1_up(x) > x.exp_m1());
            assert!(ln_1p_up(x) > x.ln_1p());
            // Not loose: a few floats.
            assert!(exp_up(x) <= x.exp() * (1.0 + 1e-15));
        }
        for x in [1e-12, 1e-6, 0.5, 0.999] {
            assert!(neg_ln_up(x) > -x.ln());
            assert!(neg_ln_up(x) <= -x.ln() * (1.0 + 1e-14));
        }
    }

    /// A double-double number `hi + lo` (about 106 bits), for reference values.
    #[derive(Clone, Copy, Debug)]
    struct Dd {
        hi: f64,
        lo: f64,
    }

    impl Dd {
        fn of(value: f64) -> Self {
            Dd { hi: value, lo: 0.0 }
        }

        fn add(self, other: Self) -> Self {
            let s = self.hi + other.hi;
            let error = sum_error(self.hi, other.hi);
            let lo = error + self.lo + other.lo;
            let hi = s + lo;
            Dd {
                hi,
                lo: lo - (hi - s),
            }
        }

        fn mul(self, other: Self) -> Self {
            let p = self.hi * other.hi;
            let lo = self.hi.mul_add(other.hi, -p) + self.hi * other.lo + self.lo * other.hi;
            let hi = p + lo;
            Dd {
                hi,
                lo: lo - (hi - p),
            }
        }

        /// `upper ≥ self`, compared exactly enough (the hi parts are close).
        fn is_below(self, upper: f64) -> bool {
            (upper - self.hi) - self.lo >= 0.0
        }
    }

    /// `e^x` for `|x| ≤ 60` to about 100 bits: `x = k·ln 2 + r` with a two-part ln 2, the
    /// Taylor series of `e^r` in double-double, then an exact scaling by `2^k`.
    fn exp_dd(x: Dd) -> Dd {
        const LN2_HI: f64 = std::f64::consts::LN_2;
        const LN2_LO: f64 = 2.319_046_813_846_299_6e-17;
        let k = (x.hi / LN2_HI).round();
        let r = x
            .add(Dd::of(-k).mul(Dd::of(LN2_HI)))
            .add(Dd::of(-k).mul(Dd::of(LN2_LO)));
        let mut term = Dd::of(1.0);
        let mut sum = Dd::of(1.0);
        for i in 1..32 {
            // Divide by i exactly enough: multiply by the double-double 1/i.
            let inverse = 1.0 / i as f64;
            let inverse = Dd {
                hi: inverse,
                lo: (-inverse).mul_add(i as f64, 1.0) / i as f64,
            };
            term = term.mul(r).mul(inverse);
            sum = sum.add(term);
        }
        let scale = 2f64.powi(k as i32);
        Dd {
            hi: sum.hi * scale,
            lo: sum.lo * scale,
        }
    }

    /// `ln(y)` for a double-double `y` in `[1e-12, 1e12]`: one Newton step
    /// `l + (y·e^{−l} − 1)` from the platform's `ln`, which squares its error.
    fn ln_dd(y: Dd) -> Dd {
        let start = Dd::of(y.hi.ln());
        let correction = y
            .mul(exp_dd(Dd {
                hi: -start.hi,
                lo: 0.0,
            }))
            .add(Dd::of(-1.0));
        start.add(correction)
    }

    #[test]
    fn reference_functions_are_right() {
        let e = exp_dd(Dd::of(1.0));
        assert!((e.hi - std::f64::consts::E).abs() <= f64::EPSILON);
        let ln2 = ln_dd(Dd::of(2.0));
        assert_eq!(ln2.hi, std::f64::consts::LN_2);
        assert!((ln2.lo - 2.319_046_813_846_299_6e-17).abs() < 1e-30);
    }

    /// The libm assumption behind [`LIBM_STEPS`], checked: every transcendental bound is
    /// above a ~100-bit reference (and within 8 floats of it), on a grid and on seeded
    /// random points. A platform library less accurate than assumed fails here.
    #[test]
    fn transcendental_bounds_hold_against_a_double_double_reference() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(99);
        let close =
            |upper: f64, reference: Dd| upper - reference.hi <= 8.0 * upper.abs() * f64::EPSILON;
        for i in 0..20_000 {
            // Arguments spread over (0, 40] on a log scale, grid and random.
            let t = if i % 2 == 0 {
                f64::from(i) / 20_000.0
            } else {
                rng.random_range(0.0..1.0)
            };
            let x = 1e-12 * (40e12f64).powf(t);
            let exp = exp_dd(Dd::of(x));
            assert!(exp.is_below(exp_up(x)) && close(exp_up(x), exp), "exp({x})");
            let exp_m1 = exp.add(Dd::of(-1.0));
            assert!(
                exp_m1.is_below(exp_m1_up(x)) && close(exp_m1_up(x), exp_m1),
                "exp_m1({x})"
            );
            let ln_1p = ln_dd(Dd::of(1.0).add(Dd::of(x)));
            assert!(
                ln_1p.is_below(ln_1p_up(x)) && close(ln_1p_up(x), ln_1p),
                "ln_1p({x})"
            );
            // −ln on (0, 1): the same spread mapped into [1e-12, 1).
            let y = (x / 40.0).min(0.999_999);
            let neg_ln = ln_dd(Dd::of(y));
            let neg_ln = Dd {
                hi: -neg_ln.hi,
                lo: -neg_ln.lo,
            };
            assert!(
                neg_ln.is_below(neg_ln_up(y)) && close(neg_ln_up(y), neg_ln),
                "−ln({y})"
            );
        }
    }

    use num_bigint::BigInt;

    /// A finite `f64` as the exact rational `m·2^e` (m a signed big integer).
    fn exact(x: f64) -> (BigInt, i32) {
        let (negative, mantissa, exponent) = decompose(x);
        let m = BigInt::from(mantissa);
        (if negative { -m } else { m }, exponent)
    }

    /// Compares `x·2^ex` with `y·2^ey` exactly.
    fn cmp_exact((x, ex): (BigInt, i32), (y, ey): (BigInt, i32)) -> Ordering {
        let e = ex.min(ey);
        let x = x << (ex - e) as usize;
        let y = y << (ey - e) as usize;
        x.cmp(&y)
    }

    fn product((x, ex): (BigInt, i32), (y, ey): (BigInt, i32)) -> (BigInt, i32) {
        (x * y, ex + ey)
    }

    /// `true` when `up` is the smallest `f64` at least the exact value `v`.
    fn is_rounding_up(up: f64, v: &(BigInt, i32)) -> bool {
        cmp_exact(exact(up), v.clone()) != Ordering::Less
            && (up == f64::MIN || cmp_exact(exact(up.next_down()), v.clone()) == Ordering::Less)
    }

    /// A finite `f64` from its sign, exponent field (0..=2046) and fraction bits.
    fn from_fields(negative: bool, field: u64, fraction: u64) -> f64 {
        f64::from_bits((u64::from(negative) << 63) | (field << 52) | (fraction & ((1 << 52) - 1)))
    }

    /// Pairs of finite floats over the whole range; half of them with a product (or
    /// quotient) near or below the subnormal range.
    fn operand_pair() -> impl Strategy<Value = (f64, f64)> {
        (
            any::<(bool, bool, u64, u64)>(),
            0u64..=2046,
            0u64..=2046,
            -1140i64..-960,
            any::<bool>(),
        )
            .prop_map(|((sa, sb, fa, fb), ea, eb, target, steer)| {
                // Steered: the exponent fields sum to about target + 2046.
                let eb = if steer {
                    (target + 2046 - ea as i64).clamp(0, 2046) as u64
                } else {
                    eb
                };
                (from_fields(sa, ea, fa), from_fields(sb, eb, fb))
            })
    }

    #[test]
    fn products_and_quotients_below_the_normal_range_round_up() {
        // Issue 27: to nearest, 1e-300·1e-30 is 0 and its residual rounds to 0 as well,
        // so the product was reported as exactly 0.
        assert_eq!(1e-300 * 1e-30, 0.0);
        assert_eq!(mul_up(1e-300, 1e-30), f64::from_bits(1));
        assert_eq!(mul_up(-1e-300, 1e-30), -0.0);
        assert_eq!(div_up(1e-300, 1e30), f64::from_bits(1));
        // A subnormal product whose residual is below half the smallest subnormal.
        let a = 1.0 + f64::EPSILON;
        let b = f64::from_bits(3); // 3·2^-1074
        let (hi, lo) = two_product(a, b);
        assert_eq!((hi, lo), (b, 0.0), "the residual 3·2^-1126 rounds to 0");
        assert_eq!(mul_up(a, b), f64::from_bits(4));
        // Exact products and quotients stay put, zero and subnormal ones included.
        assert_eq!(mul_up(0.5, f64::from_bits(4)), f64::from_bits(2));
        assert_eq!(mul_up(0.0, 1e-300), 0.0);
        assert_eq!(mul_up(2f64.powi(-600), 2f64.powi(-450)), 2f64.powi(-1050));
        assert_eq!(div_up(f64::from_bits(4), 2.0), f64::from_bits(2));
        assert_eq!(sqrt_up(f64::from_bits(4)), 2f64.powi(-536));
        assert_eq!(sqrt_up(0.0), 0.0);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Against exact rational arithmetic over the whole `f64` range, subnormal and
        /// zero results of nonzero operands included: `mul_up`, `div_up` and `sqrt_up`
        /// return the smallest float at least the exact value (or the overflow).
        #[test]
        fn directed_roundings_are_exact_over_the_whole_range((a, b) in operand_pair()) {
            let up = mul_up(a, b);
            if up.is_finite() {
                let exact_product = product(exact(a), exact(b));
                prop_assert!(is_rounding_up(up, &exact_product), "{a:e}·{b:e} -> {up:e}");
            } else {
                prop_assert!((a * b).is_infinite());
            }
            let divisor = b.abs();
            if divisor > 0.0 {
                let q = div_up(a, divisor);
                if q.is_finite() {
                    // q is the smallest float with q·b ≥ a.
                    prop_assert!(
                        cmp_exact(product(exact(q), exact(divisor)), exact(a)) != Ordering::Less,
                        "{a:e}/{divisor:e} -> {q:e}"
                    );
                    prop_assert!(
                        cmp_exact(product(exact(q.next_down()), exact(divisor)), exact(a))
                            == Ordering::Less,
                        "{a:e}/{divisor:e} -> {q:e} is not the smallest"
                    );
                }
            }
            let radicand = a.abs();
            let s = sqrt_up(radicand);
            prop_assert!(cmp_exact(product(exact(s), exact(s)), exact(radicand)) != Ordering::Less);
            if s > 0.0 {
                let below = s.next_down();
                prop_assert!(
                    cmp_exact(product(exact(below), exact(below)), exact(radicand)) == Ordering::Less
                );
            }
        }

        /// Against exact two-product / division residuals: the result is never below the
        /// exact value and never more than one float above it.
        #[test]
        fn mul_div_sqrt_are_upward_roundings(a in 1e-200f64..1e200, b in 1e-100f64..1e100) {
            let up = mul_up(a, b);
            let (hi, lo) = two_product(a, b);
            // up ≥ hi + lo exactly: up − hi is exact (Sterbenz or zero).
            prop_assert!(up - hi >= lo);
            prop_assert!(up == hi || up == hi.next_up());
            let q = div_up(a, b);
            // q·b ≥ a exactly.
            let (qb_hi, qb_lo) = two_product(q, b);
            prop_assert!((qb_hi - a) + qb_lo >= 0.0); // qb_hi − a is exact (Sterbenz)
            let s = sqrt_up(a);
            prop_assert!(s.mul_add(s, -a) >= 0.0);
            prop_assert!(s.next_down().mul_add(s.next_down(), -a) < 0.0);
        }

        #[test]
        fn add_is_an_upward_rounding(a in -1e10f64..1e10, b in -1e10f64..1e10) {
            let up = add_up(a, b);
            let nearest = a + b;
            prop_assert!(up == nearest || up == nearest.next_up());
            // The exact error of the nearest sum is positive exactly when we stepped.
            prop_assert_eq!(sum_error(a, b) > 0.0, up != nearest);
        }
    }
}
