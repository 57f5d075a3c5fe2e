//! `privpac sanitize`, and the sanitizer construction shared with `learn`.

use anyhow::Context as _;
use concept_classes::{parse_points_csv, parse_spec};
use dp_mechanisms::Privacy;
use sanitizers::{
    BlumLigettRoth, Mwem, PointSanitizer, PrivateMultiplicativeWeights, Sanitizer,
    ThresholdSanitizer, max_query_error,
};
use serde_json::json;

use crate::cli::{SanitizeArgs, SanitizerName, SanitizerOptions};
use crate::commands::rng;
use crate::output::{Table, print_json};

/// Builds a sanitizer from its name and options.
pub(crate) fn build_sanitizer(
    name: SanitizerName,
    privacy: Privacy,
    options: SanitizerOptions,
) -> anyhow::Result<Box<dyn Sanitizer>> {
    Ok(match name {
        SanitizerName::Point => Box::new(PointSanitizer::new(privacy, options.alpha)?),
        SanitizerName::Blr => Box::new(BlumLigettRoth::new(privacy, options.database_size)?),
        SanitizerName::Pmw => Box::new(PrivateMultiplicativeWeights::new(privacy, options.alpha)?),
        SanitizerName::Mwem => Box::new(Mwem::new(privacy, options.rounds)?),
        SanitizerName::Tree => Box::new(ThresholdSanitizer::new(privacy)?),
    })
}

/// Parses a sanitizer name (`point`, `blr`, `pmw`, `mwem`, `tree`).
pub(crate) fn parse_sanitizer_name(name: &str) -> anyhow::Result<SanitizerName> {
    use clap::ValueEnum as _;
    SanitizerName::from_str(name, true).map_err(|_| {
        anyhow::anyhow!("unknown sanitizer {name:?} (expected point, blr, pmw, mwem or tree)")
    })
}

/// Runs `privpac sanitize`.
pub(crate) fn run(args: &SanitizeArgs) -> anyhow::Result<()> {
    let class = parse_spec(&args.class)?;
    let text = std::fs::read_to_string(&args.data)
        .with_context(|| format!("cannot read {}", args.data.display()))?;
    let data = parse_points_csv(class.domain(), &text)
        .with_context(|| format!("{}", args.data.display()))?;
    let privacy = Privacy::new(args.epsilon, args.delta)?;
    let sanitizer = build_sanitizer(args.sanitizer, privacy, args.options)?;
    let synthetic = sanitizer.sanitize(class.as_ref(), &data, &mut rng(&args.common))?;
    let (error, worst) = max_query_error(class.as_ref(), &data, &synthetic)?;
    let mut support = synthetic.weights();
    support.retain(|&(_, w)| w > 0.0);
    support.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    if args.common.json {
        print_json(&json!({
            "class": class.name(),
            "sanitizer": sanitizer.name(),
            "guarantee": sanitizer.privacy(),
            "guarantee_text": sanitizer.privacy().to_string(),
            "data_points": data.len(),
            "synthetic": synthetic,
            "max_query_error": error,
            "worst_concept": worst,
        }));
    } else {
        println!(
            "class: {}   sanitizer: {}   data points: {}",
            class.name(),
            sanitizer.name(),
            data.len()
        );
        println!("guarantee: {}", sanitizer.privacy());
        println!(
            "synthetic database: {} support points; heaviest:",
            support.len()
        );
        let mut table = Table::new(&["point", "weight"]);
        for (x, w) in support.iter().take(args.show) {
            table.row(vec![x.to_string(), format!("{w:.4}")]);
        }
        print!("{}", table.render());
        println!("max query error over the class: {error:.4} (concept {worst})");
    }
    Ok(())
}
