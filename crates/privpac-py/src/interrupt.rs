//! Ctrl-C while the lab runs a Python learner: the search stops within a trial and the
//! binding raises `KeyboardInterrupt` (not an error about the learner after the whole
//! search).
//!
//! CPython runs signal handlers only on the main thread, and only while it executes Python
//! code or calls `PyErr_CheckSignals`. The lab's searches run their trials on worker
//! threads with the GIL released, so without help a Ctrl-C would wait for the whole search.
//! [`MainThread::serve`] therefore runs the search on a scoped thread while the calling
//! (main) thread serves it: every call into the Python learner is sent to the calling
//! thread and runs there (so a Ctrl-C during a long `fit` interrupts the `fit` itself, as
//! in plain Python), and between calls, at least every [`POLL`], the calling thread runs
//! `Python::check_signals`. Once a call raises an exception that is not an `Exception`
//! (`KeyboardInterrupt`, `SystemExit`: the learner raised it or a signal handler did), or a
//! signal handler raises between calls, the flag [`MainThread::interrupted`] is set: every
//! later call fails at once without running Python code, the search ends with that error,
//! and the binding raises the original exception unchanged.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use pyo3::exceptions::{PyException, PyKeyboardInterrupt};
use pyo3::prelude::*;

/// How often the serving thread checks for signals while no call is pending.
pub(crate) const POLL: Duration = Duration::from_millis(50);

/// A call into Python, run by the serving thread; its argument says whether the run was
/// interrupted (then it must not run Python code).
type Job = Box<dyn FnOnce(Python<'_>, bool) + Send>;

/// What the worker sends the serving thread.
enum Message {
    Job(Job),
    Done,
}

/// The thread that serves a Python learner's calls during a search, and whether the
/// search was interrupted.
#[derive(Debug, Default)]
pub(crate) struct MainThread {
    sender: Mutex<Option<Sender<Message>>>,
    interrupted: AtomicBool,
}

impl std::fmt::Debug for Message {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Message::Job(_) => "Job",
            Message::Done => "Done",
        })
    }
}

/// Whether `error` stops the search rather than failing one call: an exception that is not
/// an `Exception` (`KeyboardInterrupt`, `SystemExit`, `GeneratorExit`).
pub(crate) fn is_interrupt(py: Python<'_>, error: &PyErr) -> bool {
    !error.is_instance_of::<PyException>(py)
}

/// The error of a call made after the run was interrupted (the search ends with it; the
/// binding raises the interrupt that caused it).
fn interrupted_error() -> PyErr {
    PyKeyboardInterrupt::new_err("the run was interrupted")
}

/// Sends `Done` when the worker ends, normally or by a panic.
struct DoneGuard(Sender<Message>);

impl Drop for DoneGuard {
    fn drop(&mut self) {
        let _ = self.0.send(Message::Done);
    }
}

impl MainThread {
    /// Whether the run was interrupted.
    pub(crate) fn interrupted(&self) -> bool {
        self.interrupted.load(Ordering::SeqCst)
    }

    /// Runs `f` under the GIL: on the serving thread while [`MainThread::serve`] runs (the
    /// caller must not hold the GIL then), else here. After an interrupt it fails at once.
    pub(crate) fn run<R: Send + 'static>(
        self: &Arc<Self>,
        f: impl FnOnce(Python<'_>) -> PyResult<R> + Send + 'static,
    ) -> PyResult<R> {
        if self.interrupted() {
            return Err(interrupted_error());
        }
        let this = Arc::clone(self);
        let checked = move |py: Python<'_>| {
            let out = f(py);
            if let Err(error) = &out
                && is_interrupt(py, error)
            {
                this.interrupted.store(true, Ordering::SeqCst);
            }
            out
        };
        let sender = self.sender.lock().ok().and_then(|slot| slot.clone());
        let Some(sender) = sender else {
            return Python::attach(checked);
        };
        let (reply, answer) = mpsc::sync_channel(1);
        let job: Job = Box::new(move |py, interrupted| {
            let out = if interrupted {
                Err(interrupted_error())
            } else {
                checked(py)
            };
            let _ = reply.send(out);
        });
        if sender.send(Message::Job(job)).is_err() {
            return Err(interrupted_error());
        }
        answer.recv().unwrap_or_else(|_| Err(interrupted_error()))
    }

    /// Runs `work` on a scoped thread while this (the calling) thread serves its calls into
    /// Python and checks for signals between them. Returns `work`'s result, or the
    /// exception a signal handler raised between calls (the run is then interrupted:
    /// `work`'s later calls fail at once, and it is awaited before returning).
    pub(crate) fn serve<R: Send>(
        &self,
        py: Python<'_>,
        work: impl FnOnce() -> R + Send,
    ) -> PyResult<R> {
        let (sender, mut receiver) = mpsc::channel();
        if let Ok(mut slot) = self.sender.lock() {
            *slot = Some(sender.clone());
        }
        let (out, caught) = std::thread::scope(|scope| {
            let worker = scope.spawn(move || {
                let _done = DoneGuard(sender);
                work()
            });
            let mut caught = None;
            loop {
                let (message, back) = py.detach(move || (receiver.recv_timeout(POLL), receiver));
                receiver = back;
                match message {
                    Ok(Message::Job(job)) => job(py, self.interrupted()),
                    Ok(Message::Done) | Err(RecvTimeoutError::Disconnected) => break,
                    Err(RecvTimeoutError::Timeout) => {}
                }
                if caught.is_none()
                    && let Err(error) = py.check_signals()
                {
                    self.interrupted.store(true, Ordering::SeqCst);
                    caught = Some(error);
                }
            }
            let out = py.detach(|| worker.join());
            (out, caught)
        });
        if let Ok(mut slot) = self.sender.lock() {
            *slot = None;
        }
        let out = out.unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        match caught {
            Some(error) => Err(error),
            None => Ok(out),
        }
    }
}
