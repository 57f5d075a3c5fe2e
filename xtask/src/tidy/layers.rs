//! The layer table of `cargo xtask tidy`: our library crates from the ground floor up, and
//! the internal crates each member may depend on (arrows only point down). Adding a crate
//! means adding it here, with the reason for each arrow that is not obvious.

/// Our library crates, lowest layers first.
pub(super) const LIBRARIES: &[&str] = &[
    "privpac-accounting",
    "privpac-mechanisms",
    "privpac-classes",
    "privpac-audit",
    "privpac-zoo",
    "privpac-sanitizers",
    "privpac-learners",
    "privpac-multi",
    "privpac-attacks",
    "privpac-engine",
    "privpac-toolkit",
    "privpac-experiments",
];

/// The internal crates that `krate` may depend on: arrows only point down. `None` for a
/// crate that is not in the table yet.
pub(super) fn allowed_dependencies(krate: &str) -> Option<&'static [&'static str]> {
    let allowed: &'static [&'static str] = match krate {
        // The ground floor: validated guarantees and their composition; and privpac-audit,
        // which takes plain data so every crate can use it.
        "privpac-accounting" | "privpac-audit" => &[],
        // The mechanisms report their guarantees in accounting's vocabulary.
        "privpac-mechanisms" => &["privpac-accounting"],
        // Domains, classes and deterministic hypotheses: no privacy machinery (randomized
        // predictors, which sample with the mechanisms, live in privpac-learners).
        "privpac-classes" => &[],
        // Mechanisms and their broken twins, next to the auditor that tests them.
        "privpac-zoo" => &["privpac-accounting", "privpac-mechanisms", "privpac-audit"],
        "privpac-sanitizers" => &[
            "privpac-accounting",
            "privpac-mechanisms",
            "privpac-classes",
        ],
        "privpac-learners" => &[
            "privpac-accounting",
            "privpac-mechanisms",
            "privpac-classes",
            "privpac-sanitizers",
        ],
        "privpac-multi" => &[
            "privpac-accounting",
            "privpac-mechanisms",
            "privpac-classes",
            "privpac-sanitizers",
            "privpac-learners",
        ],
        // The attacks run multi-learners (and per-column ERM) on fingerprinting
        // databases; the tracing attack certifies its ε bound with privpac-audit's
        // Clopper–Pearson bounds.
        "privpac-attacks" => &[
            "privpac-accounting",
            "privpac-mechanisms",
            "privpac-classes",
            "privpac-audit",
            "privpac-learners",
            "privpac-multi",
        ],
        // The measurement engine runs built learners; it names none of them.
        "privpac-engine" => &[
            "privpac-accounting",
            "privpac-mechanisms",
            "privpac-classes",
            "privpac-sanitizers",
            "privpac-learners",
            "privpac-multi",
        ],
        // The front-end toolkit builds learners from specs and runs them on the engine.
        "privpac-toolkit" => &[
            "privpac-accounting",
            "privpac-mechanisms",
            "privpac-classes",
            "privpac-sanitizers",
            "privpac-learners",
            "privpac-multi",
            "privpac-engine",
        ],
        "privpac-experiments" => &[
            "privpac-accounting",
            "privpac-mechanisms",
            "privpac-classes",
            "privpac-sanitizers",
            "privpac-learners",
            "privpac-multi",
            "privpac-attacks",
            "privpac-engine",
            "privpac-toolkit",
        ],
        // The CLI, the Python bindings and the benches sit on top of every library.
        "privpac" | "privpac-py" | "benches" => LIBRARIES,
        // xtask must build in seconds on a fresh clone.
        "xtask" => &[],
        _ => return None,
    };
    Some(allowed)
}
