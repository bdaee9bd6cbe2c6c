//! Training samples: a position reduced to what the network reads (each perspective's king bucket
//! and the BonaPieces of the 38 other pieces, missing ones as BonaPiece 0), with the search's score
//! and the game's result, both from the side to move's view. 160 bytes a sample, so a few million
//! fit in memory and an epoch re-reads no files.

use crate::core::position::Position;
use crate::core::Color;
use crate::eval::nnue::features::{self, ACTIVE_FEATURES, FE_END, FE_HAND_END};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// King bucket of each perspective (`[Black, White]`).
    kings: [u8; 2],
    /// BonaPieces of each perspective.
    bona: [[u16; ACTIVE_FEATURES]; 2],
    /// 0 Black to move, 1 White.
    stm: u8,
    /// The search's score, side to move's view.
    pub score: i16,
    /// 1 win, 0 draw, -1 loss for the side to move.
    pub result: i8,
    /// The hand-written evaluation (side to move's view): what a residual network adds to.
    pub hand_written: i16,
}

impl Sample {
    /// The sample of `pos` (which must have both kings), or `None` without them.
    pub fn new(pos: &Position, score: i16, result: i8) -> Option<Sample> {
        let mut kings = [0u8; 2];
        let mut bona = [[0u16; ACTIVE_FEATURES]; 2];
        for p in Color::ALL {
            let king = features::king_bucket(pos, p)?;
            kings[p.index()] = king as u8;
            let active = features::active_features(pos, p, king);
            for (slot, &f) in bona[p.index()].iter_mut().zip(active.as_slice()) {
                *slot = (f - king * FE_END) as u16;
            }
        }
        Some(Sample {
            kings,
            bona,
            stm: pos.side_to_move().index() as u8,
            score,
            result,
            hand_written: 0,
        })
    }

    /// The same position mirrored left to right (file 1 <-> 9): shogi's rules and a position's
    /// value do not change, so every sample teaches twice (the trainer mirrors half of them each
    /// epoch).
    pub fn mirrored(&self) -> Sample {
        let mut m = *self;
        for p in 0..2 {
            m.kings[p] = mirror_square(u32::from(self.kings[p])) as u8;
            for b in m.bona[p].iter_mut() {
                *b = mirror_bona(*b);
            }
        }
        m
    }

    /// The perspectives in the network's order: side to move first.
    #[inline]
    pub fn perspectives(&self) -> [usize; 2] {
        let us = usize::from(self.stm);
        [us, 1 - us]
    }

    /// `perspective`'s king square, as that perspective sees it.
    #[inline]
    pub fn king(&self, perspective: usize) -> usize {
        usize::from(self.kings[perspective])
    }

    /// `perspective`'s feature indices.
    #[inline]
    pub fn features(&self, perspective: usize) -> impl Iterator<Item = usize> + '_ {
        let base = usize::from(self.kings[perspective]) * FE_END as usize;
        self.bona[perspective]
            .iter()
            .map(move |&b| base + usize::from(b))
    }

    /// `perspective`'s BonaPieces (the king-independent "virtual" features of the factoriser).
    #[inline]
    pub fn bona_pieces(&self, perspective: usize) -> &[u16; ACTIVE_FEATURES] {
        &self.bona[perspective]
    }

    /// The evaluation that `network_output` (the network's, in the engine's units) stands for:
    /// itself, or for a residual network the hand-written evaluation plus it.
    #[inline]
    pub fn evaluation(&self, network_output: f32, residual: bool) -> f32 {
        if residual {
            network_output + f32::from(self.hand_written)
        } else {
            network_output
        }
    }

    /// The training target: the score as a win probability (`sigmoid(score / scale)`) blended
    /// with the result (1, 0.5, 0) by `lambda` (1 = score only).
    #[inline]
    pub fn target(&self, scale: f32, lambda: f32) -> f32 {
        let from_score = sigmoid(f32::from(self.score) / scale);
        let from_result = (f32::from(self.result) + 1.0) / 2.0;
        lambda * from_score + (1.0 - lambda) * from_result
    }
}

/// A square index (`file * 9 + rank`) mirrored left to right.
#[inline]
fn mirror_square(sq: u32) -> u32 {
    (8 - sq / 9) * 9 + sq % 9
}

/// A BonaPiece mirrored: board pieces move to the mirrored square, hand pieces stay.
#[inline]
fn mirror_bona(b: u16) -> u16 {
    let b = u32::from(b);
    if b < FE_HAND_END {
        return b as u16;
    }
    let (table, sq) = ((b - FE_HAND_END) / 81, (b - FE_HAND_END) % 81);
    (FE_HAND_END + table * 81 + mirror_square(sq)) as u16
}

#[inline]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Variant;

    /// The mirrored sample is the sample of the mirrored position (its SFEN ranks reversed).
    #[test]
    fn a_mirrored_sample_is_the_mirrored_position() {
        let mirror_sfen = |sfen: &str| {
            let mut parts: Vec<String> = sfen.split(' ').map(str::to_string).collect();
            let ranks: Vec<String> = parts[0]
                .split('/')
                .map(|rank| {
                    // Reverse the squares, keeping each "+X" together.
                    let mut cells: Vec<String> = Vec::new();
                    let mut promoted = false;
                    for c in rank.chars() {
                        if c == '+' {
                            promoted = true;
                        } else if let Some(d) = c.to_digit(10) {
                            cells.push(d.to_string());
                        } else {
                            cells.push(if promoted {
                                format!("+{c}")
                            } else {
                                c.to_string()
                            });
                            promoted = false;
                        }
                    }
                    cells.reverse();
                    cells.concat()
                })
                .collect();
            parts[0] = ranks.join("/");
            parts.join(" ")
        };
        for sfen in [
            "ln1g3nl/1r3kg2/p2pppsp1/2ps2p1p/1p7/2P1P1P1P/PPSP1P3/2G2S1R1/LN2KG1NL w Bbp 38",
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn3p 80",
        ] {
            let pos = Position::from_sfen(sfen, Variant::Shogi).unwrap();
            let mirrored = Position::from_sfen(&mirror_sfen(sfen), Variant::Shogi).unwrap();
            let a = Sample::new(&pos, 10, 1).unwrap().mirrored();
            let b = Sample::new(&mirrored, 10, 1).unwrap();
            for p in 0..2 {
                let mut fa: Vec<usize> = a.features(p).collect();
                let mut fb: Vec<usize> = b.features(p).collect();
                fa.sort_unstable();
                fb.sort_unstable();
                assert_eq!(fa, fb, "{sfen}");
            }
            assert_eq!(a.mirrored(), Sample::new(&pos, 10, 1).unwrap());
        }
    }

    #[test]
    fn a_sample_holds_the_engine_features() {
        let pos = Position::from_sfen(
            "ln1g3nl/1r3kg2/p2pppsp1/2ps2p1p/1p7/2P1P1P1P/PPSP1P3/2G2S1R1/LN2KG1NL w Bbp 38",
            Variant::Shogi,
        )
        .unwrap();
        let s = Sample::new(&pos, -120, 1).unwrap();
        assert_eq!(s.perspectives(), [1, 0]);
        for p in Color::ALL {
            let king = features::king_bucket(&pos, p).unwrap();
            let mut expected: Vec<usize> = features::active_features(&pos, p, king)
                .iter()
                .map(|&f| f as usize)
                .collect();
            let mut got: Vec<usize> = s.features(p.index()).collect();
            expected.sort_unstable();
            got.sort_unstable();
            assert_eq!(got, expected);
        }
        assert!((s.target(600.0, 1.0) - sigmoid(-0.2)).abs() < 1e-6);
        assert_eq!(s.target(600.0, 0.0), 1.0);
        let kingless =
            Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1", Variant::Shogi)
                .unwrap();
        assert!(Sample::new(&kingless, 0, 0).is_none());
    }
}
