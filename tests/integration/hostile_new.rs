//! An adversarial review of the newest features (salvage, restore, the warm
//! pool, adoption, merged-branch deletion, claude-hook remove, MCP): each
//! test is a hole found and closed, or an attack that must keep holding.

use std::fs;

use crate::common::{JsonExt, TestRepo, commit, git_ok};

/// A merge driver that keeps "ours" (the base's side) makes merging the
/// branch into its base change nothing, although the branch's change is
/// not in the base: that is no proof the work is there, and the branch
/// must be kept.
#[test]
fn a_keep_ours_merge_driver_does_not_prove_a_branch_squash_merged() {
    let repo = TestRepo::new();
    commit(&repo, &repo.root, "f", "one\ntwo\nthree\n");
    repo.create("r");
    commit(&repo, &repo.wt("r"), "f", "one\nBRANCH WORK\nthree\n");
    commit(&repo, &repo.root, "f", "one\nmain change\nthree\n");
    fs::write(repo.root.join(".gitattributes"), "f merge=keep\n").unwrap();
    git_ok(&repo, &repo.root, &["add", ".gitattributes"]);
    git_ok(&repo, &repo.root, &["commit", "-q", "-m", "attrs"]);
    git_ok(&repo, &repo.root, &["config", "merge.keep.driver", "true"]);
    repo.run(["mark", "r", "rejected"]).ok();
    let doc = repo
        .run(["--json", "cleanup", "--delete-merged-branches"])
        .json();
    let r = doc.find_id("removed", "r");
    assert_eq!(r["branchDeleted"], false, "{doc}");
    assert!(repo.branch_exists("loop/r"));
    let long = repo.run(["--json", "branches"]).json();
    assert!(!long.to_string().contains("\"squash\""), "{long}");
}

/// A salvage ref whose message records an entry the manifest's validation
/// refuses (an empty base): restore must not write it into the manifest
/// (a manifest that fails validation stops every later command).
#[test]
fn restore_never_writes_an_entry_that_fails_validation() {
    let repo = TestRepo::new();
    let entry = r#"{"id":"x","path":".loop-worktrees/x","branch":"loop/x","baseBranch":"","pattern":"","createdAt":"2026-11-30T14:44:32Z","status":"merged"}"#;
    let message = format!("salvage x\n\n{entry}\n");
    let index = repo.git(["commit-tree", "HEAD^{tree}", "-m", "index"]);
    let commit = repo
        .git([
            "commit-tree",
            "HEAD^{tree}",
            "-p",
            "HEAD",
            "-p",
            index.trim(),
            "-m",
            &message,
        ])
        .trim()
        .to_owned();
    repo.git(["update-ref", "refs/loop/salvage/x", &commit]);
    repo.run(["restore", "x"]).ok();
    repo.run(["list"]).ok();
    let m = repo.manifest();
    let e = &m["worktrees"][0];
    assert_eq!(e["id"], "x");
    assert_ne!(e["baseBranch"], "", "{m}");
    assert_ne!(e["pattern"], "", "{m}");
}

/// `loop.base` naming a leftover `loop/*` branch: that branch is its own
/// base (its tip "is in" the base), and the branches merged into it are
/// merged only as long as it stays. It must never be deleted as merged.
#[test]
fn branches_never_deletes_the_branch_its_base_names() {
    let repo = TestRepo::new();
    repo.git(["branch", "loop/foo"]);
    let foo = repo.root.join("foo-wt");
    git_ok(
        &repo,
        &repo.root,
        &["worktree", "add", "-q", foo.to_str().unwrap(), "loop/foo"],
    );
    commit(&repo, &foo, "foo-work", "precious\n");
    git_ok(
        &repo,
        &repo.root,
        &["worktree", "remove", foo.to_str().unwrap()],
    );
    repo.git(["branch", "loop/x", "loop/foo"]);
    repo.git(["config", "loop.base", "loop/foo~0"]);
    let doc = repo.run(["--json", "branches", "--delete-merged"]).json();
    assert!(repo.branch_exists("loop/foo"), "{doc}");
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

/// A sparse run recycled into the pool stays sparse (its patterns live in
/// its admin dir): a later plain create must not take it and hand out a
/// worktree with files missing.
#[test]
fn a_recycled_sparse_run_is_not_handed_to_a_plain_create() {
    let repo = TestRepo::new();
    fs::create_dir_all(repo.root.join("a")).unwrap();
    fs::create_dir_all(repo.root.join("b")).unwrap();
    fs::write(repo.root.join("a/one"), "1\n").unwrap();
    fs::write(repo.root.join("b/two"), "2\n").unwrap();
    repo.git(["add", "."]);
    repo.git(["commit", "-q", "-m", "dirs"]);
    repo.git(["config", "loop.poolSize", "2"]);
    repo.run(["create", "s", "--pattern", "p", "--sparse", "a"])
        .ok();
    assert!(!repo.wt("s").join("b/two").exists());
    repo.run(["mark", "s", "rejected"]).ok();
    repo.run(["cleanup", "--recycle"]).ok();
    repo.run(["create", "plain", "--pattern", "p"]).ok();
    assert!(
        repo.wt("plain").join("b/two").exists(),
        "a plain create got a sparse worktree"
    );
}

/// Salvage against conversions and odd names: with `core.autocrlf` a CRLF
/// file is saved converted, so the saved tree is not the files — the
/// salvage must refuse and keep the worktree byte for byte; files named
/// like git options are saved and restored as they are.
#[test]
fn salvage_refuses_a_converting_add_and_keeps_option_like_names() {
    let repo = TestRepo::new();
    repo.create("crlf");
    let wt = repo.wt("crlf");
    fs::write(wt.join("win.txt"), "a\r\nb\r\n").unwrap();
    git_ok(&repo, &wt, &["config", "core.autocrlf", "true"]);
    repo.run(["mark", "crlf", "rejected"]).ok();
    let run = repo.run(["remove", "--salvage", "crlf"]);
    eprintln!("{}{}", run.stdout, run.stderr);
    assert_eq!(fs::read(wt.join("win.txt")).unwrap(), b"a\r\nb\r\n");
    git_ok(&repo, &wt, &["config", "core.autocrlf", "false"]);

    repo.create("opts");
    let wt = repo.wt("opts");
    for name in ["--force", "-A", ":(glob)*", "-"] {
        fs::write(wt.join(name), name).unwrap();
    }
    repo.run(["mark", "opts", "rejected"]).ok();
    repo.run(["remove", "--salvage", "opts"]).ok();
    assert!(!wt.exists());
    repo.run(["restore", "opts"]).ok();
    for name in ["--force", "-A", ":(glob)*", "-"] {
        assert_eq!(fs::read_to_string(wt.join(name)).unwrap(), name);
    }
}

/// A change git does not look at — a tracked file flagged assume-unchanged
/// or skip-worktree, then edited — makes `git worktree remove` (never
/// forced) delete it silently. Removal and recycling must keep it.
#[test]
fn a_change_hidden_by_assume_unchanged_or_skip_worktree_is_never_removed() {
    let repo = TestRepo::new();
    for (id, flag) in [("au", "--assume-unchanged"), ("sw", "--skip-worktree")] {
        repo.create(id);
        let wt = repo.wt(id);
        git_ok(&repo, &wt, &["update-index", flag, "README"]);
        fs::write(wt.join("README"), "hidden work\n").unwrap();
        repo.run(["mark", id, "rejected"]).ok();
    }
    repo.run(["remove", "au"]);
    repo.run(["remove", "--salvage", "au"]);
    repo.git(["config", "loop.poolSize", "2"]);
    repo.run(["cleanup", "--recycle"]);
    for id in ["au", "sw"] {
        assert_eq!(
            fs::read_to_string(repo.wt(id).join("README")).unwrap(),
            "hidden work\n",
            "{id}"
        );
    }
}

/// `status.showUntrackedFiles=no` hides untracked files from the `git
/// status` that `git worktree remove` asks, which then deletes them. The
/// removal must still refuse (`untracked`), on every path that removes.
#[test]
fn untracked_files_hidden_by_show_untracked_files_no_are_never_removed() {
    let repo = TestRepo::new();
    repo.git(["config", "status.showUntrackedFiles", "no"]);
    for id in ["a", "b", "c"] {
        repo.create(id);
        fs::write(repo.wt(id).join("precious"), "work\n").unwrap();
        repo.run(["mark", id, "rejected"]).ok();
    }
    let run = repo.run(["--json", "remove", "a"]);
    assert!(run.stdout.contains("untracked"), "{}", run.stdout);
    repo.run(["cleanup"]);
    repo.git(["config", "loop.poolSize", "2"]);
    repo.run(["cleanup", "--recycle"]);
    for id in ["a", "b", "c"] {
        assert_eq!(
            fs::read_to_string(repo.wt(id).join("precious")).unwrap(),
            "work\n",
            "{id}"
        );
    }
}

/// A `core.fsmonitor` that hides a change (here a hook that always answers
/// "nothing changed since the last token", as a crashed or stale watcher
/// can) blinds the `git status` that `git worktree remove` asks: git then
/// deleted a modified tracked file. The removal runs with the monitor off.
#[test]
fn a_change_hidden_by_a_lying_fsmonitor_is_never_removed() {
    use std::os::unix::fs::PermissionsExt;
    let repo = TestRepo::new();
    let hook = repo.base().join("fsmonitor-lies.sh");
    fs::write(&hook, "#!/bin/sh\nprintf 'token\\0'\n").unwrap();
    fs::set_permissions(&hook, fs::Permissions::from_mode(0o755)).unwrap();
    repo.git(["config", "core.fsmonitor", hook.to_str().unwrap()]);
    repo.create("f");
    let wt = repo.wt("f");
    // A first status records the monitor's token in the index.
    git_ok(&repo, &wt, &["status", "--porcelain"]);
    fs::write(wt.join("README"), "work the monitor never reported\n").unwrap();
    // The lie: git's own status sees nothing.
    assert_eq!(git_ok(&repo, &wt, &["status", "--porcelain"]), "");
    repo.run(["mark", "f", "rejected"]).ok();
    let run = repo.run(["--json", "cleanup"]);
    assert_eq!(
        run.json().arr("skipped")[0]["code"],
        "dirty",
        "{}",
        run.stdout
    );
    assert_eq!(
        fs::read_to_string(wt.join("README")).unwrap(),
        "work the monitor never reported\n"
    );
}

/// The `rebase` proof matched hunks without their place: the same line
/// added elsewhere in the same file had the same patch id, and the branch,
/// whose version is not in its base, was deleted as rebase-merged.
#[test]
fn a_line_added_elsewhere_in_the_file_is_not_proof_of_a_rebase() {
    let repo = TestRepo::new();
    commit(&repo, &repo.root, "f", "a\nb\nc\nd\ne\nf\ng\nh\n");
    repo.create("r");
    commit(&repo, &repo.wt("r"), "f", "a\nX\nb\nc\nd\ne\nf\ng\nh\n");
    commit(&repo, &repo.root, "f", "a\nb\nc\nd\ne\nf\ng\nh\nX\n");
    repo.run(["mark", "r", "rejected"]).ok();
    let doc = repo
        .run(["--json", "cleanup", "--delete-merged-branches"])
        .json();
    assert!(repo.branch_exists("loop/r"), "{doc}");
}

/// `claude-hook remove` given `.loop-worktrees/<id>` that is a symlink to
/// the main worktree (the run's directory replaced), or a path with `..`
/// components: the main worktree and its files are never touched.
#[test]
fn claude_hook_remove_never_touches_what_a_symlink_or_dots_name() {
    use std::io::Write;
    use std::process::Stdio;
    let repo = TestRepo::new();
    repo.create("x");
    fs::write(repo.root.join("untracked-main"), "main work\n").unwrap();
    let wt = repo.wt("x");
    git_ok(
        &repo,
        &repo.root,
        &["worktree", "move", wt.to_str().unwrap(), "../moved"],
    );
    std::os::unix::fs::symlink(&repo.root, &wt).unwrap();
    let dotted = repo.loop_dir().join("x").join("..").join("..");
    for path in [wt.clone(), dotted] {
        let payload = serde_json::json!({"worktree_path": path}).to_string();
        let mut child = repo
            .command()
            .current_dir(&repo.root)
            .args(["claude-hook", "remove"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(payload.as_bytes())
            .unwrap();
        let _ = child.wait_with_output().unwrap();
    }
    assert_eq!(
        fs::read_to_string(repo.root.join("untracked-main")).unwrap(),
        "main work\n"
    );
    assert!(repo.root.join("README").exists());
    assert!(repo.base().join("moved/README").exists());
}
