//! `cargo xtask tidy`: repository conventions that the compiler does not check, written as
//! `#[test]`s so that `cargo test --workspace` (and therefore CI) runs them.
//!
//! The checks are:
//! - every `.rs` file under `crates/`, `xtask/` and `benches/` opens with a `//!` doc comment;
//! - internal dependency arrows only point down the layer table (`allowed_dependencies` below),
//!   and every member folder has the same name as its package;
//! - internal dependencies are written `name.workspace = true`, and the root
//!   `[workspace.dependencies]` gives every internal crate both a `path` and a `version`;
//! - every member's `Cargo.toml` has `[lints]` with `workspace = true`;
//! - no source file is over 1,000 lines, and no crate has an import cycle between its
//!   top-level modules (`tidy/layout.rs`);
//! - every declared dependency is used: its crate name appears in the package's Rust sources
//!   (`name::`, `use name` or `extern crate name`), unless `INDIRECT_DEPENDENCIES` explains why not.
//!
//! The workspace is read from `cargo metadata --no-deps --offline` (a few tens of milliseconds),
//! which resolves inheritance and renames for us; only the two conventions that metadata cannot
//! see (how a dependency is written, and `[lints]`) look at the manifest text, line by line.

use anyhow::bail;

use crate::{cargo, run_command};

/// Runs only the tidy tests: `cargo test -p xtask tidy`.
pub(crate) fn run(args: &[String]) -> anyhow::Result<()> {
    if !args.is_empty() {
        bail!(
            "`cargo xtask tidy` takes no arguments (got `{}`)",
            args.join(" ")
        );
    }
    run_command(cargo().args(["test", "-p", "xtask", "tidy"]))
}

#[cfg(test)]
mod layout;

#[cfg(test)]
mod tests {
    use std::{
        collections::BTreeSet,
        fs,
        path::{Path, PathBuf},
        sync::OnceLock,
    };

    use serde_json::Value;

    use crate::{cargo, project_root};

    /// Our library crates, lowest layers first.
    const LIBRARIES: &[&str] = &[
        "privpac-mechanisms",
        "privpac-classes",
        "privpac-audit",
        "privpac-zoo",
        "privpac-sanitizers",
        "privpac-learners",
        "privpac-multi",
        "privpac-engine",
        "privpac-toolkit",
        "privpac-experiments",
    ];

    /// The internal crates that `krate` may depend on: arrows only point down. `None` for a
    /// crate that is not in the table yet.
    fn allowed_dependencies(krate: &str) -> Option<&'static [&'static str]> {
        let allowed: &'static [&'static str] = match krate {
            // The foundations, and privpac-audit, which takes plain data so every crate can
            // use it.
            "privpac-mechanisms" | "privpac-audit" => &[],
            // Domains, classes and deterministic hypotheses: no privacy machinery (randomized
            // predictors, which sample with the mechanisms, live in privpac-learners).
            "privpac-classes" => &[],
            // Mechanisms and their broken twins, next to the auditor that tests them.
            "privpac-zoo" => &["privpac-mechanisms", "privpac-audit"],
            "privpac-sanitizers" => &["privpac-mechanisms", "privpac-classes"],
            "privpac-learners" => &[
                "privpac-mechanisms",
                "privpac-classes",
                "privpac-sanitizers",
            ],
            // The tracing attack certifies its ε bound with privpac-audit's Clopper–Pearson
            // bounds.
            "privpac-multi" => &[
                "privpac-mechanisms",
                "privpac-classes",
                "privpac-audit",
                "privpac-sanitizers",
                "privpac-learners",
            ],
            // The measurement engine runs built learners; it names none of them.
            "privpac-engine" => &[
                "privpac-mechanisms",
                "privpac-classes",
                "privpac-sanitizers",
                "privpac-learners",
                "privpac-multi",
            ],
            // The front-end toolkit builds learners from specs and runs them on the engine.
            "privpac-toolkit" => &[
                "privpac-mechanisms",
                "privpac-classes",
                "privpac-sanitizers",
                "privpac-learners",
                "privpac-multi",
                "privpac-engine",
            ],
            "privpac-experiments" => &[
                "privpac-mechanisms",
                "privpac-classes",
                "privpac-sanitizers",
                "privpac-learners",
                "privpac-multi",
                "privpac-engine",
                "privpac-toolkit",
            ],
            // The CLI, the Python bindings and the benches sit on top of every library.
            "privpac" | "privpac-py" | "benches" => LIBRARIES,
            // xtask must build in seconds on a fresh clone.
            "xtask" => &[],
            _ => return None,
        };
        Some(allowed)
    }

    /// Dev-dependencies may also include privpac-audit, for any library.
    fn allowed_dev_dependencies(krate: &str) -> Option<Vec<&'static str>> {
        let mut allowed = allowed_dependencies(krate)?.to_vec();
        if LIBRARIES.contains(&krate)
            && !allowed.contains(&"privpac-audit")
            && krate != "privpac-audit"
        {
            allowed.push("privpac-audit");
        }
        Some(allowed)
    }

    /// `(package, dependency)` pairs that are declared but legitimately never named in the
    /// package's sources. Each needs a reason.
    const INDIRECT_DEPENDENCIES: &[(&str, &str)] = &[
        // None today. Add e.g. a dependency pulled in only to switch on a feature of another
        // crate, with a comment saying which feature and why.
    ];

    // ---- The checks, run on the real tree. ----

    #[test]
    fn every_rust_file_starts_with_a_module_doc() {
        let root = project_root();
        let mut errors = Vec::new();
        for top in ["crates", "xtask", "benches"] {
            for path in rust_files(&root.join(top)) {
                let text = fs::read_to_string(&path).unwrap();
                errors.extend(module_doc_error(&display_path(&root, &path), &text));
            }
        }
        assert_no_errors(&errors);
    }

    #[test]
    fn no_source_file_is_too_long() {
        let root = project_root();
        let errors: Vec<String> = ["crates", "xtask", "benches"]
            .iter()
            .flat_map(|top| super::layout::long_file_errors(&root, &root.join(top)))
            .collect();
        assert_no_errors(&errors);
    }

    #[test]
    fn no_crate_has_an_import_cycle() {
        let root = project_root();
        let workspace = Workspace::read();
        let errors: Vec<String> = workspace
            .packages
            .iter()
            .flat_map(|package| super::layout::cycle_errors(&root, &package.dir.join("src")))
            .collect();
        assert_no_errors(&errors);
    }

    #[test]
    fn dependency_arrows_point_down() {
        let workspace = Workspace::read();
        let errors: Vec<String> = workspace
            .packages
            .iter()
            .flat_map(|package| arrow_errors(package, &workspace.internal_crates))
            .collect();
        assert_no_errors(&errors);
    }

    #[test]
    fn internal_dependencies_come_from_the_workspace() {
        let workspace = Workspace::read();
        let errors: Vec<String> = workspace
            .packages
            .iter()
            .flat_map(|package| workspace_dependency_errors(package, &workspace.internal_crates))
            .collect();
        assert_no_errors(&errors);
    }

    #[test]
    fn every_member_uses_the_workspace_lints() {
        let workspace = Workspace::read();
        let errors: Vec<String> = workspace.packages.iter().flat_map(lints_error).collect();
        assert_no_errors(&errors);
    }

    #[test]
    fn every_dependency_is_used() {
        let root = project_root();
        let workspace = Workspace::read();
        let mut errors = Vec::new();
        for package in &workspace.packages {
            let sources: Vec<String> = rust_files(&package.dir)
                .iter()
                .map(|path| fs::read_to_string(path).unwrap())
                .collect();
            errors.extend(unused_dependency_errors(
                package,
                &sources,
                &display_path(&root, &package.dir),
            ));
        }
        assert_no_errors(&errors);
    }

    fn assert_no_errors(errors: &[String]) {
        assert!(
            errors.is_empty(),
            "tidy found {} problem(s):\n{}",
            errors.len(),
            errors.join("\n")
        );
    }

    // ---- Module docs. ----

    /// Every `.rs` file under `dir`, skipping `target/` and hidden folders.
    pub(super) fn rust_files(dir: &Path) -> Vec<PathBuf> {
        let mut files = Vec::new();
        let mut pending = vec![dir.to_path_buf()];
        while let Some(dir) = pending.pop() {
            let Ok(entries) = fs::read_dir(&dir) else {
                continue;
            };
            for entry in entries {
                let entry = entry.unwrap();
                let path = entry.path();
                let name = entry.file_name().to_string_lossy().into_owned();
                if entry.file_type().unwrap().is_dir() {
                    if name != "target" && !name.starts_with('.') {
                        pending.push(path);
                    }
                } else if name.ends_with(".rs") {
                    files.push(path);
                }
            }
        }
        files.sort();
        files
    }

    /// An error unless the first non-empty line of `text` starts with `//!`.
    fn module_doc_error(path: &str, text: &str) -> Option<String> {
        let first = text
            .lines()
            .enumerate()
            .find(|(_, line)| !line.trim().is_empty());
        match first {
            Some((_, line)) if line.trim_start().starts_with("//!") => None,
            Some((index, _)) => Some(format!(
                "{path}:{}: the first line must be a `//!` doc comment saying what the file is for",
                index + 1
            )),
            None => Some(format!(
                "{path}:1: the file is empty; start it with a `//!` doc comment saying what it is for"
            )),
        }
    }

    pub(super) fn display_path(root: &Path, path: &Path) -> String {
        let relative = path.strip_prefix(root).unwrap_or(path);
        let parts: Vec<String> = relative
            .iter()
            .map(|part| part.to_string_lossy().into_owned())
            .collect();
        parts.join("/")
    }

    // ---- The workspace, from `cargo metadata`. ----

    struct Workspace {
        packages: Vec<Package>,
        /// Names of our own crates: the layer table plus every member.
        internal_crates: BTreeSet<String>,
    }

    /// One workspace member.
    #[derive(Debug)]
    struct Package {
        name: String,
        /// The member's folder, whose name must equal the package name.
        dir: PathBuf,
        /// The manifest's path relative to the root, for messages (`crates/lab/Cargo.toml`).
        manifest_path: String,
        /// The manifest's text, for the conventions metadata cannot see and for line numbers.
        manifest: String,
        dependencies: Vec<Dependency>,
    }

    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    enum DependencyKind {
        Normal,
        Dev,
        Build,
    }

    impl DependencyKind {
        fn table(self) -> &'static str {
            match self {
                DependencyKind::Normal => "[dependencies]",
                DependencyKind::Dev => "[dev-dependencies]",
                DependencyKind::Build => "[build-dependencies]",
            }
        }
    }

    /// One resolved dependency declaration.
    #[derive(Debug, Clone, PartialEq)]
    struct Dependency {
        /// The package depended on.
        name: String,
        /// The key it is declared under when renamed with `package = "..."`.
        rename: Option<String>,
        kind: DependencyKind,
        /// Declared with a `path` (directly or through `[workspace.dependencies]`).
        path: bool,
        /// The version requirement; `*` when none was given.
        req: String,
    }

    impl Dependency {
        /// The key in the manifest.
        fn key(&self) -> &str {
            self.rename.as_deref().unwrap_or(&self.name)
        }

        /// The name the sources use: the key with `-` as `_`.
        fn crate_name(&self) -> String {
            self.key().replace('-', "_")
        }
    }

    impl Workspace {
        /// The workspace, read once per test run (the tidy tests run in parallel).
        fn read() -> &'static Workspace {
            static WORKSPACE: OnceLock<Workspace> = OnceLock::new();
            WORKSPACE.get_or_init(Workspace::from_metadata)
        }

        fn from_metadata() -> Workspace {
            let output = cargo()
                .args([
                    "metadata",
                    "--no-deps",
                    "--offline",
                    "--format-version",
                    "1",
                ])
                .output()
                .expect("cargo metadata runs");
            assert!(
                output.status.success(),
                "cargo metadata failed: {}",
                String::from_utf8_lossy(&output.stderr)
            );
            let metadata: Value = serde_json::from_slice(&output.stdout).unwrap();
            let root = project_root();
            let packages: Vec<Package> = metadata["packages"]
                .as_array()
                .expect("metadata lists packages")
                .iter()
                .map(|package| Package::from_metadata(&root, package))
                .collect();
            let mut internal_crates: BTreeSet<String> =
                ["privpac", "xtask", "benches"].map(str::to_owned).into();
            internal_crates.extend(LIBRARIES.iter().map(|name| (*name).to_owned()));
            internal_crates.extend(packages.iter().map(|package| package.name.clone()));
            Workspace {
                packages,
                internal_crates,
            }
        }
    }

    impl Package {
        fn from_metadata(root: &Path, package: &Value) -> Package {
            let text = |value: &Value| value.as_str().map(str::to_owned);
            let manifest_path = PathBuf::from(text(&package["manifest_path"]).unwrap());
            let dependencies = package["dependencies"]
                .as_array()
                .unwrap()
                .iter()
                .map(|dependency| Dependency {
                    name: text(&dependency["name"]).unwrap(),
                    rename: text(&dependency["rename"]),
                    kind: match dependency["kind"].as_str() {
                        Some("dev") => DependencyKind::Dev,
                        Some("build") => DependencyKind::Build,
                        _ => DependencyKind::Normal,
                    },
                    path: dependency["path"].is_string(),
                    req: text(&dependency["req"]).unwrap_or_default(),
                })
                .collect();
            Package {
                name: text(&package["name"]).unwrap(),
                dir: manifest_path.parent().unwrap().to_path_buf(),
                manifest: fs::read_to_string(&manifest_path).unwrap(),
                manifest_path: display_path(root, &manifest_path),
                dependencies,
            }
        }

        fn folder(&self) -> String {
            self.dir
                .file_name()
                .map(|name| name.to_string_lossy().into_owned())
                .unwrap_or_default()
        }

        /// The line declaring `dependency` in the manifest (its `key...` line or its
        /// `[...dependencies.key]` header), or 1.
        fn line_of(&self, dependency: &Dependency) -> usize {
            declaration(&self.manifest, dependency.key(), dependency.kind)
                .map_or(1, |(line, _)| line)
        }
    }

    /// Where `key` is declared in the `kind` table of a manifest: the 1-based line and the text
    /// that holds its fields (the line itself, or the body of a `[dependencies.key]` table).
    fn declaration(manifest: &str, key: &str, kind: DependencyKind) -> Option<(usize, String)> {
        let table = kind.table().trim_matches(['[', ']']);
        let lines: Vec<&str> = manifest.lines().collect();
        let mut in_table = false;
        for (index, line) in lines.iter().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if let Some(header) = line.strip_prefix('[') {
                let header = header.trim_end_matches(']').trim();
                // `[dependencies]` or `[target.'cfg(..)'.dependencies]`.
                in_table = header == table || header.ends_with(&format!(".{table}"));
                if header == format!("{table}.{key}")
                    || header.ends_with(&format!(".{table}.{key}"))
                {
                    let body: Vec<&str> = lines[index + 1..]
                        .iter()
                        .take_while(|line| !line.trim_start().starts_with('['))
                        .copied()
                        .collect();
                    return Some((index + 1, body.join("\n")));
                }
            } else if in_table
                && let Some(rest) = line.strip_prefix(key)
                && rest.trim_start().starts_with(['.', '='])
            {
                return Some((index + 1, line.to_owned()));
            }
        }
        None
    }

    fn is_internal(dependency: &Dependency, internal_crates: &BTreeSet<String>) -> bool {
        dependency.path || internal_crates.contains(&dependency.name)
    }

    // ---- Dependency arrows. ----

    /// Upward or unlisted internal dependencies, and members missing from the layer table.
    fn arrow_errors(package: &Package, internal_crates: &BTreeSet<String>) -> Vec<String> {
        let path = &package.manifest_path;
        let krate = package.folder();
        let mut errors = Vec::new();
        if package.name != krate {
            errors.push(format!(
                "{path}: package `{}` must have the same name as its folder `{krate}`",
                package.name
            ));
        }
        let (Some(allowed), Some(allowed_dev)) = (
            allowed_dependencies(&krate),
            allowed_dev_dependencies(&krate),
        ) else {
            errors.push(format!(
                "{path}:1: `{krate}` is not in the dependency table; add it to \
                 `allowed_dependencies` in xtask/src/tidy.rs with the internal crates it may use"
            ));
            return errors;
        };
        for dependency in &package.dependencies {
            if !is_internal(dependency, internal_crates) {
                continue;
            }
            let name = dependency.name.as_str();
            let allowed_here: &[&str] = match dependency.kind {
                DependencyKind::Dev => &allowed_dev,
                DependencyKind::Normal | DependencyKind::Build => allowed,
            };
            if !allowed_here.contains(&name) {
                let listed = if allowed_here.is_empty() {
                    "none of our crates".to_owned()
                } else {
                    allowed_here.join(", ")
                };
                errors.push(format!(
                    "{path}:{}: `{krate}` may not depend on `{name}` ({}); arrows point down, \
                     and `{krate}` may only use: {listed} (see `allowed_dependencies` in \
                     xtask/src/tidy.rs)",
                    package.line_of(dependency),
                    dependency.kind.table()
                ));
            }
        }
        errors
    }

    // ---- Internal dependencies through [workspace.dependencies]. ----

    /// Internal dependencies not written `name.workspace = true`, or resolved without a path
    /// and a version (the root `[workspace.dependencies]` must give both).
    fn workspace_dependency_errors(
        package: &Package,
        internal_crates: &BTreeSet<String>,
    ) -> Vec<String> {
        let mut errors = Vec::new();
        for dependency in &package.dependencies {
            if !is_internal(dependency, internal_crates) {
                continue;
            }
            let path = &package.manifest_path;
            let key = dependency.key();
            let declared = declaration(&package.manifest, key, dependency.kind);
            let inherits = declared.as_ref().is_some_and(|(_, fields)| {
                fields.lines().any(|line| {
                    let compact: String = line.chars().filter(|c| !c.is_whitespace()).collect();
                    compact.contains("workspace=true")
                })
            });
            let line = declared.map_or(1, |(line, _)| line);
            if !inherits {
                errors.push(format!(
                    "{path}:{line}: write the internal dependency as `{key}.workspace = true`; \
                     its path and version belong in the root [workspace.dependencies]"
                ));
            } else if !dependency.path || dependency.req == "*" {
                errors.push(format!(
                    "Cargo.toml: internal crate `{}` (used by {path}:{line}) needs both `path` \
                     and `version` in [workspace.dependencies], e.g. \
                     `{{ path = \"crates/{}\", version = \"0.1.0\" }}`",
                    dependency.name, dependency.name
                ));
            }
        }
        errors
    }

    // ---- Lints. ----

    /// An error unless the manifest has `[lints]` with `workspace = true` (or
    /// `lints.workspace = true`).
    fn lints_error(package: &Package) -> Option<String> {
        let path = &package.manifest_path;
        let lines: Vec<String> = package
            .manifest
            .lines()
            .map(|line| {
                let line = line.split('#').next().unwrap_or("");
                line.chars().filter(|c| !c.is_whitespace()).collect()
            })
            .collect();
        // `lints.workspace = true` in the root table, before any header.
        if lines
            .iter()
            .take_while(|line| !line.starts_with('['))
            .any(|line| line == "lints.workspace=true")
        {
            return None;
        }
        let Some(header) = lines.iter().position(|line| line == "[lints]") else {
            return Some(format!(
                "{path}:{}: no [lints] section; end the file with `[lints]` and \
                 `workspace = true` so the workspace lints apply",
                lines.len().max(1)
            ));
        };
        let inherits = lines[header + 1..]
            .iter()
            .take_while(|line| !line.starts_with('['))
            .any(|line| line == "workspace=true");
        (!inherits).then(|| {
            format!(
                "{path}:{}: [lints] must say `workspace = true` so the workspace lints apply",
                header + 1
            )
        })
    }

    // ---- Unused dependencies. ----

    /// Declared dependencies whose crate name never appears in `sources` as `name::`,
    /// `use name` or `extern crate name`, unless listed in `INDIRECT_DEPENDENCIES`, and
    /// dev-dependencies that repeat a normal dependency (tests can already use those).
    fn unused_dependency_errors(package: &Package, sources: &[String], dir: &str) -> Vec<String> {
        let repeated = package
            .dependencies
            .iter()
            .filter(|dev| {
                dev.kind == DependencyKind::Dev
                    && package.dependencies.iter().any(|normal| {
                        normal.kind == DependencyKind::Normal && normal.key() == dev.key()
                    })
            })
            .map(|dev| {
                format!(
                    "{}:{}: `{}` is in [dev-dependencies] and [dependencies]; tests can use \
                     normal dependencies, so remove the dev-dependency",
                    package.manifest_path,
                    package.line_of(dev),
                    dev.key()
                )
            });
        let unused = package
            .dependencies
            .iter()
            .filter(|dependency| {
                !INDIRECT_DEPENDENCIES.contains(&(package.name.as_str(), dependency.key()))
            })
            .filter(|dependency| {
                let name = dependency.crate_name();
                !sources.iter().any(|source| mentions_crate(source, &name))
            })
            .map(|dependency| {
                format!(
                    "{}:{}: `{}` is declared in {} but no .rs file under {dir}/ uses it \
                     (`{}::`, `use {}` or `extern crate {}`); remove it, or list it in \
                     `INDIRECT_DEPENDENCIES` in xtask/src/tidy.rs with the reason",
                    package.manifest_path,
                    package.line_of(dependency),
                    dependency.key(),
                    dependency.kind.table(),
                    dependency.crate_name(),
                    dependency.crate_name(),
                    dependency.crate_name(),
                )
            });
        repeated.chain(unused).collect()
    }

    /// Whether `source` refers to the crate `name` as a path (`name::`, also `::name::`), in a
    /// `use name` declaration or as `extern crate name`, outside line comments. Doc comments
    /// count: their examples are doctests, which may use dev-dependencies.
    fn mentions_crate(source: &str, name: &str) -> bool {
        let is_ident = |c: char| c.is_alphanumeric() || c == '_';
        // `text` ends with the whole word `word`.
        let ends_with_word = |text: &str, word: &str| {
            text.strip_suffix(word)
                .is_some_and(|rest| !rest.ends_with(is_ident))
        };
        source.lines().any(|line| {
            let line = line.trim_start();
            let line = line
                .strip_prefix("///")
                .or_else(|| line.strip_prefix("//!"))
                .unwrap_or(line);
            let code = line.split("//").next().unwrap_or("");
            code.match_indices(name).any(|(start, _)| {
                let after = &code[start + name.len()..];
                if code[..start].ends_with(is_ident) || after.starts_with(is_ident) {
                    return false;
                }
                let before = code[..start].trim_end();
                after.starts_with("::")
                    || ends_with_word(before, "use")
                    || ends_with_word(before, "extern crate")
            })
        })
    }

    // ---- Tests of the checks themselves, on made-up packages. ----

    fn dependency(name: &str, kind: DependencyKind, path: bool, req: &str) -> Dependency {
        Dependency {
            name: name.to_owned(),
            rename: None,
            kind,
            path,
            req: req.to_owned(),
        }
    }

    fn internal_dependency(name: &str, kind: DependencyKind) -> Dependency {
        dependency(name, kind, true, "^0.1.0")
    }

    fn package(folder: &str, manifest: &str, dependencies: Vec<Dependency>) -> Package {
        Package {
            name: folder.to_owned(),
            dir: PathBuf::from(format!("/repo/crates/{folder}")),
            manifest_path: format!("crates/{folder}/Cargo.toml"),
            manifest: manifest.to_owned(),
            dependencies,
        }
    }

    fn internal() -> BTreeSet<String> {
        LIBRARIES
            .iter()
            .chain(&["privpac", "xtask", "benches"])
            .map(|name| (*name).to_owned())
            .collect()
    }

    #[test]
    fn module_doc_check_reads_the_first_non_empty_line() {
        assert_eq!(
            module_doc_error("a.rs", "\n//! Docs.\nfn main() {}\n"),
            None
        );
        assert_eq!(
            module_doc_error("a.rs", "\n\nfn main() {}\n//! Late.\n"),
            Some(
                "a.rs:3: the first line must be a `//!` doc comment saying what the file is for"
                    .to_owned()
            )
        );
        assert!(module_doc_error("a.rs", "/// Item docs.\n").is_some());
        assert!(
            module_doc_error("b.rs", "  \n")
                .unwrap()
                .starts_with("b.rs:1:")
        );
    }

    #[test]
    fn declarations_are_found_in_every_form() {
        use DependencyKind::{Build, Dev, Normal};
        let manifest = "[package]\nname = \"x\"\n\n[dependencies]\nrand.workspace = true\n\
             sanitizers = { workspace = true, features = [\"a\"] }\nserde = \"1\"  # comment\n\n\
             [dev-dependencies.privpac-audit]\nworkspace = true\n\n\
             [target.'cfg(unix)'.build-dependencies]\ncc = { version = \"1\" }\n";
        let line = |key: &str, kind| declaration(manifest, key, kind).map(|(line, _)| line);
        assert_eq!(line("rand", Normal), Some(5));
        assert_eq!(line("sanitizers", Normal), Some(6));
        assert_eq!(line("serde", Normal), Some(7));
        assert_eq!(line("privpac-audit", Dev), Some(9));
        assert_eq!(line("cc", Build), Some(13));
        // `name` under [package] is not a dependency; `rand` is not a dev-dependency.
        assert_eq!(line("name", Normal), None);
        assert_eq!(line("rand", Dev), None);
        assert_eq!(
            declaration(manifest, "privpac-audit", Dev).map(|(_, body)| body.trim().to_owned()),
            Some("workspace = true".to_owned())
        );
    }

    #[test]
    fn arrow_check_rejects_upward_and_allows_dev_audit() {
        use DependencyKind::{Dev, Normal};
        let manifest = "[package]\nname = \"privpac-learners\"\n\n[dependencies]\n\
             privpac-sanitizers.workspace = true\nprivpac-multi.workspace = true\nrand.workspace = true\n\n\
             [dev-dependencies]\nprivpac-audit.workspace = true\n";
        let learners = package(
            "privpac-learners",
            manifest,
            vec![
                internal_dependency("privpac-sanitizers", Normal),
                internal_dependency("privpac-multi", Normal),
                dependency("rand", Normal, false, "^0.10"),
                internal_dependency("privpac-audit", Dev),
            ],
        );
        let errors = arrow_errors(&learners, &internal());
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(
            errors[0].starts_with(
                "crates/privpac-learners/Cargo.toml:6: `privpac-learners` may not depend on `privpac-multi`"
            ),
            "{}",
            errors[0]
        );

        let sanitizers = package(
            "privpac-sanitizers",
            "[dependencies]\nprivpac-audit.workspace = true\n[dev-dependencies]\nprivpac-toolkit.workspace = true\n",
            vec![
                internal_dependency("privpac-audit", Normal),
                internal_dependency("privpac-toolkit", Dev),
            ],
        );
        let errors = arrow_errors(&sanitizers, &internal());
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(errors[0].starts_with("crates/privpac-sanitizers/Cargo.toml:2: "));
        assert!(errors[1].starts_with("crates/privpac-sanitizers/Cargo.toml:4: "));

        let audit = package(
            "privpac-audit",
            "[dev-dependencies]\nprivpac-mechanisms.workspace = true\n",
            vec![internal_dependency("privpac-mechanisms", Dev)],
        );
        assert_eq!(arrow_errors(&audit, &internal()).len(), 1);
    }

    #[test]
    fn arrow_check_asks_for_unknown_crates_to_be_added() {
        let errors = arrow_errors(&package("newcomer", "", Vec::new()), &internal());
        assert_eq!(errors.len(), 1);
        assert!(
            errors[0].contains("add it to `allowed_dependencies`"),
            "{}",
            errors[0]
        );

        let mut renamed = package("learners", "", Vec::new());
        renamed.name = "privpac-learners".to_owned();
        let errors = arrow_errors(&renamed, &internal());
        assert!(
            errors[0].starts_with("crates/learners/Cargo.toml: package `privpac-learners`"),
            "{errors:?}"
        );
    }

    #[test]
    fn workspace_check_wants_inheritance_and_a_path_and_version() {
        use DependencyKind::Normal;
        let toolkit = package(
            "privpac-toolkit",
            "[dependencies]\nrand = \"0.10\"\nprivpac-learners = { path = \"../privpac-learners\" }\n\
             privpac-sanitizers = { workspace = true, features = [\"x\"] }\nprivpac-classes.workspace = true\n",
            vec![
                dependency("rand", Normal, false, "^0.10"),
                dependency("privpac-learners", Normal, true, "*"),
                internal_dependency("privpac-sanitizers", Normal),
                // Inherited, but the root gives no version.
                dependency("privpac-classes", Normal, true, "*"),
            ],
        );
        let errors = workspace_dependency_errors(&toolkit, &internal());
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(
            errors[0].starts_with(
                "crates/privpac-toolkit/Cargo.toml:3: write the internal dependency as `privpac-learners.workspace = true`"
            ),
            "{}",
            errors[0]
        );
        assert!(
            errors[1].starts_with("Cargo.toml: internal crate `privpac-classes`"),
            "{}",
            errors[1]
        );
    }

    #[test]
    fn lints_check_wants_workspace_true() {
        let lints = |manifest: &str| lints_error(&package("lab", manifest, Vec::new()));
        assert_eq!(lints("[lints]\nworkspace = true\n"), None);
        assert_eq!(lints("lints.workspace = true\n[package]\n"), None);
        // Under [package] this would be `package.lints.workspace`.
        assert!(lints("[package]\nlints.workspace = true\n").is_some());
        assert!(
            lints("[package]\n\n[lints]\nclippy.all = \"warn\"\n[x]\nworkspace = true\n")
                .unwrap()
                .starts_with("crates/lab/Cargo.toml:3: [lints] must say")
        );
        assert!(
            lints("[package]\nname = \"lab\"\n")
                .unwrap()
                .starts_with("crates/lab/Cargo.toml:2: no [lints] section")
        );
    }

    #[test]
    fn crate_mentions_are_paths_uses_and_extern_crates() {
        assert!(mentions_crate("let x = rand::random();", "rand"));
        assert!(mentions_crate(
            "use rand_chacha::ChaCha8Rng;",
            "rand_chacha"
        ));
        assert!(mentions_crate("    use serde;", "serde"));
        assert!(mentions_crate("pub use ::serde::Serialize;", "serde"));
        assert!(mentions_crate("#[derive(serde::Serialize)]", "serde"));
        assert!(mentions_crate("extern crate statrs;", "statrs"));
        assert!(mentions_crate(
            "/// use rand_chacha::ChaCha8Rng;",
            "rand_chacha"
        ));
        assert!(mentions_crate("//! # use serde_json::json;", "serde_json"));
        // Other identifiers that contain the name, comments, and plain words do not count.
        assert!(!mentions_crate("use rand_chacha::ChaCha8Rng;", "rand"));
        assert!(!mentions_crate("let x = my_rand::f();", "rand"));
        assert!(!mentions_crate("// rand::random() is not used", "rand"));
        assert!(!mentions_crate("let rand = 3;", "rand"));
        assert!(!mentions_crate("fn reuse rand() {}", "rand"));
    }

    #[test]
    fn unused_dependency_check_flags_names_never_used() {
        use DependencyKind::{Dev, Normal};
        let mut renamed = dependency("serde_json", Normal, false, "^1");
        renamed.rename = Some("json".to_owned());
        let lab = package(
            "lab",
            "[dependencies]\nrand.workspace = true\njson = { package = \"serde_json\" }\n\
             [dev-dependencies]\nconcept-classes.workspace = true\nproptest.workspace = true\n\
             rand.workspace = true\n",
            vec![
                dependency("rand", Normal, false, "^0.10"),
                renamed,
                internal_dependency("privpac-classes", Dev),
                dependency("proptest", Dev, false, "^1"),
                dependency("rand", Dev, false, "^0.10"),
            ],
        );
        let sources = [
            "//! Lab.\nuse rand::Rng;\nfn f() { json::to_string(&1); }\n".to_owned(),
            "//! Tests.\nuse privpac_classes::Points;\n// proptest::proptest! is not used\n"
                .to_owned(),
        ];
        let errors = unused_dependency_errors(&lab, &sources, "crates/lab");
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(
            errors[0].starts_with(
                "crates/lab/Cargo.toml:7: `rand` is in [dev-dependencies] and [dependencies]"
            ),
            "{}",
            errors[0]
        );
        assert!(
            errors[1].starts_with(
                "crates/lab/Cargo.toml:6: `proptest` is declared in [dev-dependencies] but no .rs \
                 file under crates/lab/ uses it"
            ),
            "{}",
            errors[1]
        );
    }
}
