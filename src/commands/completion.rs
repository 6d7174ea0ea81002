//! `git loop completion <SHELL>`: print a checked-in completion script
//! (completions/, made by `cargo run --features generate --example generate`
//! and kept current by a test), compiled in, so the binary alone can install
//! its completion (`source <(git loop completion bash)`), as gh, jj and
//! rustup do.

use std::io::Write;

use crate::cli::CompletionShell;
use crate::output::Fail;

/// The checked-in script of `shell`: one arm per shell, so a new shell does
/// not compile without its file.
pub fn text(shell: CompletionShell) -> &'static str {
    match shell {
        CompletionShell::Bash => include_str!("../../completions/git-loop.bash"),
        CompletionShell::Zsh => include_str!("../../completions/_git-loop"),
        CompletionShell::Fish => include_str!("../../completions/git-loop.fish"),
    }
}

pub fn exec(shell: CompletionShell, stdout: &mut dyn Write) -> Result<(), Fail> {
    stdout.write_all(text(shell).as_bytes())?;
    stdout.flush()?;
    Ok(())
}
