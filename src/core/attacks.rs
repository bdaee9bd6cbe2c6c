//! Attack tables.
//!
//! PLACEHOLDER IMPLEMENTATION: sliders walk rays square by square. The API is settled; the magic-bitboard
//! version replaces the bodies.

use super::bitboard::Bitboard;
use super::types::{Color, Piece, PieceKind, Square};
use std::sync::OnceLock;

/// Direction steps as (file delta, rank delta) from Black's view; rank delta -1 is "forward" for Black.
const KING_STEPS: [(i32, i32); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];
const GOLD_STEPS: [(i32, i32); 6] = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
const SILVER_STEPS: [(i32, i32); 5] = [(-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1)];
const KNIGHT_STEPS: [(i32, i32); 2] = [(-1, -2), (1, -2)];
const PAWN_STEPS: [(i32, i32); 1] = [(0, -1)];

struct Tables {
    /// [color][kind][square] for the step movers (pawn, knight, silver, gold, king).
    step: [[[Bitboard; 81]; 8]; 2],
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut step = [[[Bitboard::EMPTY; 81]; 8]; 2];
        for color in Color::ALL {
            let sign = if color == Color::Black { 1 } else { -1 };
            for sq in Square::all() {
                let mut fill = |kind: PieceKind, deltas: &[(i32, i32)]| {
                    let mut bb = Bitboard::EMPTY;
                    for &(df, dr) in deltas {
                        if let Some(to) = Square::try_new(
                            sq.file() as i32 + df * sign,
                            sq.rank() as i32 + dr * sign,
                        ) {
                            bb.set(to);
                        }
                    }
                    step[color.index()][kind.index()][sq.index()] = bb;
                };
                fill(PieceKind::Pawn, &PAWN_STEPS);
                fill(PieceKind::Knight, &KNIGHT_STEPS);
                fill(PieceKind::Silver, &SILVER_STEPS);
                fill(PieceKind::Gold, &GOLD_STEPS);
                fill(PieceKind::King, &KING_STEPS);
            }
        }
        Tables { step }
    })
}

/// Forces table construction (call at `isready`, not before `usiok`).
pub fn init() {
    tables();
}

fn ray(sq: Square, df: i32, dr: i32, occupied: Bitboard) -> Bitboard {
    let mut bb = Bitboard::EMPTY;
    let (mut f, mut r) = (sq.file() as i32 + df, sq.rank() as i32 + dr);
    while let Some(to) = Square::try_new(f, r) {
        bb.set(to);
        if occupied.contains(to) {
            break;
        }
        f += df;
        r += dr;
    }
    bb
}

/// Attacks of a non-sliding kind (pawn, knight, silver, gold and gold-likes, king).
#[inline]
pub fn step_attacks(color: Color, kind: PieceKind, sq: Square) -> Bitboard {
    let kind = if kind.moves_like_gold() {
        PieceKind::Gold
    } else {
        kind
    };
    tables().step[color.index()][kind.index()][sq.index()]
}

#[inline]
pub fn lance_attacks(color: Color, sq: Square, occupied: Bitboard) -> Bitboard {
    match color {
        Color::Black => ray(sq, 0, -1, occupied),
        Color::White => ray(sq, 0, 1, occupied),
    }
}

#[inline]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    ray(sq, 1, 1, occupied)
        | ray(sq, 1, -1, occupied)
        | ray(sq, -1, 1, occupied)
        | ray(sq, -1, -1, occupied)
}

#[inline]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    ray(sq, 1, 0, occupied)
        | ray(sq, -1, 0, occupied)
        | ray(sq, 0, 1, occupied)
        | ray(sq, 0, -1, occupied)
}

#[inline]
pub fn horse_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    bishop_attacks(sq, occupied) | step_attacks(Color::Black, PieceKind::King, sq)
}

#[inline]
pub fn dragon_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks(sq, occupied) | step_attacks(Color::Black, PieceKind::King, sq)
}

/// Attacks of any piece standing on `sq`.
#[inline]
pub fn piece_attacks(piece: Piece, sq: Square, occupied: Bitboard) -> Bitboard {
    match piece.kind() {
        PieceKind::Lance => lance_attacks(piece.color(), sq, occupied),
        PieceKind::Bishop => bishop_attacks(sq, occupied),
        PieceKind::Rook => rook_attacks(sq, occupied),
        PieceKind::Horse => horse_attacks(sq, occupied),
        PieceKind::Dragon => dragon_attacks(sq, occupied),
        kind => step_attacks(piece.color(), kind, sq),
    }
}

fn direction(a: Square, b: Square) -> Option<(i32, i32)> {
    let df = b.file() as i32 - a.file() as i32;
    let dr = b.rank() as i32 - a.rank() as i32;
    if a == b || !(df == 0 || dr == 0 || df.abs() == dr.abs()) {
        return None;
    }
    Some((df.signum(), dr.signum()))
}

/// Squares strictly between `a` and `b` when they share a rank, file or diagonal; empty otherwise.
pub fn between(a: Square, b: Square) -> Bitboard {
    match direction(a, b) {
        Some((df, dr)) => ray(a, df, dr, Bitboard::from_square(b)).without(b),
        None => Bitboard::EMPTY,
    }
}

/// The whole line through `a` and `b` (both included) when they are aligned; empty otherwise.
pub fn line(a: Square, b: Square) -> Bitboard {
    match direction(a, b) {
        Some((df, dr)) => {
            ray(a, df, dr, Bitboard::EMPTY)
                | ray(a, -df, -dr, Bitboard::EMPTY)
                | Bitboard::from_square(a)
        }
        None => Bitboard::EMPTY,
    }
}
