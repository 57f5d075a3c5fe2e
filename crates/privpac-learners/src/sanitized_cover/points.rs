//! The sanitizer learners on point functions over an ordered domain `[N]`
//! ([`ConceptClass::point_structure`]) without a dense representation: C⊕ is
//! `POINT_[N] ⊕ POINT_[N]` ([`XorPoints`], pairs of points), sanitized by the sanitizer's
//! structured entry point when it has one ([`Sanitizer::sanitize_point_xor`]: MWEM over
//! pieces) and otherwise on the class (the dense XOR class where its ids fit, the same path
//! and outputs as before; [`XorPoints`] above, whose domain is all the point and tree
//! sanitizers read), and the cover of the points on a small database is
//! [`point_cover`], O(|B|) instead of O(|C|·|B|).

use privpac_classes::{ConceptClass, Point, Xor, XorPoints};
use privpac_sanitizers::{PiecewiseDistribution, Sanitizer, SyntheticDatabase};
use rand::Rng;

use crate::error::{Error, Result};

/// A sanitization of the sample's points for `POINT_[N] ⊕ POINT_[N]`.
#[derive(Debug)]
pub(super) enum PointSynthetic {
    /// From a structured entry point.
    Pieces(PiecewiseDistribution),
    /// From the class path.
    Database(SyntheticDatabase),
}

/// Sanitizes `points` for `POINT_[N] ⊕ POINT_[N]` with `sanitizer` (`class` is the points
/// over `[N]`): the structured entry point if the sanitizer has one, else
/// [`Sanitizer::sanitize_xor`] while `Xor` of the class exists (N ≤ 2^32), else
/// [`Sanitizer::sanitize`] on [`XorPoints`]. Each is one call of the sanitizer on C⊕, so
/// the guarantee is the sanitizer's.
pub(super) fn sanitize(
    sanitizer: &dyn Sanitizer,
    class: &dyn ConceptClass,
    size: u64,
    points: &[Point],
    rng: &mut dyn Rng,
) -> Result<PointSynthetic> {
    let failed = Error::SanitizerFailed;
    if let Some(result) = sanitizer.sanitize_point_xor(size, points, rng) {
        return result.map(PointSynthetic::Pieces).map_err(failed);
    }
    let synthetic = if Xor::new(class).is_ok() {
        sanitizer.sanitize_xor(class, points, rng)
    } else {
        sanitizer.sanitize(&XorPoints::new(size)?, points, rng)
    };
    synthetic.map(PointSynthetic::Database).map_err(failed)
}

/// The smallest concept id of every dichotomy of `POINT_[N]` on the distinct increasing
/// points B, in increasing order, in O(|B|) instead of O(|C|·|B|).
///
/// Point function `a` labels B "1 at b only" when `a = b ∈ B` (smallest and only id: b)
/// and all zeros when `a ∉ B` (smallest id: the smallest point of `[N]` outside B, when
/// `|B| < N`). So `H = B ∪ {min([N] ∖ B)}`: at most `|B| + 1` concepts.
pub fn point_cover(size: u64, support: &[Point]) -> Vec<u64> {
    // The smallest point outside B: the first k with B_k ≠ k, or |B|.
    let missing = support
        .iter()
        .zip(0u64..)
        .find(|&(&b, k)| b != k)
        .map_or(support.len() as u64, |(_, k)| k);
    let mut out = Vec::with_capacity(support.len() + 1);
    let at = support.partition_point(|&b| b < missing);
    out.extend_from_slice(&support[..at]);
    if missing < size {
        out.push(missing);
    }
    out.extend_from_slice(&support[at..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cover::Labelings;
    use privpac_classes::{Domain, Points};
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The structured cover equals the dense one (every concept evaluated on B) on random
    /// supports of small domains, including B = [N] (no all-zeros concept).
    #[test]
    fn point_cover_equals_the_dense_cover() {
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        for size in 1..=12u64 {
            let class = Points::new(Domain::ordered(size).unwrap());
            for _ in 0..30 {
                let m = rng.random_range(0..=size + 2);
                let mut support: Vec<u64> = (0..m).map(|_| rng.random_range(0..size)).collect();
                if rng.random_bool(0.2) {
                    support = (0..size).collect();
                }
                support.sort_unstable();
                support.dedup();
                let dense: Vec<u64> = Labelings::new(&class, &support, size as usize)
                    .first
                    .into_iter()
                    .map(|c| c as u64)
                    .collect();
                assert_eq!(
                    point_cover(size, &support),
                    dense,
                    "N = {size}, B = {support:?}"
                );
            }
        }
    }
}
