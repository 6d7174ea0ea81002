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
    let workers = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .min(items.len())
        .max(1);
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
        super::for_each(&[] as &[u8], |_| (), |_, _| panic!("no items"));
    }
}
