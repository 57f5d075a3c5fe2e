//! The fingerprinting lower bounds run as attacks (Bun–Nissim–Stemmer 2016, proofs of
//! Theorems 4.3 and 4.7, with the padding of Remarks 4.4 and 4.8): build a k-labeled
//! database from a coalition's codewords, run any [`MultiLearner`] on it, round the
//! hypotheses' empirical averages into a pirate codeword, and trace it. Over repeated
//! trials this measures how traceable a learner's output is, and the rates imply a lower
//! bound on the ε of the learner at that sample size.
//!
//! # The adversary A_FP (proof of Theorem 4.3, with the errata's reading)
//! For a codebook W of an (n, k)-code and points `x_1, …, x_n`, user i's row is
//! `(x_i, w_{i1}, …, w_{ik})`; a user outside the coalition T contributes a *junk* row
//! instead (here `(x_i, 0, …, 0)`, which carries nothing of `w_i`). The learner returns
//! `h_1, …, h_k`; the pirate word is `w′_j = round(a_j)` with
//! `a_j = h_j(D) = (1/n)·Σ_i h_j(x_i)` over `D = (x_1, …, x_n)` (`≥ 1/2` rounds to 1;
//! randomized hypotheses contribute their probability of 1, a post-processing).
//!
//! * Theorem 4.3 (realizable, [`CodeKind::BonehShaw`]): the Boneh–Shaw columns are
//!   thresholds of the points, so the `x_i` are n distinct points on which every column
//!   type is a concept of the class (checked; [`Error::IncompatibleCode`] otherwise).
//! * Theorem 4.7 (agnostic, [`CodeKind::Tardos`]): every row uses one point x on which two
//!   concepts disagree, so `a_j = h_j(x)`.
//! * Padding (Remarks 4.4 / 4.8, [`AttackConfig::with_padding`] at accuracy α ≤ 1/3):
//!   `⌈n/(3α)⌉ − n` junk rows `(x_0, 0, …, 0)` with every column's concept 0 at `x_0`;
//!   the average is then taken over the whole padded point list and rounded at `3α/2`
//!   (an α-accurate hypothesis averages at most α on a 0-marked column and at least 2α on
//!   a 1-marked one).
//!
//! # The two experiments
//! * **Completeness** (T = {1, …, n}): a trial is *traced* when the trace accuses someone (all
//!   are members), and *complete* when in addition the pirate word is feasible.
//! * **Innocence** (the proof's comparison, T = {1, …, n} \ {i*}): i* is drawn uniformly, i*'s
//!   row is replaced by its junk row, and the trial counts whether i* is accused.
//!   Both codes trace soundly for every pirate word (privpac's Boneh–Shaw variant adds the
//!   all-0 and all-1 column types for that; see [`crate::fingerprinting::BonehShaw`]), so
//!   ξ bounds [`AttackReport::innocent_accused`]; [`AttackReport::innocent_accused_feasible`]
//!   also reports the feasible-word subset. The ε bound below does not rely on soundness.
//!
//! # The implied ε
//! If the learner is (ε, δ)-DP then for every user i,
//! `P[Trace(A_FP(W)) = i] ≤ e^ε·P[Trace(A_FP(W_{−i})) = i] + δ` (the two databases are
//! neighbours). Averaging over a uniform i gives `traced/n ≤ e^ε·ρ + δ` with `traced` the
//! probability of any accusation in the first experiment and ρ the probability that the
//! uniformly drawn i* is accused in the second, i.e. `1 − ξ − β ≤ n(e^ε·ξ + δ)` with the
//! measured rates in place of the code's and the learner's worst cases. It is solved for ε
//! by [`crate::lower_bounds::epsilon_implied_by_tracing`] with **Clopper–Pearson bounds**,
//! never point estimates: the lower bound of `traced` and the upper bound of ρ, each
//! one-sided at level `(1 − confidence)/2`, so the reported bound is below the learner's
//! true ε (at its claimed δ) with probability at least `confidence`.

use privpac_accounting::Guarantee;
use privpac_classes::{ConceptClass, Domain, LabeledSample, Point};
use privpac_learners::{Erm, ErmMode, Learner, Predictor};
use privpac_multi::{MultiLabeledSample, MultiLearner};
use rand::{Rng, RngExt};

use crate::error::{Error, Result};
use crate::fingerprinting::{
    BonehShaw, Codebook, ColumnTypes, FingerprintingCode, MAX_CODEBOOK_BITS, Tardos, TardosSecret,
    fully_resistant_tardos_length,
};
use crate::lower_bounds::epsilon_implied_by_tracing;

/// Most trials per experiment an attack runs.
pub const MAX_ATTACK_TRIALS: usize = 1_000_000;

/// Most label cells (rows × k, padding included) of one attack database.
pub const MAX_ATTACK_CELLS: u128 = 1 << 28;

/// How many domain points are scanned for the points of the attack and the junk point.
const POINT_SCAN_LIMIT: u64 = 4096;

/// The fingerprinting code of an attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum CodeKind {
    /// Boneh–Shaw in the multiplicity form, compatible with thresholds (Theorem 4.3,
    /// Lemma 4.5), in privpac's variant that traces soundly for every pirate word:
    /// n + 1 column types with d = ⌊4n²·ln(2n/ξ)⌋ + 1 repetitions each
    /// ([`BonehShaw::for_security`]), length (n + 1)·d.
    BonehShaw,
    /// Tardos, fully collusion resistant (Theorem 4.7, Proposition 4.9); length
    /// 100c²·⌈ln(n/ξ)⌉ with c = max(n, 4) ([`Tardos::fully_collusion_resistant`]).
    Tardos,
}

impl CodeKind {
    /// The name on the command line (`boneh-shaw`, `tardos`).
    pub fn name(self) -> &'static str {
        match self {
            CodeKind::BonehShaw => "boneh-shaw",
            CodeKind::Tardos => "tardos",
        }
    }
}

/// The parameters of an attack.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct AttackConfig {
    /// The code.
    pub code: CodeKind,
    /// The number of users n (rows of the database before padding).
    pub users: usize,
    /// The number of label columns k the learner sees (at least the code's length; columns
    /// beyond it repeat the code's first columns and are not traced).
    pub k: usize,
    /// The code's security ξ.
    pub xi: f64,
    /// Remarks 4.4 / 4.8: pad for accuracy α (None: no padding).
    pub padding: Option<f64>,
    /// Trials of each experiment.
    pub trials: usize,
    /// The confidence of the ε lower bound.
    pub confidence: f64,
}

impl AttackConfig {
    /// An unpadded attack at confidence 0.95.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for n below the code's minimum (3 for Boneh–Shaw, 2 for
    /// Tardos), ξ outside (0, 1) or zero trials; [`Error::TooLarge`] above
    /// [`MAX_ATTACK_TRIALS`]; [`Error::CodeTooShort`] if k is below the code's length.
    pub fn new(code: CodeKind, users: usize, k: usize, xi: f64, trials: usize) -> Result<Self> {
        let config = AttackConfig {
            code,
            users,
            k,
            xi,
            padding: None,
            trials,
            confidence: 0.95,
        };
        config.validate()?;
        Ok(config)
    }

    /// The same attack padded for accuracy α ∈ (0, 1/3].
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for α outside (0, 1/3].
    pub fn with_padding(self, alpha: f64) -> Result<Self> {
        if !(alpha > 0.0 && alpha <= 1.0 / 3.0) {
            return Err(invalid("padding alpha", "in (0, 1/3]", alpha));
        }
        Ok(AttackConfig {
            padding: Some(alpha),
            ..self
        })
    }

    /// The same attack with another confidence in (0, 1).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] outside (0, 1).
    pub fn with_confidence(self, confidence: f64) -> Result<Self> {
        if !(confidence > 0.0 && confidence < 1.0) {
            return Err(invalid("confidence", "in (0, 1)", confidence));
        }
        Ok(AttackConfig { confidence, ..self })
    }

    /// The number of junk rows the padding adds: `⌈n/(3α)⌉ − n`.
    pub fn padding_rows(&self) -> usize {
        match self.padding {
            Some(alpha) => {
                ((self.users as f64 / (3.0 * alpha)).ceil() as usize).saturating_sub(self.users)
            }
            None => 0,
        }
    }

    /// The database size the learner sees (n plus padding).
    pub fn examples(&self) -> usize {
        self.users + self.padding_rows()
    }

    fn validate(&self) -> Result<()> {
        if let Some(alpha) = self.padding
            && !(alpha > 0.0 && alpha <= 1.0 / 3.0)
        {
            return Err(invalid("padding alpha", "in (0, 1/3]", alpha));
        }
        if !(self.confidence > 0.0 && self.confidence < 1.0) {
            return Err(invalid("confidence", "in (0, 1)", self.confidence));
        }
        if !(self.xi > 0.0 && self.xi < 1.0) {
            return Err(invalid("xi", "in (0, 1)", self.xi));
        }
        if self.trials == 0 {
            return Err(invalid("trials", "at least 1", 0.0));
        }
        if self.trials > MAX_ATTACK_TRIALS {
            return Err(Error::TooLarge {
                name: "trials",
                value: self.trials as u128,
                limit: MAX_ATTACK_TRIALS as u128,
            });
        }
        BuiltCode::new(self.code, self.users, self.k, self.xi)?;
        let cells = self.k as u128 * self.examples() as u128;
        if cells > MAX_ATTACK_CELLS {
            return Err(Error::TooLarge {
                name: "database cells (rows × k)",
                value: cells,
                limit: MAX_ATTACK_CELLS,
            });
        }
        Ok(())
    }
}

fn invalid(name: &'static str, requirement: &'static str, value: f64) -> Error {
    Error::InvalidParameter {
        name,
        requirement,
        value,
    }
}

/// The code instance of an attack.
#[derive(Debug, Clone, Copy)]
enum BuiltCode {
    BonehShaw(BonehShaw),
    Tardos(Tardos),
}

/// The codebook size in bits (n × length, as a real number) of the code an attack on
/// `users` users at security ξ builds.
fn codebook_bits(code: CodeKind, users: f64, xi: f64) -> f64 {
    let length = match code {
        CodeKind::BonehShaw => {
            (users + 1.0) * ((4.0 * users * users * (2.0 * users / xi).ln()).floor() + 1.0)
        }
        CodeKind::Tardos => fully_resistant_tardos_length(users, xi),
    };
    users * length
}

/// The most users an attack at security ξ can have: the largest n whose codebook fits
/// [`MAX_CODEBOOK_BITS`] (the sizes grow with n).
pub fn max_attack_users(code: CodeKind, xi: f64) -> usize {
    let fits = |n: usize| codebook_bits(code, n as f64, xi) <= MAX_CODEBOOK_BITS as f64;
    let (mut low, mut high) = (1usize, 2usize);
    while fits(high) {
        low = high;
        high *= 2;
    }
    while high - low > 1 {
        let mid = low + (high - low) / 2;
        if fits(mid) {
            low = mid;
        } else {
            high = mid;
        }
    }
    low
}

/// A drawn codebook's secret.
enum Secret {
    BonehShaw(ColumnTypes),
    Tardos(TardosSecret),
}

impl BuiltCode {
    /// Checks n and k: Boneh–Shaw uses `d = ⌊k/(n+1)⌋` repetitions, at least
    /// [`BonehShaw::for_security`]'s; Tardos its fully collusion-resistant length.
    fn new(code: CodeKind, users: usize, k: usize, xi: f64) -> Result<Self> {
        let min_users = match code {
            CodeKind::BonehShaw => 3,
            CodeKind::Tardos => 2,
        };
        if users < min_users {
            return Err(Error::InvalidParameter {
                name: "n (users)",
                requirement: match code {
                    CodeKind::BonehShaw => "at least 3 for the Boneh-Shaw attack",
                    CodeKind::Tardos => "at least 2 for the Tardos attack",
                },
                value: users as f64,
            });
        }
        if !(xi > 0.0 && xi < 1.0) {
            return Err(invalid("xi", "in (0, 1)", xi));
        }
        let max_users = max_attack_users(code, xi);
        if users > max_users {
            return Err(Error::TooManyUsers {
                code: code.name(),
                users,
                xi,
                max_users,
                limit: MAX_CODEBOOK_BITS,
            });
        }
        match code {
            CodeKind::BonehShaw => {
                let needed = BonehShaw::for_security(users, xi)?;
                let d = k / (users + 1);
                if d < needed.repetitions() {
                    return Err(Error::CodeTooShort {
                        code: code.name(),
                        users,
                        xi,
                        needed: needed.repetitions() as u128 * (users as u128 + 1),
                        k,
                    });
                }
                Ok(BuiltCode::BonehShaw(BonehShaw::new(users, d, xi)?))
            }
            CodeKind::Tardos => {
                let tardos = Tardos::fully_collusion_resistant(users, xi)?;
                if tardos.length() > k {
                    return Err(Error::CodeTooShort {
                        code: code.name(),
                        users,
                        xi,
                        needed: tardos.length() as u128,
                        k,
                    });
                }
                Ok(BuiltCode::Tardos(tardos))
            }
        }
    }

    fn length(&self) -> usize {
        match self {
            BuiltCode::BonehShaw(c) => c.length(),
            BuiltCode::Tardos(c) => c.length(),
        }
    }

    fn security(&self) -> f64 {
        match self {
            BuiltCode::BonehShaw(c) => c.security(),
            BuiltCode::Tardos(c) => c.security(),
        }
    }

    fn generate(&self, rng: &mut dyn Rng) -> (Codebook, Secret) {
        match self {
            BuiltCode::BonehShaw(c) => {
                let (book, secret) = c.generate(rng);
                (book, Secret::BonehShaw(secret))
            }
            BuiltCode::Tardos(c) => {
                let (book, secret) = c.generate(rng);
                (book, Secret::Tardos(secret))
            }
        }
    }

    fn trace(&self, secret: &Secret, word: &[bool]) -> Result<Option<usize>> {
        match (self, secret) {
            (BuiltCode::BonehShaw(c), Secret::BonehShaw(s)) => c.trace(s, word),
            (BuiltCode::Tardos(c), Secret::Tardos(s)) => c.trace(s, word),
            _ => Err(Error::CodeMismatch {
                what: "secret",
                reason: "it belongs to another code".into(),
            }),
        }
    }
}

/// Where the rows of the attack database live.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Layout {
    /// `x_1, …, x_n`.
    points: Vec<Point>,
    /// The padding point `x_0` (with padding only).
    junk: Option<Point>,
}

/// Whether some concept of `class` labels `pairs` without a mistake.
fn realizable(class: &dyn ConceptClass, pairs: &[(Point, bool)]) -> Result<bool> {
    let sample = LabeledSample::from_pairs(class.domain(), pairs)?;
    Ok(class.error_runs(&sample)?.iter().any(|run| run.errors == 0))
}

/// The domain's points by index, at most [`POINT_SCAN_LIMIT`] of them.
fn scan(domain: &Domain, reverse: bool) -> Vec<Point> {
    let size = domain.size().min(u128::from(POINT_SCAN_LIMIT)) as u64;
    let total = domain.size();
    (0..size)
        .filter_map(|i| {
            let index = if reverse {
                u64::try_from(total - 1 - u128::from(i)).ok()?
            } else {
                i
            };
            domain.point_at(index)
        })
        .collect()
}

/// The Boneh–Shaw column of type t on n points: users `0..t` have bit 1.
fn threshold_column(points: &[Point], t: usize, junk: Option<Point>) -> Vec<(Point, bool)> {
    let mut pairs: Vec<(Point, bool)> = points
        .iter()
        .enumerate()
        .map(|(i, &x)| (x, i < t))
        .collect();
    if let Some(x0) = junk {
        pairs.push((x0, false));
    }
    pairs
}

fn layout(class: &dyn ConceptClass, code: CodeKind, users: usize, padded: bool) -> Result<Layout> {
    let incompatible = |reason| Error::IncompatibleCode {
        code: code.name(),
        class: class.name(),
        reason,
    };
    let domain = class.domain();
    match code {
        CodeKind::BonehShaw => {
            if domain.size() < users as u128 {
                return Err(incompatible("the domain has fewer points than users"));
            }
            // Every column type 0..=n is a concept on the points (and 0 at the junk point).
            let columns_ok = |points: &[Point], junk: Option<Point>| -> Result<bool> {
                for t in 0..=users {
                    if !realizable(class, &threshold_column(points, t, junk))? {
                        return Ok(false);
                    }
                }
                Ok(true)
            };
            // Candidates: n consecutive points from either end, skipping up to one point
            // (a threshold class may need a point outside the window for the all-0 or the
            // all-1 column, or for the junk row), in either order.
            let forward = scan(domain, false);
            let backward = scan(domain, true);
            let mut candidates: Vec<Vec<Point>> = Vec::new();
            for skip in [0, 1] {
                if let Some(window) = forward.get(skip..skip + users) {
                    candidates.push(window.to_vec());
                    candidates.push(window.iter().rev().copied().collect());
                }
                if let Some(window) = backward.get(skip..skip + users) {
                    candidates.push(window.iter().rev().copied().collect());
                    candidates.push(window.to_vec());
                }
            }
            for points in candidates {
                if !columns_ok(&points, None)? {
                    continue;
                }
                if !padded {
                    return Ok(Layout { points, junk: None });
                }
                for &x0 in &backward {
                    if !points.contains(&x0) && columns_ok(&points, Some(x0))? {
                        return Ok(Layout {
                            points,
                            junk: Some(x0),
                        });
                    }
                }
            }
            Err(incompatible(if padded {
                "no window of n points at either end of the domain carries every column type as a concept with a padding point x0 at which every column's concept is 0"
            } else {
                "the column types are not concepts on any window of n points at either end of the domain"
            }))
        }
        CodeKind::Tardos => {
            let mut found = None;
            for x in scan(domain, false) {
                if realizable(class, &[(x, false)])? && realizable(class, &[(x, true)])? {
                    found = Some(x);
                    break;
                }
            }
            let x = found.ok_or_else(|| incompatible("no point on which two concepts disagree"))?;
            let junk = if padded {
                let mut found = None;
                for x0 in scan(domain, true) {
                    if x0 != x
                        && realizable(class, &[(x, false), (x0, false)])?
                        && realizable(class, &[(x, true), (x0, false)])?
                    {
                        found = Some(x0);
                        break;
                    }
                }
                Some(found.ok_or_else(|| {
                    incompatible("no padding point x0 at which both concepts are 0")
                })?)
            } else {
                None
            };
            Ok(Layout {
                points: vec![x; users],
                junk,
            })
        }
    }
}

/// The counts and bounds of one attack.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct AttackReport {
    /// The code.
    pub code: CodeKind,
    /// Users n.
    pub users: usize,
    /// Label columns the learner saw.
    pub k: usize,
    /// The code's length (the traced columns).
    pub code_length: usize,
    /// The code's security ξ.
    pub xi: f64,
    /// Junk rows of the padding.
    pub padding_rows: usize,
    /// The database size the learner saw.
    pub examples: usize,
    /// Trials per experiment.
    pub trials: usize,
    /// Full coalition: trials whose pirate word was feasible.
    pub feasible: usize,
    /// Full coalition: trials in which somebody was accused.
    pub traced: usize,
    /// Full coalition: trials with a feasible word and an accusation (completeness).
    pub complete: usize,
    /// Innocence experiment: trials in which the replaced user i* was accused.
    pub innocent_accused: usize,
    /// Innocence experiment: trials in which i* was accused and the pirate word was
    /// feasible for the coalition `[n] \ {i*}` (both codes are sound for every word, so
    /// `innocent_accused` is what ξ bounds; this is its feasible-word part).
    pub innocent_accused_feasible: usize,
    /// Innocence experiment: trials in which a coalition member was accused.
    pub member_accused: usize,
    /// The learner's guarantee for the database it saw.
    pub guarantee: Guarantee,
    /// The δ at which ε is bounded (the learner's claimed δ, else 0).
    pub delta: f64,
    /// The confidence of the bounds.
    pub confidence: f64,
    /// Clopper–Pearson lower bound on the probability of an accusation (full coalition).
    pub traced_lower: f64,
    /// Clopper–Pearson upper bound on the probability that i* is accused (innocence).
    pub innocent_upper: f64,
    /// The certified lower bound on the learner's ε at `delta`, at least 0 (None: the
    /// rates imply nothing, `traced_lower/n ≤ δ`).
    pub epsilon_lower_bound: Option<f64>,
}

impl AttackReport {
    /// The completeness rate (feasible and traced) over the trials.
    pub fn completeness(&self) -> f64 {
        self.complete as f64 / self.trials as f64
    }

    /// The rate at which the innocent user i* was accused.
    pub fn innocent_rate(&self) -> f64 {
        self.innocent_accused as f64 / self.trials as f64
    }

    /// Whether the certified bound exceeds the ε of the learner's differential-privacy
    /// claim (false without such a claim).
    pub fn refutes_claim(&self) -> bool {
        match (self.epsilon_lower_bound, self.guarantee) {
            (Some(bound), Guarantee::DifferentialPrivacy(p)) => bound > p.epsilon(),
            _ => false,
        }
    }
}

/// Runs the attack: `config.trials` trials of each experiment against `learner` on
/// `class`.
///
/// # Errors
/// The configuration's errors (re-checked); [`Error::IncompatibleCode`] if the class has no
/// points for the code (or the padding); [`Error::HypothesisCount`] if the learner returns
/// the wrong number of hypotheses; the learner's own errors.
pub fn run_attack(
    learner: &dyn MultiLearner,
    class: &dyn ConceptClass,
    config: &AttackConfig,
    rng: &mut dyn Rng,
) -> Result<AttackReport> {
    config.validate()?;
    let code = BuiltCode::new(config.code, config.users, config.k, config.xi)?;
    let layout = layout(class, config.code, config.users, config.padding.is_some())?;
    let n = config.users;
    let length = code.length();
    let pad = config.padding_rows();
    let mut report = AttackReport {
        code: config.code,
        users: n,
        k: config.k,
        code_length: length,
        xi: code.security(),
        padding_rows: pad,
        examples: config.examples(),
        trials: config.trials,
        feasible: 0,
        traced: 0,
        complete: 0,
        innocent_accused: 0,
        innocent_accused_feasible: 0,
        member_accused: 0,
        guarantee: learner.guarantee(config.examples(), config.k),
        delta: 0.0,
        confidence: config.confidence,
        traced_lower: 0.0,
        innocent_upper: 1.0,
        epsilon_lower_bound: None,
    };
    let everyone: Vec<usize> = (0..n).collect();
    for _ in 0..config.trials {
        let (codebook, secret) = code.generate(rng);
        let word = pirate_word(learner, class, config, &layout, &codebook, None, rng)?;
        let accused = code.trace(&secret, &word)?;
        let feasible = codebook.is_feasible(&everyone, &word)?;
        report.feasible += usize::from(feasible);
        report.traced += usize::from(accused.is_some());
        report.complete += usize::from(feasible && accused.is_some());
    }
    for _ in 0..config.trials {
        let (codebook, secret) = code.generate(rng);
        let innocent = rng.random_range(0..n);
        let word = pirate_word(
            learner,
            class,
            config,
            &layout,
            &codebook,
            Some(innocent),
            rng,
        )?;
        match code.trace(&secret, &word)? {
            Some(user) if user == innocent => {
                report.innocent_accused += 1;
                let coalition: Vec<usize> = (0..n).filter(|&i| i != innocent).collect();
                if codebook.is_feasible(&coalition, &word)? {
                    report.innocent_accused_feasible += 1;
                }
            }
            Some(_) => report.member_accused += 1,
            None => {}
        }
    }
    if let Guarantee::DifferentialPrivacy(privacy) = report.guarantee {
        report.delta = privacy.delta();
    }
    let trials = config.trials as u64;
    let (traced_lower, _) =
        privpac_audit::clopper_pearson(report.traced as u64, trials, config.confidence)?;
    let (_, innocent_upper) =
        privpac_audit::clopper_pearson(report.innocent_accused as u64, trials, config.confidence)?;
    report.traced_lower = traced_lower;
    report.innocent_upper = innocent_upper;
    report.epsilon_lower_bound =
        epsilon_implied_by_tracing(n, traced_lower, innocent_upper, report.delta)?
            .map(|e| e.max(0.0));
    Ok(report)
}

/// A_FP: the database from the codebook (row `without` replaced by its junk row), the
/// learner, and the rounded averages over the code's columns.
fn pirate_word(
    learner: &dyn MultiLearner,
    class: &dyn ConceptClass,
    config: &AttackConfig,
    layout: &Layout,
    codebook: &Codebook,
    without: Option<usize>,
    rng: &mut dyn Rng,
) -> Result<Vec<bool>> {
    let length = codebook.length();
    let k = config.k;
    let pad = config.padding_rows();
    let mut points = layout.points.clone();
    let mut rows: Vec<Vec<bool>> = Vec::with_capacity(points.len() + pad);
    for user in 0..config.users {
        let row = match (codebook.row(user), without) {
            (Some(word), w) if w != Some(user) => (0..k).map(|j| word[j % length]).collect(),
            _ => vec![false; k],
        };
        rows.push(row);
    }
    if let Some(x0) = layout.junk {
        for _ in 0..pad {
            points.push(x0);
            rows.push(vec![false; k]);
        }
    }
    let sample = MultiLabeledSample::from_rows(class.domain(), points, &rows)?;
    let hypotheses = learner.learn(class, &sample, rng)?;
    if hypotheses.len() != k {
        return Err(Error::HypothesisCount {
            expected: k,
            found: hypotheses.len(),
        });
    }
    let n = config.users as f64;
    Ok(hypotheses[..length]
        .iter()
        .map(|h| {
            let on_data: f64 = layout
                .points
                .iter()
                .map(|&x| h.probability_of_one(class, x))
                .sum();
            match (config.padding, layout.junk) {
                (Some(alpha), Some(x0)) => {
                    let total = on_data + pad as f64 * h.probability_of_one(class, x0);
                    total / (n + pad as f64) >= 1.5 * alpha
                }
                _ => on_data / n >= 0.5,
            }
        })
        .collect())
}

/// Per-column agnostic empirical risk minimization: `privpac_learners::Erm` (agnostic mode) on
/// every label column. **Not private** ([`Guarantee::None`]): the target the attack's
/// completeness is measured against.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ColumnErm;

impl MultiLearner for ColumnErm {
    fn learn(
        &self,
        class: &dyn ConceptClass,
        sample: &MultiLabeledSample,
        rng: &mut dyn Rng,
    ) -> privpac_multi::Result<Vec<Predictor>> {
        let erm = Erm {
            mode: ErmMode::Agnostic,
        };
        (0..sample.k())
            .map(|j| Ok(erm.learn(class, &sample.column(j)?, rng)?))
            .collect()
    }

    fn guarantee(&self, _examples: usize, _k: usize) -> Guarantee {
        Guarantee::None
    }

    fn name(&self) -> String {
        "erm".into()
    }
}

#[cfg(test)]
mod tests {
    use privpac_accounting::Privacy;
    use privpac_classes::{Domain, Hypothesis, Parities, Points, Thresholds};
    use privpac_learners::GenericLearner;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use privpac_multi::{DirectSum, ParityLearner, PointLearner};

    fn thresholds(size: u64) -> Thresholds {
        Thresholds::new(size).unwrap()
    }

    /// Boneh–Shaw at n = 5, ξ = 0.1 needs d = ⌊4·25·ln 100⌋ + 1 = 461 repetitions of each
    /// of its 6 column types, k = 2766.
    const BS_K: usize = 2766;

    /// Non-private per-column ERM on thresholds: the code's security predicts completeness
    /// ≥ 1 − ξ = 0.9 (ERM is exact, so every word is feasible); with 100 trials, observing
    /// fewer than 80 complete trials at a true rate ≥ 0.9 has probability < 10⁻³ (binomial
    /// tail), and so has observing more than 20 innocent accusations at a rate ≤ ξ.
    #[test]
    fn erm_on_thresholds_is_traced_at_the_rate_the_code_predicts() {
        let class = thresholds(8);
        let config = AttackConfig::new(CodeKind::BonehShaw, 5, BS_K, 0.1, 100).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let report = run_attack(&ColumnErm, &class, &config, &mut rng).unwrap();
        assert_eq!(report.code_length, BS_K);
        assert_eq!(report.feasible, 100, "{report:?}");
        assert!(report.complete >= 80, "{report:?}");
        assert!(report.innocent_accused <= 20, "{report:?}");
        // 1/5 ≤ e^ε·ρ̄: with ρ̄ ≈ 0.036 (0 of 100, 95%), ε ≥ ln(0.2·0.97/0.036) ≈ 1.7.
        let bound = report.epsilon_lower_bound.unwrap();
        assert!(bound > 1.0, "{report:?}");
        assert!(!report.refutes_claim(), "ERM makes no claim to refute");
    }

    /// The padded attack (Remark 4.4, α = 1/6: 5 junk rows) still traces ERM.
    #[test]
    fn the_padded_attack_traces_erm() {
        let class = thresholds(8);
        let config = AttackConfig::new(CodeKind::BonehShaw, 5, BS_K, 0.1, 40)
            .unwrap()
            .with_padding(1.0 / 6.0)
            .unwrap();
        assert_eq!(config.padding_rows(), 5);
        let mut rng = ChaCha8Rng::seed_from_u64(12);
        let report = run_attack(&ColumnErm, &class, &config, &mut rng).unwrap();
        assert_eq!(report.examples, 10);
        assert!(report.complete >= 32, "{report:?}");
        assert!(report.innocent_accused <= 10, "{report:?}");
    }

    /// The agnostic attack with the Tardos code (Theorem 4.7): ERM answers the majority
    /// label at the single point, which Tardos traces; innocents at most ξ/n per trial.
    #[test]
    fn erm_is_traced_by_the_tardos_attack() {
        let class = Points::new(Domain::ordered(4).unwrap());
        let tardos = Tardos::fully_collusion_resistant(3, 0.1).unwrap();
        let config = AttackConfig::new(CodeKind::Tardos, 3, tardos.length(), 0.1, 40).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(13);
        let report = run_attack(&ColumnErm, &class, &config, &mut rng).unwrap();
        assert!(report.complete >= 32, "{report:?}");
        assert!(report.innocent_accused <= 8, "{report:?}");
        assert!(report.epsilon_lower_bound.unwrap() > 0.5, "{report:?}");
    }

    /// Private learners at their claimed ε: innocents are accused at most ξ (both codes
    /// trace soundly for every pirate word: Tardos ≤ ξ/n per user, Boneh–Shaw ≤ ξ/(2n)
    /// per user), so over 60 trials
    /// more than 15 accusations has probability < 10⁻³, and the certified bound stays
    /// below the claim (it is false with probability ≤ 1 − confidence = 0.05).
    #[test]
    fn private_learners_do_not_get_innocents_accused() {
        let mut rng = ChaCha8Rng::seed_from_u64(14);
        // Direct sum of the generic learner, total ε = 1 over k columns, Boneh–Shaw.
        let class = thresholds(8);
        let config = AttackConfig::new(CodeKind::BonehShaw, 5, BS_K, 0.1, 60).unwrap();
        let direct = DirectSum::for_total(Privacy::pure(1.0).unwrap(), BS_K, 1000, &|p| {
            Ok(Box::new(GenericLearner::new(p)?) as Box<dyn Learner>)
        })
        .unwrap();
        let report = run_attack(&direct, &class, &config, &mut rng).unwrap();
        assert!(report.innocent_accused <= 15, "{report:?}");
        assert!(!report.refutes_claim(), "{report:?}");
        // The same learner under the Tardos attack: unconditional soundness.
        let points = Points::new(Domain::ordered(4).unwrap());
        let tardos = Tardos::fully_collusion_resistant(3, 0.1).unwrap();
        let k = tardos.length();
        let config = AttackConfig::new(CodeKind::Tardos, 3, k, 0.1, 60).unwrap();
        let direct = DirectSum::for_total(Privacy::pure(1.0).unwrap(), k, 1000, &|p| {
            Ok(Box::new(GenericLearner::new(p)?) as Box<dyn Learner>)
        })
        .unwrap();
        let report = run_attack(&direct, &points, &config, &mut rng).unwrap();
        assert!(report.innocent_accused <= 15, "{report:?}");
        assert!(!report.refutes_claim(), "{report:?}");
        // The parity learner (A_dist) and the point learner.
        let parities = Parities::new(3).unwrap();
        let parity = ParityLearner::new(Privacy::new(1.0, 1e-6).unwrap()).unwrap();
        let report = run_attack(&parity, &parities, &config, &mut rng).unwrap();
        assert!(report.innocent_accused <= 15, "{report:?}");
        assert!(!report.refutes_claim(), "{report:?}");
        let point = PointLearner::new(Privacy::new(1.0, 1e-6).unwrap(), 0.3).unwrap();
        let report = run_attack(&point, &points, &config, &mut rng).unwrap();
        assert!(report.innocent_accused <= 15, "{report:?}");
        assert!(!report.refutes_claim(), "{report:?}");
    }

    /// A learner that answers constant-0 hypotheses: its pirate words are infeasible for
    /// the full coalition (the all-1 columns are marked), nobody is ever accused, and in
    /// particular no innocent (the old Γ₀ tracing accused user n − 1 here in about 1/n of
    /// the innocence trials); the ε bound implies nothing.
    #[derive(Debug)]
    struct Constant;

    impl MultiLearner for Constant {
        fn learn(
            &self,
            _class: &dyn ConceptClass,
            sample: &MultiLabeledSample,
            _rng: &mut dyn Rng,
        ) -> privpac_multi::Result<Vec<Predictor>> {
            Ok(vec![
                Hypothesis::Constant { label: false }.into();
                sample.k()
            ])
        }
        fn guarantee(&self, _examples: usize, _k: usize) -> Guarantee {
            Guarantee::DifferentialPrivacy(Privacy::pure(0.01).unwrap())
        }
        fn name(&self) -> String {
            "constant".into()
        }
    }

    #[test]
    fn boneh_shaw_accuses_no_innocent_on_infeasible_words() {
        let class = thresholds(8);
        let config = AttackConfig::new(CodeKind::BonehShaw, 5, BS_K, 0.1, 200).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(15);
        let report = run_attack(&Constant, &class, &config, &mut rng).unwrap();
        assert_eq!(report.feasible, 0, "{report:?}");
        assert_eq!(report.traced, 0, "{report:?}");
        assert_eq!(report.innocent_accused, 0, "{report:?}");
        assert!(!report.refutes_claim(), "{report:?}");
    }

    #[test]
    fn bad_input_is_a_typed_error() {
        assert!(matches!(
            AttackConfig::new(CodeKind::BonehShaw, 1, 10_000, 0.1, 1),
            Err(Error::InvalidParameter { .. })
        ));
        assert!(matches!(
            AttackConfig::new(CodeKind::BonehShaw, 5, BS_K - 1, 0.1, 1),
            Err(Error::CodeTooShort { .. })
        ));
        assert!(matches!(
            AttackConfig::new(CodeKind::Tardos, 3, 100, 0.1, 1),
            Err(Error::CodeTooShort { .. })
        ));
        assert!(matches!(
            AttackConfig::new(CodeKind::Tardos, 1, 100, 0.1, 1),
            Err(Error::InvalidParameter { .. })
        ));
        assert!(matches!(
            AttackConfig::new(CodeKind::BonehShaw, 5, BS_K, 0.1, 0),
            Err(Error::InvalidParameter { .. })
        ));
        assert!(matches!(
            AttackConfig::new(CodeKind::BonehShaw, 5, BS_K, 0.1, usize::MAX),
            Err(Error::TooLarge { .. })
        ));
        assert!(matches!(
            AttackConfig::new(CodeKind::BonehShaw, 5, usize::MAX, 0.1, 1),
            Err(Error::TooLarge { .. } | Error::CodebookTooLarge { .. })
        ));
        let config = AttackConfig::new(CodeKind::BonehShaw, 5, BS_K, 0.1, 1).unwrap();
        assert!(config.with_padding(0.5).is_err());
        // Fields set directly are re-checked by run_attack.
        let mut unchecked = config;
        unchecked.padding = Some(0.9);
        assert!(matches!(
            run_attack(
                &ColumnErm,
                &thresholds(8),
                &unchecked,
                &mut ChaCha8Rng::seed_from_u64(1)
            ),
            Err(Error::InvalidParameter { .. })
        ));
        assert!(config.with_confidence(1.0).is_err());
        // Parities are not thresholds: Boneh–Shaw is incompatible; the domain is too small.
        let mut rng = ChaCha8Rng::seed_from_u64(16);
        assert!(matches!(
            run_attack(&ColumnErm, &Parities::new(3).unwrap(), &config, &mut rng),
            Err(Error::IncompatibleCode { .. })
        ));
        assert!(matches!(
            run_attack(&ColumnErm, &thresholds(4), &config, &mut rng),
            Err(Error::IncompatibleCode { .. })
        ));
    }
}
