//! The in-process checkout stopped or failed half-way (the fixture aged,
//! so it is the path taken): a `kill -9` after the files were written and
//! before the index was leaves the user's work as it was and is recognised
//! with a recipe that finishes it; an I/O failure at any of its steps puts
//! the files back and `git read-tree` finishes the landing instead.

use std::path::Path;
use std::process::Command;

use super::super::*;
use super::clean::aged;
use super::crash::crash_at;
use super::fixture::{Fixture, read};

/// The fixture's landing, with the user's own work outside it (a staged
/// change, an unstaged one, an untracked file), all of it aged so the
/// in-process checkout is certain.
fn prepared() -> (Fixture, ObjectId, ObjectId) {
    let f = Fixture::new();
    let (old, new) = f.landing();
    f.users_work();
    aged(&f);
    (f, old, new)
}

fn landed_files(f: &Fixture, why: &str) {
    assert_eq!(read(&f.root, "a"), "a2\n", "{why}");
    assert_eq!(read(&f.root, "d"), "d2\n", "{why}");
    assert!(!f.root.join("c").exists(), "{why}: c");
}

/// Temp files of the in-process checkout left in the git dir.
fn temps(git_dir: &Path) -> Vec<String> {
    std::fs::read_dir(git_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("loop-land-"))
        .collect()
}

#[test]
fn a_kill_after_the_files_before_the_index_loses_nothing_and_says_how_to_finish() {
    let (f, old, new) = prepared();
    // Aborts only if the in-process checkout ran: it is the path taken.
    crash_at("land-after-files", &f, old, new);
    assert_eq!(f.id("main"), new);
    landed_files(&f, "after the kill");
    f.users_work_intact("after the kill");
    let git_dir = f.root.join(".git");
    assert!(
        git_dir.join("index.lock").exists(),
        "the index stays locked"
    );
    // The next landing recognises it and says how to finish.
    let newer = f.commit_on(new, &[("a", Some("a3\n"))]);
    let Advance::TargetBusy { operation, .. } = check(&f.repo(), "main", new, newer).unwrap()
    else {
        panic!("not recognised");
    };
    assert!(operation.contains("index.lock"), "{operation}");
    let recipe = format!("git read-tree -m -i {old} {new}");
    assert!(operation.contains(&recipe), "{operation}");
    // The recipe works: the checkout is then the landing's, the user's
    // work still beside it.
    // As the user would: `rm` in the git dir.
    let mut rm = vec!["index.lock".to_owned()];
    rm.extend(temps(&git_dir));
    let removed = Command::new("rm").args(&rm).current_dir(&git_dir).status();
    assert!(removed.unwrap().success());
    f.git(
        &f.root,
        &["read-tree", "-m", "-i", &old.to_string(), &new.to_string()],
    );
    assert_eq!(f.status(&f.root), "M  b\n M e\n?? notes.txt");
    f.users_work_intact("finished");
    let next = check(&f.repo(), "main", new, newer).unwrap();
    assert!(matches!(next, Advance::Moved { .. }), "{next:?}");
}

/// The child run with `GIT_LOOP_TEST_FAIL=<point>` (empty: none), traced:
/// its outcome and whether it ran `git read-tree -m -u` for real.
fn failing_at(point: &str, f: &Fixture, old: ObjectId, new: ObjectId) -> (String, bool) {
    let trace = f.dir.path().join(format!("trace-{point}"));
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "ops::land::advance::tests::crash::child"])
        .args(["--ignored", "--test-threads=1", "--nocapture"])
        .env(
            "GIT_LOOP_TEST_ADVANCE_CHILD",
            format!("{}\n{old}\n{new}", f.root.display()),
        )
        .env("GIT_LOOP_TEST_FAIL", point)
        .env_remove("GIT_LOOP_TEST_CRASH")
        .env("GIT_TRACE", &trace)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{point}: {stdout}");
    let outcome = stdout
        .lines()
        .find_map(|l| l.split_once("OUTCOME ").map(|(_, o)| o))
        .unwrap_or_else(|| panic!("{point}: no outcome in {stdout}"))
        .to_owned();
    let traced = std::fs::read_to_string(&trace).unwrap_or_default();
    let git_wrote = traced
        .lines()
        .any(|l| l.contains(" read-tree -m -u ") && !l.contains(" -n "));
    (outcome, git_wrote)
}

#[test]
fn a_failure_at_any_step_puts_the_files_back_and_git_finishes_the_landing() {
    // Without a failure the in-process checkout lands it: git writes nothing.
    let (f, old, new) = prepared();
    let (outcome, git_wrote) = failing_at("", &f, old, new);
    assert!(outcome.starts_with("Ok(Moved"), "{outcome}");
    assert!(!git_wrote, "the plain case is written in process");
    for point in [
        "land-checkout-delete",
        "land-checkout-write",
        "land-checkout-index",
    ] {
        let (f, old, new) = prepared();
        let (outcome, git_wrote) = failing_at(point, &f, old, new);
        assert!(outcome.starts_with("Ok(Moved"), "{point}: {outcome}");
        assert!(git_wrote, "{point}: git read-tree finished it");
        assert_eq!(f.id("main"), new, "{point}");
        landed_files(&f, point);
        f.users_work_intact(point);
        assert_eq!(f.status(&f.root), "M  b\n M e\n?? notes.txt", "{point}");
        let git_dir = f.root.join(".git");
        assert!(!git_dir.join("index.lock").exists(), "{point}: lock left");
        assert_eq!(temps(&git_dir), Vec::<String>::new(), "{point}");
    }
}
