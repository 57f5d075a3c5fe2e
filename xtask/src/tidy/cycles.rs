//! The import-cycle check of `cargo xtask tidy`: at no level of a crate's module tree do
//! sibling modules import each other in a circle.
//!
//! **The modules.** Every source file is a module, found as rustc finds it: from the crate
//! root (`src/lib.rs`, `src/main.rs`, `src/bin/*.rs`) through its `mod name;` declarations,
//! to `name.rs` or `name/mod.rs` beside a `lib.rs`/`main.rs`/`mod.rs`, inside the folder
//! `parent/` of a `parent.rs`, or to the file a `#[path = "…"]` attribute names. Modules
//! declared under `#[cfg(test)]`, and files named `tests.rs` or `*_tests.rs` or inside a
//! `tests/` folder, are test modules and left out; so are comments, doc comments, string
//! literals and every other `#[cfg(test)]` item (a unit test may reach across the crate
//! without making the design circular). An inline `mod name { … }` is read as part of its
//! file.
//!
//! **The imports.** Module M imports module T when M's code names an item of T: in a `use`
//! declaration (nested groups `use crate::{a::{b, c}, d}` included, `as` renames and globs
//! too) or in an expression or type path, starting with `crate::`, `super::` (M's parent),
//! `self::`, a child module of M, or a module M imported by name (`use super::fast;` then
//! `fast::f`). A path walks down the module tree while its segments name modules; its first
//! other segment is an item, and T is the module that *defines* that item: a name a module
//! only imports or re-exports (`pub use child::X` in a `mod.rs`, `pub use error::Error` at the
//! root, a glob) is followed to the module it comes from. A path to a parent's or any
//! ancestor's item, and a parent's use of its own children, are not imports between siblings.
//! What text cannot see is not counted: a method called on a value (`tilt.cells_error(…)`)
//! ties its caller to the module of the value's type only if that type is named.
//!
//! **The cycles.** For every module P, its child modules are the nodes of a graph, each child
//! standing for itself and all of its descendants; there is an arrow from child A to child B
//! when a file under A imports a file under B. A cycle of that graph is an error. So two files
//! that import each other are reported at the level of their nearest common parent (for two
//! top-level modules, at the crate root, as before), and so are two folders whose files import
//! each other in a circle. Every arrow of a strongly connected part lies on one reported cycle
//! (the shortest through it); each cycle lists, file by file, the names taken.

mod lexer;

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fs;
use std::path::{Path, PathBuf};

use lexer::Token;

use super::display_path;

/// How many re-export or import hops a name is followed through before giving up.
const MAX_HOPS: usize = 32;

/// One module: a source file, with what the check needs from its code.
#[derive(Debug, Default)]
struct Module {
    file: PathBuf,
    parent: Option<usize>,
    /// The modules declared with `mod name;`, by name.
    children: BTreeMap<String, usize>,
    /// Items defined at the top level of the file (functions, types, constants, macros…).
    items: BTreeSet<String>,
    /// Names bound by top-level `use` declarations → the paths they import.
    bindings: BTreeMap<String, Vec<String>>,
    /// The module paths of top-level glob imports (`use path::*`).
    globs: Vec<Vec<String>>,
    /// Every path into the crate the code names (`use` paths end with `*` for a glob).
    paths: Vec<Vec<String>>,
}

/// The modules of one crate (one crate root), the root first.
#[derive(Debug)]
pub(super) struct Crate {
    /// The folder of the root file: test folders are looked for below it.
    src: PathBuf,
    modules: Vec<Module>,
}

/// Reads a source file, or `None` when there is none: the disk for the real tree, a map of
/// texts in the tests.
pub(super) type Read<'a> = &'a dyn Fn(&Path) -> Option<String>;

/// The import-cycle errors of every crate root of the package whose folder is `dir`.
pub(super) fn package_cycle_errors(root: &Path, dir: &Path) -> Vec<String> {
    let src = dir.join("src");
    let mut roots = vec![src.join("lib.rs"), src.join("main.rs")];
    if let Ok(entries) = fs::read_dir(src.join("bin")) {
        let mut bins: Vec<PathBuf> = entries
            .filter_map(|entry| entry.ok().map(|entry| entry.path()))
            .filter(|path| path.extension().is_some_and(|ext| ext == "rs"))
            .collect();
        bins.sort();
        roots.extend(bins);
    }
    let read = |path: &Path| fs::read_to_string(path).ok();
    roots
        .iter()
        .filter_map(|file| Crate::load(file, &read))
        .flat_map(|krate| krate.cycle_errors(root))
        .collect()
}

impl Crate {
    /// The crate whose root file is `root_file`, or `None` when there is no such file.
    pub(super) fn load(root_file: &Path, read: Read<'_>) -> Option<Crate> {
        let text = read(root_file)?;
        let mut krate = Crate {
            src: root_file.parent().unwrap_or(Path::new("")).to_path_buf(),
            modules: Vec::new(),
        };
        krate.add(root_file.to_path_buf(), None, &text, true, read);
        Some(krate)
    }

    /// Adds the module in `file` and, recursively, the modules it declares; its index.
    /// `mod_rs`: the file's children live beside it (a crate root, a `mod.rs`, a `#[path]`
    /// file) rather than in the folder named after it.
    fn add(
        &mut self,
        file: PathBuf,
        parent: Option<usize>,
        text: &str,
        mod_rs: bool,
        read: Read<'_>,
    ) -> usize {
        let code = lexer::strip(text);
        let tokens = lexer::without_test_items(&lexer::tokens(&code));
        let (module, declared) = scan(text, &tokens);
        let index = self.modules.len();
        self.modules.push(Module {
            file: file.clone(),
            parent,
            ..module
        });
        let dir = file.parent().unwrap_or(Path::new("")).to_path_buf();
        for (name, path_attribute) in declared {
            // A `#[path]` file's children live beside it, as a `mod.rs`'s do.
            let by_attribute = path_attribute.is_some();
            let candidates = match path_attribute {
                Some(path) => vec![dir.join(path)],
                None => {
                    let base = if mod_rs {
                        dir.clone()
                    } else {
                        dir.join(file.file_stem().unwrap_or_default())
                    };
                    vec![
                        base.join(format!("{name}.rs")),
                        base.join(&name).join("mod.rs"),
                    ]
                }
            };
            let Some((child_file, child_text)) = candidates
                .into_iter()
                .find_map(|candidate| read(&candidate).map(|text| (candidate, text)))
            else {
                continue;
            };
            if self.is_test_file(&name, &child_file) {
                continue;
            }
            let child_mod_rs =
                by_attribute || child_file.file_name().is_some_and(|file| file == "mod.rs");
            let child = self.add(child_file, Some(index), &child_text, child_mod_rs, read);
            self.modules[index].children.insert(name, child);
        }
        index
    }

    fn is_test_file(&self, name: &str, file: &Path) -> bool {
        let stem = file.file_stem().unwrap_or_default().to_string_lossy();
        let test_name = |name: &str| name == "tests" || name.ends_with("_tests");
        let relative = file.strip_prefix(&self.src).unwrap_or(file);
        test_name(name)
            || test_name(&stem)
            || relative
                .parent()
                .is_some_and(|folder| folder.iter().any(|part| part == "tests"))
    }

    /// Whether `ancestor` is a proper ancestor of `module`.
    fn is_ancestor(&self, ancestor: usize, module: usize) -> bool {
        let mut at = self.modules[module].parent;
        while let Some(up) = at {
            if up == ancestor {
                return true;
            }
            at = self.modules[up].parent;
        }
        false
    }

    /// The child of `parent` that is `module` or contains it, if `module` is below `parent`.
    fn child_above(&self, module: usize, parent: usize) -> Option<usize> {
        let mut at = module;
        loop {
            let up = self.modules[at].parent?;
            if up == parent {
                return Some(at);
            }
            at = up;
        }
    }

    /// The module a path named in module `from` leads to, and the name taken there: the
    /// module defining its first item segment, or the module it ends at. `None` for a path
    /// that does not start in this crate.
    fn resolve(&self, from: usize, path: &[String], hops: usize) -> Option<(usize, String)> {
        if hops > MAX_HOPS {
            return None;
        }
        let (first, rest) = path.split_first()?;
        let module = &self.modules[from];
        let start = match first.as_str() {
            "crate" => 0,
            "self" => from,
            "super" => module.parent?,
            name => {
                if let Some(&child) = module.children.get(name) {
                    child
                } else {
                    // A name this module imported (`use super::fast;` … `fast::f`).
                    let imported = module.bindings.get(name)?;
                    let full: Vec<String> = imported.iter().chain(rest).cloned().collect();
                    return self.resolve(from, &full, hops + 1);
                }
            }
        };
        let mut at = start;
        for segment in rest {
            match segment.as_str() {
                "*" => return Some((at, "*".to_owned())),
                "self" => {}
                "super" => at = self.modules[at].parent?,
                name => match self.modules[at].children.get(name) {
                    Some(&child) => at = child,
                    None => return Some((self.definer(at, name, hops + 1), name.to_owned())),
                },
            }
        }
        Some((at, path.last()?.clone()))
    }

    /// The module that defines `name` as seen from `module`: `module` itself, or, when
    /// `module` only imports or re-exports it, the module it comes from. `module` when the
    /// name cannot be found (an item made by a macro, or one from another crate).
    fn definer(&self, module: usize, name: &str, hops: usize) -> usize {
        let here = &self.modules[module];
        if here.items.contains(name) || hops > MAX_HOPS {
            return module;
        }
        if let Some(path) = here.bindings.get(name) {
            return self
                .resolve(module, path, hops + 1)
                .map_or(module, |(target, _)| target);
        }
        for glob in &here.globs {
            let Some((source, _)) = self.resolve(module, glob, hops + 1) else {
                continue;
            };
            let from_there = &self.modules[source];
            if source != module
                && (from_there.items.contains(name) || from_there.bindings.contains_key(name))
            {
                return self.definer(source, name, hops + 1);
            }
        }
        module
    }

    /// Module → module imports with the names taken, leaving out a module's imports from
    /// itself, its ancestors and its descendants.
    fn edges(&self) -> BTreeMap<(usize, usize), BTreeSet<String>> {
        let mut edges: BTreeMap<(usize, usize), BTreeSet<String>> = BTreeMap::new();
        for (from, module) in self.modules.iter().enumerate() {
            for path in &module.paths {
                let Some((to, name)) = self.resolve(from, path, 0) else {
                    continue;
                };
                if to != from && !self.is_ancestor(to, from) && !self.is_ancestor(from, to) {
                    edges.entry((from, to)).or_default().insert(name);
                }
            }
        }
        edges
    }

    /// One error per cycle among the children of any module (see the module docs).
    pub(super) fn cycle_errors(&self, root: &Path) -> Vec<String> {
        let edges = self.edges();
        let show = |module: usize| display_path(root, &self.modules[module].file);
        let mut errors = Vec::new();
        for parent in 0..self.modules.len() {
            let mut links: BTreeMap<(usize, usize), Vec<(usize, usize)>> = BTreeMap::new();
            for &(from, to) in edges.keys() {
                if let (Some(a), Some(b)) =
                    (self.child_above(from, parent), self.child_above(to, parent))
                    && a != b
                {
                    links.entry((a, b)).or_default().push((from, to));
                }
            }
            let mut graph: BTreeMap<usize, BTreeSet<usize>> = BTreeMap::new();
            for &(a, b) in links.keys() {
                graph.entry(a).or_default().insert(b);
            }
            for cycle in cycles(&graph, show) {
                let mut lines = Vec::new();
                for (index, &a) in cycle.iter().enumerate() {
                    let b = cycle[(index + 1) % cycle.len()];
                    for &(from, to) in links.get(&(a, b)).into_iter().flatten() {
                        let names: Vec<&str> =
                            edges[&(from, to)].iter().map(String::as_str).collect();
                        lines.push(format!(
                            "  {} -> {}: {}",
                            show(from),
                            show(to),
                            names.join(", ")
                        ));
                    }
                }
                let mut ring: Vec<String> = cycle.iter().map(|&module| show(module)).collect();
                ring.push(ring[0].clone());
                errors.push(format!(
                    "import cycle {}: break it by moving what they share into a module below \
                     them\n{}",
                    ring.join(" → "),
                    lines.join("\n")
                ));
            }
        }
        errors
    }
}

/// Reads a file's tokens: the module's items, imports and paths, and the modules it declares
/// with their `#[path]`, if any.
fn scan(text: &str, tokens: &[Token<'_>]) -> (Module, Vec<(String, Option<String>)>) {
    let mut module = Module::default();
    let mut declared = Vec::new();
    let mut path_attribute: Option<String> = None;
    let mut starts: Vec<Vec<String>> = Vec::new();
    let word = |at: usize| tokens.get(at).map_or("", |token| token.text);
    let ident = |at: usize| {
        tokens
            .get(at)
            .filter(|token| token.is_ident())
            .map(|token| token.text)
    };
    let mut i = 0;
    while i < tokens.len() {
        let token = tokens[i];
        if token.text == "use" {
            let (imports, read) = lexer::use_tree(&tokens[i + 1..]);
            for import in imports {
                if token.depth == 0 {
                    match &import.binding {
                        Some(binding) => {
                            module.bindings.insert(binding.clone(), import.path.clone());
                        }
                        None => module
                            .globs
                            .push(import.path[..import.path.len() - 1].to_vec()),
                    }
                }
                module.paths.push(import.path);
            }
            i += 1 + read;
            continue;
        }
        if token.depth == 0 {
            if let Some(close) = lexer::attribute_end(tokens, i) {
                if word(i + 2) == "path" && word(i + 3) == "=" && tokens[i + 4].is_string() {
                    let literal = tokens[i + 4];
                    let end = literal.start + literal.text.len() - 1;
                    path_attribute = Some(text[literal.start + 1..end].to_owned());
                }
                i = close + 1;
                continue;
            }
            match token.text {
                "mod" => {
                    if let Some(name) = ident(i + 1) {
                        if word(i + 2) == ";" {
                            declared.push((name.to_owned(), path_attribute.take()));
                        } else {
                            module.items.insert(name.to_owned());
                        }
                    }
                }
                "fn" | "struct" | "enum" | "trait" | "type" | "union" | "const" | "static" => {
                    let at = if word(i + 1) == "mut" { i + 2 } else { i + 1 };
                    if let Some(name) = ident(at).filter(|name| !["fn", "_"].contains(name)) {
                        module.items.insert(name.to_owned());
                    }
                }
                "macro_rules" if word(i + 1) == "!" => {
                    module.items.extend(ident(i + 2).map(str::to_owned));
                }
                ";" => path_attribute = None,
                _ => {}
            }
        }
        let previous = if i == 0 { "" } else { word(i - 1) };
        if token.is_ident() && word(i + 1) == "::" && !matches!(previous, "::" | "$") {
            let mut path = vec![token.text.to_owned()];
            let mut at = i + 1;
            while word(at) == "::"
                && let Some(segment) = ident(at + 1)
            {
                path.push(segment.to_owned());
                at += 2;
            }
            starts.push(path);
        }
        i += 1;
    }
    // Expression paths from `crate`, `super`, `self` or a module this file imported by name
    // (a path from a child module is the parent using its child, not an import).
    module.paths.extend(starts.into_iter().filter(|path| {
        matches!(path[0].as_str(), "crate" | "super" | "self")
            || module.bindings.contains_key(&path[0])
    }));
    (module, declared)
}

/// The cycles of `graph`, each once, as its nodes in order starting from the one `key` puts
/// first: for every arrow that lies on a cycle, the shortest cycle through it.
fn cycles(
    graph: &BTreeMap<usize, BTreeSet<usize>>,
    key: impl Fn(usize) -> String,
) -> Vec<Vec<usize>> {
    let mut found: BTreeSet<Vec<String>> = BTreeSet::new();
    let mut cycles = Vec::new();
    for (&a, targets) in graph {
        for &b in targets {
            let Some(back) = shortest_path(graph, b, a) else {
                continue;
            };
            // a → b → … → a, without repeating a.
            let mut cycle: Vec<usize> = std::iter::once(a).chain(back).collect();
            cycle.pop();
            let first = (0..cycle.len())
                .min_by_key(|&index| key(cycle[index]))
                .unwrap_or(0);
            cycle.rotate_left(first);
            if found.insert(cycle.iter().map(|&node| key(node)).collect()) {
                cycles.push(cycle);
            }
        }
    }
    cycles
}

/// The nodes of a shortest path from `from` to `to` (both included), by breadth-first search.
fn shortest_path(
    graph: &BTreeMap<usize, BTreeSet<usize>>,
    from: usize,
    to: usize,
) -> Option<Vec<usize>> {
    let mut previous: BTreeMap<usize, usize> = BTreeMap::new();
    let mut queue = VecDeque::from([from]);
    let mut seen = BTreeSet::from([from]);
    while let Some(node) = queue.pop_front() {
        if node == to {
            let mut path = vec![to];
            let mut at = to;
            while at != from {
                at = previous[&at];
                path.push(at);
            }
            path.reverse();
            return Some(path);
        }
        for &next in graph.get(&node).into_iter().flatten() {
            if seen.insert(next) {
                previous.insert(next, node);
                queue.push_back(next);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests;
