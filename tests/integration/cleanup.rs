//! `git loop cleanup`: which runs it selects (status, `--older-than`, never
//! active), what it skips and why (dirty, untracked, locked, submodules,
//! foreign clones), `--dry-run`, `--delete-merged-branches`, and what it
//! reports when the manifest write fails afterwards.

use std::fs;

use crate::common::{JsonExt, TestRepo, commit, git_ok, manifest_with};

#[test]
fn cleanup_removes_terminal_worktrees_and_keeps_branches() {
    let repo = TestRepo::new();
    for id in ["rej", "esc", "mer", "act"] {
        repo.create(id);
    }
    repo.run(["mark", "rej", "rejected"]).ok();
    repo.run(["mark", "esc", "escalated"]).ok();
    repo.run(["mark", "mer", "merged"]).ok();
    let run = repo.run(["--json", "cleanup", "--status", "rejected,escalated"]);
    run.ok();
    let v = run.json();
    assert_eq!(v["dryRun"], false);
    assert_eq!(v.ids("removed"), ["rej", "esc"]);
    assert_eq!(
        v["removed"][0],
        serde_json::json!({"id":"rej","path":".loop-worktrees/rej","branch":"loop/rej"})
    );
    assert_eq!(v["skipped"], serde_json::json!([]));
    assert!(!repo.wt("rej").exists() && !repo.wt("esc").exists());
    assert!(repo.wt("mer").exists() && repo.wt("act").exists());
    assert!(
        repo.branch_exists("loop/rej") && repo.branch_exists("loop/esc"),
        "branches kept"
    );
    assert_eq!(repo.ids(), ["mer", "act"]);
    assert!(!repo.registered().contains(&repo.wt("rej")));
}

/// Left to its default set, cleanup keeps what the landing queue lands next
/// (`escalated`, `land.queue-status`), worktree and all, skipped `queued`
/// with the command that takes it; asked (`--status`, or `cleanup.status`
/// configured), it removes it. The queue follows its own setting.
#[test]
fn the_default_cleanup_keeps_what_the_landing_queue_lands_next() {
    let repo = TestRepo::new();
    for id in ["rej", "esc"] {
        repo.create(id);
    }
    repo.run(["mark", "rej", "rejected"]).ok();
    repo.run(["mark", "esc", "escalated"]).ok();
    let dry = repo.run(["--json", "cleanup", "--dry-run"]).ok().json();
    assert_eq!(dry.ids("removed"), ["rej"]);
    let run = repo.run(["--json", "cleanup"]);
    run.ok();
    let v = run.json();
    assert_eq!(v.ids("removed"), ["rej"]);
    assert_eq!(v["skipped"][0]["id"], "esc");
    assert_eq!(v["skipped"][0]["code"], "queued");
    assert!(
        run.stderr
            .contains("selected rejected (the default; --status or cleanup.status to change; escalated left to the landing queue)"),
        "{}",
        run.stderr
    );
    let human = repo.run(["cleanup"]).ok().stdout.clone();
    assert!(
        human.contains("skipped esc: escalated runs wait for the landing queue (git loop land --queue; land.queue-status), worktree and all; to remove it now: git loop cleanup --status escalated"),
        "{human}"
    );
    assert!(repo.wt("esc").exists() && !repo.wt("rej").exists());
    // Not an event: nothing happened to it.
    let log = fs::read_to_string(repo.root.join(".loop-worktrees/events.jsonl")).unwrap();
    assert!(!log.contains("queued"), "{log}");

    // With another queue, escalated runs are cleanup's again.
    repo.git(["config", "loop.landQueueStatus", "rejected"]);
    repo.create("esc2");
    repo.run(["mark", "esc2", "escalated"]).ok();
    let v = repo.run(["--json", "cleanup"]).ok().json();
    assert_eq!(v.ids("removed"), ["esc", "esc2"]);
    repo.git(["config", "--unset", "loop.landQueueStatus"]);

    // Configured, the set is asked for: nothing is left to the queue.
    repo.create("esc3");
    repo.run(["mark", "esc3", "escalated"]).ok();
    repo.git(["config", "loop.cleanupStatus", "rejected,escalated"]);
    let v = repo.run(["--json", "cleanup"]).ok().json();
    assert_eq!(v.ids("removed"), ["esc3"]);
    assert_eq!(v["skipped"], serde_json::json!([]));
}

#[test]
fn dirty_untracked_and_locked_worktrees_are_skipped_with_files_intact() {
    let repo = TestRepo::new();
    for id in ["dirty", "untracked", "locked", "clean"] {
        repo.create(id);
        repo.run(["mark", id, "rejected"]).ok();
    }
    fs::write(repo.wt("dirty").join("README"), "changed\n").unwrap();
    fs::write(repo.wt("untracked").join("new.txt"), "new\n").unwrap();
    repo.git([
        "worktree",
        "lock",
        "--reason",
        "on usb",
        ".loop-worktrees/locked",
    ]);

    let dry = repo.run(["--json", "cleanup", "--dry-run"]);
    dry.ok();
    assert_eq!(dry.json()["dryRun"], true);
    let before = fs::read(repo.manifest_path()).unwrap();

    let run = repo.run(["--json", "cleanup"]);
    run.ok();
    let v = run.json();
    assert_eq!(v.arr("removed").len(), 1);
    assert_eq!(v["removed"][0]["id"], "clean");
    let skipped = v.arr("skipped");
    assert_eq!(skipped.len(), 3);
    for s in skipped {
        assert!(!s.text("reason").is_empty());
    }
    let reason = |id: &str| v.find_id("skipped", id).text("reason").to_owned();
    assert!(
        reason("dirty").contains("modified or untracked"),
        "{}",
        reason("dirty")
    );
    assert!(reason("untracked").contains("modified or untracked"));
    assert!(reason("locked").contains("locked"), "{}", reason("locked"));
    assert_eq!(
        fs::read_to_string(repo.wt("dirty").join("README")).unwrap(),
        "changed\n"
    );
    assert_eq!(
        fs::read_to_string(repo.wt("untracked").join("new.txt")).unwrap(),
        "new\n"
    );
    assert!(repo.wt("locked").join("README").exists());
    assert_eq!(repo.ids(), ["dirty", "untracked", "locked"]);
    assert_ne!(fs::read(repo.manifest_path()).unwrap(), before);

    // Codes: git says "modified or untracked" for both; gix tells them apart.
    let code = |v: &serde_json::Value, id: &str| v.find_id("skipped", id).text("code").to_owned();
    for (id, expected) in [
        ("dirty", "dirty"),
        ("untracked", "untracked"),
        ("locked", "locked"),
    ] {
        assert_eq!(code(&v, id), expected, "{v}");
    }

    // The dry run predicted all three, with the same codes, and changed nothing.
    let dv = dry.json();
    for (id, expected) in [
        ("dirty", "dirty"),
        ("untracked", "untracked"),
        ("locked", "locked"),
    ] {
        assert_eq!(code(&dv, id), expected, "{dv}");
    }
    assert_eq!(dv.arr("removed").len(), 1, "{dv}");
}

#[test]
fn staged_changes_are_dirty_and_ignored_files_do_not_block() {
    let repo = TestRepo::new();
    fs::write(repo.root.join(".gitignore"), "*.log\n").unwrap();
    repo.git(["add", ".gitignore"]);
    repo.git(["commit", "-q", "-m", "ignore logs"]);
    for id in ["staged", "ignored"] {
        repo.create(id);
        repo.run(["mark", id, "rejected"]).ok();
    }
    fs::write(repo.wt("staged").join("new.txt"), "new\n").unwrap();
    let added = repo.git_in(&repo.wt("staged"), ["add", "new.txt"]);
    assert!(added.status.success());
    fs::write(repo.wt("ignored").join("build.log"), "noise\n").unwrap();

    let dry = repo.run(["--json", "cleanup", "--dry-run"]);
    dry.ok();
    let dv = dry.json();
    assert_eq!(dv["skipped"][0]["id"], "staged");
    assert_eq!(dv["skipped"][0]["code"], "dirty");
    assert_eq!(dv["removed"][0]["id"], "ignored");

    let run = repo.run(["--json", "cleanup"]);
    run.ok();
    let v = run.json();
    assert_eq!(v["skipped"][0]["code"], "dirty", "{v}");
    assert_eq!(
        v["removed"][0]["id"], "ignored",
        "git removes ignored files"
    );
    assert!(repo.wt("staged").join("new.txt").exists());
}

#[test]
fn dry_run_changes_nothing() {
    let repo = TestRepo::new();
    repo.create("a");
    repo.run(["mark", "a", "rejected"]).ok();
    let before = fs::read(repo.manifest_path()).unwrap();
    let run = repo.run(["--json", "cleanup", "--dry-run"]);
    run.ok();
    assert_eq!(run.json()["removed"][0]["id"], "a");
    assert!(repo.wt("a").exists());
    assert_eq!(fs::read(repo.manifest_path()).unwrap(), before);
    let human = repo.run(["cleanup", "--dry-run"]);
    assert!(human.stdout.contains("would remove a"), "{}", human.stdout);
}

#[test]
fn active_is_never_selected_even_when_named() {
    let repo = TestRepo::new();
    repo.create("a");
    let run = repo.run(["--json", "cleanup", "--status", "active,rejected"]);
    run.ok();
    assert_eq!(run.json()["removed"], serde_json::json!([]));
    assert!(
        run.stderr.contains("active"),
        "says so on stderr: {}",
        run.stderr
    );
    assert!(repo.wt("a").exists());
    let run = repo.run(["cleanup", "--status", "active"]);
    run.ok();
    assert!(repo.wt("a").exists());
}

#[test]
fn older_than_selects_by_created_at() {
    let repo = TestRepo::new();
    repo.create("old");
    repo.create("new");
    repo.run(["mark", "old", "stale"]).ok();
    repo.run(["mark", "new", "stale"]).ok();
    let mut m = repo.manifest();
    m["worktrees"][0]["createdAt"] = "2026-01-01T00:00:00Z".into();
    m["worktrees"][1]["createdAt"] = "2026-01-02T12:00:00Z".into();
    repo.write_manifest(&m.to_string());
    let run = TestRepo::output(
        repo.command()
            .env("GIT_LOOP_TEST_NOW", "2026-01-03T00:00:00Z")
            .args([
                "--json",
                "cleanup",
                "--status",
                "stale",
                "--older-than",
                "24h",
            ]),
    );
    run.ok();
    assert_eq!(run.json().arr("removed").len(), 1);
    assert_eq!(run.json()["removed"][0]["id"], "old");
    assert_eq!(repo.ids(), ["new"]);
}

#[test]
fn invalid_status_csv_or_cutoff_is_a_usage_error_that_changes_nothing() {
    let repo = TestRepo::new();
    repo.create("a");
    repo.run(["mark", "a", "rejected"]).ok();
    let before = fs::read(repo.manifest_path()).unwrap();
    for (args, code) in [
        (
            &["cleanup", "--status", "rejected,bogus"][..],
            "invalid-status",
        ),
        (&["cleanup", "--status", ""], "invalid-status"),
        (
            &["cleanup", "--status", "rejected,,merged"],
            "invalid-status",
        ),
        (&["cleanup", "--older-than", "24"], "invalid-cutoff"),
        (&["cleanup", "--older-than", "1w"], "invalid-cutoff"),
        (&["cleanup", "--older-than=-1h"], "invalid-cutoff"),
        (&["cleanup", "--older-than", "1.5h"], "invalid-cutoff"),
        (
            &["cleanup", "--older-than", "99999999999999999999d"],
            "invalid-cutoff",
        ),
    ] {
        let mut full = vec!["--json"];
        full.extend_from_slice(args);
        let run = repo.run(&full);
        run.code(2);
        assert_eq!(run.json()["error"]["code"], code, "{args:?}");
        assert!(
            run.json()["error"].text("message").contains('"'),
            "names the value"
        );
    }
    assert_eq!(fs::read(repo.manifest_path()).unwrap(), before);
    assert!(repo.wt("a").exists());
}

#[test]
fn missing_directory_is_removed_from_manifest_and_git() {
    let repo = TestRepo::new();
    repo.create("gone");
    repo.run(["mark", "gone", "rejected"]).ok();
    fs::remove_dir_all(repo.wt("gone")).unwrap();
    let run = repo.run(["--json", "cleanup"]);
    run.ok();
    assert_eq!(run.json()["removed"][0]["id"], "gone");
    assert_eq!(repo.ids(), Vec::<String>::new());
    assert!(!repo.registered().contains(&repo.wt("gone")));
    assert!(repo.branch_exists("loop/gone"));

    // An entry that was never registered and has no directory is simply absent.
    repo.write_manifest(&manifest_with(&[(
        "never",
        "rejected",
        "2026-01-01T00:00:00Z",
    )]));
    let run = repo.run(["--json", "cleanup"]);
    run.ok();
    assert_eq!(run.json()["removed"][0]["id"], "never");
    assert_eq!(repo.ids(), Vec::<String>::new());
}

#[test]
fn foreign_clone_worktree_and_plain_directories_are_never_removed() {
    let repo = TestRepo::new();
    // Another clone puts its own worktree at our .loop-worktrees/foreign.
    let other = repo.foreign_worktree("foreign", "theirs");
    // And a plain directory sits where a run's worktree should be.
    fs::create_dir(repo.wt("plain")).unwrap();
    fs::write(repo.wt("plain").join("precious"), "x").unwrap();
    repo.write_manifest(&manifest_with(&[
        ("foreign", "rejected", "2026-01-01T00:00:00Z"),
        ("plain", "rejected", "2026-01-01T00:00:00Z"),
    ]));
    let run = repo.run(["--json", "cleanup"]);
    run.ok();
    let v = run.json();
    assert_eq!(v["removed"], serde_json::json!([]));
    assert_eq!(v.arr("skipped").len(), 2);
    assert!(repo.wt("foreign").join("README").exists());
    assert!(repo.wt("plain").join("precious").exists());
    // The other clone still knows its worktree.
    let list = String::from_utf8(
        repo.git_in(&other, ["worktree", "list", "--porcelain"])
            .stdout,
    )
    .unwrap();
    assert!(list.contains("foreign"), "{list}");
    assert_eq!(repo.ids(), ["foreign", "plain"]);
}

#[test]
fn nothing_to_clean_without_a_manifest() {
    let repo = TestRepo::new();
    let run = repo.run(["--json", "cleanup"]);
    run.ok();
    assert_eq!(
        run.json(),
        serde_json::json!({"dryRun":false,"removed":[],"skipped":[]})
    );
    assert!(!repo.loop_dir().exists());
}

#[test]
fn parallel_cleanup_of_many_records_every_outcome() {
    let repo = TestRepo::new();
    let ids: Vec<String> = (0..40).map(|i| format!("p{i}")).collect();
    for id in &ids {
        repo.create(id);
        repo.run(["mark", id, "rejected"]).ok();
    }
    for id in ids.iter().step_by(8) {
        fs::write(repo.wt(id).join("unsaved"), id).unwrap();
    }
    let v = repo.run(["--json", "cleanup"]).json();
    assert_eq!(v.arr("removed").len(), 35, "{v}");
    let skipped = v.ids("skipped");
    assert_eq!(
        skipped,
        ["p0", "p8", "p16", "p24", "p32"],
        "in selection order"
    );
    for id in ids.iter().step_by(8) {
        assert_eq!(
            fs::read_to_string(repo.wt(id).join("unsaved")).unwrap(),
            *id
        );
    }
    assert_eq!(repo.ids(), skipped);
    assert_eq!(repo.registered().len(), 6);
}

#[test]
fn delete_merged_branches_deletes_only_merged_ones() {
    let repo = TestRepo::new();
    for id in ["merged", "unmerged", "dirty"] {
        repo.create(id);
        repo.run(["mark", id, "rejected"]).ok();
    }
    // `unmerged` has a commit that exists nowhere else.
    fs::write(repo.wt("unmerged").join("work.txt"), "only copy\n").unwrap();
    repo.git_in(&repo.wt("unmerged"), ["add", "work.txt"]);
    assert!(
        repo.git_in(&repo.wt("unmerged"), ["commit", "-q", "-m", "work"])
            .status
            .success()
    );
    let tip = repo.git(["rev-parse", "loop/unmerged"]);
    fs::write(repo.wt("dirty").join("wip"), "x").unwrap();

    // Default: branches are kept.
    let dry = repo
        .run(["--json", "cleanup", "--dry-run", "--delete-merged-branches"])
        .json();
    assert!(
        dry["removed"][0].get("branchDeleted").is_none(),
        "dry run deletes nothing: {dry}"
    );

    let v = repo
        .run(["--json", "cleanup", "--delete-merged-branches"])
        .json();
    let get = |id: &str| v.find_id("removed", id);
    assert_eq!(get("merged")["branchDeleted"], true, "{v}");
    assert_eq!(get("unmerged")["branchDeleted"], false);
    assert_eq!(get("unmerged")["branchKept"]["code"], "not-merged");
    assert!(!repo.branch_exists("loop/merged"));
    assert_eq!(
        repo.git(["rev-parse", "loop/unmerged"]),
        tip,
        "the only copy is kept"
    );
    assert!(
        repo.branch_exists("loop/dirty"),
        "a skipped worktree's branch is untouched"
    );
    assert_eq!(v["skipped"][0]["id"], "dirty");
}

#[test]
fn delete_merged_branches_from_git_config() {
    let repo = TestRepo::new();
    repo.create("a");
    repo.create("b");
    repo.run(["mark", "a", "rejected"]).ok();
    repo.git(["config", "loop.cleanupDeleteMergedBranches", "yes"]);
    let v = repo.run(["--json", "cleanup"]).json();
    assert_eq!(v["removed"][0]["branchDeleted"], true, "{v}");
    assert!(!repo.branch_exists("loop/a"));
    let c = repo.run(["--json", "config"]).json();
    assert_eq!(c["cleanup.delete-merged-branches"]["value"], true);
    assert!(
        c["cleanup.delete-merged-branches"]
            .text("source")
            .contains("loop.cleanupDeleteMergedBranches")
    );
    // A value git would not accept as a boolean is an error naming the key.
    repo.git(["config", "loop.cleanupDeleteMergedBranches", "sometimes"]);
    repo.run(["mark", "b", "rejected"]).ok();
    let run = repo.run(["--json", "cleanup"]);
    run.code(1);
    assert!(
        run.json()["error"]
            .text("message")
            .contains("loop.cleanupDeleteMergedBranches"),
        "{}",
        run.stdout
    );
    assert!(repo.wt("b").exists() && repo.branch_exists("loop/b"));
    // The environment overrides git config, spelled as git spells booleans.
    let run = TestRepo::output(
        repo.command()
            .env("GIT_LOOP_CLEANUP_DELETE_MERGED_BRANCHES", "off")
            .args(["--json", "config"]),
    );
    run.code(1); // the git-config layer is still invalid, even though overridden
    repo.git(["config", "loop.cleanupDeleteMergedBranches", "true"]);
    let run = TestRepo::output(
        repo.command()
            .env("GIT_LOOP_CLEANUP_DELETE_MERGED_BRANCHES", "off")
            .args(["--json", "cleanup"]),
    );
    run.ok();
    assert!(run.json()["removed"][0].get("branchDeleted").is_none());
    assert!(repo.branch_exists("loop/b"));
}

#[test]
fn a_worktree_with_submodules_is_skipped_with_its_own_code_and_help() {
    let repo = TestRepo::new();
    let sub = repo.base().join("sub");
    fs::create_dir(&sub).unwrap();
    for args in [
        &["init", "-q", "-b", "main"][..],
        &["commit", "-q", "--allow-empty", "-m", "sub"][..],
    ] {
        assert!(repo.git_in(&sub, args).status.success());
    }
    repo.git([
        "-c",
        "protocol.file.allow=always",
        "submodule",
        "add",
        "-q",
        sub.to_str().unwrap(),
        "sub",
    ]);
    repo.git(["commit", "-q", "-m", "add submodule"]);
    repo.create("s");
    let init = repo.git_in(
        &repo.wt("s"),
        [
            "-c",
            "protocol.file.allow=always",
            "submodule",
            "update",
            "-q",
            "--init",
        ],
    );
    assert!(
        init.status.success(),
        "{}",
        String::from_utf8_lossy(&init.stderr)
    );
    repo.run(["mark", "s", "rejected"]).ok();

    let dry = repo.run(["--json", "cleanup", "--dry-run"]);
    dry.ok();
    assert_eq!(
        dry.json()["skipped"][0]["code"],
        "submodules",
        "{}",
        dry.stdout
    );

    let run = repo.run(["--json", "cleanup"]);
    run.ok();
    let v = run.json();
    let skipped = &v["skipped"][0];
    assert_eq!(skipped["code"], "submodules", "{v}");
    assert!(skipped.text("reason").contains("submodules"));
    let help = skipped.text("help");
    assert!(help.contains("submodule foreach") && help.contains(".loop-worktrees/s"));
    assert!(repo.wt("s").join("sub/.git").exists());
    assert_eq!(repo.ids(), ["s"]);

    let human = repo.run(["cleanup"]);
    assert!(
        human
            .stdout
            .contains("  help: git removes a worktree with submodules only with --force")
    );
}

#[test]
fn skipped_lines_speak_git_loops_words_and_json_keeps_gits() {
    let repo = TestRepo::new();
    repo.create("u");
    repo.create("l");
    fs::write(repo.wt("u").join("wip"), "x").unwrap();
    repo.git([
        "worktree",
        "lock",
        "--reason",
        "on a laptop",
        ".loop-worktrees/l",
    ]);
    for id in ["u", "l"] {
        repo.run(["mark", id, "rejected"]).ok();
    }
    let human = repo.run(["cleanup"]);
    human.ok();
    assert!(!human.stdout.contains("--force"), "{}", human.stdout);
    assert!(!human.stdout.contains("-f -f"), "{}", human.stdout);
    assert!(
        human
            .stdout
            .contains("skipped u: it has untracked files; commit, move or delete them"),
        "{}",
        human.stdout
    );
    assert!(
        human.stdout.contains(
            "skipped l: it is locked (on a laptop); if nothing uses it any more, run `git worktree unlock .loop-worktrees/l`"
        ),
        "{}",
        human.stdout
    );
    let v = repo.run(["--json", "cleanup"]).json();
    let reasons: Vec<&str> = v["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["reason"].as_str().unwrap())
        .collect();
    assert!(reasons.iter().any(|r| r.contains("use --force")), "{v}");
}

/// A run whose base is its own branch (adopted with `--base loop/<id>`):
/// cleanup must not call its work "in its base" and delete the branch.
#[test]
fn cleanup_never_deletes_a_branch_that_is_its_own_base() {
    let repo = TestRepo::new();
    repo.git(["branch", "loop/x"]);
    let wt = repo.root.join("x-wt");
    git_ok(
        &repo,
        &repo.root,
        &["worktree", "add", "-q", wt.to_str().unwrap(), "loop/x"],
    );
    commit(&repo, &wt, "x-work", "precious\n");
    git_ok(
        &repo,
        &repo.root,
        &["worktree", "remove", wt.to_str().unwrap()],
    );
    let run = repo.run([
        "create",
        "x",
        "--pattern",
        "p",
        "--reuse",
        "--base",
        "loop/x",
    ]);
    run.ok();
    // Nor is it reported or marked merged into itself.
    let long = repo.run(["--json", "list", "--long"]).json();
    assert_eq!(long.arr("worktrees")[0]["merged"], false, "{long}");
    let detect = repo
        .run(["--json", "mark", "--detect-merged", "--dry-run"])
        .json();
    assert!(detect.arr("marked").is_empty(), "{detect}");
    repo.run(["mark", "x", "rejected"]).ok();
    let doc = repo
        .run(["--json", "cleanup", "--delete-merged-branches"])
        .json();
    assert!(repo.branch_exists("loop/x"), "{doc}");
}

#[test]
fn a_failed_manifest_write_still_reports_what_cleanup_removed() {
    let repo = TestRepo::new();
    for id in ["a", "b"] {
        repo.create(id);
        repo.run(["mark", id, "rejected"]).ok();
    }
    let run = TestRepo::output(
        repo.command()
            .env("GIT_LOOP_TEST_FAIL", "manifest-write")
            .args(["--json", "cleanup"]),
    );
    run.code(1);
    let v = run.json();
    let removed: Vec<&str> = v["removed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert_eq!(removed, ["a", "b"], "{v}");
    assert_eq!(v["error"]["code"], "io", "{v}");
    assert!(v["error"]["message"].as_str().unwrap().contains("injected"));
    assert!(!repo.wt("a").exists() && !repo.wt("b").exists());
    assert_eq!(repo.ids(), ["a", "b"], "the manifest was not written");

    // Human output too: the removed lines, then the error; exit 1.
    for id in ["c", "d"] {
        repo.create(id);
        repo.run(["mark", id, "rejected"]).ok();
    }
    let run = TestRepo::output(
        repo.command()
            .env("GIT_LOOP_TEST_FAIL", "manifest-write")
            .args(["cleanup", "--status", "rejected"]),
    );
    run.code(1);
    assert!(run.stdout.contains("removed c") && run.stdout.contains("removed d"));
    assert!(run.stderr.contains("injected"), "{}", run.stderr);
    // The log says what happened, and reconcile finishes the job.
    let log = repo.run(["--json", "log"]).json();
    let removes = log["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["event"] == "remove")
        .count();
    assert_eq!(removes, 4, "{log}");
    repo.run(["reconcile"]).ok();
    assert!(repo.ids().is_empty());
}

/// A newcomer's plain `cleanup` says which statuses it took and from where;
/// when it takes nothing, how many runs are in each other status and the
/// command that would take them. Notes on stderr, none with `-q`; the JSON
/// document is unchanged.
#[test]
fn cleanup_says_what_it_selected_and_what_would_take_the_rest() {
    let repo = TestRepo::new();
    for id in ["s1", "s2", "m1", "a1"] {
        repo.create(id);
    }
    repo.run(["mark", "s1", "stale"]).ok();
    repo.run(["mark", "s2", "stale"]).ok();
    repo.run(["mark", "m1", "merged"]).ok();
    let run = repo.run(["cleanup"]);
    run.ok();
    assert!(
        run.stderr.contains(
            "selected rejected (the default; --status or cleanup.status to change; escalated left to the landing queue)"
        ),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains(
            "nothing selected: 1 run is active, 1 merged, 2 stale; to take them: git loop cleanup --status merged,stale; to mark a finished run: git loop mark <id> <status>"
        ),
        "{}",
        run.stderr
    );
    let run = repo.run(["cleanup", "--status", "stale", "--dry-run"]);
    assert!(
        run.stderr.contains("selected stale (--status)"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("nothing selected:"), "{}", run.stderr);
    repo.git(["config", "loop.cleanupStatus", "merged"]);
    let run = repo.run(["cleanup", "--dry-run"]);
    assert!(
        run.stderr.contains("selected merged (from git config"),
        "{}",
        run.stderr
    );
    let run = repo.run([
        "--json",
        "cleanup",
        "--older-than",
        "1d",
        "--status",
        "merged",
    ]);
    run.ok();
    assert!(
        run.stderr
            .contains("1 merged newer than the age cutoff (--older-than, or cleanup.older-than)"),
        "{}",
        run.stderr
    );
    assert_eq!(run.json()["removed"], serde_json::json!([]));
    repo.git(["config", "--unset", "loop.cleanupStatus"]);
    assert_eq!(repo.run(["-q", "cleanup"]).ok().stderr, "");
}

/// The removals run in parallel (one per core), and the first run is made
/// the slowest to remove (many files), so they finish out of order; what
/// `cleanup` prints, and each `--json` array, is still in manifest order.
/// Repeated, so the order is not luck.
#[test]
fn parallel_cleanup_reports_runs_in_manifest_order() {
    let ids = ["r1", "r2", "r3", "r4", "r5", "r6"];
    for round in 0..3 {
        let repo = TestRepo::new();
        for id in ids {
            repo.create(id);
            repo.run(["mark", id, "rejected"]).ok();
        }
        let big = repo.wt("r1").join("big");
        fs::create_dir(&big).unwrap();
        for i in 0..400 {
            fs::write(big.join(format!("f{i}")), "x").unwrap();
        }
        repo.git_in(&repo.wt("r1"), ["add", "big"]);
        repo.git_in(&repo.wt("r1"), ["commit", "-q", "-m", "big"]);
        for dirty in ["r2", "r5"] {
            fs::write(repo.wt(dirty).join("wip"), "x").unwrap();
        }
        let json = round % 2 == 1;
        if json {
            let v = repo.run(["--json", "cleanup"]).json();
            let order = |key: &str| -> Vec<String> {
                v.arr(key).iter().map(|e| e.text("id").to_owned()).collect()
            };
            assert_eq!(order("removed"), ["r1", "r3", "r4", "r6"], "{v}");
            assert_eq!(order("skipped"), ["r2", "r5"], "{v}");
        } else {
            let run = repo.run(["cleanup"]);
            let printed: Vec<&str> = run
                .stdout
                .lines()
                .map(|l| l.split_whitespace().nth(1).unwrap().trim_end_matches(':'))
                .collect();
            assert_eq!(
                printed,
                ["r1", "r3", "r4", "r6", "r2", "r5"],
                "{}",
                run.stdout
            );
        }
    }
}
