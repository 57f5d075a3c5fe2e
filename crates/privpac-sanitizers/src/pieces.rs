//! A probability distribution over an ordered domain `[N]` kept as O(#updates) pieces,
//! uniform inside each: the synthetic distribution of the structured sanitizers (see the
//! `ordered` module). An interval reweighting splits at most two pieces, so after t
//! multiplicative-weights updates on intervals there are at most `2t + 1` pieces, whatever
//! N is.

use privpac_classes::Point;
use rand::{Rng, RngExt};

use crate::error::{Error, Result};

/// A probability distribution over `[N]` that is uniform inside each piece: piece `i`
/// covers `[starts[i], starts[i + 1])` (the last one ends at N) and holds mass `masses[i]`.
///
/// # Example
/// ```
/// use privpac_sanitizers::PiecewiseDistribution;
///
/// let mut d = PiecewiseDistribution::uniform(1 << 40)?;
/// d.reweight(0, 1 << 39, 3.0, 1.0); // the lower half three times as likely
/// assert!((d.mass_below(1 << 39) - 0.75).abs() < 1e-15);
/// assert_eq!(d.len(), 2);
/// # Ok::<(), privpac_sanitizers::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct PiecewiseDistribution {
    pub(crate) size: u64,
    pub(crate) starts: Vec<u64>,
    pub(crate) masses: Vec<f64>,
}

impl PiecewiseDistribution {
    /// The uniform distribution over `[size]` (one piece).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for size 0.
    pub fn uniform(size: u64) -> Result<Self> {
        if size == 0 {
            return Err(Error::InvalidParameter {
                name: "domain size",
                requirement: "at least 1",
                value: 0.0,
            });
        }
        Ok(PiecewiseDistribution {
            size,
            starts: vec![0],
            masses: vec![1.0],
        })
    }

    /// N.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The number of pieces.
    pub fn len(&self) -> usize {
        self.starts.len()
    }

    /// Never true (there is at least one piece).
    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    /// The pieces as `(start, end, mass)`, in increasing order.
    pub fn pieces(&self) -> impl Iterator<Item = (u64, u64, f64)> + '_ {
        (0..self.starts.len()).map(|i| (self.starts[i], self.end(i), self.masses[i]))
    }

    pub(crate) fn end(&self, i: usize) -> u64 {
        self.starts.get(i + 1).copied().unwrap_or(self.size)
    }

    /// The piece holding point `x` (the last piece for `x ≥ N`).
    pub(crate) fn piece_of(&self, x: u64) -> usize {
        self.starts.partition_point(|&s| s <= x).saturating_sub(1)
    }

    /// The mass of point `x` (0 outside the domain).
    pub fn mass_of(&self, x: Point) -> f64 {
        if x >= self.size {
            return 0.0;
        }
        let i = self.piece_of(x);
        self.masses[i] / (self.end(i) - self.starts[i]) as f64
    }

    /// `P(x)`, the mass of `[0, x)` (`x ≤ N`), in one fixed formula: the masses of the
    /// earlier pieces summed left to right, plus the piece's mass times the covered
    /// fraction. It is monotone in x (every step is a monotone floating-point operation and
    /// the formula of piece i at its end equals that of piece i + 1 at its start).
    pub fn mass_below(&self, x: u64) -> f64 {
        self.mass_below_with(&self.cumulative(), x)
    }

    /// `cumulative[i]`: the masses of the pieces before piece i, summed left to right.
    pub(crate) fn cumulative(&self) -> Vec<f64> {
        let mut acc = 0.0;
        self.masses
            .iter()
            .map(|&m| {
                let before = acc;
                acc += m;
                before
            })
            .collect()
    }

    /// [`Self::mass_below`] with the cumulative masses precomputed.
    pub(crate) fn mass_below_with(&self, cumulative: &[f64], x: u64) -> f64 {
        let x = x.min(self.size);
        let i = self.piece_of(x);
        cumulative[i] + self.fraction(i, x)
    }

    /// `masses[i]·(x − start)/len` for x in piece i (or at its end).
    pub(crate) fn fraction(&self, i: usize, x: u64) -> f64 {
        let start = self.starts[i];
        let len = self.end(i) - start;
        self.masses[i] * ((x - start) as f64 / len as f64)
    }

    /// Cuts the piece holding `x` at `x` (nothing if x is a piece boundary or N).
    fn split_at(&mut self, x: u64) {
        if x == 0 || x >= self.size {
            return;
        }
        let i = self.piece_of(x);
        if self.starts[i] == x {
            return;
        }
        let left = self.fraction(i, x);
        let right = (self.masses[i] - left).max(0.0);
        self.masses[i] = left;
        self.starts.insert(i + 1, x);
        self.masses.insert(i + 1, right);
    }

    /// The pieces inside `[a, b)` after cutting at a and b.
    fn range(&mut self, a: u64, b: u64) -> std::ops::Range<usize> {
        self.split_at(a);
        self.split_at(b);
        let lo = self.starts.partition_point(|&s| s < a);
        let hi = self.starts.partition_point(|&s| s < b.min(self.size));
        lo..hi
    }

    /// The mass of `[a, b)` as the sum of its pieces (after cutting at a and b).
    pub fn range_mass(&mut self, a: u64, b: u64) -> f64 {
        let r = self.range(a, b);
        self.masses[r].iter().sum()
    }

    /// Multiplies the mass of every point of `[a, b)` by `inside` and of every other point
    /// by `outside` (both finite, non-negative), then renormalizes (when the total stays
    /// positive and finite): the multiplicative-weights update of an interval query.
    pub fn reweight(&mut self, a: u64, b: u64, inside: f64, outside: f64) {
        let r = self.range(a, b);
        let mut total = 0.0;
        for (i, m) in self.masses.iter_mut().enumerate() {
            *m *= if r.contains(&i) { inside } else { outside };
            total += *m;
        }
        if total > 0.0 && total.is_finite() {
            self.masses.iter_mut().for_each(|m| *m /= total);
        }
    }

    /// The pieces inside the union of the disjoint ranges `[a, b)` (after cutting at every
    /// end), as a membership mask.
    fn ranges_mask(&mut self, ranges: &[(u64, u64)]) -> Vec<bool> {
        for &(a, b) in ranges {
            self.split_at(a);
            self.split_at(b);
        }
        let mut inside = vec![false; self.starts.len()];
        for &(a, b) in ranges {
            for flag in &mut inside[self.range(a, b)] {
                *flag = true;
            }
        }
        inside
    }

    /// The mass of the union of the disjoint ranges `[a, b)` as the sum of its pieces
    /// (after cutting at every end).
    pub(crate) fn ranges_mass(&mut self, ranges: &[(u64, u64)]) -> f64 {
        let inside = self.ranges_mask(ranges);
        self.masses
            .iter()
            .zip(&inside)
            .filter(|(_, i)| **i)
            .map(|(m, _)| m)
            .sum()
    }

    /// [`Self::reweight`] for the union of the disjoint ranges `[a, b)`: the
    /// multiplicative-weights update of a query that is a union of intervals.
    pub(crate) fn reweight_ranges(&mut self, ranges: &[(u64, u64)], inside: f64, outside: f64) {
        let mask = self.ranges_mask(ranges);
        let mut total = 0.0;
        for (m, &i) in self.masses.iter_mut().zip(&mask) {
            *m *= if i { inside } else { outside };
            total += *m;
        }
        if total > 0.0 && total.is_finite() {
            self.masses.iter_mut().for_each(|m| *m /= total);
        }
    }

    /// The masses of `self` on the pieces of `finer`, whose boundaries include all of
    /// `self`'s (so every piece of `finer` lies inside one piece of `self`).
    pub(crate) fn masses_on(&self, finer: &PiecewiseDistribution) -> Vec<f64> {
        finer
            .pieces()
            .map(|(s, e, _)| {
                let i = self.piece_of(s);
                let len = (self.end(i) - self.starts[i]) as f64;
                self.masses[i] * ((e - s) as f64 / len)
            })
            .collect()
    }

    /// The number of points with positive mass.
    pub fn support_len(&self) -> u128 {
        self.pieces()
            .filter(|&(_, _, m)| m > 0.0)
            .map(|(s, e, _)| u128::from(e - s))
            .sum()
    }

    /// One point drawn from the distribution: a piece with probability proportional to its
    /// mass, then a uniform point of it.
    ///
    /// # Errors
    /// [`Error::EmptySynthetic`] if no piece has positive mass.
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Result<Point> {
        let total: f64 = self.masses.iter().sum();
        if !(total > 0.0 && total.is_finite()) {
            return Err(Error::EmptySynthetic);
        }
        let mut u = rng.random::<f64>() * total;
        let mut chosen = self.masses.len() - 1;
        for (i, &m) in self.masses.iter().enumerate() {
            if u < m {
                chosen = i;
                break;
            }
            u -= m;
        }
        while self.masses[chosen] <= 0.0 {
            chosen -= 1; // rounding ran past the last positive piece
        }
        Ok(rng.random_range(self.starts[chosen]..self.end(chosen)))
    }

    /// The points with positive mass, if there are at most `limit` of them.
    pub fn support_points(&self, limit: usize) -> Option<Vec<Point>> {
        if self.support_len() > limit as u128 {
            return None;
        }
        Some(
            self.pieces()
                .filter(|&(_, _, m)| m > 0.0)
                .flat_map(|(s, e, _)| s..e)
                .collect(),
        )
    }

    /// The distribution of the weights `w_x` (one per point of `[w.len()]`, normalized by
    /// their sum): a piece per point of positive weight, and one zero-mass piece per maximal
    /// run of zero weights.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for no weights; [`Error::EmptySynthetic`] unless the
    /// weights are finite, non-negative and not all zero.
    pub(crate) fn from_point_weights(weights: &[f64]) -> Result<Self> {
        if weights.is_empty() {
            return Self::uniform(0);
        }
        let total: f64 = weights.iter().sum();
        if !(total > 0.0 && total.is_finite()) || weights.iter().any(|w| w.is_nan() || *w < 0.0) {
            return Err(Error::EmptySynthetic);
        }
        let (mut starts, mut masses) = (Vec::new(), Vec::new());
        for (x, &w) in weights.iter().enumerate() {
            if w > 0.0 || masses.last().is_none_or(|&m: &f64| m > 0.0) {
                starts.push(x as u64);
                masses.push(w / total);
            }
        }
        Ok(PiecewiseDistribution {
            size: weights.len() as u64,
            starts,
            masses,
        })
    }

    /// The distribution over `[size]` of sparse point weights `(x, w_x)` (strictly
    /// increasing points below `size`, weights finite and non-negative, not all zero),
    /// normalized by their sum: a piece per point of positive weight and one zero-mass
    /// piece per maximal gap between them, so O(#weights) pieces whatever `size` is. On
    /// `size = weights.len()` with every point listed it is
    /// [`Self::from_point_weights`].
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for size 0, a point at or above `size` or points not
    /// strictly increasing; [`Error::EmptySynthetic`] unless the weights are finite,
    /// non-negative and not all zero.
    pub(crate) fn from_sparse_point_weights(size: u64, weights: &[(Point, f64)]) -> Result<Self> {
        Self::uniform(size)?;
        let total: f64 = weights.iter().map(|p| p.1).sum();
        if !(total > 0.0 && total.is_finite()) || weights.iter().any(|p| p.1.is_nan() || p.1 < 0.0)
        {
            return Err(Error::EmptySynthetic);
        }
        let (mut starts, mut masses) = (Vec::new(), Vec::new());
        let mut cursor = 0u64; // the first point not yet in a piece
        for (index, &(x, w)) in weights.iter().enumerate() {
            if x >= size || (index > 0 && weights[index - 1].0 >= x) {
                return Err(Error::InvalidParameter {
                    name: "weighted point",
                    requirement: "strictly increasing, inside the domain",
                    value: x as f64,
                });
            }
            if w == 0.0 {
                continue; // part of the gap that ends at the next positive point
            }
            if x > cursor {
                starts.push(cursor);
                masses.push(0.0);
            }
            starts.push(x);
            masses.push(w / total);
            cursor = x + 1; // x < size ≤ u64::MAX
        }
        if cursor < size {
            starts.push(cursor);
            masses.push(0.0);
        }
        Ok(PiecewiseDistribution {
            size,
            starts,
            masses,
        })
    }

    /// `count` points drawn independently from the distribution, each as [`Self::sample`]
    /// draws it (a piece with probability proportional to its mass, then a uniform point of
    /// it), with the pieces found by binary search over the cumulative masses: O(#pieces +
    /// count·log #pieces) instead of O(count·#pieces). Same distribution as `count` calls
    /// of [`Self::sample`]; the draws for a seed may differ in the last bit of rounding.
    ///
    /// # Errors
    /// [`Error::EmptySynthetic`] if no piece has positive mass.
    pub fn sample_many<R: Rng + ?Sized>(&self, count: usize, rng: &mut R) -> Result<Vec<Point>> {
        let mut above = Vec::with_capacity(self.masses.len());
        let mut acc = 0.0;
        for &m in &self.masses {
            acc += m;
            above.push(acc); // mass of the pieces up to and including this one
        }
        if !(acc > 0.0 && acc.is_finite()) {
            return Err(Error::EmptySynthetic);
        }
        let last_positive = self.masses.iter().rposition(|&m| m > 0.0).unwrap_or(0);
        (0..count)
            .map(|_| {
                let u = rng.random::<f64>() * acc;
                // The first piece whose cumulative mass exceeds u has positive mass (its
                // cumulative mass is above its predecessor's), unless rounding ran past the end.
                let chosen = above.partition_point(|&c| c <= u).min(last_positive);
                Ok(rng.random_range(self.starts[chosen]..self.end(chosen)))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;

    /// Point weights become pieces with exactly the normalized weights, and many draws
    /// follow them (seeded χ² test, false-failure rate 1e-6).
    #[test]
    fn point_weights_and_many_draws_follow_the_dense_weights() {
        let weights = [0.0, 0.0, 3.0, 1.0, 0.0, 0.0, 0.0, 4.0, 0.0, 2.0, 0.0];
        let dist = PiecewiseDistribution::from_point_weights(&weights).unwrap();
        let total: f64 = weights.iter().sum();
        for (x, &w) in weights.iter().enumerate() {
            assert_eq!(dist.mass_of(x as u64), w / total, "point {x}");
        }
        assert_eq!(dist.len(), 8); // 4 positive points, 4 zero runs
        assert_eq!(dist.support_len(), 4);
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let draws = dist.sample_many(40_000, &mut rng).unwrap();
        let mut observed = vec![0u64; weights.len()];
        draws.iter().for_each(|&x| observed[x as usize] += 1);
        let positive: Vec<usize> = (0..weights.len()).filter(|&x| weights[x] > 0.0).collect();
        assert!(
            (0..weights.len()).all(|x| weights[x] > 0.0 || observed[x] == 0),
            "a zero-weight point was drawn"
        );
        let obs: Vec<u64> = positive.iter().map(|&x| observed[x]).collect();
        let probs: Vec<f64> = positive.iter().map(|&x| weights[x] / total).collect();
        let outcome = privpac_audit::chi_square_gof(&obs, &probs, 1e-6).unwrap();
        assert!(!outcome.rejected, "{outcome:?}");
        // Pieces wider than a point: uniform inside.
        let mut wide = PiecewiseDistribution::uniform(100).unwrap();
        wide.reweight(10, 30, 5.0, 1.0);
        let draws = wide.sample_many(40_000, &mut rng).unwrap();
        let mut observed = vec![0u64; 100];
        draws.iter().for_each(|&x| observed[x as usize] += 1);
        let probs: Vec<f64> = (0..100).map(|x| wide.mass_of(x)).collect();
        let outcome = privpac_audit::chi_square_gof(&observed, &probs, 1e-6).unwrap();
        assert!(!outcome.rejected, "{outcome:?}");
        assert!(matches!(
            PiecewiseDistribution::from_point_weights(&[0.0, 0.0]),
            Err(Error::EmptySynthetic)
        ));
    }

    /// Sparse weights give the same distribution as the dense weights they list, with one
    /// zero piece per gap, and bad input is refused.
    #[test]
    fn sparse_point_weights_equal_the_dense_weights() {
        let dense = [0.0, 0.0, 3.0, 1.0, 0.0, 0.0, 0.0, 4.0, 0.0, 2.0, 0.0];
        let sparse: Vec<(Point, f64)> = dense
            .iter()
            .enumerate()
            .filter(|(x, w)| **w > 0.0 || *x == 5)
            .map(|(x, &w)| (x as Point, w))
            .collect();
        let from_dense = PiecewiseDistribution::from_point_weights(&dense).unwrap();
        let from_sparse =
            PiecewiseDistribution::from_sparse_point_weights(dense.len() as u64, &sparse).unwrap();
        assert_eq!(from_sparse, from_dense);
        // Every point's mass, and O(#weights) pieces on a huge domain.
        let huge = PiecewiseDistribution::from_sparse_point_weights(
            u64::MAX,
            &[(0, 1.0), (1 << 40, 2.0), (u64::MAX - 1, 1.0)],
        )
        .unwrap();
        assert_eq!(huge.len(), 5);
        assert_eq!(huge.mass_of(0), 0.25);
        assert_eq!(huge.mass_of(1), 0.0);
        assert_eq!(huge.mass_of(1 << 40), 0.5);
        assert_eq!(huge.mass_of(u64::MAX - 1), 0.25);
        assert_eq!(huge.support_len(), 3);
        assert_eq!(huge.mass_below(u64::MAX - 1), 0.75);
        for bad in [
            &[(3u64, 1.0), (3, 1.0)][..],
            &[(11, 1.0)],
            &[(4, 1.0), (2, 1.0)],
        ] {
            assert!(matches!(
                PiecewiseDistribution::from_sparse_point_weights(11, bad),
                Err(Error::InvalidParameter { .. })
            ));
        }
        for bad in [
            &[(3u64, 0.0)][..],
            &[(3, -1.0), (4, 2.0)],
            &[(3, f64::NAN)],
            &[],
        ] {
            assert!(matches!(
                PiecewiseDistribution::from_sparse_point_weights(11, bad),
                Err(Error::EmptySynthetic)
            ));
        }
    }
}
