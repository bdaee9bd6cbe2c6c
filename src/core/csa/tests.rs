//! CSA notation against the format's own examples (written out by hand here, not generated), and
//! sweeps over random games that every legal move and every position reads back as itself.

use super::*;
use crate::core::movegen::legal_moves;
use crate::rng::Rng;

fn pos(sfen: &str) -> Position {
    Position::from_sfen(sfen, Variant::Shogi).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

/// Plays USI moves from the start position.
fn after(usi: &[&str]) -> Position {
    let mut p = Position::startpos(Variant::Shogi);
    for text in usi {
        let m = p.parse_usi_move(text).unwrap();
        p.do_move(m);
    }
    p
}

const START: [&str; 10] = [
    "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY",
    "P2 * -HI *  *  *  *  * -KA * ",
    "P3-FU-FU-FU-FU-FU-FU-FU-FU-FU",
    "P4 *  *  *  *  *  *  *  *  * ",
    "P5 *  *  *  *  *  *  *  *  * ",
    "P6 *  *  *  *  *  *  *  *  * ",
    "P7+FU+FU+FU+FU+FU+FU+FU+FU+FU",
    "P8 * +KA *  *  *  *  * +HI * ",
    "P9+KY+KE+GI+KI+OU+KI+GI+KE+KY",
    "+",
];

#[test]
fn piece_names_are_the_formats() {
    let names: Vec<&str> = PieceKind::ALL.iter().map(|k| k.csa_name()).collect();
    // PieceKind order: P L N S B R G K, then the promoted P L N S B R.
    assert_eq!(
        names,
        ["FU", "KY", "KE", "GI", "KA", "HI", "KI", "OU", "TO", "NY", "NK", "NG", "UM", "RY"]
    );
    for kind in PieceKind::ALL {
        assert_eq!(PieceKind::from_csa_name(kind.csa_name()), Some(kind));
    }
    assert_eq!(PieceKind::from_csa_name("fu"), None);
    assert_eq!(PieceKind::from_csa_name("AL"), None);
}

#[test]
fn moves_of_the_formats_examples() {
    let start = Position::startpos(Variant::Shogi);
    let m = parse_move(&start, "+7776FU").unwrap();
    assert_eq!(m.to_usi(), "7g7f");
    assert_eq!(format_move(&start, m), "+7776FU");

    let p = after(&["7g7f"]);
    assert_eq!(parse_move(&p, "-3334FU").unwrap().to_usi(), "3c3d");

    // The bishop exchange: 8h takes 2b and promotes (UM), the silver takes back, and the bishop
    // in hand is dropped (00 source).
    let p = after(&["7g7f", "3c3d"]);
    let m = parse_move(&p, "+8822UM").unwrap();
    assert_eq!(m.to_usi(), "8h2b+");
    assert_eq!(format_move(&p, m), "+8822UM");
    let p = after(&["7g7f", "3c3d", "8h2b+"]);
    assert_eq!(parse_move(&p, "-3122GI").unwrap().to_usi(), "3a2b");
    let p = after(&["7g7f", "3c3d", "8h2b+", "3a2b"]);
    let m = parse_move(&p, "+0055KA").unwrap();
    assert_eq!(m.to_usi(), "B*5e");
    assert_eq!(format_move(&p, m), "+0055KA");

    // A white drop (-0034KA in the format's description) and a promotion on the move (+2423TO).
    let p = pos("4k4/9/9/9/9/9/9/9/4K4 w B 1");
    assert!(parse_move(&p, "-0034KA").is_err(), "the bishop is Black's");
    let p = pos("4k4/9/9/9/9/9/9/9/4K4 w b 1");
    assert_eq!(parse_move(&p, "-0034KA").unwrap().to_usi(), "B*3d");
    let p = pos("4k4/9/9/7P1/9/9/9/9/4K4 b - 1");
    let promote = parse_move(&p, "+2423TO").unwrap();
    assert_eq!(promote.to_usi(), "2d2c+");
    assert_eq!(format_move(&p, promote), "+2423TO");
    let stay = parse_move(&p, "+2423FU").unwrap();
    assert_eq!(stay.to_usi(), "2d2c");
    assert_eq!(format_move(&p, stay), "+2423FU");
    // A promoted piece moving keeps its promoted name.
    let p = pos("4k4/9/9/7+P1/9/9/9/9/4K4 b - 1");
    assert_eq!(
        format_move(&p, p.parse_usi_move("2d2c").unwrap()),
        "+2423TO"
    );
}

#[test]
fn bad_moves_say_why() {
    let start = Position::startpos(Variant::Shogi);
    let err = |p: &Position, t: &str| parse_move(p, t).unwrap_err();
    for text in [
        "7776FU", "+7776F", "+7776FUU", "+7776fu", "*7776FU", "+7076FU", "+7770FU", "+0000FU",
        "+77a6FU", "+7776XX", "",
    ] {
        assert_eq!(
            err(&start, text),
            CsaMoveError::Syntax(text.into()),
            "{text}"
        );
    }
    assert!(matches!(
        err(&start, "-3334FU"),
        CsaMoveError::WrongSide {
            to_move: Color::Black,
            ..
        }
    ));
    assert_eq!(
        err(&start, "+5554FU"),
        CsaMoveError::NoPiece("+5554FU".into())
    );
    assert_eq!(
        err(&start, "+3334FU"),
        CsaMoveError::NotYourPiece("+3334FU".into())
    );
    assert!(matches!(
        err(&start, "+7776KI"),
        CsaMoveError::WrongPiece {
            on_source: "FU",
            named: "KI",
            ..
        }
    ));
    assert_eq!(
        err(&start, "+7777FU"),
        CsaMoveError::SameSquare("+7777FU".into())
    );
    assert_eq!(
        err(&start, "+0055UM"),
        CsaMoveError::BadDrop("+0055UM".into())
    );
    assert_eq!(
        err(&start, "+0055OU"),
        CsaMoveError::BadDrop("+0055OU".into())
    );
    assert!(matches!(
        err(&start, "+0055KA"),
        CsaMoveError::Illegal(MoveError::NotInHand(_))
    ));
    assert!(matches!(
        err(&start, "+7775FU"),
        CsaMoveError::Illegal(MoveError::CannotMoveThere(_))
    ));
    // Promotion outside the zone, a forced promotion left out, nifu, leaving the king in check.
    assert!(matches!(
        err(&start, "+7776TO"),
        CsaMoveError::Illegal(MoveError::BadPromotion(_))
    ));
    let p = pos("4k4/8P/9/9/9/9/9/9/4K4 b - 1");
    assert!(matches!(
        err(&p, "+1211FU"),
        CsaMoveError::Illegal(MoveError::BadPromotion(_))
    ));
    let p = pos("4k4/9/9/9/9/4P4/9/9/4K4 b P 1");
    assert!(matches!(
        err(&p, "+0053FU"),
        CsaMoveError::Illegal(MoveError::BadDrop(_))
    ));
    let p = pos("4k4/9/9/9/4r4/9/9/4G4/4K4 b - 1");
    assert!(matches!(
        err(&p, "+5848KI"),
        CsaMoveError::Illegal(MoveError::KingInCheck(_))
    ));
    let heian = Position::startpos(Variant::Heian);
    assert!(matches!(
        err(&heian, "+7776FU"),
        CsaMoveError::Variant { .. }
    ));
}

#[test]
fn the_start_position_is_written_and_read_as_the_format_shows_it() {
    let start = Position::startpos(Variant::Shogi);
    assert_eq!(position_lines(&start.to_setup()), START);
    assert_eq!(parse_position(&START).unwrap().to_sfen(), start.to_sfen());
    assert_eq!(
        parse_position(&["PI", "+"]).unwrap().to_sfen(),
        start.to_sfen()
    );
    // Writers that trim the blanks of an empty last cell.
    let trimmed: Vec<&str> = START.iter().map(|l| l.trim_end()).collect();
    assert_eq!(parse_position(&trimmed).unwrap().to_sfen(), start.to_sfen());
}

#[test]
fn handicaps_hands_and_all_the_rest() {
    // Two-piece handicap: White's rook (82) and bishop (22) come off; White moves first.
    let p = parse_position(&["PI82HI22KA", "-"]).unwrap();
    assert_eq!(
        p.to_sfen(),
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    );
    // A board row by row, hands with 00, and a comment line.
    let lines = [
        "'a mate problem",
        "P1 *  *  *  *  *  *  * -KE-KY",
        "P2 *  *  *  *  *  * -KI-OU * ",
        "P3 *  *  *  *  *  * -FU-FU-FU",
        "P4 *  *  *  *  *  *  *  *  * ",
        "P5 *  *  *  *  *  *  *  *  * ",
        "P6 *  *  *  *  *  *  *  *  * ",
        "P7 *  *  *  *  *  *  *  *  * ",
        "P8 *  *  *  *  *  *  *  *  * ",
        "P9 *  *  *  * +OU *  *  *  * ",
        "P+00KI00FU",
        "P-00HI",
        "+",
    ];
    let p = parse_position(&lines).unwrap();
    assert_eq!(p.to_sfen(), "7nl/6gk1/6ppp/9/9/9/9/9/4K4 b GPr 1");
    assert_eq!(position_lines(&p.to_setup())[..9], lines[1..10]);
    assert_eq!(
        position_lines(&p.to_setup())[9..],
        ["P+00KI00FU", "P-00HI", "+"]
    );
    // Pieces placed one by one and the rest of the set to White (the tsume convention).
    let p = parse_position(&["P-52OU", "P+53KI", "P+00KI", "P-00AL", "-"]).unwrap();
    assert_eq!(p.to_sfen(), "9/4k4/4G4/9/9/9/9/9/9 w G2r2b2g4s4n4l18p 1");
}

#[test]
fn bad_positions_say_why() {
    let err = |lines: &[&str]| parse_position(lines).unwrap_err();
    let mut rows: Vec<&str> = START.to_vec();
    rows[0] = "P1-KY-KE-GI-KI-XX-KI-GI-KE-KY";
    assert!(matches!(
        err(&rows),
        CsaPositionError::BadCell { cell: 5, .. }
    ));
    rows[0] = "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY-FU";
    assert!(matches!(err(&rows), CsaPositionError::LongRow(_)));
    assert_eq!(err(&START[1..]), CsaPositionError::MissingRows("P1".into()));
    assert_eq!(err(&START[..9]), CsaPositionError::MissingSide);
    assert_eq!(err(&["PI", "+", "-"]), CsaPositionError::DuplicateSide);
    assert!(matches!(
        err(&["PI", "PI", "+"]),
        CsaPositionError::MixedBoard(_)
    ));
    assert!(matches!(
        err(&["P+00FU", "PI", "+"]),
        CsaPositionError::MixedBoard(_)
    ));
    assert!(matches!(
        err(&["PI55FU", "+"]),
        CsaPositionError::NothingToRemove { .. }
    ));
    assert!(matches!(
        err(&["PI", "P+59KI", "+"]),
        CsaPositionError::Occupied { .. }
    ));
    assert!(matches!(
        err(&["PI", "P+00OU", "+"]),
        CsaPositionError::NotHoldable { .. }
    ));
    assert!(matches!(
        err(&["PI", "P+00TO", "+"]),
        CsaPositionError::NotHoldable { .. }
    ));
    assert!(matches!(
        err(&["P-52OU", "P+00AL00FU", "+"]),
        CsaPositionError::AllNotLast(_)
    ));
    assert!(matches!(
        err(&["PI", "P+00F", "+"]),
        CsaPositionError::BadEntry { .. }
    ));
    assert!(matches!(
        err(&["PI", "N+tokin", "+"]),
        CsaPositionError::UnknownLine(_)
    ));
    assert!(matches!(
        err(&["PI", "+7776FU", "+"]),
        CsaPositionError::UnknownLine(_)
    ));
    // What the SFEN reader refuses: two unpromoted pawns of one side on a file; a third king.
    assert!(matches!(
        err(&["P+59OU57FU55FU", "P-51OU", "+"]),
        CsaPositionError::Impossible(SfenError::Nifu { .. })
    ));
    assert!(matches!(
        err(&["PI", "P+55OU", "+"]),
        CsaPositionError::Impossible(SfenError::TooManyKings { .. })
    ));
    // Too many pieces: a full set on the board and one more pawn in hand.
    assert!(matches!(
        err(&["PI", "P+00FU", "+"]),
        CsaPositionError::Impossible(SfenError::TooManyPieces { .. })
    ));
    // The side not to move is in check.
    assert!(matches!(
        err(&["P-52OU", "P+53KI59OU", "+"]),
        CsaPositionError::Illegal(PositionError::OpponentInCheck(Color::White))
    ));
}

/// Random games from the start: every legal move's text reads back as that move (and as no other),
/// and every position's lines read back as that position.
#[test]
fn random_games_read_back_as_themselves() {
    let mut rng = Rng::new(0xc5a);
    for _ in 0..20 {
        let mut p = Position::startpos(Variant::Shogi);
        for _ in 0..160 {
            let setup = p.to_setup();
            let mut expected = setup.clone();
            expected.move_number = 1;
            let back = parse_position(&position_lines(&setup)).unwrap();
            assert_eq!(back.to_sfen(), expected.to_sfen());
            let moves = legal_moves(&p);
            if moves.is_empty() {
                break;
            }
            let mut texts = std::collections::HashSet::new();
            for &m in moves.iter() {
                let text = format_move(&p, m);
                assert_eq!(parse_move(&p, &text), Ok(m), "{text} in {}", p.to_sfen());
                assert!(
                    texts.insert(text),
                    "two moves share a text in {}",
                    p.to_sfen()
                );
            }
            let m = moves.as_slice()[rng.below(moves.len())];
            p.do_move(m);
        }
    }
}
