//! [`Ctx`]: the repository a command or operation works on, bound once, and what is
//! derived from it (the manifest file, the settings read on first use, the
//! `.loop-worktrees/` directory, refused when it is a symlink).

use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use crate::config::Settings;
use crate::error::{Error, Result};
use crate::git::repo::Repo;
use crate::manifest::ManifestFile;

mod transaction;
pub use transaction::Transaction;

/// The bound repository and everything derived from it.
pub struct Ctx {
    pub repo: Repo,
    pub manifest: ManifestFile,
    settings: std::cell::OnceCell<Settings>,
}

impl Ctx {
    /// Bind the repository at (or above) `repo`, else the current directory.
    pub fn open(repo: Option<&Path>) -> Result<Ctx> {
        let start = match repo {
            Some(dir) => dir.to_path_buf(),
            None => std::env::current_dir().map_err(|e| Error::io("could not read", ".", e))?,
        };
        let repo = Repo::discover(&start).map_err(|e| match e {
            // Said so, when the path came from -C.
            Error::NotARepo { path, detail, .. } => Error::NotARepo {
                path,
                detail,
                given: repo.is_some(),
            },
            e => e,
        })?;
        let manifest = ManifestFile::new(&repo.loop_dir());
        Ok(Ctx {
            repo,
            manifest,
            settings: std::cell::OnceCell::new(),
        })
    }

    /// The effective configuration, read on first use: commands that need no
    /// setting (list, path, reconcile) never read it (`mark` reads it for
    /// `fleet.publish`).
    pub fn settings(&self) -> Result<&Settings> {
        if let Some(s) = self.settings.get() {
            return Ok(s);
        }
        let hash = self.repo.gix().object_hash();
        let loaded = Settings::load(
            self.repo.root(),
            self.repo.config().plumbing(),
            hash,
            |id| crate::configured_command::trust::is_trusted(self.repo.common_dir(), id),
        )?;
        Ok(self.settings.get_or_init(|| loaded))
    }

    pub fn loop_dir(&self) -> PathBuf {
        self.repo.loop_dir()
    }

    /// Whether `.loop-worktrees/` exists; refuses it if it is a symlink or not
    /// a directory (a write through it could land outside the repository).
    pub fn loop_dir_exists(&self) -> Result<bool> {
        check_dir(&self.loop_dir())
    }

    /// Create `.loop-worktrees/` if needed (mutating commands only).
    pub fn ensure_loop_dir(&self) -> Result<()> {
        let dir = self.loop_dir();
        if !check_dir(&dir)? {
            match fs::create_dir(&dir) {
                Ok(()) => {}
                Err(e) if e.kind() == ErrorKind::AlreadyExists => {
                    check_dir(&dir)?;
                }
                Err(e) => return Err(Error::io("could not create", &dir, e)),
            }
        }
        Ok(())
    }

    /// The manifest as it is on disk: the empty one when neither
    /// `.loop-worktrees/` nor the file exists (nothing is created); a
    /// manifest that fails validation is refused. For reads; a change reads
    /// it in its [`Transaction`].
    pub fn read_manifest(&self) -> Result<crate::manifest::Manifest> {
        match self.loop_dir_exists()? {
            true => self.manifest.load_or_default(),
            false => Ok(Default::default()),
        }
    }

    /// The command the configuration sets for `which` (a hook, a gate, the
    /// notifier), if any: refused when a repository file set it and the
    /// repository is not trusted (see [`crate::configured_command::lookup`]).
    pub fn configured(
        &self,
        which: crate::configured_command::Kind,
    ) -> Result<Option<crate::configured_command::ConfiguredCommand<'_>>> {
        crate::configured_command::lookup(
            self.settings()?,
            which,
            self.repo.root(),
            self.repo.common_dir(),
        )
    }

    /// Absolute path of a run's worktree.
    pub fn worktree_path(&self, id: &str) -> PathBuf {
        self.loop_dir().join(id)
    }
}

fn check_dir(dir: &Path) -> Result<bool> {
    match fs::symlink_metadata(dir) {
        Ok(meta) if meta.file_type().is_symlink() => Err(Error::UnsafePath {
            path: dir.to_path_buf(),
            reason:
                "it is a symlink; git-loop keeps its worktrees and manifest inside the repository"
                    .into(),
        }),
        Ok(meta) if !meta.is_dir() => Err(Error::UnsafePath {
            path: dir.to_path_buf(),
            reason: "it is not a directory".into(),
        }),
        Ok(_) => Ok(true),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(false),
        Err(e) => Err(Error::io("could not read", dir, e)),
    }
}
