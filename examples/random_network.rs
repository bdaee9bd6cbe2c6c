//! Writes a network of seeded random weights in YaneuraOu's standard layout (HalfKP 256x2-32-32,
//! 64,217,066 bytes): for comparing Tokin's evaluation and speed with another engine's on the same
//! file, and for the NNUE bench signature, without a trained network at hand.
//!
//! ```sh
//! cargo run --release --example random_network -- --seed 1 --out /tmp/rand1/nn.bin
//! ```
//! The weights are small enough that accumulators stay near the clipping range, as in a trained
//! network, so every layer's arithmetic is exercised.

use std::path::PathBuf;
use std::process::ExitCode;
use tokin::eval::nnue::{Architecture, RawNetwork};

fn main() -> ExitCode {
    let mut seed = 1u64;
    let mut out: Option<PathBuf> = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match (arg.as_str(), args.next()) {
            ("--seed", Some(v)) => match v.parse() {
                Ok(s) => seed = s,
                Err(_) => return fail(&format!("--seed expects a number, got '{v}'")),
            },
            ("--out", Some(v)) => out = Some(PathBuf::from(v)),
            _ => return fail("usage: random_network [--seed N] --out FILE"),
        }
    }
    let Some(out) = out else {
        return fail("usage: random_network [--seed N] --out FILE");
    };
    let Some(raw) = RawNetwork::random(Architecture::STANDARD, seed, 24) else {
        return fail("not enough memory");
    };
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        if let Err(e) = std::fs::create_dir_all(dir) {
            return fail(&format!("{}: {e}", dir.display()));
        }
    }
    let written = std::fs::File::create(&out)
        .map(std::io::BufWriter::new)
        .and_then(|w| raw.write(w));
    match written {
        Ok(()) => {
            println!("{}: {}, seed {seed}", out.display(), raw.architecture);
            ExitCode::SUCCESS
        }
        Err(e) => fail(&format!("{}: {e}", out.display())),
    }
}

fn fail(message: &str) -> ExitCode {
    eprintln!("random_network: {message}");
    ExitCode::FAILURE
}
