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

    /// Checks that every point belongs to `domain` (for samples loaded with serde).
    ///
    /// # Errors
    /// [`Error::PointOutsideDomain`] for the first offender.
    pub fn check_domain(&self, domain: &Domain) -> Result<()> {
        self.points.iter().try_for_each(|&x| domain.check(x))
    }

    /// The examples as `(point, label)` pairs.
    pub fn iter(&self) -> impl Iterator<Item = (Point, bool)> + '_ {
        self.points.iter().copied().zip(self.labels.iter().copied())
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
            labels: raw.labels,
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
