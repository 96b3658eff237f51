//! make bench's Rust row: `Store::send` against Rust's FFI floor (libc's `abs` through `extern
//! "C"`, behind `black_box`), samples interleaved in one run; one JSON row for Benchmarks/run.py.
//!
//!     cargo run --offline --release --example bench
use std::time::Instant;

/// Keeps the optimizer from seeing through a value (std::hint::black_box, for older toolchains).
fn black_box<T>(value: T) -> T {
    // SAFETY: reads `value` once and forgets the original: a move the compiler cannot follow.
    unsafe {
        let copy = std::ptr::read_volatile(&value);
        std::mem::forget(value);
        copy
    }
}

extern "C" {
    fn abs(value: i32) -> i32;
}

fn time_ns(body: &mut dyn FnMut(u64), n: u64) -> f64 {
    let start = Instant::now();
    body(n);
    start.elapsed().as_nanos() as f64 / n as f64
}

fn side(label: &str, kind: &str, mut samples: Vec<f64>, iterations: u64) -> String {
    samples.sort_by(|a, b| a.partial_cmp(b).unwrap());
    format!(
        r#"{{"label":"{}","kind":"{}","median":{:.3},"min":{:.3},"max":{:.3},"samples":{},"iterations":{}}}"#,
        label, kind, samples[samples.len() / 2], samples[0], samples[samples.len() - 1], samples.len(), iterations
    )
}

fn main() {
    let env = |name: &str, default: u64| std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default);
    let samples = env("BENCH_SAMPLES", 41).max(3);
    let sample_ms = env("BENCH_SAMPLE_MS", 120).max(1) as f64;
    let store = tca::Store::new("counter").expect("counter");
    let mut ours = |n: u64| {
        for _ in 0..n {
            store.send(black_box(r#""incrementButtonTapped""#)).expect("send");
        }
    };
    let mut sink = 0i32;
    // NB: through a function pointer, as every binding's call is: LLVM would inline a direct abs.
    let abs_fn: unsafe extern "C" fn(i32) -> i32 = black_box(abs);
    let mut floor = |n: u64| {
        for i in 0..n {
            sink = sink.wrapping_add(unsafe { black_box(abs_fn)(black_box(i as i32)) });
        }
    };
    let n_ours = ((sample_ms * 1e6) / time_ns(&mut ours, 1000).max(0.1)).max(1000.0) as u64;
    let n_floor = ((sample_ms * 1e6) / time_ns(&mut floor, 1000).max(0.1)).max(1000.0) as u64;
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for _ in 0..samples {
        a.push(time_ns(&mut ours, n_ours));
        b.push(time_ns(&mut floor, n_floor));
    }
    println!(
        r#"{{"group":"Bindings","workload":"Rust tca::Store::send \"incrementButtonTapped\" (counter)","unit":"ns/op","note":"bindings/rust, release; floor: libc abs() through an extern C fn pointer","target":{{"floor_plus_c_send":1.2}},"ours":{},"alt":{}}}"#,
        side("tca::Store::send", "ours", a, n_ours),
        side("Rust extern C abs() (floor)", "floor", b, n_floor)
    );
    black_box(sink);
}
