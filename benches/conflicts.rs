//! `git loop conflicts` against `git merge-tree`: `cargo bench --bench
//! conflicts` (or `scripts/bench`, which runs every target).
//!
//! Fixture: a 10,000-file repository, 30 active runs (435 pairs) on
//! `main`, each run a commit editing 10 files of its own and one of five
//! shared "hot" files (so the six runs sharing one conflict pairwise: 75
//! conflicting pairs), and `main` moved on afterwards, editing files three
//! runs edit too (three runs conflict with the base).
//!
//! Baseline: what a script gets from plain git for the same answer — `git
//! merge-tree --write-tree main loop/<run>` per run (conflicts with the
//! base), then `git merge-tree --write-tree --merge-base=main loop/<a>
//! loop/<b>` per pair (a three-way merge of the pair over the base), one
//! process after another. git-loop's pair merge is the stricter "second
//! run into the base with the first landed", and its own per-run merges
//! into the base are counted in its time too. Target: at most 0.5 of git's
//! time. `BENCH_QUICK=1` runs fewer iterations.

mod common;

use common::*;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

const RUNS: usize = 30;
const FILES: usize = 10_000;

fn main() {
    let it = if quick() { 1 } else { 5 };
    let (_tmp, base, env) = setup();
    eprintln!("building the fixture in a temporary directory…");
    let repo = base.join("big");
    init_repo(&env, &repo, FILES);
    make_runs(&env, &repo);
    write_manifest(&repo, RUNS, "active");

    // Check the fixture says what it should before timing it.
    let out = env
        .gl(&repo, &["--json", "conflicts"])
        .stdout(Stdio::piped())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["pairsChecked"], RUNS * (RUNS - 1) / 2);
    let pairs = v["pairs"].as_array().unwrap().len();
    let with_base = v["runs"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| !r["baseConflicts"].as_array().unwrap().is_empty())
        .count();
    eprintln!("fixture: {pairs} conflicting pairs, {with_base} runs conflicting with the base");

    let branches: Vec<String> = (0..RUNS).map(|i| format!("loop/run-{i}")).collect();
    let (o, b) = compare(
        it,
        |_| timed(env.gl(&repo, &["--json", "conflicts"])),
        |_| git_script(&env, &repo, &branches),
        |_| {},
    );
    let rows = [Row {
        scenario: format!(
            "conflicts, {RUNS} runs ({} pairs), 10k files",
            RUNS * (RUNS - 1) / 2
        ),
        ours: o,
        base: b,
        target: Some(0.5),
        note: format!(
            "baseline: git merge-tree --write-tree per run ({RUNS}) and per pair with --merge-base=main, sequential; {} cores",
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        ),
    }];
    print_rows(&rows);
}

/// The baseline: one `git merge-tree --write-tree` per run into `main`,
/// then one per pair over `main`. Exit 1 is a conflict, not a failure.
fn git_script(env: &Env, repo: &Path, branches: &[String]) -> Duration {
    let merge_tree = |args: &[&str]| {
        let mut c = env.git(repo, &["merge-tree", "--write-tree", "--name-only"]);
        c.args(args);
        let out = c.output().expect("spawn git");
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "git merge-tree {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    let t = Instant::now();
    for b in branches {
        merge_tree(&["main", b]);
    }
    for (i, a) in branches.iter().enumerate() {
        for b in &branches[i + 1..] {
            merge_tree(&["--merge-base=main", a, b]);
        }
    }
    t.elapsed()
}

/// One commit per run on `loop/run-<i>` from `main`, then a commit on
/// `main`: written with one `git fast-import`.
fn make_runs(env: &Env, repo: &Path) {
    let mut stream = String::new();
    let commit = |stream: &mut String, branch: &str, from: &str, files: &[(usize, String)]| {
        let _ = writeln!(
            stream,
            "commit {branch}\ncommitter Bench <bench@example.com> 1767225600 +0000\ndata 5\nbench\nfrom {from}"
        );
        for (n, text) in files {
            let _ = writeln!(
                stream,
                "M 100644 inline d{}/f{n}.txt\ndata {}\n{text}",
                n / 100,
                text.len()
            );
        }
        stream.push('\n');
    };
    for i in 0..RUNS {
        let mut files: Vec<(usize, String)> = (0..10)
            .map(|k| {
                let n = 100 + i * 10 + k;
                (n, format!("file {n}\nedited by run {i}\n"))
            })
            .collect();
        // The hot files 0..5: runs i and j conflict when i % 5 == j % 5.
        files.push((i % 5, format!("file {}\nhot edit by run {i}\n", i % 5)));
        commit(
            &mut stream,
            &format!("refs/heads/loop/run-{i}"),
            "refs/heads/main^0",
            &files,
        );
    }
    // main moves on: one file of runs 0, 1 and 2 each.
    let files: Vec<(usize, String)> = [100, 110, 120]
        .into_iter()
        .map(|n| (n, format!("file {n}\nedited on main\n")))
        .collect();
    commit(&mut stream, "refs/heads/main", "refs/heads/main^0", &files);
    let mut c = env.git(repo, &["fast-import", "--quiet"]);
    let mut child = c.stdin(Stdio::piped()).spawn().unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stream.as_bytes())
        .unwrap();
    assert!(child.wait().unwrap().success());
    // fast-import moved main under the checked-out worktree: put it back.
    run(env.git(repo, &["reset", "-q", "--hard", "main"]));
}
