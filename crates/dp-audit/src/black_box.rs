//! Black-box statistical auditing: a certified lower bound on the ε of any randomized
//! algorithm, from its samples on chosen neighbouring inputs.
//!
//! The method is the common core of StatDP (Ding et al., CCS 2018), DP-Sniper (Bichsel et
//! al., S&P 2021) and DP-Auditorium (Google, 2024): for a neighbouring pair (a, b) and an
//! output event E, an (ε, δ)-DP algorithm satisfies `P[M(a) ∈ E] ≤ e^ε·P[M(b) ∈ E] + δ`, so
//! a lower confidence bound `p̲_a` on `P[M(a) ∈ E]` and an upper one `p̄_b` on
//! `P[M(b) ∈ E]` give the lower bound `ε ≥ ln((p̲_a − δ)/p̄_b)`.
//!
//! **Selection is kept apart from certification.** For each pair the algorithm runs
//! `runs` times on each input to *propose* candidate events, `runs` more times to *rank*
//! them (a candidate proposed and scored on the same runs would favour rare outputs that
//! happened to fall on one side), and picks the event and direction (a→b or b→a) that
//! looks most violating; then it runs `runs` fresh times on each input to *certify* that
//! one event with exact Clopper–Pearson bounds. Events are never certified on the data that
//! chose them, so the only multiplicity is one event per pair: each of the `2·P` one-sided
//! bounds (P pairs) is taken at level `(1 − confidence)/(2P)` (Bonferroni), and with
//! probability at least `confidence` *all* reported bounds hold at once. Hence the reported
//! [`StatisticalAudit::epsilon_lower_bound`] exceeds the algorithm's true ε with probability
//! at most `1 − confidence`, whatever the algorithm: a correct mechanism raises a false
//! alarm at most that often.
//!
//! Candidate events: for finite outputs ([`audit_finite`]), every single value and the
//! top sets (values sorted by their estimated likelihood ratio, every prefix); for
//! real outputs ([`audit_real`]), the half-lines `{o ≤ t}`, `{o > t}` and the intervals
//! `[t_i, t_j)` between quantiles of the pooled selection samples.
//!
//! Runs are split into fixed chunks whose generators are derived from the seed, the pair,
//! the input, the phase and the chunk index (ChaCha8 streams), so results do not depend on
//! the number of threads.

use std::collections::HashMap;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::statistical::{MAX_TRIALS, clopper_pearson};

/// Runs per generator chunk (fixed, so results do not depend on the thread count).
const CHUNK: u64 = 4096;

/// Quantile grid used for the threshold events of real outputs.
const THRESHOLD_GRID: usize = 256;

/// Quantile grid used for the interval events of real outputs (`O(grid²)` intervals).
const INTERVAL_GRID: usize = 48;

/// The normal quantile of the Wilson bounds in the (uncertified) ranking score.
const SELECTION_Z: f64 = 2.576;

/// How to audit: runs per input and phase, confidence, δ and seed.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct BlackBoxConfig {
    /// Runs of the algorithm on each input of each pair, in each phase (proposal, ranking
    /// and certification): `6·runs` runs per pair in all.
    pub runs: u64,
    /// The probability that every reported bound holds (for example 0.95).
    pub confidence: f64,
    /// The δ at which ε is bounded (0 for pure differential privacy).
    pub delta: f64,
    /// The master seed.
    pub seed: u64,
}

impl BlackBoxConfig {
    /// Validates a configuration with δ = 0.
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

/// The outcome of a black-box audit.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct StatisticalAudit {
    /// The largest certified lower bound on ε over all pairs (0 when none is positive).
    /// With probability at least [`Self::confidence`] it does not exceed the true ε.
    pub epsilon_lower_bound: f64,
    /// The simultaneous confidence of all bounds.
    pub confidence: f64,
    /// The δ the bound is for.
    pub delta: f64,
    /// Runs per input and phase.
    pub runs: u64,
    /// One entry per pair, in input order.
    pub pairs: Vec<PairAudit>,
}

impl StatisticalAudit {
    /// Whether the audit refutes a claimed ε (at the audited δ): the certified lower bound
    /// exceeds it.
    pub fn refutes(&self, claimed_epsilon: f64) -> bool {
        self.epsilon_lower_bound > claimed_epsilon
    }

    /// A certified lower bound on δ(ε) at `epsilon`, valid at the same confidence:
    /// `max(0, max_pairs (p̲_large − e^ε·p̄_small))`.
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
/// [`Error::NoPairs`] for an empty pair list; the errors of [`clopper_pearson`].
///
/// # Example
/// Randomized response claiming ε = 0.5 but flipping with the probability of ε = 1 is
/// caught; the correct one is not.
/// ```
/// use dp_audit::black_box::{BlackBoxConfig, audit_finite};
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
/// # Ok::<(), dp_audit::Error>(())
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
    audit(pairs, config, |pair, (a, b)| {
        let count = |input: &I, side: u64, phase: u64| {
            collect(
                config,
                pair,
                side,
                phase,
                |rng, out: &mut HashMap<u64, u64>| {
                    *out.entry(mechanism(input, rng)).or_insert(0) += 1;
                },
            )
        };
        let proposal = (count(a, 0, 0), count(b, 1, 0));
        let ranking = (count(a, 0, 2), count(b, 1, 2));
        let (swapped, event) = best_finite_event(&proposal, &ranking, config)?;
        let (cert_a, cert_b) = (count(a, 0, 1), count(b, 1, 1));
        let Event::Values(values) = &event else {
            return Err(Error::NoPairs); // unreachable: finite events are value sets
        };
        let hits = |counts: &HashMap<u64, u64>| -> u64 {
            values
                .iter()
                .map(|v| counts.get(v).copied().unwrap_or(0))
                .sum()
        };
        Ok((swapped, event.clone(), hits(&cert_a), hits(&cert_b)))
    })
}

/// Audits an algorithm with real-valued outputs on the given neighbouring pairs, with
/// threshold and interval events. `mechanism(input, rng)` runs the algorithm once; NaN
/// outputs fall in no event.
///
/// # Errors
/// [`Error::NoPairs`] for an empty pair list; the errors of [`clopper_pearson`].
///
/// # Example
/// A Laplace mechanism for a sensitivity-1 count claiming ε = 1 but adding noise of scale
/// 1/2 (so ε = 2) is caught.
/// ```
/// use dp_audit::black_box::{BlackBoxConfig, audit_real};
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
/// # Ok::<(), dp_audit::Error>(())
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
    audit(pairs, config, |pair, (a, b)| {
        let draw = |input: &I, side: u64, phase: u64| {
            let mut samples = collect(config, pair, side, phase, |rng, out: &mut Vec<f64>| {
                out.push(mechanism(input, rng));
            });
            samples.retain(|o| !o.is_nan());
            samples.sort_by(f64::total_cmp);
            samples
        };
        let proposal = (draw(a, 0, 0), draw(b, 1, 0));
        let ranking = (draw(a, 0, 2), draw(b, 1, 2));
        let (swapped, event) = best_real_event(&proposal, &ranking, config)?;
        let (cert_a, cert_b) = (draw(a, 0, 1), draw(b, 1, 1));
        let hits = |samples: &[f64]| samples.iter().filter(|&&o| event.contains_real(o)).count();
        Ok((
            swapped,
            event.clone(),
            hits(&cert_a) as u64,
            hits(&cert_b) as u64,
        ))
    })
}

/// StatDP's neighbouring query-answer patterns (Ding et al. 2018, §5): for answers of
/// sensitivity 1 per coordinate, the base vector of ones against one above, one below, one
/// above and the rest below, one below and the rest above, half and half, all above, all
/// below, and the X shape. `len` is the number of queries (at least 1).
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
        with(&|i| if i < half { 0.0 } else { 2.0 }),
        with(&|_| 2.0),
        with(&|_| 0.0),
    ];
    let mut pairs: Vec<(Vec<f64>, Vec<f64>)> =
        patterns.into_iter().map(|p| (base.clone(), p)).collect();
    // X shape: the first half of the answers up by one and the rest down, against the
    // mirror image.
    pairs.push((
        with(&|i| if i < half { 1.0 } else { 0.0 }),
        with(&|i| if i < half { 0.0 } else { 1.0 }),
    ));
    pairs.dedup();
    pairs
}

/// The shared driver: selects and counts per pair (through `run_pair`), then certifies.
fn audit<I, F>(pairs: &[(I, I)], config: &BlackBoxConfig, run_pair: F) -> Result<StatisticalAudit>
where
    F: Fn(u64, (&I, &I)) -> Result<(bool, Event, u64, u64)>,
{
    if pairs.is_empty() {
        return Err(Error::NoPairs);
    }
    // Two one-sided bounds per pair, Bonferroni over all of them; `clopper_pearson` is
    // two-sided, so a one-sided level `level` is its confidence `1 − 2·level`.
    let level = (1.0 - config.confidence) / (2.0 * pairs.len() as f64);
    let interval_confidence = 1.0 - 2.0 * level;
    let mut results = Vec::with_capacity(pairs.len());
    for (index, (a, b)) in pairs.iter().enumerate() {
        let (swapped, event, hits_a, hits_b) = run_pair(index as u64, (a, b))?;
        let (hits_large, hits_small) = if swapped {
            (hits_b, hits_a)
        } else {
            (hits_a, hits_b)
        };
        let (large_lower, _) = clopper_pearson(hits_large, config.runs, interval_confidence)?;
        let (_, small_upper) = clopper_pearson(hits_small, config.runs, interval_confidence)?;
        results.push(PairAudit {
            pair: index,
            swapped,
            event,
            hits_large,
            hits_small,
            large_lower,
            small_upper,
            epsilon_lower_bound: epsilon_bound(large_lower, small_upper, config.delta),
        });
    }
    Ok(StatisticalAudit {
        epsilon_lower_bound: results
            .iter()
            .map(|r| r.epsilon_lower_bound)
            .fold(0.0, f64::max),
        confidence: config.confidence,
        delta: config.delta,
        runs: config.runs,
        pairs: results,
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

/// Runs `config.runs` draws in fixed chunks in parallel and merges the chunk results in
/// chunk order; chunk `c` of (pair, side, phase) uses its own ChaCha8 stream.
fn collect<T, F>(config: &BlackBoxConfig, pair: u64, side: u64, phase: u64, draw: F) -> T
where
    T: Default + Send + Merge,
    F: Fn(&mut ChaCha8Rng, &mut T) + Sync,
{
    let chunks = config.runs.div_ceil(CHUNK);
    let parts: Vec<T> = (0..chunks)
        .into_par_iter()
        .map(|chunk| {
            let mut rng = ChaCha8Rng::seed_from_u64(config.seed);
            // Streams: 2^40 chunks per (pair, side, phase) are far more than MAX_TRIALS
            // runs need, so distinct triples never share a stream.
            rng.set_stream((pair << 43) | (side << 42) | (phase << 40) | chunk);
            let size = CHUNK.min(config.runs - chunk * CHUNK);
            let mut out = T::default();
            for _ in 0..size {
                draw(&mut rng, &mut out);
            }
            out
        })
        .collect();
    let mut total = T::default();
    for part in parts {
        total.merge(part);
    }
    total
}

/// Combining chunk results in order.
trait Merge {
    fn merge(&mut self, other: Self);
}

impl Merge for HashMap<u64, u64> {
    fn merge(&mut self, other: Self) {
        for (value, count) in other {
            *self.entry(value).or_insert(0) += count;
        }
    }
}

impl Merge for Vec<f64> {
    fn merge(&mut self, other: Self) {
        self.extend(other);
    }
}

/// The (uncertified) ranking score of an event hit `large` and `small` times in `runs`
/// runs per side: `ln((p̲ − δ)/p̄)` with Wilson score bounds, which, unlike a plain normal
/// approximation, keep rare events (a handful of hits) from looking violating.
fn selection_score(large: u64, small: u64, runs: u64, delta: f64) -> f64 {
    let low = wilson(large, runs, -SELECTION_Z);
    let high = wilson(small, runs, SELECTION_Z);
    if low - delta <= 0.0 {
        f64::NEG_INFINITY
    } else {
        ((low - delta) / high).ln()
    }
}

/// The Wilson score bound for `hits` in `runs` (lower for `z < 0`, upper for `z > 0`).
fn wilson(hits: u64, runs: u64, z: f64) -> f64 {
    let n = runs as f64;
    let p = hits as f64 / n;
    let z2 = z * z;
    let center = p + z2 / (2.0 * n);
    let spread = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((center + spread) / (1.0 + z2 / n)).clamp(0.0, 1.0)
}

type Counts = HashMap<u64, u64>;

/// The best single value or top set, in either direction: candidates from the proposal
/// counts, ranked on the ranking counts.
fn best_finite_event(
    proposal: &(Counts, Counts),
    ranking: &(Counts, Counts),
    config: &BlackBoxConfig,
) -> Result<(bool, Event)> {
    let (a, b) = proposal;
    let mut values: Vec<u64> = a.keys().chain(b.keys()).copied().collect();
    values.sort_unstable();
    values.dedup();
    let count = |m: &Counts, v: u64| m.get(&v).copied().unwrap_or(0);
    let mut best = (f64::NEG_INFINITY, false, Event::Values(vec![]));
    for swapped in [false, true] {
        let (large, small) = if swapped { (b, a) } else { (a, b) };
        let (rank_large, rank_small) = if swapped {
            (&ranking.1, &ranking.0)
        } else {
            (&ranking.0, &ranking.1)
        };
        // Values by decreasing smoothed likelihood ratio on the proposal runs; every
        // prefix is a candidate, and so is every single value.
        let mut order = values.clone();
        let ratio = |v: u64| (count(large, v) as f64 + 1.0) / (count(small, v) as f64 + 1.0);
        order.sort_by(|&x, &y| ratio(y).total_cmp(&ratio(x)).then(x.cmp(&y)));
        let (mut hits_large, mut hits_small) = (0, 0);
        for (i, &v) in order.iter().enumerate() {
            let (vl, vs) = (count(rank_large, v), count(rank_small, v));
            hits_large += vl;
            hits_small += vs;
            let prefix = selection_score(hits_large, hits_small, config.runs, config.delta);
            if prefix > best.0 {
                best = (prefix, swapped, Event::Values(order[..=i].to_vec()));
            }
            let single = selection_score(vl, vs, config.runs, config.delta);
            if single > best.0 {
                best = (single, swapped, Event::Values(vec![v]));
            }
        }
    }
    if best.0 == f64::NEG_INFINITY {
        // Nothing looks violating: certify the most frequent value of the first input.
        let fallback = values
            .iter()
            .copied()
            .max_by_key(|&v| count(a, v))
            .unwrap_or(0);
        return Ok((false, Event::Values(vec![fallback])));
    }
    Ok((best.1, best.2))
}

/// The best half-line or interval between quantiles of the pooled proposal samples, in
/// either direction, ranked on the ranking samples (all sorted).
fn best_real_event(
    proposal: &(Vec<f64>, Vec<f64>),
    ranking: &(Vec<f64>, Vec<f64>),
    config: &BlackBoxConfig,
) -> Result<(bool, Event)> {
    let mut pooled: Vec<f64> = proposal.0.iter().chain(&proposal.1).copied().collect();
    pooled.sort_by(f64::total_cmp);
    pooled.dedup();
    if pooled.is_empty() {
        return Ok((false, Event::AtMost(0.0)));
    }
    let quantiles = |grid: usize| -> Vec<f64> {
        let mut q: Vec<f64> = (0..=grid)
            .map(|i| pooled[(i * (pooled.len() - 1)) / grid])
            .collect();
        q.dedup();
        q
    };
    let (a, b) = (&ranking.0, &ranking.1);
    // Number of samples ≤ t and < t (sorted input).
    let at_most = |s: &[f64], t: f64| s.partition_point(|&o| o <= t) as u64;
    let below = |s: &[f64], t: f64| s.partition_point(|&o| o < t) as u64;
    let mut best = (f64::NEG_INFINITY, false, Event::AtMost(pooled[0]));
    let mut consider = |score: f64, swapped: bool, event: Event| {
        if score > best.0 {
            best = (score, swapped, event);
        }
    };
    let runs = config.runs;
    let delta = config.delta;
    for t in quantiles(THRESHOLD_GRID) {
        let (la, lb) = (at_most(a, t), at_most(b, t));
        let (ua, ub) = (a.len() as u64 - la, b.len() as u64 - lb);
        consider(
            selection_score(la, lb, runs, delta),
            false,
            Event::AtMost(t),
        );
        consider(selection_score(lb, la, runs, delta), true, Event::AtMost(t));
        consider(selection_score(ua, ub, runs, delta), false, Event::Above(t));
        consider(selection_score(ub, ua, runs, delta), true, Event::Above(t));
    }
    let grid = quantiles(INTERVAL_GRID);
    for (i, &low) in grid.iter().enumerate() {
        for &high in &grid[i + 1..] {
            let ia = below(a, high) - below(a, low);
            let ib = below(b, high) - below(b, low);
            let event = || Event::Interval { low, high };
            consider(selection_score(ia, ib, runs, delta), false, event());
            consider(selection_score(ib, ia, runs, delta), true, event());
        }
    }
    Ok((best.1, best.2))
}

#[cfg(test)]
mod tests;
