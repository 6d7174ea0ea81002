//! `git loop sync` under fire: racing every other writer, and killed.
//!
//! **Races.** Agents commit in their runs' worktrees in a loop (a real
//! `git add` and `git commit` each time, retried when git finds its index or
//! the branch locked), while `sync` runs again and again (rebase, now and
//! then `--strategy merge`, sometimes of one named run), `create` makes more
//! runs with a commit each, `mark` escalates or rejects them and flips the
//! agents' runs between `active` and `stale`, `land --queue` lands the
//! escalated ones (so `main` moves and every sync has work), and `cleanup`
//! removes what it may. Afterwards: every commit an agent made is reachable
//! from its run's branch or the trash (a sync never drops one: a branch that
//! moved under it is refused by compare-and-swap, `branch-moved`), every file
//! an agent committed is in its branch as written, its worktree is on its
//! branch, clean, no rebase or merge in progress; every commit any worker
//! made is reachable from some ref (`git fsck --unreachable --no-reflogs`
//! names none); every skip has a code of the contract; every synced run's
//! old tip is in the trash at the `trashRef` the sync reported; the manifest
//! parses, no mutex is left, and `git fsck` finds no error.
//!
//! **Kills.** A sync of 10 runs (7 that sync, some with uncommitted work of
//! their own beside what the sync changes, one whose uncommitted change is
//! in a file the sync changes, one that conflicts) is `kill -9`ed at a
//! seeded random moment, round after round, each on a fresh repository:
//! the process group (git's children too) or git-loop alone (its children
//! finish). Afterwards every run is at its old tip or at its synced tip
//! (the base's tip with the run's change on it: the tree git's merge of the
//! two gives), its uncommitted work byte for byte as it was, and either its
//! worktree follows its branch (`git status` shows the run's own work and
//! nothing else) or, after a kill between the branch's move and the
//! worktree's update, the next `sync` finishes or undoes it: after that
//! sync every run is old or synced, its worktree following, nothing lost,
//! every old tip of a moved branch in the trash. A kill after the sync
//! locked a run's index and before it moved the branch leaves the lock,
//! which the next sync removes (it is marked as the sync's) — unless the
//! kill fell in the few system calls between taking the lock and writing
//! its marker: then the lock is counted, kept, and left for a person, as
//! git's own `index.lock` after a `kill -9`.
//!
//! The default tests are short; the long ones are `#[ignore]`d and run by
//! `scripts/test`. `STORM_SYNC_SECS` (the race's length), `STORM_SYNC_AGENTS`,
//! `STORM_SYNC_ROUNDS` (kill rounds) size them; `STORM_SEED` replays the
//! choices (not the interleaving). Every failure is collected and reported
//! together, with the seed.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::Stdio;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::{Rng, TestRepo, age_dead_holders, env_or, kill_9_at, seed_from_env, send};

/// The skip codes of `sync`'s contract (docs/cli.md).
const SKIP_CODES: [&str; 13] = [
    "dirty",
    "untracked",
    "operation-in-progress",
    "conflict",
    "gate-failed",
    "up-to-date",
    "locked",
    "no-base",
    "no-branch",
    "worktree-missing",
    "has-merges",
    "branch-moved",
    "not-attempted",
];

/// Failures and counts, collected from every thread and reported together.
#[derive(Default)]
struct Tally {
    counts: BTreeMap<String, usize>,
    /// By kind: how many, and the first one's detail.
    failures: BTreeMap<String, (usize, String)>,
}

impl Tally {
    fn count(&mut self, what: &str, n: usize) {
        if n > 0 {
            *self.counts.entry(what.to_owned()).or_default() += n;
        }
    }

    fn fail(&mut self, what: &str, detail: &str) {
        let seen = self
            .failures
            .entry(what.to_owned())
            .or_insert((0, String::new()));
        seen.0 += 1;
        if seen.1.is_empty() {
            seen.1 = detail.to_owned();
        }
    }

    /// Panics with every failure when there was one; prints the counts.
    fn verdict(&self, what: &str, seed: u64) {
        let mut report = format!("{what} (STORM_SEED={seed})\n");
        for (k, n) in &self.counts {
            report.push_str(&format!("  {k}: {n}\n"));
        }
        println!("{report}");
        if self.failures.is_empty() {
            return;
        }
        for (k, (n, first)) in &self.failures {
            report.push_str(&format!(
                "FAILED {n}x: {k}\n    {}\n",
                first.replace('\n', "\n    ")
            ));
        }
        panic!("{report}");
    }
}

/// git in `dir`: whether it succeeded, and stdout trimmed.
fn git(repo: &TestRepo, dir: &Path, args: &[&str]) -> (bool, String) {
    let out = repo.git_in(dir, args);
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).trim().to_owned(),
    )
}

/// git in `dir`, which must succeed: stdout trimmed.
fn git_must(repo: &TestRepo, dir: &Path, args: &[&str]) -> String {
    let out = repo.git_in(dir, args);
    assert!(
        out.status.success(),
        "git {args:?} in {}: {}",
        dir.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// `git status --porcelain` of a worktree, every untracked file named,
/// sorted.
fn porcelain(repo: &TestRepo, dir: &Path) -> Vec<String> {
    let out = repo.git_in(dir, ["status", "--porcelain=v1", "-uall"]);
    let mut lines: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_owned)
        .collect();
    if !out.status.success() {
        lines.push(format!(
            "(git status failed: {})",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    lines.sort();
    lines
}

/// The operation git has in progress in a worktree, if any (a rebase, a
/// merge, a cherry-pick), or its index still locked.
fn in_progress(repo: &TestRepo, dir: &Path) -> Option<String> {
    for marker in [
        "rebase-merge",
        "rebase-apply",
        "MERGE_HEAD",
        "CHERRY_PICK_HEAD",
        "index.lock",
    ] {
        let (ok, path) = git(repo, dir, &["rev-parse", "--git-path", marker]);
        if ok && dir.join(&path).exists() {
            return Some(marker.to_owned());
        }
    }
    None
}

/// The commits reachable from `refs` (names or globs for `--glob`).
fn reachable(repo: &TestRepo, refs: &[&str]) -> BTreeSet<String> {
    let mut args = vec!["rev-list"];
    for r in refs {
        if r.contains('*') {
            args.push("--glob");
        }
        args.push(r);
    }
    args.push("--");
    let (_, out) = git(repo, &repo.root, &args);
    out.lines().map(str::to_owned).collect()
}

/// The tips kept in the trash.
fn trash_tips(repo: &TestRepo) -> BTreeSet<String> {
    let (_, out) = git(
        repo,
        &repo.root,
        &["for-each-ref", "--format=%(objectname)", "refs/loop/trash/"],
    );
    out.lines().map(str::to_owned).collect()
}

/// `git fsck`'s errors (none is clean), and the commits it finds
/// unreachable from every ref.
fn fsck(repo: &TestRepo) -> (Vec<String>, BTreeSet<String>) {
    let out = repo.git_in(&repo.root, ["fsck", "--no-progress", "--no-dangling"]);
    let mut errors: Vec<String> = String::from_utf8_lossy(&out.stderr)
        .lines()
        .chain(String::from_utf8_lossy(&out.stdout).lines())
        .filter(|l| !l.trim().is_empty())
        .map(str::to_owned)
        .collect();
    if !out.status.success() {
        errors.push(format!("git fsck exited {:?}", out.status.code()));
    }
    let (_, unreachable) = git(
        repo,
        &repo.root,
        &["fsck", "--unreachable", "--no-reflogs", "--no-progress"],
    );
    let commits = unreachable
        .lines()
        .filter_map(|l| l.strip_prefix("unreachable commit "))
        .map(str::to_owned)
        .collect();
    (errors, commits)
}

/// The manifest parses and no mutex or temporary file is left.
fn check_manifest(repo: &TestRepo, tally: &mut Tally) {
    match fs::read_to_string(repo.manifest_path()).map(|t| serde_json::from_str::<Value>(&t)) {
        Ok(Ok(v)) if v["worktrees"].is_array() => {}
        other => tally.fail("the manifest does not parse", &format!("{other:?}")),
    }
    if repo.mutex_path().exists() {
        tally.fail("a mutex was left", "");
    }
}

/// What one `--json` run of git-loop printed, and its exit code.
struct Ran {
    code: Option<i32>,
    json: Option<Value>,
    stderr: String,
}

fn gl(repo: &TestRepo, args: &[&str]) -> Ran {
    let out = repo.command().args(args).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    Ran {
        code: out.status.code(),
        json: serde_json::from_str(&stdout).ok(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

// ---------------------------------------------------------------- races

/// What the race's workers know.
#[derive(Default)]
struct Ledger {
    /// Every commit an agent made, by run.
    agent_commits: BTreeMap<String, Vec<String>>,
    /// Every file an agent committed, by run: path -> content.
    agent_files: BTreeMap<String, BTreeMap<String, String>>,
    /// Every commit another worker made (the runs `land` takes).
    other_commits: Vec<String>,
    /// (run, from, trashRef) of every sync reported.
    synced: Vec<(String, String, String)>,
    tally: Tally,
}

struct Race {
    repo: TestRepo,
    agents: Vec<String>,
    done: AtomicBool,
    next: AtomicU64,
    ledger: Mutex<Ledger>,
}

impl Race {
    fn count(&self, what: &str, n: usize) {
        self.ledger.lock().unwrap().tally.count(what, n);
    }

    fn fail(&self, what: &str, detail: &str) {
        self.ledger.lock().unwrap().tally.fail(what, detail);
    }

    /// Wait up to `ms`, less if the race is over.
    fn pause(&self, ms: u64) {
        let until = Instant::now() + Duration::from_millis(ms);
        while Instant::now() < until && !self.done.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Run git-loop, counting a failure git-loop gave no JSON for.
    fn gl(&self, args: &[&str]) -> Ran {
        let ran = gl(&self.repo, args);
        if ran.json.is_none() && args.contains(&"--json") {
            let first = ran.stderr.lines().next().unwrap_or("").to_owned();
            self.fail(
                &format!("{:?} printed no JSON", &args[1..2]),
                &format!("{args:?} exit {:?}: {first}", ran.code),
            );
        }
        ran
    }

    /// One commit in `dir` of `path` with `content` (already written):
    /// `git add`, then `git commit`, retried while git finds a lock taken;
    /// the new commit's id.
    fn commit(&self, dir: &Path, path: &str, content: &str) -> Option<String> {
        for attempt in 0..300 {
            if attempt > 0 {
                self.count("agent commits retried (a lock taken)", 1);
                std::thread::sleep(Duration::from_millis(15));
            }
            if fs::read_to_string(dir.join(path)).ok().as_deref() != Some(content) {
                let _ = fs::write(dir.join(path), content);
            }
            if !git(&self.repo, dir, &["add", "--", path]).0 {
                continue;
            }
            // As an agent commits: what it staged, from the index (not
            // `commit -- <path>`, which starts from HEAD).
            let out = self
                .repo
                .git_in(dir, ["-c", "core.abbrev=no", "commit", "-m", path]);
            if out.status.success() {
                // "[loop/a1 <full id>] message"
                let text = String::from_utf8_lossy(&out.stdout);
                let head = text.lines().next().unwrap_or("");
                let id = head
                    .split(']')
                    .next()
                    .and_then(|h| h.split_whitespace().last());
                return id.map(str::to_owned);
            }
        }
        None
    }

    /// An agent: a commit of a new file in its run, again and again, a
    /// moment's thought (up to 200 ms) between two.
    fn agent(&self, id: &str, seed: u64) {
        let mut rng = Rng::new(seed);
        let wt = self.repo.wt(id);
        let mut n = 0;
        while !self.done.load(Ordering::Relaxed) {
            self.pause(rng.below(200) as u64);
            n += 1;
            let path = format!("{id}/{n}.txt");
            let content = format!("{id}'s work, commit {n}\n");
            let _ = fs::create_dir_all(wt.join(id));
            if fs::write(wt.join(&path), &content).is_err() {
                self.fail("an agent's worktree went away", id);
                return;
            }
            let Some(commit) = self.commit(&wt, &path, &content) else {
                let status = porcelain(&self.repo, &wt).join("\n");
                self.fail(
                    "an agent could not commit for 5 s",
                    &format!("{id}: {status}"),
                );
                return;
            };
            let mut l = self.ledger.lock().unwrap();
            l.agent_commits
                .entry(id.to_owned())
                .or_default()
                .push(commit);
            l.agent_files
                .entry(id.to_owned())
                .or_default()
                .insert(path, content);
            l.tally.count("agent commits", 1);
        }
    }

    /// A new run with one commit of its own, for `land` and `cleanup`.
    fn create(&self, rng: &mut Rng) -> Option<String> {
        let id = format!("l{}", self.next.fetch_add(1, Ordering::Relaxed));
        let ran = self.gl(&["--json", "create", &id, "--pattern", "race"]);
        if ran.code != Some(0) {
            return None;
        }
        let wt = self.repo.wt(&id);
        let path = format!("{id}.txt");
        let content = format!("{id}, {}\n", rng.next());
        fs::write(wt.join(&path), &content).ok()?;
        let commit = self.commit(&wt, &path, &content)?;
        let mut l = self.ledger.lock().unwrap();
        l.other_commits.push(commit);
        l.tally.count("runs created", 1);
        Some(id)
    }

    /// Create runs; mark them escalated (most) or rejected; flip the
    /// agents' runs between `active` and `stale`.
    fn marker(&self, seed: u64) {
        let mut rng = Rng::new(seed);
        while !self.done.load(Ordering::Relaxed) {
            if let Some(id) = self.create(&mut rng) {
                self.pause(rng.below(300) as u64);
                let status = if rng.pct(80) { "escalated" } else { "rejected" };
                if self.gl(&["--json", "mark", &id, status]).code == Some(0) {
                    self.count(&format!("marked {status}"), 1);
                }
            }
            if rng.pct(30) {
                let agent = &self.agents[rng.below(self.agents.len())];
                if self.gl(&["--json", "mark", agent, "stale"]).code == Some(0) {
                    self.count("agents' runs marked stale", 1);
                }
                self.pause(rng.below(400) as u64);
                if self.gl(&["--json", "mark", agent, "active"]).code != Some(0) {
                    self.fail("mark active of an agent's run failed", agent);
                }
            }
            self.pause(rng.below(200) as u64);
        }
    }

    /// `sync`, again and again.
    fn syncer(&self, seed: u64) {
        let mut rng = Rng::new(seed);
        while !self.done.load(Ordering::Relaxed) {
            let mut args = vec!["--json", "sync", "--keep-going"];
            if rng.pct(20) {
                args.extend(["--strategy", "merge"]);
            }
            let named;
            if rng.pct(25) {
                named = self.agents[rng.below(self.agents.len())].clone();
                args.push(&named);
            }
            let ran = self.gl(&args);
            self.count("syncs", 1);
            if let Some(v) = ran.json {
                self.tally_sync(&v);
            }
            self.pause(rng.below(150) as u64);
        }
    }

    fn tally_sync(&self, v: &Value) {
        let mut l = self.ledger.lock().unwrap();
        for s in v["synced"].as_array().into_iter().flatten() {
            let text = |k: &str| s[k].as_str().unwrap_or("").to_owned();
            l.synced.push((text("id"), text("from"), text("trashRef")));
            let strategy = text("strategy");
            l.tally.count(&format!("runs synced ({strategy})"), 1);
        }
        for s in v["skipped"].as_array().into_iter().flatten() {
            let code = s["code"].as_str().unwrap_or("");
            if SKIP_CODES.contains(&code) {
                l.tally.count(&format!("sync skipped: {code}"), 1);
            } else {
                l.tally.fail(
                    "a sync skip with a code outside the contract",
                    &s.to_string(),
                );
            }
        }
    }

    /// `land --queue` and `cleanup`, in turn.
    fn lander(&self, seed: u64) {
        let mut rng = Rng::new(seed);
        while !self.done.load(Ordering::Relaxed) {
            let ran = self.gl(&["--json", "land", "--queue", "--keep-going"]);
            if let Some(v) = ran.json {
                self.count("landed", v["landed"].as_array().map_or(0, Vec::len));
            }
            self.pause(100 + rng.below(300) as u64);
            let mut args = vec!["--json", "cleanup"];
            if rng.pct(40) {
                args.push("--delete-merged-branches");
            }
            let ran = self.gl(&args);
            if let Some(v) = ran.json {
                self.count(
                    "removed by cleanup",
                    v["removed"].as_array().map_or(0, Vec::len),
                );
            }
            self.pause(100 + rng.below(300) as u64);
        }
    }
}

/// A repository whose `main` has a few files, and `agents` runs with one
/// commit each.
fn race_fixture(agents: usize) -> Race {
    let repo = TestRepo::new();
    fs::create_dir_all(repo.root.join("base")).unwrap();
    for i in 0..20 {
        fs::write(
            repo.root.join(format!("base/b{i}.txt")),
            format!("base {i}\n"),
        )
        .unwrap();
    }
    repo.git(["add", "base"]);
    repo.git(["commit", "-q", "-m", "base files"]);
    let ids: Vec<String> = (1..=agents).map(|i| format!("a{i}")).collect();
    let race = Race {
        repo,
        agents: ids.clone(),
        done: AtomicBool::new(false),
        next: AtomicU64::new(1),
        ledger: Mutex::new(Ledger::default()),
    };
    for id in &ids {
        race.repo.create(id);
        let wt = race.repo.wt(id);
        fs::create_dir_all(wt.join(id)).unwrap();
        fs::write(wt.join(format!("{id}/0.txt")), format!("{id}'s start\n")).unwrap();
        let commit = race.commit(&wt, &format!("{id}/0.txt"), &format!("{id}'s start\n"));
        let mut l = race.ledger.lock().unwrap();
        l.agent_commits
            .entry(id.clone())
            .or_default()
            .push(commit.unwrap());
        l.agent_files
            .entry(id.clone())
            .or_default()
            .insert(format!("{id}/0.txt"), format!("{id}'s start\n"));
    }
    race
}

/// Every agent's run afterwards: its commits reachable from its branch or
/// the trash, its files in its branch as written, its worktree on its
/// branch, clean, nothing in progress.
fn check_agents(race: &Race, l: &mut Ledger) {
    let repo = &race.repo;
    for id in &race.agents {
        let branch = format!("refs/heads/loop/{id}");
        let kept = reachable(repo, &[&branch, "refs/loop/trash/*"]);
        for c in &l.agent_commits[id] {
            if !kept.contains(c) {
                l.tally.fail(
                    "an agent's commit is reachable from neither its branch nor the trash",
                    &format!("{id}: {c}"),
                );
            }
        }
        for (path, content) in &l.agent_files[id] {
            let (ok, text) = git(repo, &repo.root, &["show", &format!("{branch}:{path}")]);
            if !ok || format!("{text}\n") != *content {
                l.tally.fail(
                    "an agent's file is not in its branch as written",
                    &format!("{id}: {path}"),
                );
            }
        }
        let wt = repo.wt(id);
        let (_, head) = git(repo, &wt, &["symbolic-ref", "HEAD"]);
        if head != branch {
            l.tally.fail(
                "an agent's worktree is not on its branch",
                &format!("{id}: HEAD {head}"),
            );
        }
        if let Some(op) = in_progress(repo, &wt) {
            l.tally.fail(
                "an agent's worktree has an operation in progress",
                &format!("{id}: {op}"),
            );
        }
        let status = porcelain(repo, &wt);
        if !status.is_empty() {
            let diff = git(repo, &wt, &["diff", "--cached", "--stat"]).1;
            l.tally.fail(
                "an agent's worktree does not follow its branch (git status shows changes the agent did not make)",
                &format!("{id}: {}\n{diff}", status.join("\n")),
            );
        }
    }
}

/// An agent's commit that changed a path outside the agent's own
/// directory: one made on a branch a sync had moved while the worktree's
/// index was still the old one, so it undid the sync's change.
fn count_undoing_commits(race: &Race, l: &mut Ledger) {
    let mut undoing = Vec::new();
    for (id, commits) in &l.agent_commits {
        for c in commits.iter().skip(1) {
            let (_, paths) = git(
                &race.repo,
                &race.repo.root,
                &[
                    "diff-tree",
                    "--no-commit-id",
                    "--name-only",
                    "-r",
                    "-m",
                    "--first-parent",
                    c,
                ],
            );
            let foreign: Vec<&str> = paths
                .lines()
                .filter(|p| !p.starts_with(&format!("{id}/")))
                .collect();
            if !foreign.is_empty() {
                let (_, parent) = git(
                    &race.repo,
                    &race.repo.root,
                    &["log", "-1", "--format=%P %s", &format!("{c}^")],
                );
                undoing.push(format!(
                    "{id}: {c} (parent {parent}) also changes {} paths: {:?}",
                    foreign.len(),
                    &foreign[..foreign.len().min(4)]
                ));
            }
        }
    }
    if !undoing.is_empty() {
        l.tally.fail(
            "an agent's commit undid a sync (made on the moved branch from the old index)",
            &undoing.join("\n"),
        );
    }
}

fn check_race(race: &Race) {
    let repo = &race.repo;
    let mut l = race.ledger.lock().unwrap();
    check_agents(race, &mut l);
    count_undoing_commits(race, &mut l);
    let trash = trash_tips(repo);
    for (id, from, trash_ref) in l.synced.clone() {
        let (ok, tip) = git(
            repo,
            &repo.root,
            &["rev-parse", "--verify", "-q", &trash_ref],
        );
        let kept = (ok && tip == from) || trash.contains(&from);
        if !kept {
            l.tally.fail(
                "a synced run's old tip is not in the trash",
                &format!("{id}: {from} ({trash_ref}: {tip})"),
            );
        }
    }
    let (errors, unreachable) = fsck(repo);
    if !errors.is_empty() {
        l.tally.fail("git fsck is not clean", &errors.join("\n"));
    }
    let made: Vec<String> = l
        .agent_commits
        .values()
        .flatten()
        .chain(&l.other_commits)
        .cloned()
        .collect();
    for c in made.iter().filter(|c| unreachable.contains(*c)) {
        l.tally.fail(
            "a worker's commit is unreachable (git fsck --unreachable --no-reflogs)",
            c,
        );
    }
    check_manifest(repo, &mut l.tally);
}

fn race_for(secs: u64, agents: usize) {
    let seed = seed_from_env();
    let race = race_fixture(agents);
    let deadline = Instant::now() + Duration::from_secs(secs);
    std::thread::scope(|s| {
        let race = &race;
        for (n, id) in race.agents.iter().enumerate() {
            s.spawn(move || race.agent(id, seed ^ (16 + n as u64)));
        }
        s.spawn(move || race.syncer(seed ^ 1));
        s.spawn(move || race.syncer(seed ^ 2));
        s.spawn(move || race.marker(seed ^ 3));
        s.spawn(move || race.lander(seed ^ 4));
        while Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        race.done.store(true, Ordering::Relaxed);
    });
    // Once more with nothing racing it: every agent's run syncs, or says why not.
    let ran = race.gl(&["--json", "sync", "--keep-going"]);
    if let Some(v) = &ran.json {
        race.tally_sync(v);
    }
    check_race(&race);
    race.ledger.lock().unwrap().tally.verdict("sync race", seed);
}

#[test]
fn sync_racing_land_cleanup_mark_and_committing_agents_drops_no_commit() {
    race_for(
        env_or("STORM_SYNC_SECS", 8),
        env_or("STORM_SYNC_AGENTS", 2) as usize,
    );
}

#[test]
#[ignore = "long: sync racing land --queue, cleanup, mark and agents for STORM_SYNC_SECS (45 s); run by scripts/test"]
fn a_long_sync_race_drops_no_commit() {
    race_for(
        env_or("STORM_SYNC_SECS", 45),
        env_or("STORM_SYNC_AGENTS", 4) as usize,
    );
}

// ---------------------------------------------------------------- kills

/// Runs of the kill fixture: `r0`..`r9`.
const RUNS: usize = 10;
/// The run whose uncommitted change is in a file the sync changes.
const DIRTY: usize = 8;
/// The run that conflicts with the base.
const CONFLICTING: usize = 9;
/// Files `main` changes after the runs started (so a worktree's update
/// takes a while, and a kill can fall into it).
const MOVED_FILES: usize = 300;

/// One run of the kill fixture, as it was before any sync.
struct Before {
    id: String,
    old: String,
    /// The tree the synced tip has (git's merge of the base's tip and the
    /// run), `None` for the conflicting run.
    synced_tree: Option<String>,
    /// `git status` of its worktree: its own uncommitted work.
    status: Vec<String>,
    /// Its uncommitted files, byte for byte (`None`: deleted).
    own: BTreeMap<String, Option<Vec<u8>>>,
}

struct KillFixture {
    repo: TestRepo,
    base: String,
    runs: Vec<Before>,
}

/// `main` with files under `base/`; `runs` runs (ten: `r0`..`r9`), each with two commits of its
/// own (`r<i>/`), some with uncommitted work of their own: an unstaged
/// change and an untracked file (`i % 3 == 0`), a staged new file
/// (`i % 3 == 1`); `r8` with a local change to `base/b1.txt`, which `main`
/// then changes; `r9` committed a change to `base/b0.txt`, which `main`
/// changes too. Then `main` moves by three commits changing
/// [`MOVED_FILES`] files.
fn kill_fixture(runs: usize) -> KillFixture {
    let repo = TestRepo::new();
    fs::create_dir_all(repo.root.join("base")).unwrap();
    for i in 0..MOVED_FILES {
        fs::write(
            repo.root.join(format!("base/b{i}.txt")),
            format!("base {i}\n"),
        )
        .unwrap();
    }
    repo.git(["add", "base"]);
    repo.git(["commit", "-q", "-m", "base files"]);
    for i in 0..runs {
        let id = format!("r{i}");
        repo.create(&id);
        let wt = repo.wt(&id);
        fs::create_dir_all(wt.join(&id)).unwrap();
        for k in 0..2 {
            let path = format!("{id}/c{k}.txt");
            fs::write(wt.join(&path), format!("{id} commit {k}\n")).unwrap();
            git_must(&repo, &wt, &["add", "--", &path]);
            git_must(&repo, &wt, &["commit", "-q", "-m", &path]);
        }
        if i == CONFLICTING {
            fs::write(wt.join("base/b0.txt"), "base 0\nas r9 has it\n").unwrap();
            git_must(
                &repo,
                &wt,
                &["commit", "-q", "-am", "r9 changes base/b0.txt"],
            );
        }
        own_work(&repo, &wt, i);
    }
    for step in 0..3 {
        for f in (step..MOVED_FILES).step_by(3) {
            fs::write(
                repo.root.join(format!("base/b{f}.txt")),
                format!("base {f}\nmoved by main, step {step}\n"),
            )
            .unwrap();
        }
        repo.git(["commit", "-q", "-am", &format!("main moves, step {step}")]);
    }
    let base = git_must(&repo, &repo.root, &["rev-parse", "main"]);
    let runs = (0..runs).map(|i| before(&repo, &base, i)).collect();
    KillFixture { repo, base, runs }
}

/// The run's uncommitted work of its own (see [`kill_fixture`]).
fn own_work(repo: &TestRepo, wt: &Path, i: usize) {
    let id = format!("r{i}");
    match i {
        DIRTY => fs::write(wt.join("base/b1.txt"), "base 1\nr8's own, not committed\n").unwrap(),
        CONFLICTING => {}
        _ if i.is_multiple_of(3) => {
            fs::write(
                wt.join(format!("{id}/c0.txt")),
                format!("{id} commit 0\nnot committed\n"),
            )
            .unwrap();
            fs::write(wt.join(format!("{id}/scratch.txt")), "untracked notes\n").unwrap();
        }
        _ if i % 3 == 1 => {
            fs::write(
                wt.join(format!("{id}/staged.txt")),
                "staged, not committed\n",
            )
            .unwrap();
            git_must(repo, wt, &["add", "--", &format!("{id}/staged.txt")]);
        }
        _ => {}
    }
}

fn before(repo: &TestRepo, base: &str, i: usize) -> Before {
    let id = format!("r{i}");
    let wt = repo.wt(&id);
    let old = git_must(repo, &repo.root, &["rev-parse", &format!("loop/{id}")]);
    let merged = repo.git_in(&repo.root, ["merge-tree", "--write-tree", base, &old]);
    let synced_tree = merged.status.success().then(|| {
        String::from_utf8_lossy(&merged.stdout)
            .lines()
            .next()
            .unwrap()
            .to_owned()
    });
    let status = porcelain(repo, &wt);
    let own = status
        .iter()
        .map(|l| l[3..].to_owned())
        .map(|p| {
            let bytes = fs::read(wt.join(&p)).ok();
            (p, bytes)
        })
        .collect();
    Before {
        id,
        old,
        synced_tree,
        status,
        own,
    }
}

/// Where a run is after a sync, killed or not.
#[derive(Debug, PartialEq)]
enum Found {
    /// At its old tip, its worktree as it was.
    Old,
    /// At its synced tip, its worktree following.
    Synced,
    /// At its synced tip, its worktree not (wholly) updated: a kill between
    /// the branch's move and the worktree's update.
    Unfinished(String),
    /// At its old tip, its worktree as it was but for its index's lock: a
    /// kill after the sync locked the index and before the branch moved.
    LockedAtOld,
    /// Anything else: a failure.
    Wrong(String),
}

/// Whether `tip` is the synced tip of `run`: the base's tip in its history,
/// the run's commits on it, the tree git's merge gives.
fn is_synced(repo: &TestRepo, base: &str, run: &Before, tip: &str) -> bool {
    let Some(tree) = &run.synced_tree else {
        return false;
    };
    let (_, has) = git(repo, &repo.root, &["rev-parse", &format!("{tip}^{{tree}}")]);
    let on_base = git(
        repo,
        &repo.root,
        &["merge-base", "--is-ancestor", base, tip],
    )
    .0;
    let keeps_old = git(
        repo,
        &repo.root,
        &["merge-base", "--is-ancestor", &run.old, tip],
    )
    .0;
    let (_, count) = git(
        repo,
        &repo.root,
        &["rev-list", "--count", &format!("{base}..{tip}")],
    );
    // Rebased: the run's two commits replayed; merged: the old tip and a
    // merge commit of the base.
    let shape = count == "2" || (keeps_old && count == "3");
    has == *tree && on_base && shape
}

/// Where `run` is now: its branch, its worktree, its own files.
fn found(repo: &TestRepo, base: &str, run: &Before) -> Found {
    let wt = repo.wt(&run.id);
    let (_, tip) = git(
        repo,
        &repo.root,
        &["rev-parse", &format!("loop/{}", run.id)],
    );
    for (path, bytes) in &run.own {
        if fs::read(wt.join(path)).ok() != *bytes {
            return Found::Wrong(format!("its uncommitted {path} changed"));
        }
    }
    let status = porcelain(repo, &wt);
    let op = in_progress(repo, &wt);
    let follows = status == run.status && op.is_none();
    let shown = || {
        let head: Vec<&String> = status.iter().take(6).collect();
        format!(
            "git status ({} lines): {head:?}…, in progress: {op:?}, was {:?}",
            status.len(),
            run.status
        )
    };
    if tip == run.old {
        return if follows {
            Found::Old
        } else if status == run.status && op.as_deref() == Some("index.lock") {
            Found::LockedAtOld
        } else {
            Found::Wrong(format!("at its old tip, its worktree changed: {}", shown()))
        };
    }
    if !is_synced(repo, base, run, &tip) {
        return Found::Wrong(format!(
            "its branch at {tip}: neither its old tip nor a synced one"
        ));
    }
    if !trash_tips(repo).contains(&run.old) {
        return Found::Wrong(format!("synced, its old tip {} not in the trash", run.old));
    }
    if follows {
        Found::Synced
    } else {
        Found::Unfinished(shown())
    }
}

/// Whether the worktree's `index.lock` is the one its sync marker
/// (`loop-sync-index.owner`) names, by device and inode.
fn marker_names_lock(repo: &TestRepo, wt: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    let (_, git_dir) = git(repo, wt, &["rev-parse", "--absolute-git-dir"]);
    let git_dir = Path::new(&git_dir);
    let (Ok(text), Ok(lock)) = (
        fs::read_to_string(git_dir.join("loop-sync-index.owner")),
        fs::metadata(git_dir.join("index.lock")),
    ) else {
        return false;
    };
    text.trim() == format!("{} {}", lock.dev(), lock.ino())
}

/// `git-loop --json sync --keep-going` in a process group of its own,
/// `kill -9`ed after `delay` (the group, or git-loop alone, which leaves
/// its git children to finish); how long it took when it ended before the
/// kill.
fn killed_sync(fixture: &KillFixture, delay: Duration, group: bool) -> Option<Duration> {
    let repo = &fixture.repo;
    let mut child = repo
        .command()
        .args(["--json", "sync", "--keep-going"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .unwrap();
    let start = Instant::now();
    while start.elapsed() < delay {
        if child.try_wait().unwrap().is_some() {
            return Some(start.elapsed());
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    let pid = child.id();
    if group {
        send("KILL", &format!("-{pid}"));
    } else {
        send("KILL", &pid.to_string());
    }
    child.wait().unwrap();
    // What the group left running (git's children of a git-loop killed
    // alone) finishes first.
    let until = Instant::now() + Duration::from_secs(20);
    while group_alive(pid) && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(10));
    }
    age_dead_holders(repo);
    None
}

/// Whether any process of the group `pgid` is still running.
fn group_alive(pgid: u32) -> bool {
    std::process::Command::new("kill")
        .args(["-0", "--", &format!("-{pgid}")])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// One round: a fresh fixture, a sync killed after `delay`, the state
/// checked, then the next sync, and the state checked again; how long the
/// sync took when it ended before the kill.
fn kill_round(round: usize, delay: Duration, group: bool, tally: &mut Tally) -> Option<Duration> {
    let fixture = kill_fixture(RUNS);
    let repo = &fixture.repo;
    let how = if group { "the group" } else { "git-loop alone" };
    let ended = killed_sync(&fixture, delay, group);
    if ended.is_some() {
        tally.count("rounds whose sync ended before the kill", 1);
    } else {
        tally.count(&format!("kill -9 to {how}"), 1);
    }
    let mut unfinished = Vec::new();
    // Runs left at their old tip with a lock whose marker does not name
    // it: killed in the few system calls between taking the lock and
    // writing the marker (see `checkout::claim`); the lock is then a
    // person's to remove, never the next sync's.
    let mut unmarked = Vec::new();
    for run in &fixture.runs {
        match found(repo, &fixture.base, run) {
            Found::Old => tally.count("after a kill: a run at its old tip", 1),
            Found::LockedAtOld if !marker_names_lock(repo, &repo.wt(&run.id)) => {
                tally.count(
                    "after a kill: a run at its old tip, its index locked before its marker was written (kept for a person)",
                    1,
                );
                unmarked.push(run.id.clone());
            }
            Found::LockedAtOld => tally.count(
                "after a kill: a run at its old tip, its index locked (before the move)",
                1,
            ),
            Found::Synced => tally.count("after a kill: a run synced", 1),
            Found::Unfinished(why) => {
                let lock = if why.contains("index.lock") {
                    "its index locked (the in-process update was writing)"
                } else {
                    "its index free"
                };
                tally.count(
                    &format!("after a kill: a run moved, its worktree not yet, {lock}"),
                    1,
                );
                unfinished.push((run.id.clone(), why));
            }
            Found::Wrong(why) => tally.fail(
                "after a kill, a run is neither old nor synced",
                &format!("round {round} ({how}, {delay:?}): {}: {why}", run.id),
            ),
        }
    }
    let next = gl(repo, &["--json", "sync", "--keep-going"]);
    let next_json = next.json.clone().unwrap_or_default();
    for run in &fixture.runs {
        let state = found(repo, &fixture.base, run);
        if matches!(state, Found::Old | Found::Synced) {
            continue;
        }
        if state == Found::LockedAtOld && unmarked.contains(&run.id) {
            continue;
        }
        let said = next_json["skipped"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|s| s["id"] == run.id.as_str())
            .map(Value::to_string)
            .unwrap_or_default();
        let was = unfinished.iter().find(|(id, _)| *id == run.id);
        tally.fail(
            "the next sync did not finish or undo a killed sync",
            &format!(
                "round {round} ({how}, {delay:?}): {}: {state:?}; after the kill: {was:?}; its sync marker names its index lock: {}; the next sync said: {said} {}",
                run.id,
                marker_names_lock(repo, &repo.wt(&run.id)),
                next.stderr.trim()
            ),
        );
    }
    expect_settled(&fixture, &next_json, round, tally);
    check_manifest(repo, tally);
    ended
}

/// After the sync that follows a kill: the dirty run and the conflicting
/// one at their old tips, every old tip reachable.
fn expect_settled(fixture: &KillFixture, next: &Value, round: usize, tally: &mut Tally) {
    let repo = &fixture.repo;
    for i in [DIRTY, CONFLICTING] {
        let run = &fixture.runs[i];
        if found(repo, &fixture.base, run) != Found::Old {
            tally.fail(
                "the dirty or the conflicting run moved",
                &format!("round {round}: {}", run.id),
            );
        }
    }
    for s in next["skipped"].as_array().into_iter().flatten() {
        let code = s["code"].as_str().unwrap_or("");
        tally.count(&format!("the next sync skipped: {code}"), 1);
    }
    let (errors, unreachable) = fsck(repo);
    if !errors.is_empty() {
        tally.fail(
            "git fsck is not clean",
            &format!("round {round}: {}", errors.join("\n")),
        );
    }
    for run in fixture.runs.iter().filter(|r| unreachable.contains(&r.old)) {
        tally.fail(
            "a run's old tip is unreachable",
            &format!("round {round}: {}", run.id),
        );
    }
}

/// How long a whole sync of the fixture takes here, and that it does what
/// the contract says: seven runs synced, `r8` skipped `dirty`, `r9`
/// `conflict`, each worktree following.
fn calibrate(tally: &mut Tally) -> Duration {
    let fixture = kill_fixture(RUNS);
    let repo = &fixture.repo;
    let start = Instant::now();
    let ran = gl(repo, &["--json", "sync", "--keep-going"]);
    let took = start.elapsed();
    let v = ran.json.unwrap_or_default();
    let code_of = |id: &str| {
        v["skipped"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|s| s["id"] == id)
            .map(|s| s["code"].as_str().unwrap_or("").to_owned())
    };
    if code_of("r8").as_deref() != Some("dirty") || code_of("r9").as_deref() != Some("conflict") {
        tally.fail(
            "an uninterrupted sync did not skip r8 (dirty) and r9 (conflict)",
            &format!("{v}\n{}", ran.stderr),
        );
    }
    for run in &fixture.runs {
        let state = found(repo, &fixture.base, run);
        if !matches!(state, Found::Old | Found::Synced) {
            tally.fail(
                "an uninterrupted sync left a run wrong",
                &format!("{}: {state:?}", run.id),
            );
        }
    }
    tally.count(
        "runs an uninterrupted sync synced",
        v["synced"].as_array().map_or(0, Vec::len),
    );
    took
}

fn kill_rounds(rounds: usize) {
    let seed = seed_from_env();
    let mut rng = Rng::new(seed);
    let mut tally = Tally::default();
    let mut whole = calibrate(&mut tally);
    tally.count(
        &format!("an uninterrupted sync took (ms) {}", whole.as_millis()),
        1,
    );
    for round in 0..rounds {
        // Anywhere from the start to a little past the end of a whole sync.
        let span = whole.as_millis() as usize * 11 / 10 + 1;
        let delay = Duration::from_millis(rng.below(span) as u64);
        let group = !rng.pct(25);
        // A sync that ended before its kill says how long one takes now
        // (the machine's load changes): the next kills fall inside that.
        if let Some(took) = kill_round(round, delay, group, &mut tally) {
            whole = took;
        }
    }
    tally.verdict(&format!("sync killed {rounds} times"), seed);
}

#[test]
fn kill_9_at_random_points_of_a_sync_of_ten_runs_loses_nothing() {
    kill_rounds(env_or("STORM_SYNC_ROUNDS", 3) as usize);
}

#[test]
#[ignore = "long: 15 rounds of a sync of 10 runs killed at random (STORM_SYNC_ROUNDS); run by scripts/test"]
fn kill_9_at_random_points_of_a_sync_fifteen_times_loses_nothing() {
    kill_rounds(env_or("STORM_SYNC_ROUNDS", 15) as usize);
}

/// Where a sync stops at each of its crash points (the advance's, which
/// `sync` moves a run's branch with), and where the run must be then:
/// `land-before-ref` nothing moved; `land-after-ref` the branch moved, the
/// worktree not yet; `land-after-files` its files written, its index not
/// (and locked); `land-after-checkout` both done.
const POINTS: [(&str, Found); 4] = [
    ("land-before-ref", Found::Old),
    ("land-after-ref", Found::Unfinished(String::new())),
    ("land-after-files", Found::Unfinished(String::new())),
    ("land-after-checkout", Found::Synced),
];

/// Killed at each point, a sync leaves the run old, synced, or (between
/// the branch's move and the worktree's update) unfinished; then the next
/// `sync` of that run finishes it or undoes it, its own uncommitted work
/// untouched, and (if it undid it) the one after syncs it.
#[test]
fn a_sync_killed_between_the_branch_move_and_the_worktree_update_is_settled_by_the_next_sync() {
    let mut tally = Tally::default();
    for (point, expected) in POINTS {
        // r0: an unstaged change and an untracked file of its own; r1: a
        // staged new file.
        for id in ["r0", "r1"] {
            let fixture = kill_fixture(2);
            let repo = &fixture.repo;
            let run = fixture.runs.iter().find(|r| r.id == id).unwrap();
            kill_9_at(repo, point, &["sync", id]);
            age_dead_holders(repo);
            let state = found(repo, &fixture.base, run);
            let as_expected = match (&state, &expected) {
                (Found::Unfinished(_), Found::Unfinished(_)) => true,
                (a, b) => a == b,
            };
            if !as_expected {
                tally.fail(
                    "killed at a point, a run is not where that point leaves it",
                    &format!("{point}, {id}: {state:?}, expected {expected:?}"),
                );
            }
            settle(&fixture, run, point, &mut tally);
        }
    }
    tally.verdict("sync killed at each crash point", 0);
}

/// The next `sync` of `run` (and, when it undid the move, the one after)
/// leaves it synced, its worktree following, its own work intact.
fn settle(fixture: &KillFixture, run: &Before, point: &str, tally: &mut Tally) {
    let repo = &fixture.repo;
    let mut said = Vec::new();
    for _ in 0..2 {
        let next = gl(repo, &["--json", "sync", &run.id]);
        said.push(format!(
            "exit {:?}: {}",
            next.code,
            next.json
                .map(|v| v["skipped"].to_string())
                .unwrap_or(next.stderr)
        ));
        match found(repo, &fixture.base, run) {
            Found::Synced => {
                tally.count(
                    &format!("{point}: synced after {} more sync(s)", said.len()),
                    1,
                );
                return;
            }
            Found::Old => continue,
            state => {
                tally.fail(
                    "the next sync did not finish or undo a killed sync",
                    &format!(
                        "{point}, {}: {state:?}; the next sync said: {said:?}",
                        run.id
                    ),
                );
                return;
            }
        }
    }
    tally.fail(
        "two syncs after a kill did not sync the run",
        &format!("{point}, {}: {said:?}", run.id),
    );
}

/// An agent commits in a run's worktree just after a sync moved the run's
/// branch and before it updated the worktree (held at `land-after-ref`):
/// the commit never undoes the sync (its tree the old one's, its parent the
/// synced tip) — git refuses it while the sync holds the worktree, or it is
/// made on the updated index. Afterwards the branch has the base's change
/// and the agent's, and the worktree follows it.
#[test]
fn an_agent_committing_between_the_branch_move_and_the_worktree_update_undoes_nothing() {
    let fixture = kill_fixture(1);
    let repo = &fixture.repo;
    let wt = repo.wt("r0");
    let go = repo.base().join("go");
    let spec = format!("land-after-ref:until:{}", go.display());
    let mut sync = crate::common::spawn_until(
        repo,
        &[("GIT_LOOP_TEST_CRASH", &spec)],
        &["sync", "r0"],
        "paused at land-after-ref",
    );
    fs::write(wt.join("r0/agent.txt"), "the agent's\n").unwrap();
    let added = git(repo, &wt, &["add", "--", "r0/agent.txt"]).0;
    let committed = added && git(repo, &wt, &["commit", "-q", "-m", "agent"]).0;
    fs::write(&go, "").unwrap();
    assert!(sync.wait().unwrap().code().is_some());
    if !committed {
        // Refused while the sync held the worktree: the agent tries again.
        git_must(repo, &wt, &["add", "--", "r0/agent.txt"]);
        git_must(repo, &wt, &["commit", "-q", "-m", "agent"]);
    }
    let changed = git_must(
        repo,
        &wt,
        &["diff-tree", "--no-commit-id", "--name-only", "-r", "HEAD"],
    );
    let changed: Vec<&str> = changed.lines().collect();
    assert!(
        changed == ["r0/agent.txt"],
        "the agent's commit (made {}) changes {} paths, not only its file ({:?}…): it undid the sync",
        if committed {
            "while the sync was held"
        } else {
            "after it"
        },
        changed.len(),
        &changed[..changed.len().min(4)]
    );
    let base_file = git_must(repo, &wt, &["show", "loop/r0:base/b0.txt"]);
    assert!(
        base_file.contains("moved by main"),
        "the base's change is gone"
    );
    let status = porcelain(repo, &wt);
    assert_eq!(
        status, fixture.runs[0].status,
        "the worktree does not follow its branch"
    );
}
