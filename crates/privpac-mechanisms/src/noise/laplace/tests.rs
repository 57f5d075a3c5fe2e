//! Tests of the grid Laplace mechanism: exact privacy audits on neighbouring query values
//! with a negative control, the sensitivity lemma on random pairs, seeded statistical
//! checks of the released indices, the default grid, and typed errors.

use std::collections::HashMap;

use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::*;

/// Grid indices `-WINDOW..=WINDOW` are outputs of their own; the rest is lumped into two
/// tail outcomes (a coarsening, i.e. post-processing, so it can only hide loss, never
/// invent it; with scales ≤ 12 and centres within ±40 the tails hold below e^-30).
const WINDOW: i64 = 400;

/// The exact distribution of the released index `center + Z` over the outcomes
/// `[≤ -WINDOW-1, -WINDOW, …, WINDOW, ≥ WINDOW+1]`, from the discrete Laplace pmf.
fn index_distribution(center: i64, noise: DiscreteLaplace) -> Vec<f64> {
    let mut p = Vec::with_capacity(2 * WINDOW as usize + 3);
    // Pr[center + Z ≤ -W-1] = Pr[Z ≤ -W-1-center] = Pr[Z ≥ W+1+center] by symmetry.
    p.push(noise.survival(WINDOW + 1 + center));
    p.extend((-WINDOW..=WINDOW).map(|m| noise.pmf(m - center)));
    p.push(noise.survival(WINDOW + 1 - center));
    p
}

/// Neighbouring query values `(v, v')` with `|v − v'| ≤ Δ` exactly: bases on a fine
/// dyadic lattice (every grid point, every grid midpoint, and points 2^-30 beside them)
/// and offsets up to the largest multiple of 2^-40 below Δ, so every sum is exact.
fn neighbouring_values(sensitivity: f64) -> Vec<(f64, f64)> {
    let unit = 2f64.powi(-40);
    let max_offset = (sensitivity / unit).floor() * unit;
    let tiny = 2f64.powi(-30);
    let offsets = [
        0.0,
        max_offset,
        -max_offset,
        max_offset - tiny,
        -(max_offset - tiny),
        max_offset / 2.0,
        -max_offset / 2.0,
    ];
    let mut pairs = Vec::new();
    for j in -256..=256 {
        let base = f64::from(j) / 64.0;
        for v in [base, base - tiny, base + tiny] {
            for d in offsets {
                assert!(d.abs() <= sensitivity);
                pairs.push((v, v + d));
            }
        }
    }
    pairs
}

/// Audits the mechanism's rounding (`index`) with the given noise on all pairs of
/// [`neighbouring_values`] against the pure claim ε; returns the audit verdict and the
/// largest `|n(v) − n(v')|` seen.
fn audit(
    index: impl Fn(f64) -> i64,
    noise: DiscreteLaplace,
    sensitivity: f64,
    epsilon: f64,
) -> (privpac_audit::Result<privpac_audit::PureAuditReport>, u64) {
    let mut cache: HashMap<i64, Vec<f64>> = HashMap::new();
    let mut centers = Vec::new();
    let mut widest = 0;
    for (v, w) in neighbouring_values(sensitivity) {
        let (n, m) = (index(v), index(w));
        widest = widest.max(n.abs_diff(m));
        for c in [n, m] {
            cache
                .entry(c)
                .or_insert_with(|| index_distribution(c, noise));
        }
        centers.push((n, m));
    }
    let pairs = centers
        .iter()
        .map(|(n, m)| (cache[n].as_slice(), cache[m].as_slice()));
    (
        privpac_audit::check_pure_claim(pairs, epsilon, 1e-9),
        widest,
    )
}

/// (Δ, k, ε): Δ/g an integer (ties decide the extra grid unit), Δ/g a dyadic
/// non-integer, Δ not dyadic.
const CONFIGS: [(f64, i32, f64); 4] = [
    (1.0, 2, 1.0),
    (0.875, 2, 1.0),
    (1.0 / 3.0, 3, 0.5),
    (1.0, 0, 0.25),
];

#[test]
fn exact_audit_passes_and_is_tight() {
    for (sensitivity, k, epsilon) in CONFIGS {
        let mech =
            LaplaceMechanism::with_grid(Privacy::pure(epsilon).unwrap(), sensitivity, k).unwrap();
        let g = mech.grid();
        assert_eq!(
            mech.grid_sensitivity(),
            (sensitivity / g).floor() as u64 + 1
        );
        let (verdict, widest) = audit(
            |v| mech.grid_index(v).unwrap(),
            mech.noise(),
            sensitivity,
            epsilon,
        );
        let report = verdict.unwrap_or_else(|e| panic!("Δ={sensitivity}, k={k}: {e}"));
        // The pairs reach the rounded sensitivity Δ_g = ⌊Δ/g⌋ + 1, so the +1 is needed
        // and the claimed ε is attained.
        assert_eq!(widest, mech.grid_sensitivity(), "Δ={sensitivity}, k={k}");
        assert!(
            (report.worst_epsilon - epsilon).abs() < 1e-9,
            "Δ={sensitivity}, k={k}: {report:?}"
        );
    }
}

#[test]
fn negative_control_calibrated_with_the_raw_sensitivity_fails() {
    // The same rounding with noise of scale (Δ/g)/ε, i.e. calibrated with Δ instead of the
    // rounded query's sensitivity: some neighbouring pair must violate ε.
    for (sensitivity, k, epsilon) in CONFIGS {
        let mech =
            LaplaceMechanism::with_grid(Privacy::pure(epsilon).unwrap(), sensitivity, k).unwrap();
        let too_little = DiscreteLaplace::new(sensitivity / mech.grid() / epsilon).unwrap();
        let (verdict, _) = audit(
            |v| mech.grid_index(v).unwrap(),
            too_little,
            sensitivity,
            epsilon,
        );
        assert!(
            matches!(verdict, Err(privpac_audit::Error::PureClaimViolated { .. })),
            "Δ={sensitivity}, k={k}: {verdict:?}"
        );
    }
}

#[test]
fn released_indices_follow_the_claimed_pmf() {
    // χ² goodness of fit at α = 1e-6 (a correct implementation fails with probability
    // 1e-6 over seeds), with a negative control: the same draws against the pmf of the
    // neighbouring grid point must be rejected.
    let mech = LaplaceMechanism::with_grid(Privacy::pure(0.5).unwrap(), 1.0, 2).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(41);
    let value = 0.3;
    let draws: Vec<i64> = (0..100_000)
        .map(|_| mech.release_index(value, &mut rng).unwrap())
        .collect();
    let fit =
        privpac_audit::chi_square_integer_pmf(&draws, |m| mech.index_pmf(value, m).unwrap(), 1e-6)
            .unwrap();
    assert!(!fit.rejected, "{fit:?}");
    let shifted = value + mech.grid();
    let control = privpac_audit::chi_square_integer_pmf(
        &draws,
        |m| mech.index_pmf(shifted, m).unwrap(),
        1e-6,
    )
    .unwrap();
    assert!(control.rejected, "{control:?}");
}

#[test]
fn release_is_the_grid_value_of_release_index() {
    let mech = LaplaceMechanism::new(Privacy::pure(1.0).unwrap(), 2.5).unwrap();
    let mut a = ChaCha8Rng::seed_from_u64(43);
    let mut b = ChaCha8Rng::seed_from_u64(43);
    for value in [-1e6, -3.7, 0.0, 0.1, 12345.678] {
        let x = mech.release(value, &mut a).unwrap();
        let n = mech.release_index(value, &mut b).unwrap();
        assert_eq!(x, mech.grid_value(n));
        assert_eq!((x / mech.grid()).fract(), 0.0, "{x} is off the grid");
    }
}

#[test]
fn grid_index_rounds_exactly() {
    let mech = LaplaceMechanism::with_grid(Privacy::pure(1.0).unwrap(), 1.0, 2).unwrap();
    // Ties go away from zero.
    assert_eq!(mech.grid_index(0.125).unwrap(), 1);
    assert_eq!(mech.grid_index(-0.125).unwrap(), -1);
    assert_eq!(mech.grid_index(0.125f64.next_down()).unwrap(), 0);
    assert_eq!(mech.grid_index(0.3).unwrap(), 1);
    assert_eq!(mech.grid_index(-0.0).unwrap(), 0);
    assert_eq!(mech.grid_index(f64::from_bits(1)).unwrap(), 0);
    // The range edge: 2^61 grid units is accepted, one ulp beyond is not.
    let edge = mech.range();
    assert_eq!(
        mech.grid_index(edge).unwrap(),
        LaplaceMechanism::MAX_GRID_INDEX
    );
    assert_eq!(
        mech.grid_index(-edge).unwrap(),
        -LaplaceMechanism::MAX_GRID_INDEX
    );
    assert!(matches!(
        mech.grid_index(edge.next_up()),
        Err(Error::QueryOutOfRange { .. })
    ));
    // The finest and coarsest grids.
    let fine = LaplaceMechanism::with_grid(Privacy::pure(1.0).unwrap(), 1e-290, 960).unwrap();
    assert_eq!(fine.grid(), 2f64.powi(-960));
    assert_eq!(fine.grid_index(3.0 * 2f64.powi(-960)).unwrap(), 3);
    let coarse = LaplaceMechanism::with_grid(Privacy::pure(1.0).unwrap(), 1e280, -960).unwrap();
    assert_eq!(coarse.grid(), 2f64.powi(960));
    assert_eq!(coarse.grid_sensitivity(), 1);
    assert_eq!(coarse.grid_index(3.0 * 2f64.powi(960)).unwrap(), 3);
    assert_eq!(coarse.grid_index(1e280).unwrap(), 0);
    assert!(coarse.range().is_finite());
    assert!(
        coarse
            .grid_value(LaplaceMechanism::MAX_GRID_INDEX)
            .is_finite()
    );
}

#[test]
fn default_grid_is_fine_and_its_scale_exact() {
    let pure = |e: f64| Privacy::pure(e).unwrap();
    let mech = LaplaceMechanism::new(pure(1.0), 1.0).unwrap();
    assert_eq!(mech.grid_exponent(), 20);
    assert_eq!(mech.grid_sensitivity(), (1 << 20) + 1);
    assert_eq!(mech.noise().scale_ratio(), ((1 << 20) + 1, 1));
    let mech = LaplaceMechanism::new(pure(0.5), 3.0).unwrap();
    assert_eq!(mech.grid_exponent(), 19);
    assert_eq!(mech.grid_sensitivity(), 3 * (1 << 19) + 1);
    assert_eq!(mech.noise().scale_ratio(), (2 * (3 * (1 << 19) + 1), 1));
    // Small ε coarsens the grid so that the scale stays within 2^40 grid units.
    let small = LaplaceMechanism::new(pure(2f64.powi(-30)), 1.0).unwrap();
    assert_eq!(small.grid_exponent(), 8);
    assert!(small.noise().scale() <= 2f64.powi(40));
    let smallest = LaplaceMechanism::new(pure(2f64.powi(-38)), 1.0).unwrap();
    assert_eq!(smallest.grid_exponent(), 0);
    assert!(matches!(
        LaplaceMechanism::new(pure(1e-13), 1.0),
        Err(Error::UnrepresentableScale { .. })
    ));
}

#[test]
fn invalid_parameters_are_typed_errors() {
    let pure = Privacy::pure(1.0).unwrap();
    for sensitivity in [0.0, -2.0, f64::NAN, f64::INFINITY] {
        assert!(matches!(
            LaplaceMechanism::new(pure, sensitivity),
            Err(Error::InvalidSensitivity { .. })
        ));
        assert!(matches!(
            LaplaceMechanism::with_grid(pure, sensitivity, 3),
            Err(Error::InvalidSensitivity { .. })
        ));
    }
    let approx = Privacy::new(1.0, 1e-5).unwrap();
    assert_eq!(
        LaplaceMechanism::new(approx, 1.0),
        Err(Error::InvalidDelta { value: 1e-5 })
    );
    for k in [961, -961, i32::MAX, i32::MIN] {
        assert!(matches!(
            LaplaceMechanism::with_grid(pure, 1.0, k),
            Err(Error::InvalidGridExponent { value, .. }) if value == k
        ));
    }
    // Too fine a grid for the sensitivity: Δ/g = 2^60 grid units of scale.
    assert!(matches!(
        LaplaceMechanism::with_grid(pure, 1.0, 60),
        Err(Error::UnrepresentableScale { .. })
    ));
    // Δ·2^k overflows f64.
    assert!(matches!(
        LaplaceMechanism::with_grid(pure, 1e300, 960),
        Err(Error::UnrepresentableScale { .. })
    ));
    // A huge sensitivity on the default grid.
    assert!(matches!(
        LaplaceMechanism::new(pure, f64::MAX),
        Err(Error::UnrepresentableScale { .. })
    ));
    let mech = LaplaceMechanism::new(pure, 1.0).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    for value in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        assert!(matches!(
            mech.release(value, &mut rng),
            Err(Error::NonFiniteQuery { .. })
        ));
    }
    assert!(matches!(
        mech.release(1e300, &mut rng),
        Err(Error::QueryOutOfRange { .. })
    ));
    // At the edge of the range the release still succeeds (overflow needs |Z| > 2^61).
    assert!(mech.release(mech.range(), &mut rng).is_ok());
    assert!(mech.release(-mech.range(), &mut rng).is_ok());
}

#[test]
fn noisy_index_overflow_is_a_function_of_the_exact_sum() {
    let max = LaplaceMechanism::MAX_NOISY_INDEX;
    let edge = LaplaceMechanism::MAX_GRID_INDEX;
    assert_eq!(add_noise(edge, max - edge), Ok(max));
    assert_eq!(add_noise(-edge, -(max - edge)), Ok(-max));
    assert_eq!(add_noise(edge, max - edge + 1), Err(Error::Overflow));
    assert_eq!(add_noise(-edge, edge - max - 1), Err(Error::Overflow));
    // A clipped draw (|Z| ≥ 2^63 reported as ±(2^63 − 1)) overflows from every centre,
    // as the exact sum does.
    for center in [-edge, 0, edge] {
        assert_eq!(add_noise(center, i64::MAX), Err(Error::Overflow));
        assert_eq!(add_noise(center, -i64::MAX), Err(Error::Overflow));
    }
}

proptest! {
    /// The sensitivity lemma on the default grid: exact neighbours `|v − v'| ≤ Δ` have
    /// grid indices at most `Δ_g` apart, and the noise scale is at least `Δ_g/ε`; with the
    /// geometric mechanism's ratio bound this is the ε-DP proof. Values and offsets are
    /// integer multiples of `unit = 2^(⌊log2 Δ⌋ − 30)` below 2^41 units, so every sum is
    /// exact.
    #[test]
    fn rounded_sensitivity_is_at_most_grid_sensitivity(
        log_sensitivity in -100.0f64..100.0,
        log_epsilon in -17.0f64..10.0,
        a in -(1i64 << 40)..(1i64 << 40),
        fraction in -1.0f64..=1.0,
    ) {
        let sensitivity = 2f64.powf(log_sensitivity);
        let epsilon = 2f64.powf(log_epsilon);
        let mech = LaplaceMechanism::new(Privacy::pure(epsilon).unwrap(), sensitivity).unwrap();
        prop_assert!(mech.grid() <= sensitivity * 2f64.powi(-20));
        let unit = 2f64.powi(floor_log2(sensitivity) - 30);
        let max_units = (sensitivity / unit).floor();
        let b = (fraction * max_units).trunc();
        let (v, w) = (a as f64 * unit, (a as f64 + b) * unit);
        prop_assert!((w - v).abs() <= sensitivity);
        let gap = mech.grid_index(v).unwrap().abs_diff(mech.grid_index(w).unwrap());
        prop_assert!(gap <= mech.grid_sensitivity());
        let (t, s) = mech.noise().scale_ratio();
        // b = t/s ≥ Δ_g/ε  ⇔  t ≥ Δ_g·s/ε (checked in f64 with a relative margin of 1e-12
        // only against rounding of this check itself).
        prop_assert!(t as f64 * epsilon >= mech.grid_sensitivity() as f64 * s as f64 * (1.0 - 1e-12));
    }
}
