//! A universal hash family onto m buckets, for the improper point learner's hypotheses
//! (a bucket indicator labels 1 exactly the points hashed into its bucket), with exact
//! bucket counts over any range of points in O(log p) time, so true errors stay exact on
//! domains of 2^40 points.
//!
//! The family: with the Mersenne prime `p = 2^61 − 1`, multiplier `a ∈ [1, p)` and offset
//! `b ∈ [0, p)`, a point x goes to residue `r(x) = (a·x + b) mod p` and to bucket
//! `⌊r(x)·m/p⌋`. Bucket i is the residue interval `[⌈ip/m⌉, ⌈(i+1)p/m⌉)`.
//!
//! *Universality.* For two distinct points `x ≠ y` below p, the map `(a, b) ↦ (r(x), r(y))`
//! is a bijection from `[1, p) × [0, p)` onto the pairs of distinct residues (Carter and
//! Wegman, "Universal classes of hash functions", JCSS 1979; the same argument as Cormen
//! et al., *Introduction to Algorithms*, Theorem 11.5). With bucket sizes `s_i ≤ ⌈p/m⌉`,
//! `Pr[h(x) = h(y)] = Σ_i s_i(s_i − 1)/(p(p − 1)) ≤ (⌈p/m⌉ − 1)/(p − 1) ≤ 1/m`, since
//! `⌈p/m⌉ − 1 ≤ (p − 1)/m`. Points at or above p are not hashed universally, so the
//! learner refuses domains with more than p points.
//!
//! *Counting.* Because buckets are residue intervals, `#{x < n : r(x) < T}` equals
//! `n − Σ_{x<n} (⌊(a·x + b + p − T)/p⌋ − ⌊(a·x + b)/p⌋)` (for `0 ≤ r < p` the bracket is
//! `[r(x) ≥ T]`), and both sums are floor sums `Σ_{x<n} ⌊(a·x + c)/p⌋`, computed by the
//! Euclid-like recursion of the AtCoder Library's `floor_sum` in O(log p) steps.

use rand::{Rng, RngExt};
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// The prime modulus `2^61 − 1` of [`BucketHash`]: points must lie below it.
pub const HASH_PRIME: u64 = (1 << 61) - 1;

/// Most buckets a [`BucketHash`] may have.
pub const MAX_BUCKETS: u64 = 1 << 32;

/// One member `x ↦ ⌊((a·x + b) mod p)·m/p⌋` of the universal family (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "RawBucketHash")]
pub struct BucketHash {
    multiplier: u64,
    offset: u64,
    buckets: u64,
}

/// The unchecked serde form of [`BucketHash`].
#[derive(Deserialize)]
struct RawBucketHash {
    multiplier: u64,
    offset: u64,
    buckets: u64,
}

impl TryFrom<RawBucketHash> for BucketHash {
    type Error = Error;

    fn try_from(raw: RawBucketHash) -> Result<Self> {
        BucketHash::new(raw.multiplier, raw.offset, raw.buckets)
    }
}

impl BucketHash {
    /// The member with multiplier `a`, offset `b` and `m` buckets.
    ///
    /// # Errors
    /// [`Error::InvalidClass`] unless `1 ≤ a < p`, `b < p` and `1 ≤ m ≤` [`MAX_BUCKETS`].
    pub fn new(multiplier: u64, offset: u64, buckets: u64) -> Result<Self> {
        if !(1..HASH_PRIME).contains(&multiplier) || offset >= HASH_PRIME {
            return Err(Error::InvalidClass {
                reason: format!(
                    "hash multiplier {multiplier} and offset {offset} must satisfy 1 ≤ a < 2^61 − 1 and b < 2^61 − 1"
                ),
            });
        }
        if !(1..=MAX_BUCKETS).contains(&buckets) {
            return Err(Error::InvalidClass {
                reason: format!("{buckets} hash buckets: need between 1 and 2^32"),
            });
        }
        Ok(BucketHash {
            multiplier,
            offset,
            buckets,
        })
    }

    /// A member drawn uniformly from the family (a uniform in `[1, p)`, b uniform in
    /// `[0, p)`, exactly: rand's unbiased integer ranges).
    ///
    /// # Errors
    /// As [`BucketHash::new`] for the number of buckets.
    pub fn draw<R: Rng + ?Sized>(buckets: u64, rng: &mut R) -> Result<Self> {
        let multiplier = rng.random_range(1..HASH_PRIME);
        let offset = rng.random_range(0..HASH_PRIME);
        BucketHash::new(multiplier, offset, buckets)
    }

    /// The multiplier a.
    pub fn multiplier(&self) -> u64 {
        self.multiplier
    }

    /// The offset b.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The number of buckets m.
    pub fn buckets(&self) -> u64 {
        self.buckets
    }

    /// The residue `(a·x + b) mod p`, by Mersenne reduction (`2^61 ≡ 1 mod p`: fold the
    /// high bits onto the low ones) instead of a 128-bit division.
    pub fn residue(&self, x: u64) -> u64 {
        let value = u128::from(self.multiplier) * u128::from(x) + u128::from(self.offset);
        let p = u128::from(HASH_PRIME);
        // value < 2^125: one fold leaves < 2^64 + 2^61, a second < 2^61 + 8.
        let folded = (value & p) + (value >> 61);
        let folded = (folded & p) + (folded >> 61);
        let mut residue = folded as u64;
        if residue >= HASH_PRIME {
            residue -= HASH_PRIME;
        }
        residue
    }

    /// The bucket `⌊r(x)·m/p⌋ ∈ [0, m)` of point x (the quotient by `p = 2^61 − 1` from a
    /// shift and at most two corrections, not a 128-bit division).
    pub fn bucket(&self, x: u64) -> u64 {
        let t = u128::from(self.residue(x)) * u128::from(self.buckets);
        // t = q·2^61 + low = q·p + (q + low) with q < 2^32, so the remainder q + low is
        // below 2p + 2^32: at most two subtractions of p.
        let mut quotient = (t >> 61) as u64;
        let mut remainder = (t & u128::from(HASH_PRIME)) as u64 + quotient;
        while remainder >= HASH_PRIME {
            remainder -= HASH_PRIME;
            quotient += 1;
        }
        quotient
    }

    /// The residues of bucket i: `[⌈ip/m⌉, ⌈(i+1)p/m⌉)` (empty for `i ≥ m`).
    pub fn residue_range(&self, bucket: u64) -> (u64, u64) {
        let start = |i: u64| -> u64 {
            let i = i.min(self.buckets);
            (u128::from(i) * u128::from(HASH_PRIME)).div_ceil(u128::from(self.buckets)) as u64
        };
        (start(bucket), start(bucket.saturating_add(1)))
    }

    /// `#{x < n : h(x) = bucket}`, exactly, in O(log p) time.
    ///
    /// # Errors
    /// [`Error::TooLarge`] for `n > p` (the family is universal only below p).
    pub fn count_below(&self, bucket: u64, n: u64) -> Result<u64> {
        if n > HASH_PRIME {
            return Err(Error::TooLarge {
                what: "a hash bucket count",
                needed: u128::from(n),
                unit: "points",
                limit: u128::from(HASH_PRIME),
            });
        }
        let (lo, hi) = self.residue_range(bucket);
        Ok(self.residues_below(hi, n) - self.residues_below(lo, n))
    }

    /// `#{x < n : r(x) < t}` for `t ≤ p` and `n ≤ p`.
    fn residues_below(&self, t: u64, n: u64) -> u64 {
        let p = u128::from(HASH_PRIME);
        let (a, b, n) = (
            u128::from(self.multiplier),
            u128::from(self.offset),
            u128::from(n),
        );
        let at_least = floor_sum(n, p, a, b + p - u128::from(t)) - floor_sum(n, p, a, b);
        (n - at_least) as u64
    }
}

/// `Σ_{i<n} ⌊(a·i + b)/m⌋` for `m ≥ 1` (the AtCoder Library's `floor_sum`, unsigned).
/// Every intermediate value is at most the final sum or `a·n + b`, both below 2^125 for
/// `n, a < 2^61`, `b < 2^62`, `m = p`.
fn floor_sum(mut n: u128, mut m: u128, mut a: u128, mut b: u128) -> u128 {
    let mut sum = 0;
    loop {
        if a >= m {
            sum += n * n.saturating_sub(1) / 2 * (a / m);
            a %= m;
        }
        if b >= m {
            sum += n * (b / m);
            b %= m;
        }
        let y_max = a * n + b;
        if y_max < m {
            return sum;
        }
        n = y_max / m;
        b = y_max % m;
        std::mem::swap(&mut m, &mut a);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    /// The reductions agree with 128-bit division, at random and at the extremes.
    #[test]
    fn fast_reductions_match_division() {
        use rand::RngExt;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
        let p = u128::from(HASH_PRIME);
        let mut cases: Vec<(u64, u64, u64, u64)> = (0..100_000)
            .map(|_| {
                (
                    rng.random_range(1..HASH_PRIME),
                    rng.random_range(0..HASH_PRIME),
                    rng.random_range(1..=MAX_BUCKETS),
                    rng.random::<u64>(),
                )
            })
            .collect();
        for a in [1, HASH_PRIME - 1] {
            for b in [0, HASH_PRIME - 1] {
                for m in [1, 2, MAX_BUCKETS] {
                    for x in [0, 1, HASH_PRIME - 1, HASH_PRIME, u64::MAX] {
                        cases.push((a, b, m, x));
                    }
                }
            }
        }
        for (a, b, m, x) in cases {
            let hash = BucketHash::new(a, b, m).unwrap();
            let residue = (u128::from(a) * u128::from(x) + u128::from(b)) % p;
            assert_eq!(u128::from(hash.residue(x)), residue, "a={a} b={b} x={x}");
            let bucket = residue * u128::from(m) / p;
            assert_eq!(
                u128::from(hash.bucket(x)),
                bucket,
                "a={a} b={b} m={m} x={x}"
            );
        }
    }

    #[test]
    fn floor_sums_match_the_definition() {
        for (n, m, a, b) in [
            (0, 5, 3, 2),
            (10, 7, 3, 11),
            (100, 13, 29, 5),
            (57, 1, 4, 9),
        ] {
            let direct: u128 = (0..n).map(|i| (a * i + b) / m).sum();
            assert_eq!(floor_sum(n, m, a, b), direct, "n={n} m={m} a={a} b={b}");
        }
    }

    #[test]
    fn buckets_are_the_residue_intervals_and_counts_are_exact() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        for buckets in [1, 2, 7, 900, 1 << 20] {
            let hash = BucketHash::draw(buckets, &mut rng).unwrap();
            let mut counts = std::collections::HashMap::new();
            for x in 0..5000u64 {
                let i = hash.bucket(x);
                assert!(i < buckets);
                let (lo, hi) = hash.residue_range(i);
                assert!((lo..hi).contains(&hash.residue(x)));
                *counts.entry(i).or_insert(0u64) += 1;
            }
            for i in [0, buckets / 2, buckets - 1] {
                for n in [0, 1, 1234, 5000] {
                    let direct = (0..n).filter(|&x| hash.bucket(x) == i).count() as u64;
                    assert_eq!(hash.count_below(i, n).unwrap(), direct);
                }
            }
            let total: u64 = (0..buckets.min(64))
                .map(|i| hash.count_below(i, 5000).unwrap())
                .sum();
            let listed: u64 = (0..buckets.min(64))
                .map(|i| counts.get(&i).copied().unwrap_or(0))
                .sum();
            assert_eq!(total, listed);
        }
    }

    #[test]
    fn counts_over_the_largest_domain_add_up() {
        let hash = BucketHash::new(HASH_PRIME - 2, HASH_PRIME - 1, 3).unwrap();
        let total: u64 = (0..3)
            .map(|i| hash.count_below(i, HASH_PRIME).unwrap())
            .sum();
        assert_eq!(total, HASH_PRIME);
        assert!(hash.count_below(0, HASH_PRIME + 1).is_err());
        // Below p, the residues of 0..p are a permutation: bucket sizes are the interval
        // lengths.
        for i in 0..3 {
            let (lo, hi) = hash.residue_range(i);
            assert_eq!(hash.count_below(i, HASH_PRIME).unwrap(), hi - lo);
        }
    }

    /// Universality, exactly, on a miniature of the family: the same construction with
    /// the prime 31 in place of 2^61 − 1 has collision probability at most 1/m for every
    /// pair, counted over all 31·30 members.
    #[test]
    fn the_construction_is_universal_on_a_small_prime() {
        let p: u64 = 31;
        for m in [2u64, 3, 5, 7, 10] {
            for x in 0..p {
                for y in x + 1..p {
                    let mut collisions = 0u64;
                    for a in 1..p {
                        for b in 0..p {
                            let h = |z: u64| ((a * z + b) % p) * m / p;
                            collisions += u64::from(h(x) == h(y));
                        }
                    }
                    // collisions / (p(p-1)) ≤ 1/m
                    assert!(
                        collisions * m <= p * (p - 1),
                        "m={m} x={x} y={y}: {collisions}"
                    );
                }
            }
        }
    }

    #[test]
    fn bad_parameters_are_errors_and_serde_checks_them() {
        assert!(BucketHash::new(0, 0, 2).is_err());
        assert!(BucketHash::new(1, HASH_PRIME, 2).is_err());
        assert!(BucketHash::new(1, 0, 0).is_err());
        assert!(BucketHash::new(1, 0, MAX_BUCKETS + 1).is_err());
        let hash = BucketHash::new(5, 7, 9).unwrap();
        let json = serde_json::to_string(&hash).unwrap();
        assert_eq!(serde_json::from_str::<BucketHash>(&json).unwrap(), hash);
        assert!(
            serde_json::from_str::<BucketHash>(r#"{"multiplier":0,"offset":0,"buckets":2}"#)
                .is_err()
        );
    }
}
