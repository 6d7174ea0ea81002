//! `create.ignore-file`'s values (its key is in [`super::keys`]).

/// `create.ignore-file`: the file `create` adds `.loop-worktrees/` to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IgnoreFile {
    /// The root `.gitignore`, a tracked file: `git status` shows the edit,
    /// and committing it shares the line with everyone.
    Gitignore,
    /// `<git common dir>/info/exclude`: private to this clone, never shown
    /// by `git status`.
    InfoExclude,
}

impl IgnoreFile {
    pub const ALL: [IgnoreFile; 2] = [IgnoreFile::Gitignore, IgnoreFile::InfoExclude];

    pub fn as_str(self) -> &'static str {
        match self {
            IgnoreFile::Gitignore => "gitignore",
            IgnoreFile::InfoExclude => "info-exclude",
        }
    }

    pub fn parse(text: &str) -> Option<IgnoreFile> {
        IgnoreFile::ALL.into_iter().find(|f| f.as_str() == text)
    }
}
