//! CSA notation, the Computer Shogi Association's standard text for moves and positions (the
//! record format and the server protocol share it), for modern shogi on the 9x9 board.
//!
//! Facts used:
//! - A square is two digits, file then rank, both 1-9 (`77` is USI `7g`); `00` as a source means
//!   a drop from the hand.
//! - A move is the mover's sign (`+` Black, `-` White), source, destination and the name of the
//!   piece *after* the move: `+7776FU`, `-0034KA` (a bishop dropped on 3d), `+2423TO` (a pawn
//!   promoting on 2c). A promotion is read off the name: it is the promoted form of the piece on
//!   the source square.
//! - Piece names: FU KY KE GI KI KA HI OU, promoted TO NY NK NG UM RY.
//! - A position is `PI` (the start position, optionally followed by `<square><name>` entries of
//!   pieces taken off it, e.g. `PI82HI22KA` for a two-piece handicap) or nine rows `P1`..`P9`, each
//!   nine cells of three characters from file 9 down to file 1 (` * ` empty, `+FU`, `-KA`, ...);
//!   then `P+`/`P-` lines placing pieces of that side (`P+63FU`) or putting them in hand
//!   (`P-00KI00FU`; `00AL` gives that side every piece not yet placed, kings excepted); then the
//!   side to move, `+` or `-`. Lines starting with `'` are comments.

use super::position::{MoveError, Position, PositionError};
use super::sfen::{Setup, SfenError};
use super::types::{Color, HandKind, Move, Piece, PieceKind, Square};
use super::variant::Variant;

/// The CSA name of every kind, in `PieceKind` index order.
const NAMES: [&str; PieceKind::NUM] = [
    "FU", "KY", "KE", "GI", "KA", "HI", "KI", "OU", "TO", "NY", "NK", "NG", "UM", "RY",
];

impl PieceKind {
    /// The two-letter CSA name (`FU`, `UM`, ...).
    pub const fn csa_name(self) -> &'static str {
        NAMES[self as usize]
    }

    /// The kind a CSA name stands for.
    pub fn from_csa_name(name: &str) -> Option<PieceKind> {
        NAMES
            .iter()
            .position(|&n| n == name)
            .and_then(PieceKind::from_index)
    }
}

impl Color {
    /// `+` for Black, `-` for White.
    pub const fn csa_sign(self) -> char {
        match self {
            Color::Black => '+',
            Color::White => '-',
        }
    }

    /// The colour of a CSA sign.
    pub const fn from_csa_sign(sign: char) -> Option<Color> {
        match sign {
            '+' => Some(Color::Black),
            '-' => Some(Color::White),
            _ => None,
        }
    }
}

/// Why a CSA move text is not a legal move in a position. Every variant names the text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CsaMoveError {
    #[error(
        "'{0}' is not a CSA move (expected a sign, two squares and a piece name, e.g. +7776FU)"
    )]
    Syntax(String),
    #[error("'{text}': CSA moves are for modern shogi, not {variant}")]
    Variant { text: String, variant: Variant },
    #[error("'{text}': it is {to_move:?}'s move")]
    WrongSide { text: String, to_move: Color },
    #[error("'{0}': there is no piece on the source square")]
    NoPiece(String),
    #[error("'{0}': the piece on the source square belongs to the side not to move")]
    NotYourPiece(String),
    #[error(
        "'{text}': the piece on the source square is {on_source}, which cannot become {named}"
    )]
    WrongPiece {
        text: String,
        on_source: &'static str,
        named: &'static str,
    },
    #[error("'{0}': only an unpromoted piece other than the king can be dropped")]
    BadDrop(String),
    #[error("'{0}': source and destination are the same square")]
    SameSquare(String),
    #[error(transparent)]
    Illegal(#[from] MoveError),
}

/// Why a CSA position block does not give a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CsaPositionError {
    #[error("position line '{0}' is not a CSA position line (PI, P1-P9, P+, P-, + or -)")]
    UnknownLine(String),
    #[error("row '{line}': cell {cell} ('{text}') is not ' * ' or a sign and a piece name")]
    BadCell {
        line: String,
        cell: usize,
        text: String,
    },
    #[error("row '{0}' has more than nine cells")]
    LongRow(String),
    #[error("row P{0} appears twice")]
    DuplicateRow(u8),
    #[error("rows {0} are missing (a board given row by row needs all of P1-P9)")]
    MissingRows(String),
    #[error("'{0}': PI cannot be combined with rows P1-P9 or come after pieces were placed")]
    MixedBoard(String),
    #[error("'{line}': '{entry}' is not a square and a piece name")]
    BadEntry { line: String, entry: String },
    #[error("'{line}': no {name} stands on {square} of the start position to take off")]
    NothingToRemove {
        line: String,
        square: String,
        name: String,
    },
    #[error("'{line}': {square} is already occupied")]
    Occupied { line: String, square: String },
    #[error("'{line}': '{name}' cannot be held in hand")]
    NotHoldable { line: String, name: String },
    #[error("'{0}': 00AL must be the last entry of its line")]
    AllNotLast(String),
    #[error("the side to move (a line '+' or '-') is missing")]
    MissingSide,
    #[error("the side to move is given twice")]
    DuplicateSide,
    #[error("the position is impossible: {0}")]
    Impossible(#[from] SfenError),
    #[error("the position is illegal: {0}")]
    Illegal(#[from] PositionError),
}

/// `77` for USI `7g`.
fn square_text(sq: Square) -> String {
    format!("{}{}", sq.file() + 1, sq.rank() + 1)
}

/// The square of two CSA digits (`11`..`99`).
fn parse_square(text: &[u8]) -> Option<Square> {
    match text {
        [f @ b'1'..=b'9', r @ b'1'..=b'9'] => Some(Square::new(f - b'1', r - b'1')),
        _ => None,
    }
}

/// `+7776FU` for a legal (or at least pseudo-legal) move `m` in `pos`.
pub fn format_move(pos: &Position, m: Move) -> String {
    let sign = pos.side_to_move().csa_sign();
    let from = m.from().map_or_else(|| "00".to_string(), square_text);
    let mut kind = pos.moved_piece(m).kind();
    if m.is_promotion() {
        kind = kind.promoted().unwrap_or(kind);
    }
    format!("{sign}{from}{}{}", square_text(m.to()), kind.csa_name())
}

/// Reads a CSA move and checks that it is legal in `pos`; the error says why not.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, CsaMoveError> {
    let syntax = || CsaMoveError::Syntax(text.to_string());
    let t = || text.to_string();
    if pos.variant() != Variant::Shogi {
        return Err(CsaMoveError::Variant {
            text: t(),
            variant: pos.variant(),
        });
    }
    let bytes = text.as_bytes();
    if bytes.len() != 7 || !text.is_ascii() {
        return Err(syntax());
    }
    let color = Color::from_csa_sign(bytes[0] as char).ok_or_else(syntax)?;
    let named = PieceKind::from_csa_name(&text[5..7]).ok_or_else(syntax)?;
    let to = parse_square(&bytes[3..5]).ok_or_else(syntax)?;
    let from = match &bytes[1..3] {
        b"00" => None,
        digits => Some(parse_square(digits).ok_or_else(syntax)?),
    };
    if color != pos.side_to_move() {
        return Err(CsaMoveError::WrongSide {
            text: t(),
            to_move: pos.side_to_move(),
        });
    }
    let m = match from {
        None => {
            let kind = named
                .hand_kind()
                .filter(|_| !named.is_promoted())
                .ok_or_else(|| CsaMoveError::BadDrop(t()))?;
            Move::drop(kind, to)
        }
        Some(from) => {
            if from == to {
                return Err(CsaMoveError::SameSquare(t()));
            }
            let piece = pos
                .piece_on(from)
                .ok_or_else(|| CsaMoveError::NoPiece(t()))?;
            if piece.color() != color {
                return Err(CsaMoveError::NotYourPiece(t()));
            }
            let promote = if piece.kind() == named {
                false
            } else if piece.kind().promoted() == Some(named) {
                true
            } else {
                return Err(CsaMoveError::WrongPiece {
                    text: t(),
                    on_source: piece.kind().csa_name(),
                    named: named.csa_name(),
                });
            };
            Move::normal(from, to, promote)
        }
    };
    // The position's USI parser gives the precise reason a move is not legal.
    pos.parse_usi_move(&m.to_usi())?;
    Ok(m)
}

/// The lines of `setup` as a CSA position: `P1`..`P9`, `P+`/`P-` for non-empty hands (rook first,
/// pawn last), and the side to move.
pub fn position_lines(setup: &Setup) -> Vec<String> {
    let mut lines = Vec::with_capacity(12);
    for rank in 0..9u8 {
        let mut row = format!("P{}", rank + 1);
        for file in (0..9u8).rev() {
            match setup.board[Square::new(file, rank).index()] {
                Some(p) => {
                    row.push(p.color().csa_sign());
                    row.push_str(p.kind().csa_name());
                }
                None => row.push_str(" * "),
            }
        }
        lines.push(row);
    }
    for color in Color::ALL {
        let hand = setup.hands[color.index()];
        if hand.is_empty() {
            continue;
        }
        let mut line = format!("P{}", color.csa_sign());
        for kind in HandKind::SFEN_ORDER {
            for _ in 0..hand.count(kind) {
                line.push_str("00");
                line.push_str(kind.piece_kind().csa_name());
            }
        }
        lines.push(line);
    }
    lines.push(setup.side_to_move.csa_sign().to_string());
    lines
}

/// Reads a CSA position block (board, hands, side to move; no moves) into a position. Empty
/// lines and comments are skipped; everything else must be a position line.
pub fn parse_position<S: AsRef<str>>(lines: &[S]) -> Result<Position, CsaPositionError> {
    let mut board: [Option<Piece>; 81] = [None; 81];
    let mut hands = [[0u32; HandKind::NUM]; 2];
    let mut rows_seen = [false; 9];
    let mut placed_any = false;
    let mut used_pi = false;
    let mut side = None;
    for raw in lines {
        let line = raw.as_ref().trim_end_matches(['\r', '\n']);
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('\'') {
            continue;
        }
        if trimmed == "+" || trimmed == "-" {
            if side.is_some() {
                return Err(CsaPositionError::DuplicateSide);
            }
            side = Color::from_csa_sign(trimmed.as_bytes()[0] as char);
            continue;
        }
        let bytes = trimmed.as_bytes();
        match bytes.get(1) {
            Some(b'I') if bytes[0] == b'P' => {
                if used_pi || placed_any || rows_seen.iter().any(|&r| r) {
                    return Err(CsaPositionError::MixedBoard(trimmed.to_string()));
                }
                used_pi = true;
                board = Setup::startpos(Variant::Shogi).board;
                remove_from_start(&mut board, trimmed)?;
            }
            Some(&d @ b'1'..=b'9') if bytes[0] == b'P' => {
                let rank = d - b'1';
                if used_pi {
                    return Err(CsaPositionError::MixedBoard(trimmed.to_string()));
                }
                if rows_seen[rank as usize] {
                    return Err(CsaPositionError::DuplicateRow(rank + 1));
                }
                rows_seen[rank as usize] = true;
                // Cells carry meaningful spaces: read the untrimmed line, padded where a writer
                // dropped the trailing blanks of an empty last cell.
                read_row(&mut board, line.trim_start(), rank)?;
            }
            Some(&s @ (b'+' | b'-')) if bytes[0] == b'P' => {
                let color = Color::from_csa_sign(s as char).expect("matched + or -");
                placed_any = true;
                place_pieces(&mut board, &mut hands, trimmed, color)?;
            }
            _ => return Err(CsaPositionError::UnknownLine(trimmed.to_string())),
        }
    }
    let missing: Vec<String> = (0..9)
        .filter(|&r| !rows_seen[r])
        .map(|r| format!("P{}", r + 1))
        .collect();
    if !missing.is_empty() && missing.len() < 9 {
        return Err(CsaPositionError::MissingRows(missing.join(" ")));
    }
    let side_to_move = side.ok_or(CsaPositionError::MissingSide)?;
    let mut setup = Setup::empty(Variant::Shogi);
    setup.board = board;
    setup.side_to_move = side_to_move;
    for color in Color::ALL {
        for kind in HandKind::ALL {
            let n = hands[color.index()][kind.index()];
            if !setup.hands[color.index()].set(kind, n) {
                return Err(CsaPositionError::Impossible(SfenError::TooManyPieces {
                    variant: Variant::Shogi,
                    kind,
                    found: n,
                    max: kind.total_count(),
                }));
            }
        }
    }
    // The SFEN reader holds every check of what is physically possible (piece counts, dead
    // pieces, nifu, kings): going through it keeps one copy of those rules.
    let checked = Setup::parse(&setup.to_sfen(), Variant::Shogi)?;
    Ok(Position::from_setup(&checked)?)
}

/// `PI` followed by `<square><name>` entries: takes those pieces off the start position.
fn remove_from_start(board: &mut [Option<Piece>; 81], line: &str) -> Result<(), CsaPositionError> {
    for entry in entries(line, &line[2..])? {
        let (sq, kind) = parse_entry(line, entry)?;
        let Some(sq) = sq else {
            return Err(CsaPositionError::BadEntry {
                line: line.to_string(),
                entry: entry.to_string(),
            });
        };
        match board[sq.index()] {
            Some(p) if p.kind() == kind => board[sq.index()] = None,
            _ => {
                return Err(CsaPositionError::NothingToRemove {
                    line: line.to_string(),
                    square: square_text(sq),
                    name: kind.csa_name().to_string(),
                })
            }
        }
    }
    Ok(())
}

/// One row `P<rank>` of nine three-character cells.
fn read_row(board: &mut [Option<Piece>; 81], line: &str, rank: u8) -> Result<(), CsaPositionError> {
    let cells = &line[2..];
    if !cells.is_ascii() {
        return Err(CsaPositionError::UnknownLine(line.to_string()));
    }
    if cells.trim_end().len() > 27 {
        return Err(CsaPositionError::LongRow(line.to_string()));
    }
    let padded = format!("{cells:<27}");
    for i in 0..9 {
        let text = &padded[3 * i..3 * i + 3];
        // Cell 0 is file 9.
        let sq = Square::new(8 - i as u8, rank);
        board[sq.index()] = if text == " * " {
            None
        } else {
            let color = Color::from_csa_sign(text.as_bytes()[0] as char);
            let kind = PieceKind::from_csa_name(&text[1..]);
            match (color, kind) {
                (Some(c), Some(k)) => Some(Piece::new(c, k)),
                _ => {
                    return Err(CsaPositionError::BadCell {
                        line: line.to_string(),
                        cell: i + 1,
                        text: text.to_string(),
                    })
                }
            }
        };
    }
    Ok(())
}

/// `P+`/`P-` followed by entries: board placements, hand pieces (`00`), or `00AL`.
fn place_pieces(
    board: &mut [Option<Piece>; 81],
    hands: &mut [[u32; HandKind::NUM]; 2],
    line: &str,
    color: Color,
) -> Result<(), CsaPositionError> {
    let list = entries(line, &line[2..])?;
    for (i, entry) in list.iter().enumerate() {
        if *entry == "00AL" {
            if i + 1 != list.len() {
                return Err(CsaPositionError::AllNotLast(line.to_string()));
            }
            give_rest(board, hands, color);
            continue;
        }
        let (sq, kind) = parse_entry(line, entry)?;
        match sq {
            Some(sq) => {
                if board[sq.index()].is_some() {
                    return Err(CsaPositionError::Occupied {
                        line: line.to_string(),
                        square: square_text(sq),
                    });
                }
                board[sq.index()] = Some(Piece::new(color, kind));
            }
            None => {
                let hand_kind = kind
                    .hand_kind()
                    .filter(|_| !kind.is_promoted())
                    .ok_or_else(|| CsaPositionError::NotHoldable {
                        line: line.to_string(),
                        name: kind.csa_name().to_string(),
                    })?;
                hands[color.index()][hand_kind.index()] += 1;
            }
        }
    }
    Ok(())
}

/// Everything not on the board or in a hand, kings excepted, goes to `color`'s hand.
fn give_rest(board: &[Option<Piece>; 81], hands: &mut [[u32; HandKind::NUM]; 2], color: Color) {
    for kind in HandKind::ALL {
        let on_board = board
            .iter()
            .flatten()
            .filter(|p| p.kind().hand_kind() == Some(kind))
            .count() as u32;
        let held = hands[0][kind.index()] + hands[1][kind.index()];
        let rest = kind.total_count().saturating_sub(on_board + held);
        hands[color.index()][kind.index()] += rest;
    }
}

/// The four-character entries after a line's two-character head.
fn entries<'a>(line: &str, rest: &'a str) -> Result<Vec<&'a str>, CsaPositionError> {
    let rest = rest.trim_end();
    if !rest.len().is_multiple_of(4) || !rest.is_ascii() {
        return Err(CsaPositionError::BadEntry {
            line: line.to_string(),
            entry: rest.to_string(),
        });
    }
    Ok((0..rest.len() / 4)
        .map(|i| &rest[4 * i..4 * i + 4])
        .collect())
}

/// `<square><name>`; the square is `None` for `00` (the hand).
fn parse_entry(line: &str, entry: &str) -> Result<(Option<Square>, PieceKind), CsaPositionError> {
    let bad = || CsaPositionError::BadEntry {
        line: line.to_string(),
        entry: entry.to_string(),
    };
    let kind = PieceKind::from_csa_name(&entry[2..]).ok_or_else(bad)?;
    let sq = match &entry.as_bytes()[..2] {
        b"00" => None,
        digits => Some(parse_square(digits).ok_or_else(bad)?),
    };
    Ok((sq, kind))
}

#[cfg(test)]
mod tests;
