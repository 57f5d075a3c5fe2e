//! Experiment files of kind `k-curves`: the empirical sample complexity of multi-learners
//! against the number of label columns k, each curve compared with the exponent of k of
//! an upper bound of the §1.3 tables of Bun–Nissim–Stemmer 2016
//! ([`privpac_attacks::lower_bounds::SECTION_1_3_TABLES`]).
//!
//! A curve names a multi-learner spec (`privpac multi-learn --learner`), its total (ε, δ)
//! over all k columns, its scenario (a class spec with the uniform distribution and k
//! random targets, or a class spec on a weighted support with the targets cycling over
//! it) and the table cell it is compared with. [`KCurveSweep::units`] expands the file
//! into the unit rows (`curve`, `learner`, `k`, `epsilon`, `delta`) of the catalogue's
//! `k-curves` experiment, which is itself the shipped file `experiments/k-curves.toml`.

use serde::Deserialize;
use serde_json::{Map, Value, json};
use toml::Spanned;

use super::{Checker, RawSearch};
use crate::{Error, Result, Scale};
use privpac_attacks::lower_bounds::{BoundKind, TablePrivacy, table_entries};
use privpac_toolkit::{ClassSpec, MultiLearnerSpec};

/// The largest k a file may list.
pub const MAX_K: usize = 1 << 16;

/// The scenario of a curve at k columns.
#[derive(Debug, Clone, PartialEq)]
pub enum CurveScenario {
    /// The class under the uniform distribution, k targets drawn uniformly with seed
    /// `target_seed + k`.
    Uniform {
        /// Class spec.
        class: String,
        /// Base of the targets' seed.
        target_seed: u64,
    },
    /// The class on the listed support points with these weights (normalized), column j's
    /// target the concept of support point `j mod |support|` (point functions: the point).
    Support {
        /// Class spec.
        class: String,
        /// Support points.
        support: Vec<u64>,
        /// Their weights.
        weights: Vec<f64>,
    },
}

/// One curve of a k-curves file.
#[derive(Debug, Clone, PartialEq)]
pub struct CurveDef {
    /// The `curve` column.
    pub id: String,
    /// Multi-learner spec.
    pub learner: String,
    /// Total ε over all columns.
    pub epsilon: f64,
    /// Total δ over all columns.
    pub delta: f64,
    /// The scenario.
    pub scenario: CurveScenario,
    /// The §1.3 table cell: class, privacy, agnostic, and the entry's reference when the
    /// cell has several entries (`None`: the first).
    pub table: (String, TablePrivacy, bool, Option<String>),
    /// For a direct sum: split the budget by basic or advanced composition only.
    pub advanced_split: bool,
}

/// What a k-curves sweep runs at one scale.
#[derive(Debug, Clone, PartialEq)]
pub struct KLevel {
    /// The k values.
    pub ks: Vec<usize>,
    /// Trials per sample size.
    pub trials: usize,
    /// First sample size searched.
    pub start: usize,
    /// Largest sample size searched.
    pub max_size: usize,
}

/// A parsed, checked experiment file of kind `k-curves`.
#[derive(Debug, Clone, PartialEq)]
pub struct KCurveSweep {
    /// The experiment name.
    pub name: String,
    /// One line saying what it measures.
    pub summary: String,
    /// The master seed when the command line gives none.
    pub seed: Option<u64>,
    /// The unit limit the file states.
    pub max_units: usize,
    /// Accuracy α (on every column).
    pub alpha: f64,
    /// Failure probability β.
    pub beta: f64,
    /// The curves, in unit order.
    pub curves: Vec<CurveDef>,
    levels: [KLevel; 3],
    /// The scales [`KCurveSweep::parse_for`] did not need whose levels fail their checks.
    broken: Vec<super::Broken>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    kind: Spanned<String>,
    name: Spanned<String>,
    summary: Option<String>,
    seed: Option<u64>,
    max_units: Option<Spanned<usize>>,
    alpha: Spanned<f64>,
    beta: Spanned<f64>,
    search: Option<Spanned<RawSearch>>,
    k: Option<Spanned<Vec<usize>>>,
    trials: Option<Spanned<usize>>,
    curve: Spanned<Vec<RawCurve>>,
    scale: Option<RawScales>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCurve {
    id: Spanned<String>,
    learner: Spanned<String>,
    epsilon: Spanned<f64>,
    delta: Spanned<f64>,
    scenario: Spanned<RawScenario>,
    table: Spanned<RawTable>,
    split: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawScenario {
    class: String,
    target_seed: Option<u64>,
    support: Option<Vec<u64>>,
    weights: Option<Vec<f64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTable {
    class: String,
    privacy: String,
    #[serde(default)]
    agnostic: bool,
    reference: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawScales {
    tiny: Option<RawLevel>,
    quick: Option<RawLevel>,
    full: Option<RawLevel>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLevel {
    k: Option<Spanned<Vec<usize>>>,
    trials: Option<Spanned<usize>>,
    search: Option<Spanned<RawSearch>>,
}

/// The `kind` a file's text declares (`None`: no `kind` key, or not TOML).
pub(crate) fn declared_kind(text: &str) -> Option<String> {
    let table: toml::Table = toml::from_str(text).ok()?;
    table.get("kind")?.as_str().map(str::to_string)
}

impl Checker<'_> {
    fn curve(&self, raw: &RawCurve) -> Result<CurveDef> {
        let learner = raw.learner.get_ref();
        let spec = learner.parse::<MultiLearnerSpec>().map_err(|e| {
            self.err(
                raw.learner.span(),
                "curve.learner",
                format!("{learner:?} is not a multi-learner spec: {e}"),
            )
        })?;
        let (epsilon, delta) = (*raw.epsilon.get_ref(), *raw.delta.get_ref());
        if !(epsilon.is_finite() && epsilon > 0.0) {
            return Err(self.err(
                raw.epsilon.span(),
                "curve.epsilon",
                format!("{epsilon}: need a finite ε > 0"),
            ));
        }
        if !(0.0..1.0).contains(&delta) {
            return Err(self.err(
                raw.delta.span(),
                "curve.delta",
                format!("{delta}: need 0 ≤ δ < 1"),
            ));
        }
        let s = raw.scenario.get_ref();
        let bad_scenario =
            |message: String| self.err(raw.scenario.span(), "curve.scenario", message);
        let class = s
            .class
            .parse::<ClassSpec>()
            .and_then(|c| c.build())
            .map_err(|e| bad_scenario(format!("{:?} is not a class spec: {e}", s.class)))?;
        let scenario = match (&s.target_seed, &s.support, &s.weights) {
            (&Some(target_seed), None, None) => CurveScenario::Uniform {
                class: s.class.clone(),
                target_seed,
            },
            (None, Some(support), Some(weights)) => {
                if support.is_empty() || support.len() != weights.len() {
                    return Err(bad_scenario(
                        "`support` and `weights` need the same, nonzero length".into(),
                    ));
                }
                for &x in support {
                    class
                        .domain()
                        .check(x)
                        .map_err(|e| bad_scenario(format!("support point {x}: {e}")))?;
                }
                if weights.iter().any(|w| !(w.is_finite() && *w >= 0.0))
                    || weights.iter().sum::<f64>() <= 0.0
                {
                    return Err(bad_scenario(
                        "weights must be finite, ≥ 0 and not all 0".into(),
                    ));
                }
                CurveScenario::Support {
                    class: s.class.clone(),
                    support: support.clone(),
                    weights: weights.clone(),
                }
            }
            _ => {
                return Err(bad_scenario(
                    "give `target_seed` (uniform distribution, random targets) or `support` and `weights` (targets cycling over the support)".into(),
                ));
            }
        };
        let t = raw.table.get_ref();
        let privacy = match t.privacy.as_str() {
            "pure" => TablePrivacy::Pure,
            "approximate" => TablePrivacy::Approximate,
            other => {
                return Err(self.err(
                    raw.table.span(),
                    "curve.table.privacy",
                    format!("{other:?}: \"pure\" or \"approximate\""),
                ));
            }
        };
        if table_entries(&t.class, privacy, BoundKind::Upper, t.agnostic)
            .find(|entry| t.reference.as_deref().is_none_or(|r| entry.reference == r))
            .is_none()
        {
            return Err(self.err(
                raw.table.span(),
                "curve.table",
                format!(
                    "no upper bound of the §1.3 tables for class {:?}, {}{}{}",
                    t.class,
                    t.privacy,
                    if t.agnostic { ", agnostic" } else { "" },
                    t.reference
                        .as_deref()
                        .map_or(String::new(), |r| format!(", reference {r:?}"))
                ),
            ));
        }
        let advanced_split = match &raw.split {
            None => false,
            Some(split) => match split.get_ref().as_str() {
                "best" => false,
                "advanced" if matches!(spec, MultiLearnerSpec::DirectSum(_)) => true,
                other => {
                    return Err(self.err(
                        split.span(),
                        "curve.split",
                        format!("{other:?}: \"best\", or \"advanced\" for a direct sum"),
                    ));
                }
            },
        };
        Ok(CurveDef {
            id: raw.id.get_ref().clone(),
            learner: learner.clone(),
            epsilon,
            delta,
            scenario,
            table: (t.class.clone(), privacy, t.agnostic, t.reference.clone()),
            advanced_split,
        })
    }

    fn k_level(
        &self,
        scale: Scale,
        raw: Option<&RawLevel>,
        top: &RawFile,
        curves: usize,
        max_units: (usize, std::ops::Range<usize>),
    ) -> Result<KLevel> {
        let missing = |key: &str| Error::BadExperimentFile {
            origin: self.origin.into(),
            line: 1,
            key: key.into(),
            message: format!("missing (give it at the top level or in [scale.{scale}])"),
        };
        let ks = raw
            .and_then(|r| r.k.as_ref())
            .or(top.k.as_ref())
            .ok_or_else(|| missing("k"))?;
        if ks.get_ref().is_empty() {
            return Err(self.err(ks.span(), "k", "empty list"));
        }
        if let Some(&k) = ks.get_ref().iter().find(|&&k| !(1..=MAX_K).contains(&k)) {
            return Err(self.err(ks.span(), "k", format!("{k} is not in 1..={MAX_K}")));
        }
        let trials = raw
            .and_then(|r| r.trials.as_ref())
            .or(top.trials.as_ref())
            .ok_or_else(|| missing("trials"))?;
        let trials = self.trials(trials)?;
        let (start, max_size) = self.search(
            raw.and_then(|r| r.search.as_ref()).or(top.search.as_ref()),
            16,
        )?;
        let units = ks.get_ref().len().saturating_mul(curves);
        self.within_max_units(units, &max_units, "the curves expand")?;
        Ok(KLevel {
            ks: ks.get_ref().clone(),
            trials,
            start,
            max_size,
        })
    }
}

impl KCurveSweep {
    /// Parses and checks the text of an experiment file of kind `k-curves`; `origin` (a
    /// path) names it in errors.
    ///
    /// # Errors
    /// [`Error::BadExperimentFile`], naming the key and the line: TOML syntax, unknown
    /// keys, wrong types, specs that do not parse, values out of range, a table cell with
    /// no upper bound, repeated curve ids, more units than `max_units`.
    pub fn parse(text: &str, origin: &str) -> Result<KCurveSweep> {
        KCurveSweep::parse_scales(text, origin, None)
    }

    /// As [`KCurveSweep::parse`] for a run at `scale`: the levels of the other scales may
    /// fail their checks (see [`crate::Sweep::parse_for`]).
    ///
    /// # Errors
    /// Those of [`KCurveSweep::parse`], for the shared keys and the level of `scale`
    /// (whose errors start "in the SCALE scale: ").
    pub fn parse_for(text: &str, origin: &str, scale: Scale) -> Result<KCurveSweep> {
        KCurveSweep::parse_scales(text, origin, Some(scale))
    }

    /// The scales whose levels failed their checks in [`KCurveSweep::parse_for`], with
    /// their errors.
    pub fn broken_scales(&self) -> Vec<(Scale, String)> {
        super::describe_broken(&self.broken)
    }

    /// Whether `scale` can run.
    ///
    /// # Errors
    /// The [`Error::BadExperimentFile`] of its level if [`KCurveSweep::parse_for`] left
    /// it broken.
    pub fn check_scale(&self, scale: Scale) -> Result<()> {
        super::check_broken(&self.broken, scale)
    }

    /// Parses, checking every level (`needed` = `None`) or only that of `needed`.
    fn parse_scales(text: &str, origin: &str, needed: Option<Scale>) -> Result<KCurveSweep> {
        let raw: RawFile = toml::from_str(text).map_err(|e| super::toml_error(text, origin, &e))?;
        let c = Checker { origin, text };
        if raw.kind.get_ref() != "k-curves" {
            return Err(c.err(
                raw.kind.span(),
                "kind",
                format!(
                    "{:?}: this parser reads kind = \"k-curves\"",
                    raw.kind.get_ref()
                ),
            ));
        }
        let name = super::check_name(&c, &raw.name)?;
        let (max_units, max_span) = c.max_units(raw.max_units.as_ref())?;
        for (key, value) in [("alpha", &raw.alpha), ("beta", &raw.beta)] {
            let v = *value.get_ref();
            if !(v > 0.0 && v < 1.0) {
                return Err(c.err(value.span(), key, format!("{v}: need 0 < {key} < 1")));
            }
        }
        if raw.curve.get_ref().is_empty() {
            return Err(c.err(raw.curve.span(), "curve", "no curves"));
        }
        let mut curves: Vec<CurveDef> = Vec::new();
        for curve in raw.curve.get_ref() {
            if curves.iter().any(|c| &c.id == curve.id.get_ref()) {
                return Err(c.err(
                    curve.id.span(),
                    "curve.id",
                    format!("{:?} is the id of an earlier curve", curve.id.get_ref()),
                ));
            }
            curves.push(c.curve(curve)?);
        }
        let scales = raw.scale.as_ref();
        let n = curves.len();
        let (levels, broken) = super::scale_levels(
            needed,
            |scale, level| {
                c.k_level(scale, level, &raw, n, (max_units, max_span.clone()))
                    .map_err(|e| super::in_scale(scale, e))
            },
            scales.map(|s| [s.tiny.as_ref(), s.quick.as_ref(), s.full.as_ref()]),
            || KLevel {
                ks: Vec::new(),
                trials: 0,
                start: 0,
                max_size: 0,
            },
        )?;
        Ok(KCurveSweep {
            summary: raw
                .summary
                .clone()
                .unwrap_or_else(|| format!("k-curves sweep {name}")),
            name,
            seed: raw.seed,
            max_units,
            alpha: *raw.alpha.get_ref(),
            beta: *raw.beta.get_ref(),
            curves,
            levels,
            broken,
        })
    }

    /// The level of a scale.
    pub fn level(&self, scale: Scale) -> &KLevel {
        match scale {
            Scale::Tiny => &self.levels[0],
            Scale::Quick => &self.levels[1],
            Scale::Full => &self.levels[2],
        }
    }

    /// The settings a unit's record states beside its parameters
    /// ([`crate::UnitRecord::params`]): `alpha`, `beta`, `trials`, `search.start`,
    /// `search.max_size`, and `curve_definition` (the curve's whole definition, as text).
    pub(crate) fn unit_settings(
        &self,
        scale: Scale,
        unit: &Map<String, Value>,
    ) -> Map<String, Value> {
        let level = self.level(scale);
        let mut params = Map::new();
        params.insert("alpha".into(), json!(self.alpha));
        params.insert("beta".into(), json!(self.beta));
        params.insert("trials".into(), json!(level.trials));
        params.insert("search.start".into(), json!(level.start));
        params.insert("search.max_size".into(), json!(level.max_size));
        let id = unit.get("curve").and_then(Value::as_str);
        if let Some(curve) = self.curves.iter().find(|c| Some(c.id.as_str()) == id) {
            params.insert("curve_definition".into(), json!(format!("{curve:?}")));
        }
        params
    }

    /// The unit rows of `scale`, in unit order: for each curve, each k.
    pub fn units(&self, scale: Scale) -> Vec<Map<String, Value>> {
        let mut units = Vec::new();
        for curve in &self.curves {
            for &k in &self.level(scale).ks {
                let mut unit = Map::new();
                unit.insert("curve".into(), json!(curve.id));
                unit.insert("learner".into(), json!(curve.learner));
                unit.insert("k".into(), json!(k));
                unit.insert("epsilon".into(), json!(curve.epsilon));
                unit.insert("delta".into(), json!(curve.delta));
                units.push(unit);
            }
        }
        units
    }
}

#[cfg(test)]
mod tests;
