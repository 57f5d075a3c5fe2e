//! Finite domains: the ordered domain `[N] = {0, …, N−1}`, the hypercube `{0,1}^d`
//! (d ≤ 64, points as bit vectors) and explicit finite sets of points.

use rand::{Rng, RngExt};
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// A point of a domain: an index into an ordered domain, or a bit vector (bit `i` is
/// coordinate `i`) for the hypercube.
pub type Point = u64;

/// A finite domain X.
///
/// Serializes as `{"ordered": {"size": N}}`, `{"hypercube": {"dim": D}}` or
/// `{"explicit": {"points": [...]}}`; deserializing validates through the constructors
/// ([`Domain::ordered`], [`Domain::hypercube`], [`Domain::explicit`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", try_from = "RawDomain")]
pub enum Domain {
    /// `{0, 1, …, size − 1}` with its natural order.
    Ordered {
        /// |X| ≥ 1.
        size: u64,
    },
    /// `{0,1}^dim` with 1 ≤ dim ≤ 64; a point's bit `i` is its coordinate `i`.
    Hypercube {
        /// The dimension d.
        dim: u32,
    },
    /// An explicit set of points, kept sorted and without repeats.
    Explicit {
        /// The points.
        points: Vec<Point>,
    },
}

impl Domain {
    /// A point as data files write it: a bit string of length d with coordinate 0 first on
    /// `{0,1}^d` (so `1000` is the point 1), a decimal integer otherwise.
    pub fn format_point(&self, x: Point) -> String {
        match self {
            Domain::Hypercube { dim } => (0..*dim)
                .map(|i| if x >> i & 1 == 1 { '1' } else { '0' })
                .collect(),
            _ => x.to_string(),
        }
    }

    /// `[size]`.
    ///
    /// # Errors
    /// [`Error::InvalidDomain`] for size 0.
    pub fn ordered(size: u64) -> Result<Self> {
        if size == 0 {
            return Err(Error::InvalidDomain {
                reason: "an ordered domain needs at least one point".into(),
            });
        }
        Ok(Domain::Ordered { size })
    }

    /// `{0,1}^dim`.
    ///
    /// # Errors
    /// [`Error::InvalidDomain`] unless 1 ≤ dim ≤ 64.
    pub fn hypercube(dim: u32) -> Result<Self> {
        if !(1..=64).contains(&dim) {
            return Err(Error::InvalidDomain {
                reason: format!("hypercube dimension must be in 1..=64, got {dim}"),
            });
        }
        Ok(Domain::Hypercube { dim })
    }

    /// An explicit domain; repeats are removed and the points sorted.
    ///
    /// # Errors
    /// [`Error::InvalidDomain`] for an empty list.
    pub fn explicit(mut points: Vec<Point>) -> Result<Self> {
        if points.is_empty() {
            return Err(Error::InvalidDomain {
                reason: "an explicit domain needs at least one point".into(),
            });
        }
        points.sort_unstable();
        points.dedup();
        Ok(Domain::Explicit { points })
    }

    /// |X| (2^64 for the 64-dimensional hypercube, hence `u128`).
    pub fn size(&self) -> u128 {
        match self {
            Domain::Ordered { size } => u128::from(*size),
            Domain::Hypercube { dim } => 1u128 << dim,
            Domain::Explicit { points } => points.len() as u128,
        }
    }

    /// Whether `x` belongs to the domain.
    pub fn contains(&self, x: Point) -> bool {
        match self {
            Domain::Ordered { size } => x < *size,
            Domain::Hypercube { dim } => *dim == 64 || x >> dim == 0,
            Domain::Explicit { points } => points.binary_search(&x).is_ok(),
        }
    }

    /// The position of `x` in the domain's enumeration order, if it belongs to it.
    pub fn index_of(&self, x: Point) -> Option<u64> {
        match self {
            Domain::Explicit { points } => points.binary_search(&x).ok().map(|i| i as u64),
            _ => self.contains(x).then_some(x),
        }
    }

    /// The point at position `index` of the enumeration order.
    pub fn point_at(&self, index: u64) -> Option<Point> {
        match self {
            Domain::Explicit { points } => points.get(index as usize).copied(),
            _ => (u128::from(index) < self.size()).then_some(index),
        }
    }

    /// A uniformly random point.
    pub fn sample_uniform<R: Rng + ?Sized>(&self, rng: &mut R) -> Point {
        match self {
            Domain::Ordered { size } => rng.random_range(0..*size),
            Domain::Hypercube { dim } => {
                let raw = rng.next_u64();
                if *dim == 64 { raw } else { raw >> (64 - dim) }
            }
            Domain::Explicit { points } => points[rng.random_range(0..points.len())],
        }
    }

    /// Checks that `x` belongs to the domain.
    ///
    /// # Errors
    /// [`Error::PointOutsideDomain`].
    pub fn check(&self, x: Point) -> Result<()> {
        if self.contains(x) {
            Ok(())
        } else {
            Err(Error::PointOutsideDomain {
                point: x,
                domain: self.to_string(),
            })
        }
    }

    /// Checks every point of `points`, naming the first one outside the domain as
    /// [`Self::check`] would. For ordered and hypercube domains one pass decides (the
    /// largest point, or the OR of all points), and only a failure walks the points again
    /// to name the first offender; explicit domains check point by point.
    ///
    /// # Errors
    /// [`Error::PointOutsideDomain`] for the first point outside the domain.
    pub fn check_all(&self, points: &[Point]) -> Result<()> {
        let fits = match self {
            Domain::Ordered { size } => points.iter().copied().max().is_none_or(|m| m < *size),
            Domain::Hypercube { dim } => {
                *dim == 64 || points.iter().fold(0, |acc, &x| acc | x) >> dim == 0
            }
            Domain::Explicit { .. } => false,
        };
        if fits {
            return Ok(());
        }
        points.iter().try_for_each(|&x| self.check(x))
    }
}

/// The serialized form of a [`Domain`], validated on the way in.
#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
enum RawDomain {
    Ordered { size: u64 },
    Hypercube { dim: u32 },
    Explicit { points: Vec<Point> },
}

impl TryFrom<RawDomain> for Domain {
    type Error = Error;

    fn try_from(raw: RawDomain) -> Result<Self> {
        match raw {
            RawDomain::Ordered { size } => Domain::ordered(size),
            RawDomain::Hypercube { dim } => Domain::hypercube(dim),
            RawDomain::Explicit { points } => Domain::explicit(points),
        }
    }
}

impl std::fmt::Display for Domain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Domain::Ordered { size } => write!(f, "[{size}]"),
            Domain::Hypercube { dim } => write!(f, "{{0,1}}^{dim}"),
            Domain::Explicit { points } => write!(f, "an explicit set of {} points", points.len()),
        }
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;

    /// `check_all` agrees with checking point by point, the error included (it names the
    /// first offender), on every domain kind, with and without points outside.
    #[test]
    fn check_all_equals_the_point_by_point_check() {
        let domains = [
            Domain::ordered(10).unwrap(),
            Domain::hypercube(3).unwrap(),
            Domain::hypercube(64).unwrap(),
            Domain::explicit(vec![2, 5, 9]).unwrap(),
        ];
        let samples: [&[Point]; 6] = [
            &[],
            &[0, 1, 2, 5],
            &[2, 9, 5],
            &[1, 12, 3, 8, 40],
            &[7, 8, 9, 10, 11],
            &[u64::MAX, 0],
        ];
        for domain in &domains {
            for points in samples {
                let one_by_one = points.iter().try_for_each(|&x| domain.check(x));
                assert_eq!(
                    domain.check_all(points).map_err(|e| e.to_string()),
                    one_by_one.map_err(|e| e.to_string()),
                    "{domain} {points:?}"
                );
            }
        }
    }

    #[test]
    fn sizes_membership_and_enumeration() {
        let ordered = Domain::ordered(10).unwrap();
        assert_eq!(ordered.size(), 10);
        assert!(ordered.contains(9) && !ordered.contains(10));
        let cube = Domain::hypercube(3).unwrap();
        assert_eq!(cube.size(), 8);
        assert!(cube.contains(7) && !cube.contains(8));
        let full = Domain::hypercube(64).unwrap();
        assert_eq!(full.size(), 1u128 << 64);
        assert!(full.contains(u64::MAX));
        let explicit = Domain::explicit(vec![40, 7, 7, 100]).unwrap();
        assert_eq!(explicit.size(), 3);
        assert_eq!(explicit.index_of(40), Some(1));
        assert_eq!(explicit.point_at(2), Some(100));
        assert_eq!(explicit.index_of(8), None);
    }

    #[test]
    fn invalid_domains_are_typed_errors() {
        assert!(matches!(
            Domain::ordered(0),
            Err(Error::InvalidDomain { .. })
        ));
        assert!(matches!(
            Domain::hypercube(0),
            Err(Error::InvalidDomain { .. })
        ));
        assert!(matches!(
            Domain::hypercube(65),
            Err(Error::InvalidDomain { .. })
        ));
        assert!(matches!(
            Domain::explicit(vec![]),
            Err(Error::InvalidDomain { .. })
        ));
        let err = Domain::ordered(5).unwrap().check(5).unwrap_err();
        assert_eq!(err.to_string(), "point 5 is outside the domain ([5])");
    }

    #[test]
    fn serde_round_trips_and_validates() {
        for domain in [
            Domain::ordered(7).unwrap(),
            Domain::hypercube(3).unwrap(),
            Domain::explicit(vec![9, 2]).unwrap(),
        ] {
            let json = serde_json::to_string(&domain).unwrap();
            assert_eq!(serde_json::from_str::<Domain>(&json).unwrap(), domain);
        }
        assert_eq!(
            serde_json::to_string(&Domain::ordered(7).unwrap()).unwrap(),
            r#"{"ordered":{"size":7}}"#
        );
        for bad in [
            r#"{"ordered":{"size":0}}"#,
            r#"{"hypercube":{"dim":65}}"#,
            r#"{"explicit":{"points":[]}}"#,
        ] {
            assert!(serde_json::from_str::<Domain>(bad).is_err(), "{bad}");
        }
        // Explicit points come back sorted and without repeats.
        let loaded: Domain = serde_json::from_str(r#"{"explicit":{"points":[5,1,5]}}"#).unwrap();
        assert_eq!(loaded, Domain::explicit(vec![1, 5]).unwrap());
    }

    #[test]
    fn uniform_samples_stay_inside() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for domain in [
            Domain::ordered(3).unwrap(),
            Domain::hypercube(5).unwrap(),
            Domain::hypercube(64).unwrap(),
            Domain::explicit(vec![2, 9]).unwrap(),
        ] {
            for _ in 0..100 {
                assert!(domain.contains(domain.sample_uniform(&mut rng)));
            }
        }
    }
}
