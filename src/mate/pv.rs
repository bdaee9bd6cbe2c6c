//! Reading the solution out of the table, and checking it against the rules.
//!
//! After the root is proven the line is walked from the root: the attacker plays its shortest
//! proven check, the defender its longest-resisting reply among those the table proves mated. A
//! position the table no longer holds (overwritten) is solved again on the spot. Tsume convention on
//! useless interpositions (無駄合): a drop between the king and the checking piece that the attacker
//! simply captures, and that lengthens the mate by no more than the two plies of drop and capture,
//! is not chosen as the main line when the defender has another reply.

use super::dfpn::{path_step, Search, MAX_PLY, ROOT_PATH_KEY};
use super::moves::{generate_attacks, generate_defences};
use crate::core::{Move, MoveList, Position};

/// What the defender does at a node of the main line.
enum Defence {
    Mated,
    Reply(Move),
    /// The table and a re-search could not show every reply mated (limits hit, or a cycle).
    Unknown,
}

/// The main line from the (proven) current position, or `None` when it cannot be read.
pub(crate) fn principal_variation(search: &mut Search) -> Option<Vec<Move>> {
    let attacker = search.attacker();
    let mut pv = Vec::new();
    // Full keys of the positions before the current one along the line.
    let mut keys: Vec<u64> = Vec::new();
    let mut path_key = ROOT_PATH_KEY;
    let found = loop {
        // Not stopped by `search.aborted`: a line the table already holds is read even when the
        // limits ran out as the proof completed; only re-searches are cut short.
        if pv.len() >= 2 * MAX_PLY as usize {
            break false;
        }
        let mv = if search.pos.side_to_move() == attacker {
            match best_attack(search, &keys, path_key) {
                Some(m) => m,
                None => break false,
            }
        } else {
            match best_defence(search, &keys, path_key) {
                Defence::Mated => break true,
                Defence::Reply(m) => m,
                Defence::Unknown => break false,
            }
        };
        keys.push(search.pos.key());
        search.pos.do_move(mv);
        pv.push(mv);
        path_key = path_step(path_key, mv);
        if keys.contains(&search.pos.key()) {
            break false;
        }
    };
    for _ in 0..pv.len() {
        search.pos.undo_move();
    }
    found.then_some(pv)
}

/// Mate length of the current position (defender to move) when the table proves it or it is
/// mate already; positions on `keys` (the line so far) are refused so the line cannot cycle.
fn proven_length(search: &mut Search, keys: &[u64], scratch: &mut MoveList) -> Option<u16> {
    if keys.contains(&search.pos.key()) {
        return None;
    }
    generate_defences(&search.pos, scratch);
    if scratch.is_empty() {
        return Some(0);
    }
    search
        .probe_here()
        .and_then(|p| (p.pn == 0).then_some(p.len))
}

/// The attacker's shortest proven check at the current position.
fn best_attack(search: &mut Search, keys: &[u64], path_key: u64) -> Option<Move> {
    let mut checks = MoveList::new();
    let mut scratch = MoveList::new();
    generate_attacks(&search.pos, &mut checks);
    for attempt in 0..2 {
        let mut best: Option<(u16, Move)> = None;
        for &m in checks.iter() {
            search.pos.do_move(m);
            let len = proven_length(search, keys, &mut scratch);
            search.pos.undo_move();
            if let Some(len) = len {
                if best.is_none_or(|(b, _)| len < b) {
                    best = Some((len, m));
                }
            }
        }
        if let Some((_, m)) = best {
            return Some(m);
        }
        if attempt == 0 {
            let v = search.search_from(keys, path_key);
            if v.pn != 0 {
                return None;
            }
        }
    }
    None
}

/// The defender's reply on the main line: every reply must be proven mated; the longest mate wins,
/// useless interpositions aside.
fn best_defence(search: &mut Search, keys: &[u64], path_key: u64) -> Defence {
    let mut defences = MoveList::new();
    let mut scratch = MoveList::new();
    generate_defences(&search.pos, &mut defences);
    if defences.is_empty() {
        return Defence::Mated;
    }
    let mut here = keys.to_vec();
    here.push(search.pos.key());
    // (mate length after the reply, reply, is a captured drop interposition)
    let mut options: Vec<(u16, Move, bool)> = Vec::with_capacity(defences.len());
    for &m in defences.iter() {
        search.pos.do_move(m);
        let child_path = path_step(path_key, m);
        let mut len = proven_length(search, &here, &mut scratch);
        if len.is_none() && !here.contains(&search.pos.key()) {
            search.search_from(&here, child_path);
            len = proven_length(search, &here, &mut scratch);
        }
        let Some(len) = len else {
            search.pos.undo_move();
            return Defence::Unknown;
        };
        let captured_at_once = m.is_drop()
            && best_attack(search, &here, child_path).is_some_and(|reply| reply.to() == m.to());
        search.pos.undo_move();
        options.push((len, m, captured_at_once));
    }
    match main_line_reply(&options) {
        Some((_, m)) => Defence::Reply(m),
        None => Defence::Unknown,
    }
}

/// The defender's reply for the main line among `(plies to mate after it, reply, is a drop the
/// attacker captures at once)`: the longest resistance, except that such a captured drop which
/// lengthens the mate by no more than its two plies is a useless interposition (無駄合) and is
/// passed over when another reply exists. Among equal lengths a reply that is not a drop wins.
pub(crate) fn main_line_reply(options: &[(u16, Move, bool)]) -> Option<(u16, Move)> {
    let longest_other = options.iter().filter(|o| !o.2).map(|o| o.0).max();
    options
        .iter()
        .filter(|o| longest_other.is_none_or(|r| !(o.2 && o.0 <= r.saturating_add(2))))
        .max_by_key(|o| (o.0, !o.1.is_drop()))
        .map(|o| (o.0, o.1))
}

/// Whether `pv`, played from `pos`, is a checkmate line by the side to move: an odd number of
/// legal moves, every move of the side to move gives check, and after the last one the other side
/// is in check with no legal move. Checked with the rules core only, independent of the solver.
pub fn is_mating_line(pos: &Position, pv: &[Move]) -> bool {
    if pv.len().is_multiple_of(2) {
        return false;
    }
    let mut p = pos.clone();
    for (i, &m) in pv.iter().enumerate() {
        if !p.is_legal(m) {
            return false;
        }
        p.do_move(m);
        if i % 2 == 0 && !p.in_check() {
            return false;
        }
    }
    let mut replies = MoveList::new();
    generate_defences(&p, &mut replies);
    p.in_check() && replies.is_empty()
}
