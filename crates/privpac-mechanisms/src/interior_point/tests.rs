//! TreeLog: recursion shape, the calibrated guarantee, the sample-size bound, seeded
//! utility checks, and exact output distributions on a tiny domain.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::*;

#[test]
fn recursion_depths() {
    assert_eq!(recursion(64, 8), (1, 7));
    assert_eq!(recursion(8, 8), (0, 8));
    assert_eq!(recursion(64, 2), (3, 2));
    assert_eq!(recursion(20, 2), (3, 2));
    assert_eq!(recursion(3, 2), (1, 2));
}

#[test]
fn candidates_are_the_subtree_ends_and_middles() {
    // Node 0b01 at level 2 of a 4-bit domain covers [4, 7].
    assert_eq!(candidates(4, 2, 0b01), [4, 5, 6, 7]);
    assert_eq!(candidates(4, 4, 9), [9; 4]);
    let top = u128::from(u64::MAX);
    assert_eq!(candidates(64, 0, 0), [0, top / 2, top / 2 + 1, top]);
}

#[test]
fn the_calibrated_guarantee_is_within_the_target() {
    for (epsilon, delta) in [(1.0, 1e-6), (0.5, 1e-9), (4.0, 1e-3)] {
        for (bits, base) in [(64u32, 8u32), (64, 2), (16, 8), (9, 8)] {
            for n in [50u64, 10_000, 1_000_000] {
                let privacy = Privacy::new(epsilon, delta).unwrap();
                let treelog = TreeLog::with_base_bits(privacy, bits, n, base).unwrap();
                let (e, d) = TreeLog::guarantee_of(treelog.parameters(), bits, n).unwrap();
                assert!(
                    e <= epsilon && d <= delta,
                    "{bits}/{base} n={n}: ({e}, {d})"
                );
                // Not needlessly loose: ε within 1.5% and δ within a factor 10 of the target
                // (δ₀ is also capped by ε₀/(4n) and 10⁻³).
                assert!(e >= epsilon * 0.985, "{e}");
                assert_eq!(treelog.privacy(), privacy);
                let p = treelog.parameters();
                let l = (1.0 / p.delta0).ln() / p.epsilon0;
                assert!(p.trim as f64 >= 3.0 * l + 1.0);
            }
        }
    }
    // A base-case domain is the exponential mechanism at ε, pure.
    let small = TreeLog::new(Privacy::new(1.0, 1e-6).unwrap(), 8, 10).unwrap();
    assert_eq!(small.levels(), 0);
    assert_eq!(
        TreeLog::guarantee_of(small.parameters(), 8, 10).unwrap(),
        (1.0, 0.0)
    );
}

#[test]
fn the_sample_size_bound_is_a_fixed_point() {
    let privacy = Privacy::new(1.0, 1e-6).unwrap();
    let n = TreeLog::min_sample_size(privacy, 64, 0.1).unwrap();
    let treelog = TreeLog::new(privacy, 64, n).unwrap();
    assert!(treelog.sample_size_needed(0.1).unwrap() <= n);
    let smaller = TreeLog::new(privacy, 64, n - 1).unwrap();
    assert!(smaller.sample_size_needed(0.1).unwrap() > n - 1);
}

fn is_interior(sample: &[u64], y: u64) -> bool {
    sample.iter().any(|&x| x <= y) && sample.iter().any(|&x| x >= y)
}

#[test]
fn returns_an_interior_point_at_the_bound_on_two_to_the_sixty_four() {
    // Each run fails with probability at most (2N + 1)δ₀ < 10⁻¹¹ (N = 1); 6 runs.
    let privacy = Privacy::new(1.0, 1e-6).unwrap();
    let n = TreeLog::min_sample_size(privacy, 64, 0.1).unwrap();
    let treelog = TreeLog::new(privacy, 64, n).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(39);
    let samples: Vec<Vec<u64>> = vec![
        (0..n).map(|_| rng.random::<u64>()).collect(),
        vec![u64::MAX - 7; n as usize],
        (0..n)
            .map(|i| if i % 2 == 0 { 3 } else { 1 << 40 })
            .collect(),
        (0..n).map(|i| u64::MAX - (i % 5)).collect(),
        (0..n).map(|i| i / 1000).collect(),
        (0..n).map(|i| (i * 31) << 20).collect(),
    ];
    for (k, sample) in samples.iter().enumerate() {
        let y = treelog.run(sample, &mut rng).unwrap();
        assert!(is_interior(sample, y), "sample {k}: {y}");
    }
}

#[test]
fn returns_an_interior_point_through_three_recursive_levels() {
    // Base 2 on 2^16 values: 16 → 5 → 3 → 2 bits, N = 3; failure probability < 10⁻¹¹.
    let privacy = Privacy::new(2.0, 1e-4).unwrap();
    let n = TreeLog::min_sample_size_with_base(privacy, 16, 2, 0.1).unwrap();
    let treelog = TreeLog::with_base_bits(privacy, 16, n, 2).unwrap();
    assert_eq!(treelog.levels(), 3);
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let sample: Vec<u64> = (0..n).map(|_| rng.random_range(100..200u64)).collect();
    let y = treelog.run(&sample, &mut rng).unwrap();
    assert!(is_interior(&sample, y), "{y}");
}

#[test]
fn rejects_invalid_input() {
    let privacy = Privacy::new(1.0, 1e-6).unwrap();
    assert!(TreeLog::new(privacy, 0, 10).is_err());
    assert!(TreeLog::new(privacy, 65, 10).is_err());
    assert!(TreeLog::new(privacy, 64, 0).is_err());
    assert!(TreeLog::with_base_bits(privacy, 64, 10, 1).is_err());
    assert!(matches!(
        TreeLog::new(Privacy::pure(1.0).unwrap(), 64, 10),
        Err(Error::InvalidDelta { .. })
    ));
    let treelog = TreeLog::new(privacy, 4, 3).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    assert!(treelog.run(&[1, 2], &mut rng).is_err());
    assert!(treelog.run(&[1, 2, 16], &mut rng).is_err());
    assert!(treelog.run(&[1, 2, 15], &mut rng).unwrap() < 16);
    assert!(TreeLog::min_sample_size(privacy, 64, 0.0).is_err());
    // Trimming below 3·ln(1/δ₀)/ε₀ + 1 is refused by the explicit constructor.
    let weak = TreeLogParameters {
        epsilon0: 1.0,
        delta0: 0.05,
        trim: 5,
        base_bits: 2,
    };
    assert!(TreeLog::from_parameters(weak, 3, 40).is_err());
}
