//! Tests of [`Predictor`]: evaluation, exact sampling and probabilities of the randomized
//! predictors, and the JSON format (one `kind` tag over hypotheses and randomized
//! predictors, byte for byte as it was when the randomized predictors were variants of
//! `Hypothesis`).

use privpac_classes::{BucketHash, Thresholds};

use super::*;

#[test]
fn evaluates_and_round_trips_through_json() {
    let class = Thresholds::new(10).unwrap();
    let hypotheses = [
        Predictor::from(Hypothesis::Concept { id: 4 }),
        Hypothesis::Constant { label: true }.into(),
        Hypothesis::Table {
            points: vec![2, 7],
            labels: vec![false, true],
            default: false,
        }
        .into(),
        Predictor::Flipped {
            base: Box::new(Hypothesis::Concept { id: 4 }.into()),
            flip_probability: 0.25,
        },
        Predictor::NoisyVote {
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
    assert!((vote.probability_of_one(&class, 9) - 1.0 / (1.0 + (3.0 * rate).exp())).abs() < 1e-15);
    assert!(vote.eval(&class, 3) && !vote.eval(&class, 5) && !vote.is_deterministic());
    for h in &hypotheses {
        let json = serde_json::to_string(h).unwrap();
        let back: Predictor = serde_json::from_str(&json).unwrap();
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
fn vote(ones: usize, k: usize, epsilon: f64) -> Predictor {
    let members = (0..k)
        .map(|i| Hypothesis::Constant { label: i < ones })
        .collect();
    Predictor::NoisyVote { members, epsilon }
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
        let mechanism = ExponentialMechanism::new(Privacy::pure(epsilon).unwrap(), 1.0).unwrap();
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
fn randomized_predictors_with_invalid_parameters_are_refused() {
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
        let h = Predictor::Flipped {
            base: Box::new(Hypothesis::Constant { label: true }.into()),
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
    let rare = Predictor::Flipped {
        base: Box::new(Hypothesis::Constant { label: true }.into()),
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

/// The JSON of every kind, byte for byte as `privpac_classes::Hypothesis` wrote it when the
/// randomized predictors were its variants (`#[serde(tag = "kind", rename_all =
/// "snake_case")]` on one enum of six): each literal deserializes to the predictor and the
/// predictor serializes back to the literal; a deterministic predictor's JSON is its
/// hypothesis's.
#[test]
fn json_is_the_format_of_the_six_kind_hypothesis() {
    let concept = Hypothesis::Concept { id: 3 };
    let cases: Vec<(Predictor, &str)> = vec![
        (concept.clone().into(), r#"{"kind":"concept","id":3}"#),
        (
            Hypothesis::Constant { label: false }.into(),
            r#"{"kind":"constant","label":false}"#,
        ),
        (
            Hypothesis::Table {
                points: vec![2, 7],
                labels: vec![false, true],
                default: true,
            }
            .into(),
            r#"{"kind":"table","points":[2,7],"labels":[false,true],"default":true}"#,
        ),
        (
            Hypothesis::HashBucket {
                hash: BucketHash::new(5, 3, 2).unwrap(),
                bucket: 1,
            }
            .into(),
            r#"{"kind":"hash_bucket","hash":{"multiplier":5,"offset":3,"buckets":2},"bucket":1}"#,
        ),
        (
            Predictor::Flipped {
                base: Box::new(concept.clone().into()),
                flip_probability: 0.1,
            },
            r#"{"kind":"flipped","base":{"kind":"concept","id":3},"flip_probability":0.1}"#,
        ),
        (
            Predictor::NoisyVote {
                members: vec![concept.clone(), Hypothesis::Constant { label: true }],
                epsilon: 0.7362,
            },
            r#"{"kind":"noisy_vote","members":[{"kind":"concept","id":3},{"kind":"constant","label":true}],"epsilon":0.7362}"#,
        ),
        (
            // Dagan–Feldman's predictor: a flip around a noisy vote.
            Predictor::Flipped {
                base: Box::new(Predictor::NoisyVote {
                    members: vec![concept.clone(), Hypothesis::Concept { id: 5 }],
                    epsilon: 1.0,
                }),
                flip_probability: 0.0625,
            },
            r#"{"kind":"flipped","base":{"kind":"noisy_vote","members":[{"kind":"concept","id":3},{"kind":"concept","id":5}],"epsilon":1.0},"flip_probability":0.0625}"#,
        ),
    ];
    for (predictor, json) in &cases {
        assert_eq!(serde_json::to_string(predictor).unwrap(), *json);
        assert_eq!(&serde_json::from_str::<Predictor>(json).unwrap(), predictor);
        if let Some(h) = predictor.as_hypothesis() {
            assert_eq!(serde_json::to_string(h).unwrap(), *json);
        }
    }
    // Floats survive the round trip through the tag's buffering exactly.
    let awkward = Predictor::Flipped {
        base: Box::new(concept.into()),
        flip_probability: 0.1 + 0.2,
    };
    let json = serde_json::to_string(&awkward).unwrap();
    assert_eq!(serde_json::from_str::<Predictor>(&json).unwrap(), awkward);
    // Neither a hypothesis nor a randomized predictor.
    for bad in [
        r#"{"kind":"nothing","id":3}"#,
        r#"{"kind":"flipped","base":{"kind":"concept","id":3}}"#,
        r#"{"kind":"noisy_vote","members":[{"kind":"flipped","base":{"kind":"concept","id":3},"flip_probability":0.1}],"epsilon":1.0}"#,
    ] {
        assert!(serde_json::from_str::<Predictor>(bad).is_err(), "{bad}");
    }
}
