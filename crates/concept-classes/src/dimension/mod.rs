//! Exact combinatorial dimensions of explicit classes ([`crate::ClassMatrix`]) with
//! checkable witnesses: the VC dimension with a shattered set, and the Littlestone
//! dimension with a Littlestone (mistake) tree.
//!
//! Version spaces are bitsets over the concepts of a matrix (`matrix.column_words()` words,
//! bit `c` set when concept `c` is still consistent); `V & column(x)` are the concepts of
//! `V` that label `x` with 1.

use serde::Serialize;

/// A Littlestone tree: a complete binary tree whose internal nodes are points of the
/// domain; the edge to `zero` is labeled 0 and the edge to `one` labeled 1. A tree of depth
/// `d` is *shattered* by a class when every root-to-leaf path (the sequence of points with
/// the labels of the edges taken) is realized by some concept; `Ldim(C)` is the largest
/// depth of a shattered tree (Littlestone 1988).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
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
    /// The depth of the tree (the length of its shortest root-to-leaf path; witness trees
    /// are complete, so every path has this length).
    pub fn depth(&self) -> u32 {
        match self {
            LittlestoneTree::Leaf => 0,
            LittlestoneTree::Node { zero, one, .. } => 1 + zero.depth().min(one.depth()),
        }
    }
}
