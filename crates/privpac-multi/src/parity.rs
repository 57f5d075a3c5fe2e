//! `ParityLearner` (Bun–Nissim–Stemmer 2016, Algorithm 4, Theorem 3.12): subsample and
//! aggregate, with a GF(2) solve of all k columns per part and `A_dist` over the k-vectors.

use std::collections::HashMap;

use privpac_accounting::{Guarantee, Privacy, Private};
use privpac_classes::{ConceptClass, Domain, Hypothesis};
use privpac_learners::Predictor;
use privpac_mechanisms::{StableSelection, StableSelectionOutcome};
use rand::Rng;

use crate::error::{Error, Result};
use crate::gf2::{MAX_BLOCK_ROWS, solve_block, solve_block_per_column};
use crate::learner::MultiLearner;
use crate::sample::{MultiLabeledSample, check_domains};

/// The default number of points per part beyond d: a part of `d + 4` uniform points spans
/// `GF(2)^d` except with probability below `2^-4`.
pub const DEFAULT_EXTRA_POINTS: u32 = 4;

/// One part's vote: the k parity ids it determined, or ⊥ (`None`).
pub type Vote = Option<Vec<u64>>;

/// What [`ParityLearner::learn_outcome`] released.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParityOutcome {
    /// `A_dist` released this vector of k parity ids.
    Selected(Vec<u64>),
    /// `A_dist` answered ⊥.
    Bottom,
}

/// The private k-learner for parities under the uniform distribution (Algorithm 4).
///
/// 1. Split the n examples into `m = ⌊n/s⌋` disjoint contiguous parts of `s = d + r`
///    examples (`r` = [`Self::extra_points`]); the last `n − m·s` examples are unused.
/// 2. On each part, find for all k columns at once the parity consistent with the labels
///    ([`crate::gf2::solve_block`]: one Gauss–Jordan reduction of the part's points, all k
///    label columns carried along 64 per word). The part votes for the k-vector of ids if
///    every column has exactly one consistent parity, and ⊥ if some column is inconsistent
///    or under-determined.
/// 3. Run `A_dist` (Algorithm 3, privpac's corrected `StableSelection`) at (ε, δ) over the
///    candidates `(PAR_d)^k` with quality `q(Y, v)` = the number of parts voting v.
///
/// `A_dist` runs on an implicit candidate set: the best candidate is the most frequent
/// vote (ties to the lexicographically smallest vector, the all-zero vector when every
/// part voted ⊥) and the runner-up's score is the second-highest vote count, or 0 when
/// only one vector was voted for (every other vector of `(PAR_d)^k`, of which there are
/// at least 2^{dk} − 1 ≥ 1, has count 0). These are exactly the best and second-best
/// scores over the full candidate set, so the released output is distributed exactly as
/// `A_dist` on `(PAR_d)^k`.
///
/// When `A_dist` answers ⊥, [`MultiLearner::learn`] returns the all-zero parity for every
/// column (post-processing); [`Self::learn_outcome`] says which happened.
///
/// # Privacy
/// (ε, δ)-DP for every n and k (Theorem 3.12's proof): the parts are fixed positions, so
/// replacing one example changes at most one part and hence one vote, and every
/// candidate's count moves by at most 1 (sensitivity 1). The votes are then released only
/// through `A_dist`, which is (ε, δ)-DP for sensitivity-1 qualities with noise
/// `Lap_Z(2/ε)` and threshold `2 + ⌈(2/ε)·ln(1/δ)⌉ + 1` (the paper's Algorithm 3 prints
/// `Lap(1/ε)` and `(1/ε)·ln(1/δ)`, which is only about (2ε, e^{2ε}·δ/2)-DP, because the
/// gap between the best and second-best score has sensitivity 2; see
/// `privpac_mechanisms::StableSelection`). Checked exactly on all neighbouring vote multisets of
/// tiny instances, with the paper's calibration as a negative control.
///
/// # Sample complexity
/// Proved (not the printed statement of Theorem 3.12, see [`crate::bounds`]):
/// `n = O((d/ε)·log(1/(βδ)))`, explicitly [`crate::bounds::parity_learner_plan`]. Parts are
/// sized without a VC constant: under the uniform distribution a part of s points
/// determines every (realizable) column uniquely iff its points span `GF(2)^d`, which fails
/// with probability at most `(2^d − 1)·2^{−s} < 2^{d−s}` (union over the nonzero `a` of
/// `Pr[every point ⊥ a] = 2^{−s}`).
///
/// # Running time
/// O(n·d·(1 + k/64)) word operations for the eliminations, O(n·k/64) to read the labels,
/// and O(m·k) to count votes: linear in k, independent of |X| = 2^d beyond the word size.
///
/// # Errors
/// Construction: [`Error::DeltaRequired`] for δ = 0, [`Error::Mechanism`] for an
/// unrepresentable noise scale. Learning: [`Error::NotHypercube`] unless the class's domain
/// is `{0,1}^d`, [`Error::UnsupportedClass`] unless the class is `PAR_d`,
/// [`Error::DomainMismatch`], [`Error::EmptySample`].
///
/// # Example
/// ```
/// use privpac_classes::Parities;
/// use privpac_accounting::Privacy;
/// use privpac_multi::{MultiLabeledSample, MultiLearner, ParityLearner};
/// use rand::{RngExt, SeedableRng};
///
/// let class = Parities::new(16)?;
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
/// let targets: Vec<u64> = (0..100).map(|_| rng.random::<u64>() & 0xFFFF).collect();
/// let points: Vec<u64> = (0..4000).map(|_| rng.random::<u64>() & 0xFFFF).collect();
/// let sample = MultiLabeledSample::label_with(&class, points, &targets)?;
/// let learner = ParityLearner::new(Privacy::new(1.0, 1e-6)?)?;
/// let hypotheses = learner.learn(&class, &sample, &mut rng)?;
/// let learned: Vec<u64> = hypotheses
///     .iter()
///     .map(|h| match h.as_hypothesis() { Some(privpac_classes::Hypothesis::Concept { id }) => *id, _ => u64::MAX })
///     .collect();
/// assert_eq!(learned, targets);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # References
/// M. Bun, K. Nissim, U. Stemmer, "Simultaneous private learning of multiple concepts",
/// ITCS 2016 / JMLR 2019, Algorithms 3–4, Proposition 3.11, Theorem 3.12. K. Nissim,
/// S. Raskhodnikova, A. Smith, "Smooth sensitivity and sampling in private data analysis",
/// STOC 2007 (subsample and aggregate).
#[derive(Debug, Clone, PartialEq)]
pub struct ParityLearner {
    selection: StableSelection,
    extra_points: u32,
}

impl ParityLearner {
    /// The learner at (ε, δ), δ > 0, with parts of `d +` [`DEFAULT_EXTRA_POINTS`] examples.
    ///
    /// # Errors
    /// See the type documentation.
    pub fn new(privacy: Privacy) -> Result<Self> {
        if privacy.is_pure() {
            return Err(Error::DeltaRequired {
                algorithm: "the parity multi-learner (A_dist)",
            });
        }
        Ok(ParityLearner {
            selection: StableSelection::new(privacy, 1)?,
            extra_points: DEFAULT_EXTRA_POINTS,
        })
    }

    /// Parts of `d + r` examples (each fails to span with probability below `2^{−r}`).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] unless `0 ≤ r ≤ 64`.
    pub fn with_extra_points(mut self, r: u32) -> Result<Self> {
        if r > 64 {
            return Err(Error::InvalidParameter {
                name: "extra points per part",
                requirement: "at most 64",
                value: f64::from(r),
            });
        }
        self.extra_points = r;
        Ok(self)
    }

    /// r, the examples per part beyond d.
    pub fn extra_points(&self) -> u32 {
        self.extra_points
    }

    /// The part size `s = d + r` for dimension d.
    pub fn part_size(&self, d: u32) -> usize {
        (d as usize + self.extra_points as usize).min(MAX_BLOCK_ROWS)
    }

    /// The `A_dist` instance (noise, threshold).
    pub fn selection(&self) -> &StableSelection {
        &self.selection
    }

    /// Steps 1–2: the parts' votes for `PAR_d` (d from the class), fast path.
    ///
    /// # Errors
    /// As for [`MultiLearner::learn`].
    pub fn votes(
        &self,
        class: &dyn ConceptClass,
        sample: &MultiLabeledSample,
    ) -> Result<Vec<Vote>> {
        let d = check_inputs(class, sample)?;
        Ok(part_votes(sample, d, self.part_size(d), solve_block))
    }

    /// Steps 1–2 with the per-column reference elimination (for tests and benches).
    ///
    /// # Errors
    /// As for [`MultiLearner::learn`].
    pub fn votes_reference(
        &self,
        class: &dyn ConceptClass,
        sample: &MultiLabeledSample,
    ) -> Result<Vec<Vote>> {
        let d = check_inputs(class, sample)?;
        Ok(part_votes(
            sample,
            d,
            self.part_size(d),
            solve_block_per_column,
        ))
    }

    /// The whole algorithm, saying whether `A_dist` released a vector or ⊥.
    ///
    /// # Errors
    /// As for [`MultiLearner::learn`].
    pub fn learn_outcome(
        &self,
        class: &dyn ConceptClass,
        sample: &MultiLabeledSample,
        rng: &mut dyn Rng,
    ) -> Result<ParityOutcome> {
        let votes = self.votes(class, sample)?;
        select_most_frequent(&self.selection, &votes, sample.k(), rng)
    }
}

/// Splits rows into `⌊n/s⌋` contiguous parts and solves each.
fn part_votes(
    sample: &MultiLabeledSample,
    d: u32,
    part_size: usize,
    solve: fn(&MultiLabeledSample, u32, usize, usize) -> Option<Vec<u64>>,
) -> Vec<Vote> {
    (0..sample.len() / part_size)
        .map(|t| solve(sample, d, t * part_size, part_size))
        .collect()
}

/// The best vote (most frequent; ties to the lexicographically smallest; the all-zero
/// k-vector if no part voted), its count, and the runner-up count over `(PAR_d)^k`.
fn plurality(votes: &[Vote], k: usize) -> (Vec<u64>, i64, i64) {
    let mut counts: HashMap<&[u64], i64> = HashMap::new();
    for vote in votes.iter().flatten() {
        *counts.entry(vote.as_slice()).or_default() += 1;
    }
    let mut best: Option<(&[u64], i64)> = None;
    for (&vector, &count) in &counts {
        best = match best {
            Some((b, c)) if c > count || (c == count && b <= vector) => Some((b, c)),
            _ => Some((vector, count)),
        };
    }
    match best {
        None => (vec![0; k], 0, 0),
        Some((vector, count)) => {
            let runner_up = counts
                .iter()
                .filter(|&(&v, _)| v != vector)
                .map(|(_, &c)| c)
                .max()
                .unwrap_or(0);
            (vector.to_vec(), count, runner_up)
        }
    }
}

/// Step 3: `A_dist` (at the guarantee of `selection`, sensitivity 1) over the implicit
/// candidate set of all k-vectors, scored by their number of votes.
///
/// # Errors
/// [`Error::Mechanism`] from the selection.
pub fn select_most_frequent<R: Rng + ?Sized>(
    selection: &StableSelection,
    votes: &[Vote],
    k: usize,
    rng: &mut R,
) -> Result<ParityOutcome> {
    let (best, count, runner_up) = plurality(votes, k);
    Ok(match selection.select(&[count, runner_up], rng)? {
        StableSelectionOutcome::Selected(_) => ParityOutcome::Selected(best),
        StableSelectionOutcome::Bottom => ParityOutcome::Bottom,
    })
}

/// The exact output distribution of [`select_most_frequent`]: the vector it may release
/// and the probability that it does (⊥ has the rest).
///
/// # Errors
/// [`Error::Mechanism`] from the selection.
pub fn most_frequent_distribution(
    selection: &StableSelection,
    votes: &[Vote],
    k: usize,
) -> Result<(Vec<u64>, f64)> {
    let (best, count, runner_up) = plurality(votes, k);
    let distribution = selection.output_distribution(&[count, runner_up])?;
    Ok((best, distribution[0]))
}

/// d for `PAR_d` on `{0,1}^d`, after checking the class and the sample.
fn check_inputs(class: &dyn ConceptClass, sample: &MultiLabeledSample) -> Result<u32> {
    let d = parity_dimension(class)?;
    check_domains(class, sample)?;
    if sample.is_empty() {
        return Err(Error::EmptySample);
    }
    Ok(d)
}

/// d if `class` is `PAR_d` over `{0,1}^d` (its name, size and labels on unit vectors agree
/// with `c_a(x) = ⟨a, x⟩ mod 2`).
///
/// # Errors
/// [`Error::NotHypercube`] or [`Error::UnsupportedClass`].
pub fn parity_dimension(class: &dyn ConceptClass) -> Result<u32> {
    let Domain::Hypercube { dim } = *class.domain() else {
        return Err(Error::NotHypercube {
            learner: "the parity multi-learner",
            domain: class.domain().to_string(),
        });
    };
    let unsupported = || Error::UnsupportedClass {
        learner: "the parity multi-learner",
        expected: "parities (PAR_d)",
        class: class.name(),
    };
    if !class.name().starts_with("parities") || class.len() != 1u128 << dim {
        return Err(unsupported());
    }
    for i in 0..dim {
        let e = 1u64 << i;
        let next = 1u64 << ((i + 1) % dim);
        let agrees = class.eval(e, e)
            && !class.eval(e, 0)
            && (dim == 1 || !class.eval(e, next))
            && (dim == 1 || !class.eval(e | next, e | next));
        if !agrees {
            return Err(unsupported());
        }
    }
    Ok(dim)
}

impl MultiLearner for ParityLearner {
    fn learn(
        &self,
        class: &dyn ConceptClass,
        sample: &MultiLabeledSample,
        rng: &mut dyn Rng,
    ) -> Result<Vec<Predictor>> {
        Ok(match self.learn_outcome(class, sample, rng)? {
            ParityOutcome::Selected(ids) => ids
                .into_iter()
                .map(|id| Hypothesis::Concept { id }.into())
                .collect(),
            ParityOutcome::Bottom => vec![Hypothesis::Concept { id: 0 }.into(); sample.k()],
        })
    }

    fn guarantee(&self, _examples: usize, _k: usize) -> Guarantee {
        Guarantee::DifferentialPrivacy(self.selection.privacy())
    }

    fn name(&self) -> String {
        "parity".into()
    }
}
