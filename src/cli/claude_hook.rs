//! `git loop claude-hook`'s subcommands: one per Claude Code hook it serves.

use clap::Subcommand;

use super::help;

#[derive(Debug, Subcommand)]
pub enum ClaudeHook {
    /// Read WorktreeCreate's JSON on stdin, create (or reuse) the run, print only its path
    #[command(long_about = help::CLAUDE_HOOK_CREATE)]
    Create,
    /// Read WorktreeRemove's JSON on stdin and remove that run's worktree (never forced; branch kept)
    #[command(long_about = help::CLAUDE_HOOK_REMOVE)]
    Remove,
    /// Read UserPromptSubmit's, Notification's or Stop's JSON on stdin and record the run's activity
    #[command(long_about = help::CLAUDE_HOOK_ACTIVITY)]
    Activity,
}
