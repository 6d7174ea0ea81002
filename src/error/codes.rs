//! Each error's stable code (printed by `--json`) and its exit code: the
//! one place either is written.

use super::Error;

crate::vocab::vocabulary! {
    /// Every error's stable code (`{"error":{"code"}}`), in the order
    /// docs/cli.md lists them. `usage` is also clap's (what was typed is
    /// wrong); `post-command-failed` is `create`'s document's `error`.
    pub enum ErrorCode {
        InvalidRunId = "invalid-run-id",
        InvalidPattern = "invalid-pattern",
        InvalidStatus = "invalid-status",
        InvalidCutoff = "invalid-cutoff",
        Usage = "usage",
        NotARepo = "not-a-repo",
        BareRepo = "bare-repo",
        UnsupportedRepository = "unsupported-repository",
        InvalidManifest = "invalid-manifest",
        UnsafePath = "unsafe-path",
        ActiveExists = "active-exists",
        BranchExists = "branch-exists",
        PathExists = "path-exists",
        SparseDirMissing = "sparse-dir-missing",
        NotInTrash = "not-in-trash",
        InvalidBranch = "invalid-branch",
        UnknownId = "unknown-id",
        RunActive = "run-active",
        NotPickable = "not-pickable",
        NothingRemoved = "nothing-removed",
        NotAdoptable = "not-adoptable",
        NotAnOrphan = "not-an-orphan",
        WorktreeMissing = "worktree-missing",
        UntrustedHook = "untrusted-hook",
        NothingToTrust = "nothing-to-trust",
        NotReusable = "not-reusable",
        InvalidHookInput = "invalid-hook-input",
        BaseNotFound = "base-not-found",
        MutexTimeout = "mutex-timeout",
        RunBusy = "run-busy",
        LockTimeout = "lock-timeout",
        MutexLost = "mutex-lost",
        GitFailed = "git-failed",
        SalvageFailed = "salvage-failed",
        NoSalvage = "no-salvage",
        RunExists = "run-exists",
        CheckoutFailed = "checkout-failed",
        InvalidConfig = "invalid-config",
        Repository = "repository",
        UnrepresentablePath = "unrepresentable-path",
        CommandNotFound = "command-not-found",
        CommandNotExecutable = "command-not-executable",
        NoGate = "no-gate",
        NoAttempts = "no-attempts",
        InvalidAttempts = "invalid-attempts",
        AttemptsActive = "attempts-active",
        Io = "io",
        PostCommandFailed = "post-command-failed",
        RemoteFailed = "remote-failed",
        FleetMoved = "fleet-moved",
        Claimed = "claimed",
        NotHandedOff = "not-handed-off",
        HandoffFailed = "handoff-failed",
    }
}

impl Error {
    /// The stable kebab-case code printed by `--json`. This match is the one
    /// place a code is written: the variants carry no miette `code(...)`
    /// (the human rendering prints only the message and its help).
    pub fn code(&self) -> &'static str {
        let code = match self {
            Error::InvalidRunId { .. } => ErrorCode::InvalidRunId,
            Error::InvalidPattern { .. } => ErrorCode::InvalidPattern,
            Error::InvalidStatus { .. } => ErrorCode::InvalidStatus,
            Error::InvalidCutoff { .. } => ErrorCode::InvalidCutoff,
            // No run id, and the directory is in no run's worktree
            // (`crate::ops::infer`): the missing argument it stands for.
            Error::NotInRun { .. } => ErrorCode::Usage,
            Error::NotARepo { .. } => ErrorCode::NotARepo,
            Error::BareRepo { .. } => ErrorCode::BareRepo,
            Error::UnsupportedRepository { .. } => ErrorCode::UnsupportedRepository,
            Error::InvalidManifest { .. } => ErrorCode::InvalidManifest,
            Error::UnsafePath { .. } => ErrorCode::UnsafePath,
            Error::ActiveExists { .. } => ErrorCode::ActiveExists,
            Error::BranchExists { .. } => ErrorCode::BranchExists,
            Error::PathExists { .. } => ErrorCode::PathExists,
            Error::SparseDirMissing { .. } => ErrorCode::SparseDirMissing,
            Error::TrashNotFound { .. } => ErrorCode::NotInTrash,
            Error::RestoreOverBranch { .. } => ErrorCode::BranchExists,
            Error::InvalidBranchName { .. } => ErrorCode::InvalidBranch,
            Error::UnknownId { .. } => ErrorCode::UnknownId,
            Error::RunActive { .. } => ErrorCode::RunActive,
            Error::NotPickable { .. } => ErrorCode::NotPickable,
            Error::NothingRemoved { .. } => ErrorCode::NothingRemoved,
            Error::NotAdoptable { .. } => ErrorCode::NotAdoptable,
            Error::NotAnOrphan { .. } => ErrorCode::NotAnOrphan,
            Error::WorktreeMissing { .. } => ErrorCode::WorktreeMissing,
            Error::UntrustedHook { .. } => ErrorCode::UntrustedHook,
            Error::NothingToTrust { .. } => ErrorCode::NothingToTrust,
            Error::NotReusable { .. } => ErrorCode::NotReusable,
            Error::HookInput { .. } => ErrorCode::InvalidHookInput,
            Error::BaseNotFound { .. } | Error::BaseGuessed { .. } | Error::NoCommits => {
                ErrorCode::BaseNotFound
            }
            Error::MutexTimeout { .. } => ErrorCode::MutexTimeout,
            Error::RunBusy { .. } => ErrorCode::RunBusy,
            Error::LockTimeout { .. } => ErrorCode::LockTimeout,
            Error::MutexLost { .. } => ErrorCode::MutexLost,
            Error::Git(_) => ErrorCode::GitFailed,
            Error::Salvage { .. } => ErrorCode::SalvageFailed,
            Error::NoSalvage { .. } => ErrorCode::NoSalvage,
            Error::RestoreExists { .. } => ErrorCode::RunExists,
            Error::Checkout { .. } => ErrorCode::CheckoutFailed,
            Error::Config { .. } => ErrorCode::InvalidConfig,
            // One code for the repository's failures; the variant says which.
            Error::Repository(_)
            | Error::RefWrite(_)
            | Error::Changed(_)
            | Error::PartWay(_)
            | Error::Internal(_) => ErrorCode::Repository,
            Error::UnrepresentablePath { .. } => ErrorCode::UnrepresentablePath,
            Error::CommandNotFound { .. } => ErrorCode::CommandNotFound,
            Error::CommandNotExecutable { .. } => ErrorCode::CommandNotExecutable,
            Error::NoGate => ErrorCode::NoGate,
            Error::NoAttempts { .. } => ErrorCode::NoAttempts,
            Error::InvalidAttempts { .. } => ErrorCode::InvalidAttempts,
            Error::AttemptsActive { .. } => ErrorCode::AttemptsActive,
            // Its failure's own code, kept when it was undone.
            Error::AttemptsFailed { code, .. } => return code,
            Error::Io { .. } => ErrorCode::Io,
            Error::Remote { .. } => ErrorCode::RemoteFailed,
            Error::FleetMoved { .. } => ErrorCode::FleetMoved,
            Error::Claimed { .. } => ErrorCode::Claimed,
            Error::NotHandedOff { .. } => ErrorCode::NotHandedOff,
            Error::Handoff { .. } => ErrorCode::HandoffFailed,
        };
        code.as_str()
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
