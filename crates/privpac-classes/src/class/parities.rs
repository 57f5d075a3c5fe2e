//! `PAR_d`: parities `c_a(y) = ⟨a, y⟩ mod 2` over the hypercube, with their error profile
//! by the Walsh–Hadamard transform (d ≤ 28) and a consistent parity by Gaussian
//! elimination over GF(2) at every d ≤ 64.

use crate::class::closed_form::{ClosedFormVc, Family};
use crate::class::parity_labelings::{Echelon, reduce};
use crate::class::{ConceptClass, Consistency, ERROR_PROFILE_LIMIT, check_sample, dense_len};
use crate::domain::{Domain, Point};
use crate::error::{Error, Result};
use crate::sample::LabeledSample;

/// Parity functions over `{0,1}^d`: concept `a ∈ {0,1}^d` labels `y` with the parity of
/// `a & y`. VC dimension d and Littlestone dimension d.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parities {
    domain: Domain,
    dim: u32,
}

impl Parities {
    /// Parities over `{0,1}^dim`.
    ///
    /// # Errors
    /// [`crate::Error::InvalidDomain`] unless 1 ≤ dim ≤ 64.
    pub fn new(dim: u32) -> Result<Self> {
        Ok(Parities {
            domain: Domain::hypercube(dim)?,
            dim,
        })
    }
}

impl ConceptClass for Parities {
    /// d, exactly.
    fn vc_dimension_closed_form(&self) -> Option<ClosedFormVc> {
        Some(ClosedFormVc::exact(
            u64::from(self.dim),
            "parities:d",
            Some(Family::Parities),
        ))
    }
    fn domain(&self) -> &Domain {
        &self.domain
    }

    fn len(&self) -> u128 {
        1u128 << self.dim
    }

    fn eval(&self, id: u64, x: Point) -> bool {
        (id & x).count_ones() % 2 == 1
    }

    fn name(&self) -> String {
        format!("parities:{}", self.dim)
    }

    /// `parity of coordinates {1, 2, 3, 5} (bit string 0111010000)`: concept `a` is
    /// `x ↦ ⟨a, x⟩ mod 2`, and its bit string is `a` written as a point of the domain
    /// (coordinate 0 first), the orientation of data files.
    fn describe(&self, id: u64) -> String {
        let coordinates: Vec<String> = (0..self.dim)
            .filter(|i| id >> i & 1 == 1)
            .map(|i| i.to_string())
            .collect();
        let bits = self.domain.format_point(id);
        if coordinates.is_empty() {
            format!("parity of no coordinates (all zeros; bit string {bits})")
        } else {
            format!(
                "parity of coordinates {{{}}} (bit string {bits})",
                coordinates.join(", ")
            )
        }
    }

    /// The fast Walsh–Hadamard transform, O(n + d·2^d): with `f(x) = Σ_{i: x_i = x}
    /// (−1)^{y_i}`, the transform `F(a) = Σ_x f(x)(−1)^{⟨a,x⟩}` counts agreements minus
    /// disagreements of concept `a`, so `errors(a) = (n − F(a))/2`. The transform runs in
    /// 32-bit integers when n fits (|F| ≤ n) and is blocked for the cache
    /// (radix-4 above a 64 KiB block).
    ///
    /// # Errors
    /// [`Error::OutOfReach`] above 2^28 parities, naming why no structured profile
    /// replaces the dense one (see the message).
    fn error_counts(&self, sample: &LabeledSample) -> Result<Vec<u64>> {
        check_sample(&self.domain, sample)?;
        if self.len() > ERROR_PROFILE_LIMIT {
            return Err(Error::OutOfReach {
                what: format!(
                    "the error profile of {} (the number of mistakes of each of 2^{} parities)",
                    self.name(),
                    self.dim
                ),
                reason: "the number of parities a with each number of mistakes on (x_i, y_i) \
                         is the weight distribution of the coset y + {(<a, x_i>)_i} of a \
                         binary linear code of length n and dimension up to d, and computing \
                         weight distributions of binary linear codes is #P-hard (an evaluation \
                         of the Tutte polynomial of a binary matroid, Vertigan-Welsh 1992); \
                         even the fewest mistakes alone is maximum-likelihood decoding, \
                         NP-hard (Berlekamp-McEliece-van Tilborg 1978). So only the 2^d \
                         parities one by one give it, beyond 2^28 here; ERM finds a \
                         consistent parity by Gaussian elimination at every d"
                    .into(),
            });
        }
        let len = dense_len(self)?;
        let n = sample.len() as i64;
        // |F(a)| ≤ n: 32-bit sums halve the memory the transform streams through.
        if let Ok(n32) = i32::try_from(n) {
            let mut f = vec![0i32; len];
            for (x, y) in sample.iter() {
                f[x as usize] += if y { -1 } else { 1 };
            }
            walsh_hadamard(&mut f);
            return Ok(f
                .into_iter()
                .map(|agreement| ((n32 - agreement) / 2) as u64)
                .collect());
        }
        let mut f = vec![0i64; len];
        for (x, y) in sample.iter() {
            f[x as usize] += if y { -1 } else { 1 };
        }
        walsh_hadamard(&mut f);
        Ok(f.into_iter()
            .map(|agreement| ((n - agreement) / 2) as u64)
            .collect())
    }

    /// Gaussian elimination over GF(2), O(n·d + d³/64) word operations: the examples are
    /// the equations `⟨a, x_i⟩ = y_i` in the unknown `a ∈ {0,1}^d`. Each is reduced against
    /// the rows kept so far (one row per leading bit); an equation that reduces to
    /// `0 = 1` proves that no parity is consistent. Otherwise the solutions are the affine
    /// space `a₀ + K` (`a₀` the solution with every free coordinate 0, `K` the kernel), and
    /// its smallest element as an integer (the smallest id, ERM's tie rule) is `a₀` reduced
    /// greedily, from the top bit down, by a basis of `K` with distinct leading bits.
    fn smallest_consistent(&self, sample: &LabeledSample) -> Result<Option<Consistency>> {
        check_sample(&self.domain, sample)?;
        let mut echelon = Echelon::new(self.dim);
        for (x, y) in sample.iter() {
            if echelon.insert(x, y) == Some(true) {
                return Ok(Some(Consistency::Inconsistent));
            }
        }
        let particular = echelon.solve(0, &|rhs| rhs);
        Ok(Some(Consistency::Consistent(reduce(
            &echelon.kernel(),
            particular,
        ))))
    }

    /// `Some(d)`: concept `a` is the parity `⟨a, x⟩ mod 2` over `{0,1}^d`.
    fn parity_structure(&self) -> Option<u32> {
        Some(self.dim)
    }
}

/// Elements of a block whose lower levels of the transform run while it stays in cache
/// (64 KiB of `i32`).
const CACHE_BLOCK: usize = 1 << 14;

/// The fast Walsh–Hadamard transform in place, `F(a) = Σ_x f(x)(−1)^{⟨a,x⟩}`, for a
/// length that is a power of two: the butterflies `(u, v) ↦ (u + v, u − v)` of level h
/// pair the entries h apart, and the levels commute. The levels below the cache block
/// (2^14 entries) run block by block (each block in cache), the levels above two at a time
/// (the radix-4 butterfly of levels h and 2h on the entries `j, j + h, j + 2h, j + 3h`), so
/// the array is streamed about `1 + ⌈(d − 14)/2⌉` times instead of d. Integer arithmetic:
/// the result does not depend on the order of the levels. Used by the parities' error
/// profile and by the engine's exact true error of a vote of parities.
///
/// # Panics
/// If the length is neither 0, 1 nor a power of two (a programming error: callers size the
/// array as 2^d).
pub fn walsh_hadamard<T>(f: &mut [T])
where
    T: Copy + std::ops::Add<Output = T> + std::ops::Sub<Output = T>,
{
    assert!(
        f.len() <= 1 || f.len().is_power_of_two(),
        "the Walsh–Hadamard transform needs a power-of-two length, got {}",
        f.len()
    );
    let len = f.len();
    let block = CACHE_BLOCK.min(len);
    for chunk in f.chunks_mut(block) {
        let mut half = 1;
        while half < chunk.len() {
            for pair in chunk.chunks_mut(2 * half) {
                let (low, high) = pair.split_at_mut(half);
                for (u, v) in low.iter_mut().zip(high.iter_mut()) {
                    let (a, b) = (*u, *v);
                    *u = a + b;
                    *v = a - b;
                }
            }
            half *= 2;
        }
    }
    let mut half = block;
    while half < len {
        if 4 * half <= len {
            for quad in f.chunks_mut(4 * half) {
                let (low, high) = quad.split_at_mut(2 * half);
                let (q0, q1) = low.split_at_mut(half);
                let (q2, q3) = high.split_at_mut(half);
                for (((w, x), y), z) in q0
                    .iter_mut()
                    .zip(q1.iter_mut())
                    .zip(q2.iter_mut())
                    .zip(q3.iter_mut())
                {
                    let (a, b, c, d) = (*w, *x, *y, *z);
                    let (s0, d0, s1, d1) = (a + b, a - b, c + d, c - d);
                    *w = s0 + s1;
                    *x = d0 + d1;
                    *y = s0 - s1;
                    *z = d0 - d1;
                }
            }
            half *= 4;
        } else {
            for pair in f.chunks_mut(2 * half) {
                let (low, high) = pair.split_at_mut(half);
                for (u, v) in low.iter_mut().zip(high.iter_mut()) {
                    let (a, b) = (*u, *v);
                    *u = a + b;
                    *v = a - b;
                }
            }
            half *= 2;
        }
    }
}

#[cfg(test)]
mod tests {
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::class::brute_force_error_counts;

    /// The blocked transform's profile equals the point-by-point count on cubes below,
    /// at and above the cache block (an odd and an even number of levels above it), on
    /// seeded random samples with repeated points.
    #[test]
    fn blocked_profile_equals_brute_force() {
        let mut rng = ChaCha8Rng::seed_from_u64(3806);
        for dim in [1u32, 2, 5, 13, 14, 15, 16, 17] {
            let class = Parities::new(dim).unwrap();
            for _ in 0..3 {
                let n = rng.random_range(1usize..30);
                let pairs: Vec<(u64, bool)> = (0..n)
                    .map(|_| (rng.random_range(0..1u64 << dim), rng.random_bool(0.5)))
                    .collect();
                let sample = LabeledSample::from_pairs(class.domain(), &pairs).unwrap();
                assert_eq!(
                    class.error_counts(&sample).unwrap(),
                    brute_force_error_counts(&class, &sample).unwrap(),
                    "parities:{dim} {pairs:?}"
                );
            }
        }
    }

    /// The 64-bit transform (for samples beyond 2^31 − 1 examples) against the definition
    /// `F(a) = Σ_x f(x)(−1)^{⟨a,x⟩}` on sparse inputs with large values, across the
    /// cache block.
    #[test]
    fn wide_transform_matches_the_definition() {
        let mut rng = ChaCha8Rng::seed_from_u64(3807);
        for dim in [3u32, 14, 16, 17] {
            let len = 1usize << dim;
            let entries: Vec<(usize, i64)> = (0..6)
                .map(|_| {
                    (
                        rng.random_range(0..len),
                        rng.random_range(-(1i64 << 40)..1 << 40),
                    )
                })
                .collect();
            let mut f = vec![0i64; len];
            for &(x, value) in &entries {
                f[x] += value;
            }
            walsh_hadamard(&mut f);
            for (a, &transformed) in f.iter().enumerate() {
                let direct: i64 = entries
                    .iter()
                    .map(|&(x, value)| {
                        if (a & x).count_ones() % 2 == 1 {
                            -value
                        } else {
                            value
                        }
                    })
                    .sum();
                assert_eq!(transformed, direct, "parities:{dim} a = {a}");
            }
        }
    }
}
