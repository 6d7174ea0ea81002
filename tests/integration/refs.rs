//! The ref layer: git's variety of refs. A branch checked out through a
//! symbolic ref is checked out (never deleted; a landing into it updates
//! that checkout); every ref git-loop writes or deletes runs the
//! `reference-transaction` hook, which may refuse it as it refuses `git
//! branch -d`; the landing's move is in HEAD's reflog as `git update-ref`
//! writes it; a name git refuses as a branch is refused.

use std::path::Path;

use serde_json::Value;

use crate::common::{JsonExt, TestRepo, git_line, make_executable};
use crate::land::{commit_as, setup};

fn json(repo: &TestRepo, args: &[&str], code: i32) -> Value {
    let mut all = vec!["--json"];
    all.extend_from_slice(args);
    let run = repo.run(&all);
    run.code(code);
    run.json()
}

/// A run `id` whose branch has no commits of its own (its base holds its
/// tip: deletable), marked `rejected` so that cleanup removes it.
fn done_run(repo: &TestRepo, id: &str) {
    repo.create(id).ok();
    repo.run(["mark", id, "rejected"]).ok();
}

/// `git symbolic-ref <name> <target>` in the main checkout.
fn symref(repo: &TestRepo, name: &str, target: &str) {
    git_line(repo, &repo.root, &["symbolic-ref", name, target]);
}

/// A `reference-transaction` hook that appends `<state> <old> <new> <ref>`
/// for every line git gives it to `log`, and refuses (in the `prepared`
/// state) any deletion of a ref matching the shell pattern `refuse`.
fn install_hook(repo: &TestRepo, log: &Path, refuse: &str) {
    let hook = repo.root.join(".git/hooks/reference-transaction");
    std::fs::write(
        &hook,
        format!(
            "#!/bin/sh\nstatus=0\nwhile read old new ref; do\n  \
             echo \"$1 $old $new $ref\" >>'{}'\n  \
             case \"$ref\" in {refuse}) [ \"$1\" = prepared ] && [ \"$new\" = \
             0000000000000000000000000000000000000000 ] && status=1;; esac\ndone\nexit $status\n",
            log.display()
        ),
    )
    .unwrap();
    make_executable(&hook);
}

/// The hook's log lines of the committed state naming `refname` (a prefix).
fn committed(log: &Path, refname: &str) -> Vec<String> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .filter(|l| l.starts_with("committed ") && l.contains(&format!(" {refname}")))
        .map(str::to_owned)
        .collect()
}

/// `HEAD → review → loop/x`: `loop/x` is checked out in the main checkout,
/// and neither `cleanup --delete-merged-branches` nor `branches
/// --delete-merged` deletes it (git's `branch -d` refuses too).
#[test]
fn a_branch_checked_out_through_a_symbolic_ref_is_never_deleted() {
    let repo = TestRepo::new();
    done_run(&repo, "x");
    symref(&repo, "refs/heads/review", "refs/heads/loop/x");
    symref(&repo, "HEAD", "refs/heads/review");
    let doc = json(&repo, &["cleanup", "--delete-merged-branches"], 0);
    let removed = doc.find_id("removed", "x");
    assert_eq!(removed["branchDeleted"], false, "{removed}");
    assert_eq!(removed["branchKept"]["code"], "checked-out", "{removed}");
    assert!(repo.branch_exists("loop/x"));
    // A leftover branch reached through the same alias, and one a bisect
    // started on the alias holds in a linked worktree.
    let doc = json(&repo, &["branches", "--delete-merged"], 0);
    let x = doc.arr("branches").iter().find(|b| b["branch"] == "loop/x");
    assert_eq!(x.unwrap()["kept"], "checked-out", "{doc}");
    assert!(repo.branch_exists("loop/x"));
    symref(&repo, "HEAD", "refs/heads/main");
    repo.git(["branch", "loop/y", "main"]);
    symref(&repo, "refs/heads/bisected", "refs/heads/loop/y");
    let other = repo.base().join("side");
    let path = other.to_str().unwrap();
    git_line(
        &repo,
        &repo.root,
        &["worktree", "add", "-q", "--detach", path],
    );
    let admin = git_line(&repo, &other, &["rev-parse", "--git-dir"]);
    std::fs::write(Path::new(&admin).join("BISECT_START"), "bisected\n").unwrap();
    let doc = json(&repo, &["branches", "--delete-merged"], 0);
    let y = doc.arr("branches").iter().find(|b| b["branch"] == "loop/y");
    assert_eq!(y.unwrap()["kept"], "checked-out", "{doc}");
    assert!(repo.branch_exists("loop/y"));
}

/// A `reference-transaction` hook that refuses deleting `loop/*` branches
/// keeps the branch, as it keeps it from `git branch -d`: cleanup reports
/// it kept (`refused`), exits 0, and whatever went to the trash is still
/// at the branch's tip.
#[test]
fn a_reference_transaction_hook_that_refuses_a_deletion_keeps_the_branch() {
    let repo = TestRepo::new();
    done_run(&repo, "y");
    let tip = git_line(&repo, &repo.root, &["rev-parse", "loop/y"]);
    let log = repo.home.join("hook.log");
    install_hook(&repo, &log, "refs/heads/loop/*");
    let doc = json(&repo, &["cleanup", "--delete-merged-branches"], 0);
    let removed = doc.find_id("removed", "y");
    assert_eq!(removed["branchDeleted"], false, "{removed}");
    assert_eq!(removed["branchKept"]["code"], "refused", "{removed}");
    assert!(
        removed["branchKept"]["reason"]
            .as_str()
            .unwrap()
            .contains("loop/y"),
        "{removed}"
    );
    assert_eq!(git_line(&repo, &repo.root, &["rev-parse", "loop/y"]), tip);
    let trash = json(&repo, &["trash"], 0);
    assert!(
        trash.arr("trash").iter().all(|e| e["tip"] == tip.as_str()),
        "{trash}"
    );
    let log_text = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(
        log_text.contains("prepared ") && log_text.contains(" refs/heads/loop/y"),
        "the hook never saw the deletion: {log_text}"
    );
}

/// Every ref git-loop writes or deletes runs the hook: the trash entry and
/// the branch deletion (cleanup), the branch made again (`trash restore`),
/// the entry dropped (`trash empty`).
#[test]
fn every_ref_git_loop_writes_runs_the_reference_transaction_hook() {
    let repo = TestRepo::new();
    done_run(&repo, "z");
    let log = repo.home.join("hook.log");
    install_hook(&repo, &log, "refs/nothing/*");
    json(&repo, &["cleanup", "--delete-merged-branches"], 0);
    assert!(!repo.branch_exists("loop/z"));
    assert_eq!(committed(&log, "refs/loop/trash/").len(), 1, "trash keep");
    assert_eq!(committed(&log, "refs/heads/loop/z").len(), 1, "delete");
    repo.run(["trash", "restore", "loop/z"]).ok();
    assert_eq!(committed(&log, "refs/heads/loop/z").len(), 2, "restore");
    assert_eq!(committed(&log, "refs/loop/trash/").len(), 2, "entry drop");
    done_run(&repo, "w");
    json(&repo, &["cleanup", "--delete-merged-branches"], 0);
    repo.run(["trash", "empty"]).ok();
    assert_eq!(committed(&log, "refs/loop/trash/").len(), 4, "empty");
}

/// A landing moved in process writes HEAD's reflog too, as `git update-ref
/// refs/heads/main <new> <old>` does when HEAD is on main: the newest entry
/// of HEAD's reflog is the landed tip, with the branch's message.
#[test]
fn a_landing_into_the_branch_head_is_on_is_in_heads_reflog() {
    let repo = setup();
    repo.create("a").ok();
    commit_as(
        &repo,
        &repo.wt("a"),
        "a-file",
        "a\n",
        "Ada <ada@example.com>",
        "2026-02-01T10:00:00Z",
        "a",
    );
    json(&repo, &["land", "a"], 0);
    let newest = |r: &str| git_line(&repo, &repo.root, &["reflog", "-1", "--format=%H %gs", r]);
    let main = git_line(&repo, &repo.root, &["rev-parse", "main"]);
    assert!(newest("main").starts_with(&main), "{}", newest("main"));
    assert_eq!(newest("HEAD"), newest("main"));
}

/// `master` kept as a symbolic ref to `main`, the main checkout on
/// `master`: a landing into main (by the run's base, or `--into master`)
/// updates that checkout as `git merge --ff-only` would; nothing is left
/// reversed in `git status`.
#[test]
fn a_landing_updates_the_checkout_on_a_symbolic_ref_to_its_target() {
    let repo = setup();
    symref(&repo, "refs/heads/master", "refs/heads/main");
    symref(&repo, "HEAD", "refs/heads/master");
    for (id, args) in [
        ("a", vec!["land", "a"]),
        ("b", vec!["land", "b", "--into", "master"]),
    ] {
        repo.create(id).ok();
        let file = format!("{id}-file");
        commit_as(
            &repo,
            &repo.wt(id),
            &file,
            "landed\n",
            "Ada <ada@example.com>",
            "2026-02-01T10:00:00Z",
            id,
        );
        let doc = json(&repo, &args, 0);
        assert_eq!(doc["into"], "main", "{doc}");
        assert_eq!(repo.git(["status", "--porcelain"]), "", "after {args:?}");
        assert_eq!(
            std::fs::read_to_string(repo.root.join(&file)).unwrap(),
            "landed\n"
        );
        let head = std::fs::read_to_string(repo.root.join(".git/HEAD")).unwrap();
        assert_eq!(head, "ref: refs/heads/master\n");
    }
}

/// `trash restore --as HEAD` is refused as `git check-ref-format --branch`
/// refuses it (`refs/heads/HEAD` would make `HEAD` ambiguous): nothing
/// changed, the entry still in the trash.
#[test]
fn trash_restore_refuses_a_name_git_refuses_as_a_branch() {
    let repo = TestRepo::new();
    done_run(&repo, "v");
    json(&repo, &["cleanup", "--delete-merged-branches"], 0);
    assert!(!repo.branch_exists("loop/v"));
    for bad in ["HEAD", "-v", "a..b", "x.lock"] {
        let name = format!("--as={bad}");
        let doc = json(&repo, &["trash", "restore", "loop/v", &name], 1);
        assert_eq!(doc["error"]["code"], "invalid-branch", "{bad}: {doc}");
        assert!(
            doc["error"]["message"].as_str().unwrap().contains(bad),
            "{doc}"
        );
    }
    assert!(!repo.root.join(".git/refs/heads/HEAD").exists());
    let refs = repo.git(["for-each-ref", "--format=%(refname)", "refs/heads/"]);
    assert_eq!(refs.trim(), "refs/heads/main", "{refs}");
    assert_eq!(json(&repo, &["trash"], 0).arr("trash").len(), 1);
}
