//! Shortening pass: the exact shortest mate with the longest resistance, by a bounded AND/OR
//! minimax run after df-pn has proven the root.
//!
//! df-pn proves a mate but not the shortest one: it stops at the first proof it completes. Tsume
//! answers are the shortest mate, the defender resisting longest. Given df-pn's line of length `L`,
//! this pass deepens over odd depths `1, 3, .., L` and returns the first line it completes:
//! - OR: the shortest mate among all checks; once one of length `l` is known, the remaining checks
//!   are searched only for mates shorter than `l` (a cutoff, as in alpha-beta);
//! - AND: every reply must be mated within the depth; the value is the longest, except that a drop
//!   interposition the attacker captures at once and which lengthens the mate by no more than those
//!   two plies is not counted when the defender has another reply (useless interposition, 無駄合).
//!
//! The df-pn table prunes it: a child the table disproves (a path-independent disproof) is never
//! searched. Results are memoised per position as "mate in exactly n" or "no mate within d". The
//! pass has a node budget; when it runs out, df-pn's own line stands.

use std::collections::HashMap;

use super::dfpn::Search;
use super::moves::{generate_attacks, generate_defences};
use super::pv::main_line_reply;
use crate::core::{Move, MoveList};

#[derive(Clone, Copy)]
enum Memo {
    /// Exact value: the mate length in plies from this node and the move that achieves it.
    Mate(u16, Option<Move>),
    /// No mate within this many plies.
    NoneWithin(u16),
}

pub(crate) struct Shortener<'s, 'a> {
    search: &'s mut Search<'a>,
    memo: HashMap<u64, Memo>,
    node_limit: u64,
    exhausted: bool,
}

impl<'s, 'a> Shortener<'s, 'a> {
    pub fn new(search: &'s mut Search<'a>, budget: u64) -> Shortener<'s, 'a> {
        let node_limit = search.nodes.saturating_add(budget);
        Shortener {
            search,
            memo: HashMap::with_capacity(1 << 14),
            node_limit,
            exhausted: false,
        }
    }

    /// The shortest mating line from the current position (attacker to move) of at most
    /// `max_len` plies, or `None` when there is none or the budget ran out first.
    pub fn line(&mut self, max_len: u16) -> Option<Vec<Move>> {
        // Deepening (1, 3, ..) rather than one search at `max_len`: measured on a 13-ply problem
        // whose df-pn line had 17 plies, one search at 17 had not finished after 17M nodes, the
        // deepening found the 13-ply mate in 1.3M (a wrong defender reply is cut at the depth
        // bound instead of being followed to its long mate).
        let mut depth = 1;
        while depth <= max_len {
            if let Some((len, _)) = self.or_node(depth) {
                return self.read_line(len);
            }
            if self.exhausted {
                return None;
            }
            depth += 2;
        }
        None
    }

    /// Reads the line back from the memo, replaying the choices.
    fn read_line(&mut self, len: u16) -> Option<Vec<Move>> {
        let mut line = Vec::with_capacity(len as usize);
        let mut remaining = len;
        let attacker = self.search.attacker();
        let found = loop {
            let mv = if self.search.pos.side_to_move() == attacker {
                match self.or_node(remaining) {
                    Some((_, m)) => m,
                    None => break false,
                }
            } else {
                match self.and_node(remaining) {
                    Some((0, _)) => break true,
                    Some((_, Some(m))) => m,
                    _ => break false,
                }
            };
            self.search.pos.do_move(mv);
            line.push(mv);
            remaining = remaining.saturating_sub(1);
        };
        for _ in 0..line.len() {
            self.search.pos.undo_move();
        }
        found.then_some(line)
    }

    fn spend(&mut self) -> bool {
        self.search.nodes += 1;
        if self.search.nodes >= self.node_limit {
            self.exhausted = true;
        }
        self.search.poll();
        if self.search.aborted {
            self.exhausted = true;
        }
        !self.exhausted
    }

    /// The moves sorted by a key computed from df-pn's table entry of the position after each
    /// (`None` drops the move). Allocates: this pass runs once per solve, after the search.
    fn ordered(
        &mut self,
        moves: &MoveList,
        key: impl Fn(Option<super::table::Probe>) -> Option<u32>,
    ) -> Vec<Move> {
        let mut keyed: Vec<(u32, Move)> = Vec::with_capacity(moves.len());
        for &m in moves.iter() {
            self.search.pos.do_move(m);
            let probe = self.search.probe_here();
            self.search.pos.undo_move();
            if let Some(k) = key(probe) {
                keyed.push((k, m));
            }
        }
        // Stable: generation order among equals.
        keyed.sort_by_key(|&(k, _)| k);
        keyed.into_iter().map(|(_, m)| m).collect()
    }

    /// Whether the df-pn table holds a path-independent disproof of the current position.
    fn disproven(&self) -> bool {
        self.search.probe_here().is_some_and(|p| p.dn == 0)
    }

    /// Shortest mate of at most `depth` plies from an attacker node, with its first move.
    fn or_node(&mut self, depth: u16) -> Option<(u16, Move)> {
        let key = self.search.pos.key();
        match self.memo.get(&key) {
            Some(&Memo::Mate(len, Some(m))) => return (len <= depth).then_some((len, m)),
            Some(&Memo::NoneWithin(d)) if d >= depth => return None,
            _ => {}
        }
        if depth == 0 {
            return None;
        }
        let mut checks = MoveList::new();
        generate_attacks(&self.search.pos, &mut checks);
        // df-pn's findings order the checks: its proven ones, shortest first, give an early
        // bound that cuts the rest; its disproven ones are dropped outright.
        let ordered = self.ordered(&checks, |p| match p {
            Some(p) if p.dn == 0 => None,
            Some(p) if p.pn == 0 => Some(p.len as u32),
            Some(p) => Some(u16::MAX as u32 + p.pn.min(1 << 20)),
            None => Some(u16::MAX as u32 + 1),
        });
        let mut best: Option<(u16, Move)> = None;
        for m in ordered {
            // Only mates shorter than the best so far are of interest.
            let bound = best.map_or(depth, |(l, _)| l.saturating_sub(2));
            if bound == 0 || !self.spend() {
                break;
            }
            self.search.pos.do_move(m);
            let r = self.and_node(bound - 1);
            self.search.pos.undo_move();
            if let Some((l, _)) = r {
                best = Some((l + 1, m));
            }
        }
        if self.exhausted {
            return None;
        }
        self.memo.insert(
            key,
            match best {
                Some((l, m)) => Memo::Mate(l, Some(m)),
                None => Memo::NoneWithin(depth),
            },
        );
        best
    }

    /// From a defender node: the length of the longest resistance when every reply is mated
    /// within `depth` plies, with the reply that achieves it.
    fn and_node(&mut self, depth: u16) -> Option<(u16, Option<Move>)> {
        let mut replies = MoveList::new();
        generate_defences(&self.search.pos, &mut replies);
        if replies.is_empty() {
            return Some((0, None));
        }
        let key = self.search.pos.key();
        match self.memo.get(&key) {
            Some(&Memo::Mate(len, m)) => return (len <= depth).then_some((len, m)),
            Some(&Memo::NoneWithin(d)) if d >= depth => return None,
            _ => {}
        }
        if depth < 2 {
            return None;
        }
        // (plies to mate after the reply, the reply, a drop the attacker captures at once)
        let mut options: Vec<(u16, Move, bool)> = Vec::with_capacity(replies.len());
        // A reply df-pn disproved refutes at once; otherwise the replies that look hardest to
        // mate (unknown to df-pn, then its longest proofs) go first, to fail early.
        let ordered = self.ordered(&replies, |p| match p {
            Some(p) if p.dn == 0 => Some(0),
            Some(p) if p.pn == 0 => Some(u16::MAX as u32 - p.len as u32),
            _ => Some(1),
        });
        let mut refuted = false;
        for m in ordered {
            if !self.spend() {
                return None;
            }
            self.search.pos.do_move(m);
            let r = if self.disproven() {
                None
            } else {
                self.or_node(depth - 1)
            };
            self.search.pos.undo_move();
            match r {
                Some((l, reply)) => options.push((l, m, m.is_drop() && reply.to() == m.to())),
                None => {
                    refuted = true;
                    break;
                }
            }
        }
        if self.exhausted {
            return None;
        }
        if refuted {
            self.memo.insert(key, Memo::NoneWithin(depth));
            return None;
        }
        let (l, m) = main_line_reply(&options)?;
        let value = (l + 1, Some(m));
        self.memo.insert(key, Memo::Mate(value.0, value.1));
        Some(value)
    }
}
