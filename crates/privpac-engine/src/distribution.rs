//! The distributions examples are drawn from, over the points of a finite domain.

use privpac_classes::Point;
use serde::{Deserialize, Serialize};

/// The distribution examples are drawn from: over the points of a finite domain (by
/// enumeration index). Named so as not to clash with `rand`'s `Distribution` trait.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ExampleDistribution {
    /// Every point equally likely.
    Uniform,
    /// Mass `mass` on one point, the rest spread uniformly over the others.
    PointMass {
        /// The heavy point.
        point: Point,
        /// Its probability, in [0, 1].
        mass: f64,
    },
    /// `Pr[i] ∝ 1/(i+1)^exponent` over the enumeration order.
    Zipf {
        /// The exponent s > 0.
        exponent: f64,
    },
    /// Explicit non-negative weights, one per point (normalized here).
    Explicit {
        /// The weights.
        weights: Vec<f64>,
    },
}

#[cfg(test)]
mod tests {
    use privpac_classes::{ConceptClass, Domain, Intervals, Parities, Points, Thresholds};

    use super::ExampleDistribution;

    /// The heavy point is the first positive point of the target on every structured class,
    /// however large the domain (the scan it replaces stopped after 2^28 points).
    #[test]
    fn mass_on_target_finds_the_positive_point_on_huge_domains() {
        let classes: Vec<(Box<dyn ConceptClass>, u64)> = vec![
            (
                Box::new(Points::new(Domain::ordered(1 << 40).unwrap())),
                1 << 39,
            ),
            (Box::new(Points::new(Domain::ordered(10).unwrap())), 7),
            (Box::new(Thresholds::new(1 << 40).unwrap()), 12345),
            (Box::new(Parities::new(40).unwrap()), 0b1011000),
        ];
        for (class, target) in &classes {
            let ExampleDistribution::PointMass { point, mass } =
                ExampleDistribution::mass_on_target(class.as_ref(), *target, 0.2)
            else {
                panic!("not a point mass");
            };
            assert_eq!(mass, 0.2);
            assert!(class.eval(*target, point), "{}: {point}", class.name());
            let earlier = point.min(1000);
            assert!(
                (0..earlier).all(|x| !class.eval(*target, x)),
                "{}",
                class.name()
            );
        }
        let intervals = Intervals::new(1 << 20).unwrap();
        let id = intervals.len() as u64 / 3;
        let ExampleDistribution::PointMass { point, .. } =
            ExampleDistribution::mass_on_target(&intervals, id, 0.2)
        else {
            panic!("not a point mass");
        };
        assert!(intervals.eval(id, point) && (point == 0 || !intervals.eval(id, point - 1)));
    }
}
