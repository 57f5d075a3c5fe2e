//! The Standard Optimal Algorithm.

use crate::dimension::{Budget, Engine, LittlestoneSolver};
use crate::error::Result;
use crate::matrix::ClassMatrix;
use crate::online::{OnlineLearner, TieRule, VersionSpace, vote};

/// The Standard Optimal Algorithm (Littlestone 1988): predict the label `y` whose version
/// space `V^y = {c ∈ V : c(x) = y}` has the larger Littlestone dimension. Every mistake
/// lowers `Ldim(V)` by at least one, so SOA makes at most `Ldim(C)` mistakes on any
/// realizable sequence, which is optimal.
///
/// The Littlestone dimensions come from one [`LittlestoneSolver`] whose memo of version
/// spaces is shared across rounds.
///
/// # Running time
/// Two exact `Ldim` computations per prediction, mostly answered from the memo.
///
/// # Errors
/// [`crate::Error::StateBudgetExceeded`] if an `Ldim` computation exceeds the budget.
#[derive(Debug)]
pub struct Soa<'m> {
    matrix: &'m ClassMatrix,
    solver: LittlestoneSolver<'m>,
    version_space: VersionSpace,
    tie_rule: TieRule,
}

impl<'m> Soa<'m> {
    /// SOA over the concepts of `matrix`, with the pruned engine and the given budget.
    pub fn new(matrix: &'m ClassMatrix, tie_rule: TieRule, budget: Budget) -> Self {
        Soa {
            matrix,
            solver: LittlestoneSolver::new(matrix, Engine::Pruned, budget),
            version_space: VersionSpace::new(matrix),
            tie_rule,
        }
    }

    /// `Ldim` of the current version space.
    ///
    /// # Errors
    /// As for the solver.
    pub fn current_ldim(&mut self) -> Result<i32> {
        self.solver.ldim(self.version_space.set())
    }
}

impl OnlineLearner for Soa<'_> {
    fn predict(&mut self, x: usize) -> Result<bool> {
        let set = self.version_space.set();
        let ones = self.solver.ldim(&set.restrict(self.matrix, x, true)?)?;
        let zeros = self.solver.ldim(&set.restrict(self.matrix, x, false)?)?;
        Ok(vote(ones, zeros, self.tie_rule))
    }

    fn update(&mut self, x: usize, y: bool) -> Result<()> {
        self.version_space.observe(self.matrix, x, y)
    }

    fn name(&self) -> &'static str {
        "soa"
    }
}
