//! Layered configuration: precedence on every key, invalid values per layer,
//! and messages that name the file, line, key and layer to fix. Hostile
//! configuration files: config_files.rs.

use std::fs;
use std::path::Path;
use std::process::Command;

use crate::common::{BIN, Run, TestRepo, json_message};

/// `git loop …` run through git itself, so `git -c` reaches us the way it does
/// for users (GIT_CONFIG_PARAMETERS).
fn through_git(repo: &TestRepo, dir: &Path, git_args: &[&str], envs: &[(&str, &str)]) -> Run {
    let bin_dir = Path::new(BIN).parent().unwrap();
    let mut cmd = Command::new("git");
    crate::common::hermetic(&mut cmd, &repo.home);
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    cmd.env("PATH", path).current_dir(dir).args(git_args);
    for (k, v) in envs {
        cmd.env(k, v);
    }
    TestRepo::output(&mut cmd)
}

fn config(repo: &TestRepo, envs: &[(&str, &str)]) -> serde_json::Value {
    let mut cmd = repo.command();
    cmd.args(["--json", "config"]);
    for (k, v) in envs {
        cmd.env(k, v);
    }
    let run = TestRepo::output(&mut cmd);
    run.ok();
    run.json()
}

fn value_and_source(v: &serde_json::Value, key: &str) -> (serde_json::Value, String) {
    (
        v[key]["value"].clone(),
        v[key]["source"].as_str().unwrap().to_owned(),
    )
}

#[test]
fn each_layer_overrides_the_one_below_on_every_key() {
    let repo = TestRepo::new();
    let v = config(&repo, &[]);
    assert_eq!(
        value_and_source(&v, "base"),
        ("main".into(), "built-in default".into())
    );
    assert_eq!(
        v["cleanup.status"]["value"],
        serde_json::json!(["rejected", "escalated"])
    );
    assert_eq!(v["cleanup.older-than"]["value"], serde_json::Value::Null);

    // user TOML
    let user = repo.home.join(".config/git-loop/config.toml");
    fs::create_dir_all(user.parent().unwrap()).unwrap();
    fs::write(
        &user,
        "base = \"u\"\n[cleanup]\nstatus = [\"stale\"]\nolder-than = \"1d\"\n",
    )
    .unwrap();
    let v = config(&repo, &[]);
    for (key, want) in [
        ("base", serde_json::json!("u")),
        ("cleanup.status", serde_json::json!(["stale"])),
        ("cleanup.older-than", serde_json::json!("1d")),
    ] {
        let (value, source) = value_and_source(&v, key);
        assert_eq!(value, want, "{key}");
        assert!(
            source.contains(&user.display().to_string()),
            "{key}: {source}"
        );
    }

    // repo TOML (a CSV string is accepted too)
    let repo_toml = repo.root.join(".git-loop.toml");
    fs::write(
        &repo_toml,
        "base = \"r\"\n[cleanup]\nstatus = \"merged,stale\"\nolder-than = \"2h\"\n",
    )
    .unwrap();
    // Trusted: `cleanup.status` weakens a guard (untrusted.rs).
    repo.run(["trust"]).ok();
    let v = config(&repo, &[]);
    for (key, want) in [
        ("base", serde_json::json!("r")),
        ("cleanup.status", serde_json::json!(["merged", "stale"])),
        ("cleanup.older-than", serde_json::json!("2h")),
    ] {
        let (value, source) = value_and_source(&v, key);
        assert_eq!(value, want, "{key}");
        assert!(source.contains(".git-loop.toml"), "{key}: {source}");
    }

    // git config (local), keys case-insensitive as in git
    repo.git(["config", "LOOP.BASE", "g"]);
    repo.git(["config", "loop.cleanupstatus", "escalated"]);
    repo.git(["config", "loop.CleanupOlderThan", "3m"]);
    let v = config(&repo, &[]);
    for (key, want, gitkey) in [
        ("base", serde_json::json!("g"), "loop.base"),
        (
            "cleanup.status",
            serde_json::json!(["escalated"]),
            "loop.cleanupStatus",
        ),
        (
            "cleanup.older-than",
            serde_json::json!("3m"),
            "loop.cleanupOlderThan",
        ),
    ] {
        let (value, source) = value_and_source(&v, key);
        assert_eq!(value, want, "{key}");
        assert!(
            source.contains(gitkey) && source.contains(".git/config"),
            "{key}: {source}"
        );
    }

    // environment
    let env = [
        ("GIT_LOOP_BASE", "e"),
        ("GIT_LOOP_CLEANUP_STATUS", "rejected"),
        ("GIT_LOOP_CLEANUP_OLDER_THAN", "45s"),
    ];
    let v = config(&repo, &env);
    for (key, want, var) in [
        ("base", serde_json::json!("e"), "GIT_LOOP_BASE"),
        (
            "cleanup.status",
            serde_json::json!(["rejected"]),
            "GIT_LOOP_CLEANUP_STATUS",
        ),
        (
            "cleanup.older-than",
            serde_json::json!("45s"),
            "GIT_LOOP_CLEANUP_OLDER_THAN",
        ),
    ] {
        let (value, source) = value_and_source(&v, key);
        assert_eq!(value, want, "{key}");
        assert!(source.contains(var), "{key}: {source}");
    }
    // An empty variable counts as unset.
    let v = config(&repo, &[("GIT_LOOP_BASE", "")]);
    assert_eq!(v["base"]["value"], "g");

    // flags beat the environment: create --base.
    repo.git(["branch", "flagged"]);
    let mut cmd = repo.command();
    cmd.args([
        "--json",
        "create",
        "f",
        "--pattern",
        "p",
        "--base",
        "flagged",
    ]);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let run = TestRepo::output(&mut cmd);
    run.ok();
    assert_eq!(run.json()["baseBranch"], "flagged");
}

#[test]
fn xdg_config_home_wins_over_home_dot_config() {
    let repo = TestRepo::new();
    let home_cfg = repo.home.join(".config/git-loop/config.toml");
    fs::create_dir_all(home_cfg.parent().unwrap()).unwrap();
    fs::write(&home_cfg, "base = \"home\"\n").unwrap();
    let xdg = repo.base().join("xdg");
    fs::create_dir_all(xdg.join("git-loop")).unwrap();
    fs::write(xdg.join("git-loop/config.toml"), "base = \"xdg\"\n").unwrap();
    assert_eq!(
        config(&repo, &[])["base"]["value"],
        "home",
        "XDG_CONFIG_HOME is <home>/.config in the fixture"
    );
    assert_eq!(
        config(&repo, &[("XDG_CONFIG_HOME", xdg.to_str().unwrap())])["base"]["value"],
        "xdg"
    );
}

#[test]
fn git_cascade_system_global_local_worktree_include_and_command_line() {
    let repo = TestRepo::new();
    let system = repo.base().join("system-gitconfig");
    fs::write(&system, "[loop]\n\tbase = sys\n").unwrap();
    let run = |envs: &[(&str, &str)]| {
        let mut cmd = repo.command();
        cmd.env_remove("GIT_CONFIG_NOSYSTEM")
            .env("GIT_CONFIG_SYSTEM", &system)
            .args(["--json", "config"]);
        for (k, v) in envs {
            cmd.env(k, v);
        }
        let r = TestRepo::output(&mut cmd);
        r.ok();
        r.json()
    };
    let v = run(&[]);
    assert_eq!(v["base"]["value"], "sys");
    assert!(
        v["base"]["source"]
            .as_str()
            .unwrap()
            .contains("system-gitconfig")
    );

    fs::write(repo.home.join("gitconfig"), "[loop]\n\tbase = glob\n").unwrap();
    assert_eq!(run(&[])["base"]["value"], "glob");

    // An include from the local config counts at the local level.
    let inc = repo.base().join("included");
    fs::write(&inc, "[loop]\n\tbase = inc\n").unwrap();
    repo.git(["config", "include.path", inc.to_str().unwrap()]);
    let v = run(&[]);
    assert_eq!(v["base"]["value"], "inc");
    assert!(
        v["base"]["source"].as_str().unwrap().contains("included"),
        "{v}"
    );
    repo.git(["config", "loop.base", "local"]);
    assert_eq!(run(&[])["base"]["value"], "local");

    // GIT_CONFIG_COUNT beats the files.
    let v = run(&[
        ("GIT_CONFIG_COUNT", "1"),
        ("GIT_CONFIG_KEY_0", "loop.base"),
        ("GIT_CONFIG_VALUE_0", "counted"),
    ]);
    assert_eq!(v["base"]["value"], "counted");

    // Worktree-specific config, seen from inside that worktree.
    repo.run(["create", "w", "--pattern", "p", "--base", "main"])
        .ok();
    repo.git(["config", "extensions.worktreeConfig", "true"]);
    let out = repo.git_in(&repo.wt("w"), ["config", "--worktree", "loop.base", "wt"]);
    assert!(out.status.success());
    let mut cmd = repo.command();
    cmd.current_dir(repo.wt("w")).args(["--json", "config"]);
    let r = TestRepo::output(&mut cmd);
    r.ok();
    assert_eq!(r.json()["base"]["value"], "wt");
    assert_eq!(
        config(&repo, &[])["base"]["value"],
        "local",
        "the main worktree does not see it"
    );

    // `git -c loop.base=x loop …` beats every file.
    let r = through_git(
        &repo,
        &repo.root,
        &["-c", "loop.base=cli value", "loop", "--json", "config"],
        &[],
    );
    r.ok();
    assert_eq!(r.json()["base"]["value"], "cli value");
    assert!(
        r.json()["base"]["source"]
            .as_str()
            .unwrap()
            .contains("command line")
    );
}

#[test]
fn git_dash_c_base_is_used_by_create() {
    let repo = TestRepo::new();
    repo.git(["branch", "dev"]);
    repo.git(["branch", "-m", "main", "trunk"]);
    let r = through_git(
        &repo,
        &repo.root,
        &[
            "-c",
            "loop.base=dev",
            "loop",
            "--json",
            "create",
            "x",
            "--pattern",
            "p",
        ],
        &[],
    );
    r.ok();
    assert_eq!(r.json()["baseBranch"], "dev");
    // And a base from a layer that does not resolve names that layer and the key.
    let r = through_git(
        &repo,
        &repo.root,
        &[
            "-c",
            "loop.base=nowhere",
            "loop",
            "create",
            "y",
            "--pattern",
            "p",
        ],
        &[],
    );
    r.code(1);
    assert!(
        r.stderr.contains("nowhere")
            && r.stderr.contains("command line")
            && r.stderr.contains("loop.base"),
        "{}",
        r.stderr
    );
}

#[test]
fn an_invalid_value_in_each_layer_names_the_layer_and_changes_nothing() {
    let user = ".config/git-loop/config.toml";
    type Setup = Box<dyn Fn(&TestRepo) -> Vec<(String, String)>>;
    let cases: Vec<(&str, Setup, &str)> = vec![
        (
            "user toml status",
            Box::new(move |r: &TestRepo| {
                let p = r.home.join(user);
                fs::create_dir_all(p.parent().unwrap()).unwrap();
                fs::write(p, "[cleanup]\nstatus = [\"bogus\"]\n").unwrap();
                vec![]
            }),
            "config.toml",
        ),
        (
            "user toml syntax",
            Box::new(move |r: &TestRepo| {
                let p = r.home.join(user);
                fs::create_dir_all(p.parent().unwrap()).unwrap();
                fs::write(p, "base = \n").unwrap();
                vec![]
            }),
            "config.toml",
        ),
        (
            "repo toml cutoff",
            Box::new(|r: &TestRepo| {
                fs::write(
                    r.root.join(".git-loop.toml"),
                    "[cleanup]\nolder-than = \"1w\"\n",
                )
                .unwrap();
                vec![]
            }),
            ".git-loop.toml",
        ),
        (
            "repo toml unknown key",
            Box::new(|r: &TestRepo| {
                fs::write(r.root.join(".git-loop.toml"), "bsae = \"x\"\n").unwrap();
                vec![]
            }),
            ".git-loop.toml",
        ),
        (
            "repo toml wrong type",
            Box::new(|r: &TestRepo| {
                fs::write(r.root.join(".git-loop.toml"), "base = 5\n").unwrap();
                vec![]
            }),
            ".git-loop.toml",
        ),
        (
            "git config status",
            Box::new(|r: &TestRepo| {
                r.git(["config", "loop.cleanupStatus", "rejected,nope"]);
                vec![]
            }),
            "loop.cleanupStatus",
        ),
        (
            "git config cutoff",
            Box::new(|r: &TestRepo| {
                r.git(["config", "loop.cleanupOlderThan", "24"]);
                vec![]
            }),
            "loop.cleanupOlderThan",
        ),
        (
            "git config empty base",
            Box::new(|r: &TestRepo| {
                r.git(["config", "loop.base", ""]);
                vec![]
            }),
            "loop.base",
        ),
        (
            "env status",
            Box::new(|_: &TestRepo| vec![("GIT_LOOP_CLEANUP_STATUS".into(), "all".into())]),
            "GIT_LOOP_CLEANUP_STATUS",
        ),
        (
            "env cutoff",
            Box::new(|_: &TestRepo| vec![("GIT_LOOP_CLEANUP_OLDER_THAN".into(), "-1h".into())]),
            "GIT_LOOP_CLEANUP_OLDER_THAN",
        ),
        (
            "git config copy pattern",
            Box::new(|r: &TestRepo| {
                r.git(["config", "--add", "loop.createCopy", ".env"]);
                r.git(["config", "--add", "loop.createCopy", "a/../../b"]);
                vec![]
            }),
            "a/../../b",
        ),
        (
            "env copy pattern",
            Box::new(|_: &TestRepo| vec![("GIT_LOOP_CREATE_COPY".into(), ".env,!".into())]),
            "GIT_LOOP_CREATE_COPY",
        ),
        (
            "repo toml hook type",
            Box::new(|r: &TestRepo| {
                fs::write(
                    r.root.join(".git-loop.toml"),
                    "[cleanup]\npre-command = [\"a\"]\n",
                )
                .unwrap();
                vec![]
            }),
            ".git-loop.toml",
        ),
        (
            "user toml unknown create key",
            Box::new(move |r: &TestRepo| {
                let p = r.home.join(user);
                fs::create_dir_all(p.parent().unwrap()).unwrap();
                fs::write(p, "[create]\npost-comand = \"x\"\n").unwrap();
                vec![]
            }),
            "post-comand",
        ),
    ];
    for (what, setup, names) in cases {
        let repo = TestRepo::new();
        let envs = setup(&repo);
        // Overridden by a valid higher layer or not, a broken value is an error.
        for args in [
            &["--json", "config"][..],
            &["--json", "create", "a", "--pattern", "p", "--base", "main"],
            &[
                "--json",
                "cleanup",
                "--status",
                "rejected",
                "--older-than",
                "1h",
            ],
        ] {
            let mut cmd = repo.command();
            cmd.args(args);
            for (k, v) in &envs {
                cmd.env(k, v);
            }
            let run = TestRepo::output(&mut cmd);
            run.code(1);
            let message = run.json()["error"]["message"].as_str().unwrap().to_owned();
            assert!(message.contains(names), "{what}: {args:?}: {message}");
        }
        assert!(!repo.loop_dir().exists(), "{what}: nothing written");
        assert!(!repo.branch_exists("loop/a"));
    }
}

#[test]
fn commands_that_need_no_setting_ignore_a_broken_config() {
    let repo = TestRepo::new();
    repo.create("a");
    fs::write(repo.root.join(".git-loop.toml"), "base = 5\n").unwrap();
    repo.run(["list"]).ok();
    repo.run(["path", "a"]).ok();
    repo.run(["mark", "a", "merged"]).ok();
    repo.run(["reconcile"]).ok();
}

#[test]
fn cleanup_uses_the_configured_status_set_and_cutoff() {
    let repo = TestRepo::new();
    repo.create("old");
    repo.create("young");
    repo.create("rej");
    repo.run(["mark", "old", "stale"]).ok();
    repo.run(["mark", "young", "stale"]).ok();
    repo.run(["mark", "rej", "rejected"]).ok();
    let mut m = repo.manifest();
    m["worktrees"][0]["createdAt"] = "2026-01-01T00:00:00Z".into();
    m["worktrees"][1]["createdAt"] = "2026-01-09T00:00:00Z".into();
    m["worktrees"][2]["createdAt"] = "2026-01-01T00:00:00Z".into();
    repo.write_manifest(&m.to_string());
    repo.git(["config", "loop.cleanupStatus", "stale"]);
    let run = TestRepo::output(
        repo.command()
            .env("GIT_LOOP_TEST_NOW", "2026-01-10T00:00:00Z")
            .env("GIT_LOOP_CLEANUP_OLDER_THAN", "2d")
            .args(["--json", "cleanup"]),
    );
    run.ok();
    let v = run.json();
    let removed: Vec<&str> = v["removed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert_eq!(removed, ["old"]);
    assert_eq!(repo.ids(), ["young", "rej"]);
}

#[test]
fn copy_and_hook_keys_follow_the_same_layers() {
    let repo = TestRepo::new();
    let v = config(&repo, &[]);
    assert_eq!(
        value_and_source(&v, "create.copy"),
        (serde_json::json!([]), "built-in default".into())
    );
    assert_eq!(v["create.post-command"]["value"], serde_json::Value::Null);
    assert_eq!(v["cleanup.pre-command"]["value"], serde_json::Value::Null);

    let user = repo.home.join(".config/git-loop/config.toml");
    fs::create_dir_all(user.parent().unwrap()).unwrap();
    fs::write(
        &user,
        "[create]\ncopy = [\".env\"]\npost-command = \"make setup\"\n[cleanup]\npre-command = \"true\"\n",
    )
    .unwrap();
    let v = config(&repo, &[]);
    let (copy, source) = value_and_source(&v, "create.copy");
    assert_eq!(copy, serde_json::json!([".env"]));
    assert!(source.contains("config.toml"), "{source}");
    let (hook, source) = value_and_source(&v, "create.post-command");
    assert_eq!(hook, "make setup");
    assert!(
        source.contains("config.toml") && !source.contains("trusted"),
        "a user file's hook needs no trust: {source}"
    );

    // git config replaces the list (a multivar), the environment beats it.
    repo.git(["config", "--add", "loop.createCopy", ".env.local"]);
    repo.git(["config", "--add", "loop.createCopy", "secrets/*.key"]);
    repo.git(["config", "loop.cleanupPreCommand", "./check"]);
    let v = config(&repo, &[]);
    assert_eq!(
        v["create.copy"]["value"],
        serde_json::json!([".env.local", "secrets/*.key"])
    );
    assert!(
        v["cleanup.pre-command"]["source"]
            .as_str()
            .unwrap()
            .contains("loop.cleanupPreCommand")
    );
    let v = config(
        &repo,
        &[
            ("GIT_LOOP_CREATE_COPY", ".a, .b"),
            ("GIT_LOOP_CREATE_POST_COMMAND", "npm ci"),
        ],
    );
    assert_eq!(v["create.copy"]["value"], serde_json::json!([".a", ".b"]));
    assert_eq!(
        value_and_source(&v, "create.post-command"),
        (
            serde_json::json!("npm ci"),
            "environment GIT_LOOP_CREATE_POST_COMMAND".into()
        )
    );
}

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

/// In a `master` repository `config` shows the base the commands use, and
/// why: not the built-in `main` that does not exist.
#[test]
fn config_shows_the_base_actually_used_and_why() {
    let repo = TestRepo::new();
    repo.git(["branch", "-m", "main", "master"]);
    let run = repo.run(["--json", "config"]);
    run.ok();
    assert_eq!(run.json()["base"]["value"], "master");
    assert_eq!(
        run.json()["base"]["source"],
        "default branch (\"main\" does not exist; the older default name)"
    );
    let text = repo.run(["config"]).ok().stdout.clone();
    // A header, then each setting with its git config key.
    let mut lines = text.lines();
    assert!(lines.next().unwrap().starts_with("SETTING"), "{text}");
    let line = lines.next().unwrap();
    assert!(
        line.starts_with("base ")
            && line.contains(" loop.base ")
            && line.contains("master")
            && line.contains("default branch"),
        "{text}"
    );
    // A base that is set is shown as set, even where it does not resolve.
    repo.git(["config", "loop.base", "develop"]);
    let run = repo.run(["--json", "config"]);
    assert_eq!(run.json()["base"]["value"], "develop");
    assert!(
        run.json()["base"]["source"]
            .as_str()
            .unwrap()
            .starts_with("git config"),
        "{}",
        run.json()
    );
}

/// The help for an invalid value of the multi-valued `loop.createCopy`
/// suggests a command that works on it (a plain `git config <key> <value>`
/// fails: "cannot overwrite multiple values").
#[test]
fn the_fix_suggested_for_a_multivalued_key_works() {
    let repo = TestRepo::new();
    repo.git(["config", "--add", "loop.createCopy", "target/"]);
    repo.git(["config", "--add", "loop.createCopy", "!"]);
    let run = repo.run(["config"]);
    run.code(1);
    let fix = run
        .stderr
        .split_once("set it with `")
        .and_then(|(_, rest)| rest.split_once('`'))
        .map(|(command, _)| command.replace("<value>", "target/"))
        .unwrap_or_else(|| panic!("{}", run.stderr));
    assert!(fix.contains("--replace-all loop.createCopy"), "{fix}");
    let words: Vec<&str> = fix.split_whitespace().collect();
    assert_eq!(words[0], "git", "{fix}");
    repo.git(&words[1..]);
    repo.run(["config"]).ok();
}

/// `land.gate` follows the layers like the hooks: git config, then the
/// environment; from the repository's own file it is marked untrusted until
/// `git loop trust`, which lists it among the commands it trusts.
#[test]
fn land_gate_follows_the_layers_and_the_hooks_trust() {
    let repo = TestRepo::new();
    assert_eq!(
        value_and_source(&config(&repo, &[]), "land.gate"),
        (serde_json::Value::Null, "built-in default".into())
    );
    fs::write(
        repo.root.join(".git-loop.toml"),
        "[land]\ngate = \"sh ./check.sh\"\n",
    )
    .unwrap();
    fs::write(repo.root.join("check.sh"), "exit 0\n").unwrap();
    let (gate, source) = value_and_source(&config(&repo, &[]), "land.gate");
    assert_eq!(gate, "sh ./check.sh");
    assert!(source.contains("NOT trusted"), "{source}");
    let trust = repo.run(["--json", "trust"]);
    trust.ok();
    let t = trust.json();
    assert_eq!(t["hooks"]["land.gate"], "sh ./check.sh", "{t}");
    assert!(t["files"]["check.sh"].is_string(), "{t}");
    let (_, source) = value_and_source(&config(&repo, &[]), "land.gate");
    assert!(source.contains("(trusted)"), "{source}");
    repo.git(["config", "loop.landGate", "make test"]);
    let (gate, source) = value_and_source(&config(&repo, &[]), "land.gate");
    assert_eq!(gate, "make test");
    assert!(source.starts_with("git config loop.landGate"), "{source}");
    let v = config(&repo, &[("GIT_LOOP_LAND_GATE", "cargo test")]);
    assert_eq!(
        value_and_source(&v, "land.gate"),
        ("cargo test".into(), "environment GIT_LOOP_LAND_GATE".into())
    );
    // An empty value turns a lower layer's gate off.
    let v = config(&repo, &[("GIT_LOOP_LAND_GATE", " ")]);
    assert_eq!(v["land.gate"]["value"], serde_json::Value::Null);
    let text = repo.run(["config"]);
    text.ok();
    assert!(
        text.stdout
            .lines()
            .any(|l| l.starts_with("land.gate ") && l.contains("make test")),
        "{}",
        text.stdout
    );
}

/// A `loop.*` git config key that is no setting gets a warning naming the
/// key git-loop reads in its place (the same words, or a typo of one); a
/// key that is a setting gets none. Nothing else changes.
#[test]
fn an_unknown_loop_key_is_warned_about_naming_the_right_one() {
    let repo = TestRepo::new();
    repo.git(["config", "loop.base", "main"]);
    let quiet = repo.run(["config"]);
    quiet.ok();
    assert!(!quiet.stderr.contains("warning"), "{}", quiet.stderr);
    repo.git(["config", "loop.cleanup.status", "merged"]);
    repo.git(["config", "loop.cleanupStaus", "merged"]);
    let run = repo.run(["config"]);
    run.ok();
    assert!(
        run.stderr.contains(
            "warning: git config loop.cleanup.status is no git-loop setting, and does nothing; did you mean loop.cleanupStatus?"
        ),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("loop.cleanupStaus is no git-loop setting, and does nothing; did you mean loop.cleanupStatus?"),
        "{}",
        run.stderr
    );
    // Neither applies: the default stands.
    assert!(
        run.stdout
            .lines()
            .any(|l| l.starts_with("cleanup.status ") && l.contains("rejected,escalated")),
        "{}",
        run.stdout
    );
}

/// git config is the one way to change a setting: `config` says so under its
/// table with a real key, and the command it gives works (`-q`: no note).
#[test]
fn config_says_how_to_change_a_setting_and_the_command_works() {
    let repo = TestRepo::new();
    let run = repo.run(["config"]);
    run.ok();
    let note = "to change one: git config <GIT CONFIG key> <value> (this repository; --global for all of yours), e.g. git config loop.cleanupStatus rejected";
    assert!(run.stderr.contains(note), "{}", run.stderr);
    assert!(!repo.run(["-q", "config"]).ok().stderr.contains("to change"));
    assert!(
        !repo
            .run(["--json", "config"])
            .ok()
            .stderr
            .contains("to change")
    );
    repo.git(["config", "loop.cleanupStatus", "rejected"]);
    let v = repo.run(["--json", "config"]).ok().json();
    assert_eq!(
        v["cleanup.status"]["value"],
        serde_json::json!(["rejected"])
    );
}

/// The fleet's settings: `fleet.lease` 2h and no name or remote set by
/// default (the host name and the base's upstream remote, resolved when
/// used); a `fleet.name` that is no run id is refused, naming the layer.
#[test]
fn the_fleet_settings_default_and_an_invalid_machine_name_is_refused() {
    let repo = TestRepo::new();
    let v = repo.run(["--json", "config"]).ok().json();
    assert_eq!(v["fleet.lease"]["value"], "2h");
    assert_eq!(v["fleet.name"]["value"], serde_json::Value::Null);
    assert_eq!(v["fleet.remote"]["value"], serde_json::Value::Null);
    repo.git(["config", "loop.fleetName", "laptop"]);
    repo.git(["config", "loop.fleetLease", "30m"]);
    let v = repo.run(["--json", "config"]).ok().json();
    assert_eq!(v["fleet.name"]["value"], "laptop");
    assert_eq!(v["fleet.lease"]["value"], "30m");
    for bad in ["../x", "a/b", "-x", "x.lock"] {
        repo.git(["config", "loop.fleetName", bad]);
        let run = repo.run(["--json", "config"]);
        run.code(1);
        let msg = json_message(&run);
        assert!(
            msg.contains("loop.fleetName") && msg.contains("not a machine name"),
            "{bad}: {msg}"
        );
    }
}
