//! VC dimensions in closed form, for structured classes of any size (no class matrix):
//! [`ConceptClass::vc_dimension_closed_form`](crate::ConceptClass::vc_dimension_closed_form)
//! (cross-checked against the exact search on small classes in the dimension tests).
//!
//! The base classes know theirs exactly (thresholds 1, points 1, intervals 2, parities d,
//! all functions |X|; each for the domain sizes stated at [`Family`]); the combinators
//! derive theirs from their inner class's:
//!
//! | Class | VC dimension | Why |
//! |---|---|---|
//! | `not(C)` | `VC(C)` | `c ↦ 1 − c` maps the restrictions to a set onto their complements |
//! | `zero(C)` | `VC(C)` if `0 ∈ C` (intervals, parities, all); 1 for thresholds and points; else at most `VC(C) + 1` | adding one concept adds at most one shattered point |
//! | `both(C)` | 2 for thresholds (N ≥ 2); `d + 1` for parities (the affine functions); else at most `2·VC(C) + 1` | a union of classes of VC dimensions d₁, d₂ has VC dimension at most d₁ + d₂ + 1 |
//! | `xor(C)` | 2 for thresholds and points (N ≥ 3); d for parities (closed under ⊕); else at most the largest m with 2^m ≤ (Σ_{i≤d} C(m, i))² | the growth function of `C⊕` is at most the square of C's, bounded by Sauer–Shelah |
//!
//! Every value is also at most ⌊log₂|C|⌋ and at most |X|, which caps the bounds. A value is
//! [`ClosedFormVc::exact`] only where the table says "is"; otherwise it is a proven upper
//! bound, and a sample-size bound computed from it (monotone in the dimension) is still
//! a valid bound, only possibly larger than the exact one.
//!
//! *Proofs of the exact entries.* Thresholds (`1 on x ≤ t`, N ≥ 2): `{0}` is shattered
//! (t = 0 is 1 there, and t = 0 is 0 at 1, so `{1}` is shattered); two points `x < y`
//! cannot be labelled `(0, 1)`. With the empty prefix added the same holds (for N ≥ 1).
//! Points (|X| ≥ 2): a singleton is shattered, two points cannot both be 1, with or without
//! the all-zero concept. Intervals (N ≥ 2, the empty interval included): `{0, 1}` is
//! shattered, three points cannot be labelled `(1, 0, 1)`. Parities over `{0,1}^d`: the unit
//! vectors are shattered (concept a labels e_i with a_i), and |C| = 2^d caps it at d. Both
//! orientations of thresholds (N ≥ 2): `{0, 1}` gets 00 from `1 on x > N−1`, 11 from
//! `x ≤ N−1`, 10 from `x ≤ 0`, 01 from `x > 0`; three points cannot be labelled
//! `(1, 0, 1)` by either orientation. Both(parities) is the affine functions
//! `⟨a, x⟩ ⊕ b`: `{0, e_1, …, e_d}` is shattered (b at 0, a_i ⊕ b at e_i), and
//! 2^(d+1) concepts cap it at d + 1. Xor(thresholds) is the half-open intervals
//! `(s, t]` (N ≥ 3): `{1, 2}` is shattered by `(0,1]`, `(1,2]`, `(0,2]`, ∅; three points
//! cannot be `(1, 0, 1)`. Xor(points) is the sets of size 0 or 2 (|X| ≥ 3): two points
//! are shattered (`{a, c}` with a third point c gives 10), three cannot all be 1.

use crate::class::ConceptClass;

/// The structure a combinator can use to give an exact value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// Thresholds `1 on x ≤ t` over `[N]` (VC 1 for N ≥ 2).
    Thresholds,
    /// Point functions (VC 1 for |X| ≥ 2).
    Points,
    /// Intervals with the empty one (VC 2 for N ≥ 2).
    Intervals,
    /// Parities over `{0,1}^d` (VC d).
    Parities,
    /// A class containing the all-zero concept, no more structure used.
    ContainsZero,
}

/// A VC dimension from the class's structure: exact, or a proven upper bound.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClosedFormVc {
    /// The VC dimension, or an upper bound on it.
    pub dimension: u64,
    /// Whether `dimension` is the VC dimension (else it is an upper bound).
    pub exact: bool,
    /// How it was derived, e.g. `"xor(thresholds): 2"`.
    pub derivation: String,
    /// The base family, for the combinators' exact cases (None: nothing known).
    pub family: Option<Family>,
}

impl ClosedFormVc {
    /// An exact value.
    pub fn exact(dimension: u64, derivation: impl Into<String>, family: Option<Family>) -> Self {
        ClosedFormVc {
            dimension,
            exact: true,
            derivation: derivation.into(),
            family,
        }
    }

    /// An upper bound, capped by ⌊log₂|C|⌋ and |X| of `class` (a capped bound stays a
    /// bound).
    fn bound(dimension: u64, derivation: String, class: &dyn ConceptClass) -> Self {
        ClosedFormVc {
            dimension: dimension.min(cap(class)),
            exact: false,
            derivation,
            family: None,
        }
    }

    /// "exactly d" or "at most d".
    pub fn describe(&self) -> String {
        if self.exact {
            format!("VC dimension {} ({})", self.dimension, self.derivation)
        } else {
            format!(
                "VC dimension at most {} ({}; an upper bound)",
                self.dimension, self.derivation
            )
        }
    }
}

/// ⌊log₂|C|⌋ and |X|, the trivial caps of any class's VC dimension.
fn cap(class: &dyn ConceptClass) -> u64 {
    let log = u64::from(127 - class.len().max(1).leading_zeros());
    let domain = u64::try_from(class.domain().size()).unwrap_or(u64::MAX);
    log.min(domain)
}

/// `not(C)`: the inner value, exact when it is (see the module table).
pub fn not(inner: ClosedFormVc) -> ClosedFormVc {
    ClosedFormVc {
        derivation: format!("not(C) as C: {}", inner.derivation),
        family: None,
        ..inner
    }
}

/// `zero(C) = C ∪ {0}` of the class `outer` (see the module table).
pub fn with_zero(inner: ClosedFormVc, outer: &dyn ConceptClass) -> ClosedFormVc {
    match (inner.exact, inner.family) {
        (true, Some(Family::Thresholds | Family::Points)) => ClosedFormVc::exact(
            1,
            "zero(C) for thresholds or points: 1",
            Some(Family::ContainsZero),
        ),
        (true, Some(family @ (Family::Intervals | Family::Parities | Family::ContainsZero))) => {
            ClosedFormVc {
                derivation: format!("zero(C) = C, 0 already in C: {}", inner.derivation),
                family: Some(family),
                ..inner
            }
        }
        _ => ClosedFormVc::bound(
            inner.dimension.saturating_add(1),
            format!("zero(C) at most VC(C) + 1, VC(C) from {}", inner.derivation),
            outer,
        ),
    }
}

/// `both(C) = C ∪ not(C)` of the class `outer` over `inner_class` (see the module table).
pub fn both(inner: ClosedFormVc, outer: &dyn ConceptClass) -> ClosedFormVc {
    let size = outer.domain().size();
    match (inner.exact, inner.family) {
        (true, Some(Family::Thresholds)) if size >= 2 => {
            ClosedFormVc::exact(2, "both(thresholds): 2", Some(Family::ContainsZero))
        }
        (true, Some(Family::Parities)) => ClosedFormVc::exact(
            inner.dimension + 1,
            "both(parities:d), the affine functions: d + 1",
            Some(Family::ContainsZero),
        ),
        _ => ClosedFormVc::bound(
            inner.dimension.saturating_mul(2).saturating_add(1),
            format!(
                "both(C) at most 2·VC(C) + 1 (union of two classes), VC(C) from {}",
                inner.derivation
            ),
            outer,
        ),
    }
}

/// `xor(C) = {f ⊕ g}` of the class `outer` (see the module table).
pub fn xor(inner: ClosedFormVc, outer: &dyn ConceptClass) -> ClosedFormVc {
    let size = outer.domain().size();
    match (inner.exact, inner.family) {
        (true, Some(Family::Thresholds)) if size >= 3 => ClosedFormVc::exact(
            2,
            "xor(thresholds), the half-open intervals: 2",
            Some(Family::ContainsZero),
        ),
        (true, Some(Family::Points)) if size >= 3 => ClosedFormVc::exact(
            2,
            "xor(points), the sets of 0 or 2 points: 2",
            Some(Family::ContainsZero),
        ),
        (true, Some(Family::Parities)) => ClosedFormVc::exact(
            inner.dimension,
            "xor(parities) = parities: d",
            Some(Family::Parities),
        ),
        _ => ClosedFormVc::bound(
            sauer_square_bound(inner.dimension),
            format!(
                "xor(C): the largest m with 2^m ≤ (Σ_(i≤d) C(m,i))² (Sauer–Shelah), d = VC(C) \
                 from {}",
                inner.derivation
            ),
            outer,
        ),
    }
}

/// The largest m with `2^m ≤ (Σ_{i≤d} C(m, i))²`: a class whose growth function is at most
/// the square of that of a class of VC dimension d shatters no more than m points.
pub fn sauer_square_bound(d: u64) -> u64 {
    // Σ_{i≤d} C(m, i) ≤ (em/d)^d, so 2^m ≤ (em/d)^(2d) fails for m ≥ 8d + 8: search below.
    let shattered = |m: u64| -> bool {
        // log2 of the sum of binomials, summed in f64 logs (exact enough: a strict
        // comparison at integer m with a margin of rounding only moves the bound up).
        let mut sum = 0.0_f64;
        let mut term = 1.0_f64;
        for i in 0..=d.min(m) {
            if i > 0 {
                term *= (m - i + 1) as f64 / i as f64;
            }
            sum += term;
        }
        (m as f64) <= 2.0 * sum.log2() + 1e-9
    };
    let limit = d.saturating_mul(8).saturating_add(8);
    (0..=limit).rev().find(|&m| shattered(m)).unwrap_or(0)
}
