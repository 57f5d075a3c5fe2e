//! A small privacy accountant: record mechanisms as they run, report the total.

use crate::error::{Error, Result};
use crate::guarantee::Guarantee;
use crate::pld::{PldBounds, pld_steps_bounds};
use crate::privacy::{Privacy, Private};
use crate::{PldStep, basic_composition, heterogeneous_advanced_composition, optimal_composition};

/// A default grid step Δ for callers of [`crate::pld_composition`] that fix the grid
/// themselves. The accountant's PLD rule no longer uses a fixed grid: it picks one for the
/// accuracy [`crate::default_epsilon_error`] (see [`crate::pld_steps_bounds`]).
pub const PLD_INTERVAL: f64 = 1e-4;

/// The composition theorem used to total an [`Accountant`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum CompositionRule {
    /// [`basic_composition`].
    Basic,
    /// [`heterogeneous_advanced_composition`] with the given slack δ'.
    Advanced {
        /// The additional δ' of the advanced composition theorem.
        delta_prime: f64,
    },
    /// [`optimal_composition`] with the given slack δ': the exact region of k-fold
    /// composition (Kairouz–Oh–Viswanath Theorem 3.3). It applies to runs that all have
    /// the same (ε, δ); the accountant refuses it for mixed guarantees.
    Optimal {
        /// The δ' of the optimal composition (the hockey-stick divergence allowed).
        delta_prime: f64,
    },
    /// The privacy loss distribution of the runs' canonical pairs with the given slack δ':
    /// the upper bound of [`crate::pld_steps_bounds`] at the default accuracy
    /// ([`crate::default_epsilon_error`]: within max(0.01, 1% of ε) of a rigorous lower
    /// bound on the exact composition of the pairs). Runs recorded with
    /// [`Accountant::record_step`] enter with their own pairs (subsampled, bounded-range,
    /// discrete Laplace). [`Accountant::pld_bounds`] gives both bounds, at any accuracy.
    Pld {
        /// The slack δ' added to the runs' own δ.
        delta_prime: f64,
    },
    /// The smallest ε of the rules above that apply (each is valid, so their minimum is):
    /// basic, advanced, the PLD, and optimal when every run has the same guarantee. Only ε
    /// is minimized: the rules' δ differ (basic's is `Σδ_i` with no δ', advanced's
    /// `Σδ_i + δ'`, optimal's and the PLD's `1 − Π(1 − δ_i)·(1 − δ')`), so the winner's δ
    /// may be larger than another rule's.
    Best {
        /// The δ' used for the advanced, optimal and PLD rules.
        delta_prime: f64,
    },
}

impl CompositionRule {
    /// The rule's name for reports: `basic`, `advanced`, `optimal`, `pld` (the privacy loss
    /// distribution) or `best` (the smallest ε of the others, see
    /// [`CompositionRule::Best`]).
    pub fn name(self) -> &'static str {
        match self {
            CompositionRule::Basic => "basic",
            CompositionRule::Advanced { .. } => "advanced",
            CompositionRule::Optimal { .. } => "optimal",
            CompositionRule::Pld { .. } => "pld",
            CompositionRule::Best { .. } => "best",
        }
    }
}

/// One recorded mechanism run.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Entry {
    /// A label for reports.
    pub label: String,
    /// Its guarantee.
    pub guarantee: Guarantee,
    /// What the PLD rule composes for it, when it was recorded as a [`PldStep`] (for
    /// instance a Poisson-subsampled run); `None` means the canonical pair of its
    /// guarantee.
    pub step: Option<PldStep>,
}

/// Records the guarantees of a sequence of (possibly adaptively chosen) mechanism runs on
/// the same dataset and reports their composition.
///
/// Any [`Guarantee`] can be recorded: whole-output (ε, δ) guarantees of mechanisms,
/// sanitizers and private learners, and per-prediction guarantees (each released
/// prediction counts as one ε-DP release). A total over entries that are not differential
/// privacy (uniform stability, or a non-private run on the same data) is an error naming the
/// first such entry: there is no (ε, δ) to report.
///
/// # Example
/// ```
/// use privpac_accounting::{Accountant, CompositionRule, Privacy};
/// let mut accountant = Accountant::new();
/// for round in 0..100 {
///     accountant.record(format!("query {round}"), Privacy::pure(0.01)?);
/// }
/// let basic = accountant.total(CompositionRule::Basic)?;
/// let best = accountant.total(CompositionRule::Best { delta_prime: 1e-6 })?;
/// assert!((basic.epsilon() - 1.0).abs() < 1e-12);
/// assert!(best.epsilon() <= basic.epsilon());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Accountant {
    entries: Vec<Entry>,
}

impl Accountant {
    /// An empty accountant.
    pub fn new() -> Self {
        Accountant::default()
    }

    /// Records one run with its guarantee (a [`Privacy`] or any [`Guarantee`]).
    pub fn record(&mut self, label: impl Into<String>, guarantee: impl Into<Guarantee>) {
        self.entries.push(Entry {
            label: label.into(),
            guarantee: guarantee.into(),
            step: None,
        });
    }

    /// Records one run described as a [`PldStep`]: a mechanism, possibly run on a Poisson
    /// subsample. Basic, advanced and optimal composition see its guarantee
    /// ([`PldStep::privacy`]: amplified by subsampling); the PLD rule composes its own
    /// dominating pair, which is tighter for subsampled runs.
    ///
    /// Poisson subsampling is analysed for neighbours that add or remove one row; the other
    /// runs' guarantees must then hold for that relation too.
    ///
    /// # Errors
    /// As for [`PldStep::privacy`].
    ///
    /// # Example
    /// ```
    /// use privpac_accounting::{Accountant, PldStep, Privacy};
    /// let mut accountant = Accountant::new();
    /// let step = PldStep::private(Privacy::pure(1.0)?).poisson_subsampled(0.01)?;
    /// for round in 0..1000 {
    ///     accountant.record_step(format!("batch {round}"), step)?;
    /// }
    /// let (total, rule) = accountant.tightest(1e-6)?;
    /// assert_eq!(rule.name(), "pld");
    /// assert!(total.epsilon() < 1.6); // optimal composition of the amplified ε: 2.44
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn record_step(&mut self, label: impl Into<String>, step: PldStep) -> Result<()> {
        let guarantee = step.privacy()?;
        self.entries.push(Entry {
            label: label.into(),
            guarantee: guarantee.into(),
            step: Some(step),
        });
        Ok(())
    }

    /// Records one run of any [`Private`] algorithm (boxed and borrowed ones included),
    /// with its reported guarantee.
    pub fn record_run(&mut self, label: impl Into<String>, algorithm: &(impl Private + ?Sized)) {
        self.record(label, algorithm.privacy());
    }

    /// The recorded runs, in order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The total guarantee under `rule`.
    ///
    /// # Errors
    /// [`crate::Error::InvalidCount`] if nothing was recorded;
    /// [`crate::Error::NotDifferentiallyPrivate`] if an entry has no (ε, δ) guarantee; the
    /// errors of the chosen rule otherwise.
    pub fn total(&self, rule: CompositionRule) -> Result<Privacy> {
        self.total_by(rule).map(|(privacy, _)| privacy)
    }

    /// The tightest total the accountant can prove with slack δ' (basic, advanced, the
    /// PLD, and optimal composition when every run has the same guarantee), and the rule
    /// that gave it. "Tightest" means the smallest ε ([`CompositionRule::Best`]): the δ of
    /// the rule that wins may differ from another rule's (basic composition adds no δ', the
    /// others do), so a caller who needs a particular δ should compare the totals of the
    /// rules it accepts.
    ///
    /// # Errors
    /// As for [`Accountant::total`].
    ///
    /// # Example
    /// ```
    /// use privpac_accounting::{Accountant, Privacy};
    /// let mut accountant = Accountant::new();
    /// for round in 0..1000 {
    ///     accountant.record(format!("query {round}"), Privacy::pure(0.01)?);
    /// }
    /// let (total, rule) = accountant.tightest(1e-6)?;
    /// // Optimal composition and the PLD agree to about 10⁻⁷ here; either may be named.
    /// assert!(matches!(rule.name(), "optimal" | "pld"));
    /// assert!(total.epsilon() < 1.4); // advanced: 1.86, basic: 10
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn tightest(&self, delta_prime: f64) -> Result<(Privacy, CompositionRule)> {
        self.total_by(CompositionRule::Best { delta_prime })
    }

    /// Rigorous lower and upper bounds on the ε of the runs' composed dominating pairs at
    /// `δ = 1 − Π(1 − δ_i)·(1 − δ′)`, on a grid fine enough that they are within
    /// `epsilon_error` of each other (`None`: [`crate::default_epsilon_error`]); see
    /// [`crate::pld_steps_bounds`]. The PLD rule reports the upper bound at the default
    /// accuracy.
    ///
    /// # Errors
    /// As for [`Accountant::total`] and [`crate::pld_steps_bounds`].
    ///
    /// # Example
    /// ```
    /// use privpac_accounting::{Accountant, PldStep};
    /// let mut accountant = Accountant::new();
    /// let step = PldStep::discrete_laplace(2.0, 1)?.poisson_subsampled(0.005)?;
    /// for round in 0..3000 {
    ///     accountant.record_step(format!("batch {round}"), step)?;
    /// }
    /// let bounds = accountant.pld_bounds(1e-6, Some(0.005))?;
    /// assert!(bounds.upper - bounds.lower <= 0.005);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn pld_bounds(&self, delta_prime: f64, epsilon_error: Option<f64>) -> Result<PldBounds> {
        let (_, steps) = self.guarantees_and_steps()?;
        pld_steps_bounds(&steps, delta_prime, epsilon_error)
    }

    /// Each entry's (ε, δ) and the step the PLD composes for it.
    fn guarantees_and_steps(&self) -> Result<(Vec<Privacy>, Vec<PldStep>)> {
        let guarantees = self
            .entries
            .iter()
            .map(|e| {
                e.guarantee
                    .released_privacy()
                    .ok_or_else(|| Error::NotDifferentiallyPrivate {
                        label: e.label.clone(),
                        guarantee: e.guarantee.to_string(),
                    })
            })
            .collect::<Result<Vec<Privacy>>>()?;
        let steps: Vec<PldStep> = self
            .entries
            .iter()
            .zip(&guarantees)
            .map(|(entry, &privacy)| entry.step.unwrap_or(PldStep::private(privacy)))
            .collect();
        Ok((guarantees, steps))
    }

    fn total_by(&self, rule: CompositionRule) -> Result<(Privacy, CompositionRule)> {
        let (guarantees, steps) = self.guarantees_and_steps()?;
        let pld = |delta_prime: f64| {
            pld_steps_bounds(&steps, delta_prime, None).and_then(|b| b.privacy())
        };
        let homogeneous = |delta_prime: f64| -> Result<Privacy> {
            match guarantees.split_first() {
                Some((first, rest)) if rest.iter().all(|p| p == first) => {
                    optimal_composition(*first, guarantees.len() as u64, delta_prime)
                }
                _ => Err(Error::MixedGuarantees {
                    rule: "optimal composition",
                }),
            }
        };
        match rule {
            CompositionRule::Basic => Ok((basic_composition(&guarantees)?, rule)),
            CompositionRule::Advanced { delta_prime } => Ok((
                heterogeneous_advanced_composition(&guarantees, delta_prime)?,
                rule,
            )),
            CompositionRule::Optimal { delta_prime } => Ok((homogeneous(delta_prime)?, rule)),
            CompositionRule::Pld { delta_prime } => Ok((pld(delta_prime)?, rule)),
            CompositionRule::Best { delta_prime } => {
                let mut best = (basic_composition(&guarantees)?, CompositionRule::Basic);
                let others = [
                    (
                        heterogeneous_advanced_composition(&guarantees, delta_prime),
                        CompositionRule::Advanced { delta_prime },
                    ),
                    (
                        homogeneous(delta_prime),
                        CompositionRule::Optimal { delta_prime },
                    ),
                    (pld(delta_prime), CompositionRule::Pld { delta_prime }),
                ];
                for (total, rule) in others {
                    if let Ok(total) = total
                        && total.epsilon() < best.0.epsilon()
                    {
                        best = (total, rule);
                    }
                }
                // The rules refuse a δ' outside [0, 1): so does Best. At δ' = 0 advanced
                // composition does not apply; basic, optimal and the PLD answer the pure
                // question.
                if !(0.0..1.0).contains(&delta_prime) {
                    return Err(Error::InvalidDelta { value: delta_prime });
                }
                Ok(best)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Error;

    /// Mixed guarantees: optimal composition refuses them, the PLD is the tightest and is
    /// named; equal guarantees: optimal composition is (the PLD is within its grid).
    #[test]
    fn tightest_names_the_rule_that_wins() {
        let mut mixed = Accountant::new();
        for i in 0..300 {
            mixed.record(format!("a{i}"), Privacy::pure(0.02).unwrap());
            mixed.record(format!("b{i}"), Privacy::new(0.05, 1e-9).unwrap());
        }
        assert!(matches!(
            mixed.total(CompositionRule::Optimal { delta_prime: 1e-6 }),
            Err(Error::MixedGuarantees { .. })
        ));
        let (total, rule) = mixed.tightest(1e-6).unwrap();
        assert_eq!(rule.name(), "pld");
        let advanced = mixed
            .total(CompositionRule::Advanced { delta_prime: 1e-6 })
            .unwrap();
        assert!(
            total.epsilon() < advanced.epsilon(),
            "{total:?} vs {advanced:?}"
        );
        let mut same = Accountant::new();
        for i in 0..1000 {
            same.record(format!("q{i}"), Privacy::pure(0.01).unwrap());
        }
        // Optimal composition is exact up to its rounding margin and the PLD is within its
        // grid of it; either may report the smaller ε (by about 10⁻⁷ here).
        let (total, rule) = same.tightest(1e-6).unwrap();
        let optimal = same
            .total(CompositionRule::Optimal { delta_prime: 1e-6 })
            .unwrap();
        assert!(matches!(rule.name(), "optimal" | "pld"), "{rule:?}");
        assert!(total.epsilon() <= optimal.epsilon() && total.epsilon() > optimal.epsilon() - 1e-6);
        assert!(same.tightest(1.0).is_err() && same.tightest(-1e-9).is_err());
        // δ' = 0 is the pure question: 1000 runs of 0.01-DP are 10-DP, and no less
        // (issue 37 §6: Best refused it, contradicting its own message).
        let (pure, _) = same.tightest(0.0).unwrap();
        assert!(pure.delta() == 0.0 && pure.epsilon() >= 10.0 && pure.epsilon() < 10.0 + 1e-9);
    }

    /// δ' = 0 and an exact ε of 0 are answered by every rule that applies (issue 37 §6).
    #[test]
    fn zero_slack_and_zero_epsilon_are_answered() {
        let mut pure = Accountant::new();
        for i in 0..10 {
            pure.record(format!("q{i}"), Privacy::pure(1.0).unwrap());
        }
        let pld = pure
            .total(CompositionRule::Pld { delta_prime: 0.0 })
            .unwrap();
        assert!(
            pld.epsilon() >= 10.0 && pld.epsilon() < 10.0 + 1e-9,
            "{pld:?}"
        );
        assert_eq!(pld.delta(), 0.0);
        let bounds = pure.pld_bounds(0.0, None).unwrap();
        assert!(
            bounds.lower > 10.0 - 1e-9 && bounds.lower <= 10.0,
            "{bounds:?}"
        );
        assert_eq!(bounds.limited_by, None);
        let best = pure
            .total(CompositionRule::Best { delta_prime: 0.0 })
            .unwrap();
        assert!(
            best.epsilon() >= 10.0 && best.epsilon() < 10.0 + 1e-9,
            "{best:?}"
        );
        // Subsampled discrete Laplace at δ' = 0: the largest loss ln(1 + q(e^{Δ/b} − 1)),
        // summed, within rounding.
        let mut sampled = Accountant::new();
        let step = PldStep::discrete_laplace(2.0, 1)
            .unwrap()
            .poisson_subsampled(0.1)
            .unwrap();
        for i in 0..5 {
            sampled.record_step(format!("s{i}"), step).unwrap();
        }
        let b = sampled.pld_bounds(0.0, None).unwrap();
        let exact = 5.0 * (0.1 * 0.5f64.exp_m1()).ln_1p();
        assert!(
            b.lower <= exact && exact <= b.upper && b.gap() < 1e-9,
            "{b:?} {exact}"
        );
        // With steps' own δ, δ' = 0 gives the upper bound and names why the lower is 0.
        let mut own = Accountant::new();
        own.record("a", Privacy::new(1.0, 1e-6).unwrap());
        own.record("b", Privacy::new(2.0, 1e-7).unwrap());
        let b = own.pld_bounds(0.0, None).unwrap();
        assert!(
            b.upper >= 3.0 && b.upper < 3.0 + 1e-9 && b.lower == 0.0,
            "{b:?}"
        );
        assert_eq!(
            b.limited_by,
            Some(crate::AccuracyLimit::NoSlackBesideOwnDelta)
        );
        // An exact ε of 0: ten 1-DP runs at δ' = 0.999999 are (0, 0.999999)-DP (the
        // hockey stick at ε' = 0 is 1 − 2·(1/(1 + e))^10·… < δ'), answered by the PLD.
        let near_one = pure.total(CompositionRule::Pld {
            delta_prime: 0.999999,
        });
        let near_one = near_one.unwrap();
        assert_eq!(near_one.epsilon(), f64::from_bits(1), "{near_one:?}");
    }

    #[test]
    fn totals_follow_the_rules() {
        let mut accountant = Accountant::new();
        accountant.record("a", Privacy::pure(0.5).unwrap());
        accountant.record("b", Privacy::new(0.5, 1e-7).unwrap());
        let basic = accountant.total(CompositionRule::Basic).unwrap();
        assert!(basic.epsilon() >= 1.0 && basic.epsilon() < 1.0 + 1e-15);
        assert!(basic.delta() >= 1e-7 && basic.delta() < 1e-7 + 1e-22);
        // For two runs advanced composition is worse than basic; the PLD spends the slack δ′
        // on a sliver of ε, and Best reports the smallest ε.
        let best = accountant
            .total(CompositionRule::Best { delta_prime: 1e-6 })
            .unwrap();
        let pld = accountant
            .total(CompositionRule::Pld { delta_prime: 1e-6 })
            .unwrap();
        assert_eq!(best, pld);
        assert!(best.epsilon() < basic.epsilon() && best.epsilon() > basic.epsilon() - 1e-4);
        let advanced = accountant
            .total(CompositionRule::Advanced { delta_prime: 1e-6 })
            .unwrap();
        assert!(advanced.epsilon() > basic.epsilon());
        assert_eq!(accountant.entries().len(), 2);
    }

    #[test]
    fn records_per_prediction_and_refuses_non_dp_entries() {
        let mut accountant = Accountant::new();
        accountant.record("prediction 1", Guarantee::per_prediction(0.25).unwrap());
        accountant.record("prediction 2", Guarantee::per_prediction(0.25).unwrap());
        let total = accountant.total(CompositionRule::Basic).unwrap();
        assert!((0.5..0.5 + 1e-15).contains(&total.epsilon()));
        accountant.record("stable model", Guarantee::UniformStability { beta: 0.1 });
        assert!(matches!(
            accountant.total(CompositionRule::Basic),
            Err(Error::NotDifferentiallyPrivate { label, .. }) if label == "stable model"
        ));
    }

    #[test]
    fn subsampled_steps_use_their_own_pairs() {
        let base = Privacy::pure(1.0).unwrap();
        let step = PldStep::private(base).poisson_subsampled(0.01).unwrap();
        let mut subsampled = Accountant::new();
        let mut amplified = Accountant::new();
        for round in 0..1000 {
            subsampled.record_step(format!("s{round}"), step).unwrap();
            amplified.record(format!("a{round}"), step.privacy().unwrap());
        }
        // Basic, advanced and optimal composition see the same amplified guarantees.
        for rule in [
            CompositionRule::Basic,
            CompositionRule::Advanced { delta_prime: 1e-6 },
            CompositionRule::Optimal { delta_prime: 1e-6 },
        ] {
            assert_eq!(
                subsampled.total(rule).unwrap(),
                amplified.total(rule).unwrap()
            );
        }
        let (pairs, rule) = subsampled.tightest(1e-6).unwrap();
        let (first, _) = amplified.tightest(1e-6).unwrap();
        assert_eq!(rule.name(), "pld");
        assert!(
            pairs.epsilon() < 0.7 * first.epsilon(),
            "{pairs:?} vs {first:?}"
        );
        assert_eq!(subsampled.entries()[0].step, Some(step));
        assert_eq!(amplified.entries()[0].step, None);
        // A discrete Laplace run enters with its ε = Δ/b.
        let mut counts = Accountant::new();
        counts
            .record_step("count", PldStep::discrete_laplace(4.0, 1).unwrap())
            .unwrap();
        let basic = counts.total(CompositionRule::Basic).unwrap();
        assert!((0.25..0.25 + 1e-15).contains(&basic.epsilon()));
    }

    #[test]
    fn many_bounded_range_steps_compose_on_a_fine_grid() {
        // 100 exponential mechanisms at ε = 0.1: before issue 29 the grid 10⁻⁴ exceeded the
        // direct convolutions' work cap and the rule fell back to a coarser grid; with
        // transforms it composes on the fine grid, and the rule is at least as tight.
        let mut accountant = Accountant::new();
        let step = PldStep::bounded_range(0.1).unwrap();
        for round in 0..100 {
            accountant.record_step(format!("em {round}"), step).unwrap();
        }
        let fine = crate::pld_steps_composition(&vec![step; 100], 1e-6, PLD_INTERVAL).unwrap();
        let bounds = accountant.pld_bounds(1e-6, None).unwrap();
        assert!(
            bounds.lower <= fine.epsilon() && fine.epsilon() <= bounds.upper + 0.01,
            "{fine:?} vs {bounds:?}"
        );
        let (total, rule) = accountant.tightest(1e-6).unwrap();
        assert_eq!(rule.name(), "pld");
        let on_1e3 = crate::pld_steps_composition(&vec![step; 100], 1e-6, 1e-3).unwrap();
        assert!(
            total.epsilon() <= on_1e3.epsilon(),
            "{total:?} vs {on_1e3:?}"
        );
        let pure = accountant
            .total(CompositionRule::Optimal { delta_prime: 1e-6 })
            .unwrap();
        assert!(
            total.epsilon() < 0.6 * pure.epsilon(),
            "{total:?} vs {pure:?}"
        );
    }

    #[test]
    fn empty_accountant_is_an_error() {
        assert!(matches!(
            Accountant::new().total(CompositionRule::Basic),
            Err(Error::InvalidCount { .. })
        ));
    }
}
