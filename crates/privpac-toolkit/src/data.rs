//! Reading data files: labeled examples `x,y`, k-labeled examples `x,y1,…,yk` and
//! unlabeled points `x[,y]`, in CSV form, parsed as a stream.
//!
//! A point is a decimal integer or, for a hypercube domain `{0,1}^d`, a string of exactly
//! `d` bits with coordinate 0 first (`0110`); with a [`Discretizer`] in [`DataOptions::real`]
//! it is a real number instead, mapped to its bin (values outside the bounds clipped). Labels
//! are `0` or `1`. An optional first line is a header (`x,y`, `x,y1,…,yk`, or `x` for
//! points); blank lines and lines starting with `#` are skipped; fields are trimmed (and a
//! field in double quotes is unquoted). A UTF-8 byte-order mark at the start of the file
//! (as spreadsheet programs write) is skipped. Every error names its 1-based line.
//!
//! # Other headers and extra columns
//! A file with other column names or more columns (a pandas or spreadsheet export) is read
//! by naming the columns to use in [`DataOptions::columns`] (`--columns` on the command
//! line): a [`ColumnSelection`] of the feature column and then the label columns, each a
//! header name or a 0-based index (`--columns age,sick`, `--columns 2,5` for a file without
//! a header). Names are looked up in the first line, which must then be a header; with
//! indices only, a first line whose feature field is not a point is taken as a header and
//! skipped. Other columns are ignored; every row must have as many columns as the header
//! (or, without a header, reach the highest index). Fields are split at every comma
//! (a quoted field containing a comma is not supported).
//!
//! # Real values: what is clipped
//! With [`DataOptions::real`], finite values outside the bounds are clipped to the first or
//! last bin; `NaN`, `inf`, `-inf` and numbers that overflow `f64` (`1e400`) are errors naming
//! their line, since they are not measurements (a division by zero or an export error).
//!
//! # Streaming and memory
//! [`read_table`] reads from any [`BufRead`] without holding the text: lines are cut in the
//! reader's own buffer (one reused buffer holds a line only when it straddles two reads),
//! fields are parsed in place, and nothing is allocated per row. A [`DataTable`] keeps each
//! point as one `u64` and the labels as bits ([`LabelMatrix`], column-major): 8 bytes plus
//! k bits per example (8.125 bytes for `x,y` rows).
//!
//! # Limits
//! Instead of a byte cap, two limits that can be stated per line ([`ReadLimits`]): at most
//! [`DEFAULT_MAX_ROWS`] lines (counting the header, comments and blank lines; `--max-rows`
//! on the command line) and at most [`DEFAULT_MAX_LINE_BYTES`] bytes per line. Both are
//! checked as the bytes arrive, so an endless input (`/dev/zero`, a pipe that never ends)
//! stops with an error naming the line at which it passed a limit, after holding at most
//! one line and the rows below the limit.

use std::io::{BufRead, BufReader};
use std::path::Path;

pub use columns::{Column, ColumnSelection, ColumnsError};
use columns::{Selected, parse_selected_line};

use privpac_classes::{Domain, LabeledSample, Labels, Point};

use privpac_engine::{Error, MAX_COLUMNS, Result, check_count};

use crate::discretize::Discretizer;

/// Default of [`ReadLimits::max_rows`]: 10^8 lines, about 0.8 GB of `x,y` examples.
pub const DEFAULT_MAX_ROWS: u64 = 100_000_000;
/// Default of [`ReadLimits::max_line_bytes`]: 1 MiB, room for a point and tens of
/// thousands of label columns.
pub const DEFAULT_MAX_LINE_BYTES: usize = 1 << 20;

/// Limits on a data file, each reported as an error naming the line that passed it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadLimits {
    /// Most lines read (header, comments and blank lines included).
    pub max_rows: u64,
    /// Most bytes in one line (its line ending excluded).
    pub max_line_bytes: usize,
}

impl Default for ReadLimits {
    fn default() -> Self {
        ReadLimits {
            max_rows: DEFAULT_MAX_ROWS,
            max_line_bytes: DEFAULT_MAX_LINE_BYTES,
        }
    }
}

/// How a data file is read: its limits, how its points are written, and which columns to
/// read.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DataOptions {
    /// The limits on lines.
    pub limits: ReadLimits,
    /// Points are real numbers mapped to the bins of this discretizer (whose bounds must be
    /// public, chosen without looking at the data, for a learner's guarantee to carry over);
    /// `None`: points are integers (or bit strings for hypercube domains).
    pub real: Option<Discretizer>,
    /// The columns to read, for files with other headers or extra columns (see the module
    /// documentation); `None`: the columns are `x,y` (`x,y1,…,yk`, `x[,y]`) in that order.
    pub columns: Option<ColumnSelection>,
}

/// Which columns a row has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowShape {
    /// A point and exactly `labels` 0/1 labels (`x,y` for 1, `x,y1,…,yk` for k). The
    /// header, if any, is `x,y` or `x,y1,…,yk`.
    Labeled {
        /// Number of label columns k ≥ 1.
        labels: usize,
    },
    /// A point and k ≥ 1 labels, k read from the first row that is not blank or a comment
    /// (header or data; at most [`MAX_COLUMNS`]), then as [`RowShape::Labeled`].
    LabeledAny,
    /// A point, optionally followed by one column that is ignored (e.g. a label). The
    /// header, if any, starts with `x`.
    Points,
}

/// Labels packed as bits, column-major: k columns of n bits, each a [`Labels`] of
/// `⌈n/64⌉` words (bit `i % 64` of word `i / 64` is row i's label); concatenated, the
/// layout of `MultiLabeledSample::from_bit_columns`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LabelMatrix {
    rows: usize,
    columns: Vec<Labels>,
}

impl LabelMatrix {
    /// An empty matrix of `k` columns.
    pub fn new(k: usize) -> Self {
        LabelMatrix {
            rows: 0,
            columns: vec![Labels::new(); k],
        }
    }

    /// Number of columns k.
    pub fn k(&self) -> usize {
        self.columns.len()
    }

    /// Number of rows n.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Row i's label in column j (`None` out of range).
    pub fn get(&self, i: usize, j: usize) -> Option<bool> {
        self.columns.get(j)?.get(i)
    }

    /// Column j (`None` out of range).
    pub fn column(&self, j: usize) -> Option<&Labels> {
        self.columns.get(j)
    }

    /// Appends a row of labels, one per column: labels past the k-th are ignored, missing
    /// ones are 0.
    pub fn push_row(&mut self, labels: impl IntoIterator<Item = bool>) {
        let mut labels = labels.into_iter();
        for column in &mut self.columns {
            column.push(labels.next().unwrap_or(false));
        }
        self.rows += 1;
    }

    /// The columns, consuming the matrix.
    pub fn into_columns(self) -> Vec<Labels> {
        self.columns
    }

    /// The k columns' words concatenated (k · ⌈n/64⌉ words), consuming the matrix.
    pub fn into_words(self) -> Vec<u64> {
        let mut columns = self.columns.into_iter();
        let Some(first) = columns.next() else {
            return Vec::new();
        };
        let mut words = first.into_words();
        for column in columns {
            words.extend_from_slice(column.words());
        }
        words
    }
}

/// Parsed rows: the points and their labels (no columns for [`RowShape::Points`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataTable {
    /// The points (checked against the domain), in file order.
    pub points: Vec<Point>,
    /// Their labels, one column per label column.
    pub labels: LabelMatrix,
    /// The label columns' names in the file's header (trimmed and unquoted, in the order
    /// of [`DataTable::labels`]), when the file has one; `None` without a header.
    pub label_names: Option<Vec<String>>,
}

/// The UTF-8 byte-order mark, skipped at the start of a file.
const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// Parses CSV from `reader` into rows of the given shape, as a stream (see the module
/// documentation).
///
/// # Errors
/// [`Error::BadDataLine`] naming the line for a wrong number of columns, an unknown header,
/// a label other than 0/1, an unparsable point or a point outside `domain`, a line longer
/// than [`ReadLimits::max_line_bytes`], more lines than [`ReadLimits::max_rows`], or a read
/// error; [`Error::EmptyData`] when there is no row.
pub fn read_table<R: BufRead>(
    reader: R,
    domain: &Domain,
    shape: RowShape,
    options: &DataOptions,
) -> Result<DataTable> {
    let k = match shape {
        RowShape::Labeled { labels } => labels,
        RowShape::LabeledAny | RowShape::Points => 0,
    };
    let mut shape = shape;
    let mut table = DataTable {
        points: Vec::new(),
        labels: LabelMatrix::new(k),
        label_names: None,
    };
    let mut first = true;
    let mut reader = reader;
    let mut selected = options.columns.as_ref().map(|selection| Selected {
        selection,
        indices: Vec::new(),
        header_columns: None,
        spans: Vec::new(),
        started: false,
    });
    for_each_buffered_line(&mut reader, options.limits, &mut |line, bytes| {
        let bytes = if line == 1 {
            bytes.strip_prefix(UTF8_BOM).unwrap_or(bytes)
        } else {
            bytes
        };
        match &mut selected {
            Some(selected) => parse_selected_line(
                domain, &mut shape, options, selected, &mut table, line, bytes,
            ),
            None => parse_line(
                domain, &mut shape, options, &mut first, &mut table, line, bytes,
            ),
        }
    })?;
    if table.points.is_empty() {
        return Err(Error::EmptyData);
    }
    table.points.shrink_to_fit();
    Ok(table)
}

/// Parses labeled examples `x,y` (see the module documentation).
///
/// # Errors
/// As for [`read_table`].
///
/// # Example
/// ```
/// use privpac_classes::Domain;
/// let sample = privpac_toolkit::parse_labeled_csv(&Domain::ordered(10)?, "x,y\n3,1\n# note\n7,0\n")?;
/// assert_eq!(sample.iter().collect::<Vec<_>>(), vec![(3, true), (7, false)]);
/// assert!(privpac_toolkit::parse_labeled_csv(&Domain::ordered(10)?, "x,y\n3,2\n").is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn parse_labeled_csv(domain: &Domain, text: &str) -> Result<LabeledSample> {
    read_labeled(text.as_bytes(), domain, &DataOptions::default())
}

/// Parses unlabeled points `x[,y]` (a second column is ignored).
///
/// # Errors
/// As for [`read_table`].
pub fn parse_points_csv(domain: &Domain, text: &str) -> Result<Vec<Point>> {
    read_points(text.as_bytes(), domain, &DataOptions::default())
}

/// Reads labeled examples `x,y` from a stream.
///
/// # Errors
/// As for [`read_table`].
pub fn read_labeled<R: BufRead>(
    reader: R,
    domain: &Domain,
    options: &DataOptions,
) -> Result<LabeledSample> {
    let table = read_table(reader, domain, RowShape::Labeled { labels: 1 }, options)?;
    let labels = table
        .labels
        .into_columns()
        .into_iter()
        .next()
        .unwrap_or_default();
    Ok(LabeledSample::with_labels(domain, table.points, labels)?)
}

/// Reads unlabeled points `x[,y]` from a stream.
///
/// # Errors
/// As for [`read_table`].
pub fn read_points<R: BufRead>(
    reader: R,
    domain: &Domain,
    options: &DataOptions,
) -> Result<Vec<Point>> {
    Ok(read_table(reader, domain, RowShape::Points, options)?.points)
}

/// Reads and parses a labeled-data file (see [`parse_labeled_csv`]) with the default
/// limits; the path `-` reads standard input.
///
/// # Errors
/// [`Error::Io`] if the file cannot be opened; the errors of [`read_table`].
pub fn read_labeled_csv(path: &Path, domain: &Domain) -> Result<LabeledSample> {
    read_labeled_csv_with(path, domain, &DataOptions::default())
}

/// [`read_labeled_csv`] with other limits or real-valued points.
///
/// # Errors
/// As for [`read_labeled_csv`].
pub fn read_labeled_csv_with(
    path: &Path,
    domain: &Domain,
    options: &DataOptions,
) -> Result<LabeledSample> {
    read_labeled(open_data(path)?, domain, options)
}

/// Reads and parses a file of points (see [`parse_points_csv`]) with the default limits;
/// the path `-` reads standard input.
///
/// # Errors
/// [`Error::Io`] if the file cannot be opened; the errors of [`read_table`].
pub fn read_points_csv(path: &Path, domain: &Domain) -> Result<Vec<Point>> {
    read_points_csv_with(path, domain, &DataOptions::default())
}

/// [`read_points_csv`] with other limits or real-valued points.
///
/// # Errors
/// As for [`read_points_csv`].
pub fn read_points_csv_with(
    path: &Path,
    domain: &Domain,
    options: &DataOptions,
) -> Result<Vec<Point>> {
    read_points(open_data(path)?, domain, options)
}

/// Opens a data file for streaming (a directory or a missing file is [`Error::Io`]); the
/// path `-` is standard input (read as a stream, with the same limits).
pub(crate) fn open_data(path: &Path) -> Result<Box<dyn BufRead>> {
    if path == Path::new("-") {
        return Ok(Box::new(BufReader::with_capacity(
            1 << 16,
            std::io::stdin().lock(),
        )));
    }
    let io = |reason: String| Error::Io {
        path: path.display().to_string(),
        reason,
    };
    let file = std::fs::File::open(path).map_err(|e| io(e.to_string()))?;
    if file.metadata().map_err(|e| io(e.to_string()))?.is_dir() {
        return Err(io("is a directory".into()));
    }
    Ok(Box::new(BufReader::with_capacity(1 << 16, file)))
}

/// Reads a whole text file of at most [`privpac_engine::limits::MAX_INPUT_BYTES`], naming the path
/// on failure (class matrices; data files are streamed).
pub(crate) fn read_text(path: &Path) -> Result<String> {
    let bytes = privpac_engine::limits::read_capped(path)?;
    String::from_utf8(bytes).map_err(|e| Error::Io {
        path: path.display().to_string(),
        reason: format!("not UTF-8 text (byte {})", e.utf8_error().valid_up_to()),
    })
}

/// Calls `f` with each line's number (1-based) and bytes (without `\n`), enforcing the
/// limits as the bytes arrive. Lines are cut in the reader's buffer; `pending` (reused)
/// holds a line only while it straddles two reads, and never more than the line limit.
fn for_each_buffered_line<R: BufRead>(
    reader: &mut R,
    limits: ReadLimits,
    f: &mut impl FnMut(u64, &[u8]) -> Result<()>,
) -> Result<()> {
    let mut pending: Vec<u8> = Vec::new();
    let mut line: u64 = 0;
    let too_many = |line: u64| Error::BadDataLine {
        line,
        reason: format!(
            "more than {} lines (the row limit, counting header, comment and blank lines; raise it with --max-rows)",
            limits.max_rows
        ),
    };
    let too_long = |line: u64| Error::BadDataLine {
        line,
        reason: format!(
            "longer than {} bytes (the line-length limit; is this a CSV text file?)",
            limits.max_line_bytes
        ),
    };
    loop {
        let chunk = match reader.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                return Err(Error::BadDataLine {
                    line: line + 1,
                    reason: format!("cannot be read: {e}"),
                });
            }
        };
        let len = chunk.len();
        if len == 0 {
            if !pending.is_empty() {
                line += 1;
                if line > limits.max_rows {
                    return Err(too_many(line));
                }
                f(line, &pending)?;
            }
            return Ok(());
        }
        let mut start = 0;
        while let Some(offset) = chunk[start..].iter().position(|&b| b == b'\n') {
            let end = start + offset;
            line += 1;
            if line > limits.max_rows {
                return Err(too_many(line));
            }
            if pending.len() + (end - start) > limits.max_line_bytes {
                return Err(too_long(line));
            }
            if pending.is_empty() {
                f(line, &chunk[start..end])?;
            } else {
                pending.extend_from_slice(&chunk[start..end]);
                f(line, &pending)?;
                pending.clear();
            }
            start = end + 1;
        }
        if pending.len() + (len - start) > limits.max_line_bytes {
            return Err(too_long(line + 1));
        }
        pending.extend_from_slice(&chunk[start..]);
        reader.consume(len);
    }
}

/// Parses one line into `table` (or skips it: blank, comment, header).
fn parse_line(
    domain: &Domain,
    shape: &mut RowShape,
    options: &DataOptions,
    first: &mut bool,
    table: &mut DataTable,
    line: u64,
    bytes: &[u8],
) -> Result<()> {
    let bad = |reason: String| Error::BadDataLine { line, reason };
    let text = bytes.trim_ascii();
    if text.is_empty() || text[0] == b'#' {
        return Ok(());
    }
    if !*first
        && options.real.is_none()
        && let (RowShape::Labeled { labels }, Domain::Ordered { size }) = (*shape, domain)
        && let Some(point) = plain_row(text, labels, *size)
    {
        table.points.push(point);
        let labels = text[text.len() - 2 * labels..].chunks_exact(2);
        table.labels.push_row(labels.map(|pair| pair[1] == b'1'));
        return Ok(());
    }
    let mut fields = text.split(|&b| b == b',').map(field);
    let columns = 1 + text.iter().filter(|&&b| b == b',').count();
    // A line of empty fields (`,,`) is skipped like a blank line.
    if fields.clone().all(<[u8]>::is_empty) {
        return Ok(());
    }
    let is_first = std::mem::replace(first, false);
    if *shape == RowShape::LabeledAny {
        if columns < 2 {
            return Err(bad(
                "expected x,y1,…,yk with k ≥ 1 label columns".to_string()
            ));
        }
        check_count("k (label columns)", columns - 1, MAX_COLUMNS)?;
        *shape = RowShape::Labeled {
            labels: columns - 1,
        };
        table.labels = LabelMatrix::new(columns - 1);
    }
    let x = fields.next().unwrap_or_default();
    match *shape {
        RowShape::Labeled { .. } | RowShape::LabeledAny => {
            let labels = table.labels.k();
            if columns != labels + 1 {
                return Err(bad(format!(
                    "expected {} columns ({}), found {columns}; to read some columns of a wider file, name them: {}",
                    labels + 1,
                    labeled_header(labels),
                    columns_hint(labels),
                )));
            }
            if is_first && options.real.is_none() && !looks_like_point(x)
                || is_first && options.real.is_some() && parse_real(x).is_none()
            {
                if is_labeled_header(text, labels) {
                    table.label_names = Some(
                        text.split(|&b| b == b',')
                            .skip(1)
                            .map(|f| String::from_utf8_lossy(field(f)).into_owned())
                            .collect(),
                    );
                    return Ok(());
                }
                return Err(bad(format!(
                    "unknown columns {:?} (the header, if any, must be {}; to read a file with other column names, name the columns to use: {})",
                    String::from_utf8_lossy(text),
                    labeled_header(labels),
                    columns_hint(labels),
                )));
            }
            for label in fields.clone() {
                if label != b"0" && label != b"1" {
                    return Err(bad(format!(
                        "label {:?} is not 0 or 1",
                        String::from_utf8_lossy(label)
                    )));
                }
            }
            let point = parse_point(domain, options.real.as_ref(), x).map_err(bad)?;
            table.points.push(point);
            table.labels.push_row(fields.map(|label| label == b"1"));
        }
        RowShape::Points => {
            if columns > 2 {
                return Err(bad(format!(
                    "expected 1 or 2 columns (x[,y]), found {columns}; to read one column of a wider file, name it: --columns FEATURE"
                )));
            }
            if is_first && x.eq_ignore_ascii_case(b"x") {
                return Ok(());
            }
            let point = parse_point(domain, options.real.as_ref(), x).map_err(bad)?;
            table.points.push(point);
        }
    }
    Ok(())
}

/// The fast path of a data row on an ordered domain of `size` points: `x,l1,…,lk` with x
/// at most 19 decimal digits below `size` and each label `0` or `1`, no spaces or quotes;
/// `None` sends the row to the general parser (which accepts it or names its error).
fn plain_row(text: &[u8], labels: usize, size: u64) -> Option<Point> {
    let digits = text.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 || digits > 19 || text.len() - digits != 2 * labels {
        return None;
    }
    let rest = &text[digits..];
    if !rest
        .chunks_exact(2)
        .all(|pair| pair[0] == b',' && (pair[1] == b'0' || pair[1] == b'1'))
    {
        return None;
    }
    let point = text[..digits]
        .iter()
        .fold(0u64, |acc, &b| acc * 10 + u64::from(b - b'0'));
    (point < size).then_some(point)
}

/// A field trimmed, and unquoted if in double quotes.
fn field(raw: &[u8]) -> &[u8] {
    let trimmed = raw.trim_ascii();
    match trimmed {
        [b'"', inner @ .., b'"'] => inner.trim_ascii(),
        _ => trimmed,
    }
}

/// How to name the columns of a file with other headers, for `labels` label columns.
fn columns_hint(labels: usize) -> &'static str {
    if labels == 1 {
        "--columns FEATURE,LABEL"
    } else {
        "--columns FEATURE,LABEL1,…,LABELk"
    }
}

fn labeled_header(labels: usize) -> String {
    if labels == 1 {
        "x,y or x,y1".to_string()
    } else {
        format!("x,y1,…,y{labels}")
    }
}

/// `x,y1,…,yk` for any k (so a one-column k-labeled file's `x,y1` too), and `x,y` for one
/// label.
fn is_labeled_header(text: &[u8], labels: usize) -> bool {
    let fields: Vec<&[u8]> = text.split(|&b| b == b',').map(field).collect();
    let numbered = fields[1..]
        .iter()
        .enumerate()
        .all(|(i, f)| f.eq_ignore_ascii_case(format!("y{}", i + 1).as_bytes()));
    fields[0].eq_ignore_ascii_case(b"x")
        && (numbered || (labels == 1 && fields[1].eq_ignore_ascii_case(b"y")))
}

fn is_bit_string(field: &[u8]) -> bool {
    !field.is_empty() && field.iter().all(|&b| b == b'0' || b == b'1')
}

fn looks_like_point(field: &[u8]) -> bool {
    parse_u64(field).is_some() || is_bit_string(field)
}

/// A decimal `u64` as `str::parse` reads it (an optional `+`, then digits).
fn parse_u64(field: &[u8]) -> Option<u64> {
    let digits = field.strip_prefix(b"+").unwrap_or(field);
    if digits.is_empty() {
        return None;
    }
    digits.iter().try_fold(0u64, |acc, &b| {
        let digit = b.wrapping_sub(b'0');
        if digit > 9 {
            return None;
        }
        acc.checked_mul(10)?.checked_add(u64::from(digit))
    })
}

/// A real number as `str::parse::<f64>` reads it.
fn parse_real(field: &[u8]) -> Option<f64> {
    std::str::from_utf8(field).ok()?.parse().ok()
}

/// A point written as a decimal integer, or as a bit string (coordinate 0 first) of exactly
/// `d` characters for `{0,1}^d`, or (with a discretizer) a real number mapped to its bin;
/// checked against the domain.
fn parse_point(
    domain: &Domain,
    real: Option<&Discretizer>,
    field: &[u8],
) -> std::result::Result<Point, String> {
    let point = if let Some(discretizer) = real {
        let value = parse_real(field).ok_or_else(|| {
            format!(
                "point {:?} is not a real number",
                String::from_utf8_lossy(field)
            )
        })?;
        if value.is_infinite() {
            return Err(format!(
                "point {:?} is not finite (inf, -inf and values beyond ±1.8e308 are refused; finite values outside the bounds are clipped)",
                String::from_utf8_lossy(field)
            ));
        }
        discretizer
            .bin(value)
            .map_err(|e| format!("point {:?}: {e}", String::from_utf8_lossy(field)))?
    } else if let Domain::Hypercube { dim } = domain
        && field.len() == *dim as usize
        && is_bit_string(field)
    {
        field
            .iter()
            .enumerate()
            .fold(0u64, |acc, (i, &b)| acc | (u64::from(b == b'1') << i))
    } else {
        parse_u64(field).ok_or_else(|| {
            if !field.is_empty() && field.iter().all(u8::is_ascii_digit) {
                // All digits, so only too large: say so rather than "not an integer".
                format!(
                    "point {} is above 2^64 − 1, outside every domain",
                    String::from_utf8_lossy(field)
                )
            } else {
                format!(
                    "point {:?} is not a non-negative integer or a bit string of the domain's dimension",
                    String::from_utf8_lossy(field)
                )
            }
        })?
    };
    if let Domain::Ordered { size } = domain
        && point >= *size
    {
        // The range in words: `[8]` or `0..8` reads as if 8 were allowed.
        return Err(format!(
            "point {point} is outside the domain (points 0 ≤ x < {size})"
        ));
    }
    domain.check(point).map_err(|e| e.to_string())?;
    Ok(point)
}

mod columns;
#[cfg(test)]
mod tests;
