//! A second adversarial review: the warm pool racing other commands,
//! `create --fetch` with a hostile upstream configuration, salvage and
//! restore corner cases, MCP input, and read-only commands that must write
//! nothing. Each test is a hole found and closed, or an attack that must
//! keep holding.

use std::fs;
use std::path::Path;

use crate::common::{TestRepo, commit, git_line, manifest_with};

/// `create --fetch` fetches the base's upstream. A remote whose fetch
/// refspecs also map the upstream's branch onto a local branch and onto a
/// salvage ref (`+refs/heads/main:refs/heads/keep`,
/// `+refs/heads/main:refs/loop/salvage/x`) must not make that fetch move
/// them: only the remote-tracking branch may be written.
#[test]
fn create_fetch_never_moves_a_local_branch_or_a_salvage_ref() {
    let repo = TestRepo::new();
    let remote = repo.base().join("remote.git");
    let remote_s = remote.to_str().unwrap();
    git_line(&repo, &repo.root, &["clone", "-q", "--bare", ".", remote_s]);
    git_line(&repo, &repo.root, &["remote", "add", "origin", remote_s]);
    git_line(&repo, &repo.root, &["fetch", "-q", "origin"]);
    git_line(
        &repo,
        &repo.root,
        &["branch", "-q", "--set-upstream-to=origin/main", "main"],
    );
    // Work only on `keep`, and a salvage commit only on refs/loop/salvage/x.
    git_line(&repo, &repo.root, &["checkout", "-q", "-b", "keep"]);
    commit(&repo, &repo.root, "k", "keep work\n");
    git_line(&repo, &repo.root, &["checkout", "-q", "main"]);
    let keep = git_line(&repo, &repo.root, &["rev-parse", "keep"]);
    let salvage = git_line(
        &repo,
        &repo.root,
        &[
            "commit-tree",
            "keep^{tree}",
            "-p",
            "keep",
            "-m",
            "salvage x",
        ],
    );
    git_line(
        &repo,
        &repo.root,
        &["update-ref", "refs/loop/salvage/x", &salvage],
    );
    for spec in [
        "+refs/heads/main:refs/heads/keep",
        "+refs/heads/main:refs/loop/salvage/x",
    ] {
        git_line(
            &repo,
            &repo.root,
            &["config", "--add", "remote.origin.fetch", spec],
        );
    }
    let run = repo.run(["--json", "create", "a", "--pattern", "p", "--fetch"]);
    run.ok();
    assert_eq!(
        git_line(&repo, &repo.root, &["rev-parse", "keep"]),
        keep,
        "{}",
        run.stderr
    );
    assert_eq!(
        git_line(&repo, &repo.root, &["rev-parse", "refs/loop/salvage/x"]),
        salvage,
        "{}",
        run.stderr
    );
}

/// An upstream that is not a remote-tracking branch (the remote's only
/// refspec maps `main` onto the local branch `keep`) is never fetched: the
/// fetch would write `keep`.
#[test]
fn create_fetch_never_fetches_an_upstream_outside_refs_remotes() {
    let repo = TestRepo::new();
    let remote = repo.base().join("remote.git");
    let remote_s = remote.to_str().unwrap();
    git_line(&repo, &repo.root, &["clone", "-q", "--bare", ".", remote_s]);
    let pusher = repo.base().join("pusher");
    git_line(
        &repo,
        &repo.root,
        &["clone", "-q", remote_s, pusher.to_str().unwrap()],
    );
    commit(&repo, &pusher, "up", "upstream\n");
    git_line(&repo, &pusher, &["push", "-q", "origin", "main"]);
    git_line(&repo, &repo.root, &["checkout", "-q", "-b", "keep"]);
    commit(&repo, &repo.root, "k", "keep work\n");
    git_line(&repo, &repo.root, &["checkout", "-q", "main"]);
    let keep = git_line(&repo, &repo.root, &["rev-parse", "keep"]);
    for (key, value) in [
        ("remote.origin.url", remote_s),
        ("remote.origin.fetch", "+refs/heads/main:refs/heads/keep"),
        ("branch.main.remote", "origin"),
        ("branch.main.merge", "refs/heads/main"),
    ] {
        git_line(&repo, &repo.root, &["config", key, value]);
    }
    let run = repo.run(["--json", "create", "a", "--pattern", "p", "--fetch"]);
    run.ok();
    assert_eq!(
        git_line(&repo, &repo.root, &["rev-parse", "keep"]),
        keep,
        "{}",
        run.stderr
    );
}

/// Every file under `dir` (recursively, symlinks not followed) with its
/// bytes: a snapshot to compare before and after a read-only command.
fn snapshot(dir: &Path) -> std::collections::BTreeMap<std::path::PathBuf, Vec<u8>> {
    let mut out = std::collections::BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            let meta = fs::symlink_metadata(&p).unwrap();
            if meta.is_dir() {
                stack.push(p);
            } else if meta.is_file() {
                out.insert(p.clone(), fs::read(&p).unwrap());
            } else {
                out.insert(p, Vec::new());
            }
        }
    }
    out
}

/// `conflicts` and `list --long` write nothing — no object, index, ref,
/// lock or log — in a repository whose configuration asks git to do
/// housekeeping on the way (`gc.auto=1`, `maintenance.auto`, a
/// `core.fsmonitor` hook that would leave a mark, an index that git would
/// refresh).
#[test]
fn conflicts_and_list_long_write_nothing_with_housekeeping_configured() {
    let repo = TestRepo::new();
    commit(&repo, &repo.root, "f", "one\ntwo\nthree\n");
    for id in ["a", "b"] {
        repo.create(id).ok();
        commit(&repo, &repo.wt(id), "f", &format!("one\n{id}\nthree\n"));
        // A stat-dirty index: the file rewritten with the same bytes.
        fs::write(repo.wt(id).join("f"), format!("one\n{id}\nthree\n")).unwrap();
    }
    let mark = repo.base().join("fsmonitor-ran");
    let hook = repo.base().join("fsmonitor.sh");
    fs::write(
        &hook,
        format!("#!/bin/sh\necho x >> '{}'\n", mark.display()),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(&hook, fs::Permissions::from_mode(0o755)).unwrap();
    for (key, value) in [
        ("gc.auto", "1"),
        ("gc.autoPackLimit", "1"),
        ("maintenance.auto", "true"),
        ("maintenance.strategy", "incremental"),
        ("core.fsmonitor", hook.to_str().unwrap()),
        ("core.untrackedCache", "true"),
        ("index.version", "4"),
    ] {
        git_line(&repo, &repo.root, &["config", key, value]);
    }
    let before = (
        snapshot(&repo.root.join(".git")),
        snapshot(&repo.loop_dir()),
    );
    repo.run(["--json", "conflicts"]).ok();
    repo.run(["--json", "list", "--long"]).ok();
    repo.run(["list", "--long"]).ok();
    let after = (
        snapshot(&repo.root.join(".git")),
        snapshot(&repo.loop_dir()),
    );
    let changed: Vec<_> = after
        .0
        .iter()
        .chain(after.1.iter())
        .filter(|(p, bytes)| before.0.get(*p).or(before.1.get(*p)) != Some(bytes))
        .map(|(p, _)| p.clone())
        .chain(
            before
                .0
                .keys()
                .chain(before.1.keys())
                .filter(|p| !after.0.contains_key(*p) && !after.1.contains_key(*p))
                .cloned(),
        )
        .collect();
    assert!(changed.is_empty(), "written: {changed:?}");
    assert!(!mark.exists(), "the fsmonitor hook ran");
}

/// `restore` of a run whose branch `loop/<id>` is checked out in another
/// worktree (here the main one) is refused, and changes nothing: no
/// worktree, no manifest entry, the salvage ref kept, the other worktree's
/// files untouched.
#[test]
fn restore_refuses_while_the_branch_is_checked_out_elsewhere() {
    let repo = TestRepo::new();
    repo.create("x").ok();
    fs::write(repo.wt("x").join("wip"), "unsaved work\n").unwrap();
    repo.run(["mark", "x", "rejected"]).ok();
    repo.run(["remove", "--salvage", "x"]).ok();
    let salvage = git_line(&repo, &repo.root, &["rev-parse", "refs/loop/salvage/x"]);
    git_line(&repo, &repo.root, &["checkout", "-q", "loop/x"]);
    fs::write(repo.root.join("README"), "main worktree edit\n").unwrap();
    let manifest = fs::read(repo.manifest_path()).unwrap();
    let run = repo.run(["--json", "restore", "x"]);
    assert_ne!(run.code, 0, "{}", run.stdout);
    assert!(!repo.wt("x").exists());
    assert_eq!(fs::read(repo.manifest_path()).unwrap(), manifest);
    assert_eq!(
        git_line(&repo, &repo.root, &["rev-parse", "refs/loop/salvage/x"]),
        salvage
    );
    assert_eq!(
        fs::read_to_string(repo.root.join("README")).unwrap(),
        "main worktree edit\n"
    );
    assert!(!repo.root.join("wip").exists());
}

/// `restore` when the manifest still holds an *active* entry for the id
/// whose worktree is gone (rm -rf, never reconciled): the run comes back,
/// with one entry for the id, and the salvaged file.
#[test]
fn restore_over_an_active_entry_whose_worktree_is_gone() {
    let repo = TestRepo::new();
    repo.create("x").ok();
    fs::write(repo.wt("x").join("wip"), "unsaved work\n").unwrap();
    repo.run(["mark", "x", "rejected"]).ok();
    repo.run(["remove", "--salvage", "x"]).ok();
    repo.write_manifest(&manifest_with(&[("x", "active", "2026-11-30T14:44:32Z")]));
    assert_eq!(repo.status_of("x").as_deref(), Some("active"));
    repo.run(["--json", "restore", "x"]).ok();
    assert_eq!(
        fs::read_to_string(repo.wt("x").join("wip")).unwrap(),
        "unsaved work\n"
    );
    assert_eq!(repo.ids(), vec!["x".to_owned()]);
    assert_eq!(repo.status_of("x").as_deref(), Some("active"));
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

/// The MCP server against hostile lines: JSON nested far deeper than any
/// parser's stack (arrays, and objects inside a call's arguments), a long
/// line of whitespace-free junk, and a call whose `repo` is not a
/// repository or is an option-like name. Each gets an error reply, the
/// server lives on (a `ping` after them is answered) and nothing is
/// written in the repository.
#[test]
fn mcp_survives_deep_nesting_and_foreign_repos() {
    use std::io::{BufRead, Write};
    let repo = TestRepo::new();
    let not_repo = repo.base().join("plain");
    fs::create_dir(&not_repo).unwrap();
    let before = snapshot(&repo.root);
    let deep = 500_000;
    let nested_args = format!(
        r#"{{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{{"name":"list","arguments":{{"status":{}1{}}}}}}}"#,
        "{\"a\":".repeat(deep),
        "}".repeat(deep)
    );
    let lines = vec![
        "[".repeat(deep * 2),
        format!(r#"{{"jsonrpc":"2.0","id":2,"method":{}"#, "[".repeat(deep)),
        nested_args,
        format!(
            r#"{{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{{"name":"list","arguments":{{"repo":{}}}}}}}"#,
            serde_json::to_string(not_repo.to_str().unwrap()).unwrap()
        ),
        r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"create","arguments":{"repo":"--help","run_id":"a","pattern":"p"}}}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":6,"method":"ping"}"#.to_owned(),
    ];
    let mut child = repo
        .command()
        .arg("mcp")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        for line in lines {
            let _ = writeln!(stdin, "{line}");
        }
    });
    let stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let replies: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(&l.unwrap()).unwrap())
        .collect();
    writer.join().unwrap();
    let status = child.wait().unwrap();
    assert!(status.success(), "{status:?} {replies:?}");
    assert_eq!(replies.len(), 6, "{replies:?}");
    assert_eq!(replies[5]["id"], 6, "{replies:?}");
    assert!(replies[5]["result"].is_object(), "{replies:?}");
    for r in &replies[..2] {
        assert_eq!(r["error"]["code"], -32700, "{r}");
    }
    assert!(replies[2].get("error").is_some() || replies[2]["result"]["isError"] == true);
    for r in &replies[3..5] {
        assert_eq!(r["result"]["isError"], true, "{r}");
    }
    assert_eq!(snapshot(&repo.root), before);
}

/// A salvage of run `x` that was never restored, then a *different* run
/// `x` (re-created with `--reuse` on the kept branch, later) salvaged in its
/// turn: the first salvage must not be overwritten (it would stay only in
/// the reflog, unreachable, for gc to prune). The second run is kept as it
/// is, skipped with its own code, and the first salvage stays restorable.
#[test]
fn a_salvage_of_an_older_run_is_never_overwritten_by_another_run() {
    let repo = TestRepo::new();
    repo.create("x").ok();
    fs::write(repo.wt("x").join("first"), "first run's work\n").unwrap();
    repo.run(["mark", "x", "rejected"]).ok();
    repo.run(["remove", "--salvage", "x"]).ok();
    let first = git_line(&repo, &repo.root, &["rev-parse", "refs/loop/salvage/x"]);
    repo.command();
    let mut cmd = repo.command();
    cmd.env("GIT_LOOP_TEST_NOW", "2030-01-01T00:00:00Z").args([
        "create",
        "x",
        "--pattern",
        "p",
        "--reuse",
    ]);
    crate::common::TestRepo::output(&mut cmd).ok();
    fs::write(repo.wt("x").join("second"), "second run's work\n").unwrap();
    repo.run(["mark", "x", "rejected"]).ok();
    let run = repo.run(["--json", "remove", "--salvage", "x"]);
    assert_eq!(
        git_line(&repo, &repo.root, &["rev-parse", "refs/loop/salvage/x"]),
        first,
        "{}",
        run.stdout
    );
    assert_eq!(
        fs::read_to_string(repo.wt("x").join("second")).unwrap(),
        "second run's work\n"
    );
    assert!(run.stdout.contains("untracked"), "{}", run.stdout);
}

/// The same run, restored and salvaged again, replaces its own salvage.
#[test]
fn a_restored_run_salvaged_again_replaces_its_own_salvage() {
    let repo = TestRepo::new();
    repo.create("x").ok();
    fs::write(repo.wt("x").join("work"), "one\n").unwrap();
    repo.run(["mark", "x", "rejected"]).ok();
    repo.run(["remove", "--salvage", "x"]).ok();
    let first = git_line(&repo, &repo.root, &["rev-parse", "refs/loop/salvage/x"]);
    repo.run(["restore", "x"]).ok();
    fs::write(repo.wt("x").join("work"), "two\n").unwrap();
    repo.run(["mark", "x", "rejected"]).ok();
    repo.run(["remove", "--salvage", "x"]).ok();
    assert!(!repo.wt("x").exists());
    let second = git_line(&repo, &repo.root, &["rev-parse", "refs/loop/salvage/x"]);
    assert_ne!(first, second);
    let work = git_line(&repo, &repo.root, &["show", "refs/loop/salvage/x:work"]);
    assert_eq!(work, "two");
}

/// The remote-tracking branch `create --fetch` writes is a symbolic ref to a
/// local branch (`refs/remotes/origin/main -> refs/heads/keep`): a fetch
/// would write through it and move `keep`. It is never fetched.
#[test]
fn create_fetch_never_writes_through_a_symbolic_remote_tracking_ref() {
    let repo = TestRepo::new();
    let remote = repo.base().join("remote.git");
    let remote_s = remote.to_str().unwrap();
    git_line(&repo, &repo.root, &["clone", "-q", "--bare", ".", remote_s]);
    let pusher = repo.base().join("pusher");
    git_line(
        &repo,
        &repo.root,
        &["clone", "-q", remote_s, pusher.to_str().unwrap()],
    );
    commit(&repo, &pusher, "up", "upstream\n");
    git_line(&repo, &pusher, &["push", "-q", "origin", "main"]);
    git_line(&repo, &repo.root, &["remote", "add", "origin", remote_s]);
    git_line(&repo, &repo.root, &["checkout", "-q", "-b", "keep"]);
    commit(&repo, &repo.root, "k", "keep work\n");
    git_line(&repo, &repo.root, &["checkout", "-q", "main"]);
    let keep = git_line(&repo, &repo.root, &["rev-parse", "keep"]);
    git_line(
        &repo,
        &repo.root,
        &[
            "symbolic-ref",
            "refs/remotes/origin/main",
            "refs/heads/keep",
        ],
    );
    git_line(
        &repo,
        &repo.root,
        &["config", "branch.main.remote", "origin"],
    );
    git_line(
        &repo,
        &repo.root,
        &["config", "branch.main.merge", "refs/heads/main"],
    );
    let run = repo.run(["--json", "create", "a", "--pattern", "p", "--fetch"]);
    run.ok();
    assert_eq!(
        git_line(&repo, &repo.root, &["rev-parse", "keep"]),
        keep,
        "{}",
        run.stderr
    );
}
