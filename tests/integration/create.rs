//! `git loop create`: the worktree, branch, manifest entry and ignore line
//! (`.gitignore` or `.git/info/exclude`) it makes; the base (`--base`, the
//! default branch); run-id and usage validation; refusals (an active
//! duplicate, an existing branch, a bare or non-repository) and the
//! rollback of a failed manifest write. Options with their own files:
//! `--reuse` create_reuse.rs, `--fetch` create_fetch.rs, `--sparse`
//! create_sparse.rs, copies create_copy.rs and create_reflink.rs.

use std::fs;

use crate::common::{Run, TestRepo, json_message, manifest_with};

#[test]
fn create_makes_worktree_branch_entry_and_gitignore() {
    let repo = TestRepo::new();
    let run = repo.create("run-1");
    let wt = repo.wt("run-1");
    assert_eq!(run.stdout, format!("{}\n", wt.display()));
    assert!(wt.join("README").is_file());
    assert!(repo.registered().contains(&wt));
    assert_eq!(
        repo.git_in(&wt, ["symbolic-ref", "HEAD"]).stdout,
        b"refs/heads/loop/run-1\n"
    );
    let entry = &repo.manifest()["worktrees"][0];
    let keys: Vec<&str> = entry
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys.len(), 7, "exactly the contract's keys: {keys:?}");
    assert_eq!(entry["id"], "run-1");
    assert_eq!(entry["path"], ".loop-worktrees/run-1");
    assert_eq!(entry["branch"], "loop/run-1");
    assert_eq!(entry["baseBranch"], "main");
    assert_eq!(entry["pattern"], "test");
    assert_eq!(entry["status"], "active");
    let created = entry["createdAt"].as_str().unwrap();
    assert!(
        created.ends_with('Z') && created.parse::<jiff::Timestamp>().is_ok(),
        "{created}"
    );
    assert_eq!(
        fs::read_to_string(repo.root.join(".gitignore")).unwrap(),
        ".loop-worktrees/\n"
    );
    // 2-space pretty JSON with a final newline.
    let text = fs::read_to_string(repo.manifest_path()).unwrap();
    assert!(
        text.starts_with("{\n  \"version\": 1,\n  \"worktrees\": [\n"),
        "{text}"
    );
    assert!(text.ends_with("}\n"));
    // The worktree's contents never show up as untracked in the main worktree.
    assert_eq!(
        repo.git(["status", "--porcelain", "--untracked-files=all"]),
        "?? .gitignore\n"
    );
}

#[test]
fn gitignore_is_appended_once_and_handles_a_missing_newline() {
    let repo = TestRepo::new();
    fs::write(repo.root.join(".gitignore"), "target").unwrap();
    repo.create("a");
    repo.run(["mark", "a", "merged"]).ok();
    repo.create("b");
    assert_eq!(
        fs::read_to_string(repo.root.join(".gitignore")).unwrap(),
        "target\n.loop-worktrees/\n"
    );
    let repo = TestRepo::new();
    fs::write(repo.root.join(".gitignore"), "/.loop-worktrees\n").unwrap();
    repo.create("a");
    assert_eq!(
        fs::read_to_string(repo.root.join(".gitignore")).unwrap(),
        "/.loop-worktrees\n"
    );
}

#[test]
fn create_json_prints_the_entry() {
    let repo = TestRepo::new();
    let run = repo.run(["--json", "create", "j", "--pattern", "label with spaces"]);
    run.ok();
    let mut v = run.json();
    // The entry, and the absolute path beside it.
    let abs = v.as_object_mut().unwrap().remove("absolutePath").unwrap();
    assert_eq!(abs, repo.wt("j").to_str().unwrap());
    assert_eq!(v, repo.manifest()["worktrees"][0]);
    assert_eq!(v["pattern"], "label with spaces");
}

#[test]
fn create_from_a_subdirectory_and_from_inside_a_loop_worktree_uses_one_manifest() {
    let repo = TestRepo::new();
    fs::create_dir_all(repo.root.join("sub/dir")).unwrap();
    let run = TestRepo::output(repo.command().current_dir(repo.root.join("sub/dir")).args([
        "create",
        "a",
        "--pattern",
        "p",
    ]));
    run.ok();
    let run = TestRepo::output(repo.command().current_dir(repo.wt("a")).args([
        "create",
        "b",
        "--pattern",
        "p",
    ]));
    run.ok();
    assert_eq!(run.stdout.trim(), repo.wt("b").display().to_string());
    assert_eq!(repo.ids(), ["a", "b"]);
    assert!(!repo.wt("a").join(".loop-worktrees").exists());
    // -C from elsewhere, relative to the current directory.
    let run = TestRepo::output(repo.command().current_dir(repo.base()).args([
        "-C",
        "repo/sub",
        "create",
        "c",
        "--pattern",
        "p",
    ]));
    run.ok();
    assert_eq!(repo.ids(), ["a", "b", "c"]);
}

#[test]
fn create_base_option_and_bad_base() {
    let repo = TestRepo::new();
    repo.git(["checkout", "-q", "-b", "feature"]);
    fs::write(repo.root.join("feature.txt"), "f\n").unwrap();
    repo.git(["add", "feature.txt"]);
    repo.git(["commit", "-q", "-m", "feature"]);
    repo.git(["checkout", "-q", "main"]);
    repo.run(["create", "f", "--pattern", "p", "--base", "feature"])
        .ok();
    assert!(repo.wt("f").join("feature.txt").is_file());
    assert_eq!(repo.manifest()["worktrees"][0]["baseBranch"], "feature");

    let before = fs::read(repo.manifest_path()).unwrap();
    let run = repo.run(["create", "g", "--pattern", "p", "--base", "nope"]);
    run.code(1);
    assert!(
        run.stderr.contains("\"nope\"") && run.stderr.contains("loop.base"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("--base"),
        "names the layer: {}",
        run.stderr
    );
    assert_eq!(fs::read(repo.manifest_path()).unwrap(), before);
    assert!(!repo.branch_exists("loop/g"));
    assert!(!repo.wt("g").exists());
}

#[test]
fn default_base_main_missing_names_the_built_in_default() {
    let repo = TestRepo::new();
    // No main, master, origin/HEAD, and HEAD on no branch: nothing to guess.
    repo.git(["branch", "-m", "main", "trunk"]);
    repo.git(["checkout", "-q", "--detach"]);
    let run = repo.run(["--json", "create", "a", "--pattern", "p"]);
    run.code(1);
    assert_eq!(run.json()["error"]["code"], "base-not-found");
    assert!(run.stderr.contains("built-in default"), "{}", run.stderr);
    assert!(!repo.loop_dir().exists());
    assert!(!repo.root.join(".gitignore").exists());
}

#[test]
fn at_least_25_invalid_run_ids_are_refused_with_nothing_written() {
    let repo = TestRepo::new();
    let long = "x".repeat(129);
    let bad = [
        "",
        ".",
        "..",
        "a/b",
        "/abs",
        "a\\b",
        "-x",
        "--json",
        "a\u{1}b",
        "a\tb",
        "a\nb",
        ".hidden",
        "trail.",
        "x.lock",
        "a..b",
        "a@{1}",
        "a b",
        "a~1",
        "a^",
        "a:b",
        "a?",
        "a*",
        "a[b",
        "a\u{7f}",
        long.as_str(),
        "manifest.json",
        "..x",
        "@",
    ];
    assert!(bad.len() >= 25);
    for id in bad {
        let run = repo.run(["--json", "create", "--pattern", "p", "--", id]);
        run.code(2);
        assert_eq!(run.json()["error"]["code"], "invalid-run-id", "{id:?}");
        // mark and path refuse the same ids with the same code.
        repo.run(["mark", "--", id, "rejected"]).code(2);
        repo.run(["path", "--", id]).code(2);
    }
    assert!(!repo.loop_dir().exists(), "nothing written");
    assert!(!repo.root.join(".gitignore").exists());
    assert_eq!(repo.git(["branch", "--list", "loop/*"]), "");
    assert_eq!(repo.registered().len(), 1);
}

#[test]
fn ids_git_accepts_are_accepted() {
    let repo = TestRepo::new();
    for id in ["a.b", "ünï", "x@y", "UPPER_lower-09", "@@", "a@b"] {
        repo.create(id);
        assert!(repo.branch_exists(&format!("loop/{id}")), "{id}");
    }
}

#[test]
fn empty_pattern_is_a_usage_error() {
    let repo = TestRepo::new();
    repo.run(["create", "a", "--pattern", ""]).code(2);
    assert!(!repo.loop_dir().exists());
}

/// Without `--pattern` the run records the setting `create.pattern`,
/// `manual` when nothing sets it; a pattern typed wins.
#[test]
fn the_pattern_comes_from_create_pattern_when_not_given() {
    let repo = TestRepo::new();
    let run = repo.run(["--json", "create", "a"]);
    run.ok();
    assert_eq!(run.json()["pattern"], "manual");
    repo.git(["config", "loop.createPattern", "agent"]);
    repo.run(["create", "b"]).ok();
    repo.run(["create", "c", "--pattern", "bugfix"]).ok();
    let list = repo.run(["--json", "list"]).json();
    let pattern = |id: &str| {
        list["worktrees"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["id"] == id)
            .unwrap()["pattern"]
            .clone()
    };
    assert_eq!(pattern("a"), "manual");
    assert_eq!(pattern("b"), "agent");
    assert_eq!(pattern("c"), "bugfix");
    // An invalid setting is refused, naming the key; nothing is made.
    repo.git(["config", "loop.createPattern", ""]);
    let bad = repo.run(["create", "d"]);
    bad.code(1);
    assert!(bad.stderr.contains("loop.createPattern"), "{}", bad.stderr);
    assert!(!repo.wt("d").exists());
}

#[test]
fn active_duplicate_is_refused_naming_its_path() {
    let repo = TestRepo::new();
    repo.create("dup");
    let before = fs::read(repo.manifest_path()).unwrap();
    let run = repo.run(["--json", "create", "dup", "--pattern", "p"]);
    run.code(1);
    assert_eq!(run.json()["error"]["code"], "active-exists");
    assert!(run.stderr.contains(".loop-worktrees/dup"), "{}", run.stderr);
    assert_eq!(fs::read(repo.manifest_path()).unwrap(), before);
}

#[test]
fn existing_branch_is_refused_and_never_reset() {
    let repo = TestRepo::new();
    repo.create("again");
    fs::write(repo.wt("again").join("work.txt"), "work\n").unwrap();
    repo.git_in(&repo.wt("again"), ["add", "work.txt"]);
    assert!(
        repo.git_in(&repo.wt("again"), ["commit", "-q", "-m", "work"])
            .status
            .success()
    );
    let tip = repo.git(["rev-parse", "loop/again"]);
    repo.run(["mark", "again", "merged"]).ok();
    repo.run(["cleanup", "--status", "merged"]).ok();
    assert!(!repo.wt("again").exists());
    let run = repo.run(["--json", "create", "again", "--pattern", "p"]);
    run.code(1);
    assert_eq!(run.json()["error"]["code"], "branch-exists");
    assert!(
        run.stderr.contains("loop/again") && run.stderr.contains("git branch -d"),
        "{}",
        run.stderr
    );
    assert_eq!(
        repo.git(["rev-parse", "loop/again"]),
        tip,
        "branch untouched"
    );
    assert!(!repo.wt("again").exists());

    // Once the branch is gone, the id can be reused and the old entry replaced.
    repo.git(["branch", "-D", "loop/again"]);
    repo.create("again");
    assert_eq!(repo.ids(), ["again"]);
}

#[test]
fn non_active_entry_with_the_same_id_is_replaced() {
    let repo = TestRepo::new();
    repo.write_manifest(&manifest_with(&[
        ("old", "rejected", "2026-01-01T00:00:00Z"),
        ("keep", "merged", "2026-01-02T00:00:00Z"),
    ]));
    repo.create("old");
    assert_eq!(repo.ids(), ["keep", "old"]);
    assert_eq!(repo.status_of("old").unwrap(), "active");
}

#[test]
fn failed_manifest_write_rolls_back_the_new_worktree_and_branch() {
    let repo = TestRepo::new();
    repo.create("first");
    let before = fs::read(repo.manifest_path()).unwrap();
    let run = TestRepo::output(
        repo.command()
            .env("GIT_LOOP_TEST_FAIL", "manifest-write")
            .args(["create", "second", "--pattern", "p"]),
    );
    run.code(1);
    assert!(
        run.stderr.contains("injected failure"),
        "reports the original error: {}",
        run.stderr
    );
    assert_eq!(fs::read(repo.manifest_path()).unwrap(), before);
    assert!(!repo.wt("second").exists());
    assert!(!repo.branch_exists("loop/second"));
    assert_eq!(repo.registered().len(), 2);
    assert!(!repo.mutex_path().exists());
    let leftovers: Vec<_> = fs::read_dir(repo.loop_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.starts_with(".manifest.json.tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    // And the id is usable right away.
    repo.create("second");
}

#[test]
fn bare_repository_and_non_repository_are_refused_naming_the_path() {
    let repo = TestRepo::new();
    let bare = repo.base().join("bare.git");
    repo.git(["clone", "-q", "--bare", ".", bare.to_str().unwrap()]);
    let run = TestRepo::output(repo.command().current_dir(&bare).args([
        "--json",
        "create",
        "a",
        "--pattern",
        "p",
    ]));
    run.code(1);
    assert_eq!(run.json()["error"]["code"], "bare-repo");
    assert!(run.stderr.contains("bare.git"), "{}", run.stderr);
    assert!(!bare.join(".loop-worktrees").exists());
    // The help gives the commands that set up the bare-repository layout
    // (bare.rs runs them).
    assert!(run.stderr.contains("mkdir "), "{}", run.stderr);
    assert!(run.stderr.contains("gitdir: ./.bare"), "{}", run.stderr);

    // A worktree of the bare repository outside the layout: refused too,
    // naming both, the bare path canonical (no `/../..`), nothing written.
    let wt = repo.base().join("wt-main");
    let added = repo.git_in(
        &bare,
        ["worktree", "add", "-q", wt.to_str().unwrap(), "main"],
    );
    assert!(added.status.success());
    let run = TestRepo::output(repo.command().current_dir(&wt).args([
        "--json",
        "create",
        "a",
        "--pattern",
        "p",
    ]));
    run.code(1);
    assert_eq!(run.json()["error"]["code"], "bare-repo");
    let message = json_message(&run);
    assert_eq!(
        message,
        format!(
            "{} is a worktree of the bare repository {} outside the bare-repository layout: git-loop needs a directory beside it to hold .loop-worktrees/",
            wt.display(),
            bare.display()
        )
    );
    assert!(!message.contains(".."), "{message}");
    assert!(!wt.join(".loop-worktrees").exists());

    let outside = repo.base().join("plain");
    fs::create_dir(&outside).unwrap();
    for args in [
        &["create", "a", "--pattern", "p"][..],
        &["list"],
        &["cleanup"],
        &["reconcile"],
    ] {
        let run = TestRepo::output(repo.command().current_dir(&outside).args(args));
        run.code(1);
        assert!(
            run.stderr.contains("not a git repository") && run.stderr.contains("plain"),
            "{}",
            run.stderr
        );
        // Said once: the path once, not again in gix's words.
        assert_eq!(run.stderr.matches("plain").count(), 1, "{}", run.stderr);
        assert!(
            run.stderr.contains("(nor any of its parents)"),
            "{}",
            run.stderr
        );
    }
    assert_eq!(fs::read_dir(&outside).unwrap().count(), 0);
    let run = repo.run(["-C", "/nonexistent/dir", "list"]);
    run.code(1);
    assert!(run.stderr.contains("/nonexistent/dir"), "{}", run.stderr);
}

#[test]
fn usage_errors_exit_2_with_json_error() {
    let repo = TestRepo::new();
    let run = repo.run(["--json", "create", "a", "--pattern", "p", "--bogus"]);
    run.code(2);
    assert_eq!(run.json()["error"]["code"], "usage");
    assert!(
        run.json()["error"]["message"]
            .as_str()
            .unwrap()
            .contains("--bogus")
    );
    repo.run(["frobnicate"]).code(2);
    repo.run(["mark", "a"]).code(2);
    repo.run(["path"]).code(2);
    repo.run(["--version"]).ok();
    let help = repo.run(["create", "--help"]);
    help.ok();
    assert!(help.stdout.contains("Example"), "{}", help.stdout);
    assert!(!repo.loop_dir().exists());
}

#[test]
fn post_checkout_hook_runs_as_git_worktree_add_runs_it() {
    let repo = TestRepo::new();
    let hook = repo.root.join(".git/hooks/post-checkout");
    fs::create_dir_all(hook.parent().unwrap()).unwrap();
    fs::write(&hook, "#!/bin/sh\necho \"$1 $2 $3\" > hook-args\ntest -f README && echo checked-out >> hook-args\n").unwrap();
    fs::set_permissions(&hook, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    repo.create("hooked");
    let head = repo.git(["rev-parse", "main"]);
    let args = fs::read_to_string(repo.wt("hooked").join("hook-args")).unwrap();
    assert_eq!(
        args,
        format!("{} {} 1\nchecked-out\n", "0".repeat(40), head.trim())
    );
    // Plain git gives the hook the same arguments.
    repo.git(["worktree", "add", "-q", "-b", "plain", "--", "../plain"]);
    let plain = fs::read_to_string(repo.base().join("plain/hook-args")).unwrap();
    assert_eq!(plain, args);
    // A failing hook is reported; the run is still created and recorded.
    fs::write(&hook, "#!/bin/sh\nexit 3\n").unwrap();
    let run = repo.run(["create", "failing", "--pattern", "p"]);
    run.ok();
    assert!(
        run.stderr.contains("post-checkout hook failed"),
        "{}",
        run.stderr
    );
    assert!(repo.ids().contains(&"failing".to_owned()));
}

/// `create` says once, on stderr, that it edited `.gitignore`.
#[test]
fn create_says_when_it_appends_to_gitignore() {
    let repo = TestRepo::new();
    let first = repo.create("a");
    assert!(
        first
            .stderr
            .contains("added .loop-worktrees/ to .gitignore")
            && first.stderr.contains("loop.createIgnoreFile"),
        "{}",
        first.stderr
    );
    let second = repo.create("b");
    assert!(!second.stderr.contains(".gitignore"), "{}", second.stderr);
}

/// `create.ignore-file = "info-exclude"` writes `.git/info/exclude` and
/// leaves the work tree clean; each layer can set it.
#[test]
fn ignore_file_info_exclude_keeps_the_work_tree_clean() {
    let repo = TestRepo::new();
    repo.git(["config", "loop.createIgnoreFile", "info-exclude"]);
    let run = repo.create("a");
    assert!(run.stderr.contains("info/exclude"), "{}", run.stderr);
    repo.create("b");
    assert!(!repo.root.join(".gitignore").exists());
    let exclude = fs::read_to_string(repo.root.join(".git/info/exclude")).unwrap();
    assert_eq!(exclude.matches(".loop-worktrees/").count(), 1, "{exclude}");
    assert_eq!(repo.git(["status", "--porcelain"]), "");

    let v = repo.run(["--json", "config"]).json();
    assert_eq!(v["create.ignore-file"]["value"], "info-exclude");
    assert!(
        v["create.ignore-file"]["source"]
            .as_str()
            .unwrap()
            .contains("loop.createIgnoreFile")
    );
    fs::write(
        repo.root.join(".git-loop.toml"),
        "[create]\nignore-file = \"gitignore\"\n",
    )
    .unwrap();
    let run = TestRepo::output(
        repo.command()
            .env("GIT_LOOP_CREATE_IGNORE_FILE", "nope")
            .args(["--json", "config"]),
    );
    run.code(1);
    let message = json_message(&run);
    assert!(
        message.contains("GIT_LOOP_CREATE_IGNORE_FILE")
            && message.contains("gitignore")
            && message.contains("info-exclude"),
        "{message}"
    );
}

/// `info/exclude` (or `info/`) as a symlink is never written through.
#[test]
fn info_exclude_symlink_is_refused() {
    let repo = TestRepo::new();
    repo.git(["config", "loop.createIgnoreFile", "info-exclude"]);
    let outside = repo.base().join("outside");
    fs::write(&outside, "keep\n").unwrap();
    let exclude = repo.root.join(".git/info/exclude");
    let _ = fs::remove_file(&exclude);
    fs::create_dir_all(exclude.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(&outside, &exclude).unwrap();
    let run = repo.run(["--json", "create", "a", "--pattern", "p"]);
    run.code(1);
    assert_eq!(run.json()["error"]["code"], "unsafe-path");
    assert_eq!(fs::read_to_string(&outside).unwrap(), "keep\n");
    assert!(!repo.branch_exists("loop/a"));
}

fn base_of(run: &Run) -> String {
    run.json()["baseBranch"].as_str().unwrap().to_owned()
}

/// Without `main`, the built-in default gives way to the repository's
/// default branch — origin's HEAD, then `init.defaultBranch`, then `master`
/// — and stderr says which.
#[test]
fn default_base_falls_back_to_the_repositorys_default_branch() {
    let repo = TestRepo::new();
    repo.git(["branch", "-m", "main", "master"]);
    let run = repo.run(["--json", "create", "a", "--pattern", "p"]);
    run.ok();
    assert_eq!(base_of(&run), "master");
    assert!(
        run.stderr.contains("\"main\" does not exist") && run.stderr.contains("\"master\""),
        "{}",
        run.stderr
    );

    repo.git(["branch", "dev"]);
    repo.git(["config", "init.defaultBranch", "dev"]);
    let run = repo.run(["--json", "create", "b", "--pattern", "p"]);
    run.ok();
    assert_eq!(base_of(&run), "dev");
    assert!(run.stderr.contains("init.defaultBranch"), "{}", run.stderr);

    repo.git(["branch", "trunk"]);
    repo.git(["update-ref", "refs/remotes/origin/trunk", "HEAD"]);
    repo.git([
        "symbolic-ref",
        "refs/remotes/origin/HEAD",
        "refs/remotes/origin/trunk",
    ]);
    let run = repo.run(["--json", "create", "c", "--pattern", "p"]);
    run.ok();
    assert_eq!(base_of(&run), "trunk");
    assert!(run.stderr.contains("origin/HEAD"), "{}", run.stderr);

    // A base that was asked for is never replaced.
    repo.git(["config", "loop.base", "main"]);
    let run = repo.run(["--json", "create", "d", "--pattern", "p"]);
    run.code(1);
    assert_eq!(run.json()["error"]["code"], "base-not-found");
}

/// `--base` that does not resolve: a plain message about `--base`, with no
/// config layer in it.
#[test]
fn an_unknown_base_flag_gets_a_plain_message() {
    let repo = TestRepo::new();
    let run = repo.run(["--json", "create", "a", "--pattern", "p", "--base", "nope"]);
    run.code(1);
    assert_eq!(
        json_message(&run),
        "--base \"nope\" does not resolve to a commit in this repository"
    );
    assert!(!repo.loop_dir().exists());
}

/// `cd "$(git loop create …)"` leaves you where you were when create fails
/// (`cd ""` succeeds): no doc or help shows it; they show an idiom that
/// stops (`dir=$(…) && cd "$dir"`).
#[test]
fn no_doc_shows_cd_of_a_command_substitution_that_may_fail() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![
        root.join("README.md"),
        root.join("CONTRIBUTING.md"),
        root.join("src/cli/help.rs"),
    ];
    for dir in ["docs", "man"] {
        for e in fs::read_dir(root.join(dir)).unwrap() {
            files.push(e.unwrap().path());
        }
    }
    for file in files {
        let text = fs::read_to_string(&file).unwrap();
        for (n, line) in text.lines().enumerate() {
            assert!(
                !line.contains("cd \"$(git loop"),
                "{}:{}: `cd \"$(git loop …)\"` goes on when git loop fails: {line}",
                file.display(),
                n + 1
            );
        }
    }
    let help = TestRepo::new()
        .run(["create", "--help"])
        .ok()
        .stdout
        .clone();
    assert!(help.contains("dir=$(git loop create"), "{help}");
}

/// A repository whose only branch is `trunk` (no main, master or
/// origin/HEAD): the base is the branch HEAD is on, and stderr says so.
#[test]
fn default_base_falls_back_to_the_branch_head_is_on() {
    let repo = TestRepo::new();
    repo.git(["branch", "-m", "main", "trunk"]);
    let run = repo.run(["--json", "create", "a", "--pattern", "p"]);
    run.ok();
    assert_eq!(base_of(&run), "trunk");
    assert!(
        run.stderr
            .contains("\"main\" does not exist; HEAD is on it"),
        "{}",
        run.stderr
    );
}

/// `trunk` with a stray `master` (issue 41): runs start from `trunk`, the
/// branch the main checkout is on, not from `master`. The note names the
/// `git config loop.base` that makes it the base, once: the next create is
/// quiet. A guess is no proof: `branches --delete-merged` refuses to judge
/// a leftover branch merged into it, and deletes nothing, until the base
/// is set; then the note is gone for good.
#[test]
fn trunk_with_a_stray_master_starts_from_trunk_and_says_so_once() {
    let repo = TestRepo::new();
    repo.git(["branch", "-m", "main", "trunk"]);
    repo.git(["branch", "master"]);
    crate::common::commit(&repo, &repo.root, "t", "trunk work\n");
    let run = repo.run(["--json", "create", "a", "--pattern", "p"]);
    run.ok();
    assert_eq!(base_of(&run), "trunk");
    assert!(
        run.stderr
            .contains("\"main\" does not exist; HEAD is on it")
            && run.stderr.contains("git config loop.base trunk"),
        "{}",
        run.stderr
    );
    let run = repo.run(["--json", "create", "b", "--pattern", "p"]);
    run.ok();
    assert_eq!(base_of(&run), "trunk");
    assert!(!run.stderr.contains("note"), "said twice: {}", run.stderr);

    // A leftover branch merged into trunk (its run forgotten): not deleted
    // on the guess.
    repo.git(["branch", "loop/old", "trunk~1"]);
    let run = repo.run(["--json", "branches", "--delete-merged"]);
    run.code(1);
    assert_eq!(run.json()["error"]["code"], "base-not-found");
    assert!(repo.branch_exists("loop/old"));

    repo.git(["config", "loop.base", "trunk"]);
    let run = repo.run(["--json", "create", "c", "--pattern", "p"]);
    run.ok();
    assert_eq!(base_of(&run), "trunk");
    assert_eq!(run.stderr, "");
    let run = repo.run(["--json", "branches", "--delete-merged"]);
    run.ok();
    assert!(!repo.branch_exists("loop/old"));
}

/// Neither `main` nor `master`: the branch HEAD is on, said once per
/// branch — again when the main checkout moves to another branch; a
/// create with `-q` says nothing and so leaves it to be said.
#[test]
fn the_base_note_is_said_again_only_for_another_branch() {
    let repo = TestRepo::new();
    repo.git(["branch", "-m", "main", "work"]);
    let notes = |id: &str| {
        let run = repo.run(["--json", "create", id, "--pattern", "p"]);
        run.ok();
        (
            base_of(&run),
            run.stderr.matches("note: using the base").count(),
        )
    };
    // Nothing said with -q, so it is still to be said.
    let run = repo.run(["-q", "create", "q", "--pattern", "p"]);
    run.ok();
    assert_eq!(run.stderr, "");
    assert_eq!(notes("a"), ("work".to_owned(), 1));
    assert_eq!(notes("b"), ("work".to_owned(), 0));
    repo.git(["switch", "-q", "-c", "other"]);
    assert_eq!(notes("c"), ("other".to_owned(), 1));
    assert_eq!(notes("d"), ("other".to_owned(), 0));

    // What remembers it is written only as a regular file, never through a
    // symlink: the file it points at is left as it was (and the note is
    // said each time, as nothing could be remembered).
    let outside = repo.base().join("outside");
    fs::write(&outside, "keep\n").unwrap();
    let noted = repo.root.join(".git/git-loop/base-noted");
    fs::remove_file(&noted).unwrap();
    std::os::unix::fs::symlink(&outside, &noted).unwrap();
    assert_eq!(notes("e"), ("other".to_owned(), 1));
    assert_eq!(notes("f"), ("other".to_owned(), 1));
    assert_eq!(fs::read_to_string(&outside).unwrap(), "keep\n");
}

/// A real clone of a repository whose default branch is `develop`: its
/// `origin/HEAD` (set by `git clone`) names the base, before the branch
/// the clone's checkout is on and a stray `master`.
#[test]
fn origin_head_of_a_real_clone_names_the_base() {
    let upstream = TestRepo::new();
    upstream.git(["branch", "-m", "main", "develop"]);
    upstream.git(["branch", "master"]);
    let clone = upstream.base().join("clone");
    upstream.git(["clone", "-q", ".", clone.to_str().unwrap()]);
    let git = |args: &[&str]| crate::common::git_ok(&upstream, &clone, args);
    assert_eq!(
        git(&["symbolic-ref", "refs/remotes/origin/HEAD"]).trim(),
        "refs/remotes/origin/develop"
    );
    git(&["branch", "master", "origin/master"]);
    git(&["switch", "-q", "-c", "feature"]);
    let clone_s = clone.to_str().unwrap();
    let run = upstream.run(["-C", clone_s, "--json", "create", "a", "--pattern", "p"]);
    run.ok();
    assert_eq!(base_of(&run), "develop");
    assert!(
        run.stderr.contains("origin/HEAD points to it")
            && run.stderr.contains("git config loop.base develop"),
        "{}",
        run.stderr
    );
}

/// `init.defaultBranch` names the base when that branch exists, before the
/// branch the main checkout is on and `master`; a value naming no branch
/// is passed over.
#[test]
fn init_default_branch_names_the_base_when_it_exists() {
    let repo = TestRepo::new();
    repo.git(["branch", "-m", "main", "feature"]);
    repo.git(["branch", "master"]);
    repo.git(["config", "init.defaultBranch", "nothing-here"]);
    let run = repo.run(["--json", "create", "a", "--pattern", "p"]);
    run.ok();
    assert_eq!(base_of(&run), "feature");
    repo.git(["branch", "trunk"]);
    repo.git(["config", "init.defaultBranch", "trunk"]);
    let run = repo.run(["--json", "create", "b", "--pattern", "p"]);
    run.ok();
    assert_eq!(base_of(&run), "trunk");
    assert!(
        run.stderr.contains("it is init.defaultBranch")
            && run.stderr.contains("git config loop.base trunk"),
        "{}",
        run.stderr
    );
}

/// No commit at all: create says so, not that the default base is missing.
#[test]
fn a_repository_with_no_commits_is_told_so() {
    let repo = TestRepo::new();
    repo.git(["symbolic-ref", "HEAD", "refs/heads/main"]);
    repo.git(["update-ref", "-d", "refs/heads/main"]);
    let run = repo.run(["--json", "create", "a", "--pattern", "p"]);
    run.code(1);
    assert_eq!(run.json()["error"]["code"], "base-not-found");
    assert!(
        json_message(&run).contains("this repository has no commits yet"),
        "{}",
        json_message(&run)
    );
    let run = repo.run(["create", "a", "--pattern", "p"]);
    assert!(
        run.stderr.contains("make the first commit"),
        "{}",
        run.stderr
    );
    assert!(!repo.loop_dir().join("a").exists());
}

/// A run whose directory was removed by hand is still recorded active:
/// `create` of its id says the directory is gone and points at reconcile
/// (marking it would not help), and `list` says what its `missing` means.
#[test]
fn active_run_whose_directory_is_gone_points_at_reconcile() {
    let repo = TestRepo::new();
    repo.create("x");
    fs::remove_dir_all(repo.wt("x")).unwrap();
    let run = repo.run(["--json", "create", "x", "--pattern", "p"]);
    run.code(1);
    assert_eq!(run.json()["error"]["code"], "active-exists");
    assert!(run.stderr.contains("is gone"), "{}", run.stderr);
    assert!(run.stderr.contains("git loop reconcile"), "{}", run.stderr);
    assert!(run.stderr.contains("create x --reuse"), "{}", run.stderr);
    assert!(!run.stderr.contains("git loop mark"), "{}", run.stderr);
    // A run that is there is still told to use it or mark it.
    repo.create("here");
    let there = repo.run(["create", "here", "--pattern", "p"]);
    there.code(1);
    assert!(there.stderr.contains("already active"), "{}", there.stderr);
    assert!(
        there.stderr.contains("git loop mark here"),
        "{}",
        there.stderr
    );
    for long in [&[][..], &["--long"]] {
        let list = repo.run([&["list"][..], long].concat());
        list.ok();
        assert!(list.stdout.contains("missing"), "{}", list.stdout);
        assert!(
            list.stderr.contains("1 run has no worktree") && list.stderr.contains("reconcile"),
            "{long:?}: {}",
            list.stderr
        );
    }
    // Nothing to say when every run is there.
    repo.run(["reconcile"]).ok();
    assert!(!repo.run(["list"]).stderr.contains("hint"));
}

/// The `.gitignore` notice gives the git command that keeps the line out of
/// the work tree (git-loop is run by git users), not TOML.
#[test]
fn the_gitignore_notice_gives_the_git_config_command() {
    let repo = TestRepo::new();
    let run = repo.create("a");
    assert!(
        run.stderr
            .contains("hint: to keep it in .git/info/exclude instead: git config loop.createIgnoreFile info-exclude"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("= \""), "{}", run.stderr);
    // Short, and the setting named once (not also as create.ignore-file).
    let line = run
        .stderr
        .lines()
        .find(|l| l.contains(".gitignore"))
        .unwrap();
    assert!(line.chars().count() <= 100, "{line}");
    assert!(!line.contains("create.ignore-file"), "{line}");
}

/// `-C` naming no repository is not told to pass -C; without -C it is.
#[test]
fn a_wrong_dash_c_is_not_told_to_pass_dash_c() {
    let repo = TestRepo::new();
    let missing = repo.base().join("nonexistent");
    let run = repo.run(["-C", missing.to_str().unwrap(), "list"]);
    run.code(1);
    assert!(
        run.stderr.contains("not a git repository"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("pass -C"), "{}", run.stderr);
    assert!(
        run.stderr.contains("-C <DIR> names the repository"),
        "{}",
        run.stderr
    );
    let outside = TestRepo::output(repo.command().current_dir(repo.base()).args(["list"]));
    outside.code(1);
    assert!(outside.stderr.contains("pass -C"), "{}", outside.stderr);
}

/// `create --json` gives the worktree's absolute path too, the one the
/// text output prints, so a script needs no second call.
#[test]
fn create_json_gives_the_absolute_path() {
    let repo = TestRepo::new();
    let text = repo.create("a");
    let json = repo.run(["--json", "create", "b"]);
    json.ok();
    let abs = json.json()["absolutePath"].as_str().unwrap().to_owned();
    assert_eq!(std::path::PathBuf::from(&abs), repo.wt("b"));
    assert_eq!(text.stdout.trim(), repo.wt("a").to_str().unwrap());
}
