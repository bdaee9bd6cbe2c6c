//! One test per rule of the game, through the public API only: each fails if that rule is broken.
//!
//! A move's legality is asked three ways that must agree: membership in `legal_moves`,
//! `Position::is_legal` on the decoded move, and `Position::parse_usi_move`.

use std::collections::BTreeSet;
use tokin::core::movegen::legal_moves;
use tokin::core::sfen::parse_move_text;
use tokin::core::{
    Color, EnteringKingRule, GameResult, Move, Position, Repetition, Square, Variant,
};

fn pos(sfen: &str) -> Position {
    pos_in(sfen, Variant::Shogi)
}

fn pos_in(sfen: &str, variant: Variant) -> Position {
    Position::from_sfen(sfen, variant).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

fn legal_set(p: &Position) -> BTreeSet<String> {
    legal_moves(p).iter().map(|m| m.to_usi()).collect()
}

/// Whether `text` is legal in `p`, after checking that the generator, `is_legal` and
/// `parse_usi_move` agree about it.
fn legal(p: &Position, text: &str) -> bool {
    let in_list = legal_set(p).contains(text);
    let by_is_legal = parse_move_text(text, p.variant()).is_ok_and(|m| p.is_legal(m));
    let by_parse = p.parse_usi_move(text).is_ok();
    assert_eq!(
        (in_list, by_is_legal, by_parse),
        (in_list, in_list, in_list),
        "{}: '{text}' generated / is_legal / parse_usi_move disagree",
        p.to_sfen()
    );
    in_list
}

fn assert_legal(p: &Position, moves: &[&str]) {
    for m in moves {
        assert!(legal(p, m), "{}: '{m}' should be legal", p.to_sfen());
    }
}

fn assert_illegal(p: &Position, moves: &[&str]) {
    for m in moves {
        assert!(!legal(p, m), "{}: '{m}' should be illegal", p.to_sfen());
    }
}

/// The legal moves of the piece on `from`, as USI text.
fn moves_from(p: &Position, from: &str) -> BTreeSet<String> {
    legal_set(p)
        .into_iter()
        .filter(|m| m.starts_with(from) && !m.contains('*'))
        .collect()
}

fn set(moves: &[&str]) -> BTreeSet<String> {
    moves.iter().map(|s| s.to_string()).collect()
}

fn play(p: &mut Position, moves: &[&str]) {
    for text in moves {
        let m: Move = p
            .parse_usi_move(text)
            .unwrap_or_else(|e| panic!("{}: {text}: {e}", p.to_sfen()));
        p.do_move(m);
    }
}

fn is_mate(p: &Position) -> bool {
    p.in_check() && legal_moves(p).is_empty()
}

// ------------------------------------------------------------------------------------------------
// Drops: dead squares, nifu
// ------------------------------------------------------------------------------------------------

#[test]
fn dead_drop_black_pawn_and_lance_not_on_last_rank() {
    let p = pos("4k4/9/9/9/9/9/9/9/4K4 b PL 1");
    assert_illegal(&p, &["P*1a", "L*1a", "P*9a", "L*9a"]);
    assert_legal(&p, &["P*1b", "L*1b", "P*1i", "L*1i"]);
}

#[test]
fn dead_drop_black_knight_not_on_last_two_ranks() {
    let p = pos("4k4/9/9/9/9/9/9/9/4K4 b N 1");
    assert_illegal(&p, &["N*1a", "N*1b", "N*9a", "N*9b"]);
    assert_legal(&p, &["N*1c", "N*9i"]);
}

#[test]
fn dead_drop_white_pawn_and_lance_not_on_last_rank() {
    let p = pos("4k4/9/9/9/9/9/9/9/4K4 w pl 1");
    assert_illegal(&p, &["P*1i", "L*1i", "P*9i", "L*9i"]);
    assert_legal(&p, &["P*1h", "L*1h", "P*1a", "L*1a"]);
}

#[test]
fn dead_drop_white_knight_not_on_last_two_ranks() {
    let p = pos("4k4/9/9/9/9/9/9/9/4K4 w n 1");
    assert_illegal(&p, &["N*1i", "N*1h", "N*9i", "N*9h"]);
    assert_legal(&p, &["N*1g", "N*9a"]);
}

#[test]
fn other_pieces_may_be_dropped_on_the_last_ranks() {
    let p = pos("4k4/9/9/9/9/9/9/9/4K4 b RBGS 1");
    assert_legal(&p, &["R*1a", "B*1a", "G*1a", "S*1a", "S*9b"]);
}

#[test]
fn no_drop_onto_an_occupied_square() {
    let p = pos("4k4/9/9/9/9/9/9/9/4K4 b G 1");
    assert_illegal(&p, &["G*5a", "G*5i"]);
}

#[test]
fn nifu_forbids_a_second_unpromoted_pawn_on_a_file() {
    let p = pos("4k4/9/9/9/9/9/4P4/9/4K4 b P 1");
    assert_illegal(&p, &["P*5e", "P*5b", "P*5h"]);
    assert_legal(&p, &["P*4e", "P*6e"]);
    let w = pos("4k4/9/4p4/9/9/9/9/9/4K4 w p 1");
    assert_illegal(&w, &["P*5e", "P*5h"]);
    assert_legal(&w, &["P*4e"]);
}

#[test]
fn nifu_does_not_count_a_promoted_pawn_or_the_opponents_pawn() {
    // Only a tokin (promoted pawn) of Black's on file 5, and a White pawn on file 4.
    let p = pos("4k4/9/4+P4/5p3/9/9/9/9/4K4 b P 1");
    assert_legal(&p, &["P*5e", "P*4g"]);
}

// ------------------------------------------------------------------------------------------------
// Uchifuzume (pawn-drop mate)
// ------------------------------------------------------------------------------------------------

// White king 1a boxed in by its own knight (2a) and lance (2b); Black's gold on 1c guards 1b.
const BOXED: &str = "7nk/7l1/8G/9/9/9/9/9/4K4";

#[test]
fn uchifuzume_pawn_drop_mate_is_illegal() {
    let p = pos(&format!("{BOXED} b P 1"));
    assert_illegal(&p, &["P*1b"]);
    assert_legal(&p, &["P*1d"]);
}

#[test]
fn drop_mate_with_another_piece_is_legal() {
    let mut p = pos(&format!("{BOXED} b GP 1"));
    assert_legal(&p, &["G*1b"]);
    play(&mut p, &["G*1b"]);
    assert!(is_mate(&p));
}

#[test]
fn pawn_drop_check_where_the_king_escapes_is_legal() {
    // Without the knight on 2a the king steps there.
    let mut p = pos("8k/7l1/8G/9/9/9/9/9/4K4 b P 1");
    assert_legal(&p, &["P*1b"]);
    play(&mut p, &["P*1b"]);
    assert!(p.in_check() && !is_mate(&p));
}

#[test]
fn pawn_drop_check_where_the_pawn_can_be_taken_is_legal() {
    // By the king (the pawn is unguarded) ...
    let p = pos("7nk/7l1/9/9/9/9/9/9/4K4 b P 1");
    assert_legal(&p, &["P*1b"]);
    // ... or by another piece (White's silver on 2c steps back diagonally to 1b).
    let q = pos("7nk/7l1/7sG/9/9/9/9/9/4K4 b P 1");
    assert_legal(&q, &["P*1b"]);
}

#[test]
fn pawn_drop_mate_is_illegal_even_if_a_pinned_piece_could_take() {
    // White's gold on 2b could take on 1b but is pinned by Black's bishop on 4d (4d-3c-2b-1a).
    let p = pos("7nk/7g1/8G/5B3/9/9/9/9/4K4 b P 1");
    assert_illegal(&p, &["P*1b"]);
    // Without the bishop the gold takes: legal.
    let q = pos("7nk/7g1/8G/9/9/9/9/9/4K4 b P 1");
    assert_legal(&q, &["P*1b"]);
}

#[test]
fn pawn_push_mate_is_legal() {
    let mut p = pos("7nk/7l1/7GP/9/9/9/9/9/4K4 b - 1");
    assert_legal(&p, &["1c1b", "1c1b+"]);
    play(&mut p, &["1c1b"]);
    assert!(is_mate(&p));
}

// ------------------------------------------------------------------------------------------------
// Promotion: forced and optional, for every piece
// ------------------------------------------------------------------------------------------------

#[test]
fn pawn_promotion() {
    let p = pos("4k4/8P/7P1/6P2/9/9/9/9/4K4 b - 1");
    // Onto the last rank: must promote.
    assert_eq!(moves_from(&p, "1b"), set(&["1b1a+"]));
    // Into the zone: may promote.
    assert_eq!(moves_from(&p, "2c"), set(&["2c2b", "2c2b+"]));
    assert_eq!(moves_from(&p, "3d"), set(&["3d3c", "3d3c+"]));
    let w = pos("4k4/9/9/9/9/2p6/1p7/p8/4K4 w - 1");
    assert_eq!(moves_from(&w, "9h"), set(&["9h9i+"]));
    assert_eq!(moves_from(&w, "8g"), set(&["8g8h", "8g8h+"]));
    assert_eq!(moves_from(&w, "7f"), set(&["7f7g", "7f7g+"]));
    // Outside the zone: no promotion.
    let q = pos("4k4/9/9/9/8P/9/9/9/4K4 b - 1");
    assert_eq!(moves_from(&q, "1e"), set(&["1e1d"]));
}

#[test]
fn lance_promotion() {
    let p = pos("4k4/9/9/9/8L/9/9/9/4K4 b - 1");
    assert_eq!(
        moves_from(&p, "1e"),
        set(&["1e1d", "1e1c", "1e1c+", "1e1b", "1e1b+", "1e1a+"])
    );
    let w = pos("4k4/9/9/9/l8/9/9/9/4K4 w - 1");
    assert_eq!(
        moves_from(&w, "9e"),
        set(&["9e9f", "9e9g", "9e9g+", "9e9h", "9e9h+", "9e9i+"])
    );
}

#[test]
fn knight_promotion() {
    // From 2e to rank c: optional. From 2d to rank b: forced.
    let p = pos("4k4/9/9/7N1/7N1/9/9/9/4K4 b - 1");
    assert_eq!(
        moves_from(&p, "2e"),
        set(&["2e1c", "2e1c+", "2e3c", "2e3c+"])
    );
    assert_eq!(moves_from(&p, "2d"), set(&["2d1b+", "2d3b+"]));
    let w = pos("4k4/9/9/9/1n7/1n7/9/9/4K4 w - 1");
    assert_eq!(
        moves_from(&w, "8e"),
        set(&["8e9g", "8e9g+", "8e7g", "8e7g+"])
    );
    assert_eq!(moves_from(&w, "8f"), set(&["8f9h+", "8f7h+"]));
}

#[test]
fn silver_promotion_entering_leaving_and_inside_the_zone() {
    // A silver on 5c (in the zone): every move may promote, also the retreat to 4d/6d out of it.
    let p = pos("k8/9/4S4/9/9/9/9/9/4K4 b - 1");
    assert_eq!(
        moves_from(&p, "5c"),
        set(&["5c4b", "5c4b+", "5c5b", "5c5b+", "5c6b", "5c6b+", "5c4d", "5c4d+", "5c6d", "5c6d+"])
    );
    // A silver on 5e neither starts nor ends in the zone: no promotion.
    let q = pos("k8/9/9/9/4S4/9/9/9/4K4 b - 1");
    assert!(moves_from(&q, "5e").iter().all(|m| !m.ends_with('+')));
    // From 5d the forward moves enter the zone and may promote; the backward ones may not.
    let r = pos("k8/9/9/4S4/9/9/9/9/4K4 b - 1");
    assert_eq!(
        moves_from(&r, "5d"),
        set(&["5d4c", "5d4c+", "5d5c", "5d5c+", "5d6c", "5d6c+", "5d4e", "5d6e"])
    );
}

#[test]
fn bishop_and_rook_promotion() {
    let p = pos("k8/9/9/9/9/9/9/1B5R1/4K4 b - 1");
    let bishop = moves_from(&p, "8h");
    assert!(bishop.contains("8h3c") && bishop.contains("8h3c+"));
    assert!(bishop.contains("8h4d") && !bishop.contains("8h4d+"));
    let rook = moves_from(&p, "2h");
    assert!(rook.contains("2h2c") && rook.contains("2h2c+"));
    assert!(rook.contains("2h2a") && rook.contains("2h2a+"));
    assert!(rook.contains("2h2d") && !rook.contains("2h2d+"));
    // Leaving the zone may promote too.
    let q = pos("k8/9/6R2/9/9/9/9/9/4K4 b - 1");
    assert_legal(&q, &["3c3g+", "3c3g"]);
}

#[test]
fn gold_king_and_promoted_pieces_never_promote() {
    let p = pos("k8/9/9/4G4/9/2+P6/9/9/4K4 b - 1");
    assert_legal(&p, &["5d5c", "7f7e"]);
    assert_illegal(&p, &["5d5c+", "7f7e+"]);
    let q = pos("k8/9/4K4/9/9/9/9/9/9 b - 1");
    assert!(!moves_from(&q, "5c").is_empty());
    assert!(moves_from(&q, "5c").iter().all(|m| !m.ends_with('+')));
    let r = pos("k8/9/9/2+B6/9/9/9/9/4K4 b - 1");
    assert!(moves_from(&r, "7d").iter().all(|m| !m.ends_with('+')));
}

#[test]
fn heian_promotion_zone_and_forced_promotion() {
    // 9 files x 8 ranks: White's zone is ranks f-h, its last rank h.
    let p = pos_in("k8/9/9/9/9/9/p8/8K w - 1", Variant::Heian);
    assert_eq!(moves_from(&p, "9g"), set(&["9g9h+"]));
    let q = pos_in("k8/9/9/9/p8/9/9/8K w - 1", Variant::Heian);
    assert_eq!(moves_from(&q, "9e"), set(&["9e9f", "9e9f+"]));
    // 8x8: Black's knight from 2d reaches rank b: forced.
    let r = pos_in("k7/8/8/6N1/8/8/8/7K b - 1", Variant::Heian8);
    assert_eq!(moves_from(&r, "2d"), set(&["2d1b+", "2d3b+"]));
}

#[test]
fn heian_has_no_drops_and_captures_leave_the_game() {
    let mut p = pos_in("k8/9/9/9/4p4/4G4/9/8K b - 1", Variant::Heian);
    play(&mut p, &["5f5e"]);
    assert!(p.hand(Color::Black).is_empty());
    assert!(legal_moves(&p).iter().all(|m| !m.is_drop()));
}

// ------------------------------------------------------------------------------------------------
// Checks and pins
// ------------------------------------------------------------------------------------------------

#[test]
fn pin_along_a_file() {
    // Black's gold on 5g is pinned by the rook on 5a: it may only move along the file.
    let p = pos("k3r4/9/9/9/9/9/4G4/9/4K4 b - 1");
    assert_eq!(moves_from(&p, "5g"), set(&["5g5f", "5g5h"]));
    // A pinned rook may slide along the line, capture included.
    let q = pos("k3r4/9/9/9/9/9/4R4/9/4K4 b - 1");
    assert_eq!(
        moves_from(&q, "5g"),
        set(&["5g5f", "5g5e", "5g5d", "5g5c", "5g5b", "5g5b+", "5g5c+", "5g5a", "5g5a+", "5g5h"])
    );
}

#[test]
fn pin_along_a_rank() {
    // A silver cannot move sideways, so pinned on the rank it has no move.
    let p = pos("k8/9/9/9/K1S5r/9/9/9/9 b - 1");
    assert!(moves_from(&p, "7e").is_empty());
    // A gold pinned on the rank may step along it.
    let q = pos("k8/9/9/9/K1G5r/9/9/9/9 b - 1");
    assert_eq!(moves_from(&q, "7e"), set(&["7e8e", "7e6e"]));
}

#[test]
fn pin_along_both_diagonals() {
    // Bishop on 1e pins the silver on 4h against the king on 5i: only 3g (along the line).
    let p = pos("k8/9/9/9/8b/9/9/5S3/4K4 b - 1");
    assert_eq!(moves_from(&p, "4h"), set(&["4h3g"]));
    // The other diagonal, by a horse on 9e: silver on 6h may go to 7g only.
    let q = pos("k8/9/9/9/+b8/9/9/3S5/4K4 b - 1");
    assert_eq!(moves_from(&q, "6h"), set(&["6h7g"]));
    // White's gold on 4b is pinned by the bishop on 1e (king on 5a): only 3c, on the line.
    let w = pos("4k4/5g3/9/9/8B/9/9/9/K8 w - 1");
    assert_eq!(moves_from(&w, "4b"), set(&["4b3c"]));
}

#[test]
fn pin_by_a_lance_and_no_pin_from_behind_a_lance() {
    // White's lance on 5a pins Black's knight on 5g: no knight move.
    let p = pos("k3l4/9/9/9/9/9/4N4/9/4K4 b - 1");
    assert!(moves_from(&p, "5g").is_empty());
    // A lance attacks only forward: Black's lance on 5d faces away from White's king on 5h, so
    // White's silver on 5g between them is free.
    let q = pos("K8/9/9/4L4/9/9/4s4/4k4/9 w - 1");
    assert!(moves_from(&q, "5g").contains("5g4f"));
}

#[test]
fn double_check_allows_only_king_moves() {
    // Rook on 5a (file) and bishop on 1e (diagonal) both check the king on 5i. A gold drop or the
    // gold on 4i could block one line but not both: only king moves remain.
    let p = pos("k3r4/9/9/9/8b/9/9/9/4KG3 b G 1");
    assert_eq!(p.checkers().count(), 2);
    let moves = legal_set(&p);
    assert!(!moves.is_empty());
    assert!(moves.iter().all(|m| m.starts_with("5i")), "{moves:?}");
    assert_illegal(&p, &["G*5h", "G*4h", "4i4h"]);
}

#[test]
fn single_check_is_answered_by_capture_block_or_king_move_only() {
    // Rook on 5a checks down the file; Black may block with a drop or a piece, or move the king.
    let p = pos("k3r4/9/9/9/9/9/9/9/3GK4 b G 1");
    assert!(p.in_check());
    assert_legal(&p, &["G*5e", "6i5h", "5i4h"]);
    assert_illegal(&p, &["6i7h", "G*1a", "5i5h"]);
}

#[test]
fn discovered_check() {
    // Black's lance on 5i behind the silver on 5g, White king on 5a: moving the silver off the
    // file discovers check; moving along it does not.
    let mut p = pos("4k4/9/9/9/9/9/4S4/9/K3L4 b - 1");
    let off = p.parse_usi_move("5g4f").unwrap();
    let along = p.parse_usi_move("5g5f").unwrap();
    assert!(p.gives_check(off));
    assert!(!p.gives_check(along));
    play(&mut p, &["5g4f"]);
    assert!(p.in_check());
    assert!(p.checkers().contains(Square::from_usi("5i").unwrap()));
}

#[test]
fn king_cannot_take_a_defended_piece() {
    // White's gold on 5h checks; guarded by the silver on 4g it cannot be taken by the king.
    let p = pos("k8/9/9/9/9/9/5s3/4g4/4K4 b - 1");
    assert_illegal(&p, &["5i5h"]);
    // Unguarded, it can.
    let q = pos("k8/9/9/9/9/9/9/4g4/4K4 b - 1");
    assert_legal(&q, &["5i5h"]);
}

#[test]
fn king_cannot_step_along_the_checking_line() {
    // Rook on 5a checks the king on 5e; 5f is still attacked through the king's square.
    let p = pos("k3r4/9/9/9/4K4/9/9/9/9 b - 1");
    assert_illegal(&p, &["5e5f", "5e5d"]);
    assert_legal(&p, &["5e4f", "5e6d"]);
}

#[test]
fn king_cannot_move_into_attack() {
    let p = pos("k8/9/9/9/9/9/3p5/9/4K4 b - 1");
    // White's pawn on 6g attacks 6h.
    assert_illegal(&p, &["5i6h"]);
    assert_legal(&p, &["5i5h", "5i4h"]);
}

// ------------------------------------------------------------------------------------------------
// Repetition: sennichite and perpetual check
// ------------------------------------------------------------------------------------------------

#[test]
fn sennichite_fourth_occurrence_is_a_draw() {
    // Both sides shuffle a gold; the start position recurs every four plies.
    let mut p = pos("4k4/3g5/9/9/9/9/9/5G3/4K4 b - 1");
    let cycle = ["4h4g", "6b6c", "4g4h", "6c6b"];
    play(&mut p, &cycle);
    assert_eq!(p.repetition(), Repetition::Draw);
    assert_eq!(p.sennichite(), None, "second occurrence");
    play(&mut p, &cycle);
    assert_eq!(p.sennichite(), None, "third occurrence");
    play(&mut p, &cycle[..3]);
    assert_eq!(p.sennichite(), None);
    play(&mut p, &cycle[3..]);
    assert_eq!(p.sennichite(), Some(GameResult::Draw), "fourth occurrence");
}

#[test]
fn sennichite_by_perpetual_check_loses_for_the_checker() {
    // White's rook checks along rank i, then rank h, following Black's king between 9i and 9h.
    let mut p = pos("4k4/9/9/9/9/9/9/9/K7r b - 1");
    let cycle = ["9i9h", "1i1h", "9h9i", "1h1i"];
    play(&mut p, &cycle);
    assert_eq!(
        p.repetition(),
        Repetition::Win,
        "Black to move was checked on every White move"
    );
    play(&mut p, &cycle[..1]);
    assert_eq!(
        p.repetition(),
        Repetition::Loss,
        "White to move gave every check"
    );
    play(&mut p, &cycle[1..]);
    assert_eq!(p.sennichite(), None, "third occurrence");
    play(&mut p, &cycle);
    assert_eq!(
        p.sennichite(),
        Some(GameResult::Win(Color::Black)),
        "White gave every check and loses"
    );
}

#[test]
fn perpetual_check_is_detected_from_the_checkers_side_of_the_cycle_too() {
    // The same chase, counted at a position where White (the checker) is to move: the fourth
    // occurrence of the start position still ends the game as White's loss.
    let mut p = pos("4k4/9/9/9/9/9/9/K8/8r w - 1");
    let cycle = ["1i1h", "9h9i", "1h1i", "9i9h"];
    for _ in 0..2 {
        play(&mut p, &cycle);
        assert_eq!(p.sennichite(), None);
    }
    assert_eq!(
        p.repetition(),
        Repetition::Loss,
        "White to move gave every check"
    );
    play(&mut p, &cycle);
    assert_eq!(p.sennichite(), Some(GameResult::Win(Color::Black)));
}

#[test]
fn sennichite_with_checks_on_only_some_moves_is_a_draw() {
    // White's rook checks from 1i (the king on 9i) but not from 1g: only some of White's moves
    // check, so the fourth occurrence is an ordinary draw.
    let mut p = pos("4k4/9/9/9/9/9/9/K8/8r w - 1");
    let cycle = ["1i1g", "9h9i", "1g1i", "9i9h"];
    play(&mut p, &cycle);
    play(&mut p, &cycle);
    play(&mut p, &cycle);
    assert_eq!(p.sennichite(), Some(GameResult::Draw));
}

// ------------------------------------------------------------------------------------------------
// Entering-king declaration
// ------------------------------------------------------------------------------------------------

// Black: king on 5b, dragon, horse, 2 golds, 2 silvers on rank a and 4 pawns on rank c: 10 pieces
// in the zone worth 5+5+1*8 = 18 points. White's mirror image for White.
fn black_declarer(hand: &str) -> Position {
    pos(&format!("+R+BGGSS3/4K4/PPPP5/9/9/9/9/9/4k4 b {hand} 1"))
}

fn white_declarer(hand: &str) -> Position {
    pos(&format!("4K4/9/9/9/9/9/5pppp/4k4/3ssgg+b+r w {hand} 1"))
}

#[test]
fn declaration_27_point_rule_black_needs_28() {
    assert!(black_declarer("10P").can_declare(EnteringKingRule::Csa27));
    assert!(!black_declarer("9P").can_declare(EnteringKingRule::Csa27));
    // Rook and bishop in hand count 5.
    assert!(black_declarer("R5P").can_declare(EnteringKingRule::Csa27));
}

#[test]
fn declaration_27_point_rule_white_needs_27() {
    assert!(white_declarer("9p").can_declare(EnteringKingRule::Csa27));
    assert!(!white_declarer("8p").can_declare(EnteringKingRule::Csa27));
}

#[test]
fn declaration_24_point_rule_needs_31_for_either_side() {
    assert!(black_declarer("10P3L").can_declare(EnteringKingRule::Csa24));
    assert!(!black_declarer("10P2L").can_declare(EnteringKingRule::Csa24));
    assert!(white_declarer("10p3l").can_declare(EnteringKingRule::Csa24));
    assert!(!white_declarer("10p2l").can_declare(EnteringKingRule::Csa24));
    assert!(!black_declarer("10P3L").can_declare(EnteringKingRule::None));
}

#[test]
fn declaration_conditions_king_in_zone_ten_pieces_not_in_check_to_move() {
    // Enough points, but only nine pieces in the zone (one pawn moved to rank d).
    let nine = pos("+R+BGGSS3/4K4/PPP6/3P5/9/9/9/9/4k4 b R10P 1");
    assert!(!nine.can_declare(EnteringKingRule::Csa27));
    // King outside the zone.
    let outside = pos("+R+BGGSS3/9/PPPP5/4K4/9/9/9/9/4k4 b 10P 1");
    assert!(!outside.can_declare(EnteringKingRule::Csa27));
    // In check from a White gold on 5c.
    let checked = pos("+R+BGGSS3/4K4/PPPPg4/9/9/9/9/9/4k4 b 10P 1");
    assert!(checked.in_check());
    assert!(!checked.can_declare(EnteringKingRule::Csa27));
    // Not the declarer's move.
    let not_to_move = pos("+R+BGGSS3/4K4/PPPP5/9/9/9/9/9/4k4 w 10P 1");
    assert!(!not_to_move.can_declare(EnteringKingRule::Csa27));
    // Heian has no declaration.
    let heian = pos_in(
        "GGSS+N+N+L+L1/4K4/PPPPPPPPP/9/9/9/9/4k4 b - 1",
        Variant::Heian,
    );
    assert!(!heian.can_declare(EnteringKingRule::Csa27));
}
