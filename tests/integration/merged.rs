//! Merged, honestly: a run's work is in its base when its tip is an ancestor
//! of the base, when it was rebase-merged (each commit has a patch-id twin
//! in the base) or squash-merged (merging it changes nothing); a run with no
//! commits of its own is `empty`, never merged. `list --long`,
//! `mark --detect-merged`, `cleanup --delete-merged-branches` and
//! `branches --delete-merged` all use that answer.

use std::fs;

use serde_json::{Value, json};

use crate::common::{JsonExt, TestRepo, commit, git_ok};

/// A run with two commits of its own (files `<id>-1`, `<id>-2`).
fn run_with_work(repo: &TestRepo, id: &str) {
    repo.create(id);
    commit(repo, &repo.wt(id), &format!("{id}-1"), "one\n");
    commit(repo, &repo.wt(id), &format!("{id}-2"), "two\n");
}

/// `git merge --squash` of `loop/<id>` into main, committed.
fn squash_merge(repo: &TestRepo, id: &str) {
    repo.git(["merge", "-q", "--squash", &format!("loop/{id}")]);
    repo.git(["commit", "-q", "-m", &format!("squash {id}")]);
}

/// Rebase a copy of `loop/<id>` onto main, then fast-forward main to it
/// (a forge's "rebase and merge"): the run's branch keeps its own commits.
fn rebase_merge(repo: &TestRepo, id: &str) {
    repo.git(["checkout", "-q", "-b", "rebasing", &format!("loop/{id}")]);
    repo.git(["rebase", "-q", "main"]);
    repo.git(["checkout", "-q", "main"]);
    repo.git(["merge", "-q", "--ff-only", "rebasing"]);
    repo.git(["branch", "-q", "-D", "rebasing"]);
}

fn long(repo: &TestRepo) -> Value {
    let run = repo.run(["--json", "list", "--long"]);
    run.ok();
    run.json()
}

fn merged_fields(doc: &Value, id: &str) -> (Value, Value, Value) {
    let r = doc.find_id("worktrees", id);
    (
        r["merged"].clone(),
        r["mergedBy"].clone(),
        r["empty"].clone(),
    )
}

/// The five cases of the issue side by side, plus the squash-merged branch
/// that got one more commit, and main moving on in between.
fn five_runs() -> TestRepo {
    let repo = TestRepo::new();
    for id in ["ff", "squashed", "rebased", "unmerged", "more"] {
        run_with_work(&repo, id);
    }
    repo.create("empty");
    commit(&repo, &repo.root, "main-1", "m\n"); // main moves on
    repo.git(["merge", "-q", "--no-ff", "-m", "merge ff", "loop/ff"]);
    squash_merge(&repo, "squashed");
    squash_merge(&repo, "more");
    commit(&repo, &repo.wt("more"), "more-3", "three\n");
    rebase_merge(&repo, "rebased");
    commit(&repo, &repo.root, "main-2", "m\n");
    repo
}

#[test]
fn list_long_tells_ancestor_squash_rebase_unmerged_and_empty_apart() {
    let repo = five_runs();
    let heads_before = repo.git(["for-each-ref"]);
    let objects_before = repo.git(["count-objects", "-v"]);
    let status_before = git_ok(&repo, &repo.wt("unmerged"), &["status", "--porcelain"]);
    let doc = long(&repo);
    assert_eq!(
        merged_fields(&doc, "ff"),
        (json!(true), json!("ancestor"), json!(false))
    );
    assert_eq!(
        merged_fields(&doc, "squashed"),
        (json!(true), json!("squash"), json!(false))
    );
    assert_eq!(
        merged_fields(&doc, "rebased"),
        (json!(true), json!("rebase"), json!(false))
    );
    assert_eq!(
        merged_fields(&doc, "unmerged"),
        (json!(false), json!(null), json!(false))
    );
    assert_eq!(
        merged_fields(&doc, "more"),
        (json!(false), json!(null), json!(false)),
        "one more commit after the squash: not merged"
    );
    assert_eq!(
        merged_fields(&doc, "empty"),
        (json!(false), json!(null), json!(true))
    );
    // Computed in memory: no ref, object or worktree changed.
    assert_eq!(repo.git(["for-each-ref"]), heads_before);
    assert_eq!(repo.git(["count-objects", "-v"]), objects_before);
    assert_eq!(
        git_ok(&repo, &repo.wt("unmerged"), &["status", "--porcelain"]),
        status_before
    );
    // Git agrees: the squashed one merges to main's own tree.
    let merged_tree = repo.git(["merge-tree", "--write-tree", "main", "loop/squashed"]);
    assert_eq!(
        merged_tree.trim(),
        repo.git(["rev-parse", "main^{tree}"]).trim()
    );

    let table = repo.run(["list", "--long"]);
    table.ok();
    let merged_col = |id: &str| {
        let line = table
            .stdout
            .lines()
            .find(|l| l.starts_with(&format!("{id} ")))
            .unwrap();
        line.split_whitespace().last().unwrap().to_owned()
    };
    assert_eq!(merged_col("squashed"), "squash");
    assert_eq!(merged_col("rebased"), "rebase");
    assert_eq!(merged_col("ff"), "ancestor");
    assert_eq!(merged_col("unmerged"), "no");
    assert_eq!(merged_col("empty"), "empty");
}

fn mark_events(repo: &TestRepo) -> Vec<Value> {
    fs::read_to_string(repo.loop_dir().join("events.jsonl"))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|e| e["event"] == "mark")
        .collect()
}

#[test]
fn mark_detect_merged_marks_exactly_the_merged_runs_and_dry_run_changes_nothing() {
    let repo = five_runs();
    repo.run(["mark", "unmerged", "rejected"]).ok();
    repo.run(["mark", "squashed", "escalated"]).ok();
    let manifest_before = fs::read_to_string(repo.manifest_path()).unwrap();
    let events_before = mark_events(&repo).len();

    let dry = repo.run(["--json", "mark", "--detect-merged", "--dry-run"]);
    dry.ok();
    let dry = dry.json();
    assert_eq!(dry["dryRun"], true);
    assert_eq!(dry.ids("marked"), ["ff", "rebased", "squashed"]);
    assert_eq!(dry["empty"], json!(["empty"]));
    assert_eq!(
        fs::read_to_string(repo.manifest_path()).unwrap(),
        manifest_before
    );
    assert_eq!(mark_events(&repo).len(), events_before);

    let run = repo.run(["--json", "mark", "--detect-merged"]);
    run.ok();
    let doc = run.json();
    assert_eq!(doc["dryRun"], false);
    assert_eq!(doc.ids("marked"), ["ff", "rebased", "squashed"]);
    let squashed = doc.find_id("marked", "squashed");
    assert_eq!(squashed["from"], "escalated");
    assert_eq!(squashed["mergedBy"], "squash");
    assert_eq!(doc.find_id("marked", "rebased")["mergedBy"], "rebase");
    assert_eq!(doc.find_id("marked", "ff")["mergedBy"], "ancestor");
    for (id, status) in [
        ("ff", "merged"),
        ("squashed", "merged"),
        ("rebased", "merged"),
        ("unmerged", "rejected"),
        ("more", "active"),
        ("empty", "active"),
    ] {
        assert_eq!(repo.status_of(id).as_deref(), Some(status), "{id}");
    }
    let events = mark_events(&repo);
    let new: Vec<&Value> = events[events_before..].iter().collect();
    assert_eq!(new.len(), 3, "{new:?}");
    let sq = new.iter().find(|e| e["id"] == "squashed").unwrap();
    assert_eq!(
        (&sq["from"], &sq["to"]),
        (&json!("escalated"), &json!("merged"))
    );
    assert!(sq.text("detail").contains("squash"), "{sq}");

    // Run again: nothing left to mark.
    let again = repo.run(["--json", "mark", "--detect-merged"]).json();
    assert_eq!(again.arr("marked").len(), 0);

    // Human output and argument rules.
    let human = repo.run(["mark", "--detect-merged", "--dry-run"]);
    human.ok();
    assert!(
        human.stderr.contains("would mark 0 merged"),
        "{}",
        human.stderr
    );
    repo.run(["mark", "--detect-merged", "ff", "merged"])
        .code(2);
    repo.run(["mark", "--dry-run", "ff", "merged"]).code(2);
    repo.run(["mark", "ff"]).code(2);
    repo.run(["mark", "--dry-run"]).code(2);
}

#[test]
fn cleanup_deletes_a_squash_merged_branch_and_keeps_an_unmerged_one() {
    let repo = TestRepo::new();
    run_with_work(&repo, "squashed");
    run_with_work(&repo, "unmerged");
    squash_merge(&repo, "squashed");
    let tip = repo.git(["rev-parse", "loop/squashed"]).trim().to_owned();
    for id in ["squashed", "unmerged"] {
        repo.run(["mark", id, "rejected"]).ok();
    }
    let run = repo.run(["--json", "cleanup", "--delete-merged-branches"]);
    run.ok();
    let doc = run.json();
    let sq = doc.find_id("removed", "squashed");
    assert_eq!(sq["branchDeleted"], true, "{doc}");
    assert_eq!(sq["branchMergedBy"], "squash");
    let un = doc.find_id("removed", "unmerged");
    assert_eq!(un["branchDeleted"], false);
    assert_eq!(un["branchKept"]["code"], "not-merged");
    assert!(!repo.branch_exists("loop/squashed"));
    assert!(repo.branch_exists("loop/unmerged"));
    let log = fs::read_to_string(repo.loop_dir().join("events.jsonl")).unwrap();
    let deleted = log
        .lines()
        .find(|l| l.contains("branch-delete"))
        .expect("the deletion is logged");
    assert!(
        deleted.contains(&tip) && deleted.contains("squash"),
        "{deleted}"
    );
}

/// The branch is proven merged at one tip; a commit lands on it before the
/// deletion: the compare-and-swap refuses, the branch and its new commit stay.
#[test]
fn cleanup_keeps_a_squash_merged_branch_that_moved_after_the_check() {
    use std::io::{BufRead, BufReader};
    let repo = TestRepo::new();
    run_with_work(&repo, "squashed");
    squash_merge(&repo, "squashed");
    repo.run(["mark", "squashed", "rejected"]).ok();
    let go = repo.base().join("go");
    let mut child = repo
        .command()
        .env(
            "GIT_LOOP_TEST_CRASH",
            format!("before-branch-delete:until:{}", go.display()),
        )
        .args(["--json", "cleanup", "--delete-merged-branches"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    while !line.contains("paused at before-branch-delete") {
        line.clear();
        if stderr.read_line(&mut line).unwrap() == 0 {
            let _ = child.kill();
            panic!("exited before reaching before-branch-delete");
        }
    }
    // The worktree is gone by now: move the branch from the main worktree.
    let new_tip = repo
        .git([
            "commit-tree",
            "loop/squashed^{tree}",
            "-p",
            "loop/squashed",
            "-m",
            "late",
        ])
        .trim()
        .to_owned();
    repo.git(["update-ref", "refs/heads/loop/squashed", &new_tip]);
    fs::write(&go, "").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let sq = doc.find_id("removed", "squashed");
    assert_eq!(sq["branchDeleted"], false, "{doc}");
    assert_eq!(sq["branchKept"]["code"], "moved");
    assert_eq!(
        repo.git(["rev-parse", "loop/squashed"]).trim(),
        new_tip,
        "the moved branch is kept at its new tip"
    );
}

#[test]
fn branches_shows_merged_by_and_deletes_rebase_merged_leftovers() {
    let repo = TestRepo::new();
    for id in ["rebased", "unmerged"] {
        run_with_work(&repo, id);
    }
    commit(&repo, &repo.root, "main-1", "m\n");
    rebase_merge(&repo, "rebased");
    for id in ["rebased", "unmerged"] {
        repo.run(["mark", id, "rejected"]).ok();
    }
    repo.run(["cleanup"]).ok();
    let doc = repo.run(["--json", "branches"]).json();
    let find = |doc: &Value, b: &str| {
        doc.arr("branches")
            .iter()
            .find(|x| x["branch"] == b)
            .unwrap()
            .clone()
    };
    let rb = find(&doc, "loop/rebased");
    assert_eq!(
        (&rb["merged"], &rb["mergedBy"]),
        (&json!(true), &json!("rebase"))
    );
    let un = find(&doc, "loop/unmerged");
    assert_eq!(
        (&un["merged"], &un["mergedBy"]),
        (&json!(false), &json!(null))
    );

    let del = repo.run(["--json", "branches", "--delete-merged"]).json();
    assert_eq!(find(&del, "loop/rebased")["deleted"], true);
    assert_eq!(find(&del, "loop/unmerged")["kept"], "not-merged");
    assert!(!repo.branch_exists("loop/rebased"));
    assert!(repo.branch_exists("loop/unmerged"));
}
