//! Multi-learner specs and k-labeled data: [`MultiLearnerSpec`] (`direct-sum[:NAME]`,
//! `generic[:SANITIZER]`, `parity`, `point`), [`build_multi_learner`] for a total (ε, δ)
//! over k columns, and [`parse_multi_labeled_csv`] for rows `x,y1,…,yk` (through the shared
//! row parser).

use std::cell::RefCell;
use std::fmt;
use std::path::Path;
use std::str::FromStr;

use privpac_accounting::Privacy;
use privpac_classes::Domain;
use privpac_multi::{
    DirectSum, MultiLabeledSample, MultiLearner, ParityLearner, PointLearner, SanitizerMultiLearner,
};
use serde::{Deserialize, Serialize};

use crate::data::{DataOptions, RowShape, open_data, read_table};
use crate::spec::{LearnerParams, LearnerSpec, SanitizerSpec, build_learner, build_sanitizer};
use privpac_engine::MAX_COLUMNS;
use privpac_engine::limits::check_count;
use privpac_engine::{Error, Result};

/// A multi-learner: `direct-sum[:NAME]` (any [`LearnerSpec`] once per column, default
/// `generic`; Observation 3.2), `generic[:SANITIZER]` (Algorithm 2 / Lemma 3.7 with any
/// [`SanitizerSpec`], default `mwem`), `parity` (Algorithm 4) or `point` (Algorithm 5).
///
/// # Example
/// ```
/// use privpac_toolkit::{LearnerSpec, MultiLearnerSpec, SanitizerSpec};
/// assert_eq!("direct-sum".parse::<MultiLearnerSpec>()?, MultiLearnerSpec::DirectSum(LearnerSpec::Generic));
/// assert_eq!("generic:blr".parse::<MultiLearnerSpec>()?, MultiLearnerSpec::Generic(SanitizerSpec::Blr));
/// assert_eq!(MultiLearnerSpec::Parity.to_string(), "parity");
/// assert!(matches!("magic".parse::<MultiLearnerSpec>(), Err(privpac_toolkit::Error::UnknownMultiLearner { .. })));
/// # Ok::<(), privpac_toolkit::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
#[non_exhaustive]
pub enum MultiLearnerSpec {
    /// The direct sum of a single-concept learner (total budget split over the columns).
    DirectSum(LearnerSpec),
    /// Algorithm 2 ("GenericLearner"): sanitize once, cover, select per column.
    Generic(SanitizerSpec),
    /// The parity k-learner (needs δ > 0; hypercube domains).
    Parity,
    /// The point k-learner (needs δ > 0).
    Point,
}

impl FromStr for MultiLearnerSpec {
    type Err = Error;

    fn from_str(text: &str) -> Result<Self> {
        let trimmed = text.trim();
        let lower = trimmed.to_ascii_lowercase();
        let unknown = || Error::UnknownMultiLearner {
            name: trimmed.to_string(),
        };
        let (head, tail) = match lower.split_once(':') {
            Some((h, t)) => (h, Some(t)),
            None => (lower.as_str(), None),
        };
        Ok(match (head, tail) {
            ("direct-sum", None) => MultiLearnerSpec::DirectSum(LearnerSpec::Generic),
            ("direct-sum", Some(inner)) => MultiLearnerSpec::DirectSum(inner.parse()?),
            ("generic", None) => MultiLearnerSpec::Generic(SanitizerSpec::Mwem),
            ("generic", Some(sanitizer)) => MultiLearnerSpec::Generic(sanitizer.parse()?),
            ("parity", None) => MultiLearnerSpec::Parity,
            ("point", None) => MultiLearnerSpec::Point,
            _ => return Err(unknown()),
        })
    }
}

impl TryFrom<String> for MultiLearnerSpec {
    type Error = Error;

    fn try_from(text: String) -> Result<Self> {
        text.parse()
    }
}

impl From<MultiLearnerSpec> for String {
    fn from(spec: MultiLearnerSpec) -> String {
        spec.to_string()
    }
}

impl fmt::Display for MultiLearnerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MultiLearnerSpec::DirectSum(inner) => write!(f, "direct-sum:{inner}"),
            MultiLearnerSpec::Generic(sanitizer) => write!(f, "generic:{sanitizer}"),
            MultiLearnerSpec::Parity => f.write_str("parity"),
            MultiLearnerSpec::Point => f.write_str("point"),
        }
    }
}

/// Builds the multi-learner `spec` whose k-tuple is `total`-DP over k columns, for samples
/// of `examples` examples (sized inner learners of a direct sum use it). `params` supplies
/// the inner learners' and sanitizers' knobs (its ε and δ are ignored: the budget is
/// `total`); the point learner's α is `params.sanitizer.alpha`.
///
/// * `direct-sum:NAME`: `privpac_multi::DirectSum::for_total` gives the per-column budget
///   and the inner learner is built with it as its ε (pure inner learners with δ = 0;
///   sanitizer learners get the per-column δ). A prediction learner's per-column ε is its
///   per-prediction target, and the k predictions (one query per model) compose by basic
///   composition to at most the total ε; the composed report is checked against the
///   total.
/// * `generic:SANITIZER`: `SanitizerMultiLearner::for_total` (ε/2 to the sanitizer;
///   pure-only sanitizers — BLR, MWEM, the tree — are built with δ = 0, also inside a
///   direct sum of sanitizer learners); `generic:treelog-quantiles` is
///   `SanitizerMultiLearner::corollary_3_10` (the sanitizer at α/10 for thresholds, α =
///   `params.sanitizer.alpha` the learner's accuracy).
/// * `parity`, `point`: the whole budget to the one learner.
///
/// # Errors
/// [`Error::TooLarge`] for k above [`MAX_COLUMNS`] (checked first); [`Error::Multi`]:
/// `NoLabelColumns` for k = 0, `DeltaRequired` for parity/point with δ = 0,
/// `BudgetTooSmall` (also when the composed report does not fit), `InnerNotPrivate` for a
/// direct sum of the stable learner (uniformly stable, not private);
/// [`Error::MissingParameter`] for ERM in a direct sum (not private); the builders' errors.
///
/// # Example
/// ```
/// use privpac_accounting::Privacy;
/// use privpac_toolkit::{LearnerParams, MultiLearnerSpec, build_multi_learner};
/// let spec: MultiLearnerSpec = "direct-sum".parse()?;
/// let learner = build_multi_learner(spec, Privacy::pure(4.0)?, 4, &LearnerParams::default(), 100)?;
/// assert!(learner.guarantee(100, 4).epsilon() <= Some(4.0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn build_multi_learner(
    spec: MultiLearnerSpec,
    total: Privacy,
    k: usize,
    params: &LearnerParams,
    examples: usize,
) -> Result<Box<dyn MultiLearner>> {
    check_count("k", k, MAX_COLUMNS)?;
    Ok(match spec {
        MultiLearnerSpec::DirectSum(inner) => {
            if inner == LearnerSpec::Erm {
                return Err(Error::MissingParameter {
                    learner: spec.to_string(),
                    name: "a private inner learner (ERM has no privacy budget to split)",
                });
            }
            if inner == LearnerSpec::Stable {
                return Err(privpac_multi::Error::InnerNotPrivate {
                    learner: inner.to_string(),
                    guarantee: "uniform stability (not differentially private)".to_string(),
                }
                .into());
            }
            // `DirectSum::for_total` splits the total, checks the composed report (per-
            // prediction guarantees by basic composition, one query per model) and refuses
            // inner learners that are neither DP nor per-prediction DP.
            let failure: RefCell<Option<Error>> = RefCell::new(None);
            let built = DirectSum::for_total(total, k, examples, &|per_column| {
                let delta = match inner {
                    LearnerSpec::Sanitizer(sanitizer) if !pure_only(sanitizer) => {
                        per_column.delta()
                    }
                    _ => 0.0,
                };
                // Observation 3.2: k columns at (α, β/k) give the k-tuple (α, β); only the
                // learners built for a β (the improper point learner's buckets) use it.
                let inner_params = LearnerParams {
                    epsilon: Some(per_column.epsilon()),
                    delta,
                    beta: params.beta / k as f64,
                    ..*params
                };
                match build_learner(inner, &inner_params, examples) {
                    Ok(learner) => Ok(learner),
                    Err(Error::Learner(e)) => Err(e),
                    Err(other) => {
                        *failure.borrow_mut() = Some(other);
                        Err(privpac_learners::Error::InvalidParameter {
                            name: "inner learner parameters",
                            requirement: "accepted by the lab",
                            value: f64::NAN,
                        })
                    }
                }
            });
            match (built, failure.into_inner()) {
                (_, Some(error)) => return Err(error),
                // The inner learner's own errors as build_learner gives them (a sample too
                // small for a per-prediction target stays a SampleTooSmall).
                (Err(privpac_multi::Error::Learner(error)), None) => return Err(error.into()),
                (built, None) => Box::new(built?),
            }
        }
        // Corollary 3.10's construction: the quantile sanitizer at α/10 for thresholds (α/5
        // for C⊕), so that `--alpha` is the learner's accuracy and the bound applies.
        MultiLearnerSpec::Generic(SanitizerSpec::TreelogQuantiles) => Box::new(
            SanitizerMultiLearner::corollary_3_10(total, k, params.sanitizer.alpha)?,
        ),
        MultiLearnerSpec::Generic(sanitizer) => {
            let failure: RefCell<Option<Error>> = RefCell::new(None);
            let built =
                SanitizerMultiLearner::for_total(total, k, &|privacy| match build_sanitizer(
                    sanitizer,
                    if pure_only(sanitizer) {
                        Privacy::pure(privacy.epsilon())?
                    } else {
                        privacy
                    },
                    &params.sanitizer,
                ) {
                    Ok(s) => Ok(s),
                    Err(Error::Sanitizer(e)) => Err(e),
                    Err(other) => {
                        *failure.borrow_mut() = Some(other);
                        Err(privpac_sanitizers::Error::InvalidParameter {
                            name: "sanitizer parameters",
                            requirement: "accepted by the lab",
                            value: f64::NAN,
                        })
                    }
                });
            match (built, failure.into_inner()) {
                (_, Some(error)) => return Err(error),
                (built, None) => Box::new(built?),
            }
        }
        MultiLearnerSpec::Parity => Box::new(ParityLearner::new(total)?),
        MultiLearnerSpec::Point => Box::new(PointLearner::new(total, params.sanitizer.alpha)?),
    })
}

/// Whether the sanitizer is pure ε-DP only (BLR, MWEM, the tree): it is built with the
/// ε of its share and δ = 0, so an approximate total spends δ only where δ is used.
fn pure_only(sanitizer: SanitizerSpec) -> bool {
    matches!(
        sanitizer,
        SanitizerSpec::Blr | SanitizerSpec::Mwem | SanitizerSpec::Tree
    )
}

/// Parses k-labeled rows `x,y1,…,yk` (k read from the first data line: its number of
/// columns minus one; an optional header `x,y1,…,yk`) with the shared row parser
/// ([`crate::read_table`]): points as integers, or bit strings for `{0,1}^d`.
///
/// # Errors
/// [`Error::BadDataLine`] naming the line (a first line with fewer than two columns, a
/// row with another number of columns, a bad label or point); [`Error::TooLarge`] for k
/// above [`MAX_COLUMNS`] (checked at the first row, before any is stored);
/// [`Error::EmptyData`].
///
/// # Example
/// ```
/// use privpac_classes::Domain;
/// let sample = privpac_toolkit::parse_multi_labeled_csv(&Domain::ordered(8)?, "x,y1,y2\n3,1,0\n5,0,0\n")?;
/// assert_eq!((sample.len(), sample.k()), (2, 2));
/// assert!(privpac_toolkit::parse_multi_labeled_csv(&Domain::ordered(8)?, "3,1,0\n5,0\n").is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn parse_multi_labeled_csv(domain: &Domain, text: &str) -> Result<MultiLabeledSample> {
    read_multi_labeled(text.as_bytes(), domain, &DataOptions::default())
}

/// Reads k-labeled examples `x,y1,…,yk` from a stream (see [`parse_multi_labeled_csv`]):
/// points and bit-packed labels, 8 bytes plus k bits per example.
///
/// # Errors
/// As for [`parse_multi_labeled_csv`], and the limits of [`crate::read_table`].
pub fn read_multi_labeled<R: std::io::BufRead>(
    reader: R,
    domain: &Domain,
    options: &DataOptions,
) -> Result<MultiLabeledSample> {
    let table = read_table(reader, domain, RowShape::LabeledAny, options)?;
    let k = table.labels.k();
    Ok(MultiLabeledSample::from_bit_columns(
        domain,
        table.points,
        k,
        table.labels.into_words(),
    )?)
}

/// [`read_multi_labeled`], with the label columns' names: the header's names when the
/// file has a header (`x,y1,…,yk`, or the names of the columns selected by
/// [`DataOptions::columns`]), else `y1`, …, `yk`.
///
/// # Errors
/// As for [`read_multi_labeled`].
///
/// # Example
/// ```
/// use privpac_classes::Domain;
/// let options = privpac_toolkit::DataOptions {
///     columns: Some("age,sick,smokes".parse()?),
///     ..Default::default()
/// };
/// let text = "id,age,smokes,sick\n1,3,1,0\n2,5,0,0\n";
/// let (sample, names) =
///     privpac_toolkit::read_multi_labeled_named(text.as_bytes(), &Domain::ordered(8)?, &options)?;
/// assert_eq!((sample.len(), names), (2, vec!["sick".to_string(), "smokes".to_string()]));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_multi_labeled_named<R: std::io::BufRead>(
    reader: R,
    domain: &Domain,
    options: &DataOptions,
) -> Result<(MultiLabeledSample, Vec<String>)> {
    let table = read_table(reader, domain, RowShape::LabeledAny, options)?;
    let k = table.labels.k();
    let names = table
        .label_names
        .unwrap_or_else(|| (1..=k).map(|j| format!("y{j}")).collect());
    let sample =
        MultiLabeledSample::from_bit_columns(domain, table.points, k, table.labels.into_words())?;
    Ok((sample, names))
}

/// [`read_multi_labeled_named`] on a data file (`-` for standard input, as for
/// [`read_multi_labeled_csv_with`]).
///
/// # Errors
/// As for [`read_multi_labeled_csv`].
pub fn read_multi_labeled_csv_named(
    path: &Path,
    domain: &Domain,
    options: &DataOptions,
) -> Result<(MultiLabeledSample, Vec<String>)> {
    read_multi_labeled_named(open_data(path)?, domain, options)
}

/// Reads and parses a k-labeled data file (see [`parse_multi_labeled_csv`]) with the
/// default limits.
///
/// # Errors
/// [`Error::Io`] if the file cannot be opened; the errors of [`parse_multi_labeled_csv`].
pub fn read_multi_labeled_csv(path: &Path, domain: &Domain) -> Result<MultiLabeledSample> {
    read_multi_labeled_csv_with(path, domain, &DataOptions::default())
}

/// [`read_multi_labeled_csv`] with other limits or real-valued points.
///
/// # Errors
/// As for [`read_multi_labeled_csv`].
pub fn read_multi_labeled_csv_with(
    path: &Path,
    domain: &Domain,
    options: &DataOptions,
) -> Result<MultiLabeledSample> {
    read_multi_labeled(open_data(path)?, domain, options)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_round_trip_and_reject_unknown_names() {
        for text in [
            "direct-sum:generic",
            "direct-sum:sanitizer:blr",
            "generic:mwem",
            "generic:point",
            "parity",
            "point",
        ] {
            let spec: MultiLearnerSpec = text.parse().unwrap();
            assert_eq!(spec.to_string(), text);
            let json = serde_json::to_string(&spec).unwrap();
            assert_eq!(
                serde_json::from_str::<MultiLearnerSpec>(&json).unwrap(),
                spec
            );
        }
        for bad in ["magic", "parity:2", "direct-sum:magic", "generic:magic", ""] {
            assert!(bad.parse::<MultiLearnerSpec>().is_err(), "{bad}");
        }
        assert!(matches!(
            "direct-sum:magic".parse::<MultiLearnerSpec>(),
            Err(Error::UnknownLearner { .. })
        ));
    }

    #[test]
    fn building_checks_k_delta_and_budget() {
        let params = LearnerParams::default();
        let pure = Privacy::pure(1.0).unwrap();
        let approx = Privacy::new(1.0, 1e-6).unwrap();
        assert!(matches!(
            build_multi_learner(MultiLearnerSpec::Parity, approx, usize::MAX, &params, 10),
            Err(Error::TooLarge { .. })
        ));
        assert!(matches!(
            build_multi_learner(MultiLearnerSpec::Parity, pure, 2, &params, 10),
            Err(Error::Multi(privpac_multi::Error::DeltaRequired { .. }))
        ));
        assert!(matches!(
            build_multi_learner(MultiLearnerSpec::Point, pure, 2, &params, 10),
            Err(Error::Multi(privpac_multi::Error::DeltaRequired { .. }))
        ));
        let direct = MultiLearnerSpec::DirectSum(LearnerSpec::Generic);
        assert!(matches!(
            build_multi_learner(direct, pure, 0, &params, 10),
            Err(Error::Multi(privpac_multi::Error::NoLabelColumns))
        ));
        assert!(matches!(
            build_multi_learner(direct, Privacy::pure(1e-6).unwrap(), 60_000, &params, 10),
            Err(Error::Multi(privpac_multi::Error::BudgetTooSmall { .. }))
        ));
        assert!(matches!(
            build_multi_learner(
                MultiLearnerSpec::DirectSum(LearnerSpec::Erm),
                pure,
                2,
                &params,
                10
            ),
            Err(Error::MissingParameter { .. })
        ));
        // The generic learner passes lab errors of its sanitizer through (MWEM rounds).
        let many_rounds = LearnerParams {
            sanitizer: crate::SanitizerParams {
                rounds: usize::MAX,
                ..crate::SanitizerParams::default()
            },
            ..LearnerParams::default()
        };
        assert!(matches!(
            build_multi_learner(
                MultiLearnerSpec::Generic(SanitizerSpec::Mwem),
                pure,
                2,
                &many_rounds,
                10
            ),
            Err(Error::TooLarge { .. })
        ));
        // And the sanitizer's own errors (the point sanitizer needs δ > 0).
        assert!(matches!(
            build_multi_learner(
                MultiLearnerSpec::Generic(SanitizerSpec::Point),
                pure,
                2,
                &params,
                10
            ),
            Err(Error::Multi(privpac_multi::Error::Sanitizer(_)))
        ));
        for (spec, total) in [
            (direct, approx),
            (
                MultiLearnerSpec::DirectSum(LearnerSpec::Sanitizer(SanitizerSpec::Point)),
                approx,
            ),
            (MultiLearnerSpec::Generic(SanitizerSpec::Tree), pure),
            (MultiLearnerSpec::Generic(SanitizerSpec::Tree), approx),
            (MultiLearnerSpec::Generic(SanitizerSpec::Mwem), approx),
            (
                MultiLearnerSpec::DirectSum(LearnerSpec::Sanitizer(SanitizerSpec::Mwem)),
                approx,
            ),
            (MultiLearnerSpec::Generic(SanitizerSpec::Pmw), approx),
            (MultiLearnerSpec::Parity, approx),
            (MultiLearnerSpec::Point, approx),
        ] {
            let learner = build_multi_learner(spec, total, 8, &params, 1000).unwrap();
            let g = learner.guarantee(1000, 8).privacy().unwrap();
            assert!(
                g.epsilon() <= total.epsilon() && g.delta() <= total.delta(),
                "{spec}: {g:?}"
            );
        }
    }

    #[test]
    fn direct_sums_of_prediction_learners_compose_their_per_prediction_epsilon() {
        let spec: MultiLearnerSpec = "direct-sum:voting".parse().unwrap();
        let learner = build_multi_learner(
            spec,
            Privacy::pure(4.0).unwrap(),
            4,
            &LearnerParams::default(),
            100,
        )
        .unwrap();
        match learner.guarantee(100, 4) {
            privpac_accounting::Guarantee::PerPrediction { epsilon } => {
                assert!((4.0..4.0 + 1e-9).contains(&epsilon), "{epsilon}")
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn multi_labeled_csv_names_lines_and_infers_k() {
        let domain = Domain::ordered(8).unwrap();
        let s = parse_multi_labeled_csv(&domain, "# c\n\nx,y1,y2,y3\n1,0,1,1\n2,1,1,0\n").unwrap();
        assert_eq!((s.len(), s.k()), (2, 3));
        assert_eq!(s.row(0), vec![false, true, true]);
        let cube = Domain::hypercube(3).unwrap();
        let s = parse_multi_labeled_csv(&cube, "110,1,0\n001,0,1\n").unwrap();
        assert_eq!(s.points(), &[3, 4]);
        for (text, line) in [
            ("1,0,1\n2,1\n", 2),
            ("1,0,1\n2,1,2\n", 2),
            ("1,0,1\n9,1,1\n", 2),
            ("x,y1,z\n1,0,1\n", 1),
            ("7\n", 1),
        ] {
            match parse_multi_labeled_csv(&domain, text) {
                Err(Error::BadDataLine { line: got, .. }) => assert_eq!(got, line, "{text:?}"),
                other => panic!("{text:?}: {other:?}"),
            }
        }
        assert_eq!(
            parse_multi_labeled_csv(&domain, "# only\n"),
            Err(Error::EmptyData)
        );
        let wide = format!("1{}\n", ",0".repeat(MAX_COLUMNS + 1));
        assert!(matches!(
            parse_multi_labeled_csv(&domain, &wide),
            Err(Error::TooLarge { .. })
        ));
    }

    /// Issue 27 §4: a direct sum of private prediction keeps the total (the old build gave
    /// each column the mechanism ε ε/k and reported a composed per-prediction ε far above
    /// it), and a direct sum of the stable learner (not private) is refused.
    #[test]
    fn direct_sums_keep_the_total_or_refuse() {
        let params = LearnerParams::default();
        for total in [
            Privacy::pure(1.0).unwrap(),
            Privacy::new(1.0, 1e-6).unwrap(),
        ] {
            for name in ["private-prediction", "relabeling", "voting", "generic"] {
                let spec: MultiLearnerSpec = format!("direct-sum:{name}").parse().unwrap();
                let learner = build_multi_learner(spec, total, 4, &params, 20_000).unwrap();
                let epsilon = learner.guarantee(20_000, 4).epsilon().unwrap();
                assert!(epsilon <= 1.0, "{spec} at {total:?}: {epsilon}");
            }
        }
        let stable: MultiLearnerSpec = "direct-sum:stable".parse().unwrap();
        let refused = build_multi_learner(stable, Privacy::pure(1.0).unwrap(), 4, &params, 1000);
        assert!(
            matches!(
                refused,
                Err(Error::Multi(privpac_multi::Error::InnerNotPrivate { .. }))
            ),
            "{:?}",
            refused.map(|l| l.name())
        );
    }
}
