//! Attack tables: which squares a piece on a square attacks.
//!
//! Every function answers on the full 9x9 grid; callers mask the result with the variant's board
//! (`Variant::board_mask`). On the smaller Heian boards the squares beyond the board are never
//! occupied, so a slider's attacks run on past the board edge to the grid edge and the mask removes
//! them: e.g. a White lance on 1g of Heian (8 ranks) attacks 1h *and* 1i, and 1i must be masked off.
//!
//! Two kinds of table:
//! - Compile-time tables (`const` evaluation, so no start-up cost and no initialisation check on
//!   lookup): the step movers per colour, the lance by file pattern, and `between`/`line` for
//!   every pair of squares.
//! - Magic bitboards for the bishop and the rook (see [`magic`]), about 10 MB (in 2 MB pages where
//!   the system gives them) built once per process in a `OnceLock` and shared read-only by all
//!   threads. A lookup pays one atomic load to see that the table is built; [`init`] builds it
//!   ahead of the first search (at `isready`).

mod magic;

use super::bitboard::Bitboard;
use super::types::{Color, Piece, PieceKind, Square};
use magic::{SliderTable, BISHOP_DIRECTIONS, BISHOP_MAGICS, ROOK_DIRECTIONS, ROOK_MAGICS};
use std::sync::OnceLock;

// ---------------------------------------------------------------------------------------------
// Step movers

/// One-step offsets as (file delta, rank delta) from Black's view; rank delta -1 is "forward" for
/// Black. White's steps are these negated.
const PAWN_STEPS: &[(i32, i32)] = &[(0, -1)];
const KNIGHT_STEPS: &[(i32, i32)] = &[(-1, -2), (1, -2)];
const SILVER_STEPS: &[(i32, i32)] = &[(-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1)];
const GOLD_STEPS: &[(i32, i32)] = &[(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
const KING_STEPS: &[(i32, i32)] = &[
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];
const DIAGONAL_STEPS: &[(i32, i32)] = &[(-1, -1), (1, -1), (-1, 1), (1, 1)];
const ORTHOGONAL_STEPS: &[(i32, i32)] = &[(0, -1), (-1, 0), (1, 0), (0, 1)];

const fn on_grid(file: i32, rank: i32) -> bool {
    file >= 0 && file < 9 && rank >= 0 && rank < 9
}

/// The one-step targets of `steps` (Black's view, negated for White) from square index `sq`.
const fn step_bits(color: Color, sq: usize, steps: &[(i32, i32)]) -> u128 {
    let sign = match color {
        Color::Black => 1,
        Color::White => -1,
    };
    let (file, rank) = ((sq / 9) as i32, (sq % 9) as i32);
    let mut bits = 0u128;
    let mut i = 0;
    while i < steps.len() {
        let (f, r) = (file + steps[i].0 * sign, rank + steps[i].1 * sign);
        if on_grid(f, r) {
            bits |= 1u128 << (f * 9 + r);
        }
        i += 1;
    }
    bits
}

/// The steps defining `step_attacks` for each kind: a slider's entry is its reach when every
/// square is occupied (one step along each of its directions).
const fn kind_steps(kind: PieceKind) -> &'static [(i32, i32)] {
    match kind {
        PieceKind::Pawn | PieceKind::Lance => PAWN_STEPS,
        PieceKind::Knight => KNIGHT_STEPS,
        PieceKind::Silver => SILVER_STEPS,
        PieceKind::Bishop => DIAGONAL_STEPS,
        PieceKind::Rook => ORTHOGONAL_STEPS,
        PieceKind::Gold
        | PieceKind::ProPawn
        | PieceKind::ProLance
        | PieceKind::ProKnight
        | PieceKind::ProSilver => GOLD_STEPS,
        PieceKind::King | PieceKind::Horse | PieceKind::Dragon => KING_STEPS,
    }
}

/// `[color][kind][square]`, all fourteen kinds so a lookup needs no gold-like remapping.
static STEP: [[[Bitboard; Square::NUM]; PieceKind::NUM]; Color::NUM] = {
    let mut table = [[[Bitboard::EMPTY; Square::NUM]; PieceKind::NUM]; Color::NUM];
    let mut c = 0;
    while c < Color::NUM {
        let mut k = 0;
        while k < PieceKind::NUM {
            let steps = kind_steps(PieceKind::ALL[k]);
            let mut sq = 0;
            while sq < Square::NUM {
                table[c][k][sq] = Bitboard::from_u128(step_bits(Color::ALL[c], sq, steps));
                sq += 1;
            }
            k += 1;
        }
        c += 1;
    }
    table
};

// ---------------------------------------------------------------------------------------------
// Lance

/// `[color][rank][inner]`: the lance's attacks within its file as a 9-bit pattern (bit `r` is rank
/// index `r`), where `inner` is the occupancy of ranks b..h of that file (bit `j` is rank index
/// `j + 1`). The end ranks never block anything further, so they are left out of the index.
/// A file is nine consecutive bits of a bitboard, so the pattern is shifted into place: 4.5 KB in
/// place of 330 KB for a per-square table of full bitboards.
static LANCE: [[[u16; 128]; 9]; Color::NUM] = {
    let mut table = [[[0u16; 128]; 9]; Color::NUM];
    let mut c = 0;
    while c < Color::NUM {
        // Black moves toward rank index 0, White toward 8.
        let step: i32 = if c == 0 { -1 } else { 1 };
        let mut rank = 0;
        while rank < 9 {
            let mut inner = 0;
            while inner < 128 {
                let occupied = (inner as u16) << 1;
                let mut pattern = 0u16;
                let mut r = rank as i32 + step;
                while r >= 0 && r < 9 {
                    pattern |= 1 << r;
                    if occupied & (1 << r) != 0 {
                        break;
                    }
                    r += step;
                }
                table[c][rank][inner] = pattern;
                inner += 1;
            }
            rank += 1;
        }
        c += 1;
    }
    table
};

// ---------------------------------------------------------------------------------------------
// Between and line

/// The direction from `a` to `b` as unit (file, rank) steps when they share a file, rank or
/// diagonal, `(0, 0)` otherwise (or when `a == b`).
const fn direction(a: usize, b: usize) -> (i32, i32) {
    let df = (b / 9) as i32 - (a / 9) as i32;
    let dr = (b % 9) as i32 - (a % 9) as i32;
    if (df == 0 && dr == 0) || !(df == 0 || dr == 0 || df == dr || df == -dr) {
        return (0, 0);
    }
    (df.signum(), dr.signum())
}

/// Squares from `sq` (exclusive) along (df, dr) up to the grid edge or the first square of `stop`
/// (inclusive).
const fn ray_bits(sq: usize, df: i32, dr: i32, stop: u128) -> u128 {
    let (mut f, mut r) = ((sq / 9) as i32 + df, (sq % 9) as i32 + dr);
    let mut bits = 0u128;
    while on_grid(f, r) {
        let bit = 1u128 << (f * 9 + r);
        bits |= bit;
        if stop & bit != 0 {
            break;
        }
        f += df;
        r += dr;
    }
    bits
}

/// `[a][b]`: squares strictly between aligned `a` and `b`.
static BETWEEN: [[Bitboard; Square::NUM]; Square::NUM] = {
    let mut table = [[Bitboard::EMPTY; Square::NUM]; Square::NUM];
    let mut a = 0;
    while a < Square::NUM {
        let mut b = 0;
        while b < Square::NUM {
            let (df, dr) = direction(a, b);
            if df != 0 || dr != 0 {
                let b_bit = 1u128 << b;
                table[a][b] = Bitboard::from_u128(ray_bits(a, df, dr, b_bit) & !b_bit);
            }
            b += 1;
        }
        a += 1;
    }
    table
};

/// `[a][b]`: the whole line through aligned `a` and `b`, edge to edge.
static LINE: [[Bitboard; Square::NUM]; Square::NUM] = {
    let mut table = [[Bitboard::EMPTY; Square::NUM]; Square::NUM];
    let mut a = 0;
    while a < Square::NUM {
        let mut b = 0;
        while b < Square::NUM {
            let (df, dr) = direction(a, b);
            if df != 0 || dr != 0 {
                table[a][b] = Bitboard::from_u128(
                    ray_bits(a, df, dr, 0) | ray_bits(a, -df, -dr, 0) | 1u128 << a,
                );
            }
            b += 1;
        }
        a += 1;
    }
    table
};

// ---------------------------------------------------------------------------------------------
// Bishop and rook

struct Sliders {
    bishop: SliderTable,
    rook: SliderTable,
}

/// Built on first use or by [`init`].
static SLIDERS: OnceLock<Sliders> = OnceLock::new();

/// The slider tables. A lookup costs one load and a branch to see that they are built; the
/// building itself sits out of line, so the many inlined lookups of the hot paths (move generation,
/// evaluation, check detection) stay small (`LazyLock`'s inlined slow path was about 280 bytes
/// in each of them).
#[inline(always)]
fn sliders() -> &'static Sliders {
    match SLIDERS.get() {
        Some(sliders) => sliders,
        None => build_sliders(),
    }
}

#[cold]
#[inline(never)]
fn build_sliders() -> &'static Sliders {
    SLIDERS.get_or_init(|| Sliders {
        bishop: SliderTable::build(&BISHOP_DIRECTIONS, &BISHOP_MAGICS),
        rook: SliderTable::build(&ROOK_DIRECTIONS, &ROOK_MAGICS),
    })
}

/// Forces construction of the run-time tables (call at `isready`, not before `usiok`).
pub fn init() {
    sliders();
}

// ---------------------------------------------------------------------------------------------
// Lookups

/// Attacks of a non-sliding kind (pawn, knight, silver, gold and gold-likes, king).
///
/// For a sliding kind this is its reach when every square is occupied, i.e. one step along each
/// direction (lance: the square ahead; horse and dragon: the king's squares). That makes
/// `step_attacks(c, k, sq) == piece_attacks(Piece::new(c, k), sq, Bitboard::ALL)` for every kind.
#[inline]
pub fn step_attacks(color: Color, kind: PieceKind, sq: Square) -> Bitboard {
    STEP[color.index()][kind.index()][sq.index()]
}

#[inline]
pub fn lance_attacks(color: Color, sq: Square, occupied: Bitboard) -> Bitboard {
    let file_shift = 9 * sq.file() as u32;
    let inner = (occupied.to_u128() >> (file_shift + 1)) as usize & 0x7f;
    let pattern = LANCE[color.index()][sq.rank() as usize][inner];
    Bitboard::from_u128((pattern as u128) << file_shift)
}

#[inline]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    sliders().bishop.attacks(sq, occupied)
}

#[inline]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    sliders().rook.attacks(sq, occupied)
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

/// Squares strictly between `a` and `b` when they share a rank, file or diagonal; empty otherwise
/// (and for `a == b` or neighbours).
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    BETWEEN[a.index()][b.index()]
}

/// The whole line through `a` and `b` (both included, edge to edge of the grid) when they are
/// aligned; empty otherwise and for `a == b`.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    LINE[a.index()][b.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        Square::from_usi(name).expect("test square")
    }

    fn set(names: &[&str]) -> Bitboard {
        names.iter().map(|n| sq(n)).collect()
    }

    /// The slow reference: walk each ray one square at a time, stopping on (and including) the
    /// first occupied square.
    fn reference(from: Square, directions: &[(i32, i32)], occupied: Bitboard) -> Bitboard {
        let mut attacks = Bitboard::EMPTY;
        for &(df, dr) in directions {
            let mut at = from;
            while let Some(next) = Square::try_new(at.file() as i32 + df, at.rank() as i32 + dr) {
                attacks.set(next);
                if occupied.contains(next) {
                    break;
                }
                at = next;
            }
        }
        attacks
    }

    const DIAGONALS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
    const ORTHOGONALS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

    /// Seeded occupancies of varied density, from nearly empty to nearly full.
    fn random_occupancies(seed: u64, count: usize) -> Vec<Bitboard> {
        let mut state = seed;
        let mut next = move || {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        let mut word = move || (next() as u128) | (next() as u128) << 64;
        (0..count)
            .map(|i| {
                let bits = match i % 4 {
                    0 => word() & word() & word(), // about 1 in 8 occupied
                    1 => word() & word(),          // 1 in 4
                    2 => word(),                   // 1 in 2
                    _ => word() | word(),          // 3 in 4
                };
                Bitboard::from_u128(bits)
            })
            .collect()
    }

    #[test]
    fn sliders_match_the_ray_walking_reference() {
        let occupancies = random_occupancies(0x5eed, 2000);
        for from in Square::all() {
            for &occ in occupancies.iter().chain(&[
                Bitboard::EMPTY,
                Bitboard::ALL,
                !Bitboard::from_square(from),
            ]) {
                let bishop = reference(from, &DIAGONALS, occ);
                let rook = reference(from, &ORTHOGONALS, occ);
                assert_eq!(bishop_attacks(from, occ), bishop, "bishop {from} {occ:?}");
                assert_eq!(rook_attacks(from, occ), rook, "rook {from} {occ:?}");
                let king = step_attacks(Color::Black, PieceKind::King, from);
                assert_eq!(horse_attacks(from, occ), bishop | king, "horse {from}");
                assert_eq!(dragon_attacks(from, occ), rook | king, "dragon {from}");
                assert_eq!(
                    lance_attacks(Color::Black, from, occ),
                    reference(from, &[(0, -1)], occ),
                    "black lance {from} {occ:?}"
                );
                assert_eq!(
                    lance_attacks(Color::White, from, occ),
                    reference(from, &[(0, 1)], occ),
                    "white lance {from} {occ:?}"
                );
            }
        }
    }

    #[test]
    fn every_lance_file_pattern_matches_the_reference() {
        // The lance table is small enough to check exhaustively: every file occupancy, every square.
        for from in Square::all() {
            for pattern in 0u128..512 {
                let occ = Bitboard::from_u128(pattern << (9 * from.file() as u32));
                for (color, dir) in [(Color::Black, (0, -1)), (Color::White, (0, 1))] {
                    assert_eq!(
                        lance_attacks(color, from, occ),
                        reference(from, &[dir], occ)
                    );
                }
            }
        }
    }

    #[test]
    fn magic_masks_and_table_sizes() {
        let sliders = sliders();
        for from in Square::all() {
            // The mask is the empty-board reach without ray ends, so a corner rook has 7 + 7 bits.
            let rook_mask = sliders.rook.mask(from);
            let bishop_mask = sliders.bishop.mask(from);
            assert!((rook_mask & !rook_attacks(from, Bitboard::EMPTY)).is_empty());
            assert!((bishop_mask & !bishop_attacks(from, Bitboard::EMPTY)).is_empty());
            assert!(!rook_mask.contains(from) && !bishop_mask.contains(from));
        }
        assert_eq!(sliders.rook.mask(sq("1a")).count(), 14);
        assert_eq!(sliders.rook.mask(sq("5e")).count(), 12);
        assert_eq!(sliders.bishop.mask(sq("5e")).count(), 12);
        assert_eq!(sliders.bishop.mask(sq("1a")).count(), 7);
        // One block of 2^bits entries per square, at least as wide as the mask.
        for (table, numbers) in [
            (&sliders.rook, &ROOK_MAGICS),
            (&sliders.bishop, &BISHOP_MAGICS),
        ] {
            let mut entries = 0;
            for from in Square::all() {
                let bits = u32::from(numbers[from.index()].1);
                assert!(bits >= table.mask(from).count());
                entries += 1usize << bits;
            }
            assert_eq!(table.len(), entries);
        }
    }

    #[test]
    fn step_spot_checks() {
        let black_knight = step_attacks(Color::Black, PieceKind::Knight, sq("5e"));
        assert_eq!(black_knight, set(&["4c", "6c"]));
        assert_eq!(
            step_attacks(Color::White, PieceKind::Knight, sq("5e")),
            set(&["4g", "6g"])
        );
        assert_eq!(
            step_attacks(Color::White, PieceKind::Pawn, sq("5c")),
            set(&["5d"])
        );
        assert_eq!(
            step_attacks(Color::Black, PieceKind::Pawn, sq("5c")),
            set(&["5b"])
        );
        // Edges: nothing wraps into a neighbouring file or off the grid.
        assert!(step_attacks(Color::Black, PieceKind::Pawn, sq("1a")).is_empty());
        assert!(step_attacks(Color::White, PieceKind::Pawn, sq("9i")).is_empty());
        assert!(step_attacks(Color::Black, PieceKind::Knight, sq("5b")).is_empty());
        assert_eq!(
            step_attacks(Color::Black, PieceKind::Knight, sq("1c")),
            set(&["2a"])
        );
        assert_eq!(
            step_attacks(Color::Black, PieceKind::King, sq("1a")),
            set(&["2a", "1b", "2b"])
        );
        assert_eq!(
            step_attacks(Color::Black, PieceKind::King, sq("5e")).count(),
            8
        );
        assert_eq!(
            step_attacks(Color::Black, PieceKind::Silver, sq("5e")),
            set(&["4d", "5d", "6d", "4f", "6f"])
        );
        assert_eq!(
            step_attacks(Color::White, PieceKind::Gold, sq("5e")),
            set(&["4f", "5f", "6f", "4e", "6e", "5d"])
        );
        assert_eq!(
            step_attacks(Color::Black, PieceKind::Gold, sq("9i")),
            set(&["8i", "9h", "8h"])
        );
    }

    #[test]
    fn step_tables_are_consistent() {
        for from in Square::all() {
            for color in Color::ALL {
                let gold = step_attacks(color, PieceKind::Gold, from);
                for kind in PieceKind::ALL {
                    let piece = Piece::new(color, kind);
                    let step = step_attacks(color, kind, from);
                    // A slider's step entry is its reach on a full board.
                    assert_eq!(
                        step,
                        piece_attacks(piece, from, Bitboard::ALL),
                        "{kind:?} {from}"
                    );
                    if kind.moves_like_gold() {
                        assert_eq!(step, gold);
                    }
                    // White's tables are Black's turned around.
                    let mirrored: Bitboard = step_attacks(color.flip(), kind, from.rotate180())
                        .iter()
                        .map(Square::rotate180)
                        .collect();
                    assert_eq!(step, mirrored, "{color:?} {kind:?} {from}");
                }
            }
        }
    }

    #[test]
    fn between_and_line_properties() {
        for a in Square::all() {
            assert!(between(a, a).is_empty() && line(a, a).is_empty());
            for b in Square::all() {
                if a == b {
                    continue;
                }
                let aligned = rook_attacks(a, Bitboard::EMPTY).contains(b)
                    || bishop_attacks(a, Bitboard::EMPTY).contains(b);
                assert_eq!(between(a, b), between(b, a));
                assert_eq!(line(a, b), line(b, a));
                if !aligned {
                    assert!(between(a, b).is_empty() && line(a, b).is_empty(), "{a} {b}");
                    continue;
                }
                // Between is what sliders on `a` and on `b` both see along their line with only
                // each other on the board.
                let full = line(a, b);
                let only_ab = Bitboard::from_square(a).with(b);
                let seen = |s| rook_attacks(s, only_ab) | bishop_attacks(s, only_ab);
                assert_eq!(between(a, b), seen(a) & seen(b) & full, "{a} {b}");
                assert!(full.contains(a) && full.contains(b));
                assert!((between(a, b) & !full).is_empty());
                // The line runs edge to edge: every square on it gives the same line with `a`.
                for c in full.without(a) {
                    assert_eq!(line(a, c), full);
                }
                assert!(full.count() >= 2 && full.count() <= 9);
            }
        }
        assert_eq!(between(sq("1a"), sq("9i")).count(), 7);
        assert_eq!(between(sq("5e"), sq("5a")), set(&["5b", "5c", "5d"]));
        assert!(between(sq("5e"), sq("4d")).is_empty());
        assert_eq!(line(sq("5e"), sq("4d")).count(), 9);
        assert_eq!(line(sq("2a"), sq("1b")), set(&["2a", "1b"]));
    }
}
