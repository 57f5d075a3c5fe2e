//! The `privpac` command-line tool (work in progress).
fn main() {}
