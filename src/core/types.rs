//! The small value types of the game: colours, squares, pieces, moves and hands.
//!
//! Every packed type states its layout and has its size checked at compile time.

use std::fmt;
use std::num::{NonZeroU16, NonZeroU8};

/// The two sides. Black (sente) moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    Black = 0,
    White = 1,
}

impl Color {
    pub const NUM: usize = 2;
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    #[inline]
    pub const fn flip(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The SFEN letter of the side to move: `b` or `w`.
    pub const fn sfen_char(self) -> char {
        match self {
            Color::Black => 'b',
            Color::White => 'w',
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        self.flip()
    }
}

/// A square of the 9x9 grid.
///
/// Index layout: `file_index * 9 + rank_index`, where `file_index` 0 is USI file 1 (the right edge from
/// Black's view) and `rank_index` 0 is USI rank `a` (the top, White's back rank). A file is therefore a
/// run of nine consecutive indices, which keeps lance and file masks contiguous in a bitboard.
/// The smaller Heian boards use the same grid with some squares masked off (see `Variant`).
///
/// Invariant: the index is below 81, so `Option<Square>` needs no extra byte.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Square(NonZeroU8);

const _: () = assert!(std::mem::size_of::<Option<Square>>() == 1);

impl Square {
    pub const NUM: usize = 81;

    /// Builds a square from its raw index. `index` must be below 81.
    #[inline]
    pub const fn from_index_unchecked(index: u8) -> Square {
        debug_assert!(index < 81);
        // Stored plus one so that zero is the niche for `Option<Square>`.
        match NonZeroU8::new(index + 1) {
            Some(v) => Square(v),
            None => panic!("square index overflow"),
        }
    }

    #[inline]
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < 81 {
            Some(Square::from_index_unchecked(index))
        } else {
            None
        }
    }

    /// `file_index` 0..9 (0 is USI file 1), `rank_index` 0..9 (0 is USI rank a).
    #[inline]
    pub const fn new(file_index: u8, rank_index: u8) -> Square {
        debug_assert!(file_index < 9 && rank_index < 9);
        Square::from_index_unchecked(file_index * 9 + rank_index)
    }

    /// Like [`Square::new`] but returns `None` off the 9x9 grid (signed to make stepping easy).
    #[inline]
    pub const fn try_new(file_index: i32, rank_index: i32) -> Option<Square> {
        if file_index >= 0 && file_index < 9 && rank_index >= 0 && rank_index < 9 {
            Some(Square::new(file_index as u8, rank_index as u8))
        } else {
            None
        }
    }

    #[inline]
    pub const fn index(self) -> usize {
        (self.0.get() - 1) as usize
    }

    /// 0-based file index: 0 is USI file 1.
    #[inline]
    pub const fn file(self) -> u8 {
        (self.index() / 9) as u8
    }

    /// 0-based rank index: 0 is USI rank `a`.
    #[inline]
    pub const fn rank(self) -> u8 {
        (self.index() % 9) as u8
    }

    /// Every square of the 9x9 grid in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..81u8).map(Square::from_index_unchecked)
    }

    /// Parses a USI square such as `7g` (file digit 1-9, rank letter a-i). Board limits of a variant are
    /// checked by the caller.
    pub fn from_usi(text: &str) -> Option<Square> {
        let bytes = text.as_bytes();
        if bytes.len() != 2 {
            return None;
        }
        let file = bytes[0].wrapping_sub(b'1');
        let rank = bytes[1].wrapping_sub(b'a');
        if file < 9 && rank < 9 {
            Some(Square::new(file, rank))
        } else {
            None
        }
    }

    /// The square seen from the other side of a 9x9 board (rotated by 180 degrees).
    #[inline]
    pub const fn rotate180(self) -> Square {
        Square::from_index_unchecked(80 - self.index() as u8)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'1' + self.file()) as char,
            (b'a' + self.rank()) as char
        )
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The fourteen kinds of piece, unpromoted first.
///
/// Layout: the seven kinds that can be held in hand come first (`Pawn..=Gold`, in the order of
/// [`HandKind`]), then the king, then the promoted kinds. The promoted form of `Pawn..=Rook` is the
/// kind plus 8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceKind {
    Pawn = 0,
    Lance = 1,
    Knight = 2,
    Silver = 3,
    Bishop = 4,
    Rook = 5,
    Gold = 6,
    King = 7,
    ProPawn = 8,
    ProLance = 9,
    ProKnight = 10,
    ProSilver = 11,
    Horse = 12,
    Dragon = 13,
}

impl PieceKind {
    pub const NUM: usize = 14;
    pub const ALL: [PieceKind; 14] = [
        PieceKind::Pawn,
        PieceKind::Lance,
        PieceKind::Knight,
        PieceKind::Silver,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Gold,
        PieceKind::King,
        PieceKind::ProPawn,
        PieceKind::ProLance,
        PieceKind::ProKnight,
        PieceKind::ProSilver,
        PieceKind::Horse,
        PieceKind::Dragon,
    ];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub const fn from_index(index: usize) -> Option<PieceKind> {
        if index < 14 {
            Some(PieceKind::ALL[index])
        } else {
            None
        }
    }

    /// How far each promotable kind's promoted form lies in this order (pawn -> tokin, ...,
    /// rook -> dragon), so a promotion is an addition on kind and piece indices.
    pub const PROMOTION_STEP: usize = PieceKind::ProPawn as usize - PieceKind::Pawn as usize;

    /// Whether this kind has a promoted form.
    #[inline]
    pub const fn can_promote(self) -> bool {
        (self as u8) <= PieceKind::Rook as u8
    }

    #[inline]
    pub const fn is_promoted(self) -> bool {
        (self as u8) >= PieceKind::ProPawn as u8
    }

    /// The promoted form, or `None` for gold, king and already promoted kinds.
    #[inline]
    pub const fn promoted(self) -> Option<PieceKind> {
        if self.can_promote() {
            PieceKind::from_index(self as usize + PieceKind::PROMOTION_STEP)
        } else {
            None
        }
    }

    /// The unpromoted form (the kind itself when not promoted).
    #[inline]
    pub const fn unpromoted(self) -> PieceKind {
        if self.is_promoted() {
            PieceKind::ALL[self as usize - PieceKind::PROMOTION_STEP]
        } else {
            self
        }
    }

    /// The kind a capture of this piece puts in hand (`None` for the king).
    #[inline]
    pub const fn hand_kind(self) -> Option<HandKind> {
        HandKind::from_index(self.unpromoted() as usize)
    }

    /// Moves like a gold general (gold and the four promoted minor pieces).
    #[inline]
    pub const fn moves_like_gold(self) -> bool {
        matches!(
            self,
            PieceKind::Gold
                | PieceKind::ProPawn
                | PieceKind::ProLance
                | PieceKind::ProKnight
                | PieceKind::ProSilver
        )
    }

    /// The SFEN letters, uppercase (Black's), with `+` for promoted kinds.
    pub const fn sfen_str(self) -> &'static str {
        match self {
            PieceKind::Pawn => "P",
            PieceKind::Lance => "L",
            PieceKind::Knight => "N",
            PieceKind::Silver => "S",
            PieceKind::Bishop => "B",
            PieceKind::Rook => "R",
            PieceKind::Gold => "G",
            PieceKind::King => "K",
            PieceKind::ProPawn => "+P",
            PieceKind::ProLance => "+L",
            PieceKind::ProKnight => "+N",
            PieceKind::ProSilver => "+S",
            PieceKind::Horse => "+B",
            PieceKind::Dragon => "+R",
        }
    }

    /// The unpromoted kind for an SFEN letter (either case).
    pub const fn from_sfen_letter(letter: u8) -> Option<PieceKind> {
        match letter.to_ascii_uppercase() {
            b'P' => Some(PieceKind::Pawn),
            b'L' => Some(PieceKind::Lance),
            b'N' => Some(PieceKind::Knight),
            b'S' => Some(PieceKind::Silver),
            b'B' => Some(PieceKind::Bishop),
            b'R' => Some(PieceKind::Rook),
            b'G' => Some(PieceKind::Gold),
            b'K' => Some(PieceKind::King),
            _ => None,
        }
    }
}

/// The seven kinds that can be held in hand, in SFEN's canonical hand order reversed
/// (SFEN writes R B G S N L P; the index order here is P L N S B R G to match [`PieceKind`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum HandKind {
    Pawn = 0,
    Lance = 1,
    Knight = 2,
    Silver = 3,
    Bishop = 4,
    Rook = 5,
    Gold = 6,
}

impl HandKind {
    pub const NUM: usize = 7;
    pub const ALL: [HandKind; 7] = [
        HandKind::Pawn,
        HandKind::Lance,
        HandKind::Knight,
        HandKind::Silver,
        HandKind::Bishop,
        HandKind::Rook,
        HandKind::Gold,
    ];
    /// SFEN's canonical output order.
    pub const SFEN_ORDER: [HandKind; 7] = [
        HandKind::Rook,
        HandKind::Bishop,
        HandKind::Gold,
        HandKind::Silver,
        HandKind::Knight,
        HandKind::Lance,
        HandKind::Pawn,
    ];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub const fn from_index(index: usize) -> Option<HandKind> {
        if index < 7 {
            Some(HandKind::ALL[index])
        } else {
            None
        }
    }

    #[inline]
    pub const fn piece_kind(self) -> PieceKind {
        PieceKind::ALL[self as usize]
    }

    /// How many of this kind exist in a full standard set (both sides together).
    pub const fn total_count(self) -> u32 {
        match self {
            HandKind::Pawn => 18,
            HandKind::Lance | HandKind::Knight | HandKind::Silver | HandKind::Gold => 4,
            HandKind::Bishop | HandKind::Rook => 2,
        }
    }

    /// The USI drop letter (uppercase for both sides).
    pub const fn usi_char(self) -> char {
        match self {
            HandKind::Pawn => 'P',
            HandKind::Lance => 'L',
            HandKind::Knight => 'N',
            HandKind::Silver => 'S',
            HandKind::Bishop => 'B',
            HandKind::Rook => 'R',
            HandKind::Gold => 'G',
        }
    }

    pub const fn from_usi_char(c: u8) -> Option<HandKind> {
        match PieceKind::from_sfen_letter(c) {
            Some(kind) => kind.hand_kind(),
            None => None,
        }
    }
}

/// A coloured piece.
///
/// Layout: `1 + kind + 16 * color` in a non-zero byte, so `Option<Piece>` is one byte and a board of
/// `Option<Piece>` is a plain byte array.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct Piece(NonZeroU8);

const _: () = assert!(std::mem::size_of::<Option<Piece>>() == 1);

impl Piece {
    /// Dense index `kind + 14 * color`, for tables indexed by piece.
    pub const NUM: usize = 28;

    #[inline]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        match NonZeroU8::new(1 + kind as u8 + 16 * color as u8) {
            Some(v) => Piece(v),
            None => panic!("piece encoding"),
        }
    }

    #[inline]
    pub const fn color(self) -> Color {
        if self.0.get() >= 16 {
            Color::White
        } else {
            Color::Black
        }
    }

    #[inline]
    pub const fn kind(self) -> PieceKind {
        // Sixteen entries, so the masked code needs no bounds check (codes 14 and 15 never occur).
        const KIND_OF_CODE: [PieceKind; 16] = {
            let mut table = [PieceKind::Pawn; 16];
            let mut i = 0;
            while i < PieceKind::NUM {
                table[i] = PieceKind::ALL[i];
                i += 1;
            }
            table
        };
        KIND_OF_CODE[((self.0.get() - 1) & 15) as usize]
    }

    /// Dense index in `0..28`: `kind + 14 * color`, from the code by arithmetic alone.
    #[inline]
    pub const fn index(self) -> usize {
        let code = (self.0.get() - 1) as usize;
        (code & 15) + 14 * (code >> 4)
    }

    /// SFEN text: uppercase for Black, lowercase for White, `+` before promoted kinds.
    pub fn to_sfen(self) -> String {
        let s = self.kind().sfen_str();
        match self.color() {
            Color::Black => s.to_string(),
            Color::White => s.to_ascii_lowercase(),
        }
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_sfen())
    }
}

/// A move in the compact form used everywhere inside the engine (and stored whole in the TT).
///
/// Layout of the 16 bits:
/// ```text
///  15      14..8          7       6..0
/// [promo] [from or 81+k] [unused] [to]
/// ```
/// `to` is a square index (0..81). The source field is a square index for a board move, or
/// `81 + HandKind` for a drop. `promo` is set for a promoting board move. A move never has source equal
/// to destination, so the word is never zero and `Option<Move>` is two bytes.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct Move(NonZeroU16);

const _: () = assert!(std::mem::size_of::<Option<Move>>() == 2);

impl Move {
    const PROMOTE_BIT: u16 = 1 << 15;
    const DROP_BASE: u16 = 81;

    /// A board move. `from != to` is the caller's invariant.
    #[inline]
    pub const fn normal(from: Square, to: Square, promote: bool) -> Move {
        let word = to.index() as u16
            | (from.index() as u16) << 8
            | if promote { Move::PROMOTE_BIT } else { 0 };
        match NonZeroU16::new(word) {
            Some(v) => Move(v),
            // from == to == 0 without promotion: a caller bug, never produced by the generator.
            None => panic!("a move needs distinct squares"),
        }
    }

    /// A drop of `kind` from the hand onto `to`.
    #[inline]
    pub const fn drop(kind: HandKind, to: Square) -> Move {
        let word = to.index() as u16 | (Move::DROP_BASE + kind as u16) << 8;
        match NonZeroU16::new(word) {
            Some(v) => Move(v),
            None => panic!("drop encoding"),
        }
    }

    /// Rebuilds a move from its raw word (e.g. read back from the TT). Returns `None` for words no
    /// constructor produces; a decoded move must still be checked with `Position::is_legal`.
    #[inline]
    pub const fn from_u16(word: u16) -> Option<Move> {
        let to = word & 0x7f;
        let src = (word >> 8) & 0x7f;
        let promote = word & Move::PROMOTE_BIT != 0;
        if to >= 81 || word & 0x80 != 0 {
            return None;
        }
        if src >= Move::DROP_BASE {
            if src >= Move::DROP_BASE + 7 || promote {
                return None;
            }
        } else if src == to {
            return None;
        }
        match NonZeroU16::new(word) {
            Some(v) => Some(Move(v)),
            None => None,
        }
    }

    #[inline]
    pub const fn to_u16(self) -> u16 {
        self.0.get()
    }

    #[inline]
    pub const fn to(self) -> Square {
        Square::from_index_unchecked((self.0.get() & 0x7f) as u8)
    }

    #[inline]
    pub const fn is_drop(self) -> bool {
        (self.0.get() >> 8) & 0x7f >= Move::DROP_BASE
    }

    /// The source square of a board move; `None` for a drop.
    #[inline]
    pub const fn from(self) -> Option<Square> {
        let src = ((self.0.get() >> 8) & 0x7f) as u8;
        if src >= Move::DROP_BASE as u8 {
            None
        } else {
            Some(Square::from_index_unchecked(src))
        }
    }

    /// The kind dropped; `None` for a board move.
    #[inline]
    pub const fn drop_kind(self) -> Option<HandKind> {
        let src = ((self.0.get() >> 8) & 0x7f) as usize;
        if src >= Move::DROP_BASE as usize {
            HandKind::from_index(src - Move::DROP_BASE as usize)
        } else {
            None
        }
    }

    /// Where the move comes from in one index space: the source square's index for a board move,
    /// 81 + the hand kind's index for a drop (below `Move::SOURCES`). History tables index by it.
    #[inline]
    pub const fn source_index(self) -> usize {
        ((self.0.get() >> 8) & 0x7f) as usize
    }

    /// The `source_index` of a pawn drop; a drop of any other kind has this plus its
    /// `HandKind::index`.
    pub const FIRST_DROP_SOURCE: usize = Move::DROP_BASE as usize;

    /// The number of distinct `source_index` values.
    pub const SOURCES: usize = Move::DROP_BASE as usize + HandKind::ALL.len();

    #[inline]
    pub const fn is_promotion(self) -> bool {
        self.0.get() & Move::PROMOTE_BIT != 0
    }

    /// USI text: `7g7f`, `8h2b+`, `P*5e`.
    pub fn to_usi(self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.from(), self.drop_kind()) {
            (Some(from), _) => {
                write!(f, "{}{}", from, self.to())?;
                if self.is_promotion() {
                    f.write_str("+")?;
                }
                Ok(())
            }
            (None, Some(kind)) => write!(f, "{}*{}", kind.usi_char(), self.to()),
            (None, None) => f.write_str("????"),
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The pieces one side holds in hand, packed in one `u32`.
///
/// Layout (bit positions; `g` = guard bit, always zero in a valid hand):
/// ```text
///  pawn 0-4 g5 | lance 6-8 g9 | knight 10-12 g13 | silver 14-16 g17 |
///  bishop 18-19 g20 | rook 21-22 g23 | gold 24-26 g27
/// ```
/// Pawn has 5 bits (up to 18 pawns), bishop and rook 2 bits (up to 2), the others 3 bits (up to 4). Because every field has a zero guard bit above it,
/// "`a` holds at least as many of every kind as `b`" is one subtraction: `(a - b) & GUARDS == 0`
/// (a borrow out of any field sets that field's guard bit). The mate solver's hand superiority
/// relies on that.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
#[repr(transparent)]
pub struct Hand(u32);

const _: () = assert!(std::mem::size_of::<Hand>() == 4);

impl Hand {
    const SHIFT: [u32; 7] = [0, 6, 10, 14, 18, 21, 24];
    const MASK: [u32; 7] = [0x1f, 0x7, 0x7, 0x7, 0x3, 0x3, 0x7];
    const GUARDS: u32 = 1 << 5 | 1 << 9 | 1 << 13 | 1 << 17 | 1 << 20 | 1 << 23 | 1 << 27;

    pub const EMPTY: Hand = Hand(0);

    /// The raw word (for hashing and compact storage).
    #[inline]
    pub const fn to_u32(self) -> u32 {
        self.0
    }

    #[inline]
    pub const fn count(self, kind: HandKind) -> u32 {
        (self.0 >> Hand::SHIFT[kind as usize]) & Hand::MASK[kind as usize]
    }

    #[inline]
    pub const fn has(self, kind: HandKind) -> bool {
        self.0 & (Hand::MASK[kind as usize] << Hand::SHIFT[kind as usize]) != 0
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// One more of `kind`. The count must stay within the field (`HandKind::total_count`).
    #[inline]
    pub fn add(&mut self, kind: HandKind) {
        debug_assert!(self.count(kind) < Hand::MASK[kind as usize]);
        self.0 += 1 << Hand::SHIFT[kind as usize];
    }

    /// One fewer of `kind`; the hand must hold one.
    #[inline]
    pub fn remove(&mut self, kind: HandKind) {
        debug_assert!(self.has(kind));
        self.0 -= 1 << Hand::SHIFT[kind as usize];
    }

    /// Sets the count of `kind`. Returns `false` (and changes nothing) when `count` does not fit the
    /// field; counts above the physical maximum are the caller's to reject.
    pub fn set(&mut self, kind: HandKind, count: u32) -> bool {
        let mask = Hand::MASK[kind as usize];
        if count > mask {
            return false;
        }
        let shift = Hand::SHIFT[kind as usize];
        self.0 = (self.0 & !(mask << shift)) | count << shift;
        true
    }

    /// Whether this hand holds at least as many of every kind as `other`.
    #[inline]
    pub const fn is_superior_or_equal(self, other: Hand) -> bool {
        self.0.wrapping_sub(other.0) & Hand::GUARDS == 0
    }

    /// Total number of pieces held.
    pub fn total(self) -> u32 {
        HandKind::ALL.iter().map(|&k| self.count(k)).sum()
    }

    /// Kinds held with their counts, in index order.
    pub fn iter(self) -> impl Iterator<Item = (HandKind, u32)> {
        HandKind::ALL
            .into_iter()
            .map(move |k| (k, self.count(k)))
            .filter(|&(_, n)| n > 0)
    }
}

impl fmt::Debug for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut any = false;
        for kind in HandKind::SFEN_ORDER {
            let n = self.count(kind);
            if n > 0 {
                any = true;
                if n > 1 {
                    write!(f, "{n}")?;
                }
                write!(f, "{}", kind.usi_char())?;
            }
        }
        if !any {
            f.write_str("-")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names_round_trip() {
        for sq in Square::all() {
            assert_eq!(Square::from_usi(&sq.to_string()), Some(sq));
        }
        assert_eq!(Square::from_usi("7g"), Some(Square::new(6, 6)));
        assert_eq!(Square::from_usi("0a"), None);
        assert_eq!(Square::from_usi("1j"), None);
        assert_eq!(Square::from_usi("1"), None);
    }

    #[test]
    fn source_index_gives_every_square_and_hand_kind_its_own_slot() {
        let mut seen = [false; Move::SOURCES];
        for from in Square::all() {
            let to = if from.index() == 0 {
                Square::new(1, 0)
            } else {
                Square::new(0, 0)
            };
            let m = Move::normal(from, to, false);
            assert_eq!(m.source_index(), from.index());
            seen[m.source_index()] = true;
        }
        for kind in HandKind::ALL {
            let m = Move::drop(kind, Square::new(4, 4));
            assert_eq!(m.source_index(), 81 + kind.index());
            seen[m.source_index()] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn move_encoding_round_trips() {
        let sq = |s| Square::from_usi(s).unwrap();
        let m = Move::normal(sq("8h"), sq("2b"), true);
        assert_eq!(m.to_string(), "8h2b+");
        assert_eq!(m.from(), Some(sq("8h")));
        assert!(m.is_promotion() && !m.is_drop());
        let d = Move::drop(HandKind::Pawn, sq("5e"));
        assert_eq!(d.to_string(), "P*5e");
        assert!(d.is_drop() && d.from().is_none());
        assert_eq!(d.drop_kind(), Some(HandKind::Pawn));
        for m in [m, d, Move::normal(sq("1a"), sq("1b"), false)] {
            assert_eq!(Move::from_u16(m.to_u16()), Some(m));
        }
        assert_eq!(Move::from_u16(0), None);
        assert_eq!(Move::from_u16(81), None);
    }

    #[test]
    fn hand_counts_and_superiority() {
        let mut a = Hand::EMPTY;
        for _ in 0..18 {
            a.add(HandKind::Pawn);
        }
        a.add(HandKind::Rook);
        a.add(HandKind::Rook);
        assert_eq!(a.count(HandKind::Pawn), 18);
        assert_eq!(a.count(HandKind::Rook), 2);
        let mut b = Hand::EMPTY;
        b.add(HandKind::Pawn);
        assert!(a.is_superior_or_equal(b));
        assert!(!b.is_superior_or_equal(a));
        b.add(HandKind::Gold);
        assert!(!a.is_superior_or_equal(b));
        a.remove(HandKind::Rook);
        assert_eq!(a.count(HandKind::Rook), 1);
        assert!(a.set(HandKind::Gold, 4));
        assert!(!a.set(HandKind::Bishop, 4));
        assert_eq!(a.count(HandKind::Gold), 4);
    }

    #[test]
    fn piece_encoding() {
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                let p = Piece::new(color, kind);
                assert_eq!(p.color(), color);
                assert_eq!(p.kind(), kind);
                assert_eq!(p.index(), kind.index() + 14 * color.index());
                if let Some(promoted) = kind.promoted() {
                    let index = Piece::new(color, promoted).index();
                    assert_eq!(index, p.index() + PieceKind::PROMOTION_STEP);
                }
            }
        }
        assert_eq!(PieceKind::Rook.promoted(), Some(PieceKind::Dragon));
        assert_eq!(PieceKind::Horse.unpromoted(), PieceKind::Bishop);
        assert_eq!(PieceKind::Gold.promoted(), None);
        assert_eq!(PieceKind::ProSilver.hand_kind(), Some(HandKind::Silver));
        assert_eq!(PieceKind::King.hand_kind(), None);
    }
}
