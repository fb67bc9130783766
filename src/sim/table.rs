//! [`Table`]: the engine's flat arrays.
//!
//! Every per-port, per-VC and per-router array of the engine is indexed by ids that the
//! network's construction bounds (port ids below `total_ports`, VC indices below
//! `total_ports · V`, router ids below `routers`), and the step loop indexes them a few
//! dozen times per packet hop. A bounds check per access is about a third of the loop's
//! instructions, so a `Table` checks its indices with `debug_assert!` only: in debug
//! builds and in the `checked` profile (release optimisation plus debug assertions), in
//! which the test command runs the engine and routing tests at full load.

/// A fixed-length array indexed by integer ids.
#[derive(Clone, Debug, Default)]
pub(super) struct Table<T>(Vec<T>);

impl<T> From<Vec<T>> for Table<T> {
    fn from(v: Vec<T>) -> Self {
        Table(v)
    }
}

impl<T> FromIterator<T> for Table<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        Table(iter.into_iter().collect())
    }
}

impl<T> std::ops::Deref for Table<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.0
    }
}

impl<T> std::ops::Index<usize> for Table<T> {
    type Output = T;
    #[inline(always)]
    fn index(&self, i: usize) -> &T {
        debug_assert!(i < self.0.len(), "index {i} out of a table of {}", self.0.len());
        // SAFETY: engine ids are in bounds by construction (module documentation); debug
        // builds and the `checked` test profile assert it on every access.
        unsafe { self.0.get_unchecked(i) }
    }
}

impl<T> std::ops::IndexMut<usize> for Table<T> {
    #[inline(always)]
    fn index_mut(&mut self, i: usize) -> &mut T {
        debug_assert!(i < self.0.len(), "index {i} out of a table of {}", self.0.len());
        // SAFETY: as for `index`.
        unsafe { self.0.get_unchecked_mut(i) }
    }
}

impl<T> Table<T> {
    /// The table as a slice with unchecked indexing, for hot loops: a local view keeps its
    /// base address in a register, where a field reached through `self` is reloaded
    /// after every store the compiler cannot prove unrelated.
    #[inline(always)]
    pub(super) fn view(&self) -> View<'_, T> {
        View(&self.0)
    }
    /// The mutable counterpart of [`Table::view`].
    #[inline(always)]
    pub(super) fn view_mut(&mut self) -> ViewMut<'_, T> {
        ViewMut(&mut self.0)
    }
    /// A mutable view of the entries `range` (bounds-checked once, here).
    #[inline(always)]
    pub(super) fn range_mut(&mut self, range: std::ops::Range<usize>) -> ViewMut<'_, T> {
        ViewMut(&mut self.0[range])
    }
}

/// A borrowed [`Table`] (see [`Table::view`]).
#[derive(Clone, Copy)]
pub(super) struct View<'a, T>(&'a [T]);

/// A mutably borrowed [`Table`] (see [`Table::view_mut`]).
pub(super) struct ViewMut<'a, T>(&'a mut [T]);

impl<T> std::ops::Index<usize> for View<'_, T> {
    type Output = T;
    #[inline(always)]
    fn index(&self, i: usize) -> &T {
        debug_assert!(i < self.0.len(), "index {i} out of a table of {}", self.0.len());
        // SAFETY: as for `Table::index`.
        unsafe { self.0.get_unchecked(i) }
    }
}

impl<T> std::ops::Index<usize> for ViewMut<'_, T> {
    type Output = T;
    #[inline(always)]
    fn index(&self, i: usize) -> &T {
        debug_assert!(i < self.0.len(), "index {i} out of a table of {}", self.0.len());
        // SAFETY: as for `Table::index`.
        unsafe { self.0.get_unchecked(i) }
    }
}

impl<T> std::ops::IndexMut<usize> for ViewMut<'_, T> {
    #[inline(always)]
    fn index_mut(&mut self, i: usize) -> &mut T {
        debug_assert!(i < self.0.len(), "index {i} out of a table of {}", self.0.len());
        // SAFETY: as for `Table::index`.
        unsafe { self.0.get_unchecked_mut(i) }
    }
}
