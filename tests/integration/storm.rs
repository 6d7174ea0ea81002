//! The storm: many processes at once for a minute or more, every destroying
//! step in the mix — branch deletion (`cleanup --delete-merged-branches`,
//! `branches --delete-merged`), salvage, recycling into the warm pool,
//! `pool fill`/`drain`, `remove`, `restore`, `trash restore`, `reconcile` —
//! and a killer that `kill -9`s git-loop processes at random. Afterwards
//! nothing a worker made is lost: every commit is reachable (`git fsck
//! --unreachable --no-reflogs` names none of them), every uncommitted file
//! content is still in a worktree or in the tree of a salvage or trash
//! commit, every branch whose work is not in main is still there, the
//! manifest parses and no mutex is left.
//!
//! `STORM_SECS` (default 75), `STORM_WORKERS` (default 32) and
//! `STORM_KILL_MS` (the mean pause between kills, default 700) size it;
//! `STORM_SEED` replays a worker's choices (not the interleaving). A mutex
//! whose holder was killed is aged past its 30 s stale time at once, so one
//! kill does not stall every worker for 30 s; `STORM_REAL_TIME=1` leaves it
//! to go stale in real time.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fs;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::{
    JsonExt, Rng, TestRepo, age_file, blob_ids, env_or, hash_paths, seed_from_env,
};

/// What the workers know of one run (by id).
#[derive(Default, Clone)]
struct RunInfo {
    /// The newest commit a worker made on it.
    last_commit: Option<String>,
    /// The tip last merged into main by a worker (its work is in main).
    merged_upto: Option<String>,
    /// Files committed on it (a later change to one is uncommitted work).
    files: Vec<String>,
    /// Committed files already changed without a commit (changed once only,
    /// so no uncommitted content is ever overwritten by its own worker).
    touched: HashSet<String>,
}

#[derive(Default)]
struct Ledger {
    /// (run, commit) for every commit a worker made.
    commits: Vec<(String, String)>,
    /// (run, file, content) for every uncommitted content a worker left.
    wip: Vec<(String, String, String)>,
    runs: HashMap<String, RunInfo>,
    counts: BTreeMap<String, usize>,
    /// Failures that were not kills, by "<command>: <first stderr line>":
    /// how many, and the first one's arguments and whole stderr.
    failures: BTreeMap<String, (usize, String)>,
}

struct Outcome {
    code: Option<i32>,
    killed: bool,
    stdout: String,
    stderr: String,
}

impl Outcome {
    fn ok(&self) -> bool {
        self.code == Some(0)
    }
    fn json(&self) -> Option<Value> {
        serde_json::from_str(&self.stdout).ok()
    }
}

struct Storm {
    repo: TestRepo,
    scratch: PathBuf,
    ledger: Mutex<Ledger>,
    live: Mutex<HashMap<u64, Arc<Mutex<Child>>>>,
    token: AtomicU64,
    main_lock: Mutex<()>,
    done: AtomicBool,
    kills: AtomicUsize,
    /// The mean pause between two kills.
    kill_ms: u64,
    /// Leave a killed holder's mutex to go stale in real time (30 s).
    real_time: bool,
}

impl Storm {
    fn count(&self, what: &str, n: usize) {
        if n > 0 {
            *self
                .ledger
                .lock()
                .unwrap()
                .counts
                .entry(what.to_owned())
                .or_default() += n;
        }
    }

    fn nonce(&self) -> u64 {
        self.token.fetch_add(1, Ordering::Relaxed)
    }

    /// Run git-loop, killable by the killer; reaped only here or by the
    /// killer, under the child's lock (so a pid is never signalled after
    /// it was reaped).
    fn gl(&self, args: &[&str]) -> Outcome {
        let tok = self.nonce();
        let out_path = self.scratch.join(format!("{tok}.out"));
        let err_path = self.scratch.join(format!("{tok}.err"));
        let child = self
            .repo
            .command()
            .args(args)
            .stdout(fs::File::create(&out_path).unwrap())
            .stderr(fs::File::create(&err_path).unwrap())
            .spawn()
            .unwrap();
        let child = Arc::new(Mutex::new(child));
        self.live.lock().unwrap().insert(tok, child.clone());
        let status = loop {
            if let Some(s) = child.lock().unwrap().try_wait().unwrap() {
                break s;
            }
            std::thread::sleep(Duration::from_millis(4));
        };
        self.live.lock().unwrap().remove(&tok);
        let stdout = fs::read_to_string(&out_path).unwrap_or_default();
        let stderr = fs::read_to_string(&err_path).unwrap_or_default();
        let _ = fs::remove_file(&out_path);
        let _ = fs::remove_file(&err_path);
        let killed = status.signal() == Some(9);
        let outcome = Outcome {
            code: status.code(),
            killed,
            stdout,
            stderr,
        };
        let cmd = args
            .iter()
            .find(|a| !a.starts_with('-'))
            .copied()
            .unwrap_or("?");
        if killed {
            self.count(&format!("killed during {cmd}"), 1);
        } else if !outcome.ok() {
            let first = outcome.stderr.lines().next().unwrap_or("").to_owned();
            // Keep the message's shape, not its ids.
            let shape: String = first
                .split_whitespace()
                .map(|w| {
                    if w.chars().any(|c| c.is_ascii_digit()) {
                        "…"
                    } else {
                        w
                    }
                })
                .collect::<Vec<_>>()
                .join(" ");
            let mut l = self.ledger.lock().unwrap();
            let key = format!("{cmd} (exit {:?}): {shape}", outcome.code);
            let seen = l.failures.entry(key).or_insert((0, String::new()));
            seen.0 += 1;
            if seen.1.is_empty() {
                seen.1 = format!("{args:?}\n{}", outcome.stderr.trim_end());
            }
        }
        outcome
    }

    fn git(&self, dir: &Path, args: &[&str]) -> (bool, String) {
        let out = self.repo.git_in(dir, args);
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).trim().to_owned(),
        )
    }

    fn killer(&self, seed: u64) {
        let mut rng = Rng::new(seed);
        while !self.done.load(Ordering::Relaxed) {
            let pause = self.kill_ms / 2 + rng.below(self.kill_ms as usize) as u64;
            std::thread::sleep(Duration::from_millis(pause));
            let victims: Vec<Arc<Mutex<Child>>> =
                self.live.lock().unwrap().values().cloned().collect();
            if victims.is_empty() {
                continue;
            }
            let victim = &victims[rng.below(victims.len())];
            let mut child = victim.lock().unwrap();
            if !matches!(child.try_wait(), Ok(None)) || child.kill().is_err() {
                continue;
            }
            self.kills.fetch_add(1, Ordering::Relaxed);
            let pid = child.id();
            let _ = child.wait();
            drop(child);
            // A mutex the dead process held is broken by the next waiter
            // once 30 s old; let the 30 s pass at once (its holder is dead
            // and reaped, so no one else can have changed it meanwhile).
            if !self.real_time {
                let mutex = self.repo.mutex_path();
                let token = fs::read_to_string(&mutex).unwrap_or_default();
                if token.starts_with(&format!("git-loop pid {pid} ")) {
                    age_file(&mutex, 120);
                    self.count("mutexes of killed holders aged to stale", 1);
                }
            }
        }
    }

    /// Commit 1–3 files in the run's worktree, then maybe leave uncommitted
    /// work: an untracked file, a staged file, a change to a committed file.
    fn work(&self, rng: &mut Rng, id: &str) {
        let wt = self.repo.wt(id);
        if !wt.join(".git").exists() {
            return;
        }
        for _ in 0..1 + rng.below(3) {
            let n = self.nonce();
            let file = format!("c-{id}-{n}.txt");
            if fs::write(wt.join(&file), format!("committed {id} {n}\n")).is_err() {
                return;
            }
            if !self.git(&wt, &["add", "--", &file]).0
                || !self
                    .git(
                        &wt,
                        // Only this file: staged uncommitted work stays staged.
                        &["commit", "-q", "-m", &format!("work {id} {n}"), "--", &file],
                    )
                    .0
            {
                return;
            }
            let (ok, head) = self.git(&wt, &["rev-parse", "HEAD"]);
            if !ok {
                return;
            }
            let mut l = self.ledger.lock().unwrap();
            l.commits.push((id.to_owned(), head.clone()));
            let info = l.runs.entry(id.to_owned()).or_default();
            info.last_commit = Some(head);
            info.files.push(file);
            *l.counts.entry("commits".into()).or_default() += 1;
        }
        let mut wip = Vec::new();
        if rng.pct(35) {
            let n = self.nonce();
            let file = format!("wip-{id}-{n}.txt");
            let text = format!("untracked work {id} {n}\n");
            if fs::write(wt.join(&file), &text).is_ok() {
                wip.push((file, text));
            }
        }
        if rng.pct(20) {
            let n = self.nonce();
            let file = format!("stg-{id}-{n}.txt");
            let text = format!("staged work {id} {n}\n");
            if fs::write(wt.join(&file), &text).is_ok() && self.git(&wt, &["add", "--", &file]).0 {
                wip.push((file, text));
            }
        }
        if rng.pct(20) {
            let target = {
                let l = self.ledger.lock().unwrap();
                l.runs.get(id).and_then(|i| {
                    i.files
                        .iter()
                        .find(|f| !i.touched.contains(*f) && wt.join(f).exists())
                        .cloned()
                })
            };
            if let Some(file) = target {
                let n = self.nonce();
                let text = format!("committed, then changed {id} {n}\n");
                if fs::write(wt.join(&file), &text).is_ok() {
                    let mut l = self.ledger.lock().unwrap();
                    if let Some(i) = l.runs.get_mut(id) {
                        i.touched.insert(file.clone());
                    }
                    drop(l);
                    wip.push((file, text));
                }
            }
        }
        let mut l = self.ledger.lock().unwrap();
        for (file, text) in wip {
            l.wip.push((id.to_owned(), file, text));
            *l.counts.entry("uncommitted contents".into()).or_default() += 1;
        }
    }

    /// Merge the run's branch into main: a merge commit, a squash, or its
    /// commits replayed one by one (rebase-style). Main is not checked out
    /// anywhere, so this is plumbing and a compare-and-swap.
    fn merge_into_main(&self, rng: &mut Rng, id: &str) -> bool {
        let _main = self.main_lock.lock().unwrap();
        let root = &self.repo.root;
        let branch = format!("refs/heads/loop/{id}");
        let (ok, tip) = self.git(root, &["rev-parse", "--verify", "-q", &branch]);
        if !ok {
            return false;
        }
        let (_, main) = self.git(root, &["rev-parse", "refs/heads/main"]);
        let kind = rng.below(3);
        let new = match kind {
            0 | 1 => {
                let (ok, tree) = self.git(root, &["merge-tree", "--write-tree", &main, &tip]);
                if !ok {
                    return false;
                }
                let mut args = vec!["commit-tree", tree.as_str(), "-p", main.as_str()];
                if kind == 0 {
                    args.extend(["-p", tip.as_str()]);
                }
                let msg = format!("land {id}");
                args.extend(["-m", msg.as_str()]);
                let (ok, c) = self.git(root, &args);
                if !ok {
                    return false;
                }
                c
            }
            _ => {
                let (ok, list) =
                    self.git(root, &["rev-list", "--reverse", &format!("{main}..{tip}")]);
                if !ok {
                    return false;
                }
                let mut cur = main.clone();
                for c in list.lines() {
                    let (ok, tree) = self.git(
                        root,
                        &[
                            "merge-tree",
                            "--write-tree",
                            &format!("--merge-base={c}^"),
                            &cur,
                            c,
                        ],
                    );
                    if !ok {
                        return false;
                    }
                    let (ok, next) = self.git(
                        root,
                        &[
                            "commit-tree",
                            &tree,
                            "-p",
                            &cur,
                            "-m",
                            &format!("replay {c}"),
                        ],
                    );
                    if !ok {
                        return false;
                    }
                    cur = next;
                }
                cur
            }
        };
        if !self
            .git(root, &["update-ref", "refs/heads/main", &new, &main])
            .0
        {
            return false;
        }
        let mut l = self.ledger.lock().unwrap();
        l.runs.entry(id.to_owned()).or_default().merged_upto = Some(tip);
        *l.counts
            .entry(["merged (merge)", "merged (squash)", "merged (rebase)"][kind].into())
            .or_default() += 1;
        true
    }

    /// Mark, retrying a killed mark (so a run is never left half-owned).
    fn mark(&self, id: &str, status: &str) -> bool {
        for _ in 0..6 {
            let o = self.gl(&["mark", id, status]);
            if o.ok() {
                return true;
            }
            if !o.killed {
                return false;
            }
        }
        false
    }

    fn manifest_ids(&self, terminal: bool) -> Vec<String> {
        let Ok(text) = fs::read_to_string(self.repo.manifest_path()) else {
            return Vec::new();
        };
        let Ok(v) = serde_json::from_str::<Value>(&text) else {
            return Vec::new();
        };
        v["worktrees"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter(|e| terminal == (e["status"] != "active"))
                    .filter_map(|e| e["id"].as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    }

    fn tally_removal(&self, o: &Outcome) {
        let Some(v) = o.json() else { return };
        let Some(removed) = v["removed"].as_array() else {
            return;
        };
        let mut deleted = 0;
        let mut salvaged = 0;
        let mut recycled = 0;
        for r in removed {
            deleted += usize::from(r["branchDeleted"] == true);
            salvaged += usize::from(r["salvage"]["commit"].is_string());
            recycled += usize::from(r["note"].as_str().is_some_and(|n| n.contains("recycled")));
        }
        self.count("removed (seen in JSON)", removed.len());
        self.count("branches deleted by cleanup (seen in JSON)", deleted);
        self.count("salvages (seen in JSON)", salvaged);
        self.count("recycled (seen in JSON)", recycled);
    }

    fn worker(&self, w: usize, seed: u64, deadline: Instant) {
        let mut rng = Rng::new(seed);
        let mut owned: Vec<String> = Vec::new();
        let mut n = 0;
        while Instant::now() < deadline {
            let roll = rng.below(100);
            match roll {
                // Create a run and work in it.
                0..=29 => {
                    let reuse = rng.pct(5);
                    let id = if reuse {
                        // A salvaged run's id again: only possible once its
                        // branch is gone; its salvage must not be replaced.
                        let o = self.gl(&["--json", "list", "--salvaged"]);
                        let ids: Vec<String> = o
                            .json()
                            .map(|v| {
                                v["salvaged"]
                                    .as_array()
                                    .into_iter()
                                    .flatten()
                                    .filter(|e| e["recorded"] == false)
                                    .filter_map(|e| e["id"].as_str().map(str::to_owned))
                                    .collect()
                            })
                            .unwrap_or_default();
                        if ids.is_empty() {
                            continue;
                        }
                        ids[rng.below(ids.len())].clone()
                    } else {
                        n += 1;
                        format!("w{w}-{n}")
                    };
                    self.count("create attempts", 1);
                    let o = self.gl(&["--json", "create", &id, "--pattern", "storm"]);
                    if o.ok() {
                        self.count("creates", 1);
                        if reuse {
                            self.count("creates of a salvaged run's id", 1);
                            // A new run of that id: what is known of the
                            // old one's branch no longer applies (its branch
                            // was deleted as merged, or create would fail).
                            self.ledger.lock().unwrap().runs.remove(&id);
                        }
                        self.work(&mut rng, &id);
                        owned.push(id);
                    }
                }
                // Finish a run: rejected, escalated, merged for real, or
                // marked merged without its work in main.
                30..=54 => {
                    if owned.is_empty() {
                        continue;
                    }
                    let id = owned.swap_remove(rng.below(owned.len()));
                    if rng.pct(30) {
                        self.work(&mut rng, &id);
                    }
                    let fate = rng.below(100);
                    let status = match fate {
                        0..=34 => "rejected",
                        35..=44 => "escalated",
                        45..=89 => {
                            if self.merge_into_main(&mut rng, &id) {
                                "merged"
                            } else {
                                "rejected"
                            }
                        }
                        _ => {
                            self.count("marked merged, not merged", 1);
                            "merged"
                        }
                    };
                    if self.mark(&id, status) {
                        self.count(&format!("marked {status}"), 1);
                    } else {
                        owned.push(id);
                    }
                }
                55..=66 => {
                    let mut args = vec!["--json", "cleanup"];
                    if rng.pct(75) {
                        args.extend(["--status", "rejected,escalated,merged"]);
                    }
                    if rng.pct(60) {
                        args.push("--delete-merged-branches");
                    }
                    if rng.pct(50) {
                        args.push("--salvage");
                    }
                    if rng.pct(50) {
                        args.push("--recycle");
                    }
                    let o = self.gl(&args);
                    self.count("cleanups", 1);
                    self.tally_removal(&o);
                }
                67..=71 => {
                    let ids = self.manifest_ids(true);
                    if ids.is_empty() {
                        continue;
                    }
                    let id = &ids[rng.below(ids.len())];
                    let salvage = rng.pct(60);
                    let mut args = vec!["--json", "remove"];
                    if salvage {
                        args.push("--salvage");
                    }
                    args.push(id);
                    let o = self.gl(&args);
                    self.count("removes", 1);
                    self.tally_removal(&o);
                }
                72..=77 => {
                    let o = self.gl(&["--json", "list", "--salvaged"]);
                    let ids: Vec<String> = o
                        .json()
                        .map(|v| {
                            v["salvaged"]
                                .as_array()
                                .into_iter()
                                .flatten()
                                .filter(|e| e["recorded"] == false)
                                .filter_map(|e| e["id"].as_str().map(str::to_owned))
                                .collect()
                        })
                        .unwrap_or_default();
                    if ids.is_empty() {
                        continue;
                    }
                    let id = ids[rng.below(ids.len())].clone();
                    if self.gl(&["--json", "restore", &id]).ok() {
                        self.count("restores", 1);
                        owned.push(id);
                    }
                }
                78..=81 => {
                    let o = if rng.pct(60) {
                        self.gl(&["--json", "pool", "fill", &(1 + rng.below(2)).to_string()])
                    } else {
                        self.gl(&["--json", "pool", "drain"])
                    };
                    self.count("pool fills and drains", 1);
                    let _ = o;
                }
                82..=87 => {
                    self.gl(&["--json", "reconcile"]);
                    self.count("reconciles", 1);
                }
                88..=91 => {
                    let o = self.gl(&["--json", "branches", "--delete-merged"]);
                    let deleted = o
                        .json()
                        .and_then(|v| {
                            v["branches"]
                                .as_array()
                                .map(|a| a.iter().filter(|b| b["deleted"] == true).count())
                        })
                        .unwrap_or(0);
                    self.count("branches --delete-merged", 1);
                    self.count("branches deleted by branches (seen in JSON)", deleted);
                }
                92..=94 => {
                    // Bring a deleted branch back from the trash.
                    let o = self.gl(&["--json", "trash"]);
                    let names: Vec<String> = o
                        .json()
                        .map(|v| {
                            v["trash"]
                                .as_array()
                                .into_iter()
                                .flatten()
                                .filter(|e| e["kind"] == "branch")
                                .filter_map(|e| e["name"].as_str().map(str::to_owned))
                                .collect()
                        })
                        .unwrap_or_default();
                    if names.is_empty() {
                        continue;
                    }
                    let name = &names[rng.below(names.len())];
                    if self.gl(&["--json", "trash", "restore", name]).ok() {
                        self.count("trash restores", 1);
                    }
                }
                _ => {
                    let o = self.gl(&["--json", "list"]);
                    if o.ok() {
                        assert!(o.json().is_some(), "list printed no JSON: {}", o.stdout);
                    }
                }
            }
        }
    }
}

/// Every regular file under `dir`, not descending into `.git` (a file in a
/// worktree, a directory in a nested repository).
fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        if e.file_name() == ".git" {
            continue;
        }
        let Ok(t) = e.file_type() else { continue };
        if t.is_dir() {
            files_under(&e.path(), out);
        } else if t.is_file() {
            out.push(e.path());
        }
    }
}

#[test]
#[ignore = "long: a storm of concurrent processes with kill -9 for STORM_SECS (75 s); run by scripts/test"]
fn a_storm_with_branch_deletion_recycling_and_salvage_loses_nothing() {
    let secs = env_or("STORM_SECS", 75);
    let workers = env_or("STORM_WORKERS", 32) as usize;
    let seed = seed_from_env();
    let kill_ms = env_or("STORM_KILL_MS", 700).max(1);
    let real_time = std::env::var_os("STORM_REAL_TIME").is_some();
    eprintln!(
        "storm: {workers} workers for {secs} s, a kill -9 every {kill_ms} ms on average, STORM_SEED={seed}"
    );
    let repo = TestRepo::new();
    fs::write(repo.root.join(".gitignore"), ".loop-worktrees/\n").unwrap();
    repo.git(["add", ".gitignore"]);
    repo.git(["commit", "-q", "-m", "ignore the worktrees"]);
    // Main is a ref only: the workers land runs on it with plumbing.
    repo.git(["checkout", "-q", "--detach"]);
    repo.git(["config", "loop.poolSize", "4"]);
    let scratch = repo.base().join("scratch");
    fs::create_dir_all(&scratch).unwrap();
    let storm = Storm {
        repo,
        scratch,
        ledger: Mutex::new(Ledger::default()),
        live: Mutex::new(HashMap::new()),
        token: AtomicU64::new(0),
        main_lock: Mutex::new(()),
        done: AtomicBool::new(false),
        kills: AtomicUsize::new(0),
        kill_ms,
        real_time,
    };
    let started = Instant::now();
    let deadline = started + Duration::from_secs(secs);
    std::thread::scope(|s| {
        let storm = &storm;
        let killer = s.spawn(move || storm.killer(seed ^ 0xdead_beef));
        let handles: Vec<_> = (0..workers)
            .map(|w| {
                let seed = seed.wrapping_add((w as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
                s.spawn(move || storm.worker(w, seed, deadline))
            })
            .collect();
        for h in handles {
            h.join().unwrap();
        }
        storm.done.store(true, Ordering::Relaxed);
        killer.join().unwrap();
    });
    let stormed = started.elapsed();
    let repo = &storm.repo;

    // Every git-loop process has ended: a mutex still there was left by a
    // killed one. Let it reach its stale age (30 s) at once.
    std::thread::sleep(Duration::from_secs(1));
    for leftover in [".manifest.mutex", ".manifest.mutex.break"] {
        let p = repo.loop_dir().join(leftover);
        if p.exists() {
            age_file(&p, 120);
            storm.count(&format!("{leftover} left by a kill"), 1);
        }
    }
    let fin = TestRepo::output(repo.command().args(["--json", "reconcile"]));
    fin.ok();
    let orphans = fin.json().arr("orphans").len();
    assert!(
        !repo.mutex_path().exists(),
        "a mutex was left after the final reconcile"
    );
    let manifest = repo.manifest();
    let recorded = manifest.arr("worktrees").len();
    let trash = TestRepo::output(repo.command().args(["--json", "trash"]));
    trash.ok();
    let trash_entries = trash.json().arr("trash").len();

    let ledger = storm.ledger.lock().unwrap();
    let mut lost = Vec::new();

    // 1. Every commit a worker made exists and is reachable.
    let fsck = repo.git_in(
        &repo.root,
        ["fsck", "--unreachable", "--no-reflogs", "--no-progress"],
    );
    assert!(
        fsck.status.success(),
        "git fsck failed: {}",
        String::from_utf8_lossy(&fsck.stderr)
    );
    let unreachable: HashSet<String> = String::from_utf8_lossy(&fsck.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().nth(2).map(str::to_owned))
        .collect();
    for (run, commit) in &ledger.commits {
        if unreachable.contains(commit) {
            lost.push(format!("commit {commit} of {run} is unreachable"));
        }
        let exists = repo
            .git_in(
                &repo.root,
                ["cat-file", "-e", &format!("{commit}^{{commit}}")],
            )
            .status
            .success();
        if !exists {
            lost.push(format!("commit {commit} of {run} is missing"));
        }
    }

    // 2. Every uncommitted content is in a worktree, or in the tree of a
    // salvage or trash commit.
    let mut kept: HashSet<String> = HashSet::new();
    let objects = repo.git_in(
        &repo.root,
        [
            "rev-list",
            "--objects",
            "--glob=refs/loop/salvage/*",
            "--glob=refs/loop/trash/*",
        ],
    );
    assert!(objects.status.success());
    kept.extend(
        String::from_utf8_lossy(&objects.stdout)
            .lines()
            .filter_map(|l| l.split_whitespace().next().map(str::to_owned)),
    );
    let mut on_disk = Vec::new();
    files_under(&repo.loop_dir(), &mut on_disk);
    let on_disk_ids: HashSet<String> = hash_paths(repo, &on_disk).into_iter().collect();
    let contents: Vec<&str> = ledger.wip.iter().map(|(_, _, c)| c.as_str()).collect();
    let ids = blob_ids(repo, &repo.base().join("wip-hash"), &contents);
    let (mut in_worktree, mut in_refs) = (0, 0);
    for ((run, file, _), id) in ledger.wip.iter().zip(&ids) {
        if on_disk_ids.contains(id) {
            in_worktree += 1;
        } else if kept.contains(id) {
            in_refs += 1;
        } else {
            lost.push(format!(
                "uncommitted {file} of {run} (blob {id}) is in no worktree, salvage or trash"
            ));
        }
    }

    // 3. Every branch whose work is not in main still holds it.
    let mut branches_checked = 0;
    for (id, info) in &ledger.runs {
        let Some(last) = &info.last_commit else {
            continue;
        };
        if info.merged_upto.as_ref() == Some(last) {
            continue;
        }
        branches_checked += 1;
        let branch = format!("refs/heads/loop/{id}");
        let tip = repo.git_in(&repo.root, ["rev-parse", "--verify", "-q", &branch]);
        if !tip.status.success() {
            lost.push(format!("{branch} is gone, its work {last} not in main"));
            continue;
        }
        let tip = String::from_utf8_lossy(&tip.stdout).trim().to_owned();
        let holds = repo
            .git_in(&repo.root, ["merge-base", "--is-ancestor", last, &tip])
            .status
            .success();
        if !holds {
            lost.push(format!("{branch} moved to {tip}, no longer holding {last}"));
        }
    }

    // The numbers, to quote.
    let log = TestRepo::output(repo.command().args(["--json", "log"]));
    let log = log.json();
    let mut events: BTreeMap<String, usize> = BTreeMap::new();
    for e in log.arr("events") {
        *events.entry(e.text("event").to_owned()).or_default() += 1;
    }
    // What happened to each run that lost something.
    let lost: Vec<String> = lost
        .into_iter()
        .map(|what| {
            let run = what.split(" of ").nth(1).and_then(|r| r.split(' ').next());
            let history: Vec<String> = log
                .arr("events")
                .iter()
                .filter(|e| run.is_some_and(|r| e["id"] == r))
                .map(|e| e.to_string())
                .collect();
            format!("{what}\n    {}", history.join("\n    "))
        })
        .collect();
    eprintln!(
        "storm: {} s with {workers} workers (seed {seed}); {} kill -9s",
        stormed.as_secs(),
        storm.kills.load(Ordering::Relaxed)
    );
    for (what, n) in &ledger.counts {
        eprintln!("  {what}: {n}");
    }
    eprintln!("  events in the log: {events:?}");
    eprintln!(
        "  after: {recorded} runs recorded, {orphans} orphan worktrees (left by kills), {trash_entries} trash entries, {} worktrees registered",
        repo.registered().len()
    );
    eprintln!(
        "  checked: {} commits reachable, {} uncommitted contents ({in_worktree} in a worktree, {in_refs} in a salvage or trash tree), {branches_checked} unmerged branches intact",
        ledger.commits.len(),
        ledger.wip.len()
    );
    eprintln!("  failures that were not kills:");
    for (what, (n, first)) in &ledger.failures {
        eprintln!(
            "    {n} × {what}\n      first: {}",
            first.replace('\n', "\n      ")
        );
    }
    assert!(
        !ledger.commits.is_empty() && ledger.counts.get("creates").copied().unwrap_or(0) > 0,
        "the storm did no work"
    );
    if !lost.is_empty() {
        let report = lost.join("\n");
        eprintln!("the repository is kept for a look: {}", repo.root.display());
        drop(ledger);
        std::mem::forget(storm);
        panic!("the storm lost work (seed {seed}):\n{report}");
    }
}

/// Start `args` with `env` set and read its stderr until a line contains
/// `wanted`; returns the child and the lines read.
fn spawn_until(
    repo: &TestRepo,
    env: &[(&str, String)],
    args: &[&str],
    wanted: &str,
) -> (Child, std::io::BufReader<std::process::ChildStderr>) {
    use std::io::BufRead;
    let mut cmd = repo.command();
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    while !line.contains(wanted) {
        line.clear();
        if stderr.read_line(&mut line).unwrap() == 0 {
            let _ = child.kill();
            panic!("{args:?} exited before printing {wanted:?}");
        }
    }
    (child, stderr)
}

/// What the storm found: two `branches --delete-merged` that judged the
/// same leftover branch, the second queued on the worktree-operation lock
/// while the first deletes it, within one second. The trash ref name is
/// `<second>/<reason>/<original>`, so both name the same ref, and gix's
/// `MustNotExist` accepts a ref that exists with the same target: the
/// second's `trash::keep` "succeeds" on the first's entry. Its
/// compare-and-swap delete then fails (the branch is gone) and it drops
/// "its" entry — the first one's, the only ref left holding the tip. The
/// clock is pinned (`GIT_LOOP_TEST_NOW`) so both land in the same second.
#[test]
fn two_deleters_of_one_branch_in_one_second_leave_its_tip_in_the_trash() {
    let repo = TestRepo::new();
    // loop/x: one commit of its own, squash-merged into main, so only the
    // branch (then the trash) holds that commit.
    repo.git(["checkout", "-q", "-b", "loop/x"]);
    fs::write(repo.root.join("x.txt"), "work on x\n").unwrap();
    repo.git(["add", "x.txt"]);
    repo.git(["commit", "-q", "-m", "work on x"]);
    let tip = repo.git(["rev-parse", "HEAD"]).trim().to_owned();
    repo.git(["checkout", "-q", "main"]);
    repo.git(["merge", "-q", "--squash", "loop/x"]);
    repo.git(["commit", "-q", "-m", "squash x"]);
    fs::create_dir_all(repo.loop_dir()).unwrap();

    let now = ("GIT_LOOP_TEST_NOW", "2026-12-01T12:00:00Z".to_owned());
    let go = repo.base().join("go");
    let args = ["--json", "branches", "--delete-merged"];
    // The first: trash entry written, paused before the delete.
    let (first, first_err) = spawn_until(
        &repo,
        &[
            now.clone(),
            (
                "GIT_LOOP_TEST_CRASH",
                format!("before-branch-delete:until:{}", go.display()),
            ),
        ],
        &args,
        "paused at before-branch-delete",
    );
    // The second: listed loop/x as merged, now waiting for the lock.
    let (second, second_err) = spawn_until(
        &repo,
        &[now],
        &args,
        "waiting for the worktree-operation lock",
    );
    fs::write(&go, "").unwrap();
    for (child, err) in [(first, first_err), (second, second_err)] {
        let out = child.wait_with_output().unwrap();
        drop(err);
        assert!(out.status.code().is_some(), "killed");
    }
    assert!(!repo.branch_exists("loop/x"), "the first deleted loop/x");
    let kept = repo.git([
        "for-each-ref",
        "--format=%(objectname) %(refname)",
        "refs/loop/trash/",
    ]);
    let fsck = repo.git(["fsck", "--unreachable", "--no-reflogs", "--no-progress"]);
    assert!(
        kept.lines().any(|l| l.starts_with(&tip)) && !fsck.contains(&tip),
        "loop/x was deleted at {tip} and no trash entry holds it (unreachable: {})\ntrash: {kept:?}\nevents:\n{}",
        fsck.contains(&tip),
        fs::read_to_string(repo.loop_dir().join("events.jsonl")).unwrap_or_default()
    );
}
