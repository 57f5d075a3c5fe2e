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
    fn fraction(&self, i: usize, x: u64) -> f64 {
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
}
