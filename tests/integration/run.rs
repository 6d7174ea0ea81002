//! `run <id> -- <command>`: runs in the worktree, passes the exit code
//! through (127 not found, 126 not executable), and takes the command with
//! or without `--`.

use std::fs;

use crate::common::TestRepo;

/// A command that is not found exits 127; one that cannot be executed, 126.
#[test]
fn run_exits_127_for_a_missing_command_and_126_for_a_non_executable() {
    let repo = TestRepo::new();
    repo.create("r");
    let run = repo.run(["run", "r", "--", "no-such-command-here"]);
    run.code(127);
    assert!(
        run.stderr.contains("no-such-command-here"),
        "{}",
        run.stderr
    );
    let run = repo.run(["--json", "run", "r", "--", "./README"]);
    run.code(126);
    assert_eq!(run.json()["error"]["code"], "command-not-executable");
}

/// `git loop run <id> <command>…` without `--`: every word from the
/// command's first on is the command's (its flags too, even one git-loop
/// also has); a flag between the id and the command is git-loop's; `--`
/// still works, and is how a command starting with `-` is given.
#[test]
fn run_takes_the_command_without_dashes_and_its_flags_are_its_own() {
    let repo = TestRepo::new();
    repo.create("x");
    let run = repo.run([
        "run",
        "x",
        "sh",
        "-c",
        "echo \"$0 $1\"; exit 3",
        "--json",
        "-q",
    ]);
    run.code(3);
    assert_eq!(run.stdout, "--json -q\n");
    // git-loop's own flag before the command: the command still runs.
    let run = repo.run(["run", "x", "-q", "sh", "-c", "pwd"]);
    run.ok();
    assert_eq!(run.stdout, format!("{}\n", repo.wt("x").display()));
    repo.run(["run", "x", "--", "true"]).ok();
    // A word starting with `-` is not taken for a command: a usage error
    // naming it, nothing run.
    let run = repo.run(["run", "x", "--jsn", "ls"]);
    run.code(2);
    assert!(run.stderr.contains("--jsn"), "{}", run.stderr);
    let run = repo.run(["--json", "run", "x", "-la"]);
    run.code(2);
    assert_eq!(run.json()["error"]["code"], "usage");
    // `create`'s extra word is still an unexpected argument.
    repo.run(["create", "y", "extra", "--pattern", "p"]).code(2);
}

#[test]
fn run_executes_in_the_worktree_and_passes_the_exit_code_through() {
    let repo = TestRepo::new();
    repo.create("r");
    let run = repo.run([
        "run",
        "r",
        "--",
        "sh",
        "-c",
        "pwd; echo \"$GIT_LOOP_ID $GIT_LOOP_ROOT\"; exit 7",
    ]);
    run.code(7);
    assert_eq!(
        run.stdout,
        format!("{}\nr {}\n", repo.wt("r").display(), repo.root.display())
    );
    repo.run(["run", "r", "--", "true"]).ok();
    // From inside another worktree, and with a signal: 128 + N.
    let killed = TestRepo::output(repo.command().current_dir(repo.wt("r")).args([
        "run",
        "r",
        "--",
        "sh",
        "-c",
        "kill -TERM $$",
    ]));
    killed.code(143);
    // Unknown id, missing worktree, missing command: clear errors, nothing run.
    let unknown = repo.run(["--json", "run", "nope", "--", "true"]);
    unknown.code(1);
    assert_eq!(unknown.json()["error"]["code"], "unknown-id");
    repo.run(["run", "r"]).code(2);
    repo.run(["run", "../x", "--", "true"]).code(2);
    let missing_cmd = repo.run(["run", "r", "--", "no-such-command-here"]);
    missing_cmd.code(127);
    assert!(
        missing_cmd.stderr.contains("no-such-command-here"),
        "{}",
        missing_cmd.stderr
    );
    fs::remove_dir_all(repo.wt("r")).unwrap();
    let gone = repo.run(["--json", "run", "r", "--", "touch", "created"]);
    gone.code(1);
    assert_eq!(gone.json()["error"]["code"], "worktree-missing");
    assert!(!repo.wt("r").exists() && !repo.root.join("created").exists());
}
