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

    pub fn tree_of(&self, commit: ObjectId) -> ObjectId {
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

/// Whether the changes from `base` to `ours` and to `theirs` can meet.
fn meet(f: &Fixture, base: ObjectId, ours: ObjectId, theirs: ObjectId) -> bool {
    let merger = Merger::new(&f.repo).unwrap();
    let (o, t) = (
        merger.changes(base, ours).unwrap(),
        merger.changes(base, theirs).unwrap(),
    );
    assert_eq!(o.can_meet(&t), t.can_meet(&o), "symmetric");
    o.can_meet(&t)
}

#[test]
fn changes_meet_on_a_shared_file_a_rename_source_and_a_file_where_a_directory_is() {
    let f = Fixture::new();
    let base = f.commit(&[("a", "1\n"), ("d/x", "1\n"), ("e/y", "1\n")], &[]);
    let edit_a = f.commit(&[("a", "2\n"), ("d/x", "1\n"), ("e/y", "1\n")], &[base]);
    let edit_x = f.commit(&[("a", "1\n"), ("d/x", "2\n"), ("e/y", "1\n")], &[base]);
    let edit_a_too = f.commit(&[("a", "3\n"), ("d/x", "1\n"), ("e/y", "1\n")], &[base]);
    let rename_a = f.commit(&[("z", "1\n"), ("d/x", "1\n"), ("e/y", "1\n")], &[base]);
    let file_d = f.commit(&[("a", "1\n"), ("d", "f\n"), ("e/y", "1\n")], &[base]);
    let add_in_d = f.commit(
        &[("a", "1\n"), ("d/x", "1\n"), ("d/n", "n\n"), ("e/y", "1\n")],
        &[base],
    );
    let drop_d = f.commit(&[("a", "1\n"), ("e/y", "1\n")], &[base]);
    let add_deep = f.commit(
        &[
            ("a", "1\n"),
            ("d/x", "1\n"),
            ("e/y", "1\n"),
            ("e/y2/k", "k\n"),
        ],
        &[base],
    );
    // Apart: the merge is clean.
    for (ours, theirs) in [(edit_a, edit_x), (drop_d, add_deep), (add_in_d, edit_a)] {
        assert!(!meet(&f, base, ours, theirs));
        assert!(merge_trees(&f.repo, base, ours, theirs).unwrap().is_clean());
    }
    // They meet: the same file, a renamed file edited, a file where the
    // other side's directory is.
    assert!(meet(&f, base, edit_a, edit_a_too));
    assert!(meet(&f, base, rename_a, edit_a));
    assert!(meet(&f, base, file_d, add_in_d));
    assert!(meet(&f, base, file_d, edit_x));
    // A directory removed, a file elsewhere edited: apart.
    assert!(!meet(&f, base, drop_d, edit_a));
}

/// Random trees over a small set of paths (files and directories of the
/// same names, so file/directory clashes and renames of equal content
/// happen), each side a few random edits of the base: whenever the two
/// sides' changes cannot meet, gix's merge of them is clean. The proof
/// `conflicts` skips pair merges on.
#[test]
fn changes_that_cannot_meet_always_merge_cleanly() {
    const PATHS: [&str; 12] = [
        "a", "b", "d", "d/a", "d/b", "d/e", "d/e/f", "e", "e/x", "e/d/a", "f/g", "f/h",
    ];
    const TEXTS: [&str; 3] = ["1\n2\n3\n", "1\nX\n3\n", "Y\n"];
    type Tree = Vec<(&'static str, &'static str)>;
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let clashes = |t: &Tree, p: &str| {
        t.iter()
            .any(|(q, _)| p.starts_with(&format!("{q}/")) || q.starts_with(&format!("{p}/")))
    };
    let edit = |t: &Tree, next: &mut dyn FnMut(usize) -> usize| {
        let mut t = t.clone();
        for _ in 0..1 + next(2) {
            let p = PATHS[next(PATHS.len())];
            let text = TEXTS[next(TEXTS.len())];
            match t.iter().position(|(q, _)| *q == p) {
                Some(at) => match next(3) {
                    0 => t[at].1 = text,
                    1 => {
                        t.remove(at);
                    }
                    _ => {
                        // A rename: the same content under another name.
                        let (_, kept) = t.remove(at);
                        let to = PATHS[next(PATHS.len())];
                        if !clashes(&t, to) && t.iter().all(|(q, _)| *q != to) {
                            t.push((to, kept));
                        }
                    }
                },
                // A file where a directory was, or the other way round.
                None if clashes(&t, p) => {
                    t.retain(|(q, _)| {
                        !p.starts_with(&format!("{q}/")) && !q.starts_with(&format!("{p}/"))
                    });
                    t.push((p, text));
                }
                None => t.push((p, text)),
            }
        }
        t
    };
    let f = Fixture::new();
    let (mut apart, mut met) = (0, 0);
    for _ in 0..600 {
        let mut base: Tree = Vec::new();
        for p in PATHS {
            if next(3) != 0 && !clashes(&base, p) {
                base.push((p, TEXTS[next(TEXTS.len())]));
            }
        }
        let (ours, theirs) = (edit(&base, &mut next), edit(&base, &mut next));
        let (base, ours, theirs) = (
            f.commit(&base, &[]),
            f.commit(&ours, &[]),
            f.commit(&theirs, &[]),
        );
        if meet(&f, base, ours, theirs) {
            met += 1;
            continue;
        }
        apart += 1;
        let merged = merge_trees(&f.repo, base, ours, theirs).unwrap();
        assert!(merged.is_clean(), "{base} {ours} {theirs}: {merged:?}");
    }
    assert!(apart >= 100 && met >= 100, "apart {apart}, met {met}");
}
