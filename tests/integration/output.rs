//! Human output: colour only on a terminal, summaries, --quiet, --json purity.

use std::fs;
use std::process::Command;

use crate::common::{BIN, TestRepo};

/// Run git-loop with stdout on a pseudo-terminal (util-linux `script`).
fn on_terminal(repo: &TestRepo, args: &str, envs: &[(&str, &str)]) -> String {
    let mut cmd = Command::new("script");
    crate::common::hermetic(&mut cmd, &repo.home);
    cmd.current_dir(&repo.root).env("TERM", "xterm").args([
        "-qec",
        &format!("{BIN} {args}"),
        "/dev/null",
    ]);
    for (k, v) in envs {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn list_is_coloured_only_on_a_terminal_without_no_color() {
    let repo = TestRepo::new();
    repo.create("a");
    repo.create("gone");
    fs::remove_dir_all(repo.wt("gone")).unwrap();
    let tty = on_terminal(&repo, "list", &[]);
    assert!(tty.contains("\x1b["), "{tty:?}");
    assert!(tty.contains("\x1b[32mactive"), "{tty:?}");
    assert!(tty.contains("\x1b[1;31mmissing"), "missing marker: {tty:?}");
    let no_color = on_terminal(&repo, "list", &[("NO_COLOR", "1")]);
    assert!(!no_color.contains('\x1b'), "{no_color:?}");
    assert!(no_color.contains("missing"));
    let json = on_terminal(&repo, "--json list", &[]);
    assert!(!json.contains('\x1b'));
    let piped = repo.run(["list"]);
    assert!(!piped.stdout.contains('\x1b'));
    // Aligned: every row has its status column at the same offset.
    let lines: Vec<&str> = piped.stdout.lines().collect();
    let col = lines[0].find("STATUS").unwrap();
    assert_eq!(&lines[1][col..col + 6], "active");
    assert!(
        lines[1].contains("just now") || lines[1].contains("s ago"),
        "{}",
        lines[1]
    );
}

#[test]
fn cleanup_prints_a_line_per_entry_and_a_summary() {
    let repo = TestRepo::new();
    for id in ["a", "b", "c"] {
        repo.create(id);
        repo.run(["mark", id, "rejected"]).ok();
    }
    fs::write(repo.wt("c").join("wip"), "x").unwrap();
    let run = repo.run(["cleanup"]);
    run.ok();
    assert_eq!(run.stdout.lines().count(), 3, "{}", run.stdout);
    assert!(run.stdout.contains("removed a (.loop-worktrees/a)"));
    assert!(run.stdout.contains("skipped c: "));
    assert!(
        run.stderr.contains("removed 2, skipped 1 (untracked)"),
        "{}",
        run.stderr
    );
}

#[test]
fn quiet_silences_stderr_and_json_is_never_mixed() {
    let repo = TestRepo::new();
    let run = repo.run(["-q", "create", "a", "--pattern", "p"]);
    run.ok();
    assert_eq!(run.stderr, "");
    assert_eq!(run.stdout.trim(), repo.wt("a").display().to_string());
    repo.run(["mark", "a", "rejected"]).ok();
    fs::write(repo.wt("a").join("wip"), "x").unwrap();
    let run = repo.run(["-q", "cleanup"]);
    run.ok();
    assert_eq!(run.stderr, "");
    for args in [
        &["--json", "cleanup"][..],
        &["--json", "reconcile"],
        &["--json", "list"],
        &["--json", "mark", "a", "merged"],
    ] {
        let run = repo.run(args);
        run.ok();
        run.json();
        assert_eq!(run.stdout.lines().count(), 1, "{args:?}: {}", run.stdout);
    }
    // Errors still reach stderr under --quiet.
    let run = repo.run(["-q", "mark", "nope", "merged"]);
    run.code(1);
    assert!(run.stderr.contains("nope"));
}
