//! The library entry in-process: `git_loop::invoke(args, stdout, stderr,
//! terminal)` called with in-memory writers, as `src/main.rs` calls it with
//! the process's streams. No process is spawned, so these tests are fast and
//! show exactly what `run` writes to which writer and the code it returns.
//!
//! Every test here shares the test process's working directory and
//! environment: name the repository with `-C <dir>` (never chdir, never
//! `set_var`), and keep to commands whose result the inherited environment
//! cannot change (help, usage errors, reading a manifest). The hermetic
//! environment is the binary's, in every other file.

use std::ffi::OsString;

use git_loop::Terminal;

use crate::common::{JsonExt, TestRepo};

/// What one in-process run wrote and returned.
struct InProcess {
    code: i32,
    stdout: String,
    stderr: String,
}

/// `git_loop::invoke` with `args` (without the program name) on two `Vec`s and
/// no terminal; a `--json` document is checked against its schema, as the
/// fixture checks the binary's.
fn run(args: &[&str]) -> InProcess {
    let argv: Vec<OsString> = std::iter::once("git-loop")
        .chain(args.iter().copied())
        .map(OsString::from)
        .collect();
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let code = git_loop::invoke(argv, &mut stdout, &mut stderr, Terminal::default());
    let stdout = String::from_utf8(stdout).unwrap();
    // The exit code as a process's status would carry it (never a signal).
    let status = std::os::unix::process::ExitStatusExt::from_raw(code << 8);
    crate::schema::check_json_output(args.iter().map(std::ffi::OsStr::new), status, &stdout);
    InProcess {
        code,
        stdout,
        stderr: String::from_utf8(stderr).unwrap(),
    }
}

#[test]
fn help_and_version_go_to_stdout_and_exit_0() {
    let help = run(&["--help"]);
    assert_eq!(help.code, 0, "{}", help.stderr);
    assert!(help.stdout.contains("Usage:"), "{}", help.stdout);
    for command in ["create", "mark", "cleanup", "reconcile", "list"] {
        assert!(help.stdout.contains(command), "{command}: {}", help.stdout);
    }
    assert_eq!(help.stderr, "");

    let version = run(&["--version"]);
    assert_eq!(version.code, 0, "{}", version.stderr);
    assert!(
        version.stdout.contains(env!("CARGO_PKG_VERSION")),
        "{}",
        version.stdout
    );
    assert_eq!(version.stderr, "");
}

/// A usage error under `--json`: exit 2, one JSON error document on stdout
/// (clap's text on stderr), nothing written; the same bytes as the binary's.
#[test]
fn a_usage_error_exits_2_with_one_json_error_document() {
    let repo = TestRepo::new();
    let root = repo.root.to_str().unwrap();
    let args = ["--json", "create", "a", "--pattern", "p", "--bogus"];
    let run = run(&[&["-C", root][..], &args].concat());
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("stdout is not one JSON document ({e}): {:?}", run.stdout));
    assert_eq!(doc["error"]["code"], "usage", "{doc}");
    assert!(doc["error"].text("message").contains("--bogus"), "{doc}");
    assert!(run.stderr.contains("--bogus"), "{}", run.stderr);
    assert!(!repo.loop_dir().exists(), "a usage error wrote something");
    let binary = repo.run(args);
    assert_eq!(
        (binary.code, &binary.stdout, &binary.stderr),
        (run.code, &run.stdout, &run.stderr)
    );
}

#[test]
fn a_usage_error_without_json_is_text_on_stderr() {
    let run = run(&["frobnicate"]);
    assert_eq!(run.code, 2);
    assert_eq!(run.stdout, "");
    assert!(run.stderr.contains("frobnicate"), "{}", run.stderr);
}

/// `list --json` of a repository named with `-C`, in-process, is the very
/// document the binary prints for it.
#[test]
fn list_json_in_process_is_the_binarys_document() {
    let repo = TestRepo::new();
    repo.create("a");
    repo.create("b");
    repo.run(["mark", "b", "merged"]).ok();
    let root = repo.root.to_str().unwrap();
    let ours = run(&["-C", root, "--json", "list"]);
    assert_eq!(ours.code, 0, "{}", ours.stderr);
    let doc: serde_json::Value = serde_json::from_str(&ours.stdout).unwrap();
    assert_eq!(doc.ids("worktrees"), ["a", "b"], "{doc}");
    let binary = repo.run(["--json", "list"]);
    binary.ok();
    assert_eq!(ours.stdout, binary.stdout);
}
