//! Each strategy lands a run of several commits: the target moves, the main
//! checkout is updated and clean, the run is merged (logged), its worktree
//! removed, its branch tip reachable; `--dry-run` and `--keep`.

use super::{
    advance_main, assert_clean, assert_reachable, authored, events_of, land, rev, setup, state,
    three_commits,
};
use crate::common::{JsonExt, TestRepo};

/// What every landing leaves: the run's worktree gone, the landing logged
/// (land, the mark to merged, the removal), its old tip still reachable.
fn assert_landed(repo: &TestRepo, id: &str, old_tip: &str) {
    assert!(!repo.wt(id).exists(), "the worktree of {id} is still there");
    assert!(!repo.registered().contains(&repo.wt(id)));
    assert_clean(repo);
    assert_reachable(repo, old_tip);
    let events = events_of(repo, id);
    for kind in ["land", "mark:merged", "remove"] {
        assert!(events.iter().any(|e| e == kind), "no {kind} in {events:?}");
    }
}

#[test]
fn rebase_replays_each_commit_onto_the_moved_target_keeping_authors_dates_and_messages() {
    let repo = setup();
    let run_commits = three_commits(&repo, "a");
    let run_tip = rev(&repo, "loop/a");
    let old = advance_main(&repo, "g", "g moved on\n");
    let doc = land(&repo, &["a"], 0);
    assert_eq!(doc["strategy"], "rebase");
    assert_eq!(doc["into"], "main");
    let landed = doc.find_id("landed", "a");
    assert_eq!(landed["from"], old.as_str());
    assert_eq!(landed["commits"], 3);
    let new = rev(&repo, "main");
    assert_eq!(landed["to"], new.as_str());
    // On top of the target as it was, one commit per run commit, in order,
    // linear; authors, author dates and messages byte for byte.
    assert_eq!(rev(&repo, "main~3"), old);
    assert_eq!(
        repo.git(["rev-list", "--merges", &format!("{old}..main")]),
        ""
    );
    assert_eq!(authored(&repo, "main", 3), run_commits);
    let committers = repo.git(["log", "-3", "--format=%cn", "main"]);
    assert_eq!(committers, "Test Committer\n".repeat(3));
    // The main checkout has the landed files, and the user's base change.
    assert_eq!(
        std::fs::read_to_string(repo.root.join("a/three")).unwrap(),
        "3\n"
    );
    assert_eq!(
        std::fs::read_to_string(repo.root.join("g")).unwrap(),
        "g moved on\n"
    );
    assert_landed(&repo, "a", &run_tip);
    // Deleted through the kernel, its tip in the trash.
    assert!(!repo.branch_exists("loop/a"));
    assert_eq!(landed["branch"], "deleted");
    assert!(landed.text("trashRef").starts_with("refs/loop/trash/"));
    assert!(events_of(&repo, "a").iter().any(|e| e == "branch-delete"));
    // The text a person reads: one line for the run, a summary.
    three_commits(&repo, "b");
    let run = repo.run(["land", "b"]);
    run.ok();
    assert!(
        run.stdout
            .starts_with("b: landed in main (rebase, 3 commits) "),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("worktree removed, branch deleted"),
        "{}",
        run.stdout
    );
    assert!(
        run.stderr.contains("landed 1 of 1 run in main"),
        "{}",
        run.stderr
    );
}

#[test]
fn squash_lands_one_commit_with_the_message_given_and_the_whole_change() {
    let repo = setup();
    three_commits(&repo, "s");
    let run_tip = rev(&repo, "loop/s");
    let old = advance_main(&repo, "g", "g moved on\n");
    let doc = land(
        &repo,
        &["s", "--strategy", "squash", "-m", "Squashed: all of s"],
        0,
    );
    assert_eq!(doc["strategy"], "squash");
    assert_eq!(doc.find_id("landed", "s")["commits"], 1);
    assert_eq!(rev(&repo, "main~1"), old);
    assert_eq!(
        repo.git(["log", "-1", "--format=%B", "main"]).trim(),
        "Squashed: all of s"
    );
    let files = repo.git(["diff", "--name-only", &old, "main"]);
    assert_eq!(files, "s/one\ns/three\ns/two\n");
    assert_landed(&repo, "s", &run_tip);
}

#[test]
fn merge_lands_a_merge_commit_whose_second_parent_is_the_run() {
    let repo = setup();
    let run_commits = three_commits(&repo, "m");
    let run_tip = rev(&repo, "loop/m");
    let old = advance_main(&repo, "g", "g moved on\n");
    let doc = land(&repo, &["m", "--strategy", "merge"], 0);
    assert_eq!(doc["strategy"], "merge");
    let parents = repo.git(["log", "-1", "--format=%P", "main"]);
    assert_eq!(parents.trim(), format!("{old} {run_tip}"));
    assert_eq!(
        repo.git(["log", "-1", "--format=%s", "main"]).trim(),
        "Merge branch 'loop/m' into main"
    );
    // The run's own commits are in the target as they were.
    assert_eq!(authored(&repo, &run_tip, 3), run_commits);
    assert_landed(&repo, "m", &run_tip);
    // An ancestor now: the branch went with the strongest proof.
    assert!(!repo.branch_exists("loop/m"));
}

#[test]
fn ff_moves_the_target_to_the_run_tip_itself_and_refuses_a_target_that_moved() {
    let repo = setup();
    let run_commits = three_commits(&repo, "fw");
    let run_tip = rev(&repo, "loop/fw");
    let doc = land(&repo, &["fw", "--strategy", "ff"], 0);
    assert_eq!(doc.find_id("landed", "fw")["to"], run_tip.as_str());
    assert_eq!(rev(&repo, "main"), run_tip);
    assert_eq!(authored(&repo, "main", 3), run_commits);
    assert_landed(&repo, "fw", &run_tip);
    // Once the target moved on, ff cannot land: nothing changes.
    three_commits(&repo, "g2");
    advance_main(&repo, "g", "g moved on\n");
    let before = state(&repo);
    let doc = land(&repo, &["g2", "--strategy", "ff"], 1);
    assert_eq!(doc.find_id("skipped", "g2")["code"], "not-fast-forward");
    assert_eq!(state(&repo), before);
}

#[test]
fn the_strategy_and_target_come_from_the_settings() {
    let repo = setup();
    repo.git(["branch", "release"]);
    three_commits(&repo, "c");
    repo.git(["config", "loop.landStrategy", "squash"]);
    repo.git(["config", "loop.landInto", "release"]);
    let doc = land(&repo, &["c", "--dry-run"], 0);
    assert_eq!(doc["strategy"], "squash");
    assert_eq!(doc["into"], "release");
    let config = repo.run(["--json", "config"]);
    config.ok();
    let config = config.json();
    assert_eq!(config["land.strategy"]["value"], "squash");
    assert_eq!(config["land.into"]["value"], "release");
    assert_eq!(config["land.queue-status"]["value"][0], "escalated");
    assert_eq!(config["land.push-retries"]["value"], 3);
    // A setting that names no local branch refuses before anything is read.
    repo.git(["config", "loop.landInto", "nope"]);
    let run = repo.run(["--json", "land", "c"]);
    run.code(1);
    assert_eq!(run.json()["error"]["code"], "base-not-found");
    assert!(run.stderr.contains("land.into \"nope\""), "{}", run.stderr);
}

#[test]
fn dry_run_builds_and_reports_and_changes_nothing() {
    let repo = setup();
    three_commits(&repo, "d");
    advance_main(&repo, "g", "g moved on\n");
    let before = state(&repo);
    let events = std::fs::read(repo.loop_dir().join("events.jsonl")).unwrap();
    let doc = land(&repo, &["d", "--dry-run"], 0);
    assert_eq!(doc["dryRun"], true);
    let landed = doc.find_id("landed", "d");
    assert_eq!(landed["commits"], 3);
    assert_eq!(landed["worktree"], "dry-run");
    assert_eq!(state(&repo), before);
    assert_eq!(
        std::fs::read(repo.loop_dir().join("events.jsonl")).unwrap(),
        events
    );
    // The commit it would make is not in the object database.
    let built = landed.text("to");
    assert!(
        !repo
            .git_in(&repo.root, ["cat-file", "-e", built])
            .status
            .success()
    );
    let run = repo.run(["land", "d", "--dry-run"]);
    assert!(
        run.stdout
            .starts_with("d: would land in main (rebase, 3 commits) "),
        "{}",
        run.stdout
    );
}

#[test]
fn keep_leaves_the_worktree_and_the_branch_and_marks_the_run_merged() {
    let repo = setup();
    three_commits(&repo, "k");
    let run_tip = rev(&repo, "loop/k");
    let doc = land(&repo, &["k", "--keep"], 0);
    let landed = doc.find_id("landed", "k");
    assert_eq!(landed["worktree"], "kept");
    assert_eq!(landed["branch"], "kept");
    assert!(repo.wt("k").is_dir());
    assert_eq!(rev(&repo, "loop/k"), run_tip);
    assert_eq!(repo.status_of("k").as_deref(), Some("merged"));
    assert_clean(&repo);
}

/// Without a committer identity (none in git's config or the environment):
/// a landing that needs no new commit moves the target as `git merge
/// --ff-only` would, its reflog line by git's default identity; one that
/// writes commits is refused as a setting to make (`invalid-config`,
/// naming user.name and user.email), and changes nothing.
#[test]
fn without_a_committer_identity_a_fast_forward_lands_and_a_rebase_is_refused() {
    let repo = setup();
    let no_identity = |args: &[&str]| {
        let mut cmd = repo.command();
        for var in [
            "GIT_AUTHOR_NAME",
            "GIT_AUTHOR_EMAIL",
            "GIT_COMMITTER_NAME",
            "GIT_COMMITTER_EMAIL",
        ] {
            cmd.env_remove(var);
        }
        cmd.args(args);
        TestRepo::output(&mut cmd)
    };
    three_commits(&repo, "ff");
    let tip = rev(&repo, "loop/ff");
    no_identity(&["land", "ff"]).ok();
    assert_eq!(rev(&repo, "main"), tip, "main moved to the run's tip");
    assert_landed(&repo, "ff", &tip);
    let reflog = repo.git(["reflog", "-1", "--format=%gs", "main"]);
    assert!(reflog.starts_with("git-loop land ff"), "{reflog}");

    three_commits(&repo, "rb");
    advance_main(&repo, "g", "main moved on\n");
    let before = state(&repo);
    let run = no_identity(&["--json", "land", "rb"]);
    run.code(1);
    let doc = run.json();
    assert_eq!(doc["error"]["code"], "invalid-config", "{doc}");
    let message = doc["error"].text("message");
    assert!(message.contains("no committer identity"), "{message}");
    // The diagnostic's help says what to set, as git asks before a commit.
    assert!(
        run.stderr
            .lines()
            .any(|l| l.starts_with("  help: ") && l.contains("git config --global user.email")),
        "{}",
        run.stderr
    );
    assert_eq!(state(&repo), before, "a refused landing changed something");
}
