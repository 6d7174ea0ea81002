//! Reading every branch and merging in memory: branches (and
//! `--delete-merged`), conflicts.

use serde_json::{Value, json};

use super::{fsck, id_of, json, repo, rev, run_with};
use crate::common::{JsonExt, Kind, TestRepo, commit};

fn branch<'a>(doc: &'a Value, name: &str) -> &'a Value {
    doc.arr("branches")
        .iter()
        .find(|b| b["branch"] == name)
        .unwrap_or_else(|| panic!("no {name} in {doc}"))
}

/// branches: the `loop/*` branches no run records — one main took, one
/// with work of its own, one checked out in a worktree elsewhere — and
/// `--delete-merged` deleting only the first, its tip in the trash.
fn branches(kind: Kind) {
    let repo = repo(kind);
    run_with(&repo, "r", "r.txt");
    run_with(&repo, "done", "done.txt");
    run_with(&repo, "open", "open.txt");
    repo.git(["merge", "-q", "--ff-only", "loop/done"]);
    json(&repo, &["mark", "done", "open", "rejected"], 0);
    json(&repo, &["remove", "done", "open"], 0);
    repo.git(["branch", "loop/co", "main"]);
    let elsewhere = repo.base().join("elsewhere");
    repo.git([
        "worktree",
        "add",
        "-q",
        elsewhere.to_str().unwrap(),
        "loop/co",
    ]);
    let (done, open) = (rev(&repo, "loop/done"), rev(&repo, "loop/open"));

    let doc = json(&repo, &["branches"], 0);
    let mut names: Vec<&str> = doc
        .arr("branches")
        .iter()
        .map(|b| b.text("branch"))
        .collect();
    names.sort();
    assert_eq!(names, ["loop/co", "loop/done", "loop/open"], "{doc}");
    let d = branch(&doc, "loop/done");
    assert_eq!(id_of(kind, &d["tip"]), done);
    assert_eq!(d["merged"], true, "{doc}");
    let o = branch(&doc, "loop/open");
    assert_eq!(id_of(kind, &o["tip"]), open);
    assert_eq!(
        (&o["merged"], &o["ahead"]),
        (&json!(false), &json!(1)),
        "{doc}"
    );
    assert_eq!(branch(&doc, "loop/co")["checkedOut"], true, "{doc}");

    let doc = json(&repo, &["branches", "--delete-merged"], 0);
    assert_eq!(branch(&doc, "loop/done")["deleted"], true, "{doc}");
    assert_eq!(branch(&doc, "loop/open")["kept"], "not-merged", "{doc}");
    assert_eq!(branch(&doc, "loop/co")["kept"], "checked-out", "{doc}");
    assert!(!repo.branch_exists("loop/done"));
    assert_eq!(rev(&repo, "refs/heads/loop/open"), open);
    assert!(repo.branch_exists("loop/co") && repo.branch_exists("loop/r"));
    let trash = json(&repo, &["trash"], 0);
    let tips: Vec<&str> = trash.arr("trash").iter().map(|e| e.text("tip")).collect();
    assert_eq!(tips, [done.as_str()], "{trash}");
    fsck(&repo);
}

/// A file of 20 numbered lines, so edits to different lines merge cleanly.
const LINES: &str = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n17\n18\n19\n20\n";

/// In run `id`'s worktree, replace line `n` of `f` with `text` and commit.
fn edit_line(repo: &TestRepo, id: &str, n: usize, text: &str) {
    let mut lines: Vec<&str> = LINES.lines().collect();
    lines[n - 1] = text;
    commit(repo, &repo.wt(id), "f", &(lines.join("\n") + "\n"));
}

/// conflicts: two runs editing the same line are a pair, a run editing a
/// line main changed since conflicts with the base, a third run with
/// neither; nothing changes by asking.
fn conflicts(kind: Kind) {
    let repo = repo(kind);
    commit(&repo, &repo.root, "f", LINES);
    for id in ["a", "b", "c", "x"] {
        repo.create(id);
    }
    edit_line(&repo, "a", 5, "five from a");
    edit_line(&repo, "b", 5, "five from b");
    edit_line(&repo, "c", 15, "fifteen from c");
    edit_line(&repo, "x", 3, "three from x");
    commit(
        &repo,
        &repo.root,
        "f",
        &LINES.replace("\n3\n", "\nthree on main\n"),
    );
    let refs = || repo.git(["for-each-ref", "--format=%(refname) %(objectname)"]);
    let before = refs();

    let doc = json(&repo, &["conflicts"], 0);
    assert_eq!(refs(), before, "conflicts changed a ref");
    assert_eq!(
        doc["pairs"],
        json!([{"runs": ["a", "b"], "base": "main", "files": ["f"]}]),
        "{doc}"
    );
    assert_eq!(doc.find_id("runs", "a")["conflictsWith"], json!(["b"]));
    assert_eq!(doc.find_id("runs", "x")["baseConflicts"], json!(["f"]));
    let c = doc.find_id("runs", "c");
    assert_eq!(
        (&c["baseConflicts"], &c["conflictsWith"]),
        (&json!([]), &json!([]))
    );
    fsck(&repo);
}

on_every_kind!(branches: branches_sha1_files, branches_sha256_files, branches_sha1_reftable,
    branches_sha256_reftable, branches_bare);
on_every_kind!(conflicts: conflicts_sha1_files, conflicts_sha256_files,
    conflicts_sha1_reftable, conflicts_sha256_reftable, conflicts_bare);
