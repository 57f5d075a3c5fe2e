//! `Hypothesis`: what a learner outputs, evaluable on any point of the domain and
//! serializable.

use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::bucket_hash::BucketHash;
use crate::class::ConceptClass;
use crate::domain::Point;

/// A learner's output. Proper learners return [`Hypothesis::Concept`]; improper ones may
/// return anything here, including randomized predictors.
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
    /// A randomized predictor: each prediction is the base hypothesis's label, flipped
    /// independently with probability `flip_probability` (randomized response on the
    /// prediction, as in private-prediction algorithms).
    Flipped {
        /// The deterministic hypothesis whose labels are flipped.
        base: Box<Hypothesis>,
        /// The flip probability in [0, 1/2].
        flip_probability: f64,
    },
    /// A randomized predictor: a noisy majority vote of deterministic members. With `v₁`
    /// members voting 1 and `v₀` voting 0 at x, each prediction is 1 with probability
    /// `1/(1 + exp(ε(v₀ − v₁)/2))`: the exponential mechanism over the two labels scored by
    /// their votes (subsample-and-aggregate private prediction).
    NoisyVote {
        /// The voting deterministic hypotheses.
        members: Vec<Hypothesis>,
        /// The exponential mechanism's parameter ε (> 0).
        epsilon: f64,
    },
}

impl Hypothesis {
    /// `Pr[h(x) = 1]` (0 or 1 for deterministic hypotheses).
    pub fn probability_of_one(&self, class: &dyn ConceptClass, x: Point) -> f64 {
        match self {
            Hypothesis::Flipped {
                base,
                flip_probability,
            } => {
                let p = base.probability_of_one(class, x);
                p * (1.0 - flip_probability) + (1.0 - p) * flip_probability
            }
            Hypothesis::NoisyVote { members, epsilon } => {
                let (zeros, ones) = votes(members, class, x);
                1.0 / (1.0 + (epsilon * (zeros as f64 - ones as f64) / 2.0).exp())
            }
            deterministic => f64::from(u8::from(deterministic.label_of_deterministic(class, x))),
        }
    }

    /// What the hypothesis is, in the data's terms: `concept 46: parity of coordinates
    /// {1, 2, 3, 5} (bit string 0111010000)`, `all zeros`, a table's listed points, a
    /// randomized predictor's base and noise (see [`ConceptClass::describe`]).
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
            Hypothesis::Flipped {
                base,
                flip_probability,
            } => format!(
                "{} with labels flipped w.p. {flip_probability}",
                base.describe(class)
            ),
            Hypothesis::NoisyVote { members, epsilon } => {
                let shown: Vec<String> = members
                    .iter()
                    .take(SHOWN)
                    .map(|m| m.describe(class))
                    .collect();
                let more = if members.len() > SHOWN { ", …" } else { "" };
                format!(
                    "noisy vote (ε = {epsilon}) of {} members: {}{more}",
                    members.len(),
                    shown.join("; ")
                )
            }
        }
    }

    /// Whether the hypothesis is deterministic.
    pub fn is_deterministic(&self) -> bool {
        !matches!(
            self,
            Hypothesis::Flipped { .. } | Hypothesis::NoisyVote { .. }
        )
    }

    /// The label of a deterministic hypothesis (a randomized one gives its base's label, or
    /// for a noisy vote the strict majority, 0 on ties).
    pub fn eval(&self, class: &dyn ConceptClass, x: Point) -> bool {
        self.label_of_deterministic(class, x)
    }

    /// One prediction, drawing the randomness of randomized hypotheses from `rng`.
    pub fn predict<R: Rng + ?Sized>(
        &self,
        class: &dyn ConceptClass,
        x: Point,
        rng: &mut R,
    ) -> bool {
        match self {
            Hypothesis::Flipped {
                base,
                flip_probability,
            } => {
                let label = base.predict(class, x, rng);
                // A uniform in [0, 1) on the 2^-53 grid; flip when below p.
                let uniform = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
                label ^ (uniform < *flip_probability)
            }
            Hypothesis::NoisyVote { .. } => {
                // Same float coin as above: exact to within 2^-53 in probability. For the
                // exact coin use the learner's own `predict` (privpac_learners::VotingPredictor).
                let uniform = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
                uniform < self.probability_of_one(class, x)
            }
            deterministic => deterministic.label_of_deterministic(class, x),
        }
    }

    fn label_of_deterministic(&self, class: &dyn ConceptClass, x: Point) -> bool {
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
            Hypothesis::Flipped { base, .. } => base.label_of_deterministic(class, x),
            Hypothesis::NoisyVote { members, .. } => {
                let (zeros, ones) = votes(members, class, x);
                ones > zeros
            }
        }
    }
}

/// The numbers of members voting 0 and 1 at x (members vote with their deterministic
/// label).
fn votes(members: &[Hypothesis], class: &dyn ConceptClass, x: Point) -> (usize, usize) {
    let ones = members
        .iter()
        .filter(|m| m.label_of_deterministic(class, x))
        .count();
    (members.len() - ones, ones)
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
            Hypothesis::Flipped {
                base: Box::new(Hypothesis::Concept { id: 4 }),
                flip_probability: 0.25,
            },
            Hypothesis::NoisyVote {
                members: vec![
                    Hypothesis::Concept { id: 2 },
                    Hypothesis::Concept { id: 4 },
                    Hypothesis::Concept { id: 6 },
                ],
                epsilon: 2.0,
            },
        ];
        assert!(hypotheses[0].eval(&class, 4) && !hypotheses[0].eval(&class, 5));
        assert!(hypotheses[2].eval(&class, 7) && !hypotheses[2].eval(&class, 3));
        assert_eq!(hypotheses[3].probability_of_one(&class, 0), 0.75);
        assert_eq!(hypotheses[3].probability_of_one(&class, 9), 0.25);
        // Thresholds label x ≤ id with 1: at x = 3 the votes are 1 for 0 and 2 for 1, so
        // Pr[1] = 1/(1 + e^{2·(1 − 2)/2}) = 1/(1 + e^{−1}).
        let vote = &hypotheses[4];
        assert!((vote.probability_of_one(&class, 3) - 1.0 / (1.0 + (-1.0f64).exp())).abs() < 1e-15);
        assert!((vote.probability_of_one(&class, 9) - 1.0 / (1.0 + 3.0f64.exp())).abs() < 1e-15);
        assert!(vote.eval(&class, 3) && !vote.eval(&class, 5) && !vote.is_deterministic());
        for h in &hypotheses {
            let json = serde_json::to_string(h).unwrap();
            let back: Hypothesis = serde_json::from_str(&json).unwrap();
            assert_eq!(&back, h);
        }
    }
}
