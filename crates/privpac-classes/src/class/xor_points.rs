//! `POINT_[N] ⊕ POINT_[N]` by its structure: the XOR class of the point functions over an
//! ordered domain, named by pairs of points instead of by materializing `N²` concepts.
//!
//! For points `a ≠ b`, `1[x = a] ⊕ 1[x = b]` is the indicator of the 2-set `{a, b}`; for
//! `a = b` it is the empty set. So a query's answer on any distribution p is
//! `p(a) + p(b)` (or 0), which is what the structured sanitizers use
//! (`privpac_sanitizers`' MWEM on pairs of points). [`XorPoints`] numbers the pairs exactly
//! as [`crate::Xor`] of [`crate::Points`] does (`a·N + b`) and works at every N up to
//! `2^64 − 1`, where `Xor` refuses above `N = 2^32` because `N²` ids do not fit in `u64`.

use crate::class::ConceptClass;
use crate::domain::{Domain, Point};
use crate::error::Result;

/// `POINT_[N] ⊕ POINT_[N]` over the ordered domain `[N]`: concept `a·N + b` is
/// `1[x = a] ⊕ 1[x = b]`, the indicator of `{a, b}` for `a ≠ b` and the empty set for
/// `a = b`. It has `N²` concepts (`len` in `u128`); ids are `u64`, so above `N = 2^32` only
/// the pairs whose id fits (`a·N + b < 2^64`) are named by an id, and algorithms that need
/// the others take the pairs themselves ([`Self::pair_id`] in `u128`). The same ids and
/// labels as [`crate::Xor`] of [`crate::Points`] wherever that class exists (tested).
///
/// # Example
/// ```
/// use privpac_classes::{ConceptClass, XorPoints};
///
/// let class = XorPoints::new(1 << 40)?;
/// assert_eq!(class.len(), 1u128 << 80);
/// let id = 3 * (1u64 << 40) + 7; // the pair (3, 7): the set {3, 7}
/// assert!(class.eval(id, 3) && class.eval(id, 7) && !class.eval(id, 5));
/// assert_eq!(class.set(3, 3), None); // a = b: the empty set
/// # Ok::<(), privpac_classes::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XorPoints {
    domain: Domain,
    size: u64,
}

impl XorPoints {
    /// `POINT_[N] ⊕ POINT_[N]` for N = `size`.
    ///
    /// # Errors
    /// [`crate::Error::InvalidDomain`] for size 0.
    pub fn new(size: u64) -> Result<Self> {
        Ok(XorPoints {
            domain: Domain::ordered(size)?,
            size,
        })
    }

    /// N.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The pair `(a, b)` of points named by an id: `(id / N, id % N)`.
    pub fn pair(&self, id: u64) -> (u64, u64) {
        (id / self.size, id % self.size)
    }

    /// The id `a·N + b` of the pair `(a, b)`, in `u128` (above `N = 2^32` it may exceed
    /// `u64`).
    pub fn pair_id(&self, a: Point, b: Point) -> u128 {
        u128::from(a) * u128::from(self.size) + u128::from(b)
    }

    /// The set the pair labels 1: `Some((min, max))` for `a ≠ b`, `None` (the empty set)
    /// for `a = b`.
    pub fn set(&self, a: Point, b: Point) -> Option<(Point, Point)> {
        (a != b).then(|| (a.min(b), a.max(b)))
    }
}

impl ConceptClass for XorPoints {
    fn domain(&self) -> &Domain {
        &self.domain
    }

    /// `N²`.
    fn len(&self) -> u128 {
        u128::from(self.size) * u128::from(self.size)
    }

    fn eval(&self, id: u64, x: Point) -> bool {
        let (a, b) = self.pair(id);
        (x == a) != (x == b)
    }

    /// `xor(points:N)`, as [`crate::Xor`] names the XOR class of `points:N`.
    fn name(&self) -> String {
        format!("xor(points:{})", self.size)
    }

    /// `(1 only at x = a) xor (1 only at x = b)`, as [`crate::Xor`] describes it.
    fn describe(&self, id: u64) -> String {
        let (a, b) = self.pair(id);
        format!("(1 only at x = {a}) xor (1 only at x = {b})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Points, Xor};

    /// The same ids, labels, size, names and descriptions as `Xor` of `Points` on every
    /// pair and point of small domains.
    #[test]
    fn equals_the_xor_class_of_points() {
        for size in 1..=7u64 {
            let structured = XorPoints::new(size).unwrap();
            let dense = Xor::new(Points::new(Domain::ordered(size).unwrap())).unwrap();
            assert_eq!(structured.len(), dense.len());
            assert_eq!(structured.name(), dense.name());
            assert_eq!(structured.domain(), dense.domain());
            for id in 0..size * size {
                assert_eq!(structured.pair(id), dense.pair(id));
                let (a, b) = structured.pair(id);
                assert_eq!(structured.pair_id(a, b), u128::from(id));
                assert_eq!(structured.describe(id), dense.describe(id));
                for x in 0..size {
                    assert_eq!(structured.eval(id, x), dense.eval(id, x), "{id} at {x}");
                    let inside = structured.set(a, b).is_some_and(|(l, h)| x == l || x == h);
                    assert_eq!(structured.eval(id, x), inside);
                }
            }
        }
    }

    #[test]
    fn exists_where_the_generic_xor_class_refuses() {
        let points = Points::new(Domain::ordered(1 << 40).unwrap());
        assert!(Xor::new(&points).is_err());
        let class = XorPoints::new(u64::MAX).unwrap();
        assert_eq!(class.len(), u128::from(u64::MAX) * u128::from(u64::MAX));
        assert_eq!(class.pair(u64::MAX), (1, 0));
        assert!(class.eval(u64::MAX, 1) && class.eval(u64::MAX, 0));
        assert!(XorPoints::new(0).is_err());
    }
}
