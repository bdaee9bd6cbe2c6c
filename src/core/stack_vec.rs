//! A fixed-capacity list on the stack: the move lists of generation and search, and the search's
//! short records of the moves a node tried. Nothing allocates, and nothing is initialised up front
//! (zeroing the 1.2 KB of a move list was a `memset` in every node).

use std::mem::MaybeUninit;

/// Up to `N` values of `T`, stored inline.
pub struct StackVec<T: Copy, const N: usize> {
    items: [MaybeUninit<T>; N],
    len: usize,
}

impl<T: Copy, const N: usize> Default for StackVec<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy, const N: usize> StackVec<T, N> {
    #[inline]
    pub fn new() -> Self {
        StackVec {
            // A `const` block rather than `[MaybeUninit::uninit(); N]`: the repeat form made rustc
            // zero the array (a `memset` call in every perft node, 3% of startpos perft(5)
            // instructions under callgrind).
            items: [const { MaybeUninit::uninit() }; N],
            len: 0,
        }
    }

    /// Appends `item`. Panics (index out of bounds) when full: callers size `N` so that it cannot
    /// be (a move list holds more than any position's legal moves).
    #[inline]
    pub fn push(&mut self, item: T) {
        self.items[self.len] = MaybeUninit::new(item);
        self.len += 1;
    }

    /// Appends `item` unless the list is full, for records that only need their first `N` items.
    #[inline]
    pub fn push_if_room(&mut self, item: T) {
        if let Some(slot) = self.items.get_mut(self.len) {
            *slot = MaybeUninit::new(item);
            self.len += 1;
        }
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    #[inline]
    pub fn as_slice(&self) -> &[T] {
        // Safety: the first `len` items were written by `push`, `push_if_room` or `retain_from`
        // (`MaybeUninit<T>` has `T`'s layout), and `len <= N` because each write is bounds-checked
        // before `len` grows.
        unsafe { std::slice::from_raw_parts(self.items.as_ptr().cast::<T>(), self.len) }
    }

    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        // Safety: as in `as_slice`.
        unsafe { std::slice::from_raw_parts_mut(self.items.as_mut_ptr().cast::<T>(), self.len) }
    }

    #[inline]
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.as_slice().iter()
    }

    /// Keeps the items for which `keep` is true (order preserved).
    pub fn retain(&mut self, keep: impl FnMut(T) -> bool) {
        self.retain_from(0, keep);
    }

    /// Keeps the items from index `start` on for which `keep` is true; earlier ones stay.
    pub fn retain_from(&mut self, start: usize, mut keep: impl FnMut(T) -> bool) {
        let start = start.min(self.len);
        let mut kept = start;
        for i in start..self.len {
            let item = self.as_slice()[i];
            if keep(item) {
                self.items[kept] = MaybeUninit::new(item);
                kept += 1;
            }
        }
        self.len = kept;
    }
}

impl<T: Copy + PartialEq, const N: usize> StackVec<T, N> {
    #[inline]
    pub fn contains(&self, item: T) -> bool {
        self.as_slice().contains(&item)
    }
}

impl<T: Copy, const N: usize> std::ops::Index<usize> for StackVec<T, N> {
    type Output = T;
    #[inline]
    fn index(&self, i: usize) -> &T {
        &self.as_slice()[i]
    }
}

impl<'a, T: Copy, const N: usize> IntoIterator for &'a StackVec<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<T: Copy + std::fmt::Debug, const N: usize> std::fmt::Debug for StackVec<T, N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_if_room_keeps_the_first_items_and_drops_the_overflow() {
        let mut list = StackVec::<u32, 3>::new();
        assert!(list.is_empty());
        for i in 0..5 {
            list.push_if_room(i);
        }
        assert_eq!(list.as_slice(), &[0, 1, 2]);
    }

    #[test]
    fn retain_from_filters_only_the_tail_and_keeps_order() {
        let mut list = StackVec::<u32, 8>::new();
        for i in 0..8 {
            list.push(i);
        }
        // Odd items before index 3 stay; from 3 on only the even ones, in order.
        list.retain_from(3, |x| x % 2 == 0);
        assert_eq!(list.as_slice(), &[0, 1, 2, 4, 6]);
        list.retain(|x| x != 1);
        assert_eq!(list.as_slice(), &[0, 2, 4, 6]);
        // A start past the end keeps everything.
        list.retain_from(10, |_| false);
        assert_eq!(list.len(), 4);
    }

    #[test]
    #[should_panic]
    fn push_beyond_capacity_panics() {
        let mut list = StackVec::<u32, 2>::new();
        for i in 0..3 {
            list.push(i);
        }
    }
}
