//! The native module `privpac._privpac` behind the Python package `privpac` (PyO3, abi3,
//! built with maturin: `pip install ./crates/privpac-py`).
//!
//! The bindings are thin: every class wraps the Rust type of the same name and reports the
//! same guarantee; Rust errors become the exceptions of `privpac.errors` (`errors.rs`), and
//! every randomized call takes `seed=` and seeds ChaCha8 exactly as the CLI's `--seed`
//! (`rng.rs`), so the same seed and inputs give the same outputs as `privpac`. numpy inputs
//! are read in place where a view suffices (`arrays.rs`), and long computations release the
//! GIL. The Python side (`python/privpac/`) re-exports these classes and defines the
//! exception classes.

mod arrays;
mod audit;
mod classes;
mod data;
mod errors;
mod fingerprinting;
mod interrupt;
mod lab;
mod learners;
mod mechanisms;
mod predictions;
mod predictor;
mod python_learner;
mod python_multi_learner;
mod rng;

use pyo3::prelude::*;

/// The native module; `privpac/__init__.py` re-exports its contents.
#[pymodule]
fn _privpac(module: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = module.py();
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    mechanisms::register(module)?;
    classes::register(module)?;
    learners::register(module)?;
    lab::register(py, module)?;
    audit::register(py, module)?;
    data::register(py, module)?;
    fingerprinting::register(module)?;
    Ok(())
}
