//! `scripts/install`: one command puts the binary, the man pages and the
//! completions in a user's directories (here a temporary HOME, with the
//! binary already built: `--bin`), and `--uninstall` takes out exactly that.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use crate::common::{BIN, TestRepo};

use super::ROOT;

/// Every path under `dir` with what it is (a directory, or a file's bytes).
fn tree(dir: &Path) -> BTreeMap<String, Option<Vec<u8>>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Option<Vec<u8>>>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let rel = path.strip_prefix(root).unwrap().display().to_string();
            if path.is_dir() {
                out.insert(format!("{rel}/"), None);
                walk(root, &path, out);
            } else {
                out.insert(rel, Some(std::fs::read(&path).unwrap()));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

fn install(repo: &TestRepo, home: &Path, args: &[&str]) -> String {
    let mut cmd = Command::new(format!("{ROOT}/scripts/install"));
    crate::common::hermetic(&mut cmd, home);
    let out = cmd
        .env("SHELL", "/bin/bash")
        .env_remove("XDG_CONFIG_HOME")
        .current_dir(&repo.root)
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "scripts/install {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn install_puts_binary_pages_and_completions_in_home_and_uninstall_takes_them_out() {
    let repo = TestRepo::new();
    let home = repo.base().join("newcomer");
    // What the user had: a config directory and a file of their own.
    std::fs::create_dir_all(home.join(".config/fish")).unwrap();
    std::fs::write(home.join(".config/fish/config.fish"), "# mine\n").unwrap();
    let before = tree(&home);

    let printed = install(&repo, &home, &["--bin", BIN, "--shell", "all"]);
    for file in [
        ".cargo/bin/git-loop",
        ".cargo/share/man/man1/git-loop.1",
        ".cargo/share/man/man1/git-loop-completion.1",
        ".local/share/bash-completion/completions/git-loop",
        ".zfunc/_git-loop",
        ".config/fish/completions/git-loop.fish",
        ".config/fish/conf.d/git-loop.fish",
    ] {
        assert!(
            home.join(file).is_file(),
            "{file} not installed:\n{printed}"
        );
    }
    assert!(printed.contains("installed "), "{printed}");
    assert_eq!(
        std::fs::read(home.join(".local/share/bash-completion/completions/git-loop")).unwrap(),
        std::fs::read(format!("{ROOT}/completions/git-loop.bash")).unwrap()
    );
    // The installed binary runs, and prints the completion it was built with.
    let out = Command::new(home.join(".cargo/bin/git-loop"))
        .args(["completion", "fish"])
        .output()
        .unwrap();
    assert_eq!(
        out.stdout,
        std::fs::read(format!("{ROOT}/completions/git-loop.fish")).unwrap()
    );
    // Installing again changes nothing the uninstall would miss.
    install(&repo, &home, &["--bin", BIN]);

    let printed = install(&repo, &home, &["--uninstall"]);
    assert!(printed.contains("removed "), "{printed}");
    let after = tree(&home);
    assert!(
        after == before,
        "the uninstall left or took: {:?}",
        after.keys().collect::<Vec<_>>()
    );
}

/// With no --shell, $SHELL names the completion installed.
#[test]
fn install_picks_the_completion_of_the_users_shell() {
    let repo = TestRepo::new();
    let home = repo.base().join("newcomer");
    std::fs::create_dir_all(&home).unwrap();
    install(&repo, &home, &["--bin", BIN]);
    assert!(
        home.join(".local/share/bash-completion/completions/git-loop")
            .is_file()
    );
    assert!(!home.join(".zfunc").exists());
    assert!(!home.join(".config/fish").exists());
    install(&repo, &home, &["--uninstall"]);
    assert!(tree(&home).is_empty(), "{:?}", tree(&home).keys());
}
