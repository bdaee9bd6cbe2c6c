//! The network against itself: incremental updates against refreshes over random games, every
//! instruction set against the portable path, a hand-computed position, and the file format's
//! round trip and refusals. (The file format against an independent writer, and the engine's
//! numbers through the binary, are in `tests/nnue.rs`.)

use super::architecture::padded;
use super::features::{self, DIMENSIONS};
use super::*;
use crate::core::movegen::legal_moves;
use crate::core::Variant;
use crate::rng::Rng;

const SMALL: Architecture = Architecture {
    l1: 64,
    l2: 16,
    l3: 8,
};
type Small = Network<64, 16, 8>;

fn random_raw(a: Architecture, seed: u64, spread: i16) -> RawNetwork {
    RawNetwork::random(a, seed, spread).expect("memory")
}

/// Random games through every kind of move, with positions that have pieces in hand, promoted
/// pieces and kings that walk.
fn random_positions(seed: u64, games: usize, plies: usize) -> Vec<Vec<Position>> {
    let mut rng = Rng::new(seed);
    (0..games)
        .map(|_| {
            let mut pos = Position::startpos(Variant::Shogi);
            let mut line = vec![pos.clone()];
            for _ in 0..plies {
                let moves = legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                // Prefer captures and king moves now and then, so hands fill and kings move.
                let list = moves.as_slice();
                let pick = if rng.below(3) == 0 {
                    list.iter()
                        .copied()
                        .find(|&m| {
                            pos.is_capture(m)
                                || pos.moved_piece(m).kind() == crate::core::PieceKind::King
                        })
                        .unwrap_or(list[rng.below(list.len())])
                } else {
                    list[rng.below(list.len())]
                };
                pos.do_move(pick);
                line.push(pos.clone());
            }
            line
        })
        .collect()
}

/// Plays random games (seeded) with `eval`'s state brought up to date after each move from one,
/// two or three plies back, as the search's lazy updates do, and hands `check` each position
/// with its state.
fn lazily_along_random_games<E: Evaluator>(
    eval: &E,
    seed: u64,
    games: usize,
    plies: usize,
    mut check: impl FnMut(&Position, &E::State),
) {
    let mut rng = Rng::new(seed ^ 0x1A2B);
    for game in random_positions(seed, games, plies) {
        let mut states = vec![eval.blank_state(); game.len()];
        eval.compute(&game[0], &mut states[0]);
        let mut deltas = Vec::new();
        let mut pos = game[0].clone();
        for i in 1..game.len() {
            let m = game[i].last_move().expect("a move was made");
            deltas.push(eval.delta(&pos, m));
            pos.do_move(m);
            let back = (1 + rng.below(3)).min(i);
            let (done, rest) = states.split_at_mut(i);
            eval.update(
                &done[i - back],
                &pos,
                deltas[i - back..i].iter().copied(),
                &mut rest[0],
            );
            check(&pos, &rest[0]);
        }
    }
}

#[test]
fn incremental_updates_equal_refreshes_over_random_games() {
    for spread in [20, 12_000] {
        let nnue = Nnue::new(
            Arc::new(Small::from_raw(random_raw(SMALL, 1, spread)).unwrap()),
            16,
        );
        lazily_along_random_games(&nnue, 5, 12, 160, |pos, state| {
            let mut fresh = Accumulator::ZERO;
            nnue.refresh(pos, &mut fresh);
            assert_eq!(*state, fresh, "spread {spread}: {}", pos.to_sfen());
        });
    }
}

#[test]
fn every_instruction_set_gives_the_portable_numbers() {
    let positions: Vec<Position> = random_positions(9, 8, 120).into_iter().flatten().collect();
    for spread in [20, 12_000] {
        let portable = Arc::new(
            Small::from_raw_with(random_raw(SMALL, 2, spread), simd::Isa::Portable).unwrap(),
        );
        let reference: Vec<_> = positions
            .iter()
            .map(|pos| {
                let mut acc = Accumulator::ZERO;
                Nnue::new(Arc::clone(&portable), 1).refresh(pos, &mut acc);
                (acc, portable.propagate(&acc, pos.side_to_move()))
            })
            .collect();
        for isa in simd::Isa::supported() {
            let net = Arc::new(Small::from_raw_with(random_raw(SMALL, 2, spread), isa).unwrap());
            assert_eq!(net.isa(), isa);
            let nnue = Nnue::new(Arc::clone(&net), 1);
            for (pos, (acc, out)) in positions.iter().zip(&reference) {
                let mut mine = Accumulator::ZERO;
                nnue.refresh(pos, &mut mine);
                assert_eq!(&mine, acc, "{isa:?} accumulator of {}", pos.to_sfen());
                assert_eq!(
                    net.propagate(acc, pos.side_to_move()),
                    *out,
                    "{isa:?}: {}",
                    pos.to_sfen()
                );
            }
        }
    }
}

/// One feature, one path through the layers: the evaluation follows by hand.
#[test]
fn a_hand_computed_network() {
    let mut raw = RawNetwork::zeroed(SMALL).unwrap();
    // Black's pawn on 7g with Black's king on 5i (bucket 44): BonaPiece 90 + 60.
    let feature = features::index(44, 150) as usize;
    raw.transformer_weights[feature * 64 + 3] = 10;
    // hidden1 output 5 reads input 3 (the side to move's half) with weight 64: 640 >> 6 = 10.
    raw.hidden1_weights[5 * padded(128) + 3] = 64;
    // hidden2 output 2 reads hidden1 output 5 with weight 32: 320 >> 6 = 5.
    raw.hidden2_weights[2 * padded(16) + 5] = 32;
    raw.output_weights[2] = 12;
    raw.output_bias = -3;
    let nnue = Nnue::new(Arc::new(Small::from_raw(raw).unwrap()), 16);
    let start = Position::startpos(Variant::Shogi);
    // Black to move: -3 + 5 * 12 = 57, and 57 / 16 = 3.
    assert_eq!(nnue.evaluate_unclamped(&start), Some(3));
    let after = |moves: &[&str]| {
        let mut pos = start.clone();
        for m in moves {
            pos.do_move(pos.parse_usi_move(m).unwrap());
        }
        nnue.evaluate_unclamped(&pos)
    };
    // After 7g7f White is to move: its own pawn on 3c is the same feature from its side (a friend
    // pawn on the rotated 7g, its king on the rotated 5i), and its half comes first: 3 again.
    assert_eq!(after(&["7g7f"]), Some(3));
    // After 7g7f 3c3d neither side has it: only the bias, -3 / 16, which truncates to 0.
    assert_eq!(after(&["7g7f", "3c3d"]), Some(0));
    // The division truncates toward zero as C++'s does (-57 / 16 = -3, not -4).
    let mut raw = RawNetwork::zeroed(SMALL).unwrap();
    raw.output_bias = -57;
    let nnue = Nnue::new(Arc::new(Small::from_raw(raw).unwrap()), 16);
    assert_eq!(nnue.evaluate_unclamped(&start), Some(-3));
}

#[test]
fn a_position_without_a_king_falls_back_to_the_hand_written_evaluation() {
    let nnue = Nnue::new(
        Arc::new(Small::from_raw(random_raw(SMALL, 3, 20)).unwrap()),
        16,
    );
    let pos =
        Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1", Variant::Shogi).unwrap();
    assert_eq!(nnue.evaluate_unclamped(&pos), None);
    assert_eq!(nnue.evaluate_fresh(&pos), HandWritten.evaluate_fresh(&pos));
}

fn write(raw: &RawNetwork) -> Vec<u8> {
    let mut bytes = Vec::new();
    raw.write(&mut bytes).unwrap();
    bytes
}

#[test]
fn written_files_read_back_identically_and_bad_ones_are_refused() {
    let raw = random_raw(SMALL, 4, 20);
    let bytes = write(&raw);
    assert_eq!(
        bytes.len() as u64,
        SMALL.file_size(SMALL.description().len())
    );
    let read = |b: &[u8]| RawNetwork::read(b, b.len() as u64, &[SMALL]);
    let back = read(&bytes).unwrap();
    assert!(back.warnings.is_empty(), "{:?}", back.warnings);
    assert_eq!(write(&back.raw), bytes);

    let err = |b: &[u8]| read(b).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(
        err(&bytes[..5]).contains("too short"),
        "{}",
        err(&bytes[..5])
    );
    assert!(err(&bytes[..bytes.len() - 1]).starts_with("truncated"));
    assert!(err(&bytes[..1000]).starts_with("truncated"));
    let mut long = bytes.clone();
    long.extend_from_slice(&[0, 0, 0]);
    assert!(err(&long).starts_with("3 bytes follow"), "{}", err(&long));
    let mut bad_version = bytes.clone();
    bad_version[0] ^= 1;
    assert!(err(&bad_version).contains("version word"));
    let mut huge_description = bytes.clone();
    huge_description[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(err(&huge_description).contains("description length"));
    // An unknown hash with a known size: read by its size, with a warning.
    let mut other_hash = bytes.clone();
    other_hash[4] ^= 0x55;
    let loaded = read(&other_hash).unwrap();
    assert_eq!(loaded.warnings.len(), 1, "{:?}", loaded.warnings);
    assert_eq!(write(&loaded.raw), bytes);
    // An unknown hash and an unknown size.
    other_hash.push(0);
    assert!(err(&other_hash).starts_with("unknown architecture"));
    // A wrong section hash is a warning too.
    let mut section = bytes.clone();
    let at = 12 + SMALL.description().len();
    section[at] ^= 1;
    assert_eq!(read(&section).unwrap().warnings.len(), 1);
    // Another description (as other trainers write) changes nothing.
    let short_description = [
        &bytes[..8],
        &4u32.to_le_bytes(),
        b"test",
        &bytes[12 + SMALL.description().len()..],
    ]
    .concat();
    let loaded = read(&short_description).unwrap();
    assert!(loaded.warnings.is_empty());
    assert_eq!(
        loaded.raw.transformer_weights[..],
        raw.transformer_weights[..]
    );
    assert_eq!(DIMENSIONS * 64, raw.transformer_weights.len());
}

/// A residual network's file says so in its description and reads back residual; other files
/// (YaneuraOu's description alone) read back as whole evaluations.
#[test]
fn a_residual_network_is_marked_in_its_description() {
    let mut raw = random_raw(SMALL, 6, 20);
    let read = |b: &[u8]| RawNetwork::read(b, b.len() as u64, &[SMALL]).unwrap().raw;
    assert!(!read(&write(&raw)).residual);
    raw.residual = true;
    let bytes = write(&raw);
    let description_len = u32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize;
    let description = String::from_utf8(bytes[12..12 + description_len].to_vec()).unwrap();
    assert!(
        description.starts_with(&SMALL.description()),
        "{description}"
    );
    assert!(description.contains(file::RESIDUAL_MARK), "{description}");
    let back = read(&bytes);
    assert!(back.residual);
    assert_eq!(write(&back), bytes);
    assert!(Small::from_raw(back).unwrap().residual());
}

/// The residual evaluation is the hand-written evaluation plus the network's, kept up to date
/// along random games by lazy updates as each is alone; without a king, the hand-written alone.
#[test]
fn the_residual_evaluation_is_the_sum_along_random_games() {
    // The shape of Tokin's own networks, so that `AnyNetwork` holds it too.
    let mut raw = random_raw(Network::<64, 32, 32>::ARCHITECTURE, 7, 20);
    raw.residual = true;
    let network = Arc::new(Network::<64, 32, 32>::from_raw(raw).unwrap());
    assert!(network.residual());
    let nnue = Nnue::new(Arc::clone(&network), 16);
    let residual = Residual::new(nnue.clone());
    let any = AnyNetwork::Small(network);
    let mut corrections = 0;
    lazily_along_random_games(&residual, 8, 6, 120, |pos, state| {
        let hand = HandWritten.evaluate_fresh(pos);
        let own = nnue.evaluate_unclamped(pos).unwrap();
        let sum = (hand + own).clamp(-EVAL_MAX, EVAL_MAX);
        assert_eq!(residual.evaluate(pos, state), sum, "{}", pos.to_sfen());
        assert_eq!(residual.evaluate_fresh(pos), sum);
        assert_eq!(any.evaluate(pos, 16), Some(hand + own));
        corrections += usize::from(own != 0);
    });
    assert!(
        corrections > 100,
        "the network adds something: {corrections}"
    );
    let kingless =
        Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1", Variant::Shogi).unwrap();
    assert_eq!(
        residual.evaluate_fresh(&kingless),
        HandWritten.evaluate_fresh(&kingless)
    );
}
