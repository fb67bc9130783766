//! Packets and their store.

/// A packet. Single-flit by default; `size > 1` flits move under virtual cut-through.
/// Routing algorithms keep their per-packet state in `intermediate`, `phase` and
/// `route_bits` (e.g. Valiant's intermediate router, DAL's deroute marks). 32 bytes, aligned
/// so that a packet never straddles two cache lines (routing reads it at every hop).
#[derive(Clone, Copy, Debug)]
#[repr(align(32))]
pub struct Packet {
    pub src: u32,
    pub dst: u32,
    pub dst_router: u32,
    /// Low 32 bits of the cycle the packet was generated (see [`Packet::created`]).
    pub created_low: u32,
    /// Intermediate router or group of non-minimal routes, or [`Packet::NONE`].
    pub intermediate: u32,
    /// Algorithm-specific bits (deroute marks, priority flags).
    pub route_bits: u32,
    pub size: u16,
    /// Router-to-router channels taken so far (counted when the route is chosen, so at a
    /// router it is the number of channels that brought the packet there).
    pub hops: u16,
    pub phase: u8,
    /// Created inside the measurement window.
    pub labeled: bool,
    /// Routed on a non-minimal path (set by the routing algorithm).
    pub nonminimal: bool,
}

impl Packet {
    pub(crate) const NONE: u32 = u32::MAX;

    pub fn new(src: u32, dst: u32, dst_router: u32, created: u64, size: u16, labeled: bool) -> Packet {
        Packet {
            src,
            dst,
            dst_router,
            created_low: created as u32,
            intermediate: Packet::NONE,
            route_bits: 0,
            size,
            hops: 0,
            phase: 0,
            labeled,
            nonminimal: false,
        }
    }

    /// The cycle the packet was generated, given the current cycle `now` (exact while a
    /// packet lives less than 2^32 cycles: the deadlock watchdog trips long before).
    #[inline]
    pub(crate) fn created(&self, now: u64) -> u64 {
        past_cycle(now, self.created_low)
    }
}

/// The cycle at or before `now` whose low 32 bits are `low` (the engine keeps past cycles
/// of packets and buffer slots in 32 bits; they are never 2^32 cycles old).
#[inline]
pub(super) fn past_cycle(now: u64, low: u32) -> u64 {
    now - (now as u32).wrapping_sub(low) as u64
}

/// Slab of packets with a free list; ids are reused, so the store stops growing once
/// the network reaches steady state.
#[derive(Clone, Debug, Default)]
pub struct PacketStore {
    slots: Vec<Packet>,
    free: Vec<u32>,
}

impl PacketStore {
    pub(crate) fn alloc(&mut self, p: Packet) -> u32 {
        match self.free.pop() {
            Some(id) => {
                self.slots[id as usize] = p;
                id
            }
            None => {
                self.slots.push(p);
                self.slots.len() as u32 - 1
            }
        }
    }
    pub(crate) fn release(&mut self, id: u32) {
        self.free.push(id);
    }
    /// Bytes held by the store.
    pub(crate) fn memory_bytes(&self) -> usize {
        self.slots.capacity() * std::mem::size_of::<Packet>() + self.free.capacity() * 4
    }
    /// Packets currently alive.
    pub(crate) fn live(&self) -> usize {
        self.slots.len() - self.free.len()
    }
}

impl std::ops::Index<u32> for PacketStore {
    type Output = Packet;
    #[inline]
    fn index(&self, id: u32) -> &Packet {
        &self.slots[id as usize]
    }
}

impl std::ops::IndexMut<u32> for PacketStore {
    #[inline]
    fn index_mut(&mut self, id: u32) -> &mut Packet {
        &mut self.slots[id as usize]
    }
}
