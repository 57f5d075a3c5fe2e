//! `THRESH_X`: thresholds `c_t(y) = 1 iff y ≤ t` over an ordered domain.

use crate::class::points::push_run;
use crate::class::{ConceptClass, ErrorRun, check_sample, dense_len};
use crate::domain::{Domain, Point};
use crate::error::{Error, Result};
use crate::sample::LabeledSample;

/// Thresholds over `[N]`: concept `t ∈ [N]` labels `y` with 1 iff `y ≤ t`, i.e. the
/// indicators of the N non-empty prefixes of the domain (Bun–Nissim–Stemmer's `THRESH_X`
/// is "1 on a prefix"; add the empty prefix with [`crate::class::WithZero`]). VC dimension 1; Littlestone dimension ⌊log2 N⌋ (a chain of N nested
/// sets; ⌊log2(N+1)⌋ with the all-zero concept added, see [`crate::class::WithZero`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Thresholds {
    domain: Domain,
    size: u64,
}

impl Thresholds {
    /// Thresholds over `[size]`.
    ///
    /// # Errors
    /// [`Error::InvalidDomain`] for size 0.
    pub fn new(size: u64) -> Result<Self> {
        Ok(Thresholds {
            domain: Domain::ordered(size)?,
            size,
        })
    }

    /// Thresholds over an ordered domain.
    ///
    /// # Errors
    /// [`Error::InvalidClass`] for a domain that is not ordered.
    pub fn over(domain: Domain) -> Result<Self> {
        match domain {
            Domain::Ordered { size } => Thresholds::new(size),
            other => Err(Error::InvalidClass {
                reason: format!("thresholds need an ordered domain, got {other}"),
            }),
        }
    }
}

impl ConceptClass for Thresholds {
    fn domain(&self) -> &Domain {
        &self.domain
    }

    fn len(&self) -> u128 {
        u128::from(self.size)
    }

    fn eval(&self, id: u64, x: Point) -> bool {
        x <= id
    }

    fn name(&self) -> String {
        format!("thresholds:{}", self.size)
    }

    /// Prefix counts, O(n + |X|): `errors(t) = #{positives with x > t} + #{negatives with
    /// x ≤ t}`, computed from per-point tallies in one sweep over `t`.
    fn error_counts(&self, sample: &LabeledSample) -> Result<Vec<u64>> {
        check_sample(&self.domain, sample)?;
        let len = dense_len(self)?;
        let mut positives_at = vec![0u64; len];
        let mut negatives_at = vec![0u64; len];
        let mut positives_total = 0;
        for (x, y) in sample.iter() {
            if y {
                positives_at[x as usize] += 1;
                positives_total += 1;
            } else {
                negatives_at[x as usize] += 1;
            }
        }
        let mut counts = Vec::with_capacity(len);
        let (mut positives_at_or_below, mut negatives_at_or_below) = (0, 0);
        for t in 0..len {
            positives_at_or_below += positives_at[t];
            negatives_at_or_below += negatives_at[t];
            counts.push(positives_total - positives_at_or_below + negatives_at_or_below);
        }
        Ok(counts)
    }

    /// O(n log n) without materializing |X|: sort the sample, sweep its distinct points;
    /// between consecutive sample points the count is constant.
    fn error_runs(&self, sample: &LabeledSample) -> Result<Vec<ErrorRun>> {
        check_sample(&self.domain, sample)?;
        let mut examples: Vec<(u64, bool)> = sample.iter().collect();
        examples.sort_unstable();
        let positives_total = examples.iter().filter(|e| e.1).count() as u64;
        let mut runs = Vec::new();
        // errors for t below the smallest sample point: all positives are missed.
        let mut errors = positives_total;
        let mut next_t: u64 = 0;
        let mut i = 0;
        while i < examples.len() {
            let x = examples[i].0;
            if x > next_t {
                push_run(&mut runs, next_t, u128::from(x - next_t), errors);
            }
            while i < examples.len() && examples[i].0 == x {
                if examples[i].1 {
                    errors -= 1; // a positive at x is now covered by t ≥ x
                } else {
                    errors += 1; // a negative at x is now wrongly covered
                }
                i += 1;
            }
            push_run(&mut runs, x, 1, errors);
            next_t = x + 1;
        }
        if u128::from(next_t) < self.len() {
            push_run(&mut runs, next_t, self.len() - u128::from(next_t), errors);
        }
        Ok(runs)
    }
}
