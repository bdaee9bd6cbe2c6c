//! The solver's own transposition table, with the shogi hand refinements.
//!
//! Entries are keyed by the board (pieces on squares and the side to move, salted with the material
//! of the problem, see [`MateSolver`](super::MateSolver)) and store the attacker's hand beside it.
//! Because the material is fixed during one solve, the same board with a larger attacker hand means a
//! smaller defender hand, so:
//! - a proof found with attacker hand `H` proves every position with the same board and a hand that
//!   holds at least as much of every kind (hand superiority, 優等局面);
//! - a disproof found with hand `H` disproves every position whose attacker hand holds at most as
//!   much of every kind (hand inferiority, 劣等局面).
//!
//! Only path-independent results live here: a disproof that depends on a repetition on the current
//! path (or on the ply limit) is kept in [`PathTable`] under the key of the path instead.

use crate::core::{Hand, Move};
use crate::large_table::table_byte_budget;

/// Proof or disproof number of a solved node.
pub(crate) const INF: u32 = u32::MAX;
/// The largest number a node that is not solved may carry: sums saturate here, so that `INF`
/// always means solved.
pub(crate) const MAX_NUMBER: u32 = INF - 1;

/// One stored node.
///
/// Layout (32 bytes): board key, attacker hand, proof number, disproof number, the search effort
/// spent below it (replacement priority), the best move, and for a proof the mate length in plies.
/// `amount == 0` marks an empty slot.
#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    hand: Hand,
    pn: u32,
    dn: u32,
    amount: u32,
    best: u16,
    len: u16,
}

const _: () = assert!(std::mem::size_of::<Entry>() == 32);

/// Entries of one bucket: positions with the same board (different hands) land together, which
/// is what the superiority scan needs. Four entries are two cache lines.
const CLUSTER: usize = 4;

#[derive(Clone, Copy, Default)]
#[repr(align(64))]
struct Cluster([Entry; CLUSTER]);

/// What a lookup found for a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Probe {
    pub pn: u32,
    pub dn: u32,
    /// Mate length in plies from this node when `pn == 0`.
    pub len: u16,
    pub best: Option<Move>,
    /// The hand stored with the entry: for a proof, the proof hand (the attacker needs at least
    /// this much of every kind).
    pub hand: Hand,
}

/// Hash table of clusters sized in MB.
pub(crate) struct Table {
    clusters: Vec<Cluster>,
}

impl Table {
    pub fn new(hash_mb: usize) -> Table {
        let mut table = Table {
            clusters: Vec::new(),
        };
        table.resize(hash_mb);
        table
    }

    /// Reallocates for `hash_mb` megabytes (at least one cluster), dropping everything stored: at
    /// most `large_table::table_byte_budget()`, halved until the memory can be had.
    pub fn resize(&mut self, hash_mb: usize) {
        let bytes = hash_mb.saturating_mul(1 << 20).min(table_byte_budget());
        let mut count = (bytes / std::mem::size_of::<Cluster>()).max(1);
        // Free the old table first so both never exist at once.
        self.clusters = Vec::new();
        while self.clusters.try_reserve_exact(count).is_err() && count > 1 {
            count /= 2;
        }
        self.clusters.resize(count, Cluster::default());
    }

    pub fn clear(&mut self) {
        self.clusters.fill(Cluster::default());
    }

    /// Used entries per mille, sampled over the first thousand clusters.
    pub fn hashfull(&self) -> u32 {
        let sample = &self.clusters[..self.clusters.len().min(1000)];
        let used: usize = sample
            .iter()
            .map(|c| c.0.iter().filter(|e| e.amount != 0).count())
            .sum();
        (used * 1000 / (sample.len() * CLUSTER)) as u32
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        // Multiply-shift range reduction: any table length, no modulo.
        ((key as u128 * self.clusters.len() as u128) >> 64) as usize
    }

    /// Looks up the position (`key`, attacker `hand`). A proof stored for an inferior-or-equal
    /// hand and a disproof stored for a superior-or-equal hand both answer; otherwise the entry of
    /// exactly this hand, if any.
    pub fn probe(&self, key: u64, hand: Hand) -> Option<Probe> {
        let cluster = &self.clusters[self.index(key)];
        let mut exact = None;
        let mut proof: Option<&Entry> = None;
        for e in cluster.0.iter() {
            if e.amount == 0 || e.key != key {
                continue;
            }
            if e.pn == 0 && hand.is_superior_or_equal(e.hand) {
                // Several proofs may apply; the shortest gives the better line.
                if proof.is_none_or(|p| e.len < p.len) {
                    proof = Some(e);
                }
            } else if e.dn == 0 && e.hand.is_superior_or_equal(hand) {
                return Some(Probe {
                    pn: INF,
                    dn: 0,
                    len: 0,
                    best: None,
                    hand: e.hand,
                });
            } else if e.hand == hand {
                exact = Some(e);
            }
        }
        proof.or(exact).map(|e| Probe {
            pn: e.pn,
            dn: e.dn,
            len: e.len,
            best: Move::from_u16(e.best),
            hand: e.hand,
        })
    }

    /// Stores a node (a proof under its proof hand). Replaces the entry of the same position, else
    /// an unsolved entry the new result covers, else an empty slot, else the
    /// unsolved entry with the least effort below it (solved ones are kept while any unsolved can
    /// go, since they are what hand superiority reuses).
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &mut self,
        key: u64,
        hand: Hand,
        pn: u32,
        dn: u32,
        len: u16,
        best: Option<Move>,
        amount: u64,
    ) {
        let index = self.index(key);
        let cluster = &mut self.clusters[index];
        let solved = |e: &Entry| e.pn == 0 || e.dn == 0;
        // An unsolved entry of this board that the new proof (disproof) covers is dead weight.
        let dominated = |e: &Entry| {
            e.amount != 0
                && e.key == key
                && !solved(e)
                && ((pn == 0 && e.hand.is_superior_or_equal(hand))
                    || (dn == 0 && hand.is_superior_or_equal(e.hand)))
        };
        let slot = cluster
            .0
            .iter()
            .position(|e| e.amount != 0 && e.key == key && e.hand == hand)
            .or_else(|| cluster.0.iter().position(dominated))
            .or_else(|| cluster.0.iter().position(|e| e.amount == 0))
            .unwrap_or_else(|| {
                let mut victim = 0;
                let mut victim_rank = (true, u32::MAX);
                for (i, e) in cluster.0.iter().enumerate() {
                    let rank = (solved(e), e.amount);
                    if rank < victim_rank {
                        victim_rank = rank;
                        victim = i;
                    }
                }
                victim
            });
        let e = &mut cluster.0[slot];
        // Keep a known best move when the new store has none (e.g. a re-search that aborted).
        let best = best.map_or(if e.key == key { e.best } else { 0 }, Move::to_u16);
        *e = Entry {
            key,
            hand,
            pn,
            dn,
            amount: amount.clamp(1, u32::MAX as u64) as u32,
            best,
            len,
        };
    }
}

/// Disproofs that hold only for one path from the root: the node was refuted because a line
/// returned to a position on the path (in a tsume a repetition is the attacker's failure) or ran
/// into the ply limit. Keyed by a hash of the move sequence from the root, so they are reused only
/// when the same node is reached by the same moves, where the same ancestors are on the path.
/// Direct mapped; a lost entry only costs a re-search. Cleared at every solve (path keys are
/// relative to the root).
pub(crate) struct PathTable {
    keys: Vec<u64>,
}

impl PathTable {
    const SIZE: usize = 1 << 16;

    pub fn new() -> PathTable {
        PathTable {
            keys: vec![0; PathTable::SIZE],
        }
    }

    pub fn clear(&mut self) {
        self.keys.fill(0);
    }

    #[inline]
    pub fn contains(&self, path_key: u64) -> bool {
        self.keys[path_key as usize & (PathTable::SIZE - 1)] == path_key | 1
    }

    #[inline]
    pub fn insert(&mut self, path_key: u64) {
        // `| 1` keeps a stored key away from the empty marker 0.
        self.keys[path_key as usize & (PathTable::SIZE - 1)] = path_key | 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::HandKind;

    fn hand(kinds: &[HandKind]) -> Hand {
        let mut h = Hand::EMPTY;
        for &k in kinds {
            h.add(k);
        }
        h
    }

    #[test]
    fn proofs_carry_to_superior_hands_and_disproofs_to_inferior() {
        let mut t = Table::new(1);
        let gold = hand(&[HandKind::Gold]);
        let gold_pawn = hand(&[HandKind::Gold, HandKind::Pawn]);
        let pawn = hand(&[HandKind::Pawn]);
        t.store(42, gold, 0, INF, 3, None, 10);
        assert_eq!(t.probe(42, gold_pawn).map(|p| p.pn), Some(0));
        assert_eq!(t.probe(42, gold).map(|p| p.len), Some(3));
        assert_eq!(t.probe(42, pawn), None);
        assert_eq!(t.probe(43, gold), None);

        t.store(7, gold_pawn, INF, 0, 0, None, 10);
        assert_eq!(t.probe(7, pawn).map(|p| p.dn), Some(0));
        assert_eq!(t.probe(7, Hand::EMPTY).map(|p| p.dn), Some(0));
        assert_eq!(t.probe(7, hand(&[HandKind::Rook])), None);
    }

    #[test]
    fn exact_entries_update_in_place() {
        let mut t = Table::new(1);
        t.store(9, Hand::EMPTY, 3, 4, 0, None, 1);
        t.store(9, Hand::EMPTY, 5, 6, 0, None, 2);
        let p = t.probe(9, Hand::EMPTY).unwrap();
        assert_eq!((p.pn, p.dn), (5, 6));
        assert!(t.hashfull() <= 1000);
        t.clear();
        assert_eq!(t.probe(9, Hand::EMPTY), None);
    }

    #[test]
    fn path_table_round_trip() {
        let mut p = PathTable::new();
        assert!(!p.contains(12345));
        p.insert(12345);
        assert!(p.contains(12345));
        p.clear();
        assert!(!p.contains(12345));
    }
}
