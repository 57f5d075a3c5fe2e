//! The exact disagreement of a noisy vote of parities with a parity target over the
//! hypercube, from the span of the members instead of the `2^d` points.
//!
//! Member j labels x with `⟨a_j, x⟩ ⊕ c_j` (a parity, complemented when `c_j = 1`; the
//! constants are the zero parity and its complement), the target with `⟨t, x⟩ ⊕ c_t`. Let
//! V be the span of the `a_j` and t, of dimension r, and L the leading bits of an echelon
//! basis of V (distinct leading bits). Every non-zero element of V has its highest bit in
//! L, so `a ↦ a|_L` (the bits of a at L, packed) is a linear bijection from V onto
//! `{0,1}^r`: its inverse is the reduced basis `b_1, …, b_r` (`b_i` is 1 at the i-th bit of
//! L and 0 at the others), and `a = Σ_i a|_L[i]·b_i`. So for every x,
//! `⟨a, x⟩ = ⟨a|_L, z⟩` with `z = (⟨b_i, x⟩)_i`, and since the `b_i` are independent, z is
//! uniform on `{0,1}^r` when x is uniform on the cube (each z has exactly `2^{d−r}`
//! preimages).
//!
//! Hence, with `f(v) = Σ_{j : a_j|_L = v} (−1)^{c_j}`, the Walsh–Hadamard transform
//! `F(z) = Σ_v f(v)(−1)^{⟨v, z⟩} = Σ_j (−1)^{⟨a_j, x⟩ ⊕ c_j}` is the number of 0-votes
//! minus the number of 1-votes, so the `k` members cast `ones(z) = (k − F(z))/2` 1-votes,
//! and the target's label is `⟨t|_L, z⟩ ⊕ c_t`. The vote's probability of the wrong label
//! depends on z only through these two numbers, so under the uniform distribution
//! `Pr_x[h(x) ≠ t(x)] = 2^{−r}·Σ_{(o, y)} #{z : ones(z) = o, label(z) = y}·w(o, y)` with
//! `w(o, y)` the vote's probability of `¬y` with o of k votes for 1
//! ([`Predictor::vote_probability`], the sampler's own probability). That is
//! O(r·2^r + k·d) instead of the reference's `2^d` points times k members, and `r ≤ d`
//! (`r = 1` when every member is the target). A point mass m on p plus uniform mass on the
//! rest weighs every point `ρ = (1 − m)/(2^d − 1)` and p `m`: `ρ·2^d` times the uniform
//! disagreement plus `(m − ρ)` times the wrong-label probability at p.

use privpac_classes::{ConceptClass, Hypothesis, walsh_hadamard};
use privpac_learners::Predictor;

use super::{Shape, Structure};
use crate::distribution::ExampleDistribution;
use crate::limits::MAX_EXACT_DOMAIN;

impl Structure {
    /// The disagreement of a noisy vote of `members` (parities of the class, their
    /// complements, constants) with parameter ε with concept `target`, as in the module
    /// documentation; `None` for other members, an ε the mechanism refuses, or a span of
    /// dimension above log₂ of [`MAX_EXACT_DOMAIN`] (the reference's largest domain).
    pub(super) fn parity_vote_disagreement(
        &self,
        class: &dyn ConceptClass,
        target: u64,
        members: &[Hypothesis],
        epsilon: f64,
    ) -> Option<f64> {
        if !matches!(self.shape, Shape::Parities { .. }) {
            return None;
        }
        // (parity, complemented) of every member and of the target.
        let parity_of = |id: u64| -> (u64, bool) { self.split(id) };
        let voters: Vec<(u64, bool)> = members
            .iter()
            .map(|member| match member {
                Hypothesis::Concept { id } if u128::from(*id) < class.len() => Some(parity_of(*id)),
                Hypothesis::Constant { label } => Some((0, *label)),
                _ => None,
            })
            .collect::<Option<_>>()?;
        let (t, t_complemented) = parity_of(target);
        // The leading bits L of an echelon basis of the span.
        let mut rows = [0u64; 64];
        for v in voters.iter().map(|&(a, _)| a).chain([t]) {
            let mut v = v;
            while v != 0 {
                let lead = 63 - v.leading_zeros() as usize;
                if rows[lead] == 0 {
                    rows[lead] = v;
                    break;
                }
                v ^= rows[lead];
            }
        }
        let leads = rows
            .iter()
            .enumerate()
            .filter(|&(_, &row)| row != 0)
            .fold(0u64, |leads, (lead, _)| leads | 1u64 << lead);
        let rank = leads.count_ones();
        if 1u128 << rank > MAX_EXACT_DOMAIN {
            return None;
        }
        let k = voters.len();
        let half_k = i32::try_from(k).ok()?;
        let mut transform = vec![0i32; 1usize << rank];
        for &(a, complemented) in &voters {
            transform[extract(a, leads) as usize] += if complemented { -1 } else { 1 };
        }
        walsh_hadamard(&mut transform);
        // counts[2·ones + label]
        let mut counts = vec![0u64; 2 * (k + 1)];
        let target_coordinates = extract(t, leads);
        for (z, &zeros_minus_ones) in transform.iter().enumerate() {
            let ones = ((half_k - zeros_minus_ones) / 2) as usize;
            let label = ((target_coordinates & z as u64).count_ones() % 2 == 1) != t_complemented;
            counts[2 * ones + usize::from(label)] += 1;
        }
        let wrong = |ones: usize, label: bool| -> f64 {
            Predictor::vote_probability(epsilon, k - ones, ones, !label)
        };
        let mut sum = 0.0;
        for (index, &count) in counts.iter().enumerate() {
            if count > 0 {
                let w = wrong(index / 2, index % 2 == 1);
                if w.is_nan() {
                    return None;
                }
                sum += count as f64 * w;
            }
        }
        let uniform = sum / (1u64 << rank) as f64;
        let disagreement = match &self.distribution {
            ExampleDistribution::Uniform => uniform,
            ExampleDistribution::PointMass { point, mass } => {
                let ones = voters
                    .iter()
                    .filter(|&&(a, c)| ((a & point).count_ones() % 2 == 1) != c)
                    .count();
                let label = ((t & point).count_ones() % 2 == 1) != t_complemented;
                let size = self.size as f64;
                let rest = (1.0 - mass) / (size - 1.0);
                rest * size * uniform + (mass - rest) * wrong(ones, label)
            }
            ExampleDistribution::Zipf { .. } | ExampleDistribution::Explicit { .. } => {
                return None;
            }
        };
        Some(disagreement.clamp(0.0, 1.0))
    }
}

/// The bits of `x` at the set positions of `mask`, packed into the low bits.
fn extract(x: u64, mask: u64) -> u64 {
    let (mut out, mut bit, mut rest) = (0u64, 0u32, mask);
    while rest != 0 {
        out |= (x >> rest.trailing_zeros() & 1) << bit;
        bit += 1;
        rest &= rest - 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use privpac_classes::{Both, ConceptClass, Hypothesis, Not, Parities};
    use privpac_learners::Predictor;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::Structure;
    use crate::{ExampleDistribution, Scenario};

    /// The span computation against the O(k·2^d) reference on 600 seeded random cases:
    /// cubes of dimension 1 to 10, plain, `not(…)` and `both(…)` parities, 1 to 40 members
    /// (repeats, constants and members equal to the target included; low-rank spans from
    /// members drawn among a few parities), ε from 0.01 to 8, uniform and point-mass
    /// distributions, label noise, votes flipped or not; agreement to 10⁻¹² (the two sum
    /// the same probabilities in a different order).
    #[test]
    fn votes_of_parities_match_the_reference() {
        let mut rng = ChaCha8Rng::seed_from_u64(3805);
        for case in 0..600 {
            let dim = rng.random_range(1u32..11);
            let class: Box<dyn ConceptClass> = match case % 3 {
                0 => Box::new(Parities::new(dim).unwrap()),
                1 => Box::new(Not::new(Parities::new(dim).unwrap())),
                _ => Box::new(Both::new(Parities::new(dim).unwrap()).unwrap()),
            };
            let concepts = class.len() as u64;
            let target = rng.random_range(0..concepts);
            // A pool of a few parities (low rank) or the whole class.
            let pool: Vec<u64> = if rng.random_bool(0.5) {
                (0..rng.random_range(1usize..4))
                    .map(|_| rng.random_range(0..concepts))
                    .chain([target])
                    .collect()
            } else {
                Vec::new()
            };
            let k = rng.random_range(1usize..41);
            let members: Vec<Hypothesis> = (0..k)
                .map(|_| match rng.random_range(0..10u32) {
                    0 => Hypothesis::Constant {
                        label: rng.random_bool(0.5),
                    },
                    1 => Hypothesis::Concept { id: target },
                    _ if !pool.is_empty() => Hypothesis::Concept {
                        id: pool[rng.random_range(0..pool.len())],
                    },
                    _ => Hypothesis::Concept {
                        id: rng.random_range(0..concepts),
                    },
                })
                .collect();
            let epsilon = [0.01, 0.3, 1.0, 2.5, 8.0][rng.random_range(0..5usize)];
            let vote = Predictor::NoisyVote { members, epsilon };
            let predictor = if rng.random_bool(0.3) {
                Predictor::Flipped {
                    base: Box::new(vote),
                    flip_probability: rng.random_range(0.0..0.5),
                }
            } else {
                vote
            };
            let distribution = if rng.random_bool(0.5) {
                ExampleDistribution::Uniform
            } else {
                ExampleDistribution::PointMass {
                    point: rng.random_range(0..1u64 << dim),
                    mass: rng.random_range(0.0..=1.0),
                }
            };
            let noise = [0.0, 0.2][rng.random_range(0..2usize)];
            let name = class.name();
            let scenario = Scenario::new(class, distribution.clone(), target, noise).unwrap();
            let structure =
                Structure::recognize(scenario.class(), &distribution).expect("recognized");
            let fast = structure
                .disagreement(scenario.class(), target, &predictor)
                .expect("a vote of parities has a closed form");
            let reference = scenario.reference_excess_error(&predictor) / (1.0 - 2.0 * noise);
            assert!(
                (fast - reference).abs() < 1e-12,
                "{name} {distribution:?} {predictor:?}: fast {fast} reference {reference}"
            );
            let excess = scenario.try_excess_error(&predictor).unwrap();
            assert!((excess - scenario.reference_excess_error(&predictor)).abs() < 1e-12);
        }
    }

    /// Members that are not parities of the class (intervals by their ends) have no
    /// closed form and fall back to the reference.
    #[test]
    fn other_members_use_the_reference() {
        let scenario = Scenario::new(
            Box::new(Parities::new(4).unwrap()),
            ExampleDistribution::Uniform,
            3,
            0.0,
        )
        .unwrap();
        let vote = Predictor::NoisyVote {
            members: vec![
                Hypothesis::Concept { id: 3 },
                Hypothesis::Interval { low: 0, high: 5 },
            ],
            epsilon: 1.0,
        };
        let structure =
            Structure::recognize(scenario.class(), &ExampleDistribution::Uniform).unwrap();
        assert!(structure.disagreement(scenario.class(), 3, &vote).is_none());
        let error = scenario.try_excess_error(&vote).unwrap();
        assert_eq!(error, scenario.reference_excess_error(&vote));
    }

    /// Over 2^40 points (never materialized) a vote whose members span few dimensions has
    /// its exact error: k copies of the target and one other parity disagree with the
    /// target's label at half the points, where one of k + 1 votes is wrong.
    #[test]
    fn low_rank_votes_over_two_to_the_forty_points() {
        let dim = 40;
        let target = (1u64 << 39) | 5;
        let scenario = Scenario::new(
            Box::new(Parities::new(dim).unwrap()),
            ExampleDistribution::Uniform,
            target,
            0.0,
        )
        .unwrap();
        let k = 6;
        let mut members = vec![Hypothesis::Concept { id: target }; k];
        members.push(Hypothesis::Concept { id: 1 << 20 });
        let vote = Predictor::NoisyVote {
            members,
            epsilon: 1.0,
        };
        let error = scenario.try_excess_error(&vote).unwrap();
        // Where the other parity agrees with the target, all k + 1 votes are right; where
        // it disagrees (half the cube), k right and 1 wrong.
        let all_right = Predictor::vote_probability(1.0, 0, k + 1, false);
        let one_wrong = Predictor::vote_probability(1.0, 1, k, false);
        let expected = (all_right + one_wrong) / 2.0;
        assert!((error - expected).abs() < 1e-15, "{error} {expected}");
    }
}
