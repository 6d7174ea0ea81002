//! Warm runs on a 100,000-file repository: `scripts/bench` (or `cargo bench
//! --bench pool`). Rows, each interleaved ABBA, medians and their ratio:
//!
//! - `create` from a ready pool member against `git worktree add -b` (target
//!   ≤ 0.05). Before each timed create one member is prepared (`git loop pool
//!   fill 1`, untimed), so every create finds a ready member.
//! - plain `create` (pool drained) against `git worktree add -b` (≤ 1.05).
//! - `create` against worktrunk's `wt switch --create`, when `wt` is on PATH
//!   (otherwise the row is skipped with the reason printed).
//! - recycle-then-create (`cleanup --recycle` of a clean rejected run, then
//!   `create`, which takes the recycled member) against remove-then-create
//!   (`cleanup`, then a plain `create`). Each side's victim is the run its
//!   previous create made, marked `rejected` untimed.
//!
//! Fixture building is untimed. `BENCH_QUICK=1`: a 5,000-file repository and
//! 2 iterations (a smoke run); `BENCH_FILES=<n>` sets the repository size,
//! `BENCH_ITERS=<n>` the iterations of every row.

mod common;

use common::*;
use std::path::Path;
use std::time::{Duration, Instant};

fn git_add(env: &Env, repo: &Path, name: &str) -> Duration {
    let rel = format!(".loop-worktrees/{name}");
    timed(env.git(
        repo,
        &["worktree", "add", "-q", "-b", name, "--", &rel, "main"],
    ))
}

fn create(env: &Env, repo: &Path, id: &str) -> Duration {
    timed(env.gl(repo, &["create", id, "--pattern", "bench"]))
}

fn files_label(files: usize) -> String {
    if files.is_multiple_of(1000) {
        format!("{}k-file repo", files / 1000)
    } else {
        format!("{files}-file repo")
    }
}

fn main() {
    let files: usize = std::env::var("BENCH_FILES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if quick() { 5_000 } else { 100_000 });
    let label = files_label(files);
    let n = iters(3, 2);
    let (_tmp, base, env) = setup();
    eprintln!("building a {files}-file fixture in a temporary directory…");
    let t = Instant::now();
    let repo = base.join("big");
    init_repo(&env, &repo, files);
    run(env.git(&repo, &["config", "loop.poolSize", "1"]));
    run(env.gl(&repo, &["pool", "fill", "1"]));
    eprintln!("fixture ready in {}", ms(t.elapsed()));
    let mut rows = Vec::new();
    let mut skipped: Vec<(String, String)> = Vec::new();

    // 1. create from a ready member against git worktree add.
    let mut fills: Vec<Duration> = Vec::new();
    let (pooled, git) = compare(
        n,
        |i| create(&env, &repo, &format!("o{i}")),
        |i| git_add(&env, &repo, &format!("b{i}")),
        |i| {
            drop_worktree(&env, &repo, &format!(".loop-worktrees/o{i}"));
            drop_worktree(&env, &repo, &format!(".loop-worktrees/b{i}"));
            fills.push(timed(env.gl(&repo, &["pool", "fill", "1"])));
        },
    );
    let _ = std::fs::remove_file(repo.join(".loop-worktrees/manifest.json"));
    eprintln!("row 1 done");
    rows.push(Row {
        scenario: format!("create from a ready pool, {label}"),
        ours: pooled,
        base: git,
        target: Some(0.05),
        note: format!(
            "`git worktree add -b`; preparing the member (`pool fill 1`, untimed) took {}",
            ms(median(&mut fills))
        ),
    });
    run(env.gl(&repo, &["pool", "drain"]));

    // 2. plain create (no pool member) against git worktree add.
    let (plain, git_plain) = compare(
        n,
        |i| create(&env, &repo, &format!("p{i}")),
        |i| git_add(&env, &repo, &format!("c{i}")),
        |i| {
            drop_worktree(&env, &repo, &format!(".loop-worktrees/p{i}"));
            drop_worktree(&env, &repo, &format!(".loop-worktrees/c{i}"));
        },
    );
    let _ = std::fs::remove_file(repo.join(".loop-worktrees/manifest.json"));
    eprintln!("row 2 done");
    rows.push(Row {
        scenario: format!("plain create (pool empty), {label}"),
        ours: plain,
        base: git_plain,
        target: Some(1.05),
        note: "`git worktree add -b`".into(),
    });

    // 3. worktrunk, when installed.
    if wt_on_path() {
        let (o, b) = compare(
            n,
            |i| create(&env, &repo, &format!("q{i}")),
            |i| {
                let mut c = env.cmd("wt", &repo);
                c.args(["switch", "--create", &format!("wt{i}")]);
                timed(c)
            },
            |i| {
                drop_worktree(&env, &repo, &format!(".loop-worktrees/q{i}"));
                if let Some(p) = worktree_of_branch(&env, &repo, &format!("wt{i}")) {
                    let _ = std::fs::remove_dir_all(&p);
                    run(env.git(&repo, &["worktree", "prune"]));
                }
            },
        );
        let _ = std::fs::remove_file(repo.join(".loop-worktrees/manifest.json"));
        rows.push(Row {
            scenario: format!("plain create vs worktrunk, {label}"),
            ours: o,
            base: b,
            target: None,
            note: "`wt switch --create`".into(),
        });
    } else {
        skipped.push((
            format!("create vs worktrunk, {label}"),
            "worktrunk (`wt`) is not on PATH (cargo install --locked worktrunk)".into(),
        ));
    }

    // 4. recycle-then-create against remove-then-create. The victims: one
    // clean run per side, made untimed; then each side's create makes the
    // next victim.
    run(env.gl(&repo, &["create", "rv0", "--pattern", "bench"]));
    run(env.gl(&repo, &["create", "dv0", "--pattern", "bench"]));
    let mark = |id: &str| run(env.gl(&repo, &["mark", id, "rejected"]));
    let (recycle, remove) = compare(
        n,
        |i| {
            mark(&format!("rv{i}"));
            let t = Instant::now();
            run(env.gl(&repo, &["cleanup", "--recycle"]));
            run(env.gl(
                &repo,
                &["create", &format!("rv{}", i + 1), "--pattern", "bench"],
            ));
            t.elapsed()
        },
        |i| {
            mark(&format!("dv{i}"));
            let t = Instant::now();
            run(env.gl(&repo, &["cleanup"]));
            run(env.gl(
                &repo,
                &["create", &format!("dv{}", i + 1), "--pattern", "bench"],
            ));
            t.elapsed()
        },
        |_| {},
    );
    eprintln!("row 4 done");
    rows.push(Row {
        scenario: format!("recycle-then-create, {label}"),
        ours: recycle,
        base: remove,
        target: None,
        note: "`cleanup` (remove) then plain `create`; both of a clean rejected run".into(),
    });

    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!("\n## warm runs ({cores} cores, {n} interleaved pairs per row)\n");
    print_rows(&rows);
    for (scenario, why) in &skipped {
        print_skipped(scenario, why);
    }
}
