//! Layout checks of `cargo xtask tidy`: no source file over [`MAX_FILE_LINES`] lines, and no
//! import cycle between the top-level modules of a crate.
//!
//! A crate's modules are the files and folders directly under its `src/`. Module `a` imports
//! module `b` when code under `a` names `crate::b` (directly, inside a `use crate::{…}`
//! group, or through an item the crate root re-exports from `b`). Comments and
//! `#[cfg(test)]` modules (inline, or in a `tests.rs` file) are skipped: a unit test may reach across the crate without making
//! the architecture circular.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

use super::tests::{display_path, rust_files};

/// Longest source file, in lines; split a longer one where a reader would look for a seam.
pub(super) const MAX_FILE_LINES: usize = 1000;

/// One error per `.rs` file under `dir` that is longer than [`MAX_FILE_LINES`].
pub(super) fn long_file_errors(root: &Path, dir: &Path) -> Vec<String> {
    rust_files(dir)
        .into_iter()
        .filter_map(|path| {
            let lines = fs::read_to_string(&path).ok()?.lines().count();
            (lines > MAX_FILE_LINES).then(|| {
                format!(
                    "{}: {lines} lines, over the limit of {MAX_FILE_LINES}: split it where a \
                     reader would look for a seam",
                    display_path(root, &path)
                )
            })
        })
        .collect()
}

/// The import cycles among the top-level modules of the crate whose sources are in `src`.
pub(super) fn cycle_errors(root: &Path, src: &Path) -> Vec<String> {
    let mut sources: BTreeMap<String, String> = BTreeMap::new();
    let mut root_text = String::new();
    for path in rust_files(src) {
        let relative = path.strip_prefix(src).unwrap_or(&path);
        let first = relative
            .iter()
            .next()
            .map(|part| part.to_string_lossy().trim_end_matches(".rs").to_owned())
            .unwrap_or_default();
        if path.file_name().is_some_and(|name| name == "tests.rs") {
            continue; // a unit-test module in its own file
        }
        let text = fs::read_to_string(&path).unwrap_or_default();
        if first == "lib" || first == "main" {
            root_text.push_str(&text);
        } else {
            let entry = sources.entry(first).or_default();
            entry.push_str(&without_tests(&text));
            entry.push('\n');
        }
    }
    let modules: BTreeSet<String> = sources.keys().cloned().collect();
    let reexports = root_reexports(&root_text, &modules);
    let graph: BTreeMap<String, BTreeSet<String>> = sources
        .iter()
        .map(|(module, text)| {
            let targets = crate_paths(text)
                .into_iter()
                .filter_map(|name| {
                    if modules.contains(&name) {
                        Some(name)
                    } else {
                        reexports.get(&name).cloned()
                    }
                })
                .filter(|target| target != module)
                .collect();
            (module.clone(), targets)
        })
        .collect();
    find_cycles(&graph)
        .into_iter()
        .map(|cycle| {
            format!(
                "{}: import cycle between modules {}: break it (move the shared item down)",
                display_path(root, src),
                cycle.join(" → ")
            )
        })
        .collect()
}

/// The text without comment lines and without `#[cfg(test)]` modules (a `mod name;`
/// line, or a `mod name { … }` block up to its closing brace).
fn without_tests(text: &str) -> String {
    let mut kept = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("#[cfg(test)]")
            && lines
                .peek()
                .is_some_and(|next| next.trim_start().starts_with("mod "))
        {
            let mut depth = 0i64;
            for module_line in lines.by_ref() {
                depth += module_line.matches('{').count() as i64;
                depth -= module_line.matches('}').count() as i64;
                if depth <= 0
                    && (module_line.contains('}') || module_line.trim_end().ends_with(';'))
                {
                    break;
                }
            }
            continue;
        }
        if !trimmed.starts_with("//") {
            kept.push_str(line);
            kept.push('\n');
        }
    }
    kept
}

/// The first segment of every `crate::` path in `text`, including each item of a
/// `crate::{…}` group.
fn crate_paths(text: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let mut rest = text;
    while let Some(at) = rest.find("crate::") {
        let preceded = rest[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_');
        rest = &rest[at + "crate::".len()..];
        if preceded {
            continue; // e.g. `privpac_crate::`
        }
        if let Some(group) = rest.strip_prefix('{') {
            names.extend(group_heads(group));
        } else {
            names.insert(identifier(rest));
        }
    }
    names.remove("");
    names
}

/// The first identifier of each item of a brace group (the text after its `{`).
fn group_heads(group: &str) -> Vec<String> {
    let mut heads = Vec::new();
    let mut depth = 0usize;
    let mut at_item_start = true;
    for (index, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => at_item_start = true,
            c if at_item_start && depth == 0 && (c.is_alphanumeric() || c == '_') => {
                heads.push(identifier(&group[index..]));
                at_item_start = false;
            }
            _ => {}
        }
    }
    heads
}

fn identifier(text: &str) -> String {
    text.chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect()
}

/// Item name → module, for the crate root's `pub use module::…` re-exports.
fn root_reexports(root_text: &str, modules: &BTreeSet<String>) -> BTreeMap<String, String> {
    let mut map = BTreeMap::new();
    let text = without_tests(root_text);
    for statement in text.split(';') {
        let Some(at) = statement.find("pub use ") else {
            continue;
        };
        let path = statement[at + "pub use ".len()..].trim();
        let module = identifier(path);
        if !modules.contains(&module) {
            continue;
        }
        let tail = &path[module.len()..];
        let items: Vec<String> = match tail.find('{') {
            Some(open) => group_heads(&tail[open + 1..]),
            None => vec![identifier(tail.rsplit("::").next().unwrap_or(""))],
        };
        for item in items {
            map.insert(item, module.clone());
        }
    }
    map
}

/// The cycles a depth-first search closes (one per back edge), each as its path with the
/// first module repeated at the end: not every cycle, but none is missed entirely (a graph
/// with a cycle has a back edge).
fn find_cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    let mut cycles = Vec::new();
    let mut finished: BTreeSet<&str> = BTreeSet::new();
    for start in graph.keys() {
        let mut stack: Vec<&str> = Vec::new();
        visit(start, graph, &mut stack, &mut finished, &mut cycles);
    }
    cycles
}

fn visit<'a>(
    node: &'a str,
    graph: &'a BTreeMap<String, BTreeSet<String>>,
    stack: &mut Vec<&'a str>,
    finished: &mut BTreeSet<&'a str>,
    cycles: &mut Vec<Vec<String>>,
) {
    if finished.contains(node) {
        return;
    }
    if let Some(position) = stack.iter().position(|&on| on == node) {
        let mut cycle: Vec<String> = stack[position..].iter().map(|s| (*s).to_owned()).collect();
        cycle.push(node.to_owned());
        cycles.push(cycle);
        return;
    }
    stack.push(node);
    for next in graph.get(node).into_iter().flatten() {
        visit(next, graph, stack, finished, cycles);
    }
    stack.pop();
    finished.insert(node);
}

#[cfg(test)]
mod checks {
    use super::*;

    fn graph(edges: &[(&str, &str)]) -> BTreeMap<String, BTreeSet<String>> {
        let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (a, b) in edges {
            graph.entry((*a).into()).or_default().insert((*b).into());
            graph.entry((*b).into()).or_default();
        }
        graph
    }

    #[test]
    fn a_cycle_is_found_and_a_chain_is_not() {
        assert!(find_cycles(&graph(&[("a", "b"), ("b", "c"), ("a", "c")])).is_empty());
        let cycles = find_cycles(&graph(&[("a", "b"), ("b", "c"), ("c", "a")]));
        assert_eq!(cycles, vec![vec!["a", "b", "c", "a"]]);
    }

    #[test]
    fn crate_paths_read_groups_and_skip_comments_and_tests() {
        let text = "use crate::error::{Error, Result};\nuse crate::{scenario::X, multi, \
                    limits::{A, B}};\n// crate::commented\nfn f() { crate::trials::run(); }\n\
                    #[cfg(test)]\nmod tests {\n    use crate::structured;\n}\nuse crate::after;\n";
        let names = crate_paths(&without_tests(text));
        let expected: BTreeSet<String> =
            ["error", "scenario", "multi", "limits", "trials", "after"]
                .map(String::from)
                .into();
        assert_eq!(names, expected);
    }

    #[test]
    fn root_reexports_map_items_to_modules() {
        let modules: BTreeSet<String> = ["error", "scenario"].map(String::from).into();
        let map = root_reexports(
            "pub use error::{Error, Result};\npub use scenario::Scenario;\npub use other::X;",
            &modules,
        );
        assert_eq!(map.get("Result").map(String::as_str), Some("error"));
        assert_eq!(map.get("Scenario").map(String::as_str), Some("scenario"));
        assert!(!map.contains_key("X"));
    }
}
