//! `land --push` onto a shared remote (a local bare repository): the remote's
//! own ref update is the coordinator; a push that finds the remote moved is
//! rebuilt on its new tip and pushed again, never forced; one that still
//! cannot be pushed stays landed locally (`not-pushed`).

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::{JsonExt, TestRepo, commit, git_line, git_ok};

/// A bare remote with its reflog on (`core.logAllRefUpdates=always`, so
/// every update a push makes is logged) and `n` clones of it, each a
/// hermetic [`TestRepo`] whose `main` tracks `origin/main`.
struct Fleet {
    remote: PathBuf,
    clones: Vec<TestRepo>,
}

impl Fleet {
    fn new(n: usize) -> Fleet {
        let first = TestRepo::new();
        let remote = first.base().join("remote.git");
        first.git(["clone", "-q", "--bare", ".", remote.to_str().unwrap()]);
        git_ok(
            &first,
            &remote,
            &["config", "core.logAllRefUpdates", "always"],
        );
        let mut clones = vec![first];
        for _ in 1..n {
            clones.push(TestRepo::new());
        }
        for clone in &clones {
            clone.git(["remote", "add", "origin", remote.to_str().unwrap()]);
            clone.git(["fetch", "-q", "origin"]);
            // The fixture's first commit is the same everywhere (pinned
            // identity and dates): every clone starts at the remote's tip.
            assert_eq!(rev(clone, "main"), rev(clone, "origin/main"));
            clone.git(["branch", "-q", "--set-upstream-to=origin/main", "main"]);
        }
        Fleet { remote, clones }
    }

    fn remote_git(&self, args: &[&str]) -> String {
        git_ok(&self.clones[0], &self.remote, args)
    }

    fn remote_tip(&self) -> String {
        self.remote_git(&["rev-parse", "main"]).trim().to_owned()
    }

    /// The remote branch's reflog, oldest first: (old, new) per update.
    fn remote_reflog(&self) -> Vec<(String, String)> {
        let log = std::fs::read_to_string(self.remote.join("logs/refs/heads/main")).unwrap();
        log.lines()
            .map(|line| {
                let mut f = line.split(' ');
                (f.next().unwrap().to_owned(), f.next().unwrap().to_owned())
            })
            .collect()
    }

    /// No update of the remote's `main` was forced: each entry starts where
    /// the one before ended, and each is a fast-forward.
    fn assert_no_forced_update(&self) {
        let log = self.remote_reflog();
        assert!(!log.is_empty(), "the remote logged no update");
        for pair in log.windows(2) {
            assert_eq!(
                pair[1].0, pair[0].1,
                "a gap in the remote's reflog: {log:?}"
            );
        }
        for (old, new) in &log {
            if old.bytes().all(|b| b == b'0') {
                continue;
            }
            let out = self.clones[0].git_in(
                &self.remote,
                ["merge-base", "--is-ancestor", old.as_str(), new.as_str()],
            );
            assert!(
                out.status.success(),
                "{old} -> {new} was not a fast-forward: {log:?}"
            );
        }
        assert_eq!(log.last().unwrap().1, self.remote_tip());
    }

    /// The remote's history of `main`: linear (no merge commit).
    fn assert_linear(&self) {
        let parents = self.remote_git(&["rev-list", "--parents", "main"]);
        for line in parents.lines() {
            assert!(
                line.split(' ').count() <= 2,
                "a merge commit on the remote: {line}"
            );
        }
    }
}

fn rev(repo: &TestRepo, spec: &str) -> String {
    repo.git(["rev-parse", spec]).trim().to_owned()
}

/// A run `id` in `repo` with one commit adding `<id>.txt` (its subject the
/// file's name).
fn run_with_commit(repo: &TestRepo, id: &str) {
    repo.create(id);
    commit(repo, &repo.wt(id), &format!("{id}.txt"), &format!("{id}\n"));
}

/// git-loop started in `repo` with `envs`; its stderr read by a thread that
/// says when a line contains `wait_for` and keeps the whole text.
struct Started {
    child: Child,
    seen: mpsc::Receiver<()>,
    stderr: std::thread::JoinHandle<String>,
}

fn start(repo: &TestRepo, args: &[&str], envs: &[(&str, String)], wait_for: &str) -> Started {
    let mut child = repo
        .command()
        .args(args)
        .envs(envs.iter().map(|(k, v)| (k, v)))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pipe = child.stderr.take().unwrap();
    let (tx, seen) = mpsc::channel();
    let wait_for = wait_for.to_owned();
    let stderr = std::thread::spawn(move || {
        let mut all = String::new();
        for line in BufReader::new(pipe).lines().map_while(Result::ok) {
            if line.contains(&wait_for) {
                let _ = tx.send(());
            }
            all.push_str(&line);
            all.push('\n');
        }
        all
    });
    Started {
        child,
        seen,
        stderr,
    }
}

/// Wait for it (killed, and the test failed, after `limit`): exit code,
/// stdout, stderr.
fn finish(mut s: Started, limit: Duration) -> (i32, String, String) {
    let t0 = Instant::now();
    let status = loop {
        if let Some(status) = s.child.try_wait().unwrap() {
            break status;
        }
        if t0.elapsed() > limit {
            let _ = s.child.kill();
            let _ = s.child.wait();
            panic!("land still running after {limit:?}: killed");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut stdout = String::new();
    std::io::Read::read_to_string(&mut s.child.stdout.take().unwrap(), &mut stdout).unwrap();
    (
        status.code().unwrap_or(-1),
        stdout,
        s.stderr.join().unwrap(),
    )
}

/// Two clones, each landing 5 runs with `--push` onto one bare remote, both
/// started together and let go at their first push at the same moment: all
/// 10 land, none lost, the remote's history linear, and its reflog shows no
/// forced update.
#[test]
fn two_clones_landing_five_runs_each_onto_one_remote_lose_nothing_and_force_nothing() {
    let fleet = Fleet::new(2);
    let names = ["a", "b"];
    for (clone, name) in fleet.clones.iter().zip(names) {
        // Each refusal a push meets is one push of the other clone that
        // went through, so 5 retries bound the worst interleaving of 5
        // landings against 5 (the default, 3, is not a guarantee for that).
        clone.git(["config", "loop.landPushRetries", "5"]);
        for i in 1..=5 {
            run_with_commit(clone, &format!("{name}{i}"));
        }
    }
    let go = fleet.clones[0].base().join("go");
    let envs = [(
        "GIT_LOOP_TEST_CRASH",
        format!("land-before-push:until:{}", go.display()),
    )];
    let started: Vec<Started> = fleet
        .clones
        .iter()
        .zip(names)
        .map(|(clone, name)| {
            let ids: Vec<String> = (1..=5).map(|i| format!("{name}{i}")).collect();
            let mut args = vec!["--json", "land"];
            args.extend(ids.iter().map(String::as_str));
            args.push("--push");
            start(clone, &args, &envs, "paused at land-before-push")
        })
        .collect();
    for s in &started {
        s.seen
            .recv_timeout(Duration::from_secs(120))
            .expect("both landings reach their first push");
    }
    std::fs::write(&go, "").unwrap();
    let results: Vec<_> = started
        .into_iter()
        .map(|s| finish(s, Duration::from_secs(300)))
        .collect();

    for ((code, stdout, stderr), name) in results.iter().zip(names) {
        assert_eq!(*code, 0, "clone {name}\nstdout: {stdout}\nstderr: {stderr}");
        let v: Value = serde_json::from_str(stdout).unwrap();
        let ids: Vec<String> = (1..=5).map(|i| format!("{name}{i}")).collect();
        assert_eq!(v.ids("landed"), ids, "{v}");
        for landed in v.arr("landed") {
            assert_eq!(landed["pushed"], true, "{landed}");
        }
        assert!(v.arr("skipped").is_empty(), "{v}");
    }
    // All 10 on the remote, each once, on one line of history.
    let tip = fleet.remote_tip();
    assert_eq!(
        fleet.remote_git(&["rev-list", "--count", "main"]).trim(),
        "11"
    );
    let subjects = fleet.remote_git(&["log", "--format=%s", "main"]);
    let files = fleet.remote_git(&["ls-tree", "--name-only", "main"]);
    for name in names {
        for i in 1..=5 {
            let file = format!("{name}{i}.txt");
            assert_eq!(
                subjects.lines().filter(|s| *s == file).count(),
                1,
                "{file} in {subjects}"
            );
            assert!(files.lines().any(|f| f == file), "{file} in {files}");
        }
    }
    fleet.assert_linear();
    fleet.assert_no_forced_update();
    // Each clone's main is what it last pushed: the remote's tip or behind it.
    for clone in &fleet.clones {
        let local = rev(clone, "main");
        let out = clone.git_in(&fleet.remote, ["merge-base", "--is-ancestor", &local, &tip]);
        assert!(
            out.status.success(),
            "main {local} is not in the remote's {tip}"
        );
        let status = git_ok(
            clone,
            &clone.root,
            &["status", "--porcelain", "--untracked-files=no"],
        );
        assert!(
            status.is_empty(),
            "the main checkout is not clean: {status}"
        );
    }
}

/// The remote moved since the clone last fetched (another clone pushed):
/// the landing is rebuilt on the remote's tip and pushed, the other
/// clone's commit kept under it; the local `main` and its checkout are at
/// what was pushed.
#[test]
fn a_remote_that_moved_gets_the_landing_rebuilt_on_its_tip_and_pushed() {
    let fleet = Fleet::new(2);
    let (here, there) = (&fleet.clones[0], &fleet.clones[1]);
    run_with_commit(here, "mine");
    commit(there, &there.root, "theirs.txt", "theirs\n");
    there.git(["push", "-q", "origin", "main"]);
    let theirs = rev(there, "main");

    let run = here.run(["--json", "land", "mine", "--push"]);
    run.ok();
    let v = run.json();
    assert_eq!(v.ids("landed"), ["mine"]);
    assert_eq!(v.arr("landed")[0]["pushed"], true, "{v}");
    let tip = fleet.remote_tip();
    assert_eq!(rev(here, "main"), tip);
    assert_eq!(rev(here, "main~1"), theirs, "built on the remote's tip");
    assert_eq!(
        git_line(here, &here.root, &["log", "-1", "--format=%s", "main"]),
        "mine.txt"
    );
    assert!(here.root.join("theirs.txt").exists() && here.root.join("mine.txt").exists());
    let status = git_ok(
        here,
        &here.root,
        &["status", "--porcelain", "--untracked-files=no"],
    );
    assert!(
        status.is_empty(),
        "the main checkout is not clean: {status}"
    );
    fleet.assert_linear();
    fleet.assert_no_forced_update();
}

/// A remote that refuses the push (its `pre-receive` hook declines): the
/// landing stays landed locally, `"pushed": false` and `not-pushed` with
/// the remote's reason; the remote is as it was.
#[test]
fn a_push_the_remote_refuses_stays_landed_locally_not_pushed() {
    let fleet = Fleet::new(1);
    let here = &fleet.clones[0];
    let hook = fleet.remote.join("hooks/pre-receive");
    std::fs::write(
        &hook,
        "#!/bin/sh\necho 'closed for the night' >&2\nexit 1\n",
    )
    .unwrap();
    crate::common::make_executable(&hook);
    let before = fleet.remote_tip();
    run_with_commit(here, "mine");

    let run = here.run(["--json", "land", "mine", "--push"]);
    let v = run.json();
    assert_eq!(v.ids("landed"), ["mine"], "{v}");
    let landed = &v.arr("landed")[0];
    assert_eq!(landed["pushed"], false, "{landed}");
    assert_eq!(rev(here, "main"), landed.text("to"), "landed locally");
    assert!(run.stdout.contains("not-pushed"), "{}", run.stdout);
    assert!(
        run.stdout.contains("pre-receive hook declined"),
        "{}",
        run.stdout
    );
    run.code(1);
    assert_eq!(v["error"]["code"], "not-pushed", "{v}");
    assert_eq!(fleet.remote_tip(), before, "the remote did not move");
}

/// A target with no upstream is landed locally and not pushed, saying how
/// to give it one.
#[test]
fn a_target_without_upstream_is_landed_and_not_pushed() {
    let repo = TestRepo::new();
    run_with_commit(&repo, "mine");
    let run = repo.run(["--json", "land", "mine", "--push"]);
    let v = run.json();
    assert_eq!(v.ids("landed"), ["mine"], "{v}");
    assert_eq!(v.arr("landed")[0]["pushed"], false, "{v}");
    assert!(
        run.stdout.contains("main has no upstream"),
        "{}",
        run.stdout
    );
    assert_eq!(
        git_line(&repo, &repo.root, &["log", "-1", "--format=%s", "main"]),
        "mine.txt"
    );
}
