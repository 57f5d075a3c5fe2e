//! Value-stability tests: seeded outputs of the exact samplers, pinned to the values they
//! produce today.
//!
//! A seed is a promise: `privpac --seed`, the lab and the benches document that the same
//! seed gives the same output. That holds only if both the generator and our samplers
//! are stable, which is why seeded code uses the named generators of `rand_chacha`
//! (specified algorithms) and never `StdRng` (which `rand` documents as free to change
//! between versions). **A change in any value below is a breaking change of
//! reproducibility**: it must be deliberate, announced in the release notes, and come with
//! updated values here, never a silently edited expectation. The samplers read the
//! generator only through `next_u64`, so these values depend on ChaCha's output stream
//! and on our algorithms, not on `rand`'s distribution code.

use privpac_accounting::Privacy;
use privpac_mechanisms::{
    DiscreteLaplace, DiscreteLaplaceMechanism, ExponentialMechanism, LaplaceMechanism,
    RandomizedResponse,
};
use rand::SeedableRng;
use rand::distr::Distribution;
use rand_chacha::{ChaCha8Rng, ChaCha20Rng};

#[test]
fn discrete_laplace_draws_are_stable() {
    let noise = DiscreteLaplace::new(3.0).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    let draws: Vec<i64> = (0..10).map(|_| noise.sample(&mut rng)).collect();
    assert_eq!(draws, [-1, -6, 0, 0, -6, -3, -8, -6, -7, 0]);

    // ε = 0.1, Δ = 1: the exact rational scale 2^55/m of the f64 0.1.
    let noise = DiscreteLaplace::for_epsilon(0.1, 1).unwrap();
    let rng = ChaCha20Rng::seed_from_u64(2024);
    let draws: Vec<i64> = noise.sample_iter(rng).take(10).collect();
    assert_eq!(draws, [-12, 26, -7, -30, 6, -7, -18, 23, 16, -13]);
}

#[test]
fn discrete_laplace_mechanism_releases_are_stable() {
    // The mechanism adds one draw of the same noise: the first draws above, plus 100.
    let mech = DiscreteLaplaceMechanism::new(Privacy::pure(0.1).unwrap(), 1).unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(2024);
    let releases: Vec<i64> = (0..3)
        .map(|_| mech.release(100, &mut rng).unwrap())
        .collect();
    assert_eq!(releases, [88, 126, 93]);
}

#[test]
fn exponential_mechanism_selections_are_stable() {
    let mech = ExponentialMechanism::new(Privacy::pure(1.0).unwrap(), 1.0).unwrap();
    let scores = [10.0, 2.0, 9.5, 8.0, 9.9, 0.0];
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let chosen: Vec<usize> = (0..12)
        .map(|_| mech.select(&scores, &mut rng).unwrap())
        .collect();
    assert_eq!(chosen, [4, 4, 3, 4, 2, 4, 4, 4, 3, 4, 2, 0]);
}

#[test]
fn randomized_response_is_stable() {
    let rr = RandomizedResponse::new(Privacy::pure(0.5).unwrap());
    let mut rng = ChaCha20Rng::seed_from_u64(7);
    let reported = rr.flip_labels(&[true; 16], &mut rng);
    let as_bits: String = reported
        .iter()
        .map(|&b| if b { '1' } else { '0' })
        .collect();
    assert_eq!(as_bits, "0101111011010111");
}

#[test]
fn grid_laplace_releases_are_stable() {
    // Default grid 2^-20 for Δ = 1, ε = 1.
    let mech = LaplaceMechanism::new(Privacy::pure(1.0).unwrap(), 1.0).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(99);
    let releases: Vec<f64> = (0..5)
        .map(|_| mech.release(42.0, &mut rng).unwrap())
        .collect();
    assert_eq!(
        releases,
        [
            41.379669189453125,
            41.81438064575195,
            41.94308662414551,
            40.29881191253662,
            42.68738079071045
        ]
    );

    // Grid 1/4, Δ = 1, ε = 0.5: indices of round(0.3·4) + Lap_Z(10).
    let mech = LaplaceMechanism::with_grid(Privacy::pure(0.5).unwrap(), 1.0, 2).unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(99);
    let indices: Vec<i64> = (0..10)
        .map(|_| mech.release_index(0.3, &mut rng).unwrap())
        .collect();
    assert_eq!(indices, [-29, 3, -5, 1, -23, 23, 2, 12, -12, -2]);
}
