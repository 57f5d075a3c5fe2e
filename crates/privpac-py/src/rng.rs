//! The one place a binding's `seed=` becomes a random generator, exactly as the CLI's
//! `--seed` does: `ChaCha8Rng::seed_from_u64(seed)`, or fresh OS entropy without a seed.
//! The same seed and inputs therefore give the same outputs in Python and in `privpac`.

use pyo3::exceptions::PyOverflowError;
use pyo3::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// A `seed=` argument: a Python integer in [0, 2⁶⁴ − 1]. Out-of-range integers (−1, 2⁶⁴)
/// raise `InvalidParameterError` naming the range, not the bare `OverflowError` of a
/// `u64` conversion; a non-integer is a `TypeError` as for any integer argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Seed(pub(crate) u64);

impl<'a, 'py> FromPyObject<'a, 'py> for Seed {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        match obj.extract::<u64>() {
            Ok(seed) => Ok(Seed(seed)),
            Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => {
                Err(crate::errors::invalid(format!(
                    "seed must be an integer in [0, 2^64 - 1], got {}",
                    obj.as_any()
                )))
            }
            Err(e) => Err(e),
        }
    }
}

/// The generator of one call: ChaCha8 seeded with `seed` (reproducible; anyone who knows the
/// seed can reproduce the randomness, so never publish outputs made with a known seed), or
/// seeded from the operating system when `seed` is `None`.
pub(crate) fn rng(seed: Option<Seed>) -> ChaCha8Rng {
    match seed {
        Some(Seed(seed)) => ChaCha8Rng::seed_from_u64(seed),
        None => rand::make_rng(),
    }
}
