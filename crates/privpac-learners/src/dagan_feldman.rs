//! The private-prediction learner of Dagan and Feldman's Theorem 2, as far as its text can
//! be read: subsample, exponential mechanism over a cover of C on the subsample, relabel
//! the **whole** sample, a realizable private-prediction learner, and a final label flip.
//!
//! Source: Y. Dagan and V. Feldman, "PAC learning with stable and private predictions"
//! (COLT 2020), Theorem 2, restated as Theorem 5 with the algorithm in §4.2 (steps 1–5),
//! the matching argument in §4.1, and Lemmas 8–11. The available text of the paper lost
//! its formulas, so this module separates what is read from the prose from what is ours.
//!
//! **Read from the text** (the steps): (1) draw a uniformly random subset T of the sample
//! of a size m (a parameter); (2) form `H_T`, one hypothesis per prediction pattern of C
//! on T; (3) draw h from `H_T` with the exponential mechanism, loss evaluated on the whole
//! sample S; (4) relabel **every** example of S by h and train the realizable
//! private-prediction learner (the paper's Lemma 6, from Dwork–Feldman 2018) on it;
//! (5) output its prediction. The privacy proof splits on whether the changed example is
//! in T; when it is, hypotheses of the two covers are matched when they agree on the rest
//! of T, T minus the changed point is (with high probability) an α-net for the uniform
//! distribution on S, so matched hypotheses disagree on few examples of S, and the inner
//! learner pays **group privacy** for them; subsets that are not nets are paid as δ, and
//! a final flip of the label with some probability turns the (ε, δ) guarantee into a pure
//! one (as in the paper's Corollary 1).
//!
//! **Ours**: which representative of each pattern (the smallest concept id, fixed before
//! seeing the data, so that the covers of two neighbours with the same T are the same set
//! of concepts); the realizable learner ([`VotingPredictor`], our stand-in for Lemma 6);
//! the net condition stated as a radius `r` in examples with its failure probability
//! bounded by a union bound over pairs of concepts (not the ε-net theorem); every
//! constant of the guarantee below and its proof; the parameter choice of
//! [`DaganFeldmanPredictor::with_prediction_epsilon`]. None of the paper's constants
//! (Lemma 8's conditions, the setting of Theorem 2) could be read.

use privpac_accounting::{Guarantee, Privacy};
use privpac_classes::{ConceptClass, Hypothesis, LabeledSample, Point};
use privpac_mechanisms::{ExponentialMechanism, RandomBits};
use rand::Rng;

use crate::cover::ScoredCover;
use crate::error::{Error, Result};
use crate::learner::{ErrorFloor, Learner};
use crate::predictor::Predictor;
use crate::voting::VotingPredictor;

/// The Dagan–Feldman Theorem 2 private-prediction learner (see the module documentation
/// for what is read from the paper and what is ours).
///
/// On a sample S of n examples and a query x:
/// 1. **Subsample**: a uniformly random set T of `t` distinct positions (t < n).
/// 2. **Cover**: `H_T`, the smallest concept id of every labeling of T's points by C.
/// 3. **Exponential mechanism** with parameter ε₁ over `H_T`, score `−err_S(h)` (mistakes
///    on the whole sample).
/// 4. **Relabel the whole sample**: `S_h`, every example `(x_p, y_p)` of S replaced by
///    `(x_p, h(x_p))`, positions kept.
/// 5. **Realizable private prediction**: [`VotingPredictor`] (k blocks, vote parameter
///    ε₂) trained on `S_h` answers x.
/// 6. **Flip** the answer with probability η.
///
/// # Privacy (per prediction; proved here, checked exactly in the tests)
/// For samples S, S′ of size n differing in the example at one position i and every x, the
/// predicted bit is ε_pred-differentially private with `ε_pred = min{ε_flip, ε_floor}`:
///
/// - `ε_core = ε₁ + ε_v + ln((1 − f + f·c)/(1 − f + f/c))`, `f = t/n`,
///   `c = 4·e^{ε₁r + g_r}·(1 + 10⁻⁹)`, `g_r = min{r·ε₂, ε₂k/2 + 10⁻⁹}` (group privacy of
///   the vote for r changed examples, or its floor bound [`VotingPredictor::floor_epsilon`]),
///   `ε_v` = [`VotingPredictor::prediction_epsilon`] (its ε₂ term applies: see the case
///   i ∉ T below);
/// - `β = min{1, P·C(n − 1 − r, t − 1)/C(n − 1, t − 1)}`, `P = |C|(|C| − 1)/2` with |C| at
///   most [`Self::class_size`] (β = 0 when `r ≥ n − t + 1`);
/// - `δ = f·β·(1 + e^{ε_core}/c)`, `η* = η + (1 − 2η)·η_v` with `η_v` =
///   [`VotingPredictor::floor`];
/// - `ε_flip = ln(e^{ε_core} + (1 − 2η)·δ/η*) + 10⁻⁹`, `ε_floor = ln((1 − η*)/η*) + 10⁻⁹`
///   (the 10⁻⁹ covers vote probabilities computed a rounding error below `η_v`).
///
/// Proof. Let p(S) = Pr[answer before the flip = 1] and split on whether i ∈ T:
/// `p(S) = (1 − f)·B(S) + f·A(S)`.
/// - *i ∉ T* (the paper's Eq. (5)). T's points, hence `H_T`, are the same for S and S′;
///   each score moves by at most 1, so step 3 is ε₁-DP (on the sampler's clamped scores as
///   well, see `privpac_mechanisms::ExponentialMechanism`); for a fixed h, `S_h` and `S′_h`
///   differ only at position i, so the vote changes by at most `e^{ε_v}` (its two
///   training sets differ in one example, so the ε₂ term of ε_v applies, which it does
///   not in [`crate::RelabelingPredictor`], whose relabeled subsamples can differ
///   everywhere). Hence `B(S′) ≤ e^{ε₁+ε_v}·B(S)`.
/// - *i ∈ T* (the paper's Lemma 10, our constants). Write T = R ∪ {i} with R a uniform
///   (t − 1)-subset of the other positions, and compare with R ∪ {j} for a uniform j
///   outside T; R ∪ {j} is then uniform among subsets avoiding i, so its average is B(S).
///   Call R *good* if every two concepts that agree on R's points disagree on at most r
///   positions of S. Group the members of both covers by their labeling of R's points
///   (the same labelings occur in both; each has one or two members in each cover); all
///   members of a group agree on R, so for good R their scores (also after clamping)
///   differ by at most r and their weights by at most `e^{ε₁r/2}`; a group's total weight
///   therefore lies within a factor `2e^{ε₁r/2}` of its weight in the other cover, and so
///   does the total, so a group's probability changes by at most `4e^{ε₁r}`; the relabeled
///   samples of any two members differ in at most r examples, so the vote changes by at
///   most `e^{g_r}` (r times ε₂, or the vote's floor bound, whichever is smaller). So
///   for good R the conditional probability changes by at most the factor c. A bad R has
///   probability at most β (union bound over the pairs of concepts whose disagreement on S
///   exceeds r: R avoids the at least r other positions of the disagreement with
///   probability at most `C(n − 1 − r, t − 1)/C(n − 1, t − 1)`). Hence
///   `A(S) ≤ c·B(S) + β` and `A(S) ≥ (B(S) − β)/c`, and the same for S′.
///
/// Combining, `p(S′) ≤ e^{ε₁+ε_v}·B(S)·(1 − f + fc) + fβ` and
/// `p(S) ≥ B(S)·(1 − f + f/c) − fβ/c`, so `p(S′) ≤ e^{ε_core}·p(S) + δ`: the pipeline is
/// (ε_core, δ)-private per prediction. The flip gives `p̃ = η + (1 − 2η)p ∈ [η*, 1 − η*]`
/// (every vote probability lies in `[η_v, 1 − η_v]`), and
/// `p̃(S′) ≤ e^{ε_core}·p̃(S) + (1 − 2η)δ ≤ (e^{ε_core} + (1 − 2η)δ/η*)·p̃(S)`. Every step
/// holds for the answer 0 as well. `ε_floor` is the floor bound of `[η*, 1 − η*]`. The
/// guarantee is for one prediction per run; [`Self::predict`] retrains for every query.
///
/// Note the cost of relabeling the whole sample: c grows like `e^{(ε₁+ε₂)r}` while β
/// needs `r·t/n ≳ ln P`, so the subsample fraction f, which c multiplies, must be small
/// and ε₁, ε₂ of order `1/r`. This is the paper's route to `Õ(d²/(αε))`; compare
/// [`crate::RelabelingPredictor`], which relabels only T.
///
/// # Accuracy (after the paper's Lemma 9; not machine-checked)
/// With probability 1 − β over T (for the pair formed by the best concept on S and its
/// representative), the representative of the best concept's pattern on T is within r/n
/// of it in empirical error; the exponential mechanism loses `O(ln|H_T|/(ε₁n))`; the vote
/// trained on S_h (realizable by h) errs against h on at most `4α_b + 1/(1 + e^{ε₂k/4})`
/// (see [`VotingPredictor`]), with α_b the realizable error of blocks of n/k examples;
/// the flip adds at most η; uniform convergence moves empirical to true errors.
///
/// # Running time
/// The cover of C on T scored on S, then k error profiles of blocks of n/k examples. On
/// classes that give [`ConceptClass::labeling_ranges`] (thresholds, point functions, their
/// complements and `both(…)`, at every domain size) the cover takes O(t² + n log n) from
/// the ranges and the compressed profile, the same cover and scores as the dense
/// construction (so the same output distribution); intervals, not(intervals) and
/// both(intervals) give [`ConceptClass::labeling_cells`] instead (rectangles of ends;
/// O(n log n + t²), intervals at every size up to 2^64 − 1 points), again the same cover
/// and scores; parities ([`ConceptClass::parity_structure`]) take O(n + d·2^d): the
/// cosets of T's kernel scored from the Walsh–Hadamard profile, and each block's ERM on
/// the relabeled (consistent) sample by Gaussian elimination; other classes pay
/// O(|C|·(n + t)) for
/// a dense profile and the labelings of all |C| concepts, up to the dense-profile limit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DaganFeldmanPredictor {
    epsilon: f64,
    subset_size: usize,
    radius: usize,
    class_size: u128,
    flip_probability: f64,
    mechanism: ExponentialMechanism,
    voting: VotingPredictor,
}

impl DaganFeldmanPredictor {
    /// The status of the accuracy claim, for reports.
    pub const ACCURACY_CLAIM: &'static str = "Dagan–Feldman 2020, Theorem 2: Õ(d²/(αε) + d/α²) \
        examples for the paper's parameters (not readable); this parameter rule is ours and \
        its accuracy is not proved";

    /// The learner with selection parameter ε₁ = `epsilon`, `|T| = subset_size`, net
    /// radius `radius` (examples), for classes of at most `class_size` concepts, the
    /// realizable learner `voting` and flip probability `flip_probability`.
    ///
    /// # Errors
    /// [`Error::Mechanism`] for an invalid ε₁; [`Error::InvalidParameter`] for a zero
    /// subset size, a class size below 1, or η outside [0, 1/2).
    pub fn new(
        epsilon: f64,
        subset_size: usize,
        radius: usize,
        class_size: u128,
        voting: VotingPredictor,
        flip_probability: f64,
    ) -> Result<Self> {
        if subset_size == 0 {
            return Err(Error::InvalidParameter {
                name: "subset size",
                requirement: "at least 1",
                value: 0.0,
            });
        }
        if class_size == 0 {
            return Err(Error::InvalidParameter {
                name: "class size",
                requirement: "at least 1",
                value: 0.0,
            });
        }
        if !(0.0..0.5).contains(&flip_probability) {
            return Err(Error::InvalidParameter {
                name: "flip probability",
                requirement: "in [0, 1/2)",
                value: flip_probability,
            });
        }
        Ok(DaganFeldmanPredictor {
            epsilon,
            subset_size,
            radius,
            class_size,
            flip_probability,
            mechanism: ExponentialMechanism::new(Privacy::pure(epsilon)?, 1.0)?,
            voting,
        })
    }

    /// The learner for samples of size `n` and classes of at most `class_size` concepts
    /// whose per-prediction guarantee is at most `target`, by our rule (not the paper's,
    /// which could not be read): for radii r = 1, 2, 4, … take ε₁ = ε₂ = 1/(2r) (so that
    /// `ε₁r = ε₂r = 1/2` and c ≈ 4e), k = `⌈vote_margin/ε₂⌉` voters (capped at n), and
    /// the largest t < n that meets the target; the first radius for which some t does
    /// wins (the smallest radius gives the largest ε₁ and ε₂).
    ///
    /// # Errors
    /// [`Error::SampleTooSmall`] (with `needed` = n + 1, not the smallest sufficient n)
    /// when no radius up to n works; [`Error::InvalidParameter`] for a non-positive vote
    /// margin; as for [`Self::new`].
    pub fn with_prediction_epsilon(
        target: f64,
        n: usize,
        class_size: u128,
        vote_margin: f64,
        flip_probability: f64,
    ) -> Result<Self> {
        if !(vote_margin > 0.0 && vote_margin.is_finite()) {
            return Err(Error::InvalidParameter {
                name: "vote margin ε₂k",
                requirement: "positive and finite",
                value: vote_margin,
            });
        }
        let mut radius = 1usize;
        while radius <= n {
            let epsilon = 1.0 / (2.0 * radius as f64);
            let voters = ((vote_margin / epsilon).ceil() as usize).clamp(1, n.max(1));
            let voting = VotingPredictor::new(epsilon, voters)?;
            let probe = DaganFeldmanPredictor::new(
                epsilon,
                1,
                radius,
                class_size,
                voting,
                flip_probability,
            )?;
            if let Some(t) = probe.largest_subset(n, target) {
                let chosen = DaganFeldmanPredictor::new(
                    epsilon,
                    t,
                    radius,
                    class_size,
                    voting,
                    flip_probability,
                )?;
                // The sweep and the direct computation round differently; trust the latter.
                if chosen.prediction_epsilon(n) <= target {
                    return Ok(chosen);
                }
            }
            radius *= 2;
        }
        Err(Error::SampleTooSmall {
            needed: n + 1,
            got: n,
        })
    }

    /// The largest t in `[1, n)` with `prediction_epsilon(n) ≤ target`, sweeping t
    /// upward with the running product of β (O(n)).
    fn largest_subset(&self, n: usize, target: f64) -> Option<usize> {
        let mut best = None;
        let mut candidate = *self;
        let mut log_ratio = 0.0; // ln C(n−1−r, t−1)/C(n−1, t−1), for t = 1
        for t in 1..n {
            if t >= 2 {
                // From t − 1 to t: multiply by (n − 1 − r − (t − 2))/(n − 1 − (t − 2)).
                let q = (t - 2) as f64;
                let numerator = (n as f64 - 1.0 - self.radius as f64 - q).max(0.0);
                log_ratio += (numerator / (n as f64 - 1.0 - q)).ln();
            }
            candidate.subset_size = t;
            if candidate.epsilon_with(n, log_ratio) <= target {
                best = Some(t);
            }
        }
        best
    }

    /// The subset size t.
    pub fn subset_size(&self) -> usize {
        self.subset_size
    }

    /// The net radius r (examples).
    pub fn radius(&self) -> usize {
        self.radius
    }

    /// The largest class size the guarantee covers (learning refuses larger classes).
    pub fn class_size(&self) -> u128 {
        self.class_size
    }

    /// The flip probability η.
    pub fn flip_probability(&self) -> f64 {
        self.flip_probability
    }

    /// The realizable learner of step 5.
    pub fn voting(&self) -> VotingPredictor {
        self.voting
    }

    /// The factor c of the proof (one subsample position swapped, R good).
    pub fn swap_factor(&self) -> f64 {
        let group = (self.radius as f64 * self.voting.epsilon()).min(self.voting.floor_epsilon());
        4.0 * (self.epsilon * self.radius as f64 + group).exp() * (1.0 + 1e-9)
    }

    /// β: the probability (bound) that the t − 1 other subsample positions are not a net
    /// of radius r on a sample of size n.
    pub fn net_failure(&self, n: usize) -> f64 {
        let t = self.subset_size;
        let r = self.radius;
        if n <= t {
            return 1.0;
        }
        // C(n−1−r, t−1)/C(n−1, t−1) = Π_{q<t−1} (n−1−r−q)/(n−1−q), zero once a factor is.
        let mut log_ratio = 0.0;
        for q in 0..t - 1 {
            let numerator = n as f64 - 1.0 - r as f64 - q as f64;
            if numerator <= 0.0 {
                return 0.0;
            }
            log_ratio += (numerator / (n as f64 - 1.0 - q as f64)).ln();
        }
        self.beta_from(log_ratio)
    }

    fn beta_from(&self, log_ratio: f64) -> f64 {
        if log_ratio == f64::NEG_INFINITY {
            return 0.0;
        }
        let size = self.class_size as f64;
        let log_pairs = (size * (size - 1.0) / 2.0).max(0.0).ln();
        (log_pairs + log_ratio).exp().min(1.0)
    }

    /// The pipeline's (ε_core, δ) before the flip, on samples of size n (n > t).
    pub fn core_guarantee(&self, n: usize) -> (f64, f64) {
        self.core_with(n, self.net_failure(n))
    }

    fn core_with(&self, n: usize, beta: f64) -> (f64, f64) {
        let f = self.subset_size as f64 / n as f64;
        let c = self.swap_factor();
        let core = self.epsilon
            + self.voting.prediction_epsilon()
            + ((1.0 - f + f * c) / (1.0 - f + f / c)).ln();
        let delta = f * beta * (1.0 + core.exp() / c);
        (core, delta)
    }

    /// The per-prediction privacy parameter on samples of size `n` (∞ when `n ≤ t`, where
    /// the learner refuses to run): `min{ε_flip, ε_floor}` (see the type's docs).
    pub fn prediction_epsilon(&self, n: usize) -> f64 {
        if n <= self.subset_size {
            return f64::INFINITY;
        }
        let beta = self.net_failure(n);
        self.epsilon_from(n, beta)
    }

    fn epsilon_with(&self, n: usize, log_ratio: f64) -> f64 {
        // `log_ratio` is −∞ once a factor of the product is zero (then β = 0).
        self.epsilon_from(n, self.beta_from(log_ratio))
    }

    /// `min{ε_flip, ε_floor}` for a given β.
    fn epsilon_from(&self, n: usize, beta: f64) -> f64 {
        let (core, delta) = self.core_with(n, beta);
        let eta = self.flip_probability;
        let floor = eta + (1.0 - 2.0 * eta) * self.voting.floor();
        // + 10⁻⁹: the computed vote probabilities may sit a rounding error below η_v.
        let flip = (core.exp() + (1.0 - 2.0 * eta) * delta / floor).ln() + 1e-9;
        let cap = ((1.0 - floor) / floor).ln() + 1e-9;
        flip.min(cap)
    }

    fn check(&self, class: &dyn ConceptClass, sample: &LabeledSample) -> Result<()> {
        if class.len() > self.class_size {
            return Err(Error::InvalidParameter {
                name: "class size",
                requirement: "at most the class size the guarantee was computed for",
                value: class.len() as f64,
            });
        }
        if sample.len() <= self.subset_size {
            return Err(Error::SampleTooSmall {
                needed: self.subset_size + 1,
                got: sample.len(),
            });
        }
        Ok(())
    }

    /// Steps 1–4: the relabeled whole sample.
    fn relabeled_sample(
        &self,
        class: &dyn ConceptClass,
        sample: &LabeledSample,
        rng: &mut dyn Rng,
    ) -> Result<LabeledSample> {
        self.check(class, sample)?;
        let positions = rand::seq::index::sample(rng, sample.len(), self.subset_size);
        let points: Vec<Point> = positions.iter().map(|i| sample.points()[i]).collect();
        let cover = ScoredCover::new(class, &points, sample)?;
        let chosen = self
            .mechanism
            .select_integer(&cover.representative_scores(), rng)?;
        relabel(class, sample, &cover.representative(chosen))
    }

    /// Answers one query with a fresh run, drawing the vote and the flip with exact
    /// samplers.
    ///
    /// # Errors
    /// [`Error::SampleTooSmall`] unless the sample has more than t examples;
    /// [`Error::InvalidParameter`] for a class larger than [`Self::class_size`]; errors of
    /// the class's error profile.
    pub fn predict(
        &self,
        class: &dyn ConceptClass,
        sample: &LabeledSample,
        x: Point,
        rng: &mut dyn Rng,
    ) -> Result<bool> {
        let relabeled = self.relabeled_sample(class, sample, rng)?;
        let answer = self.voting.predict(class, &relabeled, x, rng)?;
        let flip = RandomBits::new(rng).bernoulli_f64(self.flip_probability);
        Ok(answer ^ flip)
    }

    /// The exact `Pr[prediction at x = 1]` (small samples): averages over all `C(n, t)`
    /// subsets and all hypotheses the mechanism can pick, then applies the flip.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] if more than 10^6 subsets would be enumerated; as for
    /// [`Self::predict`] otherwise.
    pub fn prediction_probability(
        &self,
        class: &dyn ConceptClass,
        sample: &LabeledSample,
        x: Point,
    ) -> Result<f64> {
        self.check(class, sample)?;
        let errors = class.error_counts(sample)?;
        let n = sample.len();
        let t = self.subset_size;
        let subsets = binomial(n, t).filter(|&count| count <= 1_000_000);
        let Some(subsets) = subsets else {
            return Err(Error::InvalidParameter {
                name: "number of subsets to enumerate",
                requirement: "at most 10^6",
                value: f64::INFINITY,
            });
        };
        let mut total = 0.0;
        let mut subset: Vec<usize> = (0..t).collect();
        loop {
            total += self.probability_given_subset(class, sample, &errors, &subset, x)?;
            if !next_combination(&mut subset, n) {
                break;
            }
        }
        let p = (total / subsets as f64).clamp(0.0, 1.0);
        let eta = self.flip_probability;
        Ok(eta + (1.0 - 2.0 * eta) * p)
    }

    /// The exact `Pr[answer before the flip = 1]` given the subset T (steps 2–5); `errors`
    /// is the dense error profile of the class on `sample`.
    pub(crate) fn probability_given_subset(
        &self,
        class: &dyn ConceptClass,
        sample: &LabeledSample,
        errors: &[u64],
        positions: &[usize],
        x: Point,
    ) -> Result<f64> {
        let points: Vec<Point> = positions.iter().map(|&i| sample.points()[i]).collect();
        let cover = ScoredCover::dense(class, &points, errors);
        let log_probabilities = self
            .mechanism
            .log_probabilities_integer(&cover.representative_scores())?;
        let mut total = 0.0;
        for (slot, log_p) in log_probabilities.into_iter().enumerate() {
            let relabeled = relabel(class, sample, &cover.representative(slot))?;
            total += log_p.exp() * self.voting.prediction_probability(class, &relabeled, x)?;
        }
        Ok(total.clamp(0.0, 1.0))
    }
}

impl Learner for DaganFeldmanPredictor {
    /// The vote trained on the relabeled sample, wrapped in the flip: a
    /// [`Predictor::Flipped`] around a [`Predictor::NoisyVote`] (the bare vote when
    /// η = 0). Its per-prediction guarantee holds for a single query per call of `learn`.
    fn learn(
        &self,
        class: &dyn ConceptClass,
        sample: &LabeledSample,
        rng: &mut dyn Rng,
    ) -> Result<Predictor> {
        let relabeled = self.relabeled_sample(class, sample, rng)?;
        let vote = self.voting.learn(class, &relabeled, rng)?;
        if self.flip_probability > 0.0 {
            Ok(Predictor::Flipped {
                base: Box::new(vote),
                flip_probability: self.flip_probability,
            })
        } else {
            Ok(vote)
        }
    }

    /// Per prediction, [`Self::prediction_epsilon`]; [`Guarantee::None`] when
    /// `examples ≤ t` (the learner refuses such samples).
    fn guarantee(&self, examples: usize) -> Guarantee {
        Guarantee::per_prediction(self.prediction_epsilon(examples)).unwrap_or(Guarantee::None)
    }

    /// The vote's floor `η_v` ([`VotingPredictor::floor`]) through the final flip with
    /// probability η: `η + (1 − 2η)·η_v` ([`ErrorFloor::flipped`]; the η* of the guarantee).
    fn error_floor(&self, examples: usize) -> Option<ErrorFloor> {
        let vote = self.voting.error_floor(examples)?;
        Some(ErrorFloor {
            flip: ErrorFloor::flipped(self.flip_probability, vote.flip),
            source: format!(
                "the final flip with probability η = {} of a vote that keeps each label with probability at least {:.6}",
                self.flip_probability, vote.flip
            ),
        })
    }

    fn name(&self) -> String {
        format!(
            "dagan-feldman(t={}, r={}, voters={}, flip={})",
            self.subset_size,
            self.radius,
            self.voting.voters(),
            self.flip_probability
        )
    }
}

/// The sample with every label replaced by hypothesis h's label, positions kept.
fn relabel(
    class: &dyn ConceptClass,
    sample: &LabeledSample,
    h: &Hypothesis,
) -> Result<LabeledSample> {
    let labels = sample.points().iter().map(|&x| h.eval(class, x)).collect();
    Ok(LabeledSample::new(
        class.domain(),
        sample.points().to_vec(),
        labels,
    )?)
}

/// `C(n, k)` if it fits in u128.
fn binomial(n: usize, k: usize) -> Option<u128> {
    (0..k).try_fold(1u128, |acc, i| {
        acc.checked_mul((n - i) as u128)
            .map(|v| v / (i + 1) as u128)
    })
}

/// The next k-subset of `0..n` in lexicographic order; false after the last.
fn next_combination(subset: &mut [usize], n: usize) -> bool {
    let m = subset.len();
    for i in (0..m).rev() {
        if subset[i] < n - m + i {
            subset[i] += 1;
            for j in i + 1..m {
                subset[j] = subset[j - 1] + 1;
            }
            return true;
        }
    }
    false
}
