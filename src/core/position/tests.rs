//! Rule tests for `Position`: one small position per rule, plus consistency sweeps (incremental keys
//! against a rebuild, every 16-bit move word against the generator, gives_check against do_move).

use super::*;
use crate::core::movegen::{legal_moves, MoveList};

fn pos(sfen: &str) -> Position {
    Position::from_sfen(sfen, Variant::Shogi).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

fn sq(s: &str) -> Square {
    Square::from_usi(s).unwrap()
}

fn mv(p: &Position, text: &str) -> Move {
    p.parse_usi_move(text)
        .unwrap_or_else(|e| panic!("{text} in {p:?}: {e}"))
}

fn play(p: &mut Position, moves: &[&str]) {
    for text in moves {
        let m = mv(p, text);
        p.do_move(m);
    }
}

/// USI texts of the legal moves, sorted.
fn legal_texts(p: &Position) -> Vec<String> {
    let mut v: Vec<String> = legal_moves(p).iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

/// USI texts of the legal moves from one square, sorted.
fn moves_from(p: &Position, from: &str) -> Vec<String> {
    let from = sq(from);
    let mut v: Vec<String> = legal_moves(p)
        .iter()
        .filter(|m| m.from() == Some(from))
        .map(|m| m.to_string())
        .collect();
    v.sort();
    v
}

fn is_legal_text(p: &Position, text: &str) -> bool {
    let list = legal_moves(p);
    let found = list.iter().any(|m| m.to_string() == text);
    assert_eq!(
        found,
        p.parse_usi_move(text).is_ok(),
        "generator and parse_usi_move disagree on {text}"
    );
    found
}

// ---------------------------------------------------------------------------------------------
// Construction
// ---------------------------------------------------------------------------------------------

#[test]
fn startpos_matches_its_sfen_for_every_variant() {
    for variant in Variant::ALL {
        let p = Position::startpos(variant);
        assert_eq!(p.to_sfen(), variant.startpos_sfen());
        assert_eq!(p.side_to_move(), Color::Black);
        assert_eq!(p.game_ply(), 1);
        assert!(!p.in_check());
        assert!(p.king_square(Color::Black).is_some());
    }
}

#[test]
fn sfen_round_trips() {
    for sfen in [
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
        "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
    ] {
        let canonical = Setup::parse(sfen, Variant::Shogi).unwrap().to_sfen();
        assert_eq!(pos(sfen).to_sfen(), canonical);
    }
}

#[test]
fn side_not_to_move_in_check_is_rejected() {
    // Black to move while White's king on 5a stands in the line of Black's rook.
    let err = Position::from_sfen("4k4/9/9/9/4R4/9/9/9/4K4 b - 1", Variant::Shogi).unwrap_err();
    assert_eq!(err, PositionError::OpponentInCheck(Color::White));
    assert!(matches!(
        Position::from_sfen("not an sfen", Variant::Shogi),
        Err(PositionError::Sfen(_))
    ));
}

#[test]
fn positions_without_kings_work() {
    // A mate problem: no Black king. Black may still move and drop.
    let p = pos("4k4/9/4P4/9/9/9/9/9/9 b G 1");
    assert_eq!(p.king_square(Color::Black), None);
    assert!(is_legal_text(&p, "G*5b"));
    assert!(p.gives_check(mv(&p, "G*5b")));
    // No king at all.
    let p = pos("9/9/9/9/4G4/9/9/9/9 b - 1");
    assert_eq!(legal_moves(&p).len(), 6);
}

// ---------------------------------------------------------------------------------------------
// Pins, checks, king safety
// ---------------------------------------------------------------------------------------------

#[test]
fn pin_along_a_file_by_a_rook() {
    let p = pos("4r3k/9/9/9/9/9/9/4G4/4K4 b - 1");
    assert_eq!(p.pinned(Color::Black), Bitboard::from_square(sq("5h")));
    assert_eq!(moves_from(&p, "5h"), ["5h5g"]);
}

#[test]
fn pin_along_a_rank_freezes_a_silver() {
    let p = pos("8k/9/9/9/K1S5r/9/9/9/9 b - 1");
    assert!(moves_from(&p, "7e").is_empty());
}

#[test]
fn pin_along_a_diagonal() {
    let p = pos("8k/9/9/5b3/9/9/2S6/9/K8 b - 1");
    assert_eq!(moves_from(&p, "7g"), ["7g6f", "7g8h"]);
}

#[test]
fn pin_by_a_lance_and_no_pin_by_a_lance_facing_away() {
    let p = pos("k3l4/9/9/9/4R4/9/9/9/4K4 b - 1");
    let moves = moves_from(&p, "5e");
    assert_eq!(moves.len(), 10, "{moves:?}");
    assert!(moves.iter().all(|m| m.as_bytes()[2] == b'5'));
    // White's lance on 5e moves toward rank i: it does not pin Black's gold above it.
    let p = pos("4K4/9/4G4/9/4l4/9/9/9/k8 b - 1");
    assert!(p.pinned(Color::Black).is_empty());
    assert_eq!(moves_from(&p, "5c").len(), 6);
}

#[test]
fn double_check_allows_only_king_moves() {
    let p = pos("4r3k/9/9/9/8b/9/9/3G5/4K4 b - 1");
    assert_eq!(p.checkers().count(), 2);
    assert_eq!(legal_texts(&p), ["5i4i", "5i6i"]);
}

#[test]
fn single_check_capture_block_or_step_aside() {
    // Rook on 5a checks the king on 5i: the gold on 4g may interpose on 5g, a rook may be dropped
    // on the file, the king may step aside but not along the file.
    let p = pos("4r3k/9/9/9/9/9/5G3/9/4K4 b R 1");
    let moves = legal_texts(&p);
    assert!(moves.contains(&"4g5g".to_string()));
    assert!(!moves.contains(&"4g4f".to_string()));
    assert!(moves.contains(&"R*5e".to_string()));
    assert!(!moves.contains(&"R*4e".to_string()));
    assert!(!moves.contains(&"5i5h".to_string()));
}

#[test]
fn king_cannot_step_behind_itself_on_a_slider_line() {
    let p = pos("4r3k/9/9/9/4K4/9/9/9/9 b - 1");
    assert!(!is_legal_text(&p, "5e5f"));
    assert!(!is_legal_text(&p, "5e5d"));
    assert_eq!(legal_texts(&p).len(), 6);
}

#[test]
fn king_cannot_capture_a_defended_piece() {
    // Gold on 5h checks, defended by the silver on 5g: mate.
    let p = pos("8k/9/9/9/9/9/4s4/4g4/4K4 b - 1");
    assert!(p.in_check());
    assert!(!is_legal_text(&p, "5i5h"));
    assert!(legal_moves(&p).is_empty());
    // Without the silver the king takes the gold.
    let p = pos("8k/9/9/9/9/9/9/4g4/4K4 b - 1");
    assert!(is_legal_text(&p, "5i5h"));
}

#[test]
fn discovered_direct_and_promotion_checks() {
    let p = pos("4k4/9/9/9/4S4/9/9/9/4R3K b GP 1");
    assert!(p.gives_check(mv(&p, "5e4d")), "discovered by the rook");
    assert!(!p.gives_check(mv(&p, "5e5d")), "stays on the line");
    assert!(p.gives_check(mv(&p, "G*5b")));
    assert!(p.gives_check(mv(&p, "G*4b")));
    assert!(!p.gives_check(mv(&p, "G*4c")));
    assert!(p.gives_check(mv(&p, "P*5b")));
    // A knight checks only after promoting.
    let p = pos("9/4k4/9/9/5N3/9/9/9/K8 b - 1");
    assert!(p.gives_check(mv(&p, "4e5c+")));
    assert!(!p.gives_check(mv(&p, "4e5c")));
}

// ---------------------------------------------------------------------------------------------
// Drops
// ---------------------------------------------------------------------------------------------

#[test]
fn nifu_and_the_promoted_pawn_exception() {
    let p = pos("4k4/9/9/9/9/9/4P4/5+P3/K8 b P 1");
    assert!(!is_legal_text(&p, "P*5e"));
    assert!(is_legal_text(&p, "P*4e"), "a tokin does not count for nifu");
    assert!(is_legal_text(&p, "P*1e"));
    assert!(matches!(
        p.parse_usi_move("P*5e"),
        Err(MoveError::BadDrop(_))
    ));
}

#[test]
fn dead_drop_squares() {
    let black = pos("4k4/9/9/9/9/9/9/9/4K4 b PLN 1");
    for (text, legal) in [
        ("P*1a", false),
        ("P*1b", true),
        ("L*1a", false),
        ("L*1b", true),
        ("N*1a", false),
        ("N*1b", false),
        ("N*1c", true),
    ] {
        assert_eq!(is_legal_text(&black, text), legal, "Black {text}");
    }
    let white = pos("4k4/9/9/9/9/9/9/9/4K4 w pln 1");
    for (text, legal) in [
        ("P*1i", false),
        ("P*1h", true),
        ("L*1i", false),
        ("L*1h", true),
        ("N*1i", false),
        ("N*1h", false),
        ("N*1g", true),
    ] {
        assert_eq!(is_legal_text(&white, text), legal, "White {text}");
    }
}

#[test]
fn uchifuzume_pawn_drop_mate_is_illegal() {
    // King 1a boxed in by its own knight and lance; the gold on 1c defends 1b.
    let p = pos("7nk/7l1/8G/9/9/9/9/9/4K4 b P 1");
    assert!(!is_legal_text(&p, "P*1b"));
    assert!(!p.is_pseudo_legal(Move::drop(HandKind::Pawn, sq("1b"))));
}

#[test]
fn uchifuzume_does_not_apply_when_the_pawn_can_be_taken_or_the_king_escapes() {
    // A silver on 2a can take the pawn.
    assert!(is_legal_text(
        &pos("7sk/7l1/8G/9/9/9/9/9/4K4 b P 1"),
        "P*1b"
    ));
    // Nothing defends 1b: the king takes the pawn.
    assert!(is_legal_text(&pos("7nk/7l1/9/9/9/9/9/9/4K4 b P 1"), "P*1b"));
    // The knight on 2d defends the pawn, but the king can step to 2b.
    assert!(is_legal_text(&pos("7nk/9/9/7N1/9/9/9/9/4K4 b P 1"), "P*1b"));
}

#[test]
fn uchifuzume_with_a_pinned_defender_is_still_mate() {
    // The silver on 2a could take on 1b but is pinned by the rook on 5a.
    let p = pos("4R2sk/7l1/8G/9/9/9/9/9/4K4 b P 1");
    assert!(!is_legal_text(&p, "P*1b"));
}

#[test]
fn mate_by_pawn_push_and_by_other_drops_is_legal() {
    let mut p = pos("7nk/7l1/7GP/9/9/9/9/9/4K4 b - 1");
    assert!(is_legal_text(&p, "1c1b"));
    play(&mut p, &["1c1b"]);
    assert!(p.in_check());
    assert!(legal_moves(&p).is_empty());
    let p = pos("7nk/7l1/8G/9/9/9/9/9/4K4 b G 1");
    assert!(is_legal_text(&p, "G*1b"));
}

// ---------------------------------------------------------------------------------------------
// Promotion
// ---------------------------------------------------------------------------------------------

#[test]
fn forced_and_optional_promotions() {
    let cases: [(&str, &str, &[&str]); 8] = [
        // pawn: optional into the zone, forced onto the last rank
        ("k8/9/9/4P4/9/9/9/9/8K b - 1", "5d", &["5d5c", "5d5c+"]),
        ("k8/4P4/9/9/9/9/9/9/8K b - 1", "5b", &["5b5a+"]),
        // lance: forced only on the last rank
        (
            "k8/9/9/9/4L4/9/9/9/8K b - 1",
            "5e",
            &["5e5a+", "5e5b", "5e5b+", "5e5c", "5e5c+", "5e5d"],
        ),
        // knight: forced on the last two ranks
        (
            "k8/9/9/9/4N4/9/9/9/8K b - 1",
            "5e",
            &["5e4c", "5e4c+", "5e6c", "5e6c+"],
        ),
        ("k8/9/9/4N4/9/9/9/9/8K b - 1", "5d", &["5d4b+", "5d6b+"]),
        // silver: optional when leaving the zone too
        (
            "k8/9/4S4/9/9/9/9/9/8K b - 1",
            "5c",
            &[
                "5c4b", "5c4b+", "5c4d", "5c4d+", "5c5b", "5c5b+", "5c6b", "5c6b+", "5c6d", "5c6d+",
            ],
        ),
        // gold never promotes
        (
            "k8/9/4G4/9/9/9/9/9/8K b - 1",
            "5c",
            &["5c4b", "5c4c", "5c5b", "5c5d", "5c6b", "5c6c"],
        ),
        // White's pawn: the zone is ranks g-i
        ("k8/9/9/9/9/4p4/9/9/8K w - 1", "5f", &["5f5g", "5f5g+"]),
    ];
    for (sfen, from, expected) in cases {
        assert_eq!(moves_from(&pos(sfen), from), expected, "{sfen}");
    }
    // Bishop and rook: optional whenever the move touches the zone, never forced.
    let p = pos("k8/9/9/9/9/9/9/1B5R1/8K b - 1");
    let rook = moves_from(&p, "2h");
    assert!(rook.contains(&"2h2a".to_string()) && rook.contains(&"2h2a+".to_string()));
    assert!(!rook.contains(&"2h2d+".to_string()));
    let bishop = moves_from(&p, "8h");
    assert!(bishop.contains(&"8h2b".to_string()) && bishop.contains(&"8h2b+".to_string()));
}

// ---------------------------------------------------------------------------------------------
// USI move parsing
// ---------------------------------------------------------------------------------------------

#[test]
fn parse_usi_move_errors_name_the_reason() {
    let p = Position::startpos(Variant::Shogi);
    assert!(p.parse_usi_move("7g7f").is_ok());
    assert!(matches!(p.parse_usi_move("7g7"), Err(MoveError::Text(_))));
    assert!(matches!(p.parse_usi_move("0a1a"), Err(MoveError::Text(_))));
    assert!(matches!(
        p.parse_usi_move("5e5d"),
        Err(MoveError::NoPiece(_))
    ));
    assert!(matches!(
        p.parse_usi_move("3c3d"),
        Err(MoveError::NotYourPiece(_))
    ));
    assert!(matches!(
        p.parse_usi_move("P*5e"),
        Err(MoveError::NotInHand(_))
    ));
    assert!(matches!(
        p.parse_usi_move("7g7e"),
        Err(MoveError::CannotMoveThere(_))
    ));
    assert!(matches!(
        p.parse_usi_move("7g7f+"),
        Err(MoveError::BadPromotion(_))
    ));
    let e = p.parse_usi_move("7g7e").unwrap_err();
    assert!(e.to_string().contains("7g7e"), "{e}");
    // Heian: a 9x8 board has no rank i.
    let h = Position::startpos(Variant::Heian);
    assert!(matches!(h.parse_usi_move("5h5i"), Err(MoveError::Text(_))));
    // Leaving the king in check.
    let p = pos("4r3k/9/9/9/9/9/9/4G4/4K4 b - 1");
    assert!(matches!(
        p.parse_usi_move("5h4g"),
        Err(MoveError::KingInCheck(_))
    ));
}

#[test]
fn is_legal_never_panics_on_any_word() {
    let positions = [
        Position::startpos(Variant::Shogi),
        Position::startpos(Variant::Heian8),
        pos("4r3k/9/9/9/8b/9/9/3G5/4K4 b - 1"),
    ];
    for p in &positions {
        let list = legal_moves(p);
        for word in 0..=u16::MAX {
            if let Some(m) = Move::from_u16(word) {
                assert_eq!(p.is_legal(m), list.contains(m), "{m} in {p:?}");
                let _ = p.gives_check(m);
                let _ = p.moved_piece(m);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Repetition, sennichite, declaration, max moves
// ---------------------------------------------------------------------------------------------

const KING_SHUFFLE: [&str; 4] = ["5i5h", "5a5b", "5h5i", "5b5a"];

#[test]
fn sennichite_on_the_fourth_occurrence_is_a_draw() {
    let mut p = Position::startpos(Variant::Shogi);
    assert_eq!(p.repetition(), Repetition::None);
    play(&mut p, &KING_SHUFFLE);
    assert_eq!(p.repetition(), Repetition::Draw);
    assert_eq!(p.sennichite(), None);
    play(&mut p, &KING_SHUFFLE);
    assert_eq!(p.sennichite(), None);
    play(&mut p, &KING_SHUFFLE);
    assert_eq!(p.sennichite(), Some(GameResult::Draw));
    assert_eq!(p.game_ply(), 13);
}

#[test]
fn perpetual_check_loses() {
    // Black's rook checks on every move: 9b9a+ (rank a), 9a9b (rank b).
    let mut p = pos("4k4/R8/9/9/9/9/9/9/4K4 b - 1");
    let cycle = ["9b9a", "5a5b", "9a9b", "5b5a"];
    play(&mut p, &cycle);
    assert_eq!(
        p.repetition(),
        Repetition::Loss,
        "Black to move gave every check"
    );
    play(&mut p, &cycle[..1]);
    assert_eq!(
        p.repetition(),
        Repetition::Win,
        "White to move was checked every time"
    );
    play(&mut p, &cycle[1..]);
    assert_eq!(p.sennichite(), None, "third occurrence");
    play(&mut p, &cycle);
    assert_eq!(p.sennichite(), Some(GameResult::Win(Color::White)));
}

#[test]
fn repetition_with_different_hands_is_superior_or_inferior() {
    // White drops a pawn, Black's rook takes it and goes round back: same board, Black +1 pawn.
    let mut p = pos("8k/9/9/9/4R4/9/9/9/K8 w 2p 1");
    play(&mut p, &["P*5d", "5e5d", "1a1b", "5d5c", "1b1a", "5c5e"]);
    assert_eq!(p.repetition(), Repetition::Inferior);
    play(&mut p, &["P*5d"]);
    assert_eq!(p.repetition(), Repetition::Superior);
}

#[test]
fn null_move_flips_side_and_blocks_repetition_lookback() {
    let mut p = Position::startpos(Variant::Shogi);
    let key = p.key();
    p.do_null_move();
    assert_eq!(p.side_to_move(), Color::White);
    assert_ne!(p.key(), key);
    assert_eq!(p.board_key() ^ p.hand_key(), p.key());
    p.undo_null_move();
    assert_eq!(p.key(), key);
    assert_eq!(p.side_to_move(), Color::Black);
}

#[test]
fn max_moves_draw() {
    let mut p = Position::startpos(Variant::Shogi);
    assert!(!p.is_max_moves_draw(0));
    assert!(!p.is_max_moves_draw(2));
    play(&mut p, &["7g7f", "3c3d"]);
    assert!(p.is_max_moves_draw(2));
    assert!(!p.is_max_moves_draw(3));
    assert!(!p.is_max_moves_draw(0));
}

/// Black: king 5a, ten pieces in White's camp (R B G G S S L L N N = 18 points), `hand` in hand.
fn black_entered(hand: &str) -> Position {
    pos(&format!("RBGGKSS2/LL7/7NN/9/9/9/9/9/4k4 b {hand} 1"))
}

/// The same rotated for White: king 5i, ten pieces in Black's camp.
fn white_entered(hand: &str) -> Position {
    pos(&format!("4K4/9/9/9/9/9/nn7/7ll/2sskggbr w {hand} 1"))
}

#[test]
fn declaration_27_point_rule() {
    // 18 on the board + 10 pawns = 28: enough for Black.
    assert!(black_entered("10P").can_declare(EnteringKingRule::Csa27));
    assert!(!black_entered("9P").can_declare(EnteringKingRule::Csa27));
    // White needs 27.
    assert!(white_entered("9p").can_declare(EnteringKingRule::Csa27));
    assert!(!white_entered("8p").can_declare(EnteringKingRule::Csa27));
    // Rule off.
    assert!(!black_entered("10P").can_declare(EnteringKingRule::None));
    // 24-point rule: 31 needed by either side.
    assert!(!black_entered("10P").can_declare(EnteringKingRule::Csa24));
    assert!(black_entered("RB3P").can_declare(EnteringKingRule::Csa24));
}

#[test]
fn declaration_needs_king_in_zone_ten_pieces_and_no_check() {
    // Nine pieces in the zone (one lance moved out), plenty of points.
    let p = pos("RBGGKSS2/L8/7NN/1L7/9/9/9/9/4k4 b R10P 1");
    assert!(!p.can_declare(EnteringKingRule::Csa27));
    // King outside the zone.
    let p = pos("RBGG1SS2/LL7/7NN/4K4/9/9/9/9/4k4 b 10P 1");
    assert!(!p.can_declare(EnteringKingRule::Csa27));
    // In check from a gold.
    let p = pos("RBGGKSS2/LL2g4/7NN/9/9/9/9/9/4k4 b 10P 1");
    let p2 = pos("RBGGKSS2/LL7/7NN/9/9/9/9/9/4k4 b 10P 1");
    assert!(p2.can_declare(EnteringKingRule::Csa27));
    assert!(p.in_check());
    assert!(!p.can_declare(EnteringKingRule::Csa27));
    // No declaration in Heian.
    let h = Position::startpos(Variant::Heian);
    assert!(!h.can_declare(EnteringKingRule::Csa27));
}

// ---------------------------------------------------------------------------------------------
// Consistency sweeps along pseudo-random games
// ---------------------------------------------------------------------------------------------

/// Checks everything incremental against a position rebuilt from scratch, and every legal move's
/// gives_check, key_after and do/undo.
fn check_consistency(p: &mut Position) {
    let rebuilt = Position::from_setup(&p.to_setup()).expect("reachable positions are valid");
    assert_eq!(p.board_key(), rebuilt.board_key(), "{p:?}");
    assert_eq!(p.hand_key(), rebuilt.hand_key(), "{p:?}");
    assert_eq!(p.checkers(), rebuilt.checkers(), "{p:?}");
    for c in Color::ALL {
        assert_eq!(p.pinned(c), rebuilt.pinned(c), "{p:?}");
        assert_eq!(p.blockers_for_king(c), rebuilt.blockers_for_king(c));
    }
    let list: MoveList = legal_moves(p);
    let key = p.key();
    let sfen = p.to_sfen();
    for &m in list.iter() {
        assert!(p.is_legal(m), "{m} generated but not legal in {p:?}");
        let gives = p.gives_check(m);
        let predicted_key = p.key_after(m);
        p.do_move(m);
        assert_eq!(gives, p.in_check(), "gives_check({m}) wrong in {sfen}");
        assert_eq!(predicted_key, p.key(), "key_after({m}) wrong in {sfen}");
        p.undo_move();
        assert_eq!(p.key(), key);
    }
    assert_eq!(p.to_sfen(), sfen);
}

/// Plays `plies` moves chosen by a fixed linear congruential generator, checking every position.
fn random_walk(mut p: Position, plies: usize, seed: u64) {
    let mut state = seed;
    for ply in 0..plies {
        check_consistency(&mut p);
        if ply % 16 == 0 {
            // Every 16-bit word: legal exactly when generated.
            let list = legal_moves(&p);
            for word in 0..=u16::MAX {
                if let Some(m) = Move::from_u16(word) {
                    assert_eq!(p.is_legal(m), list.contains(m), "{m} in {p:?}");
                }
            }
        }
        let list = legal_moves(&p);
        if list.is_empty() {
            break;
        }
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let m = list[(state >> 33) as usize % list.len()];
        p.do_move(m);
    }
}

#[test]
fn random_games_stay_consistent() {
    for seed in 0..6 {
        random_walk(Position::startpos(Variant::Shogi), 150, seed);
    }
    random_walk(
        pos("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1"),
        100,
        7,
    );
}

#[test]
fn random_heian_games_stay_consistent() {
    for seed in 0..4 {
        random_walk(Position::startpos(Variant::Heian), 150, seed);
        random_walk(Position::startpos(Variant::Heian8), 150, seed);
    }
}

#[test]
fn step_and_slider_attackers_are_both_colours_attackers_through_any_occupancy() {
    let sfens = [
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
    ];
    let mut seen_sliders = 0;
    for sfen in sfens {
        let p = pos(sfen);
        // The real occupancy, then ones with pieces lifted off (as an exchange lifts them).
        let full = p.occupied();
        let mut occupancies = vec![full];
        for (i, lifted) in full.iter().enumerate() {
            let last = *occupancies.last().unwrap_or(&full);
            if i % 3 == 0 {
                occupancies.push(last.without(lifted));
            }
        }
        for &occ in &occupancies {
            for target in Bitboard::ALL & p.variant().board_mask() {
                let both = p.attackers_to(Color::Black, target, occ)
                    | p.attackers_to(Color::White, target, occ);
                let sliders = p.slider_attackers_to(target, occ);
                let steps =
                    p.step_attackers(Color::Black, target) | p.step_attackers(Color::White, target);
                assert_eq!(steps | sliders, both, "{sfen} {target:?}");
                assert_eq!(sliders & !both, Bitboard::EMPTY);
                seen_sliders += sliders.count();
            }
        }
    }
    assert!(seen_sliders > 0);
}
