//! The repository formats git-loop can read, checked before anything is
//! read: a repository git made with an extension git-loop cannot honour
//! is refused up front (`unsupported-repository`, naming the extension),
//! never half-read: any extension this module does not know (a future one
//! may change what a ref or an object is), and a value of a known one it
//! does not (`objectFormat = sha512`, `refStorage = <new backend>`).
//!
//! Known and honoured: `noop`, `noop-v1`, `worktreeConfig` (gix reads
//! per-worktree config), `partialClone` and `preciousObjects` (they govern
//! fetching and pruning, which git-loop leaves to git), `objectFormat =
//! sha1` and `refStorage = files` (the defaults, spelled out),
//! `objectFormat = sha256` (gix is built with its `sha256` feature: every
//! id is read and written in the repository's own format), and `refStorage
//! = reftable` (gix reads no reftable: every ref is read through git's
//! plumbing and written by `git update-ref`, see [`crate::git::refs`]).

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// The first extension `config` sets that git-loop cannot honour, as
/// (`extensions.<key>` as written, its value).
fn unsupported(config: &gix::config::File) -> Option<(String, String)> {
    let sections = config.sections_by_name("extensions")?;
    for section in sections {
        let body = section.body();
        for key in body.value_names() {
            let name = key.to_string();
            let value = body
                .value(name.as_str())
                .map(|v| v.to_string())
                .unwrap_or_default();
            let fine = match name.to_ascii_lowercase().as_str() {
                "noop" | "noop-v1" | "worktreeconfig" | "partialclone" | "preciousobjects" => true,
                "objectformat" => {
                    value.eq_ignore_ascii_case("sha1") || value.eq_ignore_ascii_case("sha256")
                }
                "refstorage" => {
                    value.eq_ignore_ascii_case("files") || value.eq_ignore_ascii_case("reftable")
                }
                _ => false,
            };
            if !fine {
                return Some((format!("extensions.{}", name.to_ascii_lowercase()), value));
            }
        }
    }
    None
}

fn refusal(path: PathBuf, (extension, value): (String, String)) -> Error {
    Error::UnsupportedRepository {
        path,
        extension,
        value,
    }
}

/// Refuse the opened repository whose common dir is `common_dir` when its
/// config sets an extension git-loop cannot honour.
pub fn check(common_dir: &Path, config: &gix::config::File) -> Result<()> {
    match unsupported(config) {
        Some(found) => Err(refusal(common_dir.to_path_buf(), found)),
        None => Ok(()),
    }
}

/// When gix could not open the repository above `start` at all (an
/// extension its config check refuses): the refusal that says why, if an
/// extension is the reason, read from the repository's own config file.
pub fn refusal_on_disk(start: &Path) -> Option<Error> {
    let (path, _) = gix::discover::upwards(start).ok()?;
    let (git_dir, _) = path.into_repository_and_work_tree_directories();
    // A linked worktree's admin dir names the common dir in `commondir`.
    let common = match std::fs::read_to_string(git_dir.join("commondir")) {
        Ok(text) => git_dir.join(text.trim()),
        Err(_) => git_dir,
    };
    let file =
        gix::config::File::from_path_no_includes(common.join("config"), gix::config::Source::Local)
            .ok()?;
    let common = common.canonicalize().unwrap_or(common);
    unsupported(&file).map(|found| refusal(common, found))
}
