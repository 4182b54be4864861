//! The search threads, kept alive between searches: spawning one thread with a large stack per thread and
//! per `go` costs start-up time on every move (and datagen searches thousands of times a minute).
//!
//! [`ThreadPool::run_scoped`] hands each pool thread one job that may borrow from the caller's stack, and
//! returns only once every job has finished, so that the borrows outlive their use, as with
//! `std::thread::scope`.

use crossbeam_channel::{Receiver, Sender};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::thread::JoinHandle;

/// Stack size of search threads: deep recursion with move lists on the stack.
pub const SEARCH_STACK_BYTES: usize = 64 * 1024 * 1024;

/// A job as a pool thread receives it (its real lifetime is erased, see [`ThreadPool::run_scoped`]).
type Job = Box<dyn FnOnce() + Send + 'static>;

/// A job that borrows from the caller of [`ThreadPool::run_scoped`] for `'a`.
pub type ScopedJob<'a, R> = Box<dyn FnOnce() -> R + Send + 'a>;

struct PoolThread {
    jobs: Sender<Job>,
    handle: JoinHandle<()>,
}

/// Threads named `search-0`, `search-1`, …, each waiting for jobs.
#[derive(Default)]
pub struct ThreadPool {
    threads: Vec<PoolThread>,
}

impl ThreadPool {
    /// A pool without threads; they start on first use.
    pub fn new() -> ThreadPool {
        ThreadPool::default()
    }

    /// How many threads are running.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.threads.len()
    }

    /// Starts threads until there are `n` (or until the system refuses one). Returns how many there are.
    fn grow(&mut self, n: usize) -> usize {
        while self.threads.len() < n {
            let (tx, rx): (Sender<Job>, Receiver<Job>) = crossbeam_channel::unbounded();
            let spawned = std::thread::Builder::new()
                .name(format!("search-{}", self.threads.len()))
                .stack_size(SEARCH_STACK_BYTES)
                .spawn(move || {
                    for job in rx {
                        job();
                    }
                });
            match spawned {
                Ok(handle) => self.threads.push(PoolThread { jobs: tx, handle }),
                Err(_) => break,
            }
        }
        self.threads.len()
    }

    /// Runs job `i` on pool thread `i` and waits for all of them. Result `i` is `None` when job `i` panicked
    /// or could not be started (no thread for it). The jobs may borrow anything that outlives this call.
    pub fn run_scoped<'a, R: Send + 'a>(&mut self, jobs: Vec<ScopedJob<'a, R>>) -> Vec<Option<R>> {
        let n = jobs.len();
        let available = self.grow(n);
        let (done_tx, done_rx) = crossbeam_channel::unbounded::<(usize, Option<R>)>();
        let mut results: Vec<Option<R>> = (0..n).map(|_| None).collect();
        for (i, job) in jobs.into_iter().enumerate() {
            if i >= available {
                break;
            }
            let done = done_tx.clone();
            let wrapped: Box<dyn FnOnce() + Send + 'a> = Box::new(move || {
                let r = catch_unwind(AssertUnwindSafe(job)).ok();
                let _ = done.send((i, r));
            });
            // SAFETY: the job borrows data that lives for 'a, i.e. at least until this function returns. It
            // does not return before every job sent here has run to its end (the `recv` loop below counts
            // one message per job, sent after the job, panics caught) or has been dropped unrun (its sender
            // dropped with it, which ends the loop once no job holds a sender). So no borrow is used after
            // 'a ends. The transmute changes only the lifetime of the trait object.
            let job: Job = unsafe {
                std::mem::transmute::<
                    Box<dyn FnOnce() + Send + 'a>,
                    Box<dyn FnOnce() + Send + 'static>,
                >(wrapped)
            };
            // A thread that is gone drops the job unrun, and with it its sender.
            let _ = self.threads[i].jobs.send(job);
        }
        drop(done_tx);
        while let Ok((i, r)) = done_rx.recv() {
            results[i] = r;
        }
        results
    }
}

impl Drop for ThreadPool {
    fn drop(&mut self) {
        for PoolThread { jobs, handle } in std::mem::take(&mut self.threads) {
            // Closing the channel ends the thread's loop.
            drop(jobs);
            let _ = handle.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn jobs_borrow_the_callers_data_and_threads_are_kept() {
        let mut pool = ThreadPool::new();
        let counter = AtomicUsize::new(0);
        let words = ["a".to_string(), "bb".to_string(), "ccc".to_string()];
        for round in 0..3 {
            let jobs: Vec<ScopedJob<'_, usize>> = words
                .iter()
                .map(|w| {
                    let counter = &counter;
                    Box::new(move || {
                        counter.fetch_add(1, Ordering::Relaxed);
                        w.len() + round
                    }) as ScopedJob<'_, usize>
                })
                .collect();
            let out = pool.run_scoped(jobs);
            assert_eq!(out, vec![Some(1 + round), Some(2 + round), Some(3 + round)]);
        }
        assert_eq!(counter.load(Ordering::Relaxed), 9);
        assert_eq!(pool.len(), 3);
        let names: Vec<Option<Option<String>>> = pool.run_scoped(
            (0..2)
                .map(|_| {
                    Box::new(|| std::thread::current().name().map(str::to_string))
                        as ScopedJob<'_, Option<String>>
                })
                .collect(),
        );
        assert_eq!(
            names,
            vec![Some(Some("search-0".into())), Some(Some("search-1".into()))]
        );
    }

    #[test]
    fn a_panicking_job_is_none_and_the_pool_goes_on() {
        let mut pool = ThreadPool::new();
        let out = pool.run_scoped(vec![
            Box::new(|| 1) as ScopedJob<'_, i32>,
            Box::new(|| panic!("job failed")),
        ]);
        assert_eq!(out, vec![Some(1), None]);
        let out = pool.run_scoped(vec![Box::new(|| 2) as ScopedJob<'_, i32>, Box::new(|| 3)]);
        assert_eq!(out, vec![Some(2), Some(3)]);
    }
}
