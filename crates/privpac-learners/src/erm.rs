//! Non-private baselines: empirical risk minimization over the class.

use privpac_accounting::Guarantee;
use privpac_classes::{ConceptClass, Consistency, ErrorRun, Hypothesis, LabeledSample};
use rand::Rng;

use crate::error::{Error, Result};
use crate::learner::Learner;
use crate::predictor::Predictor;

/// Whether ERM assumes a consistent concept exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ErmMode {
    /// Return a concept with zero mistakes, or fail with [`Error::NotRealizable`].
    Realizable,
    /// Return a concept with the fewest mistakes (ties: the smallest id).
    #[default]
    Agnostic,
}

/// Empirical risk minimization (not private): the first concept (smallest id) with the
/// fewest mistakes on the sample, found from the class's error profile (its fast path when
/// the class has one).
///
/// # Sample complexity
/// Realizable: `O((d ln(1/α) + ln(1/β))/α)` examples for VC dimension d; agnostic:
/// `O((d + ln(1/β))/α²)` (see [`crate::bounds`]).
///
/// # Running time
/// One error profile (O(n log n) for thresholds and points, O(n + d·2^d) for parities,
/// O(|C|·n) by brute force otherwise) plus a pass over its runs.
///
/// Two structured shortcuts give the same answer without a profile:
/// * classes with a consistency test ([`ConceptClass::smallest_consistent`]: parities, by
///   Gaussian elimination over GF(2) in O(n·d) at every d ≤ 64) answer directly when a
///   consistent concept exists (the smallest consistent id is the first concept with 0
///   mistakes). When none exists the profile is needed; for parities above 2^28 concepts
///   it is refused, since the fewest mistakes is then maximum-likelihood decoding of a
///   binary linear code, NP-hard (Berlekamp–McEliece–van Tilborg 1978).
/// * classes above [`privpac_mechanisms::MAX_TOTAL_COUNT`] (2^60) concepts with wide
///   levels ([`ConceptClass::wide_error_levels`]: intervals, not(intervals) and
///   both(intervals) over more than about 2^30.5 points) return the first concept of the
///   lowest level in the class's order by its parts ([`Hypothesis::Interval`],
///   [`Hypothesis::NotInterval`]), since its id may not fit 64 bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Erm {
    /// Realizable or agnostic.
    pub mode: ErmMode,
}

impl Learner for Erm {
    fn learn(
        &self,
        class: &dyn ConceptClass,
        sample: &LabeledSample,
        _rng: &mut dyn Rng,
    ) -> Result<Predictor> {
        if class.len() > u128::from(privpac_mechanisms::MAX_TOTAL_COUNT)
            && let Some(levels) = class.wide_error_levels(sample)?
        {
            let lowest = levels.first().ok_or(Error::EmptySample)?;
            if self.mode == ErmMode::Realizable && lowest.errors > 0 {
                return Err(Error::NotRealizable {
                    class: class.name(),
                    best: lowest.errors,
                });
            }
            let parts = class
                .parts_with_errors(sample, lowest.errors, 0)?
                .ok_or(Error::EmptySample)?; // unreachable: every level has a member
            return Ok(Hypothesis::from(parts).into());
        }
        if let Some(Consistency::Consistent(id)) = class.smallest_consistent(sample)? {
            return Ok(Hypothesis::Concept { id }.into());
        }
        // Classes that give levels (intervals): the first concept of the lowest level in id
        // order, the first concept of the first best run.
        let best = match class.error_levels(sample)? {
            Some(levels) => {
                let lowest = levels.first().ok_or(Error::EmptySample)?;
                let id = class
                    .concept_with_errors(sample, lowest.errors, 0)?
                    .ok_or(Error::EmptySample)?;
                ErrorRun {
                    first: id,
                    len: lowest.count,
                    errors: lowest.errors,
                }
            }
            None => best_run(&class.error_runs(sample)?).ok_or(Error::EmptySample)?,
        };
        if self.mode == ErmMode::Realizable && best.errors > 0 {
            return Err(Error::NotRealizable {
                class: class.name(),
                best: best.errors,
            });
        }
        Ok(Hypothesis::Concept { id: best.first }.into())
    }

    fn guarantee(&self, _examples: usize) -> Guarantee {
        Guarantee::None
    }

    fn name(&self) -> String {
        match self.mode {
            ErmMode::Realizable => "erm-realizable".into(),
            ErmMode::Agnostic => "erm".into(),
        }
    }
}

/// The first run with the fewest mistakes.
pub(crate) fn best_run(runs: &[ErrorRun]) -> Option<ErrorRun> {
    runs.iter()
        .copied()
        .reduce(|best, run| if run.errors < best.errors { run } else { best })
}
