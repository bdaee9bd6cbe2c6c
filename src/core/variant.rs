//! The rule sets Tokin plays, as data: board geometry, piece set, drops, promotion zone, results.
//!
//! Every variant lives on the 9x9 grid of [`Square`]; a smaller board is the grid with a mask of the
//! squares that exist. The board always occupies the lowest file and rank indices: a board of `F` files
//! and `R` ranks uses files `1..=F` and ranks `a..` up to the `R`-th letter. Black starts at the bottom
//! (the highest rank index that exists) and moves toward rank `a`.

use super::bitboard::Bitboard;
use super::types::{Color, HandKind, PieceKind, Square};
use std::fmt;
use std::str::FromStr;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Variant {
    /// Modern shogi: 9x9, rook and bishop, drops.
    #[default]
    Shogi,
    /// Heian shogi on 9 files x 8 ranks: K G S N L P only, no drops, bare king loses.
    Heian,
    /// Heian shogi on 8 files x 8 ranks (one gold fewer).
    Heian8,
}

impl Variant {
    pub const ALL: [Variant; 3] = [Variant::Shogi, Variant::Heian, Variant::Heian8];

    /// The value used by the `USI_Variant` option and the `--variant` flag.
    pub const fn usi_name(self) -> &'static str {
        match self {
            Variant::Shogi => "shogi",
            Variant::Heian => "heian",
            Variant::Heian8 => "heian8",
        }
    }

    /// Number of files (columns).
    pub const fn files(self) -> u8 {
        match self {
            Variant::Shogi | Variant::Heian => 9,
            Variant::Heian8 => 8,
        }
    }

    /// Number of ranks (rows).
    pub const fn ranks(self) -> u8 {
        match self {
            Variant::Shogi => 9,
            Variant::Heian | Variant::Heian8 => 8,
        }
    }

    /// The squares that exist on this board. Each variant's mask is built at compile time: the
    /// evaluation and the mate probes ask for it at every node, where the loop that builds it cost
    /// about 10% of an evaluation (perf on benches/eval.rs).
    #[inline]
    pub const fn board_mask(self) -> Bitboard {
        const SHOGI: Bitboard = Variant::Shogi.build_board_mask();
        const HEIAN: Bitboard = Variant::Heian.build_board_mask();
        const HEIAN8: Bitboard = Variant::Heian8.build_board_mask();
        match self {
            Variant::Shogi => SHOGI,
            Variant::Heian => HEIAN,
            Variant::Heian8 => HEIAN8,
        }
    }

    const fn build_board_mask(self) -> Bitboard {
        let mut bits = 0u128;
        let mut f = 0;
        while f < self.files() {
            let mut r = 0;
            while r < self.ranks() {
                bits |= 1u128 << (9 * f as u32 + r as u32);
                r += 1;
            }
            f += 1;
        }
        Bitboard::from_u128(bits)
    }

    /// Whether `sq` is on this board.
    pub const fn contains(self, sq: Square) -> bool {
        sq.file() < self.files() && sq.rank() < self.ranks()
    }

    /// Whether captured pieces go to the hand and can be dropped.
    pub const fn has_drops(self) -> bool {
        matches!(self, Variant::Shogi)
    }

    /// Whether a piece of this kind can appear in this variant (promoted kinds included).
    pub const fn has_kind(self, kind: PieceKind) -> bool {
        match self {
            Variant::Shogi => true,
            Variant::Heian | Variant::Heian8 => !matches!(
                kind,
                PieceKind::Bishop | PieceKind::Rook | PieceKind::Horse | PieceKind::Dragon
            ),
        }
    }

    /// Capturing every enemy piece but the king wins (Heian's bare-king rule).
    pub const fn bare_king_loses(self) -> bool {
        !matches!(self, Variant::Shogi)
    }

    /// Entering-king declaration exists only in modern shogi.
    pub const fn has_declaration(self) -> bool {
        matches!(self, Variant::Shogi)
    }

    /// Rank index `n` counted from `color`'s far side: `n = 0` is the last rank `color` moves toward.
    pub const fn relative_rank_index(self, color: Color, n: u8) -> u8 {
        match color {
            Color::Black => n,
            Color::White => self.ranks() - 1 - n,
        }
    }

    /// The `n` ranks farthest from `color` (its promotion zone for `n = 3`), on squares that exist.
    pub const fn far_ranks(self, color: Color, n: u8) -> Bitboard {
        let bits = match color {
            Color::Black => Bitboard::ranks(0, n - 1),
            Color::White => Bitboard::ranks(self.ranks() - n, self.ranks() - 1),
        };
        Bitboard::from_u128(bits.to_u128() & self.board_mask().to_u128())
    }

    /// The promotion zone of `color`: the three ranks farthest from it.
    pub const fn promotion_zone(self, color: Color) -> Bitboard {
        self.far_ranks(color, 3)
    }

    /// Squares where a piece of `color` and `kind` would have no further move (the dead-piece rule):
    /// the last rank for pawn and lance, the last two for the knight. Such a move must promote and
    /// such a drop is illegal.
    pub const fn dead_squares(self, color: Color, kind: PieceKind) -> Bitboard {
        match kind {
            PieceKind::Pawn | PieceKind::Lance => self.far_ranks(color, 1),
            PieceKind::Knight => self.far_ranks(color, 2),
            _ => Bitboard::EMPTY,
        }
    }

    /// The hand kinds that exist in this variant (none without drops).
    pub fn hand_kinds(self) -> &'static [HandKind] {
        if self.has_drops() {
            &HandKind::ALL
        } else {
            &[]
        }
    }

    /// Start position in SFEN.
    pub const fn startpos_sfen(self) -> &'static str {
        match self {
            Variant::Shogi => "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            Variant::Heian => "lnsgkgsnl/9/ppppppppp/9/9/PPPPPPPPP/9/LNSGKGSNL b - 1",
            Variant::Heian8 => "lnsgksnl/8/pppppppp/8/8/PPPPPPPP/8/LNSKGSNL b - 1",
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.usi_name())
    }
}

/// A variant name that is not one of `shogi`, `heian`, `heian8`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant '{0}' (expected shogi, heian or heian8)")]
pub struct UnknownVariant(pub String);

impl FromStr for Variant {
    type Err = UnknownVariant;
    fn from_str(s: &str) -> Result<Variant, UnknownVariant> {
        let lower = s.trim().to_ascii_lowercase();
        Variant::ALL
            .into_iter()
            .find(|v| v.usi_name() == lower)
            .ok_or_else(|| UnknownVariant(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometry() {
        assert_eq!(Variant::Shogi.board_mask(), Bitboard::ALL);
        assert_eq!(Variant::Heian.board_mask().count(), 72);
        assert_eq!(Variant::Heian8.board_mask().count(), 64);
        assert_eq!(
            Variant::Shogi.promotion_zone(Color::White),
            Bitboard::ranks(6, 8)
        );
        assert_eq!(
            Variant::Heian.promotion_zone(Color::White),
            Bitboard::ranks(5, 7) & Variant::Heian.board_mask()
        );
        assert_eq!(Variant::Heian8.promotion_zone(Color::Black).count(), 24);
        assert_eq!(
            Variant::Heian
                .dead_squares(Color::White, PieceKind::Knight)
                .count(),
            18
        );
        assert!(!Variant::Heian8.contains(Square::from_usi("9a").unwrap()));
        assert!(!Variant::Heian.contains(Square::from_usi("1i").unwrap()));
    }

    #[test]
    fn names_parse() {
        for v in Variant::ALL {
            assert_eq!(v.usi_name().parse::<Variant>(), Ok(v));
        }
        assert_eq!("HEIAN".parse::<Variant>(), Ok(Variant::Heian));
        assert!("chess".parse::<Variant>().is_err());
    }
}
