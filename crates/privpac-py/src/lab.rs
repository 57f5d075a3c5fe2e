//! Lab bindings (scenarios, trials, empirical sample complexity, experiment work units):
//! helper "py2" fills this file; until then `register` adds nothing.

use pyo3::prelude::*;

/// Adds the lab bindings to the native module (none yet).
pub(crate) fn register(_py: Python<'_>, _module: &Bound<'_, PyModule>) -> PyResult<()> {
    Ok(())
}
