//! The `privpac` command-line tool: a thin shell over the privpac libraries.
//!
//! Arguments are parsed by `clap` into validated library types, the library does the work,
//! and a formatter prints a table (default) or JSON (`--json`). Errors print one line to
//! standard error and exit with status 2.
#![allow(clippy::print_stdout)] // a command-line tool's job is to print

mod cli;
mod commands;
mod output;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    match commands::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("privpac: error: {}", one_line(&error));
            ExitCode::from(2)
        }
    }
}

/// The chain of causes joined by ": " on one line, each cause once: a library error that
/// already quotes its source in its own message (`"…: {0}"` with `#[source]`) would
/// otherwise print that source twice.
fn one_line(error: &anyhow::Error) -> String {
    let mut message = String::new();
    for cause in error.chain() {
        let text = cause.to_string().replace('\n', " ");
        if message.contains(&text) {
            continue;
        }
        if !message.is_empty() {
            message.push_str(": ");
        }
        message.push_str(&text);
    }
    compact_numbers(&message)
}

/// Numerals too long to read, rewritten in scientific notation: library messages print
/// floats with `{}`, which writes ε = 1e-300 as "0.000…0001" (302 characters) and 4e300
/// as 301 digits. A decimal of more than 24 characters, or an integer of more than 39
/// digits (longer than any `u128`: a float printed in full, or a rare 256-bit count, which
/// is then rounded to 17 significant digits), is replaced by the shortest `{:e}` form of
/// the same `f64` ("1e-300", "4e300"); integers up to `u128::MAX` and ordinary decimals
/// are left as they are.
fn compact_numbers(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(start) = rest.find(|c: char| c.is_ascii_digit()) {
        out.push_str(&rest[..start]);
        let tail = &rest[start..];
        let end = tail
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(tail.len());
        // A sentence's full stop is not part of the numeral.
        let numeral = tail[..end].trim_end_matches('.');
        let dots = numeral.matches('.').count();
        let too_long = (dots == 1 && numeral.len() > 24) || (dots == 0 && numeral.len() > 39);
        match numeral.parse::<f64>() {
            Ok(value) if too_long && value.is_finite() => out.push_str(&format!("{value:e}")),
            _ => out.push_str(numeral),
        }
        rest = &tail[numeral.len()..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::one_line;

    /// An error that quotes its source in its message and also returns it as `source`.
    #[derive(Debug)]
    struct Quoting(std::io::Error);

    impl std::fmt::Display for Quoting {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "reading data.csv: {}", self.0)
        }
    }

    impl std::error::Error for Quoting {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            Some(&self.0)
        }
    }

    /// Floats printed with `{}` at 1e-300 or 4e300 become scientific notation; exact
    /// integers up to `u128::MAX`, versions and ordinary decimals are unchanged.
    #[test]
    fn long_numerals_are_compacted() {
        let tiny = format!("epsilon {} is below 0.000000001.", 1e-300);
        assert!(tiny.len() > 300);
        assert_eq!(
            one_line(&anyhow::anyhow!(tiny)),
            "epsilon 1e-300 is below 0.000000001."
        );
        let huge = format!("noise scale {} is outside the range", 4e300);
        assert_eq!(
            one_line(&anyhow::anyhow!(huge)),
            "noise scale 4e300 is outside the range"
        );
        let exact = "needs 340282366920938463463374607431768211455 concepts, v1.2.3, α = 0.125";
        assert_eq!(one_line(&anyhow::anyhow!(exact)), exact);
        assert_eq!(super::compact_numbers("x 5."), "x 5.");
    }

    #[test]
    fn each_cause_is_printed_once() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "No such file");
        let error = anyhow::Error::new(Quoting(io)).context("learn");
        assert_eq!(one_line(&error), "learn: reading data.csv: No such file");
        let plain = anyhow::anyhow!("bad\nthing").context("outer");
        assert_eq!(one_line(&plain), "outer: bad thing");
    }
}
