//! Shared criterion configuration and seeded input generators (work in progress).
