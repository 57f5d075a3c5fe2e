//! [`ConceptSet`]: a set of concepts of one [`crate::ClassMatrix`] (a version space, the
//! concepts that realize a path of a mistake tree), as a validated bitset over concept
//! indices.
//!
//! The dimension and online APIs take and return this type instead of raw `&[u64]` words,
//! so a set is validated once (its length matches the class, no bits beyond the last
//! concept) and its meaning travels with it.

use crate::error::{Error, Result};
use crate::matrix::ClassMatrix;

/// A set of concept indices `0..universe` of a class matrix, bit-packed 64 to a word.
///
/// # Example
/// ```
/// use privpac_classes::{ClassMatrix, ConceptSet};
/// let matrix = ClassMatrix::parse("0011\n0111\n1111")?;
/// let all = matrix.all_concepts();
/// assert_eq!(all.len(), 3);
/// // The concepts that label point 1 with 1.
/// let ones = all.restrict(&matrix, 1, true)?;
/// assert_eq!(ones.iter().collect::<Vec<_>>(), vec![1, 2]);
/// assert!(ConceptSet::from_indices(3, [0, 5]).is_err());
/// # Ok::<(), privpac_classes::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ConceptSet {
    words: Vec<u64>,
    universe: usize,
}

impl ConceptSet {
    /// The empty set over `universe` concepts.
    pub fn empty(universe: usize) -> Self {
        ConceptSet {
            words: vec![0; universe.div_ceil(64)],
            universe,
        }
    }

    /// Every concept `0..universe`.
    pub fn full(universe: usize) -> Self {
        let mut words = vec![u64::MAX; universe.div_ceil(64)];
        let tail = universe % 64;
        if let (true, Some(last)) = (tail != 0, words.last_mut()) {
            *last = (1u64 << tail) - 1;
        }
        ConceptSet { words, universe }
    }

    /// The set of the given concept indices.
    ///
    /// # Errors
    /// [`Error::InvalidVersionSpace`] for an index `≥ universe`.
    pub fn from_indices(universe: usize, indices: impl IntoIterator<Item = usize>) -> Result<Self> {
        let mut set = ConceptSet::empty(universe);
        for index in indices {
            if index >= universe {
                return Err(Error::InvalidVersionSpace {
                    reason: format!("concept {index} is not below the class size {universe}"),
                });
            }
            set.words[index / 64] |= 1 << (index % 64);
        }
        Ok(set)
    }

    /// The set whose bitset is `words` (bit `c % 64` of word `c / 64` is concept `c`).
    ///
    /// # Errors
    /// [`Error::InvalidVersionSpace`] if `words` does not have `universe.div_ceil(64)`
    /// words or has bits beyond the last concept.
    pub fn from_words(universe: usize, words: Vec<u64>) -> Result<Self> {
        let expected = universe.div_ceil(64);
        if words.len() != expected {
            return Err(Error::InvalidVersionSpace {
                reason: format!(
                    "the bitset has {} words but the class needs {expected}",
                    words.len()
                ),
            });
        }
        let tail = universe % 64;
        if tail != 0 && words[expected - 1] >> tail != 0 {
            return Err(Error::InvalidVersionSpace {
                reason: format!("bits are set beyond the last concept ({})", universe - 1),
            });
        }
        Ok(ConceptSet { words, universe })
    }

    /// The number of concepts of the class this set is drawn from.
    pub fn universe(&self) -> usize {
        self.universe
    }

    /// The number of concepts in the set.
    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// Whether concept `c` is in the set (`false` for `c ≥ universe`).
    pub fn contains(&self, c: usize) -> bool {
        c < self.universe && self.words[c / 64] >> (c % 64) & 1 == 1
    }

    /// The smallest member, if any.
    pub fn first(&self) -> Option<usize> {
        self.iter().next()
    }

    /// The members in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(i, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let bit = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    i * 64 + bit
                })
            })
        })
    }

    /// The bitset words.
    pub fn as_words(&self) -> &[u64] {
        &self.words
    }

    /// The members that label point `x` of `matrix` with `label`.
    ///
    /// # Errors
    /// [`Error::InvalidVersionSpace`] if the set is not over `matrix`'s concepts or `x` is
    /// not a column of `matrix`.
    pub fn restrict(&self, matrix: &ClassMatrix, x: usize, label: bool) -> Result<Self> {
        self.check_universe(matrix)?;
        if x >= matrix.n_points() {
            return Err(Error::InvalidVersionSpace {
                reason: format!(
                    "point {x} is not below the matrix width {}",
                    matrix.n_points()
                ),
            });
        }
        let mut out = ConceptSet::empty(self.universe);
        restrict_words(&self.words, matrix.column(x), label, &mut out.words);
        Ok(out)
    }

    /// Checks that this set is over the concepts of `matrix`.
    ///
    /// # Errors
    /// [`Error::InvalidVersionSpace`] if the class sizes differ.
    pub(crate) fn check_universe(&self, matrix: &ClassMatrix) -> Result<()> {
        if self.universe != matrix.n_concepts() {
            return Err(Error::InvalidVersionSpace {
                reason: format!(
                    "the set is over {} concepts but the class has {}",
                    self.universe,
                    matrix.n_concepts()
                ),
            });
        }
        Ok(())
    }

    /// Replaces the members by `self ∩ column` (label 1) or `self \ column` (label 0), using
    /// `scratch` as the buffer; the caller has checked the sizes.
    pub(crate) fn restrict_in_place(
        &mut self,
        column: &[u64],
        label: bool,
        scratch: &mut Vec<u64>,
    ) {
        restrict_words(&self.words, column, label, scratch);
        std::mem::swap(&mut self.words, scratch);
    }
}

/// `set ∩ column` (label 1) or `set \ column` (label 0), written into `out`.
pub(crate) fn restrict_words(set: &[u64], column: &[u64], label: bool, out: &mut Vec<u64>) {
    out.clear();
    if label {
        out.extend(set.iter().zip(column).map(|(s, c)| s & c));
    } else {
        out.extend(set.iter().zip(column).map(|(s, c)| s & !c));
    }
}

// Defined here, not in matrix.rs, so that the matrix does not depend on its concept sets.
impl ClassMatrix {
    /// The set of every concept of the matrix.
    pub fn all_concepts(&self) -> ConceptSet {
        ConceptSet::full(self.n_concepts())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_and_empty_have_the_right_members() {
        for universe in [0, 1, 63, 64, 65, 130] {
            let full = ConceptSet::full(universe);
            assert_eq!(full.len(), universe);
            assert_eq!(
                full.iter().collect::<Vec<_>>(),
                (0..universe).collect::<Vec<_>>()
            );
            assert!(ConceptSet::empty(universe).is_empty());
            assert_eq!(
                ConceptSet::from_words(universe, full.as_words().to_vec()),
                Ok(full)
            );
        }
    }

    #[test]
    fn malformed_sets_are_typed_errors() {
        assert!(matches!(
            ConceptSet::from_words(65, vec![0]),
            Err(Error::InvalidVersionSpace { .. })
        ));
        assert!(matches!(
            ConceptSet::from_words(3, vec![0b1000]),
            Err(Error::InvalidVersionSpace { .. })
        ));
        assert!(ConceptSet::from_indices(3, [3]).is_err());
        let set = ConceptSet::from_indices(100, [0, 64, 99]).unwrap();
        assert!(set.contains(64) && !set.contains(63) && !set.contains(1000));
        assert_eq!(set.first(), Some(0));
        let matrix = ClassMatrix::parse("01\n11").unwrap();
        assert!(set.restrict(&matrix, 0, true).is_err());
        assert!(matrix.all_concepts().restrict(&matrix, 2, true).is_err());
    }
}
