//! `Options`: how a store is made (`Store::with_options`, `tca::replay_with_options`).

use crate::sys;

/// Store options: `Options::new().manual_clock().queued().seed(7)`.
///
/// No `threaded` store: its own thread would call the store's closures, which are not `Send`.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub(crate) raw: sys::tca_options,
}

impl Default for Options {
    fn default() -> Options {
        Options::new()
    }
}

impl Options {
    /// The defaults (`tca_options_init`): a real clock, requests through `on_request`, a system
    /// seed, no journal.
    pub fn new() -> Options {
        let mut raw = sys::tca_options {
            version: 0,
            clock: 0,
            threaded: 0,
            requests: 0,
            seed: 0,
            answers: 0,
            record: 0,
            record_limit: 0,
            shared: 0,
            reserved32: 0,
            reserved: [0; 2],
        };
        // SAFETY: raw is a valid tca_options.
        unsafe { sys::tca_options_init(&mut raw) };
        Options { raw }
    }
    /// Time stands still until `Store::advance` (game loops, tests).
    pub fn manual_clock(mut self) -> Options {
        self.raw.clock = sys::TCA_CLOCK_MANUAL;
        self
    }
    /// Pull mode: requests wait in the store until `Store::take_requests`.
    pub fn queued(mut self) -> Options {
        self.raw.requests = sys::TCA_REQUESTS_QUEUED;
        self
    }
    /// The random seed (dice): same seed, same actions, same states.
    pub fn seed(mut self, seed: u64) -> Options {
        self.raw.seed = seed;
        self
    }
    /// Answers are applied by the host's next poll, send or advance, never by the call that
    /// gives them.
    pub fn answers_on_host_thread(mut self) -> Options {
        self.raw.answers = sys::TCA_ANSWERS_HOST_THREAD;
        self
    }
    /// Keeps a journal of every input (`Store::journal`, `tca::replay`) and allows the
    /// reductions log (`Store::log_reductions`).
    pub fn record(mut self) -> Options {
        self.raw.record = 1;
        self
    }
    /// With `record`: how many journal lines to keep (0: all); older ones fold into a
    /// checkpoint (docs/wire-format.md, "Checkpoints").
    pub fn record_limit(mut self, lines: u64) -> Options {
        self.raw.record_limit = lines;
        self
    }
    /// The state's shared fields are this store's own: no other store of the process sees its
    /// changes, nor it theirs (tests side by side; docs/kernel.md, "Shared state").
    pub fn isolated_shared(mut self) -> Options {
        self.raw.shared = sys::TCA_SHARED_ISOLATED;
        self
    }
    /// The C struct, for `sys` calls.
    pub fn as_raw(&self) -> &sys::tca_options {
        &self.raw
    }
}
