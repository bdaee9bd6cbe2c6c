//! Move generation: all legal moves, the staged generators search uses, and perft.
//!
//! One generator, monomorphised over the generation type and the side to move (`const` generics), so
//! every stage is straight-line code with its targets fixed at compile time:
//!
//! | stage         | board-move targets                           | drops                  |
//! |---------------|----------------------------------------------|------------------------|
//! | captures      | enemy pieces (every promotion choice), plus pawn pushes that promote | none |
//! | quiets        | empty squares (pawn pushes: non-promotions only) | empty squares      |
//! | non-evasions  | empty or enemy                               | empty squares          |
//! | evasions      | king: anywhere safe; others: capture the checker or interpose | interpose |
//!
//! `captures ∪ quiets = non-evasions`, disjoint.
//!
//! Every stage emits only *legal* moves: pinned pieces are restricted to their pin line, king steps
//! are tested against the enemy's attacks with the king lifted off the board, and drops never expose
//! the king. That is stricter than the contract's "pseudo-legal" for the staged generators (so
//! `Position::is_legal_pseudo` on their output is always true) and lets `generate_legal` run without a
//! filtering pass. Every target is masked with the variant's board, promotion zones and dead squares
//! come from the variant, and drops exist only in variants with drops.

use super::attacks::{
    between, bishop_attacks, dragon_attacks, horse_attacks, lance_attacks, line, rook_attacks,
    step_attacks,
};
use super::bitboard::Bitboard;
use super::position::Position;
use super::stack_vec::StackVec;
use super::types::{Color, HandKind, Move, PieceKind, Square};
use rayon::prelude::*;

/// Capacity of a [`MoveList`]. The most legal moves any shogi position is known to have is 593
/// (`R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1`); since every generator here emits only
/// legal moves, 600 always suffices.
pub const MAX_MOVES: usize = 600;

/// A list of moves in a fixed array: no heap allocation.
pub type MoveList = StackVec<Move, MAX_MOVES>;

// Generation types (const generic parameter of `generate`).
const CAPTURES: u8 = 0;
const QUIETS: u8 = 1;
const NON_EVASIONS: u8 = 2;
const EVASIONS: u8 = 3;
const QUIET_CHECKS: u8 = 4;

/// Every legal move, including every legal non-promotion.
pub fn generate_legal(pos: &Position, list: &mut MoveList) {
    if pos.in_check() {
        generate::<EVASIONS>(pos, list);
    } else {
        generate::<NON_EVASIONS>(pos, list);
    }
}

/// Every legal move in a new list.
pub fn legal_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate_legal(pos, &mut list);
    list
}

/// Not in check: captures (with every promotion choice) and pawn pushes that promote.
#[inline(never)]
pub fn generate_captures(pos: &Position, list: &mut MoveList) {
    debug_assert!(!pos.in_check());
    generate::<CAPTURES>(pos, list);
}

/// Not in check: every move `generate_captures` leaves out, drops included.
#[inline(never)]
pub fn generate_quiets(pos: &Position, list: &mut MoveList) {
    debug_assert!(!pos.in_check());
    generate::<QUIETS>(pos, list);
}

/// In check: every evasion.
#[inline(never)]
pub fn generate_evasions(pos: &Position, list: &mut MoveList) {
    debug_assert!(pos.in_check());
    generate::<EVASIONS>(pos, list);
}

/// In check: whether any legal move exists (`generate_evasions` would emit one). The common answers
/// need no move list: a king step to a square the enemy does not attack, or, against a single
/// checker, a piece that may take it (not pinned, or pinned along the line it takes on; every
/// piece that attacks a square can move there, promoting where it must). Only a check from a
/// distance, which a move or drop in between could answer, generates the evasions.
pub fn has_evasion(pos: &Position) -> bool {
    debug_assert!(pos.in_check());
    let us = pos.side_to_move();
    let Some(ksq) = pos.king_square(us) else {
        return has_generated_evasion(pos);
    };
    let occupied = pos.occupied();
    let steps =
        step_attacks(us, PieceKind::King, ksq) & pos.variant().board_mask() & !pos.pieces_of(us);
    if steps.is_nonempty() {
        // The king leaves its square, so a slider's line through it counts beyond it.
        let lifted = occupied.without(ksq);
        let enemy = pos.attacker_sets(us.flip());
        if steps.iter().any(|to| !enemy.attack(to, lifted)) {
            return true;
        }
    }
    let Some(checker) = pos.checkers().single() else {
        // Double check: only the king could answer it.
        return false;
    };
    let pinned = pos.pinned(us);
    let takers = pos.attackers_to(us, checker, occupied).without(ksq);
    if takers
        .iter()
        .any(|from| !pinned.contains(from) || line(ksq, from).contains(checker))
    {
        return true;
    }
    between(ksq, checker).is_nonempty() && has_generated_evasion(pos)
}

fn has_generated_evasion(pos: &Position) -> bool {
    let mut list = MoveList::new();
    generate_evasions(pos, &mut list);
    !list.is_empty()
}

/// Not in check: the moves of `generate_quiets` (non-captures other than promoting pawn pushes,
/// and drops) that give check, directly or by discovery.
#[inline(never)]
pub fn generate_checks(pos: &Position, list: &mut MoveList) {
    debug_assert!(!pos.in_check());
    // Generation is narrowed to the squares that can check (per kind, promotions included) plus the
    // moves of discovered-check candidates; the final `gives_check` pass removes the rest (a
    // non-promotion onto a square only the promoted piece checks from, a discoverer staying on its
    // line).
    let start = list.len();
    generate::<QUIET_CHECKS>(pos, list);
    list.retain_from(start, |m| pos.gives_check(m));
}

#[inline]
fn generate<const GEN: u8>(pos: &Position, list: &mut MoveList) {
    generate_for::<GEN>(pos, list, pos.side_to_move() == Color::Black)
}

/// Every file that holds a square of `bb`, filled: the nifu mask in a few word operations.
///
/// Within each 9-bit file, adding 0xff to the low eight bits carries into bit 8 exactly when one of
/// them is set (the sum stays below 512, so no carry leaves the file); or-ing the original bit 8 marks
/// the non-empty files; then `n - (n >> 8)` turns each marker into the eight bits below it.
#[inline]
fn file_fill(bb: Bitboard) -> Bitboard {
    const RANK_I: u128 = Bitboard::rank(8).to_u128();
    const LOW: u128 = Bitboard::ALL.to_u128() & !RANK_I;
    let x = bb.to_u128();
    let n = (((x & LOW) + LOW) | x) & RANK_I;
    Bitboard::from_u128((n - (n >> 8)) | n)
}

/// Appends board moves from `from` to each of `targets` for a piece that may promote: the promotion
/// when `from` or the target is in the zone, the non-promotion unless the target is dead.
#[inline]
fn push_promotable(
    list: &mut MoveList,
    from: Square,
    targets: Bitboard,
    zone: Bitboard,
    in_zone: &[bool; Square::NUM],
    dead: Bitboard,
) {
    // Two passes over sets rather than two membership tests per target: u128 single-bit tests
    // compile to variable shifts, and perft spent measurable time on them. For the same reason
    // `from` is looked up in a byte table (startpos perft(4) under callgrind: 154.7 M -> 153.3 M
    // instructions).
    let promo = if in_zone[from.index()] {
        targets
    } else {
        targets & zone
    };
    for to in promo {
        list.push(Move::normal(from, to, true));
    }
    for to in targets & !dead {
        list.push(Move::normal(from, to, false));
    }
}

#[inline]
fn push_plain(list: &mut MoveList, from: Square, targets: Bitboard) {
    for to in targets {
        list.push(Move::normal(from, to, false));
    }
}

/// The moves of stage `GEN` for the side to move (`black` when it is Black). The colour is a value
/// rather than a const parameter: one copy of each stage's code serves both sides, which halved the
/// generators' share of the hot code (capture stage 10.5 KB -> 5.6 KB) for a few more instructions.
fn generate_for<const GEN: u8>(pos: &Position, list: &mut MoveList, black: bool) {
    let us = if black { Color::Black } else { Color::White };
    let them = us.flip();
    let g = pos.geometry();
    let ours = pos.pieces_of(us);
    let theirs = pos.pieces_of(them);
    let occ = ours | theirs;
    let empty = !occ & g.mask;
    let ksq = pos.king_square(us);

    // Targets of the non-king pieces and of drops.
    let (target, drop_target) = match GEN {
        CAPTURES => (theirs, Bitboard::EMPTY),
        QUIETS | QUIET_CHECKS => (empty, empty),
        NON_EVASIONS => (!ours & g.mask, empty),
        _ => {
            // Evasions: with two checkers only the king can move.
            match (pos.checkers().single(), ksq) {
                (Some(checker), Some(k)) => {
                    let block = between(k, checker);
                    (block | Bitboard::from_square(checker), block)
                }
                _ => (Bitboard::EMPTY, Bitboard::EMPTY),
            }
        }
    };

    if target.is_nonempty() || GEN == CAPTURES {
        let pinned = pos.pinned(us);
        // Usually nothing is pinned: one test here spares a per-piece membership test (a
        // variable `u128` shift) below. Startpos perft(4) under callgrind: 163.2 M -> 160.1 M.
        let any_pinned = pinned.is_nonempty();
        // A pinned piece may only move along the line through it and its king.
        let allowed = |from: Square| -> Bitboard {
            match ksq {
                Some(k) if any_pinned && pinned.contains(from) => line(k, from),
                _ => Bitboard::ALL,
            }
        };
        let zone = g.zone[us.index()];
        let in_zone = &g.in_zone[us.index()];
        // Quiet checks: a piece that is not a discovered-check candidate only goes where its kind
        // or its promoted kind would check from. Other stages: no restriction.
        let discoverers = pos.blockers_for_king(them) & ours;
        let checking = |from: Square, kind: PieceKind| -> Bitboard {
            if GEN != QUIET_CHECKS || discoverers.contains(from) {
                return Bitboard::ALL;
            }
            match kind.promoted() {
                Some(promoted) => pos.check_squares(kind) | pos.check_squares(promoted),
                None => pos.check_squares(kind),
            }
        };

        // Pawns, set-wise: each target has its source one rank behind.
        let pawns = pos.pieces(us, PieceKind::Pawn);
        let pushed = if black {
            pawns.shift_up()
        } else {
            pawns.shift_down()
        };
        let pawn_dead = g.last1[us.index()];
        let (pawn_both, pawn_promo_only, pawn_plain_only) = match GEN {
            // Captures: every choice on a capture; a push only as a promotion.
            CAPTURES => (pushed & theirs, pushed & empty & zone, Bitboard::EMPTY),
            // Quiets: pushes that do not promote (promoting pushes belong to captures).
            QUIETS | QUIET_CHECKS => (
                Bitboard::EMPTY,
                Bitboard::EMPTY,
                pushed & empty & !pawn_dead,
            ),
            _ => (pushed & target, Bitboard::EMPTY, Bitboard::EMPTY),
        };
        let pawn_from = |to: Square| -> Square {
            let i = to.index() as u8;
            Square::from_index_unchecked(if black { i + 1 } else { i - 1 })
        };
        // A pinned pawn can only push along its file, i.e. when the pin is on the file.
        let pawn_ok = |from: Square, to: Square| {
            !any_pinned || !pinned.contains(from) || allowed(from).contains(to)
        };
        for to in pawn_both & zone {
            let from = pawn_from(to);
            if pawn_ok(from, to) {
                list.push(Move::normal(from, to, true));
            }
        }
        for to in pawn_both & !pawn_dead {
            let from = pawn_from(to);
            if pawn_ok(from, to) {
                list.push(Move::normal(from, to, false));
            }
        }
        for to in pawn_promo_only {
            let from = pawn_from(to);
            if pawn_ok(from, to) {
                list.push(Move::normal(from, to, true));
            }
        }
        for to in pawn_plain_only {
            let from = pawn_from(to);
            if pawn_ok(from, to) {
                list.push(Move::normal(from, to, false));
            }
        }

        if target.is_nonempty() {
            for from in pos.pieces(us, PieceKind::Lance) {
                let t = lance_attacks(us, from, occ)
                    & target
                    & allowed(from)
                    & checking(from, PieceKind::Lance);
                push_promotable(list, from, t, zone, in_zone, pawn_dead);
            }
            let knight_dead = g.last2[us.index()];
            for from in pos.pieces(us, PieceKind::Knight) {
                let t = step_attacks(us, PieceKind::Knight, from)
                    & target
                    & allowed(from)
                    & checking(from, PieceKind::Knight);
                push_promotable(list, from, t, zone, in_zone, knight_dead);
            }
            for from in pos.pieces(us, PieceKind::Silver) {
                let t = step_attacks(us, PieceKind::Silver, from)
                    & target
                    & allowed(from)
                    & checking(from, PieceKind::Silver);
                push_promotable(list, from, t, zone, in_zone, Bitboard::EMPTY);
            }
            let majors = pos.pieces(us, PieceKind::Bishop) | pos.pieces(us, PieceKind::Rook);
            // Square order (bishops and rooks mixed) is kept so the move order does not change;
            // the two-way dispatch replaces the general `piece_attacks` call. Startpos perft(4)
            // under callgrind: 160.1 M -> 158.8 M instructions.
            for from in majors {
                let Some(piece) = pos.piece_on(from) else {
                    continue;
                };
                let reach = if piece.kind() == PieceKind::Bishop {
                    bishop_attacks(from, occ)
                } else {
                    rook_attacks(from, occ)
                };
                let t = reach & target & allowed(from) & checking(from, piece.kind());
                push_promotable(list, from, t, zone, in_zone, Bitboard::EMPTY);
            }
            for from in pos.gold_likes(us) {
                let t = step_attacks(us, PieceKind::Gold, from)
                    & target
                    & allowed(from)
                    & checking(from, PieceKind::Gold);
                push_plain(list, from, t);
            }
            let big = pos.pieces(us, PieceKind::Horse) | pos.pieces(us, PieceKind::Dragon);
            for from in big {
                let Some(piece) = pos.piece_on(from) else {
                    continue;
                };
                let reach = if piece.kind() == PieceKind::Horse {
                    horse_attacks(from, occ)
                } else {
                    dragon_attacks(from, occ)
                };
                let t = reach & target & allowed(from) & checking(from, piece.kind());
                push_plain(list, from, t);
            }
        }
    }

    // King steps, each tested against the enemy's attacks with the king lifted off the board (so a
    // slider's line through the king's square still counts).
    // (For quiet checks the king can only check by discovery.)
    let king_moves =
        GEN != QUIET_CHECKS || ksq.is_some_and(|k| pos.blockers_for_king(them).contains(k));
    if let (Some(k), true) = (ksq, king_moves) {
        let king_target = match GEN {
            CAPTURES => theirs,
            QUIETS | QUIET_CHECKS => empty,
            _ => !ours & g.mask,
        };
        let occ_without_king = occ.without(k);
        let targets = step_attacks(us, PieceKind::King, k) & king_target;
        if targets.is_nonempty() {
            let danger = pos.attacker_sets(them).attacks_around(k, occ_without_king);
            push_plain(list, k, targets & !danger);
        }
    }

    if drop_target.is_nonempty() && pos.variant().has_drops() {
        if GEN == QUIET_CHECKS {
            generate_checking_drops(pos, list, drop_target, black);
        } else {
            generate_drops(pos, list, drop_target, black);
        }
    }
}

/// Drops that give check: each kind onto the empty squares it checks from (dead squares, nifu and
/// uchifuzume still apply; they are few squares, so no rank bands here).
fn generate_checking_drops(pos: &Position, list: &mut MoveList, empty: Bitboard, black: bool) {
    let us = if black { Color::Black } else { Color::White };
    let hand = pos.hand(us);
    let g = pos.geometry();
    for kind in HandKind::ALL {
        if !hand.has(kind) {
            continue;
        }
        let piece_kind = kind.piece_kind();
        let mut t = pos.check_squares(piece_kind) & empty & !g.dead(us, piece_kind);
        if kind == HandKind::Pawn {
            t &= !file_fill(pos.pieces(us, PieceKind::Pawn));
            // The only checking square of a pawn is the uchifuzume candidate.
            if let Some(sq) = t.lsb() {
                if pos.is_pawn_drop_mate(sq) {
                    t.clear(sq);
                }
            }
        }
        for to in t {
            list.push(Move::drop(kind, to));
        }
    }
}

/// Drops onto `target` (empty squares of the board). Targets are split into the last rank (only
/// silver, gold, bishop, rook), the second-to-last (lance too) and the rest (knight too), each band
/// served by a prefix of one array of the kinds in hand; pawns are handled apart because of nifu
/// (one file mask) and uchifuzume (only the square in front of the enemy king is tested).
fn generate_drops(pos: &Position, list: &mut MoveList, target: Bitboard, black: bool) {
    let us = if black { Color::Black } else { Color::White };
    let hand = pos.hand(us);
    if hand.is_empty() {
        return;
    }
    let g = pos.geometry();
    let last1 = g.last1[us.index()];
    let last2 = g.last2[us.index()];

    if hand.has(HandKind::Pawn) {
        let mut t = target & !last1 & !file_fill(pos.pieces(us, PieceKind::Pawn));
        if let Some(enemy_king) = pos.king_square(us.flip()) {
            let front = step_attacks(us.flip(), PieceKind::Pawn, enemy_king) & t;
            if let Some(sq) = front.lsb() {
                if pos.is_pawn_drop_mate(sq) {
                    t.clear(sq);
                }
            }
        }
        for to in t {
            list.push(Move::drop(HandKind::Pawn, to));
        }
    }

    let mut kinds = [HandKind::Gold; 6];
    let mut n = 0;
    for kind in [
        HandKind::Silver,
        HandKind::Gold,
        HandKind::Bishop,
        HandKind::Rook,
    ] {
        if hand.has(kind) {
            kinds[n] = kind;
            n += 1;
        }
    }
    let n_last = n;
    if hand.has(HandKind::Lance) {
        kinds[n] = HandKind::Lance;
        n += 1;
    }
    let n_second = n;
    if hand.has(HandKind::Knight) {
        kinds[n] = HandKind::Knight;
        n += 1;
    }
    if n == 0 {
        return;
    }
    let bands = [
        (target & last1, &kinds[..n_last]),
        (target & last2 & !last1, &kinds[..n_second]),
        (target & !last2, &kinds[..n]),
    ];
    for (squares, band_kinds) in bands {
        if band_kinds.is_empty() {
            continue;
        }
        for to in squares {
            for &kind in band_kinds {
                list.push(Move::drop(kind, to));
            }
        }
    }
}

/// Number of leaf positions `depth` plies below `pos` (bulk-counted: the last ply only counts the
/// generated moves).
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    generate_legal(pos, &mut list);
    if depth == 1 {
        return list.len() as u64;
    }
    let mut nodes = 0;
    for &m in list.iter() {
        pos.do_move(m);
        nodes += perft(pos, depth - 1);
        pos.undo_move();
    }
    nodes
}

/// The deepest perft the command lines accept. Each ply of the recursion keeps a move list on the
/// stack (2.4 KB), so an unchecked depth from a client (`go perft 100000`) would overflow it; no
/// perft past about 12 plies ends in a lifetime anyway.
pub const MAX_PERFT_DEPTH: u32 = 64;

/// Perft split by root move, over `threads` threads (a local rayon pool) when `threads > 1`.
/// Returns each legal root move with its node count, in generation order. Depth 0 gives no moves.
pub fn perft_divide(pos: &Position, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    perft_divide_until(pos, depth, threads, &|| false).counts
}

/// A perft split by root move, complete or cut short.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Divide {
    /// Every root move whose subtree was counted in full, with its count, in generation order.
    pub counts: Vec<(Move, u64)>,
    /// The number of legal root moves: `counts` holds them all unless the count was cut short.
    pub root_moves: usize,
}

impl Divide {
    pub fn is_complete(&self) -> bool {
        self.counts.len() == self.root_moves
    }

    /// The sum of the counted root moves' counts.
    pub fn nodes(&self) -> u64 {
        self.counts.iter().map(|&(_, n)| n).sum()
    }
}

/// [`perft_divide`] that gives up once `stopped()` returns true, keeping the root moves counted in
/// full by then. `stopped` is asked at every node three or more plies above the leaves, so it
/// ends a perft of any depth within a few milliseconds, at no measurable cost (`tokin perft 5`
/// runs this with `|| false`).
pub fn perft_divide_until<F: Fn() -> bool + Sync>(
    pos: &Position,
    depth: u32,
    threads: usize,
    stopped: &F,
) -> Divide {
    if depth == 0 {
        return Divide::default();
    }
    let moves = legal_moves(pos);
    let count = |m: Move| -> Option<(Move, u64)> {
        let mut p = pos.clone();
        p.do_move(m);
        perft_until(&mut p, depth - 1, stopped).map(|n| (m, n))
    };
    let mut counted = None;
    if threads > 1 {
        if let Ok(pool) = rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            counted = Some(pool.install(|| {
                moves
                    .as_slice()
                    .par_iter()
                    .map(|&m| count(m))
                    .collect::<Vec<_>>()
            }));
        }
    }
    let counted = counted.unwrap_or_else(|| moves.iter().map(|&m| count(m)).collect());
    Divide {
        counts: counted.into_iter().flatten().collect(),
        root_moves: moves.len(),
    }
}

/// [`perft`], or `None` once `stopped()` says so. Subtrees of two plies or less are counted without
/// asking: they take well under a millisecond.
fn perft_until<F: Fn() -> bool>(pos: &mut Position, depth: u32, stopped: &F) -> Option<u64> {
    if depth < 3 {
        return Some(perft(pos, depth));
    }
    if stopped() {
        return None;
    }
    let mut list = MoveList::new();
    generate_legal(pos, &mut list);
    let mut nodes = 0;
    for &m in list.iter() {
        pos.do_move(m);
        let below = perft_until(pos, depth - 1, stopped);
        pos.undo_move();
        nodes += below?;
    }
    Some(nodes)
}

#[cfg(test)]
mod tests;
