//! The moves a node has searched so far, kept for the history update after a cutoff.

use std::mem::MaybeUninit;

/// A bounded list that ignores pushes beyond its capacity (the history update only needs the first
/// moves tried). Nothing is initialised up front: a node that cuts off at its first move pays no
/// stores for the unused slots (an array of `Option`s cost every node a few hundred bytes of
/// unrolled stores, and the instruction-cache misses that came with them).
pub(super) struct Tried<T: Copy, const N: usize> {
    items: [MaybeUninit<T>; N],
    len: usize,
}

impl<T: Copy, const N: usize> Tried<T, N> {
    #[inline]
    pub(super) fn new() -> Self {
        Tried {
            items: [const { MaybeUninit::uninit() }; N],
            len: 0,
        }
    }

    /// Appends `item` unless the list is full.
    #[inline]
    pub(super) fn push(&mut self, item: T) {
        if let Some(slot) = self.items.get_mut(self.len) {
            *slot = MaybeUninit::new(item);
            self.len += 1;
        }
    }

    #[inline]
    pub(super) fn as_slice(&self) -> &[T] {
        // Safety: the first `len` slots were written by `push`, and `len <= N` because `push` only
        // counts a slot it wrote; `MaybeUninit<T>` has the layout of `T`.
        unsafe { std::slice::from_raw_parts(self.items.as_ptr().cast::<T>(), self.len) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_first_items_in_order_and_drops_the_overflow() {
        let mut tried = Tried::<u32, 3>::new();
        assert!(tried.as_slice().is_empty());
        for i in 0..5 {
            tried.push(i);
        }
        assert_eq!(tried.as_slice(), &[0, 1, 2]);
    }
}
