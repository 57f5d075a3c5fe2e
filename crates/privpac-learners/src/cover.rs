//! Grouping the concepts of a class by their labeling of a few points: the cover that the
//! stable, sanitizer-based and relabeling learners select from.

use std::collections::HashMap;

use privpac_classes::{ConceptClass, Point};

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

    /// The labels of labeling `slot` on the `count` points it was built from.
    pub(crate) fn labels(&self, slot: usize, count: usize) -> Vec<bool> {
        let key = &self.keys[slot];
        (0..count)
            .map(|j| key[j / 64] >> (j % 64) & 1 == 1)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use privpac_classes::Thresholds;

    use super::*;

    #[test]
    fn groups_thresholds_by_their_labels() {
        // Thresholds over 8 points (x ≤ c), on points {2, 5}: labelings 00 (c ≤ 1),
        // 10 (2 ≤ c ≤ 4), 11 (c ≥ 5).
        let class = Thresholds::new(8).unwrap();
        let labelings = Labelings::new(&class, &[2, 5], class.len() as usize);
        assert_eq!(labelings.first, vec![0, 2, 5]);
        assert_eq!(labelings.group, vec![0, 0, 1, 1, 1, 2, 2, 2]);
        assert_eq!(labelings.labels(1, 2), vec![true, false]);
        assert_eq!(labelings.labels(2, 2), vec![true, true]);
    }
}
