//! YaneuraOu's packed SFEN: a standard shogi position in exactly 256 bits (32 bytes), the position
//! part of the field's training records (`PackedSfenValue`, see `crate::psv`).
//!
//! Layout (facts from YaneuraOu's `source/extra/sfen_packer.cpp`, cross-checked with cshogi's
//! `Position::toPackedSfen`/`set_psfen` and with files cshogi wrote, `tests/psv_cshogi.rs`):
//!
//! - Bits are written least significant first: stream bit `i` is bit `i % 8` of byte `i / 8`, and
//!   a code `c` of `n` bits is written as its bits 0, 1, ..., n-1.
//! - 1 bit side to move (0 Black, 1 White); 7 bits Black's king square, 7 bits White's (the
//!   square index as in [`Square`]: `(file - 1) * 9 + (rank - 1)`, which is YaneuraOu's `SQ_11 = 0`
//!   order too). Both kings must be on the board: YaneuraOu writes 81 for a missing king (mate
//!   problems), but then its square counts as an empty one and the stream needs 257 bits, so such
//!   a position has no packed form.
//! - Every square `0..81` in index order except the two kings' squares: 1 bit `0` for an empty
//!   square, else the piece's code, then (not for gold) 1 promotion bit, then 1 colour bit.
//! - Then the pieces in hand, Black's then White's, each kind in the order pawn, lance, knight,
//!   silver, gold, bishop, rook (Apery's order, which YaneuraOu adopted so its bytes equal
//!   cshogi's): the board code without its first bit (always 1 for a piece), a promotion bit 0 (not
//!   for gold), the colour bit.
//! - Then the piece box: pieces of the 40-piece set that are neither on the board nor in hand
//!   (handicap positions), in the same kind order: the hand code with the promotion bit 1 and the
//!   colour bit 0; a gold, which has no promotion bit, is written as a White promoted silver.
//!
//! Every piece costs the same number of bits wherever it is (a piece on the board costs one bit
//! more than in hand, and its square, now empty, one bit less), so any position of the 40 pieces
//! fills the 256 bits exactly.
//!
//! Piece codes, as bits in the order they are written (YaneuraOu's `huffman_table` holds the same
//! codes as numbers: pawn `0x01` in 2 bits, lance `0x03`, knight `0x0b`, silver `0x07` in 4, gold
//! `0x0f` in 5, bishop `0x1f`, rook `0x3f` in 6), then what follows them:
//!
//! | kind   | on the board        | in hand           | in the piece box            |
//! |--------|---------------------|-------------------|-----------------------------|
//! | pawn   | `1 0` p c           | `0` 0 c           | `0` 1 0                     |
//! | lance  | `1 1 0 0` p c       | `1 0 0` 0 c       | `1 0 0` 1 0                 |
//! | knight | `1 1 0 1` p c       | `1 0 1` 0 c       | `1 0 1` 1 0                 |
//! | silver | `1 1 1 0` p c       | `1 1 0` 0 c       | `1 1 0` 1 0                 |
//! | gold   | `1 1 1 1 0` c       | `1 1 1 0` c       | `1 1 0` 1 1 (a White `+S`)  |
//! | bishop | `1 1 1 1 1 0` p c   | `1 1 1 1 0` 0 c   | `1 1 1 1 0` 1 0             |
//! | rook   | `1 1 1 1 1 1` p c   | `1 1 1 1 1` 0 c   | `1 1 1 1 1` 1 0             |
//!
//! (`p` the promotion bit, `c` the colour bit: 1 for White.) The kind codes form a
//! complete prefix code, so every bit string decodes; a bad record shows as a code cut off by the
//! 256th bit, impossible king squares, wrong piece counts, or a physically impossible position.

use super::position::{Position, PositionError};
use super::sfen::{Setup, SfenError};
use super::types::{Color, Hand, HandKind, Piece, PieceKind, Square};
use super::variant::Variant;

/// Bytes of a packed SFEN.
pub const PACKED_SFEN_BYTES: usize = 32;
const TOTAL_BITS: u32 = 8 * PACKED_SFEN_BYTES as u32;

/// Hand kinds in the order the hands and the piece box are written (Apery's hand order).
const WRITE_ORDER: [HandKind; 7] = [
    HandKind::Pawn,
    HandKind::Lance,
    HandKind::Knight,
    HandKind::Silver,
    HandKind::Gold,
    HandKind::Bishop,
    HandKind::Rook,
];

/// A position packed in YaneuraOu's 256-bit layout (see the module doc).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PackedSfen(pub [u8; PACKED_SFEN_BYTES]);

const _: () = assert!(std::mem::size_of::<PackedSfen>() == PACKED_SFEN_BYTES);

impl std::fmt::Debug for PackedSfen {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for b in self.0 {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

/// Why a position cannot be packed, or 32 bytes are not a packed position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PackedSfenError {
    #[error("{variant} positions cannot be packed: the packed SFEN holds standard shogi's 9x9 board and 40 pieces")]
    NotStandardShogi { variant: Variant },
    #[error("{found} {kind:?}s on the board and in hand; the set has {max}")]
    TooManyPieces {
        kind: HandKind,
        found: u32,
        max: u32,
    },
    #[error("{0:?} has no king: the packed SFEN needs both kings on the board")]
    MissingKing(Color),
    #[error("{color:?}'s king square field is {value}: only 0-80 name squares")]
    BadKingSquare { color: Color, value: u32 },
    #[error("both kings stand on {0}")]
    KingsOnOneSquare(Square),
    #[error("the piece code starting at bit {start} runs past the 256th bit")]
    CodeCutOff { start: u32 },
    #[error("the piece-box code starting at bit {start} has colour bit 1, which only a gold's code (a promoted silver) may have")]
    BadBoxPiece { start: u32 },
    #[error(
        "{found} {kind:?}s on the board, in hand and in the piece box; the set has {expected}"
    )]
    WrongPieceCount {
        kind: HandKind,
        found: u32,
        expected: u32,
    },
    #[error("not a possible position: {0}")]
    Setup(SfenError),
    #[error("not a legal position: {0}")]
    Position(PositionError),
}

/// The board code of a kind (without promotion and colour bits): value, length.
const fn board_code(kind: HandKind) -> (u32, u32) {
    match kind {
        HandKind::Pawn => (0b01, 2),
        HandKind::Lance => (0b0011, 4),
        HandKind::Knight => (0b1011, 4),
        HandKind::Silver => (0b0111, 4),
        HandKind::Gold => (0b01111, 5),
        HandKind::Bishop => (0b011111, 6),
        HandKind::Rook => (0b111111, 6),
    }
}

/// The code in hand: the board code without its first bit (which is 1 for every piece).
const fn hand_code(kind: HandKind) -> (u32, u32) {
    let (code, bits) = board_code(kind);
    (code >> 1, bits - 1)
}

/// Gold has no promotion bit anywhere.
const fn has_promotion_bit(kind: HandKind) -> bool {
    !matches!(kind, HandKind::Gold)
}

struct BitWriter {
    data: [u8; PACKED_SFEN_BYTES],
    cursor: u32,
}

impl BitWriter {
    fn write(&mut self, code: u32, bits: u32) {
        for i in 0..bits {
            // Callers never exceed the 256 bits: `from_setup` checked the piece counts first.
            debug_assert!(self.cursor < TOTAL_BITS);
            if code >> i & 1 != 0 {
                self.data[(self.cursor / 8) as usize] |= 1 << (self.cursor % 8);
            }
            self.cursor += 1;
        }
    }

    fn write_bit(&mut self, bit: bool) {
        self.write(u32::from(bit), 1);
    }
}

struct BitReader {
    words: [u64; 4],
    cursor: u32,
    /// Where the code being read began (for error messages).
    start: u32,
}

impl BitReader {
    fn new(data: &[u8; PACKED_SFEN_BYTES]) -> BitReader {
        let mut words = [0u64; 4];
        for (w, chunk) in words.iter_mut().zip(data.chunks_exact(8)) {
            let mut bytes = [0u8; 8];
            bytes.copy_from_slice(chunk);
            *w = u64::from_le_bytes(bytes);
        }
        BitReader {
            words,
            cursor: 0,
            start: 0,
        }
    }

    fn bit(&mut self) -> Result<bool, PackedSfenError> {
        if self.cursor >= TOTAL_BITS {
            return Err(PackedSfenError::CodeCutOff { start: self.start });
        }
        let b = self.words[(self.cursor / 64) as usize] >> (self.cursor % 64) & 1;
        self.cursor += 1;
        Ok(b != 0)
    }

    fn bits(&mut self, n: u32) -> Result<u32, PackedSfenError> {
        let mut value = 0;
        for i in 0..n {
            value |= u32::from(self.bit()?) << i;
        }
        Ok(value)
    }

    /// A kind's hand code (also the rest of a board code after its leading 1); see the module
    /// doc's table: the codes are a complete prefix code.
    fn kind(&mut self) -> Result<HandKind, PackedSfenError> {
        Ok(if !self.bit()? {
            HandKind::Pawn
        } else if !self.bit()? {
            if !self.bit()? {
                HandKind::Lance
            } else {
                HandKind::Knight
            }
        } else if !self.bit()? {
            HandKind::Silver
        } else if !self.bit()? {
            HandKind::Gold
        } else if !self.bit()? {
            HandKind::Bishop
        } else {
            HandKind::Rook
        })
    }

    fn color(&mut self) -> Result<Color, PackedSfenError> {
        Ok(if self.bit()? {
            Color::White
        } else {
            Color::Black
        })
    }
}

/// The set's count of each kind: the standard 40 pieces less the kings.
fn full_count(kind: HandKind) -> u32 {
    kind.total_count()
}

impl PackedSfen {
    /// Packs a standard shogi position.
    pub fn from_position(pos: &Position) -> Result<PackedSfen, PackedSfenError> {
        PackedSfen::from_setup(&pos.to_setup())
    }

    /// Packs a setup (board, hands, side to move; the move number is not part of the format).
    /// Pieces of the set missing from board and hands go to the piece box.
    pub fn from_setup(setup: &Setup) -> Result<PackedSfen, PackedSfenError> {
        if setup.variant != Variant::Shogi {
            return Err(PackedSfenError::NotStandardShogi {
                variant: setup.variant,
            });
        }
        let mut kings = [None; 2];
        let mut counts = [0u32; 7];
        for sq in Square::all() {
            if let Some(piece) = setup.piece_on(sq) {
                match piece.kind().hand_kind() {
                    Some(kind) => counts[kind.index()] += 1,
                    None => kings[piece.color().index()] = Some(sq.index() as u32),
                }
            }
        }
        for color in Color::ALL {
            for (kind, n) in setup.hand(color).iter() {
                counts[kind.index()] += n;
            }
        }
        for kind in WRITE_ORDER {
            let (found, max) = (counts[kind.index()], full_count(kind));
            if found > max {
                return Err(PackedSfenError::TooManyPieces { kind, found, max });
            }
        }
        let mut king_fields = [0; 2];
        for color in Color::ALL {
            king_fields[color.index()] =
                kings[color.index()].ok_or(PackedSfenError::MissingKing(color))?;
        }

        let mut w = BitWriter {
            data: [0; PACKED_SFEN_BYTES],
            cursor: 0,
        };
        w.write_bit(setup.side_to_move == Color::White);
        w.write(king_fields[0], 7);
        w.write(king_fields[1], 7);
        for sq in Square::all() {
            match setup.piece_on(sq) {
                None => w.write_bit(false),
                Some(piece) => {
                    let Some(kind) = piece.kind().hand_kind() else {
                        continue; // a king: its square was written above
                    };
                    let (code, bits) = board_code(kind);
                    w.write(code, bits);
                    if has_promotion_bit(kind) {
                        w.write_bit(piece.kind().is_promoted());
                    }
                    w.write_bit(piece.color() == Color::White);
                }
            }
        }
        for color in Color::ALL {
            let hand = setup.hand(color);
            for kind in WRITE_ORDER {
                let (code, bits) = hand_code(kind);
                for _ in 0..hand.count(kind) {
                    w.write(code, bits);
                    if has_promotion_bit(kind) {
                        w.write_bit(false);
                    }
                    w.write_bit(color == Color::White);
                }
            }
        }
        for kind in WRITE_ORDER {
            for _ in counts[kind.index()]..full_count(kind) {
                if kind == HandKind::Gold {
                    // No promotion bit for gold: it borrows a White promoted silver's code.
                    let (code, bits) = hand_code(HandKind::Silver);
                    w.write(code, bits);
                    w.write_bit(true);
                    w.write_bit(true);
                } else {
                    let (code, bits) = hand_code(kind);
                    w.write(code, bits);
                    w.write_bit(true);
                    w.write_bit(false);
                }
            }
        }
        debug_assert_eq!(w.cursor, TOTAL_BITS, "40 pieces fill 256 bits exactly");
        Ok(PackedSfen(w.data))
    }

    /// The side to move, read from the first bit alone.
    pub fn side_to_move(&self) -> Color {
        if self.0[0] & 1 != 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// Unpacks into a setup (move number 1; the format has none) and checks that the position is
    /// physically possible (`Setup::validate`: no dead piece, no nifu, piece counts). Whether the
    /// side not to move is in check needs a [`Position`]: see [`PackedSfen::to_position`].
    pub fn to_setup(&self) -> Result<Setup, PackedSfenError> {
        let mut r = BitReader::new(&self.0);
        let mut setup = Setup::empty(Variant::Shogi);
        setup.side_to_move = r.color()?;
        let mut king_squares: [Option<Square>; 2] = [None; 2];
        for color in Color::ALL {
            let value = r.bits(7)?;
            let sq = u8::try_from(value)
                .ok()
                .and_then(Square::from_index)
                .ok_or(PackedSfenError::BadKingSquare { color, value })?;
            if king_squares[0] == Some(sq) {
                return Err(PackedSfenError::KingsOnOneSquare(sq));
            }
            king_squares[color.index()] = Some(sq);
            setup.board[sq.index()] = Some(Piece::new(color, PieceKind::King));
        }

        let mut counts = [0u32; 7];
        for sq in Square::all() {
            if setup.board[sq.index()].is_some() {
                continue; // a king
            }
            r.start = r.cursor;
            if !r.bit()? {
                continue;
            }
            let kind = r.kind()?;
            let promoted = has_promotion_bit(kind) && r.bit()?;
            let color = r.color()?;
            let base = kind.piece_kind();
            let piece_kind = match base.promoted() {
                Some(p) if promoted => p,
                _ => base,
            };
            setup.board[sq.index()] = Some(Piece::new(color, piece_kind));
            counts[kind.index()] += 1;
        }

        let mut hands = [[0u32; 7]; 2];
        while r.cursor < TOTAL_BITS {
            r.start = r.cursor;
            let kind = r.kind()?;
            let in_box = has_promotion_bit(kind) && r.bit()?;
            let color = r.color()?;
            if !in_box {
                hands[color.index()][kind.index()] += 1;
                counts[kind.index()] += 1;
            } else {
                match (kind, color) {
                    (_, Color::Black) => counts[kind.index()] += 1,
                    (HandKind::Silver, Color::White) => counts[HandKind::Gold.index()] += 1,
                    _ => return Err(PackedSfenError::BadBoxPiece { start: r.start }),
                }
            }
        }
        for kind in WRITE_ORDER {
            let (found, expected) = (counts[kind.index()], full_count(kind));
            if found != expected {
                return Err(PackedSfenError::WrongPieceCount {
                    kind,
                    found,
                    expected,
                });
            }
        }
        for color in Color::ALL {
            let mut hand = Hand::EMPTY;
            for kind in HandKind::ALL {
                // At most the set's count (checked above), which every hand field holds.
                let fits = hand.set(kind, hands[color.index()][kind.index()]);
                debug_assert!(fits);
            }
            setup.hands[color.index()] = hand;
        }
        setup.validate().map_err(PackedSfenError::Setup)?;
        Ok(setup)
    }

    /// Unpacks into a position with the given SFEN move number, checking everything a position
    /// from an SFEN is checked for.
    pub fn to_position(&self, move_number: u32) -> Result<Position, PackedSfenError> {
        let mut setup = self.to_setup()?;
        setup.move_number = move_number.max(1);
        Position::from_setup(&setup).map_err(PackedSfenError::Position)
    }
}

#[cfg(test)]
mod tests;
