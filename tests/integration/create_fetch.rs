//! A fresh base: `create` warns when the local base is behind its upstream
//! (without fetching), and `--fetch` / `create.fetch` fetch it first.

use crate::common::{TestRepo, commit, git_line, with_remote_ahead};

fn rev(repo: &TestRepo, spec: &str) -> String {
    repo.git(["rev-parse", spec]).trim().to_owned()
}

/// Without `--fetch`, `create` reads the upstream as last fetched: nothing is
/// fetched, so a remote that moved is not seen; after a `git fetch` the
/// warning names the count and the upstream, on stderr and in JSON.
#[test]
fn behind_its_upstream_warns_with_the_count_and_the_upstream() {
    let repo = TestRepo::new();
    let (_, tip) = with_remote_ahead(&repo, 3);
    let before = rev(&repo, "origin/main");

    let run = repo.run(["--json", "create", "a", "--pattern", "p"]);
    run.ok();
    let v = run.json();
    assert_eq!(v["upstream"]["name"], "origin/main");
    assert_eq!(v["upstream"]["behind"], 0);
    assert_eq!(v["upstream"]["fetched"], false);
    assert!(v["upstream"].get("warning").is_none(), "{v}");
    assert!(!run.stderr.contains("warning"), "{}", run.stderr);
    // Nothing was fetched.
    assert_eq!(rev(&repo, "origin/main"), before);

    repo.git(["fetch", "-q", "origin"]);
    assert_eq!(rev(&repo, "origin/main"), tip);
    let run = repo.run(["create", "b", "--pattern", "p"]);
    run.ok();
    assert!(
        run.stderr.contains(
            "warning: base main is 3 commits behind its upstream origin/main (as last fetched)"
        ),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("--base origin/main"), "{}", run.stderr);
    // The run starts from the local base, as asked.
    assert_eq!(rev(&repo, "loop/b"), rev(&repo, "main"));

    let run = repo.run(["--json", "create", "c", "--pattern", "p"]);
    run.ok();
    let v = run.json();
    assert_eq!(v["upstream"]["behind"], 3);
    assert_eq!(
        v["upstream"]["warning"],
        "base main is 3 commits behind its upstream origin/main (as last fetched)"
    );
}

/// `--fetch` really fetches from the (local bare) remote before comparing:
/// the remote-tracking branch moves to the remote's tip, and the count is
/// the fresh one. The local base itself is never moved.
#[test]
fn fetch_flag_fetches_the_upstream_first() {
    let repo = TestRepo::new();
    let (_, tip) = with_remote_ahead(&repo, 2);
    let main = rev(&repo, "main");
    // (left by the setup's own `git fetch`)
    std::fs::remove_file(repo.root.join(".git/FETCH_HEAD")).unwrap();
    let run = repo.run(["--json", "create", "a", "--pattern", "p", "--fetch"]);
    run.ok();
    let v = run.json();
    assert_eq!(v["upstream"]["fetched"], true);
    assert_eq!(v["upstream"]["behind"], 2);
    assert_eq!(
        v["upstream"]["warning"],
        "base main is 2 commits behind its upstream origin/main"
    );
    assert_eq!(rev(&repo, "origin/main"), tip);
    assert_eq!(rev(&repo, "main"), main);
    assert_eq!(rev(&repo, "loop/a"), main);
    // git fetch wrote no FETCH_HEAD.
    assert!(!repo.root.join(".git/FETCH_HEAD").exists());
}

/// `--base origin/main --fetch` starts the run from what the remote has now.
#[test]
fn fetch_with_a_remote_tracking_base_starts_from_the_fresh_tip() {
    let repo = TestRepo::new();
    let (_, tip) = with_remote_ahead(&repo, 2);
    let run = repo.run([
        "--json",
        "create",
        "a",
        "--pattern",
        "p",
        "--base",
        "origin/main",
        "--fetch",
    ]);
    run.ok();
    let v = run.json();
    assert_eq!(v["upstream"]["name"], "origin/main");
    assert_eq!(v["upstream"]["behind"], 0);
    assert_eq!(v["upstream"]["fetched"], true);
    assert_eq!(rev(&repo, "loop/a"), tip);
    assert_eq!(
        repo.git_in(&repo.wt("a"), ["rev-parse", "HEAD"]).stdout,
        format!("{tip}\n").into_bytes()
    );
}

/// `create.fetch` (here `git config loop.createFetch true`) fetches as the
/// flag does; `git loop config` shows it.
#[test]
fn create_fetch_setting_fetches() {
    let repo = TestRepo::new();
    let (_, tip) = with_remote_ahead(&repo, 1);
    repo.git(["config", "loop.createFetch", "true"]);
    let run = repo.run(["create", "a", "--pattern", "p"]);
    run.ok();
    assert!(
        run.stderr
            .contains("warning: base main is 1 commit behind its upstream origin/main;"),
        "{}",
        run.stderr
    );
    assert_eq!(rev(&repo, "origin/main"), tip);
    let v = repo.run(["--json", "config"]).json();
    assert_eq!(v["create.fetch"]["value"], true);

    let mut cmd = repo.command();
    cmd.args(["create", "c", "--pattern", "p"])
        .env("GIT_LOOP_CREATE_FETCH", "sometimes");
    let run = TestRepo::output(&mut cmd);
    run.code(1);
    assert!(
        run.stderr.contains("GIT_LOOP_CREATE_FETCH"),
        "{}",
        run.stderr
    );
    assert!(!repo.branch_exists("loop/c"));
}

/// No upstream is not an error and gives no warning: a repository with no
/// remote (with and without `--fetch`), and a branch whose upstream was
/// never fetched.
#[test]
fn a_missing_upstream_is_not_an_error() {
    let repo = TestRepo::new();
    for (id, extra) in [("a", None), ("b", Some("--fetch"))] {
        let mut args = vec!["--json", "create", id, "--pattern", "p"];
        args.extend(extra);
        let run = repo.run(&args);
        run.ok();
        assert!(run.json().get("upstream").is_none(), "{}", run.stdout);
        assert!(!run.stderr.contains("warning"), "{id}: {}", run.stderr);
        assert!(!run.stderr.contains("fetch"), "{id}: {}", run.stderr);
    }
    // Configured, but origin/main does not exist (never fetched).
    repo.git(["config", "branch.main.remote", "origin"]);
    repo.git(["config", "branch.main.merge", "refs/heads/main"]);
    repo.git(["config", "remote.origin.url", "/nonexistent/remote.git"]);
    repo.git([
        "config",
        "remote.origin.fetch",
        "+refs/heads/*:refs/remotes/origin/*",
    ]);
    let run = repo.run(["create", "c", "--pattern", "p"]);
    run.ok();
    assert!(!run.stderr.contains("warning"), "{}", run.stderr);
}

/// A fetch that fails is a warning: the run is still created, from the
/// base as it is, and JSON says why the fetch failed.
#[test]
fn a_failed_fetch_warns_and_creates() {
    let repo = TestRepo::new();
    let (remote, _) = with_remote_ahead(&repo, 1);
    std::fs::rename(&remote, repo.base().join("moved.git")).unwrap();
    let run = repo.run(["--json", "create", "a", "--pattern", "p", "--fetch"]);
    run.ok();
    let v = run.json();
    assert_eq!(v["upstream"]["fetched"], false);
    assert!(v["upstream"]["fetchError"].is_string(), "{v}");
    assert!(
        run.stderr.contains("warning: could not fetch origin/main"),
        "{}",
        run.stderr
    );
    assert!(repo.wt("a").is_dir());
}

/// A create refused before anything is written fetches nothing either: an
/// id already active, an untrusted repository hook.
#[test]
fn a_refused_create_fetches_nothing() {
    let repo = TestRepo::new();
    let (_, tip) = with_remote_ahead(&repo, 1);
    let before = rev(&repo, "origin/main");
    assert_ne!(before, tip);
    repo.create("a");
    let run = repo.run(["--json", "create", "a", "--pattern", "p", "--fetch"]);
    run.code(1);
    assert_eq!(run.json()["error"]["code"], "active-exists");
    std::fs::write(
        repo.root.join(".git-loop.toml"),
        "[create]\npost-command = \"true\"\n",
    )
    .unwrap();
    let run = repo.run(["--json", "create", "b", "--pattern", "p", "--fetch"]);
    run.code(1);
    assert_eq!(run.json()["error"]["code"], "untrusted-hook");
    assert_eq!(rev(&repo, "origin/main"), before);
}

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
