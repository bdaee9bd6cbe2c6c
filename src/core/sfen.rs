//! SFEN text in and out, as a [`Setup`], and the syntax of USI move text.
//!
//! The parser checks everything that needs no attack tables: the text's shape, the variant's board
//! size and piece set, and what is physically possible (piece counts, dead pieces, nifu, kings).
//! `Position::from_setup` adds the rest (the side not to move must not be in check).
//! `startpos` is not SFEN and is mapped by the USI layer, not here.

use super::types::{Color, Hand, HandKind, Move, Piece, PieceKind, Square};
use super::variant::Variant;
use std::fmt;

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

/// What is wrong with an SFEN. Ranks are named 1-based from the top with their letter (`rank 1 (a)`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SfenError {
    #[error("empty SFEN")]
    Empty,
    #[error("SFEN '{0}' has no side-to-move field (expected board, side, hands and an optional move number)")]
    MissingSideToMove(String),
    #[error("SFEN '{0}' has no hands field (use '-' when both hands are empty)")]
    MissingHands(String),
    #[error("unexpected text '{0}' after the move number")]
    TrailingText(String),

    // The board field.
    #[error("the board has {found} ranks but a {variant} board has {expected}")]
    WrongRankCount {
        variant: Variant,
        found: usize,
        expected: u8,
    },
    #[error(
        "rank {rank} ({letter}) has {found} files but a {variant} board has {expected}: too many"
    )]
    TooManyFiles {
        variant: Variant,
        rank: u8,
        letter: char,
        found: u32,
        expected: u8,
    },
    #[error(
        "rank {rank} ({letter}) has {found} files but a {variant} board has {expected}: too few"
    )]
    TooFewFiles {
        variant: Variant,
        rank: u8,
        letter: char,
        found: u32,
        expected: u8,
    },
    #[error("rank {rank} ({letter}): '{ch}' is not a piece letter (K R B G S N L P, either case) or a digit 1-9")]
    BadBoardChar { rank: u8, letter: char, ch: char },
    #[error("rank {rank} ({letter}): two digits in a row ('{first}{second}'); write one digit per run of empty squares")]
    AdjacentDigits {
        rank: u8,
        letter: char,
        first: char,
        second: char,
    },
    #[error("rank {rank} ({letter}): '+{ch}' is not a piece: {kind:?} cannot promote")]
    CannotPromote {
        rank: u8,
        letter: char,
        ch: char,
        kind: PieceKind,
    },
    #[error("rank {rank} ({letter}): '+' before the digit '{digit}'; '+' must come right before a piece letter")]
    PlusBeforeDigit { rank: u8, letter: char, digit: char },
    #[error("rank {rank} ({letter}) ends with '+'; '+' must come right before a piece letter")]
    PlusAtEnd { rank: u8, letter: char },
    #[error("{} on {square}: {variant} has no {:?}", describe(*.piece), .piece.kind())]
    PieceNotInVariant {
        variant: Variant,
        piece: Piece,
        square: Square,
    },
    #[error("{} on {square} could never move again (dead square for that piece)", describe(*.piece))]
    DeadPiece { piece: Piece, square: Square },
    #[error("two unpromoted {color:?} pawns on file {file} (nifu)")]
    Nifu { color: Color, file: u8 },
    #[error("{count} {color:?} kings on the board; at most one per side")]
    TooManyKings { color: Color, count: u32 },
    #[error("{found} {kind:?}s on the board and in hand (promoted ones counted as {kind:?}); a {variant} set has {max}")]
    TooManyPieces {
        variant: Variant,
        kind: HandKind,
        found: u32,
        max: u32,
    },

    // The side to move.
    #[error("side to move must be 'b' or 'w', found '{0}'")]
    BadSideToMove(String),

    // The hands field.
    #[error("hands '{text}': '{ch}' is not a piece letter (R B G S N L P, uppercase Black, lowercase White)")]
    BadHandChar { text: String, ch: char },
    #[error("hands '{text}': a king cannot be held in hand")]
    KingInHand { text: String },
    #[error("hands '{text}': promoted pieces cannot be held in hand ('+')")]
    PromotedInHand { text: String },
    #[error("hands '{text}': count '{count}' is zero or starts with 0")]
    HandCountZero { text: String, count: String },
    #[error("hands '{text}': count '1' must be left out (write 'P', not '1P')")]
    HandCountOne { text: String },
    #[error("hands '{text}': count '{count}' has more than two digits")]
    HandCountTooLong { text: String, count: String },
    #[error("hands '{text}': the count at the end is not followed by a piece letter")]
    HandCountWithoutPiece { text: String },
    #[error("hands '{text}': '{ch}' appears more than once")]
    HandPieceRepeated { text: String, ch: char },
    #[error("hands '{text}': {variant} has no drops, so both hands must be empty ('-')")]
    HandsWithoutDrops { text: String, variant: Variant },

    // The move number.
    #[error("move number '{0}' is not a positive whole number")]
    BadMoveNumber(String),
}

/// "White Pawn" style name for error messages.
fn describe(piece: Piece) -> String {
    format!(
        "{:?} {:?} '{}'",
        piece.color(),
        piece.kind(),
        piece.to_sfen()
    )
}

/// 1-based rank number and its letter, for error messages.
fn rank_name(rank_index: u8) -> (u8, char) {
    (rank_index + 1, (b'a' + rank_index) as char)
}

/// How many pieces of `kind` (promoted ones counted as their base kind) a full set of `variant` has.
/// Heian 8x8 starts with eight pawns and one gold a side.
const fn max_count(variant: Variant, kind: HandKind) -> u32 {
    match (variant, kind) {
        (Variant::Heian | Variant::Heian8, HandKind::Rook | HandKind::Bishop) => 0,
        (Variant::Heian8, HandKind::Pawn) => 16,
        (Variant::Heian8, HandKind::Gold) => 2,
        (_, kind) => kind.total_count(),
    }
}

impl Setup {
    /// An empty board, empty hands, Black to move, move 1.
    pub fn empty(variant: Variant) -> Setup {
        Setup {
            variant,
            board: [None; 81],
            hands: [Hand::EMPTY; 2],
            side_to_move: Color::Black,
            move_number: 1,
        }
    }

    /// The variant's start position.
    pub fn startpos(variant: Variant) -> Setup {
        match Setup::parse(variant.startpos_sfen(), variant) {
            Ok(setup) => setup,
            // A constant of this crate, covered by the tests: not input from outside.
            Err(e) => panic!("start position of {variant} does not parse: {e}"),
        }
    }

    #[inline]
    pub fn piece_on(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    #[inline]
    pub fn hand(&self, color: Color) -> Hand {
        self.hands[color.index()]
    }

    /// Parses an SFEN (board, side, hands, optional move number) for `variant`.
    ///
    /// Fields may be separated by any amount of whitespace; hands may list kinds in any order.
    pub fn parse(sfen: &str, variant: Variant) -> Result<Setup, SfenError> {
        let mut fields = sfen.split_ascii_whitespace();
        let board_text = fields.next().ok_or(SfenError::Empty)?;
        let side_text = fields
            .next()
            .ok_or_else(|| SfenError::MissingSideToMove(sfen.trim().to_string()))?;
        let hands_text = fields
            .next()
            .ok_or_else(|| SfenError::MissingHands(sfen.trim().to_string()))?;
        let move_number = match fields.next() {
            None => 1,
            Some(text) => parse_move_number(text)?,
        };
        if let Some(extra) = fields.next() {
            return Err(SfenError::TrailingText(extra.to_string()));
        }

        let board = parse_board(board_text, variant)?;
        let side_to_move = match side_text {
            "b" => Color::Black,
            "w" => Color::White,
            _ => return Err(SfenError::BadSideToMove(side_text.to_string())),
        };
        let hand_counts = parse_hands(hands_text)?;

        let setup = Setup {
            variant,
            board,
            hands: [Hand::EMPTY; 2],
            side_to_move,
            move_number,
        };
        setup.check_board(variant)?;
        if !variant.has_drops() && hand_counts.iter().flatten().any(|&n| n > 0) {
            return Err(SfenError::HandsWithoutDrops {
                text: hands_text.to_string(),
                variant,
            });
        }
        setup.check_counts(&hand_counts)?;

        let mut setup = setup;
        for color in Color::ALL {
            for kind in HandKind::ALL {
                // Counts are within the physical set (checked above), which always fits the field.
                let fits =
                    setup.hands[color.index()].set(kind, hand_counts[color.index()][kind.index()]);
                debug_assert!(fits);
            }
        }
        Ok(setup)
    }

    /// The checks `parse` makes, for a setup built some other way (e.g. decoded from a binary
    /// record): the variant's pieces only, no dead piece, no nifu, at most one king a side, no hand
    /// pieces without drops, and no more of a kind than the variant's set has.
    pub fn validate(&self) -> Result<(), SfenError> {
        self.check_board(self.variant)?;
        let mut hand_counts = [[0u32; 7]; 2];
        for color in Color::ALL {
            for kind in HandKind::ALL {
                hand_counts[color.index()][kind.index()] = self.hands[color.index()].count(kind);
            }
        }
        if !self.variant.has_drops() && hand_counts.iter().flatten().any(|&n| n > 0) {
            return Err(SfenError::HandsWithoutDrops {
                text: format!("{:?} {:?}", self.hands[0], self.hands[1]),
                variant: self.variant,
            });
        }
        self.check_counts(&hand_counts)
    }

    /// Pieces of the variant, dead pieces, nifu, kings: what can be checked square by square.
    fn check_board(&self, variant: Variant) -> Result<(), SfenError> {
        let mut kings = [0u32; 2];
        // Per colour, a bitmask of the files (by index) holding an unpromoted pawn.
        let mut pawn_files = [0u16; 2];
        for sq in Square::all() {
            let Some(piece) = self.board[sq.index()] else {
                continue;
            };
            let (color, kind) = (piece.color(), piece.kind());
            if !variant.has_kind(kind) {
                return Err(SfenError::PieceNotInVariant {
                    variant,
                    piece,
                    square: sq,
                });
            }
            if variant.dead_squares(color, kind).contains(sq) {
                return Err(SfenError::DeadPiece { piece, square: sq });
            }
            match kind {
                PieceKind::King => kings[color.index()] += 1,
                PieceKind::Pawn => {
                    let bit = 1u16 << sq.file();
                    if pawn_files[color.index()] & bit != 0 {
                        return Err(SfenError::Nifu {
                            color,
                            file: sq.file() + 1,
                        });
                    }
                    pawn_files[color.index()] |= bit;
                }
                _ => {}
            }
        }
        for color in Color::ALL {
            if kings[color.index()] > 1 {
                return Err(SfenError::TooManyKings {
                    color,
                    count: kings[color.index()],
                });
            }
        }
        Ok(())
    }

    /// Board plus both hands must not hold more of a kind than the variant's set has.
    fn check_counts(&self, hand_counts: &[[u32; 7]; 2]) -> Result<(), SfenError> {
        let mut found = [0u32; 7];
        for piece in self.board.iter().flatten() {
            if let Some(kind) = piece.kind().hand_kind() {
                found[kind.index()] += 1;
            }
        }
        for counts in hand_counts {
            for (total, n) in found.iter_mut().zip(counts) {
                *total += n;
            }
        }
        for kind in HandKind::SFEN_ORDER {
            let max = max_count(self.variant, kind);
            if found[kind.index()] > max {
                return Err(SfenError::TooManyPieces {
                    variant: self.variant,
                    kind,
                    found: found[kind.index()],
                    max,
                });
            }
        }
        Ok(())
    }

    /// Canonical SFEN: ranks from the top, files from the highest to 1, hands Black's then White's in
    /// the order R B G S N L P with counts above one before the letter, `-` when both are empty, and
    /// the move number.
    pub fn to_sfen(&self) -> String {
        let mut out = String::with_capacity(96);
        let (files, ranks) = (self.variant.files(), self.variant.ranks());
        for rank in 0..ranks {
            if rank > 0 {
                out.push('/');
            }
            let mut empty = 0u8;
            for file in (0..files).rev() {
                match self.board[Square::new(file, rank).index()] {
                    None => empty += 1,
                    Some(piece) => {
                        if empty > 0 {
                            out.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        out.push_str(&piece.to_sfen());
                    }
                }
            }
            if empty > 0 {
                out.push((b'0' + empty) as char);
            }
        }
        out.push(' ');
        out.push(self.side_to_move.sfen_char());
        out.push(' ');
        let hands_start = out.len();
        for color in Color::ALL {
            let hand = self.hands[color.index()];
            for kind in HandKind::SFEN_ORDER {
                let n = hand.count(kind);
                if n > 1 {
                    out.push_str(&n.to_string());
                }
                if n > 0 {
                    let c = kind.usi_char();
                    out.push(match color {
                        Color::Black => c,
                        Color::White => c.to_ascii_lowercase(),
                    });
                }
            }
        }
        if out.len() == hands_start {
            out.push('-');
        }
        out.push(' ');
        out.push_str(&self.move_number.to_string());
        out
    }
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_sfen())
    }
}

fn parse_move_number(text: &str) -> Result<u32, SfenError> {
    match text.parse::<u32>() {
        // `parse` accepts a leading '+'; a move number is plain digits.
        Ok(n) if n > 0 && text.bytes().all(|b| b.is_ascii_digit()) => Ok(n),
        _ => Err(SfenError::BadMoveNumber(text.to_string())),
    }
}

fn parse_board(text: &str, variant: Variant) -> Result<[Option<Piece>; 81], SfenError> {
    let (files, ranks) = (variant.files(), variant.ranks());
    let found = text.split('/').count();
    if found != ranks as usize {
        return Err(SfenError::WrongRankCount {
            variant,
            found,
            expected: ranks,
        });
    }
    let mut board = [None; 81];
    for (rank, rank_text) in (0u8..).zip(text.split('/')) {
        let (number, letter) = rank_name(rank);
        // Columns filled so far from the left edge (the highest file).
        let mut width = 0u32;
        let mut previous_digit: Option<char> = None;
        let mut chars = rank_text.chars();
        while let Some(c) = chars.next() {
            if let Some(run) = c.to_digit(10).filter(|&d| d > 0) {
                if let Some(first) = previous_digit {
                    return Err(SfenError::AdjacentDigits {
                        rank: number,
                        letter,
                        first,
                        second: c,
                    });
                }
                previous_digit = Some(c);
                width += run;
                continue;
            }
            previous_digit = None;
            let (ch, promoted) = if c == '+' {
                match chars.next() {
                    None => {
                        return Err(SfenError::PlusAtEnd {
                            rank: number,
                            letter,
                        })
                    }
                    Some(d) if d.is_ascii_digit() => {
                        return Err(SfenError::PlusBeforeDigit {
                            rank: number,
                            letter,
                            digit: d,
                        })
                    }
                    Some(next) => (next, true),
                }
            } else {
                (c, false)
            };
            let base = u8::try_from(ch)
                .ok()
                .and_then(PieceKind::from_sfen_letter)
                .ok_or(SfenError::BadBoardChar {
                    rank: number,
                    letter,
                    ch,
                })?;
            let kind = if promoted {
                base.promoted().ok_or(SfenError::CannotPromote {
                    rank: number,
                    letter,
                    ch,
                    kind: base,
                })?
            } else {
                base
            };
            let color = if ch.is_ascii_uppercase() {
                Color::Black
            } else {
                Color::White
            };
            // Past the right edge nothing is placed; the width check below reports it.
            if width < files as u32 {
                let file = files - 1 - width as u8;
                board[Square::new(file, rank).index()] = Some(Piece::new(color, kind));
            }
            width += 1;
        }
        if width > files as u32 {
            return Err(SfenError::TooManyFiles {
                variant,
                rank: number,
                letter,
                found: width,
                expected: files,
            });
        }
        if width < files as u32 {
            return Err(SfenError::TooFewFiles {
                variant,
                rank: number,
                letter,
                found: width,
                expected: files,
            });
        }
    }
    Ok(board)
}

/// Piece counts per colour and hand kind. Any order; each coloured kind at most once.
fn parse_hands(text: &str) -> Result<[[u32; 7]; 2], SfenError> {
    let mut counts = [[0u32; 7]; 2];
    if text == "-" {
        return Ok(counts);
    }
    let owned = || text.to_string();
    let mut seen = [[false; 7]; 2];
    let mut chars = text.char_indices().peekable();
    while let Some((start, c)) = chars.next() {
        let mut count = 1;
        let mut ch = c;
        if c.is_ascii_digit() {
            let mut end = start + 1;
            while let Some(&(i, d)) = chars.peek() {
                if !d.is_ascii_digit() {
                    break;
                }
                end = i + 1;
                chars.next();
            }
            let digits = &text[start..end];
            if digits.len() > 2 {
                return Err(SfenError::HandCountTooLong {
                    text: owned(),
                    count: digits.to_string(),
                });
            }
            if digits.starts_with('0') {
                return Err(SfenError::HandCountZero {
                    text: owned(),
                    count: digits.to_string(),
                });
            }
            if digits == "1" {
                return Err(SfenError::HandCountOne { text: owned() });
            }
            // One or two ASCII digits, the first not 0: the value is 2..=99.
            count = digits.bytes().fold(0, |n, d| 10 * n + u32::from(d - b'0'));
            ch = match chars.next() {
                Some((_, letter)) => letter,
                None => return Err(SfenError::HandCountWithoutPiece { text: owned() }),
            };
        }
        let kind = match u8::try_from(ch).ok().and_then(PieceKind::from_sfen_letter) {
            Some(PieceKind::King) => return Err(SfenError::KingInHand { text: owned() }),
            Some(kind) => kind.hand_kind(),
            None if ch == '+' => return Err(SfenError::PromotedInHand { text: owned() }),
            None => None,
        };
        let Some(kind) = kind else {
            return Err(SfenError::BadHandChar { text: owned(), ch });
        };
        let color = if ch.is_ascii_uppercase() {
            Color::Black
        } else {
            Color::White
        };
        let seen = &mut seen[color.index()][kind.index()];
        if *seen {
            return Err(SfenError::HandPieceRepeated { text: owned(), ch });
        }
        *seen = true;
        counts[color.index()][kind.index()] = count;
    }
    Ok(counts)
}

/// What is wrong with the text of a USI move (before any position is consulted).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveTextError {
    #[error("empty move text")]
    Empty,
    #[error("'{0}' is not a USI move (expected the form 7g7f, 8h2b+ or P*5e)")]
    BadSyntax(String),
    #[error("move '{text}': '{square}' is not a square (file 1-9 then rank a-i)")]
    BadSquare { text: String, square: String },
    #[error("move '{text}': square {square} is not on the {variant} board ({files} files x {ranks} ranks)")]
    OffBoard {
        text: String,
        square: Square,
        variant: Variant,
        files: u8,
        ranks: u8,
    },
    #[error(
        "move '{text}': '{letter}' is not a piece that can be dropped (uppercase R B G S N L P)"
    )]
    BadDropPiece { text: String, letter: char },
    #[error("move '{text}' starts and ends on the same square")]
    SameSquare { text: String },
    #[error("move '{text}': a drop cannot promote")]
    PromotingDrop { text: String },
    #[error("move '{text}': {variant} has no drops")]
    DropWithoutDrops { text: String, variant: Variant },
}

/// Parses USI move text (`7g7f`, `8h2b+`, `P*5e`) into a [`Move`], checking only the syntax and that
/// the squares are on `variant`'s board (and that drops exist in it). Legality in a position is the
/// position's job (`Position::parse_usi_move`).
pub fn parse_move_text(text: &str, variant: Variant) -> Result<Move, MoveTextError> {
    if text.is_empty() {
        return Err(MoveTextError::Empty);
    }
    let bad_syntax = || MoveTextError::BadSyntax(text.to_string());
    if !text.is_ascii() {
        return Err(bad_syntax());
    }
    let square = |s: &str| -> Result<Square, MoveTextError> {
        let sq = Square::from_usi(s).ok_or_else(|| MoveTextError::BadSquare {
            text: text.to_string(),
            square: s.to_string(),
        })?;
        if !variant.contains(sq) {
            return Err(MoveTextError::OffBoard {
                text: text.to_string(),
                square: sq,
                variant,
                files: variant.files(),
                ranks: variant.ranks(),
            });
        }
        Ok(sq)
    };
    let bytes = text.as_bytes();
    if bytes.len() >= 2 && bytes[1] == b'*' {
        let letter = bytes[0] as char;
        let kind = letter
            .is_ascii_uppercase()
            .then(|| HandKind::from_usi_char(bytes[0]))
            .flatten()
            .ok_or_else(|| MoveTextError::BadDropPiece {
                text: text.to_string(),
                letter,
            })?;
        let to = match bytes.len() {
            4 => square(&text[2..4])?,
            5 if bytes[4] == b'+' => {
                return Err(MoveTextError::PromotingDrop {
                    text: text.to_string(),
                })
            }
            _ => return Err(bad_syntax()),
        };
        if !variant.has_drops() {
            return Err(MoveTextError::DropWithoutDrops {
                text: text.to_string(),
                variant,
            });
        }
        return Ok(Move::drop(kind, to));
    }
    let promote = match bytes.len() {
        4 => false,
        5 if bytes[4] == b'+' => true,
        _ => return Err(bad_syntax()),
    };
    let from = square(&text[0..2])?;
    let to = square(&text[2..4])?;
    if from == to {
        return Err(MoveTextError::SameSquare {
            text: text.to_string(),
        });
    }
    Ok(Move::normal(from, to, promote))
}

#[cfg(test)]
mod tests;
