//! TreeLog's exact output distribution on tiny domains (for audits): the same steps as the
//! sampler, with every random choice replaced by a sum over its outcomes weighted by the
//! probabilities of privpac's mechanisms.

use super::multiset::Multiset;
use super::treelog::{TreeLog, candidates, level_bits};
use crate::error::{Error, Result};

/// A path under construction: level, prefix, probability, steps (level, other weight).
type PartialPath = (u32, u128, f64, Vec<(u32, u64)>);

/// Largest domain (in bits) whose output distribution is computed.
pub const MAX_EXACT_BITS: u32 = 6;

impl TreeLog {
    /// `Pr[output = y]` for every `y ∈ [0, 2^d)`, for domains of at most
    /// 2^[`MAX_EXACT_BITS`] values (computed in floating point from the exact
    /// probabilities of the path steps, the choosing mechanism and the exponential
    /// mechanisms).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for a larger domain; the errors of [`TreeLog::run`] for
    /// the sample.
    pub fn output_distribution(&self, sample: &[u64]) -> Result<Vec<f64>> {
        let d = self.domain_bits();
        if d > MAX_EXACT_BITS {
            return Err(Error::InvalidParameter {
                name: "domain bits for an exact distribution",
                range: "1..=6",
                value: f64::from(d),
            });
        }
        self.validate_sample(sample)?;
        self.distribution(&Multiset::from_points(sample), d)
    }

    fn distribution(&self, set: &Multiset, d: u32) -> Result<Vec<f64>> {
        let size = 1usize << d;
        if d <= self.parameters().base_bits {
            let scores: Vec<f64> = (0..size as u128)
                .map(|y| set.interior_quality(y) as f64)
                .collect();
            return self.selection_mechanism().probabilities(&scores);
        }
        let t = self.parameters().trim;
        let hat = set.trimmed(t);
        let weight = |level: u32, prefix: u128| {
            let shift = d - level;
            hat.count_between(prefix << shift, ((prefix + 1) << shift) - 1)
        };
        let mut out = vec![0.0; size];
        // Depth-first over paths: (level, prefix, probability, steps so far).
        let mut stack: Vec<PartialPath> = vec![(0, 0, 1.0, Vec::new())];
        while let Some((level, prefix, probability, steps)) = stack.pop() {
            if !(level == d || weight(level, prefix) <= t) {
                let (w0, w1) = (
                    weight(level + 1, 2 * prefix),
                    weight(level + 1, 2 * prefix + 1),
                );
                let split = if w0 == 0 {
                    [0.0, 1.0]
                } else if w1 == 0 {
                    [1.0, 0.0]
                } else {
                    let p = self
                        .path_mechanism()
                        .probabilities(&[w0 as f64, w1 as f64])?;
                    [p[0], p[1]]
                };
                for (bit, p) in split.into_iter().enumerate() {
                    if p > 0.0 {
                        let mut next = steps.clone();
                        next.push((level, if bit == 0 { w1 } else { w0 }));
                        stack.push((level + 1, 2 * prefix + bit as u128, probability * p, next));
                    }
                }
                continue;
            }
            let levels = Multiset::from_runs(&self.levels_database(set.len(), &steps, level, d));
            let inner = self.distribution(&levels, level_bits(d))?;
            for (returned, &p_level) in inner.iter().enumerate() {
                if p_level == 0.0 {
                    continue;
                }
                let chosen_level = (returned as u64).min(u64::from(d)) as u32;
                let nodes = hat.nodes_at(d, chosen_level);
                let weights: Vec<u64> = nodes.iter().map(|&(_, w)| w).collect();
                let choosing = self.choosing_mechanism()?.output_distribution(&weights)?;
                for (index, &p_node) in choosing.iter().enumerate() {
                    if p_node == 0.0 {
                        continue;
                    }
                    let (node_level, node) = match nodes.get(index) {
                        Some(&(node, _)) => (chosen_level, node),
                        None => (0, 0),
                    };
                    let four = candidates(d, node_level, node);
                    let scores: Vec<f64> = four
                        .iter()
                        .map(|&y| set.interior_quality(y) as f64)
                        .collect();
                    let last = self.selection_mechanism().probabilities(&scores)?;
                    for (&y, p_y) in four.iter().zip(last) {
                        out[y as usize] += probability * p_level * p_node * p_y;
                    }
                }
            }
        }
        Ok(out)
    }
}
