//! The walks against brute force (every commit's whole history as a set)
//! on random histories: merge bases, ancestry and counts exact, whether
//! committer dates follow the history or run backwards at random.

use std::collections::HashSet;

use gix::ObjectId;

use super::Walks;

struct History {
    _dir: tempfile::TempDir,
    repo: gix::Repository,
    ids: Vec<ObjectId>,
    /// Each commit's history, itself included (indices).
    reach: Vec<HashSet<usize>>,
}

/// `n` commits: each on one or two earlier ones (mostly recent ones, so
/// branches run side by side and merge criss-cross), dated by `time(k)`.
fn history(n: usize, seed: u64, time: impl Fn(usize, u64) -> i64) -> History {
    let dir = tempfile::tempdir().unwrap();
    let repo = gix::init_bare(dir.path().join("repo.git")).unwrap();
    let tree = repo.empty_tree().id;
    let mut rng = seed | 1;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let (mut ids, mut reach): (Vec<ObjectId>, Vec<HashSet<usize>>) = (Vec::new(), Vec::new());
    for k in 0..n {
        let mut parents = Vec::new();
        if k > 0 {
            let window = k.min(12) as u64;
            parents.push(k - 1 - (next() % window) as usize);
            if k > 2 && next() % 3 == 0 {
                let p = k - 1 - (next() % window) as usize;
                if !parents.contains(&p) {
                    parents.push(p);
                }
            }
        }
        let sig = gix::actor::Signature {
            name: "T".into(),
            email: "t@example.com".into(),
            time: gix::date::Time::new(time(k, next()), 0),
        };
        let commit = gix::objs::Commit {
            tree,
            parents: parents.iter().map(|&p| ids[p]).collect(),
            author: sig.clone(),
            committer: sig,
            encoding: None,
            message: format!("c{k}\n").into(),
            extra_headers: Vec::new(),
        };
        ids.push(repo.write_object(commit).unwrap().detach());
        let mut r: HashSet<usize> = parents.iter().flat_map(|&p| reach[p].clone()).collect();
        r.insert(k);
        reach.push(r);
    }
    History {
        _dir: dir,
        repo,
        ids,
        reach,
    }
}

impl History {
    fn best_common(&self, a: usize, b: usize) -> HashSet<ObjectId> {
        let common: HashSet<usize> = self.reach[a]
            .intersection(&self.reach[b])
            .copied()
            .collect();
        common
            .iter()
            .filter(|&&c| !common.iter().any(|&d| d != c && self.reach[d].contains(&c)))
            .map(|&c| self.ids[c])
            .collect()
    }

    fn check(&self, pairs: usize, seed: u64) {
        let walks = Walks::new(&self.repo);
        let n = self.ids.len();
        let mut several = 0;
        for k in 0..pairs as u64 {
            let a = ((seed.wrapping_mul(k + 7) >> 3) % n as u64) as usize;
            let b = ((seed.wrapping_mul(k + 13) >> 5) % n as u64) as usize;
            let (ia, ib) = (self.ids[a], self.ids[b]);
            let bases: HashSet<ObjectId> = walks.merge_bases(ia, ib).unwrap().into_iter().collect();
            let expected = self.best_common(a, b);
            assert_eq!(bases, expected, "merge bases of c{a} and c{b}");
            several += usize::from(expected.len() > 1);
            assert_eq!(
                walks.is_ancestor(ia, ib).unwrap(),
                self.reach[b].contains(&a)
            );
            let ahead = self.reach[a].difference(&self.reach[b]).count();
            let behind = self.reach[b].difference(&self.reach[a]).count();
            assert_eq!(
                walks.ahead_behind(ia, ib).unwrap(),
                (ahead, behind),
                "c{a}...c{b}"
            );
            let only: HashSet<ObjectId> = walks.only(ia, ib).unwrap().into_iter().collect();
            let expected: HashSet<ObjectId> = self.reach[a]
                .difference(&self.reach[b])
                .map(|&c| self.ids[c])
                .collect();
            assert_eq!(only, expected, "c{a} ^c{b}");
        }
        assert!(several > 0, "no pair with several merge bases");
    }
}

#[test]
fn bases_ancestry_and_counts_are_exact_when_dates_follow_history() {
    for seed in [1, 39, 2026] {
        let h = history(300, seed, |k, _| 1_700_000_000 + k as i64 * 60);
        h.check(200, seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    }
}

#[test]
fn bases_ancestry_and_counts_stay_exact_when_dates_run_backwards() {
    for seed in [2, 40, 2027] {
        // Dates at random: a commit is often older than its parents.
        let h = history(300, seed, |_, r| 1_700_000_000 + (r % 100_000) as i64);
        h.check(200, seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    }
}
