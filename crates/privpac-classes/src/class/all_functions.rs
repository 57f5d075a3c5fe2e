//! All functions on a small ordered domain.

use crate::class::ConceptClass;
use crate::class::closed_form::{ClosedFormVc, Family};
use crate::domain::{Domain, Point};
use crate::error::{Error, Result};

/// Every function `[N] → {0,1}` (2^N concepts; concept `f` labels `y` with bit `y` of `f`).
/// VC dimension N and Littlestone dimension N.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AllFunctions {
    domain: Domain,
    size: u32,
}

impl AllFunctions {
    /// All functions on `[size]`, 1 ≤ size ≤ 64.
    ///
    /// # Errors
    /// [`Error::InvalidClass`] outside that range.
    pub fn new(size: u32) -> Result<Self> {
        if !(1..=64).contains(&size) {
            return Err(Error::InvalidClass {
                reason: format!("all functions needs 1..=64 points, got {size}"),
            });
        }
        Ok(AllFunctions {
            domain: Domain::ordered(u64::from(size))?,
            size,
        })
    }
}

impl ConceptClass for AllFunctions {
    /// |X|, exactly: the whole domain is shattered.
    fn vc_dimension_closed_form(&self) -> Option<ClosedFormVc> {
        Some(ClosedFormVc::exact(
            u64::from(self.size),
            "all functions: |X|",
            Some(Family::ContainsZero),
        ))
    }
    fn domain(&self) -> &Domain {
        &self.domain
    }

    fn len(&self) -> u128 {
        1u128 << self.size
    }

    fn eval(&self, id: u64, x: Point) -> bool {
        x < 64 && (id >> x) & 1 == 1
    }

    fn name(&self) -> String {
        format!("all:{}", self.size)
    }
}
