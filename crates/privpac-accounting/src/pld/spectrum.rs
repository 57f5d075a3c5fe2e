//! The composed spectrum of one direction's discretized steps and its inverse transform,
//! with rigorous bounds on their floating-point errors: each distinct step transformed once
//! (directly for few cells, by the `fft` module otherwise) and raised to its count by
//! squaring, frequencies settling at 0 once negligible; the inverse bounded in ℓ². The
//! derivations are in the `fast` module's docs, which use these.

use super::fft::{Complex, Twiddles, UNIT, fft, grow, transform_error};
use super::pieces::Discretized;

/// The absolute slack added to every bound for results that underflow: at least the
/// `N·2⁻⁹⁸⁰` of the `fft` module's docs for every transform length allowed
/// (N ≤ 2^22: 2^22·2⁻⁹⁸⁰ ≈ 4·10⁻²⁸⁹).
pub(super) const UNDERFLOW_SLACK: f64 = 1e-280;

/// Powers below this are set to 0 with their modulus bound as the error.
pub(super) const TINY: f64 = 1e-250;

/// The transform of the composition of `steps` (one direction) at frequencies
/// `0..=N/2`, with a bound on each value's error (frequencies settle at 0 once negligible: see
/// the `fast` module's docs).
pub(super) fn composed_spectrum(
    steps: &[(Discretized, u64)],
    twiddles: &Twiddles,
) -> (Vec<Complex>, Vec<f64>) {
    // The most repeated steps first: their powers settle the most frequencies soonest.
    let mut order: Vec<&(Discretized, u64)> = steps.iter().collect();
    order.sort_by_key(|step| std::cmp::Reverse(step.1));
    let steps = order;
    let n = twiddles.len();
    let half = n / 2;
    let mut acc = vec![Complex::new(1.0, 0.0); half + 1];
    let mut err = vec![0.0f64; half + 1];
    let sqrt5u = 5f64.sqrt() * UNIT * 1.0001;
    let mut scratch: Vec<Complex> = Vec::new();
    let supports: Vec<Vec<(u64, f64)>> = steps
        .iter()
        .map(|(d, _)| {
            d.masses
                .iter()
                .enumerate()
                .filter(|(_, p)| **p > 0.0)
                .map(|(i, &p)| ((d.first + i as i64).rem_euclid(n as i64) as u64, p))
                .collect()
        })
        .collect();
    // ‖x‖₁ of each step's cells, rounded up.
    let norms: Vec<f64> = supports
        .iter()
        .map(|s| s.iter().map(|t| t.1).sum::<f64>() * (1.0 + (s.len() as f64 + 2.0) * UNIT))
        .collect();
    // `after[i]` bounds `Π_{t ≥ i} ‖x_t‖₁^{k_t}`, which bounds the modulus of the exact
    // transform of the steps from i on at every frequency.
    let mut after = vec![1.0f64; steps.len() + 1];
    for i in (0..steps.len()).rev() {
        let factor = (steps[i].1 as f64 * norms[i].ln()).exp() * (1.0 + 1e-9);
        after[i] = after[i + 1] * factor * (1.0 + 2.0 * UNIT);
    }
    // Frequencies whose accumulated value is still above TINY (with its error); the others
    // are settled at 0 with an error that bounds the exact product of all the steps there.
    let mut live: Vec<u32> = (0..=half as u32).collect();
    for (index, (&&(_, k), nonzero)) in steps.iter().zip(&supports).enumerate() {
        let norm = norms[index];
        // Direct evaluation at the live frequencies when that is cheaper than a transform of
        // the whole length (few frequencies left unsettled), and always for at most 48 cells:
        // there the direct sum's error (μ + m·u per unit of ‖x‖₁) is below the transform's,
        // and raised to the step's count that difference shows in the bounds. Measured (issue
        // 37 §6) with `/usr/bin/time -v target/release/examples/pld_corners dl-mid` (24
        // distinct discrete Laplace steps of sensitivity 24..=47 at rate 0.01, ×10,
        // δ′ = 10⁻⁶; `corner` for the 64 steps), release builds with and without the
        // clause: dropping it took 0.76 s of CPU instead of 1.02 s but widened the bounds
        // from [393.9383, 393.9849] to [393.9253, 393.9975] on the same grid (the reported ε
        // rose); the 64-step corner went from 2.05 s to 1.73 s with its upper bound up from
        // 823.5838 to 823.5862. A worse reported ε for a quarter of the time does not pay, so
        // the clause stays.
        let direct = nonzero.len() <= 48
            || (live.len() as f64) * (nonzero.len() as f64)
                < 0.5 * n as f64 * f64::from(twiddles.levels());
        // Error of each forward value, per unit of ‖x‖₁.
        let forward = if direct {
            // Σ p·ŵ over m terms: |pŵ − pw| ≤ pμ, the real-by-complex product rounds each
            // component (≤ u·p|ŵ|), and recursive summation adds ≤ (m − 1)u·Σ p|ŵ|; with
            // |ŵ| ≤ 1 + μ, at most (μ + m·u(1 + μ))(1 + mu) per unit of ‖x‖₁.
            let m = nonzero.len() as f64;
            (super::fft::TWIDDLE_ERROR + m * UNIT * (1.0 + super::fft::TWIDDLE_ERROR))
                * (1.0 + (m + 1.0) * UNIT)
        } else {
            scratch.clear();
            scratch.resize(n, Complex::ZERO);
            for &(pos, p) in nonzero {
                scratch[pos as usize].re += p;
            }
            fft(&mut scratch, twiddles, false);
            transform_error(twiddles.levels())
        } * norm
            + UNDERFLOW_SLACK;
        // |X|^k < TINY whenever the bound M = |X̂| + e is below this.
        let small = (TINY.ln() / k as f64).exp() * (1.0 - 1e-9);
        let kf = k as f64;
        let pow_rounding = grow(kf + 64.0, sqrt5u);
        live.retain(|&j| {
            let j = j as usize;
            let x = if direct {
                let mut sum = Complex::ZERO;
                for &(pos, p) in nonzero {
                    sum = sum.add(twiddles.at(pos.wrapping_mul(j as u64)).scale(p));
                }
                sum
            } else {
                scratch[j]
            };
            let m = x.abs_up() + forward;
            let (power, power_err) = if m < small || acc[j] == Complex::ZERO {
                // 0 with error |X^k| ≤ M^k < TINY (or the accumulated value is exactly 0).
                (Complex::ZERO, if m < small { TINY } else { power_up(m, k) })
            } else {
                let mk1 = power_up(m, k - 1);
                let value = pow(x, k);
                let bound = kf * mk1 * forward + mk1 * m * pow_rounding + UNDERFLOW_SLACK;
                (value, bound)
            };
            let a = acc[j];
            let (abs_a, abs_p) = (a.abs_up(), power.abs_up());
            acc[j] = a.mul(power);
            err[j] = (sqrt5u * abs_a * abs_p + abs_a * power_err + err[j] * (abs_p + power_err))
                * (1.0 + 4.0 * UNIT)
                + UNDERFLOW_SLACK;
            // Settled: the exact product over all steps has modulus at most
            // (|acc| + err)·Π_{t > index}‖x_t‖₁^{k_t}, below TINY·after (|z| ≤ |re| + |im|,
            // a sum that loses at most one rounding, and none to underflow).
            let bound = (acc[j].re.abs() + acc[j].im.abs()) * (1.0 + 2.0 * UNIT) + err[j];
            if bound < TINY {
                acc[j] = Complex::ZERO;
                err[j] = bound * after[index + 1] * (1.0 + 2.0 * UNIT) + UNDERFLOW_SLACK;
                return false;
            }
            true
        });
    }
    (acc, err)
}

/// An upper bound on `m^e` for `m ≥ 0` whose powers stay in the normal range (here
/// `m^e ≥ TINY`, and every intermediate value lies between `m^e` and `max(1, m)^e`): repeated
/// squaring rounds at most 128 times, a factor `(1 + u)^128 < 1 + 10⁻¹³`.
fn power_up(m: f64, e: u64) -> f64 {
    let mut result = 1.0f64;
    let mut base = m;
    let mut e = e;
    while e > 0 {
        if e & 1 == 1 {
            result *= base;
        }
        e >>= 1;
        if e > 0 {
            base *= base;
        }
    }
    result * (1.0 + 1e-13)
}

/// `z^k` by repeated squaring (relative error at most `(1 + √5u)^{k + 64} − 1`).
fn pow(z: Complex, k: u64) -> Complex {
    let mut result = Complex::new(1.0, 0.0);
    let mut base = z;
    let mut e = k;
    loop {
        if e & 1 == 1 {
            result = result.mul(base);
        }
        e >>= 1;
        if e == 0 {
            return result;
        }
        base = base.mul(base);
    }
}

/// Inverse transforms of one or two directions' spectra (two packed as real and imaginary
/// parts): each direction's circular cells, and a bound on the ℓ² norm of the cells' errors.
///
/// The ℓ² norm is what keeps the bound small: the errors of the spectrum (per frequency,
/// `E_j`) reach the cells through the inverse transform, an isometry up to `√N`, so they
/// contribute `‖E‖₂/√N`; the inverse transform's own rounding is at most
/// `(tη/(1 − tη))·‖exact output‖₂` with `t = log₂N` and `η = μ + γ₄(√2 + μ)` (Higham,
/// *Accuracy and Stability of Numerical Algorithms*, 2nd ed., Theorem 24.2, for this
/// radix-2 algorithm with twiddle errors at most μ), and `‖exact output‖₂ = √N·‖Ŷ‖₂`;
/// dividing by N gives `(‖E‖₂ + tη/(1 − tη)·‖Ŷ‖₂)/√N`. A sum of m cells' errors is then at
/// most `√m` times that.
pub(super) fn inverse(
    spectra: &[(Vec<Complex>, Vec<f64>)],
    twiddles: &Twiddles,
) -> (Vec<Vec<f64>>, f64) {
    let n = twiddles.len();
    let half = n / 2;
    let mut data = vec![Complex::ZERO; n];
    let mut input_err_sq = 0.0;
    let mut norm_sq = 0.0;
    for (j, slot) in data.iter_mut().enumerate() {
        let (mirror, jj) = if j <= half { (false, j) } else { (true, n - j) };
        let get = |s: &(Vec<Complex>, Vec<f64>)| {
            let v = s.0[jj];
            (if mirror { v.conj() } else { v }, s.1[jj])
        };
        let (a, ea) = get(&spectra[0]);
        let (z, err) = if let Some(second) = spectra.get(1) {
            let (b, eb) = get(second);
            // a + i·b: one rounding of at most u·|a + ib| per component.
            let z = Complex::new(a.re - b.im, a.im + b.re);
            (z, ea + eb + 2.0 * UNIT * (a.abs_up() + b.abs_up()))
        } else {
            (a, ea)
        };
        input_err_sq += err * err;
        let m = z.abs_up();
        norm_sq += m * m;
        *slot = z;
    }
    fft(&mut data, twiddles, true);
    let t = f64::from(twiddles.levels());
    let gamma4 = 4.0 * UNIT / (1.0 - 4.0 * UNIT);
    let eta = super::fft::TWIDDLE_ERROR + gamma4 * (2f64.sqrt() + super::fft::TWIDDLE_ERROR);
    let relative = t * eta / (1.0 - t * eta);
    // Sums of squares of n non-negative terms: relative (n + 2)u, then square roots.
    let sums = 1.0 + (n as f64 + 8.0) * UNIT;
    let error = ((input_err_sq * sums).sqrt() + relative * (norm_sq * sums).sqrt())
        * (1.0 + 8.0 * UNIT)
        / (n as f64).sqrt()
        + UNDERFLOW_SLACK;
    let scale = 1.0 / n as f64;
    let mut out = vec![data.iter().map(|z| z.re * scale).collect::<Vec<f64>>()];
    if spectra.len() > 1 {
        out.push(data.iter().map(|z| z.im * scale).collect());
    }
    (out, error)
}
