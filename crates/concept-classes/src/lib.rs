//! Finite domains and concept classes, fast error profiles, exact VC and Littlestone
//! dimensions with checkable witnesses, and online learners (work in progress).
#![doc(test(attr(deny(warnings))))]

mod error;
mod matrix;

pub mod dimension;
pub mod online;

pub use error::{Error, Result};
pub use matrix::{ClassMatrix, DEFAULT_CELL_LIMIT, Dichotomy, sauer_shelah_bound};
