//! The PLD accountant's corners of issue 37 §6, one per run, for timing on a release build:
//!
//! ```text
//! cargo build --release -p privpac-accounting --example pld_corners
//! /usr/bin/time -v target/release/examples/pld_corners CORNER
//! ```
//!
//! `CORNER` is one of `near-ed-own` (an (ε, δ) = (1, 10⁻³) step at rate `1 − 2⁻⁵³`,
//! δ′ = 10⁻¹⁰), `near-ed` ((0.1, 10⁻⁹) at that rate, δ′ = 10⁻⁶), `mixed-near-one`
//! (`eps-delta:45` and `eps-delta:44` at δ′ = 0.999999), `dl-mid` (24 distinct discrete
//! Laplace steps of sensitivity 24..=47 at rate 0.01, ×10, δ′ = 10⁻⁶: steps of at most 48
//! cells, which the spectrum evaluates directly) and `corner` (64 distinct discrete Laplace
//! steps of sensitivity 1, 4, …, 190 at rate 0.01, δ′ = 10⁻⁶). It prints the bounds and the
//! time `pld_steps_bounds` took.

#![allow(clippy::print_stdout, reason = "a timing program prints its result")]

use privpac_accounting::{PldStep, Privacy, pld_steps_bounds};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let corner = std::env::args().nth(1).unwrap_or_default();
    let largest_below_one = 1.0 - f64::EPSILON / 2.0;
    let laplace = |sensitivities: &mut dyn Iterator<Item = u64>, copies: usize| {
        let mut steps = Vec::new();
        for s in sensitivities {
            let step = PldStep::discrete_laplace(1.0, s)?.poisson_subsampled(0.01)?;
            steps.extend(std::iter::repeat_n(step, copies));
        }
        Ok::<_, privpac_accounting::Error>(steps)
    };
    let (steps, delta_prime) = match corner.as_str() {
        "near-ed-own" => (
            vec![PldStep::private(Privacy::new(1.0, 1e-3)?).poisson_subsampled(largest_below_one)?],
            1e-10,
        ),
        "near-ed" => (
            vec![PldStep::private(Privacy::new(0.1, 1e-9)?).poisson_subsampled(largest_below_one)?],
            1e-6,
        ),
        "mixed-near-one" => (
            vec![
                PldStep::private(Privacy::pure(45.0)?),
                PldStep::private(Privacy::pure(44.0)?),
            ],
            0.999999,
        ),
        "dl-mid" => (laplace(&mut (24..=47), 10)?, 1e-6),
        "corner" => (laplace(&mut (0..64).map(|i| 1 + 3 * i), 1)?, 1e-6),
        other => {
            return Err(format!(
                "unknown corner {other:?}: near-ed-own, near-ed, mixed-near-one, dl-mid or corner"
            )
            .into());
        }
    };
    let start = std::time::Instant::now();
    let b = pld_steps_bounds(&steps, delta_prime, None)?;
    println!(
        "{corner}: [{}, {}] at delta {} (grid {}, limited by {:?}) in {:?}",
        b.lower,
        b.upper,
        b.delta,
        b.interval,
        b.limited_by,
        start.elapsed()
    );
    Ok(())
}
