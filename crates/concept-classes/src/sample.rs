//! Labeled samples, validated against a domain at construction.

use crate::domain::{Domain, Point};
use crate::error::{Error, Result};

/// A sequence of labeled examples `(x_i, y_i)` with every point in a given domain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LabeledSample {
    points: Vec<Point>,
    labels: Vec<bool>,
}

impl LabeledSample {
    /// Validates and builds a sample. An empty sample is allowed (every concept then makes
    /// zero mistakes); operations that need examples say so.
    ///
    /// # Errors
    /// [`Error::LengthMismatch`] or [`Error::PointOutsideDomain`] (the first offender).
    pub fn new(domain: &Domain, points: Vec<Point>, labels: Vec<bool>) -> Result<Self> {
        if points.len() != labels.len() {
            return Err(Error::LengthMismatch {
                points: points.len(),
                labels: labels.len(),
            });
        }
        for &x in &points {
            domain.check(x)?;
        }
        Ok(LabeledSample { points, labels })
    }

    /// Builds a sample from `(point, label)` pairs.
    ///
    /// # Errors
    /// As for [`Self::new`].
    pub fn from_pairs(domain: &Domain, pairs: &[(Point, bool)]) -> Result<Self> {
        let (points, labels) = pairs.iter().copied().unzip();
        LabeledSample::new(domain, points, labels)
    }

    /// The points.
    pub fn points(&self) -> &[Point] {
        &self.points
    }

    /// The labels.
    pub fn labels(&self) -> &[bool] {
        &self.labels
    }

    /// Number of examples.
    pub fn len(&self) -> usize {
        self.points.len()
    }

    /// Whether there are no examples.
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// The examples as `(point, label)` pairs.
    pub fn iter(&self) -> impl Iterator<Item = (Point, bool)> + '_ {
        self.points.iter().copied().zip(self.labels.iter().copied())
    }

    /// Parses labeled data in CSV form: one example `x,y` per line, where `y` is `0` or `1`
    /// and `x` is a point as a decimal integer or, for hypercube domains, a string of `d`
    /// bits with coordinate 0 first (`0110`). An optional first line `x,y` is a header;
    /// blank lines and lines starting with `#` are skipped.
    ///
    /// # Errors
    /// [`Error::BadDataLine`] naming the line for a wrong number of columns, an unknown
    /// header, a label other than 0/1, an unparsable point or a point outside the domain;
    /// [`Error::EmptySample`] when there is no example.
    pub fn parse_csv(domain: &Domain, text: &str) -> Result<Self> {
        let mut points = Vec::new();
        let mut labels = Vec::new();
        let mut first_content_line = true;
        for (index, raw) in text.lines().enumerate() {
            let line = index + 1;
            let trimmed = raw.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            let fields: Vec<&str> = trimmed.split(',').map(str::trim).collect();
            let bad = |reason: String| Error::BadDataLine { line, reason };
            if fields.len() != 2 {
                return Err(bad(format!(
                    "expected 2 columns (x,y), found {}",
                    fields.len()
                )));
            }
            let is_first = std::mem::replace(&mut first_content_line, false);
            if is_first && fields[0].parse::<u64>().is_err() && !is_bit_string(fields[0]) {
                if fields[0].eq_ignore_ascii_case("x") && fields[1].eq_ignore_ascii_case("y") {
                    continue; // header
                }
                return Err(bad(format!(
                    "unknown columns {:?},{:?} (the header, if any, must be x,y)",
                    fields[0], fields[1]
                )));
            }
            let label = match fields[1] {
                "0" => false,
                "1" => true,
                other => return Err(bad(format!("label {other:?} is not 0 or 1"))),
            };
            let point = parse_point(domain, fields[0]).map_err(&bad)?;
            domain.check(point).map_err(|e| bad(e.to_string()))?;
            points.push(point);
            labels.push(label);
        }
        if points.is_empty() {
            return Err(Error::EmptySample);
        }
        Ok(LabeledSample { points, labels })
    }
}

/// Parses unlabeled points from CSV: one point per line in the first column (a decimal
/// integer, or a bit string for hypercube domains); a second column (a label) is ignored;
/// an optional header line starting with `x` is skipped, as are blank and `#` lines.
///
/// # Errors
/// [`Error::BadDataLine`] naming the line for an unparsable point or a point outside the
/// domain, or more than two columns; [`Error::EmptySample`] when there is no point.
pub fn parse_points_csv(domain: &Domain, text: &str) -> Result<Vec<Point>> {
    let mut points = Vec::new();
    let mut first_content_line = true;
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = trimmed.split(',').map(str::trim).collect();
        let bad = |reason: String| Error::BadDataLine { line, reason };
        if fields.len() > 2 {
            return Err(bad(format!(
                "expected 1 or 2 columns (x[,y]), found {}",
                fields.len()
            )));
        }
        let is_first = std::mem::replace(&mut first_content_line, false);
        if is_first && fields[0].eq_ignore_ascii_case("x") {
            continue; // header
        }
        let point = parse_point(domain, fields[0]).map_err(&bad)?;
        domain.check(point).map_err(|e| bad(e.to_string()))?;
        points.push(point);
    }
    if points.is_empty() {
        return Err(Error::EmptySample);
    }
    Ok(points)
}

fn is_bit_string(field: &str) -> bool {
    !field.is_empty() && field.bytes().all(|b| b == b'0' || b == b'1')
}

/// A point written as a decimal integer, or as a bit string (coordinate 0 first) of exactly
/// `d` characters for `{0,1}^d`.
fn parse_point(domain: &Domain, field: &str) -> std::result::Result<Point, String> {
    if let Domain::Hypercube { dim } = domain
        && field.len() == *dim as usize
        && is_bit_string(field)
    {
        return Ok(field
            .bytes()
            .enumerate()
            .fold(0u64, |acc, (i, b)| acc | (u64::from(b == b'1') << i)));
    }
    field
        .parse::<u64>()
        .map_err(|_| format!("point {field:?} is not a non-negative integer or a bit string of the domain's dimension"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validates_points_and_lengths() {
        let domain = Domain::ordered(4).unwrap();
        let sample = LabeledSample::from_pairs(&domain, &[(0, true), (3, false)]).unwrap();
        assert_eq!(sample.len(), 2);
        assert_eq!(
            sample.iter().collect::<Vec<_>>(),
            vec![(0, true), (3, false)]
        );
        assert_eq!(
            LabeledSample::new(&domain, vec![1], vec![]),
            Err(Error::LengthMismatch {
                points: 1,
                labels: 0
            })
        );
        assert!(matches!(
            LabeledSample::from_pairs(&domain, &[(4, true)]),
            Err(Error::PointOutsideDomain { point: 4, .. })
        ));
        assert!(
            LabeledSample::new(&domain, vec![], vec![])
                .unwrap()
                .is_empty()
        );
    }

    #[track_caller]
    fn check_csv_error(domain: &Domain, text: &str, line: usize, needle: &str) {
        match LabeledSample::parse_csv(domain, text) {
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
        let sample = LabeledSample::parse_csv(&domain, "x,y\n3,1\n\n# comment\n 7 , 0 \n").unwrap();
        assert_eq!(
            sample.iter().collect::<Vec<_>>(),
            vec![(3, true), (7, false)]
        );
        let bare = LabeledSample::parse_csv(&domain, "0,0\n9,1").unwrap();
        assert_eq!(bare.len(), 2);
        let cube = Domain::hypercube(4).unwrap();
        let bits = LabeledSample::parse_csv(&cube, "x,y\n1000,1\n0011,0\n15,1\n").unwrap();
        assert_eq!(bits.points(), &[1, 12, 15]);
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
        assert_eq!(parse_points_csv(&domain, "x\n"), Err(Error::EmptySample));
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
        assert_eq!(
            LabeledSample::parse_csv(&domain, ""),
            Err(Error::EmptySample)
        );
        assert_eq!(
            LabeledSample::parse_csv(&domain, "x,y\n# none\n"),
            Err(Error::EmptySample)
        );
    }
}
