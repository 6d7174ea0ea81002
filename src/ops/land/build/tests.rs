//! Unit tests of the landing build, with repositories made by `git`.
