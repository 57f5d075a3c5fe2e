//! `privpac sanitize`: private synthetic data for the counting queries of a class.

use privpac_accounting::{Privacy, Private as _};
use privpac_sanitizers::{SyntheticDatabase, max_query_error};
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
}

impl Render for SanitizeReport {
    fn render(&self) -> String {
        let mut table = Table::new(&["point", "weight"]);
        for (x, w) in &self.heaviest {
            table.row(vec![x.to_string(), format!("{w:.4}")]);
        }
        format!(
            "class: {}   sanitizer: {}   data points: {}\nguarantee: {}\n\
             synthetic database: {} support points; heaviest:\n{}\
             max query error over the class: {:.4} (concept {})\n",
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
    let sanitizer = build_sanitizer(spec, privacy, &sanitizer_params(args.options))?;
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
    };
    emit(&report, args.common.json)
}
