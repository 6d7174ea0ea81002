//! Frictions of the command line and of `create`, one test each: clap's
//! whole message in JSON, the `--` hint of `run`, `--reuse` with another
//! pattern, the loser of a same-id race, and the order of create's lines
//! around its post-command.

use std::io::BufRead;
use std::process::Stdio;

use crate::common::{TestRepo, json_message};

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

struct KillOnDrop(Option<std::process::Child>);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        if let Some(child) = &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// The loser of a same-id race finds the winner's `loop/<id>` moments after
/// it was made: it is told another create of this id is at work, not that
/// the branch is "probably left from an earlier run". Made deterministic by
/// pausing the winner right after its `git worktree add`.
#[test]
fn loser_of_a_same_id_race_is_not_told_of_an_earlier_run() {
    let repo = TestRepo::new();
    let go = repo.home.join("go");
    let winner = repo
        .command()
        .env(
            "GIT_LOOP_TEST_CRASH",
            format!("after-worktree-add:until:{}", go.display()),
        )
        .args(["create", "race", "--pattern", "p"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Killed if an assertion fails before it is let go (it would wait forever).
    let mut winner = KillOnDrop(Some(winner));
    let child = winner.0.as_mut().unwrap();
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    while !line.contains("paused at after-worktree-add") {
        line.clear();
        assert_ne!(
            stderr.read_line(&mut line).unwrap(),
            0,
            "winner exited early"
        );
    }

    let loser = repo.run(["--json", "create", "race", "--pattern", "p"]);
    loser.code(1);
    assert_eq!(loser.json()["error"]["code"], "branch-exists");
    let message = json_message(&loser);
    assert!(
        message.contains("another create of this run id is in progress or has just finished"),
        "{message}"
    );
    let human = repo.run(["create", "race", "--pattern", "p"]);
    human.code(1);
    assert!(!human.stderr.contains("earlier run"), "{}", human.stderr);
    assert!(
        human.stderr.contains("help: wait for it"),
        "{}",
        human.stderr
    );

    std::fs::write(&go, "").unwrap();
    let winner = winner.0.take().unwrap().wait_with_output().unwrap();
    assert!(winner.status.success(), "the winner completes");
    assert_eq!(repo.status_of("race").as_deref(), Some("active"));

    // Created first, then created again: not an earlier run's leftover either.
    let again = repo.run(["--json", "create", "race", "--pattern", "p"]);
    again.code(1);
    assert_eq!(again.json()["error"]["code"], "active-exists");
    assert!(!json_message(&again).contains("earlier run"));

    // A branch really left by an earlier run keeps the old advice.
    repo.run(["mark", "race", "rejected"]).ok();
    repo.run(["cleanup"]).ok();
    assert!(repo.branch_exists("loop/race"));
    let leftover = repo.run(["create", "race", "--pattern", "p"]);
    leftover.code(1);
    assert!(
        leftover
            .stderr
            .contains("probably left from an earlier run of this id"),
        "{}",
        leftover.stderr
    );
    assert!(
        !leftover.stderr.contains("in progress"),
        "{}",
        leftover.stderr
    );
}

/// create's progress lines (what was created, what was copied) come before
/// the post-command's output on the shared stderr, not after it.
#[test]
fn create_says_what_it_made_before_the_post_command_runs() {
    let repo = TestRepo::new();
    repo.git(["config", "loop.createPostCommand", "echo HOOK-SAYS-HI"]);
    let run = repo.run(["create", "h", "--pattern", "p"]);
    run.ok();
    let created = run
        .stderr
        .find("created .loop-worktrees/h on branch loop/h")
        .unwrap_or_else(|| panic!("{}", run.stderr));
    let hook = run
        .stderr
        .find("HOOK-SAYS-HI")
        .unwrap_or_else(|| panic!("{}", run.stderr));
    assert!(created < hook, "{}", run.stderr);
    assert!(
        run.stdout.ends_with(".loop-worktrees/h\n"),
        "{}",
        run.stdout
    );

    // A failing post-command: created first, the hook, then the error.
    repo.git([
        "config",
        "loop.createPostCommand",
        "echo HOOK-FAILS; exit 3",
    ]);
    let run = repo.run(["create", "f", "--pattern", "p"]);
    run.code(1);
    let created = run.stderr.find("created .loop-worktrees/f").unwrap();
    let hook = run.stderr.find("HOOK-FAILS").unwrap();
    let error = run.stderr.find("git-loop: error:").unwrap();
    assert!(created < hook && hook < error, "{}", run.stderr);

    // --json and --quiet: no progress lines, the hook's output only.
    for (flag, id) in [("--json", "j"), ("--quiet", "q")] {
        let run = repo.run([flag, "create", id, "--pattern", "p"]);
        run.code(1);
        assert!(!run.stderr.contains("created "), "{}", run.stderr);
        assert!(run.stderr.contains("HOOK-FAILS"), "{}", run.stderr);
    }
}
