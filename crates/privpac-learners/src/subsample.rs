//! The empirical-learner conversion (Bun–Nissim–Stemmer, Theorem 2.24): run a learner on
//! a random subsample drawn with replacement, and keep privacy through secrecy of the
//! sample (their Lemma 2.25, with the ratio corrected).

use privpac_accounting::{Guarantee, Privacy, secrecy_of_the_sample};
use privpac_classes::{ConceptClass, LabeledSample};
use rand::{Rng, RngExt};

use crate::error::{Error, Result};
use crate::learner::Learner;
use crate::predictor::Predictor;

/// Bun–Nissim–Stemmer's empirical-learner conversion `Ã` ("Simultaneous private learning
/// of multiple concepts", Theorem 2.24 and Lemma 2.25), in the paper's letters: the inner
/// learner `A` takes **n** examples; `Ã` takes a database of exactly **m ≥ 2n** examples,
/// draws n of its rows uniformly **with replacement**, and runs `A` on them.
///
/// # Privacy
/// If `A` is (ε, δ)-DP with ε ≤ 1, `Ã` is `(6εn/m, 4·e^{6εn/m}·(n/m)·δ)`-DP (secrecy of the
/// sample, Lemma 2.25 with its ratio corrected: the printed `6εm/n` is inverted; see
/// [`privpac_accounting::secrecy_of_the_sample`], which computes it rounded up). The guarantee
/// is fixed at construction, so databases of any size other than m are rejected.
///
/// # Accuracy (Theorem 2.24)
/// Drawing n rows with replacement from the database S is drawing n i.i.d. examples from
/// the uniform distribution on the rows of S. So if `A` is an (α, β)-accurate (agnostic)
/// PAC learner with sample complexity n, `Ã` is an (α, β)-accurate (agnostic) *empirical*
/// learner on S: its error on S exceeds `min_{c∈C} error_S(c) + α` with probability at
/// most β. With m = 9n ([`Self::theorem_2_24`]) it is moreover (ε, δ)-DP: the corrected
/// lemma gives `ε̃ = 2ε/3 ≤ ε` and `δ̃ = (4/9)·e^{2ε/3}·δ ≤ 0.87δ`. If `A` is proper, so
/// is `Ã`.
///
/// # Errors
/// Construction: the inner learner must be differentially private with ε ≤ 1 and
/// `m ≥ 2n ≥ 2`. Learning: [`Error::InvalidParameter`] for a database whose size is not m.
///
/// # Example
/// ```
/// use privpac_accounting::Privacy;
/// use privpac_learners::{GenericLearner, Learner, Subsampled};
/// let inner = GenericLearner::new(Privacy::pure(1.0)?)?;
/// // A uses n = 50 examples; Ã takes m = 9n = 450 and is (2/3)-DP.
/// let empirical = Subsampled::theorem_2_24(Box::new(inner), 50)?;
/// assert_eq!((empirical.n(), empirical.m()), (50, 450));
/// let epsilon = empirical.guarantee(450).privacy().map(|p| p.epsilon());
/// assert!(epsilon.is_some_and(|e| e >= 2.0 / 3.0 && e < 2.0 / 3.0 + 1e-12));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Subsampled {
    inner: Box<dyn Learner>,
    /// Rows handed to the inner learner A (the paper's n).
    n: usize,
    /// Rows of the database Ã takes (the paper's m ≥ 2n).
    m: usize,
    privacy: Privacy,
}

impl Subsampled {
    /// Wraps `inner` (which uses `n` examples) into the learner on databases of `m ≥ 2n`
    /// rows.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] if `inner` is not differentially private at n examples;
    /// the errors of [`secrecy_of_the_sample`] (ε > 1, n = 0, m < 2n).
    pub fn new(inner: Box<dyn Learner>, n: usize, m: usize) -> Result<Self> {
        let inner_privacy = inner
            .guarantee(n)
            .privacy()
            .ok_or(Error::InvalidParameter {
                name: "inner learner",
                requirement: "differentially private",
                value: f64::NAN,
            })?;
        let privacy = secrecy_of_the_sample(inner_privacy, n as u64, m as u64)?;
        Ok(Subsampled {
            inner,
            n,
            m,
            privacy,
        })
    }

    /// Theorem 2.24's conversion: databases of `m = 9n` rows, so that an (ε, δ)-DP inner
    /// learner with ε ≤ 1 gives an `Ã` that is still (ε, δ)-DP (in fact `(2ε/3, 0.87δ)`).
    ///
    /// # Errors
    /// As for [`Self::new`]; [`Error::InvalidParameter`] if 9n overflows.
    pub fn theorem_2_24(inner: Box<dyn Learner>, n: usize) -> Result<Self> {
        let m = n.checked_mul(9).ok_or(Error::InvalidParameter {
            name: "inner sample size n",
            requirement: "9n representable",
            value: n as f64,
        })?;
        Subsampled::new(inner, n, m)
    }

    /// The number n of rows handed to the inner learner.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The database size m this learner accepts.
    pub fn m(&self) -> usize {
        self.m
    }
}

impl Learner for Subsampled {
    fn learn(
        &self,
        class: &dyn ConceptClass,
        sample: &LabeledSample,
        rng: &mut dyn Rng,
    ) -> Result<Predictor> {
        if sample.len() != self.m {
            return Err(Error::InvalidParameter {
                name: "sample size",
                requirement: "equal to the database size m the guarantee was computed for",
                value: sample.len() as f64,
            });
        }
        let pairs: Vec<(u64, bool)> = (0..self.n)
            .map(|_| {
                let i = rng.random_range(0..sample.len());
                (sample.points()[i], sample.labels()[i])
            })
            .collect();
        let subsample = LabeledSample::from_pairs(class.domain(), &pairs)?;
        self.inner.learn(class, &subsample, rng)
    }

    fn guarantee(&self, _examples: usize) -> Guarantee {
        self.privacy.into()
    }

    fn name(&self) -> String {
        format!("subsampled({})", self.inner.name())
    }
}

#[cfg(test)]
mod tests {
    use privpac_classes::{Hypothesis, Thresholds};
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::GenericLearner;

    /// A stand-in inner learner with a fixed (ε, δ) claim that reports the size of the
    /// sample it was handed as its "concept".
    #[derive(Debug)]
    struct Recorder(Privacy);

    impl Learner for Recorder {
        fn learn(
            &self,
            _class: &dyn ConceptClass,
            sample: &LabeledSample,
            _rng: &mut dyn Rng,
        ) -> Result<Predictor> {
            Ok(Hypothesis::Concept {
                id: sample.len() as u64,
            }
            .into())
        }

        fn guarantee(&self, _examples: usize) -> Guarantee {
            self.0.into()
        }

        fn name(&self) -> String {
            "recorder".into()
        }
    }

    #[test]
    fn theorem_2_24_keeps_epsilon_and_delta() {
        let inner = Recorder(Privacy::new(1.0, 1e-6).unwrap());
        let learner = Subsampled::theorem_2_24(Box::new(inner), 40).unwrap();
        assert_eq!((learner.n(), learner.m()), (40, 360));
        let privacy = learner.guarantee(360).privacy().unwrap();
        // ε̃ = 6εn/m = 2/3 and δ̃ = 4·e^{2/3}·(1/9)·10⁻⁶ ≈ 0.8657·10⁻⁶, rounded up.
        assert!(privacy.epsilon() >= 2.0 / 3.0 && privacy.epsilon() < 2.0 / 3.0 + 1e-12);
        let delta = 4.0 / 9.0 * (2.0f64 / 3.0).exp() * 1e-6;
        assert!(privacy.delta() >= delta && privacy.delta() < delta * (1.0 + 1e-12));
        assert!(privacy.epsilon() <= 1.0 && privacy.delta() <= 1e-6);
        // The inner learner sees n rows of the m-row database.
        let class = Thresholds::new(8).unwrap();
        let pairs: Vec<(u64, bool)> = (0..360).map(|i| (i % 8, i % 8 <= 3)).collect();
        let database = LabeledSample::from_pairs(class.domain(), &pairs).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let seen = learner.learn(&class, &database, &mut rng).unwrap();
        assert_eq!(seen, Hypothesis::Concept { id: 40 }.into());
        // Any other database size is refused.
        let short = LabeledSample::from_pairs(class.domain(), &pairs[..359]).unwrap();
        assert!(matches!(
            learner.learn(&class, &short, &mut rng),
            Err(Error::InvalidParameter { .. })
        ));
    }

    #[test]
    fn constructors_reject_what_the_lemma_excludes() {
        let private = || Box::new(Recorder(Privacy::pure(1.0).unwrap()));
        assert!(Subsampled::new(private(), 10, 19).is_err()); // m < 2n
        assert!(Subsampled::new(private(), 10, 20).is_ok());
        assert!(Subsampled::new(private(), 0, 20).is_err());
        assert!(Subsampled::theorem_2_24(private(), usize::MAX / 2).is_err()); // 9n overflows
        let loose = Box::new(Recorder(Privacy::pure(1.5).unwrap())); // ε > 1
        assert!(Subsampled::theorem_2_24(loose, 10).is_err());
    }

    /// The exact output distribution of `Ã` with the generic learner inside: the average
    /// of the inner distribution over all `m^n` ordered draws of n row indices.
    fn subsampled_distribution(
        inner: &GenericLearner,
        class: &Thresholds,
        rows: &[(u64, bool)],
        n: usize,
    ) -> Vec<f64> {
        let m = rows.len();
        let draws = m.pow(n as u32);
        let mut total = vec![0.0; class.len() as usize];
        for mut code in 0..draws {
            let mut pairs = Vec::with_capacity(n);
            for _ in 0..n {
                pairs.push(rows[code % m]);
                code /= m;
            }
            let sample = LabeledSample::from_pairs(class.domain(), &pairs).unwrap();
            let p = inner.concept_distribution(class, &sample).unwrap();
            for (t, q) in total.iter_mut().zip(p) {
                *t += q / draws as f64;
            }
        }
        total
    }

    /// The largest privacy loss of `Ã` over seeded random databases of m rows on a
    /// 3-point domain and every neighbour (one row replaced by any other example).
    fn worst_loss(inner_epsilon: f64, n: usize, m: usize, databases: usize) -> f64 {
        let class = Thresholds::new(3).unwrap();
        let size = class.domain().size() as u64;
        let examples: Vec<(u64, bool)> = (0..size).flat_map(|x| [(x, false), (x, true)]).collect();
        let inner = GenericLearner::new(Privacy::pure(inner_epsilon).unwrap()).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(21);
        let mut worst: f64 = 0.0;
        for _ in 0..databases {
            let rows: Vec<(u64, bool)> = (0..m)
                .map(|_| examples[rng.random_range(0..examples.len())])
                .collect();
            let p = subsampled_distribution(&inner, &class, &rows, n);
            for i in 0..m {
                for &replacement in &examples {
                    if replacement == rows[i] {
                        continue;
                    }
                    let mut neighbour = rows.clone();
                    neighbour[i] = replacement;
                    let q = subsampled_distribution(&inner, &class, &neighbour, n);
                    worst = worst.max(privpac_audit::max_divergence(&p, &q).unwrap());
                }
            }
        }
        worst
    }

    /// Exact audit of the reported guarantee at Theorem 2.24's m = 9n (n = 1 and 2), with
    /// a negative control: the same audit against the guarantee the wrapper would report
    /// for an inner learner ten times more private must fail.
    #[test]
    fn exact_loss_stays_within_the_reported_guarantee() {
        for (n, databases) in [(1usize, 40usize), (2, 6)] {
            let inner = GenericLearner::new(Privacy::pure(1.0).unwrap()).unwrap();
            let claimed = Subsampled::theorem_2_24(Box::new(inner), n)
                .unwrap()
                .guarantee(9 * n)
                .privacy()
                .unwrap()
                .epsilon();
            let loss = worst_loss(1.0, n, 9 * n, databases);
            assert!(
                loss <= claimed + 1e-9,
                "n = {n}: loss {loss} > claim {claimed}"
            );
            assert!(loss > 0.0);
            // Negative control: the claim for an inner ε of 0.1 (6·0.1·n/m = 0.067).
            let too_small =
                secrecy_of_the_sample(Privacy::pure(0.1).unwrap(), n as u64, 9 * n as u64)
                    .unwrap()
                    .epsilon();
            assert!(
                loss > too_small,
                "n = {n}: loss {loss} ≤ mis-stated {too_small}"
            );
        }
    }
}
