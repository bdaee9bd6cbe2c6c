//! The rules of the game: types, bitboards, attack tables, positions, move generation, SFEN and
//! the packed SFEN of training records.
//! No search, no I/O, no threads live here.

pub mod attacks;
pub mod bitboard;
pub mod csa;
pub mod movegen;
pub mod outcome;
pub mod packed_sfen;
pub mod position;
pub mod sfen;
pub mod stack_vec;
pub mod types;
pub mod variant;
mod zobrist;

pub use bitboard::Bitboard;
pub use movegen::{MoveList, MAX_MOVES};
pub use outcome::{outcome, DrawReason, Outcome, WinReason};
pub use position::{EnteringKingRule, GameResult, MoveError, Position, PositionError, Repetition};
pub use types::{Color, Hand, HandKind, Move, Piece, PieceKind, Square};
pub use variant::Variant;
