//! Hostile text: terminal escapes and bidi overrides in patterns, stored
//! values, config and the environment are refused or printed inert; a
//! repository whose path is not UTF-8 is printed byte for byte in human
//! output and refused in JSON.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{Raw, TestRepo, assert_nothing_written, hermetic, run_in, run_raw};

/// Bytes that drive a terminal or reorder what it shows.
const RAW: [char; 6] = ['\x1b', '\x07', '\u{9b}', '\u{202e}', '\u{2066}', '\u{200f}'];

fn assert_inert(what: &str, text: &str) {
    for c in RAW {
        assert!(
            !text.contains(c),
            "{what}: U+{:04X} reached the terminal: {text:?}",
            c as u32
        );
    }
}

#[test]
fn create_refuses_a_pattern_with_control_characters() {
    let repo = TestRepo::new();
    for pattern in [
        "clip\x1b]52;c;aGVsbG8=\x07",
        "clear\x1b[2J",
        "two\nlines",
        "a\ttab",
        "del\x7f",
        "c1\u{9b}2J",
        "\r",
    ] {
        for json in [false, true] {
            let mut args = vec!["create", "x", "--pattern", pattern];
            if json {
                args.insert(0, "--json");
            }
            let run = run_raw(&repo, &args);
            run.code(2);
            assert_inert("stderr", &run.stderr());
            assert!(
                run.stderr().contains("invalid pattern")
                    && run.stderr().contains("control character"),
                "{}",
                run.stderr()
            );
            if json {
                assert_eq!(run.json()["error"]["code"], "invalid-pattern");
            } else {
                assert!(run.stdout.is_empty());
            }
            assert_nothing_written(&repo);
        }
    }
    // Not control characters: a label may hold any other text.
    let run = run_raw(
        &repo,
        &["create", "x", "--pattern", "étiquette \u{202e}rtl"],
    );
    run.code(0);
}

/// A pattern no command line can give any more, but a hand-written (or
/// older) manifest can hold: ESC sequences, a newline, a bidi override.
const EVIL: &str = "p\u{1b}]52;c;aGk=\u{7}\u{1b}[2J\nx\u{202e}y\u{9b}";

#[test]
fn human_output_escapes_stored_control_and_bidi_characters() {
    let repo = TestRepo::new();
    let entry = |id: &str| {
        serde_json::json!({
            "id": id, "path": format!(".loop-worktrees/{id}"), "branch": format!("loop/{id}"),
            "baseBranch": "main", "pattern": EVIL,
            "createdAt": "2026-01-01T00:00:00Z", "status": "rejected",
        })
    };
    let ids = ["a", "b\u{202e}c"];
    let manifest = serde_json::json!({"version": 1, "worktrees": ids.map(entry)});
    repo.write_manifest(&serde_json::to_string_pretty(&manifest).unwrap());
    let event = serde_json::json!({
        "at": "2026-01-01T00:00:00Z", "event": "skip", "id": "a",
        "code": format!("dirty{EVIL}"), "detail": EVIL,
    });
    let event2 = serde_json::json!({
        "at": "2026-01-01T00:00:01Z", "event": "mark", "id": "b\u{202e}c",
        "from": "active", "to": format!("rejected{EVIL}"),
    });
    std::fs::write(
        repo.loop_dir().join("events.jsonl"),
        format!("{event}\n{event2}\n"),
    )
    .unwrap();

    for args in [&["list"][..], &["list", "--long"]] {
        let run = run_raw(&repo, args);
        run.code(0);
        assert_inert("list", &run.both());
        let out = run.stdout();
        assert_eq!(
            out.lines().count(),
            1 + ids.len(),
            "one line per run: {out}"
        );
        assert!(out.contains("\\u{1b}]52;c;aGk=\\u{7}\\u{1b}[2J\\nx\\u{202e}y\\u{9b}"));
        assert!(out.contains("b\\u{202e}c"), "{out}");
    }
    let run = run_raw(&repo, &["log"]);
    run.code(0);
    assert_inert("log", &run.both());
    assert_eq!(run.stdout().lines().count(), 2, "{}", run.stdout());
    assert!(run.stdout().contains("\\u{1b}[2J"), "{}", run.stdout());

    // JSON keeps the values as stored (serde escapes the control characters).
    let listed = run_json(&repo, &["--json", "list"]);
    assert_eq!(listed["worktrees"][0]["pattern"], EVIL);
    assert_eq!(listed["worktrees"][1]["id"], ids[1]);
    let log = run_json(&repo, &["--json", "log"]);
    assert_eq!(log["events"][0]["detail"], EVIL);
}

fn run_json(repo: &TestRepo, args: &[&str]) -> serde_json::Value {
    let run = run_raw(repo, args);
    run.code(0);
    assert!(!run.stdout.contains(&0x1b), "serde escapes ESC in JSON");
    run.json()
}

fn run_env(repo: &TestRepo, args: &[&str], envs: &[(&str, &str)]) -> Raw {
    let args: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
    let envs: Vec<(&str, &OsStr)> = envs.iter().map(|(k, v)| (*k, OsStr::new(v))).collect();
    run_in(&repo.root, &repo.home, &args, &envs)
}

#[test]
fn config_trust_and_errors_escape_values_from_files_and_the_environment() {
    let repo = TestRepo::new();
    // A hook whose command would rewrite the screen it is shown on.
    std::fs::write(
        repo.root.join(".git-loop.toml"),
        "[create]\npost-command = \"true \\u001b[2K\\u001b[1Gecho harmless\\u202e\"\n",
    )
    .unwrap();
    let run = run_env(
        &repo,
        &["config"],
        &[("GIT_LOOP_BASE", &format!("main{EVIL}"))],
    );
    run.code(0);
    assert_inert("config", &run.both());
    // A header, then one line a setting.
    assert_eq!(run.stdout().lines().count(), 33, "{}", run.stdout());
    assert!(run.stdout().contains("\\u{1b}[2K"), "{}", run.stdout());

    let run = run_raw(&repo, &["trust"]);
    run.code(0);
    assert_inert("trust", &run.both());
    assert!(run.stdout().contains("\\u{1b}[2K"), "{}", run.stdout());

    // An error names the value it refuses, escaped.
    let run = run_raw(&repo, &["create", "x", "--pattern", "p", "--base", EVIL]);
    run.code(1);
    assert_inert("error", &run.both());
    assert!(
        run.stderr().contains("does not resolve"),
        "{}",
        run.stderr()
    );
}

/// A repository under a directory whose name holds byte 0xff (not UTF-8).
fn non_utf8_repo() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path().canonicalize().unwrap();
    let home = base.join("home");
    std::fs::create_dir_all(home.join(".config")).unwrap();
    std::fs::write(home.join("gitconfig"), "").unwrap();
    let root = base.join(OsStr::from_bytes(b"dir-\xff-name")).join("repo");
    std::fs::create_dir_all(&root).unwrap();
    let git = |args: &[&str]| {
        let mut cmd = Command::new("git");
        hermetic(&mut cmd, &home);
        let out = cmd.current_dir(&root).args(args).output().unwrap();
        assert!(out.status.success(), "{out:?}");
    };
    git(&["init", "-q", "-b", "main"]);
    std::fs::write(root.join("README"), "hello\n").unwrap();
    git(&["add", "README"]);
    git(&["commit", "-q", "-m", "initial"]);
    (tmp, home, root)
}

#[test]
fn a_non_utf8_repository_path_is_printed_byte_for_byte_and_refused_in_json() {
    let (_tmp, home, root) = non_utf8_repo();
    let run = |args: &[&str]| {
        let args: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
        run_in(&root, &home, &args, &[])
    };
    let mut expected = root.join(".loop-worktrees").join("x").into_os_string();
    expected.push("\n");

    let created = run(&["create", "x", "--pattern", "p"]);
    created.code(0);
    assert_eq!(
        created.stdout,
        expected.as_bytes(),
        "create prints the path's bytes"
    );
    assert!(
        Path::new(OsStr::from_bytes(
            &created.stdout[..created.stdout.len() - 1]
        ))
        .is_dir()
    );

    let path = run(&["path", "x"]);
    path.code(0);
    assert_eq!(
        path.stdout,
        expected.as_bytes(),
        "path prints the path's bytes"
    );

    // The absolute path cannot be a JSON string: one error document, nothing else.
    let json = run(&["--json", "path", "x"]);
    json.code(1);
    let doc = json.json();
    assert_eq!(doc["error"]["code"], "unrepresentable-path", "{doc}");
    assert_eq!(doc.as_object().unwrap().len(), 1, "{doc}");
    assert!(
        doc["error"]["message"]
            .as_str()
            .unwrap()
            .contains("dir-\u{fffd}-name"),
        "the message names the path: {doc}"
    );

    // Relative paths only: these work whatever the root holds.
    let list = run(&["--json", "list"]);
    list.code(0);
    assert_eq!(list.json()["worktrees"][0]["path"], ".loop-worktrees/x");
    let created = run(&["--json", "create", "y", "--pattern", "p"]);
    created.code(0);
    assert_eq!(created.json()["path"], ".loop-worktrees/y");
    let human = run(&["list"]);
    human.code(0);
    assert_eq!(human.stdout().lines().count(), 3);
}
