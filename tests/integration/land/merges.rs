//! A run whose branch holds merge commits: the rebase strategy replays only
//! the non-merge commits, so it lands such a run only when the replay
//! carries everything a merge would (its tree is the tree of merging the
//! run into the target); otherwise `has-merges`, nothing changed, and
//! `--strategy merge` (or `squash`) lands it whole.

use super::{advance_main, commit_as, events_of, land, rev, setup, state};
use crate::common::{JsonExt, TestRepo, git_ok};

/// Run `id`: a commit of its own, then a merge of a side branch (started
/// at the run's base) whose resolution adds `evil` (content no commit but
/// the merge has).
fn run_with_an_evil_merge(repo: &TestRepo, id: &str) {
    repo.create(id);
    let wt = repo.wt(id);
    let by = "Ada <ada@example.com>";
    let date = "2026-02-01T10:00:00Z";
    commit_as(repo, &wt, "own", "own\n", by, date, "own");
    git_ok(
        repo,
        &wt,
        &["checkout", "-q", "-b", &format!("side-{id}"), "main"],
    );
    commit_as(repo, &wt, "side", "side\n", by, date, "side");
    git_ok(repo, &wt, &["checkout", "-q", &format!("loop/{id}")]);
    git_ok(
        repo,
        &wt,
        &[
            "merge",
            "-q",
            "--no-ff",
            "--no-commit",
            &format!("side-{id}"),
        ],
    );
    std::fs::write(wt.join("evil"), "only in the merge\n").unwrap();
    git_ok(repo, &wt, &["add", "evil"]);
    git_ok(repo, &wt, &["commit", "-q", "-m", "merge side, and evil"]);
}

#[test]
fn a_merge_whose_content_the_rebase_would_drop_is_refused_has_merges() {
    let repo = setup();
    run_with_an_evil_merge(&repo, "e");
    advance_main(&repo, "g", "main moved\n");
    let before = state(&repo);
    let doc = land(&repo, &["e"], 1);
    let skipped = doc.find_id("skipped", "e");
    assert_eq!(skipped["code"], "has-merges", "{doc}");
    assert!(
        skipped.text("message").contains("--strategy merge"),
        "{skipped}"
    );
    assert_eq!(
        state(&repo),
        before,
        "a has-merges refusal changed something"
    );
    assert!(events_of(&repo, "e").iter().any(|e| e == "land:has-merges"));
    // A dry run says so too.
    let dry = land(&repo, &["e", "--dry-run"], 1);
    assert_eq!(dry.find_id("skipped", "e")["code"], "has-merges");
    // A merge landing carries the merge's content.
    let doc = land(&repo, &["e", "--strategy", "merge"], 0);
    assert_eq!(doc.find_id("landed", "e")["into"], "main");
    for file in ["own", "side", "evil"] {
        assert!(repo.root.join(file).is_file(), "{file} did not land");
    }
    assert_eq!(repo.git(["status", "--porcelain"]), "");
}

#[test]
fn a_squash_lands_a_run_with_an_evil_merge_whole() {
    let repo = setup();
    run_with_an_evil_merge(&repo, "s");
    let doc = land(&repo, &["s", "--strategy", "squash"], 0);
    assert_eq!(doc.find_id("landed", "s")["commits"], 1);
    assert_eq!(
        repo.git(["show", "main:evil"]),
        "only in the merge\n",
        "the merge's content landed"
    );
}

/// A run that merged its base to catch up (no content of its own in the
/// merge): the replay carries everything, so a rebase lands it, linear.
#[test]
fn a_catch_up_merge_lands_by_rebase() {
    let repo = setup();
    repo.create("c");
    let wt = repo.wt("c");
    let by = "Ada <ada@example.com>";
    let date = "2026-02-01T10:00:00Z";
    commit_as(&repo, &wt, "one", "1\n", by, date, "one");
    let main = advance_main(&repo, "g", "main moved\n");
    git_ok(&repo, &wt, &["merge", "-q", "--no-edit", "main"]);
    commit_as(&repo, &wt, "two", "2\n", by, date, "two");
    let doc = land(&repo, &["c"], 0);
    let landed = doc.find_id("landed", "c");
    assert_eq!(landed["from"], main.as_str());
    assert_eq!(landed["commits"], 2, "{doc}");
    assert_eq!(
        repo.git(["rev-list", "--merges", &format!("{main}..main")]),
        ""
    );
    assert_eq!(rev(&repo, "main~2"), main);
    for file in ["one", "two", "g"] {
        assert!(repo.root.join(file).is_file(), "{file} is missing");
    }
    assert_eq!(repo.git(["status", "--porcelain"]), "");
}
