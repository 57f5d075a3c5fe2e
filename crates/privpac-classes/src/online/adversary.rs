//! Adversaries and the mistake-counting harness.

use rand::{Rng, RngExt};
use serde::Serialize;

use crate::dimension::LittlestoneTree;
use crate::error::Result;
use crate::matrix::ClassMatrix;
use crate::online::OnlineLearner;

/// Where the examples of an online run come from.
#[derive(Debug, Clone)]
pub enum Adversary {
    /// Walk a (shattered) Littlestone tree: at each node ask the node's point and reveal
    /// the label the learner did *not* predict, so every deterministic learner errs once
    /// per level; then continue with random points labeled by a concept consistent with
    /// the path. With a tree of depth `Ldim(C)` this forces exactly `Ldim(C)` mistakes on
    /// SOA (and at least that many on any deterministic learner).
    Tree(LittlestoneTree),
    /// Random points labeled by a uniformly random target concept.
    Random,
}

/// The outcome of an online run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct MistakeReport {
    /// The learner's name.
    pub learner: String,
    /// Rounds played.
    pub rounds: usize,
    /// Mistakes made.
    pub mistakes: usize,
    /// The examples shown, in order: (point, true label, prediction).
    pub transcript: Vec<(usize, bool, bool)>,
}

/// The most rounds [`run_online`] accepts: its transcript keeps one entry per round, so a
/// larger count is refused with [`crate::Error::TooLarge`] before anything is allocated.
pub const MAX_ONLINE_ROUNDS: usize = 1 << 24;

/// Plays `rounds` rounds of `adversary` against `learner` over the class `matrix`.
///
/// # Errors
/// The learner's errors (a state budget, or a non-realizable sequence, which a correct
/// adversary never produces).
pub fn run_online<R: Rng + ?Sized>(
    learner: &mut dyn OnlineLearner,
    matrix: &ClassMatrix,
    adversary: &Adversary,
    rounds: usize,
    rng: &mut R,
) -> Result<MistakeReport> {
    if rounds > MAX_ONLINE_ROUNDS {
        return Err(crate::Error::TooLarge {
            what: "an online run's transcript",
            needed: rounds as u128,
            unit: "rounds",
            limit: MAX_ONLINE_ROUNDS as u128,
        });
    }
    let mut transcript = Vec::with_capacity(rounds);
    let mut version_space = matrix.all_concepts();
    let mut scratch = Vec::with_capacity(matrix.column_words());
    let mut node = match adversary {
        Adversary::Tree(tree) => Some(tree),
        Adversary::Random => None,
    };
    let mut target: Option<usize> = match adversary {
        Adversary::Random => Some(rng.random_range(0..matrix.n_concepts())),
        Adversary::Tree(_) => None,
    };
    for _ in 0..rounds {
        let (x, y, prediction) = match node {
            Some(LittlestoneTree::Node { point, zero, one }) => {
                let prediction = learner.predict(*point)?;
                let y = !prediction;
                node = Some(if y { one } else { zero });
                (*point, y, prediction)
            }
            _ => {
                let concept = *target.get_or_insert_with(|| version_space.first().unwrap_or(0));
                let x = rng.random_range(0..matrix.n_points());
                (x, matrix.get(concept, x), learner.predict(x)?)
            }
        };
        learner.update(x, y)?;
        version_space.restrict_in_place(matrix.column(x), y, &mut scratch);
        debug_assert!(
            !version_space.is_empty(),
            "adversaries only produce realizable sequences"
        );
        transcript.push((x, y, prediction));
    }
    Ok(MistakeReport {
        learner: learner.name().to_string(),
        rounds,
        mistakes: transcript.iter().filter(|(_, y, p)| y != p).count(),
        transcript,
    })
}
