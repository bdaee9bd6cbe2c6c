//! Internal score scale and its conversions (to the TT's 16 bits, to the protocol's `Score`).
//!
//! Centipawn-like integers from the side to move's view. Mate scores sit at the top of the range:
//! `MATE - n` means "mate in n plies from the root", so a shorter mate is a larger score.

use super::api::Score;

pub const MAX_PLY: usize = 128;
pub const MATE: i32 = 32_000;
pub const INFINITE: i32 = MATE + 1;
/// Scores at or beyond this (in absolute value) are mates.
pub const MATE_IN_MAX_PLY: i32 = MATE - MAX_PLY as i32;
pub const DRAW: i32 = 0;
/// Largest static evaluation: keeps every evaluation clear of the mate range.
pub const EVAL_MAX: i32 = MATE_IN_MAX_PLY - 1000;

/// Static eval slot value meaning "not computed" (side in check).
pub const EVAL_NONE: i32 = -INFINITE;

const _: () = assert!(INFINITE + (MAX_PLY as i32) < i16::MAX as i32);

#[inline]
pub const fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

#[inline]
pub const fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

#[inline]
pub const fn is_mate_score(v: i32) -> bool {
    v.abs() >= MATE_IN_MAX_PLY
}

/// Mate scores are stored relative to the node (distance from *this* position), so an entry is
/// right wherever in the tree the position is met again.
#[inline]
pub fn to_tt(v: i32, ply: usize) -> i16 {
    let v = if v >= MATE_IN_MAX_PLY {
        v + ply as i32
    } else if v <= -MATE_IN_MAX_PLY {
        v - ply as i32
    } else {
        v
    };
    v.clamp(-INFINITE, INFINITE) as i16
}

#[inline]
pub fn from_tt(v: i16, ply: usize) -> i32 {
    let v = v as i32;
    if v >= MATE_IN_MAX_PLY {
        v - ply as i32
    } else if v <= -MATE_IN_MAX_PLY {
        v + ply as i32
    } else {
        v
    }
}

/// The protocol form: `mate N` in plies, negative when the side to move is mated.
pub fn to_api(v: i32) -> Score {
    if v >= MATE_IN_MAX_PLY {
        Score::Mate(MATE - v)
    } else if v <= -MATE_IN_MAX_PLY {
        Score::Mate(-(MATE + v))
    } else {
        Score::Cp(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_conversions() {
        assert_eq!(to_api(mate_in(1)), Score::Mate(1));
        assert_eq!(to_api(mated_in(2)), Score::Mate(-2));
        assert_eq!(to_api(123), Score::Cp(123));
        // A mate found 3 plies below the root, stored at ply 3 and read at ply 5.
        let stored = to_tt(mate_in(7), 3);
        assert_eq!(from_tt(stored, 5), mate_in(9));
        assert_eq!(from_tt(to_tt(-50, 9), 1), -50);
    }
}
