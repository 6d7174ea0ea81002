//! Man pages found by `man` and `git help` after install; the checked-in
//! man pages and completions equal what the generator makes now.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{BIN, TestRepo};

use super::{ROOT, require};

/// The generation code of `cargo run --example generate`, included as it is
/// (see its module doc): the files it returns are the checked-in ones.
#[path = "../../../examples/generate/generator.rs"]
mod generator;

/// Install as scripts/install does (binary in <prefix>/bin, pages in
/// <prefix>/share/man/man1) and ask man and git.
#[test]
fn man_and_git_help_find_the_pages_after_install() {
    require("man");
    let repo = TestRepo::new();
    let prefix = repo.base().join("prefix");
    std::fs::create_dir_all(prefix.join("bin")).unwrap();
    std::fs::create_dir_all(prefix.join("share/man/man1")).unwrap();
    std::os::unix::fs::symlink(BIN, prefix.join("bin/git-loop")).unwrap();
    for page in std::fs::read_dir(format!("{ROOT}/man")).unwrap() {
        let page = page.unwrap().path();
        std::fs::copy(
            &page,
            prefix
                .join("share/man/man1")
                .join(page.file_name().unwrap()),
        )
        .unwrap();
    }
    let path = format!(
        "{}:/usr/local/bin:/usr/bin:/bin",
        prefix.join("bin").display()
    );
    let run = |args: &[&str]| {
        let mut cmd = Command::new(args[0]);
        crate::common::hermetic(&mut cmd, &repo.home);
        let out = cmd
            .env("PATH", &path)
            // man finds the pages beside PATH's bin/, as after an install.
            .env_remove("MANPATH")
            .env("MANPAGER", "cat")
            .env("PAGER", "cat")
            .env("MANWIDTH", "80")
            .current_dir(&repo.root)
            .args(&args[1..])
            .output()
            .unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let (ok, where_) = run(&["man", "-w", "git-loop"]);
    assert!(ok);
    assert_eq!(
        PathBuf::from(where_.trim()),
        prefix.join("share/man/man1/git-loop.1")
    );
    let (ok, page) = run(&["git", "help", "loop"]);
    assert!(
        ok && page.contains("git-loop") && page.contains("SYNOPSIS"),
        "{page}"
    );
    let (ok, page) = run(&["git", "loop", "--help"]);
    assert!(ok && page.contains("SYNOPSIS"), "{page}");
    let (ok, page) = run(&["man", "git-loop-mark"]);
    assert!(ok && page.contains("git loop mark"), "{page}");
    // A command's --help: git passes it on, git-loop opens the page as
    // installed (no MANPATH: man finds it beside PATH's bin/).
    let (ok, page) = run(&["git", "loop", "land", "--help"]);
    assert!(ok && page.starts_with("git-loop-land(1)"), "{page}");
    // -h stays clap's short help.
    let (ok, short) = run(&["git", "loop", "-h"]);
    assert!(
        ok && short.starts_with("Give every parallel run") && !short.contains("SYNOPSIS"),
        "{short}"
    );
}

#[test]
fn generated_files_are_up_to_date() {
    let mut stale = Vec::new();
    for (dir, files) in [
        ("man", generator::man_pages()),
        ("completions", generator::completions()),
    ] {
        for (name, bytes) in files {
            let path = Path::new(ROOT).join(dir).join(&name);
            if std::fs::read(&path).ok().as_deref() != Some(&bytes[..]) {
                stale.push(format!("{dir}/{name}"));
            }
        }
    }
    assert!(
        stale.is_empty(),
        "generated files differ from the clap definitions: {stale:?}\nrefresh them with: cargo run --features generate --example generate"
    );
}

/// `git loop completion <shell>` prints the checked-in script, byte for byte,
/// without a repository.
#[test]
fn completion_prints_the_checked_in_script_of_each_shell() {
    let repo = TestRepo::new();
    for (shell, file) in [
        ("bash", "git-loop.bash"),
        ("zsh", "_git-loop"),
        ("fish", "git-loop.fish"),
    ] {
        let mut cmd = Command::new(BIN);
        crate::common::hermetic(&mut cmd, &repo.home);
        let out = cmd
            .current_dir(repo.base())
            .args(["completion", shell])
            .output()
            .unwrap();
        assert!(out.status.success(), "{shell}: {out:?}");
        let want = std::fs::read(format!("{ROOT}/completions/{file}")).unwrap();
        assert!(out.stdout == want, "{shell}: not completions/{file}");
        assert!(out.stderr.is_empty(), "{shell}: {out:?}");
    }
}

/// The man pages show what is typed in bold, as man pages do, never the
/// help text's markdown backticks.
#[test]
fn no_man_page_shows_markdown_backticks() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("man");
    let mut found = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        for (n, line) in text.lines().enumerate() {
            if line.contains('`') {
                found.push(format!("{}:{}: {line}", path.display(), n + 1));
            }
        }
    }
    assert!(found.is_empty(), "{found:#?}");
}

/// The man pages are installed without the repository beside them: none
/// points at one of its files or directories (`docs/cli.md`, `schema/`,
/// `scripts/install`, a `README.md`), which the reader of an installed
/// page does not have.
#[test]
fn no_man_page_names_a_file_of_the_repository() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    // The repository's top level, as a reader would see it named.
    let mut tops = Vec::new();
    for entry in std::fs::read_dir(root).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || name == "target" {
            continue;
        }
        let dir = entry.file_type().unwrap().is_dir();
        tops.push(if dir { format!("{name}/") } else { name });
    }
    let mut found = Vec::new();
    for entry in std::fs::read_dir(root.join("man")).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        for (n, line) in text.lines().enumerate() {
            // roff's escapes as the reader sees them.
            let line = line
                .replace("\\fB", " ")
                .replace("\\fR", " ")
                .replace("\\fI", " ")
                .replace("\\-", "-")
                .replace("\\*(Aq", "'");
            let words = line.split(|c: char| c.is_whitespace() || "(),;:'\"[]".contains(c));
            for word in words {
                let word = word.trim_end_matches(['.', '?', '!']);
                let named = word.ends_with(".md")
                    || tops.iter().any(|top| {
                        word == top.as_str()
                            || (top.ends_with('/') && word.starts_with(top.as_str()))
                    });
                if named {
                    found.push(format!("{}:{}: {word}: {line}", path.display(), n + 1));
                }
            }
        }
    }
    assert!(found.is_empty(), "{found:#?}");
}

/// `git loop <command> --help` opens that command's man page, as git's
/// commands do (found on `MANPATH`, written by man into the pipe); `-h`
/// stays the short help; with no page or no man, a note and the full help.
#[test]
fn command_help_opens_its_man_page_or_says_why_not_and_gives_the_full_help() {
    require("man");
    let repo = TestRepo::new();
    let manpath = repo.base().join("manpath");
    std::fs::create_dir_all(manpath.join("man1")).unwrap();
    for page in std::fs::read_dir(format!("{ROOT}/man")).unwrap() {
        let page = page.unwrap().path();
        std::fs::copy(&page, manpath.join("man1").join(page.file_name().unwrap())).unwrap();
    }
    let empty = repo.base().join("empty");
    std::fs::create_dir_all(empty.join("man1")).unwrap();
    let run = |manpath: &Path, path: Option<&Path>, args: &[&str]| {
        let mut cmd = Command::new(BIN);
        crate::common::hermetic(&mut cmd, &repo.home);
        cmd.env("MANPATH", manpath)
            .env("MANPAGER", "cat")
            .env("MANWIDTH", "80")
            .current_dir(&repo.root)
            .args(args);
        if let Some(path) = path {
            cmd.env("PATH", path);
        }
        let out = cmd.output().unwrap();
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        (out.status.code(), text(&out.stdout), text(&out.stderr))
    };
    for (args, page) in [
        (&["land", "--help"][..], "git-loop-land(1)"),
        (
            &["-C", ".", "pool", "fill", "--help"],
            "git-loop-pool-fill(1)",
        ),
        (&["mark", "r1", "--help"], "git-loop-mark(1)"),
        // The help command, as `git help commit`.
        (&["help", "land"], "git-loop-land(1)"),
    ] {
        let (code, out, err) = run(&manpath, None, args);
        assert_eq!(code, Some(0), "{args:?}: {err}");
        assert!(out.starts_with(page), "{args:?}: {out}");
        assert!(out.contains("SYNOPSIS"), "{args:?}: {out}");
        assert!(err.is_empty(), "{args:?}: {err}");
    }
    // -h: clap's short help, whatever is installed.
    let (code, out, err) = run(&manpath, None, &["land", "-h"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with("Land runs onto their base"), "{out}");
    assert!(!out.contains("SYNOPSIS") && err.is_empty(), "{out}{err}");
    // No page installed: a note, then the full help (clap's --help), exit 0.
    let (code, out, err) = run(&empty, None, &["land", "--help"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.starts_with("note: no man page git-loop-land is installed") && err.lines().count() == 1,
        "{err}"
    );
    assert!(
        out.starts_with("What lands is each run's committed work"),
        "{out}"
    );
    assert!(out.contains("Usage: git loop land"), "{out}");
    // No man at all (PATH without it): the same, saying so.
    let (code, out, err) = run(&manpath, Some(&empty), &["land", "--help"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.starts_with("note: man is not installed"), "{err}");
    assert!(out.contains("Usage: git loop land"), "{out}");
}
