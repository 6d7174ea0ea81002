//! The kinds of repository git makes, each by `git init`'s own flags (never
//! a fixture file): [`TestRepo::of`](super::TestRepo::of) makes one.

/// A repository as git makes it, each by `git init`'s own flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Sha1Files,
    Sha256Files,
    Sha1Reftable,
    Sha256Reftable,
    /// `project/.bare` a bare repository (SHA-1, files), `project/.git` the
    /// file `gitdir: ./.bare`, `project/main` a linked worktree on `main`:
    /// the root is `project/main`, `.loop-worktrees/` is `project`'s.
    Bare,
}

impl Kind {
    pub const ALL: [Kind; 5] = [
        Kind::Sha1Files,
        Kind::Sha256Files,
        Kind::Sha1Reftable,
        Kind::Sha256Reftable,
        Kind::Bare,
    ];

    /// `git init`'s flags for this kind (the bare layout's repository is
    /// made `--bare` besides).
    pub fn init_args(self) -> &'static [&'static str] {
        match self {
            Kind::Sha1Files | Kind::Bare => &[],
            Kind::Sha256Files => &["--object-format=sha256"],
            Kind::Sha1Reftable => &["--ref-format=reftable"],
            Kind::Sha256Reftable => &["--object-format=sha256", "--ref-format=reftable"],
        }
    }

    /// `git rev-parse --show-object-format`.
    pub fn object_format(self) -> &'static str {
        match self {
            Kind::Sha256Files | Kind::Sha256Reftable => "sha256",
            _ => "sha1",
        }
    }

    /// `git rev-parse --show-ref-format`.
    pub fn ref_format(self) -> &'static str {
        match self {
            Kind::Sha1Reftable | Kind::Sha256Reftable => "reftable",
            _ => "files",
        }
    }

    /// Hex digits in an object id: 40 or 64.
    pub fn hex_len(self) -> usize {
        if self.object_format() == "sha256" {
            64
        } else {
            40
        }
    }
}
