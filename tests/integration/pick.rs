//! `git loop pick <ID>`: the winner of a best-of-N task escalated or landed,
//! its siblings (the other active attempts `<TASK>.<n>`) rejected with
//! logged marks, `--salvage` removing their worktrees with every
//! uncommitted file kept in the salvage ref, what `judge` found reported
//! (a gate-failed winner is picked all the same), and everything that
//! refuses a pick — a refused landing, a dry run — changing nothing.

use serde_json::{Value, json};

use crate::common::{JsonExt, TestRepo, commit, git_line};

/// A repository whose main holds `f` and the ignore line for
/// `.loop-worktrees/` (so the main checkout stays clean), and the active
/// attempts `fix.1` … `fix.<n>`, each with one commit of its own file, and
/// an unrelated active run `other.1`.
fn task(n: u32) -> TestRepo {
    let repo = TestRepo::new();
    std::fs::write(repo.root.join("f"), "f\n").unwrap();
    std::fs::write(repo.root.join(".gitignore"), ".loop-worktrees/\n").unwrap();
    repo.git(["add", "."]);
    repo.git(["commit", "-q", "-m", "files"]);
    for i in 1..=n {
        let id = format!("fix.{i}");
        repo.run(["create", &id, "--pattern", "x"]).ok();
        commit(
            &repo,
            &repo.wt(&id),
            &format!("attempt{i}"),
            &format!("{i}\n"),
        );
    }
    repo.create("other.1");
    repo
}

/// Append a `judge` event for attempt `id` of `fix` as `judge` writes it:
/// the shared `Judgement` record (src/events/judge.rs) as compact JSON in
/// `detail`, the commit judged in `to`.
fn judged(repo: &TestRepo, id: &str, passed: bool, rank: u32) {
    let head = git_line(repo, &repo.root, &["rev-parse", &format!("loop/{id}")]);
    let judgement = json!({
        "id": id, "task": "fix", "gate": "sh test.sh", "head": head, "passed": passed,
        "exitCode": if passed { 0 } else { 1 }, "timedOut": false, "seconds": 0.25,
        "conflictsWithBase": false, "agreement": 0.5, "linesChanged": 1, "filesChanged": 1,
        "dirty": false, "wroteToWorktree": false, "rank": rank,
    });
    let event = json!({
        "at": "2026-12-01T12:00:00Z", "event": "judge", "id": id, "to": head,
        "detail": judgement.to_string(),
    });
    let log = repo.loop_dir().join("events.jsonl");
    let mut text = std::fs::read_to_string(&log).unwrap_or_default();
    text.push_str(&format!("{event}\n"));
    std::fs::write(&log, text).unwrap();
}

/// `pick` with `args`, `--json`, its exit code checked.
fn pick(repo: &TestRepo, args: &[&str], code: i32) -> Value {
    let mut all = vec!["--json", "pick"];
    all.extend_from_slice(args);
    let run = repo.run(&all);
    run.code(code);
    run.json()
}

/// The `mark` events of `id` in the log, as `from->to`.
fn marks(repo: &TestRepo, id: &str) -> Vec<String> {
    let log = repo.run(["--json", "log", id]);
    log.ok();
    log.json()
        .arr("events")
        .iter()
        .filter(|e| e["event"] == "mark")
        .map(|e| format!("{}->{}", e.text("from"), e.text("to")))
        .collect()
}

fn rev(repo: &TestRepo, spec: &str) -> String {
    git_line(repo, &repo.root, &["rev-parse", spec])
}

#[test]
fn pick_escalates_the_winner_and_rejects_its_siblings_with_logged_marks() {
    let repo = task(3);
    judged(&repo, "fix.2", true, 1);
    let doc = pick(&repo, &["fix.2"], 0);
    assert_eq!(doc["dryRun"], false);
    assert_eq!(doc["task"], "fix");
    let w = &doc["winner"];
    assert_eq!(
        (w.text("id"), w.text("from"), w.text("to")),
        ("fix.2", "active", "escalated")
    );
    assert_eq!(w["gatePassed"], true);
    assert_eq!(w["judgement"]["rank"], 1);
    assert!(doc.get("land").is_none(), "{doc}");
    assert_eq!(doc.ids("siblings"), ["fix.1", "fix.3"]);
    for s in doc.arr("siblings") {
        assert_eq!(
            (s.text("from"), s.text("to")),
            ("active", "rejected"),
            "{s}"
        );
        assert_eq!(s["worktree"], "kept");
    }
    assert_eq!(repo.status_of("fix.2").as_deref(), Some("escalated"));
    assert_eq!(repo.status_of("fix.1").as_deref(), Some("rejected"));
    assert_eq!(repo.status_of("fix.3").as_deref(), Some("rejected"));
    assert_eq!(
        repo.status_of("other.1").as_deref(),
        Some("active"),
        "not a sibling"
    );
    assert_eq!(marks(&repo, "fix.2"), ["active->escalated"]);
    assert_eq!(marks(&repo, "fix.1"), ["active->rejected"]);
    assert_eq!(marks(&repo, "fix.3"), ["active->rejected"]);
    // Without --salvage the worktrees stay, for cleanup.
    assert!(repo.wt("fix.1").is_dir() && repo.wt("fix.3").is_dir());

    // The text: the winner with what judge found, one line per sibling.
    let repo = task(2);
    let run = repo.run(["pick", "fix.1"]);
    run.ok();
    assert_eq!(
        run.stdout,
        "fix.1: picked, escalated (not judged)\nfix.2: rejected\n"
    );
    assert!(
        run.stderr
            .contains("picked fix.1 of task fix; 1 sibling rejected"),
        "{}",
        run.stderr
    );
}

#[test]
fn pick_land_lands_the_winner_and_rejects_its_siblings() {
    let repo = task(3);
    let main_before = rev(&repo, "main");
    let tip = rev(&repo, "loop/fix.3");
    let doc = pick(&repo, &["fix.3", "--land", "--strategy", "ff"], 0);
    let w = &doc["winner"];
    assert_eq!(
        (w.text("from"), w.text("to")),
        ("active", "merged"),
        "{doc}"
    );
    assert_eq!(w["gatePassed"], Value::Null, "not judged");
    let land = &doc["land"];
    assert_eq!(land.ids("landed"), ["fix.3"], "{doc}");
    assert_eq!(land["landed"][0]["from"], main_before.as_str());
    // ff: main is now the winner's tip, and the main checkout has its file.
    assert_eq!(rev(&repo, "main"), tip, "the target moved to the landing");
    assert_eq!(
        std::fs::read_to_string(repo.root.join("attempt3")).unwrap(),
        "3\n"
    );
    assert_eq!(repo.git(["status", "--porcelain"]), "");
    // Landed: merged, its worktree removed by land's rules.
    assert!(!repo.wt("fix.3").exists());
    assert_eq!(doc.ids("siblings"), ["fix.1", "fix.2"]);
    for id in ["fix.1", "fix.2"] {
        assert_eq!(repo.status_of(id).as_deref(), Some("rejected"));
        assert_eq!(marks(&repo, id), ["active->rejected"]);
        assert!(repo.branch_exists(&format!("loop/{id}")));
    }
    let events = repo.run(["--json", "log", "fix.3"]).json();
    let kinds: Vec<&str> = events
        .arr("events")
        .iter()
        .map(|e| e.text("event"))
        .collect();
    assert!(kinds.contains(&"land"), "{kinds:?}");
    assert!(kinds.contains(&"mark"), "{kinds:?}");
}

#[test]
fn pick_salvage_keeps_every_siblings_uncommitted_file_in_its_salvage_ref() {
    let repo = task(3);
    // fix.1: a tracked file changed and an untracked one; fix.3: clean.
    std::fs::write(repo.wt("fix.1").join("attempt1"), "changed\n").unwrap();
    std::fs::write(repo.wt("fix.1").join("notes.txt"), "untracked\n").unwrap();
    let doc = pick(&repo, &["fix.2", "--salvage"], 0);
    let s1 = doc.find_id("siblings", "fix.1");
    assert_eq!(
        (s1.text("to"), s1.text("worktree")),
        ("rejected", "removed"),
        "{doc}"
    );
    assert_eq!(s1["salvage"]["ref"], "refs/loop/salvage/fix.1");
    let s3 = doc.find_id("siblings", "fix.3");
    assert_eq!(s3["worktree"], "removed", "{doc}");
    assert!(
        s3.get("salvage").is_none(),
        "a clean worktree needs no salvage: {s3}"
    );
    assert!(!repo.wt("fix.1").exists() && !repo.wt("fix.3").exists());
    assert!(repo.wt("fix.2").is_dir(), "the winner keeps its worktree");
    let show = |spec: &str| repo.git(["show", spec]);
    assert_eq!(show("refs/loop/salvage/fix.1:attempt1"), "changed\n");
    assert_eq!(show("refs/loop/salvage/fix.1:notes.txt"), "untracked\n");
    for id in ["fix.1", "fix.3"] {
        assert!(
            repo.branch_exists(&format!("loop/{id}")),
            "{id}'s branch kept"
        );
        assert_eq!(marks(&repo, id), ["active->rejected"]);
    }
    // The removed siblings are dropped, as `remove` drops them.
    assert_eq!(repo.ids(), ["fix.2", "other.1"]);
    assert_eq!(repo.status_of("fix.2").as_deref(), Some("escalated"));
}

#[test]
fn picking_an_attempt_that_failed_its_gate_is_allowed_and_reported() {
    let repo = task(2);
    judged(&repo, "fix.1", false, 2);
    judged(&repo, "fix.2", true, 1);
    let doc = pick(&repo, &["fix.1"], 0);
    assert_eq!(doc["winner"]["gatePassed"], false, "{doc}");
    assert_eq!(doc["winner"]["judgement"]["exitCode"], 1);
    assert_eq!(repo.status_of("fix.1").as_deref(), Some("escalated"));
    assert_eq!(repo.status_of("fix.2").as_deref(), Some("rejected"));

    let repo = task(2);
    judged(&repo, "fix.1", false, 2);
    let run = repo.run(["pick", "fix.1"]);
    run.ok();
    assert!(
        run.stdout.starts_with(
            "fix.1: picked, escalated (gate FAILED when judged (exit 1), rank 2; picked anyway)\n"
        ),
        "{}",
        run.stdout
    );
}

#[test]
fn a_refused_landing_changes_nothing_else() {
    let repo = task(2);
    // fix.1 conflicts with main: both change `f`.
    std::fs::write(repo.wt("fix.1").join("f"), "run\n").unwrap();
    crate::common::git_ok(&repo, &repo.wt("fix.1"), &["commit", "-qam", "run edits f"]);
    std::fs::write(repo.root.join("f"), "main\n").unwrap();
    repo.git(["commit", "-qam", "main edits f"]);
    let manifest = std::fs::read(repo.manifest_path()).unwrap();
    let main = rev(&repo, "main");
    let doc = pick(&repo, &["fix.1", "--land", "--salvage"], 1);
    assert_eq!(doc["error"]["code"], "conflict", "land's code: {doc}");
    assert_eq!(doc["land"]["skipped"][0]["code"], "conflict");
    assert_eq!(doc["winner"]["to"], "active");
    assert_eq!(doc.find_id("siblings", "fix.2")["to"], "active");
    assert_eq!(
        std::fs::read(repo.manifest_path()).unwrap(),
        manifest,
        "manifest byte for byte"
    );
    assert_eq!(rev(&repo, "main"), main);
    assert!(repo.wt("fix.2").is_dir());
    assert!(marks(&repo, "fix.2").is_empty());
    let run = repo.run(["pick", "fix.1", "--land"]);
    run.code(1);
    assert!(
        run.stdout.starts_with("fix.1: skipped (conflict): "),
        "{}",
        run.stdout
    );
    assert!(run.stderr.contains("fix.1: not picked"), "{}", run.stderr);
}

#[test]
fn dry_run_changes_nothing() {
    let repo = task(3);
    std::fs::write(repo.wt("fix.1").join("notes.txt"), "untracked\n").unwrap();
    let manifest = std::fs::read(repo.manifest_path()).unwrap();
    let log = std::fs::read(repo.loop_dir().join("events.jsonl")).unwrap();
    let refs = repo.git(["for-each-ref"]);
    for args in [
        &["fix.2", "--dry-run", "--salvage"][..],
        &["fix.2", "--dry-run", "--land", "--salvage"][..],
    ] {
        let doc = pick(&repo, args, 0);
        assert_eq!(doc["dryRun"], true);
        assert_eq!(doc.find_id("siblings", "fix.1")["to"], "rejected", "{doc}");
        assert_eq!(
            doc.find_id("siblings", "fix.1")["worktree"],
            "removed",
            "{doc}"
        );
        assert_eq!(
            std::fs::read(repo.manifest_path()).unwrap(),
            manifest,
            "{args:?}"
        );
        assert_eq!(
            std::fs::read(repo.loop_dir().join("events.jsonl")).unwrap(),
            log
        );
        assert_eq!(repo.git(["for-each-ref"]), refs, "{args:?}");
        assert!(repo.wt("fix.1").join("notes.txt").is_file());
    }
    let run = repo.run(["pick", "fix.2", "--dry-run"]);
    run.ok();
    assert!(
        run.stdout.starts_with(
            "fix.2: would be picked, escalated (not judged)\nfix.1: would be rejected\n"
        ),
        "{}",
        run.stdout
    );
}

#[test]
fn only_an_active_attempt_is_picked() {
    let repo = task(2);
    repo.create("solo");
    let manifest = std::fs::read(repo.manifest_path()).unwrap();
    let refused = |id: &str, code: &str, words: &str| {
        let run = repo.run(["--json", "pick", id]);
        run.code(1);
        let doc = run.json();
        assert_eq!(doc["error"]["code"], code, "{id}: {doc}");
        let message = doc["error"]["message"].as_str().unwrap();
        assert!(message.contains(id) && message.contains(words), "{message}");
        assert_eq!(std::fs::read(repo.manifest_path()).unwrap(), manifest);
    };
    refused("solo", "not-pickable", "not an attempt");
    refused("fix.9", "unknown-id", "no run with id");
    repo.run(["mark", "fix.2", "rejected"]).ok();
    let manifest = std::fs::read(repo.manifest_path()).unwrap();
    let run = repo.run(["--json", "pick", "fix.2"]);
    run.code(1);
    assert_eq!(run.json()["error"]["code"], "not-pickable");
    assert!(json_has(&run.json(), "it is rejected, not active"));
    assert_eq!(std::fs::read(repo.manifest_path()).unwrap(), manifest);
    // A land option without --land is a usage error.
    repo.run(["pick", "fix.1", "--into", "main"]).code(2);
}

fn json_has(doc: &Value, words: &str) -> bool {
    doc["error"]["message"]
        .as_str()
        .is_some_and(|m| m.contains(words))
}

/// `pick` paused after it read the manifest (`pick-before-marks`), while
/// `mark` runs beside it; then let go.
fn pick_while(repo: &TestRepo, args: &[&str], meanwhile: impl FnOnce()) -> (i32, Value) {
    let go = repo.base().join("go-pick");
    let until = format!("pick-before-marks:until:{}", go.display());
    let mut all = vec!["--json", "pick"];
    all.extend_from_slice(args);
    let mut child = repo
        .command()
        .env("GIT_LOOP_TEST_CRASH", &until)
        .args(&all)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::{BufRead, Read};
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    while !line.contains("paused at pick-before-marks") {
        line.clear();
        if stderr.read_line(&mut line).unwrap() == 0 {
            let _ = child.kill();
            panic!("pick exited before pick-before-marks");
        }
    }
    meanwhile();
    std::fs::write(&go, "").unwrap();
    let mut stdout = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut stdout)
        .unwrap();
    let code = child.wait().unwrap().code().unwrap_or(-1);
    (code, serde_json::from_str(&stdout).unwrap_or(Value::Null))
}

/// Each status pick sets is a compare-and-swap of the status it read: a
/// sibling marked by someone else while pick ran keeps that mark (it is not
/// re-marked `rejected`), and the report says what it is now.
#[test]
fn a_sibling_marked_meanwhile_keeps_its_mark() {
    let repo = task(3);
    let (code, doc) = pick_while(&repo, &["fix.1"], || {
        repo.run(["mark", "fix.3", "merged"]).ok();
    });
    assert_eq!(code, 0, "{doc}");
    assert_eq!(repo.status_of("fix.1").as_deref(), Some("escalated"));
    assert_eq!(repo.status_of("fix.2").as_deref(), Some("rejected"));
    assert_eq!(repo.status_of("fix.3").as_deref(), Some("merged"));
    assert_eq!(marks(&repo, "fix.3"), ["active->merged"]);
    let siblings = doc.arr("siblings");
    let fix3 = siblings.iter().find(|s| s["id"] == "fix.3").unwrap();
    assert_eq!(fix3["to"], "merged", "{doc}");
}

/// A winner marked by someone else while pick ran is not overwritten, and
/// nothing is picked: its siblings stay active.
#[test]
fn a_winner_marked_meanwhile_is_not_picked() {
    let repo = task(2);
    let (code, _) = pick_while(&repo, &["fix.1"], || {
        repo.run(["mark", "fix.1", "stale"]).ok();
    });
    assert_ne!(code, 0);
    assert_eq!(repo.status_of("fix.1").as_deref(), Some("stale"));
    assert_eq!(repo.status_of("fix.2").as_deref(), Some("active"));
    assert_eq!(marks(&repo, "fix.1"), ["active->stale"]);
    assert!(marks(&repo, "fix.2").is_empty());
}

/// Without `--land`, the winner and its siblings are marked in one manifest
/// write: a `kill -9` right after it leaves all of them marked (and one
/// right before it, none).
#[test]
fn the_winner_and_its_siblings_are_marked_in_one_write() {
    for (point, after) in [
        ("after-manifest-rename", true),
        ("before-manifest-rename", false),
    ] {
        let repo = task(3);
        let out = repo
            .command()
            .env("GIT_LOOP_TEST_CRASH", point)
            .args(["pick", "fix.2"])
            .output()
            .unwrap();
        assert!(!out.status.success(), "{point}: {out:?}");
        let (winner, sibling) = if after {
            ("escalated", "rejected")
        } else {
            ("active", "active")
        };
        assert_eq!(repo.status_of("fix.2").as_deref(), Some(winner), "{point}");
        for id in ["fix.1", "fix.3"] {
            assert_eq!(
                repo.status_of(id).as_deref(),
                Some(sibling),
                "{point}: {id}"
            );
        }
        assert_eq!(repo.status_of("other.1").as_deref(), Some("active"));
    }
}
