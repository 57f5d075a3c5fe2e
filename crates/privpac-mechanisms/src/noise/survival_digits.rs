//! The exact binary digits of the discrete Laplace survival function, from rigorous
//! big-integer bounds on `e^y` for rational `y`.
//!
//! For `Lap_Z(b)` with `x = 1/b = s/t`, the magnitude's survival function is
//! `c_m = Pr[|X| ≥ m] = 2e^{-mx} / (1 + e^{-x}) = 2 / (e^{mx} + e^{(m-1)x})` for `m ≥ 1`.
//! The table sampler compares a uniform `U` with `c_m` by its binary digits, so it needs
//! `⌊c_m · 2^w⌋` *exactly*. This module computes it: `e^{a/t}` is enclosed in an interval
//! of integers scaled by `2^q` (Taylor series with floor and ceiling rounding and a bound on
//! the tail), the interval is carried through the quotient, and `q` grows until both ends
//! have the same floor. That loop always ends: `c_m` is irrational (if it were a rational
//! `r`, `e^{-x}` would be a root of `2z^m − rz − r`, an algebraic number, which
//! Lindemann–Weierstrass rules out for rational `x ≠ 0`), so `c_m·2^w` is never an integer
//! and a fine enough interval has one floor.

use num_bigint::BigUint;

/// An interval `[lo, hi]` of integers enclosing a real `v · 2^q`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Enclosure {
    pub(crate) lo: BigUint,
    pub(crate) hi: BigUint,
}

/// Encloses `e^{a/t} · 2^q` (`t ≥ 1`).
///
/// The Taylor terms `y^n/n!` are carried once rounded down and once rounded up; after the
/// term `n` with `y/(n+1) ≤ 1/2` the rest of the series is at most that term (a geometric
/// series of ratio ≤ 1/2), which the upper end adds.
pub(crate) fn exp_enclosure(a: &BigUint, t: &BigUint, q: u32) -> Enclosure {
    let one = BigUint::from(1u32) << q;
    let (mut lo_term, mut hi_term) = (one.clone(), one.clone());
    let (mut lo, mut hi) = (one.clone(), one);
    let twice_a = a * 2u32;
    let mut n: u64 = 0;
    loop {
        n += 1;
        let denominator = t * n;
        lo_term = &lo_term * a / &denominator;
        hi_term = (&hi_term * a + &denominator - 1u32) / &denominator;
        lo += &lo_term;
        hi += &hi_term;
        // Ratio of the next term to this one: y/(n+1) ≤ 1/2 ⇔ 2a ≤ t(n+1).
        if twice_a <= t * (n + 1) && hi_term.bits() <= 1 {
            hi += &hi_term;
            return Enclosure { lo, hi };
        }
    }
}

/// `⌊c_m · 2^w⌋` exactly, for `c_m = Pr[|Lap_Z(t/s)| ≥ m]` and `m ≥ 1`.
pub(crate) fn survival_floor(s: u64, t: u64, m: u64, w: u32) -> BigUint {
    debug_assert!(m >= 1 && s >= 1 && t >= 1);
    let (t_big, a_m, a_prev) = (
        BigUint::from(t),
        BigUint::from(s) * m,
        BigUint::from(s) * (m - 1),
    );
    // c_m < 2e^{-mx} < 2^{-w} once mx ≥ 0.7·(w + 1) > (w + 1)·ln 2: the floor is 0 (and the
    // series below would need about mx terms).
    if &a_m * 10u32 >= &t_big * 7u32 * (u64::from(w) + 1) {
        return BigUint::ZERO;
    }
    let mut q = w + 64;
    loop {
        let upper = exp_enclosure(&a_m, &t_big, q);
        let lower = exp_enclosure(&a_prev, &t_big, q);
        if let Some(floor) = floor_of_quotient(w, q, &upper, &lower) {
            return floor;
        }
        q = q.saturating_mul(2);
    }
}

/// `⌊2^{w+1} / (E_m + E_{m−1})⌋` when the enclosures (scaled by `2^q`) pin it down.
pub(crate) fn floor_of_quotient(
    w: u32,
    q: u32,
    e_m: &Enclosure,
    e_prev: &Enclosure,
) -> Option<BigUint> {
    let numerator = BigUint::from(1u32) << (w + 1 + q);
    let low = &numerator / (&e_m.hi + &e_prev.hi);
    let high = &numerator / (&e_m.lo + &e_prev.lo);
    (low == high).then_some(low)
}

/// `⌊c_m · 2^63⌋` for `m = 1..=len`: the sampler's table.
///
/// `e^{mx}` is enclosed as the `m`-th power of the enclosure of `e^x` (rounded outward at
/// each product), which is cheap; the rare entry the product's wider interval leaves open is
/// recomputed by [`survival_floor`] at growing precision.
pub(crate) fn survival_table(s: u64, t: u64, len: usize) -> Vec<u64> {
    const W: u32 = 63;
    const Q: u32 = 192;
    // x = s/t ≥ 0.7·64 > 64·ln 2: every c_m < 2e^{-x} is below 2^-63 and every entry is 0
    // (and the series for e^x would need about x terms; x may be 2^62).
    if u128::from(s) * 10 >= u128::from(t) * 7 * u128::from(W + 1) {
        return vec![0; len];
    }
    let t_big = BigUint::from(t);
    let one = Enclosure {
        lo: BigUint::from(1u32) << Q,
        hi: BigUint::from(1u32) << Q,
    };
    let base = exp_enclosure(&BigUint::from(s), &t_big, Q);
    let mut previous = one;
    let mut table = Vec::with_capacity(len);
    for m in 1..=len as u64 {
        let current = Enclosure {
            lo: (&previous.lo * &base.lo) >> Q,
            hi: ((&previous.hi * &base.hi) >> Q) + 1u32,
        };
        let floor = floor_of_quotient(W, Q, &current, &previous)
            .unwrap_or_else(|| survival_floor(s, t, m, W));
        // c_m < 1 for m ≥ 1, so the floor is below 2^63.
        table.push(u64::try_from(&floor).expect("c_m < 1"));
        previous = current;
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enclosures_contain_e_and_are_tight() {
        // e = 2.718281828459045235360287471352662497757...; e·2^64 in [lo, hi].
        let e = exp_enclosure(&BigUint::from(1u32), &BigUint::from(1u32), 64);
        // ⌊e·2^64⌋ = 50143449209799256682 (mpmath: floor(mp.e * 2**64) at 60 digits).
        let floor = BigUint::from(50_143_449_209_799_256_682u128);
        assert!(e.lo <= floor && floor < e.hi);
        assert!(&e.hi - &e.lo <= BigUint::from(300u32), "{:?}", e);
        // e^0 is exact.
        let zero = exp_enclosure(&BigUint::ZERO, &BigUint::from(7u32), 10);
        assert_eq!(zero.lo, BigUint::from(1024u32));
        assert_eq!(zero.hi, BigUint::from(1024u32));
    }

    #[test]
    fn survival_floors_match_high_precision_references() {
        // Each reference is mpmath at 80 digits:
        // floor(2*exp(-m*s/t)/(1+exp(-s/t)) * 2**w).
        let cases: [(u64, u64, u64, u32, u128); 6] = [
            (1, 1, 1, 63, 4_961_093_570_831_980_853),
            (1, 1, 5, 63, 90_865_598_336_579_348),
            (1, 10, 1, 63, 8_762_587_358_261_559_784),
            (1, 10, 37, 63, 239_426_504_897_293_401),
            (3, 7, 2, 100, 651_500_265_891_986_770_330_330_554_898),
            (1, 1, 44, 63, 1),
        ];
        for (s, t, m, w, expected) in cases {
            assert_eq!(
                survival_floor(s, t, m, w),
                BigUint::from(expected),
                "s/t = {s}/{t}, m = {m}, w = {w}"
            );
        }
        // Far in the tail the floor is 0 without a series.
        assert_eq!(survival_floor(1, 1, 1000, 63), BigUint::ZERO);
        assert_eq!(survival_floor(1 << 62, 1, 1, 63), BigUint::ZERO);
    }

    #[test]
    fn the_power_table_equals_the_direct_floors() {
        for (s, t) in [(1, 1), (1, 10), (10, 1), (3, 7), (1, 1000), (5, 2)] {
            let len = 60;
            let table = survival_table(s, t, len);
            for (index, &entry) in table.iter().enumerate() {
                let direct = survival_floor(s, t, index as u64 + 1, 63);
                assert_eq!(
                    BigUint::from(entry),
                    direct,
                    "s/t = {s}/{t}, m = {}",
                    index + 1
                );
            }
            assert!(table.windows(2).all(|w| w[0] >= w[1]));
        }
        // The smallest scale, 2^-62: x = 2^62, every entry 0, computed without a series.
        assert_eq!(survival_table(1 << 62, 1, 3), vec![0, 0, 0]);
        assert_eq!(survival_table(45, 1, 1), vec![0]);
        assert_eq!(survival_floor(45, 1, 1, 63), BigUint::ZERO);
    }
}
