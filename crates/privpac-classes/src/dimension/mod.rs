//! Exact combinatorial dimensions of explicit classes ([`crate::ClassMatrix`]) with
//! checkable witnesses: the VC dimension with a shattered set, and the Littlestone
//! dimension with a Littlestone (mistake) tree.
//!
//! Version spaces are bitsets over the concepts of a matrix (`matrix.column_words()` words,
//! bit `c` set when concept `c` is still consistent); `V & column(x)` are the concepts of
//! `V` that label `x` with 1.
//!
//! | What | Entry point | Witness | Checker |
//! |---|---|---|---|
//! | VC dimension | [`vc_dimension`] | [`VcResult::shattered`] | [`check_shattered`] |
//! | Littlestone dimension of the class | [`littlestone_dimension`] | [`LdimResult::tree`] | [`check_littlestone_tree`] |
//! | Littlestone dimension of version spaces (SOA) | [`LittlestoneSolver::ldim`] | [`LittlestoneSolver::tree`] | [`check_littlestone_tree`] |
//!
//! Both problems are hard in general (computing the VC dimension is LOGNP-complete, and the
//! Littlestone dimension of an explicit class takes quasi-polynomial time in the worst
//! case), so both calculators are exact searches with pruning and a [`Budget`]: they never
//! approximate, and a search that would exceed its budget stops with
//! [`crate::Error::StateBudgetExceeded`] instead of running out of memory.
//!
//! Design decisions:
//! - *Witnesses are part of the answer.* Every result carries a witness that an independent,
//!   simple checker verifies, so a wrong answer from a pruning bug cannot go unnoticed in
//!   tests: an answer too small has a larger witness that the brute-force cross-checks find,
//!   and an answer too large has a witness that the checker rejects.
//! - *The plain recursion is kept as the reference* ([`Engine::Plain`]): the pruned engine
//!   must agree with it on every class the tests generate.
//!
//! # Example
//! ```
//! use privpac_classes::ClassMatrix;
//! use privpac_classes::dimension::{
//!     Budget, Engine, check_littlestone_tree, check_shattered, littlestone_dimension,
//!     vc_dimension,
//! };
//!
//! // Thresholds over 8 points: c_t(y) = 1 iff y ≤ t.
//! let thresholds = ClassMatrix::parse("10000000\n11000000\n11100000\n11110000\n\
//!                                      11111000\n11111100\n11111110\n11111111")?;
//! let vc = vc_dimension(&thresholds, &Budget::default())?;
//! assert_eq!(vc.dimension, 1);
//! check_shattered(&thresholds, &vc.shattered)?;
//!
//! let ldim = littlestone_dimension(&thresholds, Engine::Pruned, &Budget::default())?;
//! assert_eq!(ldim.dimension, 3); // binary search: ⌊log2 8⌋ mistakes
//! assert_eq!(check_littlestone_tree(&thresholds, &ldim.tree)?, 3);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod bits;
mod littlestone;
mod memo;
mod vc;

#[cfg(test)]
mod closed_form_tests;
#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};

pub use littlestone::{
    Engine, LdimResult, LittlestoneSolver, check_littlestone_tree, littlestone_dimension,
};
pub use vc::{VcResult, check_shattered, vc_dimension};

/// A Littlestone tree: a complete binary tree whose internal nodes are points of the
/// domain; the edge to `zero` is labeled 0 and the edge to `one` labeled 1. A tree of depth
/// `d` is *shattered* by a class when every root-to-leaf path (the sequence of points with
/// the labels of the edges taken) is realized by some concept; `Ldim(C)` is the largest
/// depth of a shattered tree (Littlestone 1988).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LittlestoneTree {
    /// A leaf (depth 0).
    Leaf,
    /// An internal node.
    Node {
        /// The point queried at this node (a column index of the matrix).
        point: usize,
        /// The subtree followed when the label is 0.
        zero: Box<LittlestoneTree>,
        /// The subtree followed when the label is 1.
        one: Box<LittlestoneTree>,
    },
}

impl LittlestoneTree {
    /// The tree with the two children of every node swapped: the witness for the complement
    /// class `¬C` ([`crate::Not`]) from a witness for `C` (every path's labels flipped, each
    /// realized by the complement of the concept that realized it).
    ///
    /// # Example
    /// ```
    /// use privpac_classes::dimension::LittlestoneTree;
    /// let leaf = || Box::new(LittlestoneTree::Leaf);
    /// let tree = LittlestoneTree::Node { point: 3, zero: leaf(), one: Box::new(
    ///     LittlestoneTree::Node { point: 5, zero: leaf(), one: leaf() }) };
    /// let swapped = LittlestoneTree::Node { point: 3, zero: Box::new(
    ///     LittlestoneTree::Node { point: 5, zero: leaf(), one: leaf() }), one: leaf() };
    /// assert_eq!(tree.complemented(), swapped);
    /// ```
    #[must_use]
    pub fn complemented(&self) -> LittlestoneTree {
        match self {
            LittlestoneTree::Leaf => LittlestoneTree::Leaf,
            LittlestoneTree::Node { point, zero, one } => LittlestoneTree::Node {
                point: *point,
                zero: Box::new(one.complemented()),
                one: Box::new(zero.complemented()),
            },
        }
    }

    /// The depth of the tree (the length of its shortest root-to-leaf path; witness trees
    /// are complete, so every path has this length).
    pub fn depth(&self) -> u32 {
        match self {
            LittlestoneTree::Leaf => 0,
            LittlestoneTree::Node { zero, one, .. } => 1 + zero.depth().min(one.depth()),
        }
    }
}

/// How much work an exact dimension computation may do before it gives up with
/// [`crate::Error::StateBudgetExceeded`].
///
/// - For the Littlestone dimension a *state* is one memo entry of a
///   [`LittlestoneSolver`] (one version space with its known bounds). An entry takes
///   85–170 bytes in the table (64-byte slots, growth at 3/4 load), plus 8–16 bytes per
///   key word for keys longer than 6 words (kept in an arena that grows by doubling). A
///   key is the version space's list of concepts (two per word) or its bitset from the
///   first to the last non-zero word, whichever is shorter, plus one word. With the
///   default budget of 20 million states the memo therefore stays within about 3.5 GB
///   when keys fit in the slots (always for classes of at most 320 concepts) and within
///   about 9 GB for 1024 concepts in the worst case; searches that finish typically use a
///   small fraction of that. Lower `max_states` on smaller machines.
/// - For the VC dimension a *state* is one node of the branch-and-bound search that
///   survived its bound (a shattered set that may still grow to the size searched for);
///   evaluating the bound of its up to `|X|` children costs `O(|C| · ⌈|X| / 64⌉)` word
///   operations each. The search uses memory linear in the matrix size, so the budget
///   only bounds the running time: the default allows minutes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// The largest number of states the computation may create.
    pub max_states: u64,
}

impl Budget {
    /// The default limit: 20 million states.
    pub const DEFAULT_MAX_STATES: u64 = 20_000_000;
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            max_states: Budget::DEFAULT_MAX_STATES,
        }
    }
}
