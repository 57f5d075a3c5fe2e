//! `privpac dim`: exact VC and Littlestone dimensions of a class, with witnesses.

use std::time::Instant;

use anyhow::Context as _;
use concept_classes::dimension::{Budget, Engine, littlestone_dimension, vc_dimension};
use concept_classes::{DEFAULT_CELL_LIMIT, materialize, parse_spec};
use serde_json::json;

use crate::cli::{DimArgs, EngineArg};
use crate::output::print_json;

/// Runs `privpac dim`.
pub(crate) fn run(args: &DimArgs) -> anyhow::Result<()> {
    let class = parse_spec(&args.class)?;
    let matrix = materialize(class.as_ref(), DEFAULT_CELL_LIMIT)
        .with_context(|| format!("cannot materialize {}", class.name()))?;
    let budget = args
        .max_states
        .map_or_else(Budget::default, |max_states| Budget { max_states });
    let engine = match args.engine {
        EngineArg::Pruned => Engine::Pruned,
        EngineArg::Plain => Engine::Plain,
    };
    let started = Instant::now();
    let vc = vc_dimension(&matrix, &budget)?;
    let vc_time = started.elapsed();
    let started = Instant::now();
    let ldim = littlestone_dimension(&matrix, engine, &budget)?;
    let ldim_time = started.elapsed();
    if args.common.json {
        print_json(&json!({
            "class": class.name(),
            "concepts": class.len().to_string(),
            "points": class.domain().size().to_string(),
            "vc_dimension": vc.dimension,
            "shattered_set": vc.shattered,
            "littlestone_dimension": ldim.dimension,
            "littlestone_tree": ldim.tree,
            "vc_seconds": vc_time.as_secs_f64(),
            "littlestone_seconds": ldim_time.as_secs_f64(),
        }));
    } else {
        println!("class:                 {}", class.name());
        println!("|C| concepts:          {}", class.len());
        println!("|X| points:            {}", class.domain().size());
        println!(
            "VC dimension:          {}  (computed in {vc_time:.2?})",
            vc.dimension
        );
        println!("  shattered set:       {:?}", vc.shattered);
        println!(
            "Littlestone dimension: {}  (computed in {ldim_time:.2?})",
            ldim.dimension
        );
        println!(
            "  witness tree depth:  {} (full tree with --json)",
            ldim.tree.depth()
        );
    }
    Ok(())
}
