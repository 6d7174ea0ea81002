//! The bare-repository layout, built with real git:
//!
//! ```text
//! project/.bare/   git clone --bare <repo> project/.bare
//! project/.git     a file: "gitdir: ./.bare"
//! project/main/    git worktree add main main
//! ```
//!
//! The root is `project/` from everywhere (itself, `main/` and below, a
//! run's worktree, `GIT_DIR`); the core flows work there, landing updates
//! `project/main/`'s checkout (or only the ref, when the target is checked
//! out nowhere), and the bare `HEAD` is no checkout. A plain bare clone is
//! refused with the commands that set the layout up, and they work.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::{TestRepo, commit, git_line, git_ok};

/// The layout of a clone of a fresh [`TestRepo`]: the returned fixture's
/// `root` is `project/` (so `run`, `create`, `wt` and `git` work there);
/// `project/main/` is a linked worktree on `main`.
fn bare_layout() -> TestRepo {
    layout_of(TestRepo::new(), "main")
}

/// The layout of a clone of `repo`, whose default branch is `branch`,
/// checked out in `project/<branch>/`.
fn layout_of(mut repo: TestRepo, branch: &str) -> TestRepo {
    let project = repo.base().join("project");
    let bare = project.join(".bare");
    repo.git(["clone", "-q", "--bare", ".", bare.to_str().unwrap()]);
    std::fs::write(project.join(".git"), "gitdir: ./.bare\n").unwrap();
    git_ok(&repo, &project, &["worktree", "add", "-q", branch, branch]);
    repo.project = project.clone();
    repo.root = project;
    assert_eq!(
        git_line(&repo, &repo.root, &["rev-parse", "--is-bare-repository"]),
        "true"
    );
    repo
}

/// `project/main/`, where `main` is checked out.
fn main_wt(repo: &TestRepo) -> PathBuf {
    repo.root.join("main")
}

fn json(repo: &TestRepo, args: &[&str], code: i32) -> Value {
    json_in(repo, &repo.root, args, code)
}

fn json_in(repo: &TestRepo, dir: &Path, args: &[&str], code: i32) -> Value {
    let mut all = vec!["--json"];
    all.extend_from_slice(args);
    let run = TestRepo::output(repo.command().current_dir(dir).args(&all));
    run.code(code);
    run.json()
}

fn rev(repo: &TestRepo, spec: &str) -> String {
    git_line(repo, &repo.root, &["rev-parse", spec])
}

/// A run with a commit of its own in `file`.
fn run_with(repo: &TestRepo, id: &str, file: &str) {
    repo.create(id);
    commit(repo, &repo.wt(id), file, &format!("{id}\n"));
}

/// `GIT_LOOP_ROOT` as `env <id>` prints it, run in `dir`.
fn root_seen_from(repo: &TestRepo, dir: &Path, id: &str) -> String {
    let doc = json_in(repo, dir, &["env", id], 0);
    doc["GIT_LOOP_ROOT"].as_str().unwrap_or_default().to_owned()
}

#[test]
fn every_place_in_the_layout_discovers_the_project_directory_as_the_root() {
    let repo = bare_layout();
    let exclude = std::fs::read(repo.root.join(".bare/info/exclude")).unwrap();
    let created = json(&repo, &["create", "a", "--pattern", "p"], 0);
    assert_eq!(created["path"], ".loop-worktrees/a", "{created}");
    assert!(repo.wt("a").join("README").is_file());
    assert!(repo.root.join(".loop-worktrees/manifest.json").is_file());
    // Nothing written to ignore it: it is in no work tree.
    assert!(!repo.root.join(".gitignore").exists());
    assert!(!main_wt(&repo).join(".gitignore").exists());
    assert_eq!(
        std::fs::read(repo.root.join(".bare/info/exclude")).unwrap(),
        exclude
    );
    assert_eq!(
        git_ok(&repo, &main_wt(&repo), &["status", "--porcelain"]),
        ""
    );
    let sub = main_wt(&repo).join("sub/dir");
    std::fs::create_dir_all(&sub).unwrap();
    let root = repo.root.to_str().unwrap();
    for dir in [
        repo.root.clone(),
        main_wt(&repo),
        sub,
        repo.wt("a"),
        repo.root.join(".bare"),
    ] {
        assert_eq!(root_seen_from(&repo, &dir, "a"), root, "from {dir:?}");
    }
    // GIT_DIR names the bare git dir, from a directory outside the layout.
    let doc = TestRepo::output(
        repo.command()
            .current_dir(repo.base())
            .env("GIT_DIR", repo.root.join(".bare"))
            .args(["--json", "env", "a"]),
    );
    doc.code(0);
    assert_eq!(doc.json()["GIT_LOOP_ROOT"], root);
    // `path` from the user's worktree names the run's.
    let out = TestRepo::output(
        repo.command()
            .current_dir(main_wt(&repo))
            .args(["path", "a"]),
    );
    out.code(0);
    assert_eq!(Path::new(out.stdout.trim()), repo.wt("a"));
}

#[test]
fn a_bare_git_dir_named_dot_git_is_the_layout_too() {
    let repo = TestRepo::new();
    let project = repo.base().join("proj");
    repo.git([
        "clone",
        "-q",
        "--bare",
        ".",
        project.join(".git").to_str().unwrap(),
    ]);
    git_ok(&repo, &project, &["worktree", "add", "-q", "main", "main"]);
    let doc = json_in(
        &repo,
        &project.join("main"),
        &["create", "a", "--pattern", "p"],
        0,
    );
    assert_eq!(doc["path"], ".loop-worktrees/a", "{doc}");
    assert!(project.join(".loop-worktrees/a").join("README").is_file());
}

/// `script` run by sh in the fixture's hermetic environment; it succeeds.
fn sh(repo: &TestRepo, script: &str) {
    let mut cmd = std::process::Command::new("sh");
    crate::common::hermetic(&mut cmd, &repo.home);
    let out = cmd.args(["-c", script]).output().unwrap();
    assert!(
        out.status.success(),
        "{script}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The refusal's help names a command between backticks: run it with sh.
fn setup_command(stderr: &str) -> String {
    let help = stderr
        .split_once("put it in the layout")
        .unwrap_or_else(|| panic!("{stderr}"))
        .1;
    help.split('`').nth(1).unwrap().to_owned()
}

#[test]
fn a_plain_bare_clone_is_refused_with_the_commands_that_set_the_layout_up_and_they_work() {
    let repo = TestRepo::new();
    let bare = repo.base().join("x.git");
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
    assert!(!bare.join(".loop-worktrees").exists());
    let human = TestRepo::output(repo.command().current_dir(&bare).args(["list"]));
    human.code(1);
    let project = repo.base().join("x");
    let setup = setup_command(&human.stderr);
    assert_eq!(
        setup,
        format!(
            "mkdir {p} && mv {b} {p}/.bare && printf 'gitdir: ./.bare\\n' > {p}/.git",
            p = project.display(),
            b = bare.display()
        )
    );
    assert!(
        human
            .stderr
            .contains(&format!("run git loop in {}", project.display())),
        "{}",
        human.stderr
    );
    sh(&repo, &setup);
    git_ok(&repo, &project, &["worktree", "add", "-q", "main", "main"]);
    let doc = json_in(
        &repo,
        &project.join("main"),
        &["create", "a", "--pattern", "p"],
        0,
    );
    assert_eq!(doc["path"], ".loop-worktrees/a", "{doc}");
    assert!(project.join(".loop-worktrees/a").join("README").is_file());
}

#[test]
fn a_worktree_of_a_plain_bare_repository_is_refused_and_the_setup_repairs_its_link() {
    let repo = TestRepo::new();
    let bare = repo.base().join("bare repo");
    repo.git(["clone", "-q", "--bare", ".", bare.to_str().unwrap()]);
    let wt = repo.base().join("wt-main");
    git_ok(
        &repo,
        &bare,
        &["worktree", "add", "-q", wt.to_str().unwrap(), "main"],
    );
    let run =
        TestRepo::output(
            repo.command()
                .current_dir(&wt)
                .args(["create", "a", "--pattern", "p"]),
        );
    run.code(1);
    assert!(
        run.stderr.contains(&format!(
            "{} is a worktree of the bare repository {}",
            wt.display(),
            bare.display()
        )),
        "{}",
        run.stderr
    );
    assert!(!wt.join(".loop-worktrees").exists());
    let setup = setup_command(&run.stderr);
    // The name has no `.git` to strip: the layout goes beside it, and the
    // path with a space is quoted.
    let project = repo.base().join("bare repo-project");
    assert!(
        setup.starts_with(&format!("mkdir '{}'", project.display())),
        "{setup}"
    );
    assert!(
        setup.ends_with(&format!("worktree repair {}", wt.display())),
        "{setup}"
    );
    sh(&repo, &setup);
    let doc = json_in(&repo, &wt, &["create", "a", "--pattern", "p"], 0);
    assert_eq!(doc["path"], ".loop-worktrees/a", "{doc}");
    assert!(project.join(".loop-worktrees/a").join("README").is_file());
    git_ok(&repo, &project, &["fsck", "--no-progress"]);
}

#[test]
fn create_mark_list_long_conflicts_and_branches_work() {
    let repo = bare_layout();
    run_with(&repo, "a", "a.txt");
    run_with(&repo, "b", "a.txt");
    json(&repo, &["mark", "a", "rejected"], 0);
    assert_eq!(repo.status_of("a").as_deref(), Some("rejected"));
    let list = json(&repo, &["list", "--long"], 0);
    let a = &list["worktrees"][0];
    assert_eq!(
        (a["ahead"].as_u64(), a["behind"].as_u64()),
        (Some(1), Some(0)),
        "{list}"
    );
    assert_eq!(a["dirty"], false, "{list}");
    let conflicts = json(&repo, &["conflicts", "--status", "active,rejected"], 0);
    assert_eq!(
        conflicts["pairs"].as_array().unwrap().len(),
        1,
        "{conflicts}"
    );
    // A leftover branch merged into main goes; one checked out in a
    // linked worktree of the user's own stays.
    repo.git(["branch", "loop/old"]);
    repo.git(["branch", "loop/mine"]);
    git_ok(
        &repo,
        &repo.root,
        &["worktree", "add", "-q", "mine", "loop/mine"],
    );
    let doc = json(&repo, &["branches", "--delete-merged"], 0);
    assert!(!repo.branch_exists("loop/old"), "{doc}");
    assert!(repo.branch_exists("loop/mine"), "{doc}");
    let mine = doc["branches"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["branch"] == "loop/mine")
        .unwrap();
    assert_eq!(mine["kept"], "checked-out", "{doc}");
}

#[test]
fn the_bare_head_is_no_checkout_a_branch_it_names_is_deleted_when_merged() {
    let repo = bare_layout();
    repo.git(["branch", "loop/old"]);
    repo.git(["symbolic-ref", "HEAD", "refs/heads/loop/old"]);
    let doc = json(&repo, &["branches", "--delete-merged"], 0);
    assert!(!repo.branch_exists("loop/old"), "{doc}");
    let trash = json(&repo, &["trash"], 0);
    assert_eq!(trash["trash"].as_array().unwrap().len(), 1, "{trash}");
}

#[test]
fn cleanup_delete_merged_branches_removes_a_landed_run_and_its_branch() {
    let repo = bare_layout();
    run_with(&repo, "s", "s.txt");
    git_ok(
        &repo,
        &main_wt(&repo),
        &["merge", "-q", "--ff-only", "loop/s"],
    );
    json(&repo, &["mark", "s", "rejected"], 0);
    let doc = json(&repo, &["cleanup", "--delete-merged-branches"], 0);
    assert!(!repo.branch_exists("loop/s"), "{doc}");
    assert!(!repo.wt("s").exists());
    assert!(!repo.registered().contains(&repo.wt("s")));
    assert!(repo.registered().contains(&main_wt(&repo)));
    let trash = json(&repo, &["trash"], 0);
    let name = trash["trash"][0]["name"].as_str().unwrap().to_owned();
    json(&repo, &["trash", "restore", &name], 0);
    assert!(repo.branch_exists("loop/s"));
    git_ok(&repo, &repo.root, &["fsck", "--no-progress"]);
}

#[test]
fn remove_salvage_restore_and_reconcile_work() {
    let repo = bare_layout();
    run_with(&repo, "d", "d.txt");
    std::fs::write(repo.wt("d").join("wip.txt"), "work in progress\n").unwrap();
    json(&repo, &["mark", "d", "rejected"], 0);
    let doc = json(&repo, &["remove", "d", "--salvage"], 0);
    let salvage = doc["removed"][0]["salvage"]["commit"].as_str().unwrap();
    assert_eq!(rev(&repo, "refs/loop/salvage/d"), salvage);
    assert!(!repo.wt("d").exists());
    json(&repo, &["restore", "d"], 0);
    assert_eq!(
        std::fs::read_to_string(repo.wt("d").join("wip.txt")).unwrap(),
        "work in progress\n"
    );
    // A vanished worktree: reconcile drops it, and leaves the user's alone.
    std::fs::remove_dir_all(repo.wt("d")).unwrap();
    repo.git(["worktree", "prune"]);
    let doc = json(&repo, &["reconcile"], 0);
    assert_eq!(doc["dropped"][0]["id"], "d", "{doc}");
    assert!(repo.ids().is_empty());
    assert!(main_wt(&repo).join("README").is_file());
}

#[test]
fn land_updates_the_linked_worktree_that_has_the_target_checked_out() {
    let repo = bare_layout();
    run_with(&repo, "l", "l.txt");
    // main moves on in project/main, so the run is rebased.
    commit(&repo, &main_wt(&repo), "main.txt", "main\n");
    let before = rev(&repo, "main");
    let doc = json(&repo, &["land", "l"], 0);
    let landed = &doc["landed"][0];
    assert_eq!(landed["from"], before.as_str(), "{doc}");
    assert_eq!(rev(&repo, "main"), landed["to"].as_str().unwrap());
    assert_eq!(rev(&repo, "main~1"), before);
    // project/main followed: its file written, its index git's.
    assert_eq!(
        std::fs::read_to_string(main_wt(&repo).join("l.txt")).unwrap(),
        "l\n"
    );
    assert_eq!(
        git_ok(&repo, &main_wt(&repo), &["status", "--porcelain"]),
        ""
    );
    // The run is gone with its branch; the bare HEAD still names main.
    assert!(!repo.wt("l").exists());
    assert!(!repo.branch_exists("loop/l"));
    assert_eq!(repo.git(["symbolic-ref", "HEAD"]).trim(), "refs/heads/main");
    git_ok(&repo, &repo.root, &["fsck", "--no-progress"]);
}

#[test]
fn land_into_a_branch_checked_out_nowhere_moves_only_the_ref() {
    let repo = bare_layout();
    repo.git(["branch", "dev", "main"]);
    repo.run(["create", "n", "--pattern", "p", "--base", "dev"])
        .ok();
    commit(&repo, &repo.wt("n"), "n.txt", "n\n");
    let main_before = rev(&repo, "main");
    let doc = json(&repo, &["land", "n"], 0);
    assert_eq!(
        rev(&repo, "dev"),
        doc["landed"][0]["to"].as_str().unwrap(),
        "{doc}"
    );
    assert_eq!(git_line(&repo, &repo.root, &["show", "dev:n.txt"]), "n");
    assert_eq!(rev(&repo, "main"), main_before);
    assert!(!main_wt(&repo).join("n.txt").exists());
    assert_eq!(
        git_ok(&repo, &main_wt(&repo), &["status", "--porcelain"]),
        ""
    );
}

#[test]
fn land_queue_lands_every_run_in_order_and_skips_the_conflict() {
    let repo = bare_layout();
    for (id, file) in [("q1", "one.txt"), ("q2", "two.txt"), ("q3", "one.txt")] {
        run_with(&repo, id, file);
        json(&repo, &["mark", id, "escalated"], 0);
    }
    let doc = json(&repo, &["land", "--queue", "--keep-going"], 1);
    assert_eq!(doc["landed"].as_array().unwrap().len(), 2, "{doc}");
    assert_eq!(doc["skipped"].as_array().unwrap().len(), 1, "{doc}");
    let files = git_ok(&repo, &repo.root, &["ls-tree", "--name-only", "main"]);
    assert_eq!(files.lines().count(), 3, "{files}");
    for file in files.lines() {
        assert!(main_wt(&repo).join(file).is_file(), "{file}");
    }
    assert_eq!(
        git_ok(&repo, &main_wt(&repo), &["status", "--porcelain"]),
        ""
    );
}

#[test]
fn judge_runs_the_gate_in_every_attempt_and_pick_lands_the_winner() {
    let repo = bare_layout();
    std::fs::write(main_wt(&repo).join("test.sh"), "[ -f ok ]\n").unwrap();
    git_ok(&repo, &main_wt(&repo), &["add", "test.sh"]);
    git_ok(&repo, &main_wt(&repo), &["commit", "-q", "-m", "gate"]);
    run_with(&repo, "fix.1", "nope");
    run_with(&repo, "fix.2", "ok");
    let doc = json(&repo, &["judge", "fix", "--gate", "sh ./test.sh"], 0);
    assert!(doc.to_string().contains(&rev(&repo, "loop/fix.2")), "{doc}");
    let doc = json(&repo, &["pick", "fix.2", "--land"], 0);
    assert_eq!(
        rev(&repo, "main"),
        doc["land"]["landed"][0]["to"].as_str().unwrap()
    );
    assert_eq!(repo.status_of("fix.1").as_deref(), Some("rejected"));
    assert!(main_wt(&repo).join("ok").is_file());
}

#[test]
fn a_pool_member_serves_a_create_and_watch_once_shows_the_runs() {
    let repo = bare_layout();
    json(&repo, &["pool", "fill", "1"], 0);
    let created = json(&repo, &["create", "p", "--pattern", "x"], 0);
    assert_eq!(created["method"], "pooled", "{created}");
    assert_eq!(rev(&repo, "loop/p"), rev(&repo, "main"));
    assert!(!repo.root.join(".gitignore").exists());
    let watch = repo.run(["watch", "--once"]);
    watch.ok();
    assert!(watch.stdout.contains("1 run"), "{}", watch.stdout);
}

#[test]
fn the_branch_the_bare_head_names_is_the_default_base_and_proves_merges() {
    let repo = TestRepo::new();
    repo.git(["branch", "-m", "main", "trunk"]);
    let repo = layout_of(repo, "trunk");
    let run = repo.run(["--json", "create", "t", "--pattern", "p"]);
    run.ok();
    assert!(
        run.stderr.contains("the bare repository's HEAD names it"),
        "{}",
        run.stderr
    );
    assert_eq!(repo.manifest()["worktrees"][0]["baseBranch"], "trunk");
    // No guess: it proves a leftover branch merged, which is deleted.
    repo.git(["branch", "loop/old", "trunk"]);
    let doc = json(&repo, &["branches", "--delete-merged"], 0);
    assert_eq!(doc["base"], "trunk", "{doc}");
    assert!(!repo.branch_exists("loop/old"), "{doc}");
}

#[test]
fn a_sparse_run_moving_core_bare_into_config_worktree_keeps_the_layout_bare() {
    let repo = bare_layout();
    std::fs::create_dir(main_wt(&repo).join("d")).unwrap();
    commit(&repo, &main_wt(&repo), "d/f", "f\n");
    // `git sparse-checkout` turns on extensions.worktreeConfig and moves
    // core.bare into the bare repository's config.worktree, where git
    // still reads it (and gix, through project/.git, does not by itself).
    repo.run(["create", "s", "--pattern", "p", "--sparse", "d"])
        .ok();
    let moved = std::fs::read_to_string(repo.root.join(".bare/config.worktree")).unwrap();
    assert!(moved.contains("bare = true"), "{moved}");
    assert_eq!(
        git_line(&repo, &repo.root, &["rev-parse", "--is-bare-repository"]),
        "true"
    );
    run_with(&repo, "x", "x.txt");
    assert!(!repo.root.join(".gitignore").exists());
    assert_eq!(
        root_seen_from(&repo, &repo.root, "x"),
        repo.root.to_str().unwrap()
    );
    // The bare HEAD is still no checkout: project/main follows the landing.
    json(&repo, &["land", "x"], 0);
    assert!(main_wt(&repo).join("x.txt").is_file());
    assert_eq!(
        git_ok(&repo, &main_wt(&repo), &["status", "--porcelain"]),
        ""
    );
}

#[test]
fn land_refuses_when_the_linked_worktree_on_the_target_has_changes_in_its_way() {
    let repo = bare_layout();
    run_with(&repo, "w", "w.txt");
    // Uncommitted work in project/main where the landing would write.
    std::fs::write(main_wt(&repo).join("w.txt"), "mine\n").unwrap();
    let before = rev(&repo, "main");
    let doc = json(&repo, &["land", "w"], 1);
    assert_eq!(doc["skipped"][0]["code"], "target-dirty", "{doc}");
    assert_eq!(rev(&repo, "main"), before);
    assert_eq!(
        std::fs::read_to_string(main_wt(&repo).join("w.txt")).unwrap(),
        "mine\n"
    );
    assert!(repo.wt("w").is_dir());
    assert!(repo.branch_exists("loop/w"));
}

#[test]
fn a_dot_bare_without_its_git_file_is_refused_with_the_one_command_that_writes_it() {
    let repo = TestRepo::new();
    let project = repo.base().join("half");
    let bare = project.join(".bare");
    repo.git(["clone", "-q", "--bare", ".", bare.to_str().unwrap()]);
    let run = TestRepo::output(repo.command().current_dir(&bare).args(["list"]));
    run.code(1);
    let setup = setup_command(&run.stderr);
    assert_eq!(
        setup,
        format!("printf 'gitdir: ./.bare\\n' > {}/.git", project.display())
    );
    sh(&repo, &setup);
    git_ok(&repo, &project, &["worktree", "add", "-q", "main", "main"]);
    let doc = json_in(
        &repo,
        &project.join("main"),
        &["create", "a", "--pattern", "p"],
        0,
    );
    assert_eq!(doc["path"], ".loop-worktrees/a", "{doc}");
    assert!(project.join(".loop-worktrees/a/README").is_file());
}

/// The layout on reftable refs is refused up front, never half-read: gix
/// reads a bare repository's `HEAD` (the stub a reftable leaves in the
/// files' place) for every tree diff (landing, merge proofs, conflicts).
#[test]
fn the_layout_on_reftable_refs_is_refused_by_every_command_before_anything_is_written() {
    let repo = TestRepo::new();
    let project = repo.base().join("project");
    let bare = project.join(".bare");
    let out = repo.git_in(
        repo.base(),
        [
            "clone",
            "-q",
            "--bare",
            "--ref-format=reftable",
            repo.root.to_str().unwrap(),
            bare.to_str().unwrap(),
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::write(project.join(".git"), "gitdir: ./.bare\n").unwrap();
    git_ok(&repo, &project, &["worktree", "add", "-q", "main", "main"]);
    for dir in [project.clone(), project.join("main")] {
        for args in [
            &["create", "a"][..],
            &["list"],
            &["cleanup"],
            &["land", "--queue"],
        ] {
            let mut all = vec!["--json"];
            all.extend_from_slice(args);
            let run = TestRepo::output(repo.command().current_dir(&dir).args(&all));
            run.code(1);
            assert_eq!(
                run.json()["error"]["code"],
                "unsupported-repository",
                "{args:?}"
            );
            let human = TestRepo::output(repo.command().current_dir(&dir).args(args));
            assert!(
                human.stderr.contains("bare-repository layout"),
                "{}",
                human.stderr
            );
        }
    }
    assert!(!project.join(".loop-worktrees").exists());
}

/// A bare repository logs no ref updates by default, but the layout's
/// worktrees do (git judges a worktree not bare): git-loop logs them as
/// those worktrees would — a run's branch records its creation (so a run
/// main took by fast-forward is proved merged, not taken for empty), a
/// landing is in main's reflog — unless the user set
/// `core.logAllRefUpdates`.
#[test]
fn ref_updates_are_logged_as_in_the_layouts_worktrees_unless_configured() {
    let repo = bare_layout();
    run_with(&repo, "m", "m.txt");
    let created = git_line(&repo, &repo.root, &["reflog", "--format=%gs", "loop/m"]);
    let first = created.lines().last().unwrap_or_default();
    assert!(first.starts_with("branch: Created from "), "{created}");
    git_ok(
        &repo,
        &main_wt(&repo),
        &["merge", "-q", "--ff-only", "loop/m"],
    );
    let doc = json(&repo, &["mark", "--detect-merged"], 0);
    assert_eq!(doc["marked"][0]["mergedBy"], "ancestor", "{doc}");
    run_with(&repo, "l", "l.txt");
    let to = json(&repo, &["land", "l"], 0)["landed"][0]["to"].clone();
    let newest = git_line(&repo, &repo.root, &["reflog", "-1", "--format=%H", "main"]);
    assert_eq!(newest, to.as_str().unwrap());

    repo.git(["config", "core.logAllRefUpdates", "false"]);
    repo.create("off");
    let log = git_line(&repo, &repo.root, &["reflog", "--format=%gs", "loop/off"]);
    assert_eq!(log, "", "the user's setting is git-loop's");
}
