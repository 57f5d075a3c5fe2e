//! The crate-share check of `cargo xtask tidy`: no workspace member holds more than
//! [`MAX_SHARE_PERCENT`]% of the workspace's Rust lines, so that no crate grows into the one
//! everything lives in.
//!
//! What is counted: every line (code, comments and blank lines alike) of every `.rs` file under
//! a member's folder (`crates/*`, `xtask`, `benches`), so its `src/`, `tests/`, `benches/`,
//! `examples/` and build script, skipping `target/` and hidden folders; a member's share is its
//! lines over the sum of every member's lines. Other languages (the Python package's `.py`
//! files) and files outside the members (`examples/own-learner`) are not counted.
//! `cargo xtask tidy` prints the table of shares after running the tests.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::rust_files;

/// The largest share of the workspace's Rust lines one member may hold, in percent.
pub(super) const MAX_SHARE_PERCENT: f64 = 13.0;

/// Each workspace member's name and folder, from `cargo metadata`.
pub(super) fn members(metadata: &Value) -> Vec<(String, PathBuf)> {
    metadata["packages"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|package| {
            let name = package["name"].as_str()?.to_owned();
            let manifest = Path::new(package["manifest_path"].as_str()?);
            Some((name, manifest.parent()?.to_path_buf()))
        })
        .collect()
}

/// Each member's Rust lines, largest first (then by name).
pub(super) fn line_counts(members: &[(String, PathBuf)]) -> Vec<(String, usize)> {
    let mut counts: Vec<(String, usize)> = members
        .iter()
        .map(|(name, dir)| {
            let lines = rust_files(dir)
                .iter()
                .filter_map(|path| fs::read_to_string(path).ok())
                .map(|text| text.lines().count())
                .sum();
            (name.clone(), lines)
        })
        .collect();
    counts.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    counts
}

fn percent(lines: usize, total: usize) -> f64 {
    if total == 0 {
        0.0
    } else {
        100.0 * lines as f64 / total as f64
    }
}

/// The table of shares: crate, lines, percent, and the total.
pub(super) fn table(counts: &[(String, usize)]) -> String {
    let total: usize = counts.iter().map(|(_, lines)| lines).sum();
    let width = counts
        .iter()
        .map(|(name, _)| name.len())
        .chain(["crate".len(), "total".len()])
        .max()
        .unwrap_or(0);
    let mut table = format!(
        "Rust lines per crate (at most {MAX_SHARE_PERCENT}% each):\n{:<width$}  {:>7}  {:>6}\n",
        "crate", "lines", "share"
    );
    for (name, lines) in counts {
        let share = percent(*lines, total);
        let flag = if share > MAX_SHARE_PERCENT {
            "  over"
        } else {
            ""
        };
        table.push_str(&format!(
            "{name:<width$}  {lines:>7}  {share:>5.1}%{flag}\n"
        ));
    }
    table.push_str(&format!("{:<width$}  {total:>7}  100.0%", "total"));
    table
}

/// One error per member holding more than [`MAX_SHARE_PERCENT`]% of the lines.
#[cfg(test)]
pub(super) fn share_errors(counts: &[(String, usize)]) -> Vec<String> {
    let total: usize = counts.iter().map(|(_, lines)| lines).sum();
    counts
        .iter()
        .filter(|(_, lines)| percent(*lines, total) > MAX_SHARE_PERCENT)
        .map(|(name, lines)| {
            format!(
                "{name}: {lines} of the workspace's {total} Rust lines ({:.1}%), over the limit \
                 of {MAX_SHARE_PERCENT}%: split it along a seam into crates of their own",
                percent(*lines, total)
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_crate_holds_too_large_a_share_of_the_lines() {
        let members = members(&super::super::metadata().unwrap());
        let counts = line_counts(&members);
        let errors = share_errors(&counts);
        assert!(
            errors.is_empty(),
            "tidy found {} crate(s) too large:\n{}\n\n{}",
            errors.len(),
            errors.join("\n"),
            table(&counts)
        );
    }

    #[test]
    fn shares_over_the_limit_are_named_with_their_lines() {
        let mut counts = vec![("big".to_owned(), 14)];
        counts.extend((0..8).map(|i| (format!("c{i}"), 10)));
        counts.push(("d".to_owned(), 6));
        assert_eq!(
            share_errors(&counts),
            [
                "big: 14 of the workspace's 100 Rust lines (14.0%), over the limit of 13%: split \
              it along a seam into crates of their own"
            ]
        );
        let even: Vec<(String, usize)> = (0..8).map(|i| (format!("c{i}"), 10)).collect();
        assert!(share_errors(&even).is_empty());
        assert!(share_errors(&[]).is_empty());
    }

    #[test]
    fn the_table_lists_every_crate_and_the_total() {
        let table = table(&[
            ("big".to_owned(), 20),
            ("small".to_owned(), 2),
            ("c".to_owned(), 78),
        ]);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines[1], "crate    lines   share");
        assert_eq!(lines[2], "big         20   20.0%  over");
        assert_eq!(lines[3], "small        2    2.0%");
        assert_eq!(lines[5], "total      100  100.0%");
    }
}
