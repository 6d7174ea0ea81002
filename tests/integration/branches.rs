//! `git loop branches`: `loop/*` branches no manifest entry names, and
//! `--delete-merged`, which deletes only merged ones, never one checked out,
//! and only at the exact tip it checked.

use std::io::{BufRead, Read};
use std::process::Stdio;

use serde_json::Value;

use crate::common::{JsonExt, TestRepo, commit, git_ok};

const NOW: &str = "2026-01-03T00:00:00Z";

fn branches(repo: &TestRepo, args: &[&str]) -> Value {
    let run = TestRepo::output(
        repo.command()
            .env("GIT_LOOP_TEST_NOW", NOW)
            .args(["--json", "branches"])
            .args(args),
    );
    run.ok();
    assert!(!repo.mutex_path().exists(), "a mutex was left behind");
    run.json()
}

fn find<'a>(doc: &'a Value, branch: &str) -> &'a Value {
    doc.arr("branches")
        .iter()
        .find(|b| b["branch"] == branch)
        .unwrap_or_else(|| panic!("no {branch} in {doc}"))
}

fn names(doc: &Value) -> Vec<&str> {
    doc.arr("branches")
        .iter()
        .map(|b| b.text("branch"))
        .collect()
}

/// A commit on top of HEAD that no branch holds: the work of an unmerged run.
fn new_commit(repo: &TestRepo, message: &str) -> String {
    repo.git(["commit-tree", "HEAD^{tree}", "-p", "HEAD", "-m", message])
        .trim()
        .to_owned()
}

fn branch_delete_events(repo: &TestRepo) -> Vec<String> {
    std::fs::read_to_string(repo.loop_dir().join("events.jsonl"))
        .unwrap_or_default()
        .lines()
        .filter(|l| l.contains("\"event\":\"branch-delete\""))
        .map(str::to_owned)
        .collect()
}

/// A run's branch left by cleanup and a hand-made `loop/*` branch are
/// listed, with tip, commit time, age and ahead/behind against the base; the
/// branch of a recorded run is not.
#[test]
fn leftover_branches_are_listed_and_recorded_ones_are_not() {
    let repo = TestRepo::new();
    repo.create("kept-run");
    repo.create("done");
    repo.run(["mark", "done", "rejected"]).ok();
    repo.run(["cleanup"]).ok();
    assert!(repo.branch_exists("loop/done"));
    let work = new_commit(&repo, "work");
    repo.git(["branch", "loop/by-hand", &work]);
    repo.git(["branch", "other", &work]);

    let doc = branches(&repo, &[]);
    assert_eq!(doc["dryRun"], false);
    assert_eq!(doc["base"], "main");
    assert_eq!(names(&doc), ["loop/by-hand", "loop/done"]);
    let head = repo.git(["rev-parse", "main"]).trim().to_owned();
    let done = find(&doc, "loop/done");
    assert_eq!(done["tip"], head.as_str());
    assert_eq!(done["committedAt"], "2026-01-01T00:00:00Z");
    assert_eq!(done["ageSeconds"], 2 * 86_400);
    assert_eq!((&done["ahead"], &done["behind"]), (&0.into(), &0.into()));
    // No commits of its own: empty, not merged (yet deletable).
    assert_eq!(
        (&done["merged"], &done["empty"]),
        (&false.into(), &true.into())
    );
    assert_eq!(done["checkedOut"], false);
    assert_eq!(done["deleted"], false);
    assert_eq!(done["kept"], Value::Null);
    let by_hand = find(&doc, "loop/by-hand");
    assert_eq!(by_hand["tip"], work.as_str());
    assert_eq!(
        (&by_hand["ahead"], &by_hand["behind"]),
        (&1.into(), &0.into())
    );
    assert_eq!(by_hand["merged"], false);

    let run = repo.run(["branches"]);
    run.ok();
    let short = &head[..7];
    assert!(run.stdout.starts_with("BRANCH"), "{}", run.stdout);
    assert!(
        run.stdout
            .lines()
            .any(|l| l.starts_with("loop/done") && l.contains(short) && l.contains("empty")),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("kept-run"), "{}", run.stdout);
}

/// With no leftover branch, stdout is empty and stderr says so.
#[test]
fn no_leftover_branches_says_so() {
    let repo = TestRepo::new();
    repo.create("a");
    let run = repo.run(["branches"]);
    run.ok();
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr.contains("no leftover loop/* branches"),
        "{}",
        run.stderr
    );
    assert_eq!(branches(&repo, &[]).arr("branches").len(), 0);
}

/// An unmerged leftover branch is the only copy of its work: never deleted.
#[test]
fn an_unmerged_leftover_branch_is_never_deleted() {
    let repo = TestRepo::new();
    let work = new_commit(&repo, "work");
    repo.git(["branch", "loop/unmerged", &work]);
    let doc = branches(&repo, &["--delete-merged"]);
    let b = find(&doc, "loop/unmerged");
    assert_eq!(b["deleted"], false);
    assert_eq!(b["kept"], "not-merged");
    assert_eq!(repo.git(["rev-parse", "loop/unmerged"]).trim(), work);
    assert!(branch_delete_events(&repo).is_empty());
}

/// `--dry-run` says what would be deleted and deletes nothing;
/// `--delete-merged` then deletes exactly the merged one, and logs it with
/// its tip.
#[test]
fn a_merged_leftover_branch_is_deleted_and_not_by_a_dry_run() {
    let repo = TestRepo::new();
    let head = repo.git(["rev-parse", "main"]).trim().to_owned();
    let work = new_commit(&repo, "work");
    repo.git(["branch", "loop/merged", "main"]);
    repo.git(["branch", "loop/unmerged", &work]);

    let dry = branches(&repo, &["--delete-merged", "--dry-run"]);
    assert_eq!(dry["dryRun"], true);
    assert_eq!(find(&dry, "loop/merged")["deleted"], true);
    assert_eq!(find(&dry, "loop/unmerged")["kept"], "not-merged");
    let human = repo.run(["branches", "--dry-run"]);
    human.ok();
    assert!(human.stdout.contains("would delete"), "{}", human.stdout);
    assert!(human.stderr.contains("would delete 1"), "{}", human.stderr);
    assert!(repo.branch_exists("loop/merged"));
    assert!(!repo.loop_dir().exists(), "a dry run creates nothing");

    let doc = branches(&repo, &["--delete-merged"]);
    assert_eq!(doc["dryRun"], false);
    assert_eq!(find(&doc, "loop/merged")["deleted"], true);
    assert_eq!(find(&doc, "loop/unmerged")["deleted"], false);
    assert!(!repo.branch_exists("loop/merged"));
    assert!(repo.branch_exists("loop/unmerged"));
    let events = branch_delete_events(&repo);
    assert_eq!(events.len(), 1, "{events:?}");
    assert!(events[0].contains("\"id\":\"merged\""), "{}", events[0]);
    assert!(
        events[0].contains(&head),
        "the tip is logged: {}",
        events[0]
    );
    // Once deleted it is no longer listed.
    assert_eq!(names(&branches(&repo, &[])), ["loop/unmerged"]);
}

/// A merged branch checked out in a worktree (linked or the main one) is
/// never deleted.
#[test]
fn a_branch_checked_out_in_a_worktree_is_never_deleted() {
    let repo = TestRepo::new();
    repo.git(["branch", "loop/in-linked", "main"]);
    repo.git(["branch", "loop/in-main", "main"]);
    let elsewhere = repo.base().join("elsewhere");
    repo.git([
        "worktree",
        "add",
        "-q",
        elsewhere.to_str().unwrap(),
        "loop/in-linked",
    ]);
    repo.git(["checkout", "-q", "loop/in-main"]);

    let doc = branches(&repo, &["--delete-merged"]);
    for branch in ["loop/in-linked", "loop/in-main"] {
        let b = find(&doc, branch);
        assert_eq!(b["empty"], true, "{b}");
        assert_eq!(b["checkedOut"], true, "{b}");
        assert_eq!(b["deleted"], false, "{b}");
        assert_eq!(b["kept"], "checked-out", "{b}");
        assert!(repo.branch_exists(branch));
    }
    assert!(branch_delete_events(&repo).is_empty());
}

/// A branch moved between the check and the deletion is kept: the deletion
/// is a compare-and-swap on the tip that was checked. The process is paused
/// at `before-branch-delete` while `git branch -f` moves the branch onto
/// unmerged work.
#[test]
fn a_branch_moved_after_the_check_is_kept() {
    let repo = TestRepo::new();
    repo.git(["branch", "loop/racy", "main"]);
    let work = new_commit(&repo, "work arriving late");
    let go = repo.base().join("go");
    let mut child = repo
        .command()
        .env(
            "GIT_LOOP_TEST_CRASH",
            format!("before-branch-delete:until:{}", go.display()),
        )
        .args(["--json", "branches", "--delete-merged"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    while !line.contains("paused at before-branch-delete") {
        line.clear();
        if stderr.read_line(&mut line).unwrap() == 0 {
            let _ = child.kill();
            panic!("exited before reaching before-branch-delete");
        }
    }
    repo.git(["branch", "-f", "loop/racy", &work]);
    std::fs::write(&go, "").unwrap();
    let mut stdout = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut stdout)
        .unwrap();
    let mut rest = String::new();
    stderr.read_to_string(&mut rest).unwrap();
    assert!(child.wait().unwrap().success(), "{rest}");
    assert!(!repo.mutex_path().exists());

    let doc: Value = serde_json::from_str(&stdout).unwrap();
    let b = find(&doc, "loop/racy");
    assert_eq!(b["deleted"], false);
    assert_eq!(b["kept"], "moved");
    assert!(rest.contains("loop/racy moved"), "{rest}");
    assert_eq!(repo.git(["rev-parse", "loop/racy"]).trim(), work);
    assert!(branch_delete_events(&repo).is_empty());
}

/// When the configured base does not resolve, merged is unknown and nothing
/// is deleted.
#[test]
fn an_unresolvable_base_deletes_nothing() {
    let repo = TestRepo::new();
    repo.git(["branch", "loop/x", "main"]);
    repo.git(["config", "loop.base", "no-such-base"]);
    let doc = branches(&repo, &["--delete-merged"]);
    let b = find(&doc, "loop/x");
    assert_eq!(b["merged"], Value::Null);
    assert_eq!(b["ahead"], Value::Null);
    assert_eq!(b["kept"], "not-merged");
    assert!(repo.branch_exists("loop/x"));
}

/// `loop.base` naming a leftover `loop/*` branch: that branch is its own
/// base (its tip "is in" the base), and the branches merged into it are
/// merged only as long as it stays. It must never be deleted as merged.
#[test]
fn branches_never_deletes_the_branch_its_base_names() {
    let repo = TestRepo::new();
    repo.git(["branch", "loop/foo"]);
    let foo = repo.root.join("foo-wt");
    git_ok(
        &repo,
        &repo.root,
        &["worktree", "add", "-q", foo.to_str().unwrap(), "loop/foo"],
    );
    commit(&repo, &foo, "foo-work", "precious\n");
    git_ok(
        &repo,
        &repo.root,
        &["worktree", "remove", foo.to_str().unwrap()],
    );
    repo.git(["branch", "loop/x", "loop/foo"]);
    repo.git(["config", "loop.base", "loop/foo~0"]);
    let doc = repo.run(["--json", "branches", "--delete-merged"]).json();
    assert!(repo.branch_exists("loop/foo"), "{doc}");
}

/// In a `master` repository leftover branches are judged against `master`
/// (the base create used), not the missing `main`: merged is known, no
/// "does not resolve" warning, and a merged branch is deletable.
#[test]
fn a_master_repository_judges_leftovers_against_master() {
    let repo = TestRepo::new();
    repo.git(["branch", "-m", "main", "master"]);
    repo.git(["branch", "loop/old"]);
    let run = repo.run(["--json", "branches", "--delete-merged", "--dry-run"]);
    run.ok();
    assert!(!run.stderr.contains("does not resolve"), "{}", run.stderr);
    let doc = run.json();
    assert_eq!(doc["base"], "master", "{doc}");
    let old = find(&doc, "loop/old");
    assert_eq!(old["ahead"], 0, "{doc}");
    assert_eq!(old["deleted"], true, "would be deleted: {doc}");
    assert_eq!(old["kept"], Value::Null, "{doc}");
}

/// With no default branch at all (the only branch `trunk`, checked out), the
/// base is only a guess — the branch HEAD is on. Listing may use it; a
/// deletion may not: `--delete-merged` refuses, names it, deletes nothing.
#[test]
fn a_base_guessed_from_head_never_deletes_a_branch() {
    let repo = TestRepo::new();
    repo.git(["branch", "-m", "main", "trunk"]);
    repo.git(["branch", "loop/old"]);
    let listed = repo.run(["--json", "branches"]);
    listed.ok();
    assert_eq!(listed.json()["base"], "trunk", "{}", listed.json());
    let run = repo.run(["--json", "branches", "--delete-merged"]);
    run.code(1);
    assert_eq!(
        run.json()["error"]["code"],
        "base-not-found",
        "{}",
        run.json()
    );
    assert!(
        run.json()["error"]["message"]
            .as_str()
            .unwrap()
            .contains("the branch HEAD is on"),
        "{}",
        run.json()
    );
    assert!(
        !repo.git(["branch", "--list", "loop/old"]).trim().is_empty(),
        "loop/old was deleted"
    );
    assert!(
        repo.git(["for-each-ref", "refs/loop/trash/"])
            .trim()
            .is_empty(),
        "nothing went to the trash either"
    );
}

/// Branches at one tip are one line with one verdict: `loop/b`, made at
/// `loop/a`'s tip (no commits of its own, but holding `a`'s), read "empty"
/// beside `a`'s "no" and later "squash". Now the tip is one row naming
/// both, unmerged: `no`, both kept; once `a`'s work is squash-merged into
/// the base, the same proof for the tip deletes both (each kept in the
/// trash first, at its tip).
#[test]
fn branches_at_one_tip_are_one_line_with_one_verdict_and_one_fate() {
    let repo = TestRepo::new();
    repo.create("a");
    commit(&repo, &repo.wt("a"), "a.txt", "a's work");
    repo.run(["create", "b", "--pattern", "p", "--base", "loop/a"])
        .ok();
    repo.create("c");
    repo.run(["mark", "a", "b", "c", "rejected"]).ok();
    repo.run(["cleanup"]).ok();
    let tip = repo.git(["rev-parse", "loop/a"]).trim().to_owned();
    assert_eq!(repo.git(["rev-parse", "loop/b"]).trim(), tip);

    let table = |args: &[&str]| -> Vec<Vec<String>> {
        let run = repo.run([&["branches"][..], args].concat());
        run.ok();
        run.stdout
            .lines()
            .skip(1)
            .map(|l| l.split_whitespace().map(str::to_owned).collect())
            .collect()
    };
    let rows = table(&["--dry-run"]);
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert_eq!(rows[0][..2], ["loop/a,", "loop/b"], "{rows:?}");
    let last = |row: &Vec<String>, n: usize| row[row.len() - n..].to_vec();
    assert_eq!(
        last(&rows[0], 3),
        ["no", "kept", "(not-merged)"],
        "{rows:?}"
    );
    assert_eq!(rows[1][0], "loop/c");
    assert_eq!(last(&rows[1], 3), ["empty", "would", "delete"], "{rows:?}");

    // a's work squash-merged into main.
    git_ok(&repo, &repo.root, &["merge", "-q", "--squash", "loop/a"]);
    git_ok(&repo, &repo.root, &["commit", "-q", "-m", "squash a"]);
    let rows = table(&[]);
    assert_eq!(rows[0][..2], ["loop/a,", "loop/b"], "{rows:?}");
    let verdict = &last(&rows[0], 2)[0];
    assert!(verdict == "squash" || verdict == "rebase", "{rows:?}");
    let doc = branches(&repo, &["--delete-merged"]);
    for branch in ["loop/a", "loop/b", "loop/c"] {
        assert_eq!(find(&doc, branch)["deleted"], true, "{doc}");
        assert!(!repo.branch_exists(branch));
    }
    let kept = repo.git([
        "for-each-ref",
        "--format=%(objectname) %(refname)",
        "refs/loop/trash/",
    ]);
    for branch in ["loop/a", "loop/b"] {
        assert!(
            kept.lines()
                .any(|l| l.starts_with(&tip) && l.ends_with(&format!("heads/{branch}"))),
            "{kept}"
        );
    }
}
