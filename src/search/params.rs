//! Every tunable number of the search in one table, with its range and step for SPSA-style tuning.
//!
//! The search reads each through `get()`: in a normal build a constant (an immediate in the code),
//! in a build with the `tune` feature a value the USI options of that build set (one spin option per
//! parameter, named as here, with its range; `usi_tunables` prints the table for ShogiArena's SPSA,
//! see scripts/arena). `TABLE` lists them by name with `(value, min, max, step)`. Comments give the
//! reason for each value and how it was checked.
//!
//! Every pruning has an on/off parameter (a depth bound of 0, or a minimum depth of 99) so it can be
//! measured by editing one number. Bench node counts with each one switched off (21 positions, one
//! thread; "material" = before the real evaluation landed, otherwise with `eval::evaluate`):
//!
//! | switched off             | depth 8 | depth 9   | depth 10 | note                         |
//! |--------------------------|---------|-----------|----------|------------------------------|
//! | nothing (reference)      | 534708  | 1295955   | 2125247  |                              |
//! | razoring                 | 732620  | 1025649   | 2025533  | about neutral in sum: kept   |
//! | internal iterative red.  | 694250  | 1138029   | 2272196  | +4% in sum without: kept     |
//! | (material) reference     |         | 546468    |          |                              |
//! | (material) null move     |         | 985453    |          | +80%                         |
//! | (material) reverse fut.  |         | 1175734   |          | +115%                        |
//! | (material) late-move pr. |         | 7039838   |          | x13                          |
//! | (material) futility      |         | 1083844   |          | +98%                         |
//! | (material) SEE pruning   |         | 956974    |          | +75%                         |
//! | (material) LMR           |         | 2475157   |          | x4.5                         |
//! | (material) check ext.    |         | 410594    |          | -25%: kept for tactics       |
//!
//! Tried and removed: quiet contact checks (to a square next to the enemy king, SEE >= 0, when
//! `eval + 200 > alpha`) at the first quiescence ply took the depth-8 bench from 529675 to 759801
//! nodes and scored +93 -107 =0 against none (20k nodes/move, 200 games: -24 Elo, 95% [-73, +24]);
//! every quiet check there (margin 400) gave 2761737 nodes.
//!
//! Fixed-node matches before 2026-11-29 21:45 (these and `MATE3_MIN_DEPTH`'s) replayed the same 66
//! games (33 openings, colours swapped) on every cycle: an engine searching a fixed number of nodes is
//! deterministic. Their intervals are about twice as wide as printed. scripts/match.py now varies
//! each game pair's budget by up to 10%.
//!
//! The pruning table predates self-play measurement here (two cores shared by six builders): it is
//! node counts only, so a pruning that saves nodes by missing tactics would not show here. The tactical tests
//! (mate in 1 and 3, hanging piece, free capture) pass with every pruning on.

/// One tunable parameter's declaration: its default and the range and step a tuner may use.
/// `step` is SPSA's final perturbation (`c_end`): a change of about one step should be visible in
/// games but not ruin them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param {
    pub name: &'static str,
    pub value: i32,
    pub min: i32,
    pub max: i32,
    pub step: i32,
}

impl Param {
    /// `value` brought into the parameter's range.
    pub fn clamp(&self, value: i64) -> i32 {
        value.clamp(i64::from(self.min), i64::from(self.max)) as i32
    }
}

/// The row of `TABLE` named `name`, ignoring ASCII case.
pub fn find(name: &str) -> Option<&'static Param> {
    TABLE.iter().find(|p| p.name.eq_ignore_ascii_case(name))
}

/// A search parameter as the search reads it: `params::LMR_BASE.get()`.
///
/// In a normal build it is a constant wrapped in a `Copy` type whose `get` is a `const fn`, so every
/// use compiles to an immediate as a bare `const` would. With the `tune` feature it is a static
/// atomic that a tuning build's USI options change between searches (relaxed loads: a plain `mov`
/// on x86-64; a value set during a search is seen by the next node that reads it).
#[cfg(not(feature = "tune"))]
#[derive(Clone, Copy, Debug)]
pub struct Tunable(i32);

#[cfg(not(feature = "tune"))]
impl Tunable {
    #[inline(always)]
    pub const fn get(self) -> i32 {
        self.0
    }
}

#[cfg(feature = "tune")]
#[derive(Debug)]
pub struct Tunable(std::sync::atomic::AtomicI32);

#[cfg(feature = "tune")]
impl Tunable {
    #[inline(always)]
    pub fn get(&self) -> i32 {
        self.0.load(std::sync::atomic::Ordering::Relaxed)
    }

    fn set(&self, value: i32) {
        self.0.store(value, std::sync::atomic::Ordering::Relaxed);
    }
}

macro_rules! params {
    ($( $(#[$doc:meta])* $name:ident = $value:expr, $min:expr, $max:expr, $step:expr; )*) => {
        $(
            $(#[$doc])*
            #[cfg(not(feature = "tune"))]
            pub const $name: Tunable = Tunable($value);
            $(#[$doc])*
            #[cfg(feature = "tune")]
            pub static $name: Tunable = Tunable(std::sync::atomic::AtomicI32::new($value));
        )*
        /// All parameters with their defaults, in declaration order.
        pub const TABLE: &[Param] = &[
            $( Param { name: stringify!($name), value: $value, min: $min, max: $max, step: $step }, )*
        ];
        /// The live value of each row of `TABLE`, in the same order.
        #[cfg(feature = "tune")]
        static LIVE: &[&Tunable] = &[ $( &$name, )* ];
    };
}

/// Sets the parameter named `name` (ASCII case ignored) to `value` clamped to its range; returns its
/// declaration and the value stored, or `None` for a name that is no parameter.
#[cfg(feature = "tune")]
pub fn set(name: &str, value: i64) -> Option<(&'static Param, i32)> {
    let i = TABLE
        .iter()
        .position(|p| p.name.eq_ignore_ascii_case(name))?;
    let p = &TABLE[i];
    let v = p.clamp(value);
    LIVE[i].set(v);
    Some((p, v))
}

/// The current value of each parameter, in `TABLE` order (the defaults in a normal build).
pub fn current() -> Vec<(&'static Param, i32)> {
    #[cfg(feature = "tune")]
    return TABLE.iter().zip(LIVE).map(|(p, t)| (p, t.get())).collect();
    #[cfg(not(feature = "tune"))]
    TABLE.iter().map(|p| (p, p.value)).collect()
}

params! {
    /// Initial half-width of the aspiration window around the previous iteration's score (cp).
    /// Bench depth 9/10: 16 -> 978960/2350332 nodes, 24 -> 799962/1446185, 40 -> 1072059/1764918.
    ASPIRATION_DELTA = 24, 8, 80, 4;
    /// Reverse futility (static null move): prune when `eval - margin * depth >= beta` at low depth.
    RFP_MARGIN = 100, 40, 200, 10;
    RFP_MAX_DEPTH = 8, 4, 12, 1;
    /// Razoring: drop into quiescence when `eval + margin * depth < alpha` at depth <= 2.
    RAZOR_MARGIN = 450, 200, 800, 25;
    RAZOR_MAX_DEPTH = 2, 0, 4, 1;
    /// Null-move reduction: `R = base + depth / div + min((eval - beta) / eval_div, 3)`.
    NMP_BASE = 3, 2, 5, 1;
    /// Null move is tried from this depth on.
    NMP_MIN_DEPTH = 3, 1, 6, 1;
    NMP_DEPTH_DIV = 4, 2, 6, 1;
    NMP_EVAL_DIV = 200, 100, 400, 20;
    /// From this depth on a null-move cutoff is verified by a reduced search without null moves.
    NMP_VERIFY_DEPTH = 12, 8, 20, 1;
    /// Futility pruning of quiet moves: skip when `eval + base + mult * lmr_depth <= alpha`.
    FUTILITY_BASE = 120, 50, 250, 10;
    FUTILITY_MULT = 110, 50, 200, 10;
    FUTILITY_MAX_DEPTH = 8, 4, 12, 1;
    /// Late-move pruning: quiet moves after `(base + depth^2) / (2 - improving)` are skipped.
    LMP_BASE = 3, 1, 6, 1;
    LMP_MAX_DEPTH = 8, 0, 12, 1;
    /// SEE pruning thresholds (cp, negative): quiets `quiet * lmr_depth`, captures
    /// `capture * depth`, applied below `SEE_PRUNE_MAX_DEPTH`.
    SEE_QUIET_MARGIN = -60, -150, -20, 5;
    SEE_CAPTURE_MARGIN = -100, -250, -20, 10;
    SEE_PRUNE_MAX_DEPTH = 8, 4, 12, 1;
    /// Late-move reductions: `r = base/100 + ln(depth) * ln(moves) * 100 / div`.
    LMR_BASE = 75, 0, 150, 5;
    /// Moves are reduced from this depth on.
    LMR_MIN_DEPTH = 2, 1, 6, 1;
    LMR_DIV = 225, 150, 350, 10;
    /// History score that cancels one ply of reduction.
    LMR_HISTORY_DIV = 8000, 2000, 20000, 500;
    /// Fractional reductions (1 = on): the table keeps its formula's fraction and the history
    /// term is continuous (a ply per `LMR_HISTORY_DIV`, not whole plies of it), summed in 1024ths
    /// of a ply and truncated once, as Stockfish's; off, each truncates to whole plies on its own.
    LMR_FRACTIONAL = 0, 0, 1, 1;
    // Five more, from Stoat (Ciekce's shogi engine), each screened on 2026-12-06 as above against
    // the same tuning build without it (measurements/sprt/README.md, "Fixed-node screens"; two
    // runs with different opening samples where two figures are given). Off, or as before, until
    // a clocked gate keeps them; the bundle of the ones that held (the structure corrections,
    // `LMR_CUT_NODE` 2, ProbCut with quiescence's TT stand pat) kept that gate: at 1 s byoyomi
    // against the search without it, +116 -78 =6 in 200 games, +67 Elo [+24, +112] by pairs
    // (measurements/sprt/README.md, `bundle-1s`), and is on since.
    /// Plies more of reduction for a quiet move at a node expected to cut off. At 2:
    /// +16 [-18, +50] (395 games), +15 [-14, +43] (571); in the bundle above since.
    LMR_CUT_NODE = 2, 0, 3, 1;
    /// A drop is reduced a ply less per enemy piece it attacks (1 = on; Stoat's term): forks and
    /// threats by drops are shogi's commonest tactic, and a late drop is otherwise reduced as the
    /// pointless ones are. -6 [-45, +34] (299 games).
    LMR_DROP_ATTACKS = 0, 0, 1, 1;
    /// A drop within two squares of the enemy king and defended is reduced a ply less (1 = on).
    /// -7 [-41, +26] (418 games).
    LMR_DROP_NEAR_KING = 0, 0, 1, 1;
    /// A non-PV node whose parent reduced the move into it by 3 or more, where the two static
    /// evaluations say the move cost its mover nothing, searches a ply deeper; one reduced by 1 or
    /// more that cost its mover 200 or more, a ply shallower (1 = on; the hindsight adjustment of
    /// Stockfish and Stoat). +32 [-2, +66] (407 games), -14 [-44, +16] (528).
    HINDSIGHT = 0, 0, 1, 1;
    // Four of Stockfish's search ideas that Tokin lacked, each off until a clocked gate keeps it.
    // Each was screened on 2026-12-06 as one option of a `--features tune` build of this tree
    // against the same build without it, 20,000 nodes a move, `scripts/openings-wide.sfen`, 10
    // minutes (692-735 games, two at a time, the 2-core guest), every decisive game by the resign
    // adjudication, no time forfeit (`arena.py sprt --nodes 20000 --candidate-option NAME=V`).
    // None stood out; the figures are the option's Elo and 95% interval against off. Two more were
    // screened and dropped (measurements/sprt/README.md, "Fixed-node screens"): a ply more of LMR
    // for quiets after a capturing TT move, -9 [-34, +17], and a fail low's full history bonus for
    // the opponent's quiet move into the node, -25 [-51, +1].
    /// Late-move reductions of captures and pawn promotions at non-PV nodes (1 = on): the table's
    /// reduction less one, plus one at a cut node (two plies less than a quiet's before its
    /// improving, check and history terms); none for a check. -3 [-29, +22] (714 games).
    LMR_TACTICAL = 0, 0, 1, 1;
    /// History pruning: a quiet move whose history (butterfly plus both continuations) is below
    /// `-mult * depth` is skipped while its reduced depth is below `max_depth` (mult 0 = off).
    /// At 4000: -5 [-30, +21] (719 games).
    HIST_PRUNE_MULT = 0, 0, 12000, 250;
    HIST_PRUNE_MAX_DEPTH = 4, 1, 8, 1;
    /// ProbCut: at non-PV nodes from `min_depth` on, a capture whose quiescence and then a search
    /// `PROBCUT_REDUCTION` plies shallower beat `beta + margin` cuts the node off (margin 0 = off).
    /// At 200: +6 [-20, +31] (721 games); with `QS_TT_STAND_PAT` +21 [+1, +42] (1077 games); at 1 s
    /// +19 [-25, +64] (236 games); on since the bundle's gate (see `LMR_CUT_NODE`).
    PROBCUT_MARGIN = 200, 0, 400, 20;
    PROBCUT_MIN_DEPTH = 5, 3, 10, 1;
    PROBCUT_REDUCTION = 4, 2, 6, 1;
    /// Quiescence stands pat on the table's score instead of the static evaluation when its bound
    /// says the score is the better estimate (1 = on). +6 [-19, +32] (705 games); on since the
    /// bundle's gate, with ProbCut.
    QS_TT_STAND_PAT = 1, 0, 1, 1;
    /// Internal iterative reduction: reduce by one ply when a node has no TT move from this depth.
    IIR_MIN_DEPTH = 4, 2, 8, 1;
    // Three more of Stockfish's and YaneuraOu's, off until a clocked gate keeps them (2026-12-07):
    // a ply more of LMR once the children of this node and its siblings failed high more than
    // `LMR_CUTOFFS` times (`cutoffCnt`); futility that moves a quiet's expected depth by its
    // history over `FUTILITY_HIST_DIV` (YaneuraOu: 3220 on a like scale); the quiet SEE margin
    // `-SEE_QUIET_QUAD * d^2` (YaneuraOu: 25) instead of `SEE_QUIET_MARGIN * d`.
    LMR_CUTOFFS = 0, 0, 4, 1;
    FUTILITY_HIST_DIV = 0, 0, 8000, 250;
    SEE_QUIET_QUAD = 0, 0, 60, 5;
    // One more of Stockfish's, off until a clocked gate keeps it (2026-12-07): a quiet TT move's
    // history bonus when its entry cuts the node off (+2 [-32, +36] in 398 games). Screened
    // beside it and removed again, level or below over their samples here and on earlier
    // branches (measurements/sprt/README.md, 2026-12-07 16:02): the continuation history of
    // the move 4 plies back, double singular extensions, a ply less for a non-singular TT move
    // at a cut node, `ttPv` reductions and the fail-high score blended with beta.
    TT_CUTOFF_HISTORY = 0, 0, 1, 1;
    // Stockfish's uncertainty term, off until a clocked gate keeps it: where the correction
    // history moves the static evaluation a lot, the evaluation is less sure, so the reverse
    // futility margin grows by `RFP_CORR_PCT` percent of the correction (Stockfish: about 73).
    RFP_CORR_PCT = 0, 0, 200, 10;
    /// Quiescence delta pruning: skip a capture whose best-case gain leaves `alpha` out of reach.
    QS_FUTILITY_MARGIN = 200, 50, 400, 20;
    /// Quiescence move-count pruning: past this many moves, only checks and recaptures are
    /// searched (YaneuraOu's and Stockfish's 2).
    QS_MOVE_COUNT = 2, 1, 8, 1;
    /// Cap of the history tables (gravity keeps values inside +-this).
    HISTORY_MAX = 16384, 8192, 32767, 1024;
    /// History bonus per depth: `min(mult * depth - sub, max_bonus)`.
    HISTORY_BONUS_MULT = 160, 50, 400, 10;
    HISTORY_BONUS_SUB = 100, 0, 300, 10;
    HISTORY_BONUS_MAX = 1600, 400, 4000, 100;
    /// Capture history enters capture ordering divided by this (MVV-LVA steps are 16 * value).
    /// Adding capture history cut the bench from 534708/1275270/2192527 nodes (depths 8/9/10) to
    /// 529669/799962/1446185.
    CAPTURE_HISTORY_DIV = 4, 1, 32, 1;
    /// Quiet moves scored below `-limit * depth` are left unsorted at the end of the list.
    QUIET_SORT_LIMIT = 3000, 500, 8000, 250;
    /// Mate-in-one probing at nodes with at least this remaining depth. Measured on the bench at
    /// depth 8 (real eval): every node (1) 694618 nodes and twice the time of none (575577);
    /// from depth 3 on, 534708 nodes in the least time; from 6 on it never fires.
    MATE1_MIN_DEPTH = 3, 1, 99, 1;
    /// Mate-in-three probing (`search::mate3`) from this remaining depth on, after mate in one
    /// failed and only without a TT hit (so never below `MATE1_MIN_DEPTH`). Bench depth 8, nodes /
    /// instructions (callgrind; wall time on the shared machine is noise), off: 529675 / 5.676 G.
    /// From depth 3 with escapes <= 2: 675925 / 7.638 G, all of it bench pos 20 (bare kings, full
    /// hands: found mates make the side being mated search every alternative), and +93 -107 =0
    /// against off (20k nodes/move, 200 games: -24 Elo, 95% [-73, +24]); colours of the match
    /// script's engines swapped, another 200: +93 -107 again (the same games again: see the module
    /// note on replayed fixed-node games; 66 distinct games, about +-85 Elo). With
    /// escapes <= 8: 624060 / 9.050 G (the probe 24% of the time). From depth 4: 529680 / 5.702 G,
    /// +94 -106 =0 against off (same match: -21 Elo, 95% [-70, +27]). Off until a longer match
    /// shows a gain.
    MATE3_MIN_DEPTH = 99, 1, 99, 1;
    /// ... only when the enemy king has at most this many free squares to step to.
    MATE3_MAX_ESCAPES = 2, 0, 8, 1;
    /// A check with more answers than this is not tried (each answer needs its own mate).
    MATE3_MAX_EVASIONS = 8, 1, 64, 1;
    /// Most mate-in-one probes after evasions per mate-in-three probe.
    MATE3_BUDGET = 64, 8, 1024, 8;
    /// Correction history: weights (out of 131072 per unit of an entry, entries within +-1024) of
    /// the pawn-structure and the continuation corrections added to the static evaluation
    /// (`search::correction`; 0 = off).
    CORR_PAWN_WEIGHT = 12288, 0, 32768, 1024;
    /// The same for the castles (kings, golds, silvers), the cavalry (knights, bishops, rooks and
    /// their promotions, with those in hand) and the kings with both hands (`correction::Structure`).
    /// All three at 8192 against none: +27 [-5, +60] (435 games), +17 [-10, +44] (626); together
    /// +21 [+0, +42] in 1061. On at 8192 since the bundle's gate (see `LMR_CUT_NODE`).
    CORR_CASTLE_WEIGHT = 8192, 0, 32768, 1024;
    CORR_CAVALRY_WEIGHT = 8192, 0, 32768, 1024;
    CORR_KING_HAND_WEIGHT = 8192, 0, 32768, 1024;
    CORR_CONTINUATION_WEIGHT = 8192, 0, 32768, 1024;
    /// Check extension (1 = on). YaneuraOu 9.70 has none (its source warns that checks run on in
    /// shogi, so Stockfish's old extension overdoes it). Off against on, a tuning build of
    /// a5e0a3b (`a7771ba1...`) on both sides at 20,000 nodes a move, wide openings, 2026-12-05
    /// beside a niced gensfen: +494 -540 =9 in 1043 games, -15 Elo [-36, +6] (SPRT [0, 10] LLR
    /// -1.98). Kept on; 20k nodes reach depth 8-9 (the start and two openings), a 0.7 s move
    /// depth 14 (README, "The same network on both sides"), so a real clock could differ.
    CHECK_EXTENSION = 1, 0, 1, 1;
    /// Singular extension of the TT move from this depth on (99 = off): the other moves are
    /// searched at `(depth - 1) / 2` against `tt_score - margin * depth`, when the TT entry is a
    /// lower bound or exact from at least `depth - tt_depth_margin`.
    SE_MIN_DEPTH = 8, 4, 99, 1;
    SE_MARGIN = 2, 1, 8, 1;
    SE_TT_DEPTH_MARGIN = 3, 1, 6, 1;
    /// Score of a position whose side to move reached it again with strictly more in hand
    /// (superior repetition): a large, non-mate bound.
    SUPERIOR_REPETITION = 3000, 500, 10000, 100;
    /// Time management: the soft limit stretches by this percent when the best move changed in the
    /// last iteration, and shrinks to `STABLE_PERCENT` when it held for several iterations.
    UNSTABLE_PERCENT = 160, 100, 250, 10;
    STABLE_PERCENT = 60, 30, 100, 5;
    /// Percent added to the soft limit when the score dropped by more than `SCORE_DROP_CP`.
    SCORE_DROP_PERCENT = 140, 100, 250, 10;
    SCORE_DROP_CP = 40, 10, 150, 5;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_inside_ranges() {
        for p in TABLE {
            assert!(p.min <= p.value && p.value <= p.max, "{p:?}");
            assert!(p.step > 0, "{p:?}");
        }
        let mut names: Vec<_> = TABLE.iter().map(|p| p.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), TABLE.len());
    }

    #[test]
    fn lookup_ignores_case_and_clamping_keeps_the_range() {
        let p = find("superior_repetition").expect("a parameter");
        assert_eq!(p.name, "SUPERIOR_REPETITION");
        assert_eq!(find("no_such_param"), None);
        assert_eq!(p.clamp(4000), 4000);
        assert_eq!(p.clamp(1 << 40), 10000);
        assert_eq!(p.clamp(-5), 500);
    }

    /// Only a tuning build's USI options set parameters, so in tests they hold their defaults
    /// (setting them is tested through that binary, in another process: tests/usi_tune.rs).
    #[test]
    fn current_values_are_the_defaults() {
        for (p, v) in current() {
            assert_eq!(v, p.value, "{}", p.name);
        }
        assert_eq!(current().len(), TABLE.len());
        assert_eq!(ASPIRATION_DELTA.get(), TABLE[0].value);
    }
}
