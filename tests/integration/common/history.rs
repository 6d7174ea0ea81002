//! A history of real shape, written as a `git fast-import` stream in
//! seconds: a `main` of thousands of topic merges, topics built on other
//! topics (so two topics often share two merge bases: criss-cross), and a
//! set of topics left open at the end for the runs of a test or bench.
//!
//! Shared by the tests and the benches (`benches/common` includes this file
//! by path): it depends on nothing but `std`.
//!
//! The model: a file is a list of lines, line `i` of file `f` reading
//! `f<f> l<i> v<n>`, where `n` is the number of the commit that last wrote
//! it. A commit rewrites a few lines of a few files. Because every line
//! records its writer and writers only grow, the merge of two states is the
//! element-wise maximum: a line changed on one side only takes that side, as
//! git's three-way merge does; a line both sides changed takes the later
//! writer (the merge commit "resolves" it). So every merge commit written is
//! one git could have made.
//!
//! Criss-cross: a topic with dependencies starts with its own merge of two
//! open topics, `d1` and `d2`. Two topics built on the same pair each merge
//! them separately, so their merge bases are `d1` and `d2` both; and each
//! edits lines next to lines `d2` changed, which conflicts over `d1` alone
//! and merges cleanly over the virtual base git builds from both.

use std::io::{self, Write};
use std::process::{Command, Stdio};
use std::rc::Rc;

/// How big a history to write.
#[derive(Debug, Clone)]
pub struct Shape {
    /// About how many commits in all (the loop stops past it).
    pub commits: usize,
    /// Files in the tree, in directories of 100.
    pub files: usize,
    /// Lines per file.
    pub lines: usize,
    /// Topics left open at the end (`refs/heads/topic/<n>`).
    pub open: usize,
    pub seed: u64,
    /// Hex digits of an object id in the repository imported into: 40
    /// (SHA-1), or 64 (SHA-256); the stream deletes a merged topic's
    /// branch with the null id of that length.
    pub hex_len: usize,
}

impl Shape {
    /// ~100,000 commits, 5,000 files, 60 open topics: the shape.
    pub fn real() -> Shape {
        Shape {
            commits: 100_000,
            files: 5_000,
            lines: 12,
            open: 60,
            seed: 39,
            hex_len: 40,
        }
    }
}

/// What was written.
#[derive(Debug, Clone, Default)]
pub struct Summary {
    pub commits: usize,
    /// Topics merged into `main`.
    pub merged: usize,
    /// Open topics, branch names (`topic/<n>`), oldest first.
    pub open: Vec<String>,
    /// Open topics that start with a merge of two other open topics.
    pub criss_cross: usize,
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

type State = Vec<Rc<Vec<u32>>>;

struct Topic {
    name: String,
    tip: usize,
    state: State,
    /// (file, line) written by this topic's own commits.
    wrote: Vec<(usize, usize)>,
    /// The lines its dependency `d2` wrote (edited around).
    near: Vec<(usize, usize)>,
    commits_left: usize,
}

struct Writer<'a, W: Write> {
    out: &'a mut W,
    shape: &'a Shape,
    /// Marks: commit number `n` is mark `:n`.
    next: usize,
}

impl<W: Write> Writer<'_, W> {
    fn path(&self, f: usize) -> String {
        format!("d{:02}/f{:04}.txt", f / 100, f)
    }

    fn file(&self, f: usize, lines: &[u32]) -> Vec<u8> {
        let mut s = Vec::with_capacity(lines.len() * 16);
        for (i, v) in lines.iter().enumerate() {
            writeln!(s, "f{f} l{i} v{v}").unwrap();
        }
        s
    }

    /// One commit on `branch` with parents `from` (and `merge`), writing
    /// the files of `state` that differ from `parent` (`None`: all).
    fn commit(
        &mut self,
        branch: &str,
        from: Option<usize>,
        merge: Option<usize>,
        parent: Option<&State>,
        state: &State,
        message: &str,
    ) -> io::Result<usize> {
        let n = self.next;
        self.next += 1;
        let when = 1_700_000_000 + n as u64 * 60;
        write!(
            self.out,
            "commit refs/heads/{branch}\nmark :{n}\n\
             author A U Thor <author@example.com> {when} +0000\n\
             committer C O Mitter <committer@example.com> {when} +0000\n\
             data {}\n{message}\n",
            message.len() + 1
        )?;
        if let Some(p) = from {
            writeln!(self.out, "from :{p}")?;
        }
        if let Some(p) = merge {
            writeln!(self.out, "merge :{p}")?;
        }
        for (f, lines) in state.iter().enumerate() {
            if let Some(parent) = parent
                && (Rc::ptr_eq(&parent[f], lines) || parent[f] == *lines)
            {
                continue;
            }
            let data = self.file(f, lines);
            writeln!(
                self.out,
                "M 100644 inline {}\ndata {}",
                self.path(f),
                data.len()
            )?;
            self.out.write_all(&data)?;
            writeln!(self.out)?;
        }
        writeln!(self.out)?;
        let _ = self.shape;
        Ok(n)
    }
}

/// `a` merged with `b`: line by line, the later writer.
fn merged(a: &State, b: &State) -> State {
    a.iter()
        .zip(b)
        .map(|(x, y)| {
            if Rc::ptr_eq(x, y) {
                return x.clone();
            }
            let m: Vec<u32> = x.iter().zip(y.iter()).map(|(p, q)| *p.max(q)).collect();
            if m == **x {
                x.clone()
            } else if m == **y {
                y.clone()
            } else {
                Rc::new(m)
            }
        })
        .collect()
}

fn write_line(state: &mut State, f: usize, line: usize, v: u32) {
    Rc::make_mut(&mut state[f])[line] = v;
}

/// Write the history of `shape` to `out` as a `git fast-import` stream
/// (`git fast-import --quiet < stream` in an empty repository; branches
/// `main` and `topic/<n>`).
pub fn write(shape: &Shape, out: &mut impl Write) -> io::Result<Summary> {
    let mut rng = Rng(shape.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut w = Writer {
        out,
        shape,
        next: 1,
    };
    let mut main: State = (0..shape.files)
        .map(|_| Rc::new(vec![0; shape.lines]))
        .collect();
    let mut main_tip = w.commit("main", None, None, None, &main, "initial")?;
    let mut summary = Summary::default();
    let mut live: Vec<Topic> = Vec::new();
    let mut opened = 0usize;
    // Up to `open` topics stay live at once; towards the end, topics stop
    // being merged and the last `open` are left as they are.
    let closing = shape.commits.saturating_sub(shape.open * 8);
    loop {
        let done = w.next - 1;
        if done >= shape.commits && live.len() >= shape.open.min(opened) {
            break;
        }
        let ending = done >= closing;
        let want_new = live.len() < if ending { shape.open } else { 24 };
        if want_new && (live.len() < 4 || rng.chance(40)) {
            // A new topic: from main, or (often) from two open topics.
            opened += 1;
            let name = format!("topic/{opened:05}");
            // Near the end, dependencies come from the three oldest open
            // topics, so several topics share a pair (and two merge bases).
            let pool = if ending {
                live.len().min(3)
            } else {
                live.len()
            };
            let deps = if pool >= 2 && rng.chance(if ending { 50 } else { 25 }) {
                let a = rng.below(pool);
                let mut b = rng.below(pool - 1);
                if b >= a {
                    b += 1;
                }
                Some((a, b))
            } else {
                None
            };
            let topic = match deps {
                None => Topic {
                    name,
                    tip: main_tip,
                    state: main.clone(),
                    wrote: Vec::new(),
                    near: Vec::new(),
                    commits_left: 1 + rng.below(4),
                },
                Some((a, b)) => {
                    let state = merged(&live[a].state, &live[b].state);
                    let msg = format!("Merge {} and {} into {name}", live[a].name, live[b].name);
                    let tip = w.commit(
                        &name,
                        Some(live[a].tip),
                        Some(live[b].tip),
                        Some(&live[a].state),
                        &state,
                        &msg,
                    )?;
                    Topic {
                        name,
                        tip,
                        state,
                        wrote: Vec::new(),
                        near: live[b].wrote.clone(),
                        commits_left: 1 + rng.below(4),
                    }
                }
            };
            live.push(topic);
            continue;
        }
        if live.is_empty() || (!ending && rng.chance(8)) {
            // A commit straight on main.
            let parent = main.clone();
            let n = w.next as u32;
            for _ in 0..1 + rng.below(2) {
                let f = rng.below(shape.files);
                write_line(&mut main, f, rng.below(shape.lines), n);
            }
            main_tip = w.commit("main", Some(main_tip), None, Some(&parent), &main, "fix")?;
            continue;
        }
        let t = rng.below(live.len());
        if live[t].commits_left > 0 {
            // A commit on a topic, often next to a line its dependency wrote.
            let parent = live[t].state.clone();
            let n = w.next as u32;
            let topic = &mut live[t];
            for _ in 0..1 + rng.below(3) {
                let (f, line) = if !topic.near.is_empty() && rng.chance(60) {
                    let (f, l) = topic.near[rng.below(topic.near.len())];
                    let l = if rng.chance(50) {
                        l + 1
                    } else {
                        l.wrapping_sub(1)
                    };
                    (f, l.min(shape.lines - 1))
                } else {
                    (rng.below(shape.files), rng.below(shape.lines))
                };
                write_line(&mut topic.state, f, line, n);
                topic.wrote.push((f, line));
            }
            topic.commits_left -= 1;
            let msg = format!("{}: work", topic.name);
            let name = topic.name.clone();
            let state = topic.state.clone();
            topic.tip = w.commit(&name, Some(topic.tip), None, Some(&parent), &state, &msg)?;
            continue;
        }
        if ending {
            // Near the end nothing merges: finished topics wait, open.
            if live.iter().all(|t| t.commits_left == 0) && live.len() >= shape.open {
                break;
            }
            continue;
        }
        // A finished topic merges into main (and its branch is deleted, as
        // a merged topic's is).
        let topic = live.remove(t);
        let state = merged(&main, &topic.state);
        let msg = format!("Merge branch '{}'", topic.name);
        main_tip = w.commit(
            "main",
            Some(main_tip),
            Some(topic.tip),
            Some(&main),
            &state,
            &msg,
        )?;
        main = state;
        // fast-import's "delete this branch": a reset to the null id.
        let zero = "0".repeat(shape.hex_len);
        writeln!(w.out, "reset refs/heads/{}\nfrom {zero}\n", topic.name)?;
        summary.merged += 1;
    }
    summary.commits = w.next - 1;
    summary.open = live.iter().map(|t| t.name.clone()).collect();
    summary.criss_cross = live.iter().filter(|t| !t.near.is_empty()).count();
    w.out.flush()?;
    Ok(summary)
}

/// Import the history of `shape` with `git`, a `git` command already set
/// up to run in an empty (or throw-away) repository: `git fast-import
/// --force` reading the stream as it is written. Then `main` is checked out.
///
/// fast-import is given room: 100 active branches (the topics live at once;
/// with its default of 5 it reloads trees all the time) and glibc's malloc
/// told not to give memory back after each object (half its time went to
/// `brk`/`mmap` otherwise). ~100,000 commits take about 25 s on a 2-core
/// machine, almost all of it in fast-import.
pub fn import(mut git: Command, shape: &Shape) -> Summary {
    let mut child = git
        .env(
            "GLIBC_TUNABLES",
            "glibc.malloc.trim_threshold=268435456:glibc.malloc.top_pad=67108864:\
             glibc.malloc.mmap_threshold=33554432",
        )
        .args(["fast-import", "--quiet", "--force", "--active-branches=100"])
        .stdin(Stdio::piped())
        .spawn()
        .expect("git fast-import runs");
    let mut stdin = io::BufWriter::with_capacity(1 << 20, child.stdin.take().unwrap());
    let summary = write(shape, &mut stdin).expect("the stream is written");
    stdin.flush().unwrap();
    drop(stdin);
    assert!(child.wait().unwrap().success(), "git fast-import failed");
    summary
}
