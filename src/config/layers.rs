//! Reading the layers: the TOML files (each read once) and the environment.
//! (The git-config layer is [`super::git`].)
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
//! refusals is `unsafe-path` (exit 1).

use std::path::{Path, PathBuf};

use figment::providers::{Format, Toml};
use figment::value::{Dict, Map};
use figment::{Figment, Metadata, Profile, Provider};

use super::keys;
use super::raw::Raw;
use super::source::Origin;
use super::validate::{At, Values};
use crate::error::{Error, Result};

/// One layer: where it comes from and the values it sets, validated.
#[derive(Debug, Clone)]
pub struct Layer {
    pub origin: Origin,
    pub values: Values,
}

/// The built-in defaults, as a layer (the lowest).
pub fn defaults() -> Layer {
    Layer {
        origin: Origin::Default,
        values: Values {
            base: Some(keys::DEFAULT_BASE.to_owned()),
            cleanup_status: Some(keys::DEFAULT_CLEANUP_STATUS.to_vec()),
            cleanup_older_than: None,
            cleanup_delete_merged: Some(keys::DEFAULT_CLEANUP_DELETE_MERGED),
            cleanup_salvage: Some(keys::DEFAULT_CLEANUP_SALVAGE),
            cleanup_pre_command: Some(None),
            create_copy: Some(Vec::new()),
            create_post_command: Some(None),
            create_ignore_file: Some(keys::DEFAULT_CREATE_IGNORE_FILE),
            create_fetch: Some(keys::DEFAULT_CREATE_FETCH),
            create_pattern: Some(keys::DEFAULT_CREATE_PATTERN.to_owned()),
            claude_pattern: Some(keys::DEFAULT_CLAUDE_PATTERN.to_owned()),
            cleanup_recycle: Some(keys::DEFAULT_CLEANUP_RECYCLE),
            pool_size: Some(keys::DEFAULT_POOL_SIZE),
            trash_keep: Some(keys::DEFAULT_TRASH_KEEP),
            pool_keep: Some(keys::DEFAULT_POOL_KEEP.map(str::to_owned).to_vec()),
            land_gate: Some(None),
            land_strategy: Some(keys::DEFAULT_LAND_STRATEGY),
            land_into: None,
            land_queue_status: Some(keys::DEFAULT_LAND_QUEUE_STATUS.to_vec()),
            land_push_retries: Some(keys::DEFAULT_LAND_PUSH_RETRIES),
            land_require_clean: Some(keys::DEFAULT_LAND_REQUIRE_CLEAN),
            judge_gate: Some(None),
            notify_command: Some(None),
            create_ports: Some(keys::DEFAULT_CREATE_PORTS),
            watch_bell: Some(keys::DEFAULT_WATCH_BELL),
        },
    }
}

/// The environment layer: one per variable set (an empty variable counts
/// as unset). `GIT_LOOP_CREATE_COPY` and `GIT_LOOP_POOL_KEEP` are
/// comma-separated.
pub fn env() -> Result<Vec<Layer>> {
    let mut out = Vec::new();
    for key in keys::ALL {
        let Some(text) = std::env::var(key.env).ok().filter(|v| !v.is_empty()) else {
            continue;
        };
        let origin = Origin::Env(key.env);
        let items = text
            .split(',')
            .map(|p| p.trim().to_owned())
            .filter(|p| !p.is_empty())
            .collect();
        let at = At {
            origin: &origin,
            key,
            line: None,
        };
        let values = Raw::from_text(key, text, items, &at)?.validate(&origin, &|_| None)?;
        out.push(Layer { origin, values });
    }
    Ok(out)
}

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

    /// The file's raw content (validated for shape only: syntax, unknown
    /// keys, types).
    pub fn raw(&self) -> Result<Raw> {
        Figment::from(self)
            .extract::<Raw>()
            .map_err(|e| self.shape_error(e))
    }

    /// The file as a layer, every value validated.
    pub fn layer(&self) -> Result<Layer> {
        let origin = self.origin();
        let values = self
            .raw()?
            .validate(&origin, &|key| line_of(&self.text, key))?;
        Ok(Layer { origin, values })
    }

    /// figment's errors for this file in one line each, naming the key and
    /// its line (the help says which line to edit).
    fn shape_error(&self, errors: figment::Error) -> Error {
        use figment::error::Kind;
        let mut messages = Vec::new();
        let mut first_line = None;
        let mut first_key = None;
        for e in errors {
            let key = e.path.join(".");
            let (line, message) = match &e.kind {
                Kind::Message(text) => match syntax_error(text) {
                    Some((line, text)) => (Some(line), text),
                    None if key == keys::TOML_CLEANUP_STATUS => (
                        None,
                        "expected an array of statuses or one comma-separated string".to_owned(),
                    ),
                    None => (None, text.clone()),
                },
                Kind::UnknownField(found, expected) => {
                    let table = e.path[..e.path.len().saturating_sub(1)].join(".");
                    let expected: Vec<String> = expected
                        .iter()
                        .map(|k| match table.as_str() {
                            "" => (*k).to_owned(),
                            t => format!("{t}.{k}"),
                        })
                        .collect();
                    let name = match table.as_str() {
                        "" => found.clone(),
                        t => format!("{t}.{found}"),
                    };
                    (
                        None,
                        format!(
                            "unknown key `{name}`; the keys here are {}",
                            expected.join(", ")
                        ),
                    )
                }
                Kind::InvalidType(actual, expected) => {
                    let expected = if expected == "a boolean" {
                        "a boolean (true or false)"
                    } else {
                        expected
                    };
                    (None, format!("found {actual}, expected {expected}"))
                }
                kind => (None, kind.to_string()),
            };
            let line = line.or_else(|| line_of(&self.text, &key));
            first_line = first_line.or(line);
            if first_key.is_none() && !key.is_empty() {
                first_key = Some(key.clone());
            }
            messages.push(match key.as_str() {
                "" => message,
                _ if matches!(e.kind, Kind::UnknownField(..)) => message,
                k => format!("`{k}`: {message}"),
            });
        }
        Error::Config {
            origin: self.origin().to_string(),
            message: messages.join("; "),
            help: self.origin().fix(first_key.as_deref(), first_line),
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

/// A TOML syntax error on one line (`line 1, column 8: invalid string,
/// expected `"`, `'``) and its line number, from the toml crate's
/// multi-line report (`TOML parse error at line 1, column 8`, a gutter with
/// the source line and a caret, then the reason).
fn syntax_error(text: &str) -> Option<(usize, String)> {
    let mut lines = text.lines();
    let head = lines.next()?.strip_prefix("TOML parse error at ")?;
    let line: usize = head
        .strip_prefix("line ")?
        .split(',')
        .next()?
        .trim()
        .parse()
        .ok()?;
    let reason: Vec<&str> = lines
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.contains('|'))
        .collect();
    Some((line, format!("{head}: {}", reason.join(", "))))
}

/// The line (1-based) where `key` (a dotted path such as `cleanup.status`)
/// is set in TOML `text`: under its `[table]` header, as a dotted key, or
/// inside an inline table on its parent's line. `None` when not found.
pub fn line_of(text: &str, key: &str) -> Option<usize> {
    let unquote = |s: &str| s.trim().trim_matches('"').trim_matches('\'').to_owned();
    let mut table = String::new();
    let mut parent = None;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.starts_with('[') {
            let name = line.trim_start_matches('[').split(']').next().unwrap_or("");
            table = name.split('.').map(unquote).collect::<Vec<_>>().join(".");
            continue;
        }
        let Some((name, _)) = line.split_once('=') else {
            continue;
        };
        if name.trim_start().starts_with('#') {
            continue;
        }
        let name = name.split('.').map(unquote).collect::<Vec<_>>().join(".");
        let full = match table.as_str() {
            "" => name,
            t => format!("{t}.{name}"),
        };
        if full == key {
            return Some(i + 1);
        }
        if parent.is_none() && key.starts_with(&format!("{full}.")) {
            parent = Some(i + 1);
        }
    }
    // The header of the key's own table is the next best place.
    parent.or_else(|| {
        let (table, _) = key.rsplit_once('.')?;
        text.lines()
            .position(|l| l.trim().trim_start_matches('[').split(']').next() == Some(table))
            .map(|i| i + 1)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_of_keys() {
        let text = "base = \"x\"\n# c = 1\n[cleanup]\nstatus = [\"a\"]\n\n[create]\n\"post-command\" = \"y\"\n";
        assert_eq!(line_of(text, "base"), Some(1));
        assert_eq!(line_of(text, "cleanup.status"), Some(4));
        assert_eq!(line_of(text, "create.post-command"), Some(7));
        assert_eq!(line_of(text, "create.copy"), Some(6));
        assert_eq!(line_of("cleanup.status = 1\n", "cleanup.status"), Some(1));
        assert_eq!(
            line_of("cleanup = { status = 1 }\n", "cleanup.status"),
            Some(1)
        );
        assert_eq!(line_of("", "base"), None);
    }
}
