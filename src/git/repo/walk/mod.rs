//! History walks shared by one process: merge bases, ancestry, ahead/behind
//! counts and "commits of `tip` not in `hidden`", each a walk bounded by the
//! merge bases, as git's own are.
//!
//! - **One walk for both sides.** A pair of tips is painted down to what
//!   they have in common (git's `paint_down_to_common`): each commit carries
//!   the side(s) it is reachable from, the walk takes the newest commit
//!   first, and stops once every commit still queued is reachable from
//!   both. The merge bases (the common commits reached first, less those
//!   in another's history), `ahead` and `behind` (the commits reached from
//!   one side only) all come out of that one walk, as `git rev-list
//!   --left-right --count tip...base` counts them — never a walk of the
//!   whole history, which the hidden walks of `rev_walk().with_hidden()`
//!   amounted to on a history of 100,000 commits.
//! - **Newest first** is by generation number when the repository has a
//!   commit-graph file (read once, when the first walk starts, if git would
//!   use it: `core.commitGraph`, no replace refs), then by committer date;
//!   without one by committer date, as git walks without one. A commit that
//!   gains a side after it was walked (a parent dated after its child) is
//!   walked again, so what is reached is always right; and once a walk has
//!   met a parent dated after its child, it goes on below the common
//!   commits to the end, so what it counts stays exact where dates run
//!   backwards (git's own walks without a commit-graph guess there). A
//!   merge base is always a commit reachable from both (a side is only
//!   ever carried along real parent links), and one in another's history
//!   is dropped by walks that stop only when nothing one-sided is left,
//!   whatever the dates: ancestry and merge bases are exact. (The unit
//!   tests check all of it against brute force on random histories, dates
//!   in order and at random.)
//! - **Each commit is read once per process**, from the commit-graph when it
//!   holds it, else from the object database: its parents, committer time
//!   and generation are kept ([`Walks`] is shared by every walk of a
//!   command), and each pair's result is kept too (`list --long` and the
//!   merged check ask the same pair several times). Nothing is written.
//! - **A note** when a large repository has no commit-graph: see
//!   [`take_note`].

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::sync::{Arc, Mutex};

use gix::ObjectId;

use crate::error::{Error, Result};

mod note;
mod read;
#[cfg(test)]
mod tests;

pub use note::take_note;

/// No generation number known (not in a commit-graph, or one git wrote
/// without them): ordered by date only, and never used to stop a walk.
const NO_GENERATION: u32 = u32::MAX;

/// A repository without a commit-graph holding more packed objects than
/// this is "large" for [`take_note`].
pub const LARGE_OBJECTS: u64 = 100_000;

const LEFT: u8 = 1;
const RIGHT: u8 = 2;
const STALE: u8 = 4;
const RESULT: u8 = 8;
const QUEUED: u8 = 16;

fn repo_err(e: impl std::fmt::Display) -> Error {
    Error::Repository(e.to_string())
}

/// The walk's queue: newest first (generation, then committer time, then
/// the order queued, as git's priority queue), and how many of the queued
/// commits are not yet known common.
#[derive(Default)]
struct Queue {
    heap: BinaryHeap<(u32, i64, Reverse<u64>, u32)>,
    seq: u64,
    non_stale: usize,
    /// The commits reached, in the order first reached.
    order: Vec<u32>,
}

impl Queue {
    /// Give commit `i` the flags `f`, queueing it if it is not queued.
    fn push(&mut self, w: &mut Inner, i: u32, f: u8) {
        let old = w.flags[i as usize];
        if old == 0 {
            self.order.push(i);
        }
        w.set(i, f);
        if old & QUEUED == 0 {
            let n = &w.nodes[i as usize];
            self.heap.push((n.generation, n.time, Reverse(self.seq), i));
            self.seq += 1;
            w.flags[i as usize] |= QUEUED;
        }
        let was_counted = old & QUEUED != 0 && old & STALE == 0;
        let counted = w.flags[i as usize] & STALE == 0;
        match (was_counted, counted) {
            (false, true) => self.non_stale += 1,
            (true, false) => self.non_stale -= 1,
            _ => {}
        }
    }
}

/// One commit as the walks need it.
struct Node {
    id: ObjectId,
    time: i64,
    generation: u32,
    parent_ids: Box<[ObjectId]>,
    /// The parents' node indices, made when first walked through.
    parents: Option<Box<[u32]>>,
}

/// What one painted pair gave.
#[derive(Clone)]
struct Painted {
    bases: Vec<ObjectId>,
    ahead: usize,
    behind: usize,
}

/// The commit walks of one process over one repository (cheap to clone:
/// the clones share what was read).
#[derive(Clone)]
pub struct Walks {
    inner: Arc<Mutex<Inner>>,
}

struct Inner {
    repo: gix::Repository,
    /// Read at the first walk: `None` until then.
    graph: Option<Option<gix::commitgraph::Graph>>,
    index: HashMap<ObjectId, u32>,
    nodes: Vec<Node>,
    flags: Vec<u8>,
    /// Nodes whose flags are set, to clear after a walk.
    touched: Vec<u32>,
    buf: Vec<u8>,
    /// Commits read from the object database (not the commit-graph).
    decoded: usize,
    pairs: HashMap<(ObjectId, ObjectId), Painted>,
}

impl Walks {
    pub fn new(repo: &gix::Repository) -> Walks {
        Walks {
            inner: Arc::new(Mutex::new(Inner {
                repo: repo.clone(),
                graph: None,
                index: HashMap::new(),
                nodes: Vec::new(),
                flags: Vec::new(),
                touched: Vec::new(),
                buf: Vec::new(),
                decoded: 0,
                pairs: HashMap::new(),
            })),
        }
    }

    fn with<T>(&self, f: impl FnOnce(&mut Inner) -> Result<T>) -> Result<T> {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let out = f(&mut inner);
        inner.clear_flags();
        out
    }

    /// Commits in `tip` not in `base`, and in `base` not in `tip` (what
    /// `git rev-list --left-right --count tip...base` prints).
    pub fn ahead_behind(&self, tip: ObjectId, base: ObjectId) -> Result<(usize, usize)> {
        if tip == base {
            return Ok((0, 0));
        }
        self.with(|w| w.pair(tip, base).map(|p| (p.ahead, p.behind)))
    }

    /// Every best common ancestor of `a` and `b`, as `git merge-base --all
    /// a b` lists them (newest first; empty: unrelated histories).
    pub fn merge_bases(&self, a: ObjectId, b: ObjectId) -> Result<Vec<ObjectId>> {
        if a == b {
            return Ok(vec![a]);
        }
        self.with(|w| w.pair(a, b).map(|p| p.bases))
    }

    /// The best common ancestor of `a` and `b` (the first of
    /// [`Walks::merge_bases`], as `git merge-base a b` prints it).
    pub fn merge_base(&self, a: ObjectId, b: ObjectId) -> Result<Option<ObjectId>> {
        Ok(self.merge_bases(a, b)?.first().copied())
    }

    /// Whether `a` is `b` or in its history (`git merge-base --is-ancestor
    /// a b`).
    pub fn is_ancestor(&self, a: ObjectId, b: ObjectId) -> Result<bool> {
        Ok(a == b || self.merge_bases(a, b)? == [a])
    }

    /// The commits reachable from `tip` and not from `hidden` (`git
    /// rev-list tip ^hidden`), newest first.
    pub fn only(&self, tip: ObjectId, hidden: ObjectId) -> Result<Vec<ObjectId>> {
        if tip == hidden {
            return Ok(Vec::new());
        }
        self.with(|w| {
            let t = w.node(tip)?;
            let h = w.node(hidden)?;
            let order = w.paint(t, &[h])?;
            Ok(order
                .into_iter()
                .filter(|&i| w.flags[i as usize] & (RIGHT | STALE) == 0)
                .map(|i| w.nodes[i as usize].id)
                .collect())
        })
    }
}

impl Inner {
    fn clear_flags(&mut self) {
        for i in self.touched.drain(..) {
            self.flags[i as usize] = 0;
        }
    }

    fn set(&mut self, i: u32, f: u8) {
        let slot = &mut self.flags[i as usize];
        if *slot == 0 {
            self.touched.push(i);
        }
        *slot |= f;
    }

    /// The pair `(a, b)` painted: its merge bases and counts, kept.
    fn pair(&mut self, a: ObjectId, b: ObjectId) -> Result<Painted> {
        if let Some(p) = self.pairs.get(&(a, b)) {
            return Ok(p.clone());
        }
        let (l, r) = (self.node(a)?, self.node(b)?);
        let order = self.paint(l, &[r])?;
        let (mut ahead, mut behind, mut found) = (0, 0, Vec::new());
        for &i in &order {
            let f = self.flags[i as usize];
            if f & RESULT != 0 {
                found.push(i);
            }
            match f & (LEFT | RIGHT | STALE) {
                LEFT => ahead += 1,
                RIGHT => behind += 1,
                _ => {}
            }
        }
        self.clear_flags();
        let bases = self.independent(found)?;
        let painted = Painted {
            bases: bases.iter().map(|&i| self.nodes[i as usize].id).collect(),
            ahead,
            behind,
        };
        self.pairs.insert((a, b), painted.clone());
        Ok(painted)
    }

    /// Paint `left` and `right` down to what they share (git's
    /// `paint_down_to_common`): every commit reached is flagged with the
    /// side(s) it is reachable from; a commit reachable from both is
    /// `RESULT` when reached so first, and `STALE` (what is below it is
    /// common). Stops when every queued commit is stale. Returns the
    /// commits reached, in the order first reached.
    fn paint(&mut self, left: u32, right: &[u32]) -> Result<Vec<u32>> {
        let mut q = Queue::default();
        q.push(self, left, LEFT);
        for &r in right {
            q.push(self, r, RIGHT);
        }
        // A parent dated after its child (or after a commit walked before
        // it): the date order is no topological order here, and what is
        // below a common commit may have been walked as one-sided. Then the
        // common commits are walked down too, to the end, so the counts
        // stay exact (a commit-graph's generations never need it).
        let mut skewed = false;
        while q.non_stale > 0 || (skewed && !q.heap.is_empty()) {
            let Some((generation, time, _, i)) = q.heap.pop() else {
                break;
            };
            let slot = &mut self.flags[i as usize];
            *slot &= !QUEUED;
            if *slot & STALE == 0 {
                q.non_stale -= 1;
            }
            let mut f = *slot & (LEFT | RIGHT | STALE);
            if f == LEFT | RIGHT {
                *slot |= RESULT | STALE;
                f |= STALE;
            }
            for &p in self.parents(i)?.iter() {
                let n = &self.nodes[p as usize];
                skewed |= (n.generation, n.time) > (generation, time);
                if self.flags[p as usize] & f != f {
                    q.push(self, p, f);
                }
            }
        }
        Ok(q.order)
    }

    /// `candidates` without those in another's history (git's
    /// `remove_redundant`), in their order: each painted against the
    /// others, a walk that stops only when nothing one-sided is left.
    fn independent(&mut self, candidates: Vec<u32>) -> Result<Vec<u32>> {
        if candidates.len() < 2 {
            return Ok(candidates);
        }
        let mut redundant = vec![false; candidates.len()];
        for k in 0..candidates.len() {
            if redundant[k] {
                continue;
            }
            let others: Vec<u32> = (0..candidates.len())
                .filter(|&j| j != k && !redundant[j])
                .map(|j| candidates[j])
                .collect();
            if others.is_empty() {
                break;
            }
            self.paint(candidates[k], &others)?;
            if self.flags[candidates[k] as usize] & RIGHT != 0 {
                redundant[k] = true;
            }
            for (j, &c) in candidates.iter().enumerate() {
                if j != k && self.flags[c as usize] & LEFT != 0 {
                    redundant[j] = true;
                }
            }
            self.clear_flags();
        }
        Ok(candidates
            .into_iter()
            .zip(redundant)
            .filter(|(_, r)| !r)
            .map(|(c, _)| c)
            .collect())
    }
}
