//! `git loop mark [<id>...] <status>`: each status set, the entry kept; unknown
//! ids and statuses refused; with no id, the run the current directory is in.

use std::fs;

use crate::common::TestRepo;

#[test]
fn mark_sets_each_status_and_keeps_the_entry() {
    let repo = TestRepo::new();
    repo.create("m");
    for status in ["rejected", "escalated", "merged", "stale", "active"] {
        let run = repo.run(["--json", "mark", "m", status]);
        run.ok();
        assert_eq!(run.json()["status"], status);
        assert_eq!(run.json()["id"], "m");
        assert_eq!(repo.status_of("m").unwrap(), status);
    }
    assert_eq!(repo.ids(), ["m"]);
    assert!(repo.wt("m").exists(), "marking never removes a worktree");
}

#[test]
fn mark_refuses_unknown_id_and_status() {
    let repo = TestRepo::new();
    // No manifest yet: unknown id, and nothing is created.
    let run = repo.run(["--json", "mark", "ghost", "merged"]);
    run.code(1);
    assert_eq!(run.json()["error"]["code"], "unknown-id");
    assert!(run.stderr.contains("\"ghost\""), "{}", run.stderr);
    assert!(!repo.loop_dir().exists());

    repo.create("m");
    let before = fs::read(repo.manifest_path()).unwrap();
    repo.run(["mark", "ghost", "merged"]).code(1);
    for bad in ["done", "Active", "", "rejected,merged"] {
        let run = repo.run(["--json", "mark", "m", bad]);
        run.code(2);
        assert_eq!(run.json()["error"]["code"], "usage");
    }
    assert_eq!(fs::read(repo.manifest_path()).unwrap(), before);
}

/// `mark --help` (and so its man page) has the five-line glossary, each line
/// saying what cleanup does with the status in the README's own words.
#[test]
fn mark_help_glossary_says_what_cleanup_does_as_the_readme_does() {
    let readme = fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let help = TestRepo::new().run(["mark", "--help"]).ok().stdout.clone();
    let man =
        fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/man/git-loop-mark.1")).unwrap();
    for status in git_loop::manifest::Status::ALL {
        let row = readme
            .lines()
            .find(|l| l.starts_with(&format!("| `{status}` |")))
            .unwrap_or_else(|| panic!("README.md's glossary has no row for {status}"));
        let cleanup = row.trim_end_matches('|').rsplit('|').next().unwrap();
        let cleanup = cleanup.trim().replace('`', "");
        let line = help
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{status} ")))
            .unwrap_or_else(|| panic!("mark --help has no glossary line for {status}:\n{help}"));
        assert!(
            line.ends_with(&cleanup),
            "mark --help says {line:?}; README.md says {cleanup:?}"
        );
        let man_line = format!("  {}", line.trim_start()).replace('-', "\\-");
        assert!(man.contains(&man_line), "the man page lacks {man_line:?}");
    }
}

/// Several ids are marked together, all or nothing: an unknown one among
/// them changes nothing (no write, no event); otherwise one write, one
/// `mark` event per run whose status changed, the entries in the order
/// named (the same id twice once). One id still prints its entry alone.
#[test]
fn several_ids_are_marked_all_or_nothing() {
    let repo = TestRepo::new();
    for id in ["a", "b", "c"] {
        repo.create(id);
    }
    let events = || {
        fs::read_to_string(repo.loop_dir().join("events.jsonl"))
            .unwrap()
            .lines()
            .count()
    };
    let before = fs::read(repo.manifest_path()).unwrap();
    let logged = events();
    let refused = repo.run(["--json", "mark", "a", "nope", "b", "rejected"]);
    refused.code(1);
    assert_eq!(refused.json()["error"]["code"], "unknown-id");
    assert!(refused.stderr.contains("\"nope\""), "{}", refused.stderr);
    assert_eq!(fs::read(repo.manifest_path()).unwrap(), before);
    assert_eq!(events(), logged);
    assert!(!repo.mutex_path().exists());

    repo.run(["mark", "c", "rejected"]).ok();
    let logged = events();
    let run = repo.run(["--json", "mark", "c", "a", "c", "rejected"]);
    run.ok();
    let v = run.json();
    let ids: Vec<&str> = v["worktrees"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["c", "a"], "{v}");
    assert!(
        v["worktrees"]
            .as_array()
            .unwrap()
            .iter()
            .all(|e| e["status"] == "rejected")
    );
    assert_eq!(repo.status_of("a").unwrap(), "rejected");
    assert_eq!(repo.status_of("b").unwrap(), "active");
    // c was rejected already: only a's change is an event.
    assert_eq!(events(), logged + 1);

    let human = repo.run(["mark", "a", "b", "escalated"]);
    human.ok();
    assert!(
        human
            .stderr
            .contains("a: rejected -> escalated\nb: active -> escalated\n"),
        "{}",
        human.stderr
    );
    let one = repo.run(["--json", "mark", "b", "merged"]).json();
    assert_eq!(one["id"], "b", "{one}");
    // The status still comes last: a run id there is a usage error.
    repo.run(["mark", "a", "merged", "b"]).code(2);
}

/// A mistyped run id gets the recorded id it was probably meant to be, in
/// every command that takes an existing id (restore: the salvaged ids);
/// nothing is suggested for an id that is near none.
#[test]
fn a_mistyped_id_gets_did_you_mean_in_every_command_that_takes_one() {
    let repo = TestRepo::new();
    repo.create("fix-login");
    for args in [
        &["mark", "fix-logn", "merged"][..],
        &["remove", "fix-logn"],
        &["path", "fix-logn"],
        &["run", "fix-logn", "--", "true"],
    ] {
        let run = repo.run([&["--json"][..], args].concat());
        run.code(1);
        assert_eq!(run.json()["error"]["code"], "unknown-id", "{args:?}");
        let message = run.json()["error"]["message"].as_str().unwrap().to_owned();
        assert!(
            message.ends_with("; did you mean fix-login?"),
            "{args:?}: {message}"
        );
        assert!(
            run.stderr.contains("did you mean fix-login?"),
            "{}",
            run.stderr
        );
    }
    let log = repo.run(["log", "fix-logn"]);
    log.ok();
    assert!(
        log.stderr.contains("did you mean fix-login?"),
        "{}",
        log.stderr
    );
    let far = repo.run(["mark", "refactor", "merged"]);
    far.code(1);
    assert!(!far.stderr.contains("did you mean"), "{}", far.stderr);

    repo.run(["mark", "fix-login", "rejected"]).ok();
    fs::write(repo.wt("fix-login").join("new-file"), "work\n").unwrap();
    repo.run(["remove", "--salvage", "fix-login"]).ok();
    let restore = repo.run(["--json", "restore", "fix-logn"]);
    restore.code(1);
    assert_eq!(restore.json()["error"]["code"], "no-salvage");
    assert!(
        restore.stderr.contains("did you mean fix-login?"),
        "{}",
        restore.stderr
    );
}

/// `mark <STATUS>` with no id, inside a run's worktree (at any depth), marks
/// that run; from the main checkout, a pool member or a directory of
/// `.loop-worktrees/` no run records it is a usage error (2) that names the
/// directory, and nothing changes. Naming the runs works as before.
#[test]
fn mark_with_no_id_marks_the_run_whose_worktree_holds_the_directory() {
    let repo = TestRepo::new();
    repo.create("a");
    repo.create("b");
    let deep = repo.wt("a").join("sub/deep");
    fs::create_dir_all(&deep).unwrap();
    let from = |dir: &std::path::Path, args: &[&str]| {
        TestRepo::output(repo.command().current_dir(dir).args(args))
    };
    let run = from(&deep, &["mark", "rejected"]);
    run.ok();
    assert_eq!(run.stderr, "a: active -> rejected\n");
    assert_eq!(repo.status_of("a").unwrap(), "rejected");
    assert_eq!(repo.status_of("b").unwrap(), "active");
    let json = from(&repo.wt("a"), &["--json", "mark", "escalated"]).json();
    assert_eq!(
        (&json["id"], &json["status"]),
        (&"a".into(), &"escalated".into())
    );
    // -C is where the command runs from, as git's own -C.
    repo.run(["-C", ".loop-worktrees/b", "mark", "stale"]).ok();
    assert_eq!(repo.status_of("b").unwrap(), "stale");
    // Named runs still come first, from anywhere.
    from(&deep, &["mark", "b", "active"]).ok();
    assert_eq!(repo.status_of("b").unwrap(), "active");
    repo.run(["mark", "a", "b", "merged"]).ok();

    repo.run(["pool", "fill", "1"]).ok();
    let member = fs::read_dir(repo.loop_dir().join(".pool"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.is_dir() && !p.ends_with(".new"))
        .unwrap();
    let stray = repo.loop_dir().join("stray");
    fs::create_dir(&stray).unwrap();
    let before = fs::read(repo.manifest_path()).unwrap();
    for (dir, what) in [
        (repo.root.clone(), ""),
        (repo.root.join(".loop-worktrees"), ""),
        (
            member.clone(),
            " (it is in .loop-worktrees/.pool/, the warm pool",
        ),
        (
            stray.clone(),
            " (it is in .loop-worktrees/stray, which no run records)",
        ),
    ] {
        let run = from(&dir, &["--json", "mark", "rejected"]);
        run.code(2);
        assert_eq!(run.json()["error"]["code"], "usage", "{}", dir.display());
        let said = format!("{} is not inside a run's worktree{what}", dir.display());
        assert!(run.stderr.contains(&said), "{said:?} in {}", run.stderr);
        assert!(
            run.stderr.contains("git loop mark <RUN_ID> rejected"),
            "{}",
            run.stderr
        );
    }
    assert_eq!(fs::read(repo.manifest_path()).unwrap(), before);
    // No status at all is still clap's own usage error.
    from(&deep, &["mark"]).code(2);
}

/// Marking `merged` a run whose commits are not in its base warns (the
/// Quick start's old trap: the worktree removed, main never moved) and
/// names the command that lands it; nothing else changes (it is marked).
#[test]
fn mark_merged_of_work_not_in_its_base_warns_and_names_land() {
    let repo = TestRepo::new();
    repo.create("x").ok();
    crate::common::commit(&repo, &repo.wt("x"), "fix", "fix\n");
    let run = repo.run(["mark", "x", "merged"]);
    run.ok();
    assert!(
        run.stderr.contains("warning: loop/x is not in main")
            && run.stderr.contains("`git loop land x`"),
        "{}",
        run.stderr
    );
    assert_eq!(repo.status_of("x").unwrap(), "merged");
    repo.run(["mark", "x", "active"]).ok();
    let json = repo.run(["--json", "mark", "x", "merged"]);
    json.ok();
    let warnings = json.json()["warnings"].clone();
    assert!(
        warnings[0].as_str().unwrap().contains("git loop land x"),
        "{}",
        json.json()
    );
}

/// A run whose work is in its base (merged by git), or with no commits of
/// its own, is marked `merged` without a word.
#[test]
fn mark_merged_of_work_in_its_base_or_of_no_work_does_not_warn() {
    let repo = TestRepo::new();
    repo.create("x").ok();
    repo.create("empty").ok();
    crate::common::commit(&repo, &repo.wt("x"), "fix", "fix\n");
    repo.git(["merge", "-q", "--ff-only", "loop/x"]);
    for id in ["x", "empty"] {
        let run = repo.run(["--json", "mark", id, "merged"]);
        run.ok();
        assert!(!run.stderr.contains("warning"), "{}", run.stderr);
        assert!(run.json().get("warnings").is_none(), "{}", run.json());
    }
}

/// `mark <id>` with no status says the status is missing (naming the
/// command to type), not that the id is an invalid status; a wrong status
/// after an id is still an invalid value. Both exit 2, nothing changed.
#[test]
fn a_missing_status_is_called_missing() {
    let repo = TestRepo::new();
    repo.create("behind1").ok();
    let run = repo.run(["--json", "mark", "behind1"]);
    run.code(2);
    assert!(
        run.stderr.starts_with(
            "error: missing <STATUS> after 'behind1': git loop mark behind1 <STATUS>\n"
        ),
        "{}",
        run.stderr
    );
    assert_eq!(run.json()["error"]["code"], "usage");
    let wrong = repo.run(["mark", "behind1", "done"]);
    wrong.code(2);
    assert!(
        wrong.stderr.contains("invalid value 'done'"),
        "{}",
        wrong.stderr
    );
    assert_eq!(repo.status_of("behind1").unwrap(), "active");
}
