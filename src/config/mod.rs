//! Effective settings, read in layers, and where each value came from.
//!
//! Lowest to highest (docs/cli.md's order; [`Source`]'s order):
//!
//! | layer | where |
//! |---|---|
//! | built-in | the defaults in [`keys`] |
//! | user TOML | `$XDG_CONFIG_HOME/git-loop/config.toml`, else `~/.config/git-loop/config.toml` |
//! | repo TOML | `<root>/.git-loop.toml` |
//! | git config | `loop.*` through git's own cascade, then `git -c` ([`git`]) |
//! | environment | `GIT_LOOP_*` (an empty variable counts as unset) |
//! | flags | `--base`, `--status`, `--older-than`, `--delete-merged-branches` (applied by the commands) |
//!
//! The modules: [`keys`] is the one table of settings, an entry each (its
//! names, class, type, default, reading and check), from which `table`'s
//! `settings!` derives the rest: the raw layer, a layer's values, the
//! default layer, [`Settings`] and its merge, `git loop config`'s report
//! ([`report`] shows each type of value); `types` holds the types entries
//! are made of; [`source`] is the ordered [`Source`] and each value's exact
//! [`Origin`]; `file` reads the TOML files (once each, safely) and
//! [`layers`] makes them, the environment and the defaults layers; [`git`]
//! reads git config; [`raw`] is how a value is read; [`validate`] checks
//! each layer on its own. Here the layers are merged, once: each setting
//! takes its value from the highest layer that sets it.
//!
//! Every layer is validated before the merge (an invalid value is an error
//! naming its layer even when a higher layer overrides it). Config is read
//! only by the commands that use it (create, cleanup, config, trust). The
//! blob id of the repository file's bytes as read is kept
//! ([`Settings::repo_file_id`]), so the trust check of its hooks is about the
//! very content their commands came from.

use std::path::Path;

use crate::error::Result;

mod class;
mod file;
pub mod git;
pub mod keys;
pub mod layers;
pub mod raw;
pub mod report;
pub mod source;
mod table;
mod types;
mod untrusted;
pub mod validate;

pub use keys::{
    IgnoreFile, LandStrategy, Settings, SyncStrategy, TOML_CLEANUP_PRE_COMMAND,
    TOML_CREATE_POST_COMMAND, TOML_JUDGE_GATE, TOML_LAND_GATE, TOML_NOTIFY_COMMAND, TOML_SYNC_GATE,
};
pub use layers::{Layer, TomlFile, repo_toml_path, user_toml_path};
pub use source::{Origin, Sourced};
pub use validate::{parse_cutoff, parse_status_csv};

impl Settings {
    /// The effective settings for the repository at `root`, whose git config
    /// (with git's own cascade) is `config` and whose object format is `hash`.
    /// `is_trusted` says whether a blob id is trusted: a value of the repository's own
    /// file that is not plain takes effect only once that file is trusted
    /// (see [`keys::Class`]); the keys ignored are noted ([`take_notes`]).
    pub fn load(
        root: &Path,
        config: &gix::config::File,
        hash: gix::hash::Kind,
        is_trusted: impl FnOnce(&str) -> Result<bool>,
    ) -> Result<Settings> {
        let user = match user_toml_path() {
            Some(path) => TomlFile::read_user(&path)?,
            None => None,
        };
        let repo = TomlFile::read_repo(root)?;
        let repo_file_id = repo.as_ref().map(|f| crate::git::blob_id(hash, &f.bytes));
        let mut all = Vec::new();
        if let Some(file) = &user {
            all.push(file.layer()?);
        }
        let mut ignored = Vec::new();
        if let (Some(file), Some(id)) = (&repo, &repo_file_id) {
            if is_trusted(id)? {
                all.push(file.layer()?);
            } else {
                let (layer, keys) = untrusted::layer(file)?;
                all.push(layer);
                ignored = keys;
            }
        }
        all.extend(git::layers(config)?);
        git::unknown_keys(config).into_iter().for_each(note);
        all.extend(layers::env()?);
        let mut settings = Settings::merge(&all);
        if !ignored.is_empty() {
            note_ignored(&repo_toml_path(root), &ignored);
        }
        settings.ignored = ignored;
        settings.repo_file_id = repo_file_id;
        settings.object_hash = hash;
        settings.repo_file = repo;
        Ok(settings)
    }

    /// Each setting from the highest layer that sets it (by [`Source`]; of
    /// two layers of one source, the later), above the built-in defaults.
    pub fn merge(layers: &[Layer]) -> Settings {
        let defaults = layers::defaults();
        let all: Vec<&Layer> = std::iter::once(&defaults).chain(layers).collect();
        Settings::picked(&all)
    }
}

/// The notes said once a command is done, each once: which keys of an
/// untrusted repository file were ignored.
static NOTES: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

/// Say `line` once the command is done (once, however often it is noted).
fn note(line: String) {
    let mut notes = NOTES.lock().unwrap_or_else(|e| e.into_inner());
    if !notes.contains(&line) {
        notes.push(line);
    }
}

fn note_ignored(file: &Path, keys: &[&'static str]) {
    let line = format!(
        "note: ignored {} from {}: a value that {}, from a file that is not trusted \
         (what applies instead: `git loop config`); `git loop trust` trusts its current content",
        keys.join(", "),
        file.display(),
        keys::Class::WeakensGuard.as_str(),
    );
    let mut notes = NOTES.lock().unwrap_or_else(|e| e.into_inner());
    if !notes.contains(&line) {
        notes.push(line);
    }
}

/// The notes gathered while settings were read ([`Settings::load`]), once
/// each; the caller says them on stderr.
pub fn take_notes() -> Vec<String> {
    std::mem::take(&mut *NOTES.lock().unwrap_or_else(|e| e.into_inner()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The documented example, read as a user file through the same path as
    /// any other, sets every key to its built-in default.
    #[test]
    fn documented_example_equals_the_built_in_defaults() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        std::fs::write(&path, include_str!("../../config/git-loop.toml")).unwrap();
        let file = TomlFile::read_user(&path).unwrap().unwrap();
        let defaults = Settings::merge(&[]);
        let example = Settings::merge(&[file.layer().unwrap()]);
        assert_eq!(example.differences(&defaults), Vec::<&str>::new());
        // It is read as a file, not taken for the defaults.
        assert_eq!(example.base.origin, Origin::UserFile(path));
    }

    #[test]
    fn sources_are_ordered_by_precedence() {
        use super::source::Source::*;
        assert!(Default < UserFile && UserFile < RepoFile && RepoFile < GitConfig);
        assert!(GitConfig < Env);
    }
}
