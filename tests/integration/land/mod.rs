//! `git loop land`: each strategy lands a run of several commits (authors,
//! dates and messages kept where the strategy keeps them), the target moves
//! by compare-and-swap, the main checkout is updated and clean, the run is
//! merged, its worktree removed and its branch tip kept reachable
//! (`strategies.rs`); every refusal changes nothing (`refusals.rs`); a
//! queue lands in `conflicts`' order, skipping what conflicts
//! (`queue.rs`), and removes each landed run's worktree behind it, a
//! refused removal said on its run (`removal.rs`).

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use crate::common::{TestRepo, git_line, git_ok, snapshot};

mod crash;
mod ignored;
mod inside;
mod merges;
mod push;
mod queue;
mod refusals;
mod remote_base;
mod removal;
mod strategies;

/// `script` run by `sh -c` in `dir`, as a person at a shell there runs
/// it: `git loop` is the binary under test (on PATH). Its exit code,
/// stdout and stderr.
pub fn shell(repo: &TestRepo, dir: &Path, script: &str) -> (i32, String, String) {
    let bin_dir = Path::new(crate::common::BIN).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut sh = std::process::Command::new("sh");
    crate::common::hermetic(&mut sh, &repo.home);
    let out = sh
        .env("PATH", path)
        .arg("-c")
        .arg(script)
        .current_dir(dir)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// A file of 20 numbered lines, so edits to different lines merge cleanly.
pub const LINES: &str = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n17\n18\n19\n20\n";

/// A repository whose main holds `f` (20 lines), `g`, and the ignore line
/// for `.loop-worktrees/` (so the main checkout stays clean).
pub fn setup() -> TestRepo {
    let repo = TestRepo::new();
    std::fs::write(repo.root.join("f"), LINES).unwrap();
    std::fs::write(repo.root.join("g"), "g\n").unwrap();
    std::fs::write(repo.root.join(".gitignore"), ".loop-worktrees/\n").unwrap();
    repo.git(["add", "."]);
    repo.git(["commit", "-q", "-m", "files"]);
    repo
}

/// One commit in `dir`: `file` written with `content`, by `author` at
/// `date`, with `message`.
pub fn commit_as(
    repo: &TestRepo,
    dir: &Path,
    file: &str,
    content: &str,
    author: &str,
    date: &str,
    message: &str,
) {
    if let Some(parent) = Path::new(file).parent() {
        std::fs::create_dir_all(dir.join(parent)).unwrap();
    }
    std::fs::write(dir.join(file), content).unwrap();
    git_ok(repo, dir, &["add", file]);
    git_ok(
        repo,
        dir,
        &[
            "commit", "-q", "--author", author, "--date", date, "-m", message,
        ],
    );
}

/// Run `id` with three commits by two authors on three dates, each adding
/// a file of its own; returns `(author, author date, message)` of each,
/// oldest first, as git shows them.
pub fn three_commits(repo: &TestRepo, id: &str) -> Vec<String> {
    repo.create(id);
    let wt = repo.wt(id);
    commit_as(
        repo,
        &wt,
        &format!("{id}/one"),
        "1\n",
        "Ada <ada@example.com>",
        "2026-02-01T10:00:00Z",
        "One: the first\n\nWith a body.",
    );
    commit_as(
        repo,
        &wt,
        &format!("{id}/two"),
        "2\n",
        "Bob <bob@example.com>",
        "2026-02-02T11:00:00Z",
        "Two",
    );
    commit_as(
        repo,
        &wt,
        &format!("{id}/three"),
        "3\n",
        "Ada <ada@example.com>",
        "2026-02-03T12:00:00Z",
        "Three",
    );
    authored(repo, &format!("loop/{id}"), 3)
}

/// `author|email|author date|message` of the newest `n` commits of `rev`,
/// oldest first.
pub fn authored(repo: &TestRepo, rev: &str, n: usize) -> Vec<String> {
    let log = repo.git([
        "log",
        "--reverse",
        "--no-merges",
        &format!("-{n}"),
        "--format=%an|%ae|%aI|%B%x00",
        rev,
    ]);
    log.split('\0')
        .map(|c| c.trim().to_owned())
        .filter(|c| !c.is_empty())
        .collect()
}

/// Change a tracked file on main in the main checkout and commit it, so
/// the target is not where the runs started.
pub fn advance_main(repo: &TestRepo, file: &str, content: &str) -> String {
    std::fs::write(repo.root.join(file), content).unwrap();
    repo.git(["add", file]);
    repo.git(["commit", "-q", "-m", &format!("main: {file}")]);
    git_line(repo, &repo.root, &["rev-parse", "main"])
}

pub fn rev(repo: &TestRepo, spec: &str) -> String {
    git_line(repo, &repo.root, &["rev-parse", spec])
}

/// Everything a refused landing must leave as it was: every ref, the main
/// checkout's index (bytes) and files, each registered worktree and its
/// files, the manifest (bytes), `refs/stash`.
#[derive(Debug, PartialEq, Eq)]
pub struct State {
    refs: String,
    index: Vec<u8>,
    files: BTreeMap<String, (String, Vec<u8>)>,
    worktrees: String,
    manifest: Option<Vec<u8>>,
}

pub fn state(repo: &TestRepo) -> State {
    let mut files: BTreeMap<_, _> = snapshot(&repo.root)
        .into_iter()
        .filter(|(p, _)| !p.starts_with(".loop-worktrees/"))
        .collect();
    for wt in repo.registered().into_iter().filter(|p| p != &repo.root) {
        for (p, v) in snapshot(&wt) {
            files.insert(format!("{}:{p}", wt.display()), v);
        }
    }
    State {
        refs: repo.git(["for-each-ref", "--format=%(refname) %(objectname)"]),
        index: std::fs::read(repo.root.join(".git/index")).unwrap(),
        files,
        worktrees: repo.git(["worktree", "list", "--porcelain"]),
        manifest: std::fs::read(repo.manifest_path()).ok(),
    }
}

/// The `land` command's JSON document (`--json land <args>`), with its exit
/// code checked.
pub fn land(repo: &TestRepo, args: &[&str], code: i32) -> Value {
    let mut all = vec!["--json", "land"];
    all.extend_from_slice(args);
    let run = repo.run(&all);
    run.code(code);
    run.json()
}

/// The events of run `id` in the log, as `kind` or `kind:code`/`kind:to`.
pub fn events_of(repo: &TestRepo, id: &str) -> Vec<String> {
    let log = repo.run(["--json", "log", id]);
    log.ok();
    log.json()["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let kind = e["event"].as_str().unwrap().to_owned();
            match (e["code"].as_str(), e["to"].as_str()) {
                (Some(code), _) => format!("{kind}:{code}"),
                (None, Some(to)) if kind == "mark" => format!("{kind}:{to}"),
                _ => kind,
            }
        })
        .collect()
}

/// The target's checkout is clean: nothing staged, changed or untracked.
pub fn assert_clean(repo: &TestRepo) {
    assert_eq!(
        repo.git(["status", "--porcelain"]),
        "",
        "the main checkout is not clean"
    );
}

/// `tip` is reachable from some ref (a branch, or the trash).
pub fn assert_reachable(repo: &TestRepo, tip: &str) {
    let holding = repo.git(["for-each-ref", "--contains", tip, "--format=%(refname)"]);
    assert!(!holding.trim().is_empty(), "{tip} is held by no ref");
}
