//! The two move sets a tsume search walks: the attacker's checks and the defender's evasions, both
//! fully legal, plus the mate-in-one probe and the counts used to seed proof numbers.
//!
//! The rules core's staged generators emit legal moves (pins and king safety applied, uchifuzume
//! and the other drop rules refused), so nothing here filters for legality again.

use crate::core::movegen::{generate_captures, generate_checks, generate_evasions, generate_legal};
use crate::core::{Move, MoveList, Position};

/// Every legal move of the side to move that gives check.
///
/// The rules core's `generate_checks` covers the quiet moves and drops only, so the captures (and
/// the promoting pawn pushes `generate_captures` also returns) are added after a `gives_check`
/// filter: together they are every checking move, captures and promotions included. When the
/// attacker's own king is in check (possible only with an attacker king on the board) the
/// evasions that also check are the candidates. Drops of a pawn that would mate (uchifuzume) are
/// never produced: the rules core refuses them.
pub(crate) fn generate_attacks(pos: &Position, list: &mut MoveList) {
    list.clear();
    if pos.in_check() {
        generate_evasions(pos, list);
        list.retain(|m| pos.gives_check(m));
        return;
    }
    generate_captures(pos, list);
    list.retain(|m| pos.gives_check(m));
    generate_checks(pos, list);
}

/// Every legal reply to a check (king moves, captures of the checker, interpositions by moving a
/// piece or by a drop).
pub(crate) fn generate_defences(pos: &Position, list: &mut MoveList) {
    list.clear();
    if pos.in_check() {
        generate_evasions(pos, list);
    } else {
        // Not reached in a tsume search (every attacker move checks); kept total so that a caller
        // passing an unchecked position gets every legal move rather than none.
        generate_legal(pos, list);
    }
}

/// Whether the side to move (in check) has any legal reply.
pub(crate) fn has_defence(pos: &Position, scratch: &mut MoveList) -> bool {
    scratch.clear();
    generate_evasions(pos, scratch);
    !scratch.is_empty()
}

/// The proof-number seed of a defender node: how hard it looks to refute every reply.
///
/// King moves, captures and interpositions by a board piece count one each; drops count once per
/// square rather than once per kind in hand, since a drop interposition is most often captured
/// at once whatever was dropped, and counting seven kinds would make every distant check look
/// seven times harder than it is.
pub(crate) fn defence_weight(defences: &MoveList) -> u32 {
    let mut drop_squares = crate::core::Bitboard::EMPTY;
    let mut count = 0u32;
    for &m in defences.iter() {
        if m.is_drop() {
            drop_squares.set(m.to());
        } else {
            count += 1;
        }
    }
    count + drop_squares.count()
}

/// A checking move after which the defender has no legal reply, if any.
///
/// `pos` is restored before returning. `nodes` counts the positions made.
pub(crate) fn mate_in_one(
    pos: &mut Position,
    checks: &mut MoveList,
    scratch: &mut MoveList,
    nodes: &mut u64,
) -> Option<Move> {
    generate_attacks(pos, checks);
    for &m in checks.iter() {
        pos.do_move(m);
        *nodes += 1;
        let mated = !has_defence(pos, scratch);
        pos.undo_move();
        if mated {
            return Some(m);
        }
    }
    None
}
