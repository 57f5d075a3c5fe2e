//! Tests of the streaming data-file reader.

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

fn table(domain: &Domain, text: &str, shape: RowShape) -> Result<DataTable> {
    read_table(text.as_bytes(), domain, shape, &DataOptions::default())
}

#[test]
fn multi_label_rows_share_the_parser() {
    let domain = Domain::ordered(10).unwrap();
    let rows = table(
        &domain,
        "x,y1,y2\n3,1,0\n5,0,0\n",
        RowShape::Labeled { labels: 2 },
    )
    .unwrap();
    assert_eq!(rows.points, vec![3, 5]);
    assert_eq!(
        (rows.labels.get(0, 0), rows.labels.get(0, 1)),
        (Some(true), Some(false))
    );
    assert_eq!(rows.labels.get(1, 0), Some(false));
    assert!(matches!(
        table(&domain, "3,1\n", RowShape::Labeled { labels: 2 }),
        Err(Error::BadDataLine { line: 1, .. })
    ));
    // One label column: `x,y1` (a k-labeled file with k = 1) and `x,y` both name it;
    // a wrong header is still refused.
    for header in ["x,y1", "x,y", "X,Y1"] {
        let rows = table(
            &domain,
            &format!("{header}\n3,1\n"),
            RowShape::Labeled { labels: 1 },
        )
        .unwrap();
        assert_eq!(rows.points.len(), 1, "{header}");
    }
    for header in ["x,y2", "x,z", "x,y1,y2"] {
        assert!(
            matches!(
                table(
                    &domain,
                    &format!("{header}\n3,1\n"),
                    RowShape::Labeled { labels: 1 }
                ),
                Err(Error::BadDataLine { line: 1, .. })
            ),
            "{header}"
        );
    }
    // k read from the first row.
    let any = table(&domain, "# c\n\n4,1,0,1\n2,0,0,1\n", RowShape::LabeledAny).unwrap();
    assert_eq!((any.labels.k(), any.labels.rows()), (3, 2));
    assert_eq!(any.labels.into_words(), vec![0b01, 0b00, 0b11]);
}

/// Reads `text` through a buffer of `capacity` bytes, so that lines straddle reads.
fn through_buffer(capacity: usize, text: &str, limits: ReadLimits) -> Result<LabeledSample> {
    let domain = Domain::ordered(1000).unwrap();
    let options = DataOptions {
        limits,
        ..DataOptions::default()
    };
    read_labeled(
        BufReader::with_capacity(capacity, text.as_bytes()),
        &domain,
        &options,
    )
}

#[test]
fn lines_straddling_reads_parse_the_same() {
    let text = "x,y\r\n12,1\n\n# a comment, with a comma\n 999 , 0 \n\"7\",\"1\"\n3,0";
    let whole = through_buffer(1 << 16, text, ReadLimits::default()).unwrap();
    assert_eq!(
        whole.iter().collect::<Vec<_>>(),
        vec![(12, true), (999, false), (7, true), (3, false)]
    );
    for capacity in 1..8 {
        assert_eq!(
            through_buffer(capacity, text, ReadLimits::default()).unwrap(),
            whole,
            "{capacity}"
        );
    }
    // More than 64 examples: the labels span words.
    let long: String = (0..200)
        .map(|i| format!("{i},{}\n", u8::from(i % 3 == 0)))
        .collect();
    let sample = through_buffer(5, &long, ReadLimits::default()).unwrap();
    assert_eq!(sample.len(), 200);
    assert!(sample.iter().all(|(x, y)| y == (x % 3 == 0)));
    assert_eq!(sample.labels().count_ones(), 67);
}

#[test]
fn the_row_limit_names_the_line() {
    let limits = ReadLimits {
        max_rows: 3,
        ..ReadLimits::default()
    };
    // Exactly three lines (header, comments and blank lines included) pass.
    assert_eq!(
        through_buffer(4, "x,y\n1,0\n2,1\n", limits).unwrap().len(),
        2
    );
    assert_eq!(through_buffer(4, "x,y\n1,0\n2,1", limits).unwrap().len(), 2);
    for text in [
        "x,y\n1,0\n2,1\n3,0\n",
        "1,0\n\n# c\n3,0",
        "1,0\n2,1\n3,0\n\n",
    ] {
        match through_buffer(4, text, limits) {
            Err(Error::BadDataLine { line: 4, reason }) => {
                assert!(reason.contains("more than 3 lines"), "{reason}");
                assert!(reason.contains("--max-rows"), "{reason}");
            }
            other => panic!("{text:?}: {other:?}"),
        }
    }
}

#[test]
fn the_line_length_limit_names_the_line() {
    let limits = ReadLimits {
        max_line_bytes: 8,
        ..ReadLimits::default()
    };
    // 8 bytes pass (the `\n` is not counted), 9 do not, with or without a newline
    // after them, whether or not the line straddles reads.
    for capacity in [3, 64] {
        assert_eq!(
            through_buffer(capacity, "0,1\n123,0  \r\n", limits)
                .unwrap()
                .len(),
            2
        );
        for text in ["0,1\n123,0    \n5,1\n", "0,1\n123,0    "] {
            match through_buffer(capacity, text, limits) {
                Err(Error::BadDataLine { line: 2, reason }) => {
                    assert!(reason.contains("longer than 8 bytes"), "{reason}");
                }
                other => panic!("{text:?}: {other:?}"),
            }
        }
    }
}

/// A reader that never ends: `pattern` repeated forever.
struct Endless {
    pattern: &'static [u8],
    at: usize,
    served: u64,
}

impl Endless {
    fn new(pattern: &'static [u8]) -> Self {
        Endless {
            pattern,
            at: 0,
            served: 0,
        }
    }
}

impl std::io::Read for Endless {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        for byte in buf.iter_mut() {
            *byte = self.pattern[self.at];
            self.at = (self.at + 1) % self.pattern.len();
        }
        self.served += buf.len() as u64;
        Ok(buf.len())
    }
}

#[test]
fn endless_inputs_stop_with_an_error_naming_the_line() {
    let domain = Domain::ordered(10).unwrap();
    let options = DataOptions {
        limits: ReadLimits {
            max_rows: 10_000,
            max_line_bytes: 4096,
        },
        ..DataOptions::default()
    };
    // (pattern, the line named, what the error says): zeros and no newline
    // (/dev/zero), endless rows, endless blank lines, an endless line of spaces.
    let cases: [(&'static [u8], u64, &str); 4] = [
        (b"\0", 1, "longer than 4096 bytes"),
        (b"3,1\n", 10_001, "more than 10000 lines"),
        (b"\n", 10_001, "more than 10000 lines"),
        (b" ", 1, "longer than 4096 bytes"),
    ];
    for (pattern, line, needle) in cases {
        let mut endless = Endless::new(pattern);
        let reader = BufReader::with_capacity(1024, &mut endless);
        match read_labeled(reader, &domain, &options) {
            Err(Error::BadDataLine { line: got, reason }) => {
                assert_eq!(got, line, "{pattern:?}: {reason}");
                assert!(reason.contains(needle), "{pattern:?}: {reason}");
            }
            other => panic!("{pattern:?}: {other:?}"),
        }
        // It stopped within one buffer of the limit.
        assert!(
            endless.served <= 40_000 + 1024,
            "{pattern:?}: {}",
            endless.served
        );
    }
    // The same on the k-label and point readers.
    let mut endless = Endless::new(b"\0");
    assert!(matches!(
        crate::read_multi_labeled(BufReader::new(&mut endless), &domain, &options),
        Err(Error::BadDataLine { line: 1, .. })
    ));
    let mut endless = Endless::new(b"4\n");
    assert!(matches!(
        read_points(BufReader::new(&mut endless), &domain, &options),
        Err(Error::BadDataLine { line: 10_001, .. })
    ));
}

/// A reader that fails after its bytes.
struct Failing(&'static [u8]);

impl std::io::Read for Failing {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.0.is_empty() {
            return Err(std::io::Error::other("disk on fire"));
        }
        let n = buf.len().min(self.0.len());
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

#[test]
fn read_errors_name_the_line() {
    let domain = Domain::ordered(10).unwrap();
    match read_labeled(
        BufReader::new(Failing(b"x,y\n1,0\n2,")),
        &domain,
        &DataOptions::default(),
    ) {
        Err(Error::BadDataLine { line: 3, reason }) => {
            assert!(reason.contains("disk on fire"), "{reason}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn real_points_go_to_their_bins() {
    let domain = Domain::ordered(5).unwrap();
    let options = DataOptions {
        real: Some(Discretizer::new(0.0, 10.0, 5).unwrap()),
        ..DataOptions::default()
    };
    let text = "x,y\n3.9,1\n-7,0\n10,1\n1e300,0\n2,1\n\"4.5\",0\n";
    let sample = read_labeled(text.as_bytes(), &domain, &options).unwrap();
    assert_eq!(
        sample.iter().collect::<Vec<_>>(),
        vec![
            (1, true),
            (0, false),
            (4, true),
            (4, false),
            (1, true),
            (2, false)
        ]
    );
    let points = read_points("x\n0.5\n9.99\n".as_bytes(), &domain, &options).unwrap();
    assert_eq!(points, vec![0, 4]);
    for (text, line, needle) in [
        ("x,y\n1.5,1\nabc,0\n", 3, "not a real number"),
        ("1.5,1\nNaN,0\n", 2, "NaN"),
        ("1.5,1\n2.5,3\n", 2, "not 0 or 1"),
        ("value,label\n2.5,1\n", 1, "unknown columns"),
    ] {
        match read_labeled(text.as_bytes(), &domain, &options) {
            Err(Error::BadDataLine { line: got, reason }) => {
                assert_eq!(got, line, "{text:?}: {reason}");
                assert!(reason.contains(needle), "{text:?}: {reason}");
            }
            other => panic!("{text:?}: {other:?}"),
        }
    }
    // More bins than the domain has points: a point past it is refused by its line.
    let narrow = Domain::ordered(3).unwrap();
    assert!(matches!(
        read_labeled("1,1\n9.5,0\n".as_bytes(), &narrow, &options),
        Err(Error::BadDataLine { line: 2, .. })
    ));
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
    assert!(matches!(
        read_points_csv(&std::env::temp_dir(), &domain),
        Err(Error::Io { .. })
    ));
}

/// Issue 37 §4: a UTF-8 byte-order mark (Excel's "CSV UTF-8") is skipped at the start of
/// the file, before a header or a first data row, and nowhere else.
#[test]
fn a_byte_order_mark_is_skipped_at_the_start() {
    let domain = Domain::ordered(10).unwrap();
    let plain = parse_labeled_csv(&domain, "x,y\n3,1\n7,0\n").unwrap();
    assert_eq!(
        parse_labeled_csv(&domain, "\u{feff}x,y\n3,1\n7,0\n").unwrap(),
        plain
    );
    assert_eq!(
        parse_labeled_csv(&domain, "\u{feff}3,1\n7,0\n").unwrap(),
        plain
    );
    assert_eq!(
        parse_points_csv(&domain, "\u{feff}x\n3\n7\n").unwrap(),
        vec![3, 7]
    );
    let multi = table(&domain, "\u{feff}x,y1,y2\n3,1,0\n", RowShape::LabeledAny).unwrap();
    assert_eq!(multi.labels.k(), 2);
    // Only at the start: a mark inside the file is a bad point.
    check_csv_error(&domain, "3,1\n\u{feff}7,0\n", 2, "point");
}

fn with_columns(text: &str, columns: &str, shape: RowShape) -> Result<DataTable> {
    let options = DataOptions {
        columns: Some(columns.parse().unwrap()),
        ..DataOptions::default()
    };
    read_table(
        text.as_bytes(),
        &Domain::ordered(10).unwrap(),
        shape,
        &options,
    )
}

/// Issue 37 §4: other headers and extra columns, read by naming the columns (names from
/// the header, or 0-based indices), in the order named.
#[test]
fn named_columns_read_other_headers_and_extra_columns() {
    let export = "Unnamed: 0,age,sick,flu\n0,3,1,0\n1,7,0,1\n2,5,1,1\n";
    let one = RowShape::Labeled { labels: 1 };
    let rows = with_columns(export, "age,sick", one).unwrap();
    assert_eq!(rows.points, vec![3, 7, 5]);
    let sick: Vec<_> = (0..3).map(|i| rows.labels.get(i, 0).unwrap()).collect();
    assert_eq!(sick, vec![true, false, true]);
    // The same by index (the header is recognized and skipped), and case-insensitively.
    assert_eq!(with_columns(export, "1,2", one).unwrap(), rows);
    assert_eq!(with_columns(export, "AGE,Sick", one).unwrap(), rows);
    // k label columns, in the order named.
    let multi = with_columns(export, "age,flu,sick", RowShape::LabeledAny).unwrap();
    assert_eq!(multi.labels.k(), 2);
    assert_eq!(multi.labels.get(1, 0), Some(true));
    assert_eq!(multi.labels.get(1, 1), Some(false));
    // Points: one column.
    let points = with_columns(export, "age", RowShape::Points).unwrap();
    assert_eq!(points.points, vec![3, 7, 5]);
    // Headerless, by index; a BOM first.
    let bare = with_columns("\u{feff}9,1,4\n8,0,2\n", "2,1", one).unwrap();
    assert_eq!(bare.points, vec![4, 2]);
}

#[track_caller]
fn check_columns_error(text: &str, columns: &str, shape: RowShape, line: u64, needle: &str) {
    match with_columns(text, columns, shape) {
        Err(Error::BadDataLine { line: got, reason }) => {
            assert_eq!(got, line, "{text:?} {columns}: {reason}");
            assert!(reason.contains(needle), "{text:?} {columns}: {reason}");
        }
        other => panic!("{text:?} {columns}: expected a bad-line error, got {other:?}"),
    }
}

#[test]
fn named_columns_are_checked_with_the_line() {
    let one = RowShape::Labeled { labels: 1 };
    let export = "id,age,sick\n0,3,1\n1,7\n";
    check_columns_error(
        export,
        "age,ill",
        one,
        1,
        "column \"ill\" is not in the header",
    );
    check_columns_error(export, "age,sick", one, 3, "expected 3 columns");
    check_columns_error(export, "1,9", one, 1, "column 9 is past the last column");
    check_columns_error(export, "age,sick,id", one, 1, "names 2 label columns");
    check_columns_error(export, "age,sick", RowShape::Points, 1, "one column");
    check_columns_error(export, "age", RowShape::LabeledAny, 1, "no label column");
    check_columns_error("a,a,y\n1,2,1\n", "a,y", one, 1, "more than once");
    check_columns_error("id,age,sick\n0,3,2\n", "age,sick", one, 2, "label \"2\"");
    check_columns_error("5,1\n6\n", "0,1", one, 2, "expected at least 2 columns");
    assert!("age,,sick".parse::<ColumnSelection>().is_err());
    assert!("".parse::<ColumnSelection>().is_err());
    assert_eq!(
        "age,sick".parse::<ColumnSelection>().unwrap().to_string(),
        "age,sick"
    );
    // Without a selection, another header names the way out.
    let domain = Domain::ordered(10).unwrap();
    check_csv_error(&domain, "age,sick\n3,1\n", 1, "--columns FEATURE,LABEL");
    check_csv_error(
        &domain,
        "id,age,sick\n0,3,1\n",
        1,
        "--columns FEATURE,LABEL",
    );
}

/// Issue 37 §4: with real-valued points, ±inf and values that overflow to them are errors
/// naming the line, like NaN; finite values outside the bounds are still clipped.
#[test]
fn infinite_values_are_refused_and_finite_ones_clipped() {
    let options = DataOptions {
        real: Some(Discretizer::new(0.0, 10.0, 5).unwrap()),
        ..DataOptions::default()
    };
    let domain = Domain::ordered(5).unwrap();
    let read = |text: &str| read_labeled(text.as_bytes(), &domain, &options);
    for value in ["inf", "-inf", "+inf", "infinity", "1e400", "-1e309"] {
        match read(&format!("x,y\n3,1\n{value},0\n")) {
            Err(Error::BadDataLine { line: 3, reason }) => {
                assert!(reason.contains("not finite"), "{value}: {reason}");
            }
            other => panic!("{value}: expected an error at line 3, got {other:?}"),
        }
    }
    assert!(matches!(
        read("x,y\nnan,0\n"),
        Err(Error::BadDataLine { line: 2, .. })
    ));
    let clipped = read("x,y\n-5,0\n1e300,1\n").unwrap();
    assert_eq!(clipped.points(), &[0, 4]);
    // Without real points the ordered domain's range is in words, not `0..10` or `[10]`.
    check_csv_error(
        &Domain::ordered(10).unwrap(),
        "10,1\n",
        1,
        "outside the domain (points 0 ≤ x < 10)",
    );
}
