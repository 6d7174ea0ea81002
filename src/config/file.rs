//! The TOML files: the user's and the repository's, each read once, safely.
//!
//! Each TOML file is read once, through [`crate::fsx`], and figment parses
//! that text (the layer still names the file). The repository's own
//! `<root>/.git-loop.toml` comes with a clone, so it is read as git reads a
//! `.gitattributes`: never through a symlink (a committed `.git-loop.toml ->
//! ~/.secret` would otherwise echo the secret in a parse error), and only
//! when it is a regular file (a FIFO or `/dev/zero` is refused, never read).
//! The user's own file may be a symlink (dotfile managers link it) but must
//! lead to a regular file. Both are capped at [`MAX_FILE_BYTES`] (1 MiB): a
//! larger file is refused, naming the cap, before it is parsed. Any of these
//! refusals is `unsafe-path` (exit 1). (What a file sets, as a layer, is
//! [`super::layers`]'.)

use std::path::{Path, PathBuf};

use figment::providers::{Format, Toml};
use figment::value::{Dict, Map};
use figment::{Metadata, Profile, Provider};

use super::source::Origin;
use crate::error::{Error, Result};

/// The user TOML path: `$XDG_CONFIG_HOME/git-loop/config.toml`, else
/// `~/.config/git-loop/config.toml`.
pub fn user_toml_path() -> Option<PathBuf> {
    let base = match std::env::var_os("XDG_CONFIG_HOME") {
        Some(x) if !x.is_empty() && Path::new(&x).is_absolute() => PathBuf::from(x),
        _ => PathBuf::from(std::env::var_os("HOME").filter(|h| !h.is_empty())?).join(".config"),
    };
    Some(base.join("git-loop").join("config.toml"))
}

pub fn repo_toml_path(root: &Path) -> PathBuf {
    root.join(".git-loop.toml")
}

/// The largest config file git-loop reads: 1 MiB (a real one is a few
/// hundred bytes).
pub const MAX_FILE_BYTES: u64 = 1 << 20;

/// One TOML config file, read once: its path (which names the layer) and
/// its text. A figment provider of that text.
#[derive(Debug, Clone, PartialEq)]
pub struct TomlFile {
    pub path: PathBuf,
    pub bytes: Vec<u8>,
    text: String,
    /// The repository's own file (else the user's).
    in_repo: bool,
}

impl TomlFile {
    fn new(path: PathBuf, bytes: Vec<u8>, in_repo: bool) -> Result<TomlFile> {
        let text = match std::str::from_utf8(&bytes) {
            Ok(text) => text.to_owned(),
            Err(e) => {
                return Err(Error::Config {
                    origin: format!("TOML file {}", path.display()),
                    message: format!("it is not valid UTF-8 (byte {})", e.valid_up_to()),
                    help: format!("save {} as UTF-8", path.display()),
                });
            }
        };
        Ok(TomlFile {
            path,
            bytes,
            text,
            in_repo,
        })
    }

    /// The repository's own `<root>/.git-loop.toml`: refused when it is a
    /// symlink or not a regular file, or larger than [`MAX_FILE_BYTES`].
    /// `None` when there is none.
    pub fn read_repo(root: &Path) -> Result<Option<TomlFile>> {
        let path = repo_toml_path(root);
        match crate::fsx::read_regular(&path, MAX_FILE_BYTES)? {
            Some(bytes) => Ok(Some(TomlFile::new(path, bytes, true)?)),
            None => Ok(None),
        }
    }

    /// The user's file at `path`: may be a symlink, but must lead to a
    /// regular file of at most [`MAX_FILE_BYTES`]. `None` when there is none.
    pub fn read_user(path: &Path) -> Result<Option<TomlFile>> {
        match crate::fsx::read_regular_following(path, MAX_FILE_BYTES)? {
            Some(bytes) => Ok(Some(TomlFile::new(path.to_path_buf(), bytes, false)?)),
            None => Ok(None),
        }
    }

    /// The file's text, as read.
    pub(super) fn text(&self) -> &str {
        &self.text
    }

    pub fn origin(&self) -> Origin {
        if self.in_repo {
            Origin::RepoFile(self.path.clone())
        } else {
            Origin::UserFile(self.path.clone())
        }
    }
}

impl Provider for TomlFile {
    fn metadata(&self) -> Metadata {
        // What figment's own `Toml::file_exact` says.
        Metadata::from("TOML file", self.path.as_path())
    }

    fn data(&self) -> std::result::Result<Map<Profile, Dict>, figment::Error> {
        Toml::string(&self.text).data()
    }
}
