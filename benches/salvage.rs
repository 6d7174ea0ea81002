//! The cost of a salvage: `git loop remove --salvage` of a worktree with
//! 1,000 changed files (800 modified, 100 staged, 100 untracked) against
//! git's own `git stash push --include-untracked` of the same changes, and
//! against `stash` followed by `git worktree remove` (the same end state
//! by hand: work saved, worktree gone). `cargo bench --bench salvage`;
//! `BENCH_QUICK=1` for a smoke run.

mod common;

use common::*;
use std::path::Path;

/// 1,000 changed files in the worktree at `wt` (of a 1,000-file fixture).
fn dirty(env: &Env, wt: &Path, round: usize) {
    for i in 0..900 {
        let f = wt.join(format!("d{}/f{i}.txt", i / 100));
        std::fs::write(&f, format!("file {i}\nchanged in round {round}\n")).unwrap();
    }
    let staged: Vec<String> = (800..900)
        .map(|i| format!("d{}/f{i}.txt", i / 100))
        .collect();
    let mut add = env.git(wt, &["add", "--"]);
    add.args(&staged);
    run(add);
    std::fs::create_dir_all(wt.join("new")).unwrap();
    for i in 0..100 {
        std::fs::write(wt.join(format!("new/u{i}.txt")), format!("untracked {i}\n")).unwrap();
    }
}

fn main() {
    let it = if quick() { 3 } else { 11 };
    let (_tmp, base, env) = setup();
    let repo = base.join("repo");
    init_repo(&env, &repo, 1000);
    let mut rows = Vec::new();

    let ours_run = |i: usize| {
        let id = format!("s{i}");
        run(env.gl(&repo, &["create", &id, "--pattern", "bench"]));
        dirty(&env, &repo.join(".loop-worktrees").join(&id), i);
        run(env.gl(&repo, &["mark", &id, "rejected"]));
        timed(env.gl(&repo, &["remove", "--salvage", &id]))
    };
    let stash_setup = |i: usize, name: &str| {
        let rel = format!(".loop-worktrees/{name}{i}");
        run(env.git(
            &repo,
            &[
                "worktree",
                "add",
                "-q",
                "-b",
                &format!("{name}{i}"),
                "--",
                &rel,
                "main",
            ],
        ));
        let wt = repo.join(&rel);
        dirty(&env, &wt, i);
        wt
    };
    let (o, b) = compare(
        it,
        ours_run,
        |i| {
            let wt = stash_setup(i, "b");
            timed(env.git(&wt, &["stash", "push", "-q", "--include-untracked"]))
        },
        |i| drop_worktree(&env, &repo, &format!(".loop-worktrees/b{i}")),
    );
    rows.push(Row {
        scenario: "remove --salvage, 1,000 changed files".into(),
        ours: o,
        base: b,
        target: None,
        note: "git stash push --include-untracked (saves only; the worktree stays)".into(),
    });
    let (o, b) = compare(
        it,
        |i| ours_run(i + 1000),
        |i| {
            let wt = stash_setup(i, "c");
            let rel = format!(".loop-worktrees/c{i}");
            timed(env.git(&wt, &["stash", "push", "-q", "--include-untracked"]))
                + timed(env.git(&repo, &["worktree", "remove", "--", &rel]))
        },
        |_| {},
    );
    rows.push(Row {
        scenario: "remove --salvage, 1,000 changed files".into(),
        ours: o,
        base: b,
        target: None,
        note: "git stash push --include-untracked, then git worktree remove".into(),
    });
    print_rows(&rows);
}
