//! Depth-first proof-number search (df-pn) over checks and evasions.
//!
//! OR nodes: the attacker to move, children are its checking moves; AND nodes: the defender to
//! move, children are its legal replies. A node is proven (`pn == 0`) when the attacker mates,
//! disproven (`dn == 0`) when it cannot. `mid` is the multiple-iterative-deepening core of df-pn:
//! it expands one node, keeps descending into the most-proving child while the node's numbers stay
//! under the thresholds its parent gave it, and stores what it learned in the table on the way back.
//!
//! Refinements over plain df-pn:
//! - 1+epsilon thresholds (Pawlewicz and Lew): the child's threshold is the second-best number
//!   grown by a quarter instead of plus one, which cuts the re-expansions when two siblings trade
//!   places as the best child.
//! - Seeds: a new defender node's proof number is its weighted number of replies (see
//!   `defence_weight`); a new attacker node is first tried for a mate in one (so every OR leaf is
//!   probed for the cheap mate before it is ever searched) and its disproof number is its number of
//!   checks.
//! - Repetitions: returning to a position already on the path is the attacker's failure (a
//!   shortest mate never repeats, so no mate is lost). Such a disproof, and any disproof built on
//!   one, holds for this path only: it is kept in the path table under the key of the move sequence
//!   from the root, never in the main table, so a position refuted through a cycle on one path is
//!   searched afresh when reached along another (graph-history interaction). Repetitions only ever
//!   refute, so they cannot produce a false proof.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::moves::{
    defence_weight, generate_attacks, generate_defences, hand_union, interposition_floor,
    mate_in_one, proof_hand_before,
};
use super::table::{PathTable, Table, INF, MAX_NUMBER};
use super::{MateLimits, MateProgress};
use crate::core::{Color, Hand, Move, MoveList, Position};

/// Deepest ply the search descends to. A line reaching it counts as refuted for that path only,
/// and a root disproof that may rest on it is reported as unknown, not as "no mate". Also bounds
/// the recursion depth (each frame is a few hundred bytes of stack).
pub(crate) const MAX_PLY: u32 = 400;

/// Nodes between two looks at the clock, the node limit and the stop flag.
const POLL_INTERVAL: u64 = 1024;
/// Milliseconds between two progress reports.
const PROGRESS_INTERVAL_MS: u64 = 250;

/// The path key of the root; children's keys are derived from it move by move.
pub(crate) const ROOT_PATH_KEY: u64 = 0x6a09_e667_f3bc_c909;

/// The path key after `mv` (a hash of the move sequence from the root).
#[inline]
pub(crate) fn path_step(path_key: u64, mv: Move) -> u64 {
    splitmix64(path_key ^ (mv.to_u16() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

#[inline]
pub(crate) fn splitmix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The proof/disproof state of a node as the search returns it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct NodeValue {
    pub pn: u32,
    pub dn: u32,
    /// Mate length in plies when proven.
    pub len: u16,
    /// A disproof that holds only for the current path (see the module doc).
    pub path_dependent: bool,
    /// When proven: the proof hand, the least attacker hand the proof needs (証明駒).
    pub proof_hand: Hand,
}

/// A child of the node being searched, kept in the shared arena while its parent's frame lives.
#[derive(Clone, Copy)]
struct Child {
    mv: Move,
    /// Table key and attacker hand of the child position, computed once at expansion so that the
    /// loop can re-read the table without making the move.
    key: u64,
    hand: Hand,
    path_key: u64,
    pn: u32,
    dn: u32,
    len: u16,
    /// Proven or disproven: final, no need to look it up again.
    solved: bool,
    path_dependent: bool,
    /// When proven: its proof hand.
    proof_hand: Hand,
}

/// Reads one of a child's numbers.
type ChildNumber = fn(&Child) -> u32;

/// The aggregate of a node's children and the choice of the child to descend into.
struct Aggregate {
    value: NodeValue,
    /// Arena index of the most proving (OR) or most disproving (AND) child.
    best: usize,
    /// The second-smallest proof (OR) or disproof (AND) number among the children.
    second: u32,
}

/// One solve in progress: the position walked by do/undo, the tables, limits and counters.
pub(crate) struct Search<'a> {
    pub pos: Position,
    table: &'a mut Table,
    paths: &'a mut PathTable,
    attacker: Color,
    /// Mixed into every table key: the material of the problem and the attacker (see `solve`).
    salt: u64,
    /// Full keys (board and both hands) of the positions on the current path, root first.
    path: Vec<u64>,
    children: Vec<Child>,
    gen: MoveList,
    checks: MoveList,
    scratch: MoveList,
    pub nodes: u64,
    limits: MateLimits,
    stop: &'a AtomicBool,
    progress: &'a mut dyn FnMut(MateProgress),
    start: Instant,
    last_progress_ms: u64,
    next_poll: u64,
    pub aborted: bool,
    /// Some line ran into `MAX_PLY`: a disproof of the root may rest on the limit.
    pub hit_ply_limit: bool,
}

#[inline]
fn grow(x: u32) -> u32 {
    // ceil(x * 5/4), at least x + 1: the 1+epsilon threshold with epsilon = 1/4.
    x.saturating_add(x.div_ceil(4).max(1))
}

#[inline]
fn cap(x: u64) -> u32 {
    x.min(MAX_NUMBER as u64) as u32
}

impl<'a> Search<'a> {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        pos: Position,
        table: &'a mut Table,
        paths: &'a mut PathTable,
        salt: u64,
        limits: MateLimits,
        stop: &'a AtomicBool,
        progress: &'a mut dyn FnMut(MateProgress),
        start: Instant,
    ) -> Search<'a> {
        let attacker = pos.side_to_move();
        Search {
            pos,
            table,
            paths,
            attacker,
            salt,
            path: Vec::with_capacity(MAX_PLY as usize + 2),
            children: Vec::with_capacity(4096),
            gen: MoveList::new(),
            checks: MoveList::new(),
            scratch: MoveList::new(),
            nodes: 0,
            limits,
            stop,
            progress,
            start,
            last_progress_ms: 0,
            next_poll: POLL_INTERVAL,
            aborted: false,
            hit_ply_limit: false,
        }
    }

    pub fn attacker(&self) -> Color {
        self.attacker
    }

    /// Table key of the current position.
    #[inline]
    pub fn table_key(&self) -> u64 {
        self.pos.board_key() ^ self.salt
    }

    /// Looks up the current position.
    pub fn probe_here(&self) -> Option<super::table::Probe> {
        self.table
            .probe(self.table_key(), self.pos.hand(self.attacker))
    }

    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    pub fn report_progress(&mut self) {
        let time_ms = self.elapsed_ms();
        self.last_progress_ms = time_ms;
        let nps = self.nodes.saturating_mul(1000) / time_ms.max(1);
        (self.progress)(MateProgress {
            nodes: self.nodes,
            nps,
            time_ms,
            hashfull: self.table.hashfull(),
        });
    }

    /// Checks the stop flag, the limits, and whether a progress report is due.
    pub(crate) fn poll(&mut self) {
        if self.nodes < self.next_poll {
            return;
        }
        self.next_poll = self.nodes + POLL_INTERVAL;
        let ms = self.elapsed_ms();
        if self.stop.load(Ordering::Relaxed)
            || self.limits.nodes.is_some_and(|n| self.nodes >= n)
            || self.limits.time_ms.is_some_and(|t| ms >= t)
        {
            self.aborted = true;
        }
        if ms >= self.last_progress_ms + PROGRESS_INTERVAL_MS {
            self.report_progress();
        }
    }

    /// Solves from the current position with unbounded thresholds until it is proven, disproven,
    /// or the limits end the search. `path_keys` are the full keys of the positions that lead to
    /// it (empty at the root), `path_key` the key of the move sequence.
    pub fn search_from(&mut self, path_keys: &[u64], path_key: u64) -> NodeValue {
        self.path.clear();
        self.path.extend_from_slice(path_keys);
        self.path.push(self.pos.key());
        let ply = path_keys.len() as u32;
        loop {
            let before = self.nodes;
            let v = self.mid(INF, INF, ply, path_key);
            // With infinite thresholds `mid` only returns unsolved when aborted; the node-count
            // test guards against a livelock should a saturated number ever stall it.
            if v.pn == 0 || v.dn == 0 || self.aborted || self.nodes == before {
                self.path.clear();
                return v;
            }
        }
    }

    /// The df-pn recursion at the current position (already on `self.path`).
    fn mid(&mut self, th_pn: u32, th_dn: u32, ply: u32, path_key: u64) -> NodeValue {
        let or_node = self.pos.side_to_move() == self.attacker;
        let key = self.table_key();
        let hand = self.pos.hand(self.attacker);
        let nodes_before = self.nodes;

        if ply >= MAX_PLY {
            self.hit_ply_limit = true;
            self.paths.insert(path_key);
            return NodeValue {
                pn: INF,
                dn: 0,
                len: 0,
                path_dependent: true,
                proof_hand: Hand::EMPTY,
            };
        }

        // 1. Expand: the moves and the first estimate of every child.
        if or_node {
            generate_attacks(&self.pos, &mut self.gen);
        } else {
            generate_defences(&self.pos, &mut self.gen);
        }
        if self.gen.is_empty() {
            // No check to give: refuted. No reply to the check: mated.
            let value = if or_node {
                NodeValue {
                    pn: INF,
                    dn: 0,
                    len: 0,
                    path_dependent: false,
                    proof_hand: Hand::EMPTY,
                }
            } else {
                NodeValue {
                    pn: 0,
                    dn: INF,
                    len: 0,
                    path_dependent: false,
                    proof_hand: interposition_floor(&self.pos, self.attacker),
                }
            };
            let stored_hand = if or_node { hand } else { value.proof_hand };
            self.table
                .store(key, stored_hand, value.pn, value.dn, value.len, None, 1);
            return value;
        }
        let base = self.children.len();
        for i in 0..self.gen.len() {
            let mv = self.gen.as_slice()[i];
            let child = self.expand_child(mv, path_key, or_node);
            self.children.push(child);
            // A mating check (OR) or a refuting reply (AND) settles the node: the rest need no
            // estimate.
            if (or_node && child.pn == 0) || (!or_node && child.dn == 0) {
                break;
            }
        }

        // 2. Descend into the most promising child while under the thresholds.
        let mut agg;
        loop {
            agg = self.aggregate(base, or_node);
            let v = agg.value;
            if v.pn == 0 || v.dn == 0 || v.pn >= th_pn || v.dn >= th_dn || self.aborted {
                break;
            }
            let c = self.children[agg.best];
            let (child_th_pn, child_th_dn) = if or_node {
                (
                    th_pn.min(grow(agg.second)),
                    th_dn.saturating_sub(v.dn).saturating_add(c.dn),
                )
            } else {
                (
                    th_pn.saturating_sub(v.pn).saturating_add(c.pn),
                    th_dn.min(grow(agg.second)),
                )
            };
            self.pos.do_move(c.mv);
            self.path.push(self.pos.key());
            self.nodes += 1;
            self.poll();
            let r = self.mid(child_th_pn, child_th_dn, ply + 1, c.path_key);
            self.path.pop();
            self.pos.undo_move();
            let slot = &mut self.children[agg.best];
            slot.pn = r.pn;
            slot.dn = r.dn;
            slot.len = r.len;
            slot.solved = r.pn == 0 || r.dn == 0;
            slot.path_dependent = r.path_dependent;
            slot.proof_hand = r.proof_hand;
        }

        // 3. Remember the result: a proof under its proof hand, so that it also answers for
        //    every hand holding at least that much.
        let mut v = agg.value;
        if v.pn == 0 {
            v.proof_hand = self.proof_hand(base, or_node, agg.best);
        }
        if v.dn == 0 && v.path_dependent {
            self.paths.insert(path_key);
        } else {
            let best = self.children[agg.best].mv;
            let amount = self.nodes - nodes_before + 1;
            let stored_hand = if v.pn == 0 { v.proof_hand } else { hand };
            self.table
                .store(key, stored_hand, v.pn, v.dn, v.len, Some(best), amount);
        }
        self.children.truncate(base);
        v
    }

    /// The proof hand of the current (proven) node: at an OR node the proving child's, adjusted for
    /// the move; at an AND node the union of all the children's, raised to the interposition
    /// floor. Never more than the hand actually held.
    fn proof_hand(&self, base: usize, or_node: bool, best: usize) -> Hand {
        let held = self.pos.hand(self.attacker);
        let proof = if or_node {
            let c = &self.children[best];
            proof_hand_before(&self.pos, c.mv, c.proof_hand)
        } else {
            self.children[base..]
                .iter()
                .fold(interposition_floor(&self.pos, self.attacker), |acc, c| {
                    hand_union(acc, c.proof_hand)
                })
        };
        // Rounding guard: a proof hand above the held hand would not cover this very position.
        if held.is_superior_or_equal(proof) {
            proof
        } else {
            held
        }
    }

    /// Makes `mv` from the current position and estimates the child: a repetition, a table hit,
    /// or the seed heuristics (which also settle mates in one and nodes without moves).
    fn expand_child(&mut self, mv: Move, parent_path_key: u64, parent_is_or: bool) -> Child {
        self.pos.do_move(mv);
        self.nodes += 1;
        let mut c = Child {
            mv,
            key: self.table_key(),
            hand: self.pos.hand(self.attacker),
            path_key: path_step(parent_path_key, mv),
            pn: 1,
            dn: 1,
            len: 0,
            solved: false,
            path_dependent: false,
            proof_hand: Hand::EMPTY,
        };
        let full_key = self.pos.key();
        if self.path.contains(&full_key) || self.paths.contains(c.path_key) {
            c.pn = INF;
            c.dn = 0;
            c.solved = true;
            c.path_dependent = true;
        } else if let Some(p) = self.table.probe(c.key, c.hand) {
            c.pn = p.pn;
            c.dn = p.dn;
            c.len = p.len;
            c.solved = p.pn == 0 || p.dn == 0;
            c.proof_hand = p.hand;
        } else if parent_is_or {
            // The defender replies: its number of replies seeds the proof number.
            generate_defences(&self.pos, &mut self.scratch);
            if self.scratch.is_empty() {
                c.pn = 0;
                c.dn = INF;
                c.solved = true;
                c.proof_hand = interposition_floor(&self.pos, self.attacker);
                self.table.store(c.key, c.proof_hand, 0, INF, 0, None, 1);
            } else {
                c.pn = defence_weight(&self.scratch).max(1);
            }
        } else if let Some(mate) = mate_in_one(&mut self.pos, &mut self.checks, &mut self.nodes) {
            c.pn = 0;
            c.dn = INF;
            c.len = 1;
            c.solved = true;
            // The hand actually held: a mate in one is not worth a finer proof hand.
            c.proof_hand = c.hand;
            self.table.store(c.key, c.hand, 0, INF, 1, Some(mate), 1);
        } else if self.checks.is_empty() {
            c.pn = INF;
            c.dn = 0;
            c.solved = true;
            self.table.store(c.key, c.hand, INF, 0, 0, None, 1);
        } else {
            // `mate_in_one` left the attacker's checks in `self.checks`.
            c.dn = (self.checks.len() as u32).max(1);
        }
        self.pos.undo_move();
        c
    }

    /// Refreshes the unsolved children from the table and combines them into the node's numbers.
    fn aggregate(&mut self, base: usize, or_node: bool) -> Aggregate {
        let table = &*self.table;
        let children = &mut self.children[base..];
        for c in children.iter_mut().filter(|c| !c.solved) {
            if let Some(p) = table.probe(c.key, c.hand) {
                c.pn = p.pn;
                c.dn = p.dn;
                c.len = p.len;
                c.solved = p.pn == 0 || p.dn == 0;
                c.proof_hand = p.hand;
            }
        }
        // Work in the "min" and "sum" numbers: for an OR node min is pn and sum is dn, for an AND
        // node the other way round.
        let (min_of, sum_of): (ChildNumber, ChildNumber) = if or_node {
            (|c| c.pn, |c| c.dn)
        } else {
            (|c| c.dn, |c| c.pn)
        };
        let mut best = 0;
        let mut min = INF;
        let mut second = INF;
        let mut sum = 0u64;
        for (i, c) in children.iter().enumerate() {
            let m = min_of(c);
            if m < min {
                second = min;
                min = m;
                best = i;
            } else if m < second {
                second = m;
            }
            sum += sum_of(c) as u64;
        }
        let all_zero = sum == 0;
        let sum = if all_zero { 0 } else { cap(sum) };
        let mut value = if or_node {
            NodeValue {
                pn: min,
                dn: sum,
                len: 0,
                path_dependent: false,
                proof_hand: Hand::EMPTY,
            }
        } else {
            NodeValue {
                pn: sum,
                dn: min,
                len: 0,
                path_dependent: false,
                proof_hand: Hand::EMPTY,
            }
        };
        // A solved "min" side: pick the child that gives the best length or the soundest refutation.
        if min == 0 {
            if or_node {
                // Proven: the shortest proven check.
                let (i, c) = children
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| c.pn == 0)
                    .min_by_key(|(_, c)| c.len)
                    .expect("min == 0 means a proven child");
                best = i;
                value.len = c.len.saturating_add(1);
            } else {
                // Disproven: prefer a refutation that holds on every path.
                if let Some((i, _)) = children
                    .iter()
                    .enumerate()
                    .find(|(_, c)| c.dn == 0 && !c.path_dependent)
                {
                    best = i;
                } else {
                    value.path_dependent = true;
                }
            }
        }
        if all_zero {
            if or_node {
                // Every check refuted; the refutation is path dependent if any part of it is.
                value.path_dependent = children.iter().any(|c| c.path_dependent);
            } else {
                // Every reply mated: the defender's longest resistance is the length.
                let longest = children.iter().map(|c| c.len).max().unwrap_or(0);
                value.len = longest.saturating_add(1);
            }
        }
        Aggregate {
            value,
            best: base + best,
            second,
        }
    }
}
