//! The network built into the binary: what plays when no network file is configured (`EvalDir`
//! `<internal>`, the default). It is a file of `networks/` compressed with zlib (the build
//! includes its bytes), read once at the first `isready` that needs it (never before `usiok`:
//! clients time the handshake) and shared by every search after.
//!
//! `networks/README.md` says how it was made and what it measured; a network is kept there only
//! when it beat the evaluation it replaces in games at a real clock.

use super::file::{NetworkError, RawNetwork};
use super::{AnyNetwork, SUPPORTED};
use std::sync::OnceLock;

/// The file's name in `networks/`, for messages.
pub const NAME: &str = "networks/builtin.nn.bin.zlib";

/// The built-in network's file, zlib-compressed.
static COMPRESSED: &[u8] = include_bytes!("../../../networks/builtin.nn.bin.zlib");

/// No supported network is larger than this once inflated (the standard shape is 64 MB).
const INFLATED_LIMIT: usize = 80 << 20;

/// Why the built-in network cannot be used (a build from damaged sources; never expected).
#[derive(Clone, Debug, thiserror::Error)]
pub enum BuiltInError {
    #[error("{NAME} does not inflate: {0}")]
    Inflate(String),
    #[error("{NAME}: {0}")]
    Network(String),
}

/// The built-in network, inflated and read at the first call.
pub fn network() -> Result<AnyNetwork, BuiltInError> {
    static NETWORK: OnceLock<Result<AnyNetwork, BuiltInError>> = OnceLock::new();
    NETWORK.get_or_init(read).clone()
}

fn read() -> Result<AnyNetwork, BuiltInError> {
    let bytes = miniz_oxide::inflate::decompress_to_vec_zlib_with_limit(COMPRESSED, INFLATED_LIMIT)
        .map_err(|e| BuiltInError::Inflate(format!("{:?}", e.status)))?;
    let network_error = |e: NetworkError| BuiltInError::Network(e.to_string());
    let loaded =
        RawNetwork::read(&bytes[..], bytes.len() as u64, SUPPORTED).map_err(network_error)?;
    if let Some(warning) = loaded.warnings.first() {
        return Err(BuiltInError::Network(warning.clone()));
    }
    AnyNetwork::from_raw(loaded.raw).map_err(|e| network_error(NetworkError::Shape(e)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Position, Variant};
    use crate::eval::{Evaluator, HandWritten};

    /// The built-in network reads without a warning, is the residual kind it is documented to
    /// be, and corrects the hand-written evaluation by amounts a trained network does (tens of
    /// points, not zero and not thousands) on the start position and after a few moves.
    #[test]
    fn the_built_in_network_reads_and_corrects_the_hand_written_evaluation() {
        crate::core::attacks::init();
        let network = network().expect("the built-in network reads");
        assert!(network.residual());
        assert_eq!(network.architecture().to_string(), "HalfKP 64x2-32-32");
        let mut pos = Position::startpos(Variant::Shogi);
        let mut corrections = Vec::new();
        for m in ["7g7f", "3c3d", "2g2f", "8c8d", "2f2e"] {
            pos.do_move(pos.parse_usi_move(m).expect("a legal move"));
            let hand = HandWritten.evaluate_fresh(&pos);
            let sum = network.evaluate(&pos, 16).expect("both kings");
            corrections.push(sum - hand);
        }
        assert!(
            corrections.iter().any(|&c| c != 0) && corrections.iter().all(|c| c.abs() < 1000),
            "{corrections:?}"
        );
    }
}
