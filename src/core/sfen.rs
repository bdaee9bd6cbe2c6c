//! SFEN text in and out, as an unvalidated-for-movement [`Setup`].
//!
//! PLACEHOLDER: the parser and writer are being written; only the type is settled.

use super::types::{Color, Hand, Piece};
use super::variant::Variant;

/// What an SFEN string holds: pieces on squares, hands, side to move, move number.
///
/// A `Setup` that `Setup::parse` returned is physically possible (piece counts within the set, no piece
/// on a square where it could never move again, only squares the variant's board has, no two unpromoted
/// pawns of one side on a file); `Position::from_setup` adds what needs attack tables (the side not to
/// move must not be in check).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub variant: Variant,
    /// Indexed by `Square::index()`.
    pub board: [Option<Piece>; 81],
    /// Indexed by `Color::index()`.
    pub hands: [Hand; 2],
    pub side_to_move: Color,
    /// The SFEN move number (1 when absent).
    pub move_number: u32,
}

/// What is wrong with an SFEN.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SfenError {
    #[error("empty SFEN")]
    Empty,
}

impl Setup {
    pub fn parse(_sfen: &str, _variant: Variant) -> Result<Setup, SfenError> {
        todo!("SFEN parser")
    }

    pub fn to_sfen(&self) -> String {
        todo!("SFEN writer")
    }
}
