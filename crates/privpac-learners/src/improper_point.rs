//! The improper pure-DP learner for point functions whose sample size does not grow with
//! |X|: Beimel–Nissim–Stemmer's probabilistic representation of `POINT_X` (hash the domain
//! into m buckets before seeing the data, then choose a bucket indicator privately).

use privpac_accounting::{Guarantee, Privacy};
use privpac_classes::{BucketHash, ConceptClass, HASH_PRIME, Hypothesis, LabeledSample};
use privpac_mechanisms::{ExponentialMechanism, ScoreLevel};
use rand::Rng;

use crate::bounds::improper_point_learner_buckets;
use crate::error::{Error, Result};
use crate::learner::Learner;
use crate::predictor::Predictor;

/// Most buckets [`ImproperPointLearner::output_distribution`] lists (it returns one
/// probability per bucket).
pub const MAX_LISTED_BUCKETS: u64 = 1 << 20;

/// An improper ε-DP learner for point functions with a sample size independent of |X|.
///
/// Before looking at the data it draws a hash `h` from a universal family onto m buckets
/// ([`BucketHash`]); its candidates are the m bucket indicators `{x : h(x) = i}` and the
/// all-zero function, and it outputs one with probability proportional to
/// `exp(−ε·mistakes/2)` (the exponential mechanism, mistakes on the sample as the score).
/// For a target point t, t's bucket errs only on the other points hashed with t, whose
/// mass is at most 1/m in expectation over h; with `m = ⌈16/(αβ)⌉` that mass is small with
/// probability 1 − β/4, and the sample size depends on m, α, β and ε only. This is
/// Beimel, Nissim and Stemmer's probabilistic representation of `POINT_X` ("Characterizing
/// the sample complexity of private learners", ITCS 2013), the learner Bun–Nissim–Stemmer
/// quote before Corollary 3.3 of "Simultaneous private learning of multiple concepts".
///
/// # Privacy
/// ε-differentially private (pure) with respect to changing one example. The hash does
/// not depend on the data, and for every fixed hash the output is the exponential
/// mechanism over m + 1 candidates whose mistake counts have sensitivity 1 (Dwork–Roth
/// Theorem 3.10); a mixture over a data-independent choice of mechanisms that are all
/// ε-DP is ε-DP. Sampling uses the count-weighted path of [`ExponentialMechanism`], whose
/// floating-point error is paid for out of ε.
///
/// # Sample complexity
/// Given by [`crate::bounds::improper_point_learner_sample_size`]: realizable
/// `O((1/α)(1 + 1/ε)·log(1/(αβ)))`, agnostic `O((1/α² + 1/(εα))·log(1/(αβ)))`, with
/// explicit constants and their derivation there, for the default `m = ⌈16/(αβ)⌉`; for
/// any other m, [`crate::bounds::improper_point_learner_sample_size_for_buckets`] (no
/// bound for `m ≤ 4/(αβ)`). Improper: the output is a bucket
/// indicator ([`Hypothesis::HashBucket`]) or all zeros, never a point function.
///
/// # Running time
/// O(n log n) for n examples and independent of m and |X|: the buckets no example falls
/// in share one score with the all-zero function and form one level of the mechanism.
///
/// # Errors
/// [`Error::EmptySample`]; [`Error::InvalidParameter`] for an approximate `privacy` or a
/// bucket count outside `1..=2^32`; [`Error::Class`] for a domain with more than
/// `2^61 − 1` points (the hash is universal only below its prime) or a class that is not
/// a class of point functions.
///
/// # Example
/// ```
/// use privpac_classes::{ConceptClass, Domain, Hypothesis, LabeledSample, Points};
/// use privpac_learners::{ImproperPointLearner, Learner};
/// use privpac_accounting::Privacy;
/// use rand::SeedableRng;
///
/// // Point functions over 2^40 points; the target is point 123456789.
/// let class = Points::new(Domain::ordered(1 << 40)?);
/// let pairs: Vec<(u64, bool)> = (0..3000u64)
///     .map(|i| if i % 3 == 0 { (123_456_789, true) } else { (i * 7_919 + 5, false) })
///     .collect();
/// let sample = LabeledSample::from_pairs(class.domain(), &pairs)?;
/// let learner = ImproperPointLearner::for_accuracy(Privacy::pure(1.0)?, 0.1, 0.1)?;
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
/// let hypothesis = learner.learn(&class, &sample, &mut rng)?;
/// assert!(matches!(hypothesis.as_hypothesis(), Some(Hypothesis::HashBucket { .. })));
/// assert!(hypothesis.eval(&class, 123_456_789)); // the target's bucket
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ImproperPointLearner {
    mechanism: ExponentialMechanism,
    buckets: u64,
}

impl ImproperPointLearner {
    /// The learner for a pure ε with `buckets` hash buckets.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for δ > 0 or a bucket count outside `1..=2^32`;
    /// [`Error::Mechanism`] for ε below the mechanism's minimum.
    pub fn new(privacy: Privacy, buckets: u64) -> Result<Self> {
        if !privacy.is_pure() {
            return Err(Error::InvalidParameter {
                name: "δ of the improper point learner",
                requirement: "0 (the learner is pure)",
                value: privacy.delta(),
            });
        }
        if !(1..=privpac_classes::MAX_BUCKETS).contains(&buckets) {
            return Err(Error::InvalidParameter {
                name: "number of hash buckets",
                requirement: "between 1 and 2^32",
                value: buckets as f64,
            });
        }
        Ok(ImproperPointLearner {
            mechanism: ExponentialMechanism::new(privacy, 1.0)?,
            buckets,
        })
    }

    /// The learner built for accuracy α with confidence 1 − β: `m = ⌈16/(αβ)⌉` buckets
    /// ([`improper_point_learner_buckets`]).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] unless `0 < α, β < 1` and `⌈16/(αβ)⌉ ≤ 2^32` (the error
    /// then names the rule that produced the count); as [`ImproperPointLearner::new`].
    pub fn for_accuracy(privacy: Privacy, alpha: f64, beta: f64) -> Result<Self> {
        for (name, value) in [("α", alpha), ("β", beta)] {
            if !(value > 0.0 && value < 1.0) {
                return Err(Error::InvalidParameter {
                    name: if name == "α" { "alpha" } else { "beta" },
                    requirement: "in (0, 1)",
                    value,
                });
            }
        }
        let buckets = improper_point_learner_buckets(alpha, beta);
        if buckets > privpac_classes::MAX_BUCKETS {
            // The count was derived, not given: name the rule, not only the number.
            return Err(Error::InvalidParameter {
                name: "the number of hash buckets ⌈16/(αβ)⌉ (none was given, so it came from α and β)",
                requirement: "at most 2^32, i.e. αβ ≥ 16/2^32 ≈ 3.7e-9 (take larger α or β, or give the buckets: --buckets in the CLI, buckets in Python)",
                value: buckets as f64,
            });
        }
        ImproperPointLearner::new(privacy, buckets)
    }

    /// The number of buckets m.
    pub fn buckets(&self) -> u64 {
        self.buckets
    }

    /// Runs the mechanism with a given hash (the data-independent first step done): a
    /// bucket indicator of `hash`, or all zeros.
    ///
    /// # Errors
    /// As for [`Learner::learn`]; [`Error::InvalidParameter`] if `hash` has a different
    /// number of buckets.
    pub fn learn_with_hash(
        &self,
        class: &dyn ConceptClass,
        sample: &LabeledSample,
        hash: BucketHash,
        rng: &mut dyn Rng,
    ) -> Result<Hypothesis> {
        let scores = self.scores(class, sample, hash)?;
        let choice = self.mechanism.select_levels(&scores.levels, rng)?;
        let candidate = if choice.level < scores.occupied.len() {
            Candidate::Bucket(scores.occupied[choice.level].0)
        } else {
            scores.shared_candidate(choice.offset, self.buckets)
        };
        Ok(match candidate {
            Candidate::Bucket(bucket) => Hypothesis::HashBucket { hash, bucket },
            Candidate::AllZero => Hypothesis::Constant { label: false },
        })
    }

    /// The exact output distribution for a given hash: entry i is `Pr[output = bucket i]`
    /// for `i < m`, entry m is `Pr[output = all zeros]` (for tests and audits; the
    /// mechanism's ideal probabilities, which the sampler realizes within `e^{±2η}`).
    ///
    /// # Errors
    /// As for [`Self::learn_with_hash`]; [`privpac_classes::Error::TooLarge`] above
    /// [`MAX_LISTED_BUCKETS`] buckets.
    pub fn output_distribution(
        &self,
        class: &dyn ConceptClass,
        sample: &LabeledSample,
        hash: BucketHash,
    ) -> Result<Vec<f64>> {
        if self.buckets > MAX_LISTED_BUCKETS {
            return Err(privpac_classes::Error::TooLarge {
                what: "the improper point learner's output distribution",
                needed: u128::from(self.buckets) + 1,
                unit: "candidates",
                limit: u128::from(MAX_LISTED_BUCKETS) + 1,
            }
            .into());
        }
        let scores = self.scores(class, sample, hash)?;
        let levels = self.mechanism.level_probabilities(&scores.levels)?;
        let shared = levels.last().copied().unwrap_or(0.0)
            / scores.levels.last().map_or(1.0, |level| level.count as f64);
        let mut distribution = vec![shared; self.buckets as usize + 1];
        for (&(bucket, _), p) in scores.occupied.iter().zip(&levels) {
            distribution[bucket as usize] = *p;
        }
        Ok(distribution)
    }

    /// Every candidate's mistakes, grouped: one level per bucket some example falls in, and
    /// a last level shared by the empty buckets and the all-zero function (each makes
    /// exactly one mistake per positive example).
    fn scores(
        &self,
        class: &dyn ConceptClass,
        sample: &LabeledSample,
        hash: BucketHash,
    ) -> Result<Scores> {
        if sample.is_empty() {
            return Err(Error::EmptySample);
        }
        if hash.buckets() != self.buckets {
            return Err(Error::InvalidParameter {
                name: "the hash's number of buckets",
                requirement: "the learner's number of buckets",
                value: hash.buckets() as f64,
            });
        }
        check_domain(class)?;
        // Each occupied bucket's mistakes: the indicator of a bucket errs on its negatives
        // and on the positives elsewhere. Keys `bucket·2 + label` (buckets are below 2^32)
        // sorted, then one pass over the runs.
        let mut keys: Vec<u64> = sample
            .iter()
            .map(|(x, label)| (hash.bucket(x) << 1) | u64::from(label))
            .collect();
        keys.sort_unstable();
        let positives_total = keys.iter().filter(|&&key| key & 1 == 1).count() as i64;
        let mut occupied: Vec<(u64, i64)> = Vec::new();
        for key in keys {
            let (bucket, change) = (key >> 1, if key & 1 == 1 { -1 } else { 1 });
            match occupied.last_mut() {
                Some((last, mistakes)) if *last == bucket => *mistakes += change,
                _ => occupied.push((bucket, positives_total + change)),
            }
        }
        let empty = self.buckets - occupied.len() as u64;
        let mut levels: Vec<ScoreLevel> = occupied
            .iter()
            .map(|&(_, mistakes)| ScoreLevel {
                score: -mistakes,
                count: 1,
            })
            .collect();
        levels.push(ScoreLevel {
            score: -positives_total,
            count: empty + 1,
        });
        Ok(Scores { occupied, levels })
    }
}

/// What the mechanism chose.
enum Candidate {
    Bucket(u64),
    AllZero,
}

/// The mechanism's levels: `occupied[i]` is level i's (bucket, mistakes); the last level
/// holds the empty buckets, in increasing order, then the all-zero function.
struct Scores {
    occupied: Vec<(u64, i64)>,
    levels: Vec<ScoreLevel>,
}

impl Scores {
    /// The `offset`-th member of the shared level: the offset-th empty bucket, or the
    /// all-zero function after the last of them.
    fn shared_candidate(&self, offset: u64, buckets: u64) -> Candidate {
        let empty = buckets - self.occupied.len() as u64;
        if offset >= empty {
            return Candidate::AllZero;
        }
        // The empty bucket with `offset` empty buckets before it: skip the occupied ones
        // at or below the running candidate (they are sorted).
        let mut candidate = offset;
        for &(bucket, _) in &self.occupied {
            if bucket <= candidate {
                candidate += 1;
            } else {
                break;
            }
        }
        Candidate::Bucket(candidate)
    }
}

/// The learner is for point functions over domains the hash is universal on.
fn check_domain(class: &dyn ConceptClass) -> Result<()> {
    let size = class.domain().size();
    if size > u128::from(HASH_PRIME) {
        return Err(privpac_classes::Error::TooLarge {
            what: "the improper point learner's domain",
            needed: size,
            unit: "points",
            limit: u128::from(HASH_PRIME),
        }
        .into());
    }
    if !class.name().starts_with("points") {
        return Err(privpac_classes::Error::InvalidClass {
            reason: format!(
                "the improper point learner learns point functions (points:N), not {}",
                class.name()
            ),
        }
        .into());
    }
    Ok(())
}

impl Learner for ImproperPointLearner {
    /// Draws the hash from `rng`, then runs [`Self::learn_with_hash`] (which checks the
    /// class and the sample).
    fn learn(
        &self,
        class: &dyn ConceptClass,
        sample: &LabeledSample,
        rng: &mut dyn Rng,
    ) -> Result<Predictor> {
        let hash = BucketHash::draw(self.buckets, rng)?;
        self.learn_with_hash(class, sample, hash, rng)
            .map(Predictor::from)
    }

    fn guarantee(&self, _examples: usize) -> Guarantee {
        privpac_accounting::Private::privacy(&self.mechanism).into()
    }

    fn name(&self) -> String {
        format!("improper-point (m = {})", self.buckets)
    }
}
