//! The two move sets a tsume search walks: the attacker's checks and the defender's evasions, both
//! fully legal, plus the mate-in-one probe and the counts used to seed proof numbers.
//!
//! The rules core's staged generators emit legal moves (pins and king safety applied, uchifuzume
//! and the other drop rules refused), so nothing here filters for legality again.

use crate::core::attacks::between;
use crate::core::movegen::{
    generate_captures, generate_checks, generate_evasions, generate_legal, has_evasion,
};
use crate::core::{Color, Hand, HandKind, Move, MoveList, Position};

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

/// The least attacker hand a proof at this defender node (in check) must keep: the defender's hand
/// is the rest of the material, so a smaller attacker hand gives the defender more pieces, and a
/// kind the defender does not hold now would give it new interposing drops. When the check can be
/// interposed at all (a single distant checker), the proof therefore keeps every attacker piece of
/// each kind the defender lacks. (Nifu and dead squares are ignored: a larger floor is still
/// sound.)
pub(crate) fn interposition_floor(pos: &Position, attacker: Color) -> Hand {
    let defender = attacker.flip();
    let interposable = match (pos.king_square(defender), pos.checkers().single()) {
        (Some(ksq), Some(checker)) => between(ksq, checker).is_nonempty(),
        _ => false,
    };
    let mut floor = Hand::EMPTY;
    if interposable {
        let theirs = pos.hand(defender);
        let ours = pos.hand(attacker);
        for kind in HandKind::ALL {
            if !theirs.has(kind) {
                floor.set(kind, ours.count(kind));
            }
        }
    }
    floor
}

/// The proof hand of an attacker node proven by `m` from the proof hand of the child: a dropped
/// piece must be held, a captured one is gained by the move. `pos` is the attacker node.
pub(crate) fn proof_hand_before(pos: &Position, m: Move, child: Hand) -> Hand {
    let mut hand = child;
    if let Some(kind) = m.drop_kind() {
        hand.add(kind);
    } else if let Some(kind) = pos.captured_piece(m).and_then(|p| p.kind().hand_kind()) {
        if hand.has(kind) {
            hand.remove(kind);
        }
    }
    hand
}

/// The kind-by-kind maximum of two hands.
pub(crate) fn hand_union(a: Hand, b: Hand) -> Hand {
    let mut out = a;
    for kind in HandKind::ALL {
        if b.count(kind) > a.count(kind) {
            out.set(kind, b.count(kind));
        }
    }
    out
}

/// A checking move after which the defender has no legal reply, if any.
///
/// `pos` is restored before returning. `nodes` counts the positions made.
pub(crate) fn mate_in_one(
    pos: &mut Position,
    checks: &mut MoveList,
    nodes: &mut u64,
) -> Option<Move> {
    generate_attacks(pos, checks);
    for &m in checks.iter() {
        pos.do_move(m);
        *nodes += 1;
        let mated = !has_evasion(pos);
        pos.undo_move();
        if mated {
            return Some(m);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::movegen::legal_moves;
    use crate::core::Variant;

    /// Every legal move that gives check, the slow way.
    fn all_checks(pos: &Position) -> Vec<Move> {
        let mut v: Vec<Move> = legal_moves(pos)
            .iter()
            .copied()
            .filter(|&m| pos.gives_check(m))
            .collect();
        v.sort_by_key(|m| m.to_u16());
        v
    }

    #[test]
    fn attacks_are_exactly_the_legal_checks() {
        // Captures that check, promotions and non-promotions that check, discovered checks, drops,
        // an attacker king in check, and a mate problem without attacker king.
        for sfen in [
            "ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42",
            "lnsgs2+Pl/3kg4/p1pppN2p/6pp1/9/7R1/P1PP1Sg1P/1S3+b3/LN5KL w Nrbg6p 58",
            "7nl/7k1/6ppp/9/9/9/9/9/5R3 b Sr2b4g3s3n3l15p 1",
            "4+P2kl/7s1/5R3/7B1/9/9/9/9/9 b GNrb3g3s3n3l17p 1",
            "6kpl/4Pg2S/5GbP1/5p2p/5sb2/9/9/9/9 b RSNPr2gs3n3l12p 1",
            "4k4/9/9/9/4B4/9/9/4R4/4K4 b Grb3g4s4n4l18p 1",
            "4k4/9/9/9/9/9/2b6/9/4K4 b RGrb3g4s4n4l18p 1",
            "k8/1g7/B8/9/9/9/9/9/8K b R 1",
            "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1",
        ] {
            let pos = Position::from_sfen(sfen, Variant::Shogi).expect("valid sfen");
            let mut list = MoveList::new();
            generate_attacks(&pos, &mut list);
            let mut ours: Vec<Move> = list.iter().copied().collect();
            ours.sort_by_key(|m| m.to_u16());
            assert_eq!(ours, all_checks(&pos), "{sfen}");
        }
    }

    #[test]
    fn defences_are_the_legal_moves_in_check() {
        let pos = Position::from_sfen(
            "7nl/7k1/6ppp/9/9/9/9/9/5R3 b Sr2b4g3s3n3l15p 1",
            Variant::Shogi,
        )
        .expect("valid sfen");
        let mut checks = MoveList::new();
        generate_attacks(&pos, &mut checks);
        let mut p = pos.clone();
        let mut list = MoveList::new();
        for &m in checks.iter() {
            p.do_move(m);
            generate_defences(&p, &mut list);
            assert_eq!(list.len(), legal_moves(&p).len(), "after {m}");
            assert!(defence_weight(&list) <= list.len() as u32);
            p.undo_move();
        }
    }
}
