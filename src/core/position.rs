//! The position: board, hands, side to move, Zobrist keys, check and pin information, do/undo, and
//! the rules that need the game's history (sennichite, perpetual check) or the whole board
//! (entering-king declaration).
//!
//! Layout: the board is kept twice, as a mailbox (`[Option<Piece>; 81]`, for "what stands here") and
//! as bitboards by colour and by kind (for attacks and generation). Everything that `undo_move` must
//! restore and that is cheaper to copy than to recompute (keys, hands, checkers, pin blockers, the
//! sliders' check squares, the perpetual-check counters) lives in a small `State`; `do_move` pushes
//! the previous `State` onto `history`, a `Vec` reserved ahead so that search never allocates, and
//! its board key onto `history_keys`, the packed array repetition detection scans.

use super::attacks::{
    between, bishop_attacks, lance_attacks, line, piece_attacks, rook_attacks, step_attacks,
};
use super::bitboard::Bitboard;
use super::sfen::{parse_move_text, MoveTextError, Setup, SfenError};
use super::types::{Color, Hand, HandKind, Move, Piece, PieceKind, Square};
use super::variant::Variant;
use super::zobrist;

/// History capacity reserved beyond the current game length: deeper than any search goes, so that
/// `do_move` never reallocates during a search.
const HISTORY_RESERVE: usize = 1024;

/// Why a [`Setup`] or SFEN cannot become a [`Position`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error(transparent)]
    Sfen(#[from] SfenError),
    #[error("the side not to move ({0:?}) is in check")]
    OpponentInCheck(Color),
    #[error("{0:?} has more than one king")]
    TooManyKings(Color),
    #[error("a piece stands on {square}, which the {variant} board does not have")]
    OffBoard { square: Square, variant: Variant },
    #[error("{0:?} holds pieces in hand, but {1} has no drops")]
    HandWithoutDrops(Color, Variant),
}

/// Why a USI move text was refused by [`Position::parse_usi_move`]. Every variant names the text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// Bad syntax, a square off the board, or a drop in a variant without drops.
    #[error(transparent)]
    Text(#[from] MoveTextError),
    #[error("'{0}': there is no piece on the source square")]
    NoPiece(String),
    #[error("'{0}': the piece on the source square belongs to the side not to move")]
    NotYourPiece(String),
    #[error("'{0}': the side to move has no such piece in hand")]
    NotInHand(String),
    #[error("'{0}': the piece cannot move like that")]
    CannotMoveThere(String),
    #[error("'{0}': this promotion is not allowed (or a required promotion is missing)")]
    BadPromotion(String),
    #[error(
        "'{0}': the move breaks a drop rule (occupied square, dead square, nifu or uchifuzume)"
    )]
    BadDrop(String),
    #[error("'{0}': the move leaves the own king in check or does not answer a check")]
    KingInCheck(String),
}

/// The result of looking back through the history for the current position (for search).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repetition {
    None,
    /// The same position (board, hands, side to move) occurred before: sennichite, a draw.
    Draw,
    /// Side to move wins: the opponent gave check with every one of its moves in the cycle.
    Win,
    /// Side to move loses: it gave check with every one of its moves in the cycle.
    Loss,
    /// Same board and side to move, and the side to move now holds at least as much of every kind
    /// in hand as it did then (and more of some): it gained material by going round.
    Superior,
    /// Same board and side to move, and the side to move holds less in hand than it did then.
    Inferior,
}

/// The outcome of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    Draw,
    Win(Color),
}

/// The entering-king (nyugyoku) declaration rule in force.
///
/// Facts used (CSA rules; the same facts as shogi servers and GUIs use):
/// - both rules: the declarer is to move, its king stands in the enemy camp (the declarer's
///   promotion zone), it is not in check, and at least 10 of its other pieces stand in that zone;
///   points count rook and bishop (promoted or not) 5, every other piece 1, the king 0, over the
///   pieces in the zone and in hand.
/// - `Csa27` (the "27-point rule", CSA and computer-shogi default): Black needs 28 points, White
///   27 (White gets one less as the second player).
/// - `Csa24` (the "24-point rule" as a declaration win condition): 31 points for either side
///   (24..=30 points is a draw in over-the-board play, which a declaration cannot claim, so a
///   declaration is only offered at 31 or more).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum EnteringKingRule {
    None,
    Csa24,
    #[default]
    Csa27,
}

/// Board geometry of the variant, precomputed once per position so generation never rebuilds masks.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Geometry {
    /// The squares that exist.
    pub mask: Bitboard,
    /// Promotion zone, by colour.
    pub zone: [Bitboard; 2],
    /// The last rank, by colour (pawn and lance may neither stay nor be dropped there).
    pub last1: [Bitboard; 2],
    /// The last two ranks, by colour (same for the knight).
    pub last2: [Bitboard; 2],
    /// `in_zone[colour][square]`: `zone` as a byte table, for one-square tests in generation (a
    /// `u128` membership test is a variable double-word shift).
    pub in_zone: [[bool; Square::NUM]; 2],
}

impl Geometry {
    fn new(variant: Variant) -> Geometry {
        let by = |f: &dyn Fn(Color) -> Bitboard| [f(Color::Black), f(Color::White)];
        let zone = by(&|c| variant.promotion_zone(c));
        let mut in_zone = [[false; Square::NUM]; 2];
        for color in Color::ALL {
            for sq in zone[color.index()] {
                in_zone[color.index()][sq.index()] = true;
            }
        }
        Geometry {
            mask: variant.board_mask(),
            zone,
            last1: by(&|c| variant.far_ranks(c, 1)),
            last2: by(&|c| variant.far_ranks(c, 2)),
            in_zone,
        }
    }

    /// Squares where an unpromoted `kind` of `color` could never move again.
    #[inline]
    pub fn dead(&self, color: Color, kind: PieceKind) -> Bitboard {
        match kind {
            PieceKind::Pawn | PieceKind::Lance => self.last1[color.index()],
            PieceKind::Knight => self.last2[color.index()],
            _ => Bitboard::EMPTY,
        }
    }
}

/// One side's pieces grouped by attack pattern (horse and dragon appear among the king steppers
/// and the sliders), so a run of attack tests (every king step) builds the groups once.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AttackerSets {
    by: Color,
    pawns: Bitboard,
    knights: Bitboard,
    silvers: Bitboard,
    golds: Bitboard,
    kings: Bitboard,
    lances: Bitboard,
    bishops: Bitboard,
    rooks: Bitboard,
}

/// `[sq]`: the squares within two files and three ranks of `sq`, where every step piece that
/// attacks a square next to `sq` must stand (the knight reaches two ranks and one file).
static NEAR_KING: [Bitboard; Square::NUM] = {
    let mut table = [Bitboard::EMPTY; Square::NUM];
    let mut sq = 0;
    while sq < Square::NUM {
        let (file, rank) = ((sq / 9) as i32, (sq % 9) as i32);
        let mut bits = 0u128;
        let mut other = 0;
        while other < Square::NUM {
            let (f, r) = ((other / 9) as i32, (other % 9) as i32);
            if (f - file).abs() <= 2 && (r - rank).abs() <= 3 {
                bits |= 1u128 << other;
            }
            other += 1;
        }
        table[sq] = Bitboard::from_u128(bits);
        sq += 1;
    }
    table
};

impl AttackerSets {
    /// Squares these pieces attack, sliders seeing through `occupied`, exact on the squares next
    /// to `centre` (and on `centre`): step pieces farther away are skipped. One pass for all the
    /// king's steps instead of one `attack` per step (that was 143 instructions a call, 10.9 M of
    /// startpos perft(4); with this pass perft(4) went from 167.5 M to 163.2 M instructions).
    #[inline]
    pub(crate) fn attacks_around(&self, centre: Square, occupied: Bitboard) -> Bitboard {
        let near = NEAR_KING[centre.index()];
        let by = self.by;
        let mut bb = Bitboard::EMPTY;
        for (group, kind) in [
            (self.pawns, PieceKind::Pawn),
            (self.knights, PieceKind::Knight),
            (self.silvers, PieceKind::Silver),
            (self.golds, PieceKind::Gold),
            (self.kings, PieceKind::King),
        ] {
            for from in group & near {
                bb |= step_attacks(by, kind, from);
            }
        }
        for from in self.lances {
            bb |= lance_attacks(by, from, occupied);
        }
        for from in self.bishops {
            bb |= bishop_attacks(from, occupied);
        }
        for from in self.rooks {
            bb |= rook_attacks(from, occupied);
        }
        bb
    }

    /// Whether any of these pieces attacks `sq`, sliders seeing through `occupied`: step patterns
    /// first, then each slider lookup only if such a slider exists.
    #[inline]
    pub(crate) fn attack(&self, sq: Square, occupied: Bitboard) -> bool {
        // A piece of `by` on X attacks `sq` exactly when the same kind of the other colour on `sq`
        // would attack X.
        let opp = self.by.flip();
        if ((step_attacks(opp, PieceKind::Pawn, sq) & self.pawns)
            | (step_attacks(opp, PieceKind::Knight, sq) & self.knights)
            | (step_attacks(opp, PieceKind::Silver, sq) & self.silvers)
            | (step_attacks(opp, PieceKind::Gold, sq) & self.golds)
            | (step_attacks(opp, PieceKind::King, sq) & self.kings))
            .is_nonempty()
        {
            return true;
        }
        if self.lances.is_nonempty()
            && (lance_attacks(opp, sq, occupied) & self.lances).is_nonempty()
        {
            return true;
        }
        if self.bishops.is_nonempty() && (bishop_attacks(sq, occupied) & self.bishops).is_nonempty()
        {
            return true;
        }
        self.rooks.is_nonempty() && (rook_attacks(sq, occupied) & self.rooks).is_nonempty()
    }
}

/// Per-ply state: what `undo_move` restores by copying back, and what repetition detection reads.
/// Copied on every `do_move`, so kept to what is dearer to recompute than to copy (checked size:
/// 128 bytes). At 144 bytes the history push was a `memcpy` call; at 128 it is inlined (startpos
/// perft(4) under callgrind: -2.3 M instructions of 88 M, the lance's check squares now costing one
/// extra AND per use).
#[derive(Clone, Copy, Debug)]
struct State {
    board_key: u64,
    hand_key: u64,
    hands: [Hand; 2],
    /// Pieces of the side not to move that attack the side to move's king.
    checkers: Bitboard,
    /// `blockers[c]`: pieces of either colour that alone stand between `c`'s king and an enemy
    /// slider (lance, bishop, rook, horse, dragon) aimed at it. Own ones are pinned; enemy ones
    /// would give a discovered check by moving off the line.
    blockers: [Bitboard; 2],
    /// Squares from which a bishop or rook of the side to move would attack the enemy king (the
    /// occupancy-dependent check squares; the step pieces' are one table lookup, see
    /// `Position::check_squares`, and the lance's are the rook's on one ray; neither is stored so
    /// that the per-ply copy stays small).
    slider_checks: [Bitboard; 2],
    /// The move that led to this position (`None` at the root or after a null move).
    last_move: Option<Move>,
    /// The piece captured by `last_move`.
    captured: Option<Piece>,
    /// `continuous_check[c]`: how many plies back every move of `c` gave check (2 per checking move,
    /// reset to 0 by a move that does not check). A cycle of `d` plies was all checks by `c` when
    /// `continuous_check[c] >= d`: this is the in-check-per-ply flag folded into a running count.
    continuous_check: [u16; 2],
    /// Plies since the last null move (or the root): repetition never looks across a null move.
    plies_from_null: u16,
}

const _: () = assert!(std::mem::size_of::<State>() <= 128);

/// A shogi position with its history.
pub struct Position {
    variant: Variant,
    geometry: Geometry,
    board: [Option<Piece>; 81],
    by_color: [Bitboard; 2],
    by_kind: [Bitboard; PieceKind::NUM],
    king: [Option<Square>; 2],
    side: Color,
    game_ply: u32,
    st: State,
    /// States of the earlier positions, oldest first; `history[len - d]` is `d` plies ago.
    history: Vec<State>,
    /// `board_key` of each entry of `history`, packed: repetition detection scans this (8 bytes a
    /// ply instead of a whole `State`) and reads `history` only on a key match.
    history_keys: Vec<u64>,
}

impl Clone for Position {
    /// Clones with room reserved so that the copy (e.g. one per search thread) does not allocate
    /// while searching.
    fn clone(&self) -> Position {
        let mut history = Vec::with_capacity(self.history.len() + HISTORY_RESERVE);
        history.extend_from_slice(&self.history);
        let mut history_keys = Vec::with_capacity(self.history_keys.len() + HISTORY_RESERVE);
        history_keys.extend_from_slice(&self.history_keys);
        Position {
            variant: self.variant,
            geometry: self.geometry,
            board: self.board,
            by_color: self.by_color,
            by_kind: self.by_kind,
            king: self.king,
            side: self.side,
            game_ply: self.game_ply,
            st: self.st,
            history,
            history_keys,
        }
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f)?;
        for rank in 0..self.variant.ranks() {
            for file in (0..self.variant.files()).rev() {
                match self.board[Square::new(file, rank).index()] {
                    Some(p) => write!(f, "{:>3}", p.to_sfen())?,
                    None => write!(f, "  .")?,
                }
            }
            writeln!(f)?;
        }
        writeln!(
            f,
            "hands: b {:?} w {:?}, {:?} to move, ply {}",
            self.st.hands[0], self.st.hands[1], self.side, self.game_ply
        )
    }
}

impl Position {
    // ------------------------------------------------------------------------------------------
    // Construction
    // ------------------------------------------------------------------------------------------

    /// The variant's start position (`variant.startpos_sfen()`).
    pub fn startpos(variant: Variant) -> Position {
        match Position::from_setup(&Setup::startpos(variant)) {
            Ok(pos) => pos,
            // A constant of this crate, covered by the tests: not input from outside.
            Err(e) => panic!("start position of {variant} rejected: {e}"),
        }
    }

    /// Parses an SFEN (see `Setup::parse`) and checks the rules that need attack tables.
    pub fn from_sfen(sfen: &str, variant: Variant) -> Result<Position, PositionError> {
        let setup = Setup::parse(sfen, variant)?;
        Position::from_setup(&setup)
    }

    /// Builds a position from a setup. Checks: at most one king per side, pieces only on the
    /// variant's squares, no hand pieces without drops, and the side not to move is not in check.
    pub fn from_setup(setup: &Setup) -> Result<Position, PositionError> {
        let variant = setup.variant;
        let geometry = Geometry::new(variant);
        let mut pos = Position {
            variant,
            geometry,
            board: [None; 81],
            by_color: [Bitboard::EMPTY; 2],
            by_kind: [Bitboard::EMPTY; PieceKind::NUM],
            king: [None; 2],
            side: setup.side_to_move,
            game_ply: setup.move_number.max(1),
            st: State {
                board_key: 0,
                hand_key: 0,
                hands: setup.hands,
                checkers: Bitboard::EMPTY,
                blockers: [Bitboard::EMPTY; 2],
                slider_checks: [Bitboard::EMPTY; 2],
                last_move: None,
                captured: None,
                continuous_check: [0; 2],
                plies_from_null: 0,
            },
            history: Vec::with_capacity(HISTORY_RESERVE),
            history_keys: Vec::with_capacity(HISTORY_RESERVE),
        };
        for sq in Square::all() {
            let Some(piece) = setup.board[sq.index()] else {
                continue;
            };
            if !variant.contains(sq) {
                return Err(PositionError::OffBoard {
                    square: sq,
                    variant,
                });
            }
            if piece.kind() == PieceKind::King {
                if pos.king[piece.color().index()].is_some() {
                    return Err(PositionError::TooManyKings(piece.color()));
                }
                pos.king[piece.color().index()] = Some(sq);
            }
            pos.put_piece(piece, sq);
            pos.st.board_key ^= zobrist::psq(piece, sq);
        }
        for color in Color::ALL {
            let hand = setup.hands[color.index()];
            if !variant.has_drops() && !hand.is_empty() {
                return Err(PositionError::HandWithoutDrops(color, variant));
            }
            for (kind, n) in hand.iter() {
                pos.st.hand_key = pos
                    .st
                    .hand_key
                    .wrapping_add(zobrist::hand(color, kind).wrapping_mul(n as u64));
            }
        }
        if pos.side == Color::White {
            pos.st.board_key ^= zobrist::SIDE;
        }
        let them = pos.side.flip();
        if let Some(ksq) = pos.king[them.index()] {
            if pos.is_attacked(pos.side, ksq) {
                return Err(PositionError::OpponentInCheck(them));
            }
        }
        pos.set_check_info();
        Ok(pos)
    }

    /// The current position as a setup (board, hands, side to move, move number).
    pub fn to_setup(&self) -> Setup {
        Setup {
            variant: self.variant,
            board: self.board,
            hands: self.st.hands,
            side_to_move: self.side,
            move_number: self.game_ply,
        }
    }

    pub fn to_sfen(&self) -> String {
        self.to_setup().to_sfen()
    }

    // ------------------------------------------------------------------------------------------
    // Accessors
    // ------------------------------------------------------------------------------------------

    #[inline]
    pub fn variant(&self) -> Variant {
        self.variant
    }

    #[inline]
    pub(crate) fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The SFEN move number of the current position (1 for the start position).
    #[inline]
    pub fn game_ply(&self) -> u32 {
        self.game_ply
    }

    #[inline]
    pub fn piece_on(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    #[inline]
    pub fn hand(&self, color: Color) -> Hand {
        self.st.hands[color.index()]
    }

    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    #[inline]
    pub fn pieces_of(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    #[inline]
    pub fn pieces(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()] & self.by_color[color.index()]
    }

    /// Pieces of either colour of `kind`.
    #[inline]
    pub fn pieces_of_kind(&self, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()]
    }

    /// Gold and the four promoted minors (they all move like gold).
    #[inline]
    pub fn gold_likes(&self, color: Color) -> Bitboard {
        (self.by_kind[PieceKind::Gold.index()]
            | self.by_kind[PieceKind::ProPawn.index()]
            | self.by_kind[PieceKind::ProLance.index()]
            | self.by_kind[PieceKind::ProKnight.index()]
            | self.by_kind[PieceKind::ProSilver.index()])
            & self.by_color[color.index()]
    }

    #[inline]
    pub fn king_square(&self, color: Color) -> Option<Square> {
        self.king[color.index()]
    }

    /// The full Zobrist key: `board_key ^ hand_key`.
    #[inline]
    pub fn key(&self) -> u64 {
        self.st.board_key ^ self.st.hand_key
    }

    /// Key of the pieces on the board and the side to move.
    #[inline]
    pub fn board_key(&self) -> u64 {
        self.st.board_key
    }

    /// Key of both hands (additive: see `zobrist`).
    #[inline]
    pub fn hand_key(&self) -> u64 {
        self.st.hand_key
    }

    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.st.checkers
    }

    #[inline]
    pub fn in_check(&self) -> bool {
        self.st.checkers.is_nonempty()
    }

    /// `color`'s pieces pinned against `color`'s king.
    #[inline]
    pub fn pinned(&self, color: Color) -> Bitboard {
        self.st.blockers[color.index()] & self.by_color[color.index()]
    }

    /// Pieces of either colour that alone block a slider's line to `color`'s king.
    #[inline]
    pub fn blockers_for_king(&self, color: Color) -> Bitboard {
        self.st.blockers[color.index()]
    }

    /// Squares from which a piece of the side to move of `kind` would attack the enemy king
    /// (empty when there is no enemy king or `kind` is the king).
    #[inline]
    pub fn check_squares(&self, kind: PieceKind) -> Bitboard {
        let them = self.side.flip();
        let Some(ksq) = self.king[them.index()] else {
            return Bitboard::EMPTY;
        };
        // Our piece on X attacks ksq exactly when their piece of that kind on ksq attacks X.
        let [bishop, rook] = self.st.slider_checks;
        match kind {
            PieceKind::Pawn | PieceKind::Knight | PieceKind::Silver => {
                step_attacks(them, kind, ksq)
            }
            // The lance's reach from `ksq` is the rook's along the lance's one ray.
            PieceKind::Lance => rook & lance_attacks(them, ksq, Bitboard::EMPTY),
            PieceKind::Bishop => bishop,
            PieceKind::Rook => rook,
            PieceKind::Horse => bishop | step_attacks(them, PieceKind::King, ksq),
            PieceKind::Dragon => rook | step_attacks(them, PieceKind::King, ksq),
            PieceKind::King => Bitboard::EMPTY,
            _ => step_attacks(them, PieceKind::Gold, ksq),
        }
    }

    /// The lances, bishops, rooks, horses and dragons of either colour whose lines reach `sq`
    /// through `occupied`. Static exchange evaluation recomputes only these after each capture:
    /// lifting a piece off the board can uncover a slider, never a stepping piece.
    #[inline]
    pub fn slider_attackers_to(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        let k = |kind: PieceKind| self.by_kind[kind.index()];
        let lances = k(PieceKind::Lance);
        let bishops = k(PieceKind::Bishop) | k(PieceKind::Horse);
        let rooks = k(PieceKind::Rook) | k(PieceKind::Dragon);
        let mut attackers = Bitboard::EMPTY;
        if lances.is_nonempty() {
            // A Black lance attacks `sq` from where a White lance on `sq` would move to.
            attackers |= lance_attacks(Color::White, sq, occupied)
                & lances
                & self.by_color[Color::Black.index()];
            attackers |= lance_attacks(Color::Black, sq, occupied)
                & lances
                & self.by_color[Color::White.index()];
        }
        if bishops.is_nonempty() {
            attackers |= bishop_attacks(sq, occupied) & bishops;
        }
        if rooks.is_nonempty() {
            attackers |= rook_attacks(sq, occupied) & rooks;
        }
        attackers
    }

    /// Pieces of `by` attacking `sq`, with sliders seeing through `occupied`.
    #[inline]
    pub fn attackers_to(&self, by: Color, sq: Square, occupied: Bitboard) -> Bitboard {
        let k = |kind: PieceKind| self.by_kind[kind.index()];
        let bishops = k(PieceKind::Bishop) | k(PieceKind::Horse);
        let rooks = k(PieceKind::Rook) | k(PieceKind::Dragon);
        let sliders = (lance_attacks(by.flip(), sq, occupied) & k(PieceKind::Lance))
            | (bishop_attacks(sq, occupied) & bishops)
            | (rook_attacks(sq, occupied) & rooks);
        self.step_attackers(by, sq) | (sliders & self.by_color[by.index()])
    }

    /// Whether `by` attacks `sq` with sliders seeing through `occupied`. Same answer as
    /// `attackers_to(..).is_nonempty()`, but the cheap step tests come first and each slider lookup
    /// is skipped when `by` has no such slider: king-move legality calls this for every king step,
    /// and it was a fifth of startpos perft time as `attackers_to`.
    #[inline]
    pub fn is_attacked_with(&self, by: Color, sq: Square, occupied: Bitboard) -> bool {
        self.attacker_sets(by).attack(sq, occupied)
    }

    /// `by`'s pieces grouped by how they attack, for several attack tests in a row.
    #[inline]
    pub(crate) fn attacker_sets(&self, by: Color) -> AttackerSets {
        let theirs = self.by_color[by.index()];
        let k = |kind: PieceKind| self.by_kind[kind.index()] & theirs;
        AttackerSets {
            by,
            pawns: k(PieceKind::Pawn),
            knights: k(PieceKind::Knight),
            silvers: k(PieceKind::Silver),
            golds: k(PieceKind::Gold)
                | k(PieceKind::ProPawn)
                | k(PieceKind::ProLance)
                | k(PieceKind::ProKnight)
                | k(PieceKind::ProSilver),
            kings: k(PieceKind::King) | k(PieceKind::Horse) | k(PieceKind::Dragon),
            lances: k(PieceKind::Lance),
            bishops: k(PieceKind::Bishop) | k(PieceKind::Horse),
            rooks: k(PieceKind::Rook) | k(PieceKind::Dragon),
        }
    }

    /// Whether `by` attacks `sq` on the current board.
    #[inline]
    pub fn is_attacked(&self, by: Color, sq: Square) -> bool {
        self.is_attacked_with(by, sq, self.occupied())
    }

    /// The piece that moves: the board piece on the source square, or the dropped piece. For a move
    /// that is not pseudo-legal and has no piece on its source, a pawn of the side to move.
    #[inline]
    pub fn moved_piece(&self, m: Move) -> Piece {
        // A board move's source indexes the board; a drop's (81 and up) lies past its end.
        match self.board.get(m.source_index()) {
            Some(&on_source) => on_source.unwrap_or(Piece::new(self.side, PieceKind::Pawn)),
            None => {
                let kind = m.drop_kind().map_or(PieceKind::Pawn, HandKind::piece_kind);
                Piece::new(self.side, kind)
            }
        }
    }

    #[inline]
    pub fn captured_piece(&self, m: Move) -> Option<Piece> {
        if m.is_drop() {
            None
        } else {
            self.board[m.to().index()]
        }
    }

    #[inline]
    pub fn is_capture(&self, m: Move) -> bool {
        self.captured_piece(m).is_some()
    }

    /// Number of earlier positions kept (plies played since the position was set up).
    #[inline]
    pub fn history_len(&self) -> usize {
        self.history.len()
    }

    /// The move that led to the current position, if any (none at the root or after a null move).
    #[inline]
    pub fn last_move(&self) -> Option<Move> {
        self.st.last_move
    }

    /// The piece captured by the last move.
    #[inline]
    pub fn last_captured(&self) -> Option<Piece> {
        self.st.captured
    }

    // ------------------------------------------------------------------------------------------
    // Making and unmaking moves
    // ------------------------------------------------------------------------------------------

    #[inline]
    fn put_piece(&mut self, piece: Piece, sq: Square) {
        self.board[sq.index()] = Some(piece);
        self.by_color[piece.color().index()].set(sq);
        self.by_kind[piece.kind().index()].set(sq);
    }

    #[inline]
    fn remove_piece(&mut self, piece: Piece, sq: Square) {
        self.board[sq.index()] = None;
        self.by_color[piece.color().index()].clear(sq);
        self.by_kind[piece.kind().index()].clear(sq);
    }

    /// The Zobrist key `key()` will have after `do_move(m)`, computed without playing it, so a
    /// search can start fetching the child's hash entry while the move is still being made.
    /// Always inlined: its one hot caller (the search's `make`) grew past the inliner's limit
    /// when the evaluation became generic, and the call cost 0.3% of the bench's instructions.
    #[inline(always)]
    pub fn key_after(&self, m: Move) -> u64 {
        let us = self.side;
        let to = m.to();
        let mut board_key = self.st.board_key ^ zobrist::SIDE;
        let mut hand_key = self.st.hand_key;
        match (m.from(), m.drop_kind()) {
            (Some(from), _) => {
                let piece = self.moved_piece(m);
                if let Some(captured) = self.board[to.index()] {
                    board_key ^= zobrist::psq(captured, to);
                    if self.variant.has_drops() {
                        if let Some(hk) = captured.kind().hand_kind() {
                            hand_key = hand_key.wrapping_add(zobrist::hand(us, hk));
                        }
                    }
                }
                let moved = match (m.is_promotion(), piece.kind().promoted()) {
                    (true, Some(promoted)) => Piece::new(us, promoted),
                    _ => piece,
                };
                board_key ^= zobrist::psq(piece, from) ^ zobrist::psq(moved, to);
            }
            (None, Some(kind)) => {
                hand_key = hand_key.wrapping_sub(zobrist::hand(us, kind));
                board_key ^= zobrist::psq(Piece::new(us, kind.piece_kind()), to);
            }
            (None, None) => {}
        }
        board_key ^ hand_key
    }

    /// Plays `m`, which must be legal.
    pub fn do_move(&mut self, m: Move) {
        debug_assert!(
            self.is_pseudo_legal(m),
            "do_move with a move that is not pseudo-legal: {m} in {self:?}"
        );
        let us = self.side;
        let them = us.flip();
        self.history.push(self.st);
        self.history_keys.push(self.st.board_key);
        self.st.last_move = Some(m);
        self.st.captured = None;
        let to = m.to();
        match (m.from(), m.drop_kind()) {
            (None, Some(kind)) => {
                let piece = Piece::new(us, kind.piece_kind());
                self.st.hands[us.index()].remove(kind);
                self.st.hand_key = self.st.hand_key.wrapping_sub(zobrist::hand(us, kind));
                self.st.board_key ^= zobrist::psq(piece, to);
                self.put_piece(piece, to);
            }
            (Some(from), _) => {
                let Some(piece) = self.board[from.index()] else {
                    unreachable!("do_move: no piece on {from}");
                };
                if let Some(captured) = self.board[to.index()] {
                    self.st.board_key ^= zobrist::psq(captured, to);
                    self.st.captured = Some(captured);
                    // In variants without drops a captured piece leaves the game.
                    if self.variant.has_drops() {
                        if let Some(hk) = captured.kind().hand_kind() {
                            self.st.hands[us.index()].add(hk);
                            self.st.hand_key = self.st.hand_key.wrapping_add(zobrist::hand(us, hk));
                        }
                    }
                    if captured.kind() == PieceKind::King {
                        self.king[them.index()] = None;
                    }
                    self.remove_piece(captured, to);
                }
                let moved = match (m.is_promotion(), piece.kind().promoted()) {
                    (true, Some(promoted)) => Piece::new(us, promoted),
                    _ => piece,
                };
                self.st.board_key ^= zobrist::psq(piece, from) ^ zobrist::psq(moved, to);
                self.remove_piece(piece, from);
                self.put_piece(moved, to);
                if piece.kind() == PieceKind::King {
                    self.king[us.index()] = Some(to);
                }
            }
            (None, None) => unreachable!("a move is a board move or a drop"),
        }
        self.side = them;
        self.game_ply += 1;
        self.st.board_key ^= zobrist::SIDE;
        self.st.plies_from_null = self.st.plies_from_null.saturating_add(1);
        self.set_check_info();
        let gave_check = self.st.checkers.is_nonempty();
        let cc = &mut self.st.continuous_check[us.index()];
        *cc = if gave_check { cc.saturating_add(2) } else { 0 };
    }

    /// Takes back the last `do_move`.
    pub fn undo_move(&mut self) {
        let Some(m) = self.st.last_move else {
            unreachable!("undo_move without a move to undo (use undo_null_move after a null move)");
        };
        let captured = self.st.captured;
        self.history_keys.pop();
        let Some(previous) = self.history.pop() else {
            unreachable!("undo_move with an empty history");
        };
        self.st = previous;
        self.side = self.side.flip();
        self.game_ply -= 1;
        let us = self.side;
        let to = m.to();
        let Some(moved) = self.board[to.index()] else {
            unreachable!("undo_move: {m} left no piece on {to}");
        };
        self.remove_piece(moved, to);
        if let Some(from) = m.from() {
            let piece = if m.is_promotion() {
                Piece::new(us, moved.kind().unpromoted())
            } else {
                moved
            };
            self.put_piece(piece, from);
            if piece.kind() == PieceKind::King {
                self.king[us.index()] = Some(from);
            }
            if let Some(captured) = captured {
                self.put_piece(captured, to);
                if captured.kind() == PieceKind::King {
                    self.king[us.flip().index()] = Some(to);
                }
            }
        }
    }

    /// Passes the move (for null-move pruning). The side to move must not be in check.
    pub fn do_null_move(&mut self) {
        debug_assert!(!self.in_check());
        self.history.push(self.st);
        self.history_keys.push(self.st.board_key);
        let us = self.side;
        self.side = us.flip();
        self.game_ply += 1;
        let st = &mut self.st;
        st.board_key ^= zobrist::SIDE;
        st.last_move = None;
        st.captured = None;
        st.continuous_check[us.index()] = 0;
        st.plies_from_null = 0;
        self.set_check_info();
    }

    pub fn undo_null_move(&mut self) {
        self.history_keys.pop();
        let Some(previous) = self.history.pop() else {
            unreachable!("undo_null_move with an empty history");
        };
        self.st = previous;
        self.side = self.side.flip();
        self.game_ply -= 1;
    }

    /// Recomputes the checkers of the side to move, pin blockers for both kings and the check
    /// squares of the side to move.
    ///
    /// The sliding checkers fall out of the blocker scan (an aimed slider with nothing between is
    /// a checker), so only the step patterns are looked up for them: startpos perft(4) under
    /// callgrind: 167.5 M instructions, against 171.5 M with a full `attackers_to` after each move.
    fn set_check_info(&mut self) {
        let occ = self.occupied();
        let us = self.side;
        let them = us.flip();
        self.st.checkers = Bitboard::EMPTY;
        for color in Color::ALL {
            self.st.blockers[color.index()] = match self.king[color.index()] {
                Some(ksq) => {
                    let (blockers, slider_checkers) = self.slider_blockers(color, ksq, occ);
                    if color == us {
                        self.st.checkers = slider_checkers | self.step_attackers(them, ksq);
                    }
                    blockers
                }
                None => Bitboard::EMPTY,
            };
        }
        self.st.slider_checks = match self.king[them.index()] {
            Some(ksq) => [bishop_attacks(ksq, occ), rook_attacks(ksq, occ)],
            None => [Bitboard::EMPTY; 2],
        };
    }

    /// Pieces of `by` attacking `sq` by a step (every kind's step pattern; the sliders' reach
    /// along their lines is [`Position::slider_attackers_to`]'s).
    #[inline]
    pub fn step_attackers(&self, by: Color, sq: Square) -> Bitboard {
        let opp = by.flip();
        let k = |kind: PieceKind| self.by_kind[kind.index()];
        let kings = k(PieceKind::King) | k(PieceKind::Horse) | k(PieceKind::Dragon);
        let golds = k(PieceKind::Gold)
            | k(PieceKind::ProPawn)
            | k(PieceKind::ProLance)
            | k(PieceKind::ProKnight)
            | k(PieceKind::ProSilver);
        // A piece of `by` on X attacks `sq` exactly when the same kind of the other colour on `sq`
        // would attack X.
        let all = (step_attacks(opp, PieceKind::Pawn, sq) & k(PieceKind::Pawn))
            | (step_attacks(opp, PieceKind::Knight, sq) & k(PieceKind::Knight))
            | (step_attacks(opp, PieceKind::Silver, sq) & k(PieceKind::Silver))
            | (step_attacks(opp, PieceKind::Gold, sq) & golds)
            | (step_attacks(opp, PieceKind::King, sq) & kings);
        all & self.by_color[by.index()]
    }

    /// Pieces (either colour) that are the only piece between `color`'s king on `ksq` and an enemy
    /// slider aimed at it, and the enemy sliders aimed at it with nothing between (checkers).
    fn slider_blockers(&self, color: Color, ksq: Square, occ: Bitboard) -> (Bitboard, Bitboard) {
        let them = color.flip();
        let k = |kind: PieceKind| self.by_kind[kind.index()];
        // Enemy sliders that would hit the king on an empty board. An enemy lance aims at our king
        // from the squares our own lance on `ksq` would move to.
        let theirs = self.by_color[them.index()];
        let rooks = (k(PieceKind::Rook) | k(PieceKind::Dragon)) & theirs;
        let bishops = (k(PieceKind::Bishop) | k(PieceKind::Horse)) & theirs;
        let lances = k(PieceKind::Lance) & theirs;
        // Each lookup is skipped when the enemy has no such slider (common in the endgame and
        // always for rook and bishop in Heian).
        let mut snipers = Bitboard::EMPTY;
        if rooks.is_nonempty() {
            snipers |= rook_attacks(ksq, Bitboard::EMPTY) & rooks;
        }
        if bishops.is_nonempty() {
            snipers |= bishop_attacks(ksq, Bitboard::EMPTY) & bishops;
        }
        if lances.is_nonempty() {
            snipers |= lance_attacks(color, ksq, Bitboard::EMPTY) & lances;
        }
        let mut blockers = Bitboard::EMPTY;
        let mut checkers = Bitboard::EMPTY;
        for sniper in snipers {
            let b = between(ksq, sniper) & occ;
            if b.is_empty() {
                checkers.set(sniper);
            } else if !b.has_more_than_one() {
                blockers |= b;
            }
        }
        (blockers, checkers)
    }

    // ------------------------------------------------------------------------------------------
    // Move properties and validation
    // ------------------------------------------------------------------------------------------

    /// Whether the pseudo-legal move `m` checks the enemy king (directly, by discovery, by a
    /// promotion, or by a drop).
    pub fn gives_check(&self, m: Move) -> bool {
        let us = self.side;
        let them = us.flip();
        let Some(ksq) = self.king[them.index()] else {
            return false;
        };
        let to = m.to();
        match (m.from(), m.drop_kind()) {
            (None, Some(kind)) => self.check_squares(kind.piece_kind()).contains(to),
            (Some(from), _) => {
                let Some(piece) = self.board[from.index()] else {
                    return false;
                };
                let kind = match (m.is_promotion(), piece.kind().promoted()) {
                    (true, Some(p)) => p,
                    _ => piece.kind(),
                };
                if self.check_squares(kind).contains(to) {
                    return true;
                }
                // Discovered: the mover was the only piece between one of our sliders and the
                // enemy king, and leaves that line.
                self.st.blockers[them.index()].contains(from) && !line(ksq, from).contains(to)
            }
            (None, None) => false,
        }
    }

    /// Whether `m` (any value, e.g. from the TT or a GUI) is pseudo-legal here: the piece exists and
    /// belongs to the side to move, moves like that on this board, promotes only where allowed and
    /// where required, drops obey the drop rules (hand, empty square, dead squares, nifu,
    /// uchifuzume), and when in check the move is an evasion candidate (king move, capture of the
    /// single checker, or interposition). Never panics.
    pub fn is_pseudo_legal(&self, m: Move) -> bool {
        let us = self.side;
        let g = &self.geometry;
        let to = m.to();
        if !g.mask.contains(to) {
            return false;
        }
        match (m.from(), m.drop_kind()) {
            (None, Some(kind)) => {
                if !self.variant.has_drops()
                    || !self.st.hands[us.index()].has(kind)
                    || self.board[to.index()].is_some()
                    || g.dead(us, kind.piece_kind()).contains(to)
                {
                    return false;
                }
                if kind == HandKind::Pawn {
                    let own_pawns = self.pieces(us, PieceKind::Pawn);
                    if (own_pawns & Bitboard::file(to.file())).is_nonempty()
                        || self.is_pawn_drop_mate(to)
                    {
                        return false;
                    }
                }
                if self.in_check() {
                    return self.blocks_single_check(to);
                }
                true
            }
            (Some(from), _) => {
                if !g.mask.contains(from) {
                    return false;
                }
                let Some(piece) = self.board[from.index()] else {
                    return false;
                };
                if piece.color() != us {
                    return false;
                }
                if self.by_color[us.index()].contains(to) {
                    return false;
                }
                if !piece_attacks(piece, from, self.occupied()).contains(to) {
                    return false;
                }
                let kind = piece.kind();
                if m.is_promotion() {
                    let zone = g.zone[us.index()];
                    if !kind.can_promote() || !(zone.contains(from) || zone.contains(to)) {
                        return false;
                    }
                } else if g.dead(us, kind).contains(to) {
                    return false;
                }
                if self.in_check() && kind != PieceKind::King {
                    return self.blocks_single_check(to);
                }
                true
            }
            (None, None) => false,
        }
    }

    /// In check: whether a non-king move or drop to `to` captures the only checker or interposes.
    fn blocks_single_check(&self, to: Square) -> bool {
        let checkers = self.st.checkers;
        match (checkers.single(), self.king[self.side.index()]) {
            (Some(checker), Some(ksq)) => {
                (between(ksq, checker) | Bitboard::from_square(checker)).contains(to)
            }
            _ => false,
        }
    }

    /// For a pseudo-legal `m`: whether the own king is not left in check.
    #[inline]
    pub fn is_legal_pseudo(&self, m: Move) -> bool {
        let us = self.side;
        let Some(from) = m.from() else {
            // A pseudo-legal drop already answers any check and cannot expose the king.
            return true;
        };
        let Some(ksq) = self.king[us.index()] else {
            return true;
        };
        let to = m.to();
        if from == ksq {
            // The king must not step onto an attacked square; it is removed from the occupancy so
            // that a slider's line through its old square still counts ("behind itself").
            let occ = self.occupied().without(from);
            return !self.is_attacked_with(us.flip(), to, occ);
        }
        !self.st.blockers[us.index()].contains(from) || line(ksq, from).contains(to)
    }

    /// Whether `m` is fully legal here. Never panics on any `Move` value.
    #[inline]
    pub fn is_legal(&self, m: Move) -> bool {
        self.is_pseudo_legal(m) && self.is_legal_pseudo(m)
    }

    /// Uchifuzume test: would a pawn of the side to move dropped on `to` checkmate the enemy king?
    /// Only the square in front of the enemy king can be such a drop.
    pub(crate) fn is_pawn_drop_mate(&self, to: Square) -> bool {
        let us = self.side;
        let them = us.flip();
        let Some(ksq) = self.king[them.index()] else {
            return false;
        };
        // The pawn checks only from the square the enemy king's own pawn would move to.
        if !step_attacks(them, PieceKind::Pawn, ksq).contains(to) {
            return false;
        }
        let occ = self.occupied().with(to);
        // Can a piece other than the king take the pawn? Pinned defenders may only take along their
        // pin line.
        let defenders = self.attackers_to(them, to, occ) & !Bitboard::from_square(ksq);
        let pinned = self.st.blockers[them.index()] & self.by_color[them.index()];
        for d in defenders {
            if !pinned.contains(d) || line(ksq, d).contains(to) {
                return false;
            }
        }
        // Can the king step anywhere safe (taking the pawn included)?
        let escapes = step_attacks(them, PieceKind::King, ksq)
            & self.geometry.mask
            & !self.by_color[them.index()];
        let occ_without_king = occ.without(ksq);
        let attackers = self.attacker_sets(us);
        for esc in escapes {
            if !attackers.attack(esc, occ_without_king) {
                return false;
            }
        }
        true
    }

    /// Parses a USI move (`7g7f`, `8h2b+`, `P*5e`) and checks that it is legal here; the error says
    /// why not.
    pub fn parse_usi_move(&self, text: &str) -> Result<Move, MoveError> {
        let m = parse_move_text(text, self.variant)?;
        let t = || text.to_string();
        let us = self.side;
        let to = m.to();
        match (m.from(), m.drop_kind()) {
            (None, Some(kind)) => {
                if !self.st.hands[us.index()].has(kind) {
                    return Err(MoveError::NotInHand(t()));
                }
                if !self.is_pseudo_legal(m) {
                    let drop_ok_otherwise = self.board[to.index()].is_none()
                        && !self.geometry.dead(us, kind.piece_kind()).contains(to)
                        && (kind != HandKind::Pawn
                            || ((self.pieces(us, PieceKind::Pawn) & Bitboard::file(to.file()))
                                .is_empty()
                                && !self.is_pawn_drop_mate(to)));
                    return Err(if drop_ok_otherwise {
                        MoveError::KingInCheck(t())
                    } else {
                        MoveError::BadDrop(t())
                    });
                }
            }
            (Some(from), _) => {
                let piece = self.board[from.index()].ok_or_else(|| MoveError::NoPiece(t()))?;
                if piece.color() != us {
                    return Err(MoveError::NotYourPiece(t()));
                }
                if self.by_color[us.index()].contains(to)
                    || !(piece_attacks(piece, from, self.occupied()) & self.geometry.mask)
                        .contains(to)
                {
                    return Err(MoveError::CannotMoveThere(t()));
                }
                let zone = self.geometry.zone[us.index()];
                let promotion_ok = if m.is_promotion() {
                    piece.kind().can_promote() && (zone.contains(from) || zone.contains(to))
                } else {
                    !self.geometry.dead(us, piece.kind()).contains(to)
                };
                if !promotion_ok {
                    return Err(MoveError::BadPromotion(t()));
                }
                if !self.is_pseudo_legal(m) {
                    return Err(MoveError::KingInCheck(t()));
                }
            }
            (None, None) => return Err(MoveError::CannotMoveThere(t())),
        }
        if self.is_legal_pseudo(m) {
            Ok(m)
        } else {
            Err(MoveError::KingInCheck(t()))
        }
    }

    // ------------------------------------------------------------------------------------------
    // Results that need the history or the whole board
    // ------------------------------------------------------------------------------------------

    /// For search: has the current board (with the side to move) been seen before since the last
    /// null move? Looks back through the whole history, stepping 2 plies (same side to move).
    ///
    /// - same board and same hands: `Draw`, unless one side gave check with every one of its moves
    ///   of the cycle (sennichite by perpetual check): that side loses (`Win`/`Loss` from the view of
    ///   the side to move);
    /// - same board, the side to move's hand superior or inferior (in every kind) to then:
    ///   `Superior`/`Inferior`; hands that are not comparable do not count.
    ///
    /// The first (most recent) match decides.
    pub fn repetition(&self) -> Repetition {
        let us = self.side.index();
        let len = self.history.len();
        let max = (self.st.plies_from_null as usize).min(len);
        let now = &self.st;
        // A cycle needs at least four plies: each side must move away and back.
        let mut d = 4;
        while d <= max {
            if self.history_keys[len - d] == now.board_key {
                let then = &self.history[len - d];
                let (h_now, h_then) = (now.hands[us], then.hands[us]);
                if h_now == h_then {
                    let them = 1 - us;
                    return if now.continuous_check[them] as usize >= d {
                        Repetition::Win
                    } else if now.continuous_check[us] as usize >= d {
                        Repetition::Loss
                    } else {
                        Repetition::Draw
                    };
                }
                if h_now.is_superior_or_equal(h_then) {
                    return Repetition::Superior;
                }
                if h_then.is_superior_or_equal(h_now) {
                    return Repetition::Inferior;
                }
            }
            d += 2;
        }
        Repetition::None
    }

    /// For the game: sennichite. When the current position (board, hands, side to move) occurs for
    /// the fourth time, the game ends: a draw, or a loss for a side that gave check with every one
    /// of its moves since the first of the four occurrences (perpetual check).
    pub fn sennichite(&self) -> Option<GameResult> {
        let len = self.history.len();
        let now = &self.st;
        let mut occurrences = 1;
        let mut d = 4;
        while d <= len {
            if self.history_keys[len - d] == now.board_key
                && self.history[len - d].hands == now.hands
            {
                occurrences += 1;
                if occurrences == 4 {
                    let us = self.side;
                    let them = us.flip();
                    return Some(if now.continuous_check[them.index()] as usize >= d {
                        GameResult::Win(us)
                    } else if now.continuous_check[us.index()] as usize >= d {
                        GameResult::Win(them)
                    } else {
                        GameResult::Draw
                    });
                }
            }
            d += 2;
        }
        None
    }

    /// Whether the side to move may declare an entering-king win now under `rule` (see
    /// [`EnteringKingRule`] for the conditions). Always false in variants without declaration.
    pub fn can_declare(&self, rule: EnteringKingRule) -> bool {
        let needed = match rule {
            EnteringKingRule::None => return false,
            EnteringKingRule::Csa27 => match self.side {
                Color::Black => 28,
                Color::White => 27,
            },
            EnteringKingRule::Csa24 => 31,
        };
        if !self.variant.has_declaration() || self.in_check() {
            return false;
        }
        let us = self.side;
        let zone = self.geometry.zone[us.index()];
        let Some(ksq) = self.king[us.index()] else {
            return false;
        };
        if !zone.contains(ksq) {
            return false;
        }
        let in_zone = self.by_color[us.index()] & zone & !Bitboard::from_square(ksq);
        if in_zone.count() < 10 {
            return false;
        }
        let majors = self.by_kind[PieceKind::Bishop.index()]
            | self.by_kind[PieceKind::Rook.index()]
            | self.by_kind[PieceKind::Horse.index()]
            | self.by_kind[PieceKind::Dragon.index()];
        let big_in_zone = (in_zone & majors).count();
        let hand = self.st.hands[us.index()];
        let big_in_hand = hand.count(HandKind::Bishop) + hand.count(HandKind::Rook);
        let points = in_zone.count() + 4 * big_in_zone + hand.total() + 4 * big_in_hand;
        points >= needed
    }

    /// Draw by the maximum game length: more than `max_moves` moves have been played (the SFEN move
    /// number is past it). `0` means no limit.
    pub fn is_max_moves_draw(&self, max_moves: u32) -> bool {
        max_moves != 0 && self.game_ply > max_moves
    }
}

#[cfg(test)]
mod tests;
