//! Shared pieces of the criterion benches: the criterion configuration, seeded input
//! generators, and naive reference implementations that the fast paths are compared
//! against in the same run.
//!
//! Bench ids follow one convention so that `cargo xtask bench` can print ratios: within a
//! group and size, `reference` or `naive` is the baseline and every other id is compared
//! with it.

use std::time::Duration;

use criterion::Criterion;
use privpac_classes::{ConceptClass, Domain, LabeledSample, Point};
use privpac_mechanisms::ScoreLevel;
use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The criterion configuration of every bench: short enough for a 2-core machine, long
/// enough for stable medians.
pub fn config() -> Criterion {
    Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
}

/// The documented seed of every generated input. Inputs and bench generators are
/// `ChaCha8Rng` streams of it (a specified algorithm, so the inputs are the same with
/// every `rand` version; `StdRng` does not promise that).
pub const INPUT_SEED: u64 = 0x9e37_79b9_7f4a_7c15;

/// `n` integer scores `-(mistakes)` with mistakes uniform in `0..max_mistakes`: the error
/// profile of a class of `n` concepts on a sample of `max_mistakes` points, roughly.
pub fn error_count_scores(n: usize, max_mistakes: i64) -> Vec<i64> {
    let mut rng = ChaCha8Rng::seed_from_u64(INPUT_SEED);
    (0..n).map(|_| -rng.random_range(0..max_mistakes)).collect()
}

/// Scores where one candidate dominates: all `-10^6` except index 0 at 0 (the case that
/// makes rejection samplers slow).
pub fn dominated_scores(n: usize) -> Vec<i64> {
    let mut scores = vec![-1_000_000; n];
    scores[0] = 0;
    scores
}

/// Groups integer scores into levels (one per distinct score), as an error-profile fast
/// path would produce them.
pub fn levels_of(scores: &[i64]) -> Vec<ScoreLevel> {
    let mut sorted = scores.to_vec();
    sorted.sort_unstable();
    let mut levels: Vec<ScoreLevel> = Vec::new();
    for score in sorted {
        match levels.last_mut() {
            Some(level) if level.score == score => level.count += 1,
            _ => levels.push(ScoreLevel { score, count: 1 }),
        }
    }
    levels
}

/// The naive exponential mechanism: exponentiate every score relative to the maximum,
/// normalize, draw one floating-point uniform and scan the cumulative sum. Fast and simple,
/// but its small probabilities are quantized to multiples of about 2^-53 and it has no
/// error analysis: the reference the privacy-safe sampler is measured against.
pub fn naive_exponential<R: Rng + ?Sized>(scores: &[i64], epsilon: f64, rng: &mut R) -> usize {
    let lambda = epsilon / 2.0;
    let best = scores.iter().copied().max().unwrap_or(0);
    let weights: Vec<f64> = scores
        .iter()
        .map(|&s| (lambda * (s - best) as f64).exp())
        .collect();
    let total: f64 = weights.iter().sum();
    let mut target = rng.random::<f64>() * total;
    for (index, weight) in weights.iter().enumerate() {
        if target < *weight {
            return index;
        }
        target -= weight;
    }
    scores.len() - 1
}

/// A fresh seeded generator for a bench iteration.
pub fn bench_rng() -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(INPUT_SEED ^ 1)
}

/// The first `len` concepts of a class: lets a brute-force reference be measured on a slice
/// of a class too large to score in full within a bench (its cost is linear in |C|, so the
/// full reference takes `|C| / len` times as long).
#[derive(Debug)]
pub struct FirstConcepts<'c> {
    /// The class sliced.
    pub class: &'c dyn ConceptClass,
    /// How many concepts to keep.
    pub len: u64,
}

impl ConceptClass for FirstConcepts<'_> {
    fn domain(&self) -> &Domain {
        self.class.domain()
    }

    fn len(&self) -> u128 {
        u128::from(self.len).min(self.class.len())
    }

    fn eval(&self, id: u64, x: Point) -> bool {
        self.class.eval(id, x)
    }

    fn name(&self) -> String {
        format!("first {} of {}", self.len, self.class.name())
    }
}

/// `n` seeded examples labeled by concept `target` of `class`, points uniform over a domain
/// of `domain_size` points (indices, or hypercube points below `domain_size`).
pub fn labeled_sample(
    class: &dyn ConceptClass,
    target: u64,
    domain_size: u64,
    n: usize,
) -> LabeledSample {
    let mut rng = ChaCha8Rng::seed_from_u64(INPUT_SEED ^ 2);
    let pairs: Vec<(u64, bool)> = (0..n)
        .map(|_| {
            let x = rng.random_range(0..domain_size);
            (x, class.eval(target, x))
        })
        .collect();
    LabeledSample::from_pairs(class.domain(), &pairs).expect("points lie in the domain")
}
