//! Every evaluation weight, in one place, as data.
//!
//! [`Weights`] holds the numbers the evaluator reads; [`Weights::params_mut`] lists them as named groups
//! with a range each, so a tuner (Texel, SPSA) can read and write every weight without knowing the
//! evaluator. Units are centipawn-like: a pawn on the board is 90.
//!
//! The first values were hand-set from common shogi knowledge (piece values in the spirit of
//! Bonanza's, scaled to a 90-point pawn). The current ones are Texel-tuned (examples/tune.rs, prior 25
//! toward the previous values, K ~680, pawn frozen at 90) on quiet positions of 3000-node self-play
//! (examples/datagen.rs), in two generations:
//! 1. 254k positions from the hand-set engine; validation loss 0.6088 -> 0.6029. Against the hand-set
//!    weights at 20k nodes per move: +89 -22 =0 (+243 Elo, 95% [+171, +340], SPRT 0/10 took H1).
//! 2. those plus 100k positions from the generation-1 engine (373k); validation 0.6141 -> 0.6131.
//!    Against generation 1 at 20k nodes: +127 -73 =0 (+96 Elo, 95% [+48, +149]).
//!
//! Set by hand after each: the promoted silver at the silver's value (tuned ~210-220: a promotion
//! should not lose material by itself, and the few positions with one said little).
//!
//! Measured 2026-11-29 on the hand-set weights with scripts/match.py, 20k nodes per move,
//! openings.sfen with colours swapped (the full evaluation against itself with one group of weights
//! set to zero; Elo with 95% interval):
//! | compared with                      | games | W-L   | Elo                  |
//! |------------------------------------|-------|-------|----------------------|
//! | material only (search's old eval)  | 40    | 30-10 | +191 [+82, +353]     |
//! | same, byoyomi 200 ms instead       | 20    | 15-5  | +191 [+42, +477]     |
//! | no king distances (placement)      | 30    | 20-10 | +120 [-1, +282]      |
//! | no king safety                     | 30    | 23-7  | +207 [+82, +420]     |
//! | no mobility / promotion reach      | 30    | 19-11 | +95 [-27, +247]      |
//! | no rank tables (P, L, N, K)        | 30    | 21-9  | +147 [+25, +321]     |
//! | no first-copy hand bonus           | 30    | 15-15 | 0 [-130, +130]       |
//! Every group kept; `hand_first` is unproven (neutral at this sample size).

use crate::core::PieceKind;

/// Piece classes for the placement and king-safety tables: the fourteen kinds without the king, with
/// the four promoted minor pieces merged (they all move like a gold; the gold itself stays apart because
/// it is worth more in hand and is the classic defender).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Class {
    Pawn = 0,
    Lance,
    Knight,
    Silver,
    Gold,
    Bishop,
    Rook,
    /// Tokin, promoted lance, knight and silver.
    ProMinor,
    Horse,
    Dragon,
}

impl Class {
    pub const NUM: usize = 10;

    /// The class of a piece kind, `None` for the king.
    #[inline]
    pub const fn of(kind: PieceKind) -> Option<Class> {
        Some(match kind {
            PieceKind::Pawn => Class::Pawn,
            PieceKind::Lance => Class::Lance,
            PieceKind::Knight => Class::Knight,
            PieceKind::Silver => Class::Silver,
            PieceKind::Gold => Class::Gold,
            PieceKind::Bishop => Class::Bishop,
            PieceKind::Rook => Class::Rook,
            PieceKind::ProPawn
            | PieceKind::ProLance
            | PieceKind::ProKnight
            | PieceKind::ProSilver => Class::ProMinor,
            PieceKind::Horse => Class::Horse,
            PieceKind::Dragon => Class::Dragon,
            PieceKind::King => return None,
        })
    }

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// Ranging pieces whose mobility is scored, in the order of [`Weights::mobility`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Ranger {
    Lance = 0,
    Bishop,
    Rook,
    Horse,
    Dragon,
}

impl Ranger {
    pub const NUM: usize = 5;

    #[inline]
    pub const fn of(kind: PieceKind) -> Option<Ranger> {
        match kind {
            PieceKind::Lance => Some(Ranger::Lance),
            PieceKind::Bishop => Some(Ranger::Bishop),
            PieceKind::Rook => Some(Ranger::Rook),
            PieceKind::Horse => Some(Ranger::Horse),
            PieceKind::Dragon => Some(Ranger::Dragon),
            _ => None,
        }
    }
}

/// Largest Chebyshev distance on the 9x9 grid plus one: the length of the king-distance tables.
pub const DISTANCES: usize = 9;
/// Ranks counted from a side's own back rank (0) to the far one (8): the length of the rank tables.
pub const RANKS: usize = 9;

/// The weights of every evaluation term. Tables indexed by piece use [`PieceKind`] / `HandKind`
/// indices or [`Class`]; king-distance tables use the Chebyshev distance (0 never occurs: the king
/// stands there); rank tables count ranks from the owner's back rank.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Value of a piece on the board, by `PieceKind` index (the king's entry is unused).
    pub board: [i32; PieceKind::NUM],
    /// Value of each copy in hand, by `HandKind` index. Higher than the board value for most kinds: a
    /// hand piece can go to any empty square, where it is needed, in one move.
    pub hand: [i32; 7],
    /// Extra for holding at least one copy of a kind: the first copy gives the drop threats, further
    /// copies add less (diminishing returns without a per-count table).
    pub hand_first: [i32; 7],
    /// Material scale in 64ths for variants without drops (Heian): a capture there is permanent, so
    /// material outweighs the positional terms more than in shogi.
    pub no_drop_material_scale: i32,

    /// Bonus by Chebyshev distance to the own king (defence: golds and silvers stay near).
    pub own_king_distance: [[i32; DISTANCES]; Class::NUM],
    /// Bonus by Chebyshev distance to the enemy king (attack).
    pub enemy_king_distance: [[i32; DISTANCES]; Class::NUM],
    /// Pawn, lance and knight by rank advanced from the own back rank.
    pub pawn_rank: [i32; RANKS],
    pub lance_rank: [i32; RANKS],
    pub knight_rank: [i32; RANKS],
    /// King by rank advanced from the own back rank (an early walk up the board is dangerous).
    pub king_rank: [i32; RANKS],

    /// Per square a ranging piece reaches (empty or enemy), by [`Ranger`].
    pub mobility: [i32; Ranger::NUM],
    /// An unpromoted bishop / rook that can move into the enemy camp next move (and promote).
    pub promotion_reach: [i32; 2],

    /// King danger units per square of the enemy king's 3x3 zone a piece attacks, by class.
    pub attack_unit: [i32; Class::NUM],
    /// King danger units per copy in hand (at most two copies count), by `HandKind`: drop threats.
    pub hand_attack_unit: [i32; 7],
    /// Defence units per square of the own king's zone a piece covers, by class.
    pub defend_unit: [i32; Class::NUM],
    /// Penalty for danger `d = attack - defence` (clamped to `0..=DANGER_MAX`):
    /// `linear * d + quadratic * d * d / 16`.
    pub danger_linear: i32,
    pub danger_quadratic: i32,
    /// By the number of squares the king can step to (not own-occupied, not attacked).
    pub escape: [i32; 9],
    /// Penalty for a file without an own pawn: the king's file, an adjacent file.
    pub open_file: [i32; 2],
    /// Extra penalty per such file when the enemy holds a rook or lance in hand or has a rook, dragon
    /// or lance on the board: something can use the file.
    pub open_file_ranger: i32,

    /// For the side to move.
    pub tempo: i32,
}

/// Danger units beyond this are not counted (keeps the quadratic term bounded).
pub const DANGER_MAX: i32 = 96;

impl Weights {
    pub const DEFAULT: Weights = Weights {
        //       P    L    N    S    B    R    G    K   +P   +L   +N   +S   +B   +R
        board: [
            90, 247, 220, 406, 524, 573, 425, 0, 356, 254, 357, 406, 877, 1049,
        ],
        //     P    L    N    S    B    R    G
        hand: [80, 233, 282, 412, 732, 885, 473],
        hand_first: [23, 11, 19, 15, 22, 20, 17],
        no_drop_material_scale: 80,
        own_king_distance: [
            [0, 8, 3, 5, -15, 0, 5, 1, 0],         // pawn
            [0, 3, 16, 9, -18, -8, -2, 1, 0],      // lance
            [0, 16, 8, -5, -5, 0, 0, 0, 0],        // knight
            [0, 38, 18, 9, 0, -5, -8, -11, -11],   // silver
            [0, 47, 17, 8, 0, -10, -15, -24, -24], // gold
            [0, 7, 9, -1, -9, 0, 3, 1, 0],         // bishop
            [0, -11, -11, -11, 4, 3, 2, 3, 2],     // rook
            [0, 24, 18, 10, 1, 2, 0, -12, -10],    // promoted minors
            [0, 29, 25, 16, 9, -4, -3, 1, 0],      // horse
            [0, 10, 4, 5, -2, 0, 1, 4, 2],         // dragon
        ],
        enemy_king_distance: [
            [0, 20, 13, -3, -3, 1, 9, -5, -2],    // pawn
            [0, 10, 8, 1, 15, -5, -4, -4, 6],     // lance
            [0, 10, 18, 10, -2, 3, -5, 8, 3],     // knight
            [0, 30, 24, 12, 9, 22, 15, -19, -25], // silver
            [0, 35, 25, 7, -1, 1, 14, 4, -12],    // gold
            [0, 20, 17, 17, 2, -6, 2, 0, -2],     // bishop
            [0, 25, 22, 17, 14, 15, -10, -10, 0], // rook
            [0, 45, 35, 19, 4, -1, -2, 0, 0],     // promoted minors
            [0, 50, 40, 29, 14, 1, -3, 0, 1],     // horse
            [0, 60, 46, 37, 21, 2, -3, 0, -4],    // dragon
        ],
        pawn_rank: [-5, 0, -6, -3, -9, 23, 10, 21, 0],
        lance_rank: [5, -4, -1, 11, 0, -2, 0, -1, 0],
        knight_rank: [6, -7, 3, 9, -7, 0, -11, 0, 0],
        king_rank: [4, 1, 3, -9, -25, -28, -24, -10, 0],
        //        L  B  R  +B +R
        mobility: [3, 6, 7, 3, 2],
        promotion_reach: [23, 31],
        //            P  L  N  S  G  B  R  PM +B +R
        attack_unit: [1, 2, 2, 5, 3, 3, 6, 6, 7, 6],
        //                P  L  N  S  B  R  G
        hand_attack_unit: [2, 2, 2, 4, 3, 6, 5],
        defend_unit: [1, 0, 1, 2, 2, 1, 0, 4, 2, 1],
        danger_linear: 11,
        danger_quadratic: 6,
        escape: [-32, -11, 6, 6, 6, 5, 12, 10, 10],
        open_file: [24, 13],
        open_file_ranger: 22,
        tempo: 0,
    };

    /// Every weight as a named group with its allowed range, in a fixed order. A tuner flattens the
    /// groups into one vector; the names identify weights in logs and exported files.
    pub fn params_mut(&mut self) -> Vec<ParamGroup<'_>> {
        let w = self;
        vec![
            ParamGroup::new("board", &mut w.board, 0, 2000),
            ParamGroup::new("hand", &mut w.hand, 0, 2000),
            ParamGroup::new("hand_first", &mut w.hand_first, 0, 200),
            ParamGroup::new(
                "no_drop_material_scale",
                std::slice::from_mut(&mut w.no_drop_material_scale),
                32,
                256,
            ),
            ParamGroup::new(
                "own_king_distance",
                w.own_king_distance.as_flattened_mut(),
                -200,
                200,
            ),
            ParamGroup::new(
                "enemy_king_distance",
                w.enemy_king_distance.as_flattened_mut(),
                -200,
                200,
            ),
            ParamGroup::new("pawn_rank", &mut w.pawn_rank, -200, 200),
            ParamGroup::new("lance_rank", &mut w.lance_rank, -200, 200),
            ParamGroup::new("knight_rank", &mut w.knight_rank, -200, 200),
            ParamGroup::new("king_rank", &mut w.king_rank, -300, 300),
            ParamGroup::new("mobility", &mut w.mobility, 0, 30),
            ParamGroup::new("promotion_reach", &mut w.promotion_reach, 0, 200),
            ParamGroup::new("attack_unit", &mut w.attack_unit, 0, 20),
            ParamGroup::new("hand_attack_unit", &mut w.hand_attack_unit, 0, 20),
            ParamGroup::new("defend_unit", &mut w.defend_unit, 0, 20),
            ParamGroup::new(
                "danger_linear",
                std::slice::from_mut(&mut w.danger_linear),
                0,
                50,
            ),
            ParamGroup::new(
                "danger_quadratic",
                std::slice::from_mut(&mut w.danger_quadratic),
                0,
                50,
            ),
            ParamGroup::new("escape", &mut w.escape, -300, 300),
            ParamGroup::new("open_file", &mut w.open_file, 0, 200),
            ParamGroup::new(
                "open_file_ranger",
                std::slice::from_mut(&mut w.open_file_ranger),
                0,
                200,
            ),
            ParamGroup::new("tempo", std::slice::from_mut(&mut w.tempo), 0, 100),
        ]
    }
}

impl Default for Weights {
    fn default() -> Weights {
        Weights::DEFAULT
    }
}

/// A named run of weights that share a range. `values[i]` is reported as `name[i]`.
pub struct ParamGroup<'a> {
    pub name: &'static str,
    pub values: &'a mut [i32],
    pub min: i32,
    pub max: i32,
}

impl<'a> ParamGroup<'a> {
    fn new(name: &'static str, values: &'a mut [i32], min: i32, max: i32) -> ParamGroup<'a> {
        ParamGroup {
            name,
            values,
            min,
            max,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_lie_within_their_ranges() {
        let mut w = Weights::DEFAULT;
        let mut total = 0;
        for group in w.params_mut() {
            for (i, &v) in group.values.iter().enumerate() {
                assert!(
                    (group.min..=group.max).contains(&v),
                    "{}[{i}] = {v} outside {}..={}",
                    group.name,
                    group.min,
                    group.max
                );
            }
            total += group.values.len();
        }
        // Every field is listed: a new weight that is not in params_mut fails here.
        let expected = 14
            + 7
            + 7
            + 1
            + 2 * Class::NUM * DISTANCES
            + 4 * RANKS
            + 5
            + 2
            + 10
            + 7
            + 10
            + 2
            + 9
            + 2
            + 1
            + 1;
        assert_eq!(total, expected);
    }

    #[test]
    fn every_kind_but_the_king_has_a_class() {
        for kind in PieceKind::ALL {
            assert_eq!(Class::of(kind).is_none(), kind == PieceKind::King);
        }
    }
}
