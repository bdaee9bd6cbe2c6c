//! Generator tests: the staged generators partition the legal moves, the check generator agrees with
//! `gives_check`, and the Heian boards keep to their squares and have no drops.

use super::*;
use crate::core::variant::Variant;

fn pos(sfen: &str) -> Position {
    Position::from_sfen(sfen, Variant::Shogi).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

const POSITIONS: [&str; 7] = [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
    "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
    "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
    // Pawns one step from promoting, with and without something to capture.
    "4k4/1P1P3P1/2r6/9/9/9/9/9/4K4 b 2P 1",
    // Discovered-check candidates of several kinds in front of a rook, a bishop and a lance; hands.
    "4k4/9/4N4/4S3B/9/4G4/2L1+P4/9/1K2R2L1 b RBGSNLP 1",
    "4k4/9/2S6/9/B3N4/9/9/9/K3L4 b 2G 1",
];

fn sorted(list: &MoveList) -> Vec<u16> {
    let mut v: Vec<u16> = list.iter().map(|m| m.to_u16()).collect();
    v.sort_unstable();
    v
}

/// Walks a few plies from each position (all replies at the first ply) and runs `f` on each.
fn for_each_nearby(f: &mut impl FnMut(&Position)) {
    for sfen in POSITIONS {
        let mut p = pos(sfen);
        f(&p);
        for &m in legal_moves(&p).iter() {
            p.do_move(m);
            f(&p);
            p.undo_move();
        }
    }
}

#[test]
fn captures_and_quiets_partition_the_legal_moves() {
    for_each_nearby(&mut |p: &Position| {
        if p.in_check() {
            let mut ev = MoveList::new();
            generate_evasions(p, &mut ev);
            assert_eq!(sorted(&ev), sorted(&legal_moves(p)));
            return;
        }
        let mut caps = MoveList::new();
        generate_captures(p, &mut caps);
        let mut quiets = MoveList::new();
        generate_quiets(p, &mut quiets);
        for &m in caps.iter() {
            assert!(
                p.is_capture(m) || (p.moved_piece(m).kind() == PieceKind::Pawn && m.is_promotion()),
                "{m} is not a capture"
            );
            assert!(!quiets.contains(m), "{m} in both stages");
        }
        for &m in quiets.iter() {
            assert!(!p.is_capture(m), "{m} is a capture among quiets");
        }
        let mut both = MoveList::new();
        for &m in caps.iter().chain(quiets.iter()) {
            both.push(m);
            assert!(p.is_legal_pseudo(m));
        }
        assert_eq!(sorted(&both), sorted(&legal_moves(p)));
    });
}

#[test]
fn checks_are_the_quiet_moves_that_give_check() {
    let mut total = 0;
    for_each_nearby(&mut |p: &Position| {
        if p.in_check() {
            return;
        }
        let mut checks = MoveList::new();
        generate_checks(p, &mut checks);
        let mut quiets = MoveList::new();
        generate_quiets(p, &mut quiets);
        let mut expected = MoveList::new();
        for &m in quiets.iter() {
            if p.gives_check(m) {
                expected.push(m);
            }
        }
        assert_eq!(sorted(&checks), sorted(&expected), "{p:?}");
        total += checks.len();
    });
    assert!(total > 0);
}

#[test]
fn the_maximum_position_has_593_moves() {
    assert_eq!(
        legal_moves(&pos("R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1")).len(),
        593
    );
}

#[test]
fn heian_boards_keep_to_their_squares_and_have_no_drops() {
    for variant in [Variant::Heian, Variant::Heian8] {
        let mut p = Position::startpos(variant);
        let mask = variant.board_mask();
        // A few plies of every line, checking each generated move's squares.
        fn walk(p: &mut Position, depth: u32, mask: Bitboard) -> u64 {
            let list = legal_moves(p);
            for &m in list.iter() {
                assert!(!m.is_drop(), "drop {m} in {:?}", p.variant());
                assert!(mask.contains(m.to()) && mask.contains(m.from().unwrap()));
            }
            if depth == 1 {
                return list.len() as u64;
            }
            let mut n = 0;
            for &m in list.iter() {
                p.do_move(m);
                n += walk(p, depth - 1, mask);
                p.undo_move();
            }
            n
        }
        let n = walk(&mut p, 3, mask);
        assert_eq!(n, perft(&mut p, 3));
    }
}

#[test]
fn heian_start_moves() {
    // 9x8: each of the 9 pawns pushes; each lance has one step (rank g is empty, rank f holds its
    // own pawn); the rest as counted below.
    let p = Position::startpos(Variant::Heian);
    let list = legal_moves(&p);
    let count = |kind: PieceKind| {
        list.iter()
            .filter(|&&m| p.moved_piece(m).kind() == kind)
            .count()
    };
    assert_eq!(count(PieceKind::Pawn), 9);
    assert_eq!(count(PieceKind::Lance), 2);
    // Knights on 8h/2h jump to 7f/9f and 1f/3f, all occupied by own pawns.
    assert_eq!(count(PieceKind::Knight), 0);
    // Silvers (7h, 3h): three forward squares each on rank g.
    assert_eq!(count(PieceKind::Silver), 6);
    // Golds (6h, 4h): three forward squares each.
    assert_eq!(count(PieceKind::Gold), 6);
    // King (5h): 4g, 5g, 6g.
    assert_eq!(count(PieceKind::King), 3);
    // Captured pieces leave the game in Heian: capture the pawn and see the hand stays empty.
    let mut p = Position::from_sfen("4k4/9/4p4/4P4/9/9/9/4K4 b - 1", Variant::Heian).unwrap();
    let m = p.parse_usi_move("5d5c+").unwrap();
    p.do_move(m);
    assert!(p.hand(Color::Black).is_empty());
    p.undo_move();
    assert_eq!(
        p.piece_on(m.to()).map(|pc| pc.kind()),
        Some(PieceKind::Pawn)
    );
}

#[test]
fn heian_promotion_zone_is_the_far_three_ranks_of_its_board() {
    // White's zone on 9x8 is ranks f-h; its pawn on 5e steps into 5f with a choice, onto 5h forced.
    let p = Position::from_sfen("4k4/9/9/9/4p4/9/9/K8 w - 1", Variant::Heian).unwrap();
    let moves: Vec<String> = legal_moves(&p)
        .iter()
        .filter(|m| m.from() == Square::from_usi("5e"))
        .map(|m| m.to_string())
        .collect();
    assert_eq!(moves, ["5e5f+", "5e5f"]);
    let p = Position::from_sfen("4k4/9/9/9/9/9/4p4/K8 w - 1", Variant::Heian).unwrap();
    let moves: Vec<String> = legal_moves(&p)
        .iter()
        .filter(|m| m.from() == Square::from_usi("5g"))
        .map(|m| m.to_string())
        .collect();
    assert_eq!(moves, ["5g5h+"]);
}

#[test]
fn file_fill_marks_whole_files() {
    let sq = |s| Square::from_usi(s).unwrap();
    let bb: Bitboard = [sq("1a"), sq("5e"), sq("9i")].into_iter().collect();
    assert_eq!(
        file_fill(bb),
        Bitboard::file(0) | Bitboard::file(4) | Bitboard::file(8)
    );
    assert_eq!(file_fill(Bitboard::EMPTY), Bitboard::EMPTY);
    assert_eq!(file_fill(Bitboard::ALL), Bitboard::ALL);
    for s in Square::all() {
        assert_eq!(
            file_fill(Bitboard::from_square(s)),
            Bitboard::file(s.file())
        );
    }
}

#[test]
fn movelist_basics() {
    let mut list = MoveList::new();
    assert!(list.is_empty());
    let m = Move::drop(HandKind::Pawn, Square::new(4, 4));
    list.push(m);
    assert_eq!(list.len(), 1);
    assert!(list.contains(m));
    assert_eq!(list[0], m);
    list.retain(|_| false);
    assert!(list.is_empty());
}

/// `has_evasion` answers as the evasion generator does, in every position a checking move of a
/// random game (all three variants) leads to: contact and distant checks, double checks,
/// discovered checks, pinned defenders, and the mates that random play runs into.
#[test]
fn has_evasion_agrees_with_the_evasion_generator() {
    let (mut checks, mut mates) = (0, 0);
    let mut compare = |p: &Position| {
        let mut list = MoveList::new();
        generate_evasions(p, &mut list);
        assert_eq!(has_evasion(p), !list.is_empty(), "{}", p.to_sfen());
        checks += 1;
        mates += usize::from(list.is_empty());
    };
    crate::test_support::for_each_random_position(0x0e7a_5105_c4ec_c0de, 20, 120, |p| {
        if p.in_check() {
            compare(p);
            return;
        }
        for &m in legal_moves(p).iter() {
            if p.gives_check(m) {
                p.do_move(m);
                compare(p);
                p.undo_move();
            }
        }
    });
    for sfen in POSITIONS {
        let mut p = pos(sfen);
        for &m in legal_moves(&p).iter() {
            if p.gives_check(m) {
                p.do_move(m);
                compare(&p);
                p.undo_move();
            }
        }
    }
    // Double check by a knight and a rook: the pawn may take the knight, which answers nothing.
    let double = pos("7lk/7p1/7N1/9/9/9/9/9/4K3R w - 1");
    // The rook's check from afar: no square for the king, nothing to take the rook with or to move
    // in between; only a piece in hand dropped in between answers it.
    let distant = pos("7lk/7p1/9/9/9/9/9/9/4K3R w - 1");
    let distant_with_pawn = pos("7lk/7p1/9/9/9/9/9/9/4K3R w p 1");
    for p in [&double, &distant, &distant_with_pawn] {
        compare(p);
    }
    assert!(
        checks > 5000 && mates > 50,
        "{checks} checks, {mates} mates"
    );
    assert!(!has_evasion(&double) && !has_evasion(&distant) && has_evasion(&distant_with_pawn));
}

#[test]
fn perft_divide_until_never_stopped_is_perft_divide() {
    let p = pos(POSITIONS[1]);
    for threads in [1, 2] {
        let divide = perft_divide_until(&p, 3, threads, &|| false);
        assert!(divide.is_complete());
        assert_eq!(divide.root_moves, legal_moves(&p).len());
        assert_eq!(divide.counts, perft_divide(&p, 3, 1));
        assert_eq!(divide.nodes(), perft(&mut p.clone(), 3));
    }
}

/// Stopped part way, a perft keeps exactly the root moves it finished, each with its full count.
/// At depth 4 the predicate is asked once per root move (at the child, three plies above the
/// leaves), so answering "stop" at the sixth question leaves the first five root moves.
#[test]
fn perft_divide_until_keeps_the_root_moves_it_finished() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let p = pos(POSITIONS[0]);
    let asked = AtomicUsize::new(0);
    let divide = perft_divide_until(&p, 4, 1, &|| asked.fetch_add(1, Ordering::Relaxed) >= 5);
    assert!(!divide.is_complete());
    assert_eq!(divide.root_moves, 30);
    let full = perft_divide(&p, 4, 1);
    assert_eq!(divide.counts, full[..5]);
    assert_eq!(
        divide.nodes(),
        full[..5].iter().map(|&(_, n)| n).sum::<u64>()
    );
}

/// A perft stopped before it starts counts nothing (also over threads): the question comes at each
/// root move's child, before the recursion goes deeper, so this returns at once at any depth (5
/// here, so that a broken check fails in a second instead of hanging).
#[test]
fn perft_divide_until_stopped_at_once_counts_nothing() {
    let p = pos(POSITIONS[0]);
    for threads in [1, 2] {
        let divide = perft_divide_until(&p, 5, threads, &|| true);
        assert_eq!((divide.counts.len(), divide.root_moves), (0, 30));
        assert!(!divide.is_complete());
    }
    assert!(perft_divide_until(&p, 0, 1, &|| true).is_complete());
}
