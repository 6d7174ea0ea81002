//! A commit whose tree holds one file, for the fleet's records and leases
//! on a remote ([`crate::ops::fleet`]): written into the object database
//! through gix, and read back with its size checked before a byte of it
//! is read (a record fetched from a remote is anyone's data).

use gix::ObjectId;

use crate::error::{Error, Result};
use crate::git::repo::Repo;

/// The signature of the commits written here: git-loop's own, not the
/// user's (a record is machine state, not authored work).
fn signature() -> gix::actor::Signature {
    gix::actor::Signature {
        name: "git-loop".into(),
        email: "git-loop@localhost".into(),
        time: gix::date::Time::new(crate::time::now().as_second(), 0),
    }
}

fn repo_err(what: &str, e: impl std::fmt::Display) -> Error {
    Error::Repository(format!("{what}: {e}"))
}

/// A commit of a tree holding `file` with `bytes`, on `parents`.
pub fn write(
    repo: &Repo,
    file: &str,
    bytes: &[u8],
    parents: &[ObjectId],
    message: &str,
) -> Result<ObjectId> {
    let gix = repo.gix();
    let blob = gix
        .write_blob(bytes)
        .map_err(|e| repo_err("could not write a record", e))?
        .detach();
    let mut editor = gix
        .empty_tree()
        .edit()
        .map_err(|e| repo_err("could not write a record", e))?;
    editor
        .upsert(file, gix::object::tree::EntryKind::Blob, blob)
        .map_err(|e| repo_err("could not write a record", e))?;
    let tree = editor
        .write()
        .map_err(|e| repo_err("could not write a record", e))?
        .detach();
    let sig = signature();
    let commit = gix::objs::Commit {
        tree,
        parents: parents.iter().copied().collect(),
        author: sig.clone(),
        committer: sig,
        encoding: None,
        message: format!("{message}\n").into(),
        extra_headers: Vec::new(),
    };
    Ok(gix
        .write_object(commit)
        .map_err(|e| repo_err("could not write a record", e))?
        .detach())
}

/// What [`read`] found at a commit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Read {
    /// The file's bytes, and the commit's parents.
    Found {
        bytes: Vec<u8>,
        parents: Vec<ObjectId>,
    },
    /// Not in this repository (never fetched, or the remote never had it).
    Missing,
    /// Not a commit, or its tree has no such file (or not as a blob).
    Malformed(String),
    /// The file is larger than the cap: not read.
    TooLarge(u64),
}

/// `file` in the tree of `commit`, read only when it is at most `cap`
/// bytes (its size read from the object's header first).
pub fn read(repo: &Repo, commit: ObjectId, file: &str, cap: u64) -> Result<Read> {
    let gix = repo.gix();
    let Some(object) = gix
        .try_find_object(commit)
        .map_err(|e| repo_err("could not read a record", e))?
    else {
        return Ok(Read::Missing);
    };
    let Ok(commit) = object.try_into_commit() else {
        return Ok(Read::Malformed("not a commit".to_owned()));
    };
    let parents: Vec<ObjectId> = commit.parent_ids().map(|p| p.detach()).collect();
    let Ok(tree_id) = commit.tree_id() else {
        return Ok(Read::Malformed("it names no tree".to_owned()));
    };
    // Its tree not here (yet: a concurrent fetch writes a commit before
    // its tree) is missing, not malformed.
    let tree = match gix.try_find_object(tree_id) {
        Ok(None) => return Ok(Read::Missing),
        Ok(Some(object)) => match object.try_into_tree() {
            Ok(tree) => tree,
            Err(_) => return Ok(Read::Malformed("its tree is not a tree".to_owned())),
        },
        Err(e) => return Ok(Read::Malformed(format!("its tree cannot be read: {e}"))),
    };
    let Some(entry) = tree.find_entry(file) else {
        return Ok(Read::Malformed(format!("its tree holds no {file}")));
    };
    if !entry.mode().is_blob() {
        return Ok(Read::Malformed(format!("{file} is not a file")));
    }
    let id = entry.object_id();
    let Some(header) = gix
        .try_find_header(id)
        .map_err(|e| repo_err("could not read a record", e))?
    else {
        return Ok(Read::Missing);
    };
    if header.size() > cap {
        return Ok(Read::TooLarge(header.size()));
    }
    let blob = gix
        .find_object(id)
        .map_err(|e| repo_err("could not read a record", e))?;
    Ok(Read::Found {
        bytes: blob.data.clone(),
        parents,
    })
}
