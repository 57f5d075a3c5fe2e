//! The one place a binding's `seed=` becomes a random generator, exactly as the CLI's
//! `--seed` does: `ChaCha8Rng::seed_from_u64(seed)`, or fresh OS entropy without a seed.
//! The same seed and inputs therefore give the same outputs in Python and in `privpac`.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The generator of one call: ChaCha8 seeded with `seed` (reproducible; anyone who knows the
/// seed can reproduce the randomness, so never publish outputs made with a known seed), or
/// seeded from the operating system when `seed` is `None`.
pub(crate) fn rng(seed: Option<u64>) -> ChaCha8Rng {
    match seed {
        Some(seed) => ChaCha8Rng::seed_from_u64(seed),
        None => rand::make_rng(),
    }
}
