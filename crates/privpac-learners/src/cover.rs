//! Grouping the concepts of a class by their labeling of a few points: the cover that the
//! stable, sanitizer-based, relabeling and Dagan–Feldman learners select from.
//!
//! Two constructions give the same cover: the dense one ([`Labelings`]) evaluates every
//! concept on the points (O(|C|·t)); the structured one ([`ScoredCover::new`]) takes the
//! class's [`ConceptClass::labeling_ranges`] (consecutive ids that label the points
//! alike, O(t) of them on thresholds and point functions), groups the ranges by labeling
//! in id order, and reads the mistakes of their concepts from the compressed profile
//! [`ConceptClass::error_runs`] in one merge of two id-sorted lists. Both list the
//! labelings in order of their smallest concept id, with that id as representative, so a
//! learner gives the same output for the same random bits on either path (checked
//! exactly in the tests below).
//!
//! Classes whose concepts are not runs of ids (intervals, indexed a-major, where a
//! labeling of the points is a rectangle of ends) give their
//! [`ConceptClass::labeling_cells`] instead, already scored on the sample and listed in
//! the order of their smallest concepts; grouping them by labeling gives the same cover
//! again, with each representative named by its id when it fits 64 bits and by its parts
//! ([`privpac_classes::Hypothesis::Interval`], or
//! [`privpac_classes::Hypothesis::NotInterval`] for `not(intervals)` and
//! `both(intervals)`) beyond (intervals over more than about 2^32.5 points).
//!
//! Parities ([`ConceptClass::parity_structure`]) label points through a linear map, so
//! their dichotomies on the points are the cosets of the points' kernel
//! ([`ParityLabelings`]): the cover is the coset minima in increasing order, scored from
//! the Walsh–Hadamard profile through the linear map from a parity to its coset, in
//! O(d·2^d) instead of the dense grouping's O(2^d·t) evaluations and hash lookups.

use std::collections::HashMap;

use privpac_classes::{
    ConceptClass, ConceptParts, ErrorRun, Hypothesis, IdRange, LabeledSample, LabelingCell,
    ParityLabelings, Point, PointInterval, sorted_distinct,
};

use crate::error::{Error, Result};

/// The labelings of a cover: bit-packed as in [`Labelings::keys`] (dense construction), or
/// as canonical [`PointInterval`]s of ranks among the sorted distinct points (structured).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Keys {
    Bits(Vec<Vec<u64>>),
    Intervals {
        sorted: Vec<Point>,
        sets: Vec<PointInterval>,
    },
    /// Cells with pairwise distinct labelings, one per labeling, kept as the class gave
    /// them (the representatives and scores are read from them: no copies).
    Cells {
        sorted: Vec<Point>,
        cells: Vec<LabelingCell>,
    },
    /// Parities: the labelings are the cosets of the points' kernel, numbered as
    /// [`ParityLabelings`] numbers them (the representatives are read from it).
    Parities(ParityLabelings),
}

/// A concept of a cover, by its id or (beyond 64-bit ids) by its parts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Representative {
    Id(u64),
    Parts(ConceptParts),
}

impl Representative {
    fn hypothesis(self) -> Hypothesis {
        match self {
            Representative::Id(id) => Hypothesis::Concept { id },
            Representative::Parts(parts) => Hypothesis::from(parts),
        }
    }
}

/// The cover of a class on a few points, with the two scores the learners use.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ScoredCover {
    /// One concept per labeling of the points: the smallest inducing it (by its id, or by
    /// its parts when the id does not fit 64 bits), in increasing order.
    representatives: Vec<Representative>,
    /// The labelings.
    keys: Keys,
    /// The mistakes on the sample of each representative.
    pub(crate) representative_errors: Vec<u64>,
    /// The fewest mistakes on the sample of any concept inducing each labeling.
    pub(crate) fewest_errors: Vec<u64>,
}

impl ScoredCover {
    /// The cover of the class on `points`, scored on `sample`: from the class's labeling
    /// ranges and error runs when it gives ranges (time O(r·t + n log n) for r ranges and
    /// the runs' own cost, independent of |C|), else from its labeling cells when it
    /// gives cells (intervals: O(n log n + t²)), else from the dense error profile and
    /// [`Labelings`] (classes up to the dense-profile limit).
    ///
    /// # Errors
    /// The class's errors (a point outside the domain; the cell limit; the dense-profile
    /// limit when the class gives neither ranges nor cells);
    /// [`Error::Unnamable`] for a cell whose first concept has neither a 64-bit id nor
    /// parts (no class of privpac gives such cells: complemented intervals beyond 64-bit
    /// ids are named by their ends, [`Hypothesis::NotInterval`]).
    pub(crate) fn new(
        class: &dyn ConceptClass,
        points: &[Point],
        sample: &LabeledSample,
    ) -> Result<Self> {
        if let Some(ranges) = class.labeling_ranges(points)? {
            return Ok(Self::from_ranges(
                points,
                &ranges,
                &class.error_runs(sample)?,
            ));
        }
        if let Some(cells) = class.labeling_cells(points, sample)? {
            return Self::from_cells(class, points, cells);
        }
        if let Some(dim) = class.parity_structure() {
            let labelings = ParityLabelings::new(dim, points)?;
            return Self::from_parities(labelings, class.error_counts(sample)?);
        }
        Ok(Self::dense(class, points, &class.error_counts(sample)?))
    }

    /// The structured construction for parities over `{0,1}^d` from their dichotomies on
    /// the points as cosets of the points' kernel ([`ParityLabelings`]) and the dense
    /// error profile `errors` (one count per parity, the Walsh–Hadamard profile): the
    /// representatives are the coset minima in increasing order, the mistakes of each
    /// read at its id and the fewest taken over its coset through the linear map from a
    /// parity to its labeling, in O(2^d) with no parity evaluated on any point. The dense
    /// grouping lists the labelings in order of first appearance by id, which is the
    /// increasing order of their smallest ids, so this is the same cover with the same
    /// scores. Points of full rank d (most subsets of at least d points) make every parity
    /// its own labeling: the profile is the cover's scores as it is.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] unless `errors` has one count per parity of the cube
    /// (d ≤ 32).
    fn from_parities(labelings: ParityLabelings, errors: Vec<u64>) -> Result<Self> {
        let wrong_length = || Error::InvalidParameter {
            name: "error profile of the parities",
            requirement: "one count per parity of the cube",
            value: errors.len() as f64,
        };
        if errors.len() as u128 != 1u128 << labelings.dim() {
            return Err(wrong_length());
        }
        if labelings.rank() == labelings.dim() {
            // Points of full rank: every parity is its own labeling, the cover is the
            // class in id order.
            return Ok(ScoredCover {
                representatives: Vec::new(),
                keys: Keys::Parities(labelings),
                fewest_errors: errors.clone(),
                representative_errors: errors,
            });
        }
        let slots = labelings.all_slots().ok_or_else(wrong_length)?;
        let count = 1usize << labelings.rank();
        let mut representative_errors = Vec::with_capacity(count);
        let mut fewest = vec![u64::MAX; count];
        for (&slot, &mistakes) in slots.iter().zip(&errors) {
            let slot = slot as usize;
            // In id order, labeling j first appears at its smallest parity, after the
            // first appearances of labelings 0..j.
            if slot == representative_errors.len() {
                representative_errors.push(mistakes);
            }
            fewest[slot] = fewest[slot].min(mistakes);
        }
        Ok(ScoredCover {
            representatives: Vec::new(),
            keys: Keys::Parities(labelings),
            representative_errors,
            fewest_errors: fewest,
        })
    }

    /// The structured construction from `cells` listed in order of their first concepts,
    /// already scored: the first cell of every labeling gives the representative and its
    /// mistakes, the fewest mistakes is the minimum over the labeling's cells.
    /// When the canonical labelings, or those of their complements, increase strictly
    /// along the list (the cells of intervals and of not(intervals)), they are distinct and
    /// the cells are kept as they are.
    fn from_cells(
        class: &dyn ConceptClass,
        points: &[Point],
        cells: Vec<LabelingCell>,
    ) -> Result<Self> {
        let sorted = sorted_distinct(points);
        if cells
            .iter()
            .any(|cell| cell.first.is_none() && cell.parts.is_none())
        {
            return Err(Error::Unnamable {
                class: class.name(),
            });
        }
        // Complementing is a bijection on sets, so cells whose complemented labelings
        // increase strictly (not(intervals)) are distinct too.
        let increasing = |complement: bool| {
            let mut previous = None;
            cells.iter().all(|cell| {
                let set = if complement {
                    cell.positives.complement()
                } else {
                    cell.positives
                };
                let key = set.canonical(sorted.len());
                let key = Some((key.start, key.end, key.complemented));
                let ordered = previous < key;
                previous = key;
                ordered
            })
        };
        if increasing(false) || increasing(true) {
            return Ok(ScoredCover {
                representatives: Vec::new(),
                keys: Keys::Cells { sorted, cells },
                representative_errors: Vec::new(),
                fewest_errors: Vec::new(),
            });
        }
        let mut index = LabelingIndex::new(sorted.len(), cells.len());
        let mut sets = Vec::with_capacity(cells.len());
        let mut cover = ScoredCover {
            representatives: Vec::with_capacity(cells.len()),
            keys: Keys::Bits(Vec::new()),
            representative_errors: Vec::with_capacity(cells.len()),
            fewest_errors: Vec::with_capacity(cells.len()),
        };
        for cell in &cells {
            let key = cell.positives.canonical(sorted.len());
            if let Some(slot) = index.get(key) {
                cover.fewest_errors[slot] = cover.fewest_errors[slot].min(cell.fewest_errors);
                continue;
            }
            let representative = match (cell.first, cell.parts) {
                (Some(id), _) => Representative::Id(id),
                (None, Some(parts)) => Representative::Parts(parts),
                (None, None) => unreachable!("checked above"),
            };
            index.insert(key, sets.len());
            sets.push(key);
            cover.representatives.push(representative);
            cover.representative_errors.push(cell.first_errors);
            cover.fewest_errors.push(cell.fewest_errors);
        }
        cover.keys = Keys::Intervals { sorted, sets };
        Ok(cover)
    }

    /// The dense construction, from the error profile `errors` (one count per concept).
    pub(crate) fn dense(class: &dyn ConceptClass, points: &[Point], errors: &[u64]) -> Self {
        let labelings = Labelings::new(class, points, errors.len());
        let mut fewest = vec![u64::MAX; labelings.keys.len()];
        for (&slot, &mistakes) in labelings.group.iter().zip(errors) {
            fewest[slot] = fewest[slot].min(mistakes);
        }
        ScoredCover {
            representative_errors: labelings.first.iter().map(|&c| errors[c]).collect(),
            representatives: labelings
                .first
                .iter()
                .map(|&c| Representative::Id(c as u64))
                .collect(),
            keys: Keys::Bits(labelings.keys),
            fewest_errors: fewest,
        }
    }

    /// The structured construction from id-ordered `ranges` (each labeling `points`
    /// alike, together `0..len`) and the id-ordered `runs` of the error profile.
    fn from_ranges(points: &[Point], ranges: &[IdRange], runs: &[ErrorRun]) -> Self {
        let sorted = sorted_distinct(points);
        let mut index: HashMap<PointInterval, usize> = HashMap::new();
        let mut sets = Vec::new();
        let mut cover = ScoredCover {
            representatives: Vec::new(),
            keys: Keys::Bits(Vec::new()),
            representative_errors: Vec::new(),
            fewest_errors: Vec::new(),
        };
        let mut run = 0;
        for range in ranges {
            // The runs are consecutive and cover 0..len, as the ranges do: advance to the
            // run holding the range's first id, then take the minimum over the runs that
            // meet the range.
            while run + 1 < runs.len() && run_last(&runs[run]) < range.first {
                run += 1;
            }
            let at_first = runs.get(run).map_or(0, |r| r.errors);
            let mut fewest = at_first;
            let mut scan = run;
            while scan + 1 < runs.len() && run_last(&runs[scan]) < range.last {
                scan += 1;
                fewest = fewest.min(runs[scan].errors);
            }
            let key = range.positives.canonical(sorted.len());
            match index.get(&key) {
                Some(&slot) => {
                    cover.fewest_errors[slot] = cover.fewest_errors[slot].min(fewest);
                }
                None => {
                    index.insert(key, sets.len());
                    sets.push(key);
                    cover.representatives.push(Representative::Id(range.first));
                    cover.representative_errors.push(at_first);
                    cover.fewest_errors.push(fewest);
                }
            }
        }
        cover.keys = Keys::Intervals { sorted, sets };
        cover
    }

    /// The representative of labeling `slot` as a hypothesis: [`Hypothesis::Concept`]
    /// with its id, or by its parts ([`Hypothesis::Interval`], [`Hypothesis::NotInterval`],
    /// the constants) when the id does not fit
    /// 64 bits.
    pub(crate) fn representative(&self, slot: usize) -> Hypothesis {
        match &self.keys {
            Keys::Cells { cells, .. } => {
                let cell = &cells[slot];
                match (cell.first, cell.parts) {
                    (Some(id), _) => Representative::Id(id),
                    (None, Some(parts)) => Representative::Parts(parts),
                    (None, None) => unreachable!("refused by the constructor"),
                }
            }
            Keys::Parities(labelings) => Representative::Id(labelings.representative(slot as u64)),
            _ => self.representatives[slot],
        }
        .hypothesis()
    }

    /// The labels of labeling `slot` on the points it was built from (in their order).
    pub(crate) fn labels(&self, slot: usize, points: &[Point]) -> Vec<bool> {
        match &self.keys {
            Keys::Bits(keys) => unpack(&keys[slot], points.len()),
            Keys::Cells { sorted, cells } => points
                .iter()
                .map(|x| {
                    cells[slot]
                        .positives
                        .contains(sorted.binary_search(x).unwrap_or(0))
                })
                .collect(),
            Keys::Intervals { sorted, sets } => points
                .iter()
                .map(|x| sets[slot].contains(sorted.binary_search(x).unwrap_or(0)))
                .collect(),
            Keys::Parities(labelings) => {
                let a = labelings.representative(slot as u64);
                points
                    .iter()
                    .map(|&x| (a & x).count_ones() % 2 == 1)
                    .collect()
            }
        }
    }

    /// The scores `−(mistakes of the representative)` (stable, Dagan–Feldman).
    pub(crate) fn representative_scores(&self) -> Vec<i64> {
        match &self.keys {
            Keys::Cells { cells, .. } => negate(cells.iter().map(|cell| cell.first_errors)),
            _ => negate(self.representative_errors.iter().copied()),
        }
    }

    /// The scores `−(fewest mistakes of a concept inducing the labeling)` (relabeling).
    pub(crate) fn fewest_scores(&self) -> Vec<i64> {
        match &self.keys {
            Keys::Cells { cells, .. } => negate(cells.iter().map(|cell| cell.fewest_errors)),
            _ => negate(self.fewest_errors.iter().copied()),
        }
    }
}

/// The slots of labelings by their canonical [`PointInterval`] among `distinct` ranks: a
/// table indexed by `(start, end, complemented)` when it is at most a few times the
/// number of cells (intervals' cells are about `distinct²/2`), else a hash map.
enum LabelingIndex {
    Table { side: usize, slots: Vec<u32> },
    Map(HashMap<PointInterval, usize>),
}

impl LabelingIndex {
    const EMPTY: u32 = u32::MAX;

    fn new(distinct: usize, cells: usize) -> Self {
        let side = distinct + 1;
        let entries = side.saturating_mul(side).saturating_mul(2);
        if entries <= cells.saturating_mul(8).max(1024) && cells < Self::EMPTY as usize {
            LabelingIndex::Table {
                side,
                slots: vec![Self::EMPTY; entries],
            }
        } else {
            LabelingIndex::Map(HashMap::with_capacity(cells))
        }
    }

    fn position(side: usize, key: PointInterval) -> usize {
        (key.start * side + key.end) * 2 + usize::from(key.complemented)
    }

    fn get(&self, key: PointInterval) -> Option<usize> {
        match self {
            LabelingIndex::Table { side, slots } => {
                let slot = slots[Self::position(*side, key)];
                (slot != Self::EMPTY).then_some(slot as usize)
            }
            LabelingIndex::Map(map) => map.get(&key).copied(),
        }
    }

    fn insert(&mut self, key: PointInterval, slot: usize) {
        match self {
            LabelingIndex::Table { side, slots } => {
                slots[Self::position(*side, key)] = slot as u32;
            }
            LabelingIndex::Map(map) => {
                map.insert(key, slot);
            }
        }
    }
}

/// The last id of a run (`first + len − 1` without overflow at `u64::MAX`).
fn run_last(run: &ErrorRun) -> u64 {
    run.first + (run.len - 1)
}

fn negate(errors: impl Iterator<Item = u64>) -> Vec<i64> {
    errors
        .map(|m| -(i64::try_from(m).unwrap_or(i64::MAX)))
        .collect()
}

fn unpack(key: &[u64], count: usize) -> Vec<bool> {
    (0..count)
        .map(|j| key[j / 64] >> (j % 64) & 1 == 1)
        .collect()
}

/// The distinct labelings of `points` by concepts `0..len` of the class, in order of
/// first appearance by concept id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Labelings {
    /// The labelings, bit-packed (bit `j % 64` of word `j / 64` is the label of point j).
    pub(crate) keys: Vec<Vec<u64>>,
    /// For every concept id below `len`, the index of its labeling in `keys`.
    pub(crate) group: Vec<usize>,
    /// The smallest concept id inducing each labeling.
    pub(crate) first: Vec<usize>,
}

impl Labelings {
    /// Groups concepts `0..len` by their labels on `points`: O(len · |points|) evaluations.
    pub(crate) fn new(class: &dyn ConceptClass, points: &[Point], len: usize) -> Self {
        let words = points.len().div_ceil(64);
        let mut index: HashMap<Vec<u64>, usize> = HashMap::new();
        let mut labelings = Labelings {
            keys: Vec::new(),
            group: Vec::with_capacity(len),
            first: Vec::new(),
        };
        let mut key = vec![0u64; words];
        for c in 0..len {
            key.iter_mut().for_each(|word| *word = 0);
            for (j, &x) in points.iter().enumerate() {
                if class.eval(c as u64, x) {
                    key[j / 64] |= 1 << (j % 64);
                }
            }
            let slot = match index.get(&key) {
                Some(&slot) => slot,
                None => {
                    let slot = labelings.keys.len();
                    index.insert(key.clone(), slot);
                    labelings.keys.push(key.clone());
                    labelings.first.push(c);
                    slot
                }
            };
            labelings.group.push(slot);
        }
        labelings
    }
}

#[cfg(test)]
mod tests {
    use privpac_classes::{Both, Domain, Intervals, Not, Points, Thresholds};
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;

    fn classes(n: u64) -> Vec<Box<dyn ConceptClass>> {
        let points = || Points::new(Domain::ordered(n).unwrap());
        vec![
            Box::new(Thresholds::new(n).unwrap()),
            Box::new(points()),
            Box::new(Not::new(Thresholds::new(n).unwrap())),
            Box::new(Both::new(Thresholds::new(n).unwrap()).unwrap()),
            Box::new(Both::new(points()).unwrap()),
            Box::new(Not::new(Both::new(Thresholds::new(n).unwrap()).unwrap())),
            // Cells instead of ranges.
            Box::new(Intervals::new(n).unwrap()),
            Box::new(Not::new(Intervals::new(n).unwrap())),
            Box::new(Both::new(Intervals::new(n).unwrap()).unwrap()),
        ]
    }

    /// The structured cover equals the dense one exactly (same representatives in the
    /// same order, same labelings, same scores) on 150 seeded random samples and subsets
    /// over domains of 1 to 23 points, repeated points included.
    #[test]
    fn structured_cover_equals_the_dense_cover() {
        let mut rng = ChaCha8Rng::seed_from_u64(38);
        for _ in 0..150 {
            let n = rng.random_range(1u64..24);
            let len = rng.random_range(1usize..20);
            let pairs: Vec<(u64, bool)> = (0..len)
                .map(|_| (rng.random_range(0..n), rng.random_bool(0.5)))
                .collect();
            let t = rng.random_range(1usize..8);
            let points: Vec<Point> = (0..t).map(|_| pairs[rng.random_range(0..len)].0).collect();
            for class in classes(n) {
                let sample = LabeledSample::from_pairs(class.domain(), &pairs).unwrap();
                let errors = class.error_counts(&sample).unwrap();
                let dense = ScoredCover::dense(class.as_ref(), &points, &errors);
                let structured = ScoredCover::new(class.as_ref(), &points, &sample).unwrap();
                let what = format!("{} on {pairs:?}, {points:?}", class.name());
                let count = dense.representatives.len();
                let hypotheses = |cover: &ScoredCover| -> Vec<Hypothesis> {
                    (0..count).map(|slot| cover.representative(slot)).collect()
                };
                assert_eq!(hypotheses(&structured), hypotheses(&dense), "{what}");
                assert_eq!(
                    structured.representative_scores(),
                    dense.representative_scores(),
                    "{what}"
                );
                assert_eq!(structured.fewest_scores(), dense.fewest_scores(), "{what}");
                for slot in 0..count {
                    assert_eq!(
                        structured.labels(slot, &points),
                        dense.labels(slot, &points),
                        "{what}"
                    );
                }
            }
        }
    }

    /// At 2^40 points (and at the largest ordered domain) the structured cover of
    /// thresholds is the t + 1 cuts, scored from the runs, without a dense profile.
    #[test]
    fn structured_cover_works_on_huge_domains() {
        for size in [1u64 << 40, u64::MAX] {
            let class = Thresholds::new(size).unwrap();
            let last = size - 1;
            let pairs = [
                (5, true),
                (last / 2, true),
                (last / 2 + 1, false),
                (last, false),
            ];
            let sample = LabeledSample::from_pairs(class.domain(), &pairs).unwrap();
            let points = [last / 2 + 1, 5, last / 2];
            let cover = ScoredCover::new(&class, &points, &sample).unwrap();
            let ids = [0, 5, last / 2, last / 2 + 1].map(Representative::Id);
            assert_eq!(cover.representatives, ids);
            // Thresholds 0..5 miss both positives; 5 one; last/2 none; last/2 + 1 one negative.
            assert_eq!(cover.representative_errors, vec![2, 1, 0, 1]);
            // Fewest: the last group runs to the end, where the last negative is also hit,
            // but its first concept is the best of it.
            assert_eq!(cover.fewest_errors, vec![2, 1, 0, 1]);
            assert_eq!(cover.labels(2, &points), vec![false, true, true]);
        }
    }

    #[test]
    fn groups_thresholds_by_their_labels() {
        // Thresholds over 8 points (x ≤ c), on points {2, 5}: labelings 00 (c ≤ 1),
        // 10 (2 ≤ c ≤ 4), 11 (c ≥ 5).
        let class = Thresholds::new(8).unwrap();
        let labelings = Labelings::new(&class, &[2, 5], class.len() as usize);
        assert_eq!(labelings.first, vec![0, 2, 5]);
        assert_eq!(labelings.group, vec![0, 0, 1, 1, 1, 2, 2, 2]);
        assert_eq!(unpack(&labelings.keys[1], 2), vec![true, false]);
        assert_eq!(unpack(&labelings.keys[2], 2), vec![true, true]);
    }
}
