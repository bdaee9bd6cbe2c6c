//! An independent second implementation of YaneuraOu's standard NNUE for the tests: its own file
//! writer and its own evaluation, written from YaneuraOu's description (BonaPiece values as its
//! `evaluate.h` lists them, its layers' arithmetic), sharing no code with the engine. It reads
//! positions from their SFEN text itself.

#![allow(dead_code)]

use std::io::Write;
use std::path::Path;

pub const L1: usize = 256;
pub const FE_END: usize = 1548;
pub const INPUTS: usize = 81 * FE_END;
/// Header hash and size of the standard file, as the field knows them.
pub const STANDARD_HASH: u32 = 0x3E5A_A6EE;
pub const STANDARD_SIZE: usize = 64_217_066;

/// A standard-shape network's numbers, in the file's order.
pub struct ReferenceNet {
    pub ft_bias: Vec<i16>,
    /// Feature-major: `ft_weight[feature * 256 + j]`.
    pub ft_weight: Vec<i16>,
    pub b1: Vec<i32>,
    /// `w1[o][i]`, 32 x 512.
    pub w1: Vec<Vec<i8>>,
    pub b2: Vec<i32>,
    /// 32 x 32.
    pub w2: Vec<Vec<i8>>,
    pub b3: i32,
    pub w3: Vec<i8>,
}

struct XorShift(u64);
impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }
}

impl ReferenceNet {
    /// Seeded random numbers of realistic size (accumulators around the clipping range).
    pub fn random(seed: u64) -> ReferenceNet {
        let mut r = XorShift(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        ReferenceNet {
            ft_bias: (0..L1).map(|_| r.range(-10, 60) as i16).collect(),
            ft_weight: (0..INPUTS * L1).map(|_| r.range(-24, 24) as i16).collect(),
            b1: (0..32).map(|_| r.range(-3000, 3000) as i32).collect(),
            w1: (0..32)
                .map(|_| (0..512).map(|_| r.range(-128, 127) as i8).collect())
                .collect(),
            b2: (0..32).map(|_| r.range(-3000, 3000) as i32).collect(),
            w2: (0..32)
                .map(|_| (0..32).map(|_| r.range(-128, 127) as i8).collect())
                .collect(),
            b3: r.range(-2000, 2000) as i32,
            w3: (0..32).map(|_| r.range(-128, 127) as i8).collect(),
        }
    }

    /// The file bytes: header, feature transformer, layers, each hash word as YaneuraOu computes
    /// it for this shape (taken here as the known constants), with `description` in the header.
    pub fn bytes(&self, description: &str) -> Vec<u8> {
        let mut b = Vec::with_capacity(STANDARD_SIZE);
        b.extend_from_slice(&0x7AF3_2F16u32.to_le_bytes());
        b.extend_from_slice(&STANDARD_HASH.to_le_bytes());
        b.extend_from_slice(&(description.len() as u32).to_le_bytes());
        b.extend_from_slice(description.as_bytes());
        b.extend_from_slice(&0x5D69_D7B8u32.to_le_bytes());
        for v in &self.ft_bias {
            b.extend_from_slice(&v.to_le_bytes());
        }
        for v in &self.ft_weight {
            b.extend_from_slice(&v.to_le_bytes());
        }
        b.extend_from_slice(&0x6333_7156u32.to_le_bytes());
        for (bias, rows) in [(&self.b1, &self.w1), (&self.b2, &self.w2)] {
            for v in bias {
                b.extend_from_slice(&v.to_le_bytes());
            }
            for row in rows {
                b.extend(row.iter().map(|&w| w as u8));
            }
        }
        b.extend_from_slice(&self.b3.to_le_bytes());
        b.extend(self.w3.iter().map(|&w| w as u8));
        b
    }

    pub fn write(&self, path: &Path) {
        let description = "Features=HalfKP(Friend)[125388->256x2],Network=AffineTransform[1<-32](ClippedReLU[32](AffineTransform[32<-32](ClippedReLU[32](AffineTransform[32<-512](InputSlice[512(0:512)])))))";
        let bytes = self.bytes(description);
        assert_eq!(bytes.len(), STANDARD_SIZE);
        let mut f = std::fs::File::create(path).expect("create network file");
        f.write_all(&bytes).expect("write network file");
    }

    /// YaneuraOu's evaluation of the position `sfen`: the output divided by `fv_scale`.
    pub fn evaluate(&self, sfen: &str, fv_scale: i32) -> i32 {
        let p = SfenPosition::parse(sfen);
        let acc = |perspective: usize| -> Vec<i16> {
            let mut a = self.ft_bias.clone();
            for f in p.features(perspective) {
                for (j, v) in a.iter_mut().enumerate() {
                    *v = v.wrapping_add(self.ft_weight[f * L1 + j]);
                }
            }
            a
        };
        let us = p.side_to_move;
        let mut input: Vec<i32> = Vec::with_capacity(512);
        for perspective in [us, 1 - us] {
            input.extend(acc(perspective).iter().map(|&v| (v as i32).clamp(0, 127)));
        }
        let layer = |x: &[i32], b: &[i32], w: &[Vec<i8>]| -> Vec<i32> {
            (0..b.len())
                .map(|o| {
                    let sum = b[o]
                        + x.iter()
                            .zip(&w[o])
                            .map(|(&x, &w)| x * w as i32)
                            .sum::<i32>();
                    (sum >> 6).clamp(0, 127)
                })
                .collect()
        };
        let h1 = layer(&input, &self.b1, &self.w1);
        let h2 = layer(&h1, &self.b2, &self.w2);
        let out = self.b3
            + h2.iter()
                .zip(&self.w3)
                .map(|(&x, &w)| x * w as i32)
                .sum::<i32>();
        out / fv_scale
    }
}

/// Just enough of an SFEN: pieces with their squares, hands, side to move.
struct SfenPosition {
    /// (black?, kind letter uppercase, promoted, square index (file-1)*9 + (rank-1)).
    board: Vec<(bool, char, bool, usize)>,
    /// (black?, kind letter uppercase, count).
    hands: Vec<(bool, char, usize)>,
    /// 0 Black, 1 White.
    side_to_move: usize,
}

impl SfenPosition {
    fn parse(sfen: &str) -> SfenPosition {
        let fields: Vec<&str> = sfen.split_whitespace().collect();
        let mut board = Vec::new();
        for (rank, row) in fields[0].split('/').enumerate() {
            let mut file = 9;
            let mut promoted = false;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    file -= d as usize;
                } else if c == '+' {
                    promoted = true;
                } else {
                    board.push((
                        c.is_ascii_uppercase(),
                        c.to_ascii_uppercase(),
                        promoted,
                        (file - 1) * 9 + rank,
                    ));
                    promoted = false;
                    file -= 1;
                }
            }
        }
        let mut hands = Vec::new();
        if fields[2] != "-" {
            let mut count = 0;
            for c in fields[2].chars() {
                if let Some(d) = c.to_digit(10) {
                    count = count * 10 + d as usize;
                } else {
                    hands.push((c.is_ascii_uppercase(), c.to_ascii_uppercase(), count.max(1)));
                    count = 0;
                }
            }
        }
        SfenPosition {
            board,
            hands,
            side_to_move: usize::from(fields[1] == "w"),
        }
    }

    /// HalfKP(Friend) feature indices of `perspective` (0 Black, 1 White).
    fn features(&self, perspective: usize) -> Vec<usize> {
        // BonaPiece bases from YaneuraOu's evaluate.h (f = the perspective's own, e = the other's).
        let hand_base = |c: char, friend: bool| -> usize {
            let (f, e) = match c {
                'P' => (1, 20),
                'L' => (39, 44),
                'N' => (49, 54),
                'S' => (59, 64),
                'G' => (69, 74),
                'B' => (79, 82),
                'R' => (85, 88),
                _ => panic!("hand piece {c}"),
            };
            if friend {
                f
            } else {
                e
            }
        };
        let board_base = |c: char, promoted: bool, friend: bool| -> usize {
            let f = match (c, promoted) {
                ('P', false) => 90,
                ('L', false) => 252,
                ('N', false) => 414,
                ('S', false) => 576,
                ('G', _) | ('P' | 'L' | 'N' | 'S', true) => 738,
                ('B', false) => 900,
                ('B', true) => 1062,
                ('R', false) => 1224,
                ('R', true) => 1386,
                _ => panic!("board piece {c}"),
            };
            if friend {
                f
            } else {
                f + 81
            }
        };
        let is_mine = |black: bool| (perspective == 0) == black;
        let orient = |sq: usize| if perspective == 0 { sq } else { 80 - sq };
        let king = self
            .board
            .iter()
            .find(|&&(black, c, _, _)| c == 'K' && is_mine(black))
            .map(|&(_, _, _, sq)| orient(sq))
            .expect("a king");
        let mut out = Vec::new();
        for &(black, c, promoted, sq) in &self.board {
            if c != 'K' {
                out.push(king * FE_END + board_base(c, promoted, is_mine(black)) + orient(sq));
            }
        }
        for &(black, c, count) in &self.hands {
            for i in 0..count {
                out.push(king * FE_END + hand_base(c, is_mine(black)) + i);
            }
        }
        // Pieces missing from the standard 38 sit on BonaPiece 0.
        while out.len() < 38 {
            out.push(king * FE_END);
        }
        out
    }
}
