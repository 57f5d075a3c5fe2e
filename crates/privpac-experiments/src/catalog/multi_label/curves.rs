//! The curves of the `k-curves` experiment: each multi-learner with its scenario, total
//! budget and the §1.3 table entry it is compared with.

use privpac_classes::{Domain, Parities, Points};
use privpac_multi::lower_bounds::TablePrivacy;
use privpac_toolkit::{ExampleDistribution, MultiScenario, MultiTargets};

/// A curve of `k-curves`: id, scenario, multi-learner spec, total (ε, δ), and the §1.3
/// table entry compared with (class, privacy, agnostic).
pub(super) struct Curve {
    pub(super) id: &'static str,
    pub(super) scenario: fn(usize) -> privpac_toolkit::Result<MultiScenario>,
    pub(super) spec: &'static str,
    pub(super) total: (f64, f64),
    pub(super) table: (&'static str, TablePrivacy, bool),
    /// The table entry's reference when the (class, privacy, agnostic) cell has a proper
    /// and an improper entry (`None`: the first one).
    pub(super) reference: Option<&'static str>,
    /// For a direct sum: split the budget by basic or advanced composition only (the split
    /// before optimal composition), for comparison with the default best-of-all split.
    pub(super) advanced_split: bool,
}

pub(super) const APPROXIMATE: (f64, f64) = (1.0, 1e-6);

/// Every multi-learner: the parity and point learners (Algorithms 4 and 5, realizable
/// approximate-DP rows of the table: exponent 0), the pure direct sum (pure realizable
/// POINT_X row, `k + log|C|`: exponent 1), the approximate direct sum and the generic
/// learner with PMW (the approximate `general C` row of Theorem 3.1, `√k·log|C|`:
/// exponent 1/2; that row is stated agnostic, which only makes it an upper bound for
/// the realizable case too), the generic learner with MWEM (the pure `general C` row,
/// `k·log|C|`: exponent 1), and Corollary 3.3's direct sum of the improper point learner
/// on 2^40 points (the pure improper POINT_X row, `k` up to logarithmic factors: exponent
/// 1), and the approximate direct sum split as before optimal composition (basic or
/// advanced only), beside the default split by the best of basic, advanced and optimal
/// (new curves come last, so that earlier units keep their indices).
pub(super) const CURVES: [Curve; 8] = [
    Curve {
        id: "parity",
        scenario: parity_scenario,
        spec: "parity",
        total: APPROXIMATE,
        table: ("PAR_d (uniform)", TablePrivacy::Approximate, false),
        reference: None,
        advanced_split: false,
    },
    Curve {
        id: "point",
        scenario: point_scenario,
        spec: "point",
        total: APPROXIMATE,
        table: ("POINT_X", TablePrivacy::Approximate, false),
        reference: None,
        advanced_split: false,
    },
    Curve {
        id: "direct-sum pure",
        scenario: small_point_scenario,
        spec: "direct-sum:generic",
        total: (1.0, 0.0),
        table: ("POINT_X", TablePrivacy::Pure, false),
        reference: None,
        advanced_split: false,
    },
    Curve {
        id: "direct-sum approximate",
        scenario: small_point_scenario,
        spec: "direct-sum:generic",
        total: APPROXIMATE,
        table: ("general C", TablePrivacy::Approximate, true),
        reference: None,
        advanced_split: false,
    },
    Curve {
        id: "generic:mwem",
        scenario: small_point_scenario,
        spec: "generic:mwem",
        total: (1.0, 0.0),
        table: ("general C", TablePrivacy::Pure, true),
        reference: None,
        advanced_split: false,
    },
    Curve {
        id: "generic:pmw",
        scenario: small_point_scenario,
        spec: "generic:pmw",
        total: APPROXIMATE,
        table: ("general C", TablePrivacy::Approximate, true),
        reference: None,
        advanced_split: false,
    },
    Curve {
        id: "direct-sum improper-point",
        scenario: huge_point_scenario,
        spec: "direct-sum:improper-point",
        total: (1.0, 0.0),
        table: ("POINT_X", TablePrivacy::Pure, false),
        reference: Some("Cor 3.3"),
        advanced_split: false,
    },
    Curve {
        id: "direct-sum approximate, advanced split",
        scenario: small_point_scenario,
        spec: "direct-sum:generic",
        total: APPROXIMATE,
        table: ("general C", TablePrivacy::Approximate, true),
        reference: None,
        advanced_split: true,
    },
];

/// Parities over {0,1}^8 under the uniform distribution, k targets drawn with seed 7 + k.
fn parity_scenario(k: usize) -> privpac_toolkit::Result<MultiScenario> {
    MultiScenario::new(
        Box::new(Parities::new(8)?),
        &ExampleDistribution::Uniform,
        MultiTargets::Random {
            k,
            seed: 7 + k as u64,
        },
        0.0,
    )
}

/// Five support points with masses 0.4, 0.3, 0.2, 0.05, 0.05, targets cycling over them.
fn five_points(size: u64, support: [u64; 5], k: usize) -> privpac_toolkit::Result<MultiScenario> {
    let weights = [0.4, 0.3, 0.2, 0.05, 0.05];
    MultiScenario::on_support(
        Box::new(Points::new(Domain::ordered(size)?)),
        support.iter().copied().zip(weights).collect(),
        MultiTargets::Given {
            targets: (0..k).map(|j| support[j % 5]).collect(),
        },
        0.0,
    )
}

/// Point functions over [2^20] on a five-point support.
fn point_scenario(k: usize) -> privpac_toolkit::Result<MultiScenario> {
    five_points(1 << 20, [7, 1 << 19, 4242, 99_999, 123], k)
}

/// Point functions over [2^40] on a five-point support (the improper learner's sample
/// size does not depend on |X|).
fn huge_point_scenario(k: usize) -> privpac_toolkit::Result<MultiScenario> {
    five_points(1 << 40, [7, 1 << 39, 4_242_424_242, 99_999, 123], k)
}

/// Point functions over [64] on a five-point support (small enough for the exponential
/// mechanism over the whole class and for the sanitizers).
fn small_point_scenario(k: usize) -> privpac_toolkit::Result<MultiScenario> {
    five_points(64, [7, 60, 42, 33, 12], k)
}
