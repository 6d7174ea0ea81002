//! The README's Quick start, run as written on a fresh repository: it ends
//! with the run's commit on main and nothing left behind. And docs/sync.md's
//! example, made as it says: `sync` prints what the page shows.

use crate::common::{BIN, TestRepo};

/// The Quick start's shell lines, between its heading and the block's end.
fn quick_start() -> Vec<String> {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let section = readme
        .split("## Quick start")
        .nth(1)
        .expect("a Quick start");
    let block = section.split("```sh\n").nth(1).expect("a sh block");
    let block = block.split("```").next().unwrap();
    block.lines().map(str::to_owned).collect()
}

#[test]
fn quick_start_lands_the_work() {
    let repo = TestRepo::new();
    let lines = quick_start();
    // What a reader does by hand: install (the binary under test is on PATH
    // instead), go to their repository, work and commit.
    let mut script = vec!["set -eu".to_owned()];
    for line in &lines {
        let shell = if line.starts_with("scripts/install") {
            continue;
        } else if line.starts_with("cd /path/to/your/repo") {
            format!("cd '{}'", repo.root.display())
        } else if line.starts_with("# … work, commit …") {
            "echo fixed > login.txt && git add login.txt && git commit -q -m 'Fix login'".to_owned()
        } else {
            line.clone()
        };
        script.push(shell);
    }
    assert!(
        script.iter().any(|l| l.contains("git loop land")),
        "the Quick start lands its run: {lines:#?}"
    );
    let bin_dir = std::path::Path::new(BIN).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut sh = std::process::Command::new("sh");
    crate::common::hermetic(&mut sh, &repo.home);
    sh.env("PATH", path)
        .arg("-c")
        .arg(script.join("\n"))
        .current_dir(&repo.root);
    let out = sh.output().unwrap();
    assert!(
        out.status.success(),
        "the Quick start failed:\n{}\nstdout: {}\nstderr: {}",
        script.join("\n"),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    // The commit is on main, in the main checkout.
    assert_eq!(
        repo.git(["log", "-1", "--format=%s", "main"]).trim(),
        "Fix login"
    );
    assert_eq!(
        std::fs::read_to_string(repo.root.join("login.txt")).unwrap(),
        "fixed\n"
    );
    // Nothing left behind: no worktree, no branch, no entry.
    assert!(!repo.wt("fix-login").exists());
    assert!(!repo.branch_exists("loop/fix-login"));
    assert!(repo.ids().is_empty(), "{:?}", repo.ids());
    assert_eq!(repo.registered(), std::slice::from_ref(&repo.root));
}

/// docs/sync.md's example, the `text` block that begins with `$ cmd`.
fn sync_page_example(cmd: &str) -> String {
    let page =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/sync.md")).unwrap();
    let from = page
        .find(&format!("```text\n$ {cmd}\n"))
        .expect("the example");
    let block = &page[from + "```text\n".len()..];
    block.split("```").next().unwrap().to_owned()
}

/// `text` with each `<from>..<to>` of abbreviated hashes as those words,
/// and the repository's path as the page writes it.
fn as_the_page_writes(text: &str, root: &std::path::Path) -> String {
    let hex = |w: &str| w.len() == 7 && w.bytes().all(|b| b.is_ascii_hexdigit());
    text.replace(&root.display().to_string(), "~/src/app")
        .lines()
        .map(|line| {
            let words = line.split(' ').map(|w| match w.split_once("..") {
                Some((a, b)) if hex(a) && hex(b) => "<from>..<to>",
                _ => w,
            });
            words.collect::<Vec<_>>().join(" ") + "\n"
        })
        .collect()
}

/// The page's three runs, made as its example says (`fix-login` with a
/// commit of its own, `add-search` changing the line of `app.txt` that
/// main then changes, `docs-typo` with an uncommitted edit of `README`,
/// which main then changes): `sync --keep-going` prints the page's lines,
/// in its order, on stdout and then stderr.
#[test]
fn the_sync_pages_example_is_what_sync_prints() {
    use crate::common::commit;
    let repo = TestRepo::new();
    commit(&repo, &repo.root, "app.txt", "a\nb\nc\n");
    for id in ["fix-login", "add-search", "docs-typo"] {
        repo.create(id).ok();
    }
    commit(&repo, &repo.wt("fix-login"), "login.txt", "login\n");
    commit(&repo, &repo.wt("add-search"), "app.txt", "a\nSEARCH\nc\n");
    commit(&repo, &repo.wt("docs-typo"), "docs.txt", "typo\n");
    std::fs::write(repo.wt("docs-typo").join("README"), "wip\n").unwrap();
    commit(&repo, &repo.root, "app.txt", "a\nMAIN\nc\n");
    commit(&repo, &repo.root, "README", "main readme\n");
    let cmd = "git loop sync --keep-going";
    let run = repo.run(["sync", "--keep-going"]);
    run.code(1);
    let said = format!("$ {cmd}\n{}{}", run.stdout, run.stderr);
    assert_eq!(
        as_the_page_writes(&said, &repo.root),
        as_the_page_writes(&sync_page_example(cmd), &repo.root)
    );
}
