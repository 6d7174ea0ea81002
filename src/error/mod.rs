//! One error type for the whole crate.
//!
//! Each variant has a stable kebab-case code (printed by `--json` as
//! `{"error":{"code":…,"message":…}}`) and maps to an exit code: usage errors
//! (bad flags, invalid run id, status, CSV or cutoff given on the command line)
//! exit 2, every refusal or failure exits 1 (except `git loop run`'s command not
//! found, 127, or not executable, 126, as shells do). `Display` is one line that names the
//! offending thing; advice lives in `help` (miette's `#[diagnostic(help)]`,
//! the only miette attribute used: codes live in [`Error::code`] alone).
//! clap's own usage errors (an unknown flag, a missing argument) are not
//! values of this type: the entry point in `lib.rs` reports them with the
//! code `usage`. A failed git call is a [`crate::git::error::CommandError`]
//! (the git runner's own type); when it ends a command it becomes
//! [`Error::Git`], which keeps its one-line message — this module sits below
//! `crate::git` and names none of its types.

use std::path::PathBuf;

use miette::Diagnostic;
use thiserror::Error;

pub type Result<T, E = Error> = std::result::Result<T, E>;

#[derive(Debug, Error, Diagnostic)]
pub enum Error {
    #[error("invalid run id {id:?}: {reason}")]
    #[diagnostic(help(
        "a run id is one path segment that git accepts in `loop/<id>`: letters, digits, `-`, `_`, `.` are safe"
    ))]
    InvalidRunId { id: String, reason: String },

    #[error("invalid pattern \"{}\": {reason}", crate::style::escape(pattern))]
    #[diagnostic(help(
        "a pattern label is one line of printable text, e.g. --pattern refactor-auth"
    ))]
    InvalidPattern { pattern: String, reason: String },

    #[error(
        "invalid status {value:?} in {origin}: expected one of active, rejected, escalated, merged, stale"
    )]
    InvalidStatus {
        value: String,
        origin: String,
        /// Where to fix it, when it comes from a config layer.
        #[help]
        help: Option<String>,
    },

    #[error("invalid cutoff {value:?} in {origin}: expected <n><s|m|h|d>, e.g. 24h")]
    InvalidCutoff {
        value: String,
        origin: String,
        /// Where to fix it, when it comes from a config layer.
        #[help]
        help: Option<String>,
    },

    /// `given`: the path came from `-C` (telling that user to pass -C
    /// would not help).
    #[error("not a git repository: {path}{detail}")]
    #[diagnostic(help("{}", if *given { "-C <DIR> names the repository to work on: give the path of a git work tree (or of a directory inside one)" } else { "run inside a work tree, or pass -C <DIR>" }))]
    NotARepo {
        path: PathBuf,
        detail: String,
        given: bool,
    },

    /// `what`: `<path> is a bare repository` (or `<dir> is a worktree of…`);
    /// `setup`: the commands that make its layout in `project` (`git::repo::bare`).
    #[error(
        "{what} outside the bare-repository layout: git-loop needs a directory beside it to hold .loop-worktrees/"
    )]
    #[diagnostic(help(
        "put it in the layout (the bare repository in <dir>/.bare, a file <dir>/.git naming it, every branch a worktree in <dir>): `{setup}`, then run git loop in {}",
        project.display()
    ))]
    BareRepo {
        what: String,
        setup: String,
        project: PathBuf,
    },

    /// A format git-loop cannot read whole (`crate::git::repo::format`).
    #[error(
        "{path} sets {extension} = {value}, which git-loop cannot read yet: it refuses the repository rather than half-read it"
    )]
    #[diagnostic(help("{}", unsupported_help(extension, value)))]
    UnsupportedRepository {
        path: PathBuf,
        extension: String,
        value: String,
    },

    #[error("{} is not inside a run's worktree{what}", dir.display())]
    NotInRun {
        dir: PathBuf,
        what: String,
        #[help]
        help: String,
    },

    #[error("invalid manifest {path}: {reason}")]
    #[diagnostic(help(
        "git-loop never rewrites a manifest it could not validate; fix or move the file by hand"
    ))]
    InvalidManifest { path: PathBuf, reason: String },

    #[error("refusing to use {path}: {reason}")]
    UnsafePath { path: PathBuf, reason: String },

    /// `missing`: the entry is active but its directory is gone (removed by
    /// hand): marking it would not help, reconcile drops such an entry.
    #[error(
        "run {id:?} is {}",
        if *missing { format!("recorded active, but its worktree {path} is gone") } else { format!("already active at {path}") }
    )]
    #[diagnostic(help("{}", active_exists_help(id, *missing)))]
    ActiveExists {
        id: String,
        path: String,
        missing: bool,
    },

    /// `racing`: a create of this id is at work or has just finished (its
    /// worktree is registered, or the manifest has the run active), so the
    /// branch is not a leftover of an earlier run.
    #[error(
        "branch {branch} already exists{}",
        if *racing { ": another create of this run id is in progress or has just finished" } else { "" }
    )]
    #[diagnostic(help("{}", branch_exists_help(branch, *racing)))]
    BranchExists { branch: String, racing: bool },

    #[error("--sparse {dir}: {base} has no directory {dir}")]
    #[diagnostic(help(
        "give a directory of the base's tree, relative to its top (`git ls-tree -d {base}` lists the top ones); nothing was changed"
    ))]
    SparseDirMissing { dir: String, base: String },

    #[error("{path} already exists")]
    #[diagnostic(help("move it away or run `git loop reconcile` to see what it is"))]
    PathExists { path: String },

    #[error("nothing in the trash is named {name:?}")]
    #[diagnostic(help(
        "`git loop trash` lists the entries; NAME is an entry's name, its ref, or a deleted branch's name (loop/<id>)"
    ))]
    TrashNotFound { name: String },

    #[error("branch {branch} already exists: the trash entry {entry} was not restored")]
    #[diagnostic(help("nothing was changed; pass --as <BRANCH> to restore it under another name"))]
    RestoreOverBranch { branch: String, entry: String },

    #[error("{name:?} is not a valid branch name")]
    #[diagnostic(help("a branch name as `git check-ref-format --branch` accepts it"))]
    InvalidBranchName { name: String },

    #[error("{id:?} cannot be adopted: {reason}")]
    #[diagnostic(help("{help}"))]
    NotAdoptable {
        id: String,
        reason: String,
        help: String,
    },

    #[error("run {id:?} is active: remove never takes an active run")]
    #[diagnostic(help(
        "if it is finished, mark it and remove it: git loop mark {id} rejected && git loop remove {id} (or merged, escalated, stale for rejected); its worktree is {path}"
    ))]
    RunActive { id: String, path: String },

    /// `pick` takes an active attempt (`<TASK>.<n>`) only: `reason` says
    /// why not this one.
    #[error("cannot pick {id:?}: {reason}")]
    #[diagnostic(help("{help}"))]
    NotPickable {
        id: String,
        reason: String,
        help: String,
    },

    /// `remove` named runs and every one was skipped (`skipped`: each id
    /// with its skip code): it fails as `git worktree remove` does.
    #[error("{} removed: {skipped}", if *dry_run { "nothing would be" } else { "nothing" })]
    NothingRemoved { dry_run: bool, skipped: String },

    /// `suggestion`: `; did you mean <id>?` for a recorded id close to this
    /// one (see [`suggest`]), or empty.
    #[error("no run with id {id:?} in the manifest{suggestion}")]
    #[diagnostic(help("`git loop list` shows the recorded runs"))]
    UnknownId { id: String, suggestion: String },

    #[error("invalid {event} input on stdin: {reason}")]
    #[diagnostic(help(
        "git loop claude-hook reads the JSON Claude Code sends to its WorktreeCreate and WorktreeRemove hooks"
    ))]
    HookInput { event: &'static str, reason: String },

    #[error("run {id:?} cannot be reused: {reason}")]
    #[diagnostic(help(
        "look at it with `git loop list` and `git worktree list`; mark it finished and create it under a new id"
    ))]
    NotReusable { id: String, reason: String },

    #[error("the worktree of run {id:?} is missing: {path}")]
    #[diagnostic(help("`git loop reconcile` drops runs whose directory is gone"))]
    WorktreeMissing { id: String, path: String },

    #[error("{key} `{command}` comes from {}, which you have not trusted", file.display())]
    #[diagnostic(help(
        "a repository's own file must not run code on your machine unasked: read it, then run `git loop trust`. To never run it here instead, override the key with an empty value in your git config (e.g. git config loop.createPostCommand \"\")"
    ))]
    UntrustedHook {
        key: &'static str,
        command: String,
        file: PathBuf,
    },

    #[error("no {} to trust", file.display())]
    NothingToTrust { file: PathBuf },

    #[error("{id:?} is not an orphan: {reason}")]
    #[diagnostic(help("`git loop reconcile` without --remove-orphan lists the orphans"))]
    NotAnOrphan { id: String, reason: String },

    /// `what` says which base: `--base "x"`, `base "x" (from <layer>; …)`,
    /// or the built-in default and the default branches looked for.
    #[error("{what} does not resolve to a commit in this repository")]
    #[diagnostic(help("{help}"))]
    BaseNotFound { what: String, help: String },

    /// `branches --delete-merged` with no base but the branch HEAD is on
    /// (code `base-not-found`): a guess never proves a branch merged.
    #[error(
        "no default branch to judge leftovers against (only {name:?}, the branch HEAD is on): nothing was deleted"
    )]
    #[diagnostic(help(
        "name the branch runs are merged into: `git config loop.base <BRANCH>`, then run it again"
    ))]
    BaseGuessed { name: String },

    /// No base can exist before the first commit (code `base-not-found`).
    #[error("this repository has no commits yet: a run starts from a commit")]
    #[diagnostic(help(
        "make the first commit (`git commit --allow-empty -m init` will do), then create the run"
    ))]
    NoCommits,

    #[error("timed out after 30s waiting for the manifest mutex {path}")]
    #[diagnostic(help(
        "another git-loop is mutating the manifest; if none is running, the file is removed automatically once it is 30s old"
    ))]
    MutexTimeout { path: PathBuf },

    #[error("run worktree {path} is being removed by another git-loop (waited {waited}s)")]
    #[diagnostic(help(
        "a cleanup is removing this run's worktree; wait for it, then look at `git loop list`"
    ))]
    RunBusy { path: PathBuf, waited: u64 },

    #[error(
        "gave up waiting for the worktree-operation lock on {}/: {reason}",
        path.display()
    )]
    #[diagnostic(help("{help}"))]
    LockTimeout {
        path: PathBuf,
        reason: String,
        help: String,
    },

    #[error(
        "lost the manifest mutex {path}: it ran past 30s and another git-loop broke it as stale; nothing was written"
    )]
    #[diagnostic(help(
        "another command changed the manifest meanwhile: look at `git loop list`, then run this command again"
    ))]
    MutexLost { path: PathBuf },

    /// A failed git call, as [`crate::git::error::CommandError`] says it
    /// (`` `git <args>` failed: <git's reason> ``).
    #[error("{0}")]
    Git(String),

    /// The fleet's remote could not be reached, or refused the push for a
    /// reason other than a ref that moved: nothing was changed.
    #[error("the fleet's remote {remote} failed: {reason}")]
    #[diagnostic(help(
        "nothing was published or changed there; check the remote (fleet.remote), then run it again: a later publish catches up"
    ))]
    Remote { remote: String, reason: String },

    /// A ref of the fleet moved on the remote between the read and the
    /// atomic push: nothing was pushed.
    #[error("the fleet's refs on {remote} moved meanwhile, nothing was pushed: {reason}")]
    #[diagnostic(help("another machine published at the same moment: run it again"))]
    FleetMoved { remote: String, reason: String },

    /// A task's lease is held (`git loop claim`).
    #[error("task {task} is claimed by {holder} (lease taken or renewed {age})")]
    #[diagnostic(help(
        "a lease not renewed for fleet.lease (default 2h) may be taken over; its holder releases it with `git loop claim --release <TASK>`"
    ))]
    Claimed {
        task: String,
        holder: String,
        age: String,
    },

    /// `create <ID> --from <MACHINE>`: no usable hand-off of the run there.
    #[error("{machine} has no hand-off of {id} to take: {reason}")]
    #[diagnostic(help(
        "`git loop list --fleet` shows the published runs; `git loop handoff <ID>` on that machine hands one off"
    ))]
    NotHandedOff {
        id: String,
        machine: String,
        reason: String,
    },

    /// `handoff`, or `create --from`, could not finish; what it made is kept.
    #[error("hand-off of {id} failed: {reason}")]
    Handoff { id: String, reason: String },

    #[error("could not salvage {id}; nothing was removed: {reason}")]
    Salvage { id: String, reason: String },

    /// `suggestion`: as [`Error::UnknownId`]'s, over the salvaged ids.
    #[error("no salvage of {id}: refs/loop/salvage/{id} does not exist{suggestion}")]
    #[diagnostic(help("`git loop list --salvaged` lists the salvaged runs"))]
    NoSalvage { id: String, suggestion: String },

    #[error("run {id} has a worktree at {path}; restore only brings back a removed run")]
    RestoreExists { id: String, path: String },

    #[error("the checkout of the new worktree {path} failed: {reason}")]
    #[diagnostic(help(
        "the worktree is registered with git but not recorded; look at it, and remove it by hand (git worktree remove --force) only if nothing in it matters"
    ))]
    Checkout { path: String, reason: String },

    /// `help` says where to fix it (the file and line, the git-config key
    /// and file, the variable): `git loop config` would fail the same way.
    #[error("invalid configuration in {origin}: {message}")]
    #[diagnostic(help("{help}"))]
    Config {
        origin: String,
        message: String,
        help: String,
    },

    /// Reading the repository failed (an object, a ref, the index, a walk).
    #[error("could not read repository state: {0}")]
    Repository(String),

    /// Writing a ref failed (a compare-and-swap, the trash): nothing else
    /// was changed by it.
    #[error("could not write a ref: {0}")]
    RefWrite(String),
    /// Something changed between the command's read and its write.
    #[error("{0}")]
    Changed(String),
    /// A step failed part way: the message says what changed and what not.
    #[error("{0}")]
    PartWay(String),
    /// A rule of git-loop's own did not hold (no kernel permit): a bug.
    #[error("internal error (a bug in git-loop): {0}")]
    Internal(String),

    #[error(
        "{} cannot be written in JSON: it is not valid UTF-8",
        crate::style::escape(&path.to_string_lossy())
    )]
    #[diagnostic(help(
        "without --json, paths are printed byte for byte; or move the repository to a path that is valid UTF-8"
    ))]
    UnrepresentablePath { path: PathBuf },

    #[error("command not found: {program}")]
    #[diagnostic(help(
        "the command runs in the run's worktree with your PATH; give its path or check its name"
    ))]
    CommandNotFound { program: String },

    #[error("{program} cannot be executed: {reason}")]
    CommandNotExecutable { program: String, reason: String },

    #[error("no gate to judge with: neither --gate nor judge.gate is set")]
    #[diagnostic(help(
        "pass the command that tests an attempt, e.g. --gate 'make test', or set judge.gate (git config loop.judgeGate 'make test')"
    ))]
    NoGate,

    #[error("task {task:?} has no active attempts ({task}.1, {task}.2, ...)")]
    #[diagnostic(help("`git loop list` shows the runs; attempts are runs named <TASK>.<n>"))]
    NoAttempts { task: String },

    /// `create --attempts`: a count out of range, or a flag not with it.
    #[error("invalid --attempts {value}: {reason}")]
    InvalidAttempts { value: String, reason: String },

    /// `create <TASK> --attempts`: `ids`, the task's active attempts.
    #[error("task {task:?} already has active attempts: {ids}")]
    #[diagnostic(help("{}", attempts_active_help(task)))]
    AttemptsActive { task: String, ids: String },

    /// A `create --attempts` that failed part way, after undoing what it
    /// made (`undone` says what; `code`, the failure's own code).
    #[error("create {task} --attempts failed: {reason}; {undone}")]
    AttemptsFailed {
        task: String,
        reason: String,
        undone: String,
        code: &'static str,
    },

    #[error("{action} {path}: {source}")]
    Io {
        action: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
}

mod codes;
pub use codes::ErrorCode;
mod constructors;
mod failure;
mod help;
pub use failure::Failure;
pub mod suggest;

pub use help::adopt_help;
use help::{active_exists_help, attempts_active_help, branch_exists_help, unsupported_help};

#[cfg(test)]
mod tests;
