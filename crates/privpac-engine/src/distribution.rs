//! The distributions examples are drawn from, over the points of a finite domain.

use privpac_classes::{ConceptClass, Point};
use serde::{Deserialize, Serialize};

use crate::limits::MAX_EXACT_DOMAIN;

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

impl ExampleDistribution {
    /// Mass `mass` on the first point (in enumeration order) that concept `target` labels
    /// 1, or on point 0 if it labels none, the rest uniform: a distribution on which
    /// missing the target's positive point costs error `mass`.
    ///
    /// # Example
    /// ```
    /// use privpac_classes::Points;
    /// use privpac_classes::Domain;
    /// use privpac_engine::ExampleDistribution;
    /// let class = Points::new(Domain::ordered(10)?);
    /// assert_eq!(
    ///     ExampleDistribution::mass_on_target(&class, 7, 0.2),
    ///     ExampleDistribution::PointMass { point: 7, mass: 0.2 }
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn mass_on_target(class: &dyn ConceptClass, target: u64, mass: f64) -> Self {
        let domain = class.domain();
        let size = domain.size().min(MAX_EXACT_DOMAIN) as u64;
        let point = (0..size)
            .filter_map(|i| domain.point_at(i))
            .find(|&x| class.eval(target, x))
            .unwrap_or(0);
        ExampleDistribution::PointMass { point, mass }
    }
}
