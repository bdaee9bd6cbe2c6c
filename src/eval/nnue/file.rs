//! The network file, in YaneuraOu's layout (every number little-endian):
//!
//! ```text
//! u32  version            0x7AF32F16
//! u32  hash               transformer hash ^ layers hash (see `Architecture`)
//! u32  n, then n bytes    description (informative only: trainers write what they like)
//! u32  transformer hash
//! i16  biases[L1]
//! i16  weights[125388][L1]          feature by feature
//! u32  layers hash
//! i32  biases[L2],  i8 weights[L2][pad32(2 L1)]     first hidden layer, output by output
//! i32  biases[L3],  i8 weights[L3][pad32(L2)]       second hidden layer
//! i32  bias,        i8 weights[pad32(L3)]           output
//! ```
//! nothing after it. The shape is known from the header's hash and the file's size, never from the
//! description; a hash that matches no known shape while the size matches one is read as that
//! shape with a warning, as YaneuraOu does.
//!
//! One thing is read from the description: Tokin's residual networks (`tokin learn --residual`)
//! say so there ([`RESIDUAL_MARK`]). Such a network is a correction to Tokin's hand-written
//! evaluation, which is added to its output; the file is otherwise standard (other engines load
//! it, but its numbers alone mean nothing to them).

use super::architecture::{padded, Architecture, FILE_VERSION};
use super::features::DIMENSIONS;
use crate::large_table::LargeTable;
use std::fs::File;
use std::io::{self, BufReader, Read, Write};
use std::path::{Path, PathBuf};

/// What the description of a residual network holds (after the shape's description).
pub const RESIDUAL_MARK: &str = "Tokin residual network: add Tokin's hand-written evaluation";

/// Descriptions longer than this are skipped unread (no trainer writes one; a residual mark is
/// never that far in).
const DESCRIPTION_READ_LIMIT: u64 = 1 << 16;

/// The parameters of a network in the file's order and layout.
pub struct RawNetwork {
    pub architecture: Architecture,
    /// A correction to the hand-written evaluation rather than a whole evaluation.
    pub residual: bool,
    /// `l1` values.
    pub transformer_biases: Vec<i16>,
    /// `DIMENSIONS` rows of `l1`.
    pub transformer_weights: LargeTable<i16>,
    /// `l2` values.
    pub hidden1_biases: Vec<i32>,
    /// `l2` rows of `padded(2 l1)`.
    pub hidden1_weights: Vec<i8>,
    pub hidden2_biases: Vec<i32>,
    /// `l3` rows of `padded(l2)`.
    pub hidden2_weights: Vec<i8>,
    pub output_bias: i32,
    /// `padded(l3)` values.
    pub output_weights: Vec<i8>,
}

/// What is wrong with a network file.
#[derive(Debug, thiserror::Error)]
pub enum NetworkError {
    #[error("no file name given")]
    EmptyPath,
    #[error("cannot open it: {0}")]
    Open(io::Error),
    #[error("it is a directory, not a network file")]
    Directory,
    #[error("reading failed: {0}")]
    Read(io::Error),
    #[error("{size} bytes is too short for a network header")]
    TooShort { size: u64 },
    #[error(
        "not a YaneuraOu NNUE file: its version word is 0x{found:08X}, not 0x{FILE_VERSION:08X}"
    )]
    Version { found: u32 },
    #[error("truncated: its description length ({len} bytes) runs past the end of the file ({size} bytes)")]
    Description { len: u64, size: u64 },
    #[error(
        "truncated: a {architecture} file with this header has {expected} bytes, this one {size}"
    )]
    Truncated {
        architecture: Architecture,
        expected: u64,
        size: u64,
    },
    #[error("{extra} bytes follow the end of the {architecture} network ({expected} bytes)")]
    TrailingBytes {
        architecture: Architecture,
        expected: u64,
        extra: u64,
    },
    #[error("unknown architecture: hash 0x{hash:08X} and {size} bytes match no network this build reads ({known})")]
    UnknownArchitecture { hash: u32, size: u64, known: String },
    #[error("not enough memory for a {0} network")]
    Memory(Architecture),
    #[error("{0}")]
    Shape(super::network::ShapeError),
}

/// A failed load: the file and what was wrong with it.
#[derive(Debug, thiserror::Error)]
#[error("{}: {error}", path.display())]
pub struct LoadError {
    pub path: PathBuf,
    pub error: NetworkError,
}

/// A network read from a file, with the warnings its header raised.
pub struct Loaded {
    pub raw: RawNetwork,
    pub warnings: Vec<String>,
}

impl RawNetwork {
    /// All parameters zero, or `None` when memory is short.
    pub fn zeroed(architecture: Architecture) -> Option<RawNetwork> {
        let Architecture { l1, l2, l3 } = architecture;
        Some(RawNetwork {
            architecture,
            residual: false,
            transformer_biases: vec![0; l1],
            transformer_weights: LargeTable::try_zeroed(DIMENSIONS * l1)?,
            hidden1_biases: vec![0; l2],
            hidden1_weights: vec![0; l2 * padded(2 * l1)],
            hidden2_biases: vec![0; l3],
            hidden2_weights: vec![0; l3 * padded(l2)],
            output_bias: 0,
            output_weights: vec![0; padded(l3)],
        })
    }

    /// Seeded random parameters for tests, benchmarks and comparisons with other engines:
    /// transformer weights within `+-spread` (about 24 keeps the accumulators near the clipping
    /// range, as in a trained network; thousands make them wrap around int16), the layers' weights
    /// over all of int8 (their padding zero, as trainers write it). `None` when memory is short.
    pub fn random(architecture: Architecture, seed: u64, spread: i16) -> Option<RawNetwork> {
        let mut raw = RawNetwork::zeroed(architecture)?;
        let mut rng = crate::rng::Rng::new(seed);
        let mut between = |lo: i64, hi: i64| lo + (rng.next() % (hi - lo + 1) as u64) as i64;
        for b in raw.transformer_biases.iter_mut() {
            *b = between(-10, 60) as i16;
        }
        let spread = i64::from(spread);
        for w in raw.transformer_weights.iter_mut() {
            *w = between(-spread, spread) as i16;
        }
        let Architecture { l1, l2, l3 } = architecture;
        for (biases, weights, inputs) in [
            (&mut raw.hidden1_biases, &mut raw.hidden1_weights, 2 * l1),
            (&mut raw.hidden2_biases, &mut raw.hidden2_weights, l2),
        ] {
            for b in biases.iter_mut() {
                *b = between(-3000, 3000) as i32;
            }
            for (i, w) in weights.iter_mut().enumerate() {
                *w = if i % padded(inputs) < inputs {
                    between(-128, 127) as i8
                } else {
                    0
                };
            }
        }
        for (i, w) in raw.output_weights.iter_mut().enumerate() {
            *w = if i < l3 { between(-128, 127) as i8 } else { 0 };
        }
        raw.output_bias = between(-2000, 2000) as i32;
        Some(raw)
    }

    /// Reads the network file at `path` (any of `supported` shapes).
    pub fn load(path: &Path, supported: &[Architecture]) -> Result<Loaded, LoadError> {
        let fail = |error| LoadError {
            path: path.to_path_buf(),
            error,
        };
        if path.as_os_str().is_empty() {
            return Err(fail(NetworkError::EmptyPath));
        }
        if path.is_dir() {
            return Err(fail(NetworkError::Directory));
        }
        let file = File::open(path).map_err(|e| fail(NetworkError::Open(e)))?;
        let size = file
            .metadata()
            .map_err(|e| fail(NetworkError::Read(e)))?
            .len();
        RawNetwork::read(BufReader::with_capacity(1 << 20, file), size, supported).map_err(fail)
    }

    /// Reads a network of `size` bytes from `r`.
    pub fn read(
        mut r: impl Read,
        size: u64,
        supported: &[Architecture],
    ) -> Result<Loaded, NetworkError> {
        if size < 12 {
            return Err(NetworkError::TooShort { size });
        }
        let mut reader = Reader { r: &mut r };
        let header_error = |e: io::Error| match e.kind() {
            io::ErrorKind::UnexpectedEof => NetworkError::TooShort { size },
            _ => NetworkError::Read(e),
        };
        let version = reader.u32().map_err(header_error)?;
        if version != FILE_VERSION {
            return Err(NetworkError::Version { found: version });
        }
        let hash = reader.u32().map_err(header_error)?;
        let len = u64::from(reader.u32().map_err(header_error)?);
        if 12 + len > size {
            return Err(NetworkError::Description { len, size });
        }
        let mut warnings = Vec::new();
        let description_len = len as usize;
        let architecture = identify(hash, size, description_len, supported, &mut warnings)?;
        let truncated = |_| NetworkError::Truncated {
            architecture,
            expected: architecture.file_size(description_len),
            size,
        };
        let residual = if len <= DESCRIPTION_READ_LIMIT {
            let mut description = vec![0u8; len as usize];
            reader.r.read_exact(&mut description).map_err(truncated)?;
            String::from_utf8_lossy(&description).contains(RESIDUAL_MARK)
        } else {
            reader.skip(len).map_err(truncated)?;
            false
        };
        let mut raw = RawNetwork::zeroed(architecture).ok_or(NetworkError::Memory(architecture))?;
        raw.residual = residual;
        let mut section = |reader: &mut Reader<'_>, expected: u32, what: &str| -> io::Result<()> {
            let found = reader.u32()?;
            if found != expected {
                warnings.push(format!(
                    "the {what} hash is 0x{found:08X}, not the 0x{expected:08X} of {architecture}"
                ));
            }
            Ok(())
        };
        let mut body = |reader: &mut Reader<'_>, raw: &mut RawNetwork| -> io::Result<()> {
            section(
                reader,
                architecture.transformer_hash(),
                "feature transformer",
            )?;
            reader.i16s(&mut raw.transformer_biases)?;
            reader.i16s(&mut raw.transformer_weights)?;
            section(reader, architecture.layers_hash(), "layers")?;
            reader.i32s(&mut raw.hidden1_biases)?;
            reader.i8s(&mut raw.hidden1_weights)?;
            reader.i32s(&mut raw.hidden2_biases)?;
            reader.i8s(&mut raw.hidden2_weights)?;
            let mut bias = [0i32];
            reader.i32s(&mut bias)?;
            raw.output_bias = bias[0];
            reader.i8s(&mut raw.output_weights)
        };
        body(&mut reader, &mut raw).map_err(|e| match e.kind() {
            io::ErrorKind::UnexpectedEof => truncated(e),
            _ => NetworkError::Read(e),
        })?;
        // The size said so, but the file may have grown since, or `size` may be wrong.
        let mut extra = [0u8; 1];
        match reader.r.read(&mut extra) {
            Ok(0) => {}
            Ok(_) => {
                let expected = architecture.file_size(description_len);
                return Err(NetworkError::TrailingBytes {
                    architecture,
                    expected,
                    extra: size.saturating_sub(expected).max(1),
                });
            }
            Err(e) => return Err(NetworkError::Read(e)),
        }
        Ok(Loaded { raw, warnings })
    }

    /// Writes the network in the file layout, with YaneuraOu's description of its shape (and the
    /// residual mark after it, for a residual network).
    pub fn write(&self, mut w: impl Write) -> io::Result<()> {
        let a = self.architecture;
        let mut description = a.description();
        if self.residual {
            description.push_str(" | ");
            description.push_str(RESIDUAL_MARK);
        }
        w.write_all(&FILE_VERSION.to_le_bytes())?;
        w.write_all(&a.file_hash().to_le_bytes())?;
        w.write_all(&(description.len() as u32).to_le_bytes())?;
        w.write_all(description.as_bytes())?;
        w.write_all(&a.transformer_hash().to_le_bytes())?;
        write_values(&mut w, &self.transformer_biases, i16::to_le_bytes)?;
        write_values(&mut w, &self.transformer_weights, i16::to_le_bytes)?;
        w.write_all(&a.layers_hash().to_le_bytes())?;
        write_values(&mut w, &self.hidden1_biases, i32::to_le_bytes)?;
        write_values(&mut w, &self.hidden1_weights, i8::to_le_bytes)?;
        write_values(&mut w, &self.hidden2_biases, i32::to_le_bytes)?;
        write_values(&mut w, &self.hidden2_weights, i8::to_le_bytes)?;
        w.write_all(&self.output_bias.to_le_bytes())?;
        write_values(&mut w, &self.output_weights, i8::to_le_bytes)?;
        w.flush()
    }
}

/// The shape of a file from its header hash and its size.
fn identify(
    hash: u32,
    size: u64,
    description_len: usize,
    supported: &[Architecture],
    warnings: &mut Vec<String>,
) -> Result<Architecture, NetworkError> {
    if let Some(&architecture) = supported.iter().find(|a| a.file_hash() == hash) {
        let expected = architecture.file_size(description_len);
        return match size.cmp(&expected) {
            std::cmp::Ordering::Less => Err(NetworkError::Truncated {
                architecture,
                expected,
                size,
            }),
            std::cmp::Ordering::Greater => Err(NetworkError::TrailingBytes {
                architecture,
                expected,
                extra: size - expected,
            }),
            std::cmp::Ordering::Equal => Ok(architecture),
        };
    }
    match supported
        .iter()
        .find(|a| a.file_size(description_len) == size)
    {
        Some(&architecture) => {
            warnings.push(format!(
                "the header hash 0x{hash:08X} is not the 0x{:08X} of {architecture}; \
                 read as {architecture} from the file's size",
                architecture.file_hash()
            ));
            Ok(architecture)
        }
        None => Err(NetworkError::UnknownArchitecture {
            hash,
            size,
            known: supported
                .iter()
                .map(|a| format!("{a}: hash 0x{:08X}", a.file_hash()))
                .collect::<Vec<_>>()
                .join(", "),
        }),
    }
}

fn write_values<T: Copy, const N: usize>(
    w: &mut impl Write,
    values: &[T],
    to_le: fn(T) -> [u8; N],
) -> io::Result<()> {
    let mut buf = Vec::with_capacity(values.len().min(1 << 16) * N);
    for chunk in values.chunks(1 << 16) {
        buf.clear();
        for &v in chunk {
            buf.extend_from_slice(&to_le(v));
        }
        w.write_all(&buf)?;
    }
    Ok(())
}

struct Reader<'a> {
    r: &'a mut dyn Read,
}

impl Reader<'_> {
    fn u32(&mut self) -> io::Result<u32> {
        let mut b = [0u8; 4];
        self.r.read_exact(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    fn skip(&mut self, n: u64) -> io::Result<()> {
        let copied = io::copy(&mut self.r.take(n), &mut io::sink())?;
        if copied < n {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        Ok(())
    }

    fn values<T, const N: usize>(
        &mut self,
        out: &mut [T],
        from_le: fn([u8; N]) -> T,
    ) -> io::Result<()> {
        let mut buf = vec![0u8; out.len().min(1 << 16) * N];
        for chunk in out.chunks_mut(1 << 16) {
            let bytes = &mut buf[..chunk.len() * N];
            self.r.read_exact(bytes)?;
            for (v, b) in chunk.iter_mut().zip(bytes.chunks_exact(N)) {
                *v = from_le(b.try_into().expect("N bytes"));
            }
        }
        Ok(())
    }

    fn i16s(&mut self, out: &mut [i16]) -> io::Result<()> {
        self.values(out, i16::from_le_bytes)
    }

    fn i32s(&mut self, out: &mut [i32]) -> io::Result<()> {
        self.values(out, i32::from_le_bytes)
    }

    fn i8s(&mut self, out: &mut [i8]) -> io::Result<()> {
        self.values(out, i8::from_le_bytes)
    }
}
