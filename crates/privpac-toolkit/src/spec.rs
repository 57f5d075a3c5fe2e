//! Specs: what to build, as data. [`ClassSpec`], [`LearnerSpec`] and [`SanitizerSpec`] are
//! short strings (`thresholds:256`, `private-prediction`, `sanitizer:mwem`) with
//! [`FromStr`] and serde as the same string, so one syntax serves the command line and
//! configuration files; [`LearnerParams`] and [`SanitizerParams`] hold the tuning knobs.
//! [`build_learner`] and [`build_sanitizer`] turn them into runnable algorithms; every
//! front end builds through them instead of keeping its own copy.

use std::fmt;
use std::str::FromStr;

use privpac_accounting::Privacy;
use privpac_classes::{ClassMatrix, ConceptClass, parse_spec_with};
use privpac_learners::{
    DaganFeldmanPredictor, Erm, GenericLearner, ImproperPointLearner, InteriorPointLearner,
    Learner, PrivatePrediction, RelabelingPredictor, SanitizerLearner, StableLearner,
    VotingPredictor,
};
use privpac_sanitizers::{
    BlumLigettRoth, Mwem, PointSanitizer, PrivateMultiplicativeWeights, QuantileSanitizer,
    Sanitizer, ThresholdSanitizer,
};
use serde::{Deserialize, Serialize};

use privpac_engine::limits::{MAX_SAMPLE_SIZE, MAX_SANITIZER_ROUNDS, MAX_VOTERS, check_count};
use privpac_engine::{Error, Result};

/// A concept class named by a spec string (the syntax of `privpac_classes::parse_spec`:
/// `points:N`, `thresholds:N`, `intervals:N`, `parities:D`, `halfspaces:K`, `all:N`,
/// `matrix:PATH`, `xor(SPEC)`, `zero(SPEC)`, `not(SPEC)`, `both(SPEC)`). Parsing builds the class once to validate
/// it, which reads the file of a `matrix:PATH` spec; serde uses the string.
///
/// # Example
/// ```
/// let spec: privpac_toolkit::ClassSpec = "xor(thresholds:8)".parse()?;
/// assert_eq!(spec.build()?.len(), 64);
/// assert_eq!(serde_json::to_string(&spec)?, r#""xor(thresholds:8)""#);
/// assert!("triangles:3".parse::<privpac_toolkit::ClassSpec>().is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct ClassSpec {
    text: String,
}

impl ClassSpec {
    /// The spec string (trimmed).
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Builds the class; `matrix:PATH` reads and parses the file.
    ///
    /// # Errors
    /// [`Error::Class`] for a bad spec or matrix; [`Error::Io`] for an unreadable file.
    pub fn build(&self) -> Result<Box<dyn ConceptClass>> {
        build_class(&self.text)
    }
}

fn build_class(text: &str) -> Result<Box<dyn ConceptClass>> {
    let mut io_error = None;
    let built = parse_spec_with(text, &mut |path: &str| match crate::data::read_text(
        std::path::Path::new(path),
    ) {
        Ok(contents) => ClassMatrix::parse(&contents),
        Err(error) => {
            io_error = Some(error);
            Err(privpac_classes::Error::BadSpec {
                spec: format!("matrix:{path}"),
                reason: "the file cannot be read".to_string(),
            })
        }
    });
    match (built, io_error) {
        (_, Some(error)) => Err(error),
        (built, None) => Ok(built?),
    }
}

impl FromStr for ClassSpec {
    type Err = Error;

    fn from_str(text: &str) -> Result<Self> {
        let text = text.trim().to_string();
        build_class(&text)?;
        Ok(ClassSpec { text })
    }
}

impl TryFrom<String> for ClassSpec {
    type Error = Error;

    fn try_from(text: String) -> Result<Self> {
        text.parse()
    }
}

impl From<ClassSpec> for String {
    fn from(spec: ClassSpec) -> String {
        spec.text
    }
}

impl fmt::Display for ClassSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// A sanitizer: `point`, `blr`, `pmw`, `mwem`, `tree` or `treelog-quantiles`.
///
/// # Example
/// ```
/// use privpac_toolkit::SanitizerSpec;
/// assert_eq!("MWEM".parse::<SanitizerSpec>()?, SanitizerSpec::Mwem);
/// assert_eq!(SanitizerSpec::Tree.to_string(), "tree");
/// # Ok::<(), privpac_toolkit::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
#[non_exhaustive]
pub enum SanitizerSpec {
    /// Point functions: thresholded noisy histogram ((ε, δ), needs δ > 0).
    Point,
    /// Blum–Ligett–Roth: exponential mechanism over all small databases (tiny domains).
    Blr,
    /// Private multiplicative weights with sparse-vector query selection.
    Pmw,
    /// MWEM: exponential-mechanism selection, noisy measurement, multiplicative weights.
    Mwem,
    /// Binary-tree (hierarchical) mechanism for thresholds.
    Tree,
    /// Thresholds from ⌈1/α⌉ − 1 interior-point (TreeLog) calls on rank windows
    /// (approximate quantiles; (ε, δ), needs δ > 0; any ordered domain up to 2^64 points).
    TreelogQuantiles,
}

impl SanitizerSpec {
    /// Every sanitizer, in the order of the documentation.
    pub const ALL: [SanitizerSpec; 6] = [
        SanitizerSpec::Point,
        SanitizerSpec::Blr,
        SanitizerSpec::Pmw,
        SanitizerSpec::Mwem,
        SanitizerSpec::Tree,
        SanitizerSpec::TreelogQuantiles,
    ];

    /// The spec's name.
    pub fn name(self) -> &'static str {
        match self {
            SanitizerSpec::Point => "point",
            SanitizerSpec::Blr => "blr",
            SanitizerSpec::Pmw => "pmw",
            SanitizerSpec::Mwem => "mwem",
            SanitizerSpec::Tree => "tree",
            SanitizerSpec::TreelogQuantiles => "treelog-quantiles",
        }
    }
}

impl FromStr for SanitizerSpec {
    type Err = Error;

    fn from_str(text: &str) -> Result<Self> {
        let trimmed = text.trim();
        SanitizerSpec::ALL
            .into_iter()
            .find(|s| s.name().eq_ignore_ascii_case(trimmed))
            .ok_or_else(|| Error::UnknownSanitizer {
                name: trimmed.to_string(),
            })
    }
}

impl TryFrom<String> for SanitizerSpec {
    type Error = Error;

    fn try_from(text: String) -> Result<Self> {
        text.parse()
    }
}

impl From<SanitizerSpec> for String {
    fn from(spec: SanitizerSpec) -> String {
        spec.name().to_string()
    }
}

impl fmt::Display for SanitizerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A learner: `erm`, `generic`, `improper-point`, `interior-point`, `stable`, `private-prediction`, `voting`,
/// `relabeling`, `dagan-feldman`, or `sanitizer[:NAME]` (default MWEM). Any other name is [`Error::UnknownLearner`].
///
/// # Example
/// ```
/// use privpac_toolkit::{LearnerSpec, SanitizerSpec};
/// assert_eq!("sanitizer".parse::<LearnerSpec>()?, LearnerSpec::Sanitizer(SanitizerSpec::Mwem));
/// assert_eq!(LearnerSpec::PrivatePrediction.to_string(), "private-prediction");
/// assert!(matches!("magic".parse::<LearnerSpec>(), Err(privpac_toolkit::Error::UnknownLearner { .. })));
/// # Ok::<(), privpac_toolkit::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
#[non_exhaustive]
pub enum LearnerSpec {
    /// Empirical risk minimization (not private).
    Erm,
    /// The generic ε-DP learner (exponential mechanism over the class).
    Generic,
    /// The uniformly stable learner (random subset, cover, exponential mechanism). Not
    /// differentially private: it takes no ε, only its exponential mechanism's
    /// `em_epsilon`.
    Stable,
    /// Private prediction: the stable learner with randomized labels (ε is the
    /// per-prediction target).
    PrivatePrediction,
    /// Private prediction by subsample-and-aggregate (ε is the vote's, per prediction).
    Voting,
    /// Agnostic private prediction by relabeling (ε is the per-prediction target).
    Relabeling,
    /// Dagan–Feldman's Theorem 2 construction (relabel the whole sample, vote, flip; ε is
    /// the per-prediction target; needs the class size).
    DaganFeldman,
    /// The improper ε-DP point learner (a universal hash onto m buckets, then the
    /// exponential mechanism over the bucket indicators; sample size independent of |X|).
    ImproperPoint,
    /// The proper (ε, δ)-DP threshold learner through the interior point problem (TreeLog;
    /// Kaplan et al. 2020). The only basic learner that takes δ > 0 (and needs it).
    InteriorPoint,
    /// A sanitizer followed by private selection (ε split evenly between the two).
    Sanitizer(SanitizerSpec),
}

impl LearnerSpec {
    /// The learners without a sanitizer, in the order of the documentation.
    pub const BASIC: [LearnerSpec; 9] = [
        LearnerSpec::Erm,
        LearnerSpec::Generic,
        LearnerSpec::ImproperPoint,
        LearnerSpec::InteriorPoint,
        LearnerSpec::Stable,
        LearnerSpec::PrivatePrediction,
        LearnerSpec::Voting,
        LearnerSpec::Relabeling,
        LearnerSpec::DaganFeldman,
    ];

    /// Whether building the learner needs ε (every learner but ERM and the stable learner,
    /// which is not differentially private and takes `em_epsilon` instead).
    pub fn needs_epsilon(self) -> bool {
        !matches!(self, LearnerSpec::Erm | LearnerSpec::Stable)
    }

    /// Whether the learner's ε is a per-prediction guarantee (one query per trained model)
    /// rather than differential privacy of the whole output.
    pub fn is_prediction_learner(self) -> bool {
        matches!(
            self,
            LearnerSpec::PrivatePrediction
                | LearnerSpec::Voting
                | LearnerSpec::Relabeling
                | LearnerSpec::DaganFeldman
        )
    }

    /// Whether the learner's parameters depend on the sample size (a subsample of ⌈√n⌉ by
    /// default, or one sized to meet ε at n): such learners are rebuilt for each size.
    pub fn is_sized(self) -> bool {
        matches!(
            self,
            LearnerSpec::Stable
                | LearnerSpec::PrivatePrediction
                | LearnerSpec::Relabeling
                | LearnerSpec::DaganFeldman
        )
    }

    fn basic_name(self) -> Option<&'static str> {
        Some(match self {
            LearnerSpec::Erm => "erm",
            LearnerSpec::Generic => "generic",
            LearnerSpec::Stable => "stable",
            LearnerSpec::PrivatePrediction => "private-prediction",
            LearnerSpec::Voting => "voting",
            LearnerSpec::Relabeling => "relabeling",
            LearnerSpec::DaganFeldman => "dagan-feldman",
            LearnerSpec::ImproperPoint => "improper-point",
            LearnerSpec::InteriorPoint => "interior-point",
            LearnerSpec::Sanitizer(_) => return None,
        })
    }
}

impl FromStr for LearnerSpec {
    type Err = Error;

    fn from_str(text: &str) -> Result<Self> {
        let trimmed = text.trim();
        let lower = trimmed.to_ascii_lowercase();
        if let Some(rest) = lower.strip_prefix("sanitizer") {
            if rest.is_empty() {
                return Ok(LearnerSpec::Sanitizer(SanitizerSpec::Mwem));
            }
            if let Some(name) = rest.strip_prefix(':') {
                return Ok(LearnerSpec::Sanitizer(name.parse()?));
            }
        }
        LearnerSpec::BASIC
            .into_iter()
            .find(|spec| spec.basic_name() == Some(lower.as_str()))
            .ok_or_else(|| Error::UnknownLearner {
                name: trimmed.to_string(),
            })
    }
}

impl TryFrom<String> for LearnerSpec {
    type Error = Error;

    fn try_from(text: String) -> Result<Self> {
        text.parse()
    }
}

impl From<LearnerSpec> for String {
    fn from(spec: LearnerSpec) -> String {
        spec.to_string()
    }
}

impl fmt::Display for LearnerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.basic_name(), self) {
            (Some(name), _) => f.write_str(name),
            (None, LearnerSpec::Sanitizer(sanitizer)) => write!(f, "sanitizer:{sanitizer}"),
            (None, _) => Ok(()),
        }
    }
}

/// The tuning knobs of the sanitizers. Missing fields take their defaults in serde.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SanitizerParams {
    /// Target accuracy α of the point, PMW and TreeLog-quantile sanitizers (default 0.1).
    pub alpha: f64,
    /// Rounds T of MWEM (default 20; at most [`MAX_SANITIZER_ROUNDS`]).
    pub rounds: usize,
    /// Database size m of Blum–Ligett–Roth (default 4).
    pub database_size: usize,
}

impl Default for SanitizerParams {
    fn default() -> Self {
        SanitizerParams {
            alpha: 0.1,
            rounds: 20,
            database_size: 4,
        }
    }
}

/// The parameters learners are built from. Missing fields take their defaults in serde.
///
/// `epsilon` is always the guarantee the learner reports at most: the ε of differential
/// privacy for the DP learners, the per-prediction ε for the prediction learners
/// (`private-prediction`, `voting`, `relabeling`, `dagan-feldman`; their inner parameters
/// are solved for it). The stable learner is not private and takes no ε.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LearnerParams {
    /// The privacy target ε: the reported guarantee is at most ε (DP for the DP learners,
    /// per prediction for the prediction learners). Required by every learner but ERM and
    /// `stable`, refused by `stable`.
    pub epsilon: Option<f64>,
    /// The stable learners' exponential-mechanism parameter (an inner knob, not a
    /// guarantee): required by `stable`; optional for `private-prediction`, whose subset
    /// size is then solved for the target ε (by default it is solved too, see
    /// [`build_learner`]).
    pub em_epsilon: Option<f64>,
    /// Privacy parameter δ (the learners are pure, so only 0; the sanitizer learners pass
    /// it to their sanitizer).
    pub delta: f64,
    /// The stable learners' random subset size t (default ⌈√n⌉ for `stable`; for
    /// `private-prediction` solved for the target ε; at most [`MAX_SAMPLE_SIZE`]).
    pub subset_size: Option<usize>,
    /// Private prediction's and Dagan–Feldman's label flip probability η (default 0.05,
    /// [`default_flip_probability`] of the default α = 0.1).
    pub flip_probability: f64,
    /// Voting's and relabeling's number of voters k (default 7; at most [`MAX_VOTERS`]).
    pub voters: usize,
    /// Relabeling's vote ε₂ (default 1); the Dagan–Feldman learner's vote margin is
    /// `vote_epsilon · voters`.
    pub vote_epsilon: f64,
    /// The number of concepts of the class (required by the Dagan–Feldman learner, whose
    /// guarantee is computed for at most that many concepts).
    pub class_size: Option<u128>,
    /// The accuracy α the improper point learner is built for (default 0.1): with
    /// [`Self::beta`] it sets the number of hash buckets `m = ⌈16/(αβ)⌉`.
    pub alpha: f64,
    /// The failure probability β the improper point learner is built for (default 0.1).
    pub beta: f64,
    /// The improper point learner's number of hash buckets m, overriding `⌈16/(αβ)⌉`
    /// (at most 2^32).
    pub buckets: Option<u64>,
    /// The sanitizer's knobs (sanitizer learners).
    pub sanitizer: SanitizerParams,
}

impl Default for LearnerParams {
    fn default() -> Self {
        LearnerParams {
            epsilon: None,
            em_epsilon: None,
            delta: 0.0,
            subset_size: None,
            flip_probability: default_flip_probability(0.1),
            voters: 7,
            vote_epsilon: 1.0,
            class_size: None,
            alpha: 0.1,
            beta: 0.1,
            buckets: None,
            sanitizer: SanitizerParams::default(),
        }
    }
}

/// The label flip probability η that private prediction and the Dagan–Feldman learner use
/// when none is given: α/2 for the accuracy α asked for.
///
/// The final flip alone costs excess error η on every point (the predictor's error is
/// η + (1 − 2η)·err(h), Dwork and Feldman's randomized response on the prediction), so at
/// η ≥ α only hypotheses of error exactly 0 are α-accurate and the learner needs examples
/// in proportion to the domain (the flip's default was 0.1, equal to the lab's usual
/// α = 0.1, and left thresholds on 2^20 points out of reach of 2^24 examples). At η = α/2
/// half of α is left to the base hypothesis: err(h) ≤ (α − η)/(1 − 2η) = α/(2(1 − α)).
///
/// ```
/// assert_eq!(privpac_toolkit::default_flip_probability(0.1), 0.05);
/// ```
pub fn default_flip_probability(alpha: f64) -> f64 {
    alpha / 2.0
}

/// The flip η of `params` for the learners that flip (private prediction, Dagan–Feldman),
/// refused with the rule that produced it when it is outside (0, 1/2) and equal to the
/// default [`default_flip_probability`]`(α)`: the front ends (CLI, Python,
/// [`crate::SampleComplexityRequest::new`]) fill an absent flip with α/2, so at α ≥ 1 the
/// learner's own message ("got 0.5") would name a value the user never gave. Other values
/// are left to the learner's check.
///
/// # Errors
/// [`Error::InvalidParameter`] naming the default rule and what to pass.
fn check_default_flip(params: &LearnerParams) -> Result<f64> {
    let eta = params.flip_probability;
    if !(eta > 0.0 && eta < 0.5) && eta == default_flip_probability(params.alpha) {
        return Err(Error::InvalidParameter {
            name: "the flip probability η (none was given, so it defaulted to α/2, half the accuracy α)",
            requirement: "in (0, 1/2) (give one with --flip-probability in the CLI or flip_probability in Python, or take α below 1)",
            value: eta,
        });
    }
    Ok(eta)
}

/// Builds the learner `spec` with `params` for a sample of `examples` examples (the sized
/// learners use it: the stable learner's default subset ⌈√n⌉, the prediction learners'
/// parameters solved to meet ε at n).
///
/// The learner's reported guarantee at `examples` is at most the requested ε: DP learners
/// are built with it; `private-prediction` solves its subset size t and exponential
/// mechanism ε_EM so that its per-prediction ε, `ln(1 + (1 − 2η)β/η)` with stability
/// `β = t/n + (1 − t/n)·tanh(ε_EM/2)`, is at most ε (stability budget
/// `β* = (e^ε − 1)η/(1 − 2η)`; unless given, t takes about half of it and ε_EM the rest);
/// relabeling and Dagan–Feldman solve their subsample; voting's ε is its vote's.
///
/// # Errors
/// [`Error::MissingParameter`] without ε for a private learner (without `em_epsilon` for
/// `stable`); [`Error::NotApplicable`] for ε given to `stable` or `em_epsilon` to a learner
/// without an exponential mechanism of its own; [`Error::PureOnly`] for δ > 0 with a pure
/// learner; [`Error::TooLarge`] for counts above the [`privpac_engine::limits`];
/// `privpac_learners::Error::SampleTooSmall` (naming the smallest n that works) when a
/// per-prediction target cannot be met at `examples`; [`Error::TargetUnreachable`] when it
/// cannot be met at any n with the parameters given (naming the largest that works); the
/// learners' and sanitizers' own errors for out-of-range parameters.
///
/// # Example
/// ```
/// use privpac_toolkit::{LearnerParams, LearnerSpec, build_learner};
/// let params = LearnerParams { epsilon: Some(1.0), ..LearnerParams::default() };
/// let learner = build_learner(LearnerSpec::Generic, &params, 100)?;
/// assert!(learner.name().starts_with("generic"));
/// assert!(build_learner(LearnerSpec::Generic, &LearnerParams::default(), 100).is_err());
/// # Ok::<(), privpac_toolkit::Error>(())
/// ```
pub fn build_learner(
    spec: LearnerSpec,
    params: &LearnerParams,
    examples: usize,
) -> Result<Box<dyn Learner>> {
    if params.em_epsilon.is_some()
        && !matches!(spec, LearnerSpec::Stable | LearnerSpec::PrivatePrediction)
    {
        return Err(Error::NotApplicable {
            learner: spec.to_string(),
            name: "em_epsilon",
            reason: "only the stable learners (stable, private-prediction) have an inner exponential mechanism; give the privacy target as epsilon",
        });
    }
    if spec == LearnerSpec::Erm {
        // ERM is not private and ignores ε and δ, but a given value must still be one
        // (a hostile-input sweep found `--epsilon NaN --delta 2` accepted silently).
        match params.epsilon {
            Some(epsilon) => Privacy::new(epsilon, params.delta)?,
            None => Privacy::new(1.0, params.delta)?,
        };
        return Ok(Box::new(Erm::default()));
    }
    if spec == LearnerSpec::Stable {
        return build_stable(params, examples);
    }
    let epsilon = params.epsilon.ok_or_else(|| Error::MissingParameter {
        learner: spec.to_string(),
        name: "epsilon",
    })?;
    if let LearnerSpec::Sanitizer(sanitizer) = spec {
        // ε is split evenly: ε/2 (with δ) for the sanitizer, ε/2 for the selection. The
        // learner reports the two halves composed and rounded up (and a sanitizer may
        // report a few ulps above its budget): shrink both shares until the reported
        // guarantee is within the requested (ε, δ).
        let requested = Privacy::new(epsilon, params.delta)?;
        let (mut half, mut delta) = (epsilon / 2.0, params.delta);
        for _ in 0..64 {
            let built = build_sanitizer(sanitizer, Privacy::new(half, delta)?, &params.sanitizer)?;
            let learner = SanitizerLearner::new(built, Privacy::pure(half)?)?;
            let fits = learner.guarantee(examples).privacy().is_none_or(|p| {
                p.epsilon() <= requested.epsilon() && p.delta() <= requested.delta()
            });
            if fits {
                return Ok(Box::new(learner));
            }
            half *= 1.0 - 1e-12;
            delta *= 1.0 - 1e-12;
        }
        return Err(Error::BudgetDoesNotFit {
            learner: spec.to_string(),
        });
    }
    let privacy = Privacy::new(epsilon, params.delta)?;
    if spec == LearnerSpec::InteriorPoint {
        return Ok(Box::new(InteriorPointLearner::new(privacy, params.alpha)?));
    }
    if !privacy.is_pure() {
        return Err(Error::PureOnly {
            learner: spec.to_string(),
            delta: params.delta,
        });
    }
    check_count("voters", params.voters, MAX_VOTERS)?;
    Ok(match spec {
        LearnerSpec::Generic => Box::new(GenericLearner::new(privacy)?),
        LearnerSpec::ImproperPoint => Box::new(match params.buckets {
            Some(buckets) => ImproperPointLearner::new(privacy, buckets)?,
            None => ImproperPointLearner::for_accuracy(privacy, params.alpha, params.beta)?,
        }),
        LearnerSpec::PrivatePrediction => Box::new(private_prediction_for_target(
            epsilon,
            examples,
            params.em_epsilon,
            params.subset_size,
            check_default_flip(params)?,
        )?),
        LearnerSpec::Voting => Box::new(VotingPredictor::new(epsilon, params.voters)?),
        LearnerSpec::Relabeling => Box::new(RelabelingPredictor::with_prediction_epsilon(
            epsilon,
            examples,
            VotingPredictor::new(params.vote_epsilon, params.voters)?,
        )?),
        LearnerSpec::DaganFeldman => {
            let class_size = params.class_size.ok_or_else(|| Error::MissingParameter {
                learner: spec.to_string(),
                name: "class size",
            })?;
            Box::new(DaganFeldmanPredictor::with_prediction_epsilon(
                epsilon,
                examples,
                class_size,
                params.vote_epsilon * params.voters as f64,
                check_default_flip(params)?,
            )?)
        }
        LearnerSpec::Erm
        | LearnerSpec::Stable
        | LearnerSpec::InteriorPoint
        | LearnerSpec::Sanitizer(_) => Box::new(Erm::default()),
    })
}

/// The stable learner: not differentially private (its guarantee is uniform stability), so
/// it refuses ε and is built from `em_epsilon`, with t = `subset_size` or ⌈√n⌉.
fn build_stable(params: &LearnerParams, examples: usize) -> Result<Box<dyn Learner>> {
    let learner = LearnerSpec::Stable.to_string();
    if params.epsilon.is_some() {
        return Err(Error::NotApplicable {
            learner,
            name: "epsilon",
            reason: "its output is uniformly stable, not differentially private, so no ε can be guaranteed; give its exponential mechanism's parameter as em_epsilon (or use private-prediction for an ε per prediction)",
        });
    }
    let em_epsilon = params.em_epsilon.ok_or(Error::MissingParameter {
        learner,
        name: "em_epsilon (its exponential mechanism's ε; the learner is uniformly stable, not differentially private)",
    })?;
    if params.delta != 0.0 {
        return Err(Error::PureOnly {
            learner: LearnerSpec::Stable.to_string(),
            delta: params.delta,
        });
    }
    let subset_size = match params.subset_size {
        Some(size) => {
            check_count("subset size", size, MAX_SAMPLE_SIZE)?;
            size
        }
        None => (examples as f64).sqrt().ceil() as usize,
    };
    Ok(Box::new(StableLearner::new(em_epsilon, subset_size)?))
}

/// The largest exponential-mechanism ε a free `em_epsilon` is given (tanh(32) rounds to 1:
/// the stability is then all t/n and the mechanism is as sharp as a float allows).
const MAX_EM_EPSILON: f64 = 64.0;

/// Private prediction whose per-prediction ε at `n` examples is at most `target`: the
/// given `em_epsilon` and `subset_size` are kept, the others solved (see [`build_learner`]).
///
/// # Errors
/// `SampleTooSmall` with the smallest n that meets the target with the given parameters;
/// [`Error::TargetUnreachable`] if no n does (an `em_epsilon` whose stability alone exceeds
/// the budget: the error names the largest `em_epsilon` below which some n works); the
/// learners' parameter errors (η outside (0, 1/2), a bad ε).
fn private_prediction_for_target(
    target: f64,
    n: usize,
    em_epsilon: Option<f64>,
    subset_size: Option<usize>,
    flip_probability: f64,
) -> Result<PrivatePrediction> {
    // Validates ε, η, em_epsilon and t before any solving.
    Privacy::pure(target)?;
    PrivatePrediction::new(
        StableLearner::new(em_epsilon.unwrap_or(1.0), 1)?,
        flip_probability,
    )?;
    if let Some(size) = subset_size {
        check_count("subset size", size, MAX_SAMPLE_SIZE)?;
        if size == 0 {
            // StableLearner::new's error.
            StableLearner::new(1.0, 0)?;
        }
    }
    let eta = flip_probability;
    // The stability budget: ln(1 + (1 − 2η)β/η) ≤ ε ⇔ β ≤ (e^ε − 1)η/(1 − 2η).
    let budget = target.exp_m1() * eta / (1.0 - 2.0 * eta);
    if let Some(em) = em_epsilon
        && (em / 2.0).tanh() >= budget
    {
        return Err(Error::TargetUnreachable {
            learner: LearnerSpec::PrivatePrediction.to_string(),
            target,
            reason: format!(
                "em_epsilon = {em} alone gives stability tanh(em_epsilon/2) = {:.6} ≥ the budget (e^ε − 1)η/(1 − 2η) = {budget:.6} at η = {eta}; em_epsilon must be below {:.6} (or leave it out to have it solved)",
                (em / 2.0).tanh(),
                2.0 * budget.min(1.0).atanh()
            ),
        });
    }
    let solve =
        |n: usize| solve_private_prediction(target, n, budget, em_epsilon, subset_size, eta);
    if let Some(learner) = solve(n) {
        return Ok(learner);
    }
    // The smallest n that works: the guarantee improves with n, so double, then bisect.
    let mut high = n.max(1);
    loop {
        high = high.saturating_mul(2);
        if solve(high).is_some() {
            break;
        }
        if high >= MAX_SAMPLE_SIZE {
            return Err(Error::TargetUnreachable {
                learner: LearnerSpec::PrivatePrediction.to_string(),
                target,
                reason: format!(
                    "no sample size up to {MAX_SAMPLE_SIZE} meets it with these parameters (η = {eta})"
                ),
            });
        }
    }
    let mut low = n; // fails
    while high - low > 1 {
        let middle = low + (high - low) / 2;
        if solve(middle).is_some() {
            high = middle;
        } else {
            low = middle;
        }
    }
    Err(privpac_learners::Error::SampleTooSmall {
        needed: high,
        got: n,
    }
    .into())
}

/// One attempt of [`private_prediction_for_target`] at `n`: None if the target is missed.
fn solve_private_prediction(
    target: f64,
    n: usize,
    budget: f64,
    em_epsilon: Option<f64>,
    subset_size: Option<usize>,
    eta: f64,
) -> Option<PrivatePrediction> {
    if n == 0 {
        return None;
    }
    let nf = n as f64;
    // t: given, or about half the budget (the share a free ε_EM leaves it), at least 1 and
    // below n when n > 1.
    let mut t = match subset_size {
        Some(t) => t,
        None => {
            let share = em_epsilon
                .map_or(budget / 2.0, |em| (em / 2.0).tanh())
                .min(0.5);
            let t = (nf * (budget - share) / (1.0 - share)).floor();
            (if t.is_finite() && t >= 1.0 {
                t as usize
            } else {
                1
            })
            .min((n - 1).max(1))
        }
    };
    let em_for = |t: usize| -> Option<f64> {
        match em_epsilon {
            Some(em) => Some(em),
            None => {
                let fraction = t.min(n) as f64 / nf;
                if fraction >= 1.0 {
                    return Some(MAX_EM_EPSILON);
                }
                let tanh = (budget - fraction) / (1.0 - fraction);
                (tanh > 0.0).then(|| (2.0 * tanh.min(1.0).atanh()).min(MAX_EM_EPSILON))
            }
        }
    };
    let mut em = em_for(t)?;
    // Rounding in tanh, atanh and the learner's own ln: lower what is free until the
    // learner's reported guarantee fits.
    for _ in 0..200 {
        if em.is_nan() || em <= 0.0 {
            return None;
        }
        let learner = PrivatePrediction::new(StableLearner::new(em, t).ok()?, eta).ok()?;
        if learner.prediction_epsilon(n) <= target {
            return Some(learner);
        }
        if em_epsilon.is_none() {
            em = (em * (1.0 - 1e-9)).min(em.next_down());
        } else if subset_size.is_none() && t > 1 {
            t -= 1;
        } else {
            return None;
        }
    }
    None
}

/// Builds the sanitizer `spec` with guarantee `privacy` and `params`.
///
/// # Errors
/// [`Error::TooLarge`] for MWEM rounds above [`MAX_SANITIZER_ROUNDS`]; the sanitizers'
/// own errors (e.g. the point sanitizer needs δ > 0, BLR pure ε).
///
/// # Example
/// ```
/// use privpac_accounting::Privacy;
/// use privpac_toolkit::{SanitizerParams, SanitizerSpec, build_sanitizer};
/// let tree = build_sanitizer(SanitizerSpec::Tree, Privacy::pure(1.0)?, &SanitizerParams::default())?;
/// assert!(tree.name().contains("tree") || !tree.name().is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn build_sanitizer(
    spec: SanitizerSpec,
    privacy: Privacy,
    params: &SanitizerParams,
) -> Result<Box<dyn Sanitizer>> {
    Ok(match spec {
        SanitizerSpec::Point => Box::new(PointSanitizer::new(privacy, params.alpha)?),
        SanitizerSpec::Blr => Box::new(BlumLigettRoth::new(privacy, params.database_size)?),
        SanitizerSpec::Pmw => Box::new(PrivateMultiplicativeWeights::new(privacy, params.alpha)?),
        SanitizerSpec::Mwem => {
            check_count("MWEM rounds", params.rounds, MAX_SANITIZER_ROUNDS)?;
            Box::new(Mwem::new(privacy, params.rounds)?)
        }
        SanitizerSpec::Tree => Box::new(ThresholdSanitizer::new(privacy)?),
        SanitizerSpec::TreelogQuantiles => Box::new(QuantileSanitizer::new(privacy, params.alpha)?),
    })
}

#[cfg(test)]
mod tests;
