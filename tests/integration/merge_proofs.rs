//! Branches are deleted only on the strongest proof: merging the branch's
//! whole change into its base changes nothing (with git's own text merge),
//! or its tip is an ancestor of the base. Patch ids may say "probably
//! rebase-merged" (`probablyMerged`), never delete on their own. Each test
//! is a hole of the issue "The promise, by construction": on the code before
//! it, `cleanup --delete-merged-branches` deleted the branch.

use std::fs;

use serde_json::{Value, json};

use crate::common::{JsonExt, TestRepo, commit, git_ok};

/// `(merged, mergedBy, probablyMerged)` of run `id` in `list --long`.
fn long_of(repo: &TestRepo, id: &str) -> (Value, Value, Value) {
    let run = repo.run(["--json", "list", "--long"]);
    run.ok();
    let doc = run.json();
    let r = doc.find_id("worktrees", id);
    (
        r["merged"].clone(),
        r["mergedBy"].clone(),
        r["probablyMerged"].clone(),
    )
}

/// Mark each run rejected, run `cleanup --delete-merged-branches`, and
/// assert every run's branch is kept with code `not-merged`, at its tip.
fn cleanup_keeps(repo: &TestRepo, ids: &[&str]) -> Value {
    let tips: Vec<String> = ids
        .iter()
        .map(|id| repo.git(["rev-parse", &format!("loop/{id}")]))
        .collect();
    for id in ids {
        repo.run(["mark", id, "rejected"]).ok();
    }
    let run = repo.run(["--json", "cleanup", "--delete-merged-branches"]);
    run.ok();
    let doc = run.json();
    for (id, tip) in ids.iter().zip(&tips) {
        let r = doc.find_id("removed", id);
        assert_eq!(r["branchDeleted"], false, "{id}: {doc}");
        assert_eq!(r["branchKept"]["code"], "not-merged", "{id}: {doc}");
        assert_eq!(
            &repo.git(["rev-parse", &format!("loop/{id}")]),
            tip,
            "{id}: its branch is kept at its tip"
        );
    }
    doc
}

fn leftover<'a>(doc: &'a Value, branch: &str) -> &'a Value {
    doc.arr("branches")
        .iter()
        .find(|b| b["branch"] == branch)
        .unwrap_or_else(|| panic!("no {branch} in {doc}"))
}

const GO_BEFORE: &str = "package p

func a() error {
\tif err != nil {
\t\treturn err
\t}
\treturn nil
}

func b() error {
\tif err != nil {
\t\treturn err
\t}
\treturn nil
}
";

/// Hole 1, repeated context: main makes the same one-line edit in another
/// copy of identical surrounding lines. The patch ids are equal (one line of
/// context each side is the same), but the run's edit is not in main. Before:
/// judged rebase-merged and deleted. Now: `probablyMerged: "rebase"` in the
/// reports, never merged, never deleted, never marked.
#[test]
fn the_same_edit_in_another_copy_of_repeated_lines_is_no_proof() {
    let repo = TestRepo::new();
    commit(&repo, &repo.root, "lines", "x\nx\nx\nx\n");
    commit(&repo, &repo.root, "p.go", GO_BEFORE);
    repo.create("lines");
    repo.create("go");
    commit(&repo, &repo.wt("lines"), "lines", "x\nY\nx\nx\n");
    commit(&repo, &repo.root, "lines", "x\nx\nY\nx\n");
    let wrapped = "\t\treturn fmt.Errorf(\"wrapped: %w\", err)\n";
    let mut lines: Vec<&str> = GO_BEFORE.split_inclusive('\n').collect();
    let (in_a, in_b) = (4, 11);
    assert_eq!(
        (lines[in_a], lines[in_b]),
        ("\t\treturn err\n", "\t\treturn err\n")
    );
    lines[in_b] = wrapped;
    commit(&repo, &repo.wt("go"), "p.go", &lines.concat());
    lines[in_b] = "\t\treturn err\n";
    lines[in_a] = wrapped;
    commit(&repo, &repo.root, "p.go", &lines.concat());

    for id in ["lines", "go"] {
        assert_eq!(
            long_of(&repo, id),
            (json!(false), json!(null), json!("rebase")),
            "{id}"
        );
    }
    let table = repo.run(["list", "--long"]);
    table.ok();
    let row = table.stdout.lines().find(|l| l.starts_with("go ")).unwrap();
    assert_eq!(row.split_whitespace().last(), Some("rebase?"), "{row}");

    // Marking: a probable one is reported, never marked merged.
    let detect = repo.run(["--json", "mark", "--detect-merged"]);
    detect.ok();
    let detect = detect.json();
    assert_eq!(detect.arr("marked").len(), 0, "{detect}");
    assert_eq!(detect["probable"], json!(["go", "lines"]), "{detect}");
    assert_eq!(repo.status_of("go").as_deref(), Some("active"));

    cleanup_keeps(&repo, &["lines", "go"]);

    // The leftover branches: reported as probable, kept by `branches`.
    let doc = repo.run(["--json", "branches"]).json();
    let b = leftover(&doc, "loop/go");
    assert_eq!(
        (&b["merged"], &b["mergedBy"], &b["probablyMerged"]),
        (&json!(false), &json!(null), &json!("rebase")),
        "{doc}"
    );
    let del = repo.run(["--json", "branches", "--delete-merged"]).json();
    for branch in ["loop/lines", "loop/go"] {
        assert_eq!(leftover(&del, branch)["kept"], "not-merged", "{del}");
        assert!(repo.branch_exists(branch));
    }
}

/// Hole 2, a merge commit the rebase proof ignored: the run has commit `A`
/// and a merge of main that also brings in a file `h` (an "evil" merge, say
/// a conflict resolution that added it); main cherry-picks `A`. Before: the
/// branch was deleted as rebase-merged and `h` was lost. Now: kept, and
/// patch ids do not even call it probably rebased (a merge commit that
/// brings in changes has no patch id to vouch for them).
#[test]
fn a_merge_commit_that_brings_in_a_file_keeps_the_branch() {
    let repo = TestRepo::new();
    repo.create("r");
    let wt = repo.wt("r");
    commit(&repo, &wt, "a", "the run's change\n");
    let a = git_ok(&repo, &wt, &["rev-parse", "HEAD"]).trim().to_owned();
    commit(&repo, &repo.root, "t", "main moves on\n");
    git_ok(
        &repo,
        &wt,
        &["merge", "-q", "--no-ff", "--no-commit", "main"],
    );
    fs::write(wt.join("h"), "only in the merge\n").unwrap();
    git_ok(&repo, &wt, &["add", "h"]);
    git_ok(&repo, &wt, &["commit", "-q", "-m", "merge main"]);
    repo.git(["cherry-pick", &a]);

    assert_eq!(
        long_of(&repo, "r"),
        (json!(false), json!(null), json!(null))
    );
    cleanup_keeps(&repo, &["r"]);
    assert_eq!(repo.git(["show", "loop/r:h"]), "only in the merge\n");
}

/// Hole 3, ambiguous patch-id bytes: the run replaces a last line without a
/// final newline (`a`) with `b`; main, on other content, removes the line
/// `a+b`. The lines were hashed undelimited (`-a` `+b\n` against `-a+b\n`),
/// so the two different changes had one patch id and the branch was deleted
/// as rebase-merged. Now: different ids, kept, not even probable.
#[test]
fn a_last_line_without_a_newline_does_not_make_two_changes_one() {
    let repo = TestRepo::new();
    commit(&repo, &repo.root, "f", "ctx\na");
    repo.create("r");
    commit(&repo, &repo.wt("r"), "f", "ctx\nb\n");
    commit(&repo, &repo.root, "f", "ctx\na+b\n");
    commit(&repo, &repo.root, "f", "ctx\n");

    assert_eq!(
        long_of(&repo, "r"),
        (json!(false), json!(null), json!(null))
    );
    cleanup_keeps(&repo, &["r"]);
}

/// Hole 4, net-zero branches: a run that adds a file and removes it again,
/// and a run of empty commits with messages only. Merging either into main
/// changes nothing because they change nothing: that is no proof their
/// commits are anywhere. Before: deleted as squash-merged. Now: kept.
#[test]
fn a_branch_whose_net_change_is_empty_is_not_merged() {
    let repo = TestRepo::new();
    repo.create("addrm");
    repo.create("notes");
    let wt = repo.wt("addrm");
    commit(&repo, &wt, "scratch", "tried this\n");
    git_ok(&repo, &wt, &["rm", "-q", "scratch"]);
    git_ok(&repo, &wt, &["commit", "-q", "-m", "did not work"]);
    for msg in ["decision: keep the old parser", "finding: flaky on CI"] {
        git_ok(
            &repo,
            &repo.wt("notes"),
            &["commit", "-q", "--allow-empty", "-m", msg],
        );
    }
    commit(&repo, &repo.root, "m", "main moves on\n");
    // main also has an empty commit: no twin for a run's empty one.
    repo.git(["commit", "-q", "--allow-empty", "-m", "empty on main"]);

    for id in ["addrm", "notes"] {
        let run = repo.run(["--json", "list", "--long"]);
        let doc = run.json();
        let r = doc.find_id("worktrees", id);
        assert_eq!(
            (&r["merged"], &r["empty"], &r["probablyMerged"]),
            (&json!(false), &json!(false), &json!(null)),
            "{id}: {doc}"
        );
    }
    cleanup_keeps(&repo, &["addrm", "notes"]);
    assert!(
        repo.git(["log", "--format=%s", "loop/notes"])
            .contains("finding: flaky on CI")
    );
}

/// The genuine cases still delete: a squash merge, a rebase merge
/// fast-forwarded, a plain merge; and a rebase merge whose patch ids match
/// is labelled `rebase` only because merging it changes nothing too.
#[test]
fn squash_rebase_and_plain_merges_still_delete() {
    let repo = TestRepo::new();
    for id in ["squashed", "rebased", "plain"] {
        repo.create(id);
        commit(&repo, &repo.wt(id), &format!("{id}-1"), "one\n");
        commit(&repo, &repo.wt(id), &format!("{id}-2"), "two\n");
    }
    commit(&repo, &repo.root, "m", "main moves on\n");
    repo.git(["merge", "-q", "--squash", "loop/squashed"]);
    repo.git(["commit", "-q", "-m", "squash"]);
    repo.git(["checkout", "-q", "-b", "rebasing", "loop/rebased"]);
    repo.git(["rebase", "-q", "main"]);
    repo.git(["checkout", "-q", "main"]);
    repo.git(["merge", "-q", "--ff-only", "rebasing"]);
    repo.git(["branch", "-q", "-D", "rebasing"]);
    repo.git(["merge", "-q", "--no-ff", "-m", "merge plain", "loop/plain"]);

    for (id, by) in [
        ("squashed", "squash"),
        ("rebased", "rebase"),
        ("plain", "ancestor"),
    ] {
        assert_eq!(long_of(&repo, id), (json!(true), json!(by), json!(null)));
        repo.run(["mark", id, "rejected"]).ok();
    }
    let run = repo.run(["--json", "cleanup", "--delete-merged-branches"]);
    run.ok();
    let doc = run.json();
    for (id, by) in [
        ("squashed", "squash"),
        ("rebased", "rebase"),
        ("plain", "ancestor"),
    ] {
        let r = doc.find_id("removed", id);
        assert_eq!(
            (&r["branchDeleted"], &r["branchMergedBy"]),
            (&json!(true), &json!(by)),
            "{doc}"
        );
        assert!(!repo.branch_exists(&format!("loop/{id}")));
    }
}

/// A merge driver that keeps "ours" (the base's side) makes merging the
/// branch into its base change nothing, although the branch's change is
/// not in the base: that is no proof the work is there, and the branch
/// must be kept.
#[test]
fn a_keep_ours_merge_driver_does_not_prove_a_branch_squash_merged() {
    let repo = TestRepo::new();
    commit(&repo, &repo.root, "f", "one\ntwo\nthree\n");
    repo.create("r");
    commit(&repo, &repo.wt("r"), "f", "one\nBRANCH WORK\nthree\n");
    commit(&repo, &repo.root, "f", "one\nmain change\nthree\n");
    fs::write(repo.root.join(".gitattributes"), "f merge=keep\n").unwrap();
    git_ok(&repo, &repo.root, &["add", ".gitattributes"]);
    git_ok(&repo, &repo.root, &["commit", "-q", "-m", "attrs"]);
    git_ok(&repo, &repo.root, &["config", "merge.keep.driver", "true"]);
    repo.run(["mark", "r", "rejected"]).ok();
    let doc = repo
        .run(["--json", "cleanup", "--delete-merged-branches"])
        .json();
    let r = doc.find_id("removed", "r");
    assert_eq!(r["branchDeleted"], false, "{doc}");
    assert!(repo.branch_exists("loop/r"));
    let long = repo.run(["--json", "branches"]).json();
    assert!(!long.to_string().contains("\"squash\""), "{long}");
}

/// The `rebase` proof matched hunks without their place: the same line
/// added elsewhere in the same file had the same patch id, and the branch,
/// whose version is not in its base, was deleted as rebase-merged.
#[test]
fn a_line_added_elsewhere_in_the_file_is_not_proof_of_a_rebase() {
    let repo = TestRepo::new();
    commit(&repo, &repo.root, "f", "a\nb\nc\nd\ne\nf\ng\nh\n");
    repo.create("r");
    commit(&repo, &repo.wt("r"), "f", "a\nX\nb\nc\nd\ne\nf\ng\nh\n");
    commit(&repo, &repo.root, "f", "a\nb\nc\nd\ne\nf\ng\nh\nX\n");
    repo.run(["mark", "r", "rejected"]).ok();
    let doc = repo
        .run(["--json", "cleanup", "--delete-merged-branches"])
        .json();
    assert!(repo.branch_exists("loop/r"), "{doc}");
}
