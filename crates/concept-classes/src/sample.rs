//! Labeled samples, validated against a domain at construction.

use crate::domain::{Domain, Point};
use crate::error::{Error, Result};

/// A sequence of labeled examples `(x_i, y_i)` with every point in a given domain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LabeledSample {
    points: Vec<Point>,
    labels: Vec<bool>,
}

impl LabeledSample {
    /// Validates and builds a sample. An empty sample is allowed (every concept then makes
    /// zero mistakes); operations that need examples say so.
    ///
    /// # Errors
    /// [`Error::LengthMismatch`] or [`Error::PointOutsideDomain`] (the first offender).
    pub fn new(domain: &Domain, points: Vec<Point>, labels: Vec<bool>) -> Result<Self> {
        if points.len() != labels.len() {
            return Err(Error::LengthMismatch {
                points: points.len(),
                labels: labels.len(),
            });
        }
        for &x in &points {
            domain.check(x)?;
        }
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

    /// The labels.
    pub fn labels(&self) -> &[bool] {
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

    /// The examples as `(point, label)` pairs.
    pub fn iter(&self) -> impl Iterator<Item = (Point, bool)> + '_ {
        self.points.iter().copied().zip(self.labels.iter().copied())
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
}
