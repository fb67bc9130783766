//! [`Table`]: the engine's flat arrays.
//!
//! Every per-port, per-VC and per-router array of the engine is indexed by ids that the
//! network's construction bounds (port ids below `total_ports`, VC indices below
//! `total_ports · V`, router ids below `routers`). Indexing a table or a view with `[]` is
//! bounds-checked, like a slice's. The hot loops where the checks cost measurably (switch
//! allocation, route computation, the channels, arrivals and credits, the per-router
//! bitsets and the terminals: all checked, the engine executes 26–30 % more native
//! instructions per cycle, docs/performance.md) use the `get_unchecked` methods below in
//! `unsafe` blocks, each with a `SAFETY:` comment that proves its bound from the
//! invariants listed on `Simulation` ("Index invariants"). Debug builds and the `checked`
//! test profile still assert every unchecked index.

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

impl<T> std::ops::DerefMut for Table<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.0
    }
}

impl<T> Table<T> {
    /// Entry `i`, without a bounds check in release builds.
    ///
    /// # Safety
    /// `i` must be below the table's length.
    #[inline(always)]
    pub(super) unsafe fn get_unchecked(&self, i: usize) -> &T {
        debug_assert!(i < self.0.len(), "index {i} out of a table of {}", self.0.len());
        // SAFETY: the caller guarantees `i < len`.
        unsafe { self.0.get_unchecked(i) }
    }
    /// Entry `i`, mutably, without a bounds check in release builds.
    ///
    /// # Safety
    /// `i` must be below the table's length.
    #[inline(always)]
    pub(super) unsafe fn get_unchecked_mut(&mut self, i: usize) -> &mut T {
        debug_assert!(i < self.0.len(), "index {i} out of a table of {}", self.0.len());
        // SAFETY: the caller guarantees `i < len`.
        unsafe { self.0.get_unchecked_mut(i) }
    }
    /// The table as a local view, for hot loops: a local view keeps its base address in a
    /// register, where a field reached through `self` is reloaded after every store the
    /// compiler cannot prove unrelated.
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
    /// A mutable view of the entries `range`, without a bounds check in release builds.
    ///
    /// # Safety
    /// `range.start <= range.end <= len`.
    #[inline(always)]
    pub(super) unsafe fn range_mut_unchecked(&mut self, range: std::ops::Range<usize>) -> ViewMut<'_, T> {
        debug_assert!(
            range.start <= range.end && range.end <= self.0.len(),
            "range {range:?} out of a table of {}",
            self.0.len()
        );
        // SAFETY: the caller guarantees the range is within the table.
        ViewMut(unsafe { self.0.get_unchecked_mut(range) })
    }
}

/// A borrowed [`Table`] (see [`Table::view`]).
#[derive(Clone, Copy)]
pub(super) struct View<'a, T>(&'a [T]);

/// A mutably borrowed [`Table`] (see [`Table::view_mut`]).
pub(super) struct ViewMut<'a, T>(&'a mut [T]);

impl<T> std::ops::Deref for View<'_, T> {
    type Target = [T];
    #[inline(always)]
    fn deref(&self) -> &[T] {
        self.0
    }
}

impl<T> std::ops::Deref for ViewMut<'_, T> {
    type Target = [T];
    #[inline(always)]
    fn deref(&self) -> &[T] {
        self.0
    }
}

impl<T> std::ops::DerefMut for ViewMut<'_, T> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [T] {
        self.0
    }
}

impl<'a, T> View<'a, T> {
    /// Entry `i`, without a bounds check in release builds.
    ///
    /// # Safety
    /// `i` must be below the view's length.
    #[inline(always)]
    pub(super) unsafe fn get_unchecked(&self, i: usize) -> &'a T {
        debug_assert!(i < self.0.len(), "index {i} out of a table of {}", self.0.len());
        // SAFETY: the caller guarantees `i < len`.
        unsafe { self.0.get_unchecked(i) }
    }
}

impl<T> ViewMut<'_, T> {
    /// Entry `i`, without a bounds check in release builds.
    ///
    /// # Safety
    /// `i` must be below the view's length.
    #[inline(always)]
    pub(super) unsafe fn get_unchecked(&self, i: usize) -> &T {
        debug_assert!(i < self.0.len(), "index {i} out of a table of {}", self.0.len());
        // SAFETY: the caller guarantees `i < len`.
        unsafe { self.0.get_unchecked(i) }
    }
    /// Entry `i`, mutably, without a bounds check in release builds.
    ///
    /// # Safety
    /// `i` must be below the view's length.
    #[inline(always)]
    pub(super) unsafe fn get_unchecked_mut(&mut self, i: usize) -> &mut T {
        debug_assert!(i < self.0.len(), "index {i} out of a table of {}", self.0.len());
        // SAFETY: the caller guarantees `i < len`.
        unsafe { self.0.get_unchecked_mut(i) }
    }
}
