//! `create` with a copy of a ~200 MiB ignored tree (`.worktreeinclude`)
//! against `git worktree add` + `cp -r --reflink=auto` of the same tree, on
//! a loop-mounted XFS image with reflink when one can be mounted (root,
//! `mkfs.xfs`), and on the default filesystem; then git's parallel checkout
//! (`checkout.workers=0`, one worker per core, as `create` passes it) against
//! a sequential one (`checkout.workers=1`, git's default) on a 10,000-file
//! repository.

mod common;
use common::*;

use std::path::{Path, PathBuf};
use std::process::Command;

/// An XFS image (reflink on) mounted for the benchmark; unmounted on drop.
struct Xfs {
    mnt: PathBuf,
}

impl Drop for Xfs {
    fn drop(&mut self) {
        let ok = Command::new("umount")
            .arg(&self.mnt)
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            let _ = Command::new("umount").arg("-l").arg(&self.mnt).status();
        }
    }
}

fn mount_xfs(base: &Path) -> Result<Xfs, String> {
    let img = base.join("xfs.img");
    let mnt = base.join("xfs");
    std::fs::create_dir_all(&mnt).map_err(|e| e.to_string())?;
    for (program, args) in [
        ("truncate", vec!["-s", "1G", img.to_str().unwrap()]),
        (
            "mkfs.xfs",
            vec!["-q", "-m", "reflink=1", img.to_str().unwrap()],
        ),
        (
            "mount",
            vec!["-o", "loop", img.to_str().unwrap(), mnt.to_str().unwrap()],
        ),
    ] {
        let out = Command::new(program)
            .args(&args)
            .output()
            .map_err(|e| format!("{program}: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "{program}: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
    }
    Ok(Xfs { mnt })
}

/// A repository of 100 tracked files whose ignored `cache/` holds `files`
/// files of 100 KiB, selected by `.worktreeinclude`.
fn copy_fixture(env: &Env, dir: &Path, files: usize) {
    init_repo(env, dir, 100);
    std::fs::write(dir.join(".gitignore"), ".loop-worktrees/\ncache/\n").unwrap();
    std::fs::write(dir.join(".worktreeinclude"), "cache/\n").unwrap();
    for i in 0..files {
        let sub = dir.join(format!("cache/p{}", i / 100));
        std::fs::create_dir_all(&sub).unwrap();
        let bytes: Vec<u8> = (0..100 * 1024u32)
            .map(|j| (j.wrapping_mul(2_654_435_761).wrapping_add(i as u32) >> 13) as u8)
            .collect();
        std::fs::write(sub.join(format!("m{i}.bin")), bytes).unwrap();
    }
}

/// `create` (copying `cache/`) against `git worktree add` + `cp -r
/// --reflink=auto cache`, interleaved.
fn copy_row(env: &Env, repo: &Path, n: usize, scenario: String) -> Row {
    let (o, b) = compare(
        n,
        |i| timed(env.gl(repo, &["create", &format!("o{i}"), "--pattern", "bench"])),
        |i| {
            let rel = format!(".loop-worktrees/b{i}");
            let t = std::time::Instant::now();
            run(env.git(
                repo,
                &[
                    "worktree",
                    "add",
                    "-q",
                    "-b",
                    &format!("b{i}"),
                    "--",
                    &rel,
                    "main",
                ],
            ));
            let mut cp = env.cmd("cp", repo);
            cp.args(["-r", "--reflink=auto", "cache", &format!("{rel}/cache")]);
            run(cp);
            t.elapsed()
        },
        |i| {
            drop_worktree(env, repo, &format!(".loop-worktrees/o{i}"));
            drop_worktree(env, repo, &format!(".loop-worktrees/b{i}"));
        },
    );
    let _ = std::fs::remove_file(repo.join(".loop-worktrees/manifest.json"));
    Row {
        scenario,
        ours: o,
        base: b,
        target: None,
        note: "baseline: git worktree add -b, then cp -r --reflink=auto".into(),
    }
}

fn main() {
    let it = |full: usize| if quick() { 2.min(full) } else { full };
    let (_tmp, base, env) = setup();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let files = if quick() { 200 } else { 2_048 }; // 2,048 × 100 KiB = 200 MiB
    let mib = files * 100 / 1024;
    let mut rows = Vec::new();
    eprintln!("building fixtures in a temporary directory…");

    match mount_xfs(&base) {
        Ok(xfs) => {
            let repo = xfs.mnt.join("repo");
            copy_fixture(&env, &repo, files);
            rows.push(copy_row(
                &env,
                &repo,
                it(7),
                format!("create + copy {mib} MiB, {files} files, XFS (reflink)"),
            ));
            drop(xfs);
        }
        Err(why) => eprintln!("no XFS image mounted ({why}): the reflink row is left out"),
    }
    let repo = base.join("repo");
    copy_fixture(&env, &repo, files);
    rows.push(copy_row(
        &env,
        &repo,
        it(5),
        format!("create + copy {mib} MiB, {files} files, default fs (temp dir)"),
    ));

    // git's parallel checkout on a 10,000-file repository.
    let big = base.join("big");
    init_repo(&env, &big, 10_000);
    let add = |workers: &str, name: String| {
        let kv = format!("checkout.workers={workers}");
        let rel = format!(".loop-worktrees/{name}");
        timed(env.git(
            &big,
            &[
                "-c", &kv, "worktree", "add", "-q", "-b", &name, "--", &rel, "main",
            ],
        ))
    };
    let (on, off) = compare(
        it(9),
        |i| add("0", format!("w{i}")),
        |i| add("1", format!("s{i}")),
        |i| {
            drop_worktree(&env, &big, &format!(".loop-worktrees/w{i}"));
            drop_worktree(&env, &big, &format!(".loop-worktrees/s{i}"));
        },
    );
    rows.push(Row {
        scenario: "checkout, 10k-file repo, checkout.workers=0 vs 1".into(),
        ours: on,
        base: off,
        target: None,
        note: format!(
            "git worktree add -c checkout.workers=0 ({cores} cores) vs =1 (git's default)"
        ),
    });

    println!("\n## copy and checkout ({cores} cores)\n");
    print_rows(&rows);
}
