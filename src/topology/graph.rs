//! The router graph every topology produces: flat port tables indexed by integers.
//!
//! Router `r` has ports `0..radix(r)`; its port `p` has the global id
//! `port_offset[r] + p`, which the engine uses to index every per-port array. A port is
//! either a terminal port (injection input + ejection output of one terminal) or one end
//! of a bidirectional router-to-router channel (an output and an input).

use serde::Serialize;

/// Link class of a port; each class has its own channel latency (`router.*_latency`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LinkClass {
    Terminal,
    /// Channels inside a group (dragonfly) or along a dimension (HyperX family).
    Local,
    /// Dragonfly channels between groups.
    Global,
}

/// One port of one router.
#[derive(Clone, Copy, Debug)]
pub struct Port {
    pub class: LinkClass,
    /// Peer router, or [`Port::TERMINAL`] for a terminal port.
    pub peer_router: u32,
    /// Port index at the peer router, or the terminal id for a terminal port.
    pub peer_port: u32,
    /// Dimension of the channel (HyperX family); 0 otherwise.
    pub dim: u16,
}

impl Port {
    pub(crate) const TERMINAL: u32 = u32::MAX;

    pub fn is_terminal(&self) -> bool {
        self.peer_router == Port::TERMINAL
    }
}

/// A built network.
#[derive(Clone, Debug)]
pub struct Network {
    port_offset: Vec<u32>,
    ports: Vec<Port>,
    /// terminal → (router, port) that delivers to it.
    terminal_port: Vec<(u32, u32)>,
    /// terminal → (router, port) it injects into; the same as `terminal_port` except in
    /// unidirectional networks (the conventional butterfly), where a terminal injects
    /// into the first stage and receives from the last.
    inject_port: Vec<(u32, u32)>,
    /// Drawing coordinates of each router in the unit square.
    pub positions: Vec<[f32; 2]>,
    /// Identical parallel networks (channel slicing, dragonfly §3.2; 1 otherwise): the
    /// routers form `slices` equal blocks that no channel joins, and terminal
    /// `s·nodes + n` is node `n`'s interface to slice `s`.
    slices: u32,
}

impl Network {
    pub fn routers(&self) -> usize {
        self.port_offset.len() - 1
    }
    /// Terminal ports: every node's interface to every slice.
    pub fn terminals(&self) -> usize {
        self.terminal_port.len()
    }
    /// Parallel networks (channel slicing): 1 except in a sliced dragonfly.
    pub fn slices(&self) -> u32 {
        self.slices
    }
    /// The endpoints traffic runs between: the terminals, or with slices the nodes, each
    /// attached to every slice by its own terminal channel.
    pub fn nodes(&self) -> usize {
        self.terminal_port.len() / self.slices as usize
    }
    /// The slice a router belongs to.
    #[inline]
    pub fn slice_of(&self, router: u32) -> u32 {
        router / (self.routers() as u32 / self.slices)
    }
    /// Total number of ports over all routers.
    pub fn total_ports(&self) -> usize {
        self.ports.len()
    }
    pub fn radix(&self, router: u32) -> u32 {
        self.port_offset[router as usize + 1] - self.port_offset[router as usize]
    }
    pub(crate) fn max_radix(&self) -> u32 {
        (0..self.routers() as u32).map(|r| self.radix(r)).max().unwrap_or(0)
    }
    /// Global id of port `port` of `router`.
    #[inline]
    pub fn port_id(&self, router: u32, port: u32) -> usize {
        (self.port_offset[router as usize] + port) as usize
    }
    #[inline]
    pub fn port_offset(&self, router: u32) -> usize {
        self.port_offset[router as usize] as usize
    }
    #[inline]
    pub fn port(&self, router: u32, port: u32) -> &Port {
        &self.ports[self.port_id(router, port)]
    }
    /// The port with a global id.
    #[inline]
    pub fn port_by_id(&self, id: usize) -> &Port {
        &self.ports[id]
    }
    /// (router, port) that delivers to a terminal (its ejection port; also its injection
    /// port in every bidirectional network).
    #[inline]
    pub fn terminal_port(&self, terminal: u32) -> (u32, u32) {
        self.terminal_port[terminal as usize]
    }
    /// Router that delivers to a terminal (a packet's destination router).
    #[inline]
    pub fn terminal_router(&self, terminal: u32) -> u32 {
        self.terminal_port[terminal as usize].0
    }
    /// (router, port) a terminal injects into (differs from [`Network::terminal_port`]
    /// only in the unidirectional butterfly).
    #[inline]
    pub(crate) fn inject_port(&self, terminal: u32) -> (u32, u32) {
        self.inject_port[terminal as usize]
    }
    /// Router a terminal injects into (a packet's source router).
    #[inline]
    pub(crate) fn inject_router(&self, terminal: u32) -> u32 {
        self.inject_port[terminal as usize].0
    }
    /// Router that owns a global port id.
    pub(crate) fn router_of_port(&self, id: usize) -> u32 {
        (self.port_offset.partition_point(|&o| o as usize <= id) - 1) as u32
    }
    /// Whether terminals inject and receive at different routers (the conventional
    /// butterfly): its channels are used in one direction only.
    pub(crate) fn unidirectional(&self) -> bool {
        self.inject_port != self.terminal_port
    }
    /// The port id at router `a` of its `trunk`-th link (from 0, in port order) to router
    /// `b`, or why there is none.
    pub fn link_port(&self, a: u32, b: u32, trunk: u32) -> Result<usize, String> {
        let routers = self.routers() as u32;
        if let Some(r) = [a, b].into_iter().find(|&r| r >= routers) {
            return Err(format!("router {r} does not exist (routers are 0 to {})", routers.saturating_sub(1)));
        }
        let links: Vec<u32> = (0..self.radix(a)).filter(|&p| self.port(a, p).peer_router == b).collect();
        match links.get(trunk as usize) {
            Some(&p) => Ok(self.port_id(a, p)),
            None if links.is_empty() => Err(format!("routers {a} and {b} are not linked")),
            None => {
                Err(format!("routers {a} and {b} have {} parallel links; trunk {trunk} does not exist", links.len()))
            }
        }
    }
    /// The link of port id `id` as [`Network::link_port`] names it: (its router, the peer
    /// router, its index among their parallel links in port order).
    pub fn link_of(&self, id: usize) -> (u32, u32, u32) {
        let a = self.router_of_port(id);
        let b = self.ports[id].peer_router;
        let local = (id - self.port_offset(a)) as u32;
        (a, b, (0..local).filter(|&p| self.port(a, p).peer_router == b).count() as u32)
    }
    /// Every directed router-to-router channel as (src router, src port, dst router, dst port).
    pub fn channels(&self) -> impl Iterator<Item = (u32, u32, u32, u32)> + '_ {
        (0..self.routers() as u32).flat_map(move |r| {
            (0..self.radix(r)).filter_map(move |p| {
                let port = self.port(r, p);
                (!port.is_terminal()).then_some((r, p, port.peer_router, port.peer_port))
            })
        })
    }
}

/// Incremental construction with a consistency check at the end.
#[derive(Debug, Default)]
pub(crate) struct NetworkBuilder {
    port_offset: Vec<u32>,
    ports: Vec<Option<Port>>,
    terminal_port: Vec<Option<(u32, u32)>>,
    inject_port: Vec<Option<(u32, u32)>>,
}

impl NetworkBuilder {
    pub(crate) fn new(terminals: usize) -> Self {
        NetworkBuilder {
            port_offset: vec![0],
            ports: Vec::new(),
            terminal_port: vec![None; terminals],
            inject_port: vec![None; terminals],
        }
    }

    /// Adds a router with `radix` ports; routers are numbered in order of addition.
    pub(crate) fn add_router(&mut self, radix: u32) -> u32 {
        let id = self.port_offset.len() as u32 - 1;
        let last = *self.port_offset.last().unwrap();
        self.port_offset.push(last + radix);
        self.ports.resize((last + radix) as usize, None);
        id
    }

    fn slot(&mut self, router: u32, port: u32) -> &mut Option<Port> {
        let id = (self.port_offset[router as usize] + port) as usize;
        assert!(
            port < self.port_offset[router as usize + 1] - self.port_offset[router as usize],
            "port {port} out of range at router {router}"
        );
        &mut self.ports[id]
    }

    pub(crate) fn attach_terminal(&mut self, terminal: u32, router: u32, port: u32) {
        *self.slot(router, port) =
            Some(Port { class: LinkClass::Terminal, peer_router: Port::TERMINAL, peer_port: terminal, dim: 0 });
        self.terminal_port[terminal as usize] = Some((router, port));
    }

    /// Unidirectional networks: `terminal` injects at (`router`, `port`) but is delivered
    /// to by the port given to [`NetworkBuilder::attach_terminal`]. The port's output
    /// direction stays unused.
    pub(crate) fn attach_injection(&mut self, terminal: u32, router: u32, port: u32) {
        *self.slot(router, port) =
            Some(Port { class: LinkClass::Terminal, peer_router: Port::TERMINAL, peer_port: terminal, dim: 0 });
        self.inject_port[terminal as usize] = Some((router, port));
    }

    /// Connects two router ports with a bidirectional channel.
    pub(crate) fn connect(&mut self, a: (u32, u32), b: (u32, u32), class: LinkClass, dim: u16) {
        for (from, to) in [(a, b), (b, a)] {
            let slot = self.slot(from.0, from.1);
            assert!(slot.is_none(), "port {} of router {} wired twice", from.1, from.0);
            *slot = Some(Port { class, peer_router: to.0, peer_port: to.1, dim });
        }
    }

    pub(crate) fn finish(self, positions: Vec<[f32; 2]>) -> Network {
        self.finish_sliced(positions, 1)
    }

    /// [`NetworkBuilder::finish`] for `slices` parallel networks: routers and terminals
    /// numbered slice after slice, in equal blocks (see [`Network::slices`]).
    pub(crate) fn finish_sliced(self, positions: Vec<[f32; 2]>, slices: u32) -> Network {
        let routers = self.port_offset.len() - 1;
        assert!(
            slices >= 1
                && routers.is_multiple_of(slices as usize)
                && self.terminal_port.len().is_multiple_of(slices as usize),
            "{slices} slices of {routers} routers"
        );
        let ports: Vec<Port> = self
            .ports
            .into_iter()
            .enumerate()
            .map(|(i, p)| p.unwrap_or_else(|| panic!("port {i} left unconnected")))
            .collect();
        let terminal_port: Vec<(u32, u32)> = self
            .terminal_port
            .into_iter()
            .enumerate()
            .map(|(t, p)| p.unwrap_or_else(|| panic!("terminal {t} unattached")))
            .collect();
        let inject_port =
            self.inject_port.iter().zip(&terminal_port).map(|(inj, &eject)| inj.unwrap_or(eject)).collect();
        assert_eq!(positions.len(), self.port_offset.len() - 1);
        Network { port_offset: self.port_offset, ports, terminal_port, inject_port, positions, slices }
    }
}
