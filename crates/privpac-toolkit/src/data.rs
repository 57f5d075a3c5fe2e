//! Reading data files: labeled examples `x,y` and unlabeled points `x[,y]` in CSV form,
//! parsed with the `csv` crate into [`LabeledSample`]s and point lists.
//!
//! A point is a decimal integer or, for a hypercube domain `{0,1}^d`, a string of exactly
//! `d` bits with coordinate 0 first (`0110`). Labels are `0` or `1`. An optional first line
//! is a header (`x,y`, or `x` for points); blank lines and lines starting with `#` are
//! skipped; fields are trimmed. Every error names its 1-based line. [`parse_rows`] is the
//! shared row parser: it already accepts `k` label columns (`x,y1,…,yk`), the shape of
//! multi-label data.

use std::path::Path;

use privpac_classes::{Domain, LabeledSample, Point};

use privpac_engine::{Error, Result};

/// Which columns a row has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowShape {
    /// A point and exactly `labels` 0/1 labels (`x,y` for 1, `x,y1,…,yk` for k). The
    /// header, if any, is `x,y` or `x,y1,…,yk`.
    Labeled {
        /// Number of label columns k ≥ 1.
        labels: usize,
    },
    /// A point, optionally followed by one column that is ignored (e.g. a label). The
    /// header, if any, starts with `x`.
    Points,
}

/// One parsed row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataRow {
    /// Its 1-based line in the text.
    pub line: u64,
    /// The point (checked against the domain).
    pub point: Point,
    /// The labels (empty for [`RowShape::Points`]).
    pub labels: Vec<bool>,
}

/// Parses CSV `text` into rows of the given shape.
///
/// # Errors
/// [`Error::BadDataLine`] naming the line for a wrong number of columns, an unknown header,
/// a label other than 0/1, an unparsable point or a point outside `domain`;
/// [`Error::EmptyData`] when there is no row.
pub fn parse_rows(domain: &Domain, text: &str, shape: RowShape) -> Result<Vec<DataRow>> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .trim(csv::Trim::All)
        .comment(Some(b'#'))
        .from_reader(text.as_bytes());
    let mut rows = Vec::new();
    let mut first = true;
    for record in reader.records() {
        let record = record.map_err(|e| Error::BadDataLine {
            line: e.position().map_or(0, csv::Position::line),
            reason: e.to_string(),
        })?;
        let line = record.position().map_or(0, csv::Position::line);
        let bad = |reason: String| Error::BadDataLine { line, reason };
        let fields: Vec<&str> = record.iter().collect();
        // A line holding only spaces is a record with one empty field: skip it like a
        // blank line.
        if fields.iter().all(|f| f.is_empty()) {
            continue;
        }
        let is_first = std::mem::replace(&mut first, false);
        match shape {
            RowShape::Labeled { labels } => {
                if fields.len() != labels + 1 {
                    return Err(bad(format!(
                        "expected {} columns ({}), found {}",
                        labels + 1,
                        labeled_header(labels),
                        fields.len()
                    )));
                }
                if is_first && !looks_like_point(fields[0]) {
                    if is_labeled_header(&fields, labels) {
                        continue;
                    }
                    return Err(bad(format!(
                        "unknown columns {:?} (the header, if any, must be {})",
                        fields.join(","),
                        labeled_header(labels)
                    )));
                }
                let parsed: Vec<bool> = fields[1..]
                    .iter()
                    .map(|field| match *field {
                        "0" => Ok(false),
                        "1" => Ok(true),
                        other => Err(bad(format!("label {other:?} is not 0 or 1"))),
                    })
                    .collect::<Result<_>>()?;
                let point = parse_point(domain, fields[0]).map_err(&bad)?;
                rows.push(DataRow {
                    line,
                    point,
                    labels: parsed,
                });
            }
            RowShape::Points => {
                if fields.len() > 2 {
                    return Err(bad(format!(
                        "expected 1 or 2 columns (x[,y]), found {}",
                        fields.len()
                    )));
                }
                if is_first && fields[0].eq_ignore_ascii_case("x") {
                    continue;
                }
                let point = parse_point(domain, fields[0]).map_err(&bad)?;
                rows.push(DataRow {
                    line,
                    point,
                    labels: Vec::new(),
                });
            }
        }
    }
    if rows.is_empty() {
        return Err(Error::EmptyData);
    }
    Ok(rows)
}

/// Parses labeled examples `x,y` (see the module documentation).
///
/// # Errors
/// As for [`parse_rows`].
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
    let rows = parse_rows(domain, text, RowShape::Labeled { labels: 1 })?;
    let (points, labels) = rows.into_iter().map(|r| (r.point, r.labels[0])).unzip();
    Ok(LabeledSample::new(domain, points, labels)?)
}

/// Parses unlabeled points `x[,y]` (a second column is ignored).
///
/// # Errors
/// As for [`parse_rows`].
pub fn parse_points_csv(domain: &Domain, text: &str) -> Result<Vec<Point>> {
    Ok(parse_rows(domain, text, RowShape::Points)?
        .into_iter()
        .map(|r| r.point)
        .collect())
}

/// Reads and parses a labeled-data file (see [`parse_labeled_csv`]).
///
/// # Errors
/// [`Error::Io`] if the file cannot be read; the errors of [`parse_labeled_csv`].
pub fn read_labeled_csv(path: &Path, domain: &Domain) -> Result<LabeledSample> {
    parse_labeled_csv(domain, &read_text(path)?)
}

/// Reads and parses a file of points (see [`parse_points_csv`]).
///
/// # Errors
/// [`Error::Io`] if the file cannot be read; the errors of [`parse_points_csv`].
pub fn read_points_csv(path: &Path, domain: &Domain) -> Result<Vec<Point>> {
    parse_points_csv(domain, &read_text(path)?)
}

/// Reads a whole text file of at most [`privpac_engine::limits::MAX_INPUT_BYTES`], naming the path
/// on failure.
pub(crate) fn read_text(path: &Path) -> Result<String> {
    let bytes = privpac_engine::limits::read_capped(path)?;
    String::from_utf8(bytes).map_err(|e| Error::Io {
        path: path.display().to_string(),
        reason: format!("not UTF-8 text (byte {})", e.utf8_error().valid_up_to()),
    })
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
fn is_labeled_header(fields: &[&str], labels: usize) -> bool {
    let numbered = fields[1..]
        .iter()
        .enumerate()
        .all(|(i, f)| f.eq_ignore_ascii_case(&format!("y{}", i + 1)));
    fields[0].eq_ignore_ascii_case("x")
        && (numbered || (labels == 1 && fields[1].eq_ignore_ascii_case("y")))
}

fn is_bit_string(field: &str) -> bool {
    !field.is_empty() && field.bytes().all(|b| b == b'0' || b == b'1')
}

fn looks_like_point(field: &str) -> bool {
    field.parse::<u64>().is_ok() || is_bit_string(field)
}

/// A point written as a decimal integer, or as a bit string (coordinate 0 first) of exactly
/// `d` characters for `{0,1}^d`; checked against the domain.
fn parse_point(domain: &Domain, field: &str) -> std::result::Result<Point, String> {
    let point = if let Domain::Hypercube { dim } = domain
        && field.len() == *dim as usize
        && is_bit_string(field)
    {
        field
            .bytes()
            .enumerate()
            .fold(0u64, |acc, (i, b)| acc | (u64::from(b == b'1') << i))
    } else {
        field.parse::<u64>().map_err(|_| {
            format!(
                "point {field:?} is not a non-negative integer or a bit string of the domain's dimension"
            )
        })?
    };
    domain.check(point).map_err(|e| e.to_string())?;
    Ok(point)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn check_csv_error(domain: &Domain, text: &str, line: u64, needle: &str) {
        match parse_labeled_csv(domain, text) {
            Err(Error::BadDataLine { line: got, reason }) => {
                assert_eq!(got, line, "{text:?}: {reason}");
                assert!(reason.contains(needle), "{text:?}: {reason}");
            }
            other => panic!("{text:?}: expected a bad-line error, got {other:?}"),
        }
    }

    #[test]
    fn parses_csv_with_and_without_header() {
        let domain = Domain::ordered(10).unwrap();
        let sample = parse_labeled_csv(&domain, "x,y\n3,1\n\n# comment\n 7 , 0 \n").unwrap();
        assert_eq!(
            sample.iter().collect::<Vec<_>>(),
            vec![(3, true), (7, false)]
        );
        let bare = parse_labeled_csv(&domain, "0,0\n9,1").unwrap();
        assert_eq!(bare.len(), 2);
        let cube = Domain::hypercube(4).unwrap();
        let bits = parse_labeled_csv(&cube, "x,y\n1000,1\n0011,0\n15,1\n").unwrap();
        assert_eq!(bits.points(), &[1, 12, 15]);
        // Windows line endings and a header in capitals.
        let crlf = parse_labeled_csv(&domain, "X,Y\r\n2,1\r\n").unwrap();
        assert_eq!(crlf.iter().collect::<Vec<_>>(), vec![(2, true)]);
    }

    #[test]
    fn parses_point_lists() {
        let domain = Domain::ordered(10).unwrap();
        assert_eq!(
            parse_points_csv(&domain, "x\n3\n4,1\n").unwrap(),
            vec![3, 4]
        );
        assert!(matches!(
            parse_points_csv(&domain, "3\n12\n"),
            Err(Error::BadDataLine { line: 2, .. })
        ));
        assert!(matches!(
            parse_points_csv(&domain, "1,2,3\n"),
            Err(Error::BadDataLine { line: 1, .. })
        ));
        assert_eq!(parse_points_csv(&domain, "x\n"), Err(Error::EmptyData));
    }

    #[test]
    fn multi_label_rows_share_the_parser() {
        let domain = Domain::ordered(10).unwrap();
        let rows = parse_rows(
            &domain,
            "x,y1,y2\n3,1,0\n5,0,0\n",
            RowShape::Labeled { labels: 2 },
        )
        .unwrap();
        assert_eq!(rows[0].labels, vec![true, false]);
        assert_eq!((rows[1].line, rows[1].point), (3, 5));
        assert!(matches!(
            parse_rows(&domain, "3,1\n", RowShape::Labeled { labels: 2 }),
            Err(Error::BadDataLine { line: 1, .. })
        ));
        // One label column: `x,y1` (a k-labeled file with k = 1) and `x,y` both name it;
        // a wrong header is still refused.
        for header in ["x,y1", "x,y", "X,Y1"] {
            let rows = parse_rows(
                &domain,
                &format!("{header}\n3,1\n"),
                RowShape::Labeled { labels: 1 },
            )
            .unwrap();
            assert_eq!(rows.len(), 1, "{header}");
        }
        for header in ["x,y2", "x,z", "x,y1,y2"] {
            assert!(
                matches!(
                    parse_rows(
                        &domain,
                        &format!("{header}\n3,1\n"),
                        RowShape::Labeled { labels: 1 }
                    ),
                    Err(Error::BadDataLine { line: 1, .. })
                ),
                "{header}"
            );
        }
    }

    #[test]
    fn bad_csv_names_the_line() {
        let domain = Domain::ordered(10).unwrap();
        check_csv_error(&domain, "point,label\n1,0\n", 1, "unknown columns");
        check_csv_error(&domain, "x,y\n1,0\n2,2\n", 3, "not 0 or 1");
        check_csv_error(&domain, "x,y\n1,0,5\n", 2, "expected 2 columns");
        check_csv_error(&domain, "1,0\n10,1\n", 2, "outside the domain");
        check_csv_error(&domain, "1,0\n-3,1\n", 2, "not a non-negative integer");
        check_csv_error(&domain, "1,0\nabc,1\n", 2, "not a non-negative integer");
        assert_eq!(parse_labeled_csv(&domain, ""), Err(Error::EmptyData));
        assert_eq!(
            parse_labeled_csv(&domain, "x,y\n# none\n"),
            Err(Error::EmptyData)
        );
    }

    #[test]
    fn missing_files_are_io_errors() {
        let domain = Domain::ordered(10).unwrap();
        assert!(matches!(
            read_labeled_csv(Path::new("/no/such/file.csv"), &domain),
            Err(Error::Io { .. })
        ));
    }
}
