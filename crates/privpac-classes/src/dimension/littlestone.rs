//! The exact Littlestone dimension of an explicit class and of its version spaces, with a
//! shattered Littlestone tree as witness and an independent tree checker.
//!
//! # Algorithm
//!
//! `Ldim(∅) = −1`, `Ldim(V) = 0` for a single concept, and otherwise
//! `Ldim(V) = max_x 1 + min(Ldim(V_x0), Ldim(V_x1))` over the points `x` that split `V`
//! (Littlestone 1988). [`Engine::Plain`] evaluates exactly this recursion — every split
//! of every version space it reaches — with a memo of exact values keyed by the
//! version-space bitset; it is the reference.
//!
//! [`Engine::Pruned`] works on the class with duplicate concepts, constant points and
//! duplicate points (equal or complementary columns) removed, and answers the *decision*
//! question `Ldim(V) ≥ k` rather than computing values: `Ldim(V) ≥ k` iff some split has
//! `Ldim(V_x0) ≥ k − 1` and `Ldim(V_x1) ≥ k − 1`. The exact value is found by asking
//! `k = lower bound + 1, + 2, …` until the answer is no or the upper bound is reached. The
//! memo stores, per version space, the best known lower and upper bounds, so that every
//! answer — yes or no, at any `k` — is reused by later questions and by later calls (the
//! SOA learner asks about overlapping version spaces every round). The decision search
//! prunes with:
//! - `Ldim(V) ≤ ⌊log2 |V|⌋` (distinct concepts), so `|V_x0|, |V_x1| ≥ 2^(k−1)` is needed
//!   for a split to count, and `Ldim(V) ≤ 1 + max_x ⌊log2 min(|V_x0|, |V_x1|)⌋`;
//! - splits that give the same pair `{V_x0, V_x1}` (found by fingerprint, confirmed by
//!   comparison) are tried once;
//! - balanced splits first (a yes is usually found on the first try), the smaller side
//!   first (a no usually comes from it);
//! - closed forms for `k ≤ 2` (`Ldim(V) ≥ 1` iff `|V| ≥ 2`; `≥ 2` iff some split leaves
//!   two concepts on each side), which keep small version spaces out of the memo;
//! - only the points that split `V` are examined below `V`, and bitsets are trimmed to
//!   their non-zero words.
//!
//! The memo (a hash table laid out for one cache miss per lookup, see `memo.rs`) counts
//! against the [`Budget`]: one state per version space with recorded bounds.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::ConceptSet;
use crate::dimension::bits::{
    FxBuild, and_popcount, encode_key, fingerprint, nonzero_range, ones, popcount,
};
use crate::dimension::memo::{Bounds, Memo};
use crate::dimension::{Budget, LittlestoneTree};
use crate::error::{Error, Result};
use crate::matrix::ClassMatrix;

mod check;
mod reduce;

pub use check::check_littlestone_tree;
use reduce::{SMALL, fingerprint_with, floor_log2, internal_error, reduce};

/// Which algorithm a [`LittlestoneSolver`] uses. Both are exact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Engine {
    /// The decision search with bounds, split deduplication and a memo of bounds (see the
    /// module documentation). The default.
    #[default]
    Pruned,
    /// The memoized recursion `Ldim(V) = max_x 1 + min(Ldim(V_x0), Ldim(V_x1))` with no
    /// pruning at all: the cross-checking reference. It evaluates every split of every
    /// version space it reaches, on the matrix as given (duplicates included). Only
    /// bookkeeping differs from the bare recursion: a split that repeats another (same
    /// pair of sides) is evaluated once, and version spaces of at most 7 concepts are
    /// evaluated in closed form (derived from the recursion: such a `V` has value 0, 1 or
    /// 2, and 2 iff some split leaves two distinct concepts on each side) instead of
    /// being memoized.
    Plain,
}

/// The Littlestone dimension of a class with a witness tree.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct LdimResult {
    /// The Littlestone dimension (a class matrix always has a concept, so it is ≥ 0).
    pub dimension: u32,
    /// A complete Littlestone tree of depth `dimension` shattered by the class.
    pub tree: LittlestoneTree,
}

/// The exact Littlestone dimension of `matrix` with a shattered tree of that depth.
///
/// # Running time
/// Quasi-polynomial in the worst case; see [`LittlestoneSolver`] for the engines. The
/// pruned engine takes milliseconds for thresholds over 1024 points and parities over
/// `{0,1}^10` (see the `ldim` bench group).
///
/// # Errors
/// [`Error::StateBudgetExceeded`] when the memo would exceed `budget.max_states` entries.
///
/// # Example
/// ```
/// use privpac_classes::ClassMatrix;
/// use privpac_classes::dimension::{Budget, Engine, check_littlestone_tree, littlestone_dimension};
///
/// // Parities over {0,1}^3: concept a labels y by the parity of a & y.
/// let parities = ClassMatrix::from_fn(8, 8, 64, |a, y| (a & y).count_ones() % 2 == 1)?;
/// let result = littlestone_dimension(&parities, Engine::Pruned, &Budget::default())?;
/// assert_eq!(result.dimension, 3);
/// assert_eq!(check_littlestone_tree(&parities, &result.tree)?, 3);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # References
/// - N. Littlestone, *Learning quickly when irrelevant attributes abound: a new
///   linear-threshold algorithm*, Machine Learning 2(4), 1988.
pub fn littlestone_dimension(
    matrix: &ClassMatrix,
    engine: Engine,
    budget: &Budget,
) -> Result<LdimResult> {
    let mut solver = LittlestoneSolver::new(matrix, engine, *budget);
    let all = matrix.all_concepts();
    let dimension = solver.ldim(&all)?;
    let tree = solver.tree(&all)?;
    Ok(LdimResult {
        dimension: dimension.max(0) as u32,
        tree,
    })
}

/// An exact Littlestone-dimension calculator for the version spaces of one class, with a
/// memo shared by all calls.
///
/// The SOA learner calls [`Self::ldim`] on the two halves of its version space every
/// round; the memo makes later rounds cheap, because their version spaces (and those of
/// the searches below them) have mostly been seen before.
///
/// # Running time
/// Each search state costs `O(|X| · |V| / 64)` word operations. [`Engine::Plain`] visits
/// every version space reachable by labeling points (millions for a random class of 1024
/// concepts over 16 points: seconds); [`Engine::Pruned`] visits a small fraction of them
/// (on the same class, about a hundred, in under a millisecond). Measured with the pruned
/// engine on one core: thresholds over 4096 points in about 15 ms, parities over
/// `{0,1}^10` (a 1024 × 1024 matrix) in about 20 ms with the tree, intervals over 128
/// points in about 10 ms; the SOA learner's two calls per round take about 10 µs on
/// average on a sparse random class of 1024 concepts over 32 points.
///
/// # Errors
/// Methods return [`Error::StateBudgetExceeded`] when the memo would exceed the budget;
/// the memo stays valid, so a later call with a smaller version space may still succeed.
///
/// # Example
/// ```
/// use privpac_classes::{ClassMatrix, ConceptSet};
/// use privpac_classes::dimension::{Budget, Engine, LittlestoneSolver};
///
/// // Thresholds over 16 points.
/// let class = ClassMatrix::from_fn(16, 16, 256, |t, y| y <= t)?;
/// let mut solver = LittlestoneSolver::new(&class, Engine::Pruned, Budget::default());
/// let all = class.all_concepts();
/// assert_eq!(solver.ldim(&all)?, 4);
/// // The concepts that label point 3 with 0 (thresholds 0..=2): ⌊log2 3⌋ = 1.
/// let zero_at_3 = all.restrict(&class, 3, false)?;
/// assert_eq!(solver.ldim(&zero_at_3)?, 1);
/// assert_eq!(solver.ldim(&ConceptSet::empty(16))?, -1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct LittlestoneSolver<'m> {
    matrix: &'m ClassMatrix,
    engine: Engine,
    budget: Budget,
    /// Words of an internal version space.
    words: usize,
    /// Internal point `p` as a bitset over internal concepts: `columns[p * words..]`.
    columns: Vec<u64>,
    /// Internal point → column of the matrix.
    points: Vec<usize>,
    /// Original concept → internal concept, when the matrix has duplicate rows.
    concept_map: Option<Vec<u32>>,
    /// `0..points.len()`: the initial list of active points.
    all_points: Vec<u32>,
    /// Reusable buffers of the plain engine.
    plain_scratch: Vec<PlainScratch>,
    memo: Memo,
}

/// The splits a search node has tried, to skip a split that repeats one of them (same
/// pair of sides, from an equal or complementary restriction of the column to `V`).
///
/// Splits come in order of their smaller side, and only splits with equal smaller sides
/// can repeat each other, so only the current run of equal sizes is remembered, and
/// fingerprints (of the side without the lowest concept of `V`) are computed only once a
/// run has two splits. A fingerprint match is confirmed exactly; on the (astronomically
/// rare) collision between different splits the new split is simply tried, which costs
/// time but not correctness.
#[derive(Debug, Default)]
struct Tried {
    smaller: u32,
    /// The first splits of the run: fingerprint (once computed) and point.
    few: Vec<(Option<u64>, u32)>,
    /// The rest of a long run.
    many: HashMap<u64, u32, FxBuild>,
}

impl Tried {
    const FEW: usize = 32;

    fn clear(&mut self) {
        self.few.clear();
        self.many.clear();
    }

    /// Whether the split `split` (packed as by [`LittlestoneSolver::splits`]) repeats a
    /// split tried before; remembers it if not.
    fn is_repeat(
        &mut self,
        solver: &LittlestoneSolver<'_>,
        v: &[u64],
        base: usize,
        split: u64,
    ) -> bool {
        let (smaller, x) = (!(split >> 32) as u32, split as u32);
        if self.few.is_empty() || smaller != self.smaller {
            self.smaller = smaller;
            self.few.clear();
            self.many.clear();
            self.few.push((None, x));
            return false;
        }
        let fingerprint = Tried::fingerprint(solver, v, base, x);
        if let Some((first, y)) = self.few.first_mut()
            && first.is_none()
        {
            *first = Some(Tried::fingerprint(solver, v, base, *y));
        }
        let earlier = match self.few.iter().find(|&&(f, _)| f == Some(fingerprint)) {
            Some(&(_, y)) => Some(y),
            None => self.many.get(&fingerprint).copied(),
        };
        match earlier {
            Some(y) if solver.same_split(v, base, y, x) => true,
            Some(_) => false,
            None => {
                if self.few.len() < Self::FEW {
                    self.few.push((Some(fingerprint), x));
                } else {
                    self.many.insert(fingerprint, x);
                }
                false
            }
        }
    }

    fn fingerprint(solver: &LittlestoneSolver<'_>, v: &[u64], base: usize, x: u32) -> u64 {
        let column = solver.column(x, base, v.len());
        let lowest = v[0].trailing_zeros();
        if column[0] >> lowest & 1 == 1 {
            fingerprint_with(v, column, |a, b| a & !b)
        } else {
            fingerprint_with(v, column, |a, b| a & b)
        }
    }
}

/// The buffers of one [`LittlestoneSolver::plain_unknown`] call.
#[derive(Debug, Default)]
struct PlainScratch {
    splitting: Vec<u32>,
    splits: Vec<u64>,
    sides: Vec<u64>,
    children: Vec<PlainChild>,
    keys: Vec<u64>,
    child_key: Vec<u64>,
    tried: Tried,
}

/// One side of a split in [`LittlestoneSolver::plain_unknown`]: where its words are, its
/// size, its value if known without the memo, and its memo key.
#[derive(Debug, Clone, Copy)]
struct PlainChild {
    /// Index of its first non-zero word in the node's side buffer.
    start: usize,
    /// The same word's offset within the parent's bitset.
    offset: usize,
    len: usize,
    count: u32,
    value: Option<i32>,
    key_start: usize,
    key_len: usize,
    hash: u64,
}

impl<'m> LittlestoneSolver<'m> {
    /// A solver for the version spaces of `matrix`.
    ///
    /// # Running time
    /// `O(|C| · |X|)` preprocessing for [`Engine::Pruned`] (removing duplicate concepts and
    /// points); none for [`Engine::Plain`].
    pub fn new(matrix: &'m ClassMatrix, engine: Engine, budget: Budget) -> Self {
        let (words, columns, points, concept_map) = match engine {
            Engine::Plain => {
                let words = matrix.column_words();
                let mut columns = Vec::with_capacity(words * matrix.n_points());
                for x in 0..matrix.n_points() {
                    columns.extend_from_slice(matrix.column(x));
                }
                (words, columns, (0..matrix.n_points()).collect(), None)
            }
            Engine::Pruned => reduce(matrix),
        };
        LittlestoneSolver {
            matrix,
            engine,
            budget,
            words,
            columns,
            all_points: (0..points.len() as u32).collect(),
            plain_scratch: Vec::new(),
            points,
            concept_map,
            memo: Memo::default(),
        }
    }

    /// The number of memo entries (states) created so far.
    pub fn states(&self) -> u64 {
        self.memo.len() as u64
    }

    /// The engine in use.
    pub fn engine(&self) -> Engine {
        self.engine
    }

    /// The exact Littlestone dimension of the version space `version_space` (a bitset over
    /// the concepts of the matrix, `matrix.column_words()` words): −1 when it is empty.
    ///
    /// # Errors
    /// [`Error::InvalidVersionSpace`] if the bitset has the wrong length or bits beyond the
    /// last concept; [`Error::StateBudgetExceeded`].
    pub fn ldim(&mut self, version_space: &ConceptSet) -> Result<i32> {
        let internal = self.internalize(version_space)?;
        let count = popcount(&internal);
        if count == 0 {
            return Ok(-1);
        }
        match self.engine {
            Engine::Plain => self.plain_trimmed(&internal, 0),
            Engine::Pruned => {
                let Some((first, end)) = nonzero_range(&internal) else {
                    return Ok(-1);
                };
                self.exact(&internal[first..end], first, count)
            }
        }
    }

    /// A complete Littlestone tree of depth `Ldim(version_space)` every path of which is
    /// realized by a concept of the version space.
    ///
    /// # Errors
    /// [`Error::InvalidVersionSpace`] for a malformed or empty version space (which has no
    /// tree); [`Error::StateBudgetExceeded`].
    pub fn tree(&mut self, version_space: &ConceptSet) -> Result<LittlestoneTree> {
        let depth = self.ldim(version_space)?;
        if depth < 0 {
            return Err(Error::InvalidVersionSpace {
                reason: "the version space is empty, so it has no Littlestone tree".into(),
            });
        }
        let internal = self.internalize(version_space)?;
        match self.engine {
            Engine::Plain => self.plain_tree(&internal, depth),
            Engine::Pruned => {
                let Some((first, end)) = nonzero_range(&internal) else {
                    return Ok(LittlestoneTree::Leaf);
                };
                let count = popcount(&internal);
                let active: Vec<u32> = (0..self.points.len() as u32).collect();
                self.pruned_tree(&internal[first..end], first, count, &active, depth)
            }
        }
    }

    /// Validates a version space over the matrix's concepts and maps it to the internal
    /// concepts.
    fn internalize(&self, version_space: &ConceptSet) -> Result<Vec<u64>> {
        version_space.check_universe(self.matrix)?;
        match &self.concept_map {
            None => Ok(version_space.as_words().to_vec()),
            Some(map) => {
                let mut internal = vec![0u64; self.words];
                for c in version_space.iter() {
                    let j = map[c] as usize;
                    internal[j / 64] |= 1 << (j % 64);
                }
                Ok(internal)
            }
        }
    }

    #[inline]
    fn column(&self, point: u32, base: usize, len: usize) -> &[u64] {
        let start = point as usize * self.words + base;
        &self.columns[start..start + len]
    }

    /// The bounds stored for a key.
    #[inline]
    fn lookup(&self, key: &[u64]) -> Option<Bounds> {
        self.memo.get(key, Memo::hash(key))
    }

    /// Stores bounds for the key, tightening existing ones.
    fn record(&mut self, key: &[u64], lo: i32, hi: i32) -> Result<()> {
        let (lo, hi) = (lo.clamp(-1, 127) as i8, hi.clamp(-1, 127) as i8);
        let limit = self.budget.max_states;
        self.memo
            .tighten(key, Memo::hash(key), lo, hi, limit)
            .map_err(|_| Error::StateBudgetExceeded {
                what: "littlestone dimension",
                limit,
            })
    }

    // ---- The pruned engine. ----

    /// `Ldim(V)` for a non-empty trimmed version space (`v[0]` and `v[last]` non-zero).
    fn exact(&mut self, v: &[u64], base: usize, count: u32) -> Result<i32> {
        if count == 1 {
            return Ok(0);
        }
        let mut key = Vec::new();
        encode_key(v, base, &mut key);
        let log = floor_log2(count);
        let (mut lo, mut hi) = match self.lookup(&key) {
            Some(b) => (i32::from(b.lo).max(1), i32::from(b.hi).min(log)),
            None => (1, log),
        };
        if lo == hi {
            return Ok(lo);
        }
        let active: Vec<u32> = (0..self.points.len() as u32).collect();
        while lo < hi {
            if self.decide(v, base, count, &active, lo + 1)? {
                lo += 1;
            } else {
                hi = lo;
            }
            if let Some(b) = self.lookup(&key) {
                lo = lo.max(i32::from(b.lo));
                hi = hi.min(i32::from(b.hi));
            }
        }
        self.record(&key, lo, lo)?;
        Ok(lo)
    }

    /// The splits of the trimmed version space `v` (of `count` concepts) by the points of
    /// `active` whose smaller side has at least `need` concepts, most balanced first (ties
    /// by point), each packed as `!smaller << 32 | point`. Fills `splitting` with every
    /// point of `active` that splits `v`, and returns the largest smaller side over all
    /// splits (0 if none). Repeated splits are left in: [`Tried`] skips them lazily, so a
    /// search that succeeds on its first split pays nothing for deduplication.
    #[allow(clippy::too_many_arguments)] // Internal; the buffers are reused by the caller.
    fn splits(
        &self,
        v: &[u64],
        base: usize,
        count: u32,
        active: &[u32],
        need: u32,
        splitting: &mut Vec<u32>,
        splits: &mut Vec<u64>,
    ) -> u32 {
        let len = v.len();
        splitting.clear();
        splits.clear();
        let mut best_smaller = 0u32;
        for &x in active {
            let c1 = and_popcount(v, self.column(x, base, len));
            if c1 == 0 || c1 == count {
                continue;
            }
            splitting.push(x);
            let smaller = c1.min(count - c1);
            best_smaller = best_smaller.max(smaller);
            if smaller >= need {
                splits.push(u64::from(!smaller) << 32 | u64::from(x));
            }
        }
        splits.sort_unstable();
        best_smaller
    }

    /// Writes `V \ column(x)` and `V ∩ column(x)` into `zero_side` and `one_side`.
    fn sides(
        &self,
        v: &[u64],
        base: usize,
        x: u32,
        zero_side: &mut Vec<u64>,
        one_side: &mut Vec<u64>,
    ) {
        let column = self.column(x, base, v.len());
        zero_side.clear();
        one_side.clear();
        zero_side.extend(v.iter().zip(column).map(|(a, b)| a & !b));
        one_side.extend(v.iter().zip(column).map(|(a, b)| a & b));
    }

    /// Whether `Ldim(V) ≥ k`, for a non-empty trimmed version space of `count` distinct
    /// concepts; `active` holds every point that splits `V` (and maybe others).
    fn decide(
        &mut self,
        v: &[u64],
        base: usize,
        count: u32,
        active: &[u32],
        k: i32,
    ) -> Result<bool> {
        if k <= 0 {
            return Ok(count >= 1);
        }
        if k == 1 {
            return Ok(count >= 2);
        }
        if k >= 32 || count < 1u32 << k {
            return Ok(false);
        }
        let len = v.len();
        if k == 2 {
            return Ok(active.iter().any(|&x| {
                let c1 = and_popcount(v, self.column(x, base, len));
                c1 >= 2 && count - c1 >= 2
            }));
        }
        let mut key = Vec::new();
        encode_key(v, base, &mut key);
        if let Some(b) = self.lookup(&key) {
            if i32::from(b.lo) >= k {
                return Ok(true);
            }
            if i32::from(b.hi) < k {
                return Ok(false);
            }
        }
        let mut splitting = Vec::with_capacity(active.len());
        let mut splits = Vec::new();
        let best_smaller = self.splits(
            v,
            base,
            count,
            active,
            1 << (k - 1),
            &mut splitting,
            &mut splits,
        );
        let upper = if best_smaller == 0 {
            0
        } else {
            1 + floor_log2(best_smaller)
        };
        let (mut zero_side, mut one_side) = (Vec::with_capacity(len), Vec::with_capacity(len));
        let mut tried = Tried::default();
        for split in splits {
            let point = split as u32;
            if tried.is_repeat(self, v, base, split) {
                continue;
            }
            self.sides(v, base, point, &mut zero_side, &mut one_side);
            let c1 = popcount(&one_side);
            let c0 = count - c1;
            let (small, small_count, large, large_count) = if c0 <= c1 {
                (&zero_side, c0, &one_side, c1)
            } else {
                (&one_side, c1, &zero_side, c0)
            };
            if self.decide_trimmed(small, base, small_count, &splitting, k - 1)?
                && self.decide_trimmed(large, base, large_count, &splitting, k - 1)?
            {
                self.record(&key, k, upper)?;
                return Ok(true);
            }
        }
        self.record(&key, 0, upper.min(k - 1))?;
        Ok(false)
    }

    /// [`Self::decide`] on an untrimmed child bitset.
    fn decide_trimmed(
        &mut self,
        v: &[u64],
        base: usize,
        count: u32,
        active: &[u32],
        k: i32,
    ) -> Result<bool> {
        match nonzero_range(v) {
            None => Ok(k <= -1),
            Some((first, end)) => self.decide(&v[first..end], base + first, count, active, k),
        }
    }

    /// Whether points `a` and `b` split `V` into the same pair of sides.
    fn same_split(&self, v: &[u64], base: usize, a: u32, b: u32) -> bool {
        let len = v.len();
        let (ca, cb) = (self.column(a, base, len), self.column(b, base, len));
        let equal = v
            .iter()
            .zip(ca.iter().zip(cb))
            .all(|(&w, (&x, &y))| w & x == w & y);
        equal
            || v.iter()
                .zip(ca.iter().zip(cb))
                .all(|(&w, (&x, &y))| w & x == w & !y)
    }

    /// A complete tree of depth `depth ≤ Ldim(V)` for a trimmed non-empty version space,
    /// trying splits in the order of [`Self::decide`] so that its memo entries are reused.
    fn pruned_tree(
        &mut self,
        v: &[u64],
        base: usize,
        count: u32,
        active: &[u32],
        depth: i32,
    ) -> Result<LittlestoneTree> {
        if depth <= 0 {
            return Ok(LittlestoneTree::Leaf);
        }
        let mut splitting = Vec::with_capacity(active.len());
        let mut splits = Vec::new();
        let need = 1u32 << (depth - 1).min(31);
        self.splits(v, base, count, active, need, &mut splitting, &mut splits);
        let (mut zero_side, mut one_side) = (Vec::new(), Vec::new());
        let mut tried = Tried::default();
        for split in splits {
            let point = split as u32;
            if tried.is_repeat(self, v, base, split) {
                continue;
            }
            self.sides(v, base, point, &mut zero_side, &mut one_side);
            let (c0, c1) = (popcount(&zero_side), popcount(&one_side));
            if self.decide_trimmed(&zero_side, base, c0, &splitting, depth - 1)?
                && self.decide_trimmed(&one_side, base, c1, &splitting, depth - 1)?
            {
                let zero = self.pruned_subtree(&zero_side, base, c0, &splitting, depth - 1)?;
                let one = self.pruned_subtree(&one_side, base, c1, &splitting, depth - 1)?;
                return Ok(LittlestoneTree::Node {
                    point: self.points[point as usize],
                    zero: Box::new(zero),
                    one: Box::new(one),
                });
            }
        }
        Err(internal_error())
    }

    fn pruned_subtree(
        &mut self,
        v: &[u64],
        base: usize,
        count: u32,
        active: &[u32],
        depth: i32,
    ) -> Result<LittlestoneTree> {
        match nonzero_range(v) {
            None => Err(internal_error()),
            Some((first, end)) => {
                self.pruned_tree(&v[first..end], base + first, count, active, depth)
            }
        }
    }

    // ---- The plain engine. ----

    /// The plain memoized recursion on a trimmed version space of `count` concepts
    /// (duplicates allowed). Shortcuts that do not change what is computed: a split that
    /// repeats an earlier one (same pair of sides) is evaluated once; version spaces of at
    /// most [`SMALL`] concepts are evaluated by [`Self::small_value`] instead of being
    /// memoized; and the children of a version space are looked up in the memo in one
    /// batch, so that their cache misses overlap.
    fn plain(&mut self, v: &[u64], base: usize, count: u32) -> Result<i32> {
        if count <= SMALL {
            return Ok(self.small_value(v, base, count));
        }
        let mut key = Vec::new();
        encode_key(v, base, &mut key);
        let hash = Memo::hash(&key);
        if let Some(b) = self.memo.get(&key, hash) {
            return Ok(i32::from(b.lo));
        }
        self.plain_unknown(v, base, count, &key, hash)
    }

    /// The recursion evaluated in closed form for `|V| ≤ 7` (duplicates allowed), from the
    /// concepts' rows:
    /// - `Ldim(V) ≥ 1` iff some point splits `V`, i.e. `V` has two distinct rows (for any
    ///   `V`: such a split is worth at least `1 + min(0, 0)`);
    /// - every split of a `V` of at most 7 concepts leaves a side `S` of at most 3, and
    ///   `Ldim(S) ≤ 1` (a split of `S` leaves a single concept, of value 0, on one side), so
    ///   `Ldim(V) ≤ 2`, with equality iff some split leaves two distinct rows on each side.
    fn small_value(&self, v: &[u64], base: usize, count: u32) -> i32 {
        if count <= 1 {
            return count as i32 - 1;
        }
        if self.matrix.row_words() == 1 {
            // The same computation as below, on rows of one word.
            let mut rows = [0u64; SMALL as usize];
            for (slot, c) in rows.iter_mut().zip(ones(v)) {
                *slot = self.matrix.row(base * 64 + c)[0];
            }
            let rows = &rows[..count as usize];
            if rows.iter().all(|&row| row == rows[0]) {
                return 0;
            }
            if count <= 3 {
                return 1;
            }
            let (mut both_one, mut both_zero) = (0u64, 0u64);
            for (i, &a) in rows.iter().enumerate() {
                for &b in &rows[..i] {
                    if a != b {
                        both_one |= a & b;
                        both_zero |= !a & !b;
                    }
                }
            }
            return 1 + i32::from(both_one & both_zero != 0);
        }
        let mut rows: [&[u64]; SMALL as usize] = [&[]; SMALL as usize];
        for (slot, c) in rows.iter_mut().zip(ones(v)) {
            *slot = self.matrix.row(base * 64 + c);
        }
        let rows = &rows[..count as usize];
        if rows.iter().all(|row| *row == rows[0]) {
            return 0;
        }
        if count <= 3 {
            return 1;
        }
        // A side of a split by x has two distinct rows iff two distinct rows both have a
        // 1 (or both a 0) at x: collect those x over all pairs of distinct rows.
        let words = self.matrix.row_words();
        let mut both_one = [0u64; 4];
        let mut both_zero = [0u64; 4];
        for chunk in 0..words.div_ceil(4) {
            let range = chunk * 4..(chunk * 4 + 4).min(words);
            both_one.fill(0);
            both_zero.fill(0);
            for (i, a) in rows.iter().enumerate() {
                for b in &rows[..i] {
                    if a == b {
                        continue;
                    }
                    for (k, w) in range.clone().enumerate() {
                        both_one[k] |= a[w] & b[w];
                        both_zero[k] |= !a[w] & !b[w];
                    }
                }
            }
            // Bits beyond the last point are 0 in every row, so never in `both_one`.
            if both_one.iter().zip(&both_zero).any(|(o, z)| o & z != 0) {
                return 2;
            }
        }
        1
    }

    /// [`Self::plain`] for a version space of more than [`SMALL`] concepts that is not in the memo.
    fn plain_unknown(
        &mut self,
        v: &[u64],
        base: usize,
        count: u32,
        key: &[u64],
        hash: u64,
    ) -> Result<i32> {
        let len = v.len();
        // Buffers are reused across calls (one set per recursion level in use).
        let mut scratch = self.plain_scratch.pop().unwrap_or_default();
        let PlainScratch {
            splitting,
            splits,
            sides,
            children,
            keys,
            child_key,
            tried,
        } = &mut scratch;
        let active = std::mem::take(&mut self.all_points);
        self.splits(v, base, count, &active, 1, splitting, splits);
        self.all_points = active;
        tried.clear();
        splits.retain(|&split| !tried.is_repeat(self, v, base, split));
        // Both sides of every split, their memo keys, and a first touch of their slots.
        sides.clear();
        sides.resize(2 * splits.len() * len, 0);
        children.clear();
        keys.clear();
        for (i, &split) in splits.iter().enumerate() {
            let column = self.column(split as u32, base, len);
            let (zero_side, one_side) = sides[2 * i * len..(2 * i + 2) * len].split_at_mut(len);
            for ((z, o), (&a, &b)) in zero_side
                .iter_mut()
                .zip(one_side.iter_mut())
                .zip(v.iter().zip(column))
            {
                *z = a & !b;
                *o = a & b;
            }
            for side in 0..2 {
                let start = (2 * i + side) * len;
                let words = &sides[start..start + len];
                let (first, end) = nonzero_range(words).unwrap_or((0, 0));
                let trimmed = &words[first..end];
                let child_count = popcount(trimmed);
                let mut child = PlainChild {
                    start: start + first,
                    offset: first,
                    len: end - first,
                    count: child_count,
                    value: None,
                    key_start: keys.len(),
                    key_len: 0,
                    hash: 0,
                };
                if child_count <= SMALL {
                    child.value = Some(self.small_value(trimmed, base + first, child_count));
                } else {
                    encode_key(trimmed, base + first, child_key);
                    child.hash = Memo::hash(child_key);
                    child.key_len = child_key.len();
                    keys.extend_from_slice(child_key);
                }
                children.push(child);
            }
        }
        // A tight loop of independent loads: the misses overlap.
        let touched = children
            .iter()
            .filter(|child| child.value.is_none())
            .fold(0u64, |acc, child| acc ^ self.memo.touch(child.hash));
        std::hint::black_box(touched);
        let mut best = 0;
        for pair in scratch.children.chunks(2) {
            let mut values = [0i32; 2];
            for (value, child) in values.iter_mut().zip(pair) {
                *value = match child.value {
                    Some(value) => value,
                    None => {
                        let key = &scratch.keys[child.key_start..child.key_start + child.key_len];
                        match self.memo.get(key, child.hash) {
                            Some(b) => i32::from(b.lo),
                            None => {
                                let words = &scratch.sides[child.start..child.start + child.len];
                                let child_base = base + child.offset;
                                self.plain_unknown(words, child_base, child.count, key, child.hash)?
                            }
                        }
                    }
                };
            }
            best = best.max(1 + values[0].min(values[1]));
        }
        self.plain_scratch.push(scratch);
        let limit = self.budget.max_states;
        self.memo
            .tighten(key, hash, best as i8, best as i8, limit)
            .map_err(|_| Error::StateBudgetExceeded {
                what: "littlestone dimension",
                limit,
            })?;
        Ok(best)
    }

    /// [`Self::plain`] on an untrimmed bitset.
    fn plain_trimmed(&mut self, v: &[u64], base: usize) -> Result<i32> {
        match nonzero_range(v) {
            None => Ok(-1),
            Some((first, end)) => {
                let trimmed = &v[first..end];
                self.plain(trimmed, base + first, popcount(trimmed))
            }
        }
    }

    fn plain_tree(&mut self, v: &[u64], depth: i32) -> Result<LittlestoneTree> {
        if depth <= 0 {
            return Ok(LittlestoneTree::Leaf);
        }
        let count = popcount(v);
        for x in 0..self.points.len() as u32 {
            let column = self.column(x, 0, v.len());
            let c1 = and_popcount(v, column);
            if c1 == 0 || c1 == count {
                continue;
            }
            let zero_side: Vec<u64> = v.iter().zip(column).map(|(a, b)| a & !b).collect();
            let one_side: Vec<u64> = v.iter().zip(column).map(|(a, b)| a & b).collect();
            if self.plain_trimmed(&zero_side, 0)? >= depth - 1
                && self.plain_trimmed(&one_side, 0)? >= depth - 1
            {
                let zero = self.plain_tree(&zero_side, depth - 1)?;
                let one = self.plain_tree(&one_side, depth - 1)?;
                return Ok(LittlestoneTree::Node {
                    point: self.points[x as usize],
                    zero: Box::new(zero),
                    one: Box::new(one),
                });
            }
        }
        Err(internal_error())
    }
}

#[cfg(test)]
mod tests;
