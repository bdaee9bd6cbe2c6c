//! Memory for the large tables the engine probes at random (the search's transposition table, the
//! mate solver's table, the slider attack tables): a budget that keeps the tables sized by
//! `USI_Hash` inside the machine's memory, and zeroed storage, mapped lazily and on Linux backed by
//! 2 MB pages where the system allows it.
//!
//! Why not `Box::new_zeroed_slice`: for a type aligned above 16 bytes the standard allocator zeroes
//! with `memset`, and a failed allocation aborts the process (`USI_Hash` goes up to 64 GB, more than
//! many machines have). The memory also comes in 4 KB pages, so nearly every probe of a random
//! bucket misses the TLB as well as the cache (perf on a long search: ~12% of the time stalled on
//! the child's prefetch). An anonymous `mmap` is zero pages until first touch, reports failure, and
//! `MADV_HUGEPAGE` asks for transparent huge pages on it.

use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

/// Types for which the all-zero bit pattern is a valid value.
///
/// # Safety
/// Implement only for types where every field accepts zero bits (integers, atomics of integers,
/// arrays and structs of those, without padding that matters).
pub unsafe trait Zeroable: Sized {}

// Safety: plain integers.
unsafe impl Zeroable for i8 {}
// Safety: plain integers.
unsafe impl Zeroable for i16 {}
// Safety: all-zero bits are 0.0.
unsafe impl Zeroable for f32 {}

/// The most one table may take: half the machine's physical memory (two tables are sized by
/// `USI_Hash`, and a table larger than memory would be swapped or killed as it is touched), or
/// `usize::MAX` where the size of memory is unknown.
pub fn table_byte_budget() -> usize {
    physical_memory().map_or(usize::MAX, |bytes| bytes / 2)
}

#[cfg(target_os = "linux")]
fn physical_memory() -> Option<usize> {
    // Safety: sysconf only reads system parameters.
    let (pages, page_size) = unsafe {
        (
            libc::sysconf(libc::_SC_PHYS_PAGES),
            libc::sysconf(libc::_SC_PAGESIZE),
        )
    };
    let pages = usize::try_from(pages).ok().filter(|&p| p > 0)?;
    let page_size = usize::try_from(page_size).ok().filter(|&p| p > 0)?;
    pages.checked_mul(page_size)
}

#[cfg(not(target_os = "linux"))]
fn physical_memory() -> Option<usize> {
    None
}

/// A fixed-length slice of zero-initialised `T`, aligned to at least a cache line (64 bytes: the
/// network's weight rows are read with aligned vector loads).
pub struct LargeTable<T: Zeroable> {
    /// The first value and the count: what `deref` hands out, the same for either owner.
    values: NonNull<T>,
    len: usize,
    _owner: Owner,
}

/// Alignment of every table.
pub const TABLE_ALIGN: usize = 64;

/// Tables at least this big are mapped (and may get 2 MB pages); smaller ones come from the
/// allocator, where a huge page would mostly hold nothing.
const MAP_THRESHOLD: usize = 2 * 1024 * 1024;

/// Who frees the memory (only ever dropped: `values` points into it). The values never move: a
/// heap block and a mapping stay where they are when the owner is moved.
#[allow(dead_code)]
enum Owner {
    #[cfg(target_os = "linux")]
    Mapped(mapped::Mapping),
    Allocated(Allocation),
    /// Nothing to free (zero bytes).
    Empty,
}

/// A block from the global allocator, freed with the layout it was allocated with.
struct Allocation {
    block: NonNull<u8>,
    layout: std::alloc::Layout,
}

impl Drop for Allocation {
    fn drop(&mut self) {
        // Safety: `block` came from `alloc_zeroed(layout)` and is freed once, here.
        unsafe { std::alloc::dealloc(self.block.as_ptr(), self.layout) }
    }
}

// Safety: a `LargeTable` owns its values like a `Box<[T]>`; sending and sharing follow `T`.
unsafe impl<T: Zeroable + Send> Send for LargeTable<T> {}
unsafe impl<T: Zeroable + Sync> Sync for LargeTable<T> {}

impl<T: Zeroable> LargeTable<T> {
    /// `len` zeroed values, or None when the memory cannot be had (the caller decides what smaller
    /// table will do).
    pub fn try_zeroed(len: usize) -> Option<LargeTable<T>> {
        let bytes = len.checked_mul(std::mem::size_of::<T>())?;
        #[cfg(target_os = "linux")]
        if bytes >= MAP_THRESHOLD {
            if let Some((mapping, values)) = mapped::Mapping::new::<T>(len) {
                return Some(LargeTable {
                    values,
                    len,
                    _owner: Owner::Mapped(mapping),
                });
            }
        }
        if bytes == 0 {
            return Some(LargeTable {
                values: NonNull::dangling(),
                len,
                _owner: Owner::Empty,
            });
        }
        let layout =
            std::alloc::Layout::from_size_align(bytes, std::mem::align_of::<T>().max(TABLE_ALIGN))
                .ok()?;
        // Safety: the layout has a non-zero size.
        let block = NonNull::new(unsafe { std::alloc::alloc_zeroed(layout) })?;
        // `block` holds `len` zeroed `T`s (valid: `T: Zeroable`), aligned for `T`.
        Some(LargeTable {
            values: block.cast::<T>(),
            len,
            _owner: Owner::Allocated(Allocation { block, layout }),
        })
    }
}

impl<T: Zeroable> Deref for LargeTable<T> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        // Safety: `values` points at `len` initialised values (zero bits are valid for `T`) that
        // live as long as `_owner`, i.e. as long as `self`.
        unsafe { std::slice::from_raw_parts(self.values.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> DerefMut for LargeTable<T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        // Safety: as for `deref`; `&mut self` makes the access exclusive.
        unsafe { std::slice::from_raw_parts_mut(self.values.as_ptr(), self.len) }
    }
}

#[cfg(target_os = "linux")]
mod mapped {
    use std::ptr::NonNull;

    const HUGE_PAGE: usize = 2 * 1024 * 1024;

    /// An anonymous private mapping, unmapped on drop.
    pub struct Mapping {
        base: NonNull<libc::c_void>,
        bytes: usize,
    }

    impl Mapping {
        /// A mapping with room for `len` values of `T` from a 2 MB boundary, and where they start.
        /// None when the size overflows or the kernel refuses (the caller falls back to the
        /// allocator).
        pub fn new<T>(len: usize) -> Option<(Mapping, NonNull<T>)> {
            let payload = len.checked_mul(std::mem::size_of::<T>())?;
            if payload == 0 || std::mem::align_of::<T>() > HUGE_PAGE {
                return None;
            }
            let payload = payload.checked_next_multiple_of(HUGE_PAGE)?;
            let bytes = payload.checked_add(HUGE_PAGE)?;
            // Safety: an anonymous mapping at an address of the kernel's choosing touches no
            // existing memory.
            let base = unsafe {
                libc::mmap(
                    std::ptr::null_mut(),
                    bytes,
                    libc::PROT_READ | libc::PROT_WRITE,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                    -1,
                    0,
                )
            };
            if base == libc::MAP_FAILED {
                return None;
            }
            let mapping = Mapping {
                base: NonNull::new(base)?,
                bytes,
            };
            let offset = (base as usize).next_multiple_of(HUGE_PAGE) - base as usize;
            // Safety: `offset < HUGE_PAGE`, so `[offset, offset + payload)` lies inside the mapping.
            let start = unsafe { base.cast::<u8>().add(offset) };
            // Safety: the range is inside our mapping; the advice changes no contents, and if it
            // fails (a kernel without THP, or THP disabled) the pages stay ordinary.
            let _ = unsafe { libc::madvise(start.cast(), payload, libc::MADV_HUGEPAGE) };
            // A huge-page boundary is aligned for any `T` with `align_of::<T>() <= HUGE_PAGE`.
            Some((mapping, NonNull::new(start.cast::<T>())?))
        }
    }

    impl Drop for Mapping {
        fn drop(&mut self) {
            // Safety: `base`/`bytes` are exactly what `mmap` returned; unmapped once. The values
            // need no drop: `Zeroable` types are plain data.
            unsafe {
                libc::munmap(self.base.as_ptr(), self.bytes);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    struct Pair {
        a: AtomicU64,
        b: AtomicU64,
    }
    // Safety: two atomics of an integer.
    unsafe impl Zeroable for Pair {}

    #[test]
    fn tables_start_zeroed_and_keep_writes() {
        for len in [1, 3, 100_000, (4 << 20) / 16 + 7] {
            let table = LargeTable::<Pair>::try_zeroed(len).expect("small tables fit");
            assert_eq!(table.len(), len);
            assert!(table.iter().all(|p| p.a.load(Ordering::Relaxed) == 0));
            assert!(table.iter().all(|p| p.b.load(Ordering::Relaxed) == 0));
            table[len - 1].a.store(7, Ordering::Relaxed);
            table[0].b.store(9, Ordering::Relaxed);
            assert_eq!(table[len - 1].a.load(Ordering::Relaxed), 7);
            assert_eq!(table[0].b.load(Ordering::Relaxed), 9);
        }
    }

    #[test]
    fn an_empty_table_is_empty() {
        let table = LargeTable::<Pair>::try_zeroed(0).expect("nothing to allocate");
        assert!(table.is_empty());
    }

    #[test]
    fn a_table_larger_than_the_address_space_is_refused() {
        assert!(LargeTable::<Pair>::try_zeroed(usize::MAX / 8).is_none());
    }

    #[test]
    fn the_budget_is_at_most_half_of_memory() {
        if let Some(memory) = physical_memory() {
            assert!(memory > 1 << 20, "a machine with at least a megabyte");
            assert_eq!(table_byte_budget(), memory / 2);
        }
    }

    #[test]
    fn small_and_large_tables_are_aligned_to_a_cache_line() {
        for len in [1, 1000, 3 << 20] {
            let table = LargeTable::<i8>::try_zeroed(len).expect("fits");
            assert_eq!(table.as_ptr() as usize % TABLE_ALIGN, 0, "{len}");
            assert!(table.iter().all(|&v| v == 0));
        }
    }

    #[test]
    fn values_are_aligned() {
        #[repr(align(64))]
        struct Line([u64; 8]);
        // Safety: integers only.
        unsafe impl Zeroable for Line {}
        let table = LargeTable::<Line>::try_zeroed(1000).expect("small tables fit");
        assert_eq!(table.as_ptr() as usize % 64, 0);
        assert!(table.iter().all(|l| l.0 == [0; 8]));
    }
}
