//! Frictions of the command line and of `create`, one test each: clap's
//! whole message in JSON, the `--` hint of `run`, `--reuse` with another
//! pattern, the loser of a same-id race, and the order of create's lines
//! around its post-command.

use crate::common::{Run, TestRepo};

fn json_message(run: &Run) -> String {
    run.json()["error"]["message"].as_str().unwrap().to_owned()
}

/// `--json` usage errors carry clap's whole message on one line (the
/// missing arguments, a tip), not only its first line, and never its
/// `Usage:` footer.
#[test]
fn json_usage_error_keeps_clap_detail() {
    let repo = TestRepo::new();
    let run = repo.run(["--json", "create"]);
    run.code(2);
    assert_eq!(run.json()["error"]["code"], "usage");
    let message = json_message(&run);
    assert_eq!(
        message,
        "the following required arguments were not provided: --pattern <LABEL>, <RUN_ID>"
    );
    // The human rendering is clap's, unchanged.
    assert!(
        run.stderr.contains("\n  --pattern <LABEL>\n"),
        "{}",
        run.stderr
    );

    let run = repo.run(["--json", "create", "a", "--pattern", "p", "--bogus"]);
    run.code(2);
    let message = json_message(&run);
    assert!(
        message.starts_with("unexpected argument '--bogus' found; tip: "),
        "{message}"
    );
    assert!(message.contains("'-- --bogus'"), "{message}");
    for run in [
        repo.run(["--json", "mark"]),
        repo.run(["--json", "list", "--status"]),
    ] {
        run.code(2);
        let message = json_message(&run);
        assert!(!message.contains("Usage:"), "{message}");
        assert!(!message.contains("--help"), "{message}");
        assert!(!message.contains('\n'), "{message}");
    }
    assert!(json_message(&repo.run(["--json", "mark"])).ends_with(": <RUN_ID>, <STATUS>"));
}

/// `git loop run <id> ls` (no `--`) says where the `--` goes; a mistyped
/// flag of `run` does not get that advice.
#[test]
fn run_without_dashes_says_to_put_them_before_the_command() {
    let repo = TestRepo::new();
    repo.create("x");
    let run = repo.run(["run", "x", "ls", "-la"]);
    run.code(2);
    assert!(
        run.stderr
            .contains("help: put `--` before the command: git loop run x -- ls …"),
        "{}",
        run.stderr
    );
    let run = repo.run(["-C", ".", "--json", "run", "x", "ls"]);
    run.code(2);
    assert_eq!(run.json()["error"]["code"], "usage");
    let message = json_message(&run);
    assert!(
        message.contains("put `--` before the command: git loop run x -- ls"),
        "{message}"
    );
    assert!(!message.contains('…'), "{message}");

    let run = repo.run(["run", "x", "--jsn", "--", "ls"]);
    run.code(2);
    assert!(!run.stderr.contains("before the command"), "{}", run.stderr);
    let run = repo.run(["create", "y", "extra", "--pattern", "p"]);
    run.code(2);
    assert!(!run.stderr.contains("before the command"), "{}", run.stderr);
    // With the `--`, it runs.
    repo.run(["run", "x", "--", "true"]).ok();
}

/// `--reuse` of an active run recorded with another pattern keeps reusing it
/// as it is, and says that the given pattern is not applied.
#[test]
fn reuse_with_another_pattern_warns_naming_both() {
    let repo = TestRepo::new();
    repo.run(["create", "r", "--pattern", "first-label"]).ok();
    let run = repo.run(["create", "r", "--pattern", "other-label", "--reuse"]);
    run.ok();
    assert!(
        run.stderr.contains("warning: reusing run r")
            && run.stderr.contains("\"first-label\"")
            && run.stderr.contains("\"other-label\""),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("reusing .loop-worktrees/r"),
        "{}",
        run.stderr
    );
    assert_eq!(repo.manifest()["worktrees"][0]["pattern"], "first-label");

    let run = repo.run([
        "--json",
        "create",
        "r",
        "--pattern",
        "other-label",
        "--reuse",
    ]);
    run.ok();
    assert_eq!(run.json()["method"], "reused");
    assert_eq!(run.json()["pattern"], "first-label");
    assert!(
        run.stderr.contains("warning: reusing run r"),
        "{}",
        run.stderr
    );

    let same = repo.run(["create", "r", "--pattern", "first-label", "--reuse"]);
    same.ok();
    assert!(!same.stderr.contains("warning"), "{}", same.stderr);
}
