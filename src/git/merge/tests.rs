//! Unit tests of the in-memory merge: repositories built object by object
//! with gix (no git binary, no worktree).

use gix::ObjectId;
use gix::bstr::BString;

use super::*;

/// A bare repository in a temporary directory, filled object by object.
pub(crate) struct Fixture {
    _dir: tempfile::TempDir,
    pub repo: gix::Repository,
}

impl Fixture {
    pub fn new() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let repo = gix::init_bare(dir.path().join("repo.git")).unwrap();
        Fixture { _dir: dir, repo }
    }

    /// A commit whose tree holds `files` (path, content), on `parents`.
    pub fn commit(&self, files: &[(&str, &str)], parents: &[ObjectId]) -> ObjectId {
        let mut editor = self.repo.empty_tree().edit().unwrap();
        for (path, content) in files {
            let blob = self.repo.write_blob(content.as_bytes()).unwrap().detach();
            editor
                .upsert(*path, gix::object::tree::EntryKind::Blob, blob)
                .unwrap();
        }
        let tree = editor.write().unwrap().detach();
        let sig = gix::actor::Signature {
            name: "T".into(),
            email: "t@example.com".into(),
            time: gix::date::Time::new(1_700_000_000, 0),
        };
        let commit = gix::objs::Commit {
            tree,
            parents: parents.iter().copied().collect(),
            author: sig.clone(),
            committer: sig,
            encoding: None,
            message: "c\n".into(),
            extra_headers: Vec::new(),
        };
        self.repo.write_object(commit).unwrap().detach()
    }

    fn tree_of(&self, commit: ObjectId) -> ObjectId {
        self.repo
            .find_commit(commit)
            .unwrap()
            .tree_id()
            .unwrap()
            .detach()
    }

    fn object_count(&self) -> usize {
        self.repo.objects.iter().unwrap().count()
    }
}

#[test]
fn clean_merge_combines_both_sides() {
    let f = Fixture::new();
    let base = f.commit(&[("a", "1\n"), ("b", "1\n")], &[]);
    let ours = f.commit(&[("a", "2\n"), ("b", "1\n")], &[base]);
    let theirs = f.commit(&[("a", "1\n"), ("b", "2\n")], &[base]);
    let expected = f.commit(&[("a", "2\n"), ("b", "2\n")], &[]);
    let result = merge_commits(&f.repo, ours, theirs).unwrap();
    assert!(result.is_clean(), "{result:?}");
    assert_eq!(result.tree, f.tree_of(expected));
    assert_eq!(result.merge_base, Some(base));
}

#[test]
fn conflicting_edits_are_reported_by_path_and_nothing_is_written() {
    let f = Fixture::new();
    let base = f.commit(&[("a", "1\n"), ("dir/x", "1\n")], &[]);
    let ours = f.commit(&[("a", "1\n"), ("dir/x", "ours\n")], &[base]);
    let theirs = f.commit(&[("a", "2\n"), ("dir/x", "theirs\n")], &[base]);
    let before = f.object_count();
    let result = merge_commits(&f.repo, ours, theirs).unwrap();
    assert_eq!(result.conflicts, vec![BString::from("dir/x")]);
    assert_eq!(
        f.object_count(),
        before,
        "the merge wrote to the object database"
    );
    assert!(
        f.repo.find_object(result.tree).is_err(),
        "merged tree persisted"
    );
}

#[test]
fn merging_work_already_in_ours_changes_nothing() {
    // The squash case: ours already holds theirs' change.
    let f = Fixture::new();
    let base = f.commit(&[("a", "1\n")], &[]);
    let theirs = f.commit(&[("a", "1\n"), ("new", "x\n")], &[base]);
    let ours = f.commit(&[("a", "1\n"), ("new", "x\n")], &[base]);
    let merger = Merger::new(&f.repo).unwrap();
    let result = merger.merge_commits(ours, theirs).unwrap();
    assert!(result.is_clean());
    assert_eq!(result.tree, f.tree_of(ours));
}

#[test]
fn merge_trees_takes_commits_or_trees() {
    let f = Fixture::new();
    let base = f.commit(&[("a", "1\n2\n3\n")], &[]);
    let ours = f.commit(&[("a", "0\n2\n3\n")], &[base]);
    let theirs = f.commit(&[("a", "1\n2\n4\n")], &[base]);
    let expected = f.commit(&[("a", "0\n2\n4\n")], &[]);
    let result = merge_trees(&f.repo, f.tree_of(base), ours, f.tree_of(theirs)).unwrap();
    assert!(result.is_clean());
    assert_eq!(result.tree, f.tree_of(expected));
    assert_eq!(result.merge_base, None);
}

#[test]
fn merge_base_finds_the_fork_point_or_none() {
    let f = Fixture::new();
    let root = f.commit(&[("a", "1\n")], &[]);
    let fork = f.commit(&[("a", "2\n")], &[root]);
    let left = f.commit(&[("a", "3\n")], &[fork]);
    let right = f.commit(&[("b", "3\n")], &[fork]);
    let other = f.commit(&[("z", "1\n")], &[]);
    assert_eq!(merge_base(&f.repo, left, right).unwrap(), Some(fork));
    assert_eq!(merge_base(&f.repo, left, left).unwrap(), Some(left));
    assert_eq!(merge_base(&f.repo, left, other).unwrap(), None);
    assert!(merge_commits(&f.repo, left, other).is_err());
}

#[test]
fn a_virtual_merge_base_is_readable_through_the_merger() {
    // Criss-cross: two best common ancestors, merged into a virtual one
    // that lives in the merger's memory (merged.rs reads its tree).
    let f = Fixture::new();
    let root = f.commit(&[("a", "1\n"), ("b", "1\n")], &[]);
    let l = f.commit(&[("a", "2\n"), ("b", "1\n")], &[root]);
    let r = f.commit(&[("a", "1\n"), ("b", "2\n")], &[root]);
    let l2 = f.commit(&[("a", "2\n"), ("b", "2\n"), ("l", "x\n")], &[l, r]);
    let r2 = f.commit(&[("a", "2\n"), ("b", "2\n"), ("r", "x\n")], &[r, l]);
    let merger = Merger::new(&f.repo).unwrap();
    let result = merger.merge_commits(l2, r2).unwrap();
    assert!(result.is_clean(), "{result:?}");
    let base = result.merge_base.expect("a merge base");
    assert!(base != l && base != r, "not the virtual base: {base}");
    let virtual_tree = merger
        .repo()
        .find_commit(base)
        .unwrap()
        .tree_id()
        .unwrap()
        .detach();
    let expected = f.commit(&[("a", "2\n"), ("b", "2\n")], &[]);
    assert_eq!(virtual_tree, f.tree_of(expected));
    assert!(f.repo.find_object(base).is_err(), "virtual base persisted");
}
