//! git-loop against plain git, side by side: `scripts/bench` (or
//! `cargo bench --bench compare`). Builds release, makes its own fixtures in
//! a temporary directory, runs each scenario interleaved with its baseline
//! (ABBA order, so drift hits both), and prints medians and ratios.
//!
//! `BENCH_QUICK=1` runs fewer iterations (a smoke run).

mod common;

use common::*;
use std::fmt::Write as _;
use std::process::Command;
use std::time::{Duration, Instant};

fn main() {
    let quick = std::env::var_os("BENCH_QUICK").is_some();
    let it = |full: usize| if quick { 3.min(full) } else { full };
    let (_tmp, base, env) = setup();
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let git_version = String::from_utf8(
        Command::new("git")
            .arg("--version")
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    eprintln!("building fixtures in a temporary directory…");

    let tiny = base.join("tiny");
    init_repo(&env, &tiny, 1);
    let big = base.join("big");
    init_repo(&env, &big, 10_000);
    let mut rows: Vec<Row> = Vec::new();

    // create on the 10k-file repo, and on the tiny repo.
    for (name, repo, n, target) in [
        ("create, 10k-file repo", &big, it(9), 1.05),
        ("create, tiny repo", &tiny, it(21), 1.5),
    ] {
        let (o, b) = compare(
            n,
            |i| timed(env.gl(repo, &["create", &format!("o{i}"), "--pattern", "bench"])),
            |i| {
                timed(env.git(
                    repo,
                    &[
                        "worktree",
                        "add",
                        "-q",
                        "-b",
                        &format!("b{i}"),
                        "--",
                        &format!(".loop-worktrees/b{i}"),
                        "main",
                    ],
                ))
            },
            |i| {
                drop_worktree(&env, repo, &format!(".loop-worktrees/o{i}"));
                drop_worktree(&env, repo, &format!(".loop-worktrees/b{i}"));
            },
        );
        rows.push(Row {
            scenario: name.into(),
            ours: o,
            base: b,
            target: Some(target),
            note: "baseline: git worktree add -b".into(),
        });
        let _ = std::fs::remove_file(repo.join(".loop-worktrees/manifest.json"));
    }

    // 16 concurrent creates vs 16 sequential adds, 10k-file repo.
    {
        let mut failures = 0;
        let rounds = it(5);
        let (o, b) = compare(
            rounds,
            |r| {
                let t = Instant::now();
                let children: Vec<_> = (0..16)
                    .map(|k| {
                        env.gl(
                            &big,
                            &["create", &format!("c{r}-{k}"), "--pattern", "bench"],
                        )
                        .spawn()
                        .unwrap()
                    })
                    .collect();
                for c in children {
                    if !c.wait_with_output().unwrap().status.success() {
                        failures += 1;
                    }
                }
                t.elapsed()
            },
            |r| {
                let t = Instant::now();
                for k in 0..16 {
                    run(env.git(
                        &big,
                        &[
                            "worktree",
                            "add",
                            "-q",
                            "-b",
                            &format!("s{r}-{k}"),
                            "--",
                            &format!(".loop-worktrees/s{r}-{k}"),
                            "main",
                        ],
                    ));
                }
                t.elapsed()
            },
            |r| {
                for k in 0..16 {
                    let _ = std::fs::remove_dir_all(big.join(format!(".loop-worktrees/c{r}-{k}")));
                    let _ = std::fs::remove_dir_all(big.join(format!(".loop-worktrees/s{r}-{k}")));
                }
                run(env.git(&big, &["worktree", "prune"]));
            },
        );
        rows.push(Row {
            scenario: "16 concurrent creates, 10k-file repo".into(),
            ours: o,
            base: b,
            target: Some(0.8),
            note: format!(
                "baseline: 16 sequential git worktree add; {failures} failures in {} creates",
                rounds * 16
            ),
        });
        let _ = std::fs::remove_file(big.join(".loop-worktrees/manifest.json"));
    }

    // Reads and mark at 1k and 10k entries.
    let mut scaling = String::new();
    for (entries, target) in [(1_000usize, 2.0), (10_000, 6.0)] {
        let repo = base.join(format!("m{entries}"));
        init_repo(&env, &repo, 1);
        write_manifest(&repo, entries, "active");
        // `path` refuses a run whose directory is gone: give run-500 one.
        std::fs::create_dir_all(repo.join(".loop-worktrees/run-500")).unwrap();
        let n = it(31);
        let mut per_command = Vec::new();
        for (name, args) in [
            ("list", vec!["list"]),
            ("list --json", vec!["--json", "list"]),
            ("path", vec!["path", "run-500"]),
            ("mark", vec!["mark", "run-500", "merged"]),
        ] {
            if name == "mark" && entries == 1_000 {
                // Reported for scaling only below.
            }
            let (o, b) = compare(
                n,
                |i| {
                    let mut a = args.clone();
                    let status = if i % 2 == 0 { "merged" } else { "stale" };
                    if name == "mark" {
                        a[2] = status;
                    }
                    timed(env.gl(&repo, &a))
                },
                |_| timed(env.git(&repo, &["rev-parse", "--show-toplevel"])),
                |_| {},
            );
            per_command.push((name, o));
            if entries == 10_000 || name != "mark" {
                rows.push(Row {
                    scenario: format!("{name}, {entries} entries"),
                    ours: o,
                    base: b,
                    target: Some(target),
                    note: "baseline: git rev-parse --show-toplevel".into(),
                });
            }
        }
        for (name, d) in per_command {
            let _ = writeln!(scaling, "  {name:<12} {entries:>6} entries: {}", ms(d));
        }
        if entries == 10_000 {
            for (name, args) in [
                ("list", vec!["list"]),
                ("path", vec!["path", "run-500"]),
                ("mark", vec!["mark", "run-500", "stale"]),
            ] {
                match peak_rss_kib(&env, &repo, &args) {
                    Some(kib) => {
                        let _ = writeln!(
                            scaling,
                            "  {name:<12} peak memory at 10000 entries: {:.1} MiB",
                            kib as f64 / 1024.0
                        );
                    }
                    None => {
                        let _ = writeln!(
                            scaling,
                            "  {name:<12} peak memory: /usr/bin/time not installed"
                        );
                    }
                }
            }
        }
    }

    // reconcile with 500 registered loop worktrees.
    {
        let repo = base.join("r500");
        init_repo(&env, &repo, 1);
        for i in 0..500 {
            run(env.git(
                &repo,
                &[
                    "worktree",
                    "add",
                    "-q",
                    "-b",
                    &format!("loop/run-{i}"),
                    "--",
                    &format!(".loop-worktrees/run-{i}"),
                    "main",
                ],
            ));
        }
        write_manifest(&repo, 500, "active");
        let (o, b) = compare(
            it(15),
            |_| timed(env.gl(&repo, &["reconcile"])),
            |_| timed(env.git(&repo, &["worktree", "list", "--porcelain"])),
            |_| {},
        );
        rows.push(Row {
            scenario: "reconcile, 500 worktrees".into(),
            ours: o,
            base: b,
            target: Some(1.0),
            note: "baseline: git worktree list --porcelain".into(),
        });
    }

    // cleanup of 200 terminal worktrees vs 200 sequential removes.
    {
        let repo = base.join("c200");
        init_repo(&env, &repo, 1);
        // Worktrees at .loop-worktrees/<prefix><i>, on branches unique per round.
        let make = |prefix: &str, round: usize| {
            for i in 0..200 {
                let branch = format!("fixture/{prefix}{round}-{i}");
                let path = format!(".loop-worktrees/{prefix}{i}");
                run(env.git(
                    &repo,
                    &["worktree", "add", "-q", "-b", &branch, "--", &path, "main"],
                ));
            }
        };
        let (o, b) = compare(
            it(3),
            |r| {
                make("run-", r);
                write_manifest(&repo, 200, "rejected");
                timed(env.gl(&repo, &["cleanup"]))
            },
            |r| {
                make("s", r);
                let t = Instant::now();
                for i in 0..200 {
                    run(env.git(
                        &repo,
                        &["worktree", "remove", "--", &format!(".loop-worktrees/s{i}")],
                    ));
                }
                t.elapsed()
            },
            |_| {},
        );
        rows.push(Row {
            scenario: "cleanup, 200 terminal worktrees".into(),
            ours: o,
            base: b,
            target: Some(0.7),
            note: "baseline: 200 sequential git worktree remove (fixture setup untimed)".into(),
        });
    }

    // list --long over 20 worktrees of a 2,000-file repository (one dirty,
    // one with commits of its own) vs what an operator would otherwise run:
    // `git status --porcelain` in each and `git rev-list --left-right --count`
    // against the base for each.
    {
        let repo = base.join("long20");
        init_repo(&env, &repo, 2000);
        for i in 0..20 {
            run(env.gl(
                &repo,
                &["create", &format!("run-{i}"), "--pattern", "bench"],
            ));
        }
        std::fs::write(repo.join(".loop-worktrees/run-3/d0/f0.txt"), "changed\n").unwrap();
        let wt1 = repo.join(".loop-worktrees/run-1");
        std::fs::write(wt1.join("new.txt"), "new\n").unwrap();
        run(env.git(&wt1, &["add", "new.txt"]));
        run(env.git(&wt1, &["commit", "-q", "-m", "work"]));
        // Refresh every index once, so neither side pays for stat-dirty entries.
        for i in 0..20 {
            run(env.git(
                &repo.join(format!(".loop-worktrees/run-{i}")),
                &["status", "--porcelain"],
            ));
        }
        let (o, b) = compare(
            it(9),
            |_| timed(env.gl(&repo, &["list", "--long"])),
            |_| {
                let t = Instant::now();
                for i in 0..20 {
                    run(env.git(
                        &repo.join(format!(".loop-worktrees/run-{i}")),
                        &["status", "--porcelain"],
                    ));
                    run(env.git(
                        &repo,
                        &[
                            "rev-list",
                            "--left-right",
                            "--count",
                            &format!("loop/run-{i}...main"),
                        ],
                    ));
                }
                t.elapsed()
            },
            |_| {},
        );
        rows.push(Row {
            scenario: "list --long, 20 worktrees × 2k files".into(),
            ours: o,
            base: b,
            target: None,
            note:
                "baseline: per worktree, git status --porcelain + git rev-list --left-right --count"
                    .into(),
        });
    }

    // 100,000 entries whose directories are gone: reconcile drops them all,
    // cleanup drops them all (every entry rejected). Baseline: `git worktree
    // prune`, what a user would run for stale registrations. The mutex hold
    // is read from the binary's own trace (GIT_LOOP_TEST_MUTEX_TRACE): the
    // longest single hold, median over the iterations.
    {
        let repo = base.join("gone100k");
        init_repo(&env, &repo, 1);
        for (command, status) in [("reconcile", "active"), ("cleanup", "rejected")] {
            let mut holds = Vec::new();
            let (o, b) = compare(
                it(5),
                |_| {
                    write_manifest(&repo, 100_000, status);
                    let mut c = env.gl(&repo, &["-q", command]);
                    c.env("GIT_LOOP_TEST_MUTEX_TRACE", "1");
                    let t = Instant::now();
                    let out = c.output().expect("spawn");
                    let took = t.elapsed();
                    assert!(out.status.success(), "{command} failed");
                    let longest = String::from_utf8_lossy(&out.stderr)
                        .lines()
                        .filter_map(|l| l.strip_prefix("mutex held "))
                        .filter_map(|l| l.trim_end_matches(" us").parse::<u64>().ok())
                        .max()
                        .unwrap_or(0);
                    holds.push(Duration::from_micros(longest));
                    took
                },
                |_| timed(env.git(&repo, &["worktree", "prune"])),
                |_| {},
            );
            let hold = median(&mut holds);
            rows.push(Row {
                scenario: format!("{command}, 100,000 entries whose directories are gone"),
                ours: o,
                base: b,
                target: None,
                note: format!(
                    "baseline: git worktree prune; longest mutex hold {} (median)",
                    ms(hold)
                ),
            });
        }
    }

    // A peer: worktrunk, if installed.
    let peer = Command::new("wt")
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success());
    let peer_line = match peer {
        None => "worktrunk (`wt`) is not installed: peer row skipped (cargo install --locked worktrunk@0.67.0)".to_owned(),
        Some(_) => {
            let (o, b) = compare(
                it(9),
                |i| timed(env.gl(&tiny, &["create", &format!("p{i}"), "--pattern", "bench"])),
                |i| timed({ let mut c = env.cmd("wt", &tiny); c.args(["switch", "--create", &format!("wt{i}")]); c }),
                |_| {},
            );
            rows.push(Row { scenario: "create vs worktrunk, tiny repo".into(), ours: o, base: b, target: None, note: "baseline: wt switch --create".into() });
            String::new()
        }
    };

    // Startup cost of the empty manifest case, for reference.
    println!("git-loop benchmark — {cores} cores, {}", git_version.trim());
    println!(
        "medians; ratio = git-loop / baseline; interleaved ABBA in one process tree{}\n",
        if quick {
            " (BENCH_QUICK: few iterations)"
        } else {
            ""
        }
    );
    print_rows(&rows);
    if !peer_line.is_empty() {
        println!("\n{peer_line}");
    }
    println!("\nGrowth from 1,000 to 10,000 entries (medians):\n{scaling}");
}
