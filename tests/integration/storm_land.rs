//! The landing storm: many workers at once land runs onto `main`, checked
//! out in a real main checkout that holds the user's own work, while a
//! killer interrupts the landings as a terminal's Ctrl-C does (SIGINT to the
//! process group, so git's children get it too) and sometimes `kill -9`s
//! them. Landings onto `main` are serialized by git-loop alone: the test
//! takes no lock of its own.
//!
//! The main checkout: on `main`, tracked files (four `shared/` files some
//! runs change, so some landings conflict), the user's unstaged change to
//! `notes.txt`, a staged change to `todo.txt`, and an ignored `.env`; no
//! run ever touches those three. `core.autocrlf = true`, so git-loop leaves
//! the checkout's update to `git read-tree -m -u` — by default only part of
//! the time: a thread unsets and sets it again every few seconds, so the
//! in-process checkout is in the mix too (`STORM_LAND_AUTOCRLF=always`
//! keeps it set). A few runs force-add a `.env` of their own: landing one
//! would overwrite the user's.
//!
//! Workers create runs, commit in them (files unique to the run; sometimes
//! a bulk commit of many files, so `read-tree` writes for a while; sometimes
//! a `shared/` file), mark them escalated or rejected, and run
//! `land <id>`, `land --queue`, `cleanup` and `list --long` at random, each
//! git-loop in a process group of its own, half of them through `git loop`
//! (git the parent, forwarding the signal as it does). The killer, about
//! every `STORM_LAND_KILL_MS`: half the time it hunts — watches every
//! running landing for up to 2 s and sends SIGINT to the group of the first
//! one under which a `git read-tree -m -u` runs, or of the only one running
//! while the main checkout's index is locked (git-loop writing it in
//! process); otherwise SIGINT to the group of a random landing (now and
//! then of any git-loop) at a random moment, or SIGKILL to the group or to
//! the process alone. A mutex whose holder was killed is aged past its 30 s
//! stale time at once.
//!
//! The user acts as the messages say: when a landing names an unfinished
//! landing, the user (one at a time) waits half a second, and if it is
//! still unfinished follows its recipe; a recipe that fails is a failure of
//! the storm (then `git read-tree -m -i` and `git restore` finish it, so the
//! storm goes on). A `packed-refs.lock` a kill -9 left (2 s old: nothing
//! holds it that long here) is removed, as git says to, when a command
//! fails on it; such removals are counted in the report.
//!
//! Afterwards: every commit a worker made is reachable (`git fsck
//! --unreachable --no-reflogs` names none); the user's files are byte for
//! byte as they were; `git status --porcelain` of the main checkout shows
//! only the user's own change — or, if not, the next landing names an
//! unfinished landing with its recipe, and following that recipe leaves
//! only the user's change; every run the event log says landed has its
//! files in `main`, and `main` holds no run's files that neither the log nor
//! `main`'s reflog says landed; no `.env` of a run landed; the manifest
//! parses and no mutex is left. Every failure is collected and reported
//! together, with the seed.
//!
//! `STORM_LAND_SECS` (default 45), `STORM_LAND_WORKERS` (default 8) and
//! `STORM_LAND_KILL_MS` (the mean pause between two signals, default 600)
//! size it; `STORM_SEED` replays the workers' choices (not the interleaving).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fs;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::{
    BIN, JsonExt, Rng, TestRepo, age_dead_holders, age_file, env_or, hermetic, seed_from_env, send,
};

const NOTES: &str = "my notes\nwritten, not yet staged\n";
const TODO: &str = "todo\nstaged, not yet committed\n";
const ENV: &str = "SECRET=the user's own, never committed\n";
/// What `git status --porcelain` shows of the user's own change.
const USER_STATUS: [&str; 2] = [" M notes.txt", "M  todo.txt"];
const SHARED: usize = 4;

/// What the workers know of one run.
#[derive(Default)]
struct RunLedger {
    /// Every commit a worker made on it, oldest first.
    commits: Vec<String>,
    /// Each file it committed under `r/<id>/`, with its one content.
    files: BTreeMap<String, String>,
    /// It force-added a `.env` of its own.
    env: bool,
}

#[derive(Default)]
struct Ledger {
    runs: BTreeMap<String, RunLedger>,
    counts: BTreeMap<String, usize>,
    /// Failures of a git-loop command that no signal explains, by its shape
    /// (how many, and the first one's arguments and stderr), and the
    /// storm's own failures (`TEST: `, with the first one's detail).
    failures: BTreeMap<String, (usize, String)>,
}

struct Outcome {
    code: Option<i32>,
    signalled: bool,
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

/// A git-loop process running now: the leader of its process group (git
/// when run as `git loop`, else git-loop), reaped only under its lock.
struct Live {
    child: Arc<Mutex<Child>>,
    landing: bool,
    signalled: Arc<AtomicBool>,
}

struct Storm {
    repo: TestRepo,
    scratch: PathBuf,
    /// PATH with the built git-loop first, for `git loop`.
    path: std::ffi::OsString,
    ledger: Mutex<Ledger>,
    live: Mutex<HashMap<u64, Live>>,
    /// The user, who follows an unfinished landing's recipe.
    user: Mutex<()>,
    token: AtomicU64,
    done: AtomicBool,
    signals: AtomicUsize,
    kill_ms: u64,
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

    /// Run git-loop in the main checkout, in a process group of its own,
    /// as `git loop` when `through_git`; killable by the killer.
    fn gl(&self, through_git: bool, args: &[&str]) -> Outcome {
        let tok = self.nonce();
        let out_path = self.scratch.join(format!("{tok}.out"));
        let err_path = self.scratch.join(format!("{tok}.err"));
        let mut cmd = if through_git {
            let mut cmd = Command::new("git");
            hermetic(&mut cmd, &self.repo.home);
            cmd.env("PATH", &self.path)
                .current_dir(&self.repo.root)
                .arg("loop");
            cmd
        } else {
            self.repo.command()
        };
        let child = cmd
            .args(args)
            .stdout(fs::File::create(&out_path).unwrap())
            .stderr(fs::File::create(&err_path).unwrap())
            .process_group(0)
            .spawn()
            .unwrap();
        let child = Arc::new(Mutex::new(child));
        let signalled = Arc::new(AtomicBool::new(false));
        let landing = args.contains(&"land");
        self.live.lock().unwrap().insert(
            tok,
            Live {
                child: child.clone(),
                landing,
                signalled: signalled.clone(),
            },
        );
        let started = Instant::now();
        let status = loop {
            let mut c = child.lock().unwrap();
            if let Some(s) = c.try_wait().unwrap() {
                break s;
            }
            if started.elapsed() > Duration::from_secs(120) {
                send("KILL", &format!("-{}", c.id()));
                let s = c.wait().unwrap();
                drop(c);
                self.failure(&format!("{args:?} hung for 120 s, killed"), "");
                break s;
            }
            drop(c);
            std::thread::sleep(Duration::from_millis(4));
        };
        self.live.lock().unwrap().remove(&tok);
        let stdout = fs::read_to_string(&out_path).unwrap_or_default();
        let stderr = fs::read_to_string(&err_path).unwrap_or_default();
        let _ = fs::remove_file(&out_path);
        let _ = fs::remove_file(&err_path);
        let outcome = Outcome {
            code: status.code(),
            signalled: signalled.load(Ordering::Relaxed),
            stdout,
            stderr,
        };
        let cmd = args.iter().find(|a| !a.starts_with('-')).unwrap_or(&"?");
        if !outcome.signalled && outcome.stderr.contains("lock packed refs") {
            self.user_unlocks("packed-refs.lock");
        }
        if outcome.signalled {
            let how = match status.signal() {
                Some(s) => format!("signal {s}"),
                None => format!("exit {:?}", status.code()),
            };
            self.count(&format!("{cmd} interrupted ({how})"), 1);
        } else if !outcome.ok() {
            // Expected refusals are counted by their code; anything else is
            // listed with its first stderr line, its ids blanked.
            let code = outcome
                .json()
                .and_then(|v| {
                    v["skipped"][0]["code"]
                        .as_str()
                        .or(v["error"]["code"].as_str())
                        .map(str::to_owned)
                })
                .unwrap_or_default();
            let first = outcome.stderr.lines().next().unwrap_or("").to_owned();
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
            let key = format!("{cmd} (exit {:?}, {code}): {shape}", outcome.code);
            let mut l = self.ledger.lock().unwrap();
            let seen = l.failures.entry(key).or_insert((0, String::new()));
            seen.0 += 1;
            if seen.1.is_empty() {
                seen.1 = format!("{args:?}\n{}", outcome.stderr.trim_end());
            }
        }
        outcome
    }

    fn failure(&self, what: &str, detail: &str) {
        let mut l = self.ledger.lock().unwrap();
        let seen = l
            .failures
            .entry(format!("TEST: {what}"))
            .or_insert((0, String::new()));
        seen.0 += 1;
        if seen.1.is_empty() {
            seen.1 = detail.to_owned();
        }
    }

    fn git(&self, dir: &Path, args: &[&str]) -> (bool, String) {
        let out = self.repo.git_in(dir, args);
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).trim().to_owned(),
        )
    }

    /// Signal running git-loop processes, mostly landings, until the storm
    /// is over.
    fn killer(&self, seed: u64) {
        let mut rng = Rng::new(seed);
        while !self.done.load(Ordering::Relaxed) {
            let pause = self.kill_ms / 2 + rng.below(self.kill_ms as usize) as u64;
            std::thread::sleep(Duration::from_millis(pause));
            age_dead_holders(&self.repo);
            let roll = rng.below(100);
            let hit = if roll < 55 {
                self.hunt()
            } else {
                let (what, signal, group) = match roll {
                    55..=79 => ("SIGINT", "INT", true),
                    80..=89 => ("SIGKILL to the group", "KILL", true),
                    _ => ("SIGKILL to the process alone", "KILL", false),
                };
                let any = rng.pct(15);
                let victims = self.victims(any);
                if victims.is_empty() {
                    continue;
                }
                let victim = &victims[rng.below(victims.len())];
                self.signal(victim, signal, group).then_some(what)
            };
            let Some(what) = hit else { continue };
            self.signals.fetch_add(1, Ordering::Relaxed);
            self.count(&format!("signals: {what}"), 1);
            if what.contains("SIGKILL") {
                std::thread::sleep(Duration::from_millis(50));
                age_dead_holders(&self.repo);
            }
        }
    }

    /// The running git-loop processes, landings only unless `any`; waits
    /// (up to 2 s) for one.
    fn victims(&self, any: bool) -> Vec<(Arc<Mutex<Child>>, Arc<AtomicBool>)> {
        let until = Instant::now() + Duration::from_secs(2);
        loop {
            let victims: Vec<_> = self
                .live
                .lock()
                .unwrap()
                .values()
                .filter(|l| any || l.landing)
                .map(|l| (l.child.clone(), l.signalled.clone()))
                .collect();
            if !victims.is_empty() || Instant::now() > until {
                return victims;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// `signal` to the victim's process group (or to it alone), if it is
    /// still running; the leader is not reaped while its lock is held, so
    /// its pid and group are still its own.
    fn signal(
        &self,
        victim: &(Arc<Mutex<Child>>, Arc<AtomicBool>),
        signal: &str,
        group: bool,
    ) -> bool {
        let (child, signalled) = victim;
        let mut child = child.lock().unwrap();
        if !matches!(child.try_wait(), Ok(None)) {
            return false;
        }
        let pid = child.id();
        signalled.store(true, Ordering::Relaxed);
        let target = if group {
            format!("-{pid}")
        } else {
            pid.to_string()
        };
        send(signal, &target);
        true
    }

    /// For up to 2 s, watch every running landing: SIGINT to the group of
    /// the first one under which git writes the checkout (`read-tree -m
    /// -u`), or of the only one running while the main checkout's index is
    /// locked (git-loop writing it in process, or a git it runs).
    fn hunt(&self) -> Option<&'static str> {
        let lock = self.repo.root.join(".git/index.lock");
        let until = Instant::now() + Duration::from_secs(2);
        while Instant::now() < until && !self.done.load(Ordering::Relaxed) {
            let landings = self.victims(false);
            for victim in &landings {
                let pid = victim.0.lock().unwrap().id();
                if writing_checkout(pid) && self.signal(victim, "INT", true) {
                    return Some("SIGINT during read-tree -m -u (hunted)");
                }
            }
            if landings.len() == 1 && lock.exists() && self.signal(&landings[0], "INT", true) {
                return Some("SIGINT while the index is locked, one landing running (hunted)");
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        self.count("hunts that found no checkout being written in 2 s", 1);
        None
    }

    /// Flip `core.autocrlf` between set and unset every 2–4 s.
    fn toggler(&self, seed: u64) {
        let mut rng = Rng::new(seed);
        let mut set = true;
        while !self.done.load(Ordering::Relaxed) {
            let until = Instant::now() + Duration::from_millis(2000 + rng.below(2000) as u64);
            while Instant::now() < until && !self.done.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(50));
            }
            set = !set;
            let args: &[&str] = if set {
                &["config", "core.autocrlf", "true"]
            } else {
                &["config", "--unset", "core.autocrlf"]
            };
            if self.git(&self.repo.root, args).0 {
                self.count("core.autocrlf flips", 1);
            }
        }
    }

    /// One commit in the run's worktree: 1–3 new files, sometimes a bulk of
    /// many, sometimes a `shared/` file changed (once per run).
    fn commit(&self, rng: &mut Rng, id: &str, shared_done: &mut bool) -> bool {
        let wt = self.repo.wt(id);
        if !wt.join(".git").exists() {
            return false;
        }
        let n = self.nonce();
        let mut files: Vec<(String, String)> = Vec::new();
        let roll = rng.below(100);
        if roll < 12 {
            for k in 0..20 + rng.below(100) {
                files.push((
                    format!("r/{id}/bulk-{n}/{k}.txt"),
                    format!("bulk {id} {n} {k}\nsecond line\n"),
                ));
            }
        } else {
            for k in 0..1 + rng.below(3) {
                files.push((
                    format!("r/{id}/{n}-{k}.txt"),
                    format!("file {id} {n} {k}\n"),
                ));
            }
        }
        let mut paths: Vec<String> = files.iter().map(|(p, _)| p.clone()).collect();
        if roll >= 88 && !*shared_done {
            *shared_done = true;
            let path = format!("shared/s{}.txt", rng.below(SHARED));
            if fs::write(wt.join(&path), format!("shared, as {id} has it\n")).is_err() {
                return false;
            }
            paths.push(path);
        }
        for (path, text) in &files {
            let file = wt.join(path);
            if fs::create_dir_all(file.parent().unwrap()).is_err() || fs::write(file, text).is_err()
            {
                return false;
            }
        }
        let mut add = vec!["add", "--"];
        add.extend(paths.iter().map(String::as_str));
        let mut commit = vec!["commit", "-q", "-m", "work", "--"];
        commit.extend(paths.iter().map(String::as_str));
        if !self.git(&wt, &add).0 || !self.git(&wt, &commit).0 {
            return false;
        }
        let (ok, head) = self.git(&wt, &["rev-parse", "HEAD"]);
        if !ok {
            return false;
        }
        let mut l = self.ledger.lock().unwrap();
        let run = l.runs.entry(id.to_owned()).or_default();
        run.commits.push(head);
        run.files.extend(files);
        *l.counts.entry("commits".into()).or_default() += 1;
        true
    }

    /// Create a run and commit in it 1–3 times; 2 in 100 force-add a `.env`.
    fn create(&self, rng: &mut Rng, id: &str) -> bool {
        let o = self.gl(rng.pct(50), &["--json", "create", id, "--pattern", "storm"]);
        if !o.ok() {
            return false;
        }
        self.count("creates", 1);
        self.ledger
            .lock()
            .unwrap()
            .runs
            .insert(id.to_owned(), RunLedger::default());
        let wt = self.repo.wt(id);
        if rng.pct(2) {
            let ok = fs::write(wt.join(".env"), format!("SECRET=run {id}'s\n")).is_ok()
                && self.git(&wt, &["add", "-f", ".env"]).0
                && self
                    .git(&wt, &["commit", "-q", "-m", "env", "--", ".env"])
                    .0;
            let (_, head) = self.git(&wt, &["rev-parse", "HEAD"]);
            if ok {
                let mut l = self.ledger.lock().unwrap();
                let run = l.runs.get_mut(id).unwrap();
                run.env = true;
                run.commits.push(head);
                *l.counts
                    .entry("runs with a .env of their own".into())
                    .or_default() += 1;
            }
        }
        let mut shared = false;
        for _ in 0..1 + rng.below(3) {
            self.commit(rng, id, &mut shared);
        }
        true
    }

    /// Mark, retrying an interrupted mark.
    fn mark(&self, rng: &mut Rng, id: &str, status: &str) -> bool {
        for _ in 0..6 {
            let o = self.gl(rng.pct(50), &["mark", id, status]);
            if o.ok() {
                self.count(&format!("marked {status}"), 1);
                return true;
            }
            if !o.signalled {
                return false;
            }
        }
        false
    }

    fn status_of(&self, id: &str) -> Option<String> {
        let text = fs::read_to_string(self.repo.manifest_path()).ok()?;
        let v: Value = serde_json::from_str(&text).ok()?;
        v["worktrees"]
            .as_array()?
            .iter()
            .find(|e| e["id"] == id)
            .and_then(|e| e["status"].as_str().map(str::to_owned))
    }

    fn strategy(rng: &mut Rng) -> &'static str {
        ["rebase", "rebase", "squash", "merge"][rng.below(4)]
    }

    /// `land <id>`; true when it landed.
    fn land(&self, rng: &mut Rng, id: &str) -> bool {
        let o = self.gl(
            rng.pct(50),
            &["--json", "land", id, "--strategy", Storm::strategy(rng)],
        );
        self.count("land <id>", 1);
        let landed = o.ok();
        self.tally(&o);
        landed
    }

    fn tally(&self, o: &Outcome) {
        let Some(v) = o.json() else { return };
        self.count(
            "landed (seen in JSON)",
            v["landed"].as_array().map_or(0, Vec::len),
        );
        for s in v["skipped"].as_array().into_iter().flatten() {
            self.count(
                &format!("land skipped: {}", s["code"].as_str().unwrap_or("?")),
                1,
            );
            let message = s["message"].as_str().unwrap_or("");
            if s["code"] == "target-busy" && message.contains("unfinished landing") {
                self.user_finishes(message);
            }
        }
    }

    /// What the user does when a command cannot take one of git's locks
    /// in the main checkout's git directory: once it is 2 s old (no git
    /// operation holds one that long here), it was left by a kill -9, and
    /// is removed as git says to ("remove the file manually").
    fn user_unlocks(&self, name: &str) {
        let _user = self.user.lock().unwrap();
        let lock = self.repo.root.join(".git").join(name);
        let old = |p: &Path| {
            fs::metadata(p)
                .and_then(|m| m.modified())
                .is_ok_and(|t| t.elapsed().unwrap_or_default() > Duration::from_secs(2))
        };
        if old(&lock) && fs::remove_file(&lock).is_ok() {
            self.count(&format!("stale {name} left by a kill -9, removed"), 1);
        }
    }

    /// What the user does when a landing names an unfinished one: follow
    /// its recipe (one user: one recipe at a time). A recipe that fails is
    /// a failure of the storm; the landing is then finished another way so
    /// that the storm goes on.
    fn user_finishes(&self, message: &str) {
        let _user = self.user.lock().unwrap();
        let repo = &self.repo;
        let Some((before, tip)) = moved_from_to(message) else {
            self.failure("an unfinished landing's message names no move", message);
            return;
        };
        // The user reads the message first: a landing still writing the
        // checkout has finished by then.
        std::thread::sleep(Duration::from_millis(500));
        if !still_unfinished(repo, &before, &tip) {
            return;
        }
        if message.contains("index.lock") {
            // "If no git command is running there": the user looks first.
            let until = Instant::now() + Duration::from_secs(5);
            while git_running_in(&repo.root) && Instant::now() < until {
                std::thread::sleep(Duration::from_millis(50));
            }
        }
        let status = porcelain(repo);
        self.count("unfinished landings met during the storm", 1);
        let mut result = follow(repo, message);
        for _ in 0..20 {
            // A git command (an orphaned `read-tree` of a landing killed
            // alone) holds the index: the recipe is for when none runs.
            match &result {
                Err(e) if e.contains("index.lock") => {
                    std::thread::sleep(Duration::from_millis(100));
                    if !still_unfinished(repo, &before, &tip) {
                        return;
                    }
                    result = follow(repo, message);
                }
                _ => break,
            }
        }
        match result {
            Ok(_) => self.count("unfinished landings finished by their recipe", 1),
            Err(e) => {
                self.failure(
                    "an unfinished landing's recipe failed",
                    &format!("{message}\n{e}\ngit status before: {}", shown(&status)),
                );
                match repair(repo, &before, &tip) {
                    Ok(_) => {
                        self.count("unfinished landings finished by read-tree -m -i instead", 1)
                    }
                    Err(e) => self.failure("repairing an unfinished landing failed", &e),
                }
            }
        }
    }

    fn worker(&self, w: usize, seed: u64, deadline: Instant) {
        let mut rng = Rng::new(seed);
        let mut active: Vec<String> = Vec::new();
        let mut escalated: Vec<String> = Vec::new();
        let mut n = 0;
        while Instant::now() < deadline {
            let through_git = rng.pct(50);
            match rng.below(100) {
                0..=21 => {
                    n += 1;
                    let id = format!("w{w}-{n}");
                    if self.create(&mut rng, &id) {
                        active.push(id);
                    }
                }
                22..=41 => {
                    if active.is_empty() {
                        continue;
                    }
                    let id = active.swap_remove(rng.below(active.len()));
                    match rng.below(100) {
                        0..=69 => {
                            if self.mark(&mut rng, &id, "escalated") {
                                escalated.push(id);
                            } else {
                                active.push(id);
                            }
                        }
                        70..=79 => {
                            if !self.mark(&mut rng, &id, "rejected") {
                                active.push(id);
                            }
                        }
                        _ => {
                            if !self.land(&mut rng, &id) {
                                active.push(id);
                            }
                        }
                    }
                }
                42..=53 => {
                    if escalated.is_empty() {
                        continue;
                    }
                    let i = rng.below(escalated.len());
                    if self.status_of(&escalated[i]).as_deref() != Some("escalated") {
                        escalated.swap_remove(i);
                        continue;
                    }
                    let id = escalated[i].clone();
                    if self.land(&mut rng, &id) {
                        escalated.swap_remove(i);
                    }
                }
                54..=68 => {
                    let mut args = vec!["--json", "land", "--queue"];
                    if rng.pct(50) {
                        args.push("--keep-going");
                    }
                    if rng.pct(40) {
                        args.extend(["--strategy", Storm::strategy(&mut rng)]);
                    }
                    let o = self.gl(through_git, &args);
                    self.count("land --queue", 1);
                    self.tally(&o);
                }
                69..=76 => {
                    let mut args = vec!["--json", "cleanup"];
                    if rng.pct(60) {
                        args.extend(["--status", "rejected,merged"]);
                    }
                    if rng.pct(50) {
                        args.push("--delete-merged-branches");
                    }
                    self.gl(through_git, &args);
                    self.count("cleanups", 1);
                }
                77..=83 => {
                    let o = self.gl(through_git, &["--json", "list", "--long"]);
                    if o.ok() && o.json().is_none() {
                        self.failure("list --long printed no JSON", &o.stdout);
                    }
                }
                84..=92 => {
                    if active.is_empty() {
                        continue;
                    }
                    let id = active[rng.below(active.len())].clone();
                    let mut shared = true;
                    self.commit(&mut rng, &id, &mut shared);
                }
                _ => {
                    // Give up on an escalated run that did not land (a
                    // conflict, a .env refused).
                    if escalated.is_empty() {
                        continue;
                    }
                    let i = rng.below(escalated.len());
                    let id = escalated.swap_remove(i);
                    if self.status_of(&id).as_deref() == Some("escalated") {
                        self.mark(&mut rng, &id, "rejected");
                    }
                }
            }
        }
    }
}

/// Whether a `git read-tree -m -u` (not a dry run) runs under `pid`.
fn writing_checkout(pid: u32) -> bool {
    let mut all = Vec::new();
    descendants(pid, &mut all);
    all.iter().any(|d| {
        let Ok(cmdline) = fs::read(format!("/proc/{d}/cmdline")) else {
            return false;
        };
        let args: Vec<&[u8]> = cmdline.split(|b| *b == 0).collect();
        args.contains(&&b"read-tree"[..])
            && args.contains(&&b"-u"[..])
            && !args.contains(&&b"-n"[..])
    })
}

fn descendants(pid: u32, out: &mut Vec<u32>) {
    let Ok(tasks) = fs::read_dir(format!("/proc/{pid}/task")) else {
        return;
    };
    for task in tasks.flatten() {
        let Ok(text) = fs::read_to_string(task.path().join("children")) else {
            continue;
        };
        for child in text.split_whitespace().filter_map(|c| c.parse().ok()) {
            out.push(child);
            descendants(child, out);
        }
    }
}

/// Whether a git command runs in `dir` (its working directory); `git
/// loop`, only git-loop's parent, does not count.
fn git_running_in(dir: &Path) -> bool {
    let Ok(procs) = fs::read_dir("/proc") else {
        return false;
    };
    procs.flatten().any(|p| {
        fs::read_to_string(p.path().join("comm")).is_ok_and(|c| c.trim() == "git")
            && fs::read_link(p.path().join("cwd")).is_ok_and(|cwd| cwd == dir)
            && fs::read(p.path().join("cmdline"))
                .is_ok_and(|c| c.split(|b| *b == 0).nth(1) != Some(&b"loop"[..]))
    })
}

/// `git status --porcelain` of the main checkout, every untracked file
/// named, sorted; read with `core.autocrlf = true` whatever the toggler
/// set, so that a file checked out with CRLF endings while it was set is not
/// taken for a change while it is not.
fn porcelain(repo: &TestRepo) -> Vec<String> {
    let out = repo.git_in(
        &repo.root,
        [
            "-c",
            "core.autocrlf=true",
            "status",
            "--porcelain",
            "--untracked-files=all",
        ],
    );
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

fn user_only(status: &[String]) -> bool {
    status.iter().map(String::as_str).eq(USER_STATUS)
}

/// Shorten a status listing for a report: the first lines and a count.
fn shown(status: &[String]) -> String {
    let mut s: Vec<&str> = status.iter().take(8).map(String::as_str).collect();
    let more = format!("… and {} more", status.len().saturating_sub(8));
    if status.len() > 8 {
        s.push(&more);
    }
    format!("{s:?}")
}

/// Make a run with one commit and `land` it, as the user would next.
fn probe(storm: &Storm, id: &str) -> Outcome {
    let o = storm.gl(false, &["--json", "create", id, "--pattern", "probe"]);
    assert!(o.ok(), "create {id} after the storm: {}", o.stderr);
    let wt = storm.repo.wt(id);
    fs::create_dir_all(wt.join(format!("r/{id}"))).unwrap();
    fs::write(wt.join(format!("r/{id}/p.txt")), "probe\n").unwrap();
    assert!(storm.git(&wt, &["add", "r"]).0);
    assert!(storm.git(&wt, &["commit", "-q", "-m", "probe"]).0);
    let o = storm.gl(false, &["--json", "land", id]);
    if !o.stderr.contains("lock packed refs") {
        return o;
    }
    std::thread::sleep(Duration::from_millis(2100));
    storm.user_unlocks("packed-refs.lock");
    storm.gl(false, &["--json", "land", id])
}

/// The move an unfinished landing's message names: `main moved from
/// <before> to <tip>`.
fn moved_from_to(message: &str) -> Option<(String, String)> {
    let rest = message.split("moved from ").nth(1)?;
    let mut words = rest.split_whitespace();
    let before = words.next()?.to_owned();
    let tip = (words.next() == Some("to")).then(|| words.next())??;
    Some((before, tip.trim_end_matches([',', ';']).to_owned()))
}

/// The paths a move of `main` from `before` to `tip` changes.
fn changed(repo: &TestRepo, before: &str, tip: &str) -> Vec<String> {
    let out = repo.git_in(
        &repo.root,
        ["diff", "--name-only", "--no-renames", before, tip],
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_owned)
        .collect()
}

/// `main` is at `tip` and the index still differs from it in a path the
/// move from `before` changed.
fn still_unfinished(repo: &TestRepo, before: &str, tip: &str) -> bool {
    let main = repo.git_in(&repo.root, ["rev-parse", "main"]);
    if String::from_utf8_lossy(&main.stdout).trim() != tip {
        return false;
    }
    let mut args = vec!["diff", "--cached", "--name-only", tip, "--"];
    let paths = changed(repo, before, tip);
    args.extend(paths.iter().map(String::as_str));
    !repo.git_in(&repo.root, &args).stdout.is_empty()
}

/// `git restore` each of the landing's paths whose file differs from the
/// index (a file the interrupted checkout had not written yet), again
/// while one fails (a landing that goes on meanwhile holds the index lock
/// for a moment).
fn restore_left(repo: &TestRepo, before: &str, tip: &str, done: &mut Vec<String>) {
    let paths = changed(repo, before, tip);
    let mut args = vec!["diff", "--name-only", "--"];
    args.extend(paths.iter().map(String::as_str));
    for _ in 0..100 {
        let out = repo.git_in(&repo.root, &args);
        let left = String::from_utf8_lossy(&out.stdout).into_owned();
        if out.status.success() && left.is_empty() {
            return;
        }
        for path in left.lines() {
            let out = repo.git_in(&repo.root, ["restore", "--", path]);
            done.push(format!("git restore {path}: {}", out.status));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Follow the recipe an unfinished landing's message gives, as the user
/// would: remove the index lock (and `loop-land-*.tmp`) when it says so,
/// then run each command it quotes, in order, in the main checkout (with
/// `sh`: a recipe may be a pipeline); `git restore <path>` is run for each
/// of the landing's paths whose file differs from the index.
fn follow(repo: &TestRepo, message: &str) -> Result<Vec<String>, String> {
    let mut done = Vec::new();
    if message.contains("index.lock") {
        let git_dir = repo.root.join(".git");
        let _ = fs::remove_file(git_dir.join("index.lock"));
        for e in fs::read_dir(&git_dir).unwrap().flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with("loop-land-") && name.ends_with(".tmp") {
                let _ = fs::remove_file(e.path());
            }
        }
        done.push("removed .git/index.lock and loop-land-*.tmp".to_owned());
    }
    let commands: Vec<&str> = message
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|c| c.starts_with("git "))
        .collect();
    if commands.is_empty() {
        return Err(format!("no command to run in: {message}"));
    }
    for command in commands {
        if command.contains("<path>") {
            let (before, tip) = moved_from_to(message).ok_or("no move named")?;
            restore_left(repo, &before, &tip, &mut done);
            continue;
        }
        let mut sh = Command::new("sh");
        hermetic(&mut sh, &repo.home);
        let out = sh
            .current_dir(&repo.root)
            .args(["-c", command])
            .output()
            .unwrap();
        done.push(command.to_owned());
        if !out.status.success() {
            return Err(format!(
                "{command} failed: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
    }
    Ok(done)
}

/// When the recipe failed: record the landing in the index without
/// refusing the files already written (`read-tree -m -i`), then restore
/// the files not written yet — so the storm goes on.
fn repair(repo: &TestRepo, before: &str, tip: &str) -> Result<Vec<String>, String> {
    let out = repo.git_in(&repo.root, ["read-tree", "-m", "-i", before, tip]);
    if !out.status.success() {
        return Err(format!(
            "git read-tree -m -i failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let mut done = vec![format!("git read-tree -m -i {before} {tip}")];
    restore_left(repo, before, tip, &mut done);
    Ok(done)
}

/// Path -> blob id of every file in `rev`'s tree.
fn tree_files(repo: &TestRepo, rev: &str) -> BTreeMap<String, String> {
    let out = repo.git(["ls-tree", "-r", rev]);
    out.lines()
        .filter_map(|l| {
            let (meta, path) = l.split_once('\t')?;
            Some((path.to_owned(), meta.split_whitespace().nth(2)?.to_owned()))
        })
        .collect()
}

/// The run a path under `r/<id>/` belongs to.
fn run_of(path: &str) -> Option<&str> {
    path.strip_prefix("r/")?.split('/').next()
}

/// A repository whose main checkout is on `main` with tracked files, the
/// user's own unstaged and staged changes and ignored `.env`, and
/// `core.autocrlf = true`.
fn main_checkout() -> TestRepo {
    let repo = TestRepo::new();
    let root = repo.root.clone();
    fs::write(root.join(".gitignore"), ".loop-worktrees/\n.env\n").unwrap();
    fs::create_dir_all(root.join("shared")).unwrap();
    for k in 0..SHARED {
        fs::write(
            root.join(format!("shared/s{k}.txt")),
            format!("shared {k}\n"),
        )
        .unwrap();
    }
    fs::create_dir_all(root.join("base")).unwrap();
    for k in 0..100 {
        fs::write(root.join(format!("base/{k}.txt")), format!("base {k}\n")).unwrap();
    }
    fs::write(root.join("notes.txt"), "my notes\n").unwrap();
    fs::write(root.join("todo.txt"), "todo\n").unwrap();
    repo.git(["add", "."]);
    repo.git(["commit", "-q", "-m", "the main checkout"]);
    // The user's own work, which no landing may touch.
    fs::write(root.join("notes.txt"), NOTES).unwrap();
    fs::write(root.join("todo.txt"), TODO).unwrap();
    repo.git(["add", "todo.txt"]);
    fs::write(root.join(".env"), ENV).unwrap();
    repo.git(["config", "core.autocrlf", "true"]);
    assert!(user_only(&porcelain(&repo)), "{:?}", porcelain(&repo));
    repo
}

/// The main checkout after the storm: only the user's change, or an
/// unfinished landing that the next landing names, with a recipe that
/// leaves only that; then a landing lands. Returns what happened, in words.
fn check_checkout(storm: &Storm, failed: &mut Vec<String>) -> String {
    let repo = &storm.repo;
    let after_storm = porcelain(repo);
    let index_lock = repo.root.join(".git/index.lock").exists();
    let mut checkout_story = format!(
        "git status after the storm: {}{}",
        shown(&after_storm),
        if index_lock {
            ", .git/index.lock present"
        } else {
            ""
        }
    );
    let list = storm.gl(false, &["list"]);
    let list_names_it = format!("{}{}", list.stdout, list.stderr).contains("unfinished landing");
    let first = probe(storm, "probe-1");
    let first_json = first.json().unwrap_or_default();
    let refusal = &first_json["skipped"][0];
    let message = refusal["message"].as_str().unwrap_or("").to_owned();
    if user_only(&after_storm) {
        if !first.ok() {
            failed.push(format!(
                "{checkout_story}; the next landing did not land: {}",
                first.stderr.trim()
            ));
        }
    } else if message.contains("unfinished landing") {
        checkout_story.push_str(&format!(
            "; the next landing said {}: {message}; `git loop list` {}",
            refusal["code"],
            if list_names_it {
                "names it too"
            } else {
                "does not name it"
            }
        ));
        match follow(repo, &message) {
            Ok(done) => {
                let after = porcelain(repo);
                checkout_story.push_str(&format!(
                    "; followed ({done:?}), git status: {}",
                    shown(&after)
                ));
                if user_only(&after) {
                    storm.count("unfinished landings finished by their recipe", 1);
                    let again = storm.gl(false, &["--json", "land", "probe-1"]);
                    if !again.ok() {
                        failed.push(format!(
                            "{checkout_story}; then the landing still did not land: {}",
                            again.stderr.trim()
                        ));
                    }
                } else {
                    failed.push(format!(
                        "{checkout_story}: the recipe left more than the user's change"
                    ));
                }
            }
            Err(e) => failed.push(format!(
                "{checkout_story}; following the recipe failed: {e}"
            )),
        }
    } else {
        failed.push(format!(
            "{checkout_story}: modifications no landing explains; the next landing {}: {} (`git loop list` {} an unfinished landing)",
            if first.ok() { "landed over them" } else { "was refused" },
            if first.ok() { String::new() } else { first.stderr.trim().to_owned() },
            if list_names_it { "names" } else { "names no" }
        ));
    }
    let end_status = porcelain(repo);
    if !user_only(&end_status) && !failed.iter().any(|f| f.starts_with("git status")) {
        failed.push(format!(
            "{checkout_story}; after the last landing, git status: {}",
            shown(&end_status)
        ));
    }

    checkout_story
}

#[test]
#[ignore = "long: a landing storm with Ctrl-C to the process group for STORM_LAND_SECS (45 s); run by scripts/test"]
fn a_landing_storm_with_ctrl_c_loses_nothing_and_leaves_the_checkout_explained() {
    let secs = env_or("STORM_LAND_SECS", 45);
    let workers = env_or("STORM_LAND_WORKERS", 8) as usize;
    let kill_ms = env_or("STORM_LAND_KILL_MS", 600).max(1);
    let toggle = std::env::var("STORM_LAND_AUTOCRLF").as_deref() != Ok("always");
    let seed = seed_from_env();
    eprintln!(
        "storm_land: {workers} workers for {secs} s, a signal every {kill_ms} ms on average, \
         core.autocrlf {}, STORM_SEED={seed}",
        if toggle { "flipping" } else { "always true" }
    );
    let repo = main_checkout();
    let root = repo.root.clone();
    let start_tip = repo.git(["rev-parse", "main"]).trim().to_owned();

    let scratch = repo.base().join("scratch");
    fs::create_dir_all(&scratch).unwrap();
    let mut path = std::ffi::OsString::from(Path::new(BIN).parent().unwrap());
    path.push(":");
    path.push(std::env::var_os("PATH").unwrap_or_default());
    let storm = Storm {
        repo,
        scratch,
        path,
        ledger: Mutex::new(Ledger::default()),
        live: Mutex::new(HashMap::new()),
        user: Mutex::new(()),
        token: AtomicU64::new(0),
        done: AtomicBool::new(false),
        signals: AtomicUsize::new(0),
        kill_ms,
    };
    let started = Instant::now();
    let deadline = started + Duration::from_secs(secs);
    std::thread::scope(|s| {
        let storm = &storm;
        let killer = s.spawn(move || storm.killer(seed ^ 0xdead_beef));
        let toggler = toggle.then(|| s.spawn(move || storm.toggler(seed ^ 0x00c0_ffee)));
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
        if let Some(t) = toggler {
            t.join().unwrap();
        }
    });
    let stormed = started.elapsed();
    let repo = &storm.repo;
    repo.git(["config", "core.autocrlf", "true"]);
    let mut failed: Vec<String> = Vec::new();

    // Every git-loop process has ended: a mutex still there was left by a
    // killed one; let it reach its stale age at once.
    for leftover in [".manifest.mutex", ".manifest.mutex.break"] {
        let p = repo.loop_dir().join(leftover);
        if p.exists() {
            age_file(&p, 120);
            storm.count(&format!("{leftover} left by a kill"), 1);
        }
    }
    let fin = TestRepo::output(repo.command().args(["--json", "reconcile"]));
    if fin.code != 0 {
        failed.push(format!("the final reconcile failed: {}", fin.stderr));
    }
    if repo.mutex_path().exists() {
        failed.push("a mutex was left after the final reconcile".into());
    }
    let manifest = fs::read_to_string(repo.manifest_path()).unwrap_or_default();
    if serde_json::from_str::<Value>(&manifest).is_err() {
        failed.push(format!("the manifest does not parse: {manifest:?}"));
    }
    let head = repo.git(["symbolic-ref", "HEAD"]);
    if head.trim() != "refs/heads/main" {
        failed.push(format!("the main checkout's HEAD is {head:?}"));
    }

    let checkout_story = check_checkout(&storm, &mut failed);

    // The user's files, byte for byte.
    let read = |p: &str| fs::read_to_string(root.join(p)).unwrap_or_else(|e| format!("({e})"));
    for (file, want) in [("notes.txt", NOTES), ("todo.txt", TODO), (".env", ENV)] {
        if read(file) != want {
            failed.push(format!("the user's {file} is now {:?}", read(file)));
        }
    }
    let staged = repo.git_in(&root, ["show", ":todo.txt"]);
    if String::from_utf8_lossy(&staged.stdout) != TODO {
        failed.push(format!(
            "the user's staged todo.txt is now {:?}",
            String::from_utf8_lossy(&staged.stdout)
        ));
    }

    let ledger = storm.ledger.lock().unwrap();
    // Every commit a worker made exists and is reachable.
    let fsck = repo.git_in(
        &root,
        ["fsck", "--unreachable", "--no-reflogs", "--no-progress"],
    );
    // A `git worktree add` killed part way leaves an orphan whose HEAD
    // points at nothing, which fsck complains of (reconcile lists it, and
    // removes it when named); any other complaint is a failure.
    let orphans: Vec<String> = serde_json::from_str::<Value>(&fin.stdout)
        .ok()
        .and_then(|v| {
            v["orphans"].as_array().map(|a| {
                a.iter()
                    .filter_map(|o| o["id"].as_str().map(str::to_owned))
                    .collect()
            })
        })
        .unwrap_or_default();
    let mut fsck_notes = Vec::new();
    for line in String::from_utf8_lossy(&fsck.stderr).lines() {
        let orphan_head = orphans
            .iter()
            .any(|id| line.starts_with(&format!("error: worktrees/{id}/HEAD: ")));
        if orphan_head {
            fsck_notes.push(line.to_owned());
        } else if line.starts_with("error") || line.starts_with("fatal") {
            failed.push(format!("git fsck: {line}"));
        }
    }
    let unreachable: BTreeSet<String> = String::from_utf8_lossy(&fsck.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().nth(2).map(str::to_owned))
        .collect();
    let mut commits = 0;
    for (id, run) in &ledger.runs {
        for c in &run.commits {
            commits += 1;
            let exists = repo.git_in(&root, ["cat-file", "-e", &format!("{c}^{{commit}}")]);
            if !exists.status.success() {
                failed.push(format!("commit {c} of {id} is missing"));
            } else if unreachable.contains(c) {
                failed.push(format!("commit {c} of {id} is unreachable"));
            }
        }
    }

    // What the log says landed is in main; main holds nothing else.
    let main_files = tree_files(repo, "main");
    let files: Vec<(&String, &String)> =
        ledger.runs.values().flat_map(|r| r.files.iter()).collect();
    let contents: Vec<&str> = files.iter().map(|(_, c)| c.as_str()).collect();
    let ids = crate::common::blob_ids(repo, &repo.base().join("blobs"), &contents);
    let want: HashMap<&str, &str> = files
        .iter()
        .zip(&ids)
        .map(|((p, _), id)| (p.as_str(), id.as_str()))
        .collect();
    let log = TestRepo::output(repo.command().args(["--json", "log"])).json();
    let mut landed: BTreeSet<String> = BTreeSet::new();
    let mut events: BTreeMap<String, usize> = BTreeMap::new();
    for e in log.arr("events") {
        *events.entry(e.text("event").to_owned()).or_default() += 1;
        if e["event"] != "land" || !e["code"].is_null() {
            continue;
        }
        let (id, from, to) = (e.text("id"), e.text("from"), e.text("to"));
        landed.insert(id.to_owned());
        let in_main = repo.git_in(&root, ["merge-base", "--is-ancestor", to, "main"]);
        if !in_main.status.success() {
            failed.push(format!(
                "{id} landed at {to} (log), which main does not contain"
            ));
        }
        let diff = repo.git(["diff", "--name-only", "--no-renames", from, to]);
        for p in diff.lines() {
            if p.starts_with("shared/") {
                continue;
            }
            if run_of(p) != Some(id) {
                failed.push(format!("the landing of {id} ({from}..{to}) changed {p}"));
            } else if !id.starts_with("probe-")
                && want.get(p).copied() != main_files.get(p).map(String::as_str)
            {
                failed.push(format!(
                    "{id} landed {p} (log), main has {:?}, the worker committed {:?}",
                    main_files.get(p),
                    want.get(p)
                ));
            }
        }
    }
    let reflog = repo.git(["reflog", "show", "--format=%gs", "refs/heads/main"]);
    let by_reflog: BTreeSet<&str> = reflog
        .lines()
        .filter_map(|l| l.strip_prefix("git-loop land "))
        .filter(|l| !l.contains("undone"))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let undone = reflog.lines().filter(|l| l.contains("undone")).count();
    let mut unlogged = 0;
    let in_main: BTreeSet<&str> = main_files.keys().filter_map(|p| run_of(p)).collect();
    for id in &in_main {
        if id.starts_with("probe-") {
            continue;
        }
        if !landed.contains(*id) {
            if by_reflog.contains(id) {
                unlogged += 1;
            } else {
                failed.push(format!(
                    "{id}'s files are in main, and neither the log nor the reflog says it landed"
                ));
            }
        }
    }
    if main_files.contains_key(".env") {
        failed.push(format!(
            "a run's .env landed in main: {}",
            repo.git(["log", "--format=%h %s", "main", "--", ".env"])
                .trim()
        ));
    }
    for (id, run) in &ledger.runs {
        if run.env && landed.contains(id) {
            failed.push(format!("{id}, with a .env of its own, is logged landed"));
        }
    }

    // The numbers, to quote.
    let signals = storm.signals.load(Ordering::Relaxed);
    let main_commits = repo.git(["rev-list", "--count", &format!("{start_tip}..main")]);
    eprintln!(
        "storm_land: {} s with {workers} workers (seed {seed}); {signals} signals; {} s in all",
        stormed.as_secs(),
        started.elapsed().as_secs()
    );
    for (what, n) in &ledger.counts {
        eprintln!("  {what}: {n}");
    }
    eprintln!("  events in the log: {events:?}");
    eprintln!(
        "  checked: {commits} commits reachable; {} runs landed by the log, {} runs' files in main ({} commits on main)",
        landed.len(),
        in_main.len(),
        main_commits.trim()
    );
    eprintln!(
        "  landings undone (main moved back, per its reflog): {undone}; runs in main with no \
         land event, only main's reflog (stopped after the ref moved): {unlogged}"
    );
    eprintln!("  the main checkout: {checkout_story}");
    eprintln!("  orphans after the storm: {orphans:?}; fsck about them: {fsck_notes:?}");
    eprintln!("  failures of git-loop commands that no signal explains:");
    for (what, (n, first)) in &ledger.failures {
        eprintln!(
            "    {n} × {what}\n      first: {}",
            first.replace('\n', "\n      ")
        );
    }
    for (what, (_, detail)) in &ledger.failures {
        if what.starts_with("TEST: ") {
            failed.push(format!("{what} {detail}"));
        }
    }
    if landed.len() < 4 || signals < 4 {
        failed.push(format!(
            "the storm landed {} runs with {signals} signals: too little to say anything",
            landed.len()
        ));
    }
    if !failed.is_empty() {
        eprintln!("the repository is kept for a look: {}", repo.root.display());
        drop(ledger);
        std::mem::forget(storm);
        panic!(
            "the landing storm failed (STORM_SEED={seed}):\n{}",
            failed.join("\n")
        );
    }
}
