//! The first "above" answer of the sparse vector over a long stream of questions,
//! sampled exactly from the counts of the stream's answers instead of one noise draw per
//! question ([`SparseVector::first_above`]).
//!
//! # The distribution
//! Within one AboveThreshold round the noisy threshold `T̂` is fixed, and question i is
//! "above" when `a_i + Z_i ≥ T̂` for independent `Z_i ~ Lap_Z(b)` (the query noise,
//! `b = t/s`). Given `T̂` the answers are therefore independent, and the number J of
//! leading "below" answers has
//! `P(J ≥ m) = S(m) = Π_{i<m} β(a_i) = Π_v β(v)^{e_v(m)}`,
//! where `β(a) = P(Z < T̂ − a)` and `e_v(m)` counts the answers equal to v among the first
//! m questions. With `x = s/t` and `τ(j) = P(Z ≥ j) = e^{−jx}/(1 + e^{−x}) =
//! 1/(e^{jx} + e^{(j−1)x})` for `j ≥ 1`, symmetry gives `P(Z ≥ k) = 1 − τ(1 − k)` for
//! `k ≤ 0`, so `β(a) = 1 − τ(k)` when `k = T̂ − a ≥ 1` and `β(a) = τ(1 − k)` otherwise.
//!
//! # The sampler, and why it is exact
//! Let U be uniform on `[0, 1)` and `J* = max{m ∈ [0, M] : U < S(m)}`. Since `S(0) = 1 > U`
//! and S is non-increasing, `{m : U < S(m)} ∩ [0, M] = [0, J*]`, so for `m ≤ M`,
//! `P(J* ≥ m) = P(U < S(m)) = S(m) = P(J ≥ m)`: `J*` has exactly the law of `min(J, M)`,
//! and `J* = M` is the event "no above among the M questions".
//!
//! The sampler computes `J*` from a lazily drawn U (its binary digits, drawn as needed) and
//! exact decisions of `U < S(m)`. `S(m)` is enclosed in integers scaled by `2^q`:
//! `e^{x}` by the Taylor series with floor and ceiling rounding and a bound on its tail
//! (the enclosure behind the exact discrete Laplace table), powers and products rounded
//! outward (floor of the lower end, one unit above the floor of the upper end), and `τ(j)`
//! taken as `[0, 1]` units when `jx ≥ 0.7(q + 2) > (q + 2)·ln 2`, where
//! `τ(j) < e^{−jx} < 2^{−q−2}`. So `lo ≤ S(m)·2^q ≤ hi` always. A decision is taken only
//! when U's interval `[u/2^b, (u + 1)/2^b)` lies entirely below `lo/2^q` ("U < S") or at or
//! above `hi/2^q` ("U ≥ S"); otherwise U gets more digits (up to `q + 8`), and then the
//! precision q doubles and the enclosure is recomputed. Every decision is the true value of
//! `U < S(m)`, so the output is `J*` exactly: no floating-point number is rounded between
//! the random digits and the answer. The loop ends with probability 1: the enclosure's
//! width tends to 0 as q grows (a fixed number of outward roundings of one unit each, on
//! numbers whose relative error shrinks like `2^{−q}`), so does U's interval, and `U ≠ S(m)`
//! with probability 1.
//!
//! Which m are tested — a floating-point guess of `J*` from `ln U` and `ln S`, then a
//! binary search when the guess is wrong — changes the running time only: `J*` is a function
//! of U, whatever order the exact decisions are taken in.
//!
//! The first [`EXPLICIT_QUESTIONS`] questions of a stream are asked one at a time with their
//! own noise draws ([`SparseVector::query`]), the cheap way while "above" answers are
//! frequent. Given `T̂` the later questions are independent of them, so when all of them are
//! "below" the sampler above, run on the rest of the stream with the same `T̂`, completes
//! the same joint law.

use std::collections::{BTreeMap, HashMap};

use num_bigint::BigUint;
use rand::Rng;

use super::{SparseVector, exact_noisy};
use crate::error::{Error, Result};
use crate::exact_bits::RandomBits;
use crate::noise::survival_digits::{Enclosure, exp_enclosure};

/// Questions of a stream that [`SparseVector::first_above`] asks one at a time before it
/// samples the rest of the stream from the counts of its answers.
pub const EXPLICIT_QUESTIONS: u128 = 64;

/// A stream of integer questions for [`SparseVector::first_above`], described by its
/// answers: one at a time for the first few, and as counts per answer value for any prefix.
pub trait AnswerStream {
    /// The number of questions.
    fn questions(&self) -> u128;
    /// The answer of question `index` (`index < questions()`).
    fn answer(&self, index: u128) -> i64;
    /// The answers of the first `m` questions (`m ≤ questions()`) as `(answer, count)`
    /// pairs; an answer may appear in several pairs, and the counts of each answer must
    /// be exact.
    fn prefix_counts(&self, m: u128) -> Vec<(i64, u128)>;
}

impl SparseVector {
    /// Asks the questions of `stream` in order and returns the index of the first "above"
    /// answer (after which, as in [`Self::query`], a fresh noisy threshold is drawn), or
    /// `None` when every answer is "below".
    ///
    /// The result has exactly the distribution of calling [`Self::query`] on the answers
    /// one by one until the first `true` (the proof is in the module documentation of
    /// `sparse_vector::stream`), so the privacy guarantee of the instance is unchanged;
    /// only the first [`EXPLICIT_QUESTIONS`] questions get their own noise draws. Cost:
    /// O(1) per explicit question, then O(log M) calls to `prefix_counts` and two exact
    /// comparisons in big-integer arithmetic (more only when the floating-point guess is
    /// wrong or U falls close to `S(m)`).
    ///
    /// # Errors
    /// [`Error::SparseVectorExhausted`] if the budget of "above" answers is already spent;
    /// [`Error::InvalidCount`] if the stream's `prefix_counts(m)` for an m the sampler read
    /// do not sum to m or a count decreased as m grew (the stream broke its contract; the
    /// draw is discarded, and the budget is not charged).
    pub fn first_above<S: AnswerStream + ?Sized, R: Rng + ?Sized>(
        &mut self,
        stream: &S,
        rng: &mut R,
    ) -> Result<Option<u128>> {
        if self.above_so_far >= self.max_above {
            return Err(Error::SparseVectorExhausted {
                limit: self.max_above,
            });
        }
        let total = stream.questions();
        let explicit = total.min(EXPLICIT_QUESTIONS);
        for i in 0..explicit {
            if self.query(stream.answer(i), rng)? {
                return Ok(Some(i));
            }
        }
        if explicit == total {
            return Ok(None);
        }
        // A stream whose prefix counts do not count its first m questions (sum m, each
        // answer's count non-decreasing in m) would be sampled under another stream's law:
        // such a call is refused after the fact (the draw is discarded).
        let inconsistent = std::cell::Cell::new(None::<u128>);
        let base = aggregate(stream.prefix_counts(explicit));
        if total_count(&base) != explicit {
            inconsistent.set(Some(explicit));
        }
        let counts_at = |m: u128| -> Vec<(i64, u128)> {
            let mut map = aggregate(stream.prefix_counts(explicit + m));
            if total_count(&map) != explicit + m {
                inconsistent.set(Some(explicit + m));
            }
            for (v, c) in &base {
                match map.get_mut(v) {
                    Some(slot) if *slot >= *c => *slot -= *c,
                    _ => inconsistent.set(Some(explicit + m)),
                }
            }
            map.into_iter().filter(|&(_, c)| c > 0).collect()
        };
        let (t, s) = self.query_noise.scale_ratio();
        let mut exact = Survival::new(self.noisy_threshold, t, s);
        let leading = {
            let mut bits = RandomBits::new(rng);
            let mut u = LazyUniform::default();
            leading_below(&mut exact, &mut u, total - explicit, &counts_at, &mut bits)
        };
        if let Some(m) = inconsistent.get() {
            return Err(Error::InvalidCount {
                name: "the stream's prefix counts at m",
                requirement: "counts per answer of its first m questions (summing to m, none \
                              decreasing as m grows)",
                value: u64::try_from(m).unwrap_or(u64::MAX),
            });
        }
        if leading == total - explicit {
            return Ok(None);
        }
        self.above_so_far += 1;
        self.noisy_threshold = exact_noisy(self.threshold, self.threshold_noise, rng);
        Ok(Some(explicit + leading))
    }
}

/// Sums the counts of equal answers.
fn aggregate(pairs: Vec<(i64, u128)>) -> BTreeMap<i64, u128> {
    let mut map = BTreeMap::new();
    for (v, c) in pairs {
        let slot = map.entry(v).or_insert(0u128);
        *slot = slot.saturating_add(c);
    }
    map
}

/// The number of questions a count map covers (saturating: a sum past `u128::MAX` is no
/// stream's).
fn total_count(map: &BTreeMap<i64, u128>) -> u128 {
    map.values().fold(0u128, |sum, &c| sum.saturating_add(c))
}

/// `J* = max{m ∈ [0, total] : U < S(m)}` (module documentation): a floating-point guess,
/// checked and, when wrong, corrected by binary search with exact decisions.
fn leading_below<R: Rng + ?Sized>(
    exact: &mut Survival,
    u: &mut LazyUniform,
    total: u128,
    counts_at: &dyn Fn(u128) -> Vec<(i64, u128)>,
    bits: &mut RandomBits<'_, R>,
) -> u128 {
    u.extend(64, bits);
    let log_u = u.log_estimate();
    let log_s = |m: u128| -> f64 {
        counts_at(m)
            .iter()
            .map(|&(v, c)| c as f64 * exact.log_below(v))
            .sum()
    };
    let guess = if log_s(total) > log_u {
        total
    } else {
        let (mut lo, mut hi) = (0u128, total);
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if log_s(mid) > log_u {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        lo
    };
    let mut holds = |m: u128| m == 0 || u.below(exact, &counts_at(m), bits);
    let (mut lo, mut hi) = if holds(guess) {
        if guess == total || !holds(guess + 1) {
            return guess;
        }
        if holds(total) {
            return total;
        }
        (guess + 1, total)
    } else {
        (0, guess)
    };
    // holds(lo) and !holds(hi).
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if holds(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

/// A uniform `U ∈ [0, 1)` known by its first `bits` binary digits: `U ∈ [u/2^b, (u+1)/2^b)`.
#[derive(Debug, Default)]
pub(crate) struct LazyUniform {
    pub(crate) digits: BigUint,
    pub(crate) bits: u32,
    /// How many times a decision needed a higher precision than the first (for tests).
    pub(crate) escalations: u32,
}

impl LazyUniform {
    /// Draws digits until at least `to` are known.
    pub(crate) fn extend<R: Rng + ?Sized>(&mut self, to: u32, source: &mut RandomBits<'_, R>) {
        while self.bits < to {
            let take = (to - self.bits).min(64);
            self.digits = (&self.digits << take) | BigUint::from(source.bits(take));
            self.bits += take;
        }
    }

    /// `ln U` from the first 64 digits (the midpoint of their interval): a guess only.
    fn log_estimate(&self) -> f64 {
        let shift = self.bits.saturating_sub(64);
        let top = (&self.digits >> shift)
            .iter_u64_digits()
            .next()
            .unwrap_or(0);
        let known = self.bits.min(64);
        (top as f64 + 0.5).ln() - f64::from(known) * std::f64::consts::LN_2
    }

    /// Whether `U < Π_v β(v)^{e_v}` for the `(v, e_v)` of `counts`, decided exactly.
    pub(crate) fn below<R: Rng + ?Sized>(
        &mut self,
        exact: &mut Survival,
        counts: &[(i64, u128)],
        source: &mut RandomBits<'_, R>,
    ) -> bool {
        let widest = counts
            .iter()
            .map(|&(_, c)| 128 - c.leading_zeros())
            .max()
            .unwrap_or(0);
        let mut q = 128 + widest;
        loop {
            let s = exact.survival(counts, q);
            loop {
                let b = self.bits;
                // U_hi = (u + 1)/2^b ≤ lo/2^q: U < S.
                if ((&self.digits + 1u32) << q) <= (&s.lo << b) {
                    return true;
                }
                // U_lo = u/2^b ≥ hi/2^q: U ≥ S.
                if (&self.digits << q) >= (&s.hi << b) {
                    return false;
                }
                if b >= q + 8 {
                    break;
                }
                self.extend(q + 8, source);
            }
            q = q.saturating_mul(2);
            self.escalations += 1;
        }
    }
}

/// Rigorous enclosures of `β(a) = P(a + Z < T̂)` and of products of their powers, for the
/// query noise `Lap_Z(t/s)` and a fixed noisy threshold `T̂`.
#[derive(Debug)]
pub(crate) struct Survival {
    threshold: i128,
    t: BigUint,
    s: BigUint,
    x: f64,
    /// `e^{x}·2^q`, enclosed, per precision q.
    base: HashMap<u32, Enclosure>,
    /// `β(a)·2^q`, enclosed, per `(a, q)`.
    betas: HashMap<(i64, u32), Enclosure>,
}

impl Survival {
    pub(crate) fn new(threshold: i128, t: u64, s: u64) -> Self {
        Survival {
            threshold,
            t: BigUint::from(t),
            s: BigUint::from(s),
            x: s as f64 / t as f64,
            base: HashMap::new(),
            betas: HashMap::new(),
        }
    }

    /// `ln β(a)` in floating point (for guesses only).
    fn log_below(&self, answer: i64) -> f64 {
        let k = self.threshold - i128::from(answer);
        let x = self.x;
        if k >= 1 {
            let tau = (-(k as f64) * x).exp() / (1.0 + (-x).exp());
            (-tau).ln_1p()
        } else {
            -((1 - k) as f64) * x - (-x).exp().ln_1p()
        }
    }

    /// `τ(j)·2^q` enclosed (`j ≥ 1`).
    fn tau(&mut self, j: u128, q: u32) -> Enclosure {
        let a = BigUint::from(j) * &self.s;
        // jx ≥ 0.7(q + 2) > (q + 2) ln 2: τ(j) < e^{−jx} < 2^{−q−2}.
        if &a * 10u32 >= &self.t * 7u32 * (u64::from(q) + 2) {
            return Enclosure {
                lo: BigUint::ZERO,
                hi: BigUint::from(1u32),
            };
        }
        let (s, t) = (&self.s, &self.t);
        let e1 = self
            .base
            .entry(q)
            .or_insert_with(|| exp_enclosure(s, t, q))
            .clone();
        let previous = pow_out(&e1, j - 1, q, false);
        let current = mul_out(&previous, &e1, q, false);
        let numerator = BigUint::from(1u32) << (2 * q);
        let low_den = &current.lo + &previous.lo;
        Enclosure {
            lo: &numerator / (&current.hi + &previous.hi),
            hi: (&numerator + &low_den - 1u32) / &low_den,
        }
    }

    /// `β(a)·2^q` enclosed.
    fn beta(&mut self, answer: i64, q: u32) -> Enclosure {
        if let Some(e) = self.betas.get(&(answer, q)) {
            return e.clone();
        }
        let one = BigUint::from(1u32) << q;
        let k = self.threshold - i128::from(answer);
        let e = if k >= 1 {
            let tau = self.tau(k as u128, q);
            Enclosure {
                lo: if tau.hi >= one {
                    BigUint::ZERO
                } else {
                    &one - &tau.hi
                },
                hi: &one - tau.lo.min(one.clone()),
            }
        } else {
            let tau = self.tau((1 - k) as u128, q);
            Enclosure {
                lo: tau.lo.min(one.clone()),
                hi: tau.hi.min(one),
            }
        };
        self.betas.insert((answer, q), e.clone());
        e
    }

    /// `Π_v β(v)^{e_v}·2^q` enclosed.
    pub(crate) fn survival(&mut self, counts: &[(i64, u128)], q: u32) -> Enclosure {
        let mut acc = unit(q);
        for &(v, e) in counts {
            let b = self.beta(v, q);
            acc = mul_out(&acc, &pow_out(&b, e, q, true), q, true);
        }
        acc
    }
}

/// `1·2^q` as an enclosure.
fn unit(q: u32) -> Enclosure {
    let one = BigUint::from(1u32) << q;
    Enclosure {
        lo: one.clone(),
        hi: one,
    }
}

/// The product of two enclosures scaled by `2^q`, rounded outward (and the upper end
/// capped at `2^q` when `at_most_one`).
fn mul_out(a: &Enclosure, b: &Enclosure, q: u32, at_most_one: bool) -> Enclosure {
    let lo = (&a.lo * &b.lo) >> q;
    let mut hi = ((&a.hi * &b.hi) >> q) + 1u32;
    if at_most_one {
        hi = hi.min(BigUint::from(1u32) << q);
    }
    Enclosure { lo, hi }
}

/// `base^e` scaled by `2^q`, by squaring, rounded outward.
fn pow_out(base: &Enclosure, mut e: u128, q: u32, at_most_one: bool) -> Enclosure {
    let mut acc = unit(q);
    let mut square = base.clone();
    while e > 0 {
        if e & 1 == 1 {
            acc = mul_out(&acc, &square, q, at_most_one);
        }
        e >>= 1;
        if e > 0 {
            square = mul_out(&square, &square, q, at_most_one);
        }
    }
    acc
}

#[cfg(test)]
mod tests;
