//! `privpac sanitize`: private synthetic data for the counting queries of a class.

use privpac_accounting::{Privacy, Private as _};
use privpac_classes::Domain;
use privpac_sanitizers::{QuantileSanitizer, SyntheticDatabase, max_query_error};
use privpac_toolkit::{ClassSpec, SanitizerSpec, build_sanitizer, read_points_csv_with};
use serde::Serialize;

use crate::cli::SanitizeArgs;
use crate::commands::{data_options, rng, sanitizer_params};
use crate::output::{Render, Table, emit};

/// The JSON of `privpac sanitize`.
#[derive(Debug, Serialize)]
struct SanitizeReport {
    class: String,
    sanitizer: String,
    guarantee: Privacy,
    guarantee_text: String,
    data_points: usize,
    synthetic: SyntheticDatabase,
    /// Points with positive weight in the synthetic database.
    support_points: usize,
    /// max over the class of |c(D) − c(D̂)|.
    max_query_error: f64,
    /// A concept attaining it.
    worst_concept: u64,
    /// The heaviest support points, `[point, weight]`, at most --show of them.
    heaviest: Vec<(u64, f64)>,
    /// For the sanitizers with a proved sample size (`treelog-quantiles`): the number of
    /// points from which the release is α-accurate on every query with probability at
    /// least 1 − β, β = [`PROVED_BETA`]. Absent for the others.
    #[serde(skip_serializing_if = "Option::is_none")]
    proved_sample_size: Option<ProvedSize>,
}

/// The failure probability at which `privpac sanitize` states a proved sample size.
const PROVED_BETA: f64 = 0.1;

/// A sanitizer's proved sample size for the requested α at failure probability β.
#[derive(Debug, Serialize)]
struct ProvedSize {
    alpha: f64,
    beta: f64,
    n: u64,
}

/// The proved sample size of `treelog-quantiles` on an ordered domain (its
/// `QuantileSanitizer::min_sample_size` at β = [`PROVED_BETA`]), `None` for the other
/// sanitizers and when it is not representable.
fn proved_size(
    spec: SanitizerSpec,
    privacy: Privacy,
    alpha: f64,
    domain: &Domain,
) -> Option<ProvedSize> {
    let Domain::Ordered { size } = *domain else {
        return None;
    };
    if spec != SanitizerSpec::TreelogQuantiles {
        return None;
    }
    let n = QuantileSanitizer::new(privacy, alpha)
        .and_then(|s| s.min_sample_size(size, PROVED_BETA))
        .ok()?;
    Some(ProvedSize {
        alpha,
        beta: PROVED_BETA,
        n,
    })
}

impl Render for SanitizeReport {
    fn render(&self) -> String {
        let mut table = Table::new(&["point", "weight"]);
        for (x, w) in &self.heaviest {
            table.row(vec![x.to_string(), format!("{w:.4}")]);
        }
        let proved = match &self.proved_sample_size {
            Some(p) if (self.data_points as u64) < p.n => format!(
                "note: accuracy α = {} is proved (with probability {}) from {} points; these {} \
                 points are fewer, so the error above may exceed α\n",
                p.alpha,
                1.0 - p.beta,
                p.n,
                self.data_points
            ),
            Some(p) => format!(
                "accuracy α = {} is proved (with probability {}) from {} points\n",
                p.alpha,
                1.0 - p.beta,
                p.n
            ),
            None => String::new(),
        };
        format!(
            "class: {}   sanitizer: {}   data points: {}\nguarantee: {}\n\
             synthetic database: {} support points; heaviest:\n{}\
             max query error over the class: {:.4} (concept {})\n{proved}",
            self.class,
            self.sanitizer,
            self.data_points,
            self.guarantee_text,
            self.support_points,
            table.render(),
            self.max_query_error,
            self.worst_concept
        )
    }
}

/// Runs `privpac sanitize`.
pub(crate) fn run(args: &SanitizeArgs) -> anyhow::Result<()> {
    let class = args.class.parse::<ClassSpec>()?.build()?;
    let spec: SanitizerSpec = args.sanitizer.parse()?;
    let privacy = Privacy::new(args.epsilon, args.delta)?;
    let params = sanitizer_params(args.options);
    let sanitizer = build_sanitizer(spec, privacy, &params)?;
    let options = data_options(&args.data_file, class.domain())?;
    let data = read_points_csv_with(&args.data, class.domain(), &options)?;
    let synthetic = sanitizer.sanitize(class.as_ref(), &data, &mut rng(&args.common))?;
    let (error, worst) = max_query_error(class.as_ref(), &data, &synthetic)?;
    let mut support = synthetic.weights();
    support.retain(|&(_, w)| w > 0.0);
    support.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let support_points = support.len();
    support.truncate(args.show);
    let report = SanitizeReport {
        class: class.name(),
        sanitizer: sanitizer.name(),
        guarantee: sanitizer.privacy(),
        guarantee_text: sanitizer.privacy().to_string(),
        data_points: data.len(),
        synthetic,
        support_points,
        max_query_error: error,
        worst_concept: worst,
        heaviest: support,
        proved_sample_size: proved_size(spec, privacy, params.alpha, class.domain()),
    };
    emit(&report, args.common.json)
}
