//! The rules of the game: types, bitboards, attack tables, positions, move generation, SFEN.
//! No search, no I/O, no threads live here.

pub mod attacks;
pub mod bitboard;
pub mod sfen;
pub mod types;
pub mod variant;

pub use bitboard::Bitboard;
pub use types::{Color, Hand, HandKind, Move, Piece, PieceKind, Square};
pub use variant::Variant;
