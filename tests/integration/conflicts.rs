//! `git loop conflicts`: pairs of active runs that would conflict when both
//! land, runs that conflict with the base, and nothing changed by asking.

use std::path::{Path, PathBuf};

use crate::common::{JsonExt, TestRepo};

/// A file of 20 numbered lines, so edits to different lines merge cleanly.
const LINES: &str = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n17\n18\n19\n20\n";

fn setup() -> TestRepo {
    let repo = TestRepo::new();
    std::fs::write(repo.root.join("f"), LINES).unwrap();
    std::fs::write(repo.root.join("g"), "g\n").unwrap();
    // Keep .loop-worktrees/ out of the tree from the start.
    std::fs::write(repo.root.join(".gitignore"), ".loop-worktrees/\n").unwrap();
    repo.git(["add", "."]);
    repo.git(["commit", "-q", "-m", "files"]);
    repo
}

/// In run `id`'s worktree, replace line `n` of `f` with `text` and commit.
fn edit_line(repo: &TestRepo, id: &str, file: &str, n: usize, text: &str) {
    let wt = repo.wt(id);
    let path = wt.join(file);
    let old = std::fs::read_to_string(&path).unwrap();
    let mut lines: Vec<String> = old.lines().map(str::to_owned).collect();
    lines[n - 1] = text.to_owned();
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    commit_all(repo, &wt, id);
}

fn commit_all(repo: &TestRepo, dir: &Path, msg: &str) {
    for args in [vec!["add", "-A"], vec!["commit", "-q", "-m", msg]] {
        let out = repo.git_in(dir, args);
        assert!(out.status.success(), "{out:?}");
    }
}

/// Everything a read-only command must leave as it was: every ref, each
/// worktree's status and index file (bytes and mtime), the object store's
/// file names, the manifest and event log.
fn state(repo: &TestRepo) -> Vec<String> {
    let mut out = vec![repo.git(["for-each-ref", "--format=%(refname) %(objectname)"])];
    let mut dirs: Vec<PathBuf> = vec![repo.root.clone()];
    dirs.extend(repo.registered().into_iter().filter(|p| p != &repo.root));
    for dir in dirs {
        let status = repo.git_in(&dir, ["--no-optional-locks", "status", "--porcelain"]);
        out.push(format!(
            "{}: {}",
            dir.display(),
            String::from_utf8_lossy(&status.stdout)
        ));
        let index = repo.git_in(
            &dir,
            ["rev-parse", "--path-format=absolute", "--git-path", "index"],
        );
        let index = PathBuf::from(String::from_utf8(index.stdout).unwrap().trim());
        let meta = std::fs::metadata(&index).unwrap();
        out.push(format!(
            "{} {:?} {:?}",
            index.display(),
            meta.modified().unwrap(),
            std::fs::read(&index).unwrap()
        ));
    }
    let mut objects = Vec::new();
    let mut stack = vec![repo.root.join(".git/objects")];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            if e.file_type().unwrap().is_dir() {
                stack.push(e.path());
            } else {
                objects.push(e.path().display().to_string());
            }
        }
    }
    objects.sort();
    out.push(objects.join("\n"));
    for file in ["manifest.json", "events.jsonl"] {
        out.push(std::fs::read_to_string(repo.loop_dir().join(file)).unwrap_or_default());
    }
    out
}

/// Same-line edits in two runs are a conflict naming the file; edits to
/// different lines, or to different files, are clean. Asking changes no
/// ref, worktree status, index, object or manifest.
#[test]
fn same_line_edits_conflict_disjoint_edits_are_clean_and_nothing_changes() {
    let repo = setup();
    for id in ["a", "b", "c", "d"] {
        repo.create(id);
    }
    edit_line(&repo, "a", "f", 5, "five from a");
    edit_line(&repo, "b", "f", 5, "five from b");
    edit_line(&repo, "c", "f", 15, "fifteen from c");
    std::fs::write(repo.wt("d").join("g"), "g from d\n").unwrap();
    commit_all(&repo, &repo.wt("d"), "d");
    // Uncommitted work in a worktree, which must stay as it is.
    std::fs::write(repo.wt("c").join("g"), "dirty\n").unwrap();
    repo.git(["--no-optional-locks", "status", "--porcelain"]);

    let before = state(&repo);
    let run = repo.run(["--json", "conflicts"]);
    run.ok();
    assert_eq!(state(&repo), before, "conflicts changed something");

    let v = run.json();
    assert_eq!(v["pairsChecked"], 6);
    let pairs = v.arr("pairs");
    assert_eq!(pairs.len(), 1, "{v}");
    assert_eq!(pairs[0]["runs"], serde_json::json!(["a", "b"]));
    assert_eq!(pairs[0]["files"], serde_json::json!(["f"]));
    assert_eq!(pairs[0]["base"], "main");
    assert_eq!(
        v.find_id("runs", "a")["conflictsWith"],
        serde_json::json!(["b"])
    );
    for id in ["c", "d"] {
        let r = v.find_id("runs", id);
        assert_eq!(r["conflictsWith"], serde_json::json!([]), "{id}");
        assert_eq!(r["baseConflicts"], serde_json::json!([]), "{id}");
    }
    // Fewest conflicts first.
    assert_eq!(v["landingOrder"], serde_json::json!(["c", "d", "a", "b"]));

    let before = state(&repo);
    let run = repo.run(["conflicts"]);
    run.ok();
    assert_eq!(state(&repo), before);
    assert!(
        run.stdout
            .contains("conflicting pairs:\n  a + b (into main): f\n"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains(
            "4 active runs, 6 pairs: 0 runs conflicting with the base, 1 conflicting pair"
        ),
        "{}",
        run.stdout
    );
}

/// A run whose edit conflicts with a later commit on the base is reported
/// against the base — once, not again in each of its pairs — and goes last
/// in the landing order. A finished run is not checked.
#[test]
fn a_run_conflicting_with_the_base_is_reported() {
    let repo = setup();
    for id in ["a", "b", "old"] {
        repo.create(id);
    }
    edit_line(&repo, "a", "f", 3, "three from a");
    edit_line(&repo, "b", "f", 3, "three from b");
    edit_line(&repo, "b", "g", 1, "g from b");
    edit_line(&repo, "old", "f", 3, "three from old");
    repo.run(["mark", "old", "rejected"]).ok();
    // The base moves on and edits line 3 too.
    let mut text = LINES.replace("\n3\n", "\nthree on main\n");
    text.push_str("21\n");
    std::fs::write(repo.root.join("f"), text).unwrap();
    commit_all(&repo, &repo.root, "main moves");

    let before = state(&repo);
    let run = repo.run(["--json", "conflicts"]);
    run.ok();
    assert_eq!(state(&repo), before);
    let v = run.json();
    assert_eq!(v.ids("runs"), ["a", "b"]);
    assert_eq!(
        v.find_id("runs", "a")["baseConflicts"],
        serde_json::json!(["f"])
    );
    assert_eq!(
        v.find_id("runs", "b")["baseConflicts"],
        serde_json::json!(["f"])
    );
    // f conflicts with the base for both; nothing else overlaps.
    assert_eq!(v["pairs"], serde_json::json!([]));
    assert_eq!(v["pairsChecked"], 1);

    let run = repo.run(["conflicts"]);
    assert!(
        run.stdout
            .contains("conflicts with the base:\n  a (into main): f\n  b (into main): f\n"),
        "{}",
        run.stdout
    );
}

/// `--base` lands every run in the branch named; an unknown one is refused
/// naming it. A run whose branch is gone is skipped with the reason; runs
/// created from different bases are not paired.
#[test]
fn base_flag_skips_and_separate_bases() {
    let repo = setup();
    repo.git(["branch", "dev"]);
    repo.create("a");
    repo.run(["create", "b", "--pattern", "p", "--base", "dev"])
        .ok();
    edit_line(&repo, "a", "f", 7, "seven from a");
    edit_line(&repo, "b", "f", 7, "seven from b");

    let v = repo.run(["--json", "conflicts"]).json();
    assert_eq!(v["pairsChecked"], 0, "{v}");
    assert_eq!(v.find_id("runs", "b")["base"], "dev");

    let v = repo.run(["--json", "conflicts", "--base", "main"]).json();
    assert_eq!(v["pairsChecked"], 1);
    assert_eq!(v.arr("pairs").len(), 1, "{v}");

    let run = repo.run(["--json", "conflicts", "--base", "nope"]);
    run.code(1);
    assert_eq!(run.json()["error"]["code"], "base-not-found");
    assert!(
        run.json()["error"]["message"]
            .as_str()
            .unwrap()
            .contains("nope")
    );

    // A run whose branch was renamed away is skipped, with the reason.
    let wt = repo.wt("b");
    let out = repo.git_in(&wt, ["branch", "-m", "loop/b", "elsewhere"]);
    assert!(out.status.success(), "{out:?}");
    let v = repo.run(["--json", "conflicts", "--base", "main"]).json();
    assert_eq!(v.ids("skipped"), ["b"]);
    assert!(v.arr("skipped")[0].text("reason").contains("loop/b"));
    assert_eq!(v["pairsChecked"], 0);
}

/// A run started from another run's branch builds on its edits: landing
/// the first, then the second, is clean even where the second rewrites the
/// first's lines (the pair is merged over their own merge base, which is
/// newer than the base's).
#[test]
fn a_run_started_from_another_is_merged_over_their_own_merge_base() {
    let repo = setup();
    repo.create("a");
    edit_line(&repo, "a", "f", 5, "five from a");
    repo.run(["create", "b", "--pattern", "p", "--base", "loop/a"])
        .ok();
    edit_line(&repo, "b", "f", 5, "five from b, after a");
    let v = repo.run(["--json", "conflicts", "--base", "main"]).json();
    assert_eq!(v["pairsChecked"], 1);
    assert_eq!(v["pairs"], serde_json::json!([]), "{v}");
    // Over the base's merge base instead, line 5 would conflict: a
    // different run editing it the same way shows that.
    repo.create("c");
    edit_line(&repo, "c", "f", 5, "five from b, after a");
    let v = repo.run(["--json", "conflicts", "--base", "main"]).json();
    assert_eq!(v["pairsChecked"], 3);
    let pairs: Vec<&serde_json::Value> = v.arr("pairs").iter().map(|p| &p["runs"]).collect();
    assert_eq!(pairs, [&serde_json::json!(["a", "c"])], "{v}");
}

/// `--status` picks the runs as `land --queue` does: with only escalated
/// runs, the default (active) looks at none and says what it left and how
/// to see them; `--status escalated` checks them; `--json` names the
/// statuses looked at. A bad status is a usage error naming it.
#[test]
fn status_picks_the_runs_and_the_report_says_which() {
    let repo = setup();
    for id in ["a", "b", "c"] {
        repo.create(id);
    }
    edit_line(&repo, "a", "f", 3, "three from a");
    edit_line(&repo, "b", "f", 3, "three from b");
    edit_line(&repo, "c", "f", 9, "nine from c");
    for id in ["a", "b"] {
        repo.run(["mark", id, "escalated"]).ok();
    }

    let run = repo.run(["conflicts"]);
    run.ok();
    assert!(
        run.stdout.contains("1 active run, 0 pairs:") && !run.stdout.contains("not looked at"),
        "{}",
        run.stdout
    );
    repo.run(["mark", "c", "rejected"]).ok();
    let run = repo.run(["conflicts"]);
    run.ok();
    assert!(
        run.stdout.contains("0 active runs, 0 pairs:")
            && run.stdout.contains(
                "not looked at: 2 escalated, 1 rejected (`--status escalated` checks those)"
            ),
        "{}",
        run.stdout
    );
    let v = repo.run(["--json", "conflicts"]).json();
    assert_eq!(v["statuses"], serde_json::json!(["active"]));
    assert!(v.ids("runs").is_empty());

    let v = repo
        .run(["--json", "conflicts", "--status", "escalated"])
        .json();
    assert_eq!(v["statuses"], serde_json::json!(["escalated"]));
    assert_eq!(v.ids("runs"), ["a", "b"]);
    assert_eq!(v["pairs"][0]["files"], serde_json::json!(["f"]));
    let run = repo.run(["conflicts", "--status", "escalated,rejected"]);
    assert!(
        run.stdout
            .contains("3 escalated or rejected runs, 3 pairs:"),
        "{}",
        run.stdout
    );

    let bad = repo.run(["conflicts", "--status", "escalatd"]);
    assert_eq!(bad.code, 2, "{}", bad.stderr);
    assert!(bad.stderr.contains("escalatd"), "{}", bad.stderr);
}
