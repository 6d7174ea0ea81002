//! The in-memory merge against git's own: where a hunk can slide, it goes
//! where git's merges put it (see vendor/README.md).

use super::merge_commits;
use super::tests::Fixture;

/// The slider case, smallest: ours deletes line 3; theirs deletes two
/// lines that fit at 5–6 or 4–5 (lines 4 and 6 are the same). git's merge
/// slides the deletion down (5–6: a line apart from ours), so it merges
/// cleanly; placed by the indent heuristic (4–5) it touches ours, and the
/// merge would report a conflict git does not have.
pub(crate) const SLIDER: [&str; 4] = [
    // base
    "a\nb\nc\nstmt1;\n    if x {\nstmt1;\n    stmt1;\nd\n",
    // ours: line 3 deleted
    "a\nb\nstmt1;\n    if x {\nstmt1;\n    stmt1;\nd\n",
    // theirs: lines 5-6 (or 4-5) deleted
    "a\nb\nc\nstmt1;\n    stmt1;\nd\n",
    // git's merge
    "a\nb\nstmt1;\n    stmt1;\nd\n",
];

#[test]
fn a_block_deletion_that_can_slide_merges_as_git_merges_it() {
    let f = Fixture::new();
    let [base_text, ours_text, theirs_text, merged_text] = SLIDER;
    let base = f.commit(&[("f.rs", base_text)], &[]);
    let ours = f.commit(&[("f.rs", ours_text)], &[base]);
    let theirs = f.commit(&[("f.rs", theirs_text)], &[base]);
    let result = merge_commits(&f.repo, ours, theirs).unwrap();
    assert!(result.is_clean(), "{:?}", result.conflicts);
    let merged = f.commit(&[("f.rs", merged_text)], &[]);
    assert_eq!(result.tree, f.tree_of(merged));
}

/// Random code-like files (blank lines, braces, repeated statements at
/// three indents), one side deleting a few lines, the other a block that can
/// slide to touch them: the in-memory merge finds a conflict exactly when
/// `git merge-file` does (histogram, as git's merges diff). With gix-merge's
/// indent heuristic (see vendor/README.md), 94 of 600 disagreed, both ways.
#[test]
fn random_merges_agree_with_git_merge_file() {
    let f = Fixture::new();
    let dir = tempfile::tempdir().unwrap();
    let mut seed: u64 = 12345;
    let mut rnd = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let text = |l: &[String]| l.join("\n") + "\n";
    let (mut samples, mut differ) = (0, Vec::new());
    while samples < 600 {
        let mut lines: Vec<String> = Vec::new();
        while lines.len() < 60 {
            let pad = "    ".repeat(rnd(3));
            lines.push(match rnd(6) {
                0 => String::new(),
                1 => format!("{pad}}}"),
                2 => format!("{pad}if x {{"),
                _ => format!("{pad}stmt{};", rnd(5)),
            });
        }
        // Theirs deletes `s+1..=s+len`, which can slide up one line to
        // `s..s+len` (lines `s` and `s+len` are the same).
        let slidable: Vec<(usize, usize)> = (5..50)
            .flat_map(|s| (2..10).map(move |len| (s, len)))
            .filter(|&(s, len)| lines[s] == lines[s + len])
            .collect();
        if slidable.is_empty() {
            continue;
        }
        samples += 1;
        let (s, len) = slidable[rnd(slidable.len())];
        let theirs = [&lines[..s + 1], &lines[s + len + 1..]].concat();
        // Ours deletes one to three lines ending one or two before `s`.
        let end = s - rnd(2);
        let start = end - 1 - rnd(3);
        let ours = [&lines[..start], &lines[end..]].concat();
        let (b, o, t) = (text(&lines), text(&ours), text(&theirs));
        let base = f.commit(&[("f", &b)], &[]);
        let ours = f.commit(&[("f", &o)], &[base]);
        let theirs = f.commit(&[("f", &t)], &[base]);
        let clean = merge_commits(&f.repo, ours, theirs).unwrap().is_clean();
        for (name, content) in [("b", &b), ("o", &o), ("t", &t)] {
            std::fs::write(dir.path().join(name), content).unwrap();
        }
        let git = std::process::Command::new("git")
            .current_dir(dir.path())
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .args([
                "merge-file",
                "-p",
                "--diff-algorithm=histogram",
                "o",
                "b",
                "t",
            ])
            .output()
            .unwrap();
        let git_clean = match git.status.code() {
            Some(0) => true,
            Some(n) if n > 0 => false,
            _ => panic!("git merge-file: {}", String::from_utf8_lossy(&git.stderr)),
        };
        if clean != git_clean {
            differ.push((samples, clean, git_clean));
        }
    }
    assert!(
        differ.is_empty(),
        "{} of {samples} merges disagree with git (sample, in-memory clean, git clean): {:?}",
        differ.len(),
        &differ[..differ.len().min(10)]
    );
}
