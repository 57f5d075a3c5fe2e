//! Halfspaces on a k × k grid, every distinct labeling enumerated exactly.

use std::cmp::Ordering;
use std::collections::HashSet;

use crate::class::ConceptClass;
use crate::domain::{Domain, Point};
use crate::error::{Error, Result};

/// Largest supported grid side (k² ≤ 128 points, so a labeling fits a `u128`).
pub const MAX_GRID_SIDE: u32 = 11;

/// All distinct labelings of the grid `{0,…,k−1}²` by halfspaces `{p : ⟨w, p⟩ ≥ b}`
/// (including the two constant labelings). Point `(i, j)` is the domain point `i·k + j`.
/// VC dimension 3 for k ≥ 2.
///
/// # Enumeration (exact, integer arithmetic only)
/// The order of the points by their projection on a direction `w` changes only when `w`
/// crosses a *critical* direction, one orthogonal to a difference `p − q`. Between two
/// consecutive critical directions `u, v` the direction `u + v` is generic (no ties), and
/// every strictly separable labeling is realized by an open cone of directions, which
/// contains such a generic direction. So the labelings are exactly the suffixes of the
/// projection orders along `u + v` for all consecutive critical pairs (all 360°).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GridHalfspaces {
    domain: Domain,
    side: u32,
    labelings: Vec<u128>,
}

impl GridHalfspaces {
    /// Halfspaces on the `side × side` grid.
    ///
    /// # Errors
    /// [`Error::InvalidClass`] unless 1 ≤ side ≤ [`MAX_GRID_SIDE`].
    pub fn new(side: u32) -> Result<Self> {
        if !(1..=MAX_GRID_SIDE).contains(&side) {
            return Err(Error::InvalidClass {
                reason: format!("halfspace grid side must be in 1..={MAX_GRID_SIDE}, got {side}"),
            });
        }
        let k = i64::from(side);
        let points: Vec<(i64, i64)> = (0..k).flat_map(|i| (0..k).map(move |j| (i, j))).collect();
        let labelings = enumerate_labelings(&points);
        Ok(GridHalfspaces {
            domain: Domain::ordered(u64::from(side * side))?,
            side,
            labelings,
        })
    }

    /// The labeling of concept `id` as a bit mask over the grid points.
    pub fn labeling(&self, id: u64) -> Option<u128> {
        self.labelings.get(id as usize).copied()
    }
}

impl ConceptClass for GridHalfspaces {
    fn domain(&self) -> &Domain {
        &self.domain
    }

    fn len(&self) -> u128 {
        self.labelings.len() as u128
    }

    fn eval(&self, id: u64, x: Point) -> bool {
        x < 128 && self.labeling(id).is_some_and(|mask| mask >> x & 1 == 1)
    }

    fn name(&self) -> String {
        format!("halfspaces:{}", self.side)
    }
}

/// All labelings of `points` by halfspaces, sorted, without repeats.
fn enumerate_labelings(points: &[(i64, i64)]) -> Vec<u128> {
    let mut labelings: HashSet<u128> = HashSet::new();
    let all: u128 = if points.len() == 128 {
        u128::MAX
    } else {
        (1u128 << points.len()) - 1
    };
    labelings.insert(0);
    labelings.insert(all);
    // Critical directions: normals (−dy, dx) of all differences, both orientations, reduced
    // to primitive vectors and sorted by angle.
    let mut critical: Vec<(i64, i64)> = Vec::new();
    for (a, p) in points.iter().enumerate() {
        for q in &points[a + 1..] {
            let (dx, dy) = (q.0 - p.0, q.1 - p.1);
            let g = gcd(dx.unsigned_abs(), dy.unsigned_abs()) as i64;
            let normal = (-dy / g, dx / g);
            critical.push(normal);
            critical.push((-normal.0, -normal.1));
        }
    }
    critical.sort_by(|u, v| compare_angle(*u, *v));
    critical.dedup();
    if critical.is_empty() {
        // A single point: only the two constant labelings.
        return sorted(labelings);
    }
    let mut order: Vec<usize> = (0..points.len()).collect();
    for (i, &u) in critical.iter().enumerate() {
        let v = critical[(i + 1) % critical.len()];
        let w = (u.0 + v.0, u.1 + v.1); // strictly between u and v (they are < 180° apart)
        order.sort_by_key(|&p| w.0 * points[p].0 + w.1 * points[p].1);
        let mut mask: u128 = 0;
        for &p in order.iter().rev() {
            mask |= 1u128 << p;
            labelings.insert(mask);
        }
    }
    sorted(labelings)
}

fn sorted(set: HashSet<u128>) -> Vec<u128> {
    let mut out: Vec<u128> = set.into_iter().collect();
    out.sort_unstable();
    out
}

/// Orders integer vectors by angle in [0, 2π) (exact: half-plane, then cross product).
fn compare_angle(u: (i64, i64), v: (i64, i64)) -> Ordering {
    let half = |p: (i64, i64)| {
        if p.1 > 0 || (p.1 == 0 && p.0 > 0) {
            0
        } else {
            1
        }
    };
    half(u)
        .cmp(&half(v))
        .then_with(|| (v.0 * u.1).cmp(&(u.0 * v.1)))
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.max(1)
}
