//! Each setting's class: what its value may do, which decides whether the
//! repository's own `.git-loop.toml` may set it before `git loop trust`.

/// What a setting's value may do. The repository's own `.git-loop.toml`
/// comes with the code you cloned: a value of a key that is not
/// [`Class::Plain`] set there takes effect only once that file is trusted
/// (`git loop trust`, which records its blob id). Untrusted, a
/// [`Class::WeakensGuard`] value is ignored (the next lower layer's value
/// applies, at the bottom the built-in default) and a note names the key;
/// a [`Class::RunsCommand`] value never runs, and the command that needs it
/// refuses before it changes anything (`untrusted-hook`): skipping a gate
/// or a setup step silently would itself weaken a guard. Values from the
/// user's own TOML, git config and the environment are the user's own.
/// Every key has a class: the field is not optional, and
/// `docs/cli.md`'s key table shows it (a test in `untrusted` compares them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// Display and performance: nothing is kept for less time, and nothing
    /// more is removed, copied or run.
    Plain,
    /// Names a command git-loop runs (a hook, a gate, a notification).
    RunsCommand,
    /// Shortens how long something is kept, or widens what is removed,
    /// copied or landed.
    WeakensGuard,
}

impl Class {
    /// The name `docs/cli.md`'s key table gives the class.
    pub fn as_str(self) -> &'static str {
        match self {
            Class::Plain => "plain",
            Class::RunsCommand => "runs a command",
            Class::WeakensGuard => "weakens a guard",
        }
    }
}
