//! Hooks (`create.post-command`, `cleanup.pre-command`) and `git loop trust`.

use std::fs;

use crate::common::TestRepo;

/// A hook that records its working directory and environment in a file
/// outside the repository (so it never makes a worktree dirty).
fn recorder(repo: &TestRepo, name: &str) -> (String, std::path::PathBuf) {
    let log = repo.base().join(name);
    let cmd = format!(
        "printf '%s %s %s %s\\n' \"$PWD\" \"$GIT_LOOP_ID\" \"$GIT_LOOP_BRANCH\" \"$GIT_LOOP_ROOT\" >> '{}'",
        log.display()
    );
    (cmd, log)
}

fn toml_string(s: &str) -> String {
    serde_json::to_string(s).unwrap()
}

#[test]
fn a_repo_file_hook_never_runs_before_trust() {
    let repo = TestRepo::new();
    let (cmd, log) = recorder(&repo, "post.log");
    fs::write(
        repo.root.join(".git-loop.toml"),
        format!("[create]\npost-command = {}\n", toml_string(&cmd)),
    )
    .unwrap();

    // Refused before anything changes: no worktree, no branch, no manifest.
    let run = repo.run(["--json", "create", "r1", "--pattern", "p"]);
    run.code(1);
    assert_eq!(run.json()["error"]["code"], "untrusted-hook");
    assert!(run.stderr.contains(".git-loop.toml") && run.stderr.contains("git loop trust"));
    assert!(!log.exists(), "the hook ran before trust");
    assert!(!repo.wt("r1").exists());
    assert!(!repo.branch_exists("loop/r1"));
    assert!(!repo.manifest_path().exists());

    // `config` says so too.
    let config = repo.run(["--json", "config"]);
    config.ok();
    assert!(
        config.json()["create.post-command"]["source"]
            .as_str()
            .unwrap()
            .contains("NOT trusted")
    );

    // Trusted: it runs, in the new worktree, with its environment.
    let trust = repo.run(["--json", "trust"]);
    trust.ok();
    let t = trust.json();
    assert_eq!(t["alreadyTrusted"], false);
    assert_eq!(t["hooks"]["create.post-command"], cmd.as_str());
    let blob = repo.git(["hash-object", ".git-loop.toml"]);
    assert_eq!(t["blob"], blob.trim(), "trust records the file's blob id");
    assert_eq!(repo.run(["--json", "trust"]).json()["alreadyTrusted"], true);

    let run = repo.run(["--json", "create", "r1", "--pattern", "p"]);
    run.ok();
    let v = run.json();
    assert_eq!(v["postCommand"]["exitCode"], 0);
    assert_eq!(v["postCommand"]["ok"], true);
    let line = fs::read_to_string(&log).unwrap();
    assert_eq!(
        line,
        format!(
            "{} r1 loop/r1 {}\n",
            repo.wt("r1").display(),
            repo.root.display()
        )
    );

    // A changed file is a different file: trust again.
    fs::write(
        repo.root.join(".git-loop.toml"),
        format!("[create]\npost-command = {}\n# edited\n", toml_string(&cmd)),
    )
    .unwrap();
    let run = repo.run(["--json", "create", "r2", "--pattern", "p"]);
    run.code(1);
    assert_eq!(run.json()["error"]["code"], "untrusted-hook");
    assert_eq!(fs::read_to_string(&log).unwrap().lines().count(), 1);
    assert!(!repo.wt("r2").exists());
    // A reuse runs no hook, so it needs no trust.
    let reuse = repo.run(["--json", "create", "r1", "--pattern", "p", "--reuse"]);
    reuse.ok();
    assert_eq!(reuse.json()["method"], "reused");
    assert_eq!(fs::read_to_string(&log).unwrap().lines().count(), 1);
}

#[test]
fn a_trust_record_in_the_repository_itself_is_not_trust() {
    // The trust store lives in .git, which no clone writes; a file in the
    // work tree claiming trust counts for nothing.
    let repo = TestRepo::new();
    let (cmd, log) = recorder(&repo, "post.log");
    let toml = format!("[create]\npost-command = {}\n", toml_string(&cmd));
    fs::write(repo.root.join(".git-loop.toml"), &toml).unwrap();
    let blob = repo.git(["hash-object", ".git-loop.toml"]);
    fs::create_dir_all(repo.root.join("git-loop")).unwrap();
    fs::write(repo.root.join("git-loop/trusted"), &blob).unwrap();
    fs::write(repo.root.join(".git-loop-trusted"), &blob).unwrap();
    repo.run(["create", "r1", "--pattern", "p"]).code(1);
    assert!(!log.exists());
}

#[test]
fn hooks_from_git_config_run_without_trust_and_an_empty_value_turns_a_repo_hook_off() {
    let repo = TestRepo::new();
    let (cmd, log) = recorder(&repo, "post.log");
    repo.git(["config", "loop.createPostCommand", &cmd]);
    repo.create("r1");
    assert!(fs::read_to_string(&log).unwrap().contains(" r1 loop/r1 "));

    // A repo file's hook, overridden by an empty git-config value: create
    // needs no trust and runs nothing.
    let marker = repo.base().join("repo-hook-ran");
    fs::write(
        repo.root.join(".git-loop.toml"),
        format!(
            "[create]\npost-command = {}\n",
            toml_string(&format!("touch '{}'", marker.display()))
        ),
    )
    .unwrap();
    repo.git(["config", "loop.createPostCommand", ""]);
    let run = repo.run(["--json", "create", "r2", "--pattern", "p"]);
    run.ok();
    assert!(run.json().get("postCommand").is_none());
    assert!(!marker.exists());
}

#[test]
fn a_failing_post_command_is_reported_and_the_run_kept() {
    let repo = TestRepo::new();
    repo.git([
        "config",
        "loop.createPostCommand",
        "echo installing; echo broke >&2; exit 3",
    ]);
    let run = repo.run(["--json", "create", "r1", "--pattern", "p"]);
    run.code(1);
    let v = run.json();
    // One document: the entry, the hook's outcome, and an error.
    assert_eq!(v["id"], "r1");
    assert_eq!(v["status"], "active");
    assert_eq!(v["postCommand"]["exitCode"], 3);
    assert_eq!(v["postCommand"]["ok"], false);
    assert_eq!(v["error"]["code"], "post-command-failed");
    // The hook's own output went to stderr, not into the JSON.
    assert!(run.stderr.contains("installing") && run.stderr.contains("broke"));
    // Kept: worktree, branch and active entry.
    assert!(repo.wt("r1").join("README").exists());
    assert!(repo.branch_exists("loop/r1"));
    assert_eq!(repo.status_of("r1").as_deref(), Some("active"));

    // Human output: the path on stdout, the failure on stderr.
    repo.git(["config", "loop.createPostCommand", "exit 4"]);
    let run = repo.run(["create", "r2", "--pattern", "p"]);
    run.code(1);
    assert_eq!(run.stdout.trim(), repo.wt("r2").display().to_string());
    assert!(run.stderr.contains("exited with 4"), "{}", run.stderr);
}

#[test]
fn a_pre_command_that_fails_keeps_the_worktree_with_code_hook_refused() {
    let repo = TestRepo::new();
    for id in ["keep", "go"] {
        repo.create(id);
        repo.run(["mark", id, "rejected"]).ok();
    }
    let (record, log) = recorder(&repo, "pre.log");
    // Refuses for `keep`, allows the rest.
    let cmd = format!("{record}; test \"$GIT_LOOP_ID\" != keep");
    repo.git(["config", "loop.cleanupPreCommand", &cmd]);

    let dry = repo.run(["--json", "cleanup", "--dry-run"]);
    dry.ok();
    assert!(!log.exists(), "a dry run runs no hook");

    let run = repo.run(["--json", "cleanup"]);
    run.ok();
    let v = run.json();
    assert_eq!(v["removed"][0]["id"], "go");
    assert_eq!(v["skipped"][0]["id"], "keep");
    assert_eq!(v["skipped"][0]["code"], "hook-refused");
    assert!(
        v["skipped"][0]["reason"]
            .as_str()
            .unwrap()
            .contains("exited with 1")
    );
    assert!(repo.wt("keep").join("README").exists());
    assert!(!repo.wt("go").exists());
    assert_eq!(repo.ids(), ["keep"]);
    // It ran in each worktree, before removal.
    let lines = fs::read_to_string(&log).unwrap();
    assert!(lines.contains(&format!("{} keep loop/keep", repo.wt("keep").display())));
    assert!(lines.contains(&format!("{} go loop/go", repo.wt("go").display())));
    // The event log has the skip with its code.
    let events = repo.run(["--json", "log", "keep"]);
    assert!(events.stdout.contains("hook-refused"));
}

#[test]
fn an_untrusted_pre_command_refuses_the_whole_cleanup() {
    let repo = TestRepo::new();
    repo.create("r1");
    repo.run(["mark", "r1", "rejected"]).ok();
    let marker = repo.base().join("ran");
    fs::write(
        repo.root.join(".git-loop.toml"),
        format!(
            "[cleanup]\npre-command = {}\n",
            toml_string(&format!("touch '{}'", marker.display()))
        ),
    )
    .unwrap();
    let before = fs::read(repo.manifest_path()).unwrap();
    for args in [&["cleanup"][..], &["cleanup", "--dry-run"][..]] {
        let run = repo.run(args);
        run.code(1);
        assert!(run.stderr.contains("not trusted"), "{}", run.stderr);
    }
    assert!(!marker.exists());
    assert!(repo.wt("r1").exists());
    assert_eq!(fs::read(repo.manifest_path()).unwrap(), before);

    repo.run(["trust"]).ok();
    repo.run(["cleanup"]).ok();
    assert!(marker.exists());
    assert!(!repo.wt("r1").exists());
}

#[test]
fn trust_refuses_a_missing_or_invalid_file() {
    let repo = TestRepo::new();
    let run = repo.run(["--json", "trust"]);
    run.code(1);
    assert_eq!(run.json()["error"]["code"], "nothing-to-trust");

    fs::write(
        repo.root.join(".git-loop.toml"),
        "[create]\npost-command = 3\n",
    )
    .unwrap();
    let run = repo.run(["trust"]);
    run.code(1);
    assert!(run.stderr.contains(".git-loop.toml"), "{}", run.stderr);
    assert!(!repo.root.join(".git/git-loop/trusted").exists());
}

/// A committed `setup.sh` that appends `tag` to a log outside the
/// repository, and a `.git-loop.toml` whose hooks run it.
fn script_repo(repo: &TestRepo, log: &std::path::Path, tag: &str) {
    write_script(repo, &repo.root, log, tag);
    fs::write(
        repo.root.join(".git-loop.toml"),
        "[create]\npost-command = \"sh ./setup.sh\"\n[cleanup]\npre-command = \"sh setup.sh\"\n",
    )
    .unwrap();
    repo.git(["add", "setup.sh", ".git-loop.toml"]);
    repo.git(["commit", "-qm", "hooks"]);
}

fn write_script(repo: &TestRepo, dir: &std::path::Path, log: &std::path::Path, tag: &str) {
    let _ = repo;
    fs::write(
        dir.join("setup.sh"),
        format!("echo {tag} >> '{}'\n", log.display()),
    )
    .unwrap();
}

#[test]
fn trust_covers_the_files_a_hook_names_and_a_changed_one_is_refused() {
    let repo = TestRepo::new();
    let log = repo.base().join("setup.log");
    script_repo(&repo, &log, "trusted");
    repo.run(["trust"]).ok();
    repo.create("r1");
    assert_eq!(fs::read_to_string(&log).unwrap(), "trusted\n");

    // A pull changes the script, not the TOML: the hook is untrusted.
    write_script(&repo, &repo.root, &log, "pulled");
    repo.git(["commit", "-qam", "a pull"]);
    let run = repo.run(["--json", "create", "r2", "--pattern", "p"]);
    run.code(1);
    assert_eq!(run.json()["error"]["code"], "untrusted-hook");
    assert!(run.stderr.contains("setup.sh"), "{}", run.stderr);
    assert!(run.stderr.contains("git loop trust"), "{}", run.stderr);
    assert!(!repo.wt("r2").exists());
    assert_eq!(fs::read_to_string(&log).unwrap(), "trusted\n");

    // Trusted again, the new content runs; trust says what it covers.
    let trust = repo.run(["--json", "trust"]);
    trust.ok();
    assert_eq!(trust.json()["alreadyTrusted"], false);
    let blob = repo.git(["hash-object", "setup.sh"]);
    assert_eq!(trust.json()["files"]["setup.sh"], blob.trim());
    let human = repo.run(["trust"]);
    assert!(human.stdout.contains("setup.sh"), "{}", human.stdout);
    assert!(human.stdout.contains("not covered"), "{}", human.stdout);
    repo.create("r2");
    assert_eq!(fs::read_to_string(&log).unwrap(), "trusted\npulled\n");
}

#[test]
fn a_named_file_is_checked_where_the_hook_runs() {
    let repo = TestRepo::new();
    let log = repo.base().join("setup.log");
    script_repo(&repo, &log, "trusted");
    repo.run(["trust"]).ok();
    // The base has another setup.sh; the main work tree still the trusted one.
    repo.git(["switch", "-qc", "other"]);
    write_script(&repo, &repo.root, &log, "other-base");
    repo.git(["commit", "-qam", "elsewhere"]);
    repo.git(["switch", "-q", "main"]);
    let run = repo.run([
        "--json",
        "create",
        "r1",
        "--pattern",
        "p",
        "--base",
        "other",
    ]);
    run.code(1);
    assert_eq!(run.json()["error"]["code"], "untrusted-hook");
    assert!(run.stderr.contains("setup.sh"), "{}", run.stderr);
    assert!(!log.exists(), "the changed script ran");

    // A run that edits the script in its own worktree: cleanup's
    // pre-command does not run it, and nothing is removed.
    repo.create("r2");
    assert_eq!(fs::read_to_string(&log).unwrap(), "trusted\n");
    write_script(&repo, &repo.wt("r2"), &log, "agent");
    repo.run(["mark", "r2", "rejected"]).ok();
    let run = repo.run(["--json", "cleanup"]);
    run.code(1);
    assert_eq!(run.json()["error"]["code"], "untrusted-hook");
    assert!(repo.wt("r2").join("setup.sh").is_file());
    assert_eq!(fs::read_to_string(&log).unwrap(), "trusted\n");
}

/// create's progress lines (what was created, what was copied) come before
/// the post-command's output on the shared stderr, not after it.
#[test]
fn create_says_what_it_made_before_the_post_command_runs() {
    let repo = TestRepo::new();
    repo.git(["config", "loop.createPostCommand", "echo HOOK-SAYS-HI"]);
    let run = repo.run(["create", "h", "--pattern", "p"]);
    run.ok();
    let created = run
        .stderr
        .find("created .loop-worktrees/h on branch loop/h")
        .unwrap_or_else(|| panic!("{}", run.stderr));
    let hook = run
        .stderr
        .find("HOOK-SAYS-HI")
        .unwrap_or_else(|| panic!("{}", run.stderr));
    assert!(created < hook, "{}", run.stderr);
    assert!(
        run.stdout.ends_with(".loop-worktrees/h\n"),
        "{}",
        run.stdout
    );

    // A failing post-command: created first, the hook, then the error.
    repo.git([
        "config",
        "loop.createPostCommand",
        "echo HOOK-FAILS; exit 3",
    ]);
    let run = repo.run(["create", "f", "--pattern", "p"]);
    run.code(1);
    let created = run.stderr.find("created .loop-worktrees/f").unwrap();
    let hook = run.stderr.find("HOOK-FAILS").unwrap();
    let error = run.stderr.find("error:").unwrap();
    assert!(created < hook && hook < error, "{}", run.stderr);

    // --json and --quiet: no progress lines, the hook's output only.
    for (flag, id) in [("--json", "j"), ("--quiet", "q")] {
        let run = repo.run([flag, "create", id, "--pattern", "p"]);
        run.code(1);
        assert!(!run.stderr.contains("created "), "{}", run.stderr);
        assert!(run.stderr.contains("HOOK-FAILS"), "{}", run.stderr);
    }
}
