//! Tests of the Poisson-subsampled bounded-range pair's discretization (the `pieces` module)
//! and of the bounds built on it, against an independent exact reference: the pair's δ(ε)
//! in closed form from its densities (checked against numerical integration), and for a few
//! compositions a fine direct convolution of the exact cell masses, rounded both ways.

use super::pieces::discretize;
use super::*;

/// P- and Q-mass of `[a, b]` for the ε-bounded-range envelope pair (densities
/// `e^{±l/2}/(2(e^{ε/2} − e^{−ε/2}))` on `[−ε, ε]`), by the plain closed forms.
fn p_mass(eps: f64, a: f64, b: f64) -> f64 {
    ((b / 2.0).exp() - (a / 2.0).exp()) / (2.0 * (eps / 2.0).sinh())
}

fn q_mass(eps: f64, a: f64, b: f64) -> f64 {
    ((-a / 2.0).exp() - (-b / 2.0).exp()) / (2.0 * (eps / 2.0).sinh())
}

/// The subsampled loss `ln(1 + q(e^l − 1))` and its inverse (clamped to `[−ε, ε]`).
fn m(l: f64, q: f64) -> f64 {
    (1.0 + q * (l.exp() - 1.0)).ln()
}

fn inverse(y: f64, q: f64, eps: f64) -> f64 {
    let v = 1.0 + (y.exp() - 1.0) / q;
    if v <= 0.0 {
        -eps
    } else {
        v.ln().clamp(-eps, eps)
    }
}

/// Exact δ(t) of one subsampled step, the larger of the two directions. Removal, pair
/// `(P′, Q)` with `P′ = qP + (1 − q)Q`: `∫(p′ − e^t g)₊ dl` over `m(l) > t`. Addition, pair
/// `(Q, P′)`: `∫(g − e^t p′)₊ dl` over `−m(l) > t`.
fn exact_delta(eps: f64, q: f64, t: f64) -> f64 {
    let removal = if t >= m(eps, q) {
        0.0
    } else {
        let s = inverse(t, q, eps);
        let (p, g) = (p_mass(eps, s, eps), q_mass(eps, s, eps));
        q * p + (1.0 - q) * g - t.exp() * g
    };
    let addition = if -t <= m(-eps, q) {
        0.0
    } else {
        let s = inverse(-t, q, eps);
        let (p, g) = (p_mass(eps, -eps, s), q_mass(eps, -eps, s));
        g - t.exp() * (q * p + (1.0 - q) * g)
    };
    removal.max(addition).max(0.0)
}

/// Exact ε(δ) of one subsampled step, by bisection (to about 10⁻¹⁵).
fn exact_epsilon(eps: f64, q: f64, delta: f64) -> f64 {
    if exact_delta(eps, q, 0.0) <= delta {
        return 0.0;
    }
    let (mut lo, mut hi) = (0.0, eps);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if exact_delta(eps, q, mid) > delta {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    hi
}

fn subsampled(eps: f64, q: f64) -> PldStep {
    PldStep::bounded_range(eps)
        .unwrap()
        .poisson_subsampled(q)
        .unwrap()
}

/// The closed form of [`exact_delta`] against a midpoint rule of the hockey-stick integrals
/// (2·10⁵ points; the integrands are smooth but for one kink where they vanish, an error of
/// order 10⁻¹⁰ here).
#[test]
fn the_exact_reference_agrees_with_numerical_integration() {
    for (eps, q) in [(0.621, 0.2), (2.0, 0.01), (1.0, 0.9)] {
        let n = 200_000;
        let width = 2.0 * eps / n as f64;
        for frac in [0.0, 0.3, 0.7, 0.95] {
            let t = frac * m(eps, q);
            let (mut removal, mut addition) = (0.0, 0.0);
            for i in 0..n {
                let l = -eps + (i as f64 + 0.5) * width;
                let c = 1.0 / (4.0 * (eps / 2.0).sinh());
                let (f, g) = (c * (l / 2.0).exp(), c * (-l / 2.0).exp());
                let p = q * f + (1.0 - q) * g;
                removal += (p - t.exp() * g).max(0.0) * width;
                addition += (g - t.exp() * p).max(0.0) * width;
            }
            let numeric = removal.max(addition);
            let closed = exact_delta(eps, q, t);
            assert!(
                (numeric - closed).abs() <= 1e-9 + 1e-6 * closed,
                "ε = {eps}, q = {q}, t = {t}: closed {closed} vs numeric {numeric}"
            );
        }
    }
}

/// The cells carry the exact masses (summing to 1, none at ±∞) and every piece's residual
/// range and mean bounds contain the true ones, computed by a midpoint rule over the piece's
/// interval of base losses (recomputed here from the grid), in both directions.
#[test]
fn cells_carry_the_exact_masses_and_residuals() {
    for (eps, q) in [(0.621, 0.2), (2.0, 0.01), (0.3, 0.9), (5.0, 0.5)] {
        for h in [1.0 / 128.0, 1.0 / 1024.0] {
            for adding in [false, true] {
                let d = discretize(&subsampled(eps, q), adding, h).unwrap();
                let total: f64 = d.masses.iter().sum();
                assert!(d.infinite == 0.0 && (total - 1.0).abs() < 1e-13, "{total}");
                let cells: Vec<i64> = (d.first..=d.last())
                    .filter(|&j| d.masses[(j - d.first) as usize] > 0.0)
                    .collect();
                assert_eq!(cells.len(), d.pieces.len());
                for (&j, piece) in cells.iter().zip(&d.pieces) {
                    let top = j as f64 * h;
                    let (a, b) = if adding {
                        (inverse(-top, q, eps), inverse(-top + h, q, eps))
                    } else {
                        (inverse(top - h, q, eps), inverse(top, q, eps))
                    };
                    let n = 2000;
                    let (mut mass, mut moment) = (0.0, 0.0);
                    for i in 0..n {
                        let l = a + (i as f64 + 0.5) * (b - a) / n as f64;
                        let c = 1.0 / (4.0 * (eps / 2.0).sinh());
                        let (f, g) = (c * (l / 2.0).exp(), c * (-l / 2.0).exp());
                        let (density, loss) = if adding {
                            (g, -m(l, q))
                        } else {
                            (q * f + (1.0 - q) * g, m(l, q))
                        };
                        let dm = density * (b - a) / n as f64;
                        mass += dm;
                        moment += dm * (loss - top);
                        assert!(
                            piece.z_min <= loss - top + 1e-13 && loss - top <= piece.z_max + 1e-13,
                            "ε = {eps}, q = {q}, h = {h}, cell {j}: {piece:?} vs {}",
                            loss - top
                        );
                    }
                    // The midpoint rule is off by a relative O(w²/n²): the mass is checked
                    // against the closed forms, the mean with a margin of that order.
                    let mean = moment / mass;
                    let tol = 1e-12 + 1e-6 * (b - a).powi(2);
                    let (p, g) = (p_mass(eps, a, b), q_mass(eps, a, b));
                    let mass = if adding { g } else { q * p + (1.0 - q) * g };
                    assert!(
                        (piece.mass - mass).abs() <= 1e-12 * mass + 1e-15,
                        "ε = {eps}, q = {q}, h = {h}, cell {j}: {} vs {mass}",
                        piece.mass
                    );
                    assert!(
                        piece.mean_lo <= mean + tol && mean <= piece.mean_hi + tol,
                        "ε = {eps}, q = {q}, h = {h}, adding {adding}, cell {j}: {piece:?} vs mean {mean}"
                    );
                    // Tight: the residual lies in (−h, 0] up to rounding.
                    assert!(
                        piece.z_min >= -h - 1e-12 && piece.z_max <= 1e-12,
                        "{piece:?}"
                    );
                }
            }
        }
    }
}

/// ε(δ) of one step's cells, every loss at its cell's top (`shift` 0) or bottom (`shift`
/// −h), the larger of the two directions.
fn epsilon_of_cells(eps: f64, q: f64, h: f64, shift: f64, delta: f64) -> f64 {
    let step = subsampled(eps, q);
    let cells: Vec<Vec<(f64, f64)>> = [false, true]
        .iter()
        .map(|&adding| {
            let d = discretize(&step, adding, h).unwrap();
            d.masses
                .iter()
                .enumerate()
                .map(|(i, &p)| ((d.first + i as i64) as f64 * h + shift, p))
                .collect()
        })
        .collect();
    let delta_at = |t: f64| {
        cells
            .iter()
            .map(|c| {
                c.iter()
                    .map(|&(y, p)| p * (-(t - y).exp_m1()).max(0.0))
                    .sum::<f64>()
            })
            .fold(0.0, f64::max)
    };
    let (mut lo, mut hi) = (0.0, eps + h);
    if delta_at(0.0) <= delta {
        return 0.0;
    }
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if delta_at(mid) > delta {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    hi
}

/// Negative control for the reference: the same cells with every loss at its cell's bottom
/// (rounding down) give an ε below the exact one, at its top at or above it.
#[test]
fn cells_rounded_down_fall_below_the_exact_value() {
    let h = 1.0 / 64.0;
    for (eps, q, delta) in [(0.621, 0.2, 1e-8), (2.0, 0.2, 1e-5), (1.0, 0.9, 1e-3)] {
        let exact = exact_epsilon(eps, q, delta);
        let down = epsilon_of_cells(eps, q, h, -h, delta);
        let up = epsilon_of_cells(eps, q, h, 0.0, delta);
        assert!(
            down < exact - 1e-4 && up >= exact - 1e-12,
            "ε = {eps}, q = {q}, δ = {delta}: down {down}, up {up}, exact {exact}"
        );
    }
}

/// One step: `lower ≤ exact ≤ upper` over a grid of (ε, q, δ′), on two grids, with a gap of
/// about one grid step (the workaround that dropped such steps had a lower bound of 0, so a
/// gap of the whole ε; before it, the pair binned before subsampling gave lower bounds
/// above the exact ε).
#[test]
fn one_step_lies_between_the_bounds() {
    for eps in [0.1, 0.621, 2.0] {
        for q in [0.01, 0.2, 0.9] {
            for delta_prime in [1e-3, 1e-8] {
                let exact = exact_epsilon(eps, q, delta_prime);
                let steps = [subsampled(eps, q)];
                for interval in [1e-3, 1e-4] {
                    let b = pld_steps_bounds_on_grid(&steps, delta_prime, interval).unwrap();
                    assert!(
                        b.lower <= exact + 1e-9 && exact <= b.upper + 1e-9,
                        "ε = {eps}, q = {q}, δ′ = {delta_prime}: {b:?} vs exact {exact}"
                    );
                    assert!(b.lower <= b.estimate && b.estimate <= b.upper);
                    assert!(
                        b.gap() <= 2.0 * b.interval,
                        "ε = {eps}, q = {q}, δ′ = {delta_prime}: {b:?} vs exact {exact}"
                    );
                }
            }
        }
    }
}

/// The case that exposed the flaw: ε = 0.621, q = 0.2, δ′ = 10⁻⁸, exact ε 0.158750. The pair
/// binned before subsampling gave a lower bound of 0.2126 (above the exact value), the
/// workaround that dropped such steps 0 (gap 0.159, above the requested accuracy); now
/// [0.1587486, 0.1587505] at the default accuracy (grid 1.9·10⁻⁶).
#[test]
fn the_reported_case_is_bracketed_tightly() {
    let (eps, q, delta_prime) = (0.621, 0.2, 1e-8);
    let exact = exact_epsilon(eps, q, delta_prime);
    assert!((exact - 0.158750).abs() < 1e-6, "{exact}");
    let bounds = pld_steps_bounds(&[subsampled(eps, q)], delta_prime, None).unwrap();
    assert!(
        bounds.lower <= exact && exact <= bounds.upper,
        "{bounds:?} vs exact {exact}"
    );
    assert!(
        bounds.gap() <= default_epsilon_error(bounds.lower) && bounds.gap() < 1e-4,
        "{bounds:?}"
    );
}

/// One direction's exact cell masses on the grid h (cell j holds the losses in
/// `(b_{j−1}, b_j]`), from the closed forms above, and the first cell's index.
fn exact_cells(eps: f64, q: f64, adding: bool, h: f64) -> (i64, Vec<f64>) {
    let (low, high) = if adding {
        (-m(eps, q), -m(-eps, q))
    } else {
        (m(-eps, q), m(eps, q))
    };
    let (first, last) = ((low / h).floor() as i64, (high / h).ceil() as i64);
    let masses = (first..=last)
        .map(|j| {
            let (top, bottom) = (j as f64 * h, (j - 1) as f64 * h);
            if adding {
                let (a, b) = (inverse(-top, q, eps), inverse(-bottom, q, eps));
                q_mass(eps, a, b)
            } else {
                let (a, b) = (inverse(bottom, q, eps), inverse(top, q, eps));
                q * p_mass(eps, a, b) + (1.0 - q) * q_mass(eps, a, b)
            }
        })
        .collect();
    (first, masses)
}

/// A bracket on the exact ε(δ) of k subsampled steps: their exact cells composed by direct
/// convolution, every loss at its cell's top (an upper bound: losses only rose) and at its
/// cell's bottom (a lower bound), the larger of the two directions; k·h apart.
fn composed_bracket(eps: f64, q: f64, k: usize, h: f64, delta: f64) -> (f64, f64) {
    let mut bracket = (0.0f64, 0.0f64);
    for adding in [false, true] {
        let (first, cells) = exact_cells(eps, q, adding, h);
        let mut composed = vec![1.0];
        for _ in 0..k {
            let mut next = vec![0.0; composed.len() + cells.len() - 1];
            for (i, &a) in composed.iter().enumerate() {
                for (j, &b) in cells.iter().enumerate() {
                    next[i + j] += a * b;
                }
            }
            composed = next;
        }
        let start = first * k as i64;
        let epsilon_at = |shift: f64| {
            let delta_at = |t: f64| {
                composed
                    .iter()
                    .enumerate()
                    .map(|(i, &p)| {
                        let y = (start + i as i64) as f64 * h + shift;
                        p * (-(t - y).exp_m1()).max(0.0)
                    })
                    .sum::<f64>()
            };
            if delta_at(0.0) <= delta {
                return 0.0;
            }
            let (mut lo, mut hi) = (0.0, k as f64 * eps + 1.0);
            for _ in 0..100 {
                let mid = 0.5 * (lo + hi);
                if delta_at(mid) > delta {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            hi
        };
        let down = epsilon_at(-(k as f64) * h);
        let up = epsilon_at(0.0);
        bracket = (bracket.0.max(down), bracket.1.max(up));
    }
    bracket
}

/// Two to four equal subsampled steps: the bounds contain the bracket's ε (its two ends
/// within 4·2⁻¹³ = 5·10⁻⁴ of each other), and the bracket's own check: one step's bracket
/// contains the closed form.
#[test]
fn a_few_composed_steps_lie_between_the_bounds() {
    let h = 1.0 / 8192.0;
    let (down, up) = composed_bracket(0.621, 0.2, 1, h, 1e-8);
    let exact = exact_epsilon(0.621, 0.2, 1e-8);
    assert!(
        down <= exact + 1e-12 && exact <= up + 1e-12,
        "{down} {exact} {up}"
    );
    for (eps, q, k, delta_prime) in [
        (0.621, 0.2, 2, 1e-8),
        (1.0, 0.5, 3, 1e-6),
        (0.3, 0.05, 4, 1e-4),
    ] {
        let (down, up) = composed_bracket(eps, q, k, h, delta_prime);
        let steps = vec![subsampled(eps, q); k];
        let bounds = pld_steps_bounds_on_grid(&steps, delta_prime, 1e-4).unwrap();
        assert!(
            bounds.lower <= up + 1e-9 && down <= bounds.upper + 1e-9,
            "ε = {eps}, q = {q}, k = {k}: {bounds:?} vs bracket [{down}, {up}]"
        );
        assert!(
            bounds.gap() <= 4.0 * k as f64 * bounds.interval,
            "{bounds:?}"
        );
    }
}

/// A mixed list (subsampled bounded-range, pure and subsampled discrete Laplace steps): the
/// lower bound now counts the bounded-range steps. Measured: bounds [1.4827, 1.4849] (at
/// `epsilon_error` 0.01); the list without the bounded-range steps, whose lower bound the
/// workaround reported, [1.3223, 1.3261]: the new lower bound lies above even that list's
/// upper bound (dropping steps can only lower ε).
#[test]
fn a_mixed_list_counts_its_subsampled_bounded_range_steps_in_the_lower_bound() {
    let br = subsampled(0.5, 0.1);
    let pure = PldStep::private(Privacy::pure(0.1).unwrap());
    let dlap = PldStep::discrete_laplace(2.0, 1)
        .unwrap()
        .poisson_subsampled(0.05)
        .unwrap();
    let mut steps = Vec::new();
    for _ in 0..10 {
        steps.extend([br, br, pure, dlap, dlap, dlap]);
    }
    let without: Vec<PldStep> = steps.iter().copied().filter(|s| *s != br).collect();
    let bounds = pld_steps_bounds(&steps, 1e-6, Some(0.01)).unwrap();
    let dropped = pld_steps_bounds(&without, 1e-6, Some(0.01)).unwrap();
    assert!(bounds.gap() <= 0.01, "{bounds:?}");
    assert!(
        bounds.lower > dropped.upper + 0.1,
        "{bounds:?} vs without the bounded-range steps {dropped:?}"
    );
}

/// The subsampled loss `ln(1 + q(e^L − 1))` is computed as `L + ln(q + (1 − q)e^{−L})` above
/// L = 1, which is accurate to a few ulps of L, not of the (small) result: at q = 10⁻⁹ a
/// relative error up to about 10⁻⁷, far beyond the 10⁻¹² loss margin the atoms had, so
/// their residual ranges missed the exact residual (by up to ~10⁻¹⁶). The same error bound
/// as for the bounded-range cells now widens them. Checked on subsampled canonical pairs
/// against `ln_1p(q·expm1(ε))`, accurate to a few ulps of the result.
#[test]
fn subsampled_atoms_residual_ranges_contain_the_exact_residual() {
    for eps in [1.1, 1.5, 2.0, 2.7, 3.3, 4.7] {
        for q in [1e-9f64, 3e-7, 1e-4] {
            let h = 2f64.powi((q.log2() - 12.0).floor() as i32);
            let step = PldStep::private(Privacy::pure(eps).unwrap())
                .poisson_subsampled(q)
                .unwrap();
            let up = (q * eps.exp_m1()).ln_1p();
            let down = (q * (-eps).exp_m1()).ln_1p();
            for adding in [false, true] {
                let d = discretize(&step, adding, h).unwrap();
                let (first, last) = (d.first as f64 * h, d.last() as f64 * h);
                // Removal: pieces for m(ε) (top cell) then m(−ε) (bottom); addition: −m(ε)
                // (bottom) then −m(−ε) (top).
                let expected = if adding {
                    [(-up, first), (-down, last)]
                } else {
                    [(up, last), (down, first)]
                };
                assert_eq!(d.pieces.len(), 2);
                for (piece, (loss, top)) in d.pieces.iter().zip(expected) {
                    let z = loss - top;
                    let tol = 1e-15 * loss.abs();
                    assert!(
                        piece.z_min <= z + tol && z - tol <= piece.z_max,
                        "ε = {eps}, q = {q}, adding {adding}: {piece:?} vs exact residual {z}"
                    );
                }
            }
        }
    }
}
