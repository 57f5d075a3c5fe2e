//! Agnostic private prediction by relabeling: subsample, exponential mechanism over the
//! dichotomies of the subsample, relabel, then a realizable private-prediction learner.
//!
//! This is **not** the Theorem 2 algorithm of Dagan and Feldman, "PAC learning with stable
//! and private predictions" (COLT 2020): that algorithm relabels the **whole** sample and
//! pays for it with group privacy and a final label flip (implemented as
//! [`crate::DaganFeldmanPredictor`]); this one relabels only the subsample T, so that
//! swapping one position of T changes one example of the relabeled data. The privacy
//! claim below is **our own**, proved here and checked by exact computation on all
//! neighbouring samples of tiny domains (see the tests). Its accuracy claim,
//! `Õ(d/(αε) + d/α²)` examples, would be better than the paper's `Õ(d²/(αε) + d/α²)` and is
//! **unproven: a conjecture** (see the type's docs for the sketch). The lab's comparison
//! test runs both learners on the same data.

use privpac_accounting::{Guarantee, Privacy};
use privpac_classes::{ConceptClass, LabeledSample, Point};
use privpac_mechanisms::ExponentialMechanism;
use rand::Rng;

use crate::cover::ScoredCover;
use crate::error::{Error, Result};
use crate::learner::{ErrorFloor, Learner};
use crate::predictor::Predictor;
use crate::voting::VotingPredictor;

/// The relabeling private-prediction learner.
///
/// On a sample S of n examples:
/// 1. **Subsample**: a uniformly random sequence T of `t` distinct positions (t < n).
/// 2. **Exponential mechanism over the cover**: for every labeling g of the points of T
///    realized by some concept of C, the score is `−min{err_S(c) : c ∈ C, c|_T = g}`,
///    the fewest mistakes on the **whole** sample of a concept inducing g. The exponential
///    mechanism with parameter ε₁ picks one labeling g.
/// 3. **Relabel**: the points of T, in T's order, labeled by g. This sample is realizable
///    by C.
/// 4. **Realizable private prediction**: [`VotingPredictor`] (k blocks, vote parameter
///    ε₂) trained on the relabeled T answers the query.
///
/// # Privacy (per prediction)
/// For samples S, S′ of size n differing in one example and every query x, the predicted
/// bit satisfies ε_pred-differential privacy with
///
/// `ε_pred = min{ε₁ + ln((1 − f + f·c)/(1 − f + f/c)), ε_floor}`, `f = t/n`,
/// `c = 4e^{ε₂}(1 + 10⁻⁹)`, `ε_floor = ε₂k/2 + 10⁻⁹`,
///
/// where `ε_floor` is the vote's floor bound ([`VotingPredictor::floor_epsilon`]: every
/// prediction probability of the vote lies in `[η, 1 − η]`, `η = 1/(1 + e^{ε₂k/2})`,
/// **whatever its training data**, so p(S), an average of such probabilities, does too),
/// and the factor `1 + 10⁻⁹` covers the float rounding of the selection weights (at most
/// `e^{8·10⁻¹²}`, see `privpac_mechanisms::ExponentialMechanism`). The vote's other bound,
/// ε₂ ([`VotingPredictor::prediction_epsilon`] is `min{ε₂, ε_floor}`), is **not** a cap
/// here: it holds for two training sets that differ in one example, while after the
/// selection the relabeled subsamples of S and S′ can differ everywhere (different
/// labelings g). With k ≥ 3 voters ε₂ < ε_floor, and the tests show a loss above ε₂ (on a
/// one-point domain with ε₁ = 2.5, ε₂ = 1, k = 7, a sample with 9 ones among 20 against
/// one with 10: `Pr[1]` = 0.1007 against 0.5, a loss of 1.60). The pipeline does not depend
/// on the order of S (T is a uniformly random sequence of positions), so the guarantee
/// also holds for neighbours as multisets.
///
/// Proof of the first term. Let i be the differing position and p(S) = Pr[prediction 1].
/// Split on whether i ∈ T: `p(S) = (1 − f)·B(S) + f·A(S)`.
/// - *i ∉ T.* T's points are the same for S and S′, so the candidate labelings are the
///   same; each score is a minimum of error counts that each move by at most 1, so it has
///   sensitivity 1 and step 2 is ε₁-DP; steps 3–4 see identical inputs. Hence
///   `B(S′) ≤ e^{ε₁}B(S)`.
/// - *i ∈ T.* Compare T with T^{(j)}, T with i replaced (in the same slot) by a uniformly
///   random j ∉ T; each sequence avoiding i arises from exactly t pairs (T, j), so T^{(j)}
///   is uniform over sequences avoiding i and `E[run on T^{(j)}] = B(S)`. Both runs score
///   on the same sample S. Group the labelings of T (and of T^{(j)}) by their restriction
///   g₀ to the t − 1 shared slots; the same restrictions occur in both runs. Each g₀ has
///   one or two extensions, and the best of them scores exactly
///   `−min{err_S(c) : c agrees with g₀}`, the same in both runs. With `W(g₀)` the
///   exponential-mechanism weight of that score, each group's total weight lies in
///   `[W(g₀), 2W(g₀)]`, and so does the total over groups up to the same factor; so a
///   group's probability changes by a factor at most 4 between T and T^{(j)}. (The
///   sampler clamps weights below `e^{−700}` relative to the best candidate; the best
///   candidate is the best concept on S in both runs and clamping is monotone, so this
///   survives.) Every relabeled sample of T's group and every one of T^{(j)}'s group
///   differ only in the one slot (repeated points only force a label), and the blocks
///   depend only on slots, so the vote's probability changes by at most e^{ε₂}. Hence
///   `A(S)/c ≤ B(S) ≤ c·A(S)`, and the same for S′.
///
/// Then `p(S′) ≤ B(S′)(1 − f + fc) ≤ e^{ε₁}B(S)(1 − f + fc)` and
/// `p(S) ≥ B(S)(1 − f + f/c)`; every bound used holds for the event "prediction = 0"
/// too, which gives `1 − p` and the reverse ratio. The exponential mechanisms are this
/// crate's exact samplers, which pay their rounding error out of ε; T is drawn with
/// rand's `index::sample` with the workspace's `unbiased` feature, so its uniform draws
/// are exact. The guarantee is for one prediction per run; [`Self::predict`] retrains
/// for every query.
///
/// The tests check the claim, and separately the two lemmas (`B(S′) ≤ e^{ε₁}B(S)` per T,
/// and the factor c under the swap), by exact enumeration on tiny domains.
///
/// # Accuracy (a conjecture: our unproven sketch)
/// The following sketch is **not a proof** (neither checked by a machine nor reviewed);
/// treat its conclusion as a conjecture. For a class of VC dimension d, t ≥ d, and an
/// arbitrary distribution D with best error OPT, with probability 1 − β:
/// - the labeling of T induced by the best concept on S scores `−OPT_S·n`, so the
///   exponential mechanism picks g whose best extension c_g has
///   `err_S(c_g) ≤ OPT_S + 2(d·ln(et/d) + ln(1/β))/(ε₁n)` (at most `(et/d)^d`
///   candidates, Sauer–Shelah);
/// - uniform convergence on S (`O((d + ln(1/β))/α²)` examples) moves empirical to true
///   errors by at most α/4 each way;
/// - each block of `t/k` points of T is an i.i.d. sample of D (T's positions do not
///   depend on the data), labeled consistently with c_g, so by the ε-net theorem for the
///   disagreement regions `c Δ c′` (VC dimension O(d); the event holds for all pairs at
///   once, so a data-dependent c_g is fine) every block ERM is within `α_b = Õ(dk/t)` of
///   c_g; the vote then errs against c_g on at most `4α_b + 1/(1 + e^{ε₂k/4})` (see
///   [`VotingPredictor`]).
///
/// With ε₂ = 1, `k = ⌈4 ln(4/α)⌉`, `t = Õ(d·k/α)`, ε₁ = ε/2 and `f ≤ ε/(2(c − 1/c))`
/// (since `ln((1 − f + fc)/(1 − f + f/c)) ≤ f(c − 1/c)`; with c ≈ 10.9 that is
/// `n ≈ 21.6·t/ε`), the sketch gives excess error O(α) from `n = Õ(d/(αε) + d/α²)`
/// examples: **conjectured, not proved**. The paper proves `Õ(d²/(αε) + d/α²)` for its
/// Theorem 2 (a different algorithm, [`crate::DaganFeldmanPredictor`]); a bound better
/// than the paper's is a reason to read the sketch critically, not a claim of
/// improvement. (A guess we could not check:
/// an analysis that pays `ln(#labelings) ≈ d·ln t` when T changes forces `f ≲ ε/d`,
/// where the grouping above pays a constant.)
///
/// # Running time
/// The cover of C on T with each labeling's fewest mistakes on S, then k error profiles of
/// blocks of t/k points. On classes that give [`ConceptClass::labeling_ranges`]
/// (thresholds, point functions, their complements and `both(…)`, at every domain size)
/// the cover takes O(t² + n log n) from the ranges and the compressed profile, the same
/// labelings and scores as the dense construction (so the same output distribution);
/// intervals, not(intervals) and both(intervals) give [`ConceptClass::labeling_cells`]
/// instead (rectangles of ends; O(n log n + t²), intervals at every size up to 2^64 − 1
/// points, the vote's blocks then by wide levels), again the same cover and scores;
/// parities ([`ConceptClass::parity_structure`]) take O(n + d·2^d): the cosets of T's
/// kernel scored from the Walsh–Hadamard profile, and each (consistent) block's ERM by
/// Gaussian elimination; other classes pay O(|C|·(n + t)) for a dense profile and the labelings of all |C|
/// concepts, up to the dense-profile limit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RelabelingPredictor {
    epsilon: f64,
    subset_size: usize,
    mechanism: ExponentialMechanism,
    voting: VotingPredictor,
}

impl RelabelingPredictor {
    /// The status of the accuracy claim, for reports: a conjecture.
    pub const ACCURACY_CLAIM: &'static str =
        "conjecture (unproven): excess error O(α) from Õ(d/(αε) + d/α²) examples";

    /// The pipeline with selection parameter ε₁ = `epsilon`, `|T| = subset_size` and the
    /// realizable private-prediction learner `voting`.
    ///
    /// # Errors
    /// [`Error::Mechanism`] for an invalid ε₁; [`Error::InvalidParameter`] if the subset is
    /// smaller than the number of voters (every block needs an example).
    pub fn new(epsilon: f64, subset_size: usize, voting: VotingPredictor) -> Result<Self> {
        if subset_size < voting.voters() {
            return Err(Error::InvalidParameter {
                name: "subset size",
                requirement: "at least the number of voters",
                value: subset_size as f64,
            });
        }
        Ok(RelabelingPredictor {
            epsilon,
            subset_size,
            mechanism: ExponentialMechanism::new(Privacy::pure(epsilon)?, 1.0)?,
            voting,
        })
    }

    /// The pipeline for samples of size `n` whose per-prediction guarantee is at most
    /// `epsilon`: ε₁ = ε/2, and the largest subset size t whose subsample term
    /// `ln((1 − f + fc)/(1 − f + f/c))` is at most ε/2, i.e.
    /// `f = t/n ≤ (e^{ε/2} − 1)/((c − 1) + e^{ε/2}(1 − 1/c))`. The target is met by the
    /// first term of [`Self::prediction_epsilon`] alone; the reported ε is the smaller of
    /// that term and the vote's floor bound `ε₂k/2 + 10⁻⁹`, so it may be below the target.
    ///
    /// # Errors
    /// [`Error::SampleTooSmall`] (with the smallest sufficient n) if even t = k (one
    /// example per voter) exceeds that fraction; [`Error::Mechanism`] for an invalid ε.
    pub fn with_prediction_epsilon(
        epsilon: f64,
        n: usize,
        voting: VotingPredictor,
    ) -> Result<Self> {
        let half = Privacy::pure(epsilon)?.epsilon() / 2.0;
        let c = swap_factor(&voting);
        let grow = half.exp();
        let fraction = (grow - 1.0) / ((c - 1.0) + grow * (1.0 - 1.0 / c));
        // Largest t < n with t/n ≤ fraction (for large ε the fraction exceeds 1), stepped
        // down until the exact claim holds (the closed form can be off by one ulp).
        let mut t = ((fraction * n as f64).floor() as usize).min(n.saturating_sub(1));
        loop {
            if t < voting.voters() {
                let needed = (voting.voters() as f64 / fraction).ceil() as usize;
                return Err(Error::SampleTooSmall {
                    needed: needed.max(n + 1),
                    got: n,
                });
            }
            let candidate = RelabelingPredictor::new(half, t, voting)?;
            if candidate.subsample_bound(n) <= epsilon {
                return Ok(candidate);
            }
            t -= 1;
        }
    }

    /// The subset size t.
    pub fn subset_size(&self) -> usize {
        self.subset_size
    }

    /// The per-prediction privacy parameter on samples of size `n` (∞ when `n ≤ t`, where
    /// the learner refuses to run): `min{ε₁ + ln((1 − f + f·c)/(1 − f + f/c)), ε_floor}`
    /// with `f = t/n`, `c = 4e^{ε₂}(1 + 10⁻⁹)` and `ε_floor = ε₂k/2 + 10⁻⁹` the vote's
    /// [`VotingPredictor::floor_epsilon`] (not its [`VotingPredictor::prediction_epsilon`],
    /// whose ε₂ term needs training sets that differ in one example; see the type's docs).
    pub fn prediction_epsilon(&self, n: usize) -> f64 {
        if n <= self.subset_size {
            return f64::INFINITY;
        }
        self.subsample_bound(n).min(self.voting.floor_epsilon())
    }

    /// The first term of [`Self::prediction_epsilon`], from the subsample analysis.
    pub(crate) fn subsample_bound(&self, n: usize) -> f64 {
        let f = self.subset_size as f64 / n as f64;
        let c = swap_factor(&self.voting);
        self.epsilon + ((1.0 - f + f * c) / (1.0 - f + f / c)).ln()
    }

    /// Runs steps 1–3 and returns the relabeled subsample.
    fn relabeled_subsample(
        &self,
        class: &dyn ConceptClass,
        sample: &LabeledSample,
        rng: &mut dyn Rng,
    ) -> Result<LabeledSample> {
        self.check_size(sample)?;
        let positions: Vec<usize> =
            rand::seq::index::sample(rng, sample.len(), self.subset_size).into_vec();
        let points: Vec<Point> = positions.iter().map(|&i| sample.points()[i]).collect();
        let cover = ScoredCover::new(class, &points, sample)?;
        let chosen = self.mechanism.select_integer(&cover.fewest_scores(), rng)?;
        let labels = cover.labels(chosen, &points);
        Ok(LabeledSample::new(class.domain(), points, labels)?)
    }

    fn check_size(&self, sample: &LabeledSample) -> Result<()> {
        if sample.len() <= self.subset_size {
            return Err(Error::SampleTooSmall {
                needed: self.subset_size + 1,
                got: sample.len(),
            });
        }
        Ok(())
    }

    /// Answers one query with a fresh run, drawing the vote with the exact sampler.
    ///
    /// # Errors
    /// [`Error::SampleTooSmall`] unless the sample has more than t examples; errors of
    /// the class's error profile (dense-profile size limit).
    pub fn predict(
        &self,
        class: &dyn ConceptClass,
        sample: &LabeledSample,
        x: Point,
        rng: &mut dyn Rng,
    ) -> Result<bool> {
        let relabeled = self.relabeled_subsample(class, sample, rng)?;
        self.voting.predict(class, &relabeled, x, rng)
    }

    /// The exact `Pr[prediction at x = 1]` (small samples): averages over all
    /// `n!/(n − t)!` position sequences T and all labelings the mechanism can pick.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] if more than 10^6 sequences would be enumerated; as for
    /// [`Self::predict`] otherwise.
    pub fn prediction_probability(
        &self,
        class: &dyn ConceptClass,
        sample: &LabeledSample,
        x: Point,
    ) -> Result<f64> {
        self.check_size(sample)?;
        let errors = class.error_counts(sample)?;
        let n = sample.len();
        let t = self.subset_size;
        let sequences = (n - t + 1..=n).try_fold(1u128, |acc, k| acc.checked_mul(k as u128));
        let sequences = match sequences {
            Some(count) if count <= 1_000_000 => count,
            other => {
                return Err(Error::InvalidParameter {
                    name: "number of subsample sequences to enumerate",
                    requirement: "at most 10^6",
                    value: other.map_or(f64::INFINITY, |count| count as f64),
                });
            }
        };
        let mut total = 0.0;
        for_each_sequence(n, t, &mut |positions| {
            total += self.probability_given_positions(class, sample, &errors, positions, x)?;
            Ok(())
        })?;
        // Rounding can push a sum of probabilities past 1.
        Ok((total / sequences as f64).clamp(0.0, 1.0))
    }
}

impl RelabelingPredictor {
    /// The exact `Pr[prediction at x = 1]` given the subsample positions T (steps 2–4
    /// only); `errors` is the dense error profile of the class on `sample`.
    pub(crate) fn probability_given_positions(
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
            .log_probabilities_integer(&cover.fewest_scores())?;
        let mut total = 0.0;
        for (slot, log_p) in log_probabilities.into_iter().enumerate() {
            let labels = cover.labels(slot, &points);
            let relabeled = LabeledSample::new(class.domain(), points.clone(), labels)?;
            total += log_p.exp() * self.voting.prediction_probability(class, &relabeled, x)?;
        }
        Ok(total.clamp(0.0, 1.0))
    }
}

impl Learner for RelabelingPredictor {
    /// The vote trained on the relabeled subsample, as a [`Predictor::NoisyVote`]. Its
    /// per-prediction guarantee holds for a single query per call of `learn`.
    fn learn(
        &self,
        class: &dyn ConceptClass,
        sample: &LabeledSample,
        rng: &mut dyn Rng,
    ) -> Result<Predictor> {
        let relabeled = self.relabeled_subsample(class, sample, rng)?;
        self.voting.learn(class, &relabeled, rng)
    }

    /// Per prediction, [`Self::prediction_epsilon`]; [`Guarantee::None`] when
    /// `examples ≤ t` (the learner refuses such samples).
    fn guarantee(&self, examples: usize) -> Guarantee {
        Guarantee::per_prediction(self.prediction_epsilon(examples)).unwrap_or(Guarantee::None)
    }

    /// The final vote's floor ([`VotingPredictor`]'s `error_floor`).
    fn error_floor(&self, examples: usize) -> Option<ErrorFloor> {
        self.voting.error_floor(examples)
    }

    fn name(&self) -> String {
        format!(
            "relabeling(t={}, voters={})",
            self.subset_size,
            self.voting.voters()
        )
    }
}

/// The factor `c = 4e^{ε₂}(1 + 10⁻⁹)` by which swapping one subsample position can change
/// a prediction probability (see the proof on [`RelabelingPredictor`]).
fn swap_factor(voting: &VotingPredictor) -> f64 {
    4.0 * voting.epsilon().exp() * (1.0 + 1e-9)
}

/// Calls `visit` on every sequence of `t` distinct positions out of `0..n`.
fn for_each_sequence(
    n: usize,
    t: usize,
    visit: &mut dyn FnMut(&[usize]) -> Result<()>,
) -> Result<()> {
    fn extend(
        n: usize,
        t: usize,
        prefix: &mut Vec<usize>,
        used: &mut [bool],
        visit: &mut dyn FnMut(&[usize]) -> Result<()>,
    ) -> Result<()> {
        if prefix.len() == t {
            return visit(prefix);
        }
        for i in 0..n {
            if !used[i] {
                used[i] = true;
                prefix.push(i);
                extend(n, t, prefix, used, visit)?;
                prefix.pop();
                used[i] = false;
            }
        }
        Ok(())
    }
    extend(n, t, &mut Vec::with_capacity(t), &mut vec![false; n], visit)
}
