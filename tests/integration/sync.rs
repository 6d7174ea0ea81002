//! `git loop sync`: each run's base brought into its branch. A fleet of ten
//! runs after three landings: the clean ones synced, the conflicting and
//! the dirty one skipped and left exactly as they were, every old tip in
//! the trash (and back with `trash restore`), nothing unreachable left;
//! uncommitted work the sync does not touch carried through byte for byte;
//! a run with a merge commit refused by rebase and synced by merge;
//! `--dry-run` writes nothing; `up-to-date`, `no-base`, an unknown id.
//! (Races, `kill -9` and the benchmark: `concurrency.rs`, `crash.rs`,
//! `benches/`.)

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use crate::common::{JsonExt, TestRepo, git_ok, snapshot};
use crate::land::{LINES, setup};

/// `f` with line `n` (1-based) replaced by `text`.
fn with_line(n: usize, text: &str) -> String {
    LINES
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i + 1 == n {
                format!("{text}\n")
            } else {
                format!("{l}\n")
            }
        })
        .collect()
}

/// One commit in `dir` writing `file`.
fn commit(repo: &TestRepo, dir: &Path, file: &str, content: &str) {
    crate::common::commit(repo, dir, file, content);
}

fn tip(repo: &TestRepo, rev: &str) -> String {
    repo.git(["rev-parse", rev]).trim().to_owned()
}

/// Every ref and where it points.
fn refs(repo: &TestRepo) -> String {
    repo.git(["for-each-ref", "--format=%(refname) %(objectname)"])
}

/// Every object in the repository, loose or packed.
fn objects(repo: &TestRepo) -> String {
    repo.git(["cat-file", "--batch-all-objects", "--batch-check"])
}

/// Objects `git fsck` calls unreachable when reflogs do not count.
fn unreachable(repo: &TestRepo) -> String {
    let out = repo.git_in(&repo.root, ["fsck", "--unreachable", "--no-reflogs"]);
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn admin_dir(repo: &TestRepo, id: &str) -> std::path::PathBuf {
    repo.root.join(".git/worktrees").join(id)
}

/// `git status --porcelain` in run `id`'s worktree.
fn status(repo: &TestRepo, id: &str) -> String {
    git_ok(repo, &repo.wt(id), &["status", "--porcelain"])
}

/// Main moved by landing three runs: one changes line 1 of `f`, one line
/// 20, one `g`.
fn three_landings(repo: &TestRepo) {
    for (id, file, content) in [
        ("land-1", "f", with_line(1, "main 1")),
        ("land-2", "f", {
            let f = with_line(1, "main 1");
            f.replace("20\n", "main 20\n")
        }),
        ("land-3", "g", "main g\n".to_owned()),
    ] {
        repo.create(id).ok();
        commit(repo, &repo.wt(id), file, &content);
        repo.run(["land", id]).ok();
    }
}

/// The fleet: `r0`…`r9`, each with a commit of its own; `r7` and `r8`
/// change the lines of `f` the landings change, `r9` has an uncommitted
/// change to `g` (which the landings change), `r1` uncommitted work the
/// sync does not touch (staged, unstaged and untracked).
fn fleet(repo: &TestRepo) {
    for i in 0..10 {
        let id = format!("r{i}");
        repo.create(&id).ok();
        let wt = repo.wt(&id);
        match i {
            7 => commit(repo, &wt, "f", &with_line(1, "r7's line 1")),
            8 => commit(repo, &wt, "f", &LINES.replace("20\n", "r8's 20\n")),
            _ => commit(repo, &wt, &format!("own-{i}"), &format!("{i}\n")),
        }
    }
    std::fs::write(repo.wt("r9").join("g"), "r9 is editing g\n").unwrap();
    uncommitted_work(repo, "r1");
}

/// Uncommitted work in run `id` outside `f` and `g`: a staged change, an
/// unstaged one, an untracked file.
fn uncommitted_work(repo: &TestRepo, id: &str) {
    let wt = repo.wt(id);
    commit(repo, &wt, "notes", "one\n");
    std::fs::write(wt.join("notes"), "one\nstaged\n").unwrap();
    git_ok(repo, &wt, &["add", "notes"]);
    std::fs::write(wt.join("notes"), "one\nstaged\nand not\n").unwrap();
    std::fs::write(wt.join("scratch.txt"), b"untracked \x00 bytes\n").unwrap();
}

#[test]
fn ten_runs_after_three_landings_seven_synced_two_conflicts_and_one_dirty_left_as_they_were() {
    let repo = setup();
    fleet(&repo);
    three_landings(&repo);
    let main = tip(&repo, "main");
    let before: BTreeMap<String, String> = (0..10)
        .map(|i| (format!("r{i}"), tip(&repo, &format!("loop/r{i}"))))
        .collect();
    let kept: BTreeMap<&str, _> = ["r7", "r8", "r9", "r1"]
        .into_iter()
        .map(|id| (id, snapshot(&repo.wt(id))))
        .collect();
    let r1_status = status(&repo, "r1");
    let unreachable_before = unreachable(&repo);

    let run = repo.run(["--json", "sync", "--keep-going"]);
    run.code(1);
    let doc = run.json();
    let mut synced = doc.ids("synced");
    synced.sort_unstable();
    assert_eq!(synced, ["r0", "r1", "r2", "r3", "r4", "r5", "r6"], "{doc}");
    for id in ["r7", "r8"] {
        let s = doc.find_id("skipped", id);
        assert_eq!(s["code"], "conflict", "{s}");
        assert_eq!(s["paths"], serde_json::json!(["f"]), "{s}");
        assert_eq!(snapshot(&repo.wt(id)), kept[id], "{id}'s worktree changed");
        assert_eq!(tip(&repo, &format!("loop/{id}")), before[id]);
        for marker in ["rebase-merge", "rebase-apply", "MERGE_HEAD"] {
            assert!(
                !admin_dir(&repo, id).join(marker).exists(),
                "{id}: {marker}"
            );
        }
        assert_eq!(status(&repo, id), "", "{id}");
    }
    let dirty = doc.find_id("skipped", "r9");
    assert_eq!(dirty["code"], "dirty", "{dirty}");
    assert_eq!(dirty["paths"], serde_json::json!(["g"]), "{dirty}");
    assert_eq!(snapshot(&repo.wt("r9")), kept["r9"]);
    assert_eq!(tip(&repo, "loop/r9"), before["r9"]);

    for id in synced {
        let s = doc.find_id("synced", id);
        let branch = format!("loop/{id}");
        assert_eq!(s.text("from"), before[id], "{s}");
        assert_eq!(s.text("to"), tip(&repo, &branch), "{s}");
        assert_eq!(s.text("baseTip"), main, "{s}");
        assert_eq!(s["base"], "main");
        assert_eq!(s["strategy"], "rebase");
        git_ok(
            &repo,
            &repo.root,
            &["merge-base", "--is-ancestor", "main", &branch],
        );
        // The run's own commit, replayed: its file, on main's tree.
        assert_eq!(
            git_ok(&repo, &repo.wt(id), &["rev-parse", "HEAD"]).trim(),
            s.text("to")
        );
        assert_eq!(
            std::fs::read_to_string(repo.wt(id).join("g")).unwrap(),
            "main g\n"
        );
        if id != "r1" {
            assert_eq!(status(&repo, id), "", "{id}");
        }
        // The old tip is in the trash, and comes back from it.
        let trash_ref = s.text("trashRef");
        assert_eq!(tip(&repo, trash_ref), before[id]);
        let name = trash_ref.strip_prefix("refs/loop/trash/").unwrap();
        assert!(name.contains("/sync/heads/loop/"), "{name}");
        let old = format!("old-{id}");
        repo.run(["trash", "restore", name, "--as", &old]).ok();
        assert_eq!(tip(&repo, &old), before[id]);
    }
    // r1's uncommitted work, byte for byte, around the sync.
    let now = snapshot(&repo.wt("r1"));
    for file in ["notes", "scratch.txt", "own-1"] {
        assert_eq!(now[file], kept["r1"][file], "{file}");
    }
    assert_eq!(status(&repo, "r1"), r1_status);
    let staged = git_ok(&repo, &repo.wt("r1"), &["diff", "--cached", "--name-only"]);
    assert_eq!(staged.trim(), "notes");
    // Nothing a worker made is left unreachable.
    assert_eq!(unreachable(&repo), unreachable_before);
    // A `sync` event per synced run: from, to, the base and strategy.
    let log = std::fs::read_to_string(repo.loop_dir().join("events.jsonl")).unwrap();
    let events: Vec<Value> = log
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|e| e["event"] == "sync")
        .collect();
    assert_eq!(events.len(), 7, "{log}");
    for e in &events {
        let id = e.text("id");
        assert_eq!(e.text("from"), before[id]);
        assert!(e.text("detail").contains("with main at"), "{e}");
        assert!(e.text("detail").contains("(rebase)"), "{e}");
    }
}

#[test]
fn uncommitted_work_outside_what_the_sync_changes_is_carried_through_byte_for_byte() {
    let repo = setup();
    repo.create("w").ok();
    commit(&repo, &repo.wt("w"), "own", "w\n");
    uncommitted_work(&repo, "w");
    commit(&repo, &repo.root, "g", "main g\n");
    let before = snapshot(&repo.wt("w"));
    let status_before = status(&repo, "w");
    let run = repo.run(["--json", "sync"]);
    run.ok();
    assert_eq!(run.json().ids("synced"), ["w"]);
    let after = snapshot(&repo.wt("w"));
    assert_eq!(after["g"].1, b"main g\n");
    for (path, content) in &before {
        if path != "g" {
            assert_eq!(&after[path], content, "{path}");
        }
    }
    assert_eq!(status(&repo, "w"), status_before);
}

#[test]
fn an_uncommitted_change_where_the_sync_writes_skips_the_run_dirty_and_moves_nothing() {
    let repo = setup();
    repo.create("w").ok();
    commit(&repo, &repo.wt("w"), "own", "w\n");
    std::fs::write(repo.wt("w").join("g"), "mine\n").unwrap();
    commit(&repo, &repo.root, "g", "main g\n");
    let (tip_before, files) = (tip(&repo, "loop/w"), snapshot(&repo.wt("w")));
    let run = repo.run(["--json", "sync"]);
    run.code(1);
    let doc = run.json();
    let s = doc.find_id("skipped", "w");
    assert_eq!(s["code"], "dirty", "{doc}");
    assert_eq!(doc["error"]["code"], "dirty", "{doc}");
    assert_eq!(tip(&repo, "loop/w"), tip_before);
    assert_eq!(snapshot(&repo.wt("w")), files);
    assert!(repo.git(["for-each-ref", "refs/loop/trash/"]).is_empty());
}

#[test]
fn a_run_with_a_merge_commit_is_refused_by_rebase_and_synced_by_merge() {
    let repo = setup();
    repo.git(["branch", "topic"]);
    let topic_wt = repo.root.join("topic-wt");
    repo.git(["worktree", "add", "-q", topic_wt.to_str().unwrap(), "topic"]);
    commit(&repo, &topic_wt, "t", "topic\n");
    repo.create("m").ok();
    let wt = repo.wt("m");
    commit(&repo, &wt, "own", "m\n");
    git_ok(
        &repo,
        &wt,
        &["merge", "-q", "--no-ff", "-m", "merge topic", "topic"],
    );
    commit(&repo, &repo.root, "g", "main g\n");
    let before = tip(&repo, "loop/m");

    let run = repo.run(["--json", "sync", "m"]);
    run.code(1);
    let doc = run.json();
    let s = doc.find_id("skipped", "m");
    assert_eq!(s["code"], "has-merges", "{doc}");
    assert!(s.text("reason").contains("--strategy merge"), "{s}");
    assert_eq!(tip(&repo, "loop/m"), before);

    let run = repo.run(["--json", "sync", "m", "--strategy", "merge"]);
    run.ok();
    let doc = run.json();
    let s = doc.find_id("synced", "m");
    assert_eq!(s["strategy"], "merge");
    let now = tip(&repo, "loop/m");
    assert_eq!(s.text("to"), now);
    let parents = repo.git(["rev-list", "--parents", "-n1", &now]);
    let main = tip(&repo, "main");
    assert_eq!(parents.trim(), format!("{now} {before} {main}"));
    assert_eq!(
        repo.git(["log", "-1", "--format=%s", &now]).trim(),
        "Merge main into loop/m"
    );
    assert_eq!(status(&repo, "m"), "");
    assert_eq!(std::fs::read_to_string(wt.join("g")).unwrap(), "main g\n");
}

#[test]
fn a_dry_run_predicts_every_result_and_writes_nothing() {
    let repo = setup();
    for id in ["clean", "conflicting", "dirty", "fresh"] {
        repo.create(id).ok();
    }
    commit(&repo, &repo.wt("clean"), "own", "c\n");
    commit(&repo, &repo.wt("conflicting"), "g", "theirs\n");
    commit(&repo, &repo.wt("dirty"), "own", "d\n");
    std::fs::write(repo.wt("dirty").join("g"), "editing\n").unwrap();
    commit(&repo, &repo.root, "g", "main g\n");
    let (refs_before, objects_before) = (refs(&repo), objects(&repo));
    let files_before = snapshot(&repo.root);
    let admin_before = snapshot(&repo.root.join(".git/worktrees"));

    let run = repo.run(["--json", "sync", "--dry-run", "--keep-going"]);
    run.code(1);
    let doc = run.json();
    assert_eq!(doc["dryRun"], true);
    let mut synced = doc.ids("synced");
    synced.sort_unstable();
    assert_eq!(synced, ["clean", "fresh"], "{doc}");
    assert_eq!(doc.find_id("synced", "clean")["trashRef"], Value::Null);
    // A run with no commits of its own moves to the base's tip.
    assert_eq!(
        doc.find_id("synced", "fresh").text("to"),
        tip(&repo, "main")
    );
    let conflict = doc.find_id("skipped", "conflicting");
    assert_eq!(conflict["code"], "conflict");
    assert_eq!(conflict["paths"], serde_json::json!(["g"]));
    assert_eq!(doc.find_id("skipped", "dirty")["code"], "dirty");

    assert_eq!(refs(&repo), refs_before);
    assert_eq!(objects(&repo), objects_before);
    assert_eq!(snapshot(&repo.root), files_before);
    assert_eq!(snapshot(&repo.root.join(".git/worktrees")), admin_before);

    // The text says the same, one line a run.
    let text = repo.run(["sync", "--dry-run", "--keep-going"]);
    text.code(1);
    assert!(
        text.stdout
            .contains("clean: would sync with main (rebase) "),
        "{}",
        text.stdout
    );
    assert!(
        text.stdout.contains("conflicting: skipped (conflict): "),
        "{}",
        text.stdout
    );
    assert!(
        text.stderr.contains("would sync 2 of 4 runs (2 skipped)"),
        "{}",
        text.stderr
    );
}

#[test]
fn a_run_that_already_has_its_base_is_up_to_date_and_nothing_is_written() {
    let repo = setup();
    repo.create("u").ok();
    commit(&repo, &repo.wt("u"), "own", "u\n");
    let (refs_before, log) = (refs(&repo), repo.loop_dir().join("events.jsonl"));
    let events_before = std::fs::read_to_string(&log).unwrap();
    let run = repo.run(["--json", "sync"]);
    run.ok();
    let doc = run.json();
    assert!(doc.arr("synced").is_empty(), "{doc}");
    assert_eq!(doc.find_id("skipped", "u")["code"], "up-to-date");
    assert!(doc.get("error").is_none(), "{doc}");
    assert_eq!(refs(&repo), refs_before);
    assert_eq!(std::fs::read_to_string(&log).unwrap(), events_before);
    let text = repo.run(["sync"]);
    text.ok();
    assert!(
        text.stdout.starts_with("u: up to date: main ("),
        "{}",
        text.stdout
    );
}

#[test]
fn a_run_whose_base_is_gone_is_no_base() {
    let repo = setup();
    repo.git(["branch", "topic"]);
    repo.run(["create", "t", "--base", "topic"]).ok();
    repo.git(["branch", "-D", "topic"]);
    let run = repo.run(["--json", "sync", "t"]);
    run.code(1);
    let doc = run.json();
    let s = doc.find_id("skipped", "t");
    assert_eq!(s["code"], "no-base", "{doc}");
    assert_eq!(s["base"], "topic");
}

#[test]
fn an_unknown_id_refuses_the_command_before_anything_changes() {
    let repo = setup();
    repo.create("a").ok();
    commit(&repo, &repo.wt("a"), "own", "a\n");
    commit(&repo, &repo.root, "g", "main g\n");
    let before = refs(&repo);
    let run = repo.run(["--json", "sync", "a", "nope"]);
    run.code(1);
    assert_eq!(run.json()["error"]["code"], "unknown-id");
    assert_eq!(refs(&repo), before);
}

#[test]
fn inside_a_runs_worktree_sync_takes_that_run() {
    let repo = setup();
    for id in ["here", "there"] {
        repo.create(id).ok();
        commit(&repo, &repo.wt(id), "own", "x\n");
    }
    commit(&repo, &repo.root, "g", "main g\n");
    let there = tip(&repo, "loop/there");
    let run = TestRepo::output(
        repo.command()
            .current_dir(repo.wt("here"))
            .args(["--json", "sync"]),
    );
    run.ok();
    assert_eq!(run.json().ids("synced"), ["here"]);
    assert_eq!(tip(&repo, "loop/there"), there);
}

#[test]
fn a_failing_gate_keeps_the_run_where_it_was_and_a_passing_one_lets_it_sync() {
    let repo = setup();
    repo.create("g1").ok();
    commit(&repo, &repo.wt("g1"), "own", "x\n");
    commit(&repo, &repo.root, "g", "main g\n");
    let before = tip(&repo, "loop/g1");
    let run = repo.run(["--json", "sync", "--gate", "test -f own && exit 3"]);
    run.code(1);
    let doc = run.json();
    let s = doc.find_id("skipped", "g1");
    assert_eq!(s["code"], "gate-failed", "{doc}");
    assert_eq!(s["gate"]["exitCode"], 3, "{s}");
    assert_eq!(tip(&repo, "loop/g1"), before);
    let run = repo.run([
        "--json",
        "sync",
        "--gate",
        "test -f own && test \"$(cat g)\" = 'main g'",
    ]);
    run.ok();
    assert_eq!(run.json().find_id("synced", "g1")["gate"]["passed"], true);
}

#[test]
fn a_sync_killed_after_the_branch_moved_is_finished_by_the_next_sync() {
    let repo = setup();
    repo.create("k").ok();
    commit(&repo, &repo.wt("k"), "own", "k\n");
    std::fs::write(repo.wt("k").join("own"), "k, and more\n").unwrap();
    commit(&repo, &repo.root, "g", "main g\n");
    let before = tip(&repo, "loop/k");
    let killed = TestRepo::output(
        repo.command()
            .env("GIT_LOOP_TEST_CRASH", "land-after-ref")
            .args(["sync", "k"]),
    );
    assert_ne!(killed.code, 0, "{}", killed.stderr);
    // The branch moved, its worktree did not follow: git status shows the
    // sync reversed, the run's own change as it was.
    let moved = tip(&repo, "loop/k");
    assert_ne!(moved, before);
    assert_eq!(
        std::fs::read_to_string(repo.wt("k").join("g")).unwrap(),
        "g\n"
    );

    // A dry run says the next sync finishes it, and finishes nothing.
    let dry = repo.run(["--json", "sync", "k", "--dry-run"]);
    dry.ok();
    let doc = dry.json();
    let s = doc.find_id("synced", "k");
    assert_eq!(
        (s.text("from"), s.text("to")),
        (before.as_str(), moved.as_str())
    );
    assert!(
        s["notes"][0].as_str().unwrap().contains("would be updated"),
        "{s}"
    );
    assert_eq!(
        std::fs::read_to_string(repo.wt("k").join("g")).unwrap(),
        "g\n"
    );

    let run = repo.run(["--json", "sync", "k"]);
    run.ok();
    let doc = run.json();
    let s = doc.find_id("synced", "k");
    assert_eq!(s.text("from"), before, "{s}");
    assert_eq!(s.text("to"), moved, "{s}");
    assert_eq!(tip(&repo, s.text("trashRef")), before);
    assert!(
        s["notes"][0].as_str().unwrap().contains("interrupted"),
        "{s}"
    );
    assert_eq!(tip(&repo, "loop/k"), moved);
    assert_eq!(
        std::fs::read_to_string(repo.wt("k").join("g")).unwrap(),
        "main g\n"
    );
    assert_eq!(
        std::fs::read_to_string(repo.wt("k").join("own")).unwrap(),
        "k, and more\n"
    );
    assert_eq!(status(&repo, "k").trim(), "M own");
    // And then it is up to date.
    let again = repo.run(["--json", "sync", "k"]);
    again.ok();
    assert_eq!(again.json().find_id("skipped", "k")["code"], "up-to-date");
}

#[test]
fn fetch_brings_a_remote_tracking_base_up_to_date_first() {
    let repo = TestRepo::new();
    let (_, fresh) = crate::common::with_remote_ahead(&repo, 0);
    repo.run(["create", "r", "--base", "origin/main"]).ok();
    commit(&repo, &repo.wt("r"), "own", "r\n");
    // The remote moves on: a push from the other clone.
    let pusher = repo.base().join("pusher");
    commit(&repo, &pusher, "upstream", "u\n");
    git_ok(&repo, &pusher, &["push", "-q", "origin", "main"]);
    let fresh_after = tip_in(&repo, &pusher);
    assert_ne!(fresh, fresh_after);
    // Without --fetch, origin/main as last fetched: nothing to bring in.
    let run = repo.run(["--json", "sync"]);
    run.ok();
    assert_eq!(run.json().find_id("skipped", "r")["code"], "up-to-date");
    let run = repo.run(["--json", "sync", "--fetch"]);
    run.ok();
    let doc = run.json();
    let s = doc.find_id("synced", "r");
    assert_eq!(s.text("baseTip"), fresh_after, "{doc}");
    assert_eq!(s["base"], "origin/main");
    git_ok(
        &repo,
        &repo.root,
        &["merge-base", "--is-ancestor", &fresh_after, "loop/r"],
    );
}

fn tip_in(repo: &TestRepo, dir: &Path) -> String {
    git_ok(repo, dir, &["rev-parse", "HEAD"]).trim().to_owned()
}

#[test]
fn a_run_whose_lock_is_held_is_locked_and_left_as_it_was() {
    let repo = setup();
    repo.create("x").ok();
    commit(&repo, &repo.wt("x"), "own", "x\n");
    commit(&repo, &repo.root, "g", "main g\n");
    let before = tip(&repo, "loop/x");
    // A landing of x, paused holding x's run lock.
    let mut landing = crate::common::spawn_paused(&repo, "land-before-ref", &["land", "x"]);
    let run = repo.run(["--json", "sync", "x"]);
    landing.kill().unwrap();
    landing.wait().unwrap();
    run.code(1);
    let doc = run.json();
    assert_eq!(doc.find_id("skipped", "x")["code"], "locked", "{doc}");
    assert_eq!(tip(&repo, "loop/x"), before);
    assert!(repo.git(["for-each-ref", "refs/loop/trash/"]).is_empty());
}

#[test]
fn an_untracked_file_where_the_sync_writes_skips_the_run_untracked() {
    let repo = setup();
    repo.create("u").ok();
    commit(&repo, &repo.wt("u"), "own", "u\n");
    std::fs::write(repo.wt("u").join("new-on-main"), "mine, untracked\n").unwrap();
    commit(&repo, &repo.root, "new-on-main", "main's\n");
    let (before, files) = (tip(&repo, "loop/u"), snapshot(&repo.wt("u")));
    let run = repo.run(["--json", "sync"]);
    run.code(1);
    let doc = run.json();
    let s = doc.find_id("skipped", "u");
    assert_eq!(s["code"], "untracked", "{doc}");
    assert_eq!(s["paths"], serde_json::json!(["new-on-main"]));
    assert_eq!(tip(&repo, "loop/u"), before);
    assert_eq!(snapshot(&repo.wt("u")), files);
}

#[test]
fn a_run_in_the_middle_of_an_operation_is_skipped_and_left_in_it() {
    let repo = setup();
    repo.create("o").ok();
    let wt = repo.wt("o");
    commit(&repo, &wt, "own", "o\n");
    // A merge stopped on a conflict, in the run's worktree.
    repo.git(["branch", "side"]);
    let side = repo.root.join("side-wt");
    repo.git(["worktree", "add", "-q", side.to_str().unwrap(), "side"]);
    commit(&repo, &side, "own", "side\n");
    let out = repo.git_in(&wt, ["merge", "-q", "side"]);
    assert!(
        !out.status.success(),
        "the merge was to stop on its conflict"
    );
    commit(&repo, &repo.root, "g", "main g\n");
    let (before, files) = (tip(&repo, "loop/o"), snapshot(&wt));
    let run = repo.run(["--json", "sync", "o"]);
    run.code(1);
    let doc = run.json();
    let s = doc.find_id("skipped", "o");
    assert_eq!(s["code"], "operation-in-progress", "{doc}");
    assert!(s.text("reason").contains("merge"), "{s}");
    assert_eq!(tip(&repo, "loop/o"), before);
    assert_eq!(snapshot(&wt), files);
    assert!(admin_dir(&repo, "o").join("MERGE_HEAD").exists());
}

#[test]
fn status_chooses_the_runs_and_a_skip_without_keep_going_stops_the_rest() {
    let repo = setup();
    for id in ["a", "b", "c"] {
        repo.create(id).ok();
        commit(&repo, &repo.wt(id), "own", "x\n");
    }
    repo.run(["mark", "c", "escalated"]).ok();
    commit(&repo, &repo.root, "g", "main g\n");
    let run = repo.run(["--json", "sync", "--status", "escalated"]);
    run.ok();
    assert_eq!(run.json().ids("synced"), ["c"]);
    // `a` conflicts; the default statuses (active): a and b.
    commit(&repo, &repo.wt("a"), "g", "a's g\n");
    let run = repo.run(["--json", "sync"]);
    run.code(1);
    let doc = run.json();
    assert_eq!(doc.find_id("skipped", "a")["code"], "conflict", "{doc}");
    // b is synced (it had started) or not attempted, never anything else.
    let b_synced = doc.ids("synced").contains(&"b");
    assert!(
        b_synced || doc.find_id("skipped", "b")["code"] == "not-attempted",
        "{doc}"
    );
}

#[test]
fn fetch_never_moves_a_local_base_and_says_when_it_is_behind() {
    let repo = TestRepo::new();
    let (_, remote_tip) = crate::common::with_remote_ahead(&repo, 2);
    repo.create("l").ok();
    let main = tip(&repo, "main");
    let run = repo.run(["--json", "sync", "--fetch"]);
    run.ok();
    assert_eq!(run.json().find_id("skipped", "l")["code"], "up-to-date");
    assert_eq!(tip(&repo, "main"), main);
    assert_eq!(tip(&repo, "origin/main"), remote_tip);
    assert!(
        run.stderr.contains(
            "warning: base main is 2 commits behind its upstream origin/main: the runs sync with main as it is"
        ),
        "{}",
        run.stderr
    );
}

/// A git command running in a run's worktree holds its index (here its
/// `index.lock`, as git leaves it while it works): the sync refuses the run
/// before anything moves, and never removes a lock it did not take — only
/// a lock marked as a killed sync's is cleared (storm_sync's kill tests).
#[test]
fn a_run_whose_index_a_git_command_holds_is_left_as_it_was_and_the_lock_kept() {
    let repo = setup();
    repo.create("i").ok();
    commit(&repo, &repo.wt("i"), "own", "i\n");
    commit(&repo, &repo.root, "g", "main g\n");
    let before = tip(&repo, "loop/i");
    let lock = admin_dir(&repo, "i").join("index.lock");
    std::fs::write(&lock, "a git command's\n").unwrap();
    let files = snapshot(&repo.wt("i"));
    let run = repo.run(["--json", "sync", "i"]);
    run.code(1);
    let doc = run.json();
    let s = doc.find_id("skipped", "i");
    assert_eq!(s["code"], "operation-in-progress", "{doc}");
    assert!(
        s["reason"].as_str().unwrap().contains("index"),
        "the reason names the index: {doc}"
    );
    assert_eq!(tip(&repo, "loop/i"), before);
    assert_eq!(std::fs::read_to_string(&lock).unwrap(), "a git command's\n");
    assert!(repo.git(["for-each-ref", "refs/loop/trash/"]).is_empty());
    assert_eq!(snapshot(&repo.wt("i")), files);
    // The command done, the next sync brings the base in.
    std::fs::remove_file(&lock).unwrap();
    repo.run(["sync", "i"]).ok();
    assert_ne!(tip(&repo, "loop/i"), before);
}

/// A sync whose checkout git must write (here `core.eol` is set, so the
/// in-process write is unsure and `git read-tree -m -u` writes it) holds
/// the run's index from before the branch moves until the index is
/// written, as the in-process write does: killed just after the move, its
/// lock is still there, so a `git commit` in the run fails instead of
/// pairing the moved branch with the index from before (which would undo
/// the sync in the run). The next sync clears its own lock, has git write
/// the checkout on a copy of the index under the lock, and finishes.
#[test]
fn a_sync_git_writes_holds_the_runs_index_from_the_branchs_move_until_its_index_is_written() {
    let repo = setup();
    repo.create("e").ok();
    commit(&repo, &repo.wt("e"), "own", "e\n");
    commit(&repo, &repo.root, "g", "main g\n");
    repo.git(["config", "core.eol", "lf"]);
    let before = tip(&repo, "loop/e");
    let admin = admin_dir(&repo, "e");
    let killed = TestRepo::output(
        repo.command()
            .env("GIT_LOOP_TEST_CRASH", "land-after-ref")
            .args(["sync", "e"]),
    );
    assert_ne!(killed.code, 0, "{}", killed.stderr);
    let moved = tip(&repo, "loop/e");
    assert_ne!(moved, before);
    assert!(admin.join("index.lock").exists(), "the index is still held");
    let agent = repo.git_in(&repo.wt("e"), ["commit", "--allow-empty", "-m", "agent"]);
    assert!(
        !agent.status.success(),
        "a commit in the run must not go through while the sync holds its index"
    );
    assert!(String::from_utf8_lossy(&agent.stderr).contains("index.lock"));
    assert_eq!(tip(&repo, "loop/e"), moved);

    let run = repo.run(["--json", "sync", "e"]);
    run.ok();
    let doc = run.json();
    let s = doc.find_id("synced", "e");
    assert_eq!(
        (s.text("from"), s.text("to")),
        (before.as_str(), moved.as_str())
    );
    assert_eq!(
        std::fs::read_to_string(repo.wt("e").join("g")).unwrap(),
        "main g\n"
    );
    assert_eq!(
        status(&repo, "e").trim(),
        "",
        "the worktree follows its branch"
    );
    for left in [
        "index.lock",
        "loop-sync-index.copy",
        "loop-sync-index.owner",
    ] {
        assert!(!admin.join(left).exists(), "{left} left behind");
    }

    // Not killed, the same: the branch and its checkout move together.
    commit(&repo, &repo.root, "h", "main h\n");
    repo.run(["sync", "e"]).ok();
    assert_eq!(
        std::fs::read_to_string(repo.wt("e").join("h")).unwrap(),
        "main h\n"
    );
    assert_eq!(status(&repo, "e").trim(), "");
    assert!(!admin.join("loop-sync-index.copy").exists());
    assert!(!admin.join("index.lock").exists());
}

/// A `--strategy merge` sync killed after the branch moved is finished by
/// the next sync, whatever strategy that one is asked for, and reported
/// with the strategy it was made with (read from the branch's reflog).
#[test]
fn a_finished_interrupted_sync_reports_the_strategy_it_was_made_with() {
    let repo = setup();
    repo.create("m").ok();
    commit(&repo, &repo.wt("m"), "own", "m\n");
    commit(&repo, &repo.root, "g", "main g\n");
    let killed = TestRepo::output(
        repo.command()
            .env("GIT_LOOP_TEST_CRASH", "land-after-ref")
            .args(["sync", "m", "--strategy", "merge"]),
    );
    assert_ne!(killed.code, 0, "{}", killed.stderr);
    let run = repo.run(["--json", "sync", "m", "--strategy", "rebase"]);
    run.ok();
    let doc = run.json();
    let s = doc.find_id("synced", "m");
    assert_eq!(s["strategy"], "merge", "{s}");
    assert!(
        s["notes"][0].as_str().unwrap().contains("interrupted"),
        "{s}"
    );
    assert_eq!(status(&repo, "m").trim(), "");
}

/// A sync killed after it locked a run's index and before it moved the
/// branch leaves that lock (marked as the sync's, beside it): the next sync
/// recognises it as a dead sync's that held nothing yet, removes it, and
/// syncs the run — also when the branch's last move was a sync that
/// finished (so its reflog names a sync).
#[test]
fn a_lock_a_killed_sync_took_before_the_move_is_cleared_by_the_next_sync() {
    let repo = setup();
    repo.create("l").ok();
    commit(&repo, &repo.wt("l"), "own", "l\n");
    let admin = admin_dir(&repo, "l");
    for (round, file) in ["g", "h"].into_iter().enumerate() {
        commit(&repo, &repo.root, file, &format!("main {file}\n"));
        let before = tip(&repo, "loop/l");
        let killed = TestRepo::output(
            repo.command()
                .env("GIT_LOOP_TEST_CRASH", "sync-index-held")
                .args(["sync", "l"]),
        );
        assert_ne!(killed.code, 0, "{}", killed.stderr);
        assert_eq!(tip(&repo, "loop/l"), before, "round {round}: nothing moved");
        assert!(admin.join("index.lock").exists(), "round {round}");
        let run = repo.run(["--json", "sync", "l"]);
        run.ok();
        let doc = run.json();
        let s = doc.find_id("synced", "l");
        assert_eq!(s.text("from"), before, "round {round}: {s}");
        assert_eq!(
            std::fs::read_to_string(repo.wt("l").join(file)).unwrap(),
            format!("main {file}\n")
        );
        assert_eq!(status(&repo, "l").trim(), "", "round {round}");
        assert!(!admin.join("index.lock").exists(), "round {round}");
    }
    // A lock no sync marked (a git command's) is never removed.
    commit(&repo, &repo.root, "i", "main i\n");
    std::fs::write(admin.join("index.lock"), "").unwrap();
    let run = repo.run(["--json", "sync", "l"]);
    run.code(1);
    assert_eq!(
        run.json().find_id("skipped", "l")["code"],
        "operation-in-progress"
    );
    assert!(admin.join("index.lock").exists());
}
