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

/// The repository's failures are told apart by their words (a read, a ref
/// write, a change under the command, a step failed part way, a bug), under
/// the one JSON code `repository` the interface has always had.
#[test]
fn a_repository_failure_says_which_it_is_under_one_code() {
    let cases = [
        (
            Error::Repository("r".into()),
            "could not read repository state: r",
        ),
        (
            Error::RefWrite("refs/heads/x: locked".into()),
            "could not write a ref: refs/heads/x: locked",
        ),
        (
            Error::Changed("x changed since pick read it".into()),
            "x changed since pick read it",
        ),
        (Error::PartWay("main moved back".into()), "main moved back"),
        (
            Error::Internal("no permit".into()),
            "internal error (a bug in git-loop): no permit",
        ),
    ];
    for (e, text) in cases {
        assert_eq!(e.to_string(), text);
        assert_eq!(e.code(), "repository");
        assert_eq!(e.exit_code(), 1);
    }
}
