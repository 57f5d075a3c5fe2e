//! Tests of bucketing: the exact ε of small heterogeneous lists (by enumerating the 2^k
//! outcome patterns of their two-atom pairs, from the pairs' definitions) lies between the
//! bucketed bounds; rounding the wrong way (a negative control) falls below it; long lists of
//! distinct steps compose within the requested error.

use super::super::fast::prepare;
use super::super::pld_steps_bounds;
use super::*;
use crate::optimal_composition;

/// The two atoms `(loss, probability under the first distribution)` of the canonical pure
/// pair at ε (P(+) = e^ε/(1 + e^ε), Q(+) = 1/(1 + e^ε)), Poisson-subsampled at rate q, for
/// removal (`(qP + (1 − q)Q, Q)`) or addition (`(Q, qP + (1 − q)Q)`).
fn atoms(epsilon: f64, q: f64, adding: bool) -> [(f64, f64); 2] {
    let p = 1.0 / (1.0 + (-epsilon).exp());
    // Outcome +: P = p, Q = 1 − p; outcome −: P = 1 − p, Q = p.
    let outcomes = [(p, 1.0 - p), (1.0 - p, p)];
    outcomes.map(|(pp, qq)| {
        let mixed = q * pp + (1.0 - q) * qq;
        if adding {
            ((qq / mixed).ln(), qq)
        } else {
            ((mixed / qq).ln(), mixed)
        }
    })
}

/// The exact ε(δ) of composing the pairs (each two atoms), by enumerating the patterns.
fn exact_epsilon(pairs: &[[(f64, f64); 2]], delta: f64) -> f64 {
    let mut dist = vec![(0.0f64, 1.0f64)];
    for pair in pairs {
        dist = dist
            .iter()
            .flat_map(|&(l, p)| pair.iter().map(move |&(a, m)| (l + a, p * m)))
            .collect();
    }
    let delta_at = |e: f64| -> f64 {
        dist.iter()
            .map(|&(l, p)| p * (-(e - l).exp_m1()).max(0.0))
            .sum()
    };
    let (mut lo, mut hi) = (0.0, dist.iter().map(|d| d.0).fold(0.0, f64::max) + 1.0);
    if delta_at(0.0) <= delta {
        return 0.0;
    }
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if delta_at(mid) <= delta {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    hi
}

/// Exact ε of a list of (ε, rate) two-atom steps: the larger of the two directions.
fn exact_list(steps: &[(f64, f64)], delta: f64) -> f64 {
    let direction = |adding: bool| {
        let pairs: Vec<_> = steps.iter().map(|&(e, q)| atoms(e, q, adding)).collect();
        exact_epsilon(&pairs, delta)
    };
    direction(false).max(direction(true))
}

fn bucketed(steps: &[PldStep], error: f64, spacing: f64, wrong_way: bool) -> PldBounds {
    let (groups, delta) = prepare(steps, 1e-4).unwrap();
    let bucketing = Bucketing {
        lattice: Some(spacing / 10.0),
        spacing,
        wrong_way,
    };
    bucketed_bounds(&groups, delta, Some(error), Some(bucketing)).unwrap()
}

/// Steps, and their (ε, rate) for the enumeration.
type StepsAndParameters = (Vec<PldStep>, Vec<(f64, f64)>);

/// 14 distinct pure steps, ε_i from 0.1 to 0.2, and 14 subsampled ones (canonical ε = 1 and
/// discrete Laplace of scale 1, sensitivity 1, which is the same pair) at distinct rates
/// from 0.2 to 0.3.
fn lists() -> Vec<StepsAndParameters> {
    let pure: Vec<(f64, f64)> = (0..14)
        .map(|i| (0.1 * (1.0 + i as f64 / 13.0), 1.0))
        .collect();
    let pure_steps = pure
        .iter()
        .map(|&(e, _)| PldStep::private(Privacy::pure(e).unwrap()))
        .collect();
    let rates: Vec<(f64, f64)> = (0..14)
        .map(|i| (1.0, 0.2 + 0.1 * i as f64 / 13.0))
        .collect();
    let rate_steps = rates
        .iter()
        .enumerate()
        .map(|(i, &(_, q))| {
            let base = if i % 2 == 0 {
                PldStep::private(Privacy::pure(1.0).unwrap())
            } else {
                PldStep::discrete_laplace(1.0, 1).unwrap()
            };
            base.poisson_subsampled(q).unwrap()
        })
        .collect();
    vec![(pure_steps, pure), (rate_steps, rates)]
}

#[test]
fn bucketed_bounds_bracket_the_exact_epsilon() {
    for (steps, params) in lists() {
        let (groups, delta) = prepare(&steps, 1e-4).unwrap();
        // The coarse grid merges steps, so the dominance is what is being tested.
        let (high, low) = (
            rounded(&groups, 0.02, 0.2, true),
            rounded(&groups, 0.02, 0.2, false),
        );
        assert!(high.unwrap().len() + low.unwrap().len() < groups.len());
        let exact = exact_list(&params, delta.delta);
        for (spacing, error) in [(0.2, 1.0), (0.2, 0.05), (0.02, 0.02)] {
            let b = bucketed(&steps, error, spacing, false);
            assert!(
                b.lower <= exact + 1e-9 && exact - 1e-9 <= b.upper,
                "{spacing} {error}: {b:?} vs exact {exact}"
            );
            assert!(b.lower <= b.estimate && b.estimate <= b.upper, "{b:?}");
        }
        // Refinement meets the requested accuracy.
        assert!(bucketed(&steps, 0.05, 0.2, false).gap() <= 0.05);
    }
}

#[test]
fn rounding_the_wrong_way_falls_below_the_exact_epsilon() {
    // Negative control: the "upper bound" of the list rounded down is optimistic.
    for (steps, params) in lists() {
        let (_, delta) = prepare(&steps, 1e-4).unwrap();
        let exact = exact_list(&params, delta.delta);
        let b = bucketed(&steps, 0.01, 0.2, true);
        assert!(b.upper < exact - 0.01, "{b:?} vs exact {exact}");
        assert!(bucketed(&steps, 0.01, 0.2, false).upper >= exact);
    }
}

/// k distinct pure steps, ε_i from 0.001 to 0.002, through the public entry point: within
/// the default accuracy, and between (and within 0.01 of) the optimal compositions of
/// k × 0.001 and k × 0.002, which bracket the exact ε.
fn check_distinct_pure_steps(k: usize) {
    let steps: Vec<PldStep> = (0..k)
        .map(|i| PldStep::private(Privacy::pure(0.001 * (1.0 + i as f64 / k as f64)).unwrap()))
        .collect();
    let b = pld_steps_bounds(&steps, 1e-6, None).unwrap();
    assert!(b.gap() <= default_epsilon_error(b.lower), "{b:?}");
    let low = optimal_composition(Privacy::pure(0.001).unwrap(), k as u64, 1e-6).unwrap();
    let high = optimal_composition(Privacy::pure(0.002).unwrap(), k as u64, 1e-6).unwrap();
    assert!(
        b.lower <= high.epsilon() && b.upper >= low.epsilon(),
        "{b:?}"
    );
    assert!(
        b.lower >= low.epsilon() - 0.01 && b.upper <= high.epsilon() + 0.01,
        "{b:?}"
    );
}

#[test]
fn many_distinct_pure_steps_compose_within_the_error() {
    check_distinct_pure_steps(2000);
}

/// 10^4 distinct pure steps (issue 29's heterogeneous list).
#[test]
fn ten_thousand_distinct_pure_steps_compose_within_the_error() {
    check_distinct_pure_steps(10_000);
}

#[test]
fn lattice_and_grid_rounding_go_the_stated_way() {
    for &x in &[0.001, 0.0015, 0.1, 0.3, 1.0, 1e-7] {
        for &h in &[1.0 / 1024.0, 1.86e-5, 3e-3] {
            let up = on_lattice(x, h, true).unwrap();
            assert!(up >= x && up - x <= h * (1.0 + 1e-9), "{x} {h} {up}");
            match on_lattice(x, h, false) {
                Some(down) => assert!(down <= x && x - down <= h * (1.0 + 1e-9) && down > 0.0),
                None => assert!(x < h * (1.0 + 1e-9)),
            }
        }
    }
    let grid = Grid::new([0.001, 0.002, 0.0013].into_iter(), 0.05).unwrap();
    for x in [0.001, 0.0011, 0.0013, 0.00199, 0.002] {
        let (up, down) = (grid.round(x, true), grid.round(x, false));
        assert!(down <= x && x <= up && up <= 0.002 && down >= 0.001 && up <= down * 1.05 + 1e-15);
    }
}

#[test]
fn many_subsampled_steps_at_distinct_rates_compose_within_the_error() {
    // 300 discrete Laplace steps (b = 1) at rates from 0.01 to 0.02: the exact ε lies between
    // those of 300 steps at 0.01 and 300 at 0.02 (dominance in the rate).
    let k = 300;
    let at = |q: f64| {
        PldStep::discrete_laplace(1.0, 1)
            .unwrap()
            .poisson_subsampled(q)
            .unwrap()
    };
    let steps: Vec<PldStep> = (0..k)
        .map(|i| at(0.01 * (1.0 + i as f64 / k as f64)))
        .collect();
    let b = pld_steps_bounds(&steps, 1e-6, None).unwrap();
    assert!(b.gap() <= default_epsilon_error(b.lower), "{b:?}");
    let low = pld_steps_bounds(&vec![at(0.01); k], 1e-6, None).unwrap();
    let high = pld_steps_bounds(&vec![at(0.02); k], 1e-6, None).unwrap();
    assert!(
        b.lower <= high.upper && b.upper >= low.lower,
        "{b:?} {low:?} {high:?}"
    );
    assert!(
        b.upper < high.upper && b.lower > low.lower,
        "{b:?} {low:?} {high:?}"
    );
}
