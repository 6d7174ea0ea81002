//! Copy-on-write copies for `create.copy` and `.worktreeinclude`: which files
//! are selected, the one-line human summary (the list in JSON only), and
//! reflinks on a real XFS image (loop-mounted, as root) against the plain
//! copy on an ext4 image.
//!
//! The image tests need root, `mkfs.xfs` (xfsprogs), `mkfs.ext4` and
//! `filefrag` (e2fsprogs; scripts/install-test-deps installs both): they are
//! `#[ignore]`d, run by `scripts/test` (`-- --ignored`), and fail, naming
//! why, when they cannot mount their image. None passes by skipping.

use std::fs;
use std::path::Path;
use std::process::Command;

use serde_json::Value;

use crate::common::{TestRepo, mount_image};

/// The physical extents of `path` (`filefrag -v`: start block, length) and
/// whether any is flagged `shared`.
fn extents(path: &Path) -> (Vec<(u64, u64)>, bool) {
    let out = Command::new("filefrag")
        .arg("-v")
        .arg(path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "filefrag failed on {}",
        path.display()
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let mut found = Vec::new();
    let mut shared = false;
    for line in text.lines() {
        // `   0:        0..     255:         24..       279:    256:   last,shared,eof`
        let cols: Vec<&str> = line.split(':').map(str::trim).collect();
        if cols.len() < 4 || cols[0].parse::<u64>().is_err() {
            continue;
        }
        let start = cols[2].split("..").next().unwrap().trim().parse().unwrap();
        let len = cols[3].parse().unwrap();
        found.push((start, len));
        shared |= line.contains("shared");
    }
    (found, shared)
}

/// A repository (in `dir`, or the default temp dir) whose ignored `cache/`
/// holds `n` files of 64 KiB of varied bytes, with a `.worktreeinclude`
/// selecting it.
fn cache_repo(dir: Option<&Path>, n: usize) -> TestRepo {
    let repo = match dir {
        Some(d) => TestRepo::new_in(d),
        None => TestRepo::new(),
    };
    fs::write(repo.root.join(".gitignore"), "cache/\n").unwrap();
    repo.git(["add", ".gitignore"]);
    repo.git(["commit", "-q", "-m", "ignore"]);
    write_cache(&repo.root, n);
    fs::write(repo.root.join(".worktreeinclude"), "cache/\n").unwrap();
    repo
}

/// `n` files of 64 KiB of varied bytes in `root/cache/`.
fn write_cache(root: &Path, n: usize) {
    fs::create_dir_all(root.join("cache")).unwrap();
    for i in 0..n {
        let bytes: Vec<u8> = (0..64 * 1024u32)
            .map(|j| (j.wrapping_mul(31).wrapping_add(i as u32 * 7) % 251) as u8)
            .collect();
        fs::write(root.join(format!("cache/f{i:04}.bin")), bytes).unwrap();
    }
}

fn copy_of(run: &crate::common::Run) -> Value {
    run.ok();
    run.json()["copy"].clone()
}

#[test]
#[ignore = "needs root to loop-mount an XFS image; scripts/test runs it"]
fn reflinked_on_xfs_the_copy_shares_the_source_extents() {
    let image = mount_image("xfs", "512M");
    let repo = cache_repo(Some(&image.mnt), 20);
    let copy = copy_of(&repo.run(["--json", "create", "r1", "--pattern", "p"]));
    assert_eq!(copy["reflinked"], 20, "{copy}");
    assert_eq!(copy["plain"], 0, "{copy}");
    assert_eq!(copy["bytes"], 20 * 64 * 1024, "{copy}");
    for i in [0, 19] {
        let rel = format!("cache/f{i:04}.bin");
        let (src, src_shared) = extents(&repo.root.join(&rel));
        let (dest, dest_shared) = extents(&repo.wt("r1").join(&rel));
        assert!(!src.is_empty(), "{rel} has no extents");
        assert_eq!(src, dest, "{rel}: the copy has its own blocks");
        assert!(
            src_shared && dest_shared,
            "{rel}: extents not flagged shared"
        );
        assert_eq!(
            fs::read(repo.root.join(&rel)).unwrap(),
            fs::read(repo.wt("r1").join(&rel)).unwrap()
        );
    }
    // Written afterwards, the copy diverges; the source is untouched.
    fs::write(repo.wt("r1").join("cache/f0000.bin"), "changed").unwrap();
    assert_eq!(
        fs::metadata(repo.root.join("cache/f0000.bin"))
            .unwrap()
            .len(),
        64 * 1024
    );
}

#[test]
#[ignore = "needs root to loop-mount an ext4 image; scripts/test runs it"]
fn plain_copy_on_ext4_without_reflink_support() {
    let image = mount_image("ext4", "512M");
    let repo = cache_repo(Some(&image.mnt), 5);
    let copy = copy_of(&repo.run(["--json", "create", "r1", "--pattern", "p"]));
    assert_eq!(copy["reflinked"], 0, "{copy}");
    assert_eq!(copy["plain"], 5, "{copy}");
    let rel = "cache/f0003.bin";
    let (src, _) = extents(&repo.root.join(rel));
    let (dest, dest_shared) = extents(&repo.wt("r1").join(rel));
    assert!(!dest_shared);
    assert_ne!(src, dest, "a plain copy has blocks of its own");
    assert_eq!(
        fs::read(repo.root.join(rel)).unwrap(),
        fs::read(repo.wt("r1").join(rel)).unwrap()
    );
}

#[test]
fn worktreeinclude_copies_ignored_files_only_never_tracked_ones() {
    let repo = TestRepo::new();
    fs::write(
        repo.root.join(".gitignore"),
        ".env\n.env.*\nnode_modules/\n*.log\n",
    )
    .unwrap();
    fs::create_dir_all(repo.root.join("config")).unwrap();
    fs::write(repo.root.join("config/app.toml"), "tracked\n").unwrap();
    repo.git(["add", ".gitignore", "config/app.toml"]);
    repo.git(["commit", "-q", "-m", "ignore"]);
    fs::write(repo.root.join(".env"), "SECRET=1\n").unwrap();
    fs::write(repo.root.join(".env.local"), "LOCAL=1\n").unwrap();
    fs::write(repo.root.join("debug.log"), "noise\n").unwrap();
    fs::write(repo.root.join("notes.local"), "untracked, not ignored\n").unwrap();
    fs::write(repo.root.join("config/app.toml"), "tracked, modified\n").unwrap();
    fs::create_dir_all(repo.root.join("node_modules/pkg")).unwrap();
    fs::write(repo.root.join("node_modules/pkg/index.js"), "x\n").unwrap();
    fs::write(
        repo.root.join(".worktreeinclude"),
        "# what a new worktree needs\n\n.env*\n!.env.local\nnode_modules/\nnotes.local\nconfig/app.toml\n",
    )
    .unwrap();

    let copy = copy_of(&repo.run(["--json", "create", "r1", "--pattern", "p"]));
    assert_eq!(
        copy["copied"],
        serde_json::json!([".env", "node_modules/pkg/index.js"]),
        "ignored and matched: copied; untracked-but-not-ignored, tracked, excluded: not"
    );
    assert_eq!(copy["skipped"], serde_json::json!([]));
    assert_eq!(copy["sources"], serde_json::json!([".worktreeinclude"]));
    let wt = repo.wt("r1");
    assert!(!wt.join("notes.local").exists());
    assert!(!wt.join(".env.local").exists());
    assert_eq!(
        fs::read_to_string(wt.join("config/app.toml")).unwrap(),
        "tracked\n",
        "a tracked file comes from the checkout, never from the main worktree"
    );

    // With create.copy too: its patterns also take untracked files.
    repo.git(["config", "loop.createCopy", "notes.local"]);
    let copy = copy_of(&repo.run(["--json", "create", "r2", "--pattern", "p"]));
    assert_eq!(
        copy["copied"],
        serde_json::json!([".env", "node_modules/pkg/index.js", "notes.local"])
    );
    assert_eq!(
        copy["sources"],
        serde_json::json!(["create.copy", ".worktreeinclude"])
    );
}

#[test]
fn a_symlinked_worktreeinclude_is_not_read() {
    let repo = TestRepo::new();
    fs::write(repo.root.join(".gitignore"), ".env\n").unwrap();
    fs::write(repo.root.join(".env"), "SECRET=1\n").unwrap();
    fs::write(repo.base().join("elsewhere"), ".env\n").unwrap();
    std::os::unix::fs::symlink(
        repo.base().join("elsewhere"),
        repo.root.join(".worktreeinclude"),
    )
    .unwrap();
    let run = repo.run(["create", "r1", "--pattern", "p"]);
    run.ok();
    assert!(
        run.stderr.contains("warning: create.copy:") && run.stderr.contains(".worktreeinclude"),
        "{}",
        run.stderr
    );
    assert!(!repo.wt("r1").join(".env").exists());
}

#[test]
fn human_output_is_one_summary_line_and_json_lists_every_file() {
    let repo = cache_repo(None, 320);
    let run = repo.run(["create", "r1", "--pattern", "p"]);
    run.ok();
    let copy_lines: Vec<&str> = run.stderr.lines().filter(|l| l.contains("cop")).collect();
    assert_eq!(copy_lines.len(), 1, "{}", run.stderr);
    let line = copy_lines[0];
    assert!(
        line.contains("copied 320 files (.worktreeinclude): 20.0 MiB, 320 "),
        "{line}"
    );
    assert!(line.contains(" ms"), "{line}");
    assert!(!line.contains("f0000.bin"), "no file list: {line}");
    assert!(line.len() < 120, "{line}");

    let copy = copy_of(&repo.run(["--json", "create", "r2", "--pattern", "p"]));
    let copied = copy["copied"].as_array().unwrap();
    assert_eq!(copied.len(), 320);
    assert_eq!(copied[0], "cache/f0000.bin");
    assert_eq!(copied[319], "cache/f0319.bin");
    let reflinked = copy["reflinked"].as_u64().unwrap();
    let plain = copy["plain"].as_u64().unwrap();
    assert_eq!(reflinked + plain, 320, "{copy}");
    assert_eq!(copy["bytes"], 320 * 64 * 1024);
    assert!(copy["elapsedMs"].is_u64());
}

#[test]
fn skipped_paths_are_named_a_few_then_counted() {
    let repo = cache_repo(None, 6);
    // Tracked on `other`, so the checkout has them: all six are skipped.
    repo.git(["checkout", "-q", "-b", "other"]);
    repo.git(["add", "-f", "cache"]);
    repo.git(["commit", "-q", "-m", "cache"]);
    repo.git(["checkout", "-q", "main"]);
    write_cache(&repo.root, 6);
    let run = repo.run(["create", "r1", "--pattern", "p", "--base", "other"]);
    run.ok();
    let not_copied: Vec<&str> = run
        .stderr
        .lines()
        .filter(|l| l.contains("not copied"))
        .collect();
    assert_eq!(
        not_copied,
        [
            "not copied cache/f0000.bin: exists",
            "not copied cache/f0001.bin: exists",
            "not copied cache/f0002.bin: exists",
            "not copied: 3 more (--json lists them)"
        ],
        "{}",
        run.stderr
    );
}
