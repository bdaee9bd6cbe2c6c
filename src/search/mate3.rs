//! Short forced mates probed at interior nodes of the main search: mate in one (a check that no
//! evasion answers) and mate in three (a check every evasion of which is answered by a mate in
//! one). Shogi attacks are sharp and drops make such mates common; finding them here saves the
//! search a few plies of full-width work.
//!
//! Both detectors are sound but incomplete: a move they return mates, but they overlook mates
//! outside their candidate sets (the final move of either is a contact or knight check). Move
//! lists live on the stack; nothing allocates.
//!
//! Rules within three plies: a pawn drop that mates is illegal (uchifuzume), so the mating move is
//! never a pawn drop and the generators already refuse a mating pawn drop as the first check.
//! Repetition and perpetual check cannot end the game this fast. Heian's bare-king rule can: an
//! evasion that leaves either side bare counts as a refutation (the search scores it by rule).

use crate::core::attacks::step_attacks;
use crate::core::movegen::{generate_captures, generate_checks, generate_evasions, has_evasion};
use crate::core::outcome::bare_king_loser;
use crate::core::{HandKind, Move, MoveList, PieceKind, Position, Square};

/// A move that mates at once, looked for among direct checks landing next to the enemy king
/// (drops and board moves, with and without promotion; knight checks included). Candidates are
/// filtered by the position's check squares before any legality test, so a node with nothing to
/// try costs a few bitboard operations, and a contact check the king can simply take is never
/// made. Pawn drops are skipped: a pawn drop that mates is illegal (uchifuzume). Distant slider
/// checks are left to the search.
///
/// Also sound when the side to move is in check: candidates must then pass the evasion test of
/// `is_pseudo_legal`.
pub(crate) fn mate_in_one(pos: &mut Position) -> Option<Move> {
    let us = pos.side_to_move();
    let them = us.flip();
    let ksq = pos.king_square(them)?;
    let occupied = pos.occupied();
    // A square next to the king that none of our pieces attacks can be reached by no board move,
    // and a piece dropped there is taken by the king: only the attacked ones (one pass over our
    // pieces, exact next to the king) and the knight-check squares hold candidates.
    let covered = pos.attacker_sets(us).attacks_around(ksq, occupied);
    let king_steps = step_attacks(them, PieceKind::King, ksq);
    let around = ((king_steps & covered) | step_attacks(them, PieceKind::Knight, ksq))
        & pos.variant().board_mask()
        & !pos.pieces_of(us);
    let hand = pos.hand(us);
    let mut candidates = MoveList::new();
    for to in around.iter() {
        for from in pos.attackers_to(us, to, occupied).iter() {
            let Some(piece) = pos.piece_on(from) else {
                continue;
            };
            let kind = piece.kind();
            if pos.check_squares(kind).contains(to) {
                let m = Move::normal(from, to, false);
                if pos.is_pseudo_legal(m) {
                    candidates.push(m);
                }
            }
            if let Some(promoted) = kind.promoted() {
                if pos.check_squares(promoted).contains(to) {
                    let m = Move::normal(from, to, true);
                    if pos.is_pseudo_legal(m) {
                        candidates.push(m);
                    }
                }
            }
        }
        if !occupied.contains(to) {
            for (kind, count) in hand.iter() {
                if count > 0
                    && kind != HandKind::Pawn
                    && pos.check_squares(kind.piece_kind()).contains(to)
                {
                    let m = Move::drop(kind, to);
                    if pos.is_pseudo_legal(m) {
                        candidates.push(m);
                    }
                }
            }
        }
    }
    for &m in candidates.iter() {
        if !pos.is_legal_pseudo(m) {
            continue;
        }
        if king_steps.contains(m.to()) && !defended_after(pos, m, ksq) {
            // The king takes the checker: no need to make the move and list the evasions (most
            // contact checks are refuted this way, so the probe's cost is mostly this test).
            continue;
        }
        pos.do_move(m);
        let escapes = has_evasion(pos);
        pos.undo_move();
        if !escapes {
            return Some(m);
        }
    }
    None
}

/// Whether a piece of the side to move other than the one `m` moves (or drops) attacks `m`'s
/// destination once `m` is made and the enemy king on `ksq` has left its square: when it does not,
/// the king can take the piece that `m` puts next to it.
#[inline]
fn defended_after(pos: &Position, m: Move, ksq: Square) -> bool {
    let us = pos.side_to_move();
    let to = m.to();
    let mut occupied = pos.occupied().with(to).without(ksq);
    let mut others = pos.pieces_of(us);
    if let Some(from) = m.from() {
        occupied = occupied.without(from);
        others = others.without(from);
    }
    (pos.attackers_to(us, to, occupied) & others).is_nonempty()
}

/// Squares next to the enemy king it could step to now: on the board, not holding one of its own
/// pieces and not attacked by the side to move (sliders seeing through the king's square). A cheap
/// measure of how cramped the king is.
pub(crate) fn king_escapes(pos: &Position) -> u32 {
    let us = pos.side_to_move();
    let them = us.flip();
    let Some(ksq) = pos.king_square(them) else {
        return 0;
    };
    let steps = step_attacks(them, PieceKind::King, ksq)
        & pos.variant().board_mask()
        & !pos.pieces_of(them);
    let occ = pos.occupied().without(ksq);
    steps
        .iter()
        .filter(|&sq| !pos.is_attacked_with(us, sq, occ))
        .count() as u32
}

/// A forced mate of at most three plies for the side to move (not in check): the mating first
/// move and the mate's length in plies (1 when a check has no answer at all, 3 otherwise).
///
/// Every check is tried (quiet ones, drops and captures); a check with more than `max_evasions`
/// answers is passed over, since each answer needs its own mate. `budget` bounds the number of
/// mate-in-one probes after evasions: the probe gives up (`None`) when it runs out.
pub(crate) fn mate_in_three(
    pos: &mut Position,
    max_evasions: usize,
    mut budget: u32,
) -> Option<(Move, u32)> {
    debug_assert!(!pos.in_check());
    let us = pos.side_to_move();
    pos.king_square(us.flip())?;
    let mut checks = MoveList::new();
    generate_checks(pos, &mut checks);
    let start = checks.len();
    generate_captures(pos, &mut checks);
    {
        let p: &Position = pos;
        checks.retain_from(start, |m| p.gives_check(m));
    }
    let mut evasions = MoveList::new();
    for &check in checks.iter() {
        // The generators emit legal moves only; mating pawn drops are already refused there.
        pos.do_move(check);
        if bare_king_loser(pos).is_some() {
            pos.undo_move();
            continue;
        }
        evasions.clear();
        generate_evasions(pos, &mut evasions);
        if evasions.is_empty() {
            pos.undo_move();
            return Some((check, 1));
        }
        if evasions.len() > max_evasions {
            pos.undo_move();
            continue;
        }
        let mut refuted = false;
        for &evasion in evasions.iter() {
            if budget == 0 {
                pos.undo_move();
                return None;
            }
            budget -= 1;
            pos.do_move(evasion);
            let mated = bare_king_loser(pos).is_none() && mate_in_one(pos).is_some();
            pos.undo_move();
            if !mated {
                refuted = true;
                break;
            }
        }
        pos.undo_move();
        if !refuted {
            return Some((check, 3));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::movegen::generate_legal;
    use crate::core::Variant;
    use crate::test_support::for_each_random_position;

    fn position(sfen: &str) -> Position {
        Position::from_sfen(sfen, Variant::Shogi).expect("valid sfen")
    }

    /// Reference by brute force over every legal move: whether the side to move mates within
    /// `plies` (odd), by the rules core alone.
    fn mates_within(pos: &mut Position, plies: u32) -> bool {
        let mut moves = MoveList::new();
        generate_legal(pos, &mut moves);
        for &m in moves.iter() {
            pos.do_move(m);
            let mated = pos.in_check() && defender_loses(pos, plies - 1);
            pos.undo_move();
            if mated {
                return true;
            }
        }
        false
    }

    /// The side to move (in check) has no reply that avoids a mate within `plies` more.
    fn defender_loses(pos: &mut Position, plies: u32) -> bool {
        let mut replies = MoveList::new();
        generate_legal(pos, &mut replies);
        if replies.is_empty() {
            return true;
        }
        if plies == 0 {
            return false;
        }
        replies.iter().all(|&r| {
            pos.do_move(r);
            let lost = mates_within(pos, plies - 1);
            pos.undo_move();
            lost
        })
    }

    /// Whether `m` is a check that every reply answers with a mate within `plies - 1`.
    fn is_mate_by(pos: &mut Position, m: Move, plies: u32) -> bool {
        if !pos.is_legal(m) {
            return false;
        }
        pos.do_move(m);
        let ok = pos.in_check() && defender_loses(pos, plies - 1);
        pos.undo_move();
        ok
    }

    fn assert_mate_in_three(sfen: &str, expected_first: &str) {
        let mut pos = position(sfen);
        assert_eq!(mate_in_one(&mut pos), None, "{sfen}: not a mate in one");
        let (m, plies) = mate_in_three(&mut pos, 64, 10_000).expect(sfen);
        assert_eq!(plies, 3, "{sfen}");
        assert_eq!(m.to_string(), expected_first, "{sfen}");
        assert!(is_mate_by(&mut pos, m, 3), "{sfen}: {m} is no mate in 3");
        assert_eq!(pos.to_sfen(), position(sfen).to_sfen(), "position restored");
    }

    fn assert_no_mate_in_three(sfen: &str) {
        let mut pos = position(sfen);
        assert!(
            !mates_within(&mut pos, 3),
            "{sfen}: the reference finds a mate"
        );
        assert_eq!(mate_in_three(&mut pos, 64, 10_000), None, "{sfen}");
        assert_eq!(mate_in_one(&mut pos), None, "{sfen}");
    }

    #[test]
    fn mate_in_three_gold_drops() {
        // G*3b 2b1b G*2b (the king cannot go back to 2a... every answer meets a gold drop).
        assert_mate_in_three("7nl/7k1/6Ppp/9/9/9/9/9/9 b 2G2r2b2g4s3n3l15p 1", "G*3b");
    }

    #[test]
    fn mate_in_three_knight_drop() {
        assert_mate_in_three(
            "5g1nl/4g1sk1/4ppppp/9/4B4/9/9/9/9 b GN2rbg3s2n3l13p 1",
            "N*3d",
        );
    }

    #[test]
    fn mate_in_three_silver_then_gold() {
        assert_mate_in_three("7kl/9/6P2/9/9/9/9/9/9 b R2GSr2b2g3s4n3l17p 1", "S*3b");
    }

    #[test]
    fn mate_in_three_white_attacks_in_a_game() {
        assert_mate_in_three(
            "ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42",
            "B*5g",
        );
    }

    #[test]
    fn mate_in_one_is_reported_as_such() {
        let mut pos = position("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1");
        let m = mate_in_one(&mut pos).expect("G*5b mates");
        assert_eq!(m.to_string(), "G*5b");
        // R*5a (any rook drop on the a-file) mates from afar: the king's own knight and pawn box it
        // in and the defender has nothing to interpose. The contact probe does not see it; the
        // three-ply probe does (as some mate).
        let mut pos = position("8k/7np/9/9/9/9/9/9/9 b 2R2B4G4S3N4L17P 1");
        assert_eq!(mate_in_one(&mut pos), None);
        let (m, plies) = mate_in_three(&mut pos, 64, 10_000).expect("a mate");
        assert!(is_mate_by(&mut pos, m, 2 * plies - 1), "{m}");
    }

    #[test]
    fn no_mate_when_the_only_mating_drop_is_a_pawn() {
        // P*1b would mate (guarded by the gold, 2a and 2b covered): uchifuzume, illegal.
        let sfen = "8k/9/6N1G/9/9/9/9/9/9 b P2r2b3g4s3n4l17p 1";
        assert_no_mate_in_three(sfen);
    }

    #[test]
    fn pawn_drop_check_then_mate_is_legal() {
        // A pawn drop that checks without mating is legal: P*1b (guarded by the gold) leaves only
        // 1a-2a, and S4c-3b mates. Nothing mates at once.
        assert_mate_in_three("8k/9/5S1G1/9/9/9/9/9/9 b P 1", "P*1b");
    }

    #[test]
    fn no_mate_when_the_king_escapes_by_capture() {
        // G*2b checks; the king takes it (nothing guards 2b). No other check mates.
        assert_no_mate_in_three("8k/9/9/9/9/9/9/9/9 b G2r2b3g4s4n4l18p 1");
    }

    #[test]
    fn no_mate_when_a_defender_interposes() {
        // The rook drop on the a-file checks from afar; the defender holds pieces to interpose
        // and the king has room.
        assert_no_mate_in_three("4k4/9/9/9/9/9/9/9/9 b R2b4g4s4n4l18pr 1");
    }

    #[test]
    fn no_mate_when_a_defender_takes_the_checker() {
        // Golds on 4a/6a guard the king's flank; every contact check can be taken.
        assert_no_mate_in_three("3gkg3/9/9/9/9/9/9/9/9 b GS2r2bg3s4n4l18p 1");
    }

    #[test]
    fn the_king_capture_shortcut_agrees_with_making_the_move() {
        // For every legal move that lands next to the enemy king, along random games of every
        // variant: `defended_after` says the king cannot take the piece exactly when, with the move
        // made, taking it is illegal.
        let (mut defended, mut open) = (0, 0);
        for_each_random_position(0x51f1_5eed_0bad_cafe, 30, 150, |pos| {
            let Some(ksq) = pos.king_square(pos.side_to_move().flip()) else {
                return;
            };
            let steps = step_attacks(pos.side_to_move().flip(), PieceKind::King, ksq);
            let mut moves = MoveList::new();
            generate_legal(pos, &mut moves);
            for &m in moves.iter().filter(|m| steps.contains(m.to())) {
                let shortcut = defended_after(pos, m, ksq);
                pos.do_move(m);
                let king_takes = Move::normal(ksq, m.to(), false);
                assert_eq!(
                    shortcut,
                    !pos.is_legal(king_takes),
                    "{m} then {king_takes} in {}",
                    pos.to_sfen()
                );
                pos.undo_move();
                if shortcut {
                    defended += 1;
                } else {
                    open += 1;
                }
            }
        });
        assert!(
            defended > 100 && open > 100,
            "both cases met: {defended} / {open}"
        );
    }

    /// Whether some legal move that is not a pawn drop lands next to the enemy king or on a
    /// knight-check square, checks with the moved piece itself, and leaves no legal answer: the
    /// class of mates `mate_in_one` promises to find, by brute force.
    fn has_contact_or_knight_mate(pos: &mut Position) -> bool {
        let them = pos.side_to_move().flip();
        let Some(ksq) = pos.king_square(them) else {
            return false;
        };
        let targets =
            step_attacks(them, PieceKind::King, ksq) | step_attacks(them, PieceKind::Knight, ksq);
        let mut moves = MoveList::new();
        generate_legal(pos, &mut moves);
        moves.iter().any(|&m| {
            if !targets.contains(m.to()) || m.drop_kind() == Some(HandKind::Pawn) {
                return false;
            }
            pos.do_move(m);
            let mut replies = MoveList::new();
            generate_legal(pos, &mut replies);
            let mates = pos.checkers().contains(m.to()) && replies.is_empty();
            pos.undo_move();
            mates
        })
    }

    #[test]
    fn mate_in_one_finds_every_contact_and_knight_mate() {
        // Along random games of every variant, the probe answers exactly when the brute-force
        // search of its class of mates finds one (so its shortcuts drop only non-mates).
        let mut mates = 0;
        for_each_random_position(0x0ddb_a11c_0ffe_e123, 40, 150, |pos| {
            let expected = has_contact_or_knight_mate(pos);
            let found = mate_in_one(pos);
            assert_eq!(found.is_some(), expected, "{found:?} in {}", pos.to_sfen());
            mates += usize::from(expected);
        });
        assert!(mates > 20, "only {mates} positions with such a mate");
    }

    #[test]
    fn soundness_on_random_positions() {
        // Every mate the probes report is confirmed by the brute-force reference, over positions
        // reached by random play (a seeded xorshift keeps the test reproducible).
        let mut rng = crate::rng::Rng::new(0x9e37_79b9_7f4a_7c15);
        let mut found = 0;
        for _game in 0..40 {
            let mut pos = Position::startpos(Variant::Shogi);
            for _ply in 0..120 {
                let mut moves = MoveList::new();
                generate_legal(&pos, &mut moves);
                if moves.is_empty() {
                    break;
                }
                if !pos.in_check() {
                    if let Some((m, plies)) = mate_in_three(&mut pos, 64, 10_000) {
                        assert!(is_mate_by(&mut pos, m, 2 * plies - 1), "{}", pos.to_sfen());
                        found += 1;
                    }
                }
                if let Some(m) = mate_in_one(&mut pos) {
                    assert!(is_mate_by(&mut pos, m, 1), "{}", pos.to_sfen());
                }
                let pick = moves[rng.below(moves.len())];
                pos.do_move(pick);
            }
        }
        assert!(found > 0, "random play produced no mates to check");
    }
}
