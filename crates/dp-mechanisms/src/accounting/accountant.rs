//! A small privacy accountant: record mechanisms as they run, report the total.

use crate::accounting::{basic_composition, heterogeneous_advanced_composition};
use crate::error::Result;
use crate::privacy::{Privacy, Private};

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
    /// The smaller ε of the two rules above (both are valid, so their minimum is).
    Best {
        /// The δ' used for the advanced rule.
        delta_prime: f64,
    },
}

/// One recorded mechanism run.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// A label for reports.
    pub label: String,
    /// Its guarantee.
    pub privacy: Privacy,
}

/// Records the guarantees of a sequence of (possibly adaptively chosen) mechanism runs on
/// the same dataset and reports their composition.
///
/// # Example
/// ```
/// use dp_mechanisms::{Accountant, CompositionRule, Privacy};
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

    /// Records one run.
    pub fn record(&mut self, label: impl Into<String>, privacy: Privacy) {
        self.entries.push(Entry {
            label: label.into(),
            privacy,
        });
    }

    /// Records one run of any [`Private`] algorithm, with its reported guarantee.
    pub fn record_run(&mut self, label: impl Into<String>, algorithm: &impl Private) {
        self.record(label, algorithm.privacy());
    }

    /// The recorded runs, in order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The total guarantee under `rule`.
    ///
    /// # Errors
    /// [`crate::Error::InvalidCount`] if nothing was recorded; the errors of the chosen
    /// rule otherwise.
    pub fn total(&self, rule: CompositionRule) -> Result<Privacy> {
        let guarantees: Vec<Privacy> = self.entries.iter().map(|e| e.privacy).collect();
        match rule {
            CompositionRule::Basic => basic_composition(&guarantees),
            CompositionRule::Advanced { delta_prime } => {
                heterogeneous_advanced_composition(&guarantees, delta_prime)
            }
            CompositionRule::Best { delta_prime } => {
                let basic = basic_composition(&guarantees)?;
                match heterogeneous_advanced_composition(&guarantees, delta_prime) {
                    Ok(advanced) if advanced.epsilon() < basic.epsilon() => Ok(advanced),
                    Ok(_) => Ok(basic),
                    Err(error) => Err(error),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Error;

    #[test]
    fn totals_follow_the_rules() {
        let mut accountant = Accountant::new();
        accountant.record("a", Privacy::pure(0.5).unwrap());
        accountant.record("b", Privacy::new(0.5, 1e-7).unwrap());
        let basic = accountant.total(CompositionRule::Basic).unwrap();
        assert!(basic.epsilon() >= 1.0 && basic.epsilon() < 1.0 + 1e-15);
        assert!(basic.delta() >= 1e-7 && basic.delta() < 1e-7 + 1e-22);
        // For two runs advanced composition is worse, so Best picks basic.
        let best = accountant
            .total(CompositionRule::Best { delta_prime: 1e-6 })
            .unwrap();
        assert_eq!(best, basic);
        let advanced = accountant
            .total(CompositionRule::Advanced { delta_prime: 1e-6 })
            .unwrap();
        assert!(advanced.epsilon() > basic.epsilon());
        assert_eq!(accountant.entries().len(), 2);
    }

    #[test]
    fn records_any_private_algorithm() {
        let rr = crate::RandomizedResponse::new(Privacy::pure(0.3).unwrap());
        let mut accountant = Accountant::new();
        accountant.record_run("labels", &rr);
        let total = accountant.total(CompositionRule::Basic).unwrap().epsilon();
        assert!((0.3..0.3 + 1e-15).contains(&total));
    }

    #[test]
    fn empty_accountant_is_an_error() {
        assert!(matches!(
            Accountant::new().total(CompositionRule::Basic),
            Err(Error::InvalidCount { .. })
        ));
    }
}
