//! Each error's stable code (printed by `--json`) and its exit code: the
//! one place either is written.

use super::Error;

impl Error {
    /// The stable kebab-case code printed by `--json`. This match is the one
    /// place a code is written: the variants carry no miette `code(...)`
    /// (the human rendering prints only the message and its help).
    pub fn code(&self) -> &'static str {
        match self {
            Error::InvalidRunId { .. } => "invalid-run-id",
            Error::InvalidPattern { .. } => "invalid-pattern",
            Error::InvalidStatus { .. } => "invalid-status",
            Error::InvalidCutoff { .. } => "invalid-cutoff",
            // No run id, and the directory is in no run's worktree
            // (`crate::ops::infer`): the missing argument it stands for.
            Error::NotInRun { .. } => "usage",
            Error::NotARepo { .. } => "not-a-repo",
            Error::BareRepo { .. } => "bare-repo",
            Error::UnsupportedRepository { .. } => "unsupported-repository",
            Error::InvalidManifest { .. } => "invalid-manifest",
            Error::UnsafePath { .. } => "unsafe-path",
            Error::ActiveExists { .. } => "active-exists",
            Error::BranchExists { .. } => "branch-exists",
            Error::PathExists { .. } => "path-exists",
            Error::SparseDirMissing { .. } => "sparse-dir-missing",
            Error::TrashNotFound { .. } => "not-in-trash",
            Error::RestoreOverBranch { .. } => "branch-exists",
            Error::InvalidBranchName { .. } => "invalid-branch",
            Error::UnknownId { .. } => "unknown-id",
            Error::RunActive { .. } => "run-active",
            Error::NotPickable { .. } => "not-pickable",
            Error::NothingRemoved { .. } => "nothing-removed",
            Error::NotAdoptable { .. } => "not-adoptable",
            Error::NotAnOrphan { .. } => "not-an-orphan",
            Error::WorktreeMissing { .. } => "worktree-missing",
            Error::UntrustedHook { .. } => "untrusted-hook",
            Error::NothingToTrust { .. } => "nothing-to-trust",
            Error::NotReusable { .. } => "not-reusable",
            Error::HookInput { .. } => "invalid-hook-input",
            Error::BaseNotFound { .. } | Error::BaseGuessed { .. } | Error::NoCommits => {
                "base-not-found"
            }
            Error::MutexTimeout { .. } => "mutex-timeout",
            Error::RunBusy { .. } => "run-busy",
            Error::LockTimeout { .. } => "lock-timeout",
            Error::MutexLost { .. } => "mutex-lost",
            Error::Git(_) => "git-failed",
            Error::Salvage { .. } => "salvage-failed",
            Error::NoSalvage { .. } => "no-salvage",
            Error::RestoreExists { .. } => "run-exists",
            Error::Checkout { .. } => "checkout-failed",
            Error::Config { .. } => "invalid-config",
            Error::Repository(_) => "repository",
            Error::UnrepresentablePath { .. } => "unrepresentable-path",
            Error::CommandNotFound { .. } => "command-not-found",
            Error::CommandNotExecutable { .. } => "command-not-executable",
            Error::NoGate => "no-gate",
            Error::NoAttempts { .. } => "no-attempts",
            Error::InvalidAttempts { .. } => "invalid-attempts",
            Error::AttemptsActive { .. } => "attempts-active",
            Error::AttemptsFailed { code, .. } => code,
            Error::Io { .. } => "io",
        }
    }

    /// 2 for usage errors (what was typed is wrong: a run id or pattern;
    /// every value clap's parsers refuse exits 2 from `lib.rs`, so an invalid
    /// status or cutoff is 2 when typed and 1 when read from a config layer,
    /// with no flag to say which); 127 and 126 for a
    /// `git loop run` command that is not found or cannot be executed (as
    /// shells do); 1 for everything else.
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::CommandNotFound { .. } => 127,
            Error::CommandNotExecutable { .. } => 126,
            Error::InvalidRunId { .. }
            | Error::InvalidPattern { .. }
            | Error::InvalidAttempts { .. }
            | Error::NotInRun { .. } => 2,
            _ => 1,
        }
    }
}
