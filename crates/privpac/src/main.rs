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
    message
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

    #[test]
    fn each_cause_is_printed_once() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "No such file");
        let error = anyhow::Error::new(Quoting(io)).context("learn");
        assert_eq!(one_line(&error), "learn: reading data.csv: No such file");
        let plain = anyhow::anyhow!("bad\nthing").context("outer");
        assert_eq!(one_line(&plain), "outer: bad thing");
    }
}
