//! MWEM's default variant on skewed data: the accuracy target (max threshold error ≤ 0.03
//! at T = 20, ε = 1 on 20,000 exponential points over 1,024) and comparisons with an
//! independent, deliberately plain replaying MWEM written here (the REFERENCE below).
//!
//! The reference uses dense `f64` everywhere (boolean membership rows, continuous Laplace
//! noise, floating-point exponential-mechanism weights, no clamp on the step): it is what a
//! short numpy implementation of Hardt–Ligett–McSherry with "use all measurements" does,
//! and it shares no code with the crate beyond `max_query_error`.

use privpac_accounting::Privacy;
use privpac_classes::{ConceptClass, Thresholds};
use privpac_sanitizers::{
    DEFAULT_REPLAY_PASSES, Mwem, MwemVariant, Sanitizer, SyntheticDatabase, max_query_error,
};
use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

const DOMAIN: u64 = 1024;
const POINTS: usize = 20_000;
const DATA_SEED: u64 = 2026;

/// The data: `⌊Exp(mean 50)⌋` clipped to `[0, 1023]`, 20,000 points, seeded.
fn exponential_data(seed: u64) -> Vec<u64> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..POINTS)
        .map(|_| {
            let u: f64 = rng.random();
            ((-50.0 * (1.0 - u).ln()).floor() as u64).min(DOMAIN - 1)
        })
        .collect()
}

fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted[sorted.len() / 2]
}

// ---------------------------------------------------------------------------------------
// REFERENCE: a plain replaying MWEM over dense floats (independent of the crate).
// ---------------------------------------------------------------------------------------

/// `members[q][x] = [x ∈ query q]` for every concept of the class.
fn membership(class: &dyn ConceptClass) -> Vec<Vec<bool>> {
    let size = class.domain().size() as u64;
    (0..class.len() as u64)
        .map(|q| (0..size).map(|x| class.eval(q, x)).collect())
        .collect()
}

/// `Σ_{x ∈ q} A(x)`.
fn reference_answer(row: &[bool], histogram: &[f64]) -> f64 {
    row.iter()
        .zip(histogram)
        .filter(|(inside, _)| **inside)
        .map(|(_, a)| a)
        .sum()
}

/// HLM's update in fraction units, `A(x) ← A(x)·exp(q(x)·(m − q(A))/2)`, then normalize.
fn reference_update(row: &[bool], histogram: &mut [f64], target: f64) {
    let step = (target - reference_answer(row, histogram)) / 2.0;
    for (a, &inside) in histogram.iter_mut().zip(row) {
        if inside {
            *a *= step.exp();
        }
    }
    let total: f64 = histogram.iter().sum();
    histogram.iter_mut().for_each(|a| *a /= total);
}

/// One round's post-processing: the new measurement's update, then `passes` passes over
/// every measurement so far.
fn reference_round(
    members: &[Vec<bool>],
    histogram: &mut [f64],
    history: &[(usize, f64)],
    passes: usize,
) {
    let &(q, m) = history.last().unwrap();
    reference_update(&members[q], histogram, m);
    for _ in 0..passes {
        for &(q, m) in history {
            reference_update(&members[q], histogram, m);
        }
    }
}

/// Replays a given list of measurements (query index, noisy fraction) round by round and
/// returns the last histogram.
fn reference_replay(
    members: &[Vec<bool>],
    size: usize,
    measurements: &[(usize, f64)],
    passes: usize,
) -> Vec<f64> {
    let mut histogram = vec![1.0 / size as f64; size];
    for t in 1..=measurements.len() {
        reference_round(members, &mut histogram, &measurements[..t], passes);
    }
    histogram
}

/// The whole reference MWEM: per round, the exponential mechanism at ε/(2T) over all
/// queries (weights `exp(ε/(4T)·|n·q(A) − a_q|)`), a Laplace(2T/ε) count measurement, and
/// the replaying update. Returns the last histogram.
fn reference_mwem(
    members: &[Vec<bool>],
    data: &[u64],
    epsilon: f64,
    rounds: usize,
    passes: usize,
    rng: &mut dyn Rng,
) -> Vec<f64> {
    let size = members[0].len();
    let n = data.len() as f64;
    let truth: Vec<f64> = members
        .iter()
        .map(|row| data.iter().filter(|&&x| row[x as usize]).count() as f64)
        .collect();
    let mut histogram = vec![1.0 / size as f64; size];
    let mut history = Vec::new();
    let rate = epsilon / (4.0 * rounds as f64);
    for _ in 0..rounds {
        let scores: Vec<f64> = members
            .iter()
            .zip(&truth)
            .map(|(row, a)| (n * reference_answer(row, &histogram) - a).abs())
            .collect();
        let best = scores.iter().copied().fold(f64::MIN, f64::max);
        let weights: Vec<f64> = scores.iter().map(|s| (rate * (s - best)).exp()).collect();
        let mut u = rng.random::<f64>() * weights.iter().sum::<f64>();
        let mut q = weights.len() - 1;
        for (i, w) in weights.iter().enumerate() {
            if u < *w {
                q = i;
                break;
            }
            u -= w;
        }
        let scale = 2.0 * rounds as f64 / epsilon;
        let laplace = scale * ((1.0 - rng.random::<f64>()).ln() - (1.0 - rng.random::<f64>()).ln());
        history.push((q, (truth[q] + laplace) / n));
        reference_round(members, &mut histogram, &history, passes);
    }
    histogram
}

// ---------------------------------------------------------------------------------------

fn error(class: &Thresholds, data: &[u64], histogram: Vec<f64>) -> f64 {
    let synthetic = SyntheticDatabase::from_dense(class.domain(), histogram).unwrap();
    max_query_error(class, data, &synthetic).unwrap().0
}

#[test]
fn default_mwem_meets_the_target_on_skewed_data() {
    // Target: max threshold-query error ≤ 0.03 at T = 20, ε = 1. Checked on every one of 7
    // seeds of the algorithm (fixed seeds, so the test is deterministic). Tolerance story:
    // the seven errors are 0.006–0.013 with median 0.009 (over 25 seeds the worst was
    // 0.014), so 0.03 is more than twice the worst observed seed and 3× the median; a seed
    // above 0.03 would mean the replay stopped working, not bad luck.
    let class = Thresholds::new(DOMAIN).unwrap();
    let data = exponential_data(DATA_SEED);
    let mwem = Mwem::new(Privacy::pure(1.0).unwrap(), 20).unwrap();
    assert_eq!(
        mwem.variant(),
        MwemVariant::Replay {
            passes: DEFAULT_REPLAY_PASSES
        }
    );
    assert_eq!(mwem.name(), "mwem(T=20, replay×100)");
    let errors: Vec<f64> = (0..7)
        .map(|seed| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            // The path the CLI takes: `Sanitizer::sanitize` with every threshold as a query.
            let synthetic = mwem.sanitize(&class, &data, &mut rng).unwrap();
            max_query_error(&class, &data, &synthetic).unwrap().0
        })
        .collect();
    for (seed, &e) in errors.iter().enumerate() {
        assert!(e <= 0.03, "seed {seed}: max error {e} > 0.03 ({errors:?})");
    }
    // The theory variant on the same data and seeds, for contrast: its average of iterates
    // is an order of magnitude worse (about 0.35), which is why it is not the default.
    let theory = mwem.with_variant(MwemVariant::AverageOfIterates).unwrap();
    assert_eq!(theory.name(), "mwem(T=20, average of iterates)");
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let synthetic = theory.sanitize(&class, &data, &mut rng).unwrap();
    let (theory_error, _) = max_query_error(&class, &data, &synthetic).unwrap();
    assert!(
        theory_error > 3.0 * median(&errors),
        "{theory_error} vs {errors:?}"
    );
}

#[test]
fn replay_matches_the_reference_on_the_same_measurements() {
    // Given the same released measurements, the crate's post-processing and the
    // reference's must produce the same histogram (replay is deterministic); only the
    // summation order and the crate's clamp of the step to [−1, 1] (which does not bind at
    // this n) differ. So the error ratio must be within 1.2× — in fact it is 1 up to
    // rounding — at every T, with no statistical tolerance needed.
    let class = Thresholds::new(DOMAIN).unwrap();
    let data = exponential_data(DATA_SEED);
    let members = membership(&class);
    let queries: Vec<u64> = (0..DOMAIN).collect();
    let n = data.len() as f64;
    for rounds in [10usize, 20, 40] {
        let mwem = Mwem::new(Privacy::pure(1.0).unwrap(), rounds).unwrap();
        for seed in 0..3 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let run = mwem.run(&class, &queries, &data, &mut rng).unwrap();
            let measurements: Vec<(usize, f64)> = run
                .measured
                .iter()
                .zip(&run.measurements)
                .map(|(&q, &m)| (q as usize, m as f64 / n))
                .collect();
            let reference = reference_replay(
                &members,
                DOMAIN as usize,
                &measurements,
                DEFAULT_REPLAY_PASSES,
            );
            for q in [0u64, 50, 100, 200, 1000] {
                let ours = run.synthetic.answer(&class, q);
                let theirs = reference_answer(&members[q as usize], &reference);
                assert!(
                    (ours - theirs).abs() < 1e-9,
                    "T = {rounds}, seed {seed}, query {q}: {ours} vs {theirs}"
                );
            }
            let ours = max_query_error(&class, &data, &run.synthetic).unwrap().0;
            let theirs = error(&class, &data, reference);
            assert!(
                ours <= 1.2 * theirs,
                "T = {rounds}, seed {seed}: {ours} > 1.2 × {theirs}"
            );
        }
    }
}

#[test]
fn default_mwem_is_within_1_2x_of_the_reference_mwem() {
    // End to end, each algorithm with its own randomness: the crate (exact integer noise,
    // integer scores, measured queries excluded from selection) against the reference
    // (continuous noise, float scores, selection over all queries), both replaying with
    // DEFAULT_REPLAY_PASSES passes and returning the last histogram, compared on the
    // median over 25 seeds at each T. Tolerance story: single-seed errors range from about
    // 0.5× to 1.8× their median (standard deviation about 20%), so each median of 25 has a
    // standard error of about 5% and the ratio of two medians about 7%. The observed ratios
    // crate/reference are 0.96 (T = 10: 0.0116 vs 0.0120), 0.99 (T = 20: 0.0100 vs
    // 0.0102) and 1.02 (T = 40: 0.0114 vs 0.0112), so 1.2× is at least 2.5 standard errors
    // above each; the fixed seeds make the test deterministic.
    let class = Thresholds::new(DOMAIN).unwrap();
    let data = exponential_data(DATA_SEED);
    let members = membership(&class);
    for rounds in [10usize, 20, 40] {
        let mwem = Mwem::new(Privacy::pure(1.0).unwrap(), rounds).unwrap();
        let mut ours = Vec::new();
        let mut theirs = Vec::new();
        for seed in 0..25 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let synthetic = mwem.sanitize(&class, &data, &mut rng).unwrap();
            ours.push(max_query_error(&class, &data, &synthetic).unwrap().0);
            let mut rng = ChaCha8Rng::seed_from_u64(1000 + seed);
            let histogram = reference_mwem(
                &members,
                &data,
                1.0,
                rounds,
                DEFAULT_REPLAY_PASSES,
                &mut rng,
            );
            theirs.push(error(&class, &data, histogram));
        }
        let (ours_median, theirs_median) = (median(&ours), median(&theirs));
        assert!(
            ours_median <= 1.2 * theirs_median,
            "T = {rounds}: crate {ours_median} ({ours:?}) > 1.2 × reference {theirs_median} ({theirs:?})"
        );
    }
}
