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

pub use adversary::{Adversary, MAX_ONLINE_ROUNDS, MistakeReport, run_online};
pub use halving::Halving;
pub use soa::Soa;

use crate::ConceptSet;
use crate::concept_set::restrict_words;
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

/// The concepts of a matrix still consistent with the examples seen so far.
#[derive(Debug, Clone)]
pub(crate) struct VersionSpace {
    set: ConceptSet,
    scratch: Vec<u64>,
    rounds: usize,
}

impl VersionSpace {
    /// Every concept of `matrix`.
    pub(crate) fn new(matrix: &crate::matrix::ClassMatrix) -> Self {
        VersionSpace {
            set: matrix.all_concepts(),
            scratch: Vec::with_capacity(matrix.column_words()),
            rounds: 0,
        }
    }

    /// The consistent concepts.
    pub(crate) fn set(&self) -> &ConceptSet {
        &self.set
    }

    /// Keeps the concepts that label `x` with `y`.
    ///
    /// # Errors
    /// [`crate::Error::NotRealizable`] if none is left (the version space is unchanged).
    pub(crate) fn observe(
        &mut self,
        matrix: &crate::matrix::ClassMatrix,
        x: usize,
        y: bool,
    ) -> Result<()> {
        self.rounds += 1;
        let column = matrix.column(x);
        restrict_words(self.set.as_words(), column, y, &mut self.scratch);
        if count(&self.scratch) == 0 {
            return Err(crate::Error::NotRealizable { round: self.rounds });
        }
        self.set.restrict_in_place(column, y, &mut self.scratch);
        Ok(())
    }
}

/// The label whose score is larger, ties broken by `tie_rule`.
pub(crate) fn vote<T: Ord>(ones: T, zeros: T, tie_rule: TieRule) -> bool {
    match ones.cmp(&zeros) {
        std::cmp::Ordering::Greater => true,
        std::cmp::Ordering::Less => false,
        std::cmp::Ordering::Equal => tie_rule.label(),
    }
}

/// Number of concepts in a bitset.
pub(crate) fn count(set: &[u64]) -> u64 {
    set.iter().map(|w| u64::from(w.count_ones())).sum()
}

#[cfg(test)]
mod tests;
