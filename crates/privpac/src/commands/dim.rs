//! `privpac dim`: exact VC and Littlestone dimensions of a class, with witnesses that are
//! checked against the class before they are reported.

use std::time::Instant;

use anyhow::Context as _;
use privpac_classes::dimension::{
    Budget, Engine, LittlestoneTree, check_littlestone_tree, check_shattered,
    littlestone_dimension, vc_dimension,
};
use privpac_classes::{DEFAULT_CELL_LIMIT, materialize};
use privpac_toolkit::ClassSpec;
use serde::Serialize;

use crate::cli::{DimArgs, EngineArg};
use crate::output::{Render, emit, spinner};

/// The JSON of `privpac dim`.
#[derive(Debug, Serialize)]
struct DimReport {
    class: String,
    /// |C|.
    concepts: u128,
    /// |X|.
    points: u128,
    vc_dimension: u32,
    /// A shattered set of that size (column indices).
    shattered_set: Vec<usize>,
    littlestone_dimension: u32,
    /// A shattered Littlestone tree of that depth.
    littlestone_tree: LittlestoneTree,
    /// Both witnesses were checked against the class (always true in a report: a failed
    /// check is an error).
    witnesses_verified: bool,
    vc_seconds: f64,
    littlestone_seconds: f64,
}

impl Render for DimReport {
    fn render(&self) -> String {
        format!(
            "class:                 {}\n\
             |C| concepts:          {}\n\
             |X| points:            {}\n\
             VC dimension:          {}  (computed in {:.3} s)\n\
             \x20 shattered set:       {:?} (verified)\n\
             Littlestone dimension: {}  (computed in {:.3} s)\n\
             \x20 witness tree depth:  {} (verified; full tree with --json)\n",
            self.class,
            self.concepts,
            self.points,
            self.vc_dimension,
            self.vc_seconds,
            self.shattered_set,
            self.littlestone_dimension,
            self.littlestone_seconds,
            self.littlestone_tree.depth()
        )
    }
}

/// Runs `privpac dim`.
pub(crate) fn run(args: &DimArgs) -> anyhow::Result<()> {
    let class = args.class.parse::<ClassSpec>()?.build()?;
    let matrix = materialize(class.as_ref(), DEFAULT_CELL_LIMIT)
        .with_context(|| format!("cannot materialize {}", class.name()))?;
    let budget = args
        .max_states
        .map_or_else(Budget::default, |max_states| Budget { max_states });
    let engine = match args.engine {
        EngineArg::Pruned => Engine::Pruned,
        EngineArg::Plain => Engine::Plain,
    };
    let bar = spinner("computing the VC dimension");
    let started = Instant::now();
    let vc = vc_dimension(&matrix, &budget)?;
    let vc_seconds = started.elapsed().as_secs_f64();
    if let Some(bar) = &bar {
        bar.set_message("computing the Littlestone dimension");
    }
    let started = Instant::now();
    let ldim = littlestone_dimension(&matrix, engine, &budget)?;
    let littlestone_seconds = started.elapsed().as_secs_f64();
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    check_shattered(&matrix, &vc.shattered).context("the VC witness failed its check")?;
    let depth = check_littlestone_tree(&matrix, &ldim.tree)
        .context("the Littlestone witness failed its check")?;
    anyhow::ensure!(
        depth == ldim.dimension,
        "the Littlestone witness has depth {depth}, not {}",
        ldim.dimension
    );
    let report = DimReport {
        class: class.name(),
        concepts: class.len(),
        points: class.domain().size(),
        vc_dimension: vc.dimension,
        shattered_set: vc.shattered,
        littlestone_dimension: ldim.dimension,
        littlestone_tree: ldim.tree,
        witnesses_verified: true,
        vc_seconds,
        littlestone_seconds,
    };
    emit(&report, args.common.json)
}
