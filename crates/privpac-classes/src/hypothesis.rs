//! `Hypothesis`: what a learner outputs, evaluable on any point of the domain and
//! serializable.
//!
//! Randomized hypotheses sample their predictions exactly: a noisy vote with
//! `privpac_mechanisms`' exponential mechanism (the sampler the voting learner itself
//! uses, which pays its floating-point error out of ε), a flip with an exact Bernoulli
//! coin; [`Hypothesis::probability_of_label`] gives the probabilities these samplers
//! realize.

use privpac_mechanisms::{ExponentialMechanism, Privacy, RandomBits};
use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::bucket_hash::BucketHash;
use crate::class::ConceptClass;
use crate::domain::Point;
use crate::error::{Error, Result};

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
    /// prediction, as in private-prediction algorithms), with an exact coin
    /// (`privpac_mechanisms::RandomBits::bernoulli_f64`, which reads the `f64` as the exact
    /// dyadic rational it stores).
    Flipped {
        /// The deterministic hypothesis whose labels are flipped.
        base: Box<Hypothesis>,
        /// The flip probability in [0, 1/2].
        flip_probability: f64,
    },
    /// A randomized predictor: a noisy majority vote of deterministic members. With `v₁`
    /// members voting 1 and `v₀` voting 0 at x, each prediction is the exponential
    /// mechanism with parameter ε over the two labels scored by their votes (sensitivity 1;
    /// subsample-and-aggregate private prediction): ideally 1 with probability
    /// `1/(1 + exp(ε(v₀ − v₁)/2))`. It is sampled exactly as
    /// `privpac_mechanisms::ExponentialMechanism::select_integer` samples (the voting
    /// learner's own sampler), which runs at `ε − 4η` (η = 2·10⁻¹², the mechanism's
    /// floating-point budget) so that its ε-DP guarantee covers its rounding; so every label
    /// keeps a positive probability however large the margin.
    NoisyVote {
        /// The voting deterministic hypotheses.
        members: Vec<Hypothesis>,
        /// The exponential mechanism's parameter ε (> 0).
        epsilon: f64,
    },
}

impl Hypothesis {
    /// `Pr[h(x) = 1]` as [`Self::predict`] realizes it (0 or 1 for deterministic
    /// hypotheses): [`Self::probability_of_label`] for label 1. The value is rounded to the
    /// nearest `f64`, so a probability within 2⁻⁵⁴ of 1 reads as 1.0 although the other
    /// label keeps a positive probability; use [`Self::probability_of_label`] for the
    /// small one. NaN for a randomized hypothesis with invalid parameters (which
    /// [`Self::predict`] refuses).
    pub fn probability_of_one(&self, class: &dyn ConceptClass, x: Point) -> f64 {
        self.probability_of_label(class, x, true)
    }

    /// `Pr[h(x) = label]` as [`Self::predict`] realizes it, each label's probability
    /// computed in its own right (so a tiny probability keeps its relative precision):
    /// - a noisy vote: the exponential mechanism's own output probability
    ///   (`ExponentialMechanism::log_probabilities_integer` on the votes). The sampler
    ///   realizes exactly `ŵ_label/(ŵ₀ + ŵ₁)` for its floating-point weights ŵ; this is
    ///   that ratio up to the few roundings of a log-sum-exp (relative error below 10⁻¹⁵);
    /// - a flipped hypothesis: `η·Pr_base[¬label] + (1 − η)·Pr_base[label]`, with η the
    ///   exact flip probability of the coin, up to the rounding of this expression;
    /// - a deterministic hypothesis: 0 or 1, exactly.
    ///
    /// NaN for a randomized hypothesis with invalid parameters (a vote's ε that the
    /// exponential mechanism refuses, a flip probability outside [0, 1]).
    pub fn probability_of_label(&self, class: &dyn ConceptClass, x: Point, label: bool) -> f64 {
        match self {
            Hypothesis::Flipped {
                base,
                flip_probability,
            } => {
                if check_flip_probability(*flip_probability).is_err() {
                    return f64::NAN;
                }
                let same = base.probability_of_label(class, x, label);
                let other = base.probability_of_label(class, x, !label);
                same * (1.0 - flip_probability) + other * flip_probability
            }
            Hypothesis::NoisyVote { members, epsilon } => {
                let Ok(mechanism) = vote_mechanism(*epsilon) else {
                    return f64::NAN;
                };
                match mechanism.log_probabilities_integer(&vote_scores(members, class, x)) {
                    Ok(log) => log[usize::from(label)].exp(),
                    Err(_) => f64::NAN, // unreachable: two candidates
                }
            }
            deterministic => f64::from(u8::from(
                deterministic.label_of_deterministic(class, x) == label,
            )),
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

    /// One prediction, drawing the randomness of randomized hypotheses from `rng`, with
    /// exact samplers: a noisy vote draws from the exponential mechanism exactly as the
    /// voting learner does (so the learner's per-prediction guarantee covers this call), a
    /// flip is an exact Bernoulli coin. [`Self::probability_of_label`] gives the
    /// probabilities realized.
    ///
    /// # Errors
    /// [`Error::InvalidHypothesis`] for a noisy vote whose ε the exponential mechanism
    /// refuses (not finite, or below its minimum 10⁻⁹) or a flip probability outside
    /// [0, 1] (possible only for a hypothesis built by hand or deserialized).
    pub fn predict<R: Rng + ?Sized>(
        &self,
        class: &dyn ConceptClass,
        x: Point,
        rng: &mut R,
    ) -> Result<bool> {
        match self {
            Hypothesis::Flipped {
                base,
                flip_probability,
            } => {
                check_flip_probability(*flip_probability)?;
                let label = base.predict(class, x, rng)?;
                Ok(label ^ RandomBits::new(rng).bernoulli_f64(*flip_probability))
            }
            Hypothesis::NoisyVote { members, epsilon } => {
                let mechanism = vote_mechanism(*epsilon)?;
                let chosen = mechanism
                    .select_integer(&vote_scores(members, class, x), rng)
                    .map_err(|e| Error::InvalidHypothesis {
                        reason: e.to_string(),
                    })?;
                Ok(chosen == 1)
            }
            deterministic => Ok(deterministic.label_of_deterministic(class, x)),
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

/// The exponential mechanism of a noisy vote with parameter ε (scores of sensitivity 1).
fn vote_mechanism(epsilon: f64) -> Result<ExponentialMechanism> {
    Privacy::pure(epsilon)
        .map_err(privpac_mechanisms::Error::from)
        .and_then(|privacy| ExponentialMechanism::new(privacy, 1.0))
        .map_err(|e| Error::InvalidHypothesis {
            reason: format!("noisy vote with ε = {epsilon}: {e}"),
        })
}

/// A flip probability must be a probability.
fn check_flip_probability(flip_probability: f64) -> Result<()> {
    if (0.0..=1.0).contains(&flip_probability) {
        Ok(())
    } else {
        Err(Error::InvalidHypothesis {
            reason: format!("flip probability {flip_probability} is not in [0, 1]"),
        })
    }
}

/// The scores of labels 0 and 1 at x: their numbers of votes.
fn vote_scores(members: &[Hypothesis], class: &dyn ConceptClass, x: Point) -> [i64; 2] {
    let (zeros, ones) = votes(members, class, x);
    [zeros as i64, ones as i64]
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
        // Pr[1] = 1/(1 + e^{λ(1 − 2)}) = 1/(1 + e^{−λ}), at the rate λ = (ε − 4η)/2 the
        // exponential mechanism samples with (it pays its rounding η out of ε).
        let vote = &hypotheses[4];
        let rate = (2.0 - 4.0 * privpac_mechanisms::FLOAT_ERROR_BUDGET) / 2.0;
        assert!((vote.probability_of_one(&class, 3) - 1.0 / (1.0 + (-rate).exp())).abs() < 1e-15);
        assert!(
            (vote.probability_of_one(&class, 9) - 1.0 / (1.0 + (3.0 * rate).exp())).abs() < 1e-15
        );
        assert!(vote.eval(&class, 3) && !vote.eval(&class, 5) && !vote.is_deterministic());
        for h in &hypotheses {
            let json = serde_json::to_string(h).unwrap();
            let back: Hypothesis = serde_json::from_str(&json).unwrap();
            assert_eq!(&back, h);
        }
    }

    /// A generator that replays fixed 64-bit words, then `fallback` forever.
    struct Words {
        words: Vec<u64>,
        next: usize,
        fallback: u64,
    }

    impl rand::TryRng for Words {
        type Error = std::convert::Infallible;

        fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
            Ok(self.try_next_u64()? as u32)
        }

        fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
            let word = self.words.get(self.next).copied().unwrap_or(self.fallback);
            self.next += 1;
            Ok(word)
        }

        fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
            for chunk in dst.chunks_mut(8) {
                let word = self.try_next_u64()?.to_le_bytes();
                chunk.copy_from_slice(&word[..chunk.len()]);
            }
            Ok(())
        }
    }

    /// A noisy vote of `k` constant members of which `ones` vote 1.
    fn vote(ones: usize, k: usize, epsilon: f64) -> Hypothesis {
        let members = (0..k)
            .map(|i| Hypothesis::Constant { label: i < ones })
            .collect();
        Hypothesis::NoisyVote { members, epsilon }
    }

    /// The old float coin predicted with `uniform < p` for p computed at the full ε; at
    /// ε = 1 and a margin of 74 votes p rounds to 1.0, so label 0 was never predicted
    /// while the neighbouring vote (73 to 1) predicts it with probability 2.2·10⁻¹⁶: an
    /// infinite loss. The exact sampler gives label 0 a positive probability: here a
    /// finite stream of bits (probability at least 2⁻⁶⁶) on which it answers 0.
    #[test]
    fn a_noisy_vote_predicts_the_minority_label_at_a_margin_that_rounds() {
        let class = Thresholds::new(2).unwrap();
        let unanimous = vote(74, 74, 1.0);
        // The envelope of the exponential mechanism over the scores [0, 74] has total
        // 2^64 + 2^11 (label 0 in band 53); the first 65 bits (word 0, then the low bit
        // of word 1) propose 2^64, i.e. label 0, and the next bit, 0, accepts it (the
        // acceptance probability exceeds 1/2).
        let mechanism = ExponentialMechanism::new(Privacy::pure(1.0).unwrap(), 1.0).unwrap();
        let words = || Words {
            words: vec![0, 1],
            next: 0,
            fallback: 0,
        };
        assert_eq!(mechanism.select_integer(&[0, 74], &mut words()).unwrap(), 0);
        assert!(!unanimous.predict(&class, 0, &mut words()).unwrap());
        // And the exact probabilities: positive for both labels on both votes, within
        // e^ε of each other (one member changed its vote).
        let neighbour = vote(73, 74, 1.0);
        let zero = unanimous.probability_of_label(&class, 0, false);
        let zero_neighbour = neighbour.probability_of_label(&class, 0, false);
        assert!(
            zero > 0.0 && zero_neighbour > 0.0,
            "{zero}, {zero_neighbour}"
        );
        assert!(
            (zero_neighbour / zero).ln() <= 1.0,
            "{zero} vs {zero_neighbour}"
        );
        // The rounded Pr[1] reads 1.0 on the unanimous vote, as documented.
        assert_eq!(unanimous.probability_of_one(&class, 0), 1.0);
    }

    /// `predict` draws exactly what the exponential mechanism draws for the same random
    /// bits, at every margin (the old float coin consumed one word and compared it with a
    /// rounded probability).
    #[test]
    fn a_noisy_vote_samples_with_the_exponential_mechanism() {
        use rand::SeedableRng;
        let class = Thresholds::new(2).unwrap();
        for epsilon in [1e-9, 0.3, 1.0, 40.0, 1e4] {
            let mechanism =
                ExponentialMechanism::new(Privacy::pure(epsilon).unwrap(), 1.0).unwrap();
            for (ones, k) in [
                (0, 1),
                (1, 2),
                (2, 3),
                (0, 74),
                (37, 74),
                (74, 74),
                (3, 1000),
            ] {
                let h = vote(ones, k, epsilon);
                let scores = [(k - ones) as i64, ones as i64];
                for seed in 0..64 {
                    let mut a = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
                    let mut b = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
                    assert_eq!(
                        h.predict(&class, 0, &mut a).unwrap(),
                        mechanism.select_integer(&scores, &mut b).unwrap() == 1,
                        "ε = {epsilon}, {ones} of {k}, seed {seed}"
                    );
                }
            }
        }
    }

    /// Exact realized probabilities over the whole margin range: for ε from the smallest
    /// accepted to 10⁴ and up to 1000 members, every label keeps a positive probability,
    /// one member changing its vote moves either label's probability by at most e^ε
    /// (sensitivity 1), and any two votes are within `e^{εk/2 + 10⁻⁹}` (the floor bound).
    #[test]
    fn noisy_vote_probabilities_are_positive_and_private_at_every_margin() {
        let class = Thresholds::new(2).unwrap();
        for epsilon in [1e-9, 1e-3, 0.5, 1.0, 7.0, 100.0, 1e4] {
            for k in [1usize, 2, 3, 7, 74, 1000] {
                let log = |ones: usize, label: bool| {
                    vote(ones, k, epsilon)
                        .probability_of_label(&class, 0, label)
                        .ln()
                };
                let floor_bound = epsilon * k as f64 / 2.0 + 1e-9;
                let (mut lowest, mut highest) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
                for ones in 0..=k {
                    for label in [false, true] {
                        let here = log(ones, label);
                        assert!(here.is_finite(), "ε = {epsilon}, {ones} of {k}: Pr = 0");
                        lowest[usize::from(label)] = lowest[usize::from(label)].min(here);
                        highest[usize::from(label)] = highest[usize::from(label)].max(here);
                        if ones < k {
                            let loss = (here - log(ones + 1, label)).abs();
                            assert!(
                                loss <= epsilon,
                                "ε = {epsilon}, {ones} of {k}, label {label}: loss {loss}"
                            );
                        }
                    }
                }
                for label in 0..2 {
                    let spread = highest[label] - lowest[label];
                    assert!(spread <= floor_bound, "ε = {epsilon}, k = {k}: {spread}");
                }
            }
        }
    }

    #[test]
    fn randomized_hypotheses_with_invalid_parameters_are_refused() {
        use rand::SeedableRng;
        let class = Thresholds::new(2).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        for epsilon in [0.0, -1.0, 1e-10, f64::NAN, f64::INFINITY] {
            let h = vote(1, 3, epsilon);
            assert!(matches!(
                h.predict(&class, 0, &mut rng),
                Err(Error::InvalidHypothesis { .. })
            ));
            assert!(h.probability_of_one(&class, 0).is_nan());
        }
        for flip_probability in [-0.1, 1.5, f64::NAN] {
            let h = Hypothesis::Flipped {
                base: Box::new(Hypothesis::Constant { label: true }),
                flip_probability,
            };
            assert!(matches!(
                h.predict(&class, 0, &mut rng),
                Err(Error::InvalidHypothesis { .. })
            ));
            assert!(h.probability_of_one(&class, 0).is_nan());
        }
        // A flip probability is read exactly: 2^-60 is realized as 2^-60 (the old float
        // coin flipped with probability 2^-53), and Pr[0] reports it.
        let rare = Hypothesis::Flipped {
            base: Box::new(Hypothesis::Constant { label: true }),
            flip_probability: 2f64.powi(-60),
        };
        assert_eq!(rare.probability_of_label(&class, 0, false), 2f64.powi(-60));
        // Word 1 gives the old coin the uniform (1 >> 11)/2^53 = 0 < 2^-60: a flip; the
        // exact coin reads bits from the lowest, and a first bit 1 puts its uniform above
        // 1/2 > 2^-60: no flip.
        let mut words = Words {
            words: vec![1],
            next: 0,
            fallback: u64::MAX,
        };
        assert!(rare.predict(&class, 0, &mut words).unwrap());
    }
}
