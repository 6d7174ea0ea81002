//! The index against `HEAD`, for the walk ([`super::walk`]): `HEAD`'s
//! tree, read object by object, holds exactly the index's paths, modes and
//! blobs, in the index's order (`git diff --cached` finding nothing; git's
//! cache-tree is not trusted for it).

use gix::ObjectId;
use gix::index::entry::Mode;
use gix::objs::tree::EntryKind;

/// `HEAD`'s tree `tree` holds exactly the index's entries: a traversal in
/// git's order (a directory sorts as its name and `/`, so the traversal's
/// full paths come in the index's byte order) zipped with the entries.
pub(super) fn index_is_tree(
    repo: &gix::Repository,
    tree: ObjectId,
    index: &gix::index::File,
) -> bool {
    let entries = index.entries();
    let mut next = 0usize;
    // (tree, the path of its directory with a trailing `/`, or empty).
    let mut stack: Vec<(Vec<TreeItem>, usize, Vec<u8>)> = Vec::new();
    let Some(top) = tree_entries(repo, tree) else {
        return false;
    };
    stack.push((top, 0, Vec::new()));
    while let Some((items, at, prefix)) = stack.last_mut() {
        let Some((name, kind, id)) = items.get(*at).cloned() else {
            stack.pop();
            continue;
        };
        *at += 1;
        let mut path = prefix.clone();
        path.extend_from_slice(&name);
        if kind == EntryKind::Tree {
            let Some(sub) = tree_entries(repo, id) else {
                return false;
            };
            path.push(b'/');
            stack.push((sub, 0, path));
            continue;
        }
        let mode = match kind {
            EntryKind::Blob => Mode::FILE,
            EntryKind::BlobExecutable => Mode::FILE_EXECUTABLE,
            EntryKind::Link => Mode::SYMLINK,
            _ => return false,
        };
        let Some(entry) = entries.get(next) else {
            return false;
        };
        if entry.path(index).as_ref() as &[u8] != path.as_slice()
            || entry.mode != mode
            || entry.id != id
        {
            return false;
        }
        next += 1;
    }
    next == entries.len()
}

/// A tree's entry: name, kind, id.
type TreeItem = (Vec<u8>, EntryKind, ObjectId);

/// The tree's entries, in its order.
fn tree_entries(
    repo: &gix::Repository,
    id: ObjectId,
) -> Option<Vec<(Vec<u8>, EntryKind, ObjectId)>> {
    let tree = repo.find_tree(id).ok()?;
    let decoded = tree.decode().ok()?;
    Some(
        decoded
            .entries
            .iter()
            .map(|e| (e.filename.to_vec(), e.mode.kind(), e.oid.to_owned()))
            .collect(),
    )
}
