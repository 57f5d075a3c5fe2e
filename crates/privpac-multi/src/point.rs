//! `PointLearner` (Bun–Nissim–Stemmer 2016, Algorithm 5, Theorem 3.13): sanitize for
//! `POINT_X`, keep the heavy points, and choose all their label vectors at once with
//! `A_dist` over an implicit candidate set.

use std::collections::HashMap;

use privpac_accounting::{Guarantee, Privacy};
use privpac_classes::{ConceptClass, Hypothesis, Point};
use privpac_learners::Predictor;
use privpac_mechanisms::{StableSelection, StableSelectionOutcome};
use privpac_sanitizers::{PointSanitizer, Sanitizer};
use rand::Rng;

use crate::error::{Error, Result};
use crate::gf2::transpose64;
use crate::learner::MultiLearner;
use crate::sample::{MultiLabeledSample, check_domains};

/// What [`PointLearner::learn_outcome`] produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PointOutcome {
    /// The heavy set G (sorted): points with synthetic frequency at least α/15.
    pub heavy: Vec<Point>,
    /// The label vectors `v_x` for `x ∈ G` (k bits packed 64 per word, bit `j mod 64` of
    /// word `j / 64` is label j), in the order of `heavy`; `None` if `A_dist` answered ⊥.
    pub vectors: Option<Vec<Vec<u64>>>,
}

/// The best candidate of step 4 and the scores `A_dist` compares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeavyLabelScores {
    /// `v*_x` for each heavy point: its most frequent label vector in S (ties to the
    /// lexicographically smallest packed words; the zero vector if x does not occur).
    pub best: Vec<Vec<u64>>,
    /// `Q(S, V*) = min_x top1(x)`.
    pub best_score: i64,
    /// `max_{V ≠ V*} Q(S, V) = max_x min(top2(x), min_{x' ≠ x} top1(x'))`.
    pub runner_up: i64,
}

/// The private k-learner for point functions (Algorithm 5).
///
/// 1. Sanitize the points of S for `POINT_X` at (ε/2, δ/2) with privpac's
///    `privpac_sanitizers::PointSanitizer` (Proposition 2.20's thresholded histogram) built for
///    accuracy α/30 (a synthetic database of `m = ⌈60/α⌉` points).
/// 2. `G = {x : #_{D̂}(x)/m ≥ α/15}`, so `|G| ≤ 15/α`.
/// 3. `A_dist` at (ε/2, δ/2) chooses `V = (v_x)_{x ∈ G} ∈ ({0,1}^k)^G` maximizing
///    `Q(S, V) = min_{x ∈ G} q(S, x, v_x)`, with `q(S, x, v)` the number of rows `(x, v)`
///    (the paper's steps 3–4).
/// 4. `h_j` is the point function of the smallest `x ∈ G` with `v_x[j] = 1` (concept
///    `index_of(x)` of the class), or the constant 0 if there is none. If `A_dist` answers
///    ⊥ (or G is empty) every `h_j` is the constant 0 (the paper's steps 5–6).
///
/// **The implicit candidate set.** The 2^{k|G|} candidates are never listed. The best set
/// V* takes each heavy point's most frequent label vector, so `Q(V*) = min_x top1(x)`.
/// Any `V ≠ V*` differs from V* at some `x₀`, where `q(S, x₀, v_{x₀}) ≤ top2(x₀)` (the
/// largest count of a vector other than `v*_{x₀}`), so `Q(V) ≤ min(top2(x₀),
/// min_{x ≠ x₀} top1(x))`; swapping only `v*_{x₀}` for its runner-up vector attains it.
/// Hence the second-best score is `max_{x₀} min(top2(x₀), min_{x ≠ x₀} top1(x))` and
/// `A_dist` is run on exactly the two numbers it would compute from the full list
/// ([`heavy_label_scores`]; a test checks the closed form against enumeration).
///
/// # Privacy
/// (ε, δ)-DP: basic composition (Theorem 2.16) of the (ε/2, δ/2) sanitizer and `A_dist` at
/// (ε/2, δ/2); G is post-processing of the sanitizer, so `A_dist` runs on a quality chosen
/// independently of the rest of S. **Sensitivity of Q is 1**: replacing one row `(x, v)` by
/// `(x', v')` lowers `q(S, x, v)` by one and raises `q(S, x', v')` by one and leaves every
/// other count alone, so each term of the minimum, and hence `Q(S, V)` for every V, moves
/// by at most 1. `A_dist` uses the corrected calibration (noise `Lap_Z(4/ε)`, threshold
/// `2 + ⌈(4/ε)·ln(2/δ)⌉ + 1` at (ε/2, δ/2); see `privpac_mechanisms::StableSelection`). The
/// `A_dist` step is checked exactly on all neighbouring samples of tiny instances, with
/// the paper's calibration as a negative control.
///
/// # Sample complexity
/// Theorem 3.13 states `O((1/(αε))·log(1/(αβδ)))`; [`crate::bounds::point_learner_sample_size`]
/// gives the explicit n our components need (the sanitizer's union bound over present
/// points brings a `ln n` where the statement has `ln(1/α)`).
///
/// # Running time
/// O(n log n) for the sanitizer, O(n·k/64) word operations plus 64 × 64 transposes to read
/// the label vectors of the rows at heavy points, and O(n) hashing of those vectors:
/// independent of |X|, linear in k.
///
/// # Errors
/// Construction: [`Error::DeltaRequired`] for δ = 0, [`Error::InvalidParameter`] unless
/// `30·2^-25 ≤ α ≤ 1`, [`Error::Sanitizer`] / [`Error::Mechanism`] for unrepresentable
/// noise. Learning: [`Error::UnsupportedClass`] unless the class is `POINT_X`,
/// [`Error::DomainMismatch`], [`Error::EmptySample`].
///
/// # Example
/// ```
/// use privpac_classes::{Domain, Hypothesis, Points};
/// use privpac_accounting::Privacy;
/// use privpac_multi::{MultiLabeledSample, MultiLearner, PointLearner};
/// use rand::SeedableRng;
///
/// let class = Points::new(Domain::ordered(1 << 40)?);
/// let heavy = [17, 1 << 39, 4242];
/// let points: Vec<u64> = (0..20_000).map(|i| heavy[i % 3]).collect();
/// let targets = [17, 4242, 99]; // c_3 = 1 only at 99, which never occurs
/// let sample = MultiLabeledSample::label_with(&class, points, &targets)?;
/// let learner = PointLearner::new(Privacy::new(1.0, 1e-6)?, 0.1)?;
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
/// let hypotheses = learner.learn(&class, &sample, &mut rng)?;
/// assert_eq!(hypotheses[0], Hypothesis::Concept { id: 17 }.into());
/// assert_eq!(hypotheses[1], Hypothesis::Concept { id: 4242 }.into());
/// assert_eq!(hypotheses[2], Hypothesis::Constant { label: false }.into());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # References
/// M. Bun, K. Nissim, U. Stemmer, "Simultaneous private learning of multiple concepts",
/// ITCS 2016 / JMLR 2019, Algorithms 3 and 5, Proposition 2.20, Theorem 3.13.
#[derive(Debug, Clone, PartialEq)]
pub struct PointLearner {
    privacy: Privacy,
    alpha: f64,
    sanitizer: PointSanitizer,
    selection: StableSelection,
}

impl PointLearner {
    /// The learner at (ε, δ), δ > 0, for accuracy α.
    ///
    /// # Errors
    /// See the type documentation.
    pub fn new(privacy: Privacy, alpha: f64) -> Result<Self> {
        if privacy.is_pure() {
            return Err(Error::DeltaRequired {
                algorithm: "the point multi-learner (A_dist)",
            });
        }
        if !(alpha.is_finite() && alpha > 0.0 && alpha <= 1.0) {
            return Err(Error::InvalidParameter {
                name: "alpha",
                requirement: "in (0, 1]",
                value: alpha,
            });
        }
        // Halving is exact in binary floating point, so the two halves sum to (ε, δ).
        let half = Privacy::new(privacy.epsilon() / 2.0, privacy.delta() / 2.0)?;
        Ok(PointLearner {
            privacy,
            alpha,
            sanitizer: PointSanitizer::new(half, alpha / 30.0)?,
            selection: StableSelection::new(half, 1)?,
        })
    }

    /// The accuracy α.
    pub fn alpha(&self) -> f64 {
        self.alpha
    }

    /// The step-1 sanitizer (ε/2, δ/2, accuracy α/30).
    pub fn sanitizer(&self) -> &PointSanitizer {
        &self.sanitizer
    }

    /// The step-4 `A_dist` (ε/2, δ/2, sensitivity 1).
    pub fn selection(&self) -> &StableSelection {
        &self.selection
    }

    /// Steps 1–2: the heavy set G (sorted).
    ///
    /// # Errors
    /// As for [`MultiLearner::learn`].
    pub fn heavy_set(
        &self,
        class: &dyn ConceptClass,
        sample: &MultiLabeledSample,
        rng: &mut dyn Rng,
    ) -> Result<Vec<Point>> {
        check_points_class(class)?;
        check_domains(class, sample)?;
        if sample.is_empty() {
            return Err(Error::EmptySample);
        }
        let synthetic = self.sanitizer.sanitize(class, sample.points(), rng)?;
        let mut points: Vec<Point> = synthetic
            .points()
            .map(<[Point]>::to_vec)
            .unwrap_or_default();
        let m = points.len() as f64;
        points.sort_unstable();
        let mut heavy = Vec::new();
        let mut i = 0;
        while i < points.len() {
            let run = points[i..].partition_point(|&y| y == points[i]);
            if run as f64 / m >= self.alpha / 15.0 {
                heavy.push(points[i]);
            }
            i += run;
        }
        Ok(heavy)
    }

    /// The whole algorithm, with G and the released label vectors (or ⊥).
    ///
    /// # Errors
    /// As for [`MultiLearner::learn`].
    pub fn learn_outcome(
        &self,
        class: &dyn ConceptClass,
        sample: &MultiLabeledSample,
        rng: &mut dyn Rng,
    ) -> Result<PointOutcome> {
        let heavy = self.heavy_set(class, sample, rng)?;
        let vectors = if heavy.is_empty() {
            Some(Vec::new())
        } else {
            select_heavy_labels(&self.selection, sample, &heavy, rng)?
        };
        Ok(PointOutcome { heavy, vectors })
    }
}

/// The packed label vectors of the rows whose point is in `heavy` (sorted), grouped by
/// heavy point: reads the label matrix in 64 × 64 blocks, skipping row blocks without a
/// heavy row.
fn heavy_row_vectors(sample: &MultiLabeledSample, heavy: &[Point]) -> Vec<Vec<Vec<u64>>> {
    let kw = sample.k().div_ceil(64);
    let mut groups: Vec<Vec<Vec<u64>>> = vec![Vec::new(); heavy.len()];
    let slot: Vec<Option<usize>> = sample
        .points()
        .iter()
        .map(|x| heavy.binary_search(x).ok())
        .collect();
    let mut block = [0u64; 64];
    for row_block in 0..sample.len().div_ceil(64) {
        let rows = &slot[64 * row_block..(64 * row_block + 64).min(sample.len())];
        if rows.iter().all(Option::is_none) {
            continue;
        }
        let mut vectors = vec![vec![0u64; kw]; rows.len()];
        for w in 0..kw {
            for (c, word) in block.iter_mut().enumerate() {
                *word = sample.column_bits(64 * w + c, 64 * row_block);
            }
            transpose64(&mut block);
            for (r, vector) in vectors.iter_mut().enumerate() {
                vector[w] = block[r];
            }
        }
        for (vector, group) in vectors.into_iter().zip(rows) {
            if let Some(g) = *group {
                groups[g].push(vector);
            }
        }
    }
    groups
}

/// The scores `A_dist` compares in step 4, in closed form (see [`PointLearner`]).
///
/// # Errors
/// [`Error::InvalidParameter`] for an empty or unsorted `heavy`.
pub fn heavy_label_scores(
    sample: &MultiLabeledSample,
    heavy: &[Point],
) -> Result<HeavyLabelScores> {
    if heavy.is_empty() || heavy.windows(2).any(|w| w[0] >= w[1]) {
        return Err(Error::InvalidParameter {
            name: "heavy set",
            requirement: "non-empty, sorted and without repeats",
            value: heavy.len() as f64,
        });
    }
    let kw = sample.k().div_ceil(64);
    let mut best = Vec::with_capacity(heavy.len());
    let mut top1 = Vec::with_capacity(heavy.len());
    let mut top2 = Vec::with_capacity(heavy.len());
    for group in heavy_row_vectors(sample, heavy) {
        let mut counts: HashMap<&[u64], i64> = HashMap::new();
        for vector in &group {
            *counts.entry(vector.as_slice()).or_default() += 1;
        }
        let mut first: Option<(&[u64], i64)> = None;
        for (&vector, &count) in &counts {
            first = match first {
                Some((b, c)) if c > count || (c == count && b <= vector) => Some((b, c)),
                _ => Some((vector, count)),
            };
        }
        let (vector, count) = first.map_or((vec![0u64; kw], 0), |(v, c)| (v.to_vec(), c));
        let second = counts
            .iter()
            .filter(|&(&v, _)| v != vector.as_slice())
            .map(|(_, &c)| c)
            .max()
            .unwrap_or(0);
        best.push(vector);
        top1.push(count);
        top2.push(second);
    }
    // The smallest and second-smallest top1 give min_{x' ≠ x} top1(x') for every x.
    let mut order: Vec<usize> = (0..top1.len()).collect();
    order.sort_by_key(|&i| top1[i]);
    let lowest = order[0];
    let min_other = |i: usize| {
        if i == lowest {
            order.get(1).map_or(i64::MAX, |&o| top1[o])
        } else {
            top1[lowest]
        }
    };
    let runner_up = (0..top1.len())
        .map(|i| top2[i].min(min_other(i)))
        .max()
        .unwrap_or(0);
    Ok(HeavyLabelScores {
        best,
        best_score: top1[lowest],
        runner_up,
    })
}

/// Step 4: `A_dist` (at the guarantee of `selection`) over `({0,1}^k)^G` with quality
/// `Q(S, V) = min_x q(S, x, v_x)`: `Some(V*)` or `None` for ⊥.
///
/// # Errors
/// As for [`heavy_label_scores`]; [`Error::Mechanism`] from the selection.
pub fn select_heavy_labels<R: Rng + ?Sized>(
    selection: &StableSelection,
    sample: &MultiLabeledSample,
    heavy: &[Point],
    rng: &mut R,
) -> Result<Option<Vec<Vec<u64>>>> {
    let scores = heavy_label_scores(sample, heavy)?;
    Ok(
        match selection.select(&[scores.best_score, scores.runner_up], rng)? {
            StableSelectionOutcome::Selected(_) => Some(scores.best),
            StableSelectionOutcome::Bottom => None,
        },
    )
}

/// The exact output distribution of [`select_heavy_labels`]: V* and the probability that
/// it is released (⊥ has the rest).
///
/// # Errors
/// As for [`select_heavy_labels`].
pub fn heavy_labels_distribution(
    selection: &StableSelection,
    sample: &MultiLabeledSample,
    heavy: &[Point],
) -> Result<(Vec<Vec<u64>>, f64)> {
    let scores = heavy_label_scores(sample, heavy)?;
    let distribution = selection.output_distribution(&[scores.best_score, scores.runner_up])?;
    Ok((scores.best, distribution[0]))
}

/// Checks that `class` is `POINT_X` over its domain (name, size, and labels on the first
/// points agree with `c_i(x) = 1 iff x` is the domain's i-th point).
///
/// # Errors
/// [`Error::UnsupportedClass`].
pub fn check_points_class(class: &dyn ConceptClass) -> Result<()> {
    let domain = class.domain();
    let unsupported = || Error::UnsupportedClass {
        learner: "the point multi-learner",
        expected: "point functions (POINT_X)",
        class: class.name(),
    };
    if !class.name().starts_with("points") || class.len() != domain.size() {
        return Err(unsupported());
    }
    for i in 0..domain.size().min(4) as u64 {
        let (Some(x), next) = (domain.point_at(i), domain.point_at(i + 1)) else {
            return Err(unsupported());
        };
        let fine =
            class.eval(i, x) && next.is_none_or(|y| !class.eval(i, y) && class.eval(i + 1, y));
        if !fine {
            return Err(unsupported());
        }
    }
    Ok(())
}

/// Step 5: one hypothesis per column from G and the released vectors.
fn hypotheses_from(
    class: &dyn ConceptClass,
    k: usize,
    heavy: &[Point],
    vectors: Option<&[Vec<u64>]>,
) -> Vec<Predictor> {
    (0..k)
        .map(|j| {
            let owner = vectors.and_then(|vs| {
                heavy
                    .iter()
                    .zip(vs)
                    .find(|(_, v)| v.get(j / 64).is_some_and(|w| w >> (j % 64) & 1 == 1))
                    .map(|(&x, _)| x)
            });
            match owner.and_then(|x| class.domain().index_of(x)) {
                Some(id) => Hypothesis::Concept { id },
                None => Hypothesis::Constant { label: false },
            }
            .into()
        })
        .collect()
}

impl MultiLearner for PointLearner {
    fn learn(
        &self,
        class: &dyn ConceptClass,
        sample: &MultiLabeledSample,
        rng: &mut dyn Rng,
    ) -> Result<Vec<Predictor>> {
        let outcome = self.learn_outcome(class, sample, rng)?;
        Ok(hypotheses_from(
            class,
            sample.k(),
            &outcome.heavy,
            outcome.vectors.as_deref(),
        ))
    }

    fn guarantee(&self, _examples: usize, _k: usize) -> Guarantee {
        Guarantee::DifferentialPrivacy(self.privacy)
    }

    fn name(&self) -> String {
        "point".into()
    }
}
