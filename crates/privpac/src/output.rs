//! Output: every command builds one `#[derive(Serialize)]` report and prints it either as
//! JSON (`--json`, one line) or as text rendered from the same report. Tables are drawn
//! by `comfy-table` with numeric columns right-aligned; long runs show an `indicatif`
//! progress bar on standard error when it is a terminal, and nothing otherwise.

use std::io::IsTerminal as _;

use comfy_table::{CellAlignment, ContentArrangement, presets};
use serde::Serialize;

/// A report that can also be rendered as text for people.
pub(crate) trait Render {
    /// The text form (ends with a newline).
    fn render(&self) -> String;
}

/// Prints `report` as JSON or text. Everything is formatted before anything is printed,
/// so a failure never leaves half an output.
pub(crate) fn emit<R: Serialize + Render>(report: &R, json: bool) -> anyhow::Result<()> {
    let text = if json {
        let mut line = serde_json::to_string(report)?;
        line.push('\n');
        line
    } else {
        report.render()
    };
    print!("{text}");
    Ok(())
}

/// A text table; columns whose cells are all numbers are right-aligned.
#[derive(Debug, Default)]
pub(crate) struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Table {
    pub(crate) fn new(header: &[&str]) -> Self {
        Table {
            header: header.iter().map(|h| h.to_string()).collect(),
            rows: Vec::new(),
        }
    }

    pub(crate) fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    pub(crate) fn render(&self) -> String {
        let mut table = comfy_table::Table::new();
        table
            .load_preset(presets::ASCII_MARKDOWN)
            .set_content_arrangement(ContentArrangement::Disabled)
            .set_header(self.header.clone());
        for row in &self.rows {
            table.add_row(row.clone());
        }
        for index in 0..self.header.len() {
            let numeric = !self.rows.is_empty()
                && self
                    .rows
                    .iter()
                    .all(|row| row.get(index).is_some_and(|cell| is_number(cell)));
            if numeric && let Some(column) = table.column_mut(index) {
                column.set_cell_alignment(CellAlignment::Right);
            }
        }
        format!("{table}\n")
    }
}

/// Whether a cell holds a number (possibly in scientific notation).
fn is_number(cell: &str) -> bool {
    cell.trim().parse::<f64>().is_ok()
}

/// A progress bar over `len` steps on a terminal; `None` (quiet) otherwise.
pub(crate) fn progress(len: u64, message: &str) -> Option<indicatif::ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(len);
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{spinner} {msg} [{elapsed}] {wide_bar} {pos}/{len}",
    ) {
        bar.set_style(style);
    }
    bar.set_message(message.to_string());
    Some(bar)
}

/// A spinner for a computation of unknown length on a terminal; `None` otherwise.
pub(crate) fn spinner(message: &str) -> Option<indicatif::ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new_spinner();
    bar.set_message(message.to_string());
    bar.enable_steady_tick(std::time::Duration::from_millis(120));
    Some(bar)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numeric_columns_are_right_aligned() {
        let mut table = Table::new(&["name", "n"]);
        table.row(vec!["a".into(), "5".into()]);
        table.row(vec!["bbb".into(), "100".into()]);
        let text = table.render();
        let lines: Vec<&str> = text
            .lines()
            .filter(|l| l.contains('a') || l.contains('b'))
            .collect();
        // "5" ends where "100" ends.
        let end = |line: &str, needle: &str| line.find(needle).map(|i| i + needle.len());
        assert_eq!(end(lines[1], "5"), end(lines[2], "100"), "{text}");
    }
}
