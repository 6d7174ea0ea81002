//! `land --queue`: the runs of the status set in `conflicts`' landing
//! order, each built on the target as the landings before it left it; a run
//! that now conflicts is skipped with its files; the rest go on with
//! `--keep-going`, or are not attempted.

use super::{LINES, land, rev, setup, state};
use crate::common::{JsonExt, TestRepo, git_ok};

/// Ten escalated runs r01…r10, each adding a file of its own; r02 and r03
/// both change line 1 of `f`, r06 and r07 line 10: 3 and 7 conflict once 2
/// and 6 landed.
fn ten(repo: &TestRepo) {
    for i in 1..=10 {
        let id = format!("r{i:02}");
        repo.create(&id);
        let wt = repo.wt(&id);
        std::fs::write(wt.join(format!("{id}.txt")), format!("{id}\n")).unwrap();
        let line = match i {
            2 | 3 => Some(1),
            6 | 7 => Some(10),
            _ => None,
        };
        if let Some(n) = line {
            let mut lines: Vec<String> = LINES.lines().map(str::to_owned).collect();
            lines[n - 1] = format!("{id} was here");
            std::fs::write(wt.join("f"), lines.join("\n") + "\n").unwrap();
        }
        git_ok(repo, &wt, &["add", "-A"]);
        git_ok(repo, &wt, &["commit", "-qm", &format!("{id}'s work")]);
        repo.run(["mark", &id, "escalated"]).ok();
    }
}

const ORDER: [&str; 10] = [
    "r01", "r04", "r05", "r08", "r09", "r10", "r02", "r03", "r06", "r07",
];

#[test]
fn a_queue_of_ten_lands_eight_in_order_and_skips_the_two_that_conflict() {
    let repo = setup();
    ten(&repo);
    let old = rev(&repo, "main");
    let doc = land(&repo, &["--queue", "--keep-going"], 1);
    let landed: Vec<&str> = doc.ids("landed");
    let expected: Vec<&str> = ORDER
        .iter()
        .copied()
        .filter(|id| !["r03", "r07"].contains(id))
        .collect();
    assert_eq!(landed, expected, "{doc}");
    assert_eq!(doc.ids("skipped"), ["r03", "r07"]);
    assert_eq!(doc.find_id("skipped", "r03")["code"], "conflict");
    assert_eq!(
        doc.find_id("skipped", "r03")["paths"],
        serde_json::json!(["f"])
    );
    assert_eq!(
        doc.find_id("skipped", "r07")["paths"],
        serde_json::json!(["f"])
    );
    assert_eq!(doc.arr("notAttempted").len(), 0);
    // Linear: one commit per run landed, each on the one before.
    assert_eq!(
        repo.git(["rev-list", "--merges", &format!("{old}..main")]),
        ""
    );
    assert_eq!(
        repo.git(["rev-list", "--count", &format!("{old}..main")])
            .trim(),
        "8"
    );
    let subjects = repo.git(["log", "--reverse", "--format=%s", &format!("{old}..main")]);
    let want: Vec<String> = expected.iter().map(|id| format!("{id}'s work")).collect();
    assert_eq!(subjects.lines().collect::<Vec<_>>(), want);
    // Each landed chain links the one before it.
    for pair in doc.arr("landed").windows(2) {
        assert_eq!(pair[1]["from"], pair[0]["to"]);
    }
    // The skipped runs are as they were: escalated, worktree and branch kept.
    for id in ["r03", "r07"] {
        assert_eq!(repo.status_of(id).as_deref(), Some("escalated"));
        assert!(repo.wt(id).is_dir());
        assert!(repo.branch_exists(&format!("loop/{id}")));
    }
    assert_eq!(repo.git(["status", "--porcelain"]), "");
}

#[test]
fn a_skip_stops_the_queue_without_keep_going_and_a_dry_run_predicts_it() {
    let repo = setup();
    ten(&repo);
    let before = state(&repo);
    let doc = land(&repo, &["--queue", "--dry-run"], 1);
    assert_eq!(
        doc.ids("landed"),
        ["r01", "r04", "r05", "r08", "r09", "r10", "r02"]
    );
    assert_eq!(doc.ids("skipped"), ["r03"]);
    let not: Vec<&str> = doc
        .arr("notAttempted")
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(not, ["r06", "r07"]);
    assert_eq!(state(&repo), before, "a dry run changes nothing");
    let run = repo.run(["land", "--queue"]);
    run.code(1);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 10, "{}", run.stdout);
    assert!(
        lines[7].starts_with("r03: skipped (conflict): "),
        "{}",
        run.stdout
    );
    assert_eq!(lines[8], "r06: not attempted");
    assert!(
        run.stderr
            .contains("landed 7 of 10 runs in main (1 skipped, 2 not attempted)"),
        "{}",
        run.stderr
    );
    // Only the escalated ones: --status picks another set.
    repo.run(["mark", "r06", "rejected"]).ok();
    let doc = land(&repo, &["--queue", "--status", "rejected"], 0);
    assert_eq!(doc.ids("landed"), ["r06"]);
}

/// Without a gate the queue reads each run's worktree while the one before
/// it lands: a dirty run is still skipped `dirty`, its files untouched.
#[test]
fn a_dirty_run_read_ahead_is_skipped_dirty_and_kept_as_it_was() {
    let repo = setup();
    ten(&repo);
    // r04 is second in the order (read while r01 lands), r10 sixth.
    std::fs::write(repo.wt("r04").join("r04.txt"), "uncommitted\n").unwrap();
    std::fs::write(repo.wt("r10").join("stray.txt"), "untracked\n").unwrap();
    // Untracked files refuse a landing only with land.require-clean.
    repo.git(["config", "loop.landRequireClean", "true"]);
    let doc = land(&repo, &["--queue", "--keep-going"], 1);
    let landed = doc.ids("landed");
    for id in ["r04", "r10"] {
        let skipped = doc.find_id("skipped", id);
        assert_eq!(skipped["code"], "dirty", "{id}: {doc}");
        assert!(!landed.contains(&id), "{doc}");
        assert_eq!(repo.status_of(id).as_deref(), Some("escalated"));
    }
    assert!(
        skipped_message(&doc, "r04").contains("uncommitted changes"),
        "{doc}"
    );
    assert!(
        skipped_message(&doc, "r10").contains("untracked files"),
        "{doc}"
    );
    for id in ["r01", "r05", "r08", "r09"] {
        assert!(landed.contains(&id), "{id}: {doc}");
    }
    let read = |id: &str, file: &str| std::fs::read_to_string(repo.wt(id).join(file)).unwrap();
    assert_eq!(read("r04", "r04.txt"), "uncommitted\n");
    assert_eq!(read("r10", "stray.txt"), "untracked\n");
}

/// Runs named on the command line are read ahead too (from the start, in
/// the order named): a dirty one named last, and one named twice, are
/// judged as if read at their turn.
#[test]
fn named_runs_read_ahead_skip_the_dirty_one_and_land_the_rest_in_the_order_named() {
    let repo = setup();
    ten(&repo);
    std::fs::write(repo.wt("r05").join("r05.txt"), "uncommitted\n").unwrap();
    let doc = land(
        &repo,
        &["r09", "r01", "r09", "r05", "r08", "--keep-going"],
        1,
    );
    assert_eq!(doc.ids("landed"), ["r09", "r01", "r08"], "{doc}");
    assert_eq!(doc.find_id("skipped", "r05")["code"], "dirty", "{doc}");
    assert_eq!(
        std::fs::read_to_string(repo.wt("r05").join("r05.txt")).unwrap(),
        "uncommitted\n"
    );
    assert_eq!(repo.status_of("r05").as_deref(), Some("escalated"));
}

/// A run whose worktree cannot be read (its `.git` file gone) is skipped
/// `dirty`, saying why, and kept as it is; with `--keep-going` the queue
/// lands the rest instead of stopping every run.
#[test]
fn a_run_whose_worktree_cannot_be_read_is_skipped_and_the_queue_goes_on() {
    let repo = setup();
    ten(&repo);
    std::fs::remove_file(repo.wt("r04").join(".git")).unwrap();
    let doc = land(&repo, &["--queue", "--keep-going"], 1);
    let skipped = doc.find_id("skipped", "r04");
    assert_eq!(skipped["code"], "dirty", "{doc}");
    assert!(
        skipped_message(&doc, "r04").contains("could not be read"),
        "{doc}"
    );
    let landed = doc.ids("landed");
    for id in ["r01", "r05", "r08", "r09"] {
        assert!(landed.contains(&id), "{id}: {doc}");
    }
    assert!(!landed.contains(&"r04"), "{doc}");
    assert_eq!(repo.status_of("r04").as_deref(), Some("escalated"));
    assert!(repo.wt("r04").join("r04.txt").exists());
}

fn skipped_message(doc: &serde_json::Value, id: &str) -> String {
    doc.find_id("skipped", id)["message"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// A queue of nothing says why: what it lands (the setting that chose
/// it), what it left by status, and the one command that lands the
/// active runs. It lands what it says.
#[test]
fn a_queue_says_what_it_took_and_what_it_left() {
    let repo = TestRepo::new();
    for id in ["a", "b", "c"] {
        repo.create(id).ok();
    }
    let run = repo.run(["land", "--queue", "--dry-run"]);
    run.ok();
    assert!(
        run.stderr.contains(
            "the queue lands runs marked escalated (land.queue-status; --status to choose): 0 runs; left: 3 active"
        ),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("git loop land --queue --status escalated,active"),
        "{}",
        run.stderr
    );
    repo.run(["mark", "a", "escalated"]).ok();
    repo.run(["mark", "b", "rejected"]).ok();
    let run = repo.run(["land", "--queue", "--dry-run", "--status", "escalated"]);
    assert!(
        run.stderr
            .contains("the queue lands runs marked escalated: 1 run; left: 1 active, 1 rejected"),
        "{}",
        run.stderr
    );
}
