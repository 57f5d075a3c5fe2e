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
            // One line: the chain of causes joined by ": ".
            let message = format!("{error:#}").replace('\n', " ");
            eprintln!("privpac: error: {message}");
            ExitCode::from(2)
        }
    }
}
