//! `create` copying a 500 MiB `node_modules`-like ignored tree
//! (`.worktreeinclude`; 10,240 files of 1 to 185 KiB): reflink on a
//! loop-mounted XFS image (root, `mkfs.xfs`; skipped with the reason when it
//! cannot be mounted) against git-loop's own byte copy of the same tree on the
//! default filesystem (target ≤ 0.1, the copy step and the whole create), and
//! against `git worktree add` + `cp -r --reflink=never` on the same XFS; the
//! same against `cp -r` on the default filesystem; then git's parallel
//! checkout (`checkout.workers=0`, as `create` passes it) against a
//! sequential one (`checkout.workers=1`, git's default) on a 10,000-file
//! repository. Fixtures are built untimed.
//!
//! `BENCH_QUICK=1`: a 50 MiB tree, 2 iterations; `BENCH_ITERS=<n>` sets the
//! iterations of every row.

mod common;
use common::*;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

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
        ("truncate", vec!["-s", "4G", img.to_str().unwrap()]),
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

/// Sizes of a package's files, cycled: mostly small sources, a few bundles
/// (mean 50 KiB).
const SIZES_KIB: [usize; 5] = [1, 4, 12, 48, 185];

/// A repository of 100 tracked files whose ignored `node_modules/` holds
/// `files` files shaped like an npm tree (`pkg<N>/package.json`, `lib/`,
/// `dist/`, 20 files a package, 1 to 185 KiB), selected by
/// `.worktreeinclude`. Returns the bytes written.
fn node_fixture(env: &Env, dir: &Path, files: usize) -> u64 {
    init_repo(env, dir, 100);
    std::fs::write(dir.join(".gitignore"), ".loop-worktrees/\nnode_modules/\n").unwrap();
    std::fs::write(dir.join(".worktreeinclude"), "node_modules/\n").unwrap();
    let mut total = 0u64;
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    for i in 0..files {
        let (pkg, k) = (i / 20, i % 20);
        let sub = match k {
            0 => format!("node_modules/pkg{pkg}"),
            1..=12 => format!("node_modules/pkg{pkg}/lib"),
            _ => format!("node_modules/pkg{pkg}/dist"),
        };
        let sub = dir.join(sub);
        std::fs::create_dir_all(&sub).unwrap();
        let len = SIZES_KIB[i % SIZES_KIB.len()] * 1024;
        let mut bytes = Vec::with_capacity(len);
        while bytes.len() < len {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            bytes.extend_from_slice(&state.to_le_bytes());
        }
        bytes.truncate(len);
        let name = if k == 0 {
            "package.json".to_owned()
        } else {
            format!("m{k}.js")
        };
        std::fs::write(sub.join(name), &bytes).unwrap();
        total += len as u64;
    }
    total
}

/// One timed `create --json`: its wall time and the copy's own `elapsedMs`,
/// `reflinked` and `plain` counts.
fn create_copy(env: &Env, repo: &Path, id: &str) -> (Duration, Duration, u64, u64) {
    let mut c = env.gl(repo, &["--json", "create", id, "--pattern", "bench"]);
    c.stdout(Stdio::piped());
    let t = Instant::now();
    let out = c.output().expect("spawn");
    let wall = t.elapsed();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("create --json");
    let n = |k: &str| v["copy"][k].as_u64().unwrap_or(0);
    (
        wall,
        Duration::from_millis(n("elapsedMs")),
        n("reflinked"),
        n("plain"),
    )
}

/// `git worktree add -b` then `cp -r --reflink=never node_modules` (a byte
/// copy whatever the filesystem), timed together.
fn add_then_cp(env: &Env, repo: &Path, name: &str) -> Duration {
    let rel = format!(".loop-worktrees/{name}");
    let t = Instant::now();
    run(env.git(
        repo,
        &["worktree", "add", "-q", "-b", name, "--", &rel, "main"],
    ));
    let mut cp = env.cmd("cp", repo);
    cp.args([
        "-r",
        "--reflink=never",
        "node_modules",
        &format!("{rel}/node_modules"),
    ]);
    run(cp);
    t.elapsed()
}

/// `create` (copying `node_modules/`) in `ours_repo` against `base` in
/// `base_repo`, interleaved; medians of wall time and of the copy step.
struct Pair {
    create: Duration,
    copy_step: Duration,
    base: Duration,
    reflinked: u64,
    plain: u64,
}

fn pair(
    env: &Env,
    n: usize,
    tag: &str,
    ours_repo: &Path,
    base_repo: &Path,
    mut base: impl FnMut(&Path, &str) -> (Duration, Option<Duration>),
) -> (Pair, Option<Duration>) {
    let mut steps = Vec::new();
    let mut base_steps = Vec::new();
    let (mut reflinked, mut plain) = (0, 0);
    let (create, base_t) = compare(
        n,
        |i| {
            let (wall, step, r, p) = create_copy(env, ours_repo, &format!("{tag}o{i}"));
            steps.push(step);
            (reflinked, plain) = (r, p);
            wall
        },
        |i| {
            let (wall, step) = base(base_repo, &format!("{tag}b{i}"));
            base_steps.extend(step);
            wall
        },
        |i| {
            drop_worktree(env, ours_repo, &format!(".loop-worktrees/{tag}o{i}"));
            drop_worktree(env, base_repo, &format!(".loop-worktrees/{tag}b{i}"));
        },
    );
    for r in [ours_repo, base_repo] {
        let _ = std::fs::remove_file(r.join(".loop-worktrees/manifest.json"));
    }
    let base_step = (!base_steps.is_empty()).then(|| median(&mut base_steps));
    (
        Pair {
            create,
            copy_step: median(&mut steps),
            base: base_t,
            reflinked,
            plain,
        },
        base_step,
    )
}

fn main() {
    let it = |full: usize| iters(full, 2);
    let n = it(3);
    let (_tmp, base, env) = setup();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    // 10,240 files × 50 KiB mean = 500 MiB; BENCH_QUICK: 50 MiB.
    let files = if quick() { 1_024 } else { 10_240 };
    let mut rows = Vec::new();
    let mut skipped: Vec<(String, String)> = Vec::new();
    eprintln!("building fixtures in a temporary directory…");

    let plain_repo = base.join("repo");
    let bytes = node_fixture(&env, &plain_repo, files);
    let size = format!("{} MiB, {files} files", bytes >> 20);
    match mount_xfs(&base) {
        Ok(xfs) => {
            let repo = xfs.mnt.join("repo");
            node_fixture(&env, &repo, files);
            let _ = Command::new("sync").status();
            // reflink on XFS against git-loop's own byte copy on the default fs.
            let (p, base_step) = pair(&env, n, "x", &repo, &plain_repo, |r, name| {
                let (wall, step, _, _) = create_copy(&env, r, name);
                (wall, Some(step))
            });
            let base_step = base_step.unwrap();
            rows.push(Row {
                scenario: format!("create.copy step, {size}: reflink (XFS) vs plain copy (ext4)"),
                ours: p.copy_step,
                base: base_step,
                target: Some(0.1),
                note: format!(
                    "the copy's own `elapsedMs`; baseline: git-loop's byte copy of the same tree on the default fs (ext4); {} reflinked",
                    p.reflinked
                ),
            });
            rows.push(Row {
                scenario: format!("whole create + copy {size}: XFS (reflink) vs ext4 (plain)"),
                ours: p.create,
                base: p.base,
                target: Some(0.1),
                note: "wall time of `create` (checkout of 100 files, manifest, copy)".into(),
            });
            // reflink on XFS against add + cp -r (no reflink) on the same XFS.
            let (p, _) = pair(&env, n, "y", &repo, &repo, |r, name| {
                (add_then_cp(&env, r, name), None)
            });
            rows.push(Row {
                scenario: format!("create + copy {size}, XFS (reflink) vs cp -r"),
                ours: p.create,
                base: p.base,
                target: None,
                note: "`git worktree add -b` then `cp -r --reflink=never`, same XFS".into(),
            });
            drop(xfs);
        }
        Err(why) => {
            eprintln!("no XFS image mounted ({why}): the reflink rows are left out");
            skipped.push((
                format!("create.copy {size}, reflink on XFS"),
                format!("XFS image not mountable: {why}"),
            ));
        }
    }
    let (p, _) = pair(&env, n, "z", &plain_repo, &plain_repo, |r, name| {
        (add_then_cp(&env, r, name), None)
    });
    rows.push(Row {
        scenario: format!("create + copy {size}, default fs (ext4, no reflink)"),
        ours: p.create,
        base: p.base,
        target: None,
        note: format!(
            "`git worktree add -b` then `cp -r --reflink=never`; {} copied byte by byte",
            p.plain
        ),
    });

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

    println!("\n## copy and checkout ({cores} cores, {n} interleaved pairs per copy row)\n");
    print_rows(&rows);
    for (scenario, why) in &skipped {
        print_skipped(scenario, why);
    }
}
