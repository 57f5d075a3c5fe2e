//! `Hypothesis`: a deterministic function X → {0,1} that a learner can output (a concept,
//! a constant, a table, a hash bucket), evaluable on any point of the domain and
//! serializable.
//!
//! Randomized predictors (label flips, noisy votes) are a learner's output, not a
//! hypothesis: they live in `privpac_learners::Predictor`, which wraps these.

use serde::{Deserialize, Serialize};

use crate::bucket_hash::BucketHash;
use crate::class::{ConceptClass, ConceptParts};
use crate::domain::Point;

/// A deterministic hypothesis X → {0,1}. Proper learners output [`Hypothesis::Concept`];
/// improper ones may output any of these (randomized predictors wrap them, in
/// `privpac_learners`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Hypothesis {
    /// Concept `id` of the class the learner was run with.
    Concept {
        /// The concept id.
        id: u64,
    },
    /// The same label everywhere.
    Constant {
        /// The label.
        label: bool,
    },
    /// Listed points get listed labels, every other point `default`.
    Table {
        /// The listed points (sorted, distinct).
        points: Vec<Point>,
        /// Their labels.
        labels: Vec<bool>,
        /// The label of every other point.
        default: bool,
    },
    /// The indicator of one bucket of a universal hash: label 1 exactly on the points
    /// `hash` sends to `bucket` (the improper point learner's hypotheses; Beimel–Nissim–
    /// Stemmer's probabilistic representation of point functions).
    HashBucket {
        /// The hash function.
        hash: BucketHash,
        /// The bucket labelled 1.
        bucket: u64,
    },
    /// The indicator of the points `low ≤ x ≤ high` of an ordered domain, named by its ends
    /// rather than by a concept id: what learners output for intervals over more points
    /// than 64-bit ids can name (about 2^79 intervals over 2^40 points). Empty when
    /// `low > high`.
    Interval {
        /// The first point labelled 1.
        low: Point,
        /// The last point labelled 1.
        high: Point,
    },
    /// The complement of [`Hypothesis::Interval`]: label 1 on the points outside
    /// `low ≤ x ≤ high`, named by the interval's ends (what learners output for
    /// `not(intervals)` and `both(intervals)` beyond 64-bit ids). All ones when
    /// `low > high`.
    NotInterval {
        /// The first point labelled 0.
        low: Point,
        /// The last point labelled 0.
        high: Point,
    },
}

/// A concept named by its parts as a hypothesis: the empty and full concepts are
/// [`Hypothesis::Constant`] 0 and 1, an interval [`Hypothesis::Interval`], its complement
/// [`Hypothesis::NotInterval`].
impl From<ConceptParts> for Hypothesis {
    fn from(parts: ConceptParts) -> Self {
        match parts {
            ConceptParts::Empty => Hypothesis::Constant { label: false },
            ConceptParts::Interval { low, high } => Hypothesis::Interval { low, high },
            ConceptParts::Full => Hypothesis::Constant { label: true },
            ConceptParts::NotInterval { low, high } => Hypothesis::NotInterval { low, high },
        }
    }
}

impl Hypothesis {
    /// The label of x.
    pub fn eval(&self, class: &dyn ConceptClass, x: Point) -> bool {
        match self {
            Hypothesis::Concept { id } => class.eval(*id, x),
            Hypothesis::Constant { label } => *label,
            Hypothesis::Table {
                points,
                labels,
                default,
            } => points
                .binary_search(&x)
                .map_or(*default, |i| labels.get(i).copied().unwrap_or(*default)),
            Hypothesis::HashBucket { hash, bucket } => hash.bucket(x) == *bucket,
            Hypothesis::Interval { low, high } => *low <= x && x <= *high,
            Hypothesis::NotInterval { low, high } => !(*low <= x && x <= *high),
        }
    }

    /// `Pr[h(x) = 1]`: 0 or 1, exactly (the label of x as a probability, for code that
    /// also handles randomized predictors).
    pub fn probability_of_one(&self, class: &dyn ConceptClass, x: Point) -> f64 {
        self.probability_of_label(class, x, true)
    }

    /// `Pr[h(x) = label]`: 1 when x has `label`, else 0, exactly.
    pub fn probability_of_label(&self, class: &dyn ConceptClass, x: Point, label: bool) -> f64 {
        f64::from(u8::from(self.eval(class, x) == label))
    }

    /// What the hypothesis is, in the data's terms: `concept 46: parity of coordinates
    /// {1, 2, 3, 5} (bit string 0111010000)`, `all zeros`, a table's listed points (see
    /// [`ConceptClass::describe`]).
    pub fn describe(&self, class: &dyn ConceptClass) -> String {
        const SHOWN: usize = 8;
        match self {
            Hypothesis::Concept { id } => format!("concept {id}: {}", class.describe(*id)),
            Hypothesis::Constant { label: false } => "all zeros".into(),
            Hypothesis::Constant { label: true } => "all ones".into(),
            Hypothesis::Table {
                points,
                labels,
                default,
            } => {
                let domain = class.domain();
                let listed: Vec<String> = points
                    .iter()
                    .zip(labels)
                    .take(SHOWN)
                    .map(|(&x, &y)| format!("{} ↦ {}", domain.format_point(x), u8::from(y)))
                    .collect();
                let more = if points.len() > SHOWN {
                    format!(", … ({} points in all)", points.len())
                } else {
                    String::new()
                };
                format!(
                    "table {{{}{more}}}, {} elsewhere",
                    listed.join(", "),
                    u8::from(*default)
                )
            }
            Hypothesis::HashBucket { hash, bucket } => format!(
                "bucket {bucket} of {} of the hash x ↦ ⌊((a·x + b) mod (2^61 − 1))·m/(2^61 − 1)⌋ with a = {}, b = {}",
                hash.buckets(),
                hash.multiplier(),
                hash.offset()
            ),
            Hypothesis::Interval { low, high } if low > high => "empty interval (all zeros)".into(),
            Hypothesis::Interval { low, high } => {
                let domain = class.domain();
                format!(
                    "1 on [{}, {}]",
                    domain.format_point(*low),
                    domain.format_point(*high)
                )
            }
            Hypothesis::NotInterval { low, high } if low > high => {
                "complement of the empty interval (all ones)".into()
            }
            Hypothesis::NotInterval { low, high } => {
                let domain = class.domain();
                format!(
                    "0 on [{}, {}], 1 elsewhere",
                    domain.format_point(*low),
                    domain.format_point(*high)
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::class::Thresholds;

    #[test]
    fn evaluates_and_round_trips_through_json() {
        let class = Thresholds::new(10).unwrap();
        let hypotheses = [
            Hypothesis::Concept { id: 4 },
            Hypothesis::Constant { label: true },
            Hypothesis::Table {
                points: vec![2, 7],
                labels: vec![false, true],
                default: false,
            },
            Hypothesis::HashBucket {
                hash: BucketHash::new(5, 3, 2).unwrap(),
                bucket: 1,
            },
            Hypothesis::Interval { low: 3, high: 6 },
            Hypothesis::NotInterval { low: 3, high: 6 },
        ];
        assert!(hypotheses[0].eval(&class, 4) && !hypotheses[0].eval(&class, 5));
        assert!(hypotheses[2].eval(&class, 7) && !hypotheses[2].eval(&class, 3));
        assert_eq!(hypotheses[0].probability_of_one(&class, 4), 1.0);
        assert_eq!(hypotheses[0].probability_of_label(&class, 5, true), 0.0);
        assert_eq!(hypotheses[1].probability_of_label(&class, 5, true), 1.0);
        let inside: Vec<u64> = (0..10).filter(|&x| hypotheses[4].eval(&class, x)).collect();
        assert_eq!(inside, vec![3, 4, 5, 6]);
        assert_eq!(hypotheses[4].describe(&class), "1 on [3, 6]");
        let empty = Hypothesis::Interval { low: 4, high: 3 };
        assert!((0..10).all(|x| !empty.eval(&class, x)));
        // The complement labels exactly the other points.
        assert!((0..10).all(|x| hypotheses[5].eval(&class, x) != hypotheses[4].eval(&class, x)));
        assert_eq!(hypotheses[5].describe(&class), "0 on [3, 6], 1 elsewhere");
        let full = Hypothesis::NotInterval { low: 4, high: 3 };
        assert!((0..10).all(|x| full.eval(&class, x)));
        assert_eq!(
            serde_json::to_string(&hypotheses[5]).unwrap(),
            r#"{"kind":"not_interval","low":3,"high":6}"#
        );
        for parts in [
            ConceptParts::Empty,
            ConceptParts::Full,
            ConceptParts::Interval { low: 2, high: 5 },
            ConceptParts::NotInterval { low: 0, high: 0 },
        ] {
            let h = Hypothesis::from(parts);
            let c = Hypothesis::from(parts.complement());
            assert_eq!(parts.complement().complement(), parts);
            assert!((0..10).all(|x| h.eval(&class, x) == parts.contains(x)));
            assert!((0..10).all(|x| c.eval(&class, x) != h.eval(&class, x)));
        }
        assert_eq!(
            serde_json::to_string(&hypotheses[4]).unwrap(),
            r#"{"kind":"interval","low":3,"high":6}"#
        );
        for h in &hypotheses {
            let json = serde_json::to_string(h).unwrap();
            let back: Hypothesis = serde_json::from_str(&json).unwrap();
            assert_eq!(&back, h);
        }
    }
}
