//! Unit tests of the gate with real repositories (made by `git` in a
//! tempdir) and real processes; those that need a second process (this
//! test binary run again) in `second_process`.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::*;
use crate::configured_command::{Kind, lookup};

/// A repository in a temporary directory with one commit (`file`), a run
/// `r1` of it, and `.loop-worktrees/` ignored.
struct Fixture {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

impl Fixture {
    fn new() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("repo");
        std::fs::create_dir(&root).unwrap();
        let root = root.canonicalize().unwrap();
        let f = Fixture { _dir: dir, root };
        f.git(&["init", "-q", "-b", "main"]);
        std::fs::write(f.root.join("file"), "one\n").unwrap();
        std::fs::write(f.root.join(".gitignore"), ".loop-worktrees/\ntarget/\n").unwrap();
        f.git(&["add", "file", ".gitignore"]);
        f.git(&["commit", "-q", "-m", "first"]);
        f
    }

    fn git(&self, args: &[&str]) -> String {
        git_in(&self.root, args)
    }

    fn repo(&self) -> Repo {
        Repo::discover(&self.root).unwrap()
    }

    fn head(&self) -> ObjectId {
        ObjectId::from_hex(self.git(&["rev-parse", "HEAD"]).as_bytes()).unwrap()
    }

    /// Nothing of a scratch checkout is left: not even `.land-gate/` (the
    /// gate made it), no registration but the main worktree's.
    fn assert_no_scratch(&self) {
        let dir = self.root.join(".loop-worktrees").join(scratch::SCRATCH_DIR);
        let left: Vec<_> = std::fs::read_dir(&dir)
            .map(|d| d.flatten().map(|e| e.path()).collect())
            .unwrap_or_default();
        assert!(left.is_empty(), "left: {left:?}");
        assert!(!dir.exists(), "{} is left", dir.display());
        let list = self.git(&["worktree", "list", "--porcelain"]);
        assert!(!list.contains(scratch::SCRATCH_DIR), "{list}");
        let status = self.git(&["status", "--porcelain", "--untracked-files=all"]);
        assert!(!status.contains(".loop-worktrees"), "{status}");
    }

    fn gate(&self, cmd: &str, timeout: Duration) -> GateRun {
        let env = [("GIT_LOOP_ID", OsStr::new("r1"))];
        check(
            &self.repo(),
            &ConfiguredCommand::given(cmd, "--gate"),
            ("t", &Place::default()),
            self.head(),
            timeout,
            &env,
        )
        .unwrap()
    }
}

fn git_in(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_AUTHOR_NAME", "A")
        .env("GIT_AUTHOR_EMAIL", "a@example.com")
        .env("GIT_COMMITTER_NAME", "C")
        .env("GIT_COMMITTER_EMAIL", "c@example.com")
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}

const SHORT: Duration = Duration::from_secs(60);

/// A passing gate ran in a checkout of the commit, detached, outside the
/// user's checkout, with the run's environment and the commit's id.
#[test]
fn a_passing_gate_runs_in_a_scratch_checkout_of_the_commit() {
    let f = Fixture::new();
    let head = f.head().to_string();
    let g = f.gate(
        "test \"$(cat file)\" = one && test \"$GIT_LOOP_ID\" = r1 \
         && test \"$(git rev-parse HEAD)\" = \"$GIT_LOOP_LAND_COMMIT\" \
         && test -z \"$(git symbolic-ref -q HEAD)\" && pwd",
        SHORT,
    );
    assert!(g.passed, "{g:?}");
    assert_eq!(g.exit_code, Some(0));
    assert!(!g.timed_out && g.scratch_left.is_none());
    let scratch_dir = f.root.join(".loop-worktrees").join(scratch::SCRATCH_DIR);
    assert!(
        Path::new(&g.tail).starts_with(&scratch_dir),
        "{} ran outside {}",
        g.tail,
        scratch_dir.display()
    );
    assert_eq!(f.git(&["rev-parse", "HEAD"]), head);
    f.assert_no_scratch();
}

/// A failing gate: its exit code and the tail of its output, stdout and
/// stderr in the order written.
#[test]
fn a_failing_gate_reports_its_exit_code_and_tail() {
    let f = Fixture::new();
    let g = f.gate("echo building; echo 'test x failed' >&2; exit 7", SHORT);
    assert!(!g.passed && !g.timed_out, "{g:?}");
    assert_eq!(g.exit_code, Some(7));
    assert_eq!(g.tail, "building\ntest x failed");
    assert!(g.scratch_left.is_none());
    f.assert_no_scratch();
}

/// At the timeout the gate's whole process group is killed: the shell and
/// a child it started in the background.
#[test]
fn a_gate_past_its_timeout_is_killed_with_its_children() {
    let f = Fixture::new();
    let pid_file = f._dir.path().join("child.pid");
    let cmd = format!(
        "sleep 60 & echo $! > '{}'; echo started; sleep 60",
        pid_file.display()
    );
    let start = std::time::Instant::now();
    let g = f.gate(&cmd, Duration::from_secs(1));
    assert!(start.elapsed() < Duration::from_secs(20), "{g:?}");
    assert!(g.timed_out && !g.passed, "{g:?}");
    assert_eq!(g.exit_code, None);
    assert!(g.seconds >= 1.0, "{g:?}");
    assert_eq!(g.tail, "started");
    let child: i32 = std::fs::read_to_string(&pid_file)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let pid = rustix::process::Pid::from_raw(child).unwrap();
    let gone = (0..100).any(|_| {
        // Dead, or a zombie waiting for init: not running either way.
        let state = std::fs::read_to_string(format!("/proc/{child}/stat")).unwrap_or_default();
        let alive = rustix::process::test_kill_process(pid).is_ok()
            && !state.contains(") Z ")
            && !state.is_empty();
        if alive {
            std::thread::sleep(Duration::from_millis(50));
        }
        !alive
    });
    assert!(gone, "the gate's child {child} is still running");
    f.assert_no_scratch();
}

/// What a gate writes (build output, a changed tracked file, an untracked
/// file, a symlink out of the checkout) is not the user's work: the
/// scratch goes, and nothing outside it is touched.
#[test]
fn a_gate_that_writes_files_passes_and_its_scratch_is_removed() {
    let f = Fixture::new();
    let outside = f._dir.path().join("outside");
    std::fs::create_dir(&outside).unwrap();
    std::fs::write(outside.join("keep"), "mine\n").unwrap();
    let cmd = format!(
        "mkdir -p target/debug && echo bin > target/debug/app && echo two > file \
         && mkdir -p new/deep && echo x > new/deep/untracked && ln -s '{}' link \
         && ln -s '{}' dirlink",
        outside.join("keep").display(),
        outside.display()
    );
    let g = f.gate(&cmd, SHORT);
    assert!(g.passed, "{g:?}");
    assert!(g.scratch_left.is_none(), "{g:?}");
    f.assert_no_scratch();
    assert_eq!(
        std::fs::read_to_string(outside.join("keep")).unwrap(),
        "mine\n"
    );
    assert_eq!(
        std::fs::read_to_string(f.root.join("file")).unwrap(),
        "one\n"
    );
}

/// The scratch is removed whatever happens: a checkout that fails (a
/// blob of the commit is missing) leaves nothing, nor does a commit git
/// cannot add a worktree at.
#[test]
fn the_scratch_is_gone_when_the_checkout_fails_too() {
    let f = Fixture::new();
    let blob = f.git(&["rev-parse", "HEAD:file"]);
    let loose = f
        .root
        .join(".git/objects")
        .join(&blob[..2])
        .join(&blob[2..]);
    std::fs::rename(&loose, f._dir.path().join("blob")).unwrap();
    let gate = ConfiguredCommand::given("touch ran", "--gate");
    let err = check(
        &f.repo(),
        &gate,
        ("t", &Place::default()),
        f.head(),
        SHORT,
        &[],
    )
    .unwrap_err();
    assert_eq!(err.code(), "git-failed", "{err}");
    f.assert_no_scratch();
    // A commit that is not in the object database: refused by git.
    let missing = ObjectId::from_hex(b"0123456789012345678901234567890123456789").unwrap();
    let err = check(
        &f.repo(),
        &gate,
        ("t", &Place::default()),
        missing,
        SHORT,
        &[],
    )
    .unwrap_err();
    assert!(err.to_string().contains("0123456789"), "{err}");
    f.assert_no_scratch();
}

/// A scratch the kernel will not let go (a commit made in it) is left, and
/// its path said; the commit is not lost.
#[test]
fn a_scratch_with_a_commit_made_in_it_is_left_and_named() {
    let f = Fixture::new();
    let g = f.gate(
        "echo x > made && git add made && git -c user.name=g -c user.email=g@example.com commit -q -m made && git rev-parse HEAD",
        SHORT,
    );
    assert!(g.passed, "{g:?}");
    let left = g.scratch_left.clone().expect("left in place");
    assert!(left.contains(".land-gate/"), "{left}");
    assert!(left.contains("no longer detached"), "{left}");
    let made = g.tail.lines().last().unwrap();
    assert_eq!(f.git(&["cat-file", "-t", made]), "commit");
    let list = f.git(&["worktree", "list", "--porcelain"]);
    assert!(list.contains(made), "{list}");
}

/// A gate from the repository's own `.git-loop.toml` is refused until it
/// is trusted, with the hooks' error; once trusted, the files it names are
/// checked again in the scratch checkout of the landed commit.
#[test]
fn an_untrusted_repository_gate_is_refused() {
    let f = Fixture::new();
    std::fs::write(f.root.join("check.sh"), "exit 0\n").unwrap();
    f.git(&["add", "check.sh"]);
    f.git(&["commit", "-q", "-m", "check"]);
    std::fs::write(
        f.root.join(".git-loop.toml"),
        "[land]\ngate = \"sh check.sh\"\n",
    )
    .unwrap();
    let repo = f.repo();
    let hash = repo.gix().object_hash();
    let settings =
        crate::config::Settings::load(&f.root, &repo.gix().config_snapshot(), hash, |id| {
            crate::configured_command::trust::is_trusted(repo.common_dir(), id)
        })
        .unwrap();
    let err = lookup(&settings, Kind::LandGate, &f.root, repo.common_dir()).unwrap_err();
    assert_eq!(err.code(), "untrusted-hook");
    assert!(err.to_string().contains("land.gate"), "{err}");
    assert!(err.to_string().contains(".git-loop.toml"), "{err}");
    f.assert_no_scratch();

    // Trusted as the main checkout has it...
    let blob = settings.repo_file_id.clone().unwrap();
    let files =
        crate::configured_command::trust::named_files(&["sh check.sh"], &f.root, hash).unwrap();
    crate::configured_command::trust::trust(repo.common_dir(), &blob, &files).unwrap();
    let gate = lookup(&settings, Kind::LandGate, &f.root, repo.common_dir())
        .unwrap()
        .unwrap();
    let passed = check(&repo, &gate, ("t", &Place::default()), f.head(), SHORT, &[]).unwrap();
    assert!(passed.passed, "{passed:?}");
    // ...but the landed commit changes check.sh: refused in the scratch.
    std::fs::write(f.root.join("check.sh"), "echo changed\n").unwrap();
    f.git(&["commit", "-q", "-a", "-m", "changed"]);
    let landed = f.head();
    f.git(&["reset", "-q", "--hard", "HEAD~1"]);
    let err = check(&repo, &gate, ("t", &Place::default()), landed, SHORT, &[]).unwrap_err();
    assert_eq!(err.code(), "untrusted-hook");
    assert!(err.to_string().contains("check.sh"), "{err}");
    f.assert_no_scratch();
}

mod second_process;
