//! The output contract: colour only on a terminal (or with `CLICOLOR_FORCE`,
//! never with `NO_COLOR`), one line per entry and a summary, `--quiet`,
//! `--json` never mixed with text, clap's whole message in a `--json` usage
//! error, and a closed stdout that is not an error. Escaping: escaping.rs.

use std::fs;
use std::process::Command;

use crate::common::{BIN, TestRepo, json_message, manifest_with};

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
        "the following required arguments were not provided: <RUN_ID>"
    );
    // The human rendering is clap's, unchanged.
    assert!(run.stderr.contains("\n  <RUN_ID>\n"), "{}", run.stderr);

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
    // Run ids are optional (inside a run's worktree, that run): only the
    // status is missing.
    assert!(json_message(&repo.run(["--json", "mark"])).ends_with(": <STATUS>"));
}

#[test]
fn closed_stdout_is_not_an_error() {
    let repo = TestRepo::new();
    let ids: Vec<(String, &str, &str)> = (0..2000)
        .map(|i| (format!("r{i}"), "merged", "2026-01-01T00:00:00Z"))
        .collect();
    let refs: Vec<(&str, &str, &str)> = ids.iter().map(|(a, b, c)| (a.as_str(), *b, *c)).collect();
    repo.write_manifest(&manifest_with(&refs));
    let out = std::process::Command::new("bash")
        .args([
            "-o",
            "pipefail",
            "-c",
            &format!("'{}' list | head -n 1", crate::common::BIN),
        ])
        .current_dir(&repo.root)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
}

fn list_with(repo: &TestRepo, envs: &[(&str, &str)], args: &[&str]) -> String {
    let mut cmd = repo.command();
    cmd.args(args);
    for (k, v) in envs {
        cmd.env(k, v);
    }
    let run = TestRepo::output(&mut cmd);
    assert_eq!(run.code, 0, "{}", run.stderr);
    run.stdout
}

#[test]
fn clicolor_force_colours_a_pipe_and_no_color_wins() {
    let repo = TestRepo::new();
    repo.create("a");
    let piped = list_with(&repo, &[], &["list"]);
    assert!(!piped.contains('\x1b'), "{piped:?}");
    let forced = list_with(&repo, &[("CLICOLOR_FORCE", "1")], &["list"]);
    assert!(forced.contains("\x1b[1mID\x1b[0m"), "{forced:?}");
    assert!(forced.contains("\x1b[32mactive\x1b[0m"), "{forced:?}");
    // Colour codes do not count towards the padding: without them, the
    // table is the piped one.
    let stripped = forced
        .replace("\x1b[0m", "")
        .replace("\x1b[1m", "")
        .replace("\x1b[32m", "")
        .replace("\x1b[2m", "");
    assert_eq!(stripped, piped);
    let long = list_with(&repo, &[("CLICOLOR_FORCE", "1")], &["list", "--long"]);
    assert!(long.contains("\x1b[1mMERGED\x1b[0m"), "{long:?}");
    for envs in [
        &[("NO_COLOR", "1"), ("CLICOLOR_FORCE", "1")][..],
        &[
            ("CLICOLOR_FORCE", "1"),
            ("CLICOLOR", "0"),
            ("NO_COLOR", "x"),
        ][..],
    ] {
        let plain = list_with(&repo, envs, &["list"]);
        assert_eq!(plain, piped, "{envs:?}");
        let plain = list_with(&repo, envs, &["list", "--long"]);
        assert!(!plain.contains('\x1b'), "{envs:?}: {plain:?}");
    }
    let json = list_with(&repo, &[("CLICOLOR_FORCE", "1")], &["--json", "list"]);
    assert!(!json.contains('\x1b'), "{json:?}");
}

/// `-q` silences the per-run lines of what went as asked (`removed x`,
/// `x: landed …`); a skip is still said on stdout, and a dry run still
/// answers what it was asked.
#[test]
fn quiet_silences_per_run_lines_but_not_skips_or_a_dry_run() {
    let repo = TestRepo::new();
    for id in ["a", "b", "c"] {
        repo.create(id).ok();
    }
    repo.run(["mark", "a", "rejected"]).ok();
    repo.run(["mark", "b", "rejected"]).ok();
    fs::write(repo.wt("b").join("wip"), "x").unwrap();
    let dry = repo.run(["-q", "cleanup", "--dry-run"]);
    dry.ok();
    assert!(dry.stdout.contains("would remove a"), "{}", dry.stdout);
    let run = repo.run(["-q", "cleanup"]);
    run.ok();
    assert!(!run.stdout.contains("removed a"), "{}", run.stdout);
    assert!(run.stdout.contains("b"), "the skip is said: {}", run.stdout);
    assert!(!repo.wt("a").exists());
    fs::write(repo.wt("c").join("f"), "f\n").unwrap();
    repo.git_in(&repo.wt("c"), ["add", "f"]);
    repo.git_in(&repo.wt("c"), ["commit", "-q", "-m", "f"]);
    let land = repo.run(["-q", "land", "c"]);
    land.ok();
    assert_eq!(land.stdout, "", "{}", land.stdout);
    assert_eq!(land.stderr, "", "{}", land.stderr);
}

/// One error prefix, git's and clap's `error: `: the first line on stderr of
/// a usage error, an unknown id, a command outside any repository, a refused
/// removal, a mark without its status and an id already active; and a
/// removal that removed nothing ends with its `error: ` line.
#[test]
fn every_error_starts_with_one_prefix() {
    let repo = TestRepo::new();
    repo.create("a");
    let outside = repo.base().join("plain");
    fs::create_dir(&outside).unwrap();
    let runs = [
        ("usage", repo.run(["--bogus"])),
        ("unknown id", repo.run(["path", "nope"])),
        (
            "outside",
            TestRepo::output(repo.command().current_dir(&outside).arg("list")),
        ),
        ("refused destroy", repo.run(["remove", "a"])),
        ("missing status", repo.run(["mark", "a"])),
        ("active", repo.run(["create", "a", "--pattern", "p"])),
        ("invalid id", repo.run(["path", "../x"])),
    ];
    for (what, run) in &runs {
        assert_ne!(run.code, 0, "{what}");
        let first = run.stderr.lines().next().unwrap_or("");
        assert!(first.starts_with("error: "), "{what}: {}", run.stderr);
        assert!(!run.stderr.contains("git-loop: "), "{what}: {}", run.stderr);
    }
    repo.run(["mark", "a", "rejected"]).ok();
    fs::write(repo.wt("a").join("scratch"), "x").unwrap();
    let run = repo.run(["remove", "a"]);
    run.code(1);
    let last = run.stderr.lines().last().unwrap_or("");
    assert!(last.starts_with("error: nothing removed"), "{}", run.stderr);
}
