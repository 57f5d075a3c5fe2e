//! Intervals `c_{a,b}(y) = 1 iff a ≤ y ≤ b` over an ordered domain, plus the empty
//! interval.

use crate::class::ConceptClass;
use crate::domain::{Domain, Point};
use crate::error::{Error, Result};

/// All intervals `[a, b]` (a ≤ b) over `[N]` plus the empty interval: `1 + N(N+1)/2`
/// concepts. Id 0 is the empty interval; the others enumerate `(a, b)` with `a`
/// increasing, then `b`. VC dimension 2 for N ≥ 2.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Intervals {
    domain: Domain,
    size: u64,
}

/// Largest supported N (so that the class size fits comfortably in `u64`).
const MAX_SIZE: u64 = 1 << 31;

impl Intervals {
    /// Intervals over `[size]`.
    ///
    /// # Errors
    /// [`Error::InvalidDomain`] for size 0, [`Error::InvalidClass`] above 2^31.
    pub fn new(size: u64) -> Result<Self> {
        if size > MAX_SIZE {
            return Err(Error::InvalidClass {
                reason: format!("intervals support at most {MAX_SIZE} points, got {size}"),
            });
        }
        Ok(Intervals {
            domain: Domain::ordered(size)?,
            size,
        })
    }

    /// The interval `(a, b)` named by a nonzero id, or `None` for the empty interval.
    pub fn bounds(&self, id: u64) -> Option<(u64, u64)> {
        if id == 0 || u128::from(id) >= self.len() {
            return None;
        }
        // Ids 1.. enumerate a = 0 with b = 0..N, then a = 1 with b = 1..N, …; the block of
        // a starts after Σ_{j<a} (N − j) intervals.
        let n = self.size;
        let mut rank = id - 1;
        let mut a = 0;
        // Solve by stepping blocks; O(N) worst case but only used by eval on small classes.
        while rank >= n - a {
            rank -= n - a;
            a += 1;
        }
        Some((a, a + rank))
    }
}

impl ConceptClass for Intervals {
    fn domain(&self) -> &Domain {
        &self.domain
    }

    fn len(&self) -> u128 {
        let n = u128::from(self.size);
        1 + n * (n + 1) / 2
    }

    fn eval(&self, id: u64, x: Point) -> bool {
        self.bounds(id).is_some_and(|(a, b)| a <= x && x <= b)
    }

    fn name(&self) -> String {
        format!("intervals:{}", self.size)
    }

    /// `1 on [3, 9]`, or `empty interval (all zeros)`.
    fn describe(&self, id: u64) -> String {
        match self.bounds(id) {
            Some((a, b)) => format!("1 on [{a}, {b}]"),
            None => "empty interval (all zeros)".into(),
        }
    }
}
