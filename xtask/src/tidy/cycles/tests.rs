//! Tests of the import-cycle check on fixture crates: the shapes of the real cycles it must
//! find, and the imports it must not mistake for cycles.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::*;

/// The crate made of `files` (path, text), the first one its root.
fn fixture(files: &[(&str, &str)]) -> Crate {
    let texts: BTreeMap<PathBuf, String> = files
        .iter()
        .map(|(path, text)| (PathBuf::from(path), (*text).to_owned()))
        .collect();
    let read = |path: &Path| texts.get(path).cloned();
    Crate::load(Path::new(files[0].0), &read).unwrap()
}

fn errors(files: &[(&str, &str)]) -> Vec<String> {
    fixture(files).cycle_errors(Path::new(""))
}

/// The import edges as `from -> to: names` lines.
fn edges(files: &[(&str, &str)]) -> Vec<String> {
    let krate = fixture(files);
    let show = |module: usize| krate.modules[module].file.display().to_string();
    krate
        .edges()
        .iter()
        .map(|(&(from, to), names)| {
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            format!("{} -> {}: {}", show(from), show(to), names.join(", "))
        })
        .collect()
}

const PLD: &[(&str, &str)] = &[
    (
        "m/src/lib.rs",
        "//! Mechanisms.\nmod accounting;\nmod error;\n\
         pub use accounting::{PldBounds, pld_steps_bounds};\npub use error::Error;\n",
    ),
    ("m/src/error.rs", "//! Errors.\npub struct Error;\n"),
    (
        "m/src/accounting/mod.rs",
        "mod pld;\npub use pld::{PldBounds, pld_steps_bounds};\nuse crate::error::Error;\n",
    ),
    (
        "m/src/accounting/pld.rs",
        "use crate::Error;\nmod bucket;\nmod fast;\nmod fft;\nmod tilt;\n\
         pub use fast::{PldBounds, pld_steps_bounds};\n\
         #[cfg(test)]\nmod tests;\n#[cfg(test)]\n#[path = \"pld/fast_tests.rs\"]\nmod fast_tests;\n",
    ),
    (
        "m/src/accounting/pld/fast.rs",
        "//! Transforms.\nuse super::fft::{Twiddles, UNIT};\nuse super::tilt::{TILT_BELOW, Tilt};\n\
         use crate::error::Error;\n\n\
         /// Bounds.\npub struct PldBounds;\n\
         pub(super) enum Variant {\n    Rigorous,\n    #[cfg(test)]\n    Optimistic,\n}\n\
         pub(super) fn bounds_on_grid() {}\npub fn default_epsilon_error() -> f64 { 0.01 }\n\
         pub(super) fn grouped_bounds() {}\npub(super) fn step_key() {}\n\
         pub(super) fn chernoff_search() {}\npub(super) fn chernoff_threshold() {}\n\
         pub(super) fn log_mgf() {}\npub(super) fn log_sum_exp() {}\n\
         pub fn pld_steps_bounds(groups: &[u8], tilt: Tilt) -> Result<(), Error> {\n\
         \x20   if groups.len() > super::bucket::BUCKETING_THRESHOLD {\n\
         \x20       super::bucket::bucketed_bounds(groups);\n    }\n\
         \x20   let _ = tilt.cells_error(TILT_BELOW);\n    Ok(())\n}\n\
         #[cfg(test)]\npub(super) fn bounds_variant() { super::pieces::x(); }\n",
    ),
    (
        "m/src/accounting/pld/bucket.rs",
        "//! Buckets.\nuse super::fast::{\n    PldBounds, Variant, bounds_on_grid, default_epsilon_error, \
         grouped_bounds, step_key,\n};\nuse std::collections::HashMap;\n\
         pub(super) const BUCKETING_THRESHOLD: usize = 64;\n\
         pub(super) fn bucketed_bounds(groups: &[u8]) {}\n\
         #[cfg(test)]\n#[path = \"bucket_tests.rs\"]\nmod tests;\n",
    ),
    (
        "m/src/accounting/pld/tilt.rs",
        "//! Tilt.\nuse super::fast::{chernoff_search, chernoff_threshold, log_mgf, log_sum_exp};\n\
         use super::fft::UNIT;\n\npub(super) const TILT_BELOW: f64 = 1e-8;\n\
         pub(super) struct Tilt;\nimpl Tilt {\n    pub(super) fn cells_error(&self, x: f64) -> f64 { x }\n}\n",
    ),
    (
        "m/src/accounting/pld/fft.rs",
        "pub(super) struct Twiddles;\npub(super) const UNIT: f64 = 1.0;\n",
    ),
    (
        "m/src/accounting/pld/tests.rs",
        "use super::bucket::*;\nuse super::fast::*;\nuse super::tilt::*;\n",
    ),
    (
        "m/src/accounting/pld/fast_tests.rs",
        "use super::fast::*;\nuse super::tilt::Tilt;\n",
    ),
    (
        "m/src/accounting/pld/bucket_tests.rs",
        "use super::super::fast::*;\n",
    ),
];

#[test]
fn the_pld_cycles_are_found_with_the_names_taken() {
    assert_eq!(
        errors(PLD),
        [
            "import cycle m/src/accounting/pld/bucket.rs → m/src/accounting/pld/fast.rs → \
             m/src/accounting/pld/bucket.rs: break it by moving what they share into a module \
             below them\n  m/src/accounting/pld/bucket.rs -> m/src/accounting/pld/fast.rs: \
             PldBounds, Variant, bounds_on_grid, default_epsilon_error, grouped_bounds, \
             step_key\n  m/src/accounting/pld/fast.rs -> m/src/accounting/pld/bucket.rs: \
             BUCKETING_THRESHOLD, bucketed_bounds",
            "import cycle m/src/accounting/pld/fast.rs → m/src/accounting/pld/tilt.rs → \
             m/src/accounting/pld/fast.rs: break it by moving what they share into a module \
             below them\n  m/src/accounting/pld/fast.rs -> m/src/accounting/pld/tilt.rs: \
             TILT_BELOW, Tilt\n  m/src/accounting/pld/tilt.rs -> m/src/accounting/pld/fast.rs: \
             chernoff_search, chernoff_threshold, log_mgf, log_sum_exp",
        ]
    );
}

#[test]
fn imports_through_re_exports_reach_the_defining_module() {
    let edges = edges(PLD);
    // `use crate::Error` in pld.rs goes through the root's `pub use error::Error`; the
    // accounting module's own import of it is a second path to the same file.
    assert!(
        edges.contains(&"m/src/accounting/pld.rs -> m/src/error.rs: Error".to_owned()),
        "{edges:#?}"
    );
    assert!(
        edges.contains(&"m/src/accounting/pld/fast.rs -> m/src/error.rs: Error".to_owned()),
        "{edges:#?}"
    );
    // The test modules import nothing (they are not modules at all).
    assert!(
        !edges.iter().any(|edge| edge.contains("tests")),
        "{edges:#?}"
    );
}

const COMMANDS: &[(&str, &str)] = &[
    (
        "p/src/main.rs",
        "mod cli;\nmod commands;\nmod output;\nfn main() { commands::run(); }\n",
    ),
    ("p/src/cli.rs", "pub(crate) struct LearnArgs;\n"),
    (
        "p/src/output.rs",
        "pub(crate) fn emit() {}\npub(crate) fn progress() {}\n",
    ),
    (
        "p/src/commands/mod.rs",
        "mod learn;\nmod multi_learn;\nuse crate::cli::LearnArgs;\n\
         pub(crate) fn rng() {}\npub(crate) fn data_options() {}\n\
         pub(crate) fn run() { learn::run(); multi_learn::run(); }\n",
    ),
    (
        "p/src/commands/learn.rs",
        "use crate::cli::LearnArgs;\nuse crate::commands::{data_options, rng};\n\
         use crate::output::{emit, progress};\n\
         pub(super) fn run() {\n    if true {\n        \
         return crate::commands::multi_learn::sample_complexity_k();\n    }\n}\n\
         pub(crate) fn not_covered_note() -> &'static str { \"crate::commands::x\" }\n",
    ),
    (
        "p/src/commands/multi_learn.rs",
        "use crate::cli::LearnArgs;\nuse crate::commands::{data_options, rng};\n\
         use crate::output::emit;\n\
         pub(super) fn run() {\n    let _ = crate::commands::learn::not_covered_note();\n}\n\
         pub(crate) fn sample_complexity_k() {}\n",
    ),
];

#[test]
fn the_commands_cycle_is_found_and_their_parent_is_not_in_it() {
    assert_eq!(
        errors(COMMANDS),
        [
            "import cycle p/src/commands/learn.rs → p/src/commands/multi_learn.rs → \
             p/src/commands/learn.rs: break it by moving what they share into a module below \
             them\n  p/src/commands/learn.rs -> p/src/commands/multi_learn.rs: \
             sample_complexity_k\n  p/src/commands/multi_learn.rs -> p/src/commands/learn.rs: \
             not_covered_note"
        ]
    );
    // The children's imports from their parent, and the parent's calls into its children,
    // are not edges between siblings.
    let edges = edges(COMMANDS);
    assert!(
        !edges
            .iter()
            .any(|edge| edge.contains("-> p/src/commands/mod.rs")
                || edge.starts_with("p/src/commands/mod.rs -> p/src/commands/")),
        "{edges:#?}"
    );
}

#[test]
fn a_parent_re_export_is_resolved_through_to_the_child_defining_the_item() {
    let files: &[(&str, &str)] = &[
        (
            "s/src/lib.rs",
            "mod shapes;\npub use shapes::{Circle, Square};\n",
        ),
        (
            "s/src/shapes/mod.rs",
            "mod circle;\nmod square;\npub use circle::Circle;\npub use square::*;\n",
        ),
        (
            "s/src/shapes/circle.rs",
            "use super::Square;\nuse crate::Square as Other;\npub struct Circle;\n",
        ),
        (
            "s/src/shapes/square.rs",
            "pub struct Square;\npub fn area() -> f64 { 0.0 }\n",
        ),
    ];
    assert_eq!(errors(files), Vec::<String>::new());
    assert_eq!(
        edges(files),
        ["s/src/shapes/circle.rs -> s/src/shapes/square.rs: Square"]
    );
    // The other way round too, and it is a cycle: `crate::Circle` is two re-exports away.
    let mut cyclic = files.to_vec();
    cyclic[3].1 = "pub struct Square;\nfn f() { let _ = crate::Circle; }\n";
    let errors = errors(&cyclic);
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert!(
        errors[0].ends_with("\n  s/src/shapes/square.rs -> s/src/shapes/circle.rs: Circle"),
        "{}",
        errors[0]
    );
}

#[test]
fn super_paths_from_a_child_reach_its_siblings() {
    // A folder module `a/` whose module file is `a.rs` beside it.
    let files: &[(&str, &str)] = &[
        ("t/src/lib.rs", "mod a;\n"),
        ("t/src/a.rs", "mod b;\nmod c;\n"),
        (
            "t/src/a/b.rs",
            "use super::c::C;\nuse super::c;\nfn f() { super::c::helper(); c::other(); }\n",
        ),
        (
            "t/src/a/c.rs",
            "pub struct C;\npub fn helper() {}\npub fn other() {}\n",
        ),
    ];
    assert_eq!(errors(files), Vec::<String>::new());
    assert_eq!(
        edges(files),
        ["t/src/a/b.rs -> t/src/a/c.rs: C, c, helper, other"]
    );
}

#[test]
fn comments_strings_and_test_modules_are_ignored() {
    let files: &[(&str, &str)] = &[
        ("u/src/lib.rs", "mod x;\nmod y;\n#[cfg(test)]\nmod tests;\n"),
        (
            "u/src/x.rs",
            "//! Uses crate::y::Y in its docs only.\npub struct X;\n// use crate::y::Y;\n\
             /// crate::y::Y\nconst S: &str = \"crate::y::Y\";\n/* crate::y::Y */\n\
             #[cfg(test)]\nmod inline_tests {\n    use crate::y::Y;\n}\n\
             #[cfg(test)]\nfn helper() { let _ = crate::y::Y; }\n\
             mod tests;\nmod more_tests;\n#[path = \"tests/fixture.rs\"]\nmod fixture;\n",
        ),
        ("u/src/x/tests.rs", "use crate::y::Y;\n"),
        ("u/src/x/more_tests.rs", "use crate::y::Y;\n"),
        ("u/src/tests/fixture.rs", "use crate::y::Y;\n"),
        ("u/src/tests.rs", "use crate::y::Y;\nuse crate::x::X;\n"),
        ("u/src/y.rs", "use crate::x::X;\npub struct Y;\n"),
    ];
    assert_eq!(errors(files), Vec::<String>::new());
    assert_eq!(edges(files), ["u/src/y.rs -> u/src/x.rs: X"]);
    assert_eq!(fixture(files).modules.len(), 3);
}

#[test]
fn folders_importing_each_other_make_a_cycle_at_their_level() {
    let files: &[(&str, &str)] = &[
        ("v/src/lib.rs", "mod a;\nmod b;\n"),
        ("v/src/a/mod.rs", "mod p;\nmod s;\n"),
        ("v/src/a/p.rs", "use crate::b::q::Q;\n"),
        ("v/src/a/s.rs", "pub fn s() {}\n"),
        ("v/src/b/mod.rs", "pub mod q;\nmod r;\n"),
        ("v/src/b/q.rs", "pub struct Q;\n"),
        ("v/src/b/r.rs", "fn f() { crate::a::s::s(); }\n"),
    ];
    assert_eq!(
        errors(files),
        [
            "import cycle v/src/a/mod.rs → v/src/b/mod.rs → v/src/a/mod.rs: break it by moving \
             what they share into a module below them\n  v/src/a/p.rs -> v/src/b/q.rs: Q\n  \
             v/src/b/r.rs -> v/src/a/s.rs: s"
        ]
    );
}

#[test]
fn every_arrow_of_a_tangle_is_on_a_reported_cycle() {
    let graph: BTreeMap<usize, BTreeSet<usize>> = [
        (0, BTreeSet::from([1])),
        (1, BTreeSet::from([2, 0])),
        (2, BTreeSet::from([0])),
        (3, BTreeSet::from([0])),
    ]
    .into();
    assert_eq!(
        cycles(&graph, |node| node.to_string()),
        [vec![0, 1], vec![0, 1, 2]]
    );
}
