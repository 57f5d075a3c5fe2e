//! Linear algebra over GF(2) for parities: row echelon forms, kernels, and the
//! dichotomies of `PAR_d` on a set of points as the cosets of a kernel.
//!
//! Parity `a` labels the points `p_1, …, p_t` with the vector `(⟨a, p_j⟩)_j`, a linear
//! function of `a`. Two parities label the points alike exactly when their difference lies
//! in the kernel `K = {a : ⟨a, p_j⟩ = 0 for all j}`, so the dichotomies of `PAR_d` on the
//! points are the cosets `a + K`: `2^r` of them for r the rank of the points, each of
//! `2^{d−r}` parities. With a basis of K with distinct leading bits, reducing `a` greedily
//! from the top bit down clears every leading bit and only changes lower bits, so it ends
//! at the smallest element of `a + K` (an element with a leading bit set is made smaller
//! by that basis vector, and the element of the coset with every leading bit clear is
//! unique, the leading bits being independent). The coset minima are therefore exactly the
//! parities with every leading bit clear, in increasing order the numbers `0, 1, …, 2^r − 1`
//! with their bits deposited into the other positions; the map from a parity to its
//! coset's index in that order (reduce, then extract the non-leading bits) is linear.

use crate::domain::{Domain, Point};
use crate::error::Result;

/// Equations `⟨a, x⟩ = y` in row echelon form: `rows[p]` holds the equation whose
/// coefficients have leading (highest) bit p, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Echelon {
    rows: Vec<Option<(u64, bool)>>,
}

impl Echelon {
    /// No equations over `{0,1}^dim` (dim ≤ 64).
    pub(crate) fn new(dim: u32) -> Self {
        Echelon {
            rows: vec![None; dim as usize],
        }
    }

    /// Adds the equation `⟨a, coefficients⟩ = rhs`, reduced against the rows kept so far.
    /// Returns the right-hand side it reduces to when it depends on the rows (then
    /// `Some(true)` proves the system inconsistent), or `None` when it was kept as a new
    /// row.
    pub(crate) fn insert(&mut self, mut coefficients: u64, mut rhs: bool) -> Option<bool> {
        while coefficients != 0 {
            let lead = 63 - coefficients.leading_zeros() as usize;
            match self.rows[lead] {
                Some((row, row_rhs)) => {
                    coefficients ^= row;
                    rhs ^= row_rhs;
                }
                None => {
                    self.rows[lead] = Some((coefficients, rhs));
                    return None;
                }
            }
        }
        Some(rhs)
    }

    /// `a` with every pivot coordinate solved (in increasing order: row p involves only
    /// bits ≤ p, so bit p is fixed by the bits below it), the right-hand side of each row
    /// read through `rhs_of`.
    pub(crate) fn solve(&self, mut a: u64, rhs_of: &dyn Fn(bool) -> bool) -> u64 {
        for (p, row) in self.rows.iter().enumerate() {
            if let Some((coefficients, rhs)) = row {
                let others = coefficients & !(1u64 << p);
                let bit = rhs_of(*rhs) ^ ((others & a).count_ones() % 2 == 1);
                a = (a & !(1u64 << p)) | (u64::from(bit) << p);
            }
        }
        a
    }

    /// A basis of the solutions of the homogeneous system, keyed by leading bit
    /// (`kernel[l]` has leading bit l, or is 0): one vector per free coordinate f (bit f
    /// set, pivots solved with right-hand sides 0), inserted into a basis with distinct
    /// leading bits.
    pub(crate) fn kernel(&self) -> Vec<u64> {
        let dim = self.rows.len();
        let mut kernel: Vec<u64> = vec![0; dim];
        for free in (0..dim).filter(|&f| self.rows[f].is_none()) {
            let mut v = self.solve(1u64 << free, &|_| false);
            while v != 0 {
                let lead = 63 - v.leading_zeros() as usize;
                if kernel[lead] == 0 {
                    kernel[lead] = v;
                    break;
                }
                v ^= kernel[lead];
            }
        }
        kernel
    }
}

/// The smallest element of `a + span(kernel)` for a basis `kernel` keyed by distinct
/// leading bits (`kernel[l]` has leading bit l, or is 0): `a` reduced greedily from the
/// top bit down.
pub(crate) fn reduce(kernel: &[u64], mut a: u64) -> u64 {
    for lead in (0..kernel.len()).rev() {
        if kernel[lead] != 0 && a >> lead & 1 == 1 {
            a ^= kernel[lead];
        }
    }
    a
}

/// The dichotomies of `PAR_d` on a set of points, as the cosets of the kernel of the
/// points (see the module documentation): which labeling each parity induces, and the
/// smallest parity inducing each, without evaluating any parity on any point.
///
/// The labelings are numbered `0..2^r` in increasing order of their smallest parity (the
/// order of first appearance by id, as a dense grouping of all `2^d` parities finds them);
/// [`Self::representative`] is the smallest parity of a labeling and [`Self::slot`] the
/// labeling of a parity, both in O(d).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParityLabelings {
    dim: u32,
    /// A basis of the kernel keyed by leading bit (0 where no vector leads).
    kernel: Vec<u64>,
    /// The coordinates that are no kernel vector's leading bit: the coset minima are the
    /// parities supported on them.
    free: u64,
}

impl ParityLabelings {
    /// The dichotomies of parities over `{0,1}^dim` on `points`: O(t·d) word operations
    /// for t points plus O(d²) for the kernel.
    ///
    /// # Errors
    /// [`crate::Error::InvalidDomain`] unless 1 ≤ dim ≤ 64;
    /// [`crate::Error::PointOutsideDomain`] for a point outside `{0,1}^dim`.
    pub fn new(dim: u32, points: &[Point]) -> Result<Self> {
        let domain = Domain::hypercube(dim)?;
        domain.check_all(points)?;
        let mut echelon = Echelon::new(dim);
        for &x in points {
            echelon.insert(x, false);
        }
        let kernel = echelon.kernel();
        let leads = kernel
            .iter()
            .enumerate()
            .filter(|&(_, &v)| v != 0)
            .fold(0u64, |leads, (lead, _)| leads | 1u64 << lead);
        Ok(ParityLabelings {
            dim,
            kernel,
            free: mask(dim) & !leads,
        })
    }

    /// The dimension d of the cube.
    pub fn dim(&self) -> u32 {
        self.dim
    }

    /// The rank r of the points: there are `2^r` labelings.
    pub fn rank(&self) -> u32 {
        self.free.count_ones()
    }

    /// The number of labelings, `2^r`.
    pub fn len(&self) -> u128 {
        1u128 << self.rank()
    }

    /// Never empty: the zero parity induces a labeling.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The smallest parity inducing the same labeling as parity `a` (`a` below `2^d`).
    pub fn smallest_alike(&self, a: u64) -> u64 {
        reduce(&self.kernel, a)
    }

    /// The index of parity `a`'s labeling in increasing order of smallest parities: the
    /// bits of [`Self::smallest_alike`] on the free coordinates, packed.
    pub fn slot(&self, a: u64) -> u64 {
        extract(self.smallest_alike(a), self.free)
    }

    /// The smallest parity inducing labeling `slot` (`slot < 2^r`): the bits of `slot`
    /// deposited into the free coordinates.
    pub fn representative(&self, slot: u64) -> u64 {
        deposit(slot, self.free)
    }

    /// [`Self::slot`] of every parity `0..2^d`, in O(2^d) (the map is linear:
    /// `slot(a) = slot(a without its lowest bit) ⊕ slot(lowest bit of a)`), as `u32`
    /// (`2^d` entries: for d ≤ 32 only, else `None`).
    pub fn all_slots(&self) -> Option<Vec<u32>> {
        if self.dim > 32 {
            return None;
        }
        let len = 1usize.checked_shl(self.dim)?;
        let of_bit: Vec<u32> = (0..self.dim).map(|i| self.slot(1u64 << i) as u32).collect();
        let mut slots = vec![0u32; len];
        for a in 1..len {
            slots[a] = slots[a & (a - 1)] ^ of_bit[a.trailing_zeros() as usize];
        }
        Some(slots)
    }
}

/// The `dim` low bits set.
fn mask(dim: u32) -> u64 {
    if dim >= 64 {
        u64::MAX
    } else {
        (1u64 << dim) - 1
    }
}

/// The bits of `x` at the set positions of `mask`, packed into the low bits (pext).
fn extract(x: u64, mask: u64) -> u64 {
    let (mut out, mut bit, mut rest) = (0u64, 0u32, mask);
    while rest != 0 {
        let position = rest.trailing_zeros();
        out |= (x >> position & 1) << bit;
        bit += 1;
        rest &= rest - 1;
    }
    out
}

/// The low bits of `x` spread into the set positions of `mask` (pdep).
fn deposit(x: u64, mask: u64) -> u64 {
    let (mut out, mut bit, mut rest) = (0u64, 0u32, mask);
    while rest != 0 {
        let position = rest.trailing_zeros();
        out |= (x >> bit & 1) << position;
        bit += 1;
        rest &= rest - 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;

    fn label(a: u64, points: &[Point]) -> Vec<bool> {
        points
            .iter()
            .map(|&x| (a & x).count_ones() % 2 == 1)
            .collect()
    }

    /// `ParityLabelings` against grouping every parity of `{0,1}^dim` by its labels on
    /// `points`: the labelings in order of first appearance by id, the smallest parity of
    /// each, each parity's labeling, the count, and the linear `all_slots`.
    fn check_against_dense(dim: u32, points: &[Point]) {
        let labelings = ParityLabelings::new(dim, points).unwrap();
        let mut first: HashMap<Vec<bool>, u64> = HashMap::new();
        let mut order: Vec<u64> = Vec::new();
        for a in 0..1u64 << dim {
            let key = label(a, points);
            let smallest = *first.entry(key).or_insert_with(|| {
                order.push(a);
                a
            });
            assert_eq!(
                labelings.smallest_alike(a),
                smallest,
                "{dim} {points:?} {a}"
            );
            let slot = order.iter().position(|&s| s == smallest).unwrap() as u64;
            assert_eq!(labelings.slot(a), slot, "{dim} {points:?} {a}");
        }
        assert_eq!(labelings.len(), order.len() as u128, "{dim} {points:?}");
        for (slot, &smallest) in order.iter().enumerate() {
            assert_eq!(labelings.representative(slot as u64), smallest);
        }
        let all = labelings.all_slots().unwrap();
        for (a, &slot) in all.iter().enumerate() {
            assert_eq!(u64::from(slot), labelings.slot(a as u64));
        }
    }

    /// Against the dense grouping on 400 seeded random point sets over cubes of dimension
    /// 1 to 10 (repeated and zero points can occur).
    #[test]
    fn cosets_are_the_dense_grouping() {
        let mut rng = ChaCha8Rng::seed_from_u64(20);
        for _ in 0..400 {
            let dim = rng.random_range(1u32..11);
            let t = rng.random_range(0usize..(dim as usize + 4));
            let points: Vec<Point> = (0..t).map(|_| rng.random_range(0..1u64 << dim)).collect();
            check_against_dense(dim, &points);
        }
    }

    /// The hostile point sets at every d = 1..=8, forced rather than left to chance: only
    /// the zero vector (rank 0: one labeling), the zero vector repeated among other points,
    /// every point repeated, all-ones points, and a full basis plus dependent points (rank
    /// d: every parity its own labeling).
    #[test]
    fn zero_and_repeated_points_are_the_dense_grouping() {
        let mut rng = ChaCha8Rng::seed_from_u64(38);
        for dim in 1u32..=8 {
            let top = (1u64 << dim) - 1;
            let random = |rng: &mut ChaCha8Rng| rng.random_range(0..=top);
            let (p, q) = (random(&mut rng), random(&mut rng));
            let basis: Vec<Point> = (0..dim).map(|i| 1 << i).chain([top, p ^ q]).collect();
            for points in [
                vec![0],
                vec![0, 0, 0],
                vec![0, p, 0, q, 0],
                vec![p, p, q, q, p],
                vec![top, top],
                basis,
            ] {
                check_against_dense(dim, &points);
            }
            let labelings = ParityLabelings::new(dim, &[0, 0]).unwrap();
            assert_eq!(labelings.rank(), 0);
            assert_eq!(labelings.len(), 1);
        }
    }

    /// At d = 64 the rank is that of the points and the representatives are coset minima.
    #[test]
    fn works_at_dimension_64() {
        let points = [u64::MAX, 1, 1 << 63, 3];
        let labelings = ParityLabelings::new(64, &points).unwrap();
        // Independent: only u64::MAX has the bits 2..=62, and 1, 3, 2^63 are independent.
        assert_eq!(labelings.rank(), 4);
        assert!(labelings.all_slots().is_none());
        for slot in 0..16 {
            let a = labelings.representative(slot);
            assert_eq!(labelings.slot(a), slot);
            assert_eq!(labelings.smallest_alike(a), a);
        }
        // Any parity labels the points alike with its coset minimum.
        let a = !1u64 & !(1 << 63);
        let smallest = labelings.smallest_alike(a);
        assert!(smallest <= a);
        assert_eq!(label(smallest, &points), label(a, &points));
        assert!(ParityLabelings::new(4, &[16]).is_err());
        assert!(ParityLabelings::new(0, &[]).is_err());
    }
}
