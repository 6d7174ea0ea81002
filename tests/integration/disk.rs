//! `list --disk`: each worktree's size on disk (as `du -s`, symlinks never
//! followed) and how much of it is its own — a `node_modules` reflinked
//! from the main checkout on a real XFS image counts about nothing unique,
//! the same on ext4 counts in full — with the totals under the table.
//!
//! The image tests need root and xfsprogs/e2fsprogs (see `common::image`):
//! `#[ignore]`d, run by `scripts/test`, and fail, naming why, when no image
//! can be mounted.

use std::fs;
use std::path::Path;
use std::process::Command;

use serde_json::Value;

use crate::common::{JsonExt, TestRepo, mount_image};

const MB: u64 = 1 << 20;

/// `n` files of 10 MiB in `dir/node_modules/pkgNN/index.bin`, each of
/// different bytes.
fn node_modules(dir: &Path, n: usize) {
    for i in 0..n {
        let pkg = dir.join(format!("node_modules/pkg{i:02}"));
        fs::create_dir_all(&pkg).unwrap();
        let mut bytes = vec![(i % 251) as u8; 10 * MB as usize];
        bytes[..8].copy_from_slice(&(i as u64).to_le_bytes());
        fs::write(pkg.join("index.bin"), bytes).unwrap();
    }
}

/// `cp -a --reflink=<how> <from> <to>`.
fn cp(how: &str, from: &Path, to: &Path) {
    let out = Command::new("cp")
        .arg("-a")
        .arg(format!("--reflink={how}"))
        .arg(from)
        .arg(to)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "cp --reflink={how}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `du -s` of `dir` in bytes (`-B1`).
fn du(dir: &Path) -> u64 {
    let out = Command::new("du").arg("-sB1").arg(dir).output().unwrap();
    assert!(out.status.success(), "du {}", dir.display());
    let text = String::from_utf8(out.stdout).unwrap();
    text.split_whitespace().next().unwrap().parse().unwrap()
}

/// `(diskBytes, uniqueBytes)` of run `id` in a `list --disk --json` document.
fn sizes(doc: &Value, id: &str) -> (u64, u64) {
    let e = doc.find_id("worktrees", id);
    let n = |k: &str| e[k].as_u64().unwrap_or_else(|| panic!("{k} in {e}"));
    (n("diskBytes"), n("uniqueBytes"))
}

/// A repository with `node_modules` ignored and `n` packages of 10 MiB in
/// the main checkout; runs `a` (node_modules copied `how`) and `b` (no copy).
fn fleet(dir: Option<&Path>, n: usize, how: &str) -> TestRepo {
    let repo = match dir {
        Some(d) => TestRepo::new_in(d),
        None => TestRepo::new(),
    };
    fs::write(repo.root.join(".gitignore"), "node_modules/\n").unwrap();
    repo.git(["add", ".gitignore"]);
    repo.git(["commit", "-q", "-m", "ignore"]);
    node_modules(&repo.root, n);
    repo.create("a").ok();
    repo.create("b").ok();
    cp(
        how,
        &repo.root.join("node_modules"),
        &repo.wt("a").join("node_modules"),
    );
    repo
}

/// The table has DISK and UNIQUE, and the total line adds up the runs.
fn check_table_and_totals(repo: &TestRepo, doc: &Value) {
    let (mut disk, mut unique) = (0, 0);
    for e in doc.arr("worktrees") {
        disk += e["diskBytes"].as_u64().unwrap();
        unique += e["uniqueBytes"].as_u64().unwrap();
    }
    let text = repo.run(["list", "--disk"]);
    text.ok();
    let lines: Vec<&str> = text.stdout.lines().collect();
    assert!(
        lines[0].contains("DISK") && lines[0].contains("UNIQUE"),
        "{}",
        text.stdout
    );
    let total = lines.last().unwrap();
    // `512 B`, `16.0 KiB`, `500.0 MiB`, `1.2 GiB`.
    let human = |b: u64| {
        if b < 1024 {
            return format!("{b} B");
        }
        let (mut v, mut unit) = (b as f64 / 1024.0, 0);
        while v >= 1024.0 && unit < 3 {
            v /= 1024.0;
            unit += 1;
        }
        format!("{v:.1} {}", ["KiB", "MiB", "GiB", "TiB"][unit])
    };
    assert_eq!(
        *total,
        format!("total: {} on disk, {} unique", human(disk), human(unique)),
        "{}",
        text.stdout
    );
}

#[test]
#[ignore = "needs root to loop-mount an XFS image; scripts/test runs it"]
fn a_node_modules_reflinked_on_xfs_counts_almost_nothing_unique() {
    let image = mount_image("xfs", "1G");
    let repo = fleet(Some(&image.mnt), 50, "always");
    let run = repo.run(["--json", "list", "--disk"]);
    run.ok();
    let doc = run.json();
    let (disk, unique) = sizes(&doc, "a");
    // du -s counts the same blocks; nearly all of them shared.
    assert_eq!(disk, du(&repo.wt("a")), "{doc}");
    assert!(disk >= 500 * MB, "{doc}");
    assert!(unique < MB, "reflinked extents counted as unique: {doc}");
    let (disk_b, unique_b) = sizes(&doc, "b");
    assert_eq!(disk_b, unique_b, "{doc}");
    assert!(disk_b < MB, "{doc}");
    check_table_and_totals(&repo, &doc);
}

#[test]
#[ignore = "needs root to loop-mount an ext4 image; scripts/test runs it"]
fn the_same_copy_on_ext4_counts_in_full() {
    let image = mount_image("ext4", "1G");
    let repo = fleet(Some(&image.mnt), 30, "auto");
    let doc = repo.run(["--json", "list", "--disk"]).json();
    let (disk, unique) = sizes(&doc, "a");
    assert_eq!(disk, du(&repo.wt("a")), "{doc}");
    assert!(disk >= 300 * MB, "{doc}");
    assert_eq!(unique, disk, "ext4 shares no extent: {doc}");
    check_table_and_totals(&repo, &doc);
}

/// On the temp dir's filesystem, a plain copy: unique is the size on disk;
/// a symlink to a large file or directory outside is not followed; a run
/// whose directory is gone is `null`, and without `--disk` nothing is read.
#[test]
fn a_plain_copy_is_all_unique_and_a_symlink_out_is_not_followed() {
    let repo = fleet(None, 3, "never");
    let outside = tempfile::tempdir().unwrap();
    fs::write(outside.path().join("huge"), vec![1u8; 40 * MB as usize]).unwrap();
    std::os::unix::fs::symlink(outside.path(), repo.wt("b").join("out")).unwrap();
    std::os::unix::fs::symlink(outside.path().join("huge"), repo.wt("b").join("huge")).unwrap();
    repo.create("gone").ok();
    fs::remove_dir_all(repo.wt("gone")).unwrap();
    let run = repo.run(["--json", "list", "--disk"]);
    run.ok();
    let doc = run.json();
    let (disk, unique) = sizes(&doc, "a");
    assert_eq!(disk, du(&repo.wt("a")), "{doc}");
    assert!(disk >= 30 * MB, "{doc}");
    assert_eq!(unique, disk, "{doc}");
    let (disk_b, _) = sizes(&doc, "b");
    assert_eq!(disk_b, du(&repo.wt("b")), "{doc}");
    assert!(disk_b < MB, "a symlink was followed: {doc}");
    let gone = doc.find_id("worktrees", "gone");
    assert!(gone["diskBytes"].is_null(), "{gone}");
    let plain = repo.run(["--json", "list"]).json();
    assert!(
        plain.find_id("worktrees", "a").get("diskBytes").is_none(),
        "{plain}"
    );
    // The total line counts only the runs measured.
    let text = repo.run(["list", "--disk"]);
    text.ok();
    assert!(
        text.stdout.lines().last().unwrap().starts_with("total: "),
        "{}",
        text.stdout
    );
}
