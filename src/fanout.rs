//! The one thread fan-out: a slice of items worked on by as many threads as
//! there are cores, each result handed back to the calling thread as it
//! comes (for progress), with its item's index (for order). (Not the warm
//! pool of ready worktrees, which is `git loop pool`'s.)

/// Run `work` on every item of `items`, on up to one thread per core (never
/// more threads than items). `on_result(i, result)` runs on the calling
/// thread for each item as its result arrives, in completion order; `i` is
/// the item's index in `items`. Returns when every item is done.
pub(crate) fn for_each<T, R>(
    items: &[T],
    work: impl Fn(&T) -> R + Sync,
    on_result: impl FnMut(usize, R),
) where
    T: Sync,
    R: Send,
{
    for_each_with(items, || (), |(), item| work(item), on_result);
}

/// [`for_each`] with a state per worker thread: `init` makes it
/// once on each thread, before its first item, and `work` gets it with
/// every item that thread takes (for what is costly to set up and cannot
/// be shared between threads, such as a `gix::Repository`). Items are taken
/// in index order, so put the longest first.
pub(crate) fn for_each_with<T, S, R>(
    items: &[T],
    init: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, &T) -> R + Sync,
    mut on_result: impl FnMut(usize, R),
) where
    T: Sync,
    R: Send,
{
    use std::sync::atomic::{AtomicUsize, Ordering};
    let workers = cores().min(items.len()).max(1);
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::channel();
        for _ in 0..workers {
            let tx = tx.clone();
            let (next, init, work) = (&next, &init, &work);
            scope.spawn(move || {
                let mut state = None;
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    let state = state.get_or_insert_with(init);
                    if tx.send((i, work(state, item))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for (i, result) in rx {
            on_result(i, result);
        }
    });
}

/// The machine's cores, asked once (each asking reads the cgroup's files).
pub(crate) fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// Jobs that make more jobs (a walk of directories): `work(job, &mut more)`
/// on `threads` threads (this one among them) taking from one shared
/// stack, the jobs pushed to `more` taken next by any of them. A thread
/// with nothing to take waits until a job is pushed or none is left queued
/// or being worked on; then every thread returns. A job whose `work` panics
/// still counts as done (the other threads finish; the panic reaches the
/// caller when they have).
pub(crate) fn drain<J: Send>(jobs: Vec<J>, threads: usize, work: impl Fn(J, &mut Vec<J>) + Sync) {
    use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
    use std::sync::{Condvar, Mutex};
    // The jobs queued, and how many are being worked on.
    let stack = Mutex::new((jobs, 0usize));
    let wake = Condvar::new();
    let lock = || stack.lock().unwrap_or_else(|e| e.into_inner());
    let worker = || {
        loop {
            let job = {
                let mut q = lock();
                loop {
                    if let Some(job) = q.0.pop() {
                        q.1 += 1;
                        break job;
                    }
                    if q.1 == 0 {
                        wake.notify_all();
                        return;
                    }
                    q = wake.wait(q).unwrap_or_else(|e| e.into_inner());
                }
            };
            let mut more = Vec::new();
            let done = catch_unwind(AssertUnwindSafe(|| work(job, &mut more)));
            {
                let mut q = lock();
                q.1 -= 1;
                q.0.append(&mut more);
            }
            // New jobs to take, or the last one done: wake the rest.
            wake.notify_all();
            if let Err(panic) = done {
                resume_unwind(panic);
            }
        }
    };
    std::thread::scope(|scope| {
        for _ in 1..threads.max(1) {
            scope.spawn(worker);
        }
        worker();
    });
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_item_once_with_its_index() {
        let items: Vec<usize> = (0..100).collect();
        let mut seen = vec![0; items.len()];
        super::for_each(
            &items,
            |n| n * 2,
            |i, r| {
                assert_eq!(r, items[i] * 2);
                seen[i] += 1;
            },
        );
        assert!(seen.iter().all(|&n| n == 1));
    }

    /// Every job and every job it makes is worked on once, on any count
    /// of threads, and a job that panics does not leave the others waiting.
    #[test]
    fn drain_works_every_job_made_once() {
        use std::sync::Mutex;
        for threads in [1, 2, 4] {
            let seen = Mutex::new(Vec::new());
            // Job n makes jobs 2n+1 and 2n+2 below 200: a tree of 200.
            super::drain(vec![0usize], threads, |n, more| {
                seen.lock().unwrap().push(n);
                more.extend([2 * n + 1, 2 * n + 2].into_iter().filter(|&m| m < 200));
            });
            let mut seen = seen.into_inner().unwrap();
            seen.sort_unstable();
            assert_eq!(seen, (0..200).collect::<Vec<_>>(), "{threads} threads");
        }
        let panicked = std::panic::catch_unwind(|| {
            super::drain((0..50).collect(), 2, |n: usize, _| assert_ne!(n, 7));
        });
        assert!(panicked.is_err(), "the panic reaches the caller");
        super::for_each(&[] as &[u8], |_| (), |_, _| panic!("no items"));
    }
}
