//! Fingerprinting codes, the combinatorial core of the approximate-DP lower bounds for
//! multi-learning (Bun–Nissim–Stemmer 2016, §4): the Boneh–Shaw code in the multiplicity
//! form that is compatible with thresholds (their Lemma 4.5) and the Tardos code (their
//! Proposition 4.9), each with `generate` and `trace`, the feasible set `F(W_T)` and the
//! marking assumption, pirate strategies, and an empirical measurement of completeness and
//! soundness.
//!
//! An (n, k)-fingerprinting code gives each of n users a codeword in {0,1}^k (the rows of
//! a codebook W). A coalition T of users forges a *pirate* codeword w′ that must satisfy the
//! **marking assumption**: in every position j where all members of T have the same bit b,
//! w′_j = b (the feasible set `F(W_T)`; Bun–Nissim–Stemmer's definition, with i ranging over
//! T as corrected in their errata). `trace(w′)` accuses a user or nobody. Security ξ
//! (their Definition 4.1): a feasible pirate word leads to an accusation of a member of T
//! except with probability ξ (completeness), and an innocent user (outside T) is accused
//! with probability at most ξ (soundness).
//!
//! Neither tracing rule nor the Tardos parameters are stated in Bun–Nissim–Stemmer; they
//! are taken from the original papers and cited on each type:
//! - D. Boneh and J. Shaw, *Collusion-secure fingerprinting for digital data*, IEEE Trans.
//!   Inf. Theory 44(5), 1998 (the code Γ₀(n, d) and its tracing algorithm).
//! - G. Tardos, *Optimal probabilistic fingerprint codes*, J. ACM 55(2), 2008 (§2: the
//!   construction with m = 100c²k, Z = 20ck, t = 1/(300c), k = ⌈ln(1/ε₁)⌉).

use rand::seq::SliceRandom;
use rand::{Rng, RngExt};

use crate::error::{Error, Result};

/// Largest codebook (users × length bits) this module builds.
pub const MAX_CODEBOOK_BITS: u128 = 1 << 32;

/// The smallest coalition bound c of [`Tardos::fully_collusion_resistant`]: Tardos's
/// completeness failure ε₁^{c/4} is at most ε₁ only once c ≥ 4.
pub const FULL_RESISTANCE_MIN_COALITION: usize = 4;

/// The length `100·c²·⌈ln(n/ξ)⌉` (c = max(n, 4)) of
/// [`Tardos::fully_collusion_resistant`] for n users at security ξ, as a real number so
/// that the lower-bound searches can evaluate it past [`MAX_CODEBOOK_BITS`].
pub fn fully_resistant_tardos_length(users: f64, xi: f64) -> f64 {
    let c = users.max(FULL_RESISTANCE_MIN_COALITION as f64);
    100.0 * c * c * (users / xi).ln().ceil().max(1.0)
}

fn invalid(name: &'static str, requirement: &'static str, value: f64) -> Error {
    Error::InvalidParameter {
        name,
        requirement,
        value,
    }
}

/// A codebook W ∈ {0,1}^{n×k}: row i is user i's codeword.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Codebook {
    length: usize,
    rows: Vec<Vec<bool>>,
}

impl Codebook {
    /// The number of users n.
    pub fn users(&self) -> usize {
        self.rows.len()
    }

    /// The code length k.
    pub fn length(&self) -> usize {
        self.length
    }

    /// User i's codeword.
    pub fn row(&self, user: usize) -> Option<&[bool]> {
        self.rows.get(user).map(Vec::as_slice)
    }

    /// Bit j of user i's codeword (`false` out of range).
    pub fn bit(&self, user: usize, position: usize) -> bool {
        self.rows
            .get(user)
            .and_then(|r| r.get(position))
            .copied()
            .unwrap_or(false)
    }

    /// Whether `word` lies in the feasible set F(W_T): in every position it agrees with at
    /// least one member of the coalition `coalition` (the marking assumption).
    ///
    /// # Errors
    /// [`Error::CodeMismatch`] for a word of the wrong length, an empty coalition
    /// or a user out of range.
    pub fn is_feasible(&self, coalition: &[usize], word: &[bool]) -> Result<bool> {
        self.check_coalition(coalition)?;
        self.check_word(word)?;
        Ok((0..self.length).all(|j| coalition.iter().any(|&i| self.rows[i][j] == word[j])))
    }

    /// Checks a coalition against the codebook.
    fn check_coalition(&self, coalition: &[usize]) -> Result<()> {
        if coalition.is_empty() {
            return Err(Error::CodeMismatch {
                what: "coalition",
                reason: "it is empty".into(),
            });
        }
        if let Some(&user) = coalition.iter().find(|&&i| i >= self.users()) {
            return Err(Error::CodeMismatch {
                what: "coalition",
                reason: format!("user {user} is not below {}", self.users()),
            });
        }
        Ok(())
    }

    /// Checks a word's length.
    fn check_word(&self, word: &[bool]) -> Result<()> {
        if word.len() != self.length {
            return Err(Error::CodeMismatch {
                what: "pirate word",
                reason: format!(
                    "length {} but the code has length {}",
                    word.len(),
                    self.length
                ),
            });
        }
        Ok(())
    }
}

/// How a coalition fills the positions where its members disagree (where they agree, the
/// marking assumption fixes the bit).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Pirate {
    /// The majority bit of the coalition (ties: 1).
    Majority,
    /// The minority bit of the coalition (ties: 0).
    Minority,
    /// A fair coin.
    Random,
    /// 0 wherever allowed.
    AllZero,
    /// Copy one member's bit, the member chosen uniformly per position (interleaving).
    Interleave,
}

impl Pirate {
    /// Every strategy.
    pub const ALL: [Pirate; 5] = [
        Pirate::Majority,
        Pirate::Minority,
        Pirate::Random,
        Pirate::AllZero,
        Pirate::Interleave,
    ];
}

/// A pirate word forged by `coalition` with `strategy`; it always satisfies the marking
/// assumption.
///
/// # Errors
/// [`Error::CodeMismatch`] for an empty coalition or a user out of range.
pub fn forge<R: Rng + ?Sized>(
    codebook: &Codebook,
    coalition: &[usize],
    strategy: Pirate,
    rng: &mut R,
) -> Result<Vec<bool>> {
    codebook.check_coalition(coalition)?;
    Ok((0..codebook.length)
        .map(|j| {
            let ones = coalition.iter().filter(|&&i| codebook.rows[i][j]).count();
            if ones == 0 || ones == coalition.len() {
                return ones > 0;
            }
            match strategy {
                Pirate::Majority => 2 * ones >= coalition.len(),
                Pirate::Minority => 2 * ones < coalition.len(),
                Pirate::Random => rng.random_bool(0.5),
                Pirate::AllZero => false,
                Pirate::Interleave => {
                    codebook.rows[coalition[rng.random_range(0..coalition.len())]][j]
                }
            }
        })
        .collect())
}

/// A fingerprinting code: generate a codebook with its secret, trace a pirate word.
pub trait FingerprintingCode {
    /// The tracer's secret (column types, biases).
    type Secret;

    /// The number of users n.
    fn users(&self) -> usize;

    /// The code length k.
    fn length(&self) -> usize;

    /// The security ξ the construction guarantees (completeness failure and innocent
    /// accusation probabilities are each at most ξ).
    fn security(&self) -> f64;

    /// Draws a codebook and its secret.
    fn generate(&self, rng: &mut dyn Rng) -> (Codebook, Self::Secret);

    /// The accused user, or `None` (⊥).
    ///
    /// # Errors
    /// [`Error::CodeMismatch`] for a word of the wrong length.
    fn trace(&self, secret: &Self::Secret, word: &[bool]) -> Result<Option<usize>>;
}

/// The Boneh–Shaw code in the multiplicity form of Bun–Nissim–Stemmer §4, in a variant
/// whose tracing is sound for **every** pirate word: a column of *type*
/// t ∈ {0, 1, …, n} gives bit 1 to users 0, …, t−1 and 0 to the others (type 0 is all
/// zeros, type n all ones); each type is repeated d times and the k = (n+1)·d columns are
/// randomly permuted (the permutation is the secret). Every column is the labeling of n
/// ordered points by a threshold, so the code is compatible with `THRESH_X` whenever the
/// class realizes the all-0 and all-1 labelings of those points too (their Lemma 4.5).
///
/// **Tracing** (the split test of Boneh–Shaw 1998, applied to every user): let B_t be the
/// positions of type t and |w′|_B the number of ones of w′ in B. For u = 0, …, n−1, with
/// r = |w′|_{B_u ∪ B_{u+1}}, accuse the first u with `|w′|_{B_u} < r/2 − √((r/2)·ln(2n/ξ))`.
///
/// **Why not Boneh–Shaw's Γ₀ as printed.** Γ₀ has types 1..n−1 and accuses user 0 when
/// |w′|_{B_1} > 0 and user n−1 when |w′|_{B_{n−1}} < d. Those two rules are sound only for
/// words that satisfy the marking assumption, but the lower bounds of Theorems 4.3 and 4.7
/// use soundness against *any* adversary (the learner's output on the database without
/// user i* need not be feasible): a private learner that answers constant-0 hypotheses
/// would make Γ₀ accuse user n−1 in 1/n of the innocence trials. The extra all-0 and all-1
/// types turn users 0 and n−1 into ordinary split tests.
///
/// **Soundness (every word).** A coalition without user u sees identical columns of types
/// u and u+1, so whatever word it outputs, given r the ones in B_u ∪ B_{u+1} fall on a
/// uniformly random subset; Hoeffding's inequality for sampling without replacement bounds
/// the chance that B_u gets fewer than `r/2 − a` of them by `exp(−2a²/r) = ξ/(2n)` at the
/// threshold above, so an innocent user is accused with probability at most ξ/(2n), and
/// some innocent with probability at most ξ/2.
///
/// **Completeness (our bound).** A feasible word has |w′|_{B_0} = 0 and |w′|_{B_n} = d
/// (every user agrees on those types). If nobody is accused, every step grows by at most
/// `√(2r·ln(2n/ξ)) ≤ 2√(d·ln(2n/ξ))`, so `d ≤ 4n²·ln(2n/ξ)`: for larger d a feasible word is
/// *always* traced. [`BonehShaw::for_security`] takes `d = ⌊4n²·ln(2n/ξ)⌋ + 1`, so its
/// length `(n+1)·d ≈ 4n³·ln(2n/ξ)` is about twice the `2n³·log(2n/ξ)` Bun–Nissim–Stemmer
/// quote for Γ₀ (whose sharper analysis needs the marking assumption).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BonehShaw {
    users: usize,
    repetitions: usize,
    xi: f64,
}

/// The secret of a Boneh–Shaw codebook: the type of every column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColumnTypes(Vec<usize>);

impl ColumnTypes {
    /// The type (0..=n) of each column.
    pub fn types(&self) -> &[usize] {
        &self.0
    }
}

impl BonehShaw {
    /// The code for `users ≥ 2` users with each column type repeated `repetitions` times,
    /// tracing at security parameter ξ ∈ (0, 1).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for fewer than 2 users, no repetitions or ξ
    /// outside (0, 1); [`Error::CodebookTooLarge`] above [`MAX_CODEBOOK_BITS`].
    pub fn new(users: usize, repetitions: usize, xi: f64) -> Result<Self> {
        if users < 2 {
            return Err(invalid("users", "at least 2", users as f64));
        }
        if repetitions == 0 {
            return Err(invalid("repetitions", "at least 1", 0.0));
        }
        if !(xi > 0.0 && xi < 1.0) {
            return Err(invalid("security xi", "in (0, 1)", xi));
        }
        let length = (users as u128 + 1) * repetitions as u128;
        if length * users as u128 > MAX_CODEBOOK_BITS {
            return Err(Error::CodebookTooLarge {
                users,
                length,
                limit: MAX_CODEBOOK_BITS,
            });
        }
        Ok(BonehShaw {
            users,
            repetitions,
            xi,
        })
    }

    /// The length that makes tracing complete for every feasible word:
    /// `d = ⌊4n²·ln(2n/ξ)⌋ + 1` repetitions per type (see the type's docs).
    ///
    /// # Errors
    /// As for [`Self::new`].
    pub fn for_security(users: usize, xi: f64) -> Result<Self> {
        if !(xi > 0.0 && xi < 1.0) {
            return Err(invalid("security xi", "in (0, 1)", xi));
        }
        if users < 2 {
            return Err(invalid("users", "at least 2", users as f64));
        }
        let n = users as f64;
        let d = (4.0 * n * n * (2.0 * n / xi).ln()).floor() + 1.0;
        if !d.is_finite() || d > MAX_CODEBOOK_BITS as f64 {
            return Err(Error::CodebookTooLarge {
                users,
                length: u128::MAX,
                limit: MAX_CODEBOOK_BITS,
            });
        }
        BonehShaw::new(users, d as usize, xi)
    }

    /// Repetitions d per column type.
    pub fn repetitions(&self) -> usize {
        self.repetitions
    }

    /// The accusation threshold's deviation term `√((r/2)·ln(2n/ξ))`.
    fn deviation(&self, r: f64) -> f64 {
        (r / 2.0 * (2.0 * self.users as f64 / self.xi).ln()).sqrt()
    }
}

impl FingerprintingCode for BonehShaw {
    type Secret = ColumnTypes;

    fn users(&self) -> usize {
        self.users
    }

    fn length(&self) -> usize {
        (self.users + 1) * self.repetitions
    }

    fn security(&self) -> f64 {
        self.xi
    }

    fn generate(&self, rng: &mut dyn Rng) -> (Codebook, ColumnTypes) {
        let mut types: Vec<usize> = (0..=self.users)
            .flat_map(|t| std::iter::repeat_n(t, self.repetitions))
            .collect();
        types.shuffle(rng);
        let rows = (0..self.users)
            .map(|i| types.iter().map(|&t| i < t).collect())
            .collect();
        (
            Codebook {
                length: types.len(),
                rows,
            },
            ColumnTypes(types),
        )
    }

    fn trace(&self, secret: &ColumnTypes, word: &[bool]) -> Result<Option<usize>> {
        if word.len() != secret.0.len() {
            return Err(Error::CodeMismatch {
                what: "pirate word",
                reason: format!(
                    "length {} but the code has length {}",
                    word.len(),
                    secret.0.len()
                ),
            });
        }
        let n = self.users;
        // ones[t] = |w′|_{B_t} for t = 0..=n.
        let mut ones = vec![0usize; n + 1];
        for (&t, &bit) in secret.0.iter().zip(word) {
            if let Some(slot) = ones.get_mut(t) {
                *slot += usize::from(bit);
            }
        }
        for u in 0..n {
            let r = (ones[u] + ones[u + 1]) as f64;
            if (ones[u] as f64) < r / 2.0 - self.deviation(r) {
                return Ok(Some(u));
            }
        }
        Ok(None)
    }
}

/// The Tardos code (Tardos 2008, §2) for n users secure against coalitions of up to c
/// users: with k = ⌈ln(1/ε₁)⌉, length m = 100c²k; each column i draws a bias
/// p_i = sin²(r_i) with r_i uniform on [t′, π/2 − t′], sin²(t′) = t = 1/(300c), and every
/// user's bit in that column is Bernoulli(p_i) independently. A pirate word y is traced by
/// the scores `S_j = Σ_{i : y_i = 1} U_{ji}` with `U_{ji} = √((1 − p_i)/p_i)` if user j has
/// bit 1 and `−√(p_i/(1 − p_i))` otherwise; the user with the largest score above
/// Z = 20ck is accused.
///
/// Tardos' theorem: an innocent user's score exceeds Z with probability at most ε₁, and if
/// the coalition has at most c members, some member's score exceeds Z except with
/// probability ε₁^{c/4}. Full collusion resistance (c = n) with ε₁ = ξ/n gives security ξ
/// at length O(n²·log(n/ξ)), Bun–Nissim–Stemmer's Proposition 4.9. Tardos' columns are
/// arbitrary bit vectors, so the code is compatible only with classes of VC dimension ≥ n;
/// its use is the agnostic bound (their Theorem 4.7).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tardos {
    users: usize,
    coalition: usize,
    epsilon1: f64,
}

/// The secret of a Tardos codebook: the column biases and the codebook itself.
#[derive(Debug, Clone, PartialEq)]
pub struct TardosSecret {
    biases: Vec<f64>,
    codebook: Codebook,
}

impl TardosSecret {
    /// The bias p_i of each column.
    pub fn biases(&self) -> &[f64] {
        &self.biases
    }

    /// Every user's score on `word` (Tardos' accusation sums).
    ///
    /// # Errors
    /// [`Error::CodeMismatch`] for a word of the wrong length.
    pub fn scores(&self, word: &[bool]) -> Result<Vec<f64>> {
        self.codebook.check_word(word)?;
        Ok(self
            .codebook
            .rows
            .iter()
            .map(|row| {
                word.iter()
                    .zip(row)
                    .zip(&self.biases)
                    .filter(|((y, _), _)| **y)
                    .map(|((_, &x), &p)| {
                        if x {
                            ((1.0 - p) / p).sqrt()
                        } else {
                            -(p / (1.0 - p)).sqrt()
                        }
                    })
                    .sum()
            })
            .collect())
    }
}

impl Tardos {
    /// The code for `users ≥ 2` users against coalitions of at most `coalition` users with
    /// innocent-accusation probability `epsilon1` ∈ (0, 1) per user.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for out-of-range parameters;
    /// [`Error::CodebookTooLarge`] above [`MAX_CODEBOOK_BITS`].
    pub fn new(users: usize, coalition: usize, epsilon1: f64) -> Result<Self> {
        if users < 2 {
            return Err(invalid("users", "at least 2", users as f64));
        }
        if coalition == 0 || coalition > users {
            return Err(invalid("coalition size", "in 1..=users", coalition as f64));
        }
        Tardos::build(users, coalition, epsilon1)
    }

    /// [`Self::new`] without the `coalition ≤ users` check: a code against coalitions of
    /// at most c ≥ n users is one against every coalition.
    fn build(users: usize, coalition: usize, epsilon1: f64) -> Result<Self> {
        if !(epsilon1 > 0.0 && epsilon1 < 1.0) {
            return Err(invalid("epsilon1", "in (0, 1)", epsilon1));
        }
        let code = Tardos {
            users,
            coalition,
            epsilon1,
        };
        let length = code.length_u128();
        if length * users as u128 > MAX_CODEBOOK_BITS {
            return Err(Error::CodebookTooLarge {
                users,
                length,
                limit: MAX_CODEBOOK_BITS,
            });
        }
        Ok(code)
    }

    /// Full collusion resistance at security ξ (Bun–Nissim–Stemmer, Proposition 4.9):
    /// ε₁ = ξ/n and coalition bound c = max(n, 4), so that [`FingerprintingCode::security`]
    /// is exactly ξ. Tardos's completeness failure is ε₁^{c/4}; with c = n it exceeds ξ
    /// for n < 4 ((ξ/2)^{1/2} ≈ 0.224 at n = 2, ξ = 0.1), and c ≥ 4 makes it at most
    /// ε₁ ≤ ξ. A code against coalitions of up to c ≥ n users resists every coalition.
    /// The length is `100·c²·⌈ln(n/ξ)⌉`.
    ///
    /// # Errors
    /// As for [`Self::new`], and [`Error::InvalidParameter`] for ξ outside (0, 1).
    pub fn fully_collusion_resistant(users: usize, xi: f64) -> Result<Self> {
        if !(xi > 0.0 && xi < 1.0) {
            return Err(invalid("security xi", "in (0, 1)", xi));
        }
        if users < 2 {
            return Err(invalid("users", "at least 2", users as f64));
        }
        // ε₁ = ξ/n rounded so that n·ε₁ ≤ ξ holds exactly (fl(ξ/n) may round up; the fused
        // multiply-add gives the exact sign of n·ε₁ − ξ).
        let n = users as f64;
        let mut epsilon1 = xi / n;
        while n.mul_add(epsilon1, -xi) > 0.0 {
            epsilon1 = epsilon1.next_down();
        }
        Tardos::build(users, users.max(FULL_RESISTANCE_MIN_COALITION), epsilon1)
    }

    /// k = ⌈ln(1/ε₁)⌉.
    fn k(&self) -> u128 {
        (1.0 / self.epsilon1).ln().ceil().max(1.0) as u128
    }

    fn length_u128(&self) -> u128 {
        100 * (self.coalition as u128).pow(2) * self.k()
    }

    /// The accusation threshold Z = 20ck.
    pub fn threshold(&self) -> f64 {
        20.0 * self.coalition as f64 * self.k() as f64
    }

    /// The cutoff t = 1/(300c).
    pub fn cutoff(&self) -> f64 {
        1.0 / (300.0 * self.coalition as f64)
    }
}

impl FingerprintingCode for Tardos {
    type Secret = TardosSecret;

    fn users(&self) -> usize {
        self.users
    }

    fn length(&self) -> usize {
        self.length_u128() as usize
    }

    /// `max(n·ε₁, ε₁^{c/4})`: the union bound over innocent users and the completeness
    /// failure, rounded up (n·ε₁ exactly via a fused multiply-add; for c < 4 the power is
    /// stepped 4 floats up, covering the platform `powf`'s error of a few ulps; for c ≥ 4
    /// it is at most ε₁ ≤ n·ε₁ and needs no evaluation).
    fn security(&self) -> f64 {
        let n = self.users as f64;
        let mut union = n * self.epsilon1;
        if n.mul_add(self.epsilon1, -union) > 0.0 {
            union = union.next_up();
        }
        let completeness = if self.coalition >= FULL_RESISTANCE_MIN_COALITION {
            0.0
        } else {
            let mut p = self.epsilon1.powf(self.coalition as f64 / 4.0);
            for _ in 0..4 {
                p = p.next_up();
            }
            p
        };
        union.max(completeness).min(1.0)
    }

    fn generate(&self, rng: &mut dyn Rng) -> (Codebook, TardosSecret) {
        let length = self.length();
        let low = self.cutoff().sqrt().asin();
        let high = std::f64::consts::FRAC_PI_2 - low;
        let biases: Vec<f64> = (0..length)
            .map(|_| rng.random_range(low..high).sin().powi(2))
            .collect();
        let rows = (0..self.users)
            .map(|_| biases.iter().map(|&p| rng.random_bool(p)).collect())
            .collect();
        let codebook = Codebook { length, rows };
        (codebook.clone(), TardosSecret { biases, codebook })
    }

    fn trace(&self, secret: &TardosSecret, word: &[bool]) -> Result<Option<usize>> {
        let scores = secret.scores(word)?;
        let threshold = self.threshold();
        Ok(scores
            .iter()
            .enumerate()
            .filter(|(_, s)| **s > threshold)
            .max_by(|a, b| a.1.total_cmp(b.1))
            .map(|(j, _)| j))
    }
}

/// Completeness and soundness of a code against one pirate strategy, measured over
/// independent codebooks.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SecurityMeasurement {
    /// Trials run.
    pub trials: usize,
    /// Trials in which a member of the coalition was accused.
    pub traced: usize,
    /// Trials in which nobody was accused.
    pub nobody: usize,
    /// Trials in which a user outside the coalition was accused.
    pub innocent_accused: usize,
}

/// Runs `trials` rounds: a fresh codebook, a uniformly random coalition of
/// `coalition_size` users, a pirate word forged with `strategy`, and the trace.
///
/// # Errors
/// [`Error::InvalidParameter`] for a coalition size outside 1..=n or zero
/// trials.
pub fn measure_security<C: FingerprintingCode>(
    code: &C,
    coalition_size: usize,
    strategy: Pirate,
    trials: usize,
    rng: &mut dyn Rng,
) -> Result<SecurityMeasurement> {
    if coalition_size == 0 || coalition_size > code.users() {
        return Err(invalid(
            "coalition size",
            "in 1..=users",
            coalition_size as f64,
        ));
    }
    if trials == 0 {
        return Err(invalid("trials", "at least 1", 0.0));
    }
    let mut measured = SecurityMeasurement {
        trials,
        traced: 0,
        nobody: 0,
        innocent_accused: 0,
    };
    let mut users: Vec<usize> = (0..code.users()).collect();
    for _ in 0..trials {
        let (codebook, secret) = code.generate(rng);
        users.shuffle(rng);
        let coalition = &users[..coalition_size];
        let word = forge(&codebook, coalition, strategy, rng)?;
        match code.trace(&secret, &word)? {
            Some(user) if coalition.contains(&user) => measured.traced += 1,
            Some(_) => measured.innocent_accused += 1,
            None => measured.nobody += 1,
        }
    }
    Ok(measured)
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;

    #[test]
    fn boneh_shaw_columns_are_thresholds_and_words_are_feasible() {
        let code = BonehShaw::new(5, 3, 0.1).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let (codebook, secret) = code.generate(&mut rng);
        assert_eq!(codebook.length(), 18);
        for (j, &t) in secret.types().iter().enumerate() {
            // Column j labels the points 0 < 1 < … < n−1 by the threshold "x < t".
            for i in 0..5 {
                assert_eq!(codebook.bit(i, j), i < t);
            }
        }
        for strategy in Pirate::ALL {
            let word = forge(&codebook, &[1, 3], strategy, &mut rng).unwrap();
            assert!(
                codebook.is_feasible(&[1, 3], &word).unwrap(),
                "{strategy:?}"
            );
        }
        // A word that breaks the marking assumption is infeasible.
        let mut bad = codebook.row(1).unwrap().to_vec();
        let j = (0..12)
            .find(|&j| codebook.bit(1, j) == codebook.bit(3, j))
            .unwrap();
        bad[j] = !bad[j];
        assert!(!codebook.is_feasible(&[1, 3], &bad).unwrap());
    }

    #[test]
    fn a_single_pirate_is_traced_by_both_codes() {
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let bs = BonehShaw::for_security(4, 0.1).unwrap();
        let tardos = Tardos::new(4, 1, 0.01).unwrap();
        for user in 0..4 {
            let (codebook, secret) = bs.generate(&mut rng);
            let word = codebook.row(user).unwrap().to_vec();
            assert_eq!(bs.trace(&secret, &word).unwrap(), Some(user));
            let (codebook, secret) = tardos.generate(&mut rng);
            let word = codebook.row(user).unwrap().to_vec();
            assert_eq!(tardos.trace(&secret, &word).unwrap(), Some(user));
        }
    }

    /// Completeness and soundness against every pirate strategy, 40 codebooks each.
    /// Boneh–Shaw at n = 5 has d > 4n²·ln(2n/ξ), so tracing never fails (our deterministic
    /// completeness bound), and innocents are accused with probability ≤ ξ/2 = 0.05 per
    /// trial: over 40 trials more than 8 false accusations has probability below 10⁻³
    /// (binomial tail). Tardos at ε₁ = ξ/n: same soundness bound.
    #[test]
    fn measured_security_matches_the_stated_xi() {
        let xi = 0.1;
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let bs = BonehShaw::for_security(5, xi).unwrap();
        assert!(bs.repetitions() as f64 > 4.0 * 25.0 * (10.0f64 / xi).ln());
        let tardos = Tardos::fully_collusion_resistant(4, xi).unwrap();
        for strategy in Pirate::ALL {
            for size in [1, 2, 3] {
                let m = measure_security(&bs, size, strategy, 40, &mut rng).unwrap();
                assert_eq!(m.nobody, 0, "Boneh–Shaw {strategy:?} {size}: {m:?}");
                assert!(
                    m.innocent_accused <= 8,
                    "Boneh–Shaw {strategy:?} {size}: {m:?}"
                );
                let m = measure_security(&tardos, size, strategy, 10, &mut rng).unwrap();
                assert!(m.innocent_accused <= 4, "Tardos {strategy:?} {size}: {m:?}");
                assert!(m.traced >= 6, "Tardos {strategy:?} {size}: {m:?}");
            }
        }
    }

    /// The fully collusion-resistant Tardos code guarantees the requested ξ at every n,
    /// the small n included (with c = n its completeness failure (ξ/n)^{n/4} was 0.224 at
    /// n = 2, ξ = 0.1), and its length is the one the lower bounds use.
    #[test]
    fn tardos_security_is_xi_at_small_n() {
        for n in 2..=12 {
            for xi in [0.01, 0.1, 0.5, 0.9] {
                let code = Tardos::fully_collusion_resistant(n, xi).unwrap();
                assert!(
                    code.security() <= xi,
                    "n = {n}, ξ = {xi}: {}",
                    code.security()
                );
                assert_eq!(
                    code.length() as f64,
                    fully_resistant_tardos_length(n as f64, xi),
                    "n = {n}, ξ = {xi}"
                );
            }
        }
        // Measured at n = 2, ξ = 0.1: a full coalition is traced in at least 1 − ξ of the
        // trials (a sharper completeness than the bound: failures here are rarer still).
        // Over 60 codebooks, 13 or more untraced trials at rate ≤ 0.1 has probability
        // below 10⁻³ (binomial tail).
        let code = Tardos::fully_collusion_resistant(2, 0.1).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(21);
        for strategy in Pirate::ALL {
            let m = measure_security(&code, 2, strategy, 60, &mut rng).unwrap();
            assert!(m.nobody + m.innocent_accused <= 12, "{strategy:?}: {m:?}");
        }
    }

    /// Soundness without the marking assumption: a coalition without user u that outputs
    /// any word at all (all zeros, all ones, coin flips: infeasible words included) gets u
    /// accused with probability ≤ ξ/(2n) = 0.01 per trial. Over 600 trials more than 20
    /// accusations of u has probability below 10⁻⁶ (binomial tail).
    #[test]
    fn boneh_shaw_is_sound_for_every_word() {
        let mut rng = ChaCha8Rng::seed_from_u64(6);
        let code = BonehShaw::for_security(5, 0.1).unwrap();
        let mut accused = 0;
        for trial in 0..600 {
            let (_, secret) = code.generate(&mut rng);
            let u = trial % 5;
            let word: Vec<bool> = match trial % 3 {
                0 => vec![false; code.length()],
                1 => vec![true; code.length()],
                _ => (0..code.length()).map(|_| rng.random_bool(0.5)).collect(),
            };
            accused += usize::from(code.trace(&secret, &word).unwrap() == Some(u));
        }
        assert!(accused <= 20, "{accused}");
    }

    /// Negative control: with d = 2 repetitions the codes are far too short, and the same
    /// measurement must see untraced words (so the assertions above can fail).
    #[test]
    fn too_short_codes_fail_the_same_measurement() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let short = BonehShaw::new(5, 2, 0.1).unwrap();
        let m = measure_security(&short, 3, Pirate::Random, 200, &mut rng).unwrap();
        assert!(m.nobody > 0, "{m:?}");
    }

    #[test]
    fn bad_parameters_are_typed_errors() {
        assert!(matches!(
            BonehShaw::new(1, 1, 0.1),
            Err(Error::InvalidParameter { .. })
        ));
        assert!(matches!(
            BonehShaw::new(3, 0, 0.1),
            Err(Error::InvalidParameter { .. })
        ));
        assert!(matches!(
            BonehShaw::new(3, 1, 1.0),
            Err(Error::InvalidParameter { .. })
        ));
        assert!(matches!(
            BonehShaw::for_security(100_000, 0.1),
            Err(Error::CodebookTooLarge { .. })
        ));
        assert!(matches!(
            Tardos::new(3, 4, 0.1),
            Err(Error::InvalidParameter { .. })
        ));
        assert!(matches!(
            Tardos::new(3, 2, 0.0),
            Err(Error::InvalidParameter { .. })
        ));
        assert!(matches!(
            Tardos::fully_collusion_resistant(10_000, 0.1),
            Err(Error::CodebookTooLarge { .. })
        ));
        let code = BonehShaw::new(3, 2, 0.1).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let (codebook, secret) = code.generate(&mut rng);
        assert!(code.trace(&secret, &[true]).is_err());
        assert!(codebook.is_feasible(&[], &[true; 4]).is_err());
        assert!(codebook.is_feasible(&[7], &[true; 4]).is_err());
        assert!(forge(&codebook, &[3], Pirate::Majority, &mut rng).is_err());
        assert!(measure_security(&code, 0, Pirate::Random, 1, &mut rng).is_err());
        assert!(measure_security(&code, 1, Pirate::Random, 0, &mut rng).is_err());
    }
}
