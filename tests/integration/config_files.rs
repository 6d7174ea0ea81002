//! Reading configuration files that are hostile: a committed `.git-loop.toml`
//! that is a symlink (to a secret, to `/dev/zero`), a FIFO or huge is refused
//! without hanging and without echoing its target; the user's own config may
//! be a symlink to a regular file.

use std::process::Command;

use crate::common::{TestRepo, assert_nothing_written, run_raw};

/// The commands that read `.git-loop.toml`, human and `--json`.
const READERS: [&[&str]; 6] = [
    &["config"],
    &["--json", "config"],
    &["create", "x", "--pattern", "p"],
    &["--json", "create", "x", "--pattern", "p"],
    &["trust"],
    &["--json", "trust"],
];

/// Every reader refuses with `unsafe-path` naming `.git-loop.toml`, changes
/// nothing, and never prints `secret`.
fn assert_refused(repo: &TestRepo, secret: Option<&str>, why: &str) {
    for args in READERS {
        let run = run_raw(repo, args);
        run.code(1);
        let both = run.both();
        if let Some(secret) = secret {
            assert!(
                !both.contains(secret),
                "{args:?} printed the secret: {both}"
            );
        }
        assert!(
            run.stderr().contains(".git-loop.toml") && run.stderr().contains(why),
            "{args:?}: the refusal must name the file and say why: {}",
            run.stderr()
        );
        if args[0] == "--json" {
            let doc = run.json();
            assert_eq!(doc["error"]["code"], "unsafe-path", "{args:?}: {doc}");
        }
        assert_nothing_written(repo);
    }
}

#[test]
fn a_symlinked_repo_config_is_refused_and_its_target_never_echoed() {
    for content in ["password = hunter2\n", "password = \"hunter2\"\n"] {
        let repo = TestRepo::new();
        let secret = repo.base().join("secret");
        std::fs::write(&secret, content).unwrap();
        std::os::unix::fs::symlink(&secret, repo.root.join(".git-loop.toml")).unwrap();
        assert_refused(&repo, Some("hunter2"), "symlink");
    }
}

#[test]
fn a_repo_config_linked_to_dev_zero_or_a_fifo_is_refused_without_hanging() {
    let repo = TestRepo::new();
    std::os::unix::fs::symlink("/dev/zero", repo.root.join(".git-loop.toml")).unwrap();
    assert_refused(&repo, None, "symlink");

    let repo = TestRepo::new();
    let fifo = repo.root.join(".git-loop.toml");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    assert_refused(&repo, None, "not a regular file");
}

#[test]
fn an_oversized_repo_config_is_refused_naming_the_cap() {
    let repo = TestRepo::new();
    // Valid TOML (comments), 2 MiB.
    let line = format!("# {}\n", "x".repeat(1021));
    std::fs::write(repo.root.join(".git-loop.toml"), line.repeat(2048)).unwrap();
    assert_refused(&repo, None, "larger than 1048576 bytes");
}

#[test]
fn the_user_config_may_be_a_symlink_but_must_lead_to_a_regular_file() {
    let repo = TestRepo::new();
    let dir = repo.home.join(".config").join("git-loop");
    std::fs::create_dir_all(&dir).unwrap();
    let target = repo.home.join("dotfiles-config.toml");
    std::fs::write(&target, "base = \"main\"\n").unwrap();
    let user = dir.join("config.toml");
    std::os::unix::fs::symlink(&target, &user).unwrap();
    let run = run_raw(&repo, &["--json", "config"]);
    run.code(0);
    let source = run.json()["base"]["source"].as_str().unwrap().to_owned();
    assert_eq!(source, format!("TOML file {}", user.display()));

    std::fs::remove_file(&user).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &user).unwrap();
    for args in [&["config"][..], &["create", "x", "--pattern", "p"]] {
        let run = run_raw(&repo, args);
        run.code(1);
        assert!(
            run.stderr().contains("config.toml") && run.stderr().contains("not a regular file"),
            "{}",
            run.stderr()
        );
        assert_nothing_written(&repo);
    }

    std::fs::remove_file(&user).unwrap();
    std::fs::write(&user, format!("# {}\n", "x".repeat(1 << 20))).unwrap();
    let run = run_raw(&repo, &["config"]);
    run.code(1);
    assert!(run.stderr().contains("1048576"), "{}", run.stderr());
}
