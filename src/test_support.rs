//! Helpers shared by unit tests in several modules.

use crate::core::{Position, Variant};

/// Calls `visit` on every position of `games` random games per variant of up to `plies` plies each
/// (a fixed-seed generator, so failures reproduce); returns how many positions it visited. `visit`
/// may make and take back moves but must leave the position as it found it.
pub fn for_each_random_position(
    seed: u64,
    games: usize,
    plies: usize,
    mut visit: impl FnMut(&mut Position),
) -> usize {
    let mut rng = crate::rng::Rng::new(seed);
    let mut visited = 0;
    for variant in Variant::ALL {
        for _game in 0..games {
            let mut pos = Position::startpos(variant);
            for _ply in 0..plies {
                let key = pos.key();
                visit(&mut pos);
                assert_eq!(pos.key(), key, "the visitor left the position changed");
                visited += 1;
                let moves = crate::core::movegen::legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                let m = moves.as_slice()[rng.below(moves.len())];
                pos.do_move(m);
            }
        }
    }
    visited
}
