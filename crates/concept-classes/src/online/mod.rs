//! Online learning over explicit classes: the [`OnlineLearner`] trait, [`Halving`] and the
//! Standard Optimal Algorithm [`Soa`], a mistake-counting harness, and adversaries (one
//! that walks a Littlestone tree and forces a mistake per level, one that labels random
//! points by a random target).
//!
//! Points are column indices of a [`crate::ClassMatrix`]. Learners keep their version
//! space (the concepts consistent with the examples so far) as a bitset over concepts.

mod adversary;
mod halving;
mod soa;

pub use adversary::{Adversary, MistakeReport, run_online};
pub use halving::Halving;
pub use soa::Soa;

use crate::error::Result;

/// How a learner breaks a tie between the two labels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TieRule {
    /// Predict 1 on ties.
    #[default]
    PredictOne,
    /// Predict 0 on ties.
    PredictZero,
}

impl TieRule {
    fn label(self) -> bool {
        self == TieRule::PredictOne
    }
}

/// A learner in the mistake-bound model: it predicts a label for each point, then sees the
/// true label.
pub trait OnlineLearner {
    /// The prediction for point `x`.
    ///
    /// # Errors
    /// Implementation-specific (for example a state budget of an exact computation).
    fn predict(&mut self, x: usize) -> Result<bool>;

    /// Reveals the true label of `x`.
    ///
    /// # Errors
    /// [`crate::Error::NotRealizable`] if no concept of the class is consistent with the
    /// examples so far.
    fn update(&mut self, x: usize, y: bool) -> Result<()>;

    /// A short name for reports.
    fn name(&self) -> &'static str;
}

/// `set ∩ column` (label 1) or `set \ column` (label 0), written into `out`.
pub(crate) fn restrict(set: &[u64], column: &[u64], label: bool, out: &mut Vec<u64>) {
    out.clear();
    if label {
        out.extend(set.iter().zip(column).map(|(s, c)| s & c));
    } else {
        out.extend(set.iter().zip(column).map(|(s, c)| s & !c));
    }
}

/// Number of concepts in a bitset.
pub(crate) fn count(set: &[u64]) -> u64 {
    set.iter().map(|w| u64::from(w.count_ones())).sum()
}

#[cfg(test)]
mod tests;
