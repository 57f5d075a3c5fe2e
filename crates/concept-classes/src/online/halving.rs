//! The Halving algorithm.

use crate::error::{Error, Result};
use crate::matrix::ClassMatrix;
use crate::online::{OnlineLearner, TieRule, count, restrict};

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
    version_space: Vec<u64>,
    scratch: Vec<u64>,
    tie_rule: TieRule,
    rounds: usize,
}

impl<'m> Halving<'m> {
    /// Halving over the concepts of `matrix`.
    pub fn new(matrix: &'m ClassMatrix, tie_rule: TieRule) -> Self {
        Halving {
            matrix,
            version_space: matrix.all_concepts(),
            scratch: Vec::with_capacity(matrix.column_words()),
            tie_rule,
            rounds: 0,
        }
    }

    /// The number of concepts still consistent.
    pub fn version_space_size(&self) -> u64 {
        count(&self.version_space)
    }
}

impl OnlineLearner for Halving<'_> {
    fn predict(&mut self, x: usize) -> Result<bool> {
        let column = self.matrix.column(x);
        let ones: u64 = self
            .version_space
            .iter()
            .zip(column)
            .map(|(s, c)| u64::from((s & c).count_ones()))
            .sum();
        let zeros = count(&self.version_space) - ones;
        Ok(match ones.cmp(&zeros) {
            std::cmp::Ordering::Greater => true,
            std::cmp::Ordering::Less => false,
            std::cmp::Ordering::Equal => self.tie_rule.label(),
        })
    }

    fn update(&mut self, x: usize, y: bool) -> Result<()> {
        self.rounds += 1;
        restrict(
            &self.version_space,
            self.matrix.column(x),
            y,
            &mut self.scratch,
        );
        if count(&self.scratch) == 0 {
            return Err(Error::NotRealizable { round: self.rounds });
        }
        std::mem::swap(&mut self.version_space, &mut self.scratch);
        Ok(())
    }

    fn name(&self) -> &'static str {
        "halving"
    }
}
