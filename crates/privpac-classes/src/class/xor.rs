//! Class combinators: the XOR class `C⊕ = {f ⊕ g : f, g ∈ C}` and `C ∪ {0}`.
//!
//! # Why `Xor` does not forward the structured methods
//! [`Not`](crate::Not) and [`Both`](crate::Both) forward the inner class's error levels,
//! members and labeling cells because `1 − c` errs exactly where `c` errs on the flipped
//! sample: a complement's mistakes are a function of one inner concept's. A concept
//! `f ⊕ g` of `C⊕` has no such reduction. Its mistakes on a sample are not a function of
//! the mistakes of `f` and `g` (on one example, `f` and `g` both wrong makes `f ⊕ g` right
//! or wrong depending on the label), so the inner wide levels say nothing about the levels
//! of `C⊕`; and the points `f ⊕ g` labels 1 among a list are the symmetric difference of
//! two [`PointInterval`](crate::class::PointInterval)s, which is in general two disjoint
//! ranges that a `PointInterval` (a range or the complement of one) cannot hold, so there
//! are no labeling cells or ranges to forward. A structured `C⊕` needs the structure of the
//! particular `C` (thresholds ⊕ thresholds are the half-open intervals `(s, t]`, each
//! named twice, plus the zero concept named |C| times), not a generic forward.

use crate::class::ConceptClass;
use crate::class::closed_form::{self, ClosedFormVc};
use crate::domain::{Domain, Point};
use crate::error::{Error, Result};

/// `C⊕ = {f ⊕ g : f, g ∈ C}`: concept `i·|C| + j` is `c_i ⊕ c_j` (|C|² ids; different ids
/// may name the same function). A sanitization of the data with respect to `C⊕`
/// preserves every disagreement `error_D(f, g)` between concepts of C, which is what lets
/// one synthetic database serve to learn any concept of C (Beimel–Nissim–Stemmer, quoted
/// as Bun–Nissim–Stemmer Theorem 2.23, and their Algorithm 2 for k concepts).
///
/// The inner class may be owned (`Box<dyn ConceptClass>`, the default) or borrowed
/// (`&dyn ConceptClass`).
#[derive(Debug)]
pub struct Xor<C: ConceptClass = Box<dyn ConceptClass>> {
    inner: C,
    inner_len: u64,
}

impl<C: ConceptClass> Xor<C> {
    /// The XOR class of `inner`.
    ///
    /// # Errors
    /// [`Error::TooLarge`] if |C|² exceeds 2^64.
    pub fn new(inner: C) -> Result<Self> {
        let inner_len = inner.len();
        if inner_len > u128::from(u32::MAX) + 1 {
            return Err(Error::TooLarge {
                what: "XOR class",
                needed: inner_len.saturating_mul(inner_len),
                unit: "concepts",
                limit: 1 << 64,
            });
        }
        Ok(Xor {
            inner,
            inner_len: inner_len as u64,
        })
    }

    /// The pair `(i, j)` of inner concepts named by an id.
    pub fn pair(&self, id: u64) -> (u64, u64) {
        (id / self.inner_len, id % self.inner_len)
    }
}

impl<C: ConceptClass> ConceptClass for Xor<C> {
    /// See [`closed_form::xor`].
    fn vc_dimension_closed_form(&self) -> Option<ClosedFormVc> {
        let inner = self.inner.vc_dimension_closed_form()?;
        Some(closed_form::xor(inner, self))
    }
    fn domain(&self) -> &Domain {
        self.inner.domain()
    }

    fn len(&self) -> u128 {
        u128::from(self.inner_len) * u128::from(self.inner_len)
    }

    fn eval(&self, id: u64, x: Point) -> bool {
        let (i, j) = self.pair(id);
        self.inner.eval(i, x) ^ self.inner.eval(j, x)
    }

    fn name(&self) -> String {
        format!("xor({})", self.inner.name())
    }

    fn describe(&self, id: u64) -> String {
        let (i, j) = self.pair(id);
        format!(
            "({}) xor ({})",
            self.inner.describe(i),
            self.inner.describe(j)
        )
    }
}

/// `C ∪ {0}`: the class plus the constant-0 concept, which gets the id `|C|`.
#[derive(Debug)]
pub struct WithZero<C: ConceptClass = Box<dyn ConceptClass>> {
    inner: C,
}

impl<C: ConceptClass> WithZero<C> {
    /// `inner ∪ {0}`.
    ///
    /// # Errors
    /// [`Error::TooLarge`] if `inner` already has 2^64 concepts (ids would overflow).
    pub fn new(inner: C) -> Result<Self> {
        if inner.len() > u128::from(u64::MAX) {
            return Err(Error::TooLarge {
                what: "class plus zero",
                needed: inner.len() + 1,
                unit: "concepts",
                limit: u128::from(u64::MAX) + 1,
            });
        }
        Ok(WithZero { inner })
    }
}

impl<C: ConceptClass> ConceptClass for WithZero<C> {
    /// See [`closed_form::with_zero`].
    fn vc_dimension_closed_form(&self) -> Option<ClosedFormVc> {
        let inner = self.inner.vc_dimension_closed_form()?;
        Some(closed_form::with_zero(inner, self))
    }
    fn domain(&self) -> &Domain {
        self.inner.domain()
    }

    fn len(&self) -> u128 {
        self.inner.len() + 1
    }

    fn eval(&self, id: u64, x: Point) -> bool {
        u128::from(id) < self.inner.len() && self.inner.eval(id, x)
    }

    fn name(&self) -> String {
        format!("zero({})", self.inner.name())
    }

    fn describe(&self, id: u64) -> String {
        if u128::from(id) < self.inner.len() {
            self.inner.describe(id)
        } else {
            "all zeros".into()
        }
    }
}
