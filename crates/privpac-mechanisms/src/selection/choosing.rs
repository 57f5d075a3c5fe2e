//! The choosing mechanism of Beimel, Nissim and Stemmer (2013): (ε, δ)-private selection
//! for quality functions of bounded growth, whose utility loss does not grow with the
//! number of solutions.
//!
//! # Setting
//! A quality `q(S, f) ∈ ℕ` over a solution set F has **k-bounded growth** (Kaplan, Ligett,
//! Mansour, Naor and Stemmer 2020, §2.1) if `q(∅, ·) = 0`, adding one element to a database
//! raises every score by 0 or 1, and raises at most k of them. Then at most `k·n` solutions
//! have positive quality on a database of n elements, and the exponential mechanism over
//! those alone pays `ln(kn)` instead of `ln |F|`; the difficulty is that *which* solutions
//! have positive quality depends on the data. The mechanism first tests privately whether
//! the best score is large, and only then runs the exponential mechanism over the solutions
//! of positive quality.
//!
//! # The mechanism (this implementation's constants)
//! Given (ε, δ) with `0 < δ < 1` and the growth bound k ≥ 1, with `OPT = max_f q(S, f)`:
//! 1. `ε₁ = ε/2`, `λ = ε/5`, `δ′ = min(δ, ε/10)`;
//!    `M = 1 + ⌈ln(k/δ′)/λ⌉` (the *cutoff*) and `T = M − 1 + ⌈b·ln(1/δ)⌉` (the
//!    *threshold*), where `b ≥ 1/ε₁` is the exact rational scale of the discrete Laplace
//!    noise `Z ~ Lap_Z(b)` (sampled exactly, see [`crate::DiscreteLaplace`]).
//! 2. If `OPT + Z < T`, or no solution has positive quality, output ⊥.
//! 3. Otherwise output `f` with `q(S, f) ≥ 1` with probability proportional to
//!    `exp(λ·q(S, f))` (privpac's exact [`crate::ExponentialMechanism`] at ε = 2λ and
//!    sensitivity 1, whose internal rate is `λ − 2η` and whose float error `η` is paid for,
//!    see there).
//!
//! # Privacy proof
//! **Claim.** The mechanism is (ε, δ)-differentially private for the replace-one relation
//! (databases of one size that differ in one element), for every quality of k-bounded
//! growth. This is Lemma 5's privacy half (Kaplan et al., citing Beimel et al. 2013 and Bun
//! et al. 2015), which the original construction meets for `ε ≤ 2`; ours holds for every
//! ε > 0.
//!
//! *Neighbours.* Let `D = S₀ + y`, `D′ = S₀ + x`. Bounded growth from `S₀` gives, for every
//! f: `|q(D, f) − q(D′, f)| ≤ 1`, hence `|OPT − OPT′| ≤ 1`; and the solutions with positive
//! quality on `D′` but not on `D` (the *new* ones, `G′ ∖ G`) were raised from 0 by adding x
//! to `S₀`: there are at most k of them and each has `q(D′, f) = 1`. The situation is
//! symmetric, so we bound `Pr[M(D) ∈ E] ≤ e^ε·Pr[M(D′) ∈ E] + δ` for every event E.
//! Write `p = Pr[OPT + Z ≥ T]` (the test passes), `W = Σ_{f ∈ G} e^{λ q(D, f)}`.
//!
//! *Case A, `OPT ≥ M`.* (i) ⊥ on D is the test's failure; on D′ ⊥ contains the test's
//! failure, and a shift of the discrete Laplace by 1 changes its probabilities by at most
//! `e^{1/b} ≤ e^{ε₁}`, so `Pr_D[⊥] ≤ e^{ε₁}·Pr_{D′}[⊥]`. (ii) For `f ∈ G ∩ G′`:
//! `e^{λq(D,f)} ≤ e^{λ}·e^{λq(D′,f)}` and `W′ ≤ e^{λ}·W + k·e^{λ}` (old solutions rise by at
//! most one, at most k new ones of quality 1), and `W ≥ e^{λ·OPT} ≥ e^{λM}`, so
//! `Pr_D[f] ≤ e^{ε₁}·e^{2λ}·(1 + k·e^{−λM})·Pr_{D′}[f]`; with `k·e^{−λM} ≤ δ′ ≤ ε/10` and
//! `ln(1 + x) ≤ x` the factor is at most `e^{ε/2 + 2ε/5 + ε/10} = e^ε`. (iii) The
//! solutions in `G ∖ G′` (impossible on D′) have quality 1 on D, at most k of them, so their
//! total probability is at most `k·e^{λ}/W ≤ k·e^{−λ(M − 1)} ≤ δ′ ≤ δ`. Summing,
//! `Pr_D[E] ≤ e^ε·Pr_{D′}[E] + δ`.
//!
//! *Case B, `OPT ≤ M − 1`.* The test passes with probability
//! `Pr[Z ≥ T − OPT] ≤ Pr[Z ≥ ⌈b·ln(1/δ)⌉] = r^m/(1 + r) ≤ δ` (`r = e^{−1/b}`,
//! `m = ⌈b ln(1/δ)⌉`, so `r^m ≤ δ`). On D, ⊥ is at most the test's failure plus this
//! mass, so `Pr_D[E] ≤ e^{ε₁}·Pr_{D′}[test fails] + δ ≤ e^ε·Pr_{D′}[E] + δ`. ∎
//!
//! The implementation's exponential mechanism samples exactly in proportion to
//! floating-point weights within `e^{±2η}` of `exp(λ_int·q)`, `λ_int = λ − 2η`; the ratio in
//! (ii) becomes `e^{2λ_int + 4η} = e^{2λ}` and the masses in (iii) gain a factor `e^{2η}`,
//! which the cutoff absorbs (it is computed with `λ_int` and `δ′·(1 − 10⁻⁹)`).
//!
//! *Where the constants differ from the original.* Beimel et al.'s construction and Lemma 5
//! state the utility loss `16/ε·ln(4kn/(βεδ))` for `ε ≤ 2`; the split above
//! (ε/2 for the test, 2λ = 2ε/5 for the exponential mechanism, ε/10 for the new solutions'
//! weight) is derived here for replace-one neighbours and gives the utility below, which is
//! smaller than Lemma 5's for every k, n, β, δ and ε ≤ 2 (both terms of ours carry a
//! constant at most 5/ε against Lemma 5's 16/ε). The proof assumes only bounded growth from
//! the shared part `S₀`; add/remove neighbours (`D′ = D + x`) are covered by the same
//! argument with `y` absent.
//!
//! # Utility
//! With `|G| ≤ k·n`: if `OPT ≥ T + ⌈b·ln(2/β)⌉` the test passes with probability at least
//! `1 − β/2`, and the exponential mechanism's output has quality below
//! `OPT − ln(2kn/β)/λ_int` with probability at most β/2 (Dwork–Roth Theorem 3.11 over
//! `|G|` candidates). So with probability at least `1 − β` the output has quality at least
//! `OPT − max(T + ⌈b ln(2/β)⌉, ln(2kn/β)/λ_int)` ([`ChoosingMechanism::utility_loss`]).
//!
//! # References
//! A. Beimel, K. Nissim, U. Stemmer, "Private learning and sanitization: pure vs. approximate
//! differential privacy", APPROX-RANDOM 2013. H. Kaplan, K. Ligett, Y. Mansour, M. Naor,
//! U. Stemmer, "Privately learning thresholds: closing the exponential gap", COLT 2020
//! (Lemma 5).

use rand::Rng;

use crate::error::{Error, Result};
use crate::exact_bits::RandomBits;
use crate::noise::DiscreteLaplace;
use crate::selection::ExponentialMechanism;
use privpac_accounting::{Privacy, Private};

/// Largest growth bound k accepted (keeps `ln k` and `k·n` far from overflow).
const MAX_GROWTH: u64 = 1 << 40;

/// The choosing mechanism: a noisy test of the best score, then the exponential mechanism
/// over the solutions of positive quality.
///
/// # Privacy
/// (ε, δ)-differentially private for the replace-one relation (and for add/remove
/// neighbours) whenever the scores come from a quality of k-bounded growth; proof and
/// constants in the module documentation (the guarantee of Kaplan et al. 2020, Lemma 5).
///
/// # Utility
/// See [`ChoosingMechanism::utility_loss`].
///
/// # Errors
/// Construction: [`Error::InvalidDelta`] for δ = 0, [`Error::InvalidCount`] for k = 0 or
/// k above 2^40, [`Error::EpsilonTooSmall`], [`Error::UnrepresentableScale`] when the
/// threshold does not fit in 62 bits.
///
/// # Example
/// ```
/// use privpac_mechanisms::{ChoosingMechanism, Privacy};
/// use rand::SeedableRng;
/// // Multiplicities of domain elements: 1-bounded growth.
/// let choosing = ChoosingMechanism::new(Privacy::new(1.0, 1e-6)?, 1)?;
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
/// let heavy = choosing.threshold() as u64 + 200;
/// assert_eq!(choosing.choose(&[0, heavy, 3, 0], &mut rng)?, Some(1));
/// // Small scores: ⊥ (None) with high probability.
/// assert_eq!(choosing.choose(&[1, 2, 0], &mut rng)?, None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChoosingMechanism {
    privacy: Privacy,
    growth: u64,
    noise: DiscreteLaplace,
    selection: ExponentialMechanism,
    cutoff: i64,
    threshold: i64,
}

impl ChoosingMechanism {
    /// Builds the mechanism for an (ε, δ) guarantee (`δ > 0`) and qualities of k-bounded
    /// growth.
    ///
    /// # Errors
    /// See the type documentation.
    pub fn new(privacy: Privacy, growth: u64) -> Result<Self> {
        if privacy.is_pure() {
            return Err(Error::InvalidDelta { value: 0.0 });
        }
        if growth == 0 || growth > MAX_GROWTH {
            return Err(Error::InvalidCount {
                name: "growth bound k",
                requirement: "in 1..=2^40",
                value: growth,
            });
        }
        let (epsilon, delta) = (privacy.epsilon(), privacy.delta());
        let noise = DiscreteLaplace::for_epsilon(epsilon / 2.0, 1)?;
        let selection = ExponentialMechanism::new(Privacy::pure(2.0 * epsilon / 5.0)?, 1.0)?;
        let lambda = selection.rate();
        let delta_prime = delta.min(epsilon / 10.0) * (1.0 - 1e-9);
        // +1 absorbs rounding of the float expressions before the ceiling.
        let cutoff = 1.0 + ((growth as f64 / delta_prime).ln() / lambda).ceil() + 1.0;
        let tail = (noise.scale() * (1.0 / delta).ln()).ceil() + 1.0;
        let threshold = cutoff - 1.0 + tail;
        if !(threshold.is_finite() && threshold < (1u64 << 62) as f64) {
            return Err(Error::UnrepresentableScale { value: threshold });
        }
        Ok(ChoosingMechanism {
            privacy,
            growth,
            noise,
            selection,
            cutoff: cutoff as i64,
            threshold: threshold as i64,
        })
    }

    /// The growth bound k the guarantee assumes.
    pub fn growth(&self) -> u64 {
        self.growth
    }

    /// The threshold T the noisy best score must reach.
    pub fn threshold(&self) -> i64 {
        self.threshold
    }

    /// The cutoff M of the privacy proof (best scores from M on pass the test with
    /// probability that may exceed δ).
    pub fn cutoff(&self) -> i64 {
        self.cutoff
    }

    /// The noise of the test, `Lap_Z(b)` with `b ≥ 2/ε`.
    pub fn noise(&self) -> DiscreteLaplace {
        self.noise
    }

    /// The exponential mechanism of step 3 (rate `λ_int = ε/5 − 2η`).
    pub fn selection(&self) -> ExponentialMechanism {
        self.selection
    }

    /// Runs the mechanism on the scores `q(S, f)` of the solutions (index = solution).
    /// Solutions of quality 0 may be listed or left out: they are never chosen, so a caller
    /// with a huge solution set passes only the solutions of positive quality.
    ///
    /// Returns `None` for ⊥. The scores must come from a quality of k-bounded growth for
    /// the guarantee to hold (the caller's claim; the mechanism cannot check it).
    ///
    /// # Errors
    /// None for valid input today; the `Result` leaves room for the exponential mechanism's
    /// errors.
    pub fn choose<R: Rng + ?Sized>(&self, scores: &[u64], rng: &mut R) -> Result<Option<usize>> {
        let best = scores.iter().copied().max().unwrap_or(0);
        if best == 0 {
            // Still draw the noise, so the random stream does not reveal OPT = 0.
            let _ = self.noise.sample_wide_bits(&mut RandomBits::new(rng));
            return Ok(None);
        }
        let noisy = i128::from(best) + self.noise.sample_wide_bits(&mut RandomBits::new(rng));
        if noisy < i128::from(self.threshold) {
            return Ok(None);
        }
        let positive: Vec<usize> = (0..scores.len()).filter(|&i| scores[i] > 0).collect();
        let values: Vec<i64> = positive
            .iter()
            .map(|&i| scores[i].min(i64::MAX as u64) as i64)
            .collect();
        let index = self.selection.select_integer(&values, rng)?;
        Ok(Some(positive[index]))
    }

    /// The exact output distribution (up to floating-point evaluation) on these scores:
    /// entry i is `Pr[output = i]`, the last entry `Pr[⊥]`. For audits.
    ///
    /// # Errors
    /// As [`ExponentialMechanism::probabilities`].
    pub fn output_distribution(&self, scores: &[u64]) -> Result<Vec<f64>> {
        let mut distribution = vec![0.0; scores.len() + 1];
        let best = scores.iter().copied().max().unwrap_or(0);
        if best == 0 {
            distribution[scores.len()] = 1.0;
            return Ok(distribution);
        }
        let needed = (i128::from(self.threshold) - i128::from(best))
            .clamp(i64::MIN as i128, i64::MAX as i128) as i64;
        let pass = self.noise.survival(needed);
        let positive: Vec<usize> = (0..scores.len()).filter(|&i| scores[i] > 0).collect();
        let values: Vec<f64> = positive.iter().map(|&i| scores[i] as f64).collect();
        let probabilities = self.selection.probabilities(&values)?;
        for (&i, p) in positive.iter().zip(probabilities) {
            distribution[i] = pass * p;
        }
        distribution[scores.len()] = 1.0 - pass;
        Ok(distribution)
    }

    /// The utility loss τ: on a database of n elements, with probability at least `1 − β`
    /// the output is a solution of quality at least `OPT − τ` (if `OPT ≤ τ`, ⊥ is allowed),
    /// `τ = max(T + ⌈b·ln(2/β)⌉, ln(2kn/β)/λ_int)` (module documentation, Utility).
    ///
    /// # Errors
    /// [`Error::InvalidProbability`] unless `0 < β < 1`.
    pub fn utility_loss(&self, n: u64, beta: f64) -> Result<f64> {
        if !(beta > 0.0 && beta < 1.0) {
            return Err(Error::InvalidProbability {
                name: "beta",
                range: "(0, 1)",
                value: beta,
            });
        }
        let test = self.threshold as f64 + (self.noise.scale() * (2.0 / beta).ln()).ceil();
        let candidates = (self.growth as f64 * n.max(1) as f64).max(1.0);
        let selection = (2.0 * candidates / beta).ln() / self.selection.rate();
        Ok(test.max(selection))
    }
}

impl Private for ChoosingMechanism {
    fn privacy(&self) -> Privacy {
        self.privacy
    }
}

#[cfg(test)]
#[path = "choosing/tests.rs"]
mod tests;
