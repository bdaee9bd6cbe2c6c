use super::*;
use crate::core::movegen::legal_moves;
use crate::core::Move;
use crate::rng::Rng;
use proptest::prelude::*;

fn setup(sfen: &str) -> Setup {
    Setup::parse(sfen, Variant::Shogi).expect("test SFEN")
}

fn hex(p: &PackedSfen) -> String {
    format!("{p:?}")
}

/// Same board, hands and side to move (the format has no move number).
fn assert_same_position(a: &Setup, b: &Setup) {
    assert_eq!(a.board, b.board, "{} vs {}", a.to_sfen(), b.to_sfen());
    assert_eq!(a.hands, b.hands, "{} vs {}", a.to_sfen(), b.to_sfen());
    assert_eq!(a.side_to_move, b.side_to_move);
}

fn round_trip(s: &Setup) {
    let packed = PackedSfen::from_setup(s).expect("packs");
    let back = packed.to_setup().expect("unpacks");
    assert_same_position(s, &back);
    assert_eq!(packed.side_to_move(), s.side_to_move);
}

#[test]
fn start_position_packs_to_the_bytes_cshogi_writes() {
    // cshogi 1.1.0: `b = cshogi.Board(); a = np.zeros(32, np.uint8); b.to_psfen(a)`.
    let packed = PackedSfen::from_position(&Position::startpos(Variant::Shogi)).unwrap();
    assert_eq!(
        hex(&packed),
        "58a451220ceb67227e9653221caf447824c22b119e53221ceb6f223e9651220c"
    );
}

#[test]
fn the_first_bits_are_side_and_king_squares() {
    // White to move, Black king on 5i (index 4 * 9 + 8 = 44), White king on 5a (36).
    let s = setup("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1");
    let packed = PackedSfen::from_setup(&s).unwrap();
    let word = u32::from_le_bytes([packed.0[0], packed.0[1], packed.0[2], packed.0[3]]);
    assert_eq!(word & 1, 1);
    assert_eq!(word >> 1 & 0x7f, 44);
    assert_eq!(word >> 8 & 0x7f, 36);
    assert_eq!(packed.side_to_move(), Color::White);
}

#[test]
fn positions_with_pieces_in_hand_promoted_pieces_and_handicaps_round_trip() {
    for sfen in [
        // The position with the most legal moves (593): most pieces in hand.
        "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
        // Every promoted kind on the board, both colours.
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
        "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
        "+R+B+S+N+L1+P2/9/9/9/4k4/9/9/9/4K4 b RBG3S3N3L17P3g 1",
        // Handicaps: pieces missing from board and hands go to the piece box.
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "4k4/9/9/9/9/9/9/9/4K4 b - 1",
        "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ] {
        round_trip(&setup(sfen));
    }
}

#[test]
fn a_missing_gold_is_boxed_as_a_white_promoted_silver() {
    // All pieces on the board but one gold: the last five bits are the box gold, 1 1 0 1 1.
    let s = setup("lnsgk1snl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
    let packed = PackedSfen::from_setup(&s).unwrap();
    assert_eq!(packed.0[31] >> 3, 0b11011);
    round_trip(&s);
}

#[test]
fn positions_without_both_kings_are_refused() {
    // A mate problem without the attacker's king: YaneuraOu's 81 would need a 257th bit.
    let s = setup("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1");
    assert_eq!(
        PackedSfen::from_setup(&s),
        Err(PackedSfenError::MissingKing(Color::Black))
    );
    let s = setup("4k4/9/9/9/9/9/9/9/9 b G2r2b3g4s4n4l18p 1");
    assert_eq!(
        PackedSfen::from_setup(&s),
        Err(PackedSfenError::MissingKing(Color::Black))
    );
}

#[test]
fn heian_positions_are_refused() {
    let pos = Position::startpos(Variant::Heian);
    assert_eq!(
        PackedSfen::from_position(&pos),
        Err(PackedSfenError::NotStandardShogi {
            variant: Variant::Heian
        })
    );
}

/// A stream written bit by bit, for records no encoder would produce.
fn stream(write: impl FnOnce(&mut BitWriter)) -> PackedSfen {
    let mut w = BitWriter {
        data: [0; PACKED_SFEN_BYTES],
        cursor: 0,
    };
    write(&mut w);
    PackedSfen(w.data)
}

#[test]
fn bad_king_squares_are_reported() {
    for value in [81, 127] {
        let packed = stream(|w| {
            w.write_bit(false);
            w.write(value, 7);
        });
        assert_eq!(
            packed.to_setup(),
            Err(PackedSfenError::BadKingSquare {
                color: Color::Black,
                value
            })
        );
    }
    let packed = stream(|w| {
        w.write_bit(false);
        w.write(40, 7);
        w.write(40, 7);
    });
    assert_eq!(
        packed.to_setup(),
        Err(PackedSfenError::KingsOnOneSquare(
            Square::from_index(40).unwrap()
        ))
    );
}

#[test]
fn a_code_cut_off_by_the_end_is_reported() {
    // Valid kings, then every bit 1: each square reads as a White promoted rook (8 bits), and the
    // 256th bit cuts one off.
    let packed = stream(|w| {
        w.write_bit(false);
        w.write(44, 7);
        w.write(36, 7);
        while w.cursor < TOTAL_BITS {
            w.write_bit(true);
        }
    });
    // 241 bits after the header: 30 rooks of 8 bits, the 31st starts at bit 15 + 240 = 255.
    assert_eq!(
        packed.to_setup(),
        Err(PackedSfenError::CodeCutOff { start: 255 })
    );
}

#[test]
fn wrong_piece_counts_are_reported() {
    // Kings only and every other bit 0: 79 empty squares, then 162 bits of Black pawns in hand
    // (3 bits each): 54 pawns.
    let packed = stream(|w| {
        w.write_bit(false);
        w.write(44, 7);
        w.write(36, 7);
    });
    assert_eq!(
        packed.to_setup(),
        Err(PackedSfenError::WrongPieceCount {
            kind: HandKind::Pawn,
            found: 54,
            expected: 18
        })
    );
}

#[test]
fn a_box_piece_with_the_white_bit_is_reported() {
    // The start position with White's 1a lance packed as a box lance with colour bit 1.
    let s = setup("lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
    let mut packed = PackedSfen::from_setup(&s).unwrap();
    // The box lance is the last 5 bits: 1 0 0 1 then the colour bit (bit 255).
    assert_eq!(packed.0[31] >> 3, 0b01001);
    packed.0[31] |= 0x80;
    assert_eq!(
        packed.to_setup(),
        Err(PackedSfenError::BadBoxPiece { start: 251 })
    );
}

#[test]
fn physically_impossible_and_illegal_positions_are_reported() {
    // A Black pawn on rank a can never move: packed by hand (the encoder takes any setup).
    let mut dead = Setup::startpos(Variant::Shogi);
    let from = Square::from_usi("1g").unwrap();
    let to = Square::from_usi("1a").unwrap();
    dead.board[to.index()] = dead.board[from.index()].take();
    let packed = PackedSfen::from_setup(&dead).unwrap();
    assert!(matches!(
        packed.to_setup(),
        Err(PackedSfenError::Setup(SfenError::DeadPiece { .. }))
    ));
    // White to move while Black's king is in check by the rook on 5b.
    let s = setup("4k4/4r4/9/9/9/9/9/9/4K4 w 2b4g4s4n4l18pr 1");
    let packed = PackedSfen::from_setup(&s).unwrap();
    assert!(packed.to_setup().is_ok());
    assert_eq!(
        packed.to_position(1).map(|_| ()),
        Err(PackedSfenError::Position(PositionError::OpponentInCheck(
            Color::Black
        )))
    );
}

/// Random legal play that prefers captures and promotions, so hands fill up and promoted pieces
/// appear: the positions the property test packs.
fn capture_heavy_game(seed: u64, plies: usize, mut visit: impl FnMut(&Position)) {
    let mut rng = Rng::new(seed);
    let mut pos = Position::startpos(Variant::Shogi);
    for _ in 0..plies {
        visit(&pos);
        let moves = legal_moves(&pos);
        if moves.is_empty() {
            return;
        }
        let noisy: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&m| pos.is_capture(m) || m.is_promotion())
            .collect();
        let m = if !noisy.is_empty() && rng.below(4) != 0 {
            noisy[rng.below(noisy.len())]
        } else {
            moves.as_slice()[rng.below(moves.len())]
        };
        pos.do_move(m);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn positions_of_random_play_round_trip(seed in any::<u64>()) {
        capture_heavy_game(seed, 160, |pos| {
            let packed = PackedSfen::from_position(pos).expect("packs");
            let back = packed.to_position(pos.game_ply()).expect("unpacks");
            assert_eq!(back.to_sfen(), pos.to_sfen());
            assert_eq!(back.key(), pos.key());
        });
    }

    // Any 32 bytes: decoding never panics, and what decodes packs to bytes that decode the same.
    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::array::uniform32(any::<u8>())) {
        if let Ok(s) = PackedSfen(bytes).to_setup() {
            let again = PackedSfen::from_setup(&s).expect("packs").to_setup().expect("unpacks");
            prop_assert_eq!(again, s);
        }
    }
}

#[test]
fn a_long_game_of_random_play_round_trips_position_by_position() {
    // The property test's play, checked to reach what it is meant to cover: full hands and
    // promoted pieces.
    let (mut promoted, mut in_hand_max, mut visited) = (0, 0, 0);
    for seed in 1..=20 {
        capture_heavy_game(seed, 300, |pos| {
            let packed = PackedSfen::from_position(pos).unwrap();
            let back = packed.to_setup().unwrap();
            assert_same_position(&pos.to_setup(), &back);
            promoted += back
                .board
                .iter()
                .flatten()
                .filter(|p| p.kind().is_promoted())
                .count();
            in_hand_max = in_hand_max.max(back.hands[0].total() + back.hands[1].total());
            visited += 1;
        });
    }
    assert!(visited > 1000, "{visited} positions");
    assert!(promoted > 100, "{promoted} promoted pieces seen");
    assert!(in_hand_max >= 20, "at most {in_hand_max} pieces in hand");
}
