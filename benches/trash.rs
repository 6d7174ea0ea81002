//! The cost of the trash: `cargo bench --bench trash` (or `scripts/bench`).
//!
//! - `cleanup --delete-merged-branches` of 200 terminal runs whose branches
//!   are all merged into main (each run one commit of its own, main a line
//!   through all of them, so all 200 are deleted as `ancestor`), this
//!   binary against the binary of before the trash (the path in
//!   `GIT_LOOP_BENCH_BASELINE_BIN`, built from commit 6aae475; target ≤ 1.1),
//!   and both against plain git: 200 × `git worktree remove` and `git branch
//!   -D`. The three run on the same fixture, rebuilt untimed before each run
//!   (200 worktrees, branches, manifest; the trash emptied, so every run
//!   keeps 200 tips into an empty trash), interleaved new/old/git then
//!   git/old/new. Without the variable the old-binary row is skipped, saying
//!   so.
//! - `git loop trash empty` of 10,000 entries (refs named as
//!   `src/safety/trash.rs` names them, made untimed with `git update-ref
//!   --stdin`) against `git update-ref --stdin` deleting the same refs, and
//!   `git loop trash` listing them against `git for-each-ref` (reports).
//!
//! `BENCH_QUICK=1`: 3 iterations a row (a smoke run); `BENCH_ITERS=<n>`.

mod common;

use common::*;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

const RUNS: usize = 200;
const ENTRIES: usize = 10_000;

fn out(env: &Env, dir: &Path, args: &[&str]) -> String {
    let mut c = env.git(dir, args);
    c.stdout(Stdio::piped());
    let o = c.output().unwrap();
    assert!(
        o.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap().trim().to_owned()
}

/// `git update-ref --stdin` fed from `input` (a file of commands).
fn update_refs(env: &Env, repo: &Path, input: &Path) -> Command {
    let mut c = env.git(repo, &["update-ref", "--stdin"]);
    c.stdin(std::fs::File::open(input).unwrap());
    c
}

fn count_refs(env: &Env, repo: &Path, prefix: &str) -> usize {
    out(env, repo, &["for-each-ref", "--format=%(refname)", prefix])
        .lines()
        .count()
}

/// The 200 run commits: c_i adds `runs/f<i>.txt` on c_{i-1}; main ends at
/// c_199, so every branch `loop/run-<i>` (at c_i) is an ancestor of main.
fn build_runs(env: &Env, repo: &Path) -> Vec<String> {
    init_repo(env, repo, 20);
    let mut parent = out(env, repo, &["rev-parse", "main"]);
    let index = repo.join(".git/bench-index");
    let mut read = env.git(repo, &["read-tree", &parent]);
    read.env("GIT_INDEX_FILE", &index);
    run(read);
    let mut tips = Vec::new();
    for i in 0..RUNS {
        let path = repo.join(".bench-blob");
        std::fs::write(&path, format!("run {i}\n")).unwrap();
        let blob = out(env, repo, &["hash-object", "-w", ".bench-blob"]);
        std::fs::remove_file(path).unwrap();
        let mut add = env.git(
            repo,
            &[
                "update-index",
                "--add",
                "--cacheinfo",
                &format!("100644,{blob},runs/f{i}.txt"),
            ],
        );
        add.env("GIT_INDEX_FILE", &index);
        run(add);
        let mut write = env.git(repo, &["write-tree"]);
        write.env("GIT_INDEX_FILE", &index).stdout(Stdio::piped());
        let tree = String::from_utf8(write.output().unwrap().stdout)
            .unwrap()
            .trim()
            .to_owned();
        parent = out(
            env,
            repo,
            &[
                "commit-tree",
                &tree,
                "-p",
                &parent,
                "-m",
                &format!("run {i}"),
            ],
        );
        tips.push(parent.clone());
    }
    run(env.git(repo, &["update-ref", "refs/heads/main", &parent]));
    run(env.git(repo, &["reset", "-q", "--hard", "main"]));
    tips
}

/// Untimed: the 200 branches at their tips, a worktree on each, the
/// manifest recording them `merged`, the trash empty.
fn prepare(env: &Env, repo: &Path, tips: &[String], scratch: &Path) {
    let mut input = String::new();
    for (i, tip) in tips.iter().enumerate() {
        input.push_str(&format!("create refs/heads/loop/run-{i} {tip}\n"));
    }
    for r in out(
        env,
        repo,
        &["for-each-ref", "--format=%(refname)", "refs/loop/trash/"],
    )
    .lines()
    {
        input.push_str(&format!("delete {r}\n"));
    }
    let file = scratch.join("prepare.stdin");
    std::fs::write(&file, input).unwrap();
    run(update_refs(env, repo, &file));
    for i in 0..RUNS {
        run(env.git(
            repo,
            &[
                "worktree",
                "add",
                "-q",
                "--",
                &format!(".loop-worktrees/run-{i}"),
                &format!("loop/run-{i}"),
            ],
        ));
    }
    write_manifest(repo, RUNS, "merged");
    let _ = Command::new("sync").status();
}

/// Untimed: every run's worktree and branch are gone, each branch's tip in
/// the trash when `trash` (the new binary).
fn check_deleted(env: &Env, repo: &Path, trash: bool, who: &str) {
    assert_eq!(
        count_refs(env, repo, "refs/heads/loop/"),
        0,
        "{who} left branches"
    );
    let registered = out(env, repo, &["worktree", "list", "--porcelain"])
        .lines()
        .filter(|l| l.starts_with("worktree "))
        .count();
    assert_eq!(registered, 1, "{who} left worktrees");
    if trash {
        assert_eq!(
            count_refs(env, repo, "refs/loop/trash/"),
            RUNS,
            "{who}: trash"
        );
    }
}

fn baseline_bin() -> Option<PathBuf> {
    std::env::var_os("GIT_LOOP_BENCH_BASELINE_BIN").map(PathBuf::from)
}

/// The rows; the skipped row's reason, when there is no old binary.
fn cleanup_rows(env: &Env, base: &Path, rows: &mut Vec<Row>, n: usize) -> Option<(String, String)> {
    let repo = base.join("c200");
    let tips = build_runs(env, &repo);
    let old = baseline_bin();
    let args = ["cleanup", "--status", "merged", "--delete-merged-branches"];
    let time_new = || {
        prepare(env, &repo, &tips, base);
        let d = timed(env.gl(&repo, &args));
        check_deleted(env, &repo, true, "git-loop");
        d
    };
    let time_old = |bin: &Path| {
        prepare(env, &repo, &tips, base);
        let mut c = env.cmd(bin.to_str().unwrap(), &repo);
        c.args(args);
        let d = timed(c);
        check_deleted(env, &repo, false, "the old git-loop");
        d
    };
    let time_git = || {
        prepare(env, &repo, &tips, base);
        let t = Instant::now();
        for i in 0..RUNS {
            run(env.git(
                &repo,
                &[
                    "worktree",
                    "remove",
                    "--",
                    &format!(".loop-worktrees/run-{i}"),
                ],
            ));
            run(env.git(&repo, &["branch", "-D", &format!("loop/run-{i}")]));
        }
        let d = t.elapsed();
        check_deleted(env, &repo, false, "git");
        d
    };
    let (mut new, mut was, mut git) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..n {
        if i % 2 == 0 {
            new.push(time_new());
            if let Some(bin) = &old {
                was.push(time_old(bin));
            }
            git.push(time_git());
        } else {
            git.push(time_git());
            if let Some(bin) = &old {
                was.push(time_old(bin));
            }
            new.push(time_new());
        }
    }
    let new = median(&mut new);
    let git = median(&mut git);
    let scenario = format!("cleanup --delete-merged-branches, {RUNS} merged runs");
    let skipped = match old {
        Some(bin) => {
            let was = median(&mut was);
            rows.push(Row {
                scenario: format!("{scenario} (trash) vs before the trash"),
                ours: new,
                base: was,
                target: Some(1.1),
                note: format!(
                    "baseline: the same command by the binary of before the trash ({}); each run keeps {RUNS} tips into an empty trash",
                    bin.file_name().and_then(|f| f.to_str()).unwrap_or("?")
                ),
            });
            rows.push(Row {
                scenario: format!("{scenario}, before the trash"),
                ours: was,
                base: git,
                target: None,
                note: format!("baseline: {RUNS} × git worktree remove + git branch -D"),
            });
            None
        }
        None => Some((
            format!("{scenario} (trash) vs before the trash"),
            "GIT_LOOP_BENCH_BASELINE_BIN not set (the binary built from 6aae475)".to_owned(),
        )),
    };
    rows.push(Row {
        scenario,
        ours: new,
        base: git,
        target: None,
        note: format!(
            "baseline: {RUNS} × git worktree remove + git branch -D (fixture setup untimed)"
        ),
    });
    skipped
}

fn empty_rows(env: &Env, base: &Path, rows: &mut Vec<Row>, n: usize) {
    let repo = base.join("trash10k");
    init_repo(env, &repo, 1);
    let tip = out(env, &repo, &["rev-parse", "main"]);
    let name = |i: usize| {
        format!(
            "refs/loop/trash/20261101T{:02}{:02}{:02}Z/merged-squash/heads/loop/run-{i}",
            (i / 3600) % 24,
            (i / 60) % 60,
            i % 60
        )
    };
    let create = base.join("create.stdin");
    let delete = base.join("delete.stdin");
    std::fs::write(
        &create,
        (0..ENTRIES)
            .map(|i| format!("create {} {tip}\n", name(i)))
            .collect::<String>(),
    )
    .unwrap();
    std::fs::write(
        &delete,
        (0..ENTRIES)
            .map(|i| format!("delete {} {tip}\n", name(i)))
            .collect::<String>(),
    )
    .unwrap();
    let fill = || {
        run(update_refs(env, &repo, &create));
        assert_eq!(count_refs(env, &repo, "refs/loop/trash/"), ENTRIES);
        let _ = Command::new("sync").status();
    };
    let emptied = |who: &str| {
        assert_eq!(count_refs(env, &repo, "refs/loop/trash/"), 0, "{who}");
    };
    // git-loop reads every entry as its own.
    fill();
    let mut list = env.gl(&repo, &["--json", "trash"]);
    list.stdout(Stdio::piped());
    let doc = String::from_utf8(list.output().unwrap().stdout).unwrap();
    assert_eq!(doc.matches("\"kind\":\"branch\"").count(), ENTRIES);
    let (o, b) = compare(
        n,
        |_| timed(env.gl(&repo, &["trash"])),
        |_| timed(env.git(&repo, &["for-each-ref", "refs/loop/trash/"])),
        |_| {},
    );
    rows.push(Row {
        scenario: format!("trash (list), {ENTRIES} entries"),
        ours: o,
        base: b,
        target: None,
        note: "baseline: git for-each-ref refs/loop/trash/ (loose refs)".into(),
    });
    run(update_refs(env, &repo, &delete));
    let (o, b) = compare(
        n,
        |_| {
            fill();
            let d = timed(env.gl(&repo, &["trash", "empty"]));
            emptied("trash empty");
            d
        },
        |_| {
            fill();
            let d = timed(update_refs(env, &repo, &delete));
            emptied("update-ref");
            d
        },
        |_| {},
    );
    rows.push(Row {
        scenario: format!("trash empty, {ENTRIES} entries"),
        ours: o,
        base: b,
        target: None,
        note: format!(
            "baseline: one git update-ref --stdin deleting the {ENTRIES} refs (loose); git-loop also logs {ENTRIES} trash-expire events"
        ),
    });
}

fn main() {
    let n = iters(5, 3);
    let (_tmp, base, env) = setup();
    let mut rows = Vec::new();
    eprintln!("cleanup of {RUNS} merged runs: new, old and plain git, {n} iterations each…");
    let skipped = cleanup_rows(&env, &base, &mut rows, n);
    eprintln!("trash of {ENTRIES} entries: list and empty, {n} iterations each…");
    empty_rows(&env, &base, &mut rows, n);
    print_rows(&rows);
    if let Some((scenario, why)) = skipped {
        print_skipped(&scenario, &why);
    }
}
