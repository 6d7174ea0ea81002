//! git plumbing for salvage and restore (see [`crate::worktree::salvage`]):
//! `write-tree`, `add -A` and `read-tree` against a temporary index
//! (`GIT_INDEX_FILE`), `commit-tree`, a compare-and-swap `update-ref`, and
//! `worktree add` of an existing branch; for a landing
//! ([`crate::ops::land::advance`]), the two-tree `read-tree -m -u` that
//! carries a checkout from the target's old tip to its new one, its dry run,
//! and the index refresh before it; for the fleet ([`crate::ops::fleet`]),
//! the calls to its remote: `ls-remote`, a fetch of objects by id that
//! writes no ref, and the atomic leased push (every ref a compare-and-swap),
//! each with an optional timeout. Same hygiene as [`super::cmd`]:
//! the repository variables are removed, `LC_ALL=C`, no prompt, `--`
//! before paths, never `--force`.

use std::ffi::OsStr;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use super::error::CommandError;
use crate::error::{Error, Result};

/// Remove the variables that would point a child at another repository
/// (`GIT_DIR`, `GIT_WORK_TREE`, `GIT_INDEX_FILE`, `GIT_COMMON_DIR`): git
/// and hooks run by git-loop find their repository from their directory.
pub fn without_repo_env(cmd: &mut Command) -> &mut Command {
    cmd.env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_INDEX_FILE")
        .env_remove("GIT_COMMON_DIR")
}

/// `git -C <dir> <args>` (with `GIT_INDEX_FILE=<index>` when given): its
/// stdout, trimmed, or the failure as [`Error::Git`].
pub fn git(dir: &Path, index: Option<&Path>, args: &[&OsStr]) -> Result<String> {
    try_git(dir, index, args)?.map_err(Error::from)
}

/// [`git`], with git's failure kept whole (its stderr, to read): the outer
/// error only when git could not be run at all.
pub fn try_git(
    dir: &Path,
    index: Option<&Path>,
    args: &[&OsStr],
) -> Result<std::result::Result<String, CommandError>> {
    try_git_as(dir, index, args, false)
}

/// [`try_git`]; `own_group`: git in a process group of its own, so that
/// the terminal's Ctrl-C (sent to the foreground group) does not reach it:
/// git-loop decides what a signal does while it runs.
fn try_git_as(
    dir: &Path,
    index: Option<&Path>,
    args: &[&OsStr],
    own_group: bool,
) -> Result<std::result::Result<String, CommandError>> {
    use std::os::unix::process::CommandExt;
    let mut cmd = Command::new("git");
    if own_group {
        cmd.process_group(0);
    }
    without_repo_env(cmd.arg("-C").arg(dir).args(args))
        .env("LC_ALL", "C")
        .env("GIT_TERMINAL_PROMPT", "0")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(index) = index {
        cmd.env("GIT_INDEX_FILE", index);
    }
    let output = cmd
        .output()
        .map_err(|e| Error::io("could not run", "git", e))?;
    if !output.status.success() {
        return Ok(Err(CommandError {
            args: args
                .iter()
                .map(|a| a.to_string_lossy().into_owned())
                .collect(),
            status: output.status.code(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }));
    }
    Ok(Ok(String::from_utf8_lossy(&output.stdout)
        .trim()
        .to_owned()))
}

/// Shorthand for string arguments.
pub fn git_str(dir: &Path, index: Option<&Path>, args: &[&str]) -> Result<String> {
    let args: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
    git(dir, index, &args)
}

/// How a [`push`] ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PushOutcome {
    /// The remote's branch is now at the commit pushed; `summary` is git's
    /// word for the update (`51fd041..b13f9fd`, `[new branch]`, `[up to
    /// date]`).
    Done { summary: String },
    /// Refused because the remote's branch is not where this push assumed:
    /// it moved (`[rejected] (fetch first)`, `(non-fast-forward)`), or
    /// another push was updating it at that moment (`[remote rejected]`
    /// with a ref-lock failure). Fetch, and try again on its new tip.
    Moved { reason: String },
    /// Any other failure (no such remote, network, a `pre-push` or remote
    /// hook declining, a protected branch): git's own words.
    Failed { reason: String },
}

/// `git push --porcelain --no-follow-tags -- <remote> <commit>:<dst>` from
/// `dir`: a fast-forward of `dst` (a full ref name on the remote) to
/// `commit`, never forced (no `+`, no `--force`, no
/// `--force-with-lease`), no tags along with it. The outcome is read from
/// git's porcelain line for `dst` (`!` rejected), so a remote that moved
/// is told apart from every other failure. A `pre-push` hook runs, as for
/// any `git push`.
pub fn push(dir: &Path, remote: &str, commit: &str, dst: &str) -> Result<PushOutcome> {
    let refspec = format!("{commit}:{dst}");
    let mut cmd = Command::new("git");
    without_repo_env(cmd.arg("-C").arg(dir).args([
        "push",
        "--porcelain",
        "--no-follow-tags",
        "--",
        remote,
        &refspec,
    ]))
    .env("LC_ALL", "C")
    .env("GIT_TERMINAL_PROMPT", "0")
    .stdin(Stdio::null());
    let output = cmd
        .output()
        .map_err(|e| Error::io("could not run", "git", e))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    Ok(read_push(
        output.status.success(),
        output.status.code(),
        &stdout,
        &stderr,
        dst,
    ))
}

/// The ref-lock failures of a remote that another push was updating at the
/// same moment (receive-pack's compare-and-swap lost, or its lock file
/// taken): the branch moved under this push.
const CONTENDED: [&str; 4] = [
    "cannot lock ref",
    "failed to update ref",
    "unable to create",
    "incorrect old value",
];

/// [`push`]'s outcome from git's exit status and output: the porcelain
/// line `<flag>\t<src>:<dst>\t<summary> (<reason>)` for `dst` decides; no
/// such line (the remote could not be reached) is a failure with git's
/// stderr. Its tests are with the push's (`crate::ops::land::push`).
pub(crate) fn read_push(
    success: bool,
    status: Option<i32>,
    stdout: &str,
    stderr: &str,
    dst: &str,
) -> PushOutcome {
    let line = stdout.lines().find(|l| {
        l.split('\t')
            .nth(1)
            .and_then(|refs| refs.rsplit_once(':'))
            .is_some_and(|(_, to)| to == dst)
    });
    let Some(line) = line else {
        let reason = CommandError {
            args: vec!["push".to_owned()],
            status,
            stderr: stderr.to_owned(),
        }
        .reason();
        return PushOutcome::Failed { reason };
    };
    let mut fields = line.split('\t');
    let flag = fields.next().unwrap_or_default();
    let summary = fields.nth(1).unwrap_or_default().trim();
    if flag != "!" && success {
        return PushOutcome::Done {
            summary: summary.to_owned(),
        };
    }
    let reason = summary.to_owned();
    let lower = summary.to_ascii_lowercase();
    let moved = (summary.starts_with("[rejected]")
        && (lower.contains("fetch first") || lower.contains("non-fast-forward")))
        || (summary.starts_with("[remote rejected]")
            && CONTENDED.iter().any(|c| lower.contains(c)));
    if moved {
        PushOutcome::Moved { reason }
    } else {
        PushOutcome::Failed { reason }
    }
}

/// `git update-ref --create-reflog -m <msg> <name> <new> <old>`: `old` is
/// the value the ref must still have (all zeros: it must not exist), so a
/// concurrent change is refused, not overwritten.
pub fn update_ref(dir: &Path, name: &str, new: &str, old: &str, msg: &str) -> Result<()> {
    git_str(
        dir,
        None,
        &["update-ref", "--create-reflog", "-m", msg, name, new, old],
    )
    .map(drop)
}

/// `git read-tree -m -u <old> <new>` in the worktree `dir` (with `-n`: only
/// whether it would succeed): git's two-tree merge. A path the two trees
/// agree on keeps its index entry and its file as they are, staged change
/// or not; a path they differ in must be clean in the index and the work
/// tree (at `old`), and an untracked file in its way refuses. It writes
/// the index and the files, never a ref, and runs no hook. git's refusal
/// comes back whole, for [`super::refusal::read_tree`] to read. The write
/// (not the dry run) runs in a process group of its own: a Ctrl-C does not
/// stop git half-way through the files, and git-loop, which waits for it,
/// says how the landing ended (`ops::land::advance`).
pub fn read_tree_two_way(
    dir: &Path,
    index: Option<&Path>,
    (old, new): (&str, &str),
    dry_run: bool,
) -> Result<std::result::Result<(), CommandError>> {
    let mut args = vec!["read-tree", "-m", "-u"];
    if dry_run {
        args.push("-n");
    }
    args.extend([old, new]);
    let args: Vec<&OsStr> = args.into_iter().map(OsStr::new).collect();
    Ok(try_git_as(dir, index, &args, !dry_run)?.map(drop))
}

/// `git update-index -q --refresh` in the worktree `dir`: the index's
/// cached file stats brought up to date where the content is unchanged (as
/// `git status` does), so a file merely touched does not read as "not up to
/// date". Nothing else changes; the index is rewritten only when a stat was
/// stale. git's failure (the index locked by another git) is not an error
/// here: the dry run that follows refuses on what it then finds.
pub fn refresh_index(dir: &Path, index: Option<&Path>) -> Result<()> {
    let args = ["update-index", "-q", "--refresh"].map(OsStr::new);
    try_git(dir, index, &args).map(drop)
}

/// `git update-index --add --remove -- <paths>` in the worktree `dir`: each
/// path's index entry set to the file as it is on disk (added, or removed
/// when the file is gone). The index only: no file is written.
pub fn update_index_paths(dir: &Path, paths: &[gix::bstr::BString]) -> Result<()> {
    use std::os::unix::ffi::OsStrExt;
    let mut args: Vec<&OsStr> = ["update-index", "--add", "--remove", "--"]
        .map(OsStr::new)
        .to_vec();
    args.extend(paths.iter().map(|p| OsStr::from_bytes(p)));
    try_git(dir, None, &args)?
        .map(drop)
        .map_err(|e| Error::Git(format!("{e} (in {})", dir.display())))
}

/// `git update-ref [--create-reflog] -m <msg> --stdin` in `dir`, fed
/// `commands` (`create <ref> <new>`, `update <ref> <new> <old>`, `delete
/// <ref> <old>`, one a line): one transaction, each old value a
/// compare-and-swap, the `reference-transaction` hook run as for any ref
/// git writes (it may refuse: git's failure comes back whole). The outer
/// error only when git could not be run at all.
pub fn update_refs(
    dir: &Path,
    msg: &str,
    create_reflog: bool,
    commands: &str,
) -> Result<std::result::Result<(), CommandError>> {
    use std::io::Write;
    let mut args = vec!["update-ref"];
    if create_reflog {
        args.push("--create-reflog");
    }
    args.extend(["-m", msg, "--stdin"]);
    let mut cmd = Command::new("git");
    without_repo_env(cmd.arg("-C").arg(dir).args(&args))
        .env("LC_ALL", "C")
        .env("GIT_TERMINAL_PROMPT", "0")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let mut child = cmd
        .spawn()
        .map_err(|e| Error::io("could not run", "git", e))?;
    let fed = child
        .stdin
        .take()
        .map(|mut stdin| stdin.write_all(commands.as_bytes()));
    let output = child
        .wait_with_output()
        .map_err(|e| Error::io("could not run", "git", e))?;
    if output.status.success() && !matches!(fed, Some(Err(_))) {
        return Ok(Ok(()));
    }
    Ok(Err(CommandError {
        args: args.iter().map(|a| (*a).to_owned()).collect(),
        status: output.status.code(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }))
}

/// One ref of a [`push_leased`]: `dst` on the remote set to `new` (`None`:
/// deleted) only if it is still at `expected` (`None`: it must not exist).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lease {
    pub dst: String,
    pub new: Option<String>,
    pub expected: Option<String>,
}

/// How a [`push_leased`] ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LeasedPush {
    /// Every ref is where it was asked to be.
    Done,
    /// Nothing changed: a ref was not at its expected value (another
    /// machine got there first); `refs` are the ones git named so.
    Stale { refs: Vec<String>, reason: String },
    /// Nothing changed (the push is atomic): git's own words.
    Failed { reason: String },
}

/// `git push --porcelain --atomic --no-follow-tags
/// --force-with-lease=<dst>:<expected>… -- <remote> <new>:<dst>…` (`:<dst>`
/// for a delete) from `dir`: every ref updated by the remote's own
/// compare-and-swap against the value given (an empty expected value: the
/// ref must not exist), all or none. Never `--force`, never a `+` refspec:
/// a ref that is not where the caller last saw it is refused, not
/// overwritten. The fleet's refs (`crate::ops::fleet`) and a run's own
/// branch are the only refs it is given.
pub fn push_leased(
    dir: &Path,
    remote: &str,
    leases: &[Lease],
    timeout: Option<Duration>,
) -> Result<LeasedPush> {
    let mut args: Vec<String> = ["push", "--porcelain", "--atomic", "--no-follow-tags"]
        .map(str::to_owned)
        .to_vec();
    for l in leases {
        let expected = l.expected.as_deref().unwrap_or_default();
        args.push(format!("--force-with-lease={}:{expected}", l.dst));
    }
    args.extend(["--".to_owned(), remote.to_owned()]);
    for l in leases {
        args.push(format!(
            "{}:{}",
            l.new.as_deref().unwrap_or_default(),
            l.dst
        ));
    }
    let mut cmd = Command::new("git");
    without_repo_env(cmd.arg("-C").arg(dir).args(&args))
        .env("LC_ALL", "C")
        .env("GIT_TERMINAL_PROMPT", "0")
        .stdin(Stdio::null());
    let Some(output) = output_within(&mut cmd, timeout)? else {
        return Ok(LeasedPush::Failed {
            reason: timed_out(timeout),
        });
    };
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    Ok(read_leased(
        output.status.success(),
        output.status.code(),
        &stdout,
        &stderr,
    ))
}

/// What a call cut off at its timeout says.
fn timed_out(timeout: Option<Duration>) -> String {
    format!(
        "no answer within {} s (stopped)",
        timeout.unwrap_or_default().as_secs()
    )
}

/// `cmd`'s output; with a `timeout`, `None` when it ran past it: then it
/// (in a process group of its own, with whatever it started, an ssh say)
/// is killed.
fn output_within(
    cmd: &mut Command,
    timeout: Option<Duration>,
) -> Result<Option<std::process::Output>> {
    use std::io::Read;
    use std::os::unix::process::CommandExt;
    let io = |e| Error::io("could not run", "git", e);
    let Some(timeout) = timeout else {
        return cmd.output().map(Some).map_err(io);
    };
    let mut child = cmd
        .process_group(0)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(io)?;
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let out = drain(Box::new(child.stdout.take().expect("piped")));
    let err = drain(Box::new(child.stderr.take().expect("piped")));
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(io)? {
            break Some(status);
        }
        if start.elapsed() >= timeout {
            // Not reaped yet: the group id is still its own.
            let pid = rustix::process::Pid::from_child(&child);
            let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let (stdout, stderr) = (
        out.join().unwrap_or_default(),
        err.join().unwrap_or_default(),
    );
    Ok(status.map(|status| std::process::Output {
        status,
        stdout,
        stderr,
    }))
}

/// [`try_git`] cut off at `timeout` (a failure saying so).
fn try_git_within(
    dir: &Path,
    args: &[&OsStr],
    timeout: Option<Duration>,
) -> Result<std::result::Result<String, CommandError>> {
    if timeout.is_none() {
        return try_git(dir, None, args);
    }
    let mut cmd = Command::new("git");
    without_repo_env(cmd.arg("-C").arg(dir).args(args))
        .env("LC_ALL", "C")
        .env("GIT_TERMINAL_PROMPT", "0")
        .stdin(Stdio::null());
    let failed = |status, stderr| CommandError {
        args: args
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect(),
        status,
        stderr,
    };
    Ok(match output_within(&mut cmd, timeout)? {
        None => Err(failed(None, timed_out(timeout))),
        Some(o) if !o.status.success() => Err(failed(
            o.status.code(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )),
        Some(o) => Ok(String::from_utf8_lossy(&o.stdout).trim().to_owned()),
    })
}

/// [`push_leased`]'s outcome from git's porcelain lines (`!` a refusal):
/// a refusal for a stale lease or a lost compare-and-swap at the remote
/// (an atomic transaction refused for a ref lock another push held, or a
/// ref another push created) is [`LeasedPush::Stale`]; no line at all (the remote could not be
/// reached) or any other refusal is [`LeasedPush::Failed`].
pub(crate) fn read_leased(
    success: bool,
    status: Option<i32>,
    stdout: &str,
    stderr: &str,
) -> LeasedPush {
    let refused: Vec<(&str, &str)> = stdout
        .lines()
        .filter(|l| l.starts_with('!'))
        .filter_map(|l| {
            let mut f = l.split('\t');
            let refs = f.nth(1)?;
            let summary = f.next().unwrap_or_default().trim();
            Some((refs.rsplit_once(':').map_or(refs, |(_, to)| to), summary))
        })
        .collect();
    if success && refused.is_empty() {
        return LeasedPush::Done;
    }
    // An atomic transaction the remote could not commit names its cause
    // on stderr only (`remote: error: cannot lock ref '…': reference
    // already exists`).
    let err = stderr.to_ascii_lowercase();
    let contended = CONTENDED.iter().any(|c| err.contains(c)) || err.contains("already exists");
    let lost = |s: &str| {
        let lower = s.to_ascii_lowercase();
        lower.contains("stale info")
            || lower.contains("already exists")
            || lower.contains("fetch first")
            || lower.contains("non-fast-forward")
            || CONTENDED.iter().any(|c| lower.contains(c))
            || (lower.contains("atomic") && contended)
    };
    let stale: Vec<String> = refused
        .iter()
        .filter(|(_, s)| lost(s))
        .map(|(r, _)| (*r).to_owned())
        .collect();
    if !stale.is_empty() {
        let reason = refused
            .iter()
            .filter(|(_, s)| lost(s))
            .map(|(r, s)| format!("{r}: {s}"))
            .collect::<Vec<_>>()
            .join("; ");
        return LeasedPush::Stale {
            refs: stale,
            reason,
        };
    }
    let reason = match refused.first() {
        Some((r, s)) => format!("{r}: {s}"),
        None => CommandError {
            args: vec!["push".to_owned()],
            status,
            stderr: stderr.to_owned(),
        }
        .reason(),
    };
    LeasedPush::Failed { reason }
}

/// `git ls-remote --refs -- <remote> <pattern>…`: the remote's refs that
/// match (git's tail match: `refs/loop/fleet/*`), as `(ref, id)`; git's
/// failure (the remote unreachable) whole.
pub fn ls_remote(
    dir: &Path,
    remote: &str,
    patterns: &[&str],
    timeout: Option<Duration>,
) -> Result<std::result::Result<Vec<(String, String)>, CommandError>> {
    let mut args = vec!["ls-remote", "--refs", "--", remote];
    args.extend(patterns);
    let args: Vec<&OsStr> = args.into_iter().map(OsStr::new).collect();
    Ok(try_git_within(dir, &args, timeout)?.map(|text| {
        text.lines()
            .filter_map(|l| l.split_once('\t'))
            .map(|(id, name)| (name.to_owned(), id.to_owned()))
            .collect()
    }))
}

/// `git fetch --quiet --no-tags --no-write-fetch-head --refmap= -- <remote>
/// <id>…`: the objects of these commits (protocol v2 lets a fetch want an
/// advertised ref's id), and nothing written but objects: no ref, no
/// `FETCH_HEAD`. git's failure whole (one id the remote does not have
/// fails the whole fetch: `not our ref`).
pub fn fetch_objects(
    dir: &Path,
    remote: &str,
    ids: &[&str],
    timeout: Option<Duration>,
) -> Result<std::result::Result<(), CommandError>> {
    let mut args = vec![
        "fetch",
        "--quiet",
        "--no-tags",
        "--no-write-fetch-head",
        "--refmap=",
        "--",
        remote,
    ];
    args.extend(ids);
    let args: Vec<&OsStr> = args.into_iter().map(OsStr::new).collect();
    Ok(try_git_within(dir, &args, timeout)?.map(drop))
}
