//! Lower bounds on the sample complexity of private multi-learning (Bun–Nissim–Stemmer
//! 2016, §4 and §5), as calculators with the constants the proofs give, and the §1.3
//! tables of results as data, so that an experiment can draw a measured curve between its
//! upper and lower bound and print the exponent of k each row predicts.
//!
//! Explicit constants (derived from the proofs, shown on each function):
//! - packing, Theorem 5.1: `n ≥ ln(2^k − 1)/ε` for pure ε-DP PAC k-learning of any
//!   non-trivial class with β = 1/2; Theorem 5.4: `n ≥ ln(2^{dk} − 1)/ε` for parities
//!   under the uniform distribution;
//! - fingerprinting, Theorems 4.3 and 4.7: with an (n, k)-code of security ξ, no
//!   (α ≤ 1/3, β)-accurate empirical k-learner with n examples is (ε, δ)-DP for
//!   `δ < (1 − ξ − β)/n − e^ε·ξ`; Boneh–Shaw's length (Lemma 4.5,
//!   k ≥ 2n³·ln(2n/ξ), or privpac's runnable variant of length (n+1)·(⌊4n²·ln(2n/ξ)⌋ + 1))
//!   and Tardos' explicit length 100c²·⌈ln(n/ξ)⌉ with c = max(n, 4) (the fully
//!   collusion-resistant instance of Proposition 4.9 built in [`crate::fingerprinting`])
//!   turn this into the largest n a given k rules out (Corollaries 4.6 and 4.10).
//!
//! The O-forms with unstated constants ([`remark_5_2_o_form`],
//! [`parity_agnostic_lower_bound_o_form`] for Proposition 4.11, the Ω̃ of the corollaries)
//! are labelled as such.

use crate::error::{Error, Result};
use crate::fingerprinting::fully_resistant_tardos_length;

fn invalid(name: &'static str, requirement: &'static str, value: f64) -> Error {
    Error::InvalidParameter {
        name,
        requirement,
        value,
    }
}

fn check_epsilon(epsilon: f64) -> Result<()> {
    if epsilon.is_finite() && epsilon > 0.0 {
        Ok(())
    } else {
        Err(invalid("epsilon", "finite and > 0", epsilon))
    }
}

/// `ln(2^m − 1)` for m ≥ 1, without overflow: `m·ln 2 + ln(1 − 2^{−m})`.
fn ln_two_pow_minus_one(m: f64) -> f64 {
    m * std::f64::consts::LN_2 + (-(-m * std::f64::consts::LN_2).exp()).ln_1p()
}

/// Theorem 5.1 (packing): every proper or improper (α, β = 1/2, ε)-private PAC k-learner
/// for a class with two concepts that disagree on some point needs
/// `n ≥ ln(2^k − 1)/ε` examples.
///
/// Derivation (the proof's last line): on the 2^k databases of n copies of the point, each
/// labelled by a vector in {f, g}^k, the right vector has probability ≥ 1/2, and group
/// privacy over n changed rows gives every other vector probability ≥ e^{−εn}/2, so
/// `1/2 ≥ (2^k − 1)·e^{−εn}/2`, i.e. `εn ≥ ln(2^k − 1)`.
///
/// # Errors
/// [`Error::InvalidParameter`] for k = 0 or a bad ε.
pub fn packing_lower_bound(k: usize, epsilon: f64) -> Result<f64> {
    check_epsilon(epsilon)?;
    if k == 0 {
        return Err(invalid("k", "at least 1", 0.0));
    }
    Ok(ln_two_pow_minus_one(k as f64) / epsilon)
}

/// Theorem 5.4 (packing for parities): every (α < 1/4, β = 1/2, ε)-PAC k-learner for
/// `PAR_d` under the uniform distribution needs `n ≥ ln(2^{dk} − 1)/ε` examples (the same
/// packing over the |PAR_d|^k = 2^{dk} target vectors, after Lemma 5.3 makes the learner
/// proper and exact).
///
/// # Errors
/// [`Error::InvalidParameter`] for d = 0, k = 0 or a bad ε.
pub fn parity_packing_lower_bound(d: u32, k: usize, epsilon: f64) -> Result<f64> {
    check_epsilon(epsilon)?;
    if d == 0 || k == 0 {
        return Err(invalid("d and k", "at least 1", f64::from(d.min(k as u32))));
    }
    Ok(ln_two_pow_minus_one(f64::from(d) * k as f64) / epsilon)
}

/// Theorems 4.3 and 4.7: with an (n, k)-fingerprinting code of security ξ (compatible
/// with the class for Theorem 4.3; any code for the agnostic Theorem 4.7), an
/// (α ≤ 1/3, β)-accurate empirical k-learner with n examples cannot be (ε, δ)-DP for any
/// δ below the returned value `(1 − ξ − β)/n − e^ε·ξ` (≤ 0: the theorem says nothing).
///
/// # Errors
/// [`Error::InvalidParameter`] for n = 0, ξ or β outside [0, 1), or a bad ε.
pub fn fingerprinting_delta_bound(n: usize, xi: f64, beta: f64, epsilon: f64) -> Result<f64> {
    check_epsilon(epsilon)?;
    if n == 0 {
        return Err(invalid("n", "at least 1", 0.0));
    }
    for (name, value) in [("xi", xi), ("beta", beta)] {
        if !(0.0..1.0).contains(&value) {
            return Err(invalid(name, "in [0, 1)", value));
        }
    }
    Ok((1.0 - xi - beta) / n as f64 - epsilon.exp() * xi)
}

/// The ε a learner must have if a tracing attack with n examples convicts a member of the
/// data at rate `traced` (the fraction of runs in which the trace accuses a member) while
/// innocents are accused at rate at most `innocent`: from the proof of Theorem 4.3, some
/// member i* is accused with probability ≥ traced/n, and with i*'s row replaced at most
/// `innocent`, so `traced/n ≤ e^ε·innocent + δ`, i.e.
/// `ε ≥ ln((traced/n − δ)/innocent)`. `None` when the rates imply nothing
/// (`traced/n ≤ δ`); `+∞` when `innocent = 0`.
///
/// The rates are whatever the caller measured; plugging in point estimates gives an
/// estimate, plugging in confidence bounds (a lower bound on `traced`, an upper bound on
/// `innocent`) gives a bound at that confidence.
///
/// # Errors
/// [`Error::InvalidParameter`] for n = 0 or rates or δ outside [0, 1].
pub fn epsilon_implied_by_tracing(
    n: usize,
    traced: f64,
    innocent: f64,
    delta: f64,
) -> Result<Option<f64>> {
    if n == 0 {
        return Err(invalid("n", "at least 1", 0.0));
    }
    for (name, value) in [
        ("traced rate", traced),
        ("innocent rate", innocent),
        ("delta", delta),
    ] {
        if !(0.0..=1.0).contains(&value) {
            return Err(invalid(name, "in [0, 1]", value));
        }
    }
    let numerator = traced / n as f64 - delta;
    if numerator <= 0.0 {
        return Ok(None);
    }
    if innocent == 0.0 {
        return Ok(Some(f64::INFINITY));
    }
    Ok(Some((numerator / innocent).ln()))
}

/// The largest n with `f(n) ≤ k` for an increasing length function f (0 if even n = 1
/// does not fit), by doubling and bisection.
fn largest_fitting(k: f64, min_users: usize, length: impl Fn(f64) -> f64) -> usize {
    if length(min_users as f64) > k {
        return 0;
    }
    let mut low = min_users;
    let mut high = min_users.max(1) * 2;
    while length(high as f64) <= k {
        low = high;
        high *= 2;
    }
    while high - low > 1 {
        let mid = low + (high - low) / 2;
        if length(mid as f64) <= k {
            low = mid;
        } else {
            high = mid;
        }
    }
    low
}

/// A fingerprinting lower bound for a given k: the largest number of users n whose code
/// fits in length k, and what it implies.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct FingerprintingLowerBound {
    /// The largest n for which the code exists with length ≤ k (0: none).
    pub users: usize,
    /// Sample complexity exceeds this (Theorem 4.3 / 4.7: n; capped by |X| where the
    /// corollary says so).
    pub sample_complexity_above: f64,
    /// With the padding of Remarks 4.4 / 4.8 (`n/(3α)`), for classes with the common point
    /// those remarks need.
    pub padded: f64,
}

/// Corollary 4.6 with Boneh–Shaw's length as the paper quotes it (Lemma 4.5,
/// `k ≥ 2n³·ln(2n/ξ)`): the largest n that code length supports for this k; every
/// improper (α, β)-accurate empirical k-learner for `THRESH_X` that is (ε, δ)-DP with δ
/// below [`fingerprinting_delta_bound`] needs more than `min(|X|, n)` examples
/// (`min(|X|, n/(3α))` with padding).
///
/// **What certifies it.** This n rests on the quoted length `2n³·ln(2n/ξ)`, i.e. on
/// Boneh–Shaw's own analysis of their code Γ₀, which privpac does not run (Γ₀'s tracing
/// is sound only for words that satisfy the marking assumption; see
/// [`crate::fingerprinting::BonehShaw`]). The bound certified by a code privpac builds and
/// traces is [`thresholds_lower_bound_runnable`], for the length
/// `(n+1)·(⌊4n²·ln(2n/ξ)⌋ + 1)` of [`crate::fingerprinting::BonehShaw::for_security`]
/// (about twice as long, so its n is about 2^{-1/3} ≈ 0.79 times this one).
///
/// # Errors
/// [`Error::InvalidParameter`] for ξ ∉ (0, 1), α ∉ (0, 1/3] or an empty domain.
pub fn thresholds_lower_bound(
    k: usize,
    xi: f64,
    alpha: f64,
    domain_size: u64,
) -> Result<FingerprintingLowerBound> {
    check_code_parameters(xi, alpha, domain_size)?;
    let users = largest_fitting(k as f64, 3, |n| 2.0 * n.powi(3) * (2.0 * n / xi).ln());
    Ok(capped(users, alpha, domain_size))
}

/// Corollary 4.6 certified by the Boneh–Shaw variant privpac runs
/// ([`crate::fingerprinting::BonehShaw::for_security`], sound for every pirate word,
/// length `(n+1)·(⌊4n²·ln(2n/ξ)⌋ + 1)`): the largest n whose code fits in k columns, with
/// the same implication as [`thresholds_lower_bound`]. This is the n that
/// [`crate::attack::AttackConfig`] accepts for Boneh–Shaw at this k and ξ.
///
/// # Errors
/// As for [`thresholds_lower_bound`].
pub fn thresholds_lower_bound_runnable(
    k: usize,
    xi: f64,
    alpha: f64,
    domain_size: u64,
) -> Result<FingerprintingLowerBound> {
    check_code_parameters(xi, alpha, domain_size)?;
    let users = largest_fitting(k as f64, 3, |n| {
        (n + 1.0) * ((4.0 * n * n * (2.0 * n / xi).ln()).floor() + 1.0)
    });
    Ok(capped(users, alpha, domain_size))
}

/// Corollary 4.10 with the explicit Tardos length 100c²·⌈ln(n/ξ)⌉ (c = max(n, 4),
/// ε₁ = ξ/n, [`fully_resistant_tardos_length`]; c = n alone would leave the security above
/// ξ for n < 4, see [`crate::fingerprinting::Tardos::fully_collusion_resistant`]): the
/// largest n a code of length ≤ k supports; every improper agnostic (α, β)-accurate
/// empirical k-learner for a class with two concepts that disagree on a point (`POINT_X`,
/// `THRESH_X`, `PAR_d`) that is (ε, δ)-DP with δ below [`fingerprinting_delta_bound`] needs
/// more than `min(|X|, n)` examples.
///
/// # Errors
/// As for [`thresholds_lower_bound`].
pub fn agnostic_lower_bound(
    k: usize,
    xi: f64,
    alpha: f64,
    domain_size: u64,
) -> Result<FingerprintingLowerBound> {
    check_code_parameters(xi, alpha, domain_size)?;
    let users = largest_fitting(k as f64, 2, |n| fully_resistant_tardos_length(n, xi));
    Ok(capped(users, alpha, domain_size))
}

/// Proposition 4.11 (agnostic parities under the uniform distribution), **O-form with an
/// unstated constant**: with d = log₂ n, an (n, k)-code of security ξ rules out improper
/// agnostic (α ≤ 1/6, β, ε = O(1), δ = o(1/n))-PAC k-learners for `PAR_d` with fewer than
/// Ω(n) examples. Returns n = 2^d when the explicit Tardos code for 2^d users at security ξ
/// (length 100c²·⌈ln(n/ξ)⌉, c = max(n, 4), as in [`agnostic_lower_bound`]) fits in k columns, `None`
/// otherwise; the Ω hides a constant the proof sketch does not state.
///
/// # Errors
/// [`Error::InvalidParameter`] for d = 0 or d > 30, or ξ ∉ (0, 1).
pub fn parity_agnostic_lower_bound_o_form(d: u32, k: usize, xi: f64) -> Result<Option<u64>> {
    if d == 0 || d > 30 {
        return Err(invalid("d", "in 1..=30", f64::from(d)));
    }
    if !(xi > 0.0 && xi < 1.0) {
        return Err(invalid("xi", "in (0, 1)", xi));
    }
    let n = 1u64 << d;
    let length = fully_resistant_tardos_length(n as f64, xi);
    Ok((length <= k as f64).then_some(n))
}

/// Remark 5.2, **O-form with an unstated constant**: for classes with two concepts that
/// disagree on one point and agree on another, pure ε-private PAC k-learning needs
/// Ω(k/(αε)) examples; returns `k/(αε)` (the shape, without the constant).
///
/// # Errors
/// [`Error::InvalidParameter`] for k = 0, α ∉ (0, 1) or a bad ε.
pub fn remark_5_2_o_form(k: usize, alpha: f64, epsilon: f64) -> Result<f64> {
    check_epsilon(epsilon)?;
    if k == 0 {
        return Err(invalid("k", "at least 1", 0.0));
    }
    if !(alpha > 0.0 && alpha < 1.0) {
        return Err(invalid("alpha", "in (0, 1)", alpha));
    }
    Ok(k as f64 / (alpha * epsilon))
}

fn check_code_parameters(xi: f64, alpha: f64, domain_size: u64) -> Result<()> {
    if !(xi > 0.0 && xi < 1.0) {
        return Err(invalid("xi", "in (0, 1)", xi));
    }
    if !(alpha > 0.0 && alpha <= 1.0 / 3.0) {
        return Err(invalid("alpha", "in (0, 1/3]", alpha));
    }
    if domain_size == 0 {
        return Err(invalid("domain size", "at least 1", 0.0));
    }
    Ok(())
}

fn capped(users: usize, alpha: f64, domain_size: u64) -> FingerprintingLowerBound {
    let cap = domain_size as f64;
    FingerprintingLowerBound {
        users,
        sample_complexity_above: (users as f64).min(cap),
        padded: (users as f64 / (3.0 * alpha)).min(cap),
    }
}

/// The privacy notion of a §1.3 table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TablePrivacy {
    /// Pure ε-DP.
    Pure,
    /// Approximate (ε, δ)-DP.
    Approximate,
}

/// Whether a row is an upper or a lower bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoundKind {
    /// An algorithm achieves it.
    Upper,
    /// No algorithm beats it.
    Lower,
}

/// One entry of the §1.3 tables of Bun–Nissim–Stemmer: the sample complexity of
/// multi-learning one class in one setting, as printed (constants, logarithmic factors and
/// the learning and privacy parameters hidden), with the exponent of k it implies.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TableEntry {
    /// Pure or approximate privacy.
    pub privacy: TablePrivacy,
    /// Upper or lower bound.
    pub kind: BoundKind,
    /// The class (`POINT_X`, `THRESH_X`, `PAR_d (uniform)`, `general C`).
    pub class: &'static str,
    /// `true` for agnostic learning, `false` for PAC (realizable) learning.
    pub agnostic: bool,
    /// `Some(true)` proper only, `Some(false)` improper, `None` the table does not
    /// distinguish (one cell for both). A lower bound tagged `Some(false)` or `None` holds
    /// for improper learners, hence for proper ones too; one tagged `Some(true)` is the
    /// stronger bound that binds proper learners only.
    pub proper: Option<bool>,
    /// The entry as printed.
    pub bound: &'static str,
    /// The exponent of k in the entry (0 when it does not grow with k).
    pub k_exponent: f64,
    /// The results it comes from.
    pub reference: &'static str,
}

#[allow(clippy::too_many_arguments)] // one positional row of a table, kept on one line each
const fn entry(
    privacy: TablePrivacy,
    kind: BoundKind,
    class: &'static str,
    agnostic: bool,
    proper: Option<bool>,
    bound: &'static str,
    k_exponent: f64,
    reference: &'static str,
) -> TableEntry {
    TableEntry {
        privacy,
        kind,
        class,
        agnostic,
        proper,
        bound,
        k_exponent,
        reference,
    }
}

/// The §1.3 tables, entry by entry (empty cells omitted).
pub const SECTION_1_3_TABLES: &[TableEntry] = {
    use BoundKind::{Lower, Upper};
    use TablePrivacy::{Approximate, Pure};
    &[
        // Pure privacy, upper bounds.
        entry(
            Pure,
            Upper,
            "POINT_X",
            false,
            Some(true),
            "k + log|C|",
            1.0,
            "Thm 3.1",
        ),
        entry(
            Pure,
            Upper,
            "POINT_X",
            false,
            Some(false),
            "k",
            1.0,
            "Cor 3.3",
        ),
        entry(
            Pure,
            Upper,
            "POINT_X",
            true,
            Some(true),
            "k + log|C|",
            1.0,
            "Thm 3.1",
        ),
        entry(
            Pure,
            Upper,
            "POINT_X",
            true,
            Some(false),
            "k",
            1.0,
            "Cor 3.3",
        ),
        entry(
            Pure,
            Upper,
            "THRESH_X",
            true,
            Some(true),
            "k + log|C|",
            1.0,
            "Thm 3.1",
        ),
        entry(
            Pure,
            Upper,
            "general C",
            true,
            Some(true),
            "min{k·log|C|, k·VC(C) + log|X|·VC(C)}",
            1.0,
            "Thm 3.1",
        ),
        entry(
            Pure,
            Upper,
            "PAR_d (uniform)",
            true,
            Some(true),
            "k·log|C|",
            1.0,
            "Thm 3.1",
        ),
        // Pure privacy, lower bounds.
        entry(
            Pure,
            Lower,
            "POINT_X",
            false,
            Some(true),
            "k + log|C|",
            1.0,
            "Thm 5.1, BNS13",
        ),
        entry(
            Pure,
            Lower,
            "POINT_X",
            false,
            Some(false),
            "k",
            1.0,
            "Thm 5.1, BNS13",
        ),
        entry(
            Pure,
            Lower,
            "POINT_X",
            true,
            Some(true),
            "k + log|C|",
            1.0,
            "Thm 5.1, BNS13",
        ),
        entry(
            Pure,
            Lower,
            "POINT_X",
            true,
            Some(false),
            "k",
            1.0,
            "Thm 5.1, BNS13",
        ),
        // One cell for proper and improper: Theorem 5.1 is for "proper or improper"
        // learners, and the log|C| term for thresholds is Feldman–Xiao's improper bound.
        entry(
            Pure,
            Lower,
            "THRESH_X",
            false,
            None,
            "k + log|C|",
            1.0,
            "Thm 5.1, BNS13, FX14",
        ),
        // Theorem 5.4 binds improper learners too (Lemma 5.3 rounds them to proper ones).
        entry(
            Pure,
            Lower,
            "PAR_d (uniform)",
            false,
            None,
            "k·log|C|",
            1.0,
            "Thm 5.4",
        ),
        // Approximate privacy, upper bounds (proper and improper together).
        entry(
            Approximate,
            Upper,
            "POINT_X",
            false,
            None,
            "1",
            0.0,
            "Thm 3.13",
        ),
        entry(
            Approximate,
            Upper,
            "POINT_X",
            true,
            None,
            "√k",
            0.5,
            "Cor 3.9",
        ),
        entry(
            Approximate,
            Upper,
            "THRESH_X",
            true,
            None,
            "2^{log*|X|} + √k",
            0.5,
            "Cor 3.10",
        ),
        entry(
            Approximate,
            Upper,
            "general C",
            true,
            None,
            "min{√k·log|C|, √k·VC(C) + log|X|·VC(C), √k·VC(C) + √(log|X|)·log|C|}",
            0.5,
            "Thm 3.1",
        ),
        entry(
            Approximate,
            Upper,
            "PAR_d (uniform)",
            false,
            None,
            "log|C|",
            0.0,
            "Thm 3.12",
        ),
        entry(
            Approximate,
            Upper,
            "PAR_d (uniform)",
            true,
            None,
            "√k·log|C|",
            0.5,
            "Thm 3.1",
        ),
        // Approximate privacy, lower bounds.
        entry(
            Approximate,
            Lower,
            "POINT_X",
            false,
            Some(true),
            "1",
            0.0,
            "(trivial)",
        ),
        entry(
            Approximate,
            Lower,
            "POINT_X",
            true,
            Some(false),
            "√k",
            0.5,
            "Cor 4.10",
        ),
        entry(
            Approximate,
            Lower,
            "THRESH_X",
            false,
            Some(true),
            "log*|X| + k^{1/3}",
            1.0 / 3.0,
            "Cor 4.6, BNSV15",
        ),
        entry(
            Approximate,
            Lower,
            "THRESH_X",
            false,
            Some(false),
            "k^{1/3}",
            1.0 / 3.0,
            "Cor 4.6",
        ),
        entry(
            Approximate,
            Lower,
            "THRESH_X",
            true,
            Some(true),
            "log*|X| + √k",
            0.5,
            "Cor 4.10, BNSV15",
        ),
        entry(
            Approximate,
            Lower,
            "THRESH_X",
            true,
            Some(false),
            "√k",
            0.5,
            "Cor 4.10",
        ),
        entry(
            Approximate,
            Lower,
            "PAR_d (uniform)",
            false,
            Some(true),
            "log|C|",
            0.0,
            "(VC bound)",
        ),
        entry(
            Approximate,
            Lower,
            "PAR_d (uniform)",
            true,
            Some(false),
            "√k + log|C|",
            0.5,
            "Cor 4.10",
        ),
    ]
};

/// The table entries for one class and setting (privacy, upper/lower, agnostic or not).
pub fn table_entries(
    class: &str,
    privacy: TablePrivacy,
    kind: BoundKind,
    agnostic: bool,
) -> impl Iterator<Item = &'static TableEntry> + '_ {
    SECTION_1_3_TABLES.iter().filter(move |e| {
        e.class == class && e.privacy == privacy && e.kind == kind && e.agnostic == agnostic
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_bounds_match_hand_computation() {
        // k = 1: ln(1)/ε = 0; k = 2: ln 3/ε.
        assert_eq!(packing_lower_bound(1, 1.0).unwrap(), 0.0);
        assert!((packing_lower_bound(2, 0.5).unwrap() - 3f64.ln() / 0.5).abs() < 1e-12);
        // Large k: ≈ k·ln 2/ε without overflow.
        let big = packing_lower_bound(4096, 1.0).unwrap();
        assert!(
            (big - 4096.0 * std::f64::consts::LN_2).abs() < 1e-9,
            "{big}"
        );
        assert!((parity_packing_lower_bound(3, 2, 2.0).unwrap() - 63f64.ln() / 2.0).abs() < 1e-12);
        assert!(packing_lower_bound(0, 1.0).is_err());
        assert!(packing_lower_bound(3, 0.0).is_err());
        assert!(parity_packing_lower_bound(0, 3, 1.0).is_err());
    }

    #[test]
    fn the_packing_bound_grows_linearly_in_k() {
        let at = |k| packing_lower_bound(k, 1.0).unwrap();
        let slope = (at(1024) / at(64)).ln() / (1024f64 / 64.0).ln();
        assert!((slope - 1.0).abs() < 0.01, "{slope}");
    }

    #[test]
    fn fingerprinting_bounds() {
        // (1 − 0.1 − 0.1)/4 − e·0.01.
        let delta = fingerprinting_delta_bound(4, 0.01, 0.1, 1.0).unwrap();
        assert!((delta - (0.89 / 4.0 - std::f64::consts::E * 0.01)).abs() < 1e-12);
        assert!(fingerprinting_delta_bound(0, 0.1, 0.1, 1.0).is_err());
        assert_eq!(
            epsilon_implied_by_tracing(4, 0.8, 0.0, 0.0).unwrap(),
            Some(f64::INFINITY)
        );
        let eps = epsilon_implied_by_tracing(4, 0.8, 0.01, 0.0)
            .unwrap()
            .unwrap();
        assert!((eps - (0.2f64 / 0.01).ln()).abs() < 1e-12);
        assert_eq!(
            epsilon_implied_by_tracing(4, 0.04, 0.01, 0.01).unwrap(),
            None
        );
        assert!(epsilon_implied_by_tracing(4, 1.5, 0.01, 0.0).is_err());
    }

    #[test]
    fn code_lengths_give_the_corollaries_exponents() {
        // Boneh–Shaw: n ≈ k^{1/3}; Tardos: n ≈ k^{1/2} (up to logarithms).
        let bs = |k| {
            thresholds_lower_bound(k, 0.01, 1.0 / 3.0, u64::MAX)
                .unwrap()
                .users as f64
        };
        let td = |k| {
            agnostic_lower_bound(k, 0.01, 1.0 / 3.0, u64::MAX)
                .unwrap()
                .users as f64
        };
        let slope = |f: &dyn Fn(usize) -> f64| (f(1 << 30) / f(1 << 20)).ln() / (1024f64).ln();
        let bs_slope = slope(&bs);
        let td_slope = slope(&td);
        assert!((0.28..0.34).contains(&bs_slope), "{bs_slope}");
        assert!((0.45..0.51).contains(&td_slope), "{td_slope}");
        // Exactness at a point: 2n³·ln(2n/ξ) ≤ k < 2(n+1)³·ln(2(n+1)/ξ).
        let k = 100_000;
        let n = thresholds_lower_bound(k, 0.1, 0.1, u64::MAX).unwrap().users as f64;
        assert!(2.0 * n.powi(3) * (2.0 * n / 0.1).ln() <= k as f64);
        assert!(2.0 * (n + 1.0).powi(3) * (2.0 * (n + 1.0) / 0.1).ln() > k as f64);
        // The domain caps the bound, and a tiny k supports no code.
        let capped = thresholds_lower_bound(1 << 30, 0.1, 0.1, 5).unwrap();
        assert_eq!(capped.sample_complexity_above, 5.0);
        assert_eq!(thresholds_lower_bound(10, 0.1, 0.1, 100).unwrap().users, 0);
        assert!(thresholds_lower_bound(10, 0.1, 0.5, 100).is_err());
        assert!(agnostic_lower_bound(10, 1.0, 0.1, 100).is_err());
    }

    #[test]
    fn o_form_bounds_are_labelled_shapes() {
        // d = 2: n = 4 users need 100·16·⌈ln 40⌉ = 6400 columns at ξ = 0.1.
        assert_eq!(
            parity_agnostic_lower_bound_o_form(2, 6400, 0.1).unwrap(),
            Some(4)
        );
        assert_eq!(
            parity_agnostic_lower_bound_o_form(2, 6399, 0.1).unwrap(),
            None
        );
        assert!(parity_agnostic_lower_bound_o_form(0, 10, 0.1).is_err());
        assert!(parity_agnostic_lower_bound_o_form(3, 10, 1.0).is_err());
        assert!((remark_5_2_o_form(10, 0.1, 0.5).unwrap() - 200.0).abs() < 1e-12);
        assert!(remark_5_2_o_form(0, 0.1, 0.5).is_err());
        assert!(remark_5_2_o_form(3, 1.0, 0.5).is_err());
    }

    /// Each fingerprinting bound's n is exactly the largest n whose code (the one the
    /// bound is stated for) fits in k columns: the runnable Boneh–Shaw and the Tardos code
    /// privpac builds fit at n and not at n + 1, for k away from any grid.
    #[test]
    fn bounds_match_the_codes_privpac_builds() {
        use crate::fingerprinting::{BonehShaw, FingerprintingCode, Tardos};
        for &xi in &[0.01, 0.1, 0.3] {
            for k in [1usize, 100, 1_000, 4_799, 4_800, 9_999, 123_457, 2_000_001] {
                let bs = thresholds_lower_bound_runnable(k, xi, 1.0 / 3.0, u64::MAX).unwrap();
                let quoted = thresholds_lower_bound(k, xi, 1.0 / 3.0, u64::MAX).unwrap();
                assert!(bs.users <= quoted.users, "k = {k}: {bs:?} {quoted:?}");
                if bs.users >= 3 {
                    let code = BonehShaw::for_security(bs.users, xi).unwrap();
                    assert!(code.length() <= k, "k = {k}, n = {}", bs.users);
                }
                let next = BonehShaw::for_security(bs.users.max(2) + 1, xi).unwrap();
                assert!(next.length() > k, "k = {k}, n = {}", bs.users);
                let td = agnostic_lower_bound(k, xi, 1.0 / 3.0, u64::MAX).unwrap();
                if td.users >= 2 {
                    let code = Tardos::fully_collusion_resistant(td.users, xi).unwrap();
                    assert!(code.length() <= k, "k = {k}, n = {}", td.users);
                    assert!(
                        code.security() <= xi,
                        "n = {}: {}",
                        td.users,
                        code.security()
                    );
                }
                let next = Tardos::fully_collusion_resistant(td.users.max(1) + 1, xi).unwrap();
                assert!(next.length() > k, "k = {k}, n = {}", td.users);
            }
        }
    }

    #[test]
    fn tables_have_every_setting_and_sane_exponents() {
        assert_eq!(SECTION_1_3_TABLES.len(), 27);
        for entry in SECTION_1_3_TABLES {
            assert!(
                [0.0, 1.0 / 3.0, 0.5, 1.0].contains(&entry.k_exponent),
                "{entry:?}"
            );
        }
        let points: Vec<_> = table_entries(
            "POINT_X",
            TablePrivacy::Approximate,
            BoundKind::Upper,
            false,
        )
        .collect();
        assert_eq!(points.len(), 1);
        assert_eq!(points[0].k_exponent, 0.0);
        // The pure packing bounds for thresholds and parities bind improper learners too
        // (Theorem 5.1 is for proper or improper learners; Lemma 5.3 for parities).
        for class in ["THRESH_X", "PAR_d (uniform)"] {
            let lower: Vec<_> =
                table_entries(class, TablePrivacy::Pure, BoundKind::Lower, false).collect();
            assert_eq!(lower.len(), 1, "{class}");
            assert_ne!(lower[0].proper, Some(true), "{:?}", lower[0]);
        }
        // Every approximate lower bound is at most the matching upper bound's exponent.
        for lower in SECTION_1_3_TABLES
            .iter()
            .filter(|e| e.privacy == TablePrivacy::Approximate && e.kind == BoundKind::Lower)
        {
            for upper in table_entries(lower.class, lower.privacy, BoundKind::Upper, lower.agnostic)
            {
                assert!(
                    lower.k_exponent <= upper.k_exponent,
                    "{lower:?} vs {upper:?}"
                );
            }
        }
    }
}
