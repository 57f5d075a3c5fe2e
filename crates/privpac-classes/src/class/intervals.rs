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
        // a starts after S(a) = Σ_{j<a} (N − j) = a·N − a(a − 1)/2 intervals. The largest a
        // with S(a) ≤ rank is the smaller root of a² − (2N + 1)a + 2·rank = 0, estimated in
        // floating point and corrected exactly in integers (O(1), where stepping through
        // the blocks was O(N) per call).
        let n = u128::from(self.size);
        let rank = u128::from(id - 1);
        let start = |a: u128| a * n - a * a.saturating_sub(1) / 2;
        let two_n1 = (2 * n + 1) as f64;
        let estimate = ((two_n1 - (two_n1 * two_n1 - 8.0 * rank as f64).max(0.0).sqrt()) / 2.0)
            .floor()
            .max(0.0) as u128;
        let mut a = estimate.min(n.saturating_sub(1));
        while a > 0 && start(a) > rank {
            a -= 1;
        }
        while a + 1 < n && start(a + 1) <= rank {
            a += 1;
        }
        let b = a + (rank - start(a));
        Some((a as u64, b as u64))
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
