//! A run created from a remote-tracking base, as `create` advises (`create
//! <id> --fetch --base origin/main`), lands in the local branch that
//! tracks it (`main`, whose upstream is `origin/main`), never in the
//! remote-tracking ref itself; without such a branch it is skipped
//! (`no-target`) saying exactly what is missing. `--push` says where it
//! pushed, git's `<old>..<new>`, and when it rebuilt on a remote that
//! moved. A real remote: a bare repository on disk.

use std::path::PathBuf;

use super::land;
use crate::common::{JsonExt, TestRepo, commit, git_line, git_ok};

/// A repository whose `main` tracks `origin/main`, a bare repository
/// cloned from it, and the remote's path.
fn with_remote() -> (TestRepo, PathBuf) {
    let repo = TestRepo::new();
    let remote = repo.base().join("remote.git");
    repo.git(["clone", "-q", "--bare", ".", remote.to_str().unwrap()]);
    repo.git(["remote", "add", "origin", remote.to_str().unwrap()]);
    repo.git(["fetch", "-q", "origin"]);
    repo.git(["branch", "-q", "--set-upstream-to=origin/main", "main"]);
    (repo, remote)
}

fn rev(repo: &TestRepo, spec: &str) -> String {
    git_line(repo, &repo.root, &["rev-parse", spec])
}

/// The remote gains a commit `main` lacks (adding `file`), as another
/// clone pushes one.
fn remote_gains(repo: &TestRepo, remote: &std::path::Path, file: &str) {
    let other = repo.base().join("other");
    if other.exists() {
        git_ok(repo, &other, &["pull", "-q", "--ff-only"]);
        commit(repo, &other, file, "theirs\n");
        git_ok(repo, &other, &["push", "-q", "origin", "main"]);
        return;
    }
    git_ok(
        repo,
        &repo.root,
        &[
            "clone",
            "-q",
            remote.to_str().unwrap(),
            other.to_str().unwrap(),
        ],
    );
    commit(repo, &other, file, "theirs\n");
    git_ok(repo, &other, &["push", "-q", "origin", "main"]);
}

/// A run `id` created as create advises, from the freshly fetched
/// `origin/main`, with one commit of its own.
fn run_from_origin(repo: &TestRepo, id: &str) {
    repo.run(["create", id, "--fetch", "--base", "origin/main"])
        .ok();
    commit(repo, &repo.wt(id), &format!("{id}.txt"), &format!("{id}\n"));
}

#[test]
fn a_remote_tracking_base_lands_in_the_local_branch_that_tracks_it() {
    let (repo, remote) = with_remote();
    remote_gains(&repo, &remote, "theirs.txt");
    run_from_origin(&repo, "x");
    // The run starts from the fetched tip, which main lacks: main is
    // behind its upstream; the rebase onto main keeps the remote's commit
    // as it is (it sits on main's tip) and adds the run's.
    let tracking = rev(&repo, "refs/remotes/origin/main");
    let remote_tip = git_line(&repo, &remote, &["rev-parse", "main"]);
    let doc = land(&repo, &["x"], 0);
    let landed = doc.find_id("landed", "x");
    assert_eq!(landed["into"], "main", "{doc}");
    assert_eq!(
        rev(&repo, "main~1"),
        tracking,
        "the remote's commit kept as it is"
    );
    assert_eq!(doc["into"], "main", "{doc}");
    assert_eq!(
        git_line(&repo, &repo.root, &["log", "-1", "--format=%s", "main"]),
        "x.txt"
    );
    assert_eq!(
        rev(&repo, "refs/remotes/origin/main"),
        tracking,
        "a landing never moves a remote-tracking ref"
    );
    assert_eq!(
        git_line(&repo, &remote, &["rev-parse", "main"]),
        remote_tip,
        "nor, without --push, the remote"
    );
    // Landed as any run: its worktree removed, its branch deleted, proven
    // merged into main (where it landed), not into origin/main.
    assert_eq!(landed["worktree"], "removed", "{doc}");
    assert_eq!(landed["branch"], "deleted", "{doc}");
}

/// With `--push` the whole flow the advice leads to ends on the remote:
/// created from `origin/main`, landed in `main`, pushed to `origin`.
#[test]
fn a_remote_tracking_base_lands_and_pushes_to_its_remote() {
    let (repo, remote) = with_remote();
    run_from_origin(&repo, "p");
    let doc = land(&repo, &["p", "--push"], 0);
    assert_eq!(doc.find_id("landed", "p")["pushed"], true, "{doc}");
    assert_eq!(
        git_line(&repo, &remote, &["log", "-1", "--format=%s", "main"]),
        "p.txt"
    );
    assert_eq!(
        rev(&repo, "main"),
        git_line(&repo, &remote, &["rev-parse", "main"])
    );
}

/// Without a local branch whose upstream is the base, the run lands
/// nowhere (`no-target`), the message naming what is missing and the
/// command that supplies it; nothing moves.
#[test]
fn a_remote_tracking_base_without_a_tracking_local_branch_says_what_is_missing() {
    let (repo, _remote) = with_remote();
    run_from_origin(&repo, "n");
    let main = rev(&repo, "main");
    repo.git(["branch", "--unset-upstream", "main"]);
    let doc = land(&repo, &["n"], 1);
    let skipped = doc.find_id("skipped", "n");
    assert_eq!(skipped["code"], "no-target", "{doc}");
    assert!(
        skipped
            .text("message")
            .contains("lands in the local branch main only when main's upstream is origin/main")
            && skipped
                .text("message")
                .contains("git branch --set-upstream-to=origin/main main"),
        "{skipped}"
    );
    repo.git(["branch", "-q", "-m", "main", "trunk"]);
    let doc = land(&repo, &["n"], 1);
    let skipped = doc.find_id("skipped", "n");
    assert!(
        skipped
            .text("message")
            .contains("lands in the local branch main, and there is none"),
        "{skipped}"
    );
    assert_eq!(rev(&repo, "trunk"), main, "nothing moved");
    // --into still names any local branch.
    let doc = land(&repo, &["n", "--into", "trunk"], 0);
    assert_eq!(doc.find_id("landed", "n")["into"], "trunk", "{doc}");
}

/// `--push` says that it pushed, where, and git's `<old>..<new>` of the
/// remote's branch, in the text and in `pushedTo`.
#[test]
fn a_push_says_where_it_pushed_and_from_what_to_what() {
    let (repo, remote) = with_remote();
    run_from_origin(&repo, "s");
    let short = |spec: &str| git_line(&repo, &remote, &["rev-parse", "--short", spec]);
    let old = short("main");
    let run = repo.run(["land", "s", "--push"]);
    run.ok();
    let new = short("main");
    assert!(
        run.stdout
            .contains(&format!("; pushed to origin main {old}..{new};")),
        "{}",
        run.stdout
    );
    // The same in JSON, for the next run (the remote moved by nobody else).
    run_from_origin(&repo, "t");
    let old = short("main");
    let doc = land(&repo, &["t", "--push"], 0);
    let new = short("main");
    assert_eq!(
        doc.find_id("landed", "t")["pushedTo"],
        serde_json::json!({"remote": "origin", "branch": "main", "update": format!("{old}..{new}"), "rebuilds": 0}),
        "{doc}"
    );
}

/// When the remote moved, the landing is rebuilt on its tip and pushed,
/// and the report says so: rebuilt on origin's moved main, how many times.
#[test]
fn a_push_says_when_it_rebuilt_on_a_moved_remote() {
    let (repo, remote) = with_remote();
    repo.create("m");
    commit(&repo, &repo.wt("m"), "m.txt", "m\n");
    remote_gains(&repo, &remote, "theirs.txt");
    let theirs = git_line(&repo, &remote, &["rev-parse", "--short", "main"]);
    let run = repo.run(["--json", "land", "m", "--push"]);
    run.ok();
    let doc = run.json();
    let pushed = &doc.find_id("landed", "m")["pushedTo"];
    assert_eq!(pushed["rebuilds"], 1, "{doc}");
    let mine = git_line(&repo, &remote, &["rev-parse", "--short", "main"]);
    assert_eq!(pushed["update"], format!("{theirs}..{mine}"), "{doc}");
    assert_eq!(
        git_line(&repo, &remote, &["log", "-1", "--format=%s", "main~1"]),
        "theirs.txt",
        "built on what the remote gained"
    );
    repo.create("n");
    commit(&repo, &repo.wt("n"), "n.txt", "n\n");
    remote_gains(&repo, &remote, "theirs2.txt");
    let run = repo.run(["land", "n", "--push"]);
    run.ok();
    assert!(
        run.stdout
            .contains("; rebuilt on origin's moved main (1 time) and pushed to origin main "),
        "{}",
        run.stdout
    );
}

/// A rebuild on a remote that moved which conflicts leaves the landing
/// landed locally and not pushed; its reason names the conflict, and no
/// rebase of the run (it has landed: `git pull` is what follows).
#[test]
fn a_rebuild_that_conflicts_is_not_pushed_and_names_no_rebase_of_the_run() {
    let (repo, remote) = with_remote();
    repo.create("c");
    commit(&repo, &repo.wt("c"), "README", "mine\n");
    remote_gains(&repo, &remote, "README");
    let doc = land(&repo, &["c", "--push"], 1);
    assert_eq!(doc["error"]["code"], "not-pushed", "{doc}");
    let landed = doc.find_id("landed", "c");
    assert_eq!(landed["pushed"], false, "{doc}");
    let notes = landed.arr("notes");
    let reason = notes
        .iter()
        .filter_map(|n| n.as_str())
        .find(|n| n.starts_with("not-pushed: "))
        .unwrap_or_else(|| panic!("{doc}"));
    assert!(reason.contains("conflicts in README"), "{reason}");
    assert!(!reason.contains("git rebase"), "{reason}");
}
