//! What a landing leaves in the run's worktree, and what finishes it:
//! landed from a shell inside the worktree, the worktree is kept (in use)
//! and the report gives the command to run once out of it; an untracked
//! scratch file does not block a landing (it is not what lands) unless
//! `land.require-clean` says so, and it is never removed with the
//! worktree. Each "to finish" command is run as given, through a shell.

use std::path::Path;

use super::{land, setup, shell, three_commits};
use crate::common::{JsonExt, git_line};

/// The note of `doc`'s landed run `id` that starts `to finish: `: the
/// command after its last `: `.
fn to_finish(doc: &serde_json::Value, id: &str) -> String {
    let run = doc.find_id("landed", id);
    let note = run
        .arr("notes")
        .iter()
        .filter_map(|n| n.as_str())
        .find(|n| n.starts_with("to finish: "))
        .unwrap_or_else(|| panic!("no `to finish` note: {run}"));
    note.rsplit(": ").next().unwrap().to_owned()
}

fn canonical(path: &Path) -> String {
    std::fs::canonicalize(path).unwrap().display().to_string()
}

/// Landed from a shell whose working directory is the run's worktree: the
/// landing stands, the worktree is kept (`in-use`: the shell and git-loop
/// are in it), the branch is kept naming the worktree it is checked out
/// in, and the note gives the command that finishes it from there.
#[test]
fn landing_from_inside_the_worktree_says_how_to_finish_from_outside() {
    let repo = setup();
    three_commits(&repo, "x");
    let wt = repo.wt("x");
    let tip = git_line(&repo, &repo.root, &["rev-parse", "loop/x"]);
    let (code, stdout, stderr) = shell(&repo, &wt, "git loop --json land");
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let run = doc.find_id("landed", "x");
    assert_eq!(run["worktree"], "in-use", "{doc}");
    assert_eq!(run["branch"], "kept", "{doc}");
    let notes: Vec<&str> = run.arr("notes").iter().filter_map(|n| n.as_str()).collect();
    assert!(
        notes.contains(
            &format!("branch kept: loop/x is checked out in {}", canonical(&wt)).as_str()
        ),
        "the branch's note names the worktree it is checked out in: {notes:?}"
    );
    let next = to_finish(&doc, "x");
    assert_eq!(
        next,
        format!(
            "cd {} && git loop remove x && git loop branches --delete-merged",
            canonical(&repo.root)
        )
    );
    assert_eq!(
        git_line(&repo, &repo.root, &["log", "-1", "--format=%s", "main"]),
        "Three",
        "landed"
    );
    let (code, stdout, stderr) = shell(&repo, &wt, &next);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(!wt.exists(), "the worktree is removed");
    assert!(!repo.branch_exists("loop/x"), "the branch is deleted");
    assert!(
        repo.git(["for-each-ref", "--format=%(objectname)", "refs/loop/trash/"])
            .contains(tip.trim()),
        "its tip kept in the trash"
    );
    assert!(repo.ids().is_empty(), "{:?}", repo.ids());
}

/// The text of a landing from inside: the worktree kept as in use, and the
/// command to run after leaving it.
#[test]
fn landing_from_inside_says_in_its_text_to_leave_and_what_to_run() {
    let repo = setup();
    three_commits(&repo, "t");
    let (code, stdout, stderr) = shell(&repo, &repo.wt("t"), "git loop land");
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(stdout.contains("worktree kept (in-use)"), "{stdout}");
    assert!(
        stderr.contains(&format!(
            "t: to finish: out of the worktree, once nothing works in it, remove it: cd {} && git loop remove t",
            canonical(&repo.root)
        )),
        "{stderr}"
    );
}

/// An untracked scratch file in the run's worktree does not block the
/// landing of its commits; the worktree is kept for it (`untracked`, as
/// cleanup keeps it), the file untouched, and the note's command saves it
/// before removing the worktree. `land.require-clean` refuses instead.
#[test]
fn an_untracked_scratch_file_lands_the_commits_and_keeps_the_file() {
    let repo = setup();
    three_commits(&repo, "u");
    let scratch = repo.wt("u").join("notes.txt");
    std::fs::write(&scratch, "my notes\n").unwrap();
    let doc = land(&repo, &["u"], 0);
    let run = doc.find_id("landed", "u");
    assert_eq!(run["worktree"], "untracked", "{doc}");
    assert_eq!(std::fs::read_to_string(&scratch).unwrap(), "my notes\n");
    assert_eq!(
        git_line(&repo, &repo.root, &["log", "-1", "--format=%s", "main"]),
        "Three"
    );
    assert!(
        !repo.root.join("notes.txt").exists(),
        "the scratch file did not land"
    );
    let next = to_finish(&doc, "u");
    assert!(
        next.ends_with("git loop remove u --salvage && git loop branches --delete-merged"),
        "{next}"
    );
    let (code, stdout, stderr) = shell(&repo, &repo.root, &next);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(!repo.wt("u").exists());
    assert!(!repo.branch_exists("loop/u"));
    let saved = git_line(
        &repo,
        &repo.root,
        &["show", "refs/loop/salvage/u:notes.txt"],
    );
    assert_eq!(saved, "my notes", "the scratch file is saved, not lost");
}

/// `land.require-clean` (git config `loop.landRequireClean`) restores the
/// refusal: untracked files refuse the landing (`dirty`), nothing moves.
#[test]
fn require_clean_refuses_a_worktree_with_untracked_files() {
    let repo = setup();
    three_commits(&repo, "r");
    std::fs::write(repo.wt("r").join("notes.txt"), "my notes\n").unwrap();
    let main = git_line(&repo, &repo.root, &["rev-parse", "main"]);
    repo.git(["config", "loop.landRequireClean", "true"]);
    let doc = land(&repo, &["r"], 1);
    let skipped = doc.find_id("skipped", "r");
    assert_eq!(skipped["code"], "dirty", "{doc}");
    assert!(
        skipped
            .text("message")
            .contains("untracked files (land.require-clean is set)"),
        "{skipped}"
    );
    assert_eq!(git_line(&repo, &repo.root, &["rev-parse", "main"]), main);
}

/// Landed from inside a worktree that also holds a scratch file: both are
/// said, and the command saves the file before removing the worktree.
#[test]
fn landing_from_inside_with_a_scratch_file_saves_it_when_finishing() {
    let repo = setup();
    three_commits(&repo, "s");
    let wt = repo.wt("s");
    std::fs::write(wt.join("notes.txt"), "my notes\n").unwrap();
    let (code, stdout, stderr) = shell(&repo, &wt, "git loop --json land");
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(doc.find_id("landed", "s")["worktree"], "in-use", "{doc}");
    let next = to_finish(&doc, "s");
    assert!(next.contains("git loop remove s --salvage &&"), "{next}");
    let (code, stdout, stderr) = shell(&repo, &wt, &next);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(!wt.exists() && !repo.branch_exists("loop/s"));
    assert_eq!(
        git_line(
            &repo,
            &repo.root,
            &["show", "refs/loop/salvage/s:notes.txt"]
        ),
        "my notes"
    );
}
