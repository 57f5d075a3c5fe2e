//! Experiment files: a sample-complexity sweep declared in TOML over the spec vocabulary of
//! `privpac learn` (class specs, learner specs, ε and α grids, β, label noise, trials,
//! search limits, figures), parsed into a typed [`Sweep`].
//!
//! A sweep is data: [`Sweep::units`] expands it into the same unit rows (`sweep`, `class`,
//! `learner`, `epsilon`, `alpha`) that the catalogue's `sample-complexity` experiment uses,
//! and each unit runs through the catalogue's own sample-complexity code with the sweep's
//! [`Settings`]. The catalogue's `sample-complexity` experiment is itself the shipped file
//! `experiments/sample-complexity.toml` of this crate, so the two take one path.
//!
//! δ (the `delta` key) applies to the (ε, δ) learners only (`interior-point`,
//! `sanitizer:point`), whose units carry it in their `delta` column; the pure learners of
//! the same file run at δ = 0 (module `learners`).
//!
//! Every record of a sweep's unit states the sweep's [`Settings`] beside the unit's
//! parameters ([`crate::UnitRecord::params`]), so an edited file's resume reruns the units
//! whose settings changed and its merge refuses them (see the crate's module `records`).
//!
//! Unknown keys and bad values are errors naming the key and the line; a grid expanding
//! into more than `max_units` units (at most [`MAX_UNITS`]) is refused at parse time,
//! before anything runs. An error in the level of one scale (its classes, trials, grid)
//! starts "in the SCALE scale: "; [`Sweep::parse`] checks every level, and
//! [`Sweep::parse_for`] only the level of the scale to run, keeping the others' errors
//! ([`Sweep::broken_scales`]) to refuse them if asked to run ([`Sweep::check_scale`]).

use serde::Deserialize;
use serde_json::{Map, Value, json};
use toml::Spanned;

use crate::{Error, Result, Scale};
use privpac_toolkit::{ClassSpec, LearnerSpec};

/// The largest `max_units` a file may state, and the largest grid it may declare.
pub const MAX_UNITS: usize = 100_000;
/// The unit limit of a file that states none.
pub const DEFAULT_MAX_UNITS: usize = 1000;
/// The largest trial count per sample size a file may ask for.
pub const MAX_TRIALS: usize = 100_000;
/// The largest sample size a search may try.
pub const MAX_SEARCH_SIZE: usize = 1 << 26;

/// Per-sweep settings of a sample-complexity unit (the same for every unit of a scale).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// Failure probability β: success means a fraction ≥ 1 − β of trials are α-accurate.
    pub beta: f64,
    /// Probability that a label is flipped (0: realizable).
    pub label_noise: f64,
    /// Trials per sample size.
    pub trials: usize,
    /// First sample size tried.
    pub start: usize,
    /// Largest sample size tried before the search gives up.
    pub max_size: usize,
}

impl Settings {
    /// The settings as the parameters a record states ([`crate::UnitRecord::params`]),
    /// under the keys of the file: `beta`, `label_noise`, `trials`, `search.start`,
    /// `search.max_size`.
    pub(crate) fn params(&self) -> Map<String, Value> {
        let mut params = Map::new();
        params.insert("beta".into(), json!(self.beta));
        params.insert("label_noise".into(), json!(self.label_noise));
        params.insert("trials".into(), json!(self.trials));
        params.insert("search.start".into(), json!(self.start));
        params.insert("search.max_size".into(), json!(self.max_size));
        params
    }
}

/// One grid block: every (ε, α) of the product of its lists, under the name `name` (the
/// `sweep` column of the rows; no such column when the block has no name).
#[derive(Debug, Clone, PartialEq)]
pub struct Grid {
    /// The `sweep` column.
    pub name: Option<String>,
    /// The ε values.
    pub epsilon: Vec<f64>,
    /// The α values.
    pub alpha: Vec<f64>,
}

/// What a sweep runs at one scale.
#[derive(Debug, Clone, PartialEq)]
pub struct Level {
    /// Class specs.
    pub classes: Vec<String>,
    /// For classes given as `domains`: log₂ of each class's domain size (the
    /// `log2_domain` column), in the order of `classes`.
    pub log2_domains: Option<Vec<u32>>,
    /// Trials per sample size.
    pub trials: usize,
    /// The grid blocks, in order.
    pub grid: Vec<Grid>,
}

/// A parsed, checked experiment file.
#[derive(Debug, Clone, PartialEq)]
pub struct Sweep {
    /// The experiment name (results files and output directory).
    pub name: String,
    /// One line saying what it measures.
    pub summary: String,
    /// The master seed when the command line gives none.
    pub seed: Option<u64>,
    /// The unit limit the file states.
    pub max_units: usize,
    /// Learner specs, as written.
    pub learners: Vec<String>,
    /// β.
    pub beta: f64,
    /// δ of the (ε, δ) learners (the `delta` key; 0 when absent): the units of a learner
    /// that takes δ state it in their `delta` column; the pure learners run at δ = 0.
    pub delta: f64,
    /// Per learner, the largest `log2` of the `domains` axis its units run at (the
    /// `max_log2_domain` key; a learner not named runs at every size).
    pub max_log2_domain: Vec<(String, u32)>,
    /// Label noise.
    pub label_noise: f64,
    /// First sample size searched.
    pub start: usize,
    /// Largest sample size searched.
    pub max_size: usize,
    /// Figures: `epsilon` or `alpha` (n against that parameter on the rows of the grid of
    /// that name) or `log2_domain` (n against log₂|X| for each learner).
    pub figures: Vec<String>,
    /// Unit order: classes outside learners (`false`) or learners outside classes.
    pub learners_outer: bool,
    /// A Zipf distribution `Pr[x] ∝ (x + 1)^(−exponent)` with a fixed target (the
    /// `zipf_exponent` and `target` columns); `None`: the default distribution of the class.
    pub zipf: Option<(f64, u64)>,
    /// Another distribution of examples (the `distribution` key; a Zipf one is `zipf`).
    pub distribution: Option<FileDistribution>,
    /// The tiny, quick and full levels (an empty level for a scale that failed its checks
    /// in [`Sweep::parse_for`], whose error `broken` keeps).
    levels: [Level; 3],
    /// The scales [`Sweep::parse_for`] did not need whose levels fail their checks, with
    /// the error (line, key, message): running them is refused with it.
    broken: Vec<Broken>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    kind: Option<Spanned<String>>,
    name: Spanned<String>,
    summary: Option<String>,
    seed: Option<u64>,
    max_units: Option<Spanned<usize>>,
    learners: Spanned<Vec<Spanned<String>>>,
    beta: Spanned<f64>,
    delta: Option<Spanned<f64>>,
    max_log2_domain: Option<Spanned<std::collections::BTreeMap<String, u32>>>,
    label_noise: Option<Spanned<f64>>,
    search: Option<Spanned<RawSearch>>,
    figures: Option<Vec<Spanned<String>>>,
    order: Option<Spanned<String>>,
    zipf: Option<RawZipf>,
    distribution: Option<Spanned<RawDistribution>>,
    classes: Option<Spanned<Vec<Spanned<String>>>>,
    domains: Option<Spanned<RawDomains>>,
    trials: Option<Spanned<usize>>,
    grid: Option<Spanned<Vec<RawGrid>>>,
    scale: Option<RawScales>,
}

/// A distribution of examples an experiment file chooses with its `distribution` key
/// (`kind = "zipf"` is stored as [`Sweep::zipf`], the columns of the `zipf` key).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum FileDistribution {
    /// Uniform over the domain (the `distribution = "uniform"` column), with the target
    /// concept `target` (the `target` column) or the middle one of the class.
    Uniform {
        /// The target concept id, if fixed.
        target: Option<u64>,
    },
    /// Mass `mass` on the target's first positive point, the rest uniform (the
    /// `distribution = "point"` and `point_mass` columns), with the target `target` or the
    /// middle one.
    PointMass {
        /// The heavy point's probability, in (0, 1].
        mass: f64,
        /// The target concept id, if fixed.
        target: Option<u64>,
    },
}

/// A Zipf distribution's exponent and fixed target, as [`Sweep::zipf`] holds them.
type Zipf = (f64, u64);

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDistribution {
    kind: Spanned<String>,
    exponent: Option<Spanned<f64>>,
    mass: Option<Spanned<f64>>,
    target: Option<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawZipf {
    exponent: Spanned<f64>,
    target: u64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDomains {
    family: String,
    log2: Vec<u32>,
}

#[derive(Deserialize, Clone, Copy)]
#[serde(deny_unknown_fields)]
struct RawSearch {
    start: usize,
    max_size: usize,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawGrid {
    name: Option<Spanned<String>>,
    epsilon: Spanned<Vec<f64>>,
    alpha: Spanned<Vec<f64>>,
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
    classes: Option<Spanned<Vec<Spanned<String>>>>,
    domains: Option<Spanned<RawDomains>>,
    trials: Option<Spanned<usize>>,
    grid: Option<Spanned<Vec<RawGrid>>>,
}

/// Line (from 1) of byte offset `at` of `text`.
fn line_of(text: &str, at: usize) -> usize {
    text.as_bytes()[..at.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// The [`Error::BadExperimentFile`] of a TOML or schema error.
fn toml_error(text: &str, origin: &str, e: &toml::de::Error) -> Error {
    let line = e.span().map_or(1, |s| line_of(text, s.start));
    let message = e.message().to_string();
    // toml names unknown keys in the message ("unknown field `x`, expected …").
    let key = message
        .split('`')
        .nth(1)
        .filter(|_| message.starts_with("unknown field"))
        .unwrap_or("")
        .to_string();
    Error::BadExperimentFile {
        origin: origin.into(),
        line,
        key,
        message,
    }
}

/// The experiment's name, checked: it names files.
fn check_name(c: &Checker<'_>, name: &Spanned<String>) -> Result<String> {
    let text = name.get_ref();
    if text.is_empty()
        || !text
            .chars()
            .all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '-' || ch == '_')
    {
        return Err(c.err(
            name.span(),
            "name",
            format!("{text:?}: use lowercase letters, digits, '-' and '_' (it names files)"),
        ));
    }
    Ok(text.clone())
}

struct Checker<'a> {
    origin: &'a str,
    text: &'a str,
}

impl Checker<'_> {
    fn err(&self, span: std::ops::Range<usize>, key: &str, message: impl Into<String>) -> Error {
        Error::BadExperimentFile {
            origin: self.origin.into(),
            line: line_of(self.text, span.start),
            key: key.into(),
            message: message.into(),
        }
    }

    /// A Zipf exponent (of the `zipf` or the `distribution` key): finite and above 1.
    fn zipf_exponent(&self, exponent: &Spanned<f64>, key: &str) -> Result<f64> {
        let value = *exponent.get_ref();
        if value.is_finite() && value > 1.0 {
            Ok(value)
        } else {
            Err(self.err(
                exponent.span(),
                key,
                format!("{value}: need a finite exponent above 1"),
            ))
        }
    }

    /// The `distribution` key: `kind` "uniform", "point" (with `mass` in (0, 1]) or "zipf"
    /// (with `exponent` above 1, as the `zipf` key; `target` defaults to 1 there), each
    /// with an optional `target`; as (zipf, other).
    fn distribution(
        &self,
        raw: &RawDistribution,
    ) -> Result<(Option<Zipf>, Option<FileDistribution>)> {
        let kind = raw.kind.get_ref().as_str();
        let refuse = |key: &str, span: std::ops::Range<usize>| {
            Err(self.err(
                span,
                &format!("distribution.{key}"),
                format!("not a parameter of the {kind:?} distribution"),
            ))
        };
        if kind != "zipf"
            && let Some(exponent) = &raw.exponent
        {
            return refuse("exponent", exponent.span());
        }
        if kind != "point"
            && let Some(mass) = &raw.mass
        {
            return refuse("mass", mass.span());
        }
        match kind {
            "uniform" => Ok((None, Some(FileDistribution::Uniform { target: raw.target }))),
            "point" => {
                let Some(mass) = &raw.mass else {
                    return Err(self.err(
                        raw.kind.span(),
                        "distribution.mass",
                        "the \"point\" distribution needs mass (the heavy point's probability)",
                    ));
                };
                let value = *mass.get_ref();
                if !(value > 0.0 && value <= 1.0) {
                    return Err(self.err(
                        mass.span(),
                        "distribution.mass",
                        format!("{value}: need a probability in (0, 1]"),
                    ));
                }
                Ok((
                    None,
                    Some(FileDistribution::PointMass {
                        mass: value,
                        target: raw.target,
                    }),
                ))
            }
            "zipf" => {
                let Some(exponent) = &raw.exponent else {
                    return Err(self.err(
                        raw.kind.span(),
                        "distribution.exponent",
                        "the \"zipf\" distribution needs exponent",
                    ));
                };
                let value = self.zipf_exponent(exponent, "distribution.exponent")?;
                Ok((Some((value, raw.target.unwrap_or(1))), None))
            }
            other => Err(self.err(
                raw.kind.span(),
                "distribution.kind",
                format!("{other:?}: \"uniform\", \"point\" or \"zipf\""),
            )),
        }
    }

    /// `max_units` with its span: at most [`MAX_UNITS`], [`DEFAULT_MAX_UNITS`] when absent.
    fn max_units(&self, raw: Option<&Spanned<usize>>) -> Result<(usize, std::ops::Range<usize>)> {
        let (max_units, span) = match raw {
            Some(m) => (*m.get_ref(), m.span()),
            None => (DEFAULT_MAX_UNITS, 0..0),
        };
        if max_units > MAX_UNITS {
            return Err(self.err(
                span,
                "max_units",
                format!("{max_units} is above the limit {MAX_UNITS}"),
            ));
        }
        Ok((max_units, span))
    }

    /// `trials`, in `1..=MAX_TRIALS`.
    fn trials(&self, trials: &Spanned<usize>) -> Result<usize> {
        if !(1..=MAX_TRIALS).contains(trials.get_ref()) {
            return Err(self.err(
                trials.span(),
                "trials",
                format!("{} is not in 1..={MAX_TRIALS}", trials.get_ref()),
            ));
        }
        Ok(*trials.get_ref())
    }

    /// The search's `(start, max_size)`: `1 ≤ start ≤ max_size ≤ MAX_SEARCH_SIZE`, or
    /// `(default_start, 2^22)` when absent.
    fn search(
        &self,
        search: Option<&Spanned<RawSearch>>,
        default_start: usize,
    ) -> Result<(usize, usize)> {
        let Some(s) = search else {
            return Ok((default_start, 1 << 22));
        };
        let RawSearch { start, max_size } = *s.get_ref();
        if start == 0 || start > max_size || max_size > MAX_SEARCH_SIZE {
            return Err(self.err(
                s.span(),
                "search",
                format!("start {start}, max_size {max_size}: need 1 ≤ start ≤ max_size ≤ {MAX_SEARCH_SIZE}"),
            ));
        }
        Ok((start, max_size))
    }

    /// Refuses `units` above `max_units` before anything runs; `what` says what expands
    /// ("the grid of scale quick expands").
    fn within_max_units(
        &self,
        units: usize,
        max_units: &(usize, std::ops::Range<usize>),
        what: &str,
    ) -> Result<()> {
        if units > max_units.0 {
            return Err(self.err(
                max_units.1.clone(),
                "max_units",
                format!(
                    "{what} into {units} units, more than max_units = {} (refused before running anything)",
                    max_units.0
                ),
            ));
        }
        Ok(())
    }

    /// The level of `scale`, checked; its errors start "in the SCALE scale: ".
    fn level(
        &self,
        scale: Scale,
        raw: Option<&RawLevel>,
        top: &RawFile,
        learners: usize,
        max_units: (usize, std::ops::Range<usize>),
    ) -> Result<Level> {
        self.level_unscoped(scale, raw, top, learners, max_units)
            .map_err(|e| in_scale(scale, e))
    }

    fn level_unscoped(
        &self,
        scale: Scale,
        raw: Option<&RawLevel>,
        top: &RawFile,
        learners: usize,
        max_units: (usize, std::ops::Range<usize>),
    ) -> Result<Level> {
        // The class axis: `classes` or `domains`, from the scale's table if it gives
        // either, else from the top level.
        let (classes, domains) = match raw {
            Some(r) if r.classes.is_some() || r.domains.is_some() => {
                (r.classes.as_ref(), r.domains.as_ref())
            }
            _ => (top.classes.as_ref(), top.domains.as_ref()),
        };
        let trials = raw.and_then(|r| r.trials.as_ref()).or(top.trials.as_ref());
        let grid = raw.and_then(|r| r.grid.as_ref()).or(top.grid.as_ref());
        let missing = |key: &str| Error::BadExperimentFile {
            origin: self.origin.into(),
            line: 1,
            key: key.into(),
            message: format!("missing (give it at the top level or in [scale.{scale}])"),
        };
        let (classes, log2_domains) = match (classes, domains) {
            (Some(_), Some(d)) => {
                return Err(self.err(d.span(), "domains", "give `classes` or `domains`, not both"));
            }
            (None, None) => return Err(missing("classes")),
            (Some(classes), None) => {
                if classes.get_ref().is_empty() {
                    return Err(self.err(classes.span(), "classes", "empty list"));
                }
                for class in classes.get_ref() {
                    class.get_ref().parse::<ClassSpec>().map_err(|e| {
                        self.err(
                            class.span(),
                            "classes",
                            format!("{:?} is not a class spec: {e}", class.get_ref()),
                        )
                    })?;
                }
                let specs = classes.get_ref().iter().map(|c| c.get_ref().clone());
                (specs.collect::<Vec<_>>(), None)
            }
            (None, Some(d)) => {
                let RawDomains { family, log2 } = d.get_ref();
                if log2.is_empty() {
                    return Err(self.err(d.span(), "domains", "empty `log2` list"));
                }
                let mut specs = Vec::new();
                for &k in log2 {
                    let spec = (1..=64)
                        .contains(&k)
                        .then(|| format!("{family}:{}", domain_size(k)))
                        .filter(|spec| spec.parse::<ClassSpec>().is_ok())
                        .ok_or_else(|| {
                            self.err(
                                d.span(),
                                "domains",
                                format!("{family:?} over 2^{k} points is not a class spec"),
                            )
                        })?;
                    specs.push(spec);
                }
                (specs, Some(log2.clone()))
            }
        };
        let trials = self.trials(trials.ok_or_else(|| missing("trials"))?)?;
        let grid = grid.ok_or_else(|| missing("grid"))?;
        if grid.get_ref().is_empty() {
            return Err(self.err(grid.span(), "grid", "empty list"));
        }
        let mut blocks = Vec::new();
        let mut per_class_learner: usize = 0;
        for block in grid.get_ref() {
            if let Some(name) = &block.name
                && !matches!(name.get_ref().as_str(), "epsilon" | "alpha")
            {
                return Err(self.err(
                    name.span(),
                    "grid.name",
                    format!("{:?}: a grid is named after the parameter it sweeps, \"epsilon\" or \"alpha\"", name.get_ref()),
                ));
            }
            for (key, list) in [
                ("grid.epsilon", &block.epsilon),
                ("grid.alpha", &block.alpha),
            ] {
                if list.get_ref().is_empty() {
                    return Err(self.err(list.span(), key, "empty list"));
                }
                for &v in list.get_ref() {
                    let ok = if key == "grid.epsilon" {
                        v.is_finite() && v > 0.0
                    } else {
                        v > 0.0 && v < 1.0
                    };
                    if !ok {
                        return Err(self.err(
                            list.span(),
                            key,
                            format!(
                                "{v} is out of range ({})",
                                if key == "grid.epsilon" {
                                    "ε > 0, finite"
                                } else {
                                    "0 < α < 1"
                                }
                            ),
                        ));
                    }
                }
            }
            per_class_learner = per_class_learner.saturating_add(
                block
                    .epsilon
                    .get_ref()
                    .len()
                    .saturating_mul(block.alpha.get_ref().len()),
            );
            blocks.push(Grid {
                name: block.name.as_ref().map(|n| n.get_ref().clone()),
                epsilon: block.epsilon.get_ref().clone(),
                alpha: block.alpha.get_ref().clone(),
            });
        }
        let units = per_class_learner
            .saturating_mul(classes.len())
            .saturating_mul(learners);
        self.within_max_units(units, &max_units, "the grid expands")?;
        Ok(Level {
            classes,
            log2_domains,
            trials,
            grid: blocks,
        })
    }
}

impl Sweep {
    /// Parses and checks an experiment file's text; `origin` (a path) names it in errors.
    ///
    /// # Errors
    /// [`Error::BadExperimentFile`], naming the key and the line: TOML syntax, unknown
    /// keys, wrong types, specs that do not parse, values out of range, a grid expanding
    /// into more than `max_units` units.
    pub fn parse(text: &str, origin: &str) -> Result<Sweep> {
        Sweep::parse_scales(text, origin, None)
    }

    /// Parses and checks an experiment file's text for a run at `scale`: as
    /// [`Sweep::parse`], but the levels of the other scales may fail their checks (a quick
    /// run of a file whose full level is broken runs). [`Sweep::broken_scales`] lists
    /// them, and [`Sweep::check_scale`] refuses them with their error.
    ///
    /// # Errors
    /// Those of [`Sweep::parse`], for the keys every scale shares and for the level of
    /// `scale` (whose errors start "in the SCALE scale: ").
    pub fn parse_for(text: &str, origin: &str, scale: Scale) -> Result<Sweep> {
        Sweep::parse_scales(text, origin, Some(scale))
    }

    /// The scales whose levels failed their checks in [`Sweep::parse_for`], each with
    /// its error message ("in the full scale: …", at line N, key K).
    pub fn broken_scales(&self) -> Vec<(Scale, String)> {
        describe_broken(&self.broken)
    }

    /// Whether `scale` can run.
    ///
    /// # Errors
    /// The [`Error::BadExperimentFile`] of its level when [`Sweep::parse_for`] parsed the
    /// file for another scale and this one's level fails its checks.
    pub fn check_scale(&self, scale: Scale) -> Result<()> {
        check_broken(&self.broken, scale)
    }

    /// Parses, checking every level (`needed` = `None`) or only that of `needed`.
    fn parse_scales(text: &str, origin: &str, needed: Option<Scale>) -> Result<Sweep> {
        let raw: RawFile = toml::from_str(text).map_err(|e| toml_error(text, origin, &e))?;
        let c = Checker { origin, text };
        if let Some(kind) = &raw.kind
            && kind.get_ref() != "sample-complexity"
        {
            return Err(c.err(
                kind.span(),
                "kind",
                format!(
                    "{:?}: an experiment file's kind is \"sample-complexity\" (the default) or \"k-curves\"",
                    kind.get_ref()
                ),
            ));
        }
        let name = &check_name(&c, &raw.name)?;
        let (max_units, max_span) = c.max_units(raw.max_units.as_ref())?;
        if raw.learners.get_ref().is_empty() {
            return Err(c.err(raw.learners.span(), "learners", "empty list"));
        }
        for learner in raw.learners.get_ref() {
            learner.get_ref().parse::<LearnerSpec>().map_err(|e| {
                c.err(
                    learner.span(),
                    "learners",
                    format!("{:?} is not a learner spec: {e}", learner.get_ref()),
                )
            })?;
        }
        let beta = *raw.beta.get_ref();
        if !(beta > 0.0 && beta < 1.0) {
            return Err(c.err(raw.beta.span(), "beta", format!("{beta}: need 0 < β < 1")));
        }
        let label_noise = raw.label_noise.as_ref().map_or(0.0, |n| *n.get_ref());
        if !(0.0..0.5).contains(&label_noise) {
            return Err(c.err(
                raw.label_noise.as_ref().map_or(0..0, Spanned::span),
                "label_noise",
                format!("{label_noise}: need 0 ≤ noise < 1/2"),
            ));
        }
        let (start, max_size) = c.search(raw.search.as_ref(), 4)?;
        let mut figures = Vec::new();
        for figure in raw.figures.iter().flatten() {
            let f = figure.get_ref();
            if !matches!(f.as_str(), "epsilon" | "alpha" | "log2_domain") {
                return Err(c.err(
                    figure.span(),
                    "figures",
                    format!("{f:?}: a figure is \"epsilon\", \"alpha\" (n against that grid's parameter) or \"log2_domain\""),
                ));
            }
            figures.push(f.clone());
        }
        let learners_outer = match &raw.order {
            None => false,
            Some(o) => match o.get_ref().as_str() {
                "class,learner" => false,
                "learner,class" => true,
                other => {
                    return Err(c.err(
                        o.span(),
                        "order",
                        format!("{other:?}: \"class,learner\" or \"learner,class\""),
                    ));
                }
            },
        };
        let zipf = match &raw.zipf {
            None => None,
            Some(z) => Some((c.zipf_exponent(&z.exponent, "zipf.exponent")?, z.target)),
        };
        let (zipf, distribution) = match (&raw.distribution, zipf) {
            (None, zipf) => (zipf, None),
            (Some(d), Some(_)) => {
                return Err(c.err(
                    d.span(),
                    "distribution",
                    "give either zipf or distribution, not both",
                ));
            }
            (Some(d), None) => c.distribution(d.get_ref())?,
        };
        let learners = raw.learners.get_ref().len();
        let scales = raw.scale.as_ref();
        let delta = c.delta(raw.delta.as_ref(), raw.learners.get_ref())?;
        let caps = c.max_log2_domain(raw.max_log2_domain.as_ref(), raw.learners.get_ref())?;
        // The refusals that concern no scale's classes (improper-point's are per level).
        c.learners_fit(raw.learners.get_ref(), &[], delta, false)?;
        let (levels, broken) = scale_levels(
            needed,
            |scale, level| {
                let level = c.level(scale, level, &raw, learners, (max_units, max_span.clone()))?;
                c.learners_fit(
                    raw.learners.get_ref(),
                    std::slice::from_ref(&level),
                    delta,
                    !caps.is_empty(),
                )
                .map_err(|e| in_scale(scale, e))?;
                Ok(level)
            },
            scales.map(|s| [s.tiny.as_ref(), s.quick.as_ref(), s.full.as_ref()]),
            || Level {
                classes: Vec::new(),
                log2_domains: None,
                trials: 0,
                grid: Vec::new(),
            },
        )?;
        Ok(Sweep {
            name: name.clone(),
            summary: raw
                .summary
                .clone()
                .unwrap_or_else(|| format!("sample-complexity sweep {name}")),
            seed: raw.seed,
            max_units,
            learners: raw
                .learners
                .get_ref()
                .iter()
                .map(|l| l.get_ref().clone())
                .collect(),
            beta,
            delta,
            max_log2_domain: caps,
            label_noise,
            start,
            max_size,
            figures,
            learners_outer,
            zipf,
            distribution,
            levels,
            broken,
        })
    }

    /// Reads and parses an experiment file (at most
    /// [`privpac_toolkit::limits::MAX_INPUT_BYTES`]).
    ///
    /// # Errors
    /// I/O errors, [`Error::ResultsTooLarge`], and those of [`Sweep::parse`].
    pub fn read(path: &std::path::Path) -> Result<Sweep> {
        let bytes = crate::read_results_bytes(path)?;
        let text = String::from_utf8(bytes).map_err(|_| Error::BadExperimentFile {
            origin: path.display().to_string(),
            line: 1,
            key: String::new(),
            message: "not UTF-8 text".into(),
        })?;
        Sweep::parse(&text, &path.display().to_string())
    }

    /// The level of a scale.
    pub fn level(&self, scale: Scale) -> &Level {
        match scale {
            Scale::Tiny => &self.levels[0],
            Scale::Quick => &self.levels[1],
            Scale::Full => &self.levels[2],
        }
    }

    /// The settings every unit of `scale` runs with.
    pub fn settings(&self, scale: Scale) -> Settings {
        Settings {
            beta: self.beta,
            label_noise: self.label_noise,
            trials: self.level(scale).trials,
            start: self.start,
            max_size: self.max_size,
        }
    }

    /// The unit rows of `scale`, in unit order: for each class, each learner, each grid
    /// block, each ε (only the block's first for ERM, which does not use ε), each α.
    pub fn units(&self, scale: Scale) -> Vec<Map<String, Value>> {
        let level = self.level(scale);
        let pairs: Vec<(usize, &String)> = if self.learners_outer {
            self.learners
                .iter()
                .flat_map(|l| (0..level.classes.len()).map(move |c| (c, l)))
                .collect()
        } else {
            (0..level.classes.len())
                .flat_map(|c| self.learners.iter().map(move |l| (c, l)))
                .collect()
        };
        let mut units = Vec::new();
        for (class, learner) in pairs {
            let log2_domain = level.log2_domains.as_ref().map(|d| d[class]);
            let cap = self.max_log2_domain.iter().find(|(l, _)| l == learner);
            if let (Some(k), Some((_, cap))) = (log2_domain, cap)
                && k > *cap
            {
                continue;
            }
            // ERM does not use ε: one ε per grid block (the first), not a sweep of copies.
            let uses_epsilon = uses_epsilon(learner);
            for block in &level.grid {
                let epsilons = if uses_epsilon {
                    &block.epsilon[..]
                } else {
                    &block.epsilon[..block.epsilon.len().min(1)]
                };
                for &epsilon in epsilons {
                    for &alpha in &block.alpha {
                        let mut unit = Map::new();
                        if let Some(name) = &block.name {
                            unit.insert("sweep".into(), json!(name));
                        }
                        unit.insert("class".into(), json!(level.classes[class]));
                        if let Some(k) = level.log2_domains.as_ref().map(|d| d[class]) {
                            unit.insert("log2_domain".into(), json!(k));
                        }
                        unit.insert("learner".into(), json!(learner));
                        unit.insert("epsilon".into(), json!(epsilon));
                        if self.delta > 0.0 && takes_delta(learner) {
                            unit.insert("delta".into(), json!(self.delta));
                        }
                        unit.insert("alpha".into(), json!(alpha));
                        if let Some((exponent, target)) = self.zipf {
                            unit.insert("zipf_exponent".into(), json!(exponent));
                            unit.insert("target".into(), json!(target));
                        }
                        let fixed = match self.distribution {
                            None => None,
                            Some(FileDistribution::Uniform { target }) => {
                                unit.insert("distribution".into(), json!("uniform"));
                                target
                            }
                            Some(FileDistribution::PointMass { mass, target }) => {
                                unit.insert("distribution".into(), json!("point"));
                                unit.insert("point_mass".into(), json!(mass));
                                target
                            }
                        };
                        if let Some(target) = fixed {
                            unit.insert("target".into(), json!(target));
                        }
                        units.push(unit);
                    }
                }
            }
        }
        units
    }
}

/// Whether the learner `spec` uses ε: every learner but ERM (the stable learner's ε is its
/// exponential mechanism's `em_epsilon`, a parameter it uses). A learner that does not is
/// run at one ε per grid block and not fitted against ε in the report.
pub(crate) fn uses_epsilon(spec: &str) -> bool {
    !matches!(spec.parse::<LearnerSpec>(), Ok(LearnerSpec::Erm))
}

mod k_curves;
mod learners;
mod levels;

pub(crate) use learners::{domain_size, takes_delta};

pub(crate) use levels::{Broken, check_broken, describe_broken, in_scale, scale_levels};

pub(crate) use k_curves::declared_kind;
pub use k_curves::{CurveDef, CurveScenario, KCurveSweep, KLevel, MAX_K};

#[cfg(test)]
mod tests;
