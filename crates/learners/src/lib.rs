//! Single-concept PAC learners, private and not, with their sample-complexity bounds
//! (work in progress: ERM baselines and the generic private learner exist).
#![doc(test(attr(deny(warnings))))]

pub mod bounds;
mod erm;
mod error;
mod generic;
mod learner;
mod stable;
mod subsample;

pub use erm::{Erm, ErmMode};
pub use error::{Error, Result};
pub use generic::GenericLearner;
pub use learner::Learner;
pub use stable::{PrivatePrediction, StableLearner};
pub use subsample::Subsampled;

#[cfg(test)]
mod tests;
