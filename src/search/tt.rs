//! The transposition table shared by every search thread.
//!
//! Lock-free and free of data races: every entry is two `AtomicU64` words, `check = key ^ data` and
//! `data`, read and written with relaxed ordering. A reader accepts an entry only when
//! `check ^ data == key`, so a torn entry (one word from one writer, one from another) is rejected
//! rather than trusted; the worst a race can do is lose an entry. This is Hyatt's "lockless hashing".
//! Moves read back are 16-bit words that the search always re-validates with
//! `Position::is_pseudo_legal`, so even a wrong move from a key collision cannot corrupt the board.
//!
//! Four entries form a 64-byte bucket (one cache line). The bucket index takes the high bits of the
//! key times the bucket count ("fast range") with the side to move as its lowest bit, so the two
//! sides' positions never compete for one bucket. Each entry carries the search generation it was
//! written in; replacement prefers stale generations, then shallow depths, so a long game keeps the
//! current search's entries.

use crate::core::Move;
use crate::large_table::{table_byte_budget, LargeTable, Zeroable};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};

/// What a stored score means relative to the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TtBound {
    /// Stored for completeness: an entry written with no usable score (only a move / static eval).
    None = 0,
    /// The true score is at most the stored score (fail low).
    Upper = 1,
    /// The true score is at least the stored score (fail high).
    Lower = 2,
    Exact = 3,
}

impl TtBound {
    const fn from_bits(bits: u64) -> TtBound {
        match bits & 3 {
            1 => TtBound::Upper,
            2 => TtBound::Lower,
            3 => TtBound::Exact,
            _ => TtBound::None,
        }
    }
}

/// One decoded entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtData {
    /// The raw move word; 0 when none. Re-validate before use.
    pub mv: u16,
    /// Score in "TT form" (mate scores relative to this node; see `search::score_from_tt`).
    pub score: i16,
    /// Static evaluation of the position (or `i16::MIN` when unknown).
    pub eval: i16,
    pub depth: i8,
    pub bound: TtBound,
    /// Written by a PV node.
    pub is_pv: bool,
}

impl TtData {
    /// Whether a search wrote this entry; `false` for one that only caches the static evaluation.
    pub fn has_search_result(&self) -> bool {
        self.bound != TtBound::None
    }

    /// The stored move, if the word decodes at all; the caller must still check legality.
    pub fn mv(&self) -> Option<Move> {
        Move::from_u16(self.mv)
    }
}

/// Packing of the data word:
/// ```text
/// 63..48   47..32   31..16   15..8        7      6..5   4..0 (unused: 2..0 of gen are bits 4..0)
/// [move]   [score]  [eval]   [depth+DEPTH_OFFSET] [pv] [bound] [generation 5 bits]
/// ```
/// Precisely: bits 0..5 generation, 5..7 bound, 7 pv flag, 8..16 depth (biased), 16..32 eval,
/// 32..48 score, 48..64 move. An all-zero word is an empty slot (depth byte 0 = empty, real entries are
/// stored with a bias so their byte is never 0).
const GEN_BITS: u32 = 5;
const GEN_MASK: u64 = (1 << GEN_BITS) - 1;
const GEN_CYCLE: u8 = 1 << GEN_BITS;
/// Depth is stored biased so that depth -7 (the lowest quiescence depth we store) is byte 1.
const DEPTH_OFFSET: i32 = 8;

#[inline]
fn pack(
    mv: u16,
    score: i16,
    eval: i16,
    depth: i8,
    bound: TtBound,
    is_pv: bool,
    generation: u8,
) -> u64 {
    let depth_byte = (depth as i32 + DEPTH_OFFSET).clamp(1, 255) as u64;
    (generation as u64 & GEN_MASK)
        | (bound as u64) << 5
        | (is_pv as u64) << 7
        | depth_byte << 8
        | (eval as u16 as u64) << 16
        | (score as u16 as u64) << 32
        | (mv as u64) << 48
}

#[inline]
fn unpack(data: u64) -> TtData {
    TtData {
        mv: (data >> 48) as u16,
        score: (data >> 32) as u16 as i16,
        eval: (data >> 16) as u16 as i16,
        depth: (((data >> 8) & 0xff) as i32 - DEPTH_OFFSET) as i8,
        bound: TtBound::from_bits(data >> 5),
        is_pv: (data >> 7) & 1 != 0,
    }
}

#[inline]
fn generation_of(data: u64) -> u8 {
    (data & GEN_MASK) as u8
}

#[inline]
fn depth_byte(data: u64) -> i32 {
    ((data >> 8) & 0xff) as i32
}

#[derive(Default)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

const BUCKET_ENTRIES: usize = 4;

#[derive(Default)]
#[repr(align(64))]
struct Bucket {
    entries: [Entry; BUCKET_ENTRIES],
}

const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

/// The shared table. `&TranspositionTable` is all a search thread needs (`Sync`: only atomics inside).
pub struct TranspositionTable {
    buckets: LargeTable<Bucket>,
    /// Current search generation in `0..32`; bumped by `new_search` (the pool, between searches).
    generation: AtomicU8,
    /// False while the table is known to be empty (fresh or just cleared), so that `clear` can skip
    /// the work: `usinewgame` right after `isready` would otherwise delay the first `go` by the time
    /// it takes to zero the whole table (~10-100 ms for 256 MB).
    used: AtomicBool,
}

/// Where a probe landed: the slot to write back to, and what it held if the key matched.
pub struct Probe<'a> {
    entry: &'a Entry,
    pub hit: Option<TtData>,
}

impl TranspositionTable {
    /// An empty table of about `mb` megabytes, or less where that would not fit: at most
    /// `large_table::table_byte_budget()`, halved until the memory can be had (see `megabytes`).
    /// The memory is zero pages mapped on first touch (huge pages where Linux allows): see
    /// `touch_all_pages`.
    pub fn new(mb: usize) -> TranspositionTable {
        let bytes = mb
            .max(1)
            .saturating_mul(1024 * 1024)
            .min(table_byte_budget());
        // An even count keeps the side-to-move bit of the index meaningful.
        let mut count = ((bytes / std::mem::size_of::<Bucket>()) & !1).max(2);
        let buckets = loop {
            match LargeTable::try_zeroed(count) {
                Some(buckets) => break buckets,
                None if count > 2 => count = (count / 2) & !1,
                None => std::alloc::handle_alloc_error(std::alloc::Layout::new::<[Bucket; 2]>()),
            }
        };
        TranspositionTable {
            buckets,
            generation: AtomicU8::new(0),
            used: AtomicBool::new(false),
        }
    }

    /// The table's size in whole megabytes (what `USI_Hash` got).
    pub fn megabytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>() / (1024 * 1024)
    }

    /// Number of 64-byte buckets.
    pub fn bucket_count(&self) -> usize {
        self.buckets.len()
    }

    /// Starts a new search: entries from earlier searches become replaceable first.
    pub fn new_search(&self) {
        self.used.store(true, Ordering::Relaxed);
        let next = (self.generation() + 1) % GEN_CYCLE;
        self.generation.store(next, Ordering::Relaxed);
    }

    #[inline]
    pub fn generation(&self) -> u8 {
        self.generation.load(Ordering::Relaxed)
    }

    /// Empties the table. Large tables are cleared by several threads at once, each zeroing its own
    /// contiguous chunk (a 1 GB table takes a single thread a few hundred ms). Free when no search
    /// started (`new_search`) since the table was made or last cleared: every writer is a search.
    pub fn clear(&self, threads: usize) {
        self.generation.store(0, Ordering::Relaxed);
        if !self.used.swap(false, Ordering::Relaxed) {
            return;
        }
        self.touch_all_pages(threads);
    }

    /// Writes zero to every bucket, so that the operating system maps the whole table now (at
    /// `isready`) rather than page by page inside the first searches, where each first touch of a
    /// 2 MB page costs a page clear on the search's clock. `clear` is this once the table was used.
    pub fn touch_all_pages(&self, threads: usize) {
        let threads = threads.clamp(1, 64);
        const PARALLEL_MIN: usize = 1 << 16; // buckets (4 MB): below this a thread costs more than it saves
        if threads == 1 || self.buckets.len() < PARALLEL_MIN {
            clear_chunk(&self.buckets);
            return;
        }
        let chunk = self.buckets.len().div_ceil(threads);
        std::thread::scope(|scope| {
            for part in self.buckets.chunks(chunk) {
                scope.spawn(move || clear_chunk(part));
            }
        });
    }

    #[inline]
    fn bucket(&self, key: u64, side: usize) -> &Bucket {
        let half = (self.buckets.len() / 2) as u128;
        let index = ((key as u128 * half) >> 64) as usize * 2 + (side & 1);
        &self.buckets[index]
    }

    /// Hints the CPU to fetch the bucket for `key` (called right after a move is made, before the
    /// child node probes).
    #[inline]
    pub fn prefetch(&self, key: u64, side: usize) {
        let bucket = self.bucket(key, side);
        #[cfg(target_arch = "x86_64")]
        // Safety: a prefetch is only a hint; the address is a valid reference into our own slice.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch::<_MM_HINT_T0>(bucket as *const Bucket as *const i8);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = bucket;
    }

    /// Looks up `key`. Returns the matching entry's data if any, and in every case the slot a later
    /// `store` should write (the matching entry, else the least valuable one of the bucket).
    #[inline]
    pub fn probe(&self, key: u64, side: usize) -> Probe<'_> {
        let bucket = self.bucket(key, side);
        let generation = self.generation();
        let mut victim = &bucket.entries[0];
        let mut victim_worth = i32::MAX;
        for entry in &bucket.entries {
            let data = entry.data.load(Ordering::Relaxed);
            let check = entry.check.load(Ordering::Relaxed);
            if data != 0 && check ^ data == key {
                return Probe {
                    entry,
                    hit: Some(unpack(data)),
                };
            }
            // Worth of keeping: depth, minus 8 per generation of age (ages wrap in 32).
            let age = (GEN_CYCLE + generation - generation_of(data)) % GEN_CYCLE;
            let worth = if data == 0 {
                i32::MIN
            } else {
                depth_byte(data) - 8 * age as i32
            };
            if worth < victim_worth {
                victim_worth = worth;
                victim = entry;
            }
        }
        Probe {
            entry: victim,
            hit: None,
        }
    }

    /// Writes an entry into the slot `probe` chose. An existing entry for the same key keeps its move
    /// when the new one has none, and is not overwritten by a much shallower non-exact result.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store(
        &self,
        probe: &Probe<'_>,
        key: u64,
        mv: Option<Move>,
        score: i16,
        eval: i16,
        depth: i32,
        bound: TtBound,
        is_pv: bool,
    ) {
        let entry = probe.entry;
        let old_data = entry.data.load(Ordering::Relaxed);
        let old_check = entry.check.load(Ordering::Relaxed);
        let same_key = old_data != 0 && old_check ^ old_data == key;
        let mut mv16 = mv.map_or(0, Move::to_u16);
        if same_key {
            let old = unpack(old_data);
            if mv16 == 0 {
                mv16 = old.mv;
            }
            // Keep a deeper entry of this search unless the new one is exact.
            if bound != TtBound::Exact
                && generation_of(old_data) == self.generation()
                && depth + 4 < old.depth as i32
            {
                return;
            }
        }
        let depth = depth.clamp(-(DEPTH_OFFSET - 1), 127) as i8;
        let data = pack(mv16, score, eval, depth, bound, is_pv, self.generation());
        entry.check.store(key ^ data, Ordering::Relaxed);
        entry.data.store(data, Ordering::Relaxed);
    }

    /// Caches a static evaluation in the slot `probe` chose for a position with no entry yet: no
    /// move, no score, the lowest depth (the first entry replaced).
    #[inline]
    pub fn store_eval(&self, probe: &Probe<'_>, key: u64, eval: i16) {
        self.store(
            probe,
            key,
            None,
            0,
            eval,
            -DEPTH_OFFSET,
            TtBound::None,
            false,
        );
    }

    /// Per mille of the first 1000 buckets' entries written in the current search.
    pub fn hashfull(&self) -> u32 {
        let sample = self.buckets.len().min(1000);
        let generation = self.generation();
        let mut used = 0usize;
        for bucket in &self.buckets[..sample] {
            for entry in &bucket.entries {
                let data = entry.data.load(Ordering::Relaxed);
                if data != 0 && generation_of(data) == generation {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * BUCKET_ENTRIES)) as u32
    }
}

fn clear_chunk(buckets: &[Bucket]) {
    for bucket in buckets {
        for entry in &bucket.entries {
            entry.check.store(0, Ordering::Relaxed);
            entry.data.store(0, Ordering::Relaxed);
        }
    }
}

// Safety: a `Bucket` is only `AtomicU64`s (size 64, no padding); all-zero bits are valid (zero).
unsafe impl Zeroable for Bucket {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{HandKind, Square};
    use std::sync::Arc;

    fn mv() -> Move {
        Move::normal(Square::new(6, 6), Square::new(6, 5), false)
    }

    #[test]
    fn pack_roundtrip() {
        for &(score, eval, depth, bound, pv) in &[
            (0i16, 0i16, 0i8, TtBound::Exact, false),
            (-32000, 31999, -7, TtBound::Lower, true),
            (123, i16::MIN, 127, TtBound::Upper, false),
        ] {
            let d = unpack(pack(0xbeef & 0x7f7f, score, eval, depth, bound, pv, 17));
            assert_eq!(
                (d.score, d.eval, d.depth, d.bound, d.is_pv),
                (score, eval, depth, bound, pv)
            );
            assert_eq!(d.mv, 0xbeef & 0x7f7f);
        }
    }

    #[test]
    fn store_probe_verify() {
        let tt = TranspositionTable::new(1);
        let key = 0x1234_5678_9abc_def0;
        assert!(tt.probe(key, 0).hit.is_none());
        let p = tt.probe(key, 0);
        tt.store(&p, key, Some(mv()), 55, -3, 6, TtBound::Lower, false);
        let hit = tt.probe(key, 0).hit.expect("stored entry is found");
        assert_eq!(hit.mv(), Some(mv()));
        assert_eq!(
            (hit.score, hit.eval, hit.depth, hit.bound),
            (55, -3, 6, TtBound::Lower)
        );
        // Other side to move: another bucket, no hit.
        assert!(tt.probe(key, 1).hit.is_none());
        // A different key in the same bucket is not confused with it.
        assert!(tt.probe(key ^ 1, 0).hit.is_none());
        // A re-store without a move keeps the old move.
        let p = tt.probe(key, 0);
        tt.store(&p, key, None, 70, -3, 7, TtBound::Exact, true);
        let hit = tt.probe(key, 0).hit.expect("still there");
        assert_eq!(hit.mv(), Some(mv()));
        assert_eq!(
            (hit.score, hit.bound, hit.is_pv),
            (70, TtBound::Exact, true)
        );
    }

    #[test]
    fn a_cached_evaluation_is_found_and_gives_way() {
        let tt = TranspositionTable::new(1);
        let key = 0x0fed_cba9_8765_4321;
        let p = tt.probe(key, 0);
        tt.store_eval(&p, key, -42);
        let hit = tt
            .probe(key, 0)
            .hit
            .expect("the cached evaluation is found");
        assert_eq!((hit.eval, hit.mv()), (-42, None));
        assert!(!hit.has_search_result());
        // A search result of any depth replaces it, even a quiescence one.
        let p = tt.probe(key, 0);
        tt.store(&p, key, Some(mv()), 5, -42, 0, TtBound::Lower, false);
        let hit = tt.probe(key, 0).hit.expect("stored entry is found");
        assert!(hit.has_search_result());
        assert_eq!((hit.score, hit.depth, hit.mv()), (5, 0, Some(mv())));
        // And it is the first entry of a full bucket to make room.
        let keys: Vec<u64> = (0..5u64).map(|i| 0xabcd_0000_0000_0000 | i).collect();
        for &k in &keys[..3] {
            let p = tt.probe(k, 0);
            tt.store(&p, k, None, 0, 0, 0, TtBound::Upper, false);
        }
        let p = tt.probe(keys[3], 0);
        tt.store_eval(&p, keys[3], 7);
        let p = tt.probe(keys[4], 0);
        tt.store(&p, keys[4], None, 0, 0, 0, TtBound::Upper, false);
        assert!(tt.probe(keys[3], 0).hit.is_none());
        assert!(keys[..3].iter().all(|&k| tt.probe(k, 0).hit.is_some()));
    }

    #[test]
    fn replacement_prefers_old_and_shallow() {
        let tt = TranspositionTable::new(1);
        // Five keys that land in the same bucket: equal high bits, differing low bits.
        let keys: Vec<u64> = (0..5u64).map(|i| 0xabcd_0000_0000_0000 | i).collect();
        for (i, &k) in keys[..4].iter().enumerate() {
            let p = tt.probe(k, 0);
            tt.store(&p, k, None, 0, 0, 10 + i as i32, TtBound::Exact, false);
        }
        tt.new_search();
        let p = tt.probe(keys[4], 0);
        tt.store(&p, keys[4], None, 0, 0, 1, TtBound::Exact, false);
        // The shallowest old entry (depth 10) made room.
        assert!(tt.probe(keys[0], 0).hit.is_none());
        assert!(tt.probe(keys[4], 0).hit.is_some());
        assert!(tt.probe(keys[3], 0).hit.is_some());
    }

    #[test]
    fn a_table_larger_than_memory_gets_what_fits() {
        assert_eq!(TranspositionTable::new(3).megabytes(), 3);
        let huge = TranspositionTable::new(65536);
        assert!(huge.megabytes() >= 1);
        assert!(huge.megabytes() * 1024 * 1024 <= table_byte_budget());
    }

    #[test]
    fn hashfull_and_clear() {
        let tt = TranspositionTable::new(1);
        tt.touch_all_pages(2);
        assert_eq!(tt.hashfull(), 0);
        tt.new_search();
        for i in 0..200_000u64 {
            let k = i.wrapping_mul(0x9e37_79b9_7f4a_7c15);
            let p = tt.probe(k, (i & 1) as usize);
            tt.store(&p, k, None, 0, 0, 3, TtBound::Exact, false);
        }
        assert!(tt.hashfull() > 500, "hashfull {}", tt.hashfull());
        tt.clear(2);
        assert_eq!(tt.hashfull(), 0);
        let drop = Move::drop(HandKind::Pawn, Square::new(4, 4));
        let p = tt.probe(7, 0);
        tt.store(&p, 7, Some(drop), 1, 1, 1, TtBound::Upper, false);
        assert_eq!(tt.probe(7, 0).hit.and_then(|h| h.mv()), Some(drop));
    }

    /// Two threads hammer the same few buckets with entries whose fields are all derived from the key;
    /// every accepted read must be internally consistent (a torn read would mix two keys' fields).
    #[test]
    fn concurrent_no_torn_reads() {
        let tt = Arc::new(TranspositionTable::new(1));
        let fields = |k: u64| -> (i16, i16, i32) {
            (
                (k as i16) & 0x3fff,
                ((k >> 16) as i16) & 0x3fff,
                (k >> 40) as i32 & 63,
            )
        };
        let workers: Vec<_> = (0..2u64)
            .map(|t| {
                let tt = Arc::clone(&tt);
                std::thread::spawn(move || {
                    let mut accepted = 0u64;
                    let mut rng = crate::rng::Rng::new(0x1234_5678 + t);
                    for _ in 0..400_000 {
                        // 16 keys sharing one bucket of 4 entries: maximal contention.
                        let n = rng.next() & 15;
                        let key = (0x5555u64 << 48)
                            | ((n + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15) & 0xffff_ffff_ffff);
                        let (s, e, d) = fields(key);
                        let p = tt.probe(key, 0);
                        if let Some(hit) = p.hit {
                            assert_eq!((hit.score, hit.eval, hit.depth as i32), (s, e, d));
                            accepted += 1;
                        }
                        tt.store(&p, key, None, s, e, d, TtBound::Exact, false);
                    }
                    accepted
                })
            })
            .collect();
        let accepted: u64 = workers.into_iter().map(|w| w.join().expect("worker")).sum();
        assert!(accepted > 0);
    }
}
