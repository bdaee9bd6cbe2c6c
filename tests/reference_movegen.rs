//! Independent verification of the rules core.
//!
//! `reference` below is a slow, deliberately plain legal-move generator on the mailbox [`Setup`]: its
//! own direction tables, no bitboards, no attack tables, nothing from `core::attacks`,
//! `core::position` or `core::movegen`. A move is legal when, after playing it on a copy of the
//! setup, the mover's king is not attacked; a pawn drop that checks is tried against every reply
//! (uchifuzume). The tests hold the core's generator, do/undo, keys, `is_legal` and the staged
//! generators to it, on start positions, on published perft positions and on positions reached by
//! seeded random playouts.

use std::collections::BTreeSet;
use tokin::core::movegen::{
    generate_captures, generate_checks, generate_evasions, generate_legal, generate_quiets, perft,
    MoveList,
};
use tokin::core::sfen::Setup;
use tokin::core::{
    Color, EnteringKingRule, GameResult, HandKind, Move, Piece, PieceKind, Position, Repetition,
    Square, Variant,
};
use tokin::rng::Rng;

mod reference {
    use super::*;

    /// (file delta, rank delta) from Black's point of view: rank delta -1 is one rank toward rank
    /// `a`, i.e. forward for Black. Every shogi piece moves symmetrically left/right, so the sign of
    /// the file delta does not matter.
    type Dir = (i32, i32);

    const FORWARD: [Dir; 1] = [(0, -1)];
    const KNIGHT: [Dir; 2] = [(-1, -2), (1, -2)];
    const SILVER: [Dir; 5] = [(-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1)];
    const GOLD: [Dir; 6] = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
    const KING: [Dir; 8] = [
        (-1, -1),
        (0, -1),
        (1, -1),
        (-1, 0),
        (1, 0),
        (-1, 1),
        (0, 1),
        (1, 1),
    ];
    const ORTHOGONAL: [Dir; 4] = [(0, -1), (0, 1), (-1, 0), (1, 0)];
    const DIAGONAL: [Dir; 4] = [(-1, -1), (1, -1), (-1, 1), (1, 1)];

    /// (single steps, slides) of a kind, for Black.
    fn movement(kind: PieceKind) -> (&'static [Dir], &'static [Dir]) {
        use PieceKind::*;
        match kind {
            Pawn => (&FORWARD, &[]),
            Lance => (&[], &FORWARD),
            Knight => (&KNIGHT, &[]),
            Silver => (&SILVER, &[]),
            Gold | ProPawn | ProLance | ProKnight | ProSilver => (&GOLD, &[]),
            King => (&KING, &[]),
            Bishop => (&[], &DIAGONAL),
            Rook => (&[], &ORTHOGONAL),
            Horse => (&ORTHOGONAL, &DIAGONAL),
            Dragon => (&DIAGONAL, &ORTHOGONAL),
        }
    }

    fn oriented(color: Color, (df, dr): Dir) -> Dir {
        match color {
            Color::Black => (df, dr),
            Color::White => (-df, -dr),
        }
    }

    /// The square `(file, rank)` (0-based indices) if it is on the variant's board.
    fn square(variant: Variant, file: i32, rank: i32) -> Option<Square> {
        let on = (0..variant.files() as i32).contains(&file)
            && (0..variant.ranks() as i32).contains(&rank);
        on.then(|| Square::new(file as u8, rank as u8))
    }

    fn step(variant: Variant, from: Square, (df, dr): Dir) -> Option<Square> {
        square(variant, from.file() as i32 + df, from.rank() as i32 + dr)
    }

    /// How many ranks `sq` lies from `color`'s far edge: 0 is the last rank `color` moves toward.
    fn ranks_to_go(variant: Variant, color: Color, sq: Square) -> u8 {
        match color {
            Color::Black => sq.rank(),
            Color::White => variant.ranks() - 1 - sq.rank(),
        }
    }

    fn in_zone(variant: Variant, color: Color, sq: Square) -> bool {
        ranks_to_go(variant, color, sq) < 3
    }

    /// An unpromoted piece of this kind on `sq` could never move again.
    fn dead(variant: Variant, color: Color, kind: PieceKind, sq: Square) -> bool {
        let to_go = ranks_to_go(variant, color, sq);
        match kind {
            PieceKind::Pawn | PieceKind::Lance => to_go == 0,
            PieceKind::Knight => to_go <= 1,
            _ => false,
        }
    }

    /// The squares `piece` on `from` attacks (every square it could move to if an enemy stood there).
    fn targets(s: &Setup, from: Square, piece: Piece) -> Vec<Square> {
        let (steps, slides) = movement(piece.kind());
        let mut out = Vec::new();
        for &d in steps {
            if let Some(to) = step(s.variant, from, oriented(piece.color(), d)) {
                out.push(to);
            }
        }
        for &d in slides {
            let d = oriented(piece.color(), d);
            let mut at = from;
            while let Some(to) = step(s.variant, at, d) {
                out.push(to);
                if s.piece_on(to).is_some() {
                    break;
                }
                at = to;
            }
        }
        out
    }

    fn board_squares(variant: Variant) -> impl Iterator<Item = Square> {
        Square::all().filter(move |&sq| variant.contains(sq))
    }

    /// Whether the piece on `from` attacks `to`.
    pub fn attacks(s: &Setup, from: Square, to: Square) -> bool {
        s.piece_on(from)
            .is_some_and(|p| targets(s, from, p).contains(&to))
    }

    pub fn attacked(s: &Setup, sq: Square, by: Color) -> bool {
        board_squares(s.variant).any(|from| match s.piece_on(from) {
            Some(p) if p.color() == by => targets(s, from, p).contains(&sq),
            _ => false,
        })
    }

    pub fn king_square(s: &Setup, color: Color) -> Option<Square> {
        board_squares(s.variant)
            .find(|&sq| s.piece_on(sq) == Some(Piece::new(color, PieceKind::King)))
    }

    pub fn in_check(s: &Setup, color: Color) -> bool {
        king_square(s, color).is_some_and(|k| attacked(s, k, color.flip()))
    }

    /// Plays `m` on a copy: capture goes to the mover's hand (unpromoted) where drops exist.
    pub fn play(s: &Setup, m: Move) -> Setup {
        let mut next = s.clone();
        let us = s.side_to_move;
        let piece = match (m.from(), m.drop_kind()) {
            (None, Some(kind)) => {
                next.hands[us.index()].remove(kind);
                Piece::new(us, kind.piece_kind())
            }
            (Some(from), _) => {
                let moving = s.board[from.index()].expect("reference: a move from an empty square");
                next.board[from.index()] = None;
                if let Some(captured) = s.board[m.to().index()] {
                    if s.variant.has_drops() {
                        let kind = captured
                            .kind()
                            .hand_kind()
                            .expect("reference: king captured");
                        next.hands[us.index()].add(kind);
                    }
                }
                if m.is_promotion() {
                    Piece::new(
                        us,
                        moving.kind().promoted().expect("reference: bad promotion"),
                    )
                } else {
                    moving
                }
            }
            (None, None) => unreachable!(),
        };
        next.board[m.to().index()] = Some(piece);
        next.side_to_move = us.flip();
        next.move_number += 1;
        next
    }

    /// Every move obeying piece movement, promotion and drop rules (nifu, dead squares), whether or
    /// not it leaves the own king attacked; uchifuzume is not looked at here.
    pub fn pseudo_legal(s: &Setup) -> Vec<Move> {
        let us = s.side_to_move;
        let v = s.variant;
        let mut out = Vec::new();
        for from in board_squares(v) {
            let Some(piece) = s.piece_on(from) else {
                continue;
            };
            if piece.color() != us {
                continue;
            }
            for to in targets(s, from, piece) {
                if s.piece_on(to).is_some_and(|p| p.color() == us) {
                    continue;
                }
                let kind = piece.kind();
                let may_promote =
                    kind.can_promote() && (in_zone(v, us, from) || in_zone(v, us, to));
                if !dead(v, us, kind, to) {
                    out.push(Move::normal(from, to, false));
                }
                if may_promote {
                    out.push(Move::normal(from, to, true));
                }
            }
        }
        if v.has_drops() {
            let hand = s.hand(us);
            for kind in HandKind::ALL {
                if hand.count(kind) == 0 {
                    continue;
                }
                for to in board_squares(v) {
                    if s.piece_on(to).is_some() || dead(v, us, kind.piece_kind(), to) {
                        continue;
                    }
                    let own_pawn = Some(Piece::new(us, PieceKind::Pawn));
                    let nifu = kind == HandKind::Pawn
                        && board_squares(v)
                            .any(|sq| sq.file() == to.file() && s.piece_on(sq) == own_pawn);
                    if !nifu {
                        out.push(Move::drop(kind, to));
                    }
                }
            }
        }
        out
    }

    /// The move (pseudo-legal in `s`) is legal: the own king is not left attacked, and a pawn drop
    /// that checks leaves the opponent a legal reply.
    pub fn is_legal(s: &Setup, m: Move) -> bool {
        let us = s.side_to_move;
        let after = play(s, m);
        if in_check(&after, us) {
            return false;
        }
        if m.drop_kind() == Some(HandKind::Pawn) && in_check(&after, us.flip()) {
            return has_legal_move(&after);
        }
        true
    }

    pub fn has_legal_move(s: &Setup) -> bool {
        let mut moves = pseudo_legal(s);
        // Pawn drops last: only they can recurse (a checking pawn drop as the only evasion).
        moves.sort_by_key(|m| m.drop_kind() == Some(HandKind::Pawn));
        moves.into_iter().any(|m| is_legal(s, m))
    }

    pub fn legal(s: &Setup) -> Vec<Move> {
        pseudo_legal(s)
            .into_iter()
            .filter(|&m| is_legal(s, m))
            .collect()
    }

    pub fn perft(s: &Setup, depth: u32) -> u64 {
        let moves = legal(s);
        if depth <= 1 {
            return if depth == 0 { 1 } else { moves.len() as u64 };
        }
        moves.iter().map(|&m| perft(&play(s, m), depth - 1)).sum()
    }
}

// ------------------------------------------------------------------------------------------------
// Helpers
// ------------------------------------------------------------------------------------------------

const PERFT_SFENS: [&str; 3] = [
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
    "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
    "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
];

fn position(sfen: &str, variant: Variant) -> Position {
    Position::from_sfen(sfen, variant).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

/// The position's setup read back from its SFEN (not from `to_setup`), so the reference sees only
/// what the text says.
fn setup_of(pos: &Position) -> Setup {
    let sfen = pos.to_sfen();
    Setup::parse(&sfen, pos.variant())
        .unwrap_or_else(|e| panic!("core wrote a bad SFEN {sfen}: {e}"))
}

fn words(moves: impl IntoIterator<Item = Move>) -> BTreeSet<u16> {
    moves.into_iter().map(Move::to_u16).collect()
}

fn describe(words: &BTreeSet<u16>) -> String {
    let names: Vec<String> = words
        .iter()
        .map(|&w| Move::from_u16(w).map_or(format!("#{w:04x}"), |m| m.to_usi()))
        .collect();
    format!("[{}]", names.join(" "))
}

fn core_legal(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate_legal(pos, &mut list);
    list
}

/// `Err` with the SFEN and the symmetric difference when the core's legal set differs from the
/// reference's.
fn compare_legal(pos: &Position) -> Result<(), String> {
    let setup = setup_of(pos);
    let core_list = core_legal(pos);
    let core = words(core_list.iter().copied());
    if core.len() != core_list.len() {
        return Err(format!(
            "{}: the core generated a move twice",
            pos.to_sfen()
        ));
    }
    let reference = words(reference::legal(&setup));
    if core == reference {
        return Ok(());
    }
    let extra: BTreeSet<u16> = core.difference(&reference).copied().collect();
    let missing: BTreeSet<u16> = reference.difference(&core).copied().collect();
    Err(format!(
        "{}\n  generated but illegal: {}\n  legal but not generated: {}",
        pos.to_sfen(),
        describe(&extra),
        describe(&missing)
    ))
}

/// Picks a move for a playout: half the time a capture or check when there is one (to reach
/// positions with pieces in hand and checks quickly), otherwise any legal move.
fn pick(pos: &Position, moves: &MoveList, rng: &mut Rng) -> Move {
    let sharp: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|&m| pos.is_capture(m) || pos.gives_check(m))
        .collect();
    if !sharp.is_empty() && rng.below(2) == 0 {
        sharp[rng.below(sharp.len())]
    } else {
        moves.as_slice()[rng.below(moves.len())]
    }
}

/// Seeded random games from the start positions (and, for shogi, the perft positions); calls
/// `visit` on every position reached. Returns how many positions were visited.
fn playouts(games_per_start: u64, max_plies: usize, mut visit: impl FnMut(&mut Position)) -> usize {
    let mut starts: Vec<(String, Variant)> = Variant::ALL
        .iter()
        .map(|&v| (v.startpos_sfen().to_string(), v))
        .collect();
    starts.extend(PERFT_SFENS.iter().map(|s| (s.to_string(), Variant::Shogi)));
    let mut visited = 0;
    for (index, (sfen, variant)) in starts.iter().enumerate() {
        for game in 0..games_per_start {
            let mut rng = Rng::new(0x5eed_0000 + 1000 * index as u64 + game);
            let mut pos = position(sfen, *variant);
            for _ in 0..max_plies {
                visit(&mut pos);
                visited += 1;
                let moves = core_legal(&pos);
                if moves.is_empty() {
                    break;
                }
                let m = pick(&pos, &moves, &mut rng);
                pos.do_move(m);
            }
        }
    }
    visited
}

// ------------------------------------------------------------------------------------------------
// The reference itself against published numbers (no core involved)
// ------------------------------------------------------------------------------------------------

#[test]
fn reference_matches_published_perft() {
    let start = Setup::startpos(Variant::Shogi);
    assert_eq!(reference::perft(&start, 1), 30);
    assert_eq!(reference::perft(&start, 2), 900);
    assert_eq!(reference::perft(&start, 3), 25_470);
    let matsuri = Setup::parse(PERFT_SFENS[0], Variant::Shogi).unwrap();
    assert_eq!(reference::perft(&matsuri, 1), 207);
    assert_eq!(reference::perft(&matsuri, 2), 28_684);
    let max = Setup::parse(PERFT_SFENS[1], Variant::Shogi).unwrap();
    assert_eq!(reference::perft(&max, 1), 593);
}

// ------------------------------------------------------------------------------------------------
// Core against reference
// ------------------------------------------------------------------------------------------------

#[test]
fn legal_sets_match_on_start_and_perft_positions() {
    for variant in Variant::ALL {
        compare_legal(&Position::startpos(variant)).unwrap();
        compare_legal(&position(variant.startpos_sfen(), variant)).unwrap();
    }
    for sfen in PERFT_SFENS {
        compare_legal(&position(sfen, Variant::Shogi)).unwrap();
    }
}

#[test]
fn legal_sets_match_on_random_playouts() {
    let mut failures = Vec::new();
    let visited = playouts(6, 80, |pos| {
        if let Err(e) = compare_legal(pos) {
            failures.push(e);
        }
    });
    assert!(visited >= 300, "only {visited} positions visited");
    assert!(
        failures.is_empty(),
        "{} of {visited} positions differ; first ones:\n{}",
        failures.len(),
        failures
            .iter()
            .take(5)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn perft_matches_reference() {
    let cases: [(&str, Variant, u32); 7] = [
        (Variant::Shogi.startpos_sfen(), Variant::Shogi, 3),
        (PERFT_SFENS[0], Variant::Shogi, 2),
        (PERFT_SFENS[1], Variant::Shogi, 2),
        (PERFT_SFENS[2], Variant::Shogi, 2),
        (Variant::Heian.startpos_sfen(), Variant::Heian, 3),
        (Variant::Heian8.startpos_sfen(), Variant::Heian8, 3),
        // A middlegame with drops for both sides and pieces in the zone.
        (
            "ln1g3nl/1r1s1k3/p1ppppbpp/6p2/1p7/2P1P4/PPBP1PPPP/3K3R1/LNSG1GSNL b S 17",
            Variant::Shogi,
            2,
        ),
    ];
    for (sfen, variant, depth) in cases {
        let mut pos = position(sfen, variant);
        let expected = reference::perft(&Setup::parse(sfen, variant).unwrap(), depth);
        assert_eq!(perft(&mut pos, depth), expected, "{sfen} depth {depth}");
    }
}

/// captures ∪ quiets (not in check) or evasions (in check), filtered by is_legal_pseudo, is the
/// legal set with nothing twice; checks are exactly the quiet legal moves that give check.
fn check_staged(pos: &Position, failures: &mut Vec<String>) {
    let setup = setup_of(pos);
    let legal = words(reference::legal(&setup));
    let mut staged = MoveList::new();
    if pos.in_check() {
        generate_evasions(pos, &mut staged);
    } else {
        generate_captures(pos, &mut staged);
        generate_quiets(pos, &mut staged);
    }
    let all: Vec<Move> = staged.iter().copied().collect();
    let kept: Vec<Move> = all
        .iter()
        .copied()
        .filter(|&m| pos.is_legal_pseudo(m))
        .collect();
    if words(all.iter().copied()).len() != all.len() || words(kept.iter().copied()) != legal {
        failures.push(format!("staged generation differs at {}", pos.to_sfen()));
    }
    if !pos.in_check() {
        // Captures hold exactly the legal captures and the pawn promotions that capture nothing.
        let mut captures = MoveList::new();
        generate_captures(pos, &mut captures);
        let expected: BTreeSet<u16> = reference::legal(&setup)
            .into_iter()
            .filter(|&m| {
                let pawn_push = m
                    .from()
                    .and_then(|from| setup.piece_on(from))
                    .is_some_and(|p| p.kind() == PieceKind::Pawn);
                (!m.is_drop() && setup.piece_on(m.to()).is_some())
                    || (pawn_push && m.is_promotion())
            })
            .map(Move::to_u16)
            .collect();
        let got: BTreeSet<u16> = captures
            .iter()
            .copied()
            .filter(|&m| pos.is_legal_pseudo(m))
            .map(Move::to_u16)
            .collect();
        if got != expected {
            failures.push(format!(
                "generate_captures at {}: extra {} missing {}",
                pos.to_sfen(),
                describe(&got.difference(&expected).copied().collect()),
                describe(&expected.difference(&got).copied().collect())
            ));
        }
        let mut quiets = MoveList::new();
        generate_quiets(pos, &mut quiets);
        let mut checks = MoveList::new();
        generate_checks(pos, &mut checks);
        let expected: BTreeSet<u16> = quiets
            .iter()
            .copied()
            .filter(|&m| {
                legal.contains(&m.to_u16())
                    && reference::in_check(&reference::play(&setup, m), setup.side_to_move.flip())
            })
            .map(Move::to_u16)
            .collect();
        let got: BTreeSet<u16> = checks
            .iter()
            .copied()
            .filter(|&m| legal.contains(&m.to_u16()))
            .map(Move::to_u16)
            .collect();
        if got != expected {
            failures.push(format!(
                "generate_checks at {}: extra {} missing {}",
                pos.to_sfen(),
                describe(&got.difference(&expected).copied().collect()),
                describe(&expected.difference(&got).copied().collect())
            ));
        }
    }
}

#[test]
fn staged_generators_match_reference() {
    let mut failures = Vec::new();
    playouts(2, 60, |pos| check_staged(pos, &mut failures));
    let mut rng = Rng::new(0x57a9_0001);
    let mut tested = 0;
    while tested < 500 {
        let variant = Variant::ALL[rng.below(3)];
        if let Ok(pos) = Position::from_setup(&random_setup(variant, &mut rng)) {
            tested += 1;
            check_staged(&pos, &mut failures);
        }
    }
    assert!(
        failures.is_empty(),
        "{}",
        failures[..failures.len().min(5)].join("\n")
    );
}

// ------------------------------------------------------------------------------------------------
// Position properties along playouts
// ------------------------------------------------------------------------------------------------

/// Everything `undo_move` must restore.
fn snapshot(pos: &Position) -> (String, u64, u64, u64, bool, usize) {
    (
        pos.to_sfen(),
        pos.key(),
        pos.board_key(),
        pos.hand_key(),
        pos.in_check(),
        pos.history_len(),
    )
}

/// Plays every legal move of `pos` and takes it back, checking the result against the reference,
/// the keys against a from-scratch position, and that undo restores everything.
fn check_do_undo(pos: &mut Position, failures: &mut Vec<String>) {
    {
        let setup = setup_of(pos);
        let before = snapshot(pos);
        for m in core_legal(pos).iter().copied() {
            pos.do_move(m);
            let sfen = pos.to_sfen();
            let expected = reference::play(&setup, m).to_sfen();
            if sfen != expected {
                failures.push(format!(
                    "{} after {m}: core {sfen}, reference {expected}",
                    before.0
                ));
            }
            let scratch = position(&sfen, pos.variant());
            if (scratch.key(), scratch.board_key(), scratch.hand_key())
                != (pos.key(), pos.board_key(), pos.hand_key())
            {
                failures.push(format!(
                    "{} after {m}: incremental key differs from scratch",
                    before.0
                ));
            }
            if pos.key() != pos.board_key() ^ pos.hand_key() {
                failures.push(format!(
                    "{} after {m}: key != board_key ^ hand_key",
                    before.0
                ));
            }
            if scratch.in_check() != pos.in_check() || scratch.checkers() != pos.checkers() {
                failures.push(format!(
                    "{} after {m}: checkers differ from scratch",
                    before.0
                ));
            }
            pos.undo_move();
            if snapshot(pos) != before {
                failures.push(format!(
                    "{}: {m} then undo gives {:?}",
                    before.0,
                    snapshot(pos)
                ));
            }
        }
    }
}

#[test]
fn do_undo_restores_and_keys_match_from_scratch() {
    let mut failures = Vec::new();
    playouts(2, 60, |pos| check_do_undo(pos, &mut failures));
    assert!(
        failures.is_empty(),
        "{}",
        failures[..failures.len().min(5)].join("\n")
    );
}

#[test]
fn sfen_round_trips_through_position() {
    let mut failures = Vec::new();
    playouts(2, 60, |pos| {
        let sfen = pos.to_sfen();
        let back = position(&sfen, pos.variant());
        if back.to_sfen() != sfen {
            failures.push(format!("{sfen} reads back as {}", back.to_sfen()));
        }
        if pos.to_setup() != setup_of(pos) {
            failures.push(format!("{sfen}: to_setup differs from the parsed SFEN"));
        }
        if back.side_to_move() != pos.side_to_move() || back.game_ply() != pos.game_ply() {
            failures.push(format!("{sfen}: side or move number lost"));
        }
    });
    assert!(
        failures.is_empty(),
        "{}",
        failures[..failures.len().min(5)].join("\n")
    );
}

/// `is_legal`, `is_pseudo_legal` and `is_legal_pseudo` never panic and agree with the generator, on
/// every legal move, on random move words (half of them well-formed board moves or drops), or on
/// every word when `exhaustive`.
fn check_is_legal(pos: &Position, rng: &mut Rng, exhaustive: bool, failures: &mut Vec<String>) {
    let legal = words(core_legal(pos).iter().copied());
    let sfen = pos.to_sfen();
    // Moves that follow piece movement, promotion and drop rules, king safety aside.
    let movement = words(reference::pseudo_legal(&setup_of(pos)));
    let mut check = |word: u16| {
        let Some(m) = Move::from_u16(word) else {
            return;
        };
        let pseudo = pos.is_pseudo_legal(m);
        let is_legal = pos.is_legal(m);
        if is_legal != legal.contains(&word) {
            failures.push(format!("{sfen}: is_legal({m}) = {is_legal}"));
        }
        if is_legal && !pseudo {
            failures.push(format!("{sfen}: {m} legal but not pseudo-legal"));
        }
        if pseudo && !movement.contains(&word) {
            failures.push(format!(
                "{sfen}: is_pseudo_legal({m}) but no piece moves like that"
            ));
        }
        if pseudo && pos.is_legal_pseudo(m) != is_legal {
            failures.push(format!("{sfen}: is_legal_pseudo({m}) disagrees"));
        }
    };
    if exhaustive {
        for word in 0..=u16::MAX {
            check(word);
        }
        return;
    }
    for &w in &legal {
        check(w);
    }
    for _ in 0..200 {
        check(rng.next() as u16);
        let to = rng.below(81) as u16;
        let src = rng.below(88) as u16;
        let promote = if src < 81 && rng.below(2) == 0 {
            1 << 15
        } else {
            0
        };
        check(to | src << 8 | promote);
    }
}

#[test]
fn is_legal_agrees_with_generator() {
    let mut failures = Vec::new();
    let mut rng = Rng::new(0x1e9a1);
    let mut count = 0usize;
    playouts(2, 60, |pos| {
        count += 1;
        check_is_legal(pos, &mut rng, count.is_multiple_of(8), &mut failures);
    });
    let mut tested = 0;
    while tested < 500 {
        let variant = Variant::ALL[rng.below(3)];
        if let Ok(pos) = Position::from_setup(&random_setup(variant, &mut rng)) {
            tested += 1;
            check_is_legal(&pos, &mut rng, tested % 50 == 0, &mut failures);
        }
    }
    assert!(
        failures.is_empty(),
        "{}",
        failures[..failures.len().min(5)].join("\n")
    );
}

// ------------------------------------------------------------------------------------------------
// Random setups: denser in checks, pins, drops and pawn-drop mates than playouts from the opening
// ------------------------------------------------------------------------------------------------

/// How many of `kind` a full set of `variant` has (Heian 8x8: eight pawns and one gold a side).
fn set_count(variant: Variant, kind: HandKind) -> usize {
    match (variant, kind) {
        (Variant::Heian | Variant::Heian8, HandKind::Rook | HandKind::Bishop) => 0,
        (Variant::Heian8, HandKind::Pawn) => 16,
        (Variant::Heian8, HandKind::Gold) => 2,
        _ => kind.total_count() as usize,
    }
}

/// A random physically possible setup, usually with both kings (mate-problem positions without one
/// or both come up too); half of them crowd the pieces around the king of the side not to move
/// (checks, pins, interpositions), and in shogi the side to move always holds a pawn (pawn-drop
/// mates). May leave the side not to move in check;
/// `Position::from_setup` rejects those and the caller skips them.
fn random_setup(variant: Variant, rng: &mut Rng) -> Setup {
    let mut s = Setup::empty(variant);
    let us = if rng.below(2) == 0 {
        Color::White
    } else {
        Color::Black
    };
    s.side_to_move = us;
    let squares: Vec<Square> = Square::all().filter(|&q| variant.contains(q)).collect();
    // Without its king the crowd still gathers around this square.
    let target_king = squares[rng.below(squares.len())];
    if rng.below(10) != 0 {
        s.board[target_king.index()] = Some(Piece::new(us.flip(), PieceKind::King));
    }
    if variant.has_drops() {
        s.hands[us.index()].add(HandKind::Pawn);
    }
    let crowd = rng.below(2) == 0;
    let free_square = |s: &Setup, rng: &mut Rng| -> Option<Square> {
        for _ in 0..20 {
            let q = if crowd {
                let df = rng.below(5) as i32 - 2;
                let dr = rng.below(5) as i32 - 2;
                let (f, r) = (
                    target_king.file() as i32 + df,
                    target_king.rank() as i32 + dr,
                );
                match Square::try_new(f, r) {
                    Some(q) if variant.contains(q) => q,
                    _ => continue,
                }
            } else {
                squares[rng.below(squares.len())]
            };
            if s.board[q.index()].is_none() {
                return Some(q);
            }
        }
        None
    };
    // The mover's king anywhere free.
    while rng.below(8) != 0 {
        let q = squares[rng.below(squares.len())];
        if s.board[q.index()].is_none() {
            s.board[q.index()] = Some(Piece::new(us, PieceKind::King));
            break;
        }
    }
    let keep = 1 + rng.below(3); // out of 4: how many pieces enter the game
    for kind in HandKind::ALL {
        let reserved = usize::from(variant.has_drops() && kind == HandKind::Pawn);
        for _ in reserved..set_count(variant, kind) {
            if rng.below(4) >= keep {
                continue;
            }
            let color = if rng.below(2) == 0 {
                Color::Black
            } else {
                Color::White
            };
            if variant.has_drops() && rng.below(3) == 0 {
                s.hands[color.index()].add(kind);
                continue;
            }
            let base = kind.piece_kind();
            let kind_on_board = match base.promoted() {
                Some(p) if rng.below(4) == 0 => p,
                _ => base,
            };
            let piece = Piece::new(color, kind_on_board);
            let Some(q) = free_square(&s, rng) else {
                continue;
            };
            let dead = variant.dead_squares(color, kind_on_board).contains(q);
            let own_pawn = Some(Piece::new(color, PieceKind::Pawn));
            let nifu = kind_on_board == PieceKind::Pawn
                && squares
                    .iter()
                    .any(|o| o.file() == q.file() && s.board[o.index()] == own_pawn);
            if !dead && !nifu {
                s.board[q.index()] = Some(piece);
            } else if variant.has_drops() {
                s.hands[color.index()].add(kind);
            }
        }
    }
    s
}

#[test]
fn legal_sets_match_on_random_setups() {
    let mut rng = Rng::new(0x5e7_0009);
    let mut failures = Vec::new();
    let mut tested = 0;
    while tested < 4000 {
        let variant = Variant::ALL[rng.below(3)];
        let mut setup = random_setup(variant, &mut rng);
        // The generator itself must only produce what the parser accepts.
        let sfen = setup.to_sfen();
        assert_eq!(Setup::parse(&sfen, variant).as_ref(), Ok(&setup), "{sfen}");
        let pos = match Position::from_setup(&setup) {
            Ok(pos) => pos,
            // The side not to move is in check: let it move instead (unless both are).
            Err(_) => {
                setup.side_to_move = setup.side_to_move.flip();
                match Position::from_setup(&setup) {
                    Ok(pos) => pos,
                    Err(_) => continue,
                }
            }
        };
        tested += 1;
        if let Err(e) = compare_legal(&pos) {
            failures.push(e);
        }
        if tested % 4 == 0 {
            let mut pos = pos;
            check_do_undo(&mut pos, &mut failures);
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {tested} random setups differ; first ones:\n{}",
        failures.len(),
        failures[..failures.len().min(5)].join("\n")
    );
}

// ------------------------------------------------------------------------------------------------
// Position queries against the reference
// ------------------------------------------------------------------------------------------------

/// The squares of `color`'s pieces that are pinned against `color`'s king: removing the piece lets
/// some enemy piece attack the king that did not before.
fn reference_pinned(s: &Setup, color: Color) -> BTreeSet<Square> {
    let mut pinned = BTreeSet::new();
    let Some(king) = reference::king_square(s, color) else {
        return pinned;
    };
    let attackers = |s: &Setup| -> BTreeSet<Square> {
        Square::all()
            .filter(|&q| s.variant.contains(q))
            .filter(|&q| {
                s.piece_on(q).is_some_and(|p| p.color() != color) && reference::attacks(s, q, king)
            })
            .collect()
    };
    let before = attackers(s);
    for q in Square::all() {
        if q == king || s.piece_on(q).is_none_or(|p| p.color() != color) {
            continue;
        }
        let mut without = s.clone();
        without.board[q.index()] = None;
        if !attackers(&without).is_subset(&before) {
            pinned.insert(q);
        }
    }
    pinned
}

fn squares_of(bb: tokin::core::Bitboard) -> BTreeSet<Square> {
    bb.iter().collect()
}

fn check_queries(pos: &Position, failures: &mut Vec<String>) {
    let s = setup_of(pos);
    let sfen = pos.to_sfen();
    let us = s.side_to_move;
    let mut fail = |what: String| failures.push(format!("{sfen}: {what}"));
    for color in Color::ALL {
        if pos.king_square(color) != reference::king_square(&s, color) {
            fail(format!("king_square({color:?})"));
        }
        for q in Square::all().filter(|&q| s.variant.contains(q)) {
            if pos.is_attacked(color, q) != reference::attacked(&s, q, color) {
                fail(format!("is_attacked({color:?}, {q})"));
            }
        }
        let pinned = squares_of(pos.pinned(color));
        let expected = reference_pinned(&s, color);
        if pinned != expected {
            fail(format!(
                "pinned({color:?}) = {pinned:?}, expected {expected:?}"
            ));
        }
    }
    if let Some(king) = reference::king_square(&s, us) {
        let checkers: BTreeSet<Square> = Square::all()
            .filter(|&q| {
                s.piece_on(q).is_some_and(|p| p.color() != us) && reference::attacks(&s, q, king)
            })
            .collect();
        if squares_of(pos.checkers()) != checkers {
            fail(format!(
                "checkers {:?}, expected {checkers:?}",
                pos.checkers()
            ));
        }
    }
    for m in reference::legal(&s) {
        let after = reference::play(&s, m);
        if pos.gives_check(m) != reference::in_check(&after, us.flip()) {
            fail(format!("gives_check({m})"));
        }
        let moved = match (m.from(), m.drop_kind()) {
            (Some(from), _) => s.piece_on(from),
            (None, Some(kind)) => Some(Piece::new(us, kind.piece_kind())),
            (None, None) => None,
        };
        if Some(pos.moved_piece(m)) != moved {
            fail(format!("moved_piece({m})"));
        }
        let captured = if m.is_drop() {
            None
        } else {
            s.piece_on(m.to())
        };
        if pos.captured_piece(m) != captured || pos.is_capture(m) != captured.is_some() {
            fail(format!("captured_piece/is_capture({m})"));
        }
        if pos.parse_usi_move(&m.to_usi()) != Ok(m) {
            fail(format!("parse_usi_move({m})"));
        }
    }
}

#[test]
fn position_queries_match_reference() {
    let mut failures = Vec::new();
    let visited = playouts(1, 50, |pos| check_queries(pos, &mut failures));
    let mut rng = Rng::new(0x9e7_0001);
    let mut tested = 0;
    while tested < 300 {
        let variant = Variant::ALL[rng.below(3)];
        if let Ok(pos) = Position::from_setup(&random_setup(variant, &mut rng)) {
            tested += 1;
            check_queries(&pos, &mut failures);
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures over {} positions; first ones:\n{}",
        failures.len(),
        visited + tested,
        failures[..failures.len().min(8)].join("\n")
    );
}

// ------------------------------------------------------------------------------------------------
// Repetition and sennichite against a reference over the game's history
// ------------------------------------------------------------------------------------------------

/// What the history reference keeps of each position of a game.
struct Seen {
    /// Board and side to move (the SFEN without hands and move number).
    board: String,
    hands: [tokin::core::Hand; 2],
    side: Color,
    /// The side to move is in check: the move into this position gave check.
    in_check: bool,
}

fn seen(pos: &Position) -> Seen {
    let s = setup_of(pos);
    let sfen = s.to_sfen();
    let mut fields = sfen.split(' ');
    let board = format!(
        "{} {}",
        fields.next().unwrap_or_default(),
        fields.next().unwrap_or_default()
    );
    Seen {
        board,
        hands: s.hands,
        side: s.side_to_move,
        in_check: reference::in_check(&s, s.side_to_move),
    }
}

/// Over the last `d` plies before position `n`: did the side that moved into `n` give check with
/// every one of its moves, and did the other side?
fn checked_all(hist: &[Seen], n: usize, d: usize) -> (bool, bool) {
    let them = (0..d / 2).all(|j| hist[n - 2 * j].in_check);
    let us = (0..d / 2).all(|j| hist[n - 1 - 2 * j].in_check);
    (them, us)
}

/// `floor`: the index of the first position after the last null move (search never looks back
/// across one); 0 without null moves.
fn reference_repetition(hist: &[Seen], floor: usize) -> Repetition {
    let n = hist.len() - 1;
    let now = &hist[n];
    let us = now.side.index();
    for d in (4..=n - floor).step_by(2) {
        let then = &hist[n - d];
        if then.board != now.board {
            continue;
        }
        if then.hands == now.hands {
            return match checked_all(hist, n, d) {
                (true, _) => Repetition::Win,
                (false, true) => Repetition::Loss,
                (false, false) => Repetition::Draw,
            };
        }
        if now.hands[us].is_superior_or_equal(then.hands[us]) {
            return Repetition::Superior;
        }
        if then.hands[us].is_superior_or_equal(now.hands[us]) {
            return Repetition::Inferior;
        }
    }
    Repetition::None
}

fn reference_sennichite(hist: &[Seen]) -> Option<GameResult> {
    let n = hist.len() - 1;
    let now = &hist[n];
    let mut occurrences = 1;
    for d in (4..=n).step_by(2) {
        let then = &hist[n - d];
        if then.board == now.board && then.hands == now.hands {
            occurrences += 1;
            if occurrences == 4 {
                return Some(match checked_all(hist, n, d) {
                    (true, _) => GameResult::Win(now.side),
                    (false, true) => GameResult::Win(now.side.flip()),
                    (false, false) => GameResult::Draw,
                });
            }
        }
    }
    None
}

/// A playout move that makes repetitions likely: mostly take back this side's previous move; the
/// checking side mostly gives check (taking back with check when it can).
fn choose_move(pos: &Position, played: &[Move], checker: Color, rng: &mut Rng) -> Option<Move> {
    let moves = core_legal(pos);
    if moves.is_empty() {
        return None;
    }
    // Mostly take back this side's previous move (the way positions repeat), else a check
    // for the checking side, else anything.
    let back = played
        .len()
        .checked_sub(2)
        .map(|i| played[i])
        .and_then(|m| m.from().map(|from| Move::normal(m.to(), from, false)))
        .filter(|m| moves.contains(*m));
    let checks: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|&m| pos.gives_check(m))
        .collect();
    let m = if pos.side_to_move() == checker && !checks.is_empty() && rng.below(10) < 8 {
        match back {
            Some(m) if checks.contains(&m) => m,
            _ => checks[rng.below(checks.len())],
        }
    } else {
        match back {
            Some(m) if rng.below(10) < 7 => m,
            _ => moves.as_slice()[rng.below(moves.len())],
        }
    };
    Some(m)
}

/// What search does between two game moves: a null move (when not in check) and a few moves,
/// comparing `repetition` with the reference (which may not look back across the null move) at
/// each step, then everything taken back; the position, key and answers must be as before.
fn excursion(
    pos: &mut Position,
    hist: &mut Vec<Seen>,
    played: &mut Vec<Move>,
    checker: Color,
    rng: &mut Rng,
    failures: &mut Vec<String>,
) {
    let before = (pos.to_sfen(), pos.key(), pos.repetition(), pos.sennichite());
    let null = !pos.in_check() && rng.below(2) == 0;
    let mut floor = 0;
    if null {
        pos.do_null_move();
        hist.push(seen(pos));
        floor = hist.len() - 1;
    }
    let mut depth = 0;
    for _ in 0..rng.below(7) {
        let Some(m) = choose_move(pos, played, checker, rng) else {
            break;
        };
        pos.do_move(m);
        played.push(m);
        hist.push(seen(pos));
        depth += 1;
        let (rep, expected) = (pos.repetition(), reference_repetition(hist, floor));
        if rep != expected {
            failures.push(format!(
                "{} ({} plies into an excursion, null move {null}): repetition {rep:?}, \
                 reference {expected:?}",
                pos.to_sfen(),
                depth
            ));
        }
    }
    for _ in 0..depth {
        pos.undo_move();
        played.pop();
        hist.pop();
    }
    if null {
        pos.undo_null_move();
        hist.pop();
    }
    let after = (pos.to_sfen(), pos.key(), pos.repetition(), pos.sennichite());
    if after != before {
        failures.push(format!("excursion not undone: {before:?} became {after:?}"));
    }
}

#[test]
fn repetition_and_sennichite_match_reference() {
    let mut rng = Rng::new(0x5e11_1c41);
    let mut failures = Vec::new();
    let (mut repeats, mut endings, mut perpetual) = (0, 0, 0);
    for game in 0..400 {
        let variant = Variant::ALL[game % 3];
        let mut pos = if game % 2 == 0 {
            Position::startpos(variant)
        } else {
            loop {
                if let Ok(p) = Position::from_setup(&random_setup(variant, &mut rng)) {
                    break p;
                }
            }
        };
        // One side prefers checking moves, so perpetual checks come up.
        let checker = pos.side_to_move();
        let mut hist = vec![seen(&pos)];
        let mut played: Vec<Move> = Vec::new();
        for _ in 0..80 {
            let sfen = pos.to_sfen();
            let (rep, senn) = (pos.repetition(), pos.sennichite());
            let (ref_rep, ref_senn) = (reference_repetition(&hist, 0), reference_sennichite(&hist));
            if rep != ref_rep || senn != ref_senn {
                failures.push(format!(
                    "{sfen} after {}: repetition {rep:?} (reference {ref_rep:?}), sennichite \
                     {senn:?} (reference {ref_senn:?})",
                    played
                        .iter()
                        .map(|m| m.to_usi())
                        .collect::<Vec<_>>()
                        .join(" ")
                ));
                break;
            }
            repeats += usize::from(rep != Repetition::None);
            if let Some(result) = senn {
                endings += 1;
                perpetual += usize::from(result != GameResult::Draw);
                break;
            }
            if rng.below(4) == 0 {
                excursion(
                    &mut pos,
                    &mut hist,
                    &mut played,
                    checker,
                    &mut rng,
                    &mut failures,
                );
            }
            let Some(m) = choose_move(&pos, &played, checker, &mut rng) else {
                break;
            };
            pos.do_move(m);
            played.push(m);
            hist.push(seen(&pos));
        }
    }
    assert!(
        failures.is_empty(),
        "{}",
        failures[..failures.len().min(5)].join("\n")
    );
    assert!(
        repeats > 50 && endings > 5 && perpetual > 0,
        "too few repetitions to mean much: {repeats} repeated positions, {endings} sennichite, \
         {perpetual} by perpetual check"
    );
    eprintln!(
        "{repeats} repeated positions, {endings} sennichite ({perpetual} by perpetual check)"
    );
}

// ------------------------------------------------------------------------------------------------
// Entering-king declaration against a reference count
// ------------------------------------------------------------------------------------------------

/// The declaration conditions counted by hand: side to move's king in its zone (the three far
/// ranks), not in check, at least ten other own pieces in the zone, and enough points (rook and
/// bishop, promoted or not, 5, the rest 1; zone pieces plus hand): 28 for Black and 27 for White
/// under the 27-point rule, 31 under the 24-point rule.
fn reference_can_declare(s: &Setup, rule: EnteringKingRule) -> bool {
    let us = s.side_to_move;
    let needed = match (rule, us) {
        (EnteringKingRule::None, _) => return false,
        (EnteringKingRule::Csa27, Color::Black) => 28,
        (EnteringKingRule::Csa27, Color::White) => 27,
        (EnteringKingRule::Csa24, _) => 31,
    };
    if !s.variant.has_declaration() || reference::in_check(s, us) {
        return false;
    }
    let in_zone = |q: Square| match us {
        Color::Black => q.rank() < 3,
        Color::White => q.rank() + 3 >= s.variant.ranks(),
    };
    let Some(king) = reference::king_square(s, us) else {
        return false;
    };
    if !in_zone(king) {
        return false;
    }
    let big = |kind: PieceKind| matches!(kind.unpromoted(), PieceKind::Rook | PieceKind::Bishop);
    let mut pieces = 0;
    let mut points = 0;
    for q in Square::all().filter(|&q| s.variant.contains(q) && in_zone(q) && q != king) {
        if let Some(p) = s.piece_on(q).filter(|p| p.color() == us) {
            pieces += 1;
            points += if big(p.kind()) { 5 } else { 1 };
        }
    }
    for kind in HandKind::ALL {
        let n = s.hand(us).count(kind);
        points += n * if big(kind.piece_kind()) { 5 } else { 1 };
    }
    pieces >= 10 && points >= needed
}

#[test]
fn declaration_matches_reference() {
    let mut rng = Rng::new(0xdec1_a4e0);
    let mut outcomes = [[0usize; 2]; 3];
    let mut failures = Vec::new();
    let mut tested = 0;
    while tested < 3000 {
        let us = if rng.below(2) == 0 {
            Color::Black
        } else {
            Color::White
        };
        let mut s = Setup::empty(Variant::Shogi);
        s.side_to_move = us;
        let zone: Vec<Square> = Square::all()
            .filter(|q| match us {
                Color::Black => q.rank() < 3,
                Color::White => q.rank() > 5,
            })
            .collect();
        let king = if rng.below(8) == 0 {
            Square::new(rng.below(9) as u8, 3 + rng.below(3) as u8)
        } else {
            zone[rng.below(zone.len())]
        };
        s.board[king.index()] = Some(Piece::new(us, PieceKind::King));
        let their_king = Square::new(rng.below(9) as u8, 3 + rng.below(3) as u8);
        if their_king != king {
            s.board[their_king.index()] = Some(Piece::new(us.flip(), PieceKind::King));
        }
        for kind in HandKind::ALL {
            for _ in 0..kind.total_count() {
                let roll = rng.below(20);
                if roll < 11 {
                    let q = zone[rng.below(zone.len())];
                    let base = kind.piece_kind();
                    let kind_on_board = match base.promoted() {
                        Some(p) if rng.below(2) == 0 => p,
                        _ => base,
                    };
                    let own_pawn = Some(Piece::new(us, PieceKind::Pawn));
                    let nifu = kind_on_board == PieceKind::Pawn
                        && Square::all()
                            .any(|o| o.file() == q.file() && s.board[o.index()] == own_pawn);
                    let dead = Variant::Shogi.dead_squares(us, kind_on_board).contains(q);
                    if s.board[q.index()].is_none() && !nifu && !dead {
                        s.board[q.index()] = Some(Piece::new(us, kind_on_board));
                    } else {
                        s.hands[us.index()].add(kind);
                    }
                } else if roll < 15 {
                    s.hands[us.index()].add(kind);
                } else if roll < 16 {
                    // Now and then an enemy piece next to the king, which may give check.
                    let q = Square::try_new(
                        king.file() as i32 + rng.below(3) as i32 - 1,
                        king.rank() as i32 + rng.below(3) as i32 - 1,
                    );
                    match q {
                        Some(q)
                            if s.board[q.index()].is_none()
                                && !Variant::Shogi
                                    .dead_squares(us.flip(), kind.piece_kind())
                                    .contains(q)
                                && kind != HandKind::Pawn =>
                        {
                            s.board[q.index()] = Some(Piece::new(us.flip(), kind.piece_kind()));
                        }
                        _ => s.hands[us.flip().index()].add(kind),
                    }
                } else {
                    s.hands[us.flip().index()].add(kind);
                }
            }
        }
        let Ok(pos) = Position::from_setup(&s) else {
            continue;
        };
        tested += 1;
        for (i, rule) in [
            EnteringKingRule::None,
            EnteringKingRule::Csa24,
            EnteringKingRule::Csa27,
        ]
        .into_iter()
        .enumerate()
        {
            let expected = reference_can_declare(&s, rule);
            outcomes[i][usize::from(expected)] += 1;
            if pos.can_declare(rule) != expected {
                failures.push(format!(
                    "{}: can_declare({rule:?}) should be {expected}",
                    s.to_sfen()
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{}",
        failures[..failures.len().min(5)].join("\n")
    );
    // Both answers must come up under both point rules for the comparison to mean anything.
    assert!(
        outcomes[1][0] > 100
            && outcomes[1][1] > 100
            && outcomes[2][0] > 100
            && outcomes[2][1] > 100,
        "{outcomes:?}"
    );
}

// ------------------------------------------------------------------------------------------------
// Pawn-drop mate hunting: setups built around the square in front of the enemy king
// ------------------------------------------------------------------------------------------------

/// Draws a random piece kind still available in `left` (counts per hand kind of the full set).
fn draw_kind(left: &mut [usize; 7], rng: &mut Rng) -> Option<HandKind> {
    let total: usize = left.iter().sum();
    if total == 0 {
        return None;
    }
    let mut pick = rng.below(total);
    for kind in HandKind::ALL {
        if pick < left[kind.index()] {
            left[kind.index()] -= 1;
            return Some(kind);
        }
        pick -= left[kind.index()];
    }
    None
}

/// A shogi setup where the side to move holds a pawn and the enemy king is hemmed in by its own
/// pieces and watched by the mover's, so that pawn drops in front of it often check and sometimes
/// mate (legal or not depends on every escape and capture: uchifuzume).
fn drop_mate_setup(rng: &mut Rng) -> Setup {
    let mut s = Setup::empty(Variant::Shogi);
    let us = if rng.below(2) == 0 {
        Color::Black
    } else {
        Color::White
    };
    let them = us.flip();
    s.side_to_move = us;
    let mut left = [0usize; 7];
    for kind in HandKind::ALL {
        left[kind.index()] = kind.total_count() as usize;
    }
    left[HandKind::Pawn.index()] -= 1;
    s.hands[us.index()].add(HandKind::Pawn);
    // The enemy king with room for a pawn in front of it (toward us).
    let forward: i32 = if them == Color::Black { -1 } else { 1 };
    let ksq = loop {
        let q = Square::new(rng.below(9) as u8, rng.below(9) as u8);
        if Square::try_new(q.file() as i32, q.rank() as i32 + forward).is_some() {
            break q;
        }
    };
    s.board[ksq.index()] = Some(Piece::new(them, PieceKind::King));
    let near = |rng: &mut Rng, radius: i32| {
        Square::try_new(
            ksq.file() as i32 + rng.below(2 * radius as usize + 1) as i32 - radius,
            ksq.rank() as i32 + rng.below(2 * radius as usize + 1) as i32 - radius,
        )
    };
    let place = |s: &mut Setup, q: Square, color: Color, kind: HandKind, promote: bool| {
        let base = kind.piece_kind();
        let k = match base.promoted() {
            Some(p) if promote => p,
            _ => base,
        };
        let own_pawn = Some(Piece::new(color, PieceKind::Pawn));
        let nifu = k == PieceKind::Pawn
            && Square::all().any(|o| o.file() == q.file() && s.board[o.index()] == own_pawn);
        if s.board[q.index()].is_none()
            && !nifu
            && !Variant::Shogi.dead_squares(color, k).contains(q)
        {
            s.board[q.index()] = Some(Piece::new(color, k));
        } else {
            s.hands[color.index()].add(kind);
        }
    };
    // The pawn's square, then the king's other neighbours: mostly its own pieces; the empty ones,
    // and the pawn's square, mostly watched by one of ours.
    let pawn_square = Square::new(ksq.file(), (ksq.rank() as i32 + forward) as u8);
    let mut watch: Vec<Square> = vec![pawn_square];
    for df in -1..=1 {
        for dr in -1..=1 {
            let Some(q) = Square::try_new(ksq.file() as i32 + df, ksq.rank() as i32 + dr) else {
                continue;
            };
            if q == ksq || q == pawn_square {
                continue;
            }
            if rng.below(10) < 6 {
                if let Some(kind) = draw_kind(&mut left, rng) {
                    place(&mut s, q, them, kind, rng.below(3) == 0);
                }
            } else {
                watch.push(q);
            }
        }
    }
    for target in watch {
        if rng.below(10) >= 8 {
            continue;
        }
        let Some(kind) = draw_kind(&mut left, rng) else {
            break;
        };
        let promote = rng.below(3) == 0;
        // Try squares near the king until the piece placed there attacks the target.
        let mut placed = false;
        for _ in 0..40 {
            let Some(q) = near(rng, 3) else {
                continue;
            };
            if s.board[q.index()].is_some() {
                continue;
            }
            let mut trial = s.clone();
            place(&mut trial, q, us, kind, promote);
            if trial.board[q.index()].is_some() && reference::attacks(&trial, q, target) {
                s = trial;
                placed = true;
                break;
            }
        }
        if !placed {
            s.hands[us.index()].add(kind);
        }
    }
    // Sometimes a defender of theirs nearby that may be able to take the pawn.
    for _ in 0..rng.below(2) {
        if let (Some(q), Some(kind)) = (near(rng, 2), draw_kind(&mut left, rng)) {
            place(&mut s, q, them, kind, rng.below(3) == 0);
        }
    }
    // Our king somewhere free (sometimes none: a mate problem).
    if rng.below(6) != 0 {
        loop {
            let q = Square::new(rng.below(9) as u8, rng.below(9) as u8);
            if s.board[q.index()].is_none() {
                s.board[q.index()] = Some(Piece::new(us, PieceKind::King));
                break;
            }
        }
    }
    // The rest of the set goes to random hands or leaves the game.
    while let Some(kind) = draw_kind(&mut left, rng) {
        match rng.below(4) {
            0 => s.hands[us.index()].add(kind),
            1 => s.hands[them.index()].add(kind),
            _ => {}
        }
    }
    s
}

#[test]
fn uchifuzume_matches_reference_on_drop_mate_setups() {
    let mut rng = Rng::new(0x0c41_f02e);
    let mut failures = Vec::new();
    let (mut tested, mut drop_mates, mut drop_checks) = (0, 0, 0);
    while tested < 1500 {
        let s = drop_mate_setup(&mut rng);
        let Ok(pos) = Position::from_setup(&s) else {
            continue;
        };
        tested += 1;
        let us = s.side_to_move;
        for m in reference::pseudo_legal(&s) {
            if m.drop_kind() != Some(HandKind::Pawn) {
                continue;
            }
            let after = reference::play(&s, m);
            if reference::in_check(&after, us) || !reference::in_check(&after, us.flip()) {
                continue;
            }
            drop_checks += 1;
            drop_mates += usize::from(!reference::has_legal_move(&after));
        }
        if let Err(e) = compare_legal(&pos) {
            failures.push(e);
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {tested} setups differ; first ones:\n{}",
        failures.len(),
        failures[..failures.len().min(5)].join("\n")
    );
    assert!(
        drop_mates >= 20,
        "only {drop_mates} pawn-drop mates among {drop_checks} pawn-drop checks"
    );
    eprintln!(
        "{drop_mates} pawn-drop mates among {drop_checks} pawn-drop checks in {tested} setups"
    );
}
