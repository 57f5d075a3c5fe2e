//! The Rust side of the Python binding's speed check: times `ExponentialMechanism::select`
//! over 10^6 `f64` scores, the same scores and the same per-call seeding as
//! `examples/python/bench_exponential.py`, which runs this (release build) and Python's
//! `timeit` in one run and prints both medians.
//!
//! `cargo run --release -p privpac-py --example exponential_timing -- [N] [REPEATS]`

#![allow(clippy::print_stdout, reason = "a timing program prints its result")]

use std::time::Instant;

use privpac_accounting::Privacy;
use privpac_mechanisms::ExponentialMechanism;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The scores of the benchmark: `(i · 7919 mod 1000) / 10` (the Python script builds the
/// same array with numpy).
fn scores(n: usize) -> Vec<f64> {
    (0..n).map(|i| ((i * 7919) % 1000) as f64 / 10.0).collect()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().map_or(Ok(1_000_000), |a| a.parse())?;
    let repeats: usize = args.next().map_or(Ok(21), |a| a.parse())?;
    let scores = scores(n);
    let mechanism = ExponentialMechanism::new(Privacy::pure(1.0)?, 1.0)?;
    let mut times = Vec::with_capacity(repeats);
    let mut checksum = 0usize;
    for seed in 0..repeats as u64 {
        let started = Instant::now();
        checksum += mechanism.select(&scores, &mut ChaCha8Rng::seed_from_u64(seed))?;
        times.push(started.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    println!(
        "{{\"n\": {n}, \"repeats\": {repeats}, \"median_seconds\": {}, \"min_seconds\": {}, \"checksum\": {checksum}}}",
        times[repeats / 2],
        times[0]
    );
    Ok(())
}
