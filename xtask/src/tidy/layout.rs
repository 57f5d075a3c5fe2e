//! The file-length check of `cargo xtask tidy`: no source file over [`MAX_FILE_LINES`] lines.
//! (The import-cycle check that used to live here, between the top-level modules of a crate,
//! is now `tidy/cycles.rs`, at every level of the module tree.)

use std::fs;
use std::path::Path;

use super::{display_path, rust_files};

/// Longest source file, in lines; split a longer one where a reader would look for a seam.
pub(super) const MAX_FILE_LINES: usize = 1000;

/// One error per `.rs` file under `dir` that is longer than [`MAX_FILE_LINES`].
pub(super) fn long_file_errors(root: &Path, dir: &Path) -> Vec<String> {
    rust_files(dir)
        .into_iter()
        .filter_map(|path| {
            let lines = fs::read_to_string(&path).ok()?.lines().count();
            (lines > MAX_FILE_LINES).then(|| {
                format!(
                    "{}: {lines} lines, over the limit of {MAX_FILE_LINES}: split it where a \
                     reader would look for a seam",
                    display_path(root, &path)
                )
            })
        })
        .collect()
}
