//! Black-box statistical auditing: a certified lower bound on the ε of any randomized
//! algorithm, from its samples on chosen neighbouring inputs.
//!
//! The method is the common core of StatDP (Ding et al., CCS 2018), DP-Sniper (Bichsel et
//! al., S&P 2021) and DP-Auditorium (Google, 2024): for a neighbouring pair (a, b) and an
//! output event E, an (ε, δ)-DP algorithm satisfies `P[M(a) ∈ E] ≤ e^ε·P[M(b) ∈ E] + δ`, so
//! a lower confidence bound `p̲_a` on `P[M(a) ∈ E]` and an upper one `p̄_b` on
//! `P[M(b) ∈ E]` give the lower bound `ε ≥ ln((p̲_a − δ)/p̄_b)`.
//!
//! **Selection is kept apart from certification.** The audit has three stages.
//!
//! 1. *Screening* (only when there are more than [`FINALISTS_PER_CERTIFIED`]` · K` pairs,
//!    K = [`BlackBoxConfig::certified_pairs`], default 1): a cheap pilot of
//!    [`BlackBoxConfig::screening_runs`] runs per input on every pair, scored as below;
//!    the best `FINALISTS_PER_CERTIFIED · K` pairs are the finalists (all pairs otherwise).
//! 2. *Selection*: the algorithm runs [`BlackBoxConfig::selection_runs`] fresh times on
//!    each input of every finalist, half of them to *propose* candidate events and the
//!    other half to *rank* them (a candidate proposed and scored on the same runs would
//!    favour rare outputs that happened to fall on one side). Each finalist gets its best
//!    event and direction (a→b or b→a) and a score: the bound that certification with
//!    [`BlackBoxConfig::runs`] runs would give, estimated from the ranking frequencies
//!    with an allowance for their own noise, so events are chosen to maximize the
//!    *certified* bound, not the point estimate (a rare event with a large ratio loses to
//!    a frequent one whose bound is higher).
//! 3. *Certification*: the K finalists with the highest scores run `runs` **fresh** times
//!    on each input, and their events get exact Clopper–Pearson bounds.
//!
//! Which pairs and events are certified is a function of the screening and selection runs
//! alone, and the
//! certification runs are independent of them (separate generator streams), so,
//! conditionally on the selection, each certified bound is an exact one-sided
//! Clopper–Pearson bound. The only multiplicity is over what is certified: each of the
//! `2K` one-sided bounds is taken at level `(1 − confidence)/(2K)` (Bonferroni), and with
//! probability at least `confidence` *all* reported bounds hold at once. Hence the reported
//! [`StatisticalAudit::epsilon_lower_bound`] exceeds the algorithm's true ε with probability
//! at most `1 − confidence`, whatever the algorithm: a correct mechanism raises a false
//! alarm at most that often. Pairs that were only screened or selected cost runs but no
//! confidence.
//!
//! Candidate events: for finite outputs ([`audit_finite`]), the top sets (values sorted
//! by their estimated likelihood ratio on the proposal runs, at three smoothing priors,
//! every prefix: the empirical counterpart of DP-Sniper's likelihood-ratio threshold events,
//! over the full output code); for real outputs ([`audit_real`]), the half-lines
//! `{o ≤ t}`, `{o > t}` and the intervals `[t_i, t_j)` between quantiles of the pooled
//! proposal samples. An algorithm whose output is a vector is audited through a fixed
//! encoding of it (a finite code or a real feature chosen before any run); several
//! encodings of one pair can be passed as several pairs, and the pilot picks among them.
//!
//! Runs are split into fixed chunks whose generators are derived from the seed, the pair,
//! the input, the phase and the chunk index (ChaCha8 streams), so results do not depend on
//! the number of threads.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use statrs::distribution::{ContinuousCDF, Normal};

mod draws;

use draws::{Counts, FiniteCounts, Hits, Scorer, best_finite_event, best_real_event};

use crate::error::{Error, Result};
use crate::statistical::{MAX_TRIALS, clopper_pearson};

/// Runs per generator chunk (fixed, so results do not depend on the thread count).
const CHUNK: u64 = 4096;

/// Quantile grid used for the threshold events of real outputs.
const THRESHOLD_GRID: usize = 256;

/// Quantile grid used for the interval events of real outputs (`O(grid²)` intervals).
const INTERVAL_GRID: usize = 48;

/// How many standard deviations of the ranking estimate the selection score allows for
/// (besides the certification's own). It only affects which event is chosen (power),
/// never the validity of a bound.
const RANKING_Z: f64 = 2.0;

/// The pseudo-counts added to both sides when values are ordered by their estimated
/// likelihood ratio `(count_large + m)/(count_small + m)`: one ordering per m, so that rare
/// values (whose ratios are mostly noise) are pushed toward the middle in some orderings;
/// the ranking runs choose among all their prefixes.
const RATIO_PRIORS: [f64; 3] = [1.0, 10.0, 100.0];

/// The most neighbouring pairs one audit takes (the pair index is part of the generator
/// stream).
pub const MAX_PAIRS: usize = 1 << 20;

/// How to audit: runs per input and stage, what is certified, confidence, δ and seed.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct BlackBoxConfig {
    /// Certification runs on each input of each certified pair.
    pub runs: u64,
    /// Selection runs on each input of every finalist pair (half propose events, half
    /// rank them); [`BlackBoxConfig::new`] sets `max(runs, 2)`.
    pub selection_runs: u64,
    /// Screening runs on each input of every pair when there are more than
    /// [`FINALISTS_PER_CERTIFIED`]` · certified_pairs` pairs (half propose, half rank);
    /// the best-scoring pairs become the finalists. [`BlackBoxConfig::new`] sets
    /// `max(runs/8, 2)`.
    pub screening_runs: u64,
    /// How many pairs (the best-scoring ones on the selection runs) are certified; 1 by
    /// default. The Bonferroni correction counts only these.
    pub certified_pairs: usize,
    /// The probability that every reported bound holds (for example 0.95).
    pub confidence: f64,
    /// The δ at which ε is bounded (0 for pure differential privacy).
    pub delta: f64,
    /// The master seed.
    pub seed: u64,
}

impl BlackBoxConfig {
    /// Validates a configuration with δ = 0, `max(runs, 2)` selection runs,
    /// `max(runs/8, 2)` screening runs and one certified pair.
    ///
    /// # Errors
    /// [`Error::ZeroTrials`] for `runs = 0`, [`Error::TooManyTrials`] above
    /// [`MAX_TRIALS`], [`Error::InvalidConfidence`] unless `0 < confidence < 1`.
    pub fn new(runs: u64, confidence: f64, seed: u64) -> Result<Self> {
        if runs == 0 {
            return Err(Error::ZeroTrials);
        }
        if runs > MAX_TRIALS {
            return Err(Error::TooManyTrials { trials: runs });
        }
        if !(confidence > 0.0 && confidence < 1.0) {
            return Err(Error::InvalidConfidence { value: confidence });
        }
        Ok(BlackBoxConfig {
            runs,
            selection_runs: runs.max(2),
            screening_runs: (runs / 8).max(2),
            certified_pairs: 1,
            confidence,
            delta: 0.0,
            seed,
        })
    }

    /// The same configuration auditing at δ (`ε ≥ ln((p̲_a − δ)/p̄_b)`).
    ///
    /// # Errors
    /// [`Error::InvalidDelta`] unless `0 ≤ δ < 1`.
    pub fn with_delta(self, delta: f64) -> Result<Self> {
        if !(0.0..1.0).contains(&delta) {
            return Err(Error::InvalidDelta { value: delta });
        }
        Ok(BlackBoxConfig { delta, ..self })
    }

    /// The same configuration with `runs` selection runs per input of every pair.
    ///
    /// # Errors
    /// [`Error::TooFewSelectionRuns`] below 2 (one to propose, one to rank);
    /// [`Error::TooManyTrials`] above [`MAX_TRIALS`].
    pub fn with_selection_runs(self, runs: u64) -> Result<Self> {
        Ok(BlackBoxConfig {
            selection_runs: check_stage_runs(runs)?,
            ..self
        })
    }

    /// The same configuration with `runs` screening runs per input of every pair.
    ///
    /// # Errors
    /// [`Error::TooFewSelectionRuns`] below 2; [`Error::TooManyTrials`] above
    /// [`MAX_TRIALS`].
    pub fn with_screening_runs(self, runs: u64) -> Result<Self> {
        Ok(BlackBoxConfig {
            screening_runs: check_stage_runs(runs)?,
            ..self
        })
    }

    /// The same configuration certifying the `count` best-scoring pairs (all of them when
    /// there are fewer).
    ///
    /// # Errors
    /// [`Error::ZeroCertifiedPairs`] for 0.
    pub fn with_certified_pairs(self, count: usize) -> Result<Self> {
        if count == 0 {
            return Err(Error::ZeroCertifiedPairs);
        }
        Ok(BlackBoxConfig {
            certified_pairs: count,
            ..self
        })
    }

    /// The selection stage of the finalists.
    fn selection_stage(&self) -> Stage {
        Stage::new(self.selection_runs, PROPOSAL, RANKING)
    }

    /// The screening stage of every pair.
    fn screening_stage(&self) -> Stage {
        Stage::new(self.screening_runs, SCREEN_PROPOSAL, SCREEN_RANKING)
    }
}

/// An output event.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Event {
    /// The output is one of these values (finite outputs).
    Values(Vec<u64>),
    /// The output is at most this threshold.
    AtMost(f64),
    /// The output is above this threshold.
    Above(f64),
    /// The output lies in `[low, high)`.
    Interval {
        /// Inclusive lower end.
        low: f64,
        /// Exclusive upper end.
        high: f64,
    },
}

impl Event {
    fn contains_real(&self, o: f64) -> bool {
        match self {
            Event::AtMost(t) => o <= *t,
            Event::Above(t) => o > *t,
            Event::Interval { low, high } => *low <= o && o < *high,
            Event::Values(_) => false,
        }
    }
}

impl std::fmt::Display for Event {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Event::Values(values) if values.len() <= 8 => write!(f, "output in {values:?}"),
            Event::Values(values) => write!(f, "output in a set of {} values", values.len()),
            Event::AtMost(t) => write!(f, "output ≤ {t}"),
            Event::Above(t) => write!(f, "output > {t}"),
            Event::Interval { low, high } => write!(f, "output in [{low}, {high})"),
        }
    }
}

/// The certified result for one neighbouring pair.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct PairAudit {
    /// The index of the pair in the input list.
    pub pair: usize,
    /// Whether the event was certified in the direction b → a (`P[M(b) ∈ E]` large).
    pub swapped: bool,
    /// The event chosen on the selection runs.
    pub event: Event,
    /// Certification runs of the larger side that fell in the event.
    pub hits_large: u64,
    /// Certification runs of the smaller side that fell in the event.
    pub hits_small: u64,
    /// Lower confidence bound on the larger side's probability.
    pub large_lower: f64,
    /// Upper confidence bound on the smaller side's probability.
    pub small_upper: f64,
    /// `max(0, ln((large_lower − δ)/small_upper))`.
    pub epsilon_lower_bound: f64,
}

/// The selection-stage result for one neighbouring pair (uncertified).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct PairSelection {
    /// The index of the pair in the input list.
    pub pair: usize,
    /// Whether the event looked violating in the direction b → a.
    pub swapped: bool,
    /// The best event on the ranking runs.
    pub event: Event,
    /// The projected certified bound the pair was ranked by (`-∞` when no event looked
    /// violating). An estimate, not a bound.
    pub score: f64,
    /// Whether the pair reached the full selection (otherwise the event and score are the
    /// screening stage's).
    pub finalist: bool,
}

/// The outcome of a black-box audit.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct StatisticalAudit {
    /// The largest certified lower bound on ε over the certified pairs (0 when none is
    /// positive). With probability at least [`Self::confidence`] it does not exceed the
    /// true ε.
    pub epsilon_lower_bound: f64,
    /// The simultaneous confidence of all bounds.
    pub confidence: f64,
    /// The δ the bound is for.
    pub delta: f64,
    /// Certification runs per input of each certified pair.
    pub runs: u64,
    /// Selection runs per input of every finalist pair.
    pub selection_runs: u64,
    /// Screening runs per input of every pair (0 when there was no screening: few pairs).
    pub screening_runs: u64,
    /// Runs of the algorithm in all (selection and certification).
    pub total_runs: u64,
    /// The certified pairs, in input order.
    pub pairs: Vec<PairAudit>,
    /// The selection result of every pair, in input order.
    pub selection: Vec<PairSelection>,
}

impl StatisticalAudit {
    /// Whether the audit refutes a claimed ε (at the audited δ): the certified lower bound
    /// exceeds it.
    pub fn refutes(&self, claimed_epsilon: f64) -> bool {
        self.epsilon_lower_bound > claimed_epsilon
    }

    /// A certified lower bound on δ(ε) at `epsilon`, valid at the same confidence:
    /// `max(0, max_pairs (p̲_large − e^ε·p̄_small))` over the certified pairs.
    pub fn delta_lower_bound(&self, epsilon: f64) -> f64 {
        self.pairs
            .iter()
            .map(|p| p.large_lower - epsilon.exp() * p.small_upper)
            .fold(0.0, f64::max)
    }
}

/// Audits an algorithm with finite (integer-coded) outputs on the given neighbouring
/// pairs. `mechanism(input, rng)` runs the algorithm once.
///
/// # Errors
/// [`Error::NoPairs`] for an empty pair list, [`Error::TooManyDatasets`] above
/// [`MAX_PAIRS`]; the errors of [`clopper_pearson`].
///
/// # Example
/// Randomized response claiming ε = 0.5 but flipping with the probability of ε = 1 is
/// caught; the correct one is not.
/// ```
/// use privpac_audit::black_box::{BlackBoxConfig, audit_finite};
/// use rand::RngExt;
/// let respond = |epsilon: f64| {
///     move |bit: &u64, rng: &mut rand_chacha::ChaCha8Rng| {
///         let truth = epsilon.exp() / (1.0 + epsilon.exp());
///         if rng.random_bool(truth) { *bit } else { 1 - *bit }
///     }
/// };
/// let config = BlackBoxConfig::new(20_000, 0.95, 7)?;
/// let broken = audit_finite(respond(1.0), &[(0, 1)], &config)?;
/// assert!(broken.refutes(0.5));
/// let correct = audit_finite(respond(0.5), &[(0, 1)], &config)?;
/// assert!(!correct.refutes(0.5));
/// # Ok::<(), privpac_audit::Error>(())
/// ```
pub fn audit_finite<I, M>(
    mechanism: M,
    pairs: &[(I, I)],
    config: &BlackBoxConfig,
) -> Result<StatisticalAudit>
where
    I: Sync,
    M: Fn(&I, &mut ChaCha8Rng) -> u64 + Sync,
{
    audit_finite_chunks(
        |input: &I, rng: &mut ChaCha8Rng, size: u64, out: &mut Vec<u64>| {
            out.extend((0..size).map(|_| mechanism(input, rng)));
        },
        pairs,
        config,
    )
}

/// [`audit_finite`] for a mechanism that draws many runs per call (the vectorized
/// convention of DP-Sniper's mechanisms): `mechanism(input, n, seed)` returns the outputs
/// of n independent runs, with all its randomness derived from `seed`. Runs are drawn in
/// the same fixed chunks as [`audit_finite`], one call per chunk; chunk c of a (pair,
/// input, stage) passes the first word of ChaCha8 stream `stream(pair, input, stage) + c`
/// of the master seed, so the audit does not depend on threads or scheduling.
///
/// # Errors
/// As for [`audit_finite`]; [`Error::Mechanism`] with the first failure of `mechanism`
/// (its own error, or a wrong number of outputs).
pub fn audit_finite_batched<I, M>(
    mechanism: M,
    pairs: &[(I, I)],
    config: &BlackBoxConfig,
) -> Result<StatisticalAudit>
where
    I: Sync,
    M: Fn(&I, u64, u64) -> std::result::Result<Vec<u64>, String> + Sync,
{
    batched(mechanism, 0, |draw| {
        audit_finite_chunks(draw, pairs, config)
    })
}

/// A chunk draw over a batched mechanism handed to `audit`: the first failure of the
/// mechanism (its error, or a wrong number of outputs) is recorded, later chunks skip the
/// call and are filled with `filler`, and the audit's result is replaced by the failure.
fn batched<I, T, M>(
    mechanism: M,
    filler: T,
    audit: impl FnOnce(
        &(dyn Fn(&I, &mut ChaCha8Rng, u64, &mut Vec<T>) + Sync),
    ) -> Result<StatisticalAudit>,
) -> Result<StatisticalAudit>
where
    T: Clone + Sync,
    M: Fn(&I, u64, u64) -> std::result::Result<Vec<T>, String> + Sync,
{
    let failure = std::sync::Mutex::new(None::<String>);
    let draw = |input: &I, rng: &mut ChaCha8Rng, size: u64, out: &mut Vec<T>| {
        let drawn = batch(&mechanism, input, rng, size, &failure);
        out.extend(drawn.unwrap_or_else(|| vec![filler.clone(); size as usize]));
    };
    let result = audit(&draw);
    failed(&failure)?;
    result
}

/// One call of a batched mechanism, checked; `None` (and the failure recorded) if it fails
/// or an earlier call already failed (the audit's result is then discarded anyway).
fn batch<I, T, M>(
    mechanism: &M,
    input: &I,
    rng: &mut ChaCha8Rng,
    size: u64,
    failure: &std::sync::Mutex<Option<String>>,
) -> Option<Vec<T>>
where
    M: Fn(&I, u64, u64) -> std::result::Result<Vec<T>, String>,
{
    if failure.lock().map_or(true, |first| first.is_some()) {
        return None;
    }
    let seed = rand::Rng::next_u64(rng);
    let result = mechanism(input, size, seed).and_then(|outputs| {
        if outputs.len() as u64 == size {
            Ok(outputs)
        } else {
            Err(format!(
                "the mechanism returned {} outputs for n = {size}",
                outputs.len()
            ))
        }
    });
    match result {
        Ok(outputs) => Some(outputs),
        Err(reason) => {
            if let Ok(mut first) = failure.lock() {
                first.get_or_insert(reason);
            }
            None
        }
    }
}

/// The recorded failure of a batched mechanism, as an error.
fn failed(failure: &std::sync::Mutex<Option<String>>) -> Result<()> {
    match failure.lock().map(|mut first| first.take()) {
        Ok(Some(reason)) => Err(Error::Mechanism { reason }),
        Ok(None) => Ok(()),
        Err(_) => Err(Error::Mechanism {
            reason: "a mechanism call panicked".into(),
        }),
    }
}

/// The finite audit over chunk draws: `draw(input, rng, size, out)` appends `size` outputs.
fn audit_finite_chunks<I, D>(
    draw: D,
    pairs: &[(I, I)],
    config: &BlackBoxConfig,
) -> Result<StatisticalAudit>
where
    I: Sync,
    D: Fn(&I, &mut ChaCha8Rng, u64, &mut Vec<u64>) + Sync,
{
    let count = |input: &I, stream: Stream, runs: u64| -> Counts {
        draws::collect_chunks(
            config.seed,
            stream,
            runs,
            |rng, size, out: &mut FiniteCounts| {
                draw(input, rng, size, &mut out.raw);
            },
        )
        .counts
    };
    audit(
        pairs,
        config,
        |pair, (a, b), scorer| {
            let (proposal, ranking) = scorer.stage.samples(pair, (a, b), count);
            best_finite_event(&proposal, &ranking, scorer)
        },
        |pair, (a, b), event| {
            let Event::Values(values) = event else {
                return (0, 0); // finite audits only propose value sets
            };
            let hits = |input: &I, side: u64| {
                draws::collect_chunks(
                    config.seed,
                    Stream::new(pair, side, CERTIFICATION),
                    config.runs,
                    |rng, size, out: &mut Hits| {
                        let mut outputs = Vec::with_capacity(size as usize);
                        draw(input, rng, size, &mut outputs);
                        out.0 += outputs
                            .iter()
                            .filter(|o| values.binary_search(o).is_ok())
                            .count() as u64;
                    },
                )
                .0
            };
            (hits(a, 0), hits(b, 1))
        },
    )
}

/// Audits an algorithm with real-valued outputs on the given neighbouring pairs, with
/// threshold and interval events. `mechanism(input, rng)` runs the algorithm once; NaN
/// outputs fall in no event.
///
/// # Errors
/// [`Error::NoPairs`] for an empty pair list, [`Error::TooManyDatasets`] above
/// [`MAX_PAIRS`]; the errors of [`clopper_pearson`].
///
/// # Example
/// A Laplace mechanism for a sensitivity-1 count claiming ε = 1 but adding noise of scale
/// 1/2 (so ε = 2) is caught.
/// ```
/// use privpac_audit::black_box::{BlackBoxConfig, audit_real};
/// use rand::RngExt;
/// let laplace = |scale: f64| {
///     move |value: &f64, rng: &mut rand_chacha::ChaCha8Rng| {
///         let u: f64 = rng.random::<f64>() - 0.5;
///         value - scale * u.signum() * (1.0 - 2.0 * u.abs()).ln()
///     }
/// };
/// let config = BlackBoxConfig::new(50_000, 0.95, 1)?;
/// assert!(audit_real(laplace(0.5), &[(0.0, 1.0)], &config)?.refutes(1.0));
/// assert!(!audit_real(laplace(1.0), &[(0.0, 1.0)], &config)?.refutes(1.0));
/// # Ok::<(), privpac_audit::Error>(())
/// ```
pub fn audit_real<I, M>(
    mechanism: M,
    pairs: &[(I, I)],
    config: &BlackBoxConfig,
) -> Result<StatisticalAudit>
where
    I: Sync,
    M: Fn(&I, &mut ChaCha8Rng) -> f64 + Sync,
{
    audit_real_chunks(
        |input: &I, rng: &mut ChaCha8Rng, size: u64, out: &mut Vec<f64>| {
            out.extend((0..size).map(|_| mechanism(input, rng)));
        },
        pairs,
        config,
    )
}

/// [`audit_real`] for a mechanism that draws many runs per call, as
/// [`audit_finite_batched`] is for [`audit_finite`]; NaN outputs fall in no event.
///
/// # Errors
/// As for [`audit_real`]; [`Error::Mechanism`] with the first failure of `mechanism`.
pub fn audit_real_batched<I, M>(
    mechanism: M,
    pairs: &[(I, I)],
    config: &BlackBoxConfig,
) -> Result<StatisticalAudit>
where
    I: Sync,
    M: Fn(&I, u64, u64) -> std::result::Result<Vec<f64>, String> + Sync,
{
    batched(mechanism, f64::NAN, |draw| {
        audit_real_chunks(draw, pairs, config)
    })
}

/// The real-valued audit over chunk draws.
fn audit_real_chunks<I, D>(
    draw: D,
    pairs: &[(I, I)],
    config: &BlackBoxConfig,
) -> Result<StatisticalAudit>
where
    I: Sync,
    D: Fn(&I, &mut ChaCha8Rng, u64, &mut Vec<f64>) + Sync,
{
    let sample = |input: &I, stream: Stream, runs: u64| {
        let mut samples = draws::collect_chunks(
            config.seed,
            stream,
            runs,
            |rng, size, out: &mut Vec<f64>| {
                draw(input, rng, size, out);
            },
        );
        samples.retain(|o| !o.is_nan());
        samples.sort_by(f64::total_cmp);
        samples
    };
    audit(
        pairs,
        config,
        |pair, (a, b), scorer| {
            let (proposal, ranking) = scorer.stage.samples(pair, (a, b), sample);
            best_real_event(&proposal, &ranking, scorer)
        },
        |pair, (a, b), event| {
            let hits = |input: &I, side: u64| {
                draws::collect_chunks(
                    config.seed,
                    Stream::new(pair, side, CERTIFICATION),
                    config.runs,
                    |rng, size, out: &mut Hits| {
                        let mut outputs = Vec::with_capacity(size as usize);
                        draw(input, rng, size, &mut outputs);
                        out.0 += outputs.iter().filter(|&&o| event.contains_real(o)).count() as u64;
                    },
                )
                .0
            };
            (hits(a, 0), hits(b, 1))
        },
    )
}

/// StatDP's neighbouring query-answer patterns (Ding et al. 2018, §5, in the orientation
/// of StatDP's input generator, which DP-Sniper reuses): for answers of sensitivity 1 per
/// coordinate, the base vector of ones against one above, one below, one above and the
/// rest below, one below and the rest above, half above and half below (the first
/// `len/2` answers up), all above, all below, and the X shape. Duplicates (for short
/// vectors some patterns coincide) are listed once. `len` is the number of queries (at
/// least 1).
pub fn statdp_patterns(len: usize) -> Vec<(Vec<f64>, Vec<f64>)> {
    let len = len.max(1);
    let base = vec![1.0; len];
    let with = |f: &dyn Fn(usize) -> f64| (0..len).map(f).collect::<Vec<f64>>();
    let half = len / 2;
    let patterns = [
        with(&|i| if i == 0 { 2.0 } else { 1.0 }),
        with(&|i| if i == 0 { 0.0 } else { 1.0 }),
        with(&|i| if i == 0 { 2.0 } else { 0.0 }),
        with(&|i| if i == 0 { 0.0 } else { 2.0 }),
        with(&|i| if i < half { 2.0 } else { 0.0 }),
        with(&|_| 2.0),
        with(&|_| 0.0),
    ];
    let mut pairs: Vec<(Vec<f64>, Vec<f64>)> = Vec::new();
    let candidates = patterns
        .into_iter()
        .map(|p| (base.clone(), p))
        // X shape: the first half of the answers up by one and the rest down, against the
        // mirror image.
        .chain(std::iter::once((
            with(&|i| if i < half { 1.0 } else { 0.0 }),
            with(&|i| if i < half { 0.0 } else { 1.0 }),
        )));
    for pair in candidates {
        if pair.0 != pair.1 && !pairs.contains(&pair) {
            pairs.push(pair);
        }
    }
    pairs
}

/// The phases of an audit, part of every generator stream.
const PROPOSAL: u64 = 0;
const CERTIFICATION: u64 = 1;
const RANKING: u64 = 2;
const SCREEN_PROPOSAL: u64 = 3;
const SCREEN_RANKING: u64 = 4;

/// How many pairs per certified pair go on from screening to the full selection.
pub const FINALISTS_PER_CERTIFIED: usize = 2;

/// Runs per input of a selection or screening stage: at least 2 (one to propose, one to
/// rank) and at most [`MAX_TRIALS`].
fn check_stage_runs(runs: u64) -> Result<u64> {
    if runs < 2 {
        return Err(Error::TooFewSelectionRuns { runs });
    }
    if runs > MAX_TRIALS {
        return Err(Error::TooManyTrials { trials: runs });
    }
    Ok(runs)
}

/// One selection stage: runs per input for proposing and ranking, and their phases.
#[derive(Debug, Clone, Copy)]
struct Stage {
    proposal_runs: u64,
    ranking_runs: u64,
    proposal_phase: u64,
    ranking_phase: u64,
}

impl Stage {
    /// The proposal and ranking samples of pair `pair` at this stage, for `a` and for `b`,
    /// each drawn by `sample` on its own stream (so the two halves are independent).
    fn samples<I, T>(
        &self,
        pair: usize,
        (a, b): (&I, &I),
        sample: impl Fn(&I, Stream, u64) -> T,
    ) -> ((T, T), (T, T)) {
        let both = |phase: u64, runs: u64| {
            (
                sample(a, Stream::new(pair, 0, phase), runs),
                sample(b, Stream::new(pair, 1, phase), runs),
            )
        };
        (
            both(self.proposal_phase, self.proposal_runs),
            both(self.ranking_phase, self.ranking_runs),
        )
    }

    /// `runs` per input, the first half proposing and the rest ranking.
    fn new(runs: u64, proposal_phase: u64, ranking_phase: u64) -> Self {
        Stage {
            proposal_runs: runs / 2,
            ranking_runs: runs - runs / 2,
            proposal_phase,
            ranking_phase,
        }
    }
}

/// The generator stream of (pair, side, phase); chunk `c` uses stream `base + c`.
#[derive(Debug, Clone, Copy)]
struct Stream(u64);

impl Stream {
    /// Streams: 2^40 chunks per (pair, side, phase) are far more than [`MAX_TRIALS`] runs
    /// need, phases are below 8 and pairs below [`MAX_PAIRS`] = 2^20, so distinct triples
    /// never share a stream.
    fn new(pair: usize, side: u64, phase: u64) -> Self {
        Stream(((pair as u64) << 44) | (side << 43) | (phase << 40))
    }
}

/// What the selection stage computes from a pair's runs: (swapped, event, score).
type Candidate = (bool, Event, f64);

/// The shared driver: selects on every pair (through `select`), certifies the best
/// `certified_pairs` on fresh runs (through `certify`, which returns the hits of a and b).
fn audit<I, S, C>(
    pairs: &[(I, I)],
    config: &BlackBoxConfig,
    select: S,
    certify: C,
) -> Result<StatisticalAudit>
where
    S: Fn(usize, (&I, &I), &Scorer) -> Candidate,
    C: Fn(usize, (&I, &I), &Event) -> (u64, u64),
{
    if pairs.is_empty() {
        return Err(Error::NoPairs);
    }
    if pairs.len() > MAX_PAIRS {
        return Err(Error::TooManyDatasets {
            count: pairs.len() as u128,
            what: "neighbouring pairs",
            limit: MAX_PAIRS,
        });
    }
    let certified = config.certified_pairs.min(pairs.len());
    // Two one-sided bounds per certified pair, Bonferroni over all of them;
    // `clopper_pearson` is two-sided, so a one-sided level `level` is its confidence
    // `1 − 2·level`.
    let level = (1.0 - config.confidence) / (2.0 * certified as f64);
    let interval_confidence = 1.0 - 2.0 * level;
    let z = normal_quantile(1.0 - level);
    let scorer = |stage: Stage| Scorer {
        stage,
        runs: config.runs,
        z,
        delta: config.delta,
    };
    let select_pair = |index: usize, stage: Stage, finalist: bool| {
        let (a, b) = &pairs[index];
        let (swapped, event, score) = select(index, (a, b), &scorer(stage));
        PairSelection {
            pair: index,
            swapped,
            event,
            score,
            finalist,
        }
    };
    // The best `count` pairs by score (ties to the lower index), in input order.
    let best = |selection: &[PairSelection], count: usize| {
        let mut order: Vec<usize> = (0..selection.len()).collect();
        order.sort_by(|&x, &y| {
            selection[y]
                .score
                .total_cmp(&selection[x].score)
                .then(x.cmp(&y))
        });
        order.truncate(count);
        order.sort_unstable();
        order
    };
    let finalists = certified.saturating_mul(FINALISTS_PER_CERTIFIED);
    let screened = pairs.len() > finalists;
    let mut selection: Vec<PairSelection> = if screened {
        (0..pairs.len())
            .map(|index| select_pair(index, config.screening_stage(), false))
            .collect()
    } else {
        Vec::new()
    };
    let finalist_indices: Vec<usize> = if screened {
        best(&selection, finalists)
    } else {
        (0..pairs.len()).collect()
    };
    for &index in &finalist_indices {
        let entry = select_pair(index, config.selection_stage(), true);
        match selection.get_mut(index) {
            Some(slot) => *slot = entry,
            None => selection.push(entry),
        }
    }
    let finalist_selection: Vec<PairSelection> = finalist_indices
        .iter()
        .map(|&index| selection[index].clone())
        .collect();
    let order: Vec<usize> = best(&finalist_selection, certified)
        .into_iter()
        .map(|i| finalist_indices[i])
        .collect();
    let mut results = Vec::with_capacity(certified);
    for index in order {
        let chosen = &selection[index];
        let (a, b) = &pairs[index];
        let (hits_a, hits_b) = certify(index, (a, b), &chosen.event);
        let (hits_large, hits_small) = if chosen.swapped {
            (hits_b, hits_a)
        } else {
            (hits_a, hits_b)
        };
        let (large_lower, _) = clopper_pearson(hits_large, config.runs, interval_confidence)?;
        let (_, small_upper) = clopper_pearson(hits_small, config.runs, interval_confidence)?;
        results.push(PairAudit {
            pair: index,
            swapped: chosen.swapped,
            event: chosen.event.clone(),
            hits_large,
            hits_small,
            large_lower,
            small_upper,
            epsilon_lower_bound: epsilon_bound(large_lower, small_upper, config.delta),
        });
    }
    let screening_total = if screened {
        (pairs.len() as u64).saturating_mul(2 * config.screening_runs)
    } else {
        0
    };
    let total_runs = screening_total
        .saturating_add((finalist_indices.len() as u64).saturating_mul(2 * config.selection_runs))
        .saturating_add((certified as u64).saturating_mul(2 * config.runs));
    Ok(StatisticalAudit {
        epsilon_lower_bound: results
            .iter()
            .map(|r| r.epsilon_lower_bound)
            .fold(0.0, f64::max),
        confidence: config.confidence,
        delta: config.delta,
        runs: config.runs,
        selection_runs: config.selection_runs,
        screening_runs: if screened { config.screening_runs } else { 0 },
        total_runs,
        pairs: results,
        selection,
    })
}

/// `max(0, ln((large − δ)/small))`, with `+∞` when `small = 0 < large − δ`.
fn epsilon_bound(large: f64, small: f64, delta: f64) -> f64 {
    let numerator = large - delta;
    if numerator <= 0.0 {
        0.0
    } else if small <= 0.0 {
        f64::INFINITY
    } else {
        (numerator / small).ln().max(0.0)
    }
}

/// The standard normal quantile (for the projected bound; `1 − level` is in (1/2, 1)).
fn normal_quantile(p: f64) -> f64 {
    Normal::new(0.0, 1.0).map_or(3.0, |n| n.inverse_cdf(p.clamp(0.5, 1.0 - 1e-16)))
}

#[cfg(test)]
mod tests;
