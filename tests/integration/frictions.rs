//! Frictions found in review, one test each: config messages that help,
//! `create` saying what it edits and finding the repository's default
//! branch, and the silent successes of `path`, `log`, `list` and `run`.

use std::fs;

use crate::common::{Run, TestRepo, json_message, manifest_with};

// ---- configuration ----------------------------------------------------

/// The help of a broken `.git-loop.toml` names the file, the line and the
/// key to fix, not `git loop config` (which fails the same way).
#[test]
fn broken_repo_toml_help_names_the_file_line_and_key() {
    let repo = TestRepo::new();
    let file = repo.root.join(".git-loop.toml");
    let cases = [
        (
            "base = \"main\"\n\n[cleanup]\nstatus = [\"bogus\"]\n",
            "line 4 (`cleanup.status`)",
        ),
        (
            "base = \"main\"\n[cleanup]\nolder-than = \"1w\"\n",
            "line 3 (`cleanup.older-than`)",
        ),
        ("[create]\ncopy = [\"../up\"]\n", "line 2 (`create.copy`)"),
        ("# comment\nbsae = \"x\"\n", "line 2 (`bsae`)"),
        ("\nbase = \n", "line 2"),
    ];
    for (text, at) in cases {
        fs::write(&file, text).unwrap();
        for args in [&["config"][..], &["create", "a", "--pattern", "p"]] {
            let run = repo.run(args);
            run.code(1);
            let help = run
                .stderr
                .lines()
                .find_map(|l| l.strip_prefix("  help: "))
                .unwrap_or_else(|| panic!("no help: {}", run.stderr));
            assert!(
                help.contains(&file.display().to_string()) && help.contains(at),
                "{text:?}: {help}"
            );
            assert!(!help.contains("git loop config"), "{help}");
        }
    }
    assert!(!repo.loop_dir().exists());
}

/// An unknown key is quoted once (no ``one of `base`…``), with the keys
/// that are valid there.
#[test]
fn unknown_key_message_has_single_backticks_and_the_valid_keys() {
    let repo = TestRepo::new();
    fs::write(
        repo.root.join(".git-loop.toml"),
        "[create]\npost-comand = \"x\"\n",
    )
    .unwrap();
    let run = repo.run(["--json", "config"]);
    run.code(1);
    let message = json_message(&run);
    assert!(!message.contains("``"), "{message}");
    assert!(
        message.contains("unknown key `create.post-comand`"),
        "{message}"
    );
    assert!(message.contains("create.post-command"), "{message}");
}

/// Each message names its layer once.
#[test]
fn invalid_values_name_their_layer_once() {
    let repo = TestRepo::new();
    repo.git(["config", "loop.base", ""]);
    let message = json_message(&repo.run(["--json", "config"]));
    assert_eq!(message.matches(".git/config").count(), 1, "{message}");
    assert_eq!(message.matches("loop.base").count(), 1, "{message}");
    repo.git(["config", "--unset", "loop.base"]);

    fs::write(
        repo.root.join(".git-loop.toml"),
        "[create]\ncopy = [\"a/../..\"]\n",
    )
    .unwrap();
    let message = json_message(&repo.run(["--json", "config"]));
    assert_eq!(message.matches(".git-loop.toml").count(), 1, "{message}");
    fs::write(
        repo.root.join(".git-loop.toml"),
        "[create]\npost-command = \"a\\u0000\"\n",
    )
    .unwrap();
    let message = json_message(&repo.run(["--json", "config"]));
    assert_eq!(message.matches(".git-loop.toml").count(), 1, "{message}");
}

/// A boolean git would not accept lists the spellings it would.
#[test]
fn a_bad_boolean_lists_gits_spellings() {
    let repo = TestRepo::new();
    repo.git(["config", "loop.cleanupDeleteMergedBranches", "maybe"]);
    let run = repo.run(["--json", "config"]);
    run.code(1);
    let message = json_message(&run);
    for spelling in [
        "\"maybe\"",
        "true/false",
        "yes/no",
        "on/off",
        "1/0",
        "empty",
    ] {
        assert!(message.contains(spelling), "{spelling}: {message}");
    }
    // The help says how to fix it in the file that sets it.
    assert!(
        run.stderr
            .contains("--unset-all loop.cleanupDeleteMergedBranches"),
        "{}",
        run.stderr
    );
    repo.git(["config", "--unset", "loop.cleanupDeleteMergedBranches"]);
    let run = TestRepo::output(
        repo.command()
            .env("GIT_LOOP_CLEANUP_DELETE_MERGED_BRANCHES", "sometimes")
            .args(["--json", "config"]),
    );
    run.code(1);
    assert!(json_message(&run).contains("yes/no"), "{}", run.stdout);
}

/// The origins `git loop config --json` prints, exactly (the ordered
/// `Source` enum renders them as the strings did).
#[test]
fn config_sources_render_as_before() {
    let repo = TestRepo::new();
    let source = |envs: &[(&str, &str)], key: &str| {
        let mut cmd = repo.command();
        cmd.args(["--json", "config"]);
        for (k, v) in envs {
            cmd.env(k, v);
        }
        let run = TestRepo::output(&mut cmd);
        run.ok();
        run.json()[key]["source"].as_str().unwrap().to_owned()
    };
    assert_eq!(source(&[], "base"), "built-in default");
    let user = repo.home.join(".config/git-loop/config.toml");
    fs::create_dir_all(user.parent().unwrap()).unwrap();
    fs::write(&user, "base = \"u\"\n").unwrap();
    assert_eq!(source(&[], "base"), format!("TOML file {}", user.display()));
    let file = repo.root.join(".git-loop.toml");
    fs::write(&file, "base = \"r\"\n[create]\npost-command = \"x\"\n").unwrap();
    assert_eq!(source(&[], "base"), format!("TOML file {}", file.display()));
    assert_eq!(
        source(&[], "create.post-command"),
        format!(
            "TOML file {} (NOT trusted: will not run until `git loop trust`)",
            file.display()
        )
    );
    repo.git(["config", "loop.base", "g"]);
    assert_eq!(
        source(&[], "base"),
        format!(
            "git config loop.base in {}",
            repo.root.join(".git/config").display()
        )
    );
    assert_eq!(
        source(&[("GIT_CONFIG_PARAMETERS", "'loop.base'='c'")], "base"),
        "git config loop.base from the command line (git -c)"
    );
    assert_eq!(
        source(&[("GIT_LOOP_BASE", "e")], "base"),
        "environment GIT_LOOP_BASE"
    );
}

// ---- create -------------------------------------------------------------

/// `create` says once, on stderr, that it edited `.gitignore`.
#[test]
fn create_says_when_it_appends_to_gitignore() {
    let repo = TestRepo::new();
    let first = repo.create("a");
    assert!(
        first
            .stderr
            .contains("added .loop-worktrees/ to .gitignore")
            && first.stderr.contains("create.ignore-file"),
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

// ---- silent successes and output ----------------------------------------

#[test]
fn path_of_a_run_whose_worktree_is_gone_fails() {
    let repo = TestRepo::new();
    repo.write_manifest(&manifest_with(&[(
        "gone",
        "merged",
        "2026-01-01T00:00:00Z",
    )]));
    let run = repo.run(["path", "gone"]);
    run.code(1);
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr.contains(".loop-worktrees/gone"),
        "{}",
        run.stderr
    );
    let run = repo.run(["--json", "path", "gone"]);
    run.code(1);
    assert_eq!(run.json()["error"]["code"], "worktree-missing");
}

/// `log <id>` with no event naming the id says so on stderr (exit 0: an
/// empty history is an answer).
#[test]
fn log_of_an_unknown_id_says_so() {
    let repo = TestRepo::new();
    repo.create("a");
    let run = repo.run(["log", "nope"]);
    run.ok();
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr.contains("no event") && run.stderr.contains("\"nope\""),
        "{}",
        run.stderr
    );
    let run = repo.run(["--json", "log", "nope"]);
    run.ok();
    assert_eq!(run.json()["events"], serde_json::json!([]));
    assert_eq!(repo.run(["log", "a"]).stderr, "");
}

/// An empty `list` says so on stderr; stdout stays empty.
#[test]
fn an_empty_list_says_so_on_stderr() {
    let repo = TestRepo::new();
    let run = repo.run(["list"]);
    run.ok();
    assert_eq!(run.stdout, "");
    assert!(run.stderr.contains("no runs recorded"), "{}", run.stderr);
    assert_eq!(repo.run(["-q", "list"]).stderr, "");
    let run = repo.run(["--json", "list"]);
    assert_eq!(run.stderr, "");
    repo.create("a");
    let run = repo.run(["list", "--status", "merged"]);
    run.ok();
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr.contains("no run has status merged"),
        "{}",
        run.stderr
    );
}

/// A command that is not found exits 127; one that cannot be executed, 126.
#[test]
fn run_exits_127_for_a_missing_command_and_126_for_a_non_executable() {
    let repo = TestRepo::new();
    repo.create("r");
    let run = repo.run(["run", "r", "--", "no-such-command-here"]);
    run.code(127);
    assert!(
        run.stderr.contains("no-such-command-here"),
        "{}",
        run.stderr
    );
    let run = repo.run(["--json", "run", "r", "--", "./README"]);
    run.code(126);
    assert_eq!(run.json()["error"]["code"], "command-not-executable");
}

/// `log` prints every time at one width, to the second.
#[test]
fn log_times_have_a_fixed_width() {
    let repo = TestRepo::new();
    let at = |now: &str, args: &[&str]| {
        TestRepo::output(repo.command().env("GIT_LOOP_TEST_NOW", now).args(args)).ok();
    };
    at(
        "2026-11-30T19:30:50.123456789Z",
        &["create", "a", "--pattern", "p"],
    );
    at("2026-11-30T19:31:00Z", &["mark", "a", "merged"]);
    let run = repo.run(["log"]);
    run.ok();
    let times: Vec<&str> = run
        .stdout
        .lines()
        .map(|l| l.split(' ').next().unwrap())
        .collect();
    assert_eq!(
        times,
        ["2026-11-30T19:30:50Z", "2026-11-30T19:31:00Z"],
        "{}",
        run.stdout
    );
    // JSON keeps the time as stored.
    let v = repo.run(["--json", "log"]).json();
    assert_eq!(v["events"][0]["at"], "2026-11-30T19:30:50.123456789Z");
}
