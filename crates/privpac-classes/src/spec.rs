//! Class specifications: the short strings the command line uses to name a class.
//!
//! | spec | class |
//! |---|---|
//! | `points:N` | point functions over `[N]` |
//! | `thresholds:N` | thresholds over `[N]` |
//! | `intervals:N` | intervals over `[N]` plus the empty interval |
//! | `parities:D` | parities over `{0,1}^D` |
//! | `halfspaces:K` | halfspaces on the `K × K` grid |
//! | `all:N` | all functions on `[N]` |
//! | `matrix:PATH` | one concept per line of the file (see [`crate::ClassMatrix::parse`]); the file is read by the caller's loader ([`parse_spec_with`]) |
//! | `xor(SPEC)` | `{f ⊕ g : f, g ∈ SPEC}` |
//! | `zero(SPEC)` | `SPEC ∪ {0}` |
//! | `not(SPEC)` | `{1 − c : c ∈ SPEC}`, the complements (same ids, same dimensions) |
//! | `both(SPEC)` | `SPEC ∪ not(SPEC)`: e.g. thresholds in both orientations |
//!
//! This crate reads no files: [`parse_spec`] rejects `matrix:PATH`, and [`parse_spec_with`]
//! hands the path to a loader supplied by the front end (`privpac-toolkit`'s `ClassSpec`
//! reads the file there).

use crate::class::{
    AllFunctions, Both, ConceptClass, ExplicitClass, GridHalfspaces, Intervals, Not, Parities,
    Points, Thresholds, WithZero, Xor,
};
use crate::domain::Domain;
use crate::error::{Error, Result};
use crate::matrix::ClassMatrix;

/// Parses a class specification (see the module documentation for the syntax) that names
/// no file: `matrix:PATH` is rejected (use [`parse_spec_with`] with a loader).
///
/// # Errors
/// [`Error::BadSpec`] naming the spec and what is wrong; the constructors' errors for
/// out-of-range parameters.
///
/// # Example
/// ```
/// use privpac_classes::parse_spec;
/// let class = parse_spec("xor(thresholds:8)")?;
/// assert_eq!(class.len(), 64);
/// assert!(parse_spec("triangles:3").is_err());
/// assert!(parse_spec("matrix:classes.txt").is_err()); // files are the caller's job
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn parse_spec(spec: &str) -> Result<Box<dyn ConceptClass>> {
    parse_spec_with(spec, &mut |path: &str| {
        Err(Error::BadSpec {
            spec: format!("matrix:{path}"),
            reason: "matrix files are read by the caller (parse_spec_with with a loader)"
                .to_string(),
        })
    })
}

/// Parses a class specification, calling `load_matrix(PATH)` for each `matrix:PATH` (the
/// loader reads the file and parses it, e.g. with [`ClassMatrix::parse`]).
///
/// # Errors
/// As for [`parse_spec`], plus the loader's errors.
///
/// # Example
/// ```
/// use privpac_classes::{ClassMatrix, parse_spec_with};
/// let class = parse_spec_with("zero(matrix:inline)", &mut |_path: &str| {
///     ClassMatrix::parse("0110\n1010\n")
/// })?;
/// assert_eq!(class.len(), 3);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn parse_spec_with(
    spec: &str,
    load_matrix: &mut dyn FnMut(&str) -> Result<ClassMatrix>,
) -> Result<Box<dyn ConceptClass>> {
    let trimmed = spec.trim();
    let bad = |reason: &str| Error::BadSpec {
        spec: spec.to_string(),
        reason: reason.to_string(),
    };
    for (prefix, wrap) in [("xor(", 0), ("zero(", 1), ("not(", 2), ("both(", 3)] {
        if let Some(rest) = trimmed.strip_prefix(prefix) {
            let inner = rest
                .strip_suffix(')')
                .ok_or_else(|| bad("missing closing parenthesis"))?;
            let inner = parse_spec_with(inner, load_matrix)?;
            return Ok(match wrap {
                0 => Box::new(Xor::new(inner)?),
                1 => Box::new(WithZero::new(inner)?),
                2 => Box::new(Not::new(inner)),
                _ => Box::new(Both::new(inner)?),
            });
        }
    }
    let (kind, argument) = trimmed.split_once(':').ok_or_else(|| {
        bad("expected KIND:PARAMETER, xor(SPEC), zero(SPEC), not(SPEC) or both(SPEC)")
    })?;
    if kind == "matrix" {
        let matrix = load_matrix(argument)?;
        return Ok(Box::new(ExplicitClass::new(matrix, trimmed)?));
    }
    let digits = argument.trim();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad(&format!("{argument:?} is not a non-negative integer")));
    }
    // All digits: the only way left to fail is a value above u64::MAX (2^64 and beyond),
    // which deserves its own reason rather than "not a non-negative integer".
    let number: u64 = digits.parse().map_err(|_| {
        bad(&format!(
            "{kind} takes at most 2^64 − 1 = 18446744073709551615, got {digits}"
        ))
    })?;
    let small = |limit: u64| -> Result<u32> {
        if number <= limit {
            Ok(number as u32)
        } else {
            Err(bad(&format!("{kind} takes at most {limit}, got {number}")))
        }
    };
    Ok(match kind {
        "points" => Box::new(Points::new(Domain::ordered(number)?)),
        "thresholds" => Box::new(Thresholds::new(number)?),
        "intervals" => Box::new(Intervals::new(number)?),
        "parities" => Box::new(Parities::new(small(64)?)?),
        "halfspaces" => Box::new(GridHalfspaces::new(small(64)?)?),
        "all" => Box::new(AllFunctions::new(small(64)?)?),
        _ => {
            return Err(bad(
                "unknown kind (expected points, thresholds, intervals, parities, halfspaces, all, matrix, xor, zero, not, both)",
            ));
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn check(spec: &str, expected_len: u128, expected_name: &str) {
        let class = parse_spec(spec).unwrap();
        assert_eq!(class.len(), expected_len, "{spec}");
        assert_eq!(class.name(), expected_name, "{spec}");
    }

    /// A size of 2^64 or more is all digits, so it is refused as too large, not as "not a
    /// non-negative integer" (the message a hostile-input sweep found unclear).
    #[test]
    fn sizes_beyond_u64_are_refused_as_too_large() {
        for spec in [
            "points:18446744073709551616",
            "both(thresholds:18446744073709551616)",
            "intervals:99999999999999999999999",
        ] {
            let message = parse_spec(spec).err().unwrap().to_string();
            assert!(message.contains("at most 2^64 − 1"), "{spec}: {message}");
            assert!(!message.contains("not a non-negative"), "{spec}: {message}");
        }
        // A count saturated at u128::MAX is not printed as if it were exact.
        let message = parse_spec("xor(intervals:18446744073709551615)")
            .err()
            .unwrap()
            .to_string();
        assert!(
            message.contains("needs at least 2^128 − 1 concepts"),
            "{message}"
        );
        let message = parse_spec("points:-1").err().unwrap().to_string();
        assert!(message.contains("not a non-negative integer"), "{message}");
        assert_eq!(
            parse_spec("points:18446744073709551615").unwrap().len(),
            u128::from(u64::MAX)
        );
    }

    #[test]
    fn parses_every_kind() {
        check("points:10", 10, "points:10");
        check("thresholds:64", 64, "thresholds:64");
        check("intervals:4", 11, "intervals:4");
        check("parities:5", 32, "parities:5");
        check("halfspaces:2", 14, "halfspaces:2");
        check("all:3", 8, "all:3");
        check(" xor(thresholds:4) ", 16, "xor(thresholds:4)");
        check("zero(thresholds:4)", 5, "zero(thresholds:4)");
        check("xor(zero(points:3))", 16, "xor(zero(points:3))");
        check("not(thresholds:64)", 64, "not(thresholds:64)");
        check(" both( thresholds:64 )", 128, "both(thresholds:64)");
        check("not(both(intervals:4))", 22, "not(both(intervals:4))");
        check("both(parities:62)", 1 << 63, "both(parities:62)");
    }

    #[test]
    fn matrix_specs_go_through_the_loader() {
        let mut seen = Vec::new();
        let class = parse_spec_with(" xor(matrix:a.txt) ", &mut |path: &str| {
            seen.push(path.to_string());
            ClassMatrix::parse("0110\n1010\n")
        })
        .unwrap();
        assert_eq!(seen, vec!["a.txt".to_string()]);
        assert_eq!(class.len(), 4);
        let err = parse_spec_with("matrix:b", &mut |_: &str| Err(Error::EmptyMatrix)).unwrap_err();
        assert_eq!(err, Error::EmptyMatrix);
        assert!(matches!(
            parse_spec("matrix:/no/such/file"),
            Err(Error::BadSpec { .. })
        ));
    }

    #[test]
    fn rejects_bad_specs() {
        for spec in [
            "",
            "thresholds",
            "thresholds:x",
            "thresholds:-1",
            "shapes:3",
            "xor(points:3",
            "not(points:3",
            "not()",
            "both(parities:63)",
            "parities:65",
            "all:0",
            "points:0",
        ] {
            assert!(parse_spec(spec).is_err(), "{spec:?}");
        }
        assert!(matches!(parse_spec("shapes:3"), Err(Error::BadSpec { .. })));
    }
}
