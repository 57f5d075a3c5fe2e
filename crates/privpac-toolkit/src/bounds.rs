//! Which sample-complexity bound applies to a learner on a scenario: [`bounds_for`] picks
//! the bound with explicit constants for the learner and the kind of scenario (realizable
//! or agnostic), or says that there is none.

use privpac_classes::dimension::{Budget, vc_dimension};
use privpac_classes::{ConceptClass, DEFAULT_CELL_LIMIT, materialize};
use privpac_engine::ScenarioKind;
use privpac_learners::bounds::{
    generic_learner_sample_size, improper_point_learner_sample_size,
    improper_point_learner_sample_size_for_buckets, realizable_generic_learner_sample_size,
    vc_agnostic_sample_size, vc_realizable_sample_size,
};
use serde::{Deserialize, Serialize};

use crate::spec::LearnerSpec;
use privpac_engine::{Error, Result};

/// A bound on the sample size, or the statement that none with explicit constants exists
/// here.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Bound {
    /// A bound with explicit constants: `sample_size` examples suffice for (α, β)-accuracy.
    Explicit {
        /// A short name (`"generic learner, realizable"`).
        name: String,
        /// Where it comes from (paper and theorem, or "our constants").
        source: String,
        /// The number of examples, rounded up.
        sample_size: f64,
    },
    /// No bound with explicit constants is implemented for this learner and scenario.
    NoExplicitConstants {
        /// Why, and where the learner's rate is documented.
        reason: String,
    },
}

impl Bound {
    /// The sample size of an explicit bound.
    pub fn sample_size(&self) -> Option<f64> {
        match self {
            Bound::Explicit { sample_size, .. } => Some(*sample_size),
            Bound::NoExplicitConstants { .. } => None,
        }
    }
}

/// The bound for learner `spec` on `class` in a scenario of the given kind, at privacy ε,
/// accuracy α and confidence β.
///
/// - ERM: realizable, the VC bound of Blumer–Ehrenfeucht–Haussler–Warmuth (with the exact
///   VC dimension); agnostic, the uniform-convergence bound of Shalev-Shwartz–Ben-David.
/// - Generic learner: realizable, `ln(2|C|/β)/α · max{8, 4/ε}` (Sivakumar's proof of
///   Theorem 3.3: Chernoff, then the exponential mechanism with OPT_S = 0); agnostic, the
///   explicit constants of the proof of Kalavasis's Theorem 1 (the generic learner of
///   Kasiviswanathan et al., Bun–Nissim–Stemmer Theorem 2.22; dominated by `1/α²` for
///   large ε).
/// - Improper point learner (for its default `m = ⌈16/(αβ)⌉` buckets): the realizable and
///   agnostic forms of `privpac_learners::bounds::improper_point_learner_sample_size`,
///   independent of |X|; [`bounds_for_buckets`] gives the bound for another m.
/// - Every other learner: [`Bound::NoExplicitConstants`].
///
/// # Errors
/// [`Error::InvalidParameter`] for ε ≤ 0 or α, β outside (0, 1); [`Error::Class`] when the
/// exact VC dimension (ERM) cannot be computed within its budget (a class whose matrix is
/// too large to build gets [`Bound::NoExplicitConstants`] instead).
///
/// # Example
/// ```
/// use privpac_classes::Thresholds;
/// use privpac_toolkit::{Bound, LearnerSpec, ScenarioKind, bounds_for};
/// let class = Thresholds::new(1024)?;
/// let realizable = bounds_for(LearnerSpec::Generic, &class, ScenarioKind::Realizable, 1.0, 0.1, 0.1)?;
/// let agnostic = bounds_for(LearnerSpec::Generic, &class, ScenarioKind::Agnostic, 1.0, 0.1, 0.1)?;
/// assert!(realizable.sample_size().unwrap() < agnostic.sample_size().unwrap());
/// assert!(matches!(
///     bounds_for(LearnerSpec::Voting, &class, ScenarioKind::Agnostic, 1.0, 0.1, 0.1)?,
///     Bound::NoExplicitConstants { .. }
/// ));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn bounds_for(
    spec: LearnerSpec,
    class: &dyn ConceptClass,
    kind: ScenarioKind,
    epsilon: f64,
    alpha: f64,
    beta: f64,
) -> Result<Bound> {
    bounds_for_buckets(spec, class, kind, epsilon, alpha, beta, None)
}

/// The interior-point learner's bound at (ε, δ): realizable thresholds over `[N]` only,
/// from `privpac_learners::bounds::interior_point_learner_sample_size` (TreeLog's explicit
/// constants plus the generalization step). [`Bound::NoExplicitConstants`] when the
/// scenario is agnostic, the class is not over an ordered domain, or the constants give
/// no finite size (for example δ = 0).
pub fn interior_point_bound(
    class: &dyn ConceptClass,
    kind: ScenarioKind,
    epsilon: f64,
    delta: f64,
    alpha: f64,
    beta: f64,
) -> Bound {
    let none = |reason: String| Bound::NoExplicitConstants { reason };
    let privpac_classes::Domain::Ordered { size } = *class.domain() else {
        return none(format!(
            "the interior-point learner's bound is for thresholds over an ordered domain, not {}",
            class.name()
        ));
    };
    if kind == ScenarioKind::Agnostic {
        return none(
            "the interior-point learner's bound is for the realizable case only".to_string(),
        );
    }
    match privpac_learners::bounds::interior_point_learner_sample_size(
        size, epsilon, delta, alpha, beta,
    ) {
        Some(sample_size) => Bound::Explicit {
            name: "interior-point learner (TreeLog), realizable".to_string(),
            source: "Kaplan et al. 2020, Algorithm 1 and Lemmas 11-13, with privpac's explicit constants".to_string(),
            sample_size,
        },
        None => none(format!(
            "the interior-point learner's constants give no finite sample size at ε = {epsilon}, δ = {delta}"
        )),
    }
}

/// α and β of a sample-complexity question, each in (0, 1) (the bounds' requirement,
/// checked by `run_sample_complexity` before the learner is built so that an α out of
/// range is named as such, not through a parameter derived from it).
///
/// # Errors
/// [`Error::InvalidParameter`] naming the first one out of range.
pub(crate) fn check_accuracy(alpha: f64, beta: f64) -> Result<()> {
    for (name, value) in [("alpha", alpha), ("beta", beta)] {
        if !(value > 0.0 && value < 1.0) {
            return Err(Error::InvalidParameter {
                name,
                requirement: "in (0, 1)",
                value,
            });
        }
    }
    Ok(())
}

/// [`bounds_for`] for the learner as built with `buckets` hash buckets (the improper point
/// learner's `--buckets`; None: the default `⌈16/(αβ)⌉`). For another m the bound is
/// `privpac_learners::bounds::improper_point_learner_sample_size_for_buckets`, and
/// [`Bound::NoExplicitConstants`] where its derivation gives none (`m ≤ 4/(αβ)`
/// realizable, `m ≤ 3/(αβ)` agnostic). Other learners ignore `buckets`.
///
/// # Errors
/// As for [`bounds_for`].
///
/// # Example
/// ```
/// use privpac_classes::{Domain, Points};
/// use privpac_toolkit::{Bound, LearnerSpec, ScenarioKind, bounds_for, bounds_for_buckets};
/// let class = Points::new(Domain::ordered(1 << 20)?);
/// let at = |m| bounds_for_buckets(LearnerSpec::ImproperPoint, &class, ScenarioKind::Realizable, 1.0, 0.1, 0.1, m);
/// assert_eq!(at(None)?, bounds_for(LearnerSpec::ImproperPoint, &class, ScenarioKind::Realizable, 1.0, 0.1, 0.1)?);
/// assert_ne!(at(Some(800))?.sample_size(), at(None)?.sample_size());
/// assert!(matches!(at(Some(10))?, Bound::NoExplicitConstants { .. }));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn bounds_for_buckets(
    spec: LearnerSpec,
    class: &dyn ConceptClass,
    kind: ScenarioKind,
    epsilon: f64,
    alpha: f64,
    beta: f64,
    buckets: Option<u64>,
) -> Result<Bound> {
    check_accuracy(alpha, beta)?;
    let explicit = |name: &str, source: &str, size: f64| Bound::Explicit {
        name: name.to_string(),
        source: source.to_string(),
        sample_size: size.ceil(),
    };
    Ok(match spec {
        LearnerSpec::Erm => {
            // The exact VC dimension from the class matrix where it fits; a class too
            // large for it (the learner itself may run: thresholds, points and intervals
            // over 2^30 points) takes its closed form (exact, or a proven upper bound: the
            // VC bounds grow with d, so an upper bound on d gives a valid, larger bound),
            // and no bound when it has none.
            let (vc, closed) = match materialize(class, DEFAULT_CELL_LIMIT) {
                Ok(matrix) => (vc_dimension(&matrix, &Budget::default())?.dimension, None),
                Err(privpac_classes::Error::TooLarge { needed, limit, .. }) => {
                    let Some(closed) = class.vc_dimension_closed_form() else {
                        return Ok(Bound::NoExplicitConstants {
                            reason: format!(
                                "no closed-form VC dimension is known for {}, and the exact \
                                 one needs the class matrix, {needed} cells (above the limit \
                                 of {limit})",
                                class.name()
                            ),
                        });
                    };
                    let vc = u32::try_from(closed.dimension).unwrap_or(u32::MAX);
                    (vc, Some(closed))
                }
                Err(other) => return Err(other.into()),
            };
            let explicit = |name: &str, source: &str, size: f64| match &closed {
                None => explicit(name, source, size),
                Some(closed) if closed.exact => explicit(
                    name,
                    &format!("{source}; {}, closed form", closed.describe()),
                    size,
                ),
                Some(closed) => explicit(
                    &format!("{name}, with an upper bound on the VC dimension"),
                    &format!("{source}; {}", closed.describe()),
                    size,
                ),
            };
            match kind {
                ScenarioKind::Realizable => explicit(
                    "VC bound, realizable",
                    "Blumer, Ehrenfeucht, Haussler, Warmuth 1989",
                    vc_realizable_sample_size(vc, alpha, beta),
                ),
                ScenarioKind::Agnostic if vc >= 1 => explicit(
                    "VC bound, agnostic",
                    "Shalev-Shwartz and Ben-David, Understanding Machine Learning, §28.1",
                    vc_agnostic_sample_size(vc, alpha, beta),
                ),
                ScenarioKind::Agnostic => Bound::NoExplicitConstants {
                    reason: "the agnostic VC bound needs VC dimension ≥ 1".to_string(),
                },
            }
        }
        LearnerSpec::Generic => {
            if !(epsilon.is_finite() && epsilon > 0.0) {
                return Err(Error::InvalidParameter {
                    name: "epsilon",
                    requirement: "finite and > 0",
                    value: epsilon,
                });
            }
            let size = class.len() as f64;
            match kind {
                ScenarioKind::Realizable => explicit(
                    "generic learner, realizable",
                    "Sivakumar, proof of Theorem 3.3 (Chernoff, then the exponential mechanism with OPT_S = 0)",
                    realizable_generic_learner_sample_size(size, epsilon, alpha, beta),
                ),
                ScenarioKind::Agnostic => explicit(
                    "generic learner, agnostic",
                    "Kalavasis, proof of Theorem 1 (Hoeffding, then the exponential mechanism; BNS Theorem 2.22)",
                    generic_learner_sample_size(size, epsilon, alpha, beta),
                ),
            }
        }
        LearnerSpec::ImproperPoint => {
            if !(epsilon.is_finite() && epsilon > 0.0) {
                return Err(Error::InvalidParameter {
                    name: "epsilon",
                    requirement: "finite and > 0",
                    value: epsilon,
                });
            }
            let agnostic = kind == ScenarioKind::Agnostic;
            let name = if agnostic {
                "improper point learner, agnostic (independent of |X|)"
            } else {
                "improper point learner, realizable (independent of |X|)"
            };
            match buckets {
                None => explicit(
                    name,
                    "Beimel–Nissim–Stemmer's probabilistic representation (BNS 2016, before Corollary 3.3); our constants, for m = ⌈16/(αβ)⌉ buckets",
                    improper_point_learner_sample_size(epsilon, alpha, beta, agnostic),
                ),
                Some(m) => match improper_point_learner_sample_size_for_buckets(
                    epsilon, alpha, beta, m, agnostic,
                ) {
                    Some(size) => explicit(
                        name,
                        &format!(
                            "Beimel–Nissim–Stemmer's probabilistic representation (BNS 2016, before Corollary 3.3); our constants, for the m = {m} buckets in use"
                        ),
                        size,
                    ),
                    None => Bound::NoExplicitConstants {
                        reason: format!(
                            "no bound is known for the improper point learner with m = {m} buckets at α = {alpha}, β = {beta}: the hash's collisions alone may fail with probability {}/(mα) ≥ β (the bound needs m > {}/(αβ); the default is ⌈16/(αβ)⌉)",
                            if agnostic { 3 } else { 4 },
                            if agnostic { 3 } else { 4 },
                        ),
                    },
                },
            }
        }
        LearnerSpec::InteriorPoint => Bound::NoExplicitConstants {
            reason: "the interior-point learner's bound depends on δ, which this function does not take: see privpac_learners::bounds::interior_point_learner_sample_size".to_string(),
        },
        other => Bound::NoExplicitConstants {
            reason: format!(
                "no bound with explicit constants for {other} (see the learner's documentation for its rate)"
            ),
        },
    })
}

#[cfg(test)]
mod tests {
    use privpac_classes::Thresholds;

    use super::*;

    /// The interior-point learner's bound is the learners crate's explicit one at the
    /// request's δ (realizable thresholds), and none where its derivation gives none.
    #[test]
    fn interior_point_bound_takes_delta() {
        let class = Thresholds::new(1 << 20).unwrap();
        let at = |kind, delta| interior_point_bound(&class, kind, 1.0, delta, 0.1, 0.1);
        let expected = privpac_learners::bounds::interior_point_learner_sample_size(
            1 << 20,
            1.0,
            1e-6,
            0.1,
            0.1,
        )
        .unwrap();
        assert_eq!(
            at(ScenarioKind::Realizable, 1e-6).sample_size(),
            Some(expected)
        );
        assert_eq!(at(ScenarioKind::Realizable, 0.0).sample_size(), None);
        assert_eq!(at(ScenarioKind::Agnostic, 1e-6).sample_size(), None);
        let cube = privpac_classes::Parities::new(4).unwrap();
        assert!(matches!(
            interior_point_bound(&cube, ScenarioKind::Realizable, 1.0, 1e-6, 0.1, 0.1),
            Bound::NoExplicitConstants { .. }
        ));
    }

    #[test]
    fn realizable_generic_bound_depends_on_epsilon_and_agnostic_is_larger() {
        let class = Thresholds::new(1024).unwrap();
        let at = |kind, epsilon| {
            bounds_for(LearnerSpec::Generic, &class, kind, epsilon, 0.1, 0.1)
                .unwrap()
                .sample_size()
                .unwrap()
        };
        let realizable: Vec<f64> = [0.25, 1.0, 4.0]
            .iter()
            .map(|&e| at(ScenarioKind::Realizable, e))
            .collect();
        // ln(2·1024/0.1)/0.1 · max{8, 4/ε}: 16/ε·… for ε = 0.25, 8·… for ε ≥ 1/2.
        let log_term = (2.0f64 * 1024.0 / 0.1).ln() / 0.1;
        assert_eq!(realizable[0], (log_term * 16.0).ceil());
        assert_eq!(realizable[1], (log_term * 8.0).ceil());
        assert!(realizable[0] > realizable[1]);
        for epsilon in [0.25, 1.0, 4.0] {
            assert!(at(ScenarioKind::Agnostic, epsilon) > at(ScenarioKind::Realizable, epsilon));
        }
    }

    #[test]
    fn erm_uses_the_exact_vc_dimension() {
        let class = Thresholds::new(64).unwrap();
        let bound = bounds_for(
            LearnerSpec::Erm,
            &class,
            ScenarioKind::Realizable,
            1.0,
            0.1,
            0.1,
        )
        .unwrap();
        assert_eq!(
            bound.sample_size(),
            Some(vc_realizable_sample_size(1, 0.1, 0.1).ceil())
        );
        assert!(
            bounds_for(
                LearnerSpec::Erm,
                &class,
                ScenarioKind::Realizable,
                1.0,
                0.0,
                0.1
            )
            .is_err()
        );
        assert!(
            bounds_for(
                LearnerSpec::Generic,
                &class,
                ScenarioKind::Agnostic,
                -1.0,
                0.1,
                0.1
            )
            .is_err()
        );
    }

    /// ERM on a class too large to materialize gets its VC bound from the closed-form VC
    /// dimension: exact for thresholds over 2^40 points (d = 1, the same bound as a small
    /// class of VC dimension 1), a labelled upper bound for xor(intervals), and no bound
    /// (and no error) for a class with no closed form.
    #[test]
    fn erm_on_a_huge_class_uses_the_closed_form_vc_dimension() {
        let erm = |spec: &str| {
            let class = privpac_classes::parse_spec(spec).unwrap();
            bounds_for(
                LearnerSpec::Erm,
                class.as_ref(),
                ScenarioKind::Realizable,
                1.0,
                0.1,
                0.1,
            )
            .unwrap()
        };
        let huge = erm("thresholds:1099511627776");
        assert_eq!(huge.sample_size(), erm("thresholds:64").sample_size());
        assert_eq!(
            huge.sample_size(),
            Some(vc_realizable_sample_size(1, 0.1, 0.1).ceil())
        );
        assert!(
            matches!(&huge, Bound::Explicit { source, .. } if source.contains("VC dimension 1 (thresholds), closed form")),
            "{huge:?}"
        );
        let both = erm("both(intervals:1073741824)");
        assert_eq!(
            both.sample_size(),
            Some(vc_realizable_sample_size(5, 0.1, 0.1).ceil())
        );
        assert!(
            matches!(&both, Bound::Explicit { name, source, .. }
                if name.contains("upper bound on the VC dimension") && source.contains("at most 5")),
            "{both:?}"
        );
        let unknown = erm("xor(halfspaces:11)");
        assert!(
            matches!(&unknown, Bound::NoExplicitConstants { reason }
                if reason.contains("no closed-form VC dimension") && reason.contains("class matrix")),
            "{unknown:?}"
        );
    }
}
