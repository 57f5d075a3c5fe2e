//! Labeled samples, validated against a domain at construction. Reading them from files
//! (CSV) is the job of the front ends (`privpac-toolkit`), not of this crate.

use serde::{Deserialize, Serialize};

use crate::domain::{Domain, Point};
use crate::error::{Error, Result};

/// A sequence of labeled examples `(x_i, y_i)` with every point in a given domain.
///
/// Serializes as `{"points": [...], "labels": [...]}`. A sample carries no domain, so
/// deserializing checks only that the two lists have the same length; check the points
/// against a domain with [`LabeledSample::check_domain`] after loading.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "RawSample")]
pub struct LabeledSample {
    points: Vec<Point>,
    labels: Labels,
}

/// Labels packed 64 to a word: bit `i % 64` of word `i / 64` is label i, unused bits zero
/// (one bit per example, so that a sample costs 8 bytes plus one bit per example).
///
/// Serializes as a list of booleans.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Labels {
    words: Vec<u64>,
    len: usize,
}

impl Labels {
    /// No labels.
    pub fn new() -> Self {
        Labels::default()
    }

    /// The labels `len` whose bits are `words` (`⌈len/64⌉` words; bits past `len` are
    /// cleared), or `None` for another number of words.
    pub fn from_words(mut words: Vec<u64>, len: usize) -> Option<Self> {
        if words.len() != len.div_ceil(64) {
            return None;
        }
        if !len.is_multiple_of(64)
            && let Some(last) = words.last_mut()
        {
            *last &= (1u64 << (len % 64)) - 1;
        }
        Some(Labels { words, len })
    }

    /// Appends a label.
    pub fn push(&mut self, label: bool) {
        if self.len.is_multiple_of(64) {
            self.words.push(0);
        }
        if let Some(last) = self.words.last_mut() {
            *last |= u64::from(label) << (self.len % 64);
        }
        self.len += 1;
    }

    /// Number of labels.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no labels.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Label i (`None` past the end).
    pub fn get(&self, i: usize) -> Option<bool> {
        (i < self.len).then(|| self.words[i / 64] >> (i % 64) & 1 == 1)
    }

    /// The labels in order.
    pub fn iter(&self) -> impl Iterator<Item = bool> + '_ {
        (0..self.len).map(|i| self.words[i / 64] >> (i % 64) & 1 == 1)
    }

    /// Number of labels equal to 1.
    pub fn count_ones(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The packed words (`⌈len/64⌉`).
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    /// The packed words, consuming the labels.
    pub fn into_words(self) -> Vec<u64> {
        self.words
    }

    /// The labels unpacked.
    pub fn to_vec(&self) -> Vec<bool> {
        self.iter().collect()
    }

    /// Frees unused capacity.
    pub fn shrink_to_fit(&mut self) {
        self.words.shrink_to_fit();
    }
}

impl FromIterator<bool> for Labels {
    fn from_iter<I: IntoIterator<Item = bool>>(iter: I) -> Self {
        let mut labels = Labels::new();
        for label in iter {
            labels.push(label);
        }
        labels
    }
}

impl std::ops::Index<usize> for Labels {
    type Output = bool;

    /// Label i.
    ///
    /// # Panics
    /// If `i` is not below the length, as for a slice.
    fn index(&self, i: usize) -> &bool {
        match self.get(i) {
            Some(true) => &true,
            Some(false) => &false,
            None => panic!("label index {i} out of range for {} labels", self.len),
        }
    }
}

impl Serialize for Labels {
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl LabeledSample {
    /// Validates and builds a sample. An empty sample is allowed (every concept then makes
    /// zero mistakes); operations that need examples say so.
    ///
    /// # Errors
    /// [`Error::LengthMismatch`] or [`Error::PointOutsideDomain`] (the first offender).
    pub fn new(domain: &Domain, points: Vec<Point>, labels: Vec<bool>) -> Result<Self> {
        LabeledSample::with_labels(domain, points, labels.into_iter().collect())
    }

    /// [`Self::new`] with the labels already packed.
    ///
    /// # Errors
    /// As for [`Self::new`].
    pub fn with_labels(domain: &Domain, points: Vec<Point>, labels: Labels) -> Result<Self> {
        if points.len() != labels.len() {
            return Err(Error::LengthMismatch {
                points: points.len(),
                labels: labels.len(),
            });
        }
        domain.check_all(&points)?;
        Ok(LabeledSample { points, labels })
    }

    /// Builds a sample from `(point, label)` pairs.
    ///
    /// # Errors
    /// As for [`Self::new`].
    pub fn from_pairs(domain: &Domain, pairs: &[(Point, bool)]) -> Result<Self> {
        let (points, labels) = pairs.iter().copied().unzip();
        LabeledSample::new(domain, points, labels)
    }

    /// The points.
    pub fn points(&self) -> &[Point] {
        &self.points
    }

    /// The labels (packed as bits).
    pub fn labels(&self) -> &Labels {
        &self.labels
    }

    /// Number of examples.
    pub fn len(&self) -> usize {
        self.points.len()
    }

    /// Whether there are no examples.
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// Checks that every point belongs to `domain` (for samples loaded with serde).
    ///
    /// # Errors
    /// [`Error::PointOutsideDomain`] for the first offender.
    pub fn check_domain(&self, domain: &Domain) -> Result<()> {
        self.points.iter().try_for_each(|&x| domain.check(x))
    }

    /// The examples as `(point, label)` pairs.
    pub fn iter(&self) -> impl Iterator<Item = (Point, bool)> + '_ {
        self.points.iter().copied().zip(self.labels.iter())
    }
}

/// The serialized form, checked on the way in.
#[derive(Deserialize)]
struct RawSample {
    points: Vec<Point>,
    labels: Vec<bool>,
}

impl TryFrom<RawSample> for LabeledSample {
    type Error = Error;

    fn try_from(raw: RawSample) -> Result<Self> {
        if raw.points.len() != raw.labels.len() {
            return Err(Error::LengthMismatch {
                points: raw.points.len(),
                labels: raw.labels.len(),
            });
        }
        Ok(LabeledSample {
            points: raw.points,
            labels: raw.labels.into_iter().collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validates_points_and_lengths() {
        let domain = Domain::ordered(4).unwrap();
        let sample = LabeledSample::from_pairs(&domain, &[(0, true), (3, false)]).unwrap();
        assert_eq!(sample.len(), 2);
        assert_eq!(
            sample.iter().collect::<Vec<_>>(),
            vec![(0, true), (3, false)]
        );
        assert_eq!(
            LabeledSample::new(&domain, vec![1], vec![]),
            Err(Error::LengthMismatch {
                points: 1,
                labels: 0
            })
        );
        assert!(matches!(
            LabeledSample::from_pairs(&domain, &[(4, true)]),
            Err(Error::PointOutsideDomain { point: 4, .. })
        ));
        assert!(
            LabeledSample::new(&domain, vec![], vec![])
                .unwrap()
                .is_empty()
        );
    }

    #[test]
    fn labels_are_packed_bits() {
        let bools: Vec<bool> = (0..130).map(|i| i % 3 == 0 || i == 129).collect();
        let labels: Labels = bools.iter().copied().collect();
        assert_eq!((labels.len(), labels.words().len()), (130, 3));
        assert_eq!(labels.to_vec(), bools);
        assert_eq!(labels.count_ones(), bools.iter().filter(|&&y| y).count());
        assert!(labels[129] && !labels[128] && labels[0]);
        assert_eq!((labels.get(129), labels.get(130)), (Some(true), None));
        // From words: the bits past the length are cleared, a wrong word count refused.
        let from_words = Labels::from_words(vec![u64::MAX, u64::MAX], 70).unwrap();
        assert_eq!(from_words.count_ones(), 70);
        assert_eq!(from_words.words(), &[u64::MAX, (1 << 6) - 1]);
        assert_eq!(Labels::from_words(vec![0; 2], 64), None);
        assert_eq!(Labels::from_words(vec![], 0), Some(Labels::new()));
        // Equal labels compare equal however they were built.
        let rebuilt = Labels::from_words(labels.clone().into_words(), 130).unwrap();
        assert_eq!(rebuilt, labels);
        let domain = Domain::ordered(200).unwrap();
        let sample = LabeledSample::with_labels(&domain, (0..130).collect(), labels).unwrap();
        assert_eq!(
            sample,
            LabeledSample::new(&domain, (0..130).collect(), bools).unwrap()
        );
        assert!(LabeledSample::with_labels(&domain, vec![1], Labels::new()).is_err());
    }

    #[test]
    fn serde_round_trips_and_checks_lengths() {
        let domain = Domain::ordered(4).unwrap();
        let sample = LabeledSample::from_pairs(&domain, &[(0, true), (3, false)]).unwrap();
        let json = serde_json::to_string(&sample).unwrap();
        assert_eq!(json, r#"{"points":[0,3],"labels":[true,false]}"#);
        assert_eq!(
            serde_json::from_str::<LabeledSample>(&json).unwrap(),
            sample
        );
        assert!(serde_json::from_str::<LabeledSample>(r#"{"points":[1],"labels":[]}"#).is_err());
    }
}
