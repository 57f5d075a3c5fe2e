//! Private multiplicative weights (Hardt–Rothblum 2010) in its offline form, over an
//! explicit histogram of X: the queries are asked in passes against the sparse vector
//! technique, and only the (noisily) badly answered ones are measured and trigger a
//! multiplicative-weights update. The histogram and query-matrix helpers are MWEM's
//! ([`crate::mwem`]).

use privpac_accounting::{Privacy, Private};
use privpac_classes::{ConceptClass, Point, ThresholdStructure};
use privpac_mechanisms::{DiscreteLaplace, SparseVector};
use rand::Rng;

use crate::Sanitizer;
use crate::error::{Error, Result};
use crate::histogram::{GroupTables, QueryMatrix, data_histogram, histogram_len};
use crate::mwem::{all_concepts, data_answers, floor_abs_gap, xor_queries};
use crate::pieces::PiecewiseDistribution;
use crate::synthetic::SyntheticDatabase;

/// After an update, private multiplicative weights answers this many queries one at a time
/// before recomputing all answers at once.
const LAZY_SINGLE_ANSWERS: usize = 32;

/// Most sparse-vector questions per pass that [`PrivateMultiplicativeWeights`] accepts on
/// the XOR class of a threshold class ([`Sanitizer::sanitize_threshold_xor`]).
pub const PMW_PASS_LIMIT: u128 = 1 << 26;

/// Largest update budget × domain size private multiplicative weights accepts (the work of
/// its reweightings).
pub const PMW_WORK_LIMIT: u128 = 1 << 36;

/// Private multiplicative weights (Hardt–Rothblum 2010; BNS16 Theorem 2.19) in its offline
/// form: the queries are asked in passes, in order, against the sparse vector technique;
/// only queries whose error on the current histogram is (noisily) large are measured and
/// trigger an update.
///
/// With target accuracy α, data size n and current histogram `A` (uniform at first):
/// - the sparse vector asks `e_q = ⌊|a_q − n·q(A)|⌋` (counts; sensitivity 1, since `A`
///   depends on the data only through released measurements) against the threshold
///   `θ = ⌈3αn/4⌉`, with at most `c = ⌊16·ln|X|/α²⌋ + 1` "above" answers;
/// - on "above", it measures `m = a_q + Lap_Z(1/ε_m)` and updates
///   `A(x) ∝ A(x)·exp(σ·η·q(x))` with `η = α/4` and `σ = sign(m − n·q(A))`;
/// - passes repeat until a whole pass gives only "below" answers (or, outside the accuracy
///   event, the c "above" answers are spent). The output is the final `A`.
///
/// # Privacy
/// (ε, δ)-differentially private for data sets that differ in one replaced point, with
/// δ = 0 allowed. Accounting: the sparse vector runs with `(ε/2, δ/2)` (its c rounds of
/// AboveThreshold composed as documented on [`SparseVector`]); the at most c measurements
/// are each `ε_m`-DP with `ε_m = ε/(2c)` when δ = 0 (basic composition to ε/2) and, when
/// δ > 0, the largest `ε_m` for which basic, advanced or optimal composition of c of them
/// gives `(ε/2, δ/2)` (`SparseVector::round_budget`, which names the rule). Basic
/// composition of the two parts gives (ε, δ). This is Dwork–Roth's NumericSparse
/// construction (sparse vector plus a fresh Laplace answer for each "above" query, §3.6)
/// with a ½–½ split; its proof composes the interleaved parts adaptively.
///
/// # Sample complexity
/// Proof sketch with our constants. With potential `KL(D̄‖A) ≤ ln|X|`, an update with the
/// correct sign on a query with error `|d| > α/2` lowers it by at least
/// `η|d| − η² ≥ α²/16`, so fewer than c updates can happen. Let `k = (c + 1)·|Q|`
/// (queries asked in at most c + 1 passes), `ε₀` the sparse vector's per-round budget and
/// `α_svt = 8(ln k + ln(12c/β))/ε₀` (Dwork–Roth Theorem 3.24 with a factor 2 for
/// discrete-Laplace tails). If `α_svt + 1 ≤ αn/4` and `(1/ε_m)·ln(6c/β) ≤ αn/4`, then with
/// probability at least `1 − β`: every "above" has true error above α/2 and is measured
/// with the correct sign, so the budget is never exhausted, and the final pass bounds every
/// query's error by `α + 1/n` ([`Self::min_sample_size`] returns the smallest such n). With
/// `c = O(log|X|/α²)` and `1/ε₀ = O(c/ε)` for δ = 0 (basic composition) or
/// `O(√(c·log(1/δ))/ε)` for δ > 0 (advanced composition; the optimal composition used when
/// it is larger only lowers `1/ε₀`), this is
/// `n = O(log|X|·log(|Q|·log|X|/(αβ))/(α³ε))` for δ = 0 and
/// `n = O(√(log|X|·log(1/δ))·log(|Q|·log|X|/(αβ))/(α²ε))` for δ > 0.
///
/// Against the paper: BNS16 Theorem 2.19 (citing Hardt–Rothblum 2010) states, for δ > 0,
/// an (α, β)-accurate (ε, δ)-DP sanitizer for C with
/// `n = O((log|C| + log(1/β))·√(log|X|·log(1/δ))/(α²ε))`. With `Q = C` our δ > 0 rate is
/// the same except for an additive `O(log(log|X|/α))` inside the first factor, the price of
/// the offline form (up to c + 1 passes over Q, so `k = (c + 1)·|Q|` sparse-vector
/// questions in the union bound). The theorem covers δ > 0 only; for δ = 0 the comparable
/// statement is BNS16 Theorem 2.18 (Blum–Ligett–Roth, `n = O(VC(C)·log|X|·log(1/α)/(α³ε) +
/// log(1/β)/(αε))`), which our δ = 0 rate matches in its `α⁻³·log|X|` shape with
/// `log(|Q|·log|X|/(αβ))` in place of `VC(C)·log(1/α)`. Both theorems also give an output
/// of `m = O(VC(C)·log(1/α)/α²)` points; this algorithm outputs a weighted histogram over
/// all of X instead. A caller that needs a small database (for example the
/// sanitizer-to-learner transformation of BNS16 Theorem 2.23, whose cover of C is computed
/// on the sanitization) draws m points i.i.d. from it, which is post-processing.
///
/// # Running time
/// Query matrix `|Q|·|X|` evaluations (`|C|·|X|` for the XOR class,
/// [`Sanitizer::sanitize_xor`]); per update (at most c) an O(|X|) reweighting, then
/// answers one query at a time (O(|X|)) for the next 32 questions, then the full product's
/// subset-sum tables (O(32·|X|)), from which every later question of the stretch reads its
/// answer in O(|X|/8) (the same values as the full product, bit for bit); O(1)
/// sparse-vector work per question, at most `(c + 1)·|Q|` questions.
///
/// # Errors
/// Construction: [`Error::InvalidParameter`] unless `0 < α ≤ 1`. Sanitizing:
/// [`Error::EmptyData`], [`Error::Class`], [`Error::NoQueries`], [`Error::TooLarge`] (for
/// histograms and query matrices beyond the limits, or `c·|X|` above [`PMW_WORK_LIMIT`]),
/// [`Error::Mechanism`] (noise scales out of range).
///
/// # Example
/// ```
/// use privpac_classes::Thresholds;
/// use privpac_accounting::Privacy;
/// use rand::SeedableRng;
/// use privpac_sanitizers::{PrivateMultiplicativeWeights, max_query_error};
///
/// let class = Thresholds::new(64)?;
/// let data: Vec<u64> = (0..20_000u64).map(|i| (i * 13) % 40).collect();
/// let pmw = PrivateMultiplicativeWeights::new(Privacy::new(50.0, 1e-6)?, 0.2)?;
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2);
/// let queries: Vec<u64> = (0..64).collect();
/// let run = pmw.run(&class, &queries, &data, &mut rng)?;
/// let (error, _) = max_query_error(&class, &data, &run.synthetic)?;
/// assert!(error <= 0.2 + 1.0 / 20_000.0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # References
/// M. Hardt, G. Rothblum, "A multiplicative weights mechanism for privacy-preserving data
/// analysis", FOCS 2010. M. Bun, K. Nissim, U. Stemmer, "Simultaneous private learning of
/// multiple concepts", ITCS 2016 (BNS16), Theorems 2.18 and 2.19. C. Dwork, A. Roth, *The Algorithmic Foundations of Differential
/// Privacy*, §3.6 and §4.2.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PrivateMultiplicativeWeights {
    privacy: Privacy,
    alpha: f64,
}

/// What one private-multiplicative-weights run did, besides its output.
#[derive(Debug, Clone, PartialEq)]
pub struct PmwRun {
    /// The synthetic database (the final histogram).
    pub synthetic: SyntheticDatabase,
    /// The query ids that triggered an update, in order.
    pub updates: Vec<u64>,
    /// The number of passes over the queries.
    pub passes: usize,
    /// Whether the sparse vector's budget of "above" answers ran out (outside the accuracy
    /// event only).
    pub exhausted: bool,
}

impl PrivateMultiplicativeWeights {
    /// Builds the sanitizer for a target accuracy α.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] unless `0 < α ≤ 1`.
    pub fn new(privacy: Privacy, alpha: f64) -> Result<Self> {
        if !(alpha > 0.0 && alpha <= 1.0) {
            return Err(Error::InvalidParameter {
                name: "alpha",
                requirement: "in (0, 1]",
                value: alpha,
            });
        }
        Ok(PrivateMultiplicativeWeights { privacy, alpha })
    }

    /// The target accuracy α.
    pub fn alpha(&self) -> f64 {
        self.alpha
    }

    /// The learning rate `η = α/4`.
    pub fn learning_rate(&self) -> f64 {
        self.alpha / 4.0
    }

    /// The update budget `c = ⌊16·ln|X|/α²⌋ + 1` for a domain of `domain_size` points.
    pub fn max_updates(&self, domain_size: u128) -> u64 {
        let bound = 16.0 * (domain_size.max(1) as f64).ln() / (self.alpha * self.alpha);
        (bound.floor() as u64).saturating_add(1)
    }

    /// The sparse vector's guarantee `(ε/2, δ/2)`.
    pub(crate) fn svt_privacy(&self) -> Result<Privacy> {
        Ok(Privacy::new(
            self.privacy.epsilon() / 2.0,
            self.privacy.delta() / 2.0,
        )?)
    }

    /// The per-measurement budget `ε_m` for c measurements (see the type documentation).
    pub fn measurement_epsilon(&self, max_updates: u64) -> Result<f64> {
        Ok(SparseVector::round_epsilon(
            self.svt_privacy()?,
            max_updates.max(1),
        ))
    }

    /// The smallest n for which the type documentation's accuracy statement (error at most
    /// `α + 1/n` for every query, with probability at least `1 − β`) applies.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] unless `0 < β < 1` and `queries ≥ 1`.
    pub fn min_sample_size(&self, domain_size: u128, queries: usize, beta: f64) -> Result<f64> {
        if !(beta > 0.0 && beta < 1.0) {
            return Err(Error::InvalidParameter {
                name: "beta",
                requirement: "in (0, 1)",
                value: beta,
            });
        }
        if queries == 0 {
            return Err(Error::NoQueries);
        }
        let c = self.max_updates(domain_size) as f64;
        let k = (c + 1.0) * queries as f64;
        let epsilon_round = SparseVector::round_epsilon(self.svt_privacy()?, c as u64);
        let svt = 8.0 * (k.ln() + (12.0 * c / beta).ln()) / epsilon_round;
        let measurement = (6.0 * c / beta).ln() / self.measurement_epsilon(c as u64)?;
        Ok(4.0 * (svt + 1.0).max(measurement) / self.alpha)
    }

    /// Runs the algorithm on the given queries (concept ids of `class`).
    ///
    /// # Errors
    /// See the type documentation.
    pub fn run<C: ConceptClass + ?Sized, R: Rng + ?Sized>(
        &self,
        class: &C,
        queries: &[u64],
        data: &[Point],
        rng: &mut R,
    ) -> Result<PmwRun> {
        if data.is_empty() {
            return Err(Error::EmptyData);
        }
        let domain = class.domain();
        histogram_len(domain, "private multiplicative weights")?;
        let matrix = QueryMatrix::build(class, queries, "private multiplicative weights")?;
        self.run_on(domain, &matrix, queries, data, rng)
    }

    /// [`Self::run`] on a query matrix already built (`queries` are its rows' ids).
    fn run_on<R: Rng + ?Sized>(
        &self,
        domain: &privpac_classes::Domain,
        matrix: &QueryMatrix,
        queries: &[u64],
        data: &[Point],
        rng: &mut R,
    ) -> Result<PmwRun> {
        let len = histogram_len(domain, "private multiplicative weights")?;
        let counts = data_histogram(domain, len, data)?;
        let truth = data_answers(matrix, &counts);
        let n = data.len() as f64;
        let c = self.max_updates(domain.size());
        let work = u128::from(c).saturating_mul(len as u128);
        if work > PMW_WORK_LIMIT {
            return Err(Error::TooLarge {
                what: "private multiplicative weights",
                needed: work,
                unit: "reweighting work (update budget c × domain points); raise alpha",
                limit: PMW_WORK_LIMIT,
            });
        }
        let measurement = DiscreteLaplace::for_epsilon(self.measurement_epsilon(c)?, 1)?;
        let threshold = (0.75 * self.alpha * n).ceil() as i64;
        let mut svt = SparseVector::new(self.svt_privacy()?, 1, threshold, c, rng)?;
        let eta = self.learning_rate();
        let mut weights = vec![1.0 / len as f64; len];
        // Answers on the current histogram: all at once after a quiet stretch, one query at a
        // time (O(|X|)) right after updates, when the next update may come at any query.
        // The full product's values are read from its subset-sum tables, query by query, so
        // a pass that updates often does not pay |Q| additions per update.
        let mut answers: Option<GroupTables> = Some(matrix.tables(&weights));
        let mut single_answers = 0usize;
        let mut updates = Vec::new();
        let mut passes = 0;
        let mut exhausted = false;
        'passes: loop {
            passes += 1;
            let mut any_above = false;
            for q in 0..matrix.n_queries() {
                if svt.remaining() == 0 {
                    exhausted = true;
                    break 'passes;
                }
                if answers.is_none() && single_answers >= LAZY_SINGLE_ANSWERS {
                    answers = Some(matrix.tables(&weights));
                }
                let current = match &answers {
                    Some(tables) => tables.answer(matrix, q),
                    None => {
                        single_answers += 1;
                        matrix.answer_one(&weights, q)
                    }
                };
                let error = floor_abs_gap(n * current, truth[q]);
                if svt.query(error, rng)? {
                    any_above = true;
                    let noisy = truth[q].saturating_add(measurement.sample(rng));
                    let (inside, outside) = if noisy as f64 > n * current {
                        (1.0, (-eta).exp())
                    } else {
                        ((-eta).exp(), 1.0)
                    };
                    matrix.reweight(&mut weights, q, inside, outside);
                    answers = None;
                    single_answers = 0;
                    updates.push(queries[q]);
                }
            }
            if !any_above {
                break;
            }
        }
        Ok(PmwRun {
            synthetic: SyntheticDatabase::from_dense(domain, weights)?,
            updates,
            passes,
            exhausted,
        })
    }

    /// Runs the algorithm on the given queries and returns the synthetic database.
    ///
    /// # Errors
    /// See the type documentation.
    pub fn sanitize_queries<C: ConceptClass + ?Sized, R: Rng + ?Sized>(
        &self,
        class: &C,
        queries: &[u64],
        data: &[Point],
        rng: &mut R,
    ) -> Result<SyntheticDatabase> {
        Ok(self.run(class, queries, data, rng)?.synthetic)
    }
}

impl Private for PrivateMultiplicativeWeights {
    fn privacy(&self) -> Privacy {
        self.privacy
    }
}

impl Sanitizer for PrivateMultiplicativeWeights {
    /// Runs the algorithm with every concept of `class` as a query.
    fn sanitize(
        &self,
        class: &dyn ConceptClass,
        data: &[Point],
        rng: &mut dyn Rng,
    ) -> Result<SyntheticDatabase> {
        let queries = all_concepts(class, "private multiplicative weights")?;
        self.sanitize_queries(class, &queries, data, rng)
    }

    /// [`Self::sanitize`] on the XOR class, its query matrix built from `inner`'s (the
    /// same matrix, so the same output for the same generator).
    fn sanitize_xor(
        &self,
        inner: &dyn ConceptClass,
        data: &[Point],
        rng: &mut dyn Rng,
    ) -> Result<SyntheticDatabase> {
        let (xor, queries) = xor_queries(inner, data, "private multiplicative weights")?;
        let matrix = QueryMatrix::build_xor(inner, "private multiplicative weights")?;
        Ok(self
            .run_on(xor.domain(), &matrix, &queries, data, rng)?
            .synthetic)
    }

    /// The refusal when a pass over the XOR class would ask more than
    /// [`PMW_PASS_LIMIT`] questions one by one: the offline algorithm compares every query
    /// of C⊕ (`N²` pairs, `4N²` for `both(thresholds)`) with the sparse vector's noisy
    /// threshold in every pass, and without exact counts of the answers along a row
    /// ([`privpac_mechanisms::SparseVector::first_above`]'s input) each question needs its
    /// own noise draw. `None` otherwise (the class path runs). This is a cost, not a
    /// theorem: the points' XOR class runs above it by structure
    /// ([`Self::run_point_xor`]); the module `pmw_points` says what the thresholds' would
    /// need.
    fn sanitize_threshold_xor(
        &self,
        class: ThresholdStructure,
        _data: &[Point],
        _rng: &mut dyn Rng,
    ) -> Option<Result<PiecewiseDistribution>> {
        let n = u128::from(class.domain_size()) * u128::from(class.orientations());
        let questions = n * n;
        (questions > PMW_PASS_LIMIT).then_some(Err(Error::TooLarge {
            what: "private multiplicative weights (offline) on the XOR class of thresholds",
            needed: questions,
            unit: "sparse-vector questions per pass, asked one by one: the answers change \
                   along every row with the interval's mass, and counting them per answer \
                   value exactly (what lets the points' XOR class skip runs of questions) is \
                   not implemented for intervals",
            limit: PMW_PASS_LIMIT,
        }))
    }

    /// `None` where the dense query matrix of `POINT_[N] ⊕ POINT_[N]` fits (N³ ≤
    /// [`crate::QUERY_MATRIX_LIMIT`] bits), so that the class path runs there and draws the
    /// same values for a seed as before; above it the structured run
    /// ([`Self::run_point_xor`]: the same questions in the same order, each chunk's first
    /// "above" sampled exactly without a noise draw per question).
    fn sanitize_point_xor(
        &self,
        size: u64,
        data: &[Point],
        rng: &mut dyn Rng,
    ) -> Option<Result<PiecewiseDistribution>> {
        if crate::histogram::point_xor_matrix_fits(size) {
            return None;
        }
        Some(self.run_point_xor(size, data, rng).map(|run| run.synthetic))
    }

    fn name(&self) -> String {
        format!("pmw(alpha={})", self.alpha)
    }

    /// The dense path ([`Self::sanitize_xor`]) where the query matrix of
    /// `INTERVAL ⊕ INTERVAL` fits, the refusal with its reason above it.
    fn sanitize_interval_xor(
        &self,
        size: u64,
        _data: &[Point],
        _rng: &mut dyn Rng,
    ) -> Option<Result<crate::IntervalXorSynthetic>> {
        crate::xor_intervals::dense_only_refusal("private multiplicative weights", size).map(Err)
    }
}
