use super::params::{Class, Weights};
use super::*;
use crate::core::Variant;

fn pos(sfen: &str, variant: Variant) -> Position {
    match Position::from_sfen(sfen, variant) {
        Ok(p) => p,
        Err(e) => panic!("bad test SFEN {sfen}: {e:?}"),
    }
}

fn eval(sfen: &str) -> i32 {
    evaluate(&pos(sfen, Variant::Shogi))
}

/// The same position with colours swapped and the board turned 180 degrees: ranks in reverse order,
/// each rank read backwards, piece letters in the other case, the other side to move, hands swapped.
/// Works for every board size because SFEN only lists the squares that exist.
fn mirror_sfen(sfen: &str) -> String {
    let fields: Vec<&str> = sfen.split_whitespace().collect();
    let swap_case = |c: char| {
        if c.is_ascii_uppercase() {
            c.to_ascii_lowercase()
        } else {
            c.to_ascii_uppercase()
        }
    };
    let ranks: Vec<String> = fields[0]
        .split('/')
        .rev()
        .map(|rank| {
            // Tokens: a run-length digit, or a piece letter with its optional '+' prefix.
            let mut tokens: Vec<String> = Vec::new();
            let mut promoted = false;
            for c in rank.chars() {
                if c == '+' {
                    promoted = true;
                } else if c.is_ascii_digit() {
                    tokens.push(c.to_string());
                } else {
                    let letter = swap_case(c).to_string();
                    tokens.push(if promoted {
                        format!("+{letter}")
                    } else {
                        letter
                    });
                    promoted = false;
                }
            }
            tokens.reverse();
            tokens.concat()
        })
        .collect();
    let side = if fields[1] == "b" { "w" } else { "b" };
    let hand: String = if fields[2] == "-" {
        "-".to_string()
    } else {
        fields[2].chars().map(swap_case).collect()
    };
    let mut out = format!("{} {} {}", ranks.join("/"), side, hand);
    if let Some(n) = fields.get(3) {
        out.push(' ');
        out.push_str(n);
    }
    out
}

const SHOGI_POSITIONS: &[&str] = &[
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    // After 7g7f 3c3d 2g2f: asymmetric pawns, open bishop diagonals.
    "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P4P1/PP1PPPP1P/1B5R1/LNSGKGSNL w - 4",
    // Bishops exchanged, both in hand.
    "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/7R1/LNSGKGSNL b Bb 1",
    // Middlegame with castles, promoted pieces and uneven hands.
    "ln1g3nl/1r3kg2/p2pppsp1/2ps2p1p/1p7/2P1P1P1P/PPSP1P3/2G2S1R1/LN2KG1NL b Bbp 37",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn3p 80",
    "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn2p 120",
    // Kings in the open, many hand pieces (a sharp endgame).
    "4k4/9/4P4/9/9/9/9/9/4K4 b RBGSNLPrbgsnl2p 1",
    // A king missing (mate-problem style): only one side's king safety counts.
    "4k4/9/9/9/9/9/9/9/9 b 2r2b4g4s4n4l18p 1",
];

const HEIAN_POSITIONS: &[(&str, Variant)] = &[
    (
        "lnsgkgsnl/9/ppppppppp/9/9/PPPPPPPPP/9/LNSGKGSNL b - 1",
        Variant::Heian,
    ),
    (
        "lnsgkgsnl/9/pppp1pppp/4p4/4P4/PPPP1PPPP/9/LNSGKGSNL w - 3",
        Variant::Heian,
    ),
    (
        "l1sgk1snl/4g4/p1pp1pp1p/1p2p2+P1/4P4/PPPP1P2P/3G5/LNS1KGSNL b - 21",
        Variant::Heian,
    ),
    ("4k4/9/9/9/9/9/9/4K3L b - 1", Variant::Heian),
    (
        "lnsgksnl/8/pppppppp/8/8/PPPPPPPP/8/LNSKGSNL b - 1",
        Variant::Heian8,
    ),
    (
        "lns1ksnl/3g4/ppp1pppp/3p4/3P4/PPP1PPPP/8/LNSKGSNL w - 3",
        Variant::Heian8,
    ),
];

#[test]
fn mirror_helper_round_trips() {
    for &sfen in SHOGI_POSITIONS {
        assert_eq!(mirror_sfen(&mirror_sfen(sfen)), sfen);
    }
    assert_eq!(
        mirror_sfen("4k4/9/4P4/9/9/9/9/9/+p3K4 b RP 1"),
        "4k3+P/9/9/9/9/9/4p4/9/4K4 w rp 1"
    );
}

#[test]
fn evaluation_is_colour_symmetric() {
    for &sfen in SHOGI_POSITIONS {
        let mirrored = mirror_sfen(sfen);
        assert_eq!(eval(sfen), eval(&mirrored), "{sfen} vs {mirrored}");
    }
    for &(sfen, variant) in HEIAN_POSITIONS {
        let mirrored = mirror_sfen(sfen);
        assert_eq!(
            evaluate(&pos(sfen, variant)),
            evaluate(&pos(&mirrored, variant)),
            "{sfen} vs {mirrored}"
        );
    }
}

#[test]
fn symmetric_start_positions_score_the_tempo() {
    let tempo = Weights::DEFAULT.tempo;
    for variant in Variant::ALL {
        assert_eq!(evaluate(&Position::startpos(variant)), tempo, "{variant}");
    }
}

#[test]
fn a_side_up_a_rook_is_clearly_better() {
    // White's rook removed from the start position.
    let black_to_move = eval("lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
    let white_to_move = eval("lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1");
    assert!(black_to_move > 4 * PAWN_VALUE, "{black_to_move}");
    assert!(white_to_move < -4 * PAWN_VALUE, "{white_to_move}");
    // The same rook in Black's hand is worth even more.
    let in_hand = eval("lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b R 1");
    assert!(in_hand > black_to_move + 4 * PAWN_VALUE, "{in_hand}");
}

#[test]
fn a_pawn_in_hand_beats_the_same_pawn_on_the_board() {
    // Black's 1-file pawn in hand versus back on 1g, where it stood at the start.
    let in_hand = eval("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPP1/1B5R1/LNSGKGSNL b P 1");
    let on_board = eval("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
    assert!(in_hand > on_board, "in hand {in_hand}, on board {on_board}");
    // Tuned, a further pawn in hand is worth about a board pawn; the first copy (drop threats) more.
    let first_in_hand =
        hand_value(HandKind::Pawn) + Weights::DEFAULT.hand_first[HandKind::Pawn.index()];
    assert!(first_in_hand > piece_value(PieceKind::Pawn));
}

#[test]
fn hand_copies_have_diminishing_returns() {
    // Material alone: king danger from the golds grows faster than linearly (a second attacker
    // makes the first one more dangerous), which is a different question.
    let w = Weights::DEFAULT;
    let material = |sfen: &str| Breakdown::compute(&w, &pos(sfen, Variant::Shogi)).material;
    let one = material("4k4/9/9/9/9/9/9/9/4K4 b G 1");
    let two = material("4k4/9/9/9/9/9/9/9/4K4 b 2G 1");
    let none = material("4k4/9/9/9/9/9/9/9/4K4 b - 1");
    assert!(
        one - none > two - one,
        "first {} second {}",
        one - none,
        two - one
    );
    assert!(two - one >= w.hand[HandKind::Gold.index()] / 2);
}

#[test]
fn a_gold_beside_its_king_beats_a_gold_far_away() {
    let near = eval("4k4/9/9/9/9/9/9/4G4/4K4 b - 1");
    let far = eval("4k4/9/9/9/G8/9/9/9/4K4 b - 1");
    assert!(near > far, "near {near}, far {far}");
}

#[test]
fn drop_threats_against_a_bare_king_count() {
    // Two golds in White's hand can be dropped next to Black's lone king: the danger term sees them.
    let quiet = Breakdown::compute(
        &Weights::DEFAULT,
        &pos("4k4/9/9/9/9/9/9/9/4K4 b - 1", Variant::Shogi),
    );
    let threatened = Breakdown::compute(
        &Weights::DEFAULT,
        &pos("4k4/9/9/9/9/9/9/9/4K4 b 2g 1", Variant::Shogi),
    );
    assert!(threatened.king_safety < quiet.king_safety);
}

#[test]
fn heian_positions_evaluate_and_material_weighs_more() {
    for &(sfen, variant) in HEIAN_POSITIONS {
        let score = evaluate(&pos(sfen, variant));
        assert!(score.abs() < EVAL_MAX, "{sfen}: {score}");
    }
    // The same extra silver counts more without drops.
    let shogi = Breakdown::compute(
        &Weights::DEFAULT,
        &pos("4k4/9/9/9/9/9/9/4S4/4K4 b - 1", Variant::Shogi),
    );
    let heian = Breakdown::compute(
        &Weights::DEFAULT,
        &pos("4k4/9/9/9/9/9/4S4/4K4 b - 1", Variant::Heian),
    );
    assert!(heian.material > shogi.material);
}

#[test]
fn capture_values_include_the_hand_piece_only_with_drops() {
    assert_eq!(
        capture_value(PieceKind::Dragon, true),
        piece_value(PieceKind::Dragon) + hand_value(HandKind::Rook)
    );
    assert_eq!(
        capture_value(PieceKind::Silver, false),
        piece_value(PieceKind::Silver)
    );
    assert_eq!(capture_value(PieceKind::King, true), 0);
}

use crate::test_support::for_each_random_position;

/// Random games: every position on the way must evaluate the same as its mirror. Covers hands,
/// promotions, kings in odd places and all variants.
#[test]
fn random_playouts_are_colour_symmetric() {
    let checked = for_each_random_position(0x9e37_79b9_7f4a_7c15, 12, 120, |pos| {
        let sfen = pos.to_sfen();
        let mirrored = mirror_sfen(&sfen);
        let mirror =
            Position::from_sfen(&mirrored, pos.variant()).expect("mirror of a legal position");
        assert_eq!(evaluate(pos), evaluate(&mirror), "{sfen} vs {mirrored}");
    });
    assert!(checked > 1000);
}

#[test]
fn king_offset_entries_predict_the_evaluation_exactly() {
    use std::collections::BTreeMap;
    let shogi = SHOGI_POSITIONS.iter().map(|&s| (s, Variant::Shogi));
    for (sfen, variant) in shogi.chain(HEIAN_POSITIONS.iter().copied()) {
        let p = pos(sfen, variant);
        let base = evaluate(&p);
        let mover = if p.side_to_move() == Color::Black {
            1
        } else {
            -1
        };
        let mut predicted: BTreeMap<(bool, usize), i32> = BTreeMap::new();
        king_offset_entries(&p, |table, entry, owner| {
            let sign = if owner == Color::Black { 1 } else { -1 };
            *predicted
                .entry((table == KingTable::Own, entry))
                .or_default() += sign;
        });
        // Every visited entry, and one entry no piece stands on (the king's own square).
        predicted.entry((true, 8)).or_default();
        for (&(own, entry), &count) in &predicted {
            let mut w = Weights::DEFAULT;
            let table = if own {
                &mut w.own_king_offset
            } else {
                &mut w.enemy_king_offset
            };
            table.as_flattened_mut()[entry] += 7;
            assert_eq!(
                evaluate_with(&w, &p) - base,
                7 * count * mover,
                "{sfen}: entry {entry} of the {} table",
                if own { "own" } else { "enemy" }
            );
        }
    }
}

#[test]
fn threatened_pieces_cost_their_owner() {
    let w = Weights::DEFAULT;
    let threats = |sfen: &str| Breakdown::compute(&w, &pos(sfen, Variant::Shogi)).threats;
    let silver = Class::Silver.index();
    // A black silver on 5e that White's rook on 5a attacks, with nothing defending it.
    let hanging = threats("4r3k/9/9/9/4S4/9/9/9/K8 b - 1");
    assert_eq!(hanging, -w.threatened_to_move[silver]);
    // The same silver defended by a gold behind it.
    assert_eq!(threats("4r3k/9/9/9/4S4/4G4/9/9/K8 b - 1"), 0);
    // Defended, but a white pawn on 5d attacks it: still threatened. (The pawn, which the silver
    // attacks, is defended by the rook and is only a pawn: not threatened.)
    assert_eq!(
        threats("4r3k/9/9/4p4/4S4/4G4/9/9/K8 b - 1"),
        -w.threatened_to_move[silver]
    );
    // A defended pawn attacked by a pawn is not threatened: pawns face each other all game.
    assert_eq!(threats("4r3k/9/9/4p4/4P4/4G4/9/9/K8 b - 1"), 0);
    // The hanging silver with White to move: the waiting side's table.
    assert_eq!(
        threats("4r3k/9/9/9/4S4/9/9/9/K8 w - 1"),
        -w.threatened_waiting[silver]
    );
}

/// The piece pass's attack facts against the rules core, square by square, along random games of
/// every variant: the attacked set is every square some piece of the side attacks (as
/// `Position::attackers_to` sees it), and the zone units are, over the squares of each king's zone,
/// the units of the side's attackers of each square (kings carry none). A pass that took a
/// piece's attacks wrongly, or a set-wise shortcut that merged two pieces' attacks, fails here.
#[test]
fn the_piece_pass_attacks_what_the_rules_core_says() {
    let w = &Weights::DEFAULT;
    let checked = for_each_random_position(0x2545_f491_4f6c_dd1d, 8, 100, |pos| {
        let frame = pieces::Frame::new(pos);
        for us in Color::ALL {
            let (_, side) = pieces::scan(w, pos, &frame, us);
            let mut attacked = crate::core::Bitboard::EMPTY;
            let mut units = [0i32; 2]; // against the enemy zone, over the own zone
            for sq in frame.board {
                let attackers = pos.attackers_to(us, sq, frame.occupied);
                if attackers.is_nonempty() {
                    attacked.set(sq);
                }
                for a in attackers {
                    let Some(piece) = pos.piece_on(a) else {
                        panic!("an attacker stands on {a}");
                    };
                    let Some(class) = Class::of(piece.kind()) else {
                        continue;
                    };
                    if frame.zones[(!us).index()].contains(sq) {
                        units[0] += w.attack_unit[class.index()];
                    }
                    if frame.zones[us.index()].contains(sq) {
                        units[1] += w.defend_unit[class.index()];
                    }
                }
            }
            let sfen = pos.to_sfen();
            assert_eq!(side.attacked, attacked, "{us:?} in {sfen}");
            assert_eq!(side.zone_attack, units[0], "{us:?} in {sfen}");
            assert_eq!(side.zone_defence, units[1], "{us:?} in {sfen}");
        }
    });
    assert!(checked > 500);
}

/// The piece-square sums the search carries move by move equal the sums computed from scratch after
/// every legal move of random games in all three variants: board moves, captures, promotions (with
/// and without a capture), drops and king moves (which recompute the moving king's sum). A delta
/// that forgot the captured piece, the promotion or a king's sum fails here.
#[test]
fn piece_square_sums_follow_every_move() {
    let w = &Weights::DEFAULT;
    let mut seen = [0usize; 5]; // captures, promotions, drops, king moves, king captures
    let checked = for_each_random_position(0x6a09_e667_f3bc_c908, 6, 140, |pos| {
        let before = PieceSquare::compute(w, pos);
        for &m in crate::core::movegen::legal_moves(pos).as_slice() {
            let capture = pos.is_capture(m);
            let king = pos.moved_piece(m).kind() == PieceKind::King;
            seen[0] += usize::from(capture);
            seen[1] += usize::from(m.is_promotion());
            seen[2] += usize::from(m.is_drop());
            seen[3] += usize::from(king);
            seen[4] += usize::from(king && capture);
            let record = MoveRecord::new(pos, m);
            pos.do_move(m);
            let after = before.after_moves(w, pos, [record]);
            assert_eq!(
                after,
                PieceSquare::compute(w, pos),
                "{} after {}",
                pos.to_sfen(),
                m.to_usi()
            );
            pos.undo_move();
        }
    });
    assert!(checked > 1000, "{checked}");
    assert!(seen.iter().all(|&n| n > 100), "{seen:?}");
}

/// The sums against a second derivation of the same terms: material by counting each kind, and
/// placement from the king-offset entries the tuner walks (`king_offset_entries`) plus the rank
/// tables read square by square. A sum that used the wrong king, table, rank row or sign fails.
#[test]
fn piece_square_sums_match_a_count_by_kind() {
    let w = &Weights::DEFAULT;
    let checked = for_each_random_position(0xbb67_ae85_84ca_a73b, 4, 120, |pos| {
        let sign = |c: Color| if c == Color::Black { 1 } else { -1 };
        let mut material = 0;
        let mut placement = 0;
        for color in Color::ALL {
            let advance = geometry::advance_row(pos.variant(), color);
            for kind in PieceKind::ALL {
                let pieces = pos.pieces(color, kind);
                material += sign(color) * pieces.count() as i32 * w.board[kind.index()];
                let rank_table = match kind {
                    PieceKind::Pawn => &w.pawn_rank,
                    PieceKind::Lance => &w.lance_rank,
                    PieceKind::Knight => &w.knight_rank,
                    PieceKind::King => &w.king_rank,
                    _ => continue,
                };
                for sq in pieces {
                    placement += sign(color) * rank_table[advance[sq.index()] as usize];
                }
            }
        }
        king_offset_entries(pos, |table, entry, owner| {
            let table = match table {
                KingTable::Own => &w.own_king_offset,
                KingTable::Enemy => &w.enemy_king_offset,
            };
            placement += sign(owner) * table.as_flattened()[entry];
        });
        let sums = PieceSquare::compute(w, pos);
        let sfen = pos.to_sfen();
        assert_eq!(sums.material, material, "{sfen}");
        assert_eq!(sums.placement(), placement, "{sfen}");
    });
    assert!(checked > 500);
}
