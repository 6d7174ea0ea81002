//! "In use": a worktree that is the working directory of a running process
//! (a shell `cd`'d into it, an editor, a build) is never removed under it.
//! Real processes (`sleep`, `sh`), killed on every path by [`Spawned`].

use std::fs;
use std::path::Path;
use std::process::{Child, Command, Stdio};

use serde_json::Value;

use crate::common::{BIN, JsonExt, TestRepo, hermetic, skipped};

/// Processes a test started; each is killed and reaped when the test ends,
/// passing or not.
#[derive(Default)]
struct Spawned(Vec<Child>);

impl Spawned {
    /// `sleep 30` working in `dir`; its pid. `spawn` returns once the child
    /// has exec'd, so its working directory is already `dir`.
    fn sleep_in(&mut self, dir: &Path) -> u32 {
        let child = Command::new("sleep")
            .arg("30")
            .current_dir(dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let pid = child.id();
        self.0.push(child);
        pid
    }

    /// Kill `pid` and wait for it, so it is gone from `/proc`.
    fn end(&mut self, pid: u32) {
        let i = self.0.iter().position(|c| c.id() == pid).unwrap();
        let mut child = self.0.remove(i);
        let _ = child.kill();
        child.wait().unwrap();
    }
}

impl Drop for Spawned {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

fn removed(v: &Value) -> Vec<&str> {
    v.ids("removed")
}

#[test]
fn a_worktree_a_process_works_in_is_skipped_until_it_exits() {
    let repo = TestRepo::new();
    let mut spawned = Spawned::default();
    repo.create("top");
    repo.create("sub");
    // An empty directory: git does not see it, so only the process keeps
    // the worktree.
    let deep = repo.wt("sub").join("a").join("b");
    fs::create_dir_all(&deep).unwrap();
    let top = spawned.sleep_in(&repo.wt("top"));
    let sub = spawned.sleep_in(&deep);
    for id in ["top", "sub"] {
        repo.run(["mark", id, "rejected"]).ok();
    }

    let v = repo.run(["--json", "list", "--long"]).json();
    assert_eq!(
        v.find_id("worktrees", "top")["inUse"],
        serde_json::json!([top])
    );
    assert_eq!(
        v.find_id("worktrees", "sub")["inUse"],
        serde_json::json!([sub])
    );
    let table = repo.run(["list", "--long"]);
    let row = table
        .stdout
        .lines()
        .find(|l| l.starts_with("top "))
        .unwrap();
    assert!(row.contains("in-use"), "{}", table.stdout);

    for args in [
        &["--json", "cleanup", "--dry-run"][..],
        &["--json", "cleanup"][..],
    ] {
        let run = repo.run(args);
        run.ok();
        let v = run.json();
        assert_eq!(removed(&v), Vec::<&str>::new(), "{v}");
        for (id, pid) in [("top", top), ("sub", sub)] {
            let s = skipped(&v, id);
            assert_eq!(s["code"], "in-use", "{v}");
            assert!(
                s.text("reason").contains(&format!("sleep (pid {pid})")),
                "{v}"
            );
        }
    }
    assert!(repo.wt("top").join("README").exists() && deep.is_dir());
    assert_eq!(repo.ids(), ["top", "sub"]);
    let human = repo.run(["cleanup"]);
    let text = format!("{}{}", human.stdout, human.stderr);
    assert!(
        text.contains(&format!(
            "skipped top: a process is working in it: sleep (pid {top})"
        )),
        "{text}"
    );

    // The sleeps end: nothing holds the worktrees any more.
    spawned.end(top);
    spawned.end(sub);
    let v = repo.run(["--json", "cleanup"]).json();
    assert_eq!(removed(&v), ["top", "sub"], "{v}");
    assert!(!repo.wt("top").exists() && !repo.wt("sub").exists());
}

#[test]
fn the_invoking_process_and_its_shell_count() {
    let repo = TestRepo::new();
    repo.create("here");
    repo.create("other");
    for id in ["here", "other"] {
        repo.run(["mark", id, "rejected"]).ok();
    }
    // git-loop itself working inside the worktree (`-C` names the root).
    let run = TestRepo::output(
        repo.command()
            .current_dir(repo.wt("here"))
            .args(["-C".as_ref(), repo.root.as_os_str()])
            .args(["--json", "cleanup", "--dry-run"]),
    );
    run.ok();
    let v = run.json();
    let s = skipped(&v, "here");
    assert_eq!(s["code"], "in-use", "{v}");
    assert!(
        s.text("reason")
            .contains("this git-loop (it was run from inside it)"),
        "{v}"
    );
    assert!(!s.text("reason").contains("git-loop (pid "), "{v}");
    assert_eq!(removed(&v), ["other"], "{v}");

    // The shell that typed the command from inside it: it outlives the
    // command (`; true` keeps `sh` from exec'ing it), and is named.
    let mut cmd = Command::new("sh");
    hermetic(&mut cmd, &repo.home);
    cmd.arg("-c")
        .arg("\"$0\" -C \"$1\" --json cleanup; true")
        .arg(BIN)
        .arg(&repo.root)
        .current_dir(repo.wt("here"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // `sh` exits by itself: waited for at once, before any assertion.
    let child = cmd.spawn().unwrap();
    let shell = child.id();
    let out = child.wait_with_output().unwrap();
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    let s = skipped(&v, "here");
    assert_eq!(s["code"], "in-use", "{v}");
    assert!(
        s.text("reason").contains(&format!("sh (pid {shell})")),
        "{v}"
    );
    assert_eq!(removed(&v), ["other"], "{v}");
    assert!(repo.wt("here").join("README").exists());
    assert_eq!(repo.ids(), ["here"]);

    // From the root, nothing is in it any more.
    let v = repo.run(["--json", "cleanup"]).json();
    assert_eq!(removed(&v), ["here"], "{v}");
}

#[test]
fn reconcile_keeps_an_orphan_a_process_works_in() {
    let repo = TestRepo::new();
    let mut spawned = Spawned::default();
    fs::create_dir_all(repo.loop_dir()).unwrap();
    repo.git([
        "worktree",
        "add",
        "-q",
        "-b",
        "loop/o",
        "--",
        ".loop-worktrees/o",
    ]);
    let pid = spawned.sleep_in(&repo.wt("o"));
    let args = [
        "--json",
        "reconcile",
        "--remove-orphan",
        "o",
        "--min-age",
        "0",
    ];
    let run = repo.run(args);
    run.ok();
    let v = run.json();
    assert_eq!(v["removedOrphans"], serde_json::json!([]), "{v}");
    let s = skipped(&v, "o");
    assert_eq!(s["code"], "in-use", "{v}");
    assert!(
        s.text("reason").contains(&format!("sleep (pid {pid})")),
        "{v}"
    );
    assert!(repo.wt("o").join("README").exists());

    spawned.end(pid);
    let v = repo.run(args).json();
    assert_eq!(
        v["removedOrphans"],
        serde_json::json!([{"id":"o","path":".loop-worktrees/o"}]),
        "{v}"
    );
    assert!(!repo.wt("o").exists());
}

/// `mount --bind <src> <at>`, undone when dropped (declare it after the
/// repository and before the processes working in it: they end first).
struct BindMount(std::path::PathBuf);

impl BindMount {
    /// Panics, naming the paths, when the mount fails: the test needs it
    /// (tests and CI run as root), and must not pass without it.
    fn new(src: &Path, at: &Path) -> BindMount {
        fs::create_dir_all(at).unwrap();
        let out = Command::new("mount")
            .arg("--bind")
            .arg(src)
            .arg(at)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "`mount --bind {} {}` failed (this test needs root and a mount it may bind): {}",
            src.display(),
            at.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        BindMount(at.to_path_buf())
    }
}

impl Drop for BindMount {
    fn drop(&mut self) {
        let ok = Command::new("umount")
            .arg(&self.0)
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            // Still busy: detach it anyway, so the temporary directory's
            // removal never reaches through it.
            let _ = Command::new("umount").arg("-l").arg(&self.0).status();
        }
    }
}

/// A process working in a worktree through a bind mount (as a container
/// sees it) reports a path elsewhere; it is found by device and inode, at
/// the worktree's top and in a subdirectory of it.
#[test]
fn a_process_working_in_a_worktree_through_a_bind_mount_is_found() {
    let repo = TestRepo::new();
    repo.create("top");
    repo.create("sub");
    fs::create_dir_all(repo.wt("sub").join("a/b")).unwrap();
    for id in ["top", "sub"] {
        repo.run(["mark", id, "rejected"]).ok();
    }
    let view = repo.base().join("view");
    let _top_mount = BindMount::new(&repo.wt("top"), &view.join("top"));
    let _sub_mount = BindMount::new(&repo.wt("sub"), &view.join("sub"));
    let mut spawned = Spawned::default();
    let top = spawned.sleep_in(&view.join("top"));
    let sub = spawned.sleep_in(&view.join("sub/a/b"));
    // What the kernel reports is the mount's path, not the worktree's.
    let reported = fs::read_link(format!("/proc/{top}/cwd")).unwrap();
    assert!(reported.starts_with(&view), "{}", reported.display());

    let v = repo.run(["--json", "list", "--long"]).json();
    assert_eq!(
        v.find_id("worktrees", "top")["inUse"],
        serde_json::json!([top]),
        "{v}"
    );
    assert_eq!(
        v.find_id("worktrees", "sub")["inUse"],
        serde_json::json!([sub]),
        "{v}"
    );
    let run = repo.run(["--json", "cleanup"]);
    run.ok();
    let v = run.json();
    assert_eq!(removed(&v), Vec::<&str>::new(), "{v}");
    for (id, pid) in [("top", top), ("sub", sub)] {
        let s = skipped(&v, id);
        assert_eq!(s["code"], "in-use", "{v}");
        assert!(
            s.text("reason").contains(&format!("sleep (pid {pid})")),
            "{v}"
        );
    }
    assert!(repo.wt("top").join("README").is_file());
    assert!(repo.wt("sub").join("a/b").is_dir());

    spawned.end(top);
    spawned.end(sub);
    let v = repo.run(["--json", "cleanup"]).json();
    assert_eq!(removed(&v), ["top", "sub"], "{v}");
    assert!(!repo.wt("top").exists() && !repo.wt("sub").exists());
}

/// `git loop remove` typed inside the run's own worktree: the worktree is
/// kept (in use: git-loop and the git that ran it are in it), and the
/// reason says that once, "this git-loop", never as `git (pid …)`, a
/// process the user never started by that name.
#[test]
fn run_from_inside_through_git_names_itself_once_not_the_git_that_ran_it() {
    let repo = TestRepo::new();
    repo.create("x").ok();
    repo.run(["mark", "x", "rejected"]).ok();
    let bin_dir = Path::new(BIN).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut cmd = Command::new("git");
    hermetic(&mut cmd, &repo.home);
    let out = cmd
        .env("PATH", path)
        .current_dir(repo.wt("x"))
        .args(["loop", "--json", "remove", "x"])
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let reason = doc.find_id("skipped", "x").text("reason").to_owned();
    assert!(
        reason.contains("this git-loop (it was run from inside it)"),
        "{reason}"
    );
    assert!(!reason.contains("git (pid"), "{reason}");
    assert_eq!(reason.matches("this git-loop").count(), 1, "{reason}");
    assert!(repo.wt("x").exists());
}
