//! The warm pool (`git loop pool`, `create` taking a member, `cleanup
//! --recycle`): a pooled create is a fresh create but for warm ignored files;
//! no member is used twice; unfit members are discarded, never forced; pool
//! members are neither runs nor orphans.

use std::path::PathBuf;
use std::process::Stdio;

use std::fs;
use std::path::Path;

use crate::common::{JsonExt, TestRepo, git_line, git_ok};

/// A repository whose base ignores `target/` and has a few files in
/// directories, and a `post-checkout` hook that logs its arguments and the
/// worktree it ran in.
fn repo_with_hook() -> (TestRepo, PathBuf) {
    let repo = TestRepo::new();
    std::fs::write(repo.root.join(".gitignore"), "target/\n.loop-worktrees/\n").unwrap();
    std::fs::create_dir_all(repo.root.join("src/deep")).unwrap();
    std::fs::write(repo.root.join("src/lib.rs"), "pub fn f() {}\n").unwrap();
    std::fs::write(repo.root.join("src/deep/x.txt"), "x\n").unwrap();
    repo.git(["add", "."]);
    repo.git(["commit", "-q", "-m", "files"]);
    let log = repo.base().join("hook.log");
    let hook = repo.root.join(".git/hooks/post-checkout");
    std::fs::create_dir_all(hook.parent().unwrap()).unwrap();
    std::fs::write(
        &hook,
        format!(
            "#!/bin/sh\necho \"$1 $2 $3 $(basename \"$PWD\")\" >> '{}'\n",
            log.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).unwrap();
    (repo, log)
}

fn members(repo: &TestRepo) -> Vec<serde_json::Value> {
    repo.run(["--json", "pool", "status"]).ok().json()["members"]
        .as_array()
        .unwrap()
        .clone()
}

fn member_path(repo: &TestRepo, m: &serde_json::Value) -> PathBuf {
    repo.root.join(m.text("path"))
}

#[test]
fn a_pooled_create_equals_a_fresh_create_and_keeps_its_warm_ignored_files() {
    let (repo, log) = repo_with_hook();
    let fill = repo.run(["--json", "pool", "fill", "1"]).ok().json();
    assert_eq!(fill.text("action"), "fill");
    assert_eq!(fill.arr("added").len(), 1);
    assert_eq!(fill.arr("members")[0].text("state"), "ready");
    // Filling runs no hook: it runs when a create takes the member.
    assert!(!log.exists());
    let member = member_path(&repo, &fill.arr("members")[0]);
    std::fs::create_dir_all(member.join("target")).unwrap();
    std::fs::write(member.join("target/warm.o"), "cache\n").unwrap();

    let pooled = repo
        .run(["--json", "create", "pooled", "--pattern", "p"])
        .ok()
        .json();
    assert_eq!(pooled.text("method"), "pooled");
    let fresh = repo
        .run(["--json", "create", "fresh", "--pattern", "p"])
        .ok()
        .json();
    assert!(fresh.get("method").is_none(), "{fresh}");
    assert!(!member.exists(), "the member was moved, not copied");

    let (p, f) = (repo.wt("pooled"), repo.wt("fresh"));
    for args in [
        &["status", "--porcelain", "--untracked-files=all"][..],
        &["ls-files", "-s"],
        &["rev-parse", "HEAD"],
        &["diff", "--cached", "--name-only"],
    ] {
        assert_eq!(git_ok(&repo, &p, args), git_ok(&repo, &f, args), "{args:?}");
    }
    assert_eq!(
        git_ok(&repo, &p, &["symbolic-ref", "HEAD"]),
        "refs/heads/loop/pooled\n"
    );
    assert_eq!(
        git_ok(&repo, &f, &["symbolic-ref", "HEAD"]),
        "refs/heads/loop/fresh\n"
    );
    assert_eq!(
        git_ok(&repo, &repo.root, &["rev-parse", "loop/pooled"]),
        git_ok(&repo, &repo.root, &["rev-parse", "main"])
    );
    // The only difference: the ignored file the member kept.
    assert_eq!(
        std::fs::read_to_string(p.join("target/warm.o")).unwrap(),
        "cache\n"
    );
    assert_eq!(
        git_ok(&repo, &p, &["status", "--porcelain", "--ignored"]),
        "!! target/\n"
    );
    assert_eq!(
        git_ok(&repo, &f, &["status", "--porcelain", "--ignored"]),
        ""
    );

    // The hook ran once in each, as `git worktree add` runs it.
    let commit = git_ok(&repo, &repo.root, &["rev-parse", "main"]);
    let null = "0".repeat(40);
    assert_eq!(
        std::fs::read_to_string(&log).unwrap(),
        format!(
            "{null} {} 1 pooled\n{null} {} 1 fresh\n",
            commit.trim(),
            commit.trim()
        )
    );

    // Manifest entries alike but for the id (and time); events alike.
    let manifest = repo.manifest();
    let entry = |id: &str| {
        let mut e = manifest.find_id("worktrees", id).clone();
        for key in ["id", "path", "branch", "createdAt"] {
            e.as_object_mut().unwrap().remove(key);
        }
        e
    };
    assert_eq!(entry("pooled"), entry("fresh"));
    assert_eq!(
        manifest.find_id("worktrees", "pooled").text("path"),
        ".loop-worktrees/pooled"
    );
    let events = std::fs::read_to_string(repo.loop_dir().join("events.jsonl")).unwrap();
    let creates: Vec<serde_json::Value> = events
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|e| e["event"] == "create")
        .map(|mut e| {
            e.as_object_mut().unwrap().remove("at");
            e.as_object_mut().unwrap().remove("id");
            e
        })
        .collect();
    assert_eq!(creates.len(), 2, "{events}");
    assert_eq!(creates[0], creates[1]);
}

#[test]
fn eight_concurrent_creates_with_four_members_use_each_member_once() {
    let repo = TestRepo::new();
    repo.run(["pool", "fill", "4"]).ok();
    assert_eq!(members(&repo).len(), 4);
    let children: Vec<_> = (0..8)
        .map(|i| {
            repo.command()
                .args(["--json", "create", &format!("c{i}"), "--pattern", "p"])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let mut pooled = 0;
    for child in children {
        let out = child.wait_with_output().unwrap();
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert!(
            out.status.success(),
            "{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        if doc.get("method").and_then(|m| m.as_str()) == Some("pooled") {
            pooled += 1;
        }
    }
    assert_eq!(pooled, 4, "4 pooled, 4 plain");
    assert!(members(&repo).is_empty());
    // 8 runs, each its own registered worktree on its own branch, clean.
    let registered = repo.registered();
    assert_eq!(registered.len(), 9, "{registered:?}");
    for i in 0..8 {
        let wt = repo.wt(&format!("c{i}"));
        assert!(registered.contains(&wt), "{wt:?}");
        assert_eq!(
            git_ok(&repo, &wt, &["symbolic-ref", "HEAD"]),
            format!("refs/heads/loop/c{i}\n")
        );
        assert_eq!(git_ok(&repo, &wt, &["status", "--porcelain"]), "");
    }
    assert_eq!(repo.ids().len(), 8);
}

#[test]
fn cleanup_recycle_keeps_dirty_worktrees_and_fills_the_pool_up_to_its_size() {
    let repo = TestRepo::new();
    repo.git(["config", "loop.poolSize", "1"]);
    for (id, status) in [
        ("dirty", "rejected"),
        ("warm", "rejected"),
        ("extra", "escalated"),
    ] {
        repo.create(id);
        repo.run(["mark", id, status]).ok();
    }
    std::fs::write(repo.wt("dirty").join("README"), "changed\n").unwrap();
    // An ignored file (ignored through the worktree's own exclude rules).
    std::fs::write(repo.root.join(".git/info/exclude"), "target/\n").unwrap();
    std::fs::create_dir_all(repo.wt("warm").join("target")).unwrap();
    std::fs::write(repo.wt("warm").join("target/warm.o"), "cache\n").unwrap();
    // One more commit on the run's branch: kept, with the branch.
    std::fs::write(repo.wt("warm").join("new.txt"), "work\n").unwrap();
    repo.git_in(&repo.wt("warm"), ["add", "new.txt"]);
    repo.git_in(&repo.wt("warm"), ["commit", "-q", "-m", "work"]);
    let tip = git_ok(&repo, &repo.root, &["rev-parse", "loop/warm"]);

    let report = repo
        .run(["--json", "cleanup", "--recycle", "--status", "rejected"])
        .ok()
        .json();
    let skipped = report.find_id("skipped", "dirty");
    assert_eq!(skipped.text("code"), "dirty");
    assert_eq!(
        std::fs::read_to_string(repo.wt("dirty").join("README")).unwrap(),
        "changed\n"
    );
    assert_eq!(report.ids("removed"), ["warm"]);
    let note = report.find_id("removed", "warm").text("note");
    assert!(
        note.starts_with("recycled into the pool as .loop-worktrees/.pool/"),
        "{note}"
    );
    // The pool is full (pool.size 1): the next one is removed as today.
    let report = repo
        .run(["--json", "cleanup", "--recycle", "--status", "escalated"])
        .ok()
        .json();
    assert_eq!(report.ids("removed"), ["extra"]);
    assert!(
        report.find_id("removed", "extra").get("note").is_none(),
        "{report}"
    );
    assert!(!repo.wt("warm").exists() && !repo.wt("extra").exists());
    assert_eq!(repo.ids(), ["dirty"]);
    // Branches kept as always; the member is detached at the base.
    assert_eq!(git_ok(&repo, &repo.root, &["rev-parse", "loop/warm"]), tip);
    assert!(repo.branch_exists("loop/extra"));
    let ms = members(&repo);
    assert_eq!(ms.len(), 1);
    assert_eq!(ms[0].text("state"), "ready");
    let main = git_ok(&repo, &repo.root, &["rev-parse", "main"]);
    assert_eq!(ms[0].text("commit"), main.trim());
    let member = member_path(&repo, &ms[0]);
    assert!(!member.join("new.txt").exists());
    assert_eq!(git_ok(&repo, &member, &["status", "--porcelain"]), "");

    // The next create takes it, warm cache and all.
    let next = repo
        .run(["--json", "create", "next", "--pattern", "p"])
        .ok()
        .json();
    assert_eq!(next.text("method"), "pooled");
    assert_eq!(
        std::fs::read_to_string(repo.wt("next").join("target/warm.o")).unwrap(),
        "cache\n"
    );
    assert_eq!(
        git_ok(&repo, &repo.wt("next"), &["status", "--porcelain"]),
        ""
    );
}

#[test]
fn drain_removes_every_member_and_leaves_no_registration() {
    let repo = TestRepo::new();
    let fill = repo.run(["--json", "pool", "fill", "3"]).ok().json();
    assert_eq!(fill.arr("added").len(), 3);
    assert_eq!(repo.registered().len(), 4);
    let drain = repo.run(["--json", "pool", "drain"]).ok().json();
    assert_eq!(drain.text("action"), "drain");
    assert_eq!(drain.arr("removed").len(), 3);
    assert!(drain.arr("skipped").is_empty());
    assert!(drain.arr("members").is_empty());
    assert_eq!(repo.registered(), vec![repo.root.clone()]);
    assert!(!repo.loop_dir().join(".pool").exists());
}

#[test]
fn members_that_fail_their_checks_are_discarded_never_forced_and_not_used() {
    let repo = TestRepo::new();
    std::fs::write(repo.root.join("second"), "2\n").unwrap();
    repo.git(["add", "second"]);
    repo.git(["commit", "-q", "-m", "second"]);
    repo.run(["pool", "fill", "4"]).ok();
    let ms: Vec<PathBuf> = members(&repo)
        .iter()
        .map(|m| member_path(&repo, m))
        .collect();
    let (dirty, wrong_head, locked, missing) = (&ms[0], &ms[1], &ms[2], &ms[3]);
    std::fs::write(dirty.join("README"), "changed\n").unwrap();
    git_ok(&repo, wrong_head, &["checkout", "-q", "--detach", "HEAD~1"]);
    git_ok(
        &repo,
        &repo.root,
        &["worktree", "lock", "--", locked.to_str().unwrap()],
    );
    std::fs::remove_dir_all(missing).unwrap();
    let status = members(&repo);
    assert!(
        status.iter().all(|m| m.text("state") == "unfit"),
        "{status:?}"
    );

    let run = repo.run(["--json", "create", "x", "--pattern", "p"]);
    let doc = run.ok().json();
    assert!(
        doc.get("method").is_none(),
        "no fit member: a plain create: {doc}"
    );
    // Removed with the usual rules: the wrong HEAD (clean, its commit on
    // main) and the missing one's registration go; the dirty and the locked
    // one cannot be removed without force, so they stay, and are reported.
    assert!(!wrong_head.exists());
    assert_eq!(
        std::fs::read_to_string(dirty.join("README")).unwrap(),
        "changed\n"
    );
    assert!(locked.exists());
    let registered = repo.registered();
    assert!(!registered.contains(missing) && !registered.contains(wrong_head));
    assert!(registered.contains(dirty) && registered.contains(locked));
    assert!(
        run.stderr.contains("discarded pool member"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("left pool member"), "{}", run.stderr);
    assert_eq!(members(&repo).len(), 2);
    // Left members are never used: another create checks out plainly too.
    let again = repo
        .run(["--json", "create", "y", "--pattern", "p"])
        .ok()
        .json();
    assert!(again.get("method").is_none());
    assert_eq!(
        std::fs::read_to_string(dirty.join("README")).unwrap(),
        "changed\n"
    );
}

#[test]
fn pool_members_are_neither_runs_nor_orphans() {
    let repo = TestRepo::new();
    repo.create("run");
    repo.run(["pool", "fill", "2"]).ok();
    let list = repo.run(["--json", "list"]).ok().json();
    assert_eq!(list.ids("worktrees"), ["run"]);
    let reconcile = repo.run(["--json", "reconcile"]).ok().json();
    assert!(reconcile.arr("orphans").is_empty(), "{reconcile}");
    assert!(reconcile.arr("skipped").is_empty(), "{reconcile}");
    assert_eq!(repo.ids(), ["run"]);
    assert_eq!(members(&repo).len(), 2);
    // `git loop pool` alone is the status.
    let status = repo.run(["--json", "pool"]).ok().json();
    assert_eq!(status.text("action"), "status");
    assert_eq!(status["size"], 4);
}

#[test]
fn pool_size_is_validated_where_it_is_set() {
    let repo = TestRepo::new();
    let run = repo.run(["--json", "config"]);
    let doc = run.ok().json();
    assert_eq!(doc["pool.size"]["value"], 4);
    assert_eq!(doc["cleanup.recycle"]["value"], false);
    let run = TestRepo::output(
        repo.command()
            .env("GIT_LOOP_POOL_SIZE", "many")
            .args(["pool", "status"]),
    );
    run.code(1);
    assert!(
        run.stderr.contains("\"many\" is not a pool size"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_member_at_another_commit_is_switched_to_the_runs_base() {
    let repo = TestRepo::new();
    let first = repo.git(["rev-parse", "HEAD"]);
    repo.run(["pool", "fill", "1"]).ok();
    std::fs::write(repo.root.join("later"), "later\n").unwrap();
    repo.git(["add", "later"]);
    repo.git(["commit", "-q", "-m", "later"]);
    // The member is at the first commit; main has moved on.
    let pooled = repo
        .run(["--json", "create", "p", "--pattern", "x"])
        .ok()
        .json();
    assert_eq!(pooled.text("method"), "pooled");
    let fresh = repo
        .run([
            "--json",
            "create",
            "f",
            "--pattern",
            "x",
            "--base",
            first.trim(),
        ])
        .ok()
        .json();
    assert!(fresh.get("method").is_none());
    let (p, f) = (repo.wt("p"), repo.wt("f"));
    assert_eq!(
        git_ok(&repo, &p, &["rev-parse", "HEAD"]),
        repo.git(["rev-parse", "main"])
    );
    assert_eq!(std::fs::read_to_string(p.join("later")).unwrap(), "later\n");
    assert_eq!(
        git_ok(&repo, &p, &["status", "--porcelain", "--ignored"]),
        ""
    );
    assert_eq!(
        git_ok(&repo, &p, &["ls-files", "-s"]),
        git_ok(&repo, &repo.root, &["ls-files", "-s"])
    );
    assert!(!f.join("later").exists());
}

#[test]
fn a_member_an_interrupted_fill_left_half_made_is_never_used_and_is_cleared() {
    let repo = TestRepo::new();
    let commit = repo.git(["rev-parse", "HEAD"]);
    std::fs::create_dir_all(repo.loop_dir().join(".pool/.new")).unwrap();
    // What a fill stopped before its checkout leaves: registered, no files.
    let staged = format!(".loop-worktrees/.pool/.new/{}-x", commit.trim());
    repo.git([
        "worktree",
        "add",
        "-q",
        "--no-checkout",
        "--detach",
        &staged,
        commit.trim(),
    ]);
    assert!(members(&repo).is_empty(), "a staged member is not a member");
    let created = repo
        .run(["--json", "create", "a", "--pattern", "p"])
        .ok()
        .json();
    assert!(created.get("method").is_none());
    let fill = repo.run(["--json", "pool", "fill", "1"]).ok().json();
    let discarded = fill.arr("discarded");
    assert_eq!(discarded.len(), 1, "{fill}");
    assert_eq!(discarded[0].text("path"), staged);
    assert_eq!(discarded[0]["removed"], true);
    assert!(!repo.root.join(&staged).exists());
    assert_eq!(fill.arr("members").len(), 1);
    assert_eq!(repo.registered().len(), 3, "root, run a, one member");
}

#[test]
fn a_recycled_worktree_keeps_only_what_pool_keep_names() {
    let repo = TestRepo::new();
    repo.git(["config", "loop.poolSize", "1"]);
    std::fs::write(
        repo.root.join(".git/info/exclude"),
        "target/\n.env\n*.log\ncache\n",
    )
    .unwrap();
    repo.create("used");
    let wt = repo.wt("used");
    std::fs::create_dir_all(wt.join("target")).unwrap();
    std::fs::write(wt.join("target/out"), "warm\n").unwrap();
    std::fs::write(wt.join(".env"), "TOKEN=run-a\n").unwrap();
    std::fs::write(wt.join("secret.log"), "run a's secret\n").unwrap();
    // Ignored symlinks to things outside the worktree: removed as links,
    // never followed.
    let outside = repo.base().join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("keep.txt"), "not the run's\n").unwrap();
    std::os::unix::fs::symlink(&outside, wt.join("cache")).unwrap();
    std::os::unix::fs::symlink(outside.join("keep.txt"), wt.join("link.log")).unwrap();
    repo.run(["mark", "used", "rejected"]).ok();

    let report = repo
        .run(["--json", "cleanup", "--recycle", "--status", "rejected"])
        .ok()
        .json();
    let note = report.find_id("removed", "used").text("note");
    assert!(note.starts_with("recycled into the pool"), "{note}");
    assert_eq!(
        std::fs::read_to_string(outside.join("keep.txt")).unwrap(),
        "not the run's\n"
    );

    let next = repo
        .run(["--json", "create", "next", "--pattern", "p"])
        .ok()
        .json();
    assert_eq!(next.text("method"), "pooled");
    let wt = repo.wt("next");
    assert_eq!(
        std::fs::read_to_string(wt.join("target/out")).unwrap(),
        "warm\n"
    );
    for gone in [".env", "secret.log", "cache", "link.log"] {
        assert!(
            std::fs::symlink_metadata(wt.join(gone)).is_err(),
            "{gone} was handed to the next run"
        );
    }
    assert!(wt.join("README").is_file());
    assert_eq!(git_ok(&repo, &wt, &["status", "--porcelain"]), "");
}

#[test]
fn pool_keep_is_a_setting_and_what_it_does_not_name_is_removed() {
    let repo = TestRepo::new();
    let shown = repo.run(["--json", "config"]).ok().json();
    assert_eq!(
        shown["pool.keep"]["value"],
        serde_json::json!(["target/", "node_modules/", ".venv/", "build/", ".gradle/"])
    );
    repo.git(["config", "loop.poolSize", "1"]);
    repo.git(["config", "loop.poolKeep", "node_modules/"]);
    std::fs::write(repo.root.join(".git/info/exclude"), "target/\n").unwrap();
    repo.create("used");
    std::fs::create_dir_all(repo.wt("used").join("target")).unwrap();
    std::fs::write(repo.wt("used").join("target/out"), "x\n").unwrap();
    repo.run(["mark", "used", "rejected"]).ok();
    repo.run(["cleanup", "--recycle", "--status", "rejected"])
        .ok();
    let next = repo
        .run(["--json", "create", "next", "--pattern", "p"])
        .ok()
        .json();
    assert_eq!(next.text("method"), "pooled");
    assert!(!repo.wt("next").join("target").exists());
}

/// Set a directory's mtime `secs` seconds into the past.
fn age_dir(path: &Path, secs: u64) {
    fs::File::open(path)
        .unwrap()
        .set_modified(std::time::SystemTime::now() - std::time::Duration::from_secs(secs))
        .unwrap();
}

/// A create that takes a pool member filled hours ago moves it to
/// `.loop-worktrees/<id>` and records the run only after its switch: until
/// then it looks like an orphan. `reconcile --remove-orphan <id>` must find
/// it too young (as it finds a fresh `git worktree add`), not old as the
/// member's own directories are, and leave it to the create.
#[test]
fn reconcile_does_not_remove_a_pool_member_a_create_is_moving_into_place() {
    let repo = TestRepo::new();
    let fill = repo.run(["--json", "pool", "fill", "1"]).ok().json();
    let member = repo.root.join(fill["members"][0]["path"].as_str().unwrap());
    let admin = git_line(&repo, &member, &["rev-parse", "--absolute-git-dir"]);
    // Filled three hours ago.
    for dir in [member.as_path(), Path::new(&admin)] {
        age_dir(dir, 3 * 3600);
    }
    let go = repo.home.join("go");
    let mut create = repo
        .command()
        .env(
            "GIT_LOOP_TEST_CRASH",
            format!("before-pool-switch:until:{}", go.display()),
        )
        .args(["--json", "create", "x", "--pattern", "p"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::BufRead;
        let stderr = std::io::BufReader::new(create.stderr.take().unwrap());
        let reached = stderr
            .lines()
            .map_while(Result::ok)
            .any(|l| l.contains("paused at before-pool-switch"));
        if !reached {
            let _ = create.kill();
            panic!("create never reached before-pool-switch");
        }
    }
    let rec = repo.run(["--json", "reconcile", "--remove-orphan", "x"]);
    fs::write(&go, "").unwrap();
    let done = create.wait_with_output().unwrap();
    rec.ok();
    assert_eq!(
        rec.json()["skipped"][0]["code"],
        "too-young",
        "{}",
        rec.stdout
    );
    assert!(done.status.success(), "{done:?}");
    assert_eq!(repo.status_of("x").as_deref(), Some("active"));
    assert!(repo.wt("x").join("README").exists());
}

/// A sparse run recycled into the pool stays sparse (its patterns live in
/// its admin dir): a later plain create must not take it and hand out a
/// worktree with files missing.
#[test]
fn a_recycled_sparse_run_is_not_handed_to_a_plain_create() {
    let repo = TestRepo::new();
    fs::create_dir_all(repo.root.join("a")).unwrap();
    fs::create_dir_all(repo.root.join("b")).unwrap();
    fs::write(repo.root.join("a/one"), "1\n").unwrap();
    fs::write(repo.root.join("b/two"), "2\n").unwrap();
    repo.git(["add", "."]);
    repo.git(["commit", "-q", "-m", "dirs"]);
    repo.git(["config", "loop.poolSize", "2"]);
    repo.run(["create", "s", "--pattern", "p", "--sparse", "a"])
        .ok();
    assert!(!repo.wt("s").join("b/two").exists());
    repo.run(["mark", "s", "rejected"]).ok();
    repo.run(["cleanup", "--recycle"]).ok();
    repo.run(["create", "plain", "--pattern", "p"]).ok();
    assert!(
        repo.wt("plain").join("b/two").exists(),
        "a plain create got a sparse worktree"
    );
}

/// A run taken from a recycled member finds the warm files the member kept
/// (`pool.keep`) where `.worktreeinclude` would copy them: they are counted
/// as already there, in the summary line and in `copy.alreadyThere`, never
/// as `not copied …: exists`; and the human create says the run came from
/// the pool. A fresh create says neither.
#[test]
fn a_run_from_a_recycled_member_counts_its_warm_files_as_already_there() {
    let repo = TestRepo::new();
    repo.git(["config", "loop.poolSize", "1"]);
    fs::write(repo.root.join(".git/info/exclude"), "target/\n.env\n").unwrap();
    fs::create_dir_all(repo.root.join("target")).unwrap();
    for f in ["a.o", "b.o", "c.o"] {
        fs::write(repo.root.join("target").join(f), "obj\n").unwrap();
    }
    fs::write(repo.root.join(".env"), "TOKEN=main\n").unwrap();
    fs::write(repo.root.join(".worktreeinclude"), ".env\ntarget/\n").unwrap();
    let recycle = |id: &str| {
        fs::write(repo.wt(id).join("target/built.o"), "warm\n").unwrap();
        repo.run(["mark", id, "rejected"]).ok();
        let report = repo
            .run(["--json", "cleanup", "--recycle", "--status", "rejected"])
            .ok()
            .json();
        let note = report.find_id("removed", id).text("note");
        assert!(note.starts_with("recycled into the pool"), "{note}");
    };

    let fresh = repo.run(["create", "used", "--pattern", "p"]);
    fresh.ok();
    assert!(
        fresh.stderr.contains("copied 4 files (.worktreeinclude)"),
        "{}",
        fresh.stderr
    );
    assert!(!fresh.stderr.contains("pool"), "{}", fresh.stderr);
    recycle("used");

    let next = repo.run(["create", "next", "--pattern", "p"]);
    next.ok();
    assert!(!next.stderr.contains("not copied"), "{}", next.stderr);
    let copied = next
        .stderr
        .lines()
        .find(|l| l.starts_with("copied "))
        .unwrap_or_else(|| panic!("no summary line: {}", next.stderr));
    assert!(
        copied.starts_with("copied 1 file (.worktreeinclude): ")
            && copied.ends_with("; 3 already there (warm from the pool)"),
        "{copied}"
    );
    assert!(
        next.stderr.contains(
            "created .loop-worktrees/next on branch loop/next from main (taken warm from the pool)\n"
        ),
        "{}",
        next.stderr
    );
    assert_eq!(
        fs::read_to_string(repo.wt("next").join(".env")).unwrap(),
        "TOKEN=main\n"
    );
    recycle("next");

    // Nothing left to copy: the summary still says what was there.
    fs::remove_file(repo.root.join(".env")).unwrap();
    let warm_only = repo.run(["create", "warm", "--pattern", "p"]);
    warm_only.ok();
    assert!(
        warm_only
            .stderr
            .contains("copied 0 files (.worktreeinclude); 3 already there (warm from the pool)\n"),
        "{}",
        warm_only.stderr
    );
    assert!(
        !warm_only.stderr.contains("not copied"),
        "{}",
        warm_only.stderr
    );
    recycle("warm");

    let doc = repo
        .run(["--json", "create", "last", "--pattern", "p"])
        .ok()
        .json();
    assert_eq!(doc.text("method"), "pooled");
    let copy = &doc["copy"];
    assert_eq!(
        copy["alreadyThere"],
        serde_json::json!(["target/a.o", "target/b.o", "target/c.o"])
    );
    assert_eq!(copy["skipped"], serde_json::json!([]), "{copy}");
    assert_eq!(copy["copied"], serde_json::json!([]), "{copy}");
    // The member's own build output is kept, as pool.keep promises.
    assert_eq!(
        fs::read_to_string(repo.wt("last").join("target/built.o")).unwrap(),
        "warm\n"
    );
    // A fresh create (the pool is empty now) lists no such field.
    let doc = repo
        .run(["--json", "create", "cold", "--pattern", "p"])
        .ok()
        .json();
    assert!(doc.get("method").is_none(), "{doc}");
    assert!(doc["copy"].get("alreadyThere").is_none(), "{doc}");
    assert_eq!(doc["copy"]["copied"].as_array().unwrap().len(), 3);
}
