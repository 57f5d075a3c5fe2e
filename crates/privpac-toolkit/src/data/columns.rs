//! Named columns: a [`ColumnSelection`] of the feature column and the label columns (header
//! names or 0-based indices), resolved against the first line of a file and applied to each
//! row with one reused buffer of field spans.

use std::str::FromStr;

use privpac_classes::Domain;
use privpac_engine::{Error, MAX_COLUMNS, Result, check_count};

use super::{
    DataOptions, DataTable, LabelMatrix, RowShape, columns_hint, field, looks_like_point,
    parse_point, parse_real,
};

/// One column of a data file: its name in the header, or its 0-based index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Column {
    /// The column whose header field is this name (trimmed and unquoted, compared exactly,
    /// then ignoring ASCII case when exactly one column matches that way).
    Name(String),
    /// The column at this 0-based position.
    Index(usize),
}

impl std::fmt::Display for Column {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Column::Name(name) => write!(f, "{name:?}"),
            Column::Index(index) => write!(f, "{index}"),
        }
    }
}

/// Which columns of a data file hold the point (the feature) and the labels, in that order:
/// parsed from `FEATURE,LABEL1,…,LABELk`, each entry a header name or a 0-based index (an
/// entry of decimal digits only is an index). Labeled examples take exactly one label
/// column, k-labeled examples k ≥ 1 (in the order given), points none.
///
/// # Example
/// ```
/// use privpac_toolkit::{Column, ColumnSelection};
/// let selection: ColumnSelection = "age, sick".parse()?;
/// assert_eq!(selection.feature, Column::Name("age".into()));
/// assert_eq!(selection.labels, vec![Column::Name("sick".into())]);
/// assert_eq!("2,0".parse::<ColumnSelection>()?.feature, Column::Index(2));
/// assert!("age,,sick".parse::<ColumnSelection>().is_err());
/// # Ok::<(), privpac_toolkit::ColumnsError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColumnSelection {
    /// The column of the points.
    pub feature: Column,
    /// The label columns, in order.
    pub labels: Vec<Column>,
}

/// Why a column selection was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("columns {text:?}: {reason}")]
pub struct ColumnsError {
    /// The selection as given.
    pub text: String,
    /// What is wrong with it.
    pub reason: String,
}

impl FromStr for ColumnSelection {
    type Err = ColumnsError;

    fn from_str(text: &str) -> std::result::Result<Self, ColumnsError> {
        let error = |reason: String| ColumnsError {
            text: text.to_string(),
            reason,
        };
        let mut columns = Vec::new();
        for (position, entry) in text.split(',').enumerate() {
            let entry = entry.trim();
            if entry.is_empty() {
                return Err(error(format!(
                    "entry {} is empty (expected FEATURE,LABEL,… as header names or 0-based indices)",
                    position + 1
                )));
            }
            columns.push(if entry.bytes().all(|b| b.is_ascii_digit()) {
                Column::Index(
                    entry
                        .parse()
                        .map_err(|_| error(format!("index {entry} is too large")))?,
                )
            } else {
                Column::Name(entry.to_string())
            });
        }
        if columns.len() > MAX_COLUMNS + 1 {
            return Err(error(format!(
                "{} label columns, above the limit of {MAX_COLUMNS}",
                columns.len() - 1
            )));
        }
        let mut columns = columns.into_iter();
        let feature = columns
            .next()
            .ok_or_else(|| error("no columns".to_string()))?;
        Ok(ColumnSelection {
            feature,
            labels: columns.collect(),
        })
    }
}

impl std::fmt::Display for ColumnSelection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let name = |column: &Column| match column {
            Column::Name(name) => name.clone(),
            Column::Index(index) => index.to_string(),
        };
        write!(f, "{}", name(&self.feature))?;
        for label in &self.labels {
            write!(f, ",{}", name(label))?;
        }
        Ok(())
    }
}

/// The state of a read with a [`ColumnSelection`]: the columns' positions once known (the
/// feature first, then the labels), the header's number of columns, and a reused buffer of
/// field spans (nothing allocated per row).
pub(super) struct Selected<'a> {
    pub(super) selection: &'a ColumnSelection,
    pub(super) indices: Vec<usize>,
    pub(super) header_columns: Option<usize>,
    pub(super) spans: Vec<(usize, usize)>,
    pub(super) started: bool,
}

impl Selected<'_> {
    /// Resolves the selection against the first line (`text`, cut at `spans`): names are
    /// looked up in it (it is then the header), indices checked against its width.
    fn resolve(&mut self, text: &[u8], line: u64) -> Result<bool> {
        let bad = |reason: String| Error::BadDataLine { line, reason };
        let fields: Vec<&[u8]> = self
            .spans
            .iter()
            .map(|&(a, b)| field(&text[a..b]))
            .collect();
        let shown = || {
            fields
                .iter()
                .map(|f| String::from_utf8_lossy(f).into_owned())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let has_names = std::iter::once(&self.selection.feature)
            .chain(&self.selection.labels)
            .any(|c| matches!(c, Column::Name(_)));
        self.indices.clear();
        for column in std::iter::once(&self.selection.feature).chain(&self.selection.labels) {
            let index = match column {
                Column::Index(index) => *index,
                Column::Name(name) => {
                    let exact: Vec<usize> = (0..fields.len())
                        .filter(|&i| fields[i] == name.as_bytes())
                        .collect();
                    let loose: Vec<usize> = (0..fields.len())
                        .filter(|&i| fields[i].eq_ignore_ascii_case(name.as_bytes()))
                        .collect();
                    match (exact.as_slice(), loose.as_slice()) {
                        ([i], _) | ([], [i]) => *i,
                        ([], []) => {
                            return Err(bad(format!(
                                "column {column} is not in the header (its columns: {})",
                                shown()
                            )));
                        }
                        _ => {
                            return Err(bad(format!(
                                "column {column} appears more than once in the header (its columns: {}); name it by its 0-based index instead",
                                shown()
                            )));
                        }
                    }
                }
            };
            if index >= fields.len() {
                return Err(bad(format!(
                    "column {index} is past the last column (this line has {} columns, 0 to {})",
                    fields.len(),
                    fields.len() - 1
                )));
            }
            self.indices.push(index);
        }
        Ok(has_names)
    }
}

/// Parses one line of a file read with a [`ColumnSelection`] into `table` (or skips it:
/// blank, comment, header).
pub(super) fn parse_selected_line(
    domain: &Domain,
    shape: &mut RowShape,
    options: &DataOptions,
    selected: &mut Selected<'_>,
    table: &mut DataTable,
    line: u64,
    bytes: &[u8],
) -> Result<()> {
    let bad = |reason: String| Error::BadDataLine { line, reason };
    let text = bytes.trim_ascii();
    if text.is_empty() || text[0] == b'#' {
        return Ok(());
    }
    selected.spans.clear();
    let mut start = 0;
    for (i, &b) in text.iter().enumerate() {
        if b == b',' {
            selected.spans.push((start, i));
            start = i + 1;
        }
    }
    selected.spans.push((start, text.len()));
    let spans = &selected.spans;
    if spans.iter().all(|&(a, b)| field(&text[a..b]).is_empty()) {
        return Ok(());
    }
    let columns = spans.len();
    if !selected.started {
        selected.started = true;
        let k = selected.selection.labels.len();
        match *shape {
            RowShape::Labeled { labels } if labels != k => {
                return Err(bad(format!(
                    "--columns {} names {k} label columns; these examples take {labels} ({})",
                    selected.selection,
                    columns_hint(labels)
                )));
            }
            RowShape::Points if k != 0 => {
                return Err(bad(format!(
                    "--columns {} names label columns; a file of points takes one column: --columns FEATURE",
                    selected.selection
                )));
            }
            RowShape::LabeledAny => {
                if k == 0 {
                    return Err(bad(format!(
                        "--columns {} names no label column; k-labeled examples take --columns FEATURE,LABEL1,…,LABELk",
                        selected.selection
                    )));
                }
                check_count("k (label columns)", k, MAX_COLUMNS)?;
                *shape = RowShape::Labeled { labels: k };
                table.labels = LabelMatrix::new(k);
            }
            _ => {}
        }
        let has_names = selected.resolve(text, line)?;
        let (a, b) = selected.spans[selected.indices[0]];
        let x = field(&text[a..b]);
        let is_point = if options.real.is_some() {
            parse_real(x).is_some()
        } else {
            looks_like_point(x)
        };
        if has_names || !is_point {
            selected.header_columns = Some(columns);
            table.label_names = Some(
                selected.indices[1..]
                    .iter()
                    .map(|&i| {
                        let (a, b) = selected.spans[i];
                        String::from_utf8_lossy(field(&text[a..b])).into_owned()
                    })
                    .collect(),
            );
            return Ok(());
        }
    }
    let spans = &selected.spans;
    match selected.header_columns {
        Some(expected) if expected != columns => {
            return Err(bad(format!(
                "expected {expected} columns (as in the header), found {columns}"
            )));
        }
        None => {
            let needed = selected.indices.iter().max().map_or(1, |&i| i + 1);
            if columns < needed {
                return Err(bad(format!(
                    "expected at least {needed} columns (--columns {} reads column {}), found {columns}",
                    selected.selection,
                    needed - 1
                )));
            }
        }
        _ => {}
    }
    let get = |i: usize| {
        let (a, b) = spans[i];
        field(&text[a..b])
    };
    for &i in &selected.indices[1..] {
        let label = get(i);
        if label != b"0" && label != b"1" {
            return Err(bad(format!(
                "label {:?} (column {i}) is not 0 or 1",
                String::from_utf8_lossy(label)
            )));
        }
    }
    let point =
        parse_point(domain, options.real.as_ref(), get(selected.indices[0])).map_err(bad)?;
    table.points.push(point);
    table
        .labels
        .push_row(selected.indices[1..].iter().map(|&i| get(i) == b"1"));
    Ok(())
}
