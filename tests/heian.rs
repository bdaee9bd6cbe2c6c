//! Heian shogi (9x8 and 8x8): perft of the start positions, an independent mailbox reference
//! generator checked against the core, promotion zones, no drops, game results, SFEN.
//!
//! The deeper perft counts are `#[ignore]`d: `cargo test --release --test heian -- --ignored`.
//! No published Heian perft numbers exist; the counts here are proved by the reference generator
//! below (depths 1-3 node for node, and move for move along random games on both boards).

mod common;

use tokin::core::movegen::{legal_moves, perft, perft_divide};
use tokin::core::outcome::{bare_king_loser, outcome, DrawReason, Outcome, WinReason};
use tokin::core::sfen::{Setup, SfenError};
use tokin::core::{Color, EnteringKingRule, PieceKind, Position, PositionError, Square, Variant};
use tokin::rng::Rng;

// ---------------------------------------------------------------------------------------------
// Perft of the start positions
// ---------------------------------------------------------------------------------------------

/// Start-position perft, depths 1..=6 (index 0 = depth 1).
const HEIAN_PERFT: [u64; 6] = [26, 676, 17_108, 432_957, 10_804_053, 269_568_748];
const HEIAN8_PERFT: [u64; 6] = [22, 484, 10_296, 219_018, 4_602_070, 96_673_959];

fn start_perft(variant: Variant, depth: u32) -> u64 {
    let pos = Position::startpos(variant);
    perft_divide(&pos, depth, 2).iter().map(|&(_, n)| n).sum()
}

#[test]
fn heian_startpos_perft_1_to_4() {
    for depth in 1..=4 {
        assert_eq!(
            start_perft(Variant::Heian, depth),
            HEIAN_PERFT[depth as usize - 1],
            "heian depth {depth}"
        );
    }
}

#[test]
fn heian8_startpos_perft_1_to_4() {
    for depth in 1..=4 {
        assert_eq!(
            start_perft(Variant::Heian8, depth),
            HEIAN8_PERFT[depth as usize - 1],
            "heian8 depth {depth}"
        );
    }
}

#[test]
#[ignore]
fn heian_startpos_perft_5_6() {
    assert_eq!(start_perft(Variant::Heian, 5), HEIAN_PERFT[4]);
    assert_eq!(start_perft(Variant::Heian, 6), HEIAN_PERFT[5]);
}

#[test]
#[ignore]
fn heian8_startpos_perft_5_6() {
    assert_eq!(start_perft(Variant::Heian8, 5), HEIAN8_PERFT[4]);
    assert_eq!(start_perft(Variant::Heian8, 6), HEIAN8_PERFT[5]);
}

// ---------------------------------------------------------------------------------------------
// An independent reference: a plain mailbox with direction tables, legality by "make the move,
// then see whether any enemy piece reaches the own king". It shares nothing with the core but the
// start SFENs (read through `Position::piece_on`) and produces its own USI move text.
// ---------------------------------------------------------------------------------------------

mod reference {
    use tokin::core::{Color, PieceKind, Position, Square, Variant};

    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    enum Kind {
        Pawn,
        Lance,
        Knight,
        Silver,
        Gold,
        King,
        /// Any promoted minor (moves as gold); `base` remembers nothing: promoted pieces never change.
        Promoted,
    }

    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    struct Man {
        black: bool,
        kind: Kind,
    }

    #[derive(Clone)]
    pub struct Board {
        files: i32,
        ranks: i32,
        /// `cells[file][rank]`, file 0 = USI file 1, rank 0 = rank a.
        cells: [[Option<Man>; 9]; 9],
        black_to_move: bool,
    }

    /// A move: from, to, promote.
    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    pub struct RMove {
        from: (i32, i32),
        to: (i32, i32),
        promote: bool,
    }

    impl RMove {
        pub fn text(self) -> String {
            let sq = |(f, r): (i32, i32)| format!("{}{}", f + 1, (b'a' + r as u8) as char);
            format!(
                "{}{}{}",
                sq(self.from),
                sq(self.to),
                if self.promote { "+" } else { "" }
            )
        }
    }

    impl Board {
        pub fn from_position(pos: &Position) -> Board {
            let v = pos.variant();
            assert!(
                v != Variant::Shogi,
                "the reference knows Heian's pieces only"
            );
            let mut cells = [[None; 9]; 9];
            for f in 0..v.files() {
                for r in 0..v.ranks() {
                    if let Some(p) = pos.piece_on(Square::new(f, r)) {
                        let kind = match p.kind() {
                            PieceKind::Pawn => Kind::Pawn,
                            PieceKind::Lance => Kind::Lance,
                            PieceKind::Knight => Kind::Knight,
                            PieceKind::Silver => Kind::Silver,
                            PieceKind::Gold => Kind::Gold,
                            PieceKind::King => Kind::King,
                            PieceKind::ProPawn
                            | PieceKind::ProLance
                            | PieceKind::ProKnight
                            | PieceKind::ProSilver => Kind::Promoted,
                            other => panic!("{other:?} in a Heian position"),
                        };
                        cells[f as usize][r as usize] = Some(Man {
                            black: p.color() == Color::Black,
                            kind,
                        });
                    }
                }
            }
            Board {
                files: v.files() as i32,
                ranks: v.ranks() as i32,
                cells,
                black_to_move: pos.side_to_move() == Color::Black,
            }
        }

        fn at(&self, f: i32, r: i32) -> Option<Man> {
            self.cells[f as usize][r as usize]
        }

        fn on_board(&self, f: i32, r: i32) -> bool {
            (0..self.files).contains(&f) && (0..self.ranks).contains(&r)
        }

        /// Steps `(df, dr)` in Black's orientation (forward = rank index - 1) and whether they slide.
        fn pattern(kind: Kind) -> (&'static [(i32, i32)], bool) {
            const GOLD: &[(i32, i32)] = &[(0, -1), (-1, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
            match kind {
                Kind::Pawn => (&[(0, -1)], false),
                Kind::Lance => (&[(0, -1)], true),
                Kind::Knight => (&[(-1, -2), (1, -2)], false),
                Kind::Silver => (&[(0, -1), (-1, -1), (1, -1), (-1, 1), (1, 1)], false),
                Kind::Gold | Kind::Promoted => (GOLD, false),
                Kind::King => (
                    &[
                        (-1, -1),
                        (0, -1),
                        (1, -1),
                        (-1, 0),
                        (1, 0),
                        (-1, 1),
                        (0, 1),
                        (1, 1),
                    ],
                    false,
                ),
            }
        }

        /// Squares the piece on `(f, r)` moves to or attacks (own pieces excluded).
        fn targets(&self, f: i32, r: i32, out: &mut Vec<(i32, i32)>) {
            let Some(man) = self.at(f, r) else { return };
            let (steps, slides) = Board::pattern(man.kind);
            let sign = if man.black { 1 } else { -1 };
            for &(df, dr) in steps {
                let (mut tf, mut tr) = (f + df, r + dr * sign);
                while self.on_board(tf, tr) {
                    match self.at(tf, tr) {
                        Some(other) if other.black == man.black => break,
                        Some(_) => {
                            out.push((tf, tr));
                            break;
                        }
                        None => out.push((tf, tr)),
                    }
                    if !slides {
                        break;
                    }
                    tf += df;
                    tr += dr * sign;
                }
            }
        }

        /// Rank counted from the mover's far side: 0 = the last rank it moves toward.
        fn far(&self, black: bool, r: i32) -> i32 {
            if black {
                r
            } else {
                self.ranks - 1 - r
            }
        }

        fn king_attacked(&self, black: bool) -> bool {
            let mut king = None;
            for f in 0..self.files {
                for r in 0..self.ranks {
                    if self.at(f, r)
                        == Some(Man {
                            black,
                            kind: Kind::King,
                        })
                    {
                        king = Some((f, r));
                    }
                }
            }
            let Some(king) = king else { return false };
            let mut out = Vec::new();
            for f in 0..self.files {
                for r in 0..self.ranks {
                    if matches!(self.at(f, r), Some(m) if m.black != black) {
                        out.clear();
                        self.targets(f, r, &mut out);
                        if out.contains(&king) {
                            return true;
                        }
                    }
                }
            }
            false
        }

        pub fn play(&mut self, m: RMove) {
            let Some(mut man) = self.at(m.from.0, m.from.1) else {
                panic!("reference: no piece to move")
            };
            if m.promote {
                man.kind = Kind::Promoted;
            }
            self.cells[m.from.0 as usize][m.from.1 as usize] = None;
            self.cells[m.to.0 as usize][m.to.1 as usize] = Some(man);
            self.black_to_move = !self.black_to_move;
        }

        pub fn legal_moves(&self) -> Vec<RMove> {
            let us = self.black_to_move;
            let mut moves = Vec::new();
            let mut targets = Vec::new();
            for f in 0..self.files {
                for r in 0..self.ranks {
                    let Some(man) = self.at(f, r) else { continue };
                    if man.black != us {
                        continue;
                    }
                    targets.clear();
                    self.targets(f, r, &mut targets);
                    for &to in &targets {
                        let promotable = matches!(
                            man.kind,
                            Kind::Pawn | Kind::Lance | Kind::Knight | Kind::Silver
                        );
                        let in_zone = self.far(us, r) < 3 || self.far(us, to.1) < 3;
                        let last = self.far(us, to.1);
                        let must = match man.kind {
                            Kind::Pawn | Kind::Lance => last == 0,
                            Kind::Knight => last <= 1,
                            _ => false,
                        };
                        let mut choices = Vec::new();
                        if promotable && in_zone {
                            choices.push(true);
                        }
                        if !must {
                            choices.push(false);
                        }
                        for promote in choices {
                            let m = RMove {
                                from: (f, r),
                                to,
                                promote,
                            };
                            let mut next = self.clone();
                            next.play(m);
                            if !next.king_attacked(us) {
                                moves.push(m);
                            }
                        }
                    }
                }
            }
            moves
        }

        pub fn perft(&self, depth: u32) -> u64 {
            if depth == 0 {
                return 1;
            }
            let moves = self.legal_moves();
            if depth == 1 {
                return moves.len() as u64;
            }
            moves
                .iter()
                .map(|&m| {
                    let mut next = self.clone();
                    next.play(m);
                    next.perft(depth - 1)
                })
                .sum()
        }
    }
}

fn sorted_core_moves(pos: &Position) -> Vec<String> {
    let mut v: Vec<String> = legal_moves(pos).iter().map(|m| m.to_usi()).collect();
    v.sort();
    v
}

fn sorted_reference_moves(pos: &Position) -> Vec<String> {
    let mut v: Vec<String> = reference::Board::from_position(pos)
        .legal_moves()
        .iter()
        .map(|m| m.text())
        .collect();
    v.sort();
    v
}

fn reference_agrees_on_startpos_perft(depths: std::ops::RangeInclusive<u32>) {
    for variant in [Variant::Heian, Variant::Heian8] {
        let pos = Position::startpos(variant);
        let board = reference::Board::from_position(&pos);
        for depth in depths.clone() {
            let mut p = pos.clone();
            assert_eq!(
                perft(&mut p, depth),
                board.perft(depth),
                "{variant} depth {depth}"
            );
        }
    }
}

#[test]
fn reference_agrees_on_startpos_perft_1_to_3() {
    reference_agrees_on_startpos_perft(1..=3);
}

/// The reference is slow (it copies the board for every move and scans it for checks).
#[test]
#[ignore]
fn reference_agrees_on_startpos_perft_4_5() {
    reference_agrees_on_startpos_perft(4..=5);
}

/// Plays random games on both boards and compares the full legal move list of the core with the
/// reference at every position reached (a few thousand positions, openings to bare kings).
#[test]
fn reference_agrees_along_random_games() {
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    let mut positions = 0;
    for variant in [Variant::Heian, Variant::Heian8] {
        for _game in 0..12 {
            let mut pos = Position::startpos(variant);
            for _ply in 0..200 {
                let core = sorted_core_moves(&pos);
                assert_eq!(
                    core,
                    sorted_reference_moves(&pos),
                    "move lists differ in {}",
                    pos.to_sfen()
                );
                positions += 1;
                if core.is_empty() || bare_king_loser(&pos).is_some() {
                    break;
                }
                let list = legal_moves(&pos);
                pos.do_move(list[rng.below(list.len())]);
            }
        }
    }
    assert!(positions > 300, "only {positions} positions compared");
}

// ---------------------------------------------------------------------------------------------
// Rules
// ---------------------------------------------------------------------------------------------

fn heian(sfen: &str) -> Position {
    Position::from_sfen(sfen, Variant::Heian).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

fn heian8(sfen: &str) -> Position {
    Position::from_sfen(sfen, Variant::Heian8).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

fn moves_from(pos: &Position, from: &str) -> Vec<String> {
    let from = Square::from_usi(from).expect("test square");
    let mut v: Vec<String> = legal_moves(pos)
        .iter()
        .filter(|m| m.from() == Some(from))
        .map(|m| m.to_usi())
        .collect();
    v.sort();
    v
}

#[test]
fn black_pawn_promotes_optionally_on_rank_c_and_must_on_rank_a() {
    // Black pawns on 5d (entering c) and 3b (entering a); kings out of the way.
    let p = heian("k8/6P2/9/4P4/9/9/9/8K b - 1");
    assert_eq!(moves_from(&p, "5d"), ["5d5c", "5d5c+"]);
    assert_eq!(moves_from(&p, "3b"), ["3b3a+"]);
    // Rank d is outside the zone (the zone is the three farthest ranks a-c).
    let p = heian("k8/9/9/9/4P4/9/9/8K b - 1");
    assert_eq!(moves_from(&p, "5e"), ["5e5d"]);
}

#[test]
fn white_zone_is_ranks_f_to_h_on_both_boards() {
    // White pawn entering f (optional), entering h (forced), and one entering e (no promotion).
    let p = heian("8k/9/9/4p4/2p6/9/6p2/K8 w - 1");
    assert_eq!(moves_from(&p, "5d"), ["5d5e"]);
    assert_eq!(moves_from(&p, "7e"), ["7e7f", "7e7f+"]);
    assert_eq!(moves_from(&p, "3g"), ["3g3h+"]);
    let p = heian8("7k/8/8/4p3/2p5/8/6p1/K7 w - 1");
    assert_eq!(moves_from(&p, "4d"), ["4d4e"]);
    assert_eq!(moves_from(&p, "6e"), ["6e6f", "6e6f+"]);
    assert_eq!(moves_from(&p, "2g"), ["2g2h+"]);
}

#[test]
fn knight_and_lance_forced_promotion_on_the_small_board() {
    // Black knight on 5e: to 4c/6c optional. Black knight on 2d: to 1b/3b forced (last two ranks).
    // White lance on 9e (8x8: file 8): to 8h forced, 8f/8g optional.
    let p = heian8("k7/8/8/6N1/3N4/8/8/7K b - 1");
    assert_eq!(moves_from(&p, "5e"), ["5e4c", "5e4c+", "5e6c", "5e6c+"]);
    assert_eq!(moves_from(&p, "2d"), ["2d1b+", "2d3b+"]);
    let p = heian8("7k/8/8/8/l7/8/8/3K4 w - 1");
    assert_eq!(
        moves_from(&p, "8e"),
        ["8e8f", "8e8f+", "8e8g", "8e8g+", "8e8h+"]
    );
}

#[test]
fn silver_may_promote_moving_out_of_the_zone() {
    // A black silver on 5c (in the zone) stepping back to 4d or 6d may still promote.
    let p = heian("k8/9/4S4/9/9/9/9/8K b - 1");
    assert_eq!(
        moves_from(&p, "5c"),
        ["5c4b", "5c4b+", "5c4d", "5c4d+", "5c5b", "5c5b+", "5c6b", "5c6b+", "5c6d", "5c6d+"]
    );
}

#[test]
fn captures_leave_the_game_and_no_drop_is_ever_generated() {
    let mut rng = Rng::new(12345);
    for variant in [Variant::Heian, Variant::Heian8] {
        for _game in 0..30 {
            let mut pos = Position::startpos(variant);
            for _ply in 0..300 {
                assert!(pos.hand(Color::Black).is_empty() && pos.hand(Color::White).is_empty());
                let list = legal_moves(&pos);
                assert!(list.iter().all(|m| !m.is_drop()), "a drop in {:?}", pos);
                if list.is_empty() || outcome(&pos, EnteringKingRule::Csa27, 0).is_some() {
                    break;
                }
                pos.do_move(list[rng.below(list.len())]);
            }
        }
    }
    // A drop text is refused with a typed error, not a panic.
    let pos = Position::startpos(Variant::Heian);
    assert!(pos.parse_usi_move("P*5e").is_err());
}

#[test]
fn capturing_the_last_piece_wins_by_bare_king() {
    // Black's gold takes White's last piece (a pawn on 5f): White is bare.
    let mut p = heian("4k4/9/9/9/9/4p4/4G4/K8 b - 1");
    assert_eq!(outcome(&p, EnteringKingRule::Csa27, 0), None);
    let m = p.parse_usi_move("5g5f").expect("legal capture");
    p.do_move(m);
    assert_eq!(bare_king_loser(&p), Some(Color::White));
    assert_eq!(
        outcome(&p, EnteringKingRule::Csa27, 0),
        Some(Outcome::Win(Color::Black, WinReason::BareKing))
    );
}

#[test]
fn baring_back_does_not_undo_a_bare_king_loss() {
    // Black's gold takes White's last piece (5c5b, also a check); White's king could take the gold
    // back, leaving king against king. The game already ended with the capture: Black won.
    let mut p = heian("3k5/4p4/4G4/9/9/9/9/K8 b - 1");
    let m = p.parse_usi_move("5c5b").expect("legal capture");
    p.do_move(m);
    assert_eq!(
        outcome(&p, EnteringKingRule::Csa27, 0),
        Some(Outcome::Win(Color::Black, WinReason::BareKing))
    );
    // King against king can only be a set-up position (or a game played past its end): a draw.
    let back = p.parse_usi_move("6a5b").expect("legal recapture");
    p.do_move(back);
    assert_eq!(
        outcome(&p, EnteringKingRule::Csa27, 0),
        Some(Outcome::Draw(DrawReason::BothBare))
    );
    // The bare side loses whoever is to move.
    let p = heian("4k4/9/9/9/9/9/9/K7G w - 1");
    assert_eq!(
        outcome(&p, EnteringKingRule::Csa27, 0),
        Some(Outcome::Win(Color::Black, WinReason::BareKing))
    );
}

#[test]
fn checkmate_and_no_legal_move() {
    // Gold to 5b, guarded by the silver on 5c: every square around 5a is covered.
    let mut p = heian("4k4/9/4SG3/8p/9/9/9/K8 b - 1");
    let m = p.parse_usi_move("4c5b").expect("legal");
    p.do_move(m);
    assert!(p.in_check());
    assert_eq!(
        outcome(&p, EnteringKingRule::Csa27, 0),
        Some(Outcome::Win(Color::Black, WinReason::Checkmate))
    );
    // White's king on 8a is not in check; the gold covers 7a and 7b, the knight on 8b is pinned by
    // the lance on 8h and a knight cannot move along the file. No legal move: White loses.
    let p = heian8("k7/n1G5/8/8/8/8/8/L6K w - 1");
    assert!(!p.in_check());
    assert!(legal_moves(&p).is_empty());
    assert_eq!(
        outcome(&p, EnteringKingRule::Csa27, 0),
        Some(Outcome::Win(Color::Black, WinReason::NoLegalMove))
    );
}

fn play_cycle(p: &mut Position, cycle: &[&str], rounds: usize) {
    for round in 0..rounds {
        for text in cycle {
            assert_eq!(
                outcome(p, EnteringKingRule::None, 0),
                None,
                "round {round}, before {text}"
            );
            let m = p.parse_usi_move(text).expect("legal cycle move");
            p.do_move(m);
        }
    }
}

#[test]
fn fourfold_repetition_draws() {
    // Both golds step out and back: the fourth occurrence of the first position is a draw.
    let mut p = heian("4k4/3g5/9/9/9/9/5G3/4K4 b - 1");
    play_cycle(&mut p, &["4g4f", "6b6c", "4f4g", "6c6b"], 3);
    assert_eq!(
        outcome(&p, EnteringKingRule::None, 0),
        Some(Outcome::Draw(DrawReason::Repetition))
    );
}

#[test]
fn perpetual_check_loses_for_the_checker() {
    // Black's silver checks with every move (2b3c checks 4b, 3c2b checks 3a); White's king goes
    // 4b-3a-4b. On the fourth occurrence Black, the checker, has lost.
    let mut p = heian("9/5k1S1/p8/9/9/9/9/4K4 b - 1");
    play_cycle(&mut p, &["2b3c", "4b3a", "3c2b", "3a4b"], 3);
    assert_eq!(
        outcome(&p, EnteringKingRule::None, 0),
        Some(Outcome::Win(Color::White, WinReason::PerpetualCheck))
    );
}

// ---------------------------------------------------------------------------------------------
// SFEN
// ---------------------------------------------------------------------------------------------

#[test]
fn sfen_round_trips_on_both_boards() {
    for (variant, sfen) in [
        (
            Variant::Heian,
            "lnsgkgsnl/9/ppppppppp/9/9/PPPPPPPPP/9/LNSGKGSNL b - 1",
        ),
        (
            Variant::Heian,
            "l2gk2nl/4g4/p+Pp1ppsp1/3s5/2P2N2p/P2P1PP2/1+n2S4/L1SGKG2L w - 37",
        ),
        (
            Variant::Heian8,
            "lnsgksnl/8/pppppppp/8/8/PPPPPPPP/8/LNSKGSNL b - 1",
        ),
        (Variant::Heian8, "3k4/8/2+P5/8/3g4/8/5s2/3K4 b - 120"),
    ] {
        let pos = Position::from_sfen(sfen, variant).unwrap_or_else(|e| panic!("{sfen}: {e}"));
        assert_eq!(pos.to_sfen(), sfen);
        assert_eq!(pos.variant(), variant);
    }
}

#[test]
fn nine_by_nine_sfen_is_refused_while_heian_is_selected() {
    let shogi = Variant::Shogi.startpos_sfen();
    let err = Position::from_sfen(shogi, Variant::Heian).expect_err("9x9 SFEN must be refused");
    assert!(matches!(
        err,
        PositionError::Sfen(SfenError::WrongRankCount { .. })
    ));
    assert!(Position::from_sfen(shogi, Variant::Heian8).is_err());
    // A 9x8 SFEN is refused on the 8x8 board and the other way round.
    assert!(Setup::parse(Variant::Heian.startpos_sfen(), Variant::Heian8).is_err());
    assert!(Setup::parse(Variant::Heian8.startpos_sfen(), Variant::Heian).is_err());
    // Rooks, bishops and pieces in hand do not exist in Heian.
    assert!(Position::from_sfen("4k4/9/9/9/9/9/1R7/4K4 b - 1", Variant::Heian).is_err());
    assert!(Position::from_sfen("4k4/9/9/9/9/9/9/4K4 b P 1", Variant::Heian).is_err());
}

#[test]
fn heian_pieces_only_in_start_positions() {
    for variant in [Variant::Heian, Variant::Heian8] {
        let pos = Position::startpos(variant);
        for kind in [PieceKind::Rook, PieceKind::Bishop] {
            assert!(pos.pieces(Color::Black, kind).is_empty());
            assert!(pos.pieces(Color::White, kind).is_empty());
        }
        let count = pos.occupied().count();
        let expected = if variant == Variant::Heian { 36 } else { 32 };
        assert_eq!(count, expected);
    }
}
