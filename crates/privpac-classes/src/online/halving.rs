//! The Halving algorithm.

use crate::error::Result;
use crate::matrix::ClassMatrix;
use crate::online::{OnlineLearner, TieRule, VersionSpace, vote};

/// Halving (Littlestone 1988; Angluin 1988): predict the majority vote of the version
/// space. Each mistake at least halves the version space, so it makes at most
/// ⌊log2 |C|⌋ mistakes on any realizable sequence. Ties are broken by a [`TieRule`]; the
/// worst case depends on it.
///
/// # Running time
/// O(|C|/64) word operations per round.
#[derive(Debug, Clone)]
pub struct Halving<'m> {
    matrix: &'m ClassMatrix,
    version_space: VersionSpace,
    tie_rule: TieRule,
}

impl<'m> Halving<'m> {
    /// Halving over the concepts of `matrix`.
    pub fn new(matrix: &'m ClassMatrix, tie_rule: TieRule) -> Self {
        Halving {
            matrix,
            version_space: VersionSpace::new(matrix),
            tie_rule,
        }
    }

    /// The number of concepts still consistent.
    pub fn version_space_size(&self) -> u64 {
        self.version_space.set().len() as u64
    }
}

impl OnlineLearner for Halving<'_> {
    fn predict(&mut self, x: usize) -> Result<bool> {
        let column = self.matrix.column(x);
        let ones: u64 = self
            .version_space
            .set()
            .as_words()
            .iter()
            .zip(column)
            .map(|(s, c)| u64::from((s & c).count_ones()))
            .sum();
        let zeros = self.version_space.set().len() as u64 - ones;
        Ok(vote(ones, zeros, self.tie_rule))
    }

    fn update(&mut self, x: usize, y: bool) -> Result<()> {
        self.version_space.observe(self.matrix, x, y)
    }

    fn name(&self) -> &'static str {
        "halving"
    }
}
