//! `cargo xtask tidy`: repository conventions that the compiler does not check, written as
//! `#[test]`s so that `cargo test --workspace` (and therefore CI) runs them.
//!
//! The checks are:
//! - every `.rs` file under `crates/`, `xtask/` and `benches/` opens with a `//!` doc comment;
//! - internal dependency arrows only point down the layer table (`allowed_dependencies` below),
//!   and every member folder has the same name as its package;
//! - internal dependencies are written `name.workspace = true`, and the root
//!   `[workspace.dependencies]` gives every internal crate both a `path` and a `version`;
//! - every member's `Cargo.toml` has `[lints]` with `workspace = true`.
//!
//! Manifests are read by a tiny line-based parser, so xtask needs no TOML dependency. It
//! understands the TOML that our manifests use: `[section]` headers, `key = value` lines, dotted
//! keys, one-line inline tables, comments, and arrays that span lines.

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
mod tests {
    use std::{
        collections::BTreeSet,
        fs,
        path::{Path, PathBuf},
    };

    use crate::project_root;

    /// Our library crates, lowest layers first.
    const LIBRARIES: &[&str] = &[
        "dp-mechanisms",
        "concept-classes",
        "dp-audit",
        "sanitizers",
        "learners",
        "multi-learners",
        "lab",
    ];

    /// The internal crates that `krate` may depend on: arrows only point down. `None` for a
    /// crate that is not in the table yet.
    fn allowed_dependencies(krate: &str) -> Option<&'static [&'static str]> {
        let allowed: &'static [&'static str] = match krate {
            // The foundations, and dp-audit, which takes plain data so every crate can use it.
            "dp-mechanisms" | "concept-classes" | "dp-audit" => &[],
            "sanitizers" => &["dp-mechanisms", "concept-classes"],
            "learners" => &["dp-mechanisms", "concept-classes", "sanitizers"],
            "multi-learners" => &["dp-mechanisms", "concept-classes", "sanitizers", "learners"],
            // The lab, the CLI and the benches sit on top of every library.
            "lab" | "privpac" | "benches" => LIBRARIES,
            // xtask must build in seconds on a fresh clone.
            "xtask" => &[],
            _ => return None,
        };
        Some(allowed)
    }

    /// Dev-dependencies may also include dp-audit, for any library.
    fn allowed_dev_dependencies(krate: &str) -> Option<Vec<&'static str>> {
        let mut allowed = allowed_dependencies(krate)?.to_vec();
        if LIBRARIES.contains(&krate) && !allowed.contains(&"dp-audit") && krate != "dp-audit" {
            allowed.push("dp-audit");
        }
        Some(allowed)
    }

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
    fn dependency_arrows_point_down() {
        let workspace = Workspace::read();
        let errors: Vec<String> = workspace
            .members
            .iter()
            .flat_map(|member| arrow_errors(member, &workspace.internal_crates))
            .collect();
        assert_no_errors(&errors);
    }

    #[test]
    fn internal_dependencies_come_from_the_workspace() {
        let workspace = Workspace::read();
        let mut errors = root_dependency_errors(
            "Cargo.toml",
            &workspace.root_manifest,
            &workspace.internal_crates,
        );
        for member in &workspace.members {
            errors.extend(workspace_dependency_errors(
                member,
                &workspace.internal_crates,
            ));
        }
        assert_no_errors(&errors);
    }

    #[test]
    fn every_member_uses_the_workspace_lints() {
        let workspace = Workspace::read();
        let errors: Vec<String> = workspace.members.iter().flat_map(lints_error).collect();
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
    fn rust_files(dir: &Path) -> Vec<PathBuf> {
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

    // ---- The workspace and its members. ----

    struct Workspace {
        root_manifest: Manifest,
        members: Vec<Member>,
        /// Names of our own crates: the layer table plus every member.
        internal_crates: BTreeSet<String>,
    }

    /// One workspace member's manifest.
    struct Member {
        /// The manifest's path relative to the root, for messages (`crates/lab/Cargo.toml`).
        path: String,
        /// The member's folder name, which must equal its package name.
        folder: String,
        manifest: Manifest,
        /// The number of lines in the manifest, to point at its end.
        line_count: usize,
    }

    impl Workspace {
        fn read() -> Workspace {
            let root = project_root();
            let root_manifest =
                Manifest::parse(&fs::read_to_string(root.join("Cargo.toml")).unwrap());
            let member_patterns = root_manifest
                .value(&["workspace"], &["members"])
                .map(quoted_strings)
                .expect("the root Cargo.toml lists `members` under [workspace]");

            let mut members = Vec::new();
            for dir in expand_members(&root, &member_patterns) {
                let manifest_path = dir.join("Cargo.toml");
                let text = fs::read_to_string(&manifest_path).unwrap();
                members.push(Member {
                    path: display_path(&root, &manifest_path),
                    folder: dir.file_name().unwrap().to_string_lossy().into_owned(),
                    manifest: Manifest::parse(&text),
                    line_count: text.lines().count(),
                });
            }

            let mut internal_crates: BTreeSet<String> =
                ["privpac", "xtask", "benches"].map(str::to_owned).into();
            internal_crates.extend(LIBRARIES.iter().map(|name| (*name).to_owned()));
            for member in &members {
                internal_crates.insert(member.folder.clone());
                internal_crates.extend(member.package_name().map(|(name, _)| name));
            }
            Workspace {
                root_manifest,
                members,
                internal_crates,
            }
        }
    }

    impl Member {
        /// `[package] name` and its line.
        fn package_name(&self) -> Option<(String, usize)> {
            let entry = self.manifest.entry(&["package"], &["name"])?;
            Some((unquote(&entry.value), entry.line))
        }
    }

    /// Member folders: `dir/*` globs are expanded to the subfolders holding a `Cargo.toml`.
    fn expand_members(root: &Path, patterns: &[String]) -> Vec<PathBuf> {
        let mut dirs = Vec::new();
        for pattern in patterns {
            if let Some(parent) = pattern.strip_suffix("/*") {
                let mut found: Vec<PathBuf> = fs::read_dir(root.join(parent))
                    .unwrap()
                    .map(|entry| entry.unwrap().path())
                    .filter(|dir| dir.join("Cargo.toml").is_file())
                    .collect();
                found.sort();
                dirs.extend(found);
            } else {
                dirs.push(root.join(pattern));
            }
        }
        dirs
    }

    fn display_path(root: &Path, path: &Path) -> String {
        let relative = path.strip_prefix(root).unwrap_or(path);
        let parts: Vec<String> = relative
            .iter()
            .map(|part| part.to_string_lossy().into_owned())
            .collect();
        parts.join("/")
    }

    // ---- Dependency checks. ----

    fn is_internal(dependency: &Dependency, internal_crates: &BTreeSet<String>) -> bool {
        dependency.path || internal_crates.contains(dependency.crate_name())
    }

    /// Upward or unlisted internal dependencies, and members missing from the layer table.
    fn arrow_errors(member: &Member, internal_crates: &BTreeSet<String>) -> Vec<String> {
        let path = &member.path;
        let krate = member.folder.as_str();
        let mut errors = Vec::new();
        if let Some((name, line)) = member.package_name()
            && name != krate
        {
            errors.push(format!(
                "{path}:{line}: package `{name}` must have the same name as its folder `{krate}`"
            ));
        }
        let (Some(allowed), Some(allowed_dev)) =
            (allowed_dependencies(krate), allowed_dev_dependencies(krate))
        else {
            errors.push(format!(
                "{path}:1: `{krate}` is not in the dependency table; add it to \
                 `allowed_dependencies` in xtask/src/tidy.rs with the internal crates it may use"
            ));
            return errors;
        };
        for dependency in dependencies(&member.manifest) {
            if !is_internal(&dependency, internal_crates) {
                continue;
            }
            let name = dependency.crate_name();
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
                    dependency.line,
                    dependency.kind.table()
                ));
            }
        }
        errors
    }

    /// Internal dependencies not written `name.workspace = true`.
    fn workspace_dependency_errors(
        member: &Member,
        internal_crates: &BTreeSet<String>,
    ) -> Vec<String> {
        dependencies(&member.manifest)
            .into_iter()
            .filter(|dependency| is_internal(dependency, internal_crates) && !dependency.workspace)
            .map(|dependency| {
                format!(
                    "{}:{}: write the internal dependency as `{}.workspace = true`; its path \
                     and version belong in the root [workspace.dependencies]",
                    member.path, dependency.line, dependency.name
                )
            })
            .collect()
    }

    /// Internal crates in the root `[workspace.dependencies]` without both a path and a version.
    fn root_dependency_errors(
        path: &str,
        root_manifest: &Manifest,
        internal_crates: &BTreeSet<String>,
    ) -> Vec<String> {
        let Some(section) = root_manifest.section(&["workspace", "dependencies"]) else {
            return Vec::new();
        };
        table_dependencies(section, DependencyKind::Normal)
            .into_iter()
            .filter(|dependency| is_internal(dependency, internal_crates))
            .filter(|dependency| !(dependency.path && dependency.version))
            .map(|dependency| {
                format!(
                    "{path}:{}: internal crate `{}` needs both `path` and `version` in \
                     [workspace.dependencies], e.g. `{{ path = \"crates/{}\", version = \"0.1.0\" }}`",
                    dependency.line, dependency.name, dependency.name
                )
            })
            .collect()
    }

    /// An error unless the manifest has `[lints]` with `workspace = true`.
    fn lints_error(member: &Member) -> Option<String> {
        let path = &member.path;
        match member.manifest.section(&["lints"]) {
            Some(section) => {
                let inherits = section
                    .entries
                    .iter()
                    .any(|entry| entry.key == ["workspace"] && entry.value == "true");
                (!inherits).then(|| {
                    format!(
                        "{path}:{}: [lints] must say `workspace = true` so the workspace lints apply",
                        section.line
                    )
                })
            }
            None => Some(format!(
                "{path}:{}: no [lints] section; end the file with `[lints]` and \
                 `workspace = true` so the workspace lints apply",
                member.line_count.max(1)
            )),
        }
    }

    // ---- Dependencies, as read from a manifest. ----

    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    enum DependencyKind {
        Normal,
        Dev,
        Build,
    }

    impl DependencyKind {
        fn from_table(table: &str) -> Option<DependencyKind> {
            match table {
                "dependencies" => Some(DependencyKind::Normal),
                "dev-dependencies" => Some(DependencyKind::Dev),
                "build-dependencies" => Some(DependencyKind::Build),
                _ => None,
            }
        }

        fn table(self) -> &'static str {
            match self {
                DependencyKind::Normal => "[dependencies]",
                DependencyKind::Dev => "[dev-dependencies]",
                DependencyKind::Build => "[build-dependencies]",
            }
        }
    }

    /// One dependency declaration: what we need to know about it, and where it starts.
    #[derive(Debug, Clone, PartialEq)]
    struct Dependency {
        /// The key it is declared under.
        name: String,
        /// The real crate name when renamed with `package = "..."`.
        package: Option<String>,
        kind: DependencyKind,
        line: usize,
        workspace: bool,
        path: bool,
        version: bool,
    }

    impl Dependency {
        fn new(name: &str, kind: DependencyKind, line: usize) -> Dependency {
            Dependency {
                name: name.to_owned(),
                package: None,
                kind,
                line,
                workspace: false,
                path: false,
                version: false,
            }
        }

        fn crate_name(&self) -> &str {
            self.package.as_deref().unwrap_or(&self.name)
        }

        /// Records `key = value`, where `key` is relative to the dependency.
        fn read(&mut self, key: &[String], value: &str) {
            match key {
                [] if value.starts_with('{') => {
                    for (key, value) in inline_table(value) {
                        self.read(&key, &value);
                    }
                }
                // `name = "1.0"`: a bare version requirement.
                [] => self.version = true,
                [field] => match field.as_str() {
                    "workspace" => self.workspace = value == "true",
                    "path" => self.path = true,
                    "version" => self.version = true,
                    "package" => self.package = Some(unquote(value)),
                    _ => {}
                },
                _ => {}
            }
        }
    }

    /// Every dependency declared in `[dependencies]`, `[dev-dependencies]`,
    /// `[build-dependencies]`, their `[target.'cfg(..)'.*]` forms, and the table forms
    /// `[dependencies.name]`.
    fn dependencies(manifest: &Manifest) -> Vec<Dependency> {
        let mut found = Vec::new();
        for section in &manifest.sections {
            let header: Vec<&str> = section.header.iter().map(String::as_str).collect();
            let header = match header.as_slice() {
                ["target", _, rest @ ..] => rest,
                other => other,
            };
            match *header {
                [table] => {
                    if let Some(kind) = DependencyKind::from_table(table) {
                        found.extend(table_dependencies(section, kind));
                    }
                }
                [table, name] => {
                    if let Some(kind) = DependencyKind::from_table(table) {
                        let mut dependency = Dependency::new(name, kind, section.line);
                        for entry in &section.entries {
                            dependency.read(&entry.key, &entry.value);
                        }
                        found.push(dependency);
                    }
                }
                _ => {}
            }
        }
        found
    }

    /// The dependencies listed as keys of one section, merging dotted keys of the same name.
    fn table_dependencies(section: &Section, kind: DependencyKind) -> Vec<Dependency> {
        let mut found: Vec<Dependency> = Vec::new();
        for entry in &section.entries {
            let Some((name, field)) = entry.key.split_first() else {
                continue;
            };
            let index = match found.iter().position(|dependency| dependency.name == *name) {
                Some(index) => index,
                None => {
                    found.push(Dependency::new(name, kind, entry.line));
                    found.len() - 1
                }
            };
            found[index].read(field, &entry.value);
        }
        found
    }

    // ---- A tiny line-based manifest parser. ----

    /// A Cargo.toml as a list of sections; entries before the first header form a section with
    /// an empty header.
    #[derive(Debug)]
    struct Manifest {
        sections: Vec<Section>,
    }

    #[derive(Debug)]
    struct Section {
        /// The dotted header, unquoted: `[target.'cfg(unix)'.dependencies]` gives
        /// `["target", "cfg(unix)", "dependencies"]`. Arrays of tables (`[[bench]]`) look the
        /// same as tables.
        header: Vec<String>,
        line: usize,
        entries: Vec<Entry>,
    }

    #[derive(Debug)]
    struct Entry {
        /// The dotted key, unquoted.
        key: Vec<String>,
        /// The value as written, without comments; lines of a multi-line array are joined.
        value: String,
        line: usize,
    }

    impl Manifest {
        fn parse(text: &str) -> Manifest {
            let mut sections = vec![Section {
                header: Vec::new(),
                line: 0,
                entries: Vec::new(),
            }];
            let mut open_brackets = 0;
            for (index, raw_line) in text.lines().enumerate() {
                let line_number = index + 1;
                let line = strip_comment(raw_line).trim();
                if line.is_empty() {
                    continue;
                }
                let section = sections.last_mut().expect("there is always a section");
                if open_brackets > 0 {
                    if let Some(entry) = section.entries.last_mut() {
                        entry.value.push(' ');
                        entry.value.push_str(line);
                    }
                    open_brackets += bracket_balance(line);
                } else if line.starts_with('[') {
                    let inner = line.trim_start_matches('[').trim_end_matches(']');
                    sections.push(Section {
                        header: split_dotted(inner),
                        line: line_number,
                        entries: Vec::new(),
                    });
                } else if let Some((key, value)) = split_key_value(line) {
                    open_brackets = bracket_balance(value);
                    section.entries.push(Entry {
                        key: split_dotted(key),
                        value: value.to_owned(),
                        line: line_number,
                    });
                }
            }
            Manifest { sections }
        }

        fn section(&self, header: &[&str]) -> Option<&Section> {
            self.sections
                .iter()
                .find(|section| section.header == header)
        }

        fn entry(&self, header: &[&str], key: &[&str]) -> Option<&Entry> {
            self.section(header)?
                .entries
                .iter()
                .find(|entry| entry.key == key)
        }

        fn value(&self, header: &[&str], key: &[&str]) -> Option<&str> {
            Some(&self.entry(header, key)?.value)
        }
    }

    /// Tracks whether a scan is inside a TOML string, and calls `visit` on each character
    /// outside one, stopping when it returns `false`.
    fn scan_outside_strings(text: &str, mut visit: impl FnMut(usize, char) -> bool) {
        let mut quote: Option<char> = None;
        let mut escaped = false;
        for (index, character) in text.char_indices() {
            match quote {
                Some('"') if escaped => escaped = false,
                Some('"') if character == '\\' => escaped = true,
                Some(open) if character == open => quote = None,
                Some(_) => {}
                None if character == '"' || character == '\'' => quote = Some(character),
                None => {
                    if !visit(index, character) {
                        return;
                    }
                }
            }
        }
    }

    /// `line` without a trailing `# comment` (a `#` inside a string is kept).
    fn strip_comment(line: &str) -> &str {
        let mut end = line.len();
        scan_outside_strings(line, |index, character| {
            if character == '#' {
                end = index;
                false
            } else {
                true
            }
        });
        &line[..end]
    }

    /// Opening minus closing brackets and braces outside strings.
    fn bracket_balance(text: &str) -> i32 {
        let mut balance = 0;
        scan_outside_strings(text, |_, character| {
            match character {
                '[' | '{' => balance += 1,
                ']' | '}' => balance -= 1,
                _ => {}
            }
            true
        });
        balance
    }

    /// Splits `text` at every `separator` that is outside strings and brackets.
    fn split_top_level(text: &str, separator: char) -> Vec<&str> {
        let mut parts = Vec::new();
        let mut depth = 0;
        let mut start = 0;
        scan_outside_strings(text, |index, character| {
            match character {
                '[' | '{' => depth += 1,
                ']' | '}' => depth -= 1,
                _ if character == separator && depth == 0 => {
                    parts.push(&text[start..index]);
                    start = index + character.len_utf8();
                }
                _ => {}
            }
            true
        });
        parts.push(&text[start..]);
        parts
    }

    /// `key = value` split at the first top-level `=`, both trimmed.
    fn split_key_value(line: &str) -> Option<(&str, &str)> {
        let mut equals = None;
        scan_outside_strings(line, |index, character| {
            if character == '=' {
                equals = Some(index);
                false
            } else {
                true
            }
        });
        let equals = equals?;
        Some((line[..equals].trim(), line[equals + 1..].trim()))
    }

    /// `a."b.c".d` → `["a", "b.c", "d"]`.
    fn split_dotted(key: &str) -> Vec<String> {
        split_top_level(key, '.')
            .into_iter()
            .map(|part| unquote(part.trim()))
            .collect()
    }

    /// The pairs of a one-line inline table `{ a = 1, b.c = "x" }`.
    fn inline_table(value: &str) -> Vec<(Vec<String>, String)> {
        let inner = value
            .trim()
            .strip_prefix('{')
            .and_then(|rest| rest.strip_suffix('}'))
            .unwrap_or("");
        split_top_level(inner, ',')
            .into_iter()
            .filter_map(split_key_value)
            .map(|(key, value)| (split_dotted(key), value.to_owned()))
            .collect()
    }

    fn unquote(text: &str) -> String {
        let text = text.trim();
        for quote in ['"', '\''] {
            if let Some(inner) = text
                .strip_prefix(quote)
                .and_then(|rest| rest.strip_suffix(quote))
            {
                return inner.to_owned();
            }
        }
        text.to_owned()
    }

    /// The strings in an array value such as `["crates/*", "xtask"]`.
    fn quoted_strings(value: &str) -> Vec<String> {
        let inner = value
            .trim()
            .strip_prefix('[')
            .and_then(|rest| rest.strip_suffix(']'))
            .unwrap_or(value);
        split_top_level(inner, ',')
            .into_iter()
            .map(str::trim)
            .filter(|item| !item.is_empty())
            .map(unquote)
            .collect()
    }

    // ---- Tests of the checks themselves, on made-up manifests. ----

    fn member(folder: &str, text: &str) -> Member {
        Member {
            path: format!("crates/{folder}/Cargo.toml"),
            folder: folder.to_owned(),
            manifest: Manifest::parse(text),
            line_count: text.lines().count(),
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
    fn parser_reads_sections_keys_and_multi_line_arrays() {
        let manifest = Manifest::parse(
            r#"
[workspace]
members = [
    "crates/*",  # the libraries
    "xtask",
]
[package]
name = "odd # name"   # a comment
[target.'cfg(target_os = "linux")'.dependencies]
libc = "0.2"
"#,
        );
        assert_eq!(
            manifest
                .value(&["workspace"], &["members"])
                .map(quoted_strings),
            Some(vec!["crates/*".to_owned(), "xtask".to_owned()])
        );
        let name = manifest.entry(&["package"], &["name"]).unwrap();
        assert_eq!(
            (unquote(&name.value).as_str(), name.line),
            ("odd # name", 8)
        );
        let target = &manifest.sections[3];
        assert_eq!(
            target.header,
            ["target", "cfg(target_os = \"linux\")", "dependencies"]
        );
    }

    #[test]
    fn parser_finds_every_form_of_dependency() {
        let manifest = Manifest::parse(
            r#"[dependencies]
rand.workspace = true
sanitizers = { workspace = true, features = ["a", "b"] }
alias = { package = "learners", path = "../learners" }
serde = "1"

[dev-dependencies.dp-audit]
workspace = true

[build-dependencies]
cc = { version = "1" }
"#,
        );
        let dependencies = dependencies(&manifest);
        let found: Vec<(&str, DependencyKind, usize, bool, bool, bool)> = dependencies
            .iter()
            .map(|dependency| {
                (
                    dependency.crate_name(),
                    dependency.kind,
                    dependency.line,
                    dependency.workspace,
                    dependency.path,
                    dependency.version,
                )
            })
            .collect();
        use DependencyKind::{Build, Dev, Normal};
        assert_eq!(
            found,
            [
                ("rand", Normal, 2, true, false, false),
                ("sanitizers", Normal, 3, true, false, false),
                ("learners", Normal, 4, false, true, false),
                ("serde", Normal, 5, false, false, true),
                ("dp-audit", Dev, 7, true, false, false),
                ("cc", Build, 11, false, false, true),
            ]
        );
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
    fn arrow_check_rejects_upward_and_allows_dev_audit() {
        let learners = member(
            "learners",
            "[package]\nname = \"learners\"\n\n[dependencies]\nsanitizers.workspace = true\n\
             multi-learners.workspace = true\nrand.workspace = true\n\n\
             [dev-dependencies]\ndp-audit.workspace = true\n",
        );
        let errors = arrow_errors(&learners, &internal());
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(
            errors[0].starts_with(
                "crates/learners/Cargo.toml:6: `learners` may not depend on `multi-learners`"
            ),
            "{}",
            errors[0]
        );

        let sanitizers = member(
            "sanitizers",
            "[dependencies]\ndp-audit.workspace = true\n[dev-dependencies]\nlab.workspace = true\n",
        );
        let errors = arrow_errors(&sanitizers, &internal());
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(errors[0].starts_with("crates/sanitizers/Cargo.toml:2: "));
        assert!(errors[1].starts_with("crates/sanitizers/Cargo.toml:4: "));

        let audit = member(
            "dp-audit",
            "[dev-dependencies]\ndp-mechanisms.workspace = true\n",
        );
        assert_eq!(arrow_errors(&audit, &internal()).len(), 1);
    }

    #[test]
    fn arrow_check_asks_for_unknown_crates_to_be_added() {
        let errors = arrow_errors(&member("newcomer", "[dependencies]\n"), &internal());
        assert_eq!(errors.len(), 1);
        assert!(
            errors[0].contains("add it to `allowed_dependencies`"),
            "{}",
            errors[0]
        );

        let renamed = member("learners", "[package]\nname = \"privpac-learners\"\n");
        let errors = arrow_errors(&renamed, &internal());
        assert!(
            errors[0].starts_with("crates/learners/Cargo.toml:2: package"),
            "{errors:?}"
        );
    }

    #[test]
    fn workspace_check_flags_internal_paths_only() {
        let lab = member(
            "lab",
            "[dependencies]\nrand = \"0.10\"\nlearners = { path = \"../learners\" }\n\
             sanitizers = { workspace = true, features = [\"x\"] }\n",
        );
        let errors = workspace_dependency_errors(&lab, &internal());
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(
            errors[0].starts_with("crates/lab/Cargo.toml:3: write the internal dependency as `learners.workspace = true`"),
            "{}",
            errors[0]
        );
    }

    #[test]
    fn root_check_wants_path_and_version() {
        let root = Manifest::parse(
            "[workspace.dependencies]\n\
             dp-mechanisms = { path = \"crates/dp-mechanisms\", version = \"0.1.0\" }\n\
             learners = { path = \"crates/learners\" }\n\
             rand = \"0.10\"\n\
             vendored = { path = \"vendor/vendored\" }\n",
        );
        let errors = root_dependency_errors("Cargo.toml", &root, &internal());
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(errors[0].starts_with("Cargo.toml:3: internal crate `learners`"));
        assert!(errors[1].starts_with("Cargo.toml:5: internal crate `vendored`"));
    }

    #[test]
    fn lints_check_wants_workspace_true() {
        assert_eq!(
            lints_error(&member("lab", "[lints]\nworkspace = true\n")),
            None
        );
        assert!(
            lints_error(&member(
                "lab",
                "[package]\n\n[lints]\nclippy.all = \"warn\"\n"
            ))
            .unwrap()
            .starts_with("crates/lab/Cargo.toml:3: [lints] must say")
        );
        assert!(
            lints_error(&member("lab", "[package]\nname = \"lab\"\n"))
                .unwrap()
                .starts_with("crates/lab/Cargo.toml:2: no [lints] section")
        );
    }
}
