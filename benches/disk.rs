//! `git loop list --disk` against what a user types to see the same sizes:
//! `du -s` of each worktree, one after another: `cargo bench --bench disk`.
//!
//! Fixture: the 10,000-file repository and a manifest of 50 runs, each
//! directory `.loop-worktrees/run-<i>` a copy of the main checkout's files
//! (`cp -a`, untimed: a checkout of the same 10,000 files, as `git
//! worktree add` writes them, without 50 × the checkout's time on this
//! machine) with a `.git` file. One row, interleaved in one process tree
//! (ABBA, `sync` between pairs), medians, the page cache warm for both
//! (each side reads the same inodes). Target: at most 1.0 of `du`'s time.
//! `BENCH_QUICK=1` runs one pair; `BENCH_ITERS=<n>` sets the count.

mod common;

use common::*;
use std::path::Path;
use std::process::Command;

const FILES: usize = 10_000;
const RUNS: usize = 50;

fn main() {
    let (_tmp, base, env) = setup();
    eprintln!("building the fixture in a temporary directory…");
    let repo = base.join("big");
    init_repo(&env, &repo, FILES);
    write_manifest(&repo, RUNS, "active");
    let dirs: Vec<_> = (0..FILES.div_ceil(100))
        .map(|d| repo.join(format!("d{d}")))
        .collect();
    let mut worktrees = Vec::new();
    for i in 0..RUNS {
        let wt = repo.join(format!(".loop-worktrees/run-{i}"));
        std::fs::create_dir_all(&wt).unwrap();
        let mut cp = Command::new("cp");
        cp.arg("-a").args(&dirs).arg(&wt);
        run(cp);
        std::fs::write(wt.join(".git"), "gitdir: elsewhere\n").unwrap();
        worktrees.push(wt);
    }
    // Both sides agree on the total (du -s in bytes, against diskBytes).
    check_agree(&env, &repo, &worktrees);
    // Warm the cache for both.
    run(env.gl(&repo, &["list", "--disk"]));
    let it = iters(7, 1);
    let (o, b) = compare(
        it,
        |_| timed(env.gl(&repo, &["list", "--disk"])),
        |_| {
            let t = std::time::Instant::now();
            for wt in &worktrees {
                let mut du = env.cmd("du", &repo);
                du.arg("-s").arg(wt);
                run(du);
            }
            t.elapsed()
        },
        |_| {},
    );
    let rows = vec![Row {
        scenario: format!("list --disk, {RUNS} worktrees × 10k files"),
        ours: o,
        base: b,
        target: Some(1.0),
        note: format!(
            "baseline: du -s of each worktree, one after another; {it} iterations, {} threads",
            std::thread::available_parallelism().map_or(1, |n| n.get())
        ),
    }];
    print_rows(&rows);
}

/// `list --disk --json`'s total equals `du -s -B1`'s over the worktrees.
fn check_agree(env: &Env, repo: &Path, worktrees: &[std::path::PathBuf]) {
    let mut c = env.gl(repo, &["--json", "list", "--disk"]);
    c.stdout(std::process::Stdio::piped());
    let out = c.output().unwrap();
    assert!(out.status.success(), "list --disk failed");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let ours: u64 = doc["worktrees"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["diskBytes"].as_u64().unwrap())
        .sum();
    let mut du = env.cmd("du", repo);
    du.arg("-scB1").args(worktrees);
    du.stdout(std::process::Stdio::piped());
    let text = String::from_utf8(du.output().unwrap().stdout).unwrap();
    let total: u64 = text
        .lines()
        .last()
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert_eq!(ours, total, "list --disk and du -s disagree");
}
