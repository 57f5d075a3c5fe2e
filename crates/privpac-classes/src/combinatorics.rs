//! Saturating binomial coefficients and lexicographic enumeration of k-subsets: the one
//! copy shared by the growth function here, the stable learner's exact distribution and
//! the Blum–Ligett–Roth sanitizer's candidate count.

/// `C(n, k)`, or `u128::MAX` when the true value does not fit (saturating; never panics).
///
/// Exact whenever the result fits: each step computes `C(n, i+1) = C(n, i)·(n−i)/(i+1)`
/// after cancelling `g = gcd(C(n, i), i+1)`, so the only multiplication is
/// `(C(n, i)/g)·((n−i)/((i+1)/g))`, a product of two integers whose value *is*
/// `C(n, i+1)`; it overflows only if `C(n, i+1)` does, and the sequence `C(n, i)` for
/// `i ≤ min(k, n−k)` is non-decreasing, so saturating there is exact saturation.
///
/// # Example
/// ```
/// use privpac_classes::combinatorics::binomial;
/// assert_eq!(binomial(10, 3), 120);
/// assert_eq!(binomial(3, 5), 0);
/// assert!(binomial(131, 65) < u128::MAX); // ≈ 1.9·10^38 still fits
/// assert_eq!(binomial(132, 66), u128::MAX); // ≈ 7.5·10^38 does not
/// ```
pub fn binomial(n: u128, k: u128) -> u128 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    let mut result: u128 = 1;
    for i in 0..k {
        let divisor = i + 1;
        let g = gcd(result, divisor);
        // (i+1)/g divides (n−i): (i+1) divides C(n,i)·(n−i) and is coprime to C(n,i)/g
        // after the cancellation.
        let factor = (n - i) / (divisor / g);
        match (result / g).checked_mul(factor) {
            Some(next) => result = next,
            None => return u128::MAX,
        }
    }
    result
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// Advances `subset` (strictly increasing indices below `n`) to the next k-subset of
/// `0..n` in lexicographic order, `k = subset.len()`; returns `false` after the last one
/// (and for `k > n` or `k = 0`, where there is nothing to advance). Start from
/// `[0, 1, …, k−1]` to visit all `C(n, k)` subsets.
///
/// # Example
/// ```
/// use privpac_classes::combinatorics::next_combination;
/// let mut subset = vec![0, 1];
/// let mut all = vec![subset.clone()];
/// while next_combination(&mut subset, 4) {
///     all.push(subset.clone());
/// }
/// assert_eq!(all.len(), 6);
/// assert_eq!(all.last(), Some(&vec![2, 3]));
/// ```
pub fn next_combination(subset: &mut [usize], n: usize) -> bool {
    let k = subset.len();
    if k > n {
        return false;
    }
    for i in (0..k).rev() {
        if subset[i] < n - k + i {
            subset[i] += 1;
            for j in i + 1..k {
                subset[j] = subset[j - 1] + 1;
            }
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// Pascal's triangle with saturating additions: the reference.
    fn pascal(rows: usize) -> Vec<Vec<u128>> {
        let mut table = vec![vec![1u128]];
        for n in 1..rows {
            let previous = &table[n - 1];
            let mut row = vec![1u128; n + 1];
            for k in 1..n {
                row[k] = previous[k - 1].saturating_add(previous[k]);
            }
            table.push(row);
        }
        table
    }

    #[test]
    fn matches_pascals_triangle_and_saturates_exactly() {
        // From row 132 on the middle values exceed u128::MAX ≈ 3.4·10^38.
        let table = pascal(140);
        let mut saturated = 0;
        for (n, row) in table.iter().enumerate() {
            for (k, &expected) in row.iter().enumerate() {
                assert_eq!(binomial(n as u128, k as u128), expected, "C({n}, {k})");
                saturated += usize::from(expected == u128::MAX);
            }
        }
        assert!(saturated > 0, "the table must reach saturation");
        // C(131, 65) ≈ 1.9·10^38 fits in u128, though the naive C·(n−i) product overflows.
        assert!(binomial(131, 65) < u128::MAX);
        assert_eq!(binomial(131, 65), table[131][65]);
    }

    #[test]
    fn overflow_saturates_instead_of_panicking() {
        assert_eq!(binomial(1000, 500), u128::MAX);
        assert_eq!(binomial(u128::MAX, 2), u128::MAX);
        assert_eq!(binomial(u128::MAX, 1), u128::MAX);
        assert_eq!(binomial(u128::MAX, u128::MAX), 1);
        assert_eq!(binomial(1 << 100, 4), u128::MAX);
        assert_eq!(binomial(5, 0), 1);
        assert_eq!(binomial(3, 5), 0);
    }

    #[test]
    fn enumeration_visits_every_subset_once_in_order() {
        for n in 0..8usize {
            for k in 1..=n {
                let mut subset: Vec<usize> = (0..k).collect();
                let mut seen = vec![subset.clone()];
                while next_combination(&mut subset, n) {
                    seen.push(subset.clone());
                }
                assert_eq!(seen.len() as u128, binomial(n as u128, k as u128));
                assert!(seen.windows(2).all(|w| w[0] < w[1]));
                assert!(seen.iter().all(|s| s.windows(2).all(|w| w[0] < w[1])));
            }
        }
        assert!(!next_combination(&mut [0, 1, 2], 2));
        assert!(!next_combination(&mut [], 3));
    }

    proptest! {
        #[test]
        fn symmetric_and_satisfies_pascal(n in 1u128..400, k in 0u128..400) {
            prop_assume!(k <= n);
            prop_assert_eq!(binomial(n, k), binomial(n, n - k));
            if k >= 1 {
                let sum = binomial(n - 1, k - 1).saturating_add(binomial(n - 1, k));
                prop_assert_eq!(binomial(n, k), sum);
            }
        }
    }
}
