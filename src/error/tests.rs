//! The error codes: one source, kebab-case.
use super::*;

/// Codes come from [`Error::code`] alone: no variant carries a miette
/// code that could drift from it, and each code is kebab-case.
#[test]
fn codes_have_one_source_and_are_kebab_case() {
    let samples = [
        Error::InvalidRunId {
            id: "x".into(),
            reason: "r".into(),
        },
        Error::BranchExists {
            branch: "loop/x".into(),
            racing: false,
        },
        Error::MutexLost { path: "m".into() },
        Error::Repository("r".into()),
        Error::io("read", "p", std::io::Error::other("e")),
    ];
    for e in &samples {
        assert!(Diagnostic::code(e).is_none(), "{e:?} has a miette code");
        let code = e.code();
        assert!(
            !code.is_empty()
                && !code.starts_with('-')
                && !code.ends_with('-')
                && code.chars().all(|c| c.is_ascii_lowercase() || c == '-'),
            "{code:?}"
        );
    }
    assert_eq!(samples[0].code(), "invalid-run-id");
}
