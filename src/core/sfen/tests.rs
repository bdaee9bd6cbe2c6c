use super::*;
use proptest::prelude::*;

const PERFT_SFENS: [&str; 3] = [
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
    "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
    "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
];

fn sq(s: &str) -> Square {
    Square::from_usi(s).expect("test square")
}

fn parse(sfen: &str) -> Result<Setup, SfenError> {
    Setup::parse(sfen, Variant::Shogi)
}

#[test]
fn start_positions_round_trip() {
    for variant in Variant::ALL {
        let setup = Setup::parse(variant.startpos_sfen(), variant).unwrap();
        assert_eq!(setup.to_sfen(), variant.startpos_sfen());
        assert_eq!(setup, Setup::startpos(variant));
    }
    let heian = Setup::parse(
        "lnsgkgsnl/9/ppppppppp/9/9/PPPPPPPPP/9/LNSGKGSNL b - 1",
        Variant::Heian,
    )
    .unwrap();
    assert_eq!(
        heian.piece_on(sq("5h")),
        Some(Piece::new(Color::Black, PieceKind::King))
    );
    assert_eq!(
        heian.piece_on(sq("9a")),
        Some(Piece::new(Color::White, PieceKind::Lance))
    );
    assert_eq!(
        heian.piece_on(sq("1f")),
        Some(Piece::new(Color::Black, PieceKind::Pawn))
    );
    let heian8 = Setup::parse(
        "lnsgksnl/8/pppppppp/8/8/PPPPPPPP/8/LNSKGSNL b - 1",
        Variant::Heian8,
    )
    .unwrap();
    // Black's king stands on 5h, White's on 4a (the 8x8 setup is not symmetric about the centre file).
    assert_eq!(
        heian8.piece_on(sq("5h")),
        Some(Piece::new(Color::Black, PieceKind::King))
    );
    assert_eq!(
        heian8.piece_on(sq("4a")),
        Some(Piece::new(Color::White, PieceKind::King))
    );
    assert_eq!(
        heian8.piece_on(sq("8a")),
        Some(Piece::new(Color::White, PieceKind::Lance))
    );
    assert_eq!(heian8.piece_on(sq("9a")), None);
}

#[test]
fn shogi_start_position_contents() {
    let s = Setup::startpos(Variant::Shogi);
    assert_eq!(
        s.piece_on(sq("8h")),
        Some(Piece::new(Color::Black, PieceKind::Bishop))
    );
    assert_eq!(
        s.piece_on(sq("2h")),
        Some(Piece::new(Color::Black, PieceKind::Rook))
    );
    assert_eq!(
        s.piece_on(sq("8b")),
        Some(Piece::new(Color::White, PieceKind::Rook))
    );
    assert_eq!(
        s.piece_on(sq("7g")),
        Some(Piece::new(Color::Black, PieceKind::Pawn))
    );
    assert_eq!(s.side_to_move, Color::Black);
    assert_eq!(s.move_number, 1);
    assert!(s.hands.iter().all(|h| h.is_empty()));
}

#[test]
fn perft_positions_parse_and_canonicalise() {
    let first = parse(PERFT_SFENS[0]).unwrap();
    assert_eq!(first.side_to_move, Color::White);
    assert_eq!(first.hand(Color::Black).count(HandKind::Rook), 1);
    assert_eq!(first.hand(Color::Black).count(HandKind::Gold), 1);
    assert_eq!(first.hand(Color::White).count(HandKind::Pawn), 5);
    assert_eq!(
        first.piece_on(sq("4b")),
        Some(Piece::new(Color::Black, PieceKind::ProPawn))
    );
    assert_eq!(
        first.piece_on(sq("1b")),
        Some(Piece::new(Color::White, PieceKind::King))
    );
    // Hands come out in the canonical order R B G S N L P.
    assert_eq!(
        first.to_sfen(),
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1"
    );
    // The other two are canonical already.
    for sfen in &PERFT_SFENS[1..] {
        assert_eq!(parse(sfen).unwrap().to_sfen(), *sfen);
    }
    let third = parse(PERFT_SFENS[2]).unwrap();
    assert_eq!(third.move_number, 124);
    assert_eq!(
        third.piece_on(sq("2h")),
        Some(Piece::new(Color::White, PieceKind::Dragon))
    );
    assert_eq!(
        third.piece_on(sq("5i")),
        Some(Piece::new(Color::White, PieceKind::ProPawn))
    );
    let max = parse(PERFT_SFENS[1]).unwrap();
    assert_eq!(max.hand(Color::White).count(HandKind::Pawn), 17);
}

#[test]
fn canonical_round_trips() {
    let canonical = [
        "9/9/9/9/9/9/9/9/9 b - 1",
        "9/9/9/9/4k4/9/9/9/9 w - 7",
        "4k4/9/9/9/9/9/9/9/4K4 b 2R2B4G4S4N4L18P 1",
        "4k4/9/9/9/9/9/9/9/4K4 b 2r2b4g4s4n4l18p 1",
        "+l+n+sgkg+s+n+l/1+r5+b1/+p+p+p+p+p+p+p+p+p/9/9/9/9/9/4K4 w - 300",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2",
        "ln1g3nl/1r1s1k3/p1ppppbpp/6p2/1p7/2P1P4/PPBP1PPPP/3K3R1/LNSG1GSNL b S 17",
        "k8/9/9/9/9/9/9/9/8K b RBGSNLPrbgsnlp 99999",
    ];
    for sfen in canonical {
        let setup = parse(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
        assert_eq!(setup.to_sfen(), sfen);
        assert_eq!(setup.to_string(), sfen);
    }
    let heian = [
        ("4k4/9/9/9/9/9/9/4K4 b - 5", Variant::Heian),
        (
            "l2gk1snl/2+S6/ppp1ppppp/3p5/9/PPPPPPPPP/9/LNSGKGSNL w - 3",
            Variant::Heian,
        ),
        ("3k4/8/8/8/8/8/8/3K4 w - 1", Variant::Heian8),
        (
            "lnsgksn1/7+L/pppppppp/8/8/PPPPPPPP/8/LNSKGSN1 b - 9",
            Variant::Heian8,
        ),
    ];
    for (sfen, variant) in heian {
        let setup = Setup::parse(sfen, variant).unwrap_or_else(|e| panic!("{sfen}: {e}"));
        assert_eq!(setup.to_sfen(), sfen);
    }
}

#[test]
fn lenient_input_is_accepted() {
    let canonical = "4k4/9/9/9/9/9/9/9/4K4 b 2RS2gp 1";
    for text in [
        "4k4/9/9/9/9/9/9/9/4K4 b 2RS2gp 1",
        "4k4/9/9/9/9/9/9/9/4K4 b p2gS2R 1",
        "4k4/9/9/9/9/9/9/9/4K4 b S2R2gp",
        "  4k4/9/9/9/9/9/9/9/4K4 \t b   2gp2RS   1  ",
    ] {
        assert_eq!(parse(text).unwrap().to_sfen(), canonical, "{text}");
    }
    // Two-digit counts, no king, one king.
    assert_eq!(
        parse("9/9/9/9/9/9/9/9/9 w 18p 1")
            .unwrap()
            .hand(Color::White)
            .count(HandKind::Pawn),
        18
    );
    assert!(parse("9/9/9/9/9/9/9/9/9 w 10P8p 1").is_ok());
    assert!(parse("4k4/9/9/9/9/9/9/9/9 b 2G 1").is_ok());
    // Promoted pieces may stand anywhere, also on the last ranks.
    assert!(parse("+P+L+N6/9/9/9/9/9/9/9/+p+l+n6 b - 1").is_ok());
    // White's pawns and knights may stand on Black's last ranks and the other way round.
    assert!(parse("9/9/9/9/9/9/9/P8/N8 b - 1").is_ok());
    assert!(parse("p8/n8/9/9/9/9/9/9/9 b - 1").is_ok());
    assert!(parse("P8/9/9/9/9/9/9/9/p8 b - 1").is_err());
    assert!(parse("9/9/9/9/9/9/9/N8/n8 b - 1").is_err());
    assert!(parse("9/N8/9/9/9/9/9/9/9 b - 1").is_err());
    assert!(parse("9/9/N8/9/9/9/n8/9/9 b - 1").is_ok());
    // A promoted pawn next to a pawn on the same file is not nifu; opposite colours neither.
    assert!(parse("9/4P4/4+P4/4p4/4p4/9/9/9/9 b - 1").is_err());
    assert!(parse("9/4P4/4+P4/4p4/9/9/9/9/9 b - 1").is_ok());
}

fn err(sfen: &str, variant: Variant) -> SfenError {
    match Setup::parse(sfen, variant) {
        Ok(s) => panic!("'{sfen}' parsed as {s}"),
        Err(e) => e,
    }
}

#[test]
fn every_error_variant() {
    use SfenError as E;
    let v = Variant::Shogi;
    assert_eq!(err("", v), E::Empty);
    assert_eq!(err("   ", v), E::Empty);
    assert!(matches!(
        err("9/9/9/9/9/9/9/9/9", v),
        E::MissingSideToMove(_)
    ));
    assert!(matches!(err("9/9/9/9/9/9/9/9/9 b", v), E::MissingHands(_)));
    assert_eq!(
        err("9/9/9/9/9/9/9/9/9 b - 1 moves", v),
        E::TrailingText("moves".into())
    );
    assert_eq!(
        err("9/9/9/9/9/9/9/9 b - 1", v),
        E::WrongRankCount {
            variant: v,
            found: 8,
            expected: 9
        }
    );
    assert_eq!(
        err("9/9/9/9/9/9/9/9/9/9 b - 1", v),
        E::WrongRankCount {
            variant: v,
            found: 10,
            expected: 9
        }
    );
    assert_eq!(
        err("9/9/4k5/9/9/9/9/9/9 b - 1", v),
        E::TooManyFiles {
            variant: v,
            rank: 3,
            letter: 'c',
            found: 10,
            expected: 9
        }
    );
    assert_eq!(
        err("9/9/9/9/9/9/9/9/lnsgkgsnlp b - 1", v),
        E::TooManyFiles {
            variant: v,
            rank: 9,
            letter: 'i',
            found: 10,
            expected: 9
        }
    );
    assert_eq!(
        err("9/8/9/9/9/9/9/9/9 b - 1", v),
        E::TooFewFiles {
            variant: v,
            rank: 2,
            letter: 'b',
            found: 8,
            expected: 9
        }
    );
    assert_eq!(
        err("9//9/9/9/9/9/9/9 b - 1", v),
        E::TooFewFiles {
            variant: v,
            rank: 2,
            letter: 'b',
            found: 0,
            expected: 9
        }
    );
    assert_eq!(
        err("9/9/9/9/4x4/9/9/9/9 b - 1", v),
        E::BadBoardChar {
            rank: 5,
            letter: 'e',
            ch: 'x'
        }
    );
    assert_eq!(
        err("9/9/9/9/4\u{00e9}4/9/9/9/9 b - 1", v),
        E::BadBoardChar {
            rank: 5,
            letter: 'e',
            ch: '\u{00e9}'
        }
    );
    assert_eq!(
        err("9/9/9/9/0k8/9/9/9/9 b - 1", v),
        E::BadBoardChar {
            rank: 5,
            letter: 'e',
            ch: '0'
        }
    );
    assert_eq!(
        err("9/9/9/9/9/9/9/9/45 b - 1", v),
        E::AdjacentDigits {
            rank: 9,
            letter: 'i',
            first: '4',
            second: '5'
        }
    );
    assert_eq!(
        err("9/9/9/9/4+G4/9/9/9/9 b - 1", v),
        E::CannotPromote {
            rank: 5,
            letter: 'e',
            ch: 'G',
            kind: PieceKind::Gold
        }
    );
    assert_eq!(
        err("9/9/9/9/4+k4/9/9/9/9 b - 1", v),
        E::CannotPromote {
            rank: 5,
            letter: 'e',
            ch: 'k',
            kind: PieceKind::King
        }
    );
    assert_eq!(
        err("9/9/9/9/4+4k/9/9/9/9 b - 1", v),
        E::PlusBeforeDigit {
            rank: 5,
            letter: 'e',
            digit: '4'
        }
    );
    assert_eq!(
        err("9/9/9/9/8+/9/9/9/9 b - 1", v),
        E::PlusAtEnd {
            rank: 5,
            letter: 'e'
        }
    );
    assert_eq!(
        err("9/9/9/9/4++P3/9/9/9/9 b - 1", v),
        E::BadBoardChar {
            rank: 5,
            letter: 'e',
            ch: '+'
        }
    );
    assert_eq!(
        err("4k4/9/9/9/4b4/9/9/9/4K4 b - 1", Variant::Heian),
        E::WrongRankCount {
            variant: Variant::Heian,
            found: 9,
            expected: 8
        }
    );
    assert_eq!(
        err("4k4/9/9/4b4/9/9/9/4K4 b - 1", Variant::Heian),
        E::PieceNotInVariant {
            variant: Variant::Heian,
            piece: Piece::new(Color::White, PieceKind::Bishop),
            square: sq("5d")
        }
    );
    assert_eq!(
        err("3k4/8/8/8/8/8/+R7/3K4 b - 1", Variant::Heian8),
        E::PieceNotInVariant {
            variant: Variant::Heian8,
            piece: Piece::new(Color::Black, PieceKind::Dragon),
            square: sq("8g")
        }
    );
    assert_eq!(
        err("4P4/9/9/9/9/9/9/9/9 b - 1", v),
        E::DeadPiece {
            piece: Piece::new(Color::Black, PieceKind::Pawn),
            square: sq("5a")
        }
    );
    assert_eq!(
        err("9/9/9/9/9/9/9/9/l8 b - 1", v),
        E::DeadPiece {
            piece: Piece::new(Color::White, PieceKind::Lance),
            square: sq("9i")
        }
    );
    assert_eq!(
        err("9/9/9/9/9/9/9/9/l8 b - 1", v).to_string(),
        "White Lance 'l' on 9i could never move again (dead square for that piece)"
    );
    assert_eq!(
        err("9/N8/9/9/9/9/9/9/9 w - 1", v),
        E::DeadPiece {
            piece: Piece::new(Color::Black, PieceKind::Knight),
            square: sq("9b")
        }
    );
    // Heian's last ranks are g and h for White.
    assert_eq!(
        err("4k4/9/9/9/9/9/n8/4K4 b - 1", Variant::Heian),
        E::DeadPiece {
            piece: Piece::new(Color::White, PieceKind::Knight),
            square: sq("9g")
        }
    );
    assert_eq!(
        err("3k4/8/8/8/8/8/8/p2K4 b - 1", Variant::Heian8),
        E::DeadPiece {
            piece: Piece::new(Color::White, PieceKind::Pawn),
            square: sq("8h")
        }
    );
    assert_eq!(
        err("9/9/4P4/9/4P4/9/9/9/9 b - 1", v),
        E::Nifu {
            color: Color::Black,
            file: 5
        }
    );
    assert_eq!(
        err("9/p8/9/9/9/9/9/p8/9 b - 1", v),
        E::Nifu {
            color: Color::White,
            file: 9
        }
    );
    assert_eq!(
        err("k3k4/9/9/9/9/9/9/9/4K4 b - 1", v),
        E::TooManyKings {
            color: Color::White,
            count: 2
        }
    );
    assert_eq!(
        err("9/9/9/9/9/9/9/9/9 b 3R 1", v),
        E::TooManyPieces {
            variant: v,
            kind: HandKind::Rook,
            found: 3,
            max: 2
        }
    );
    assert_eq!(
        err("9/9/9/9/9/9/9/9/9 b 10P9p 1", v),
        E::TooManyPieces {
            variant: v,
            kind: HandKind::Pawn,
            found: 19,
            max: 18
        }
    );
    // Promoted pieces count as their base kind, board and both hands together.
    assert_eq!(
        err("+B8/9/9/9/9/9/9/9/9 b Bb 1", v),
        E::TooManyPieces {
            variant: v,
            kind: HandKind::Bishop,
            found: 3,
            max: 2
        }
    );
    assert_eq!(
        err("SSS6/s8/9/9/9/9/9/9/9 b s 1", v),
        E::TooManyPieces {
            variant: v,
            kind: HandKind::Silver,
            found: 5,
            max: 4
        }
    );
    assert_eq!(
        err("g2k4/8/8/8/8/8/GG6/3K4 b - 1", Variant::Heian8),
        E::TooManyPieces {
            variant: Variant::Heian8,
            kind: HandKind::Gold,
            found: 3,
            max: 2
        }
    );
    assert_eq!(
        err("9/9/9/9/9/9/9/9/9 x - 1", v),
        E::BadSideToMove("x".into())
    );
    assert_eq!(
        err("9/9/9/9/9/9/9/9/9 B - 1", v),
        E::BadSideToMove("B".into())
    );
    let hands = |text: &str| err(&format!("9/9/9/9/9/9/9/9/9 b {text} 1"), v);
    assert_eq!(
        hands("2X"),
        E::BadHandChar {
            text: "2X".into(),
            ch: 'X'
        }
    );
    assert_eq!(
        hands("P-"),
        E::BadHandChar {
            text: "P-".into(),
            ch: '-'
        }
    );
    assert_eq!(
        hands("--"),
        E::BadHandChar {
            text: "--".into(),
            ch: '-'
        }
    );
    assert_eq!(hands("K"), E::KingInHand { text: "K".into() });
    assert_eq!(hands("+P"), E::PromotedInHand { text: "+P".into() });
    assert_eq!(
        hands("0P"),
        E::HandCountZero {
            text: "0P".into(),
            count: "0".into()
        }
    );
    assert_eq!(
        hands("02P"),
        E::HandCountZero {
            text: "02P".into(),
            count: "02".into()
        }
    );
    assert_eq!(hands("1P"), E::HandCountOne { text: "1P".into() });
    assert_eq!(
        hands("100p"),
        E::HandCountTooLong {
            text: "100p".into(),
            count: "100".into()
        }
    );
    assert_eq!(hands("P2"), E::HandCountWithoutPiece { text: "P2".into() });
    assert_eq!(
        hands("PGP"),
        E::HandPieceRepeated {
            text: "PGP".into(),
            ch: 'P'
        }
    );
    assert_eq!(
        hands("2p3p"),
        E::HandPieceRepeated {
            text: "2p3p".into(),
            ch: 'p'
        }
    );
    // Black's 'P' and White's 'p' are different entries.
    assert!(parse("9/9/9/9/9/9/9/9/9 b Pp 1").is_ok());
    assert_eq!(
        err("4k4/9/9/9/9/9/9/4K4 b P 1", Variant::Heian),
        E::HandsWithoutDrops {
            text: "P".into(),
            variant: Variant::Heian
        }
    );
    assert_eq!(
        err("3k4/8/8/8/8/8/8/3K4 w g 1", Variant::Heian8),
        E::HandsWithoutDrops {
            text: "g".into(),
            variant: Variant::Heian8
        }
    );
    for bad in ["0", "-3", "+3", "x", "1.5", "99999999999"] {
        assert_eq!(
            err(&format!("9/9/9/9/9/9/9/9/9 b - {bad}"), v),
            E::BadMoveNumber(bad.into()),
            "{bad}"
        );
    }
}

#[test]
fn error_messages_name_the_problem() {
    let v = Variant::Shogi;
    assert_eq!(
        err("9/9/4k5/9/9/9/9/9/9 b - 1", v).to_string(),
        "rank 3 (c) has 10 files but a shogi board has 9: too many"
    );
    assert_eq!(
        err(
            "lnsgksnl/8/pppppppp/8/8/PPPPPPPP/8/LNSKGSN b - 1",
            Variant::Heian8
        )
        .to_string(),
        "rank 8 (h) has 7 files but a heian8 board has 8: too few"
    );
    assert_eq!(
        err("9/9/9/9/9/9/9/9/l8 b - 1", v).to_string(),
        "White Lance 'l' on 9i could never move again (dead square for that piece)"
    );
    assert_eq!(
        err("9/9/9/9/4+G4/9/9/9/9 b - 1", v).to_string(),
        "rank 5 (e): '+G' is not a piece: Gold cannot promote"
    );
    assert_eq!(
        err("9/9/9/9/9/9/9/9/9 b 10P9p 1", v).to_string(),
        "19 Pawns on the board and in hand (promoted ones counted as Pawn); a shogi set has 18"
    );
    assert_eq!(
        err("9/9/4P4/9/4P4/9/9/9/9 b - 1", v).to_string(),
        "two unpromoted Black pawns on file 5 (nifu)"
    );
    assert_eq!(
        err("4k4/9/9/4b4/9/9/9/4K4 b - 1", Variant::Heian).to_string(),
        "White Bishop 'b' on 5d: heian has no Bishop"
    );
}

#[test]
fn nine_by_nine_sfen_is_rejected_under_heian() {
    let shogi = Variant::Shogi.startpos_sfen();
    assert!(matches!(
        err(shogi, Variant::Heian),
        SfenError::WrongRankCount {
            found: 9,
            expected: 8,
            ..
        }
    ));
    assert!(matches!(
        err(shogi, Variant::Heian8),
        SfenError::WrongRankCount {
            found: 9,
            expected: 8,
            ..
        }
    ));
    // The 9x8 start position has nine files: too many for 8x8.
    assert!(matches!(
        err(Variant::Heian.startpos_sfen(), Variant::Heian8),
        SfenError::TooManyFiles {
            rank: 1,
            found: 9,
            expected: 8,
            ..
        }
    ));
    // And eight ranks are too few for shogi.
    assert!(matches!(
        err(Variant::Heian.startpos_sfen(), Variant::Shogi),
        SfenError::WrongRankCount {
            found: 8,
            expected: 9,
            ..
        }
    ));
}

#[test]
fn move_text_parses() {
    let v = Variant::Shogi;
    assert_eq!(
        parse_move_text("7g7f", v),
        Ok(Move::normal(sq("7g"), sq("7f"), false))
    );
    assert_eq!(
        parse_move_text("8h2b+", v),
        Ok(Move::normal(sq("8h"), sq("2b"), true))
    );
    assert_eq!(
        parse_move_text("P*5e", v),
        Ok(Move::drop(HandKind::Pawn, sq("5e")))
    );
    for kind in HandKind::ALL {
        let text = format!("{}*1a", kind.usi_char());
        assert_eq!(parse_move_text(&text, v), Ok(Move::drop(kind, sq("1a"))));
    }
    assert_eq!(
        parse_move_text("1h1g", Variant::Heian8),
        Ok(Move::normal(sq("1h"), sq("1g"), false))
    );
    // Every board move of the 9x9 grid round-trips through its text.
    for from in Square::all() {
        for to in Square::all().filter(|&to| to != from) {
            for promote in [false, true] {
                let m = Move::normal(from, to, promote);
                assert_eq!(parse_move_text(&m.to_usi(), v), Ok(m));
            }
        }
    }
}

#[test]
fn move_text_errors() {
    use MoveTextError as E;
    let v = Variant::Shogi;
    let text = |s: &str| s.to_string();
    assert_eq!(parse_move_text("", v), Err(E::Empty));
    for bad in [
        "7g7",
        "7g7f++",
        "7g7f=",
        "resign",
        "P*5",
        "P*5e5",
        "\u{00e9}7g7",
    ] {
        assert_eq!(
            parse_move_text(bad, v),
            Err(E::BadSyntax(text(bad))),
            "{bad}"
        );
    }
    assert_eq!(
        parse_move_text("0g7f", v),
        Err(E::BadSquare {
            text: text("0g7f"),
            square: text("0g")
        })
    );
    assert_eq!(
        parse_move_text("7g7j", v),
        Err(E::BadSquare {
            text: text("7g7j"),
            square: text("7j")
        })
    );
    assert_eq!(
        parse_move_text("5i5h", Variant::Heian),
        Err(E::OffBoard {
            text: text("5i5h"),
            square: sq("5i"),
            variant: Variant::Heian,
            files: 9,
            ranks: 8
        })
    );
    assert_eq!(
        parse_move_text("9h8h", Variant::Heian8),
        Err(E::OffBoard {
            text: text("9h8h"),
            square: sq("9h"),
            variant: Variant::Heian8,
            files: 8,
            ranks: 8
        })
    );
    assert_eq!(
        parse_move_text("5i5h", Variant::Heian)
            .unwrap_err()
            .to_string(),
        "move '5i5h': square 5i is not on the heian board (9 files x 8 ranks)"
    );
    assert_eq!(
        parse_move_text("K*5e", v),
        Err(E::BadDropPiece {
            text: text("K*5e"),
            letter: 'K'
        })
    );
    assert_eq!(
        parse_move_text("p*5e", v),
        Err(E::BadDropPiece {
            text: text("p*5e"),
            letter: 'p'
        })
    );
    assert_eq!(
        parse_move_text("7g7g", v),
        Err(E::SameSquare { text: text("7g7g") })
    );
    assert_eq!(
        parse_move_text("P*5e+", v),
        Err(E::PromotingDrop {
            text: text("P*5e+")
        })
    );
    assert_eq!(
        parse_move_text("G*5e", Variant::Heian),
        Err(E::DropWithoutDrops {
            text: text("G*5e"),
            variant: Variant::Heian
        })
    );
}

/// A small deterministic generator so that one proptest seed builds one whole setup.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A random setup that obeys every rule the parser checks: pieces of the variant's set, each either
/// left out, on a random square (possibly promoted) or in a random hand; at most one king a side.
fn random_setup(variant: Variant, seed: u64) -> Setup {
    let mut rng = SplitMix(seed);
    let mut setup = Setup::empty(variant);
    setup.side_to_move = if rng.below(2) == 0 {
        Color::Black
    } else {
        Color::White
    };
    setup.move_number = 1 + rng.below(500) as u32;
    let squares: Vec<Square> = Square::all().filter(|&s| variant.contains(s)).collect();
    let place = |setup: &mut Setup, rng: &mut SplitMix, piece: Piece| -> bool {
        for _ in 0..8 {
            let s = squares[rng.below(squares.len() as u64) as usize];
            let (color, kind) = (piece.color(), piece.kind());
            let nifu = kind == PieceKind::Pawn
                && squares
                    .iter()
                    .any(|&o| o.file() == s.file() && setup.board[o.index()] == Some(piece));
            if setup.board[s.index()].is_none()
                && !variant.dead_squares(color, kind).contains(s)
                && !nifu
            {
                setup.board[s.index()] = Some(piece);
                return true;
            }
        }
        false
    };
    for color in Color::ALL {
        if rng.below(4) != 0 {
            place(&mut setup, &mut rng, Piece::new(color, PieceKind::King));
        }
    }
    // Sometimes a sparse position, sometimes a crowded one.
    let density = 1 + rng.below(4);
    for kind in HandKind::ALL {
        for _ in 0..max_count(variant, kind) {
            let color = if rng.below(2) == 0 {
                Color::Black
            } else {
                Color::White
            };
            match rng.below(4) {
                n if n >= density => {}
                0 if variant.has_drops() => setup.hands[color.index()].add(kind),
                _ => {
                    let base = kind.piece_kind();
                    let kind = match base.promoted() {
                        Some(p) if rng.below(3) == 0 => p,
                        _ => base,
                    };
                    place(&mut setup, &mut rng, Piece::new(color, kind));
                }
            }
        }
    }
    setup
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]
    #[test]
    fn random_valid_setups_round_trip(seed in any::<u64>(), variant_index in 0usize..3) {
        let variant = Variant::ALL[variant_index];
        let setup = random_setup(variant, seed);
        let sfen = setup.to_sfen();
        let parsed = Setup::parse(&sfen, variant);
        prop_assert_eq!(parsed.as_ref(), Ok(&setup), "{}", sfen);
        prop_assert_eq!(parsed.map(|s| s.to_sfen()), Ok(sfen));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]
    // Text from outside never panics the parsers, whatever it holds.
    #[test]
    fn parsers_never_panic_on_arbitrary_text(text in "\\PC{0,100}", variant_index in 0usize..3) {
        let variant = Variant::ALL[variant_index];
        let _ = Setup::parse(&text, variant);
        let _ = parse_move_text(&text, variant);
    }

    // Near-SFEN text (the SFEN alphabet, right shape) reaches the deeper checks; whatever parses
    // writes back to text that parses to the same setup.
    #[test]
    fn near_sfen_text_never_panics_and_what_parses_round_trips(
        ranks in proptest::collection::vec("[1-9pPlLnNsSgGbBrRkK+]{1,10}", 7..=10),
        side in "[bwx]",
        hands in "-|[0-9pPlLnNsSgGbBrRkK+]{1,12}",
        number in proptest::option::of("[0-9]{1,4}"),
        variant_index in 0usize..3,
    ) {
        let variant = Variant::ALL[variant_index];
        let text = format!("{} {side} {hands} {}", ranks.join("/"), number.unwrap_or_default());
        if let Ok(setup) = Setup::parse(&text, variant) {
            prop_assert_eq!(Setup::parse(&setup.to_sfen(), variant), Ok(setup));
        }
    }

    #[test]
    fn move_text_never_panics(text in "[0-9a-jPLNSGBRK*+]{0,6}", variant_index in 0usize..3) {
        let variant = Variant::ALL[variant_index];
        if let Ok(m) = parse_move_text(&text, variant) {
            prop_assert_eq!(m.to_usi(), text);
        }
    }
}
