//! `git loop completion`'s arguments.

use clap::Args;

#[derive(Debug, Args)]
pub struct CompletionArgs {
    /// The shell
    #[arg(value_enum)]
    pub shell: CompletionShell,
}

/// A shell `git loop completion` prints the script of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CompletionShell {
    Bash,
    Zsh,
    Fish,
}

pub(super) const COMPLETION_ABOUT: &str = r#"Prints the script compiled into the binary, the same bytes as the checked-in
completions/ file: git-loop.bash, _git-loop or git-loop.fish. Each completes `git-loop …` and,
through git's own completion, `git loop …` (fish needs also the conf.d hook,
completions/git-loop.conf.fish, which scripts/install installs)."#;
pub(super) const COMPLETION_EXAMPLES: &str = r#"Examples:
  source <(git loop completion bash)      # in ~/.bashrc, after git's completion
  git loop completion zsh > ~/.zfunc/_git-loop
  git loop completion fish > ~/.config/fish/completions/git-loop.fish"#;
