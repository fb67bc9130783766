// The saturation throughputs the four papers state, each with the configuration the paper
// states it for. The sweep plot draws one beside a measured curve whose configuration is
// the paper's (www/ui/stats-view.js); nothing is drawn for any other configuration.
//
// Every value is the paper's: `quote` is its own words, verbatim from its text in
// shared/papers/, and `stated` is the value as written there or, where the paper gives a
// formula (1/(ah), 1/T, 2β), as the project's claims (src/figures/claims/) evaluate it on
// the paper's network. tests/browser/paper-values.test.mjs checks both against those files.
//
// THE RULE: every parameter of the configuration is a condition of every value, and a
// configuration matches a value only when each of its parameters has a value the entry
// accepts. Which values an entry accepts for a parameter, first rule that names it:
//
//  1. `when`, what the paper states for that value: its network, routing, traffic and the
//     router settings it gives (`oneOf(…)` where its words allow several; a DERIVED
//     quantity where it gives buffering per VC or per port, however the config spells it).
//     `when` may also mark a parameter `open(quote, why)`: any value (or `atLeast(n, …)`),
//     only where the paper's own words, `quote` (checked like the values' quotes), leave
//     it open — "sufficient speedup", a switch it does not describe, an allocator it
//     gives for adaptive routing only, buffering it gives for another panel.
//  2. FREE: what does not change the network, the traffic or the routing a curve
//     measures — the seed, the measurement windows, the offered load (the sweep's axis),
//     the source-queue cap, and settings read only in a mode NEUTRAL excludes.
//  3. Parameters the configuration does not read (the catalog's `used_when`, e.g.
//     routing.crt0 unless the algorithm is UGAL-L_CR), when the caller passes the
//     catalog's reader (readerOf(model)); without it every parameter counts as read.
//  4. NEUTRAL: the engine's default (the tests check they are), which adds nothing to the
//     networks the papers describe: one slice (slice_policy is then not read), fully
//     connected untrunked untapered dragonfly groups, the absolute arrangement, no failed
//     links, terminals at the channels' rate, 1-cycle channels, Bernoulli injection,
//     single-flit packets, a shift of 1, the engine's own readings of the algorithms'
//     parameters (UGAL threshold 0, DAL's tests, Th = 4, the intermediate group "any"),
//     and the engine's router (4 VCs × 8 flits, separable allocation, speedup 2, output
//     queues of 2 × speedup). A paper that says nothing of a feature has not got it.
//  5. Anything else — a parameter added to the engine after this table — matches nothing.
//
// Per paper (the constants below quote the words):
//  - Dragonfly §4.2: the 1K network, a single-cycle router, input buffers 16 flits deep
//    (per VC), single-flit packets; VCs from Fig. 7: 3 for VAL, 2 or 3 for MIN. Open: the
//    speedup (at least 2), switch allocator and output queues ("sufficient speedup"), the
//    global arrangement, the intermediate group (other or any), MIN's and VAL's allocator.
//  - Flattened butterfly §3: a single-cycle router, single-flit packets, 32 flits per port
//    (Figs. 4, 6); the VCs §3.1 and Table 1 give (MIN AD n', VAL 2, CLOS AD 2, butterfly
//    and hypercube 1), §3.1's allocators. Open: the speedup (at least 2) and switch
//    allocator, UGAL's and UGAL-S's VCs, the oblivious algorithms' allocator; Fig. 12(a)
//    (VAL, 2 VCs): the storage, which the paper gives for Fig. 12(b) only.
//  - HyperX §4.1: all it states (4-cycle switches, 1-cycle channels, 6 VCs × 32 flits,
//    iSLIP, speedup 2, sequential allocation, single-flit packets). Open: iSLIP's
//    iterations, Valiant's allocator.
//  - 2DFB §IV: links at twice the terminal bandwidth. Open: the OMNeT++ switch it does not
//    describe (VCs, buffering, delay, speedup, allocators, output queues), the packet's
//    length in flits (121 bytes), Th, Minimal's and the Clos's allocator, and the
//    adversarial pattern's j (S_{i+j}).
//
// So a sliced, trunked, tapered, intra-group-flattened, differently arranged (except where
// open), failed-link, slowed-terminal or longer-channel network, or a router setting the
// paper does not leave open, shows no paper value. The sweep always injects by a
// Bernoulli process (www/sim/sweep.js), which the dragonfly and flattened butterfly papers
// state and the other two do not contradict.
//
// Entries the text cannot confirm are not in PAPER_VALUES but in UNCONFIRMED, with the
// words that leave them unconfirmed; where the paper contradicts itself, an entry's
// `readings` quote both sides, and the plot and its tooltip say which one is drawn.

import { flatten, getPath, readsParam, sameValue } from '../model/experiment.js';

/** What every value is: the offered load beyond which the paper's curve saturates. */
export const QUANTITY = 'saturation throughput, as a fraction of capacity (flits/cycle/terminal, the sweep’s offered-load axis)';

/** The four papers: a short name for the plot, the citation, the text in shared/papers/. */
const PAPERS = {
  dragonfly: {
    short: 'Dragonfly (ISCA 2008)',
    citation: 'Kim, Dally, Scott, Abts: “Technology-Driven, Highly-Scalable Dragonfly Topology”, ISCA 2008',
    file: 'dragonfly-isca08.txt',
    claims: 'dragonfly.rs',
  },
  flattenedButterfly: {
    short: 'Flattened butterfly (ISCA 2007)',
    citation: 'Kim, Dally, Abts: “Flattened Butterfly: A Cost-Efficient Topology for High-Radix Networks”, ISCA 2007',
    file: 'flattened-butterfly-isca07.md',
    claims: 'fb_hyperx_2dfb.rs',
  },
  hyperx: {
    short: 'HyperX (SC 2009)',
    citation: 'Ahn, Binkert, Davis, McLaren, Schreiber: “HyperX: Topology, Routing, and Packaging of Efficient Large-Scale Networks”, SC 2009',
    file: 'hyperx-sc09.txt',
    claims: 'fb_hyperx_2dfb.rs',
  },
  dilated: {
    short: 'Thamarakuzhi & Chandy',
    citation: 'Thamarakuzhi, Chandy: “Adaptive Load Balanced Routing for 2-Dilated Flattened Butterfly Switching Network”',
    file: '2dfb-adaptive-routing.md',
    claims: 'fb_hyperx_2dfb.rs',
  },
};

/** A condition met by any of `values`. */
const oneOf = (...values) => ({ oneOf: values });

/** A parameter the paper leaves open: any value; `quote` is the paper's words that do. */
const open = (quote, why) => ({ open: why, quote });

/** A number of at least `min`, the rest left open by the paper's words `quote`. */
const atLeast = (min, quote, why) => ({ atLeast: min, open: why, quote });

/** Whether the condition `wanted` accepts the value `actual`. */
export function accepts(wanted, actual) {
  if (wanted?.atLeast !== undefined) return typeof actual === 'number' && actual >= wanted.atLeast;
  if (wanted?.open) return true;
  if (wanted?.oneOf) return wanted.oneOf.some((v) => sameValue(v, actual));
  return sameValue(wanted, actual);
}

/** Flits per VC buffer, as the engine reads the config (RouterConfig::depth_per_vc). */
function flitsPerVc(config) {
  const { buffer_per_port: perPort, buffer_depth: depth, vcs } = config.router;
  return perPort === null || perPort === undefined ? depth : Math.floor(perPort / Math.max(1, vcs));
}

/** Quantities a paper fixes that the config spells in more than one way. */
export const DERIVED = new Map([
  ['flits per VC', flitsPerVc],
  ['flits per port', (config) => flitsPerVc(config) * config.router.vcs],
]);

/** The config paths a DERIVED quantity stands for (a condition on it covers them). */
const DERIVED_PATHS = ['router.buffer_depth', 'router.buffer_per_port'];

/**
 * The value of every parameter a paper does not state: the engine's defaults, which add
 * nothing to the papers' networks (rule 4 of the header).
 */
export const NEUTRAL = Object.freeze({
  'topology.arrangement': 'absolute',
  'topology.intra': null,
  'topology.intra_trunking': null,
  'topology.taper': [],
  'topology.slices': 1,
  'faults.links': [],
  'faults.random_fraction': 0,
  'traffic.injection': 'bernoulli',
  'traffic.packet_size': 1,
  'traffic.shift': 1,
  'routing.allocator': 'auto',
  'routing.ugal_threshold': 0,
  'routing.dal_unblocked_credits': 1,
  'routing.dal_queue_threshold': 2,
  'routing.threshold': 4,
  'routing.crt0': 0,
  'routing.cr_granularity': 1,
  'routing.intermediate_group': 'any',
  'router.vcs': 4,
  'router.buffer_depth': 8,
  'router.buffer_per_port': null,
  'router.pipeline_delay': 1,
  'router.speedup': 2,
  'router.switch_allocator': 'separable',
  'router.islip_iterations': 2,
  'router.output_queue': null,
  'router.terminal_latency': 1,
  'router.local_latency': 1,
  'router.global_latency': 1,
  'router.terminal_period': 1,
});

/** The parameters no value depends on, with the reason (rule 2 of the header). */
export const FREE = new Map([
  ['seed', 'the random streams: a paper states a value for its network, not for one draw'],
  ['traffic.load', 'the offered load: the sweep’s axis, along which the value is drawn'],
  ['traffic.source_queue_cap', 'how far a source queue may grow before the run counts as saturated: measurement, not network'],
  ['measurement.warmup', 'the measurement method, which every paper gives only in words'],
  ['measurement.measure', 'the measurement method, which every paper gives only in words'],
  ['measurement.drain_limit', 'the measurement method, which every paper gives only in words'],
  ['measurement.watchdog', 'deadlock detection: no run the value describes stops on it'],
  ['traffic.batch_size', 'read only in batch mode; NEUTRAL asks for Bernoulli injection'],
  ['topology.slice_policy', 'read only with topology.slices > 1; NEUTRAL asks for one slice'],
]);

// --- the papers' setups -------------------------------------------------------------

// Dragonfly §4.2 and the flattened butterfly §3.2 simulate "input-queued" routers but
// "provide sufficient speedup in order to generalize the results and ensure that routers
// do not become the bottleneck of the network": a speedup (so at least 2) of a size, and
// a switch allocator, they leave open.
const BOTTLENECK = 'ensure that routers do not become the bottleneck of the network';
const SUFFICIENT_SPEEDUP = {
  'router.speedup': atLeast(2, BOTTLENECK, '“sufficient speedup”: a speedup, of a size the paper does not give'),
  'router.switch_allocator': open(BOTTLENECK, 'the switch allocator of a router that is not to be the bottleneck is not named'),
  'router.islip_iterations': open(BOTTLENECK, 'the switch allocator of a router that is not to be the bottleneck is not named'),
};

// Dragonfly §4.2: the 1K network (p = h = 4, a = 8; g = ah + 1 = 33 groups, fully
// connected), a single-cycle router, input buffers 16 flits deep, single-flit packets.
const DRAGONFLY_1K = {
  'topology.type': 'dragonfly',
  'topology.p': 4,
  'topology.a': 8,
  'topology.h': 4,
  'topology.g': 33,
  'topology.arrangement': open(
    'we use a 1-D flattened butterfly or a completely-connected topology for both networks',
    'the inter-group network is completely connected; which router’s channel goes to which group the paper does not say',
  ),
  ...SUFFICIENT_SPEEDUP,
  'router.output_queue': open('Queue depth of an output port', 'UGAL reads the routers’ output queues; how deep they are the paper does not say'),
  'router.pipeline_delay': 1,
  'flits per VC': 16,
  'traffic.packet_size': 1,
  'routing.intermediate_group': {
    ...oneOf('other', 'any'),
    quote: 'a randomly-selected intermediate group',
    why: 'among the groups other than the source and destination group, or among all of them: the words allow both',
  },
  'routing.allocator': open('parallel or greedy allocation', 'the paper names an allocator only for UGAL; MIN and VAL are oblivious'),
};
// Dragonfly §4.1, Fig. 7: "two VCs are needed for minimal routing and three VCs are
// required for non-minimal routing". MIN's 2 or the 3 of the routers VAL runs on in the
// same figure: which its simulator gave MIN the paper does not say.
const DRAGONFLY_VCS = { min: oneOf(2, 3), val: 3 };

// Flattened butterfly §3.2 (the simulator of every FB figure): a single-cycle,
// input-queued router with sufficient speedup, single-flit packets; Figs. 4 and 6 with
// 32 flits of buffering per port.
const FB_SIM = { ...SUFFICIENT_SPEEDUP, 'router.pipeline_delay': 1, 'traffic.packet_size': 1 };
const FB_3_2 = { ...FB_SIM, 'flits per port': 32 };
const FB_1K = { ...FB_3_2, 'topology.type': 'flattened_butterfly', 'topology.k': 32, 'topology.n': 2 };

// FB §3.1: MIN AD and UGAL allocate greedily, UGAL-S and CLOS AD sequentially (`auto` is
// each algorithm's allocator in the paper); the oblivious algorithms get none.
const OBLIVIOUS_FB = open('For MIN AD and UGAL, the router uses a *greedy* allocator', 'the paper gives allocators for the adaptive algorithms only');
const FB_ALLOCATOR = {
  min_ad: oneOf('auto', 'greedy'),
  ugal: oneOf('auto', 'greedy'),
  ugal_s: oneOf('auto', 'sequential'),
  clos_ad: oneOf('auto', 'sequential'),
  val: OBLIVIOUS_FB,
  dest_tag: OBLIVIOUS_FB,
  ecube: OBLIVIOUS_FB,
};

// FB VCs: MIN AD "n' virtual channels" (§3.1; n' = 1 here), VAL "Two VCs" (§3.1), CLOS
// AD 2, the butterfly and the hypercube 1 (Table 1); UGAL's and UGAL-S's count is not
// given (only the 32 flits per port they share).
const UNSTATED_FB_VCS = open(
  'assume the total buffering per port is 32 flit entries',
  'the paper fixes the buffering per port; how many VCs UGAL divides it into it does not say',
);
const FB_VCS = { min_ad: 1, val: 2, clos_ad: 2, ugal: UNSTATED_FB_VCS, ugal_s: UNSTATED_FB_VCS, dest_tag: 1, ecube: 1 };

// Fig. 12(a)'s storage: the paper gives "64 flit buffers" per channel for Fig. 12(b) only.
const FIG12_STORAGE = open('held constant at 64 flit buffers', 'the paper gives the storage for Fig. 12(b) (MIN AD) only, not for VAL’s Fig. 12(a)');

/** The FB paper's Fig. 4 conditions for `algorithm` on `pattern`. */
function fb4(algorithm, pattern) {
  return {
    ...FB_1K,
    'routing.algorithm': algorithm,
    'routing.allocator': FB_ALLOCATOR[algorithm],
    'router.vcs': FB_VCS[algorithm],
    ...trafficOf(pattern),
  };
}

// HyperX §4.1, Fig. 6: S = 8 in three dimensions, K = 1, T = 8 (N = 4096); 4-cycle
// switches, 1-cycle channels, 6 VCs of 32 flits, input-queued, iSLIP with input speedup 2,
// sequential allocation of adaptive routes, single-flit packets.
const HYPERX_FIG6 = {
  'topology.type': 'hyperx',
  'topology.s': [8, 8, 8],
  'topology.k': [1],
  'topology.t': 8,
  'router.pipeline_delay': 4,
  'router.local_latency': 1,
  'router.terminal_latency': 1,
  'router.vcs': 6,
  'flits per VC': 32,
  'router.switch_allocator': 'islip',
  'router.islip_iterations': open('the iSLIP algorithm [13] is used for switch allocation', 'how many iterations iSLIP makes the paper does not say'),
  'router.speedup': 2,
  'traffic.packet_size': 1,
};
const HYPERX_PATTERNS = ['bit_complement', 'bit_rotate', 'transpose', 'swap2'];
const OBLIVIOUS_HYPERX = open('For simulation, sequential allocation is used for adaptive route computation', 'Valiant makes no adaptive route computation');

// 2DFB §IV-A, Fig. 4: the 8-ary 1-dimensional networks (N = 64), links at twice the
// terminal bandwidth (2 Gb/s against 1 Gb/s); the Clos is "a Clos network with the same
// size", the 8-ary two-level folded Clos. The switches are OMNeT++'s, described no
// further: their buffering, VCs, delays and allocators are open, and so is the packet's
// length in flits (121 bytes, with "the same trend" for larger ones).
const OMNET = 'The default OMNeT switch model was modified in order to include a 2 Gb/s channel';
const OMNET_SWITCH = open(OMNET, 'the switch is OMNeT++’s, which the paper describes no further');
const DFB_SIM = {
  'router.terminal_period': 2,
  'router.vcs': OMNET_SWITCH,
  'router.buffer_depth': OMNET_SWITCH,
  'router.buffer_per_port': OMNET_SWITCH,
  'router.pipeline_delay': OMNET_SWITCH,
  'router.speedup': OMNET_SWITCH,
  'router.switch_allocator': OMNET_SWITCH,
  'router.islip_iterations': OMNET_SWITCH,
  'router.output_queue': OMNET_SWITCH,
  'traffic.packet_size': open(
    'We have used a packet size of 121 bytes. Higher size packets are also following the same trend.',
    '121 bytes is no number of flits',
  ),
  'routing.allocator': open('We are using a sequential allocation method in our algorithm', 'the paper gives the allocation of its own algorithm only'),
};
const DFB_1D = { ...DFB_SIM, 'topology.type': 'dilated_flattened_butterfly', 'topology.k': 8, 'topology.n': 2 };
const CLOS_64 = { ...DFB_SIM, 'topology.type': 'folded_clos', 'topology.down': [8, 8], 'topology.up': [8] };
const DFB_PATTERNS = ['benign', 'adversarial', 'random_permutation'];
// Adaptive 2DFB (Algorithm 1): sequential allocation, a threshold T_h of no stated value.
const ADAPTIVE_2DFB = {
  'routing.algorithm': 'adaptive_2dfb',
  'routing.allocator': oneOf('auto', 'sequential'),
  'routing.threshold': open(
    'The port is selected if the number of packets in the output queue is less than the threshold value',
    'the paper gives the threshold T_h no value',
  ),
};

/** The traffic conditions of `pattern`: the shift patterns go to the next router or group. */
function trafficOf(pattern) {
  if (pattern === 'router_shift' || pattern === 'group_shift') return { 'traffic.pattern': pattern, 'traffic.shift': 1 };
  // 2DFB §IV: every terminal of switch S_i to "another single switching element S_{i+j}",
  // any j: one of the other 7 switches of the 8-ary network.
  if (pattern === 'adversarial') {
    return {
      'traffic.pattern': pattern,
      'traffic.shift': {
        ...oneOf(1, 2, 3, 4, 5, 6, 7),
        quote: 'to end-terminals which are connected to another single switching element',
        why: 'S_{i+j} for any j',
      },
    };
  }
  return { 'traffic.pattern': pattern };
}

/** A paper's statement of one value; `cases` names the configuration in the paper's terms. */
const statement = (fields) => ({ quantity: QUANTITY, qualifier: '', ...fields });

/**
 * The table: {paper, where, cases, quote, qualifier, stated, value, quantity, when, and
 * `readings` where the paper contradicts itself}. Several entries share a statement when
 * the paper makes it of several algorithms.
 */
export const PAPER_VALUES = [
  statement({
    paper: PAPERS.dragonfly,
    where: 'Fig. 8(a), §4.2',
    cases: 'VAL on uniform random traffic',
    quote: 'VAL achieves approximately half of the network capacity',
    qualifier: 'approximately',
    stated: 'half',
    value: 0.5,
    when: { ...DRAGONFLY_1K, 'router.vcs': DRAGONFLY_VCS.val, 'routing.algorithm': 'val', ...trafficOf('uniform') },
  }),
  statement({
    paper: PAPERS.dragonfly,
    where: 'Fig. 8(b), §4.2',
    cases: 'MIN on the worst case (group shift)',
    quote: 'Because MIN forwards all of the traffic from each group across a single channel, its throughput is limited to',
    stated: '1/32',
    value: 1 / 32,
    when: { ...DRAGONFLY_1K, 'router.vcs': DRAGONFLY_VCS.min, 'routing.algorithm': 'min', ...trafficOf('group_shift') },
  }),
  statement({
    paper: PAPERS.dragonfly,
    where: 'Fig. 8(b), §4.2',
    cases: 'VAL on the worst case (group shift)',
    quote: 'VAL achieves slightly under 50% throughput',
    qualifier: 'slightly under',
    stated: '50%',
    value: 0.5,
    when: { ...DRAGONFLY_1K, 'router.vcs': DRAGONFLY_VCS.val, 'routing.algorithm': 'val', ...trafficOf('group_shift') },
  }),
  ...['min_ad', 'ugal', 'ugal_s', 'clos_ad'].map((algorithm) =>
    statement({
      paper: PAPERS.flattenedButterfly,
      where: 'Fig. 4(a), §3.2',
      cases: `${algorithm} on uniform random traffic, 32-ary 2-flat`,
      quote: 'all of the routing algorithms except VAL achieve 100% throughput',
      stated: '100%',
      value: 1,
      when: fb4(algorithm, 'uniform'),
    }),
  ),
  statement({
    paper: PAPERS.flattenedButterfly,
    where: 'Fig. 4(a), §3.2',
    cases: 'VAL on uniform random traffic, 32-ary 2-flat',
    quote: 'VAL achieves only half of network capacity regardless of the traffic pattern',
    stated: 'half',
    value: 0.5,
    when: fb4('val', 'uniform'),
  }),
  statement({
    paper: PAPERS.flattenedButterfly,
    where: 'Fig. 4(b), §3.2',
    cases: 'MIN AD on the worst case (router shift), 32-ary 2-flat',
    quote: 'MIN is limited to 1/32 or approximately 3% throughput',
    stated: '1/32',
    value: 1 / 32,
    when: fb4('min_ad', 'router_shift'),
  }),
  ...['val', 'ugal', 'ugal_s', 'clos_ad'].map((algorithm) =>
    statement({
      paper: PAPERS.flattenedButterfly,
      where: 'Fig. 4(b), §3.2',
      cases: `${algorithm} on the worst case (router shift), 32-ary 2-flat`,
      quote: 'all of the non-minimal algorithms achieve 50% throughput',
      stated: '50%',
      value: 0.5,
      when: fb4(algorithm, 'router_shift'),
    }),
  ),
  // Fig. 6, Table 1: the butterfly and the hypercube with 1 VC, "the total buffer storage
  // is held constant" (32 flits per port, as in §3.2).
  .../** @type {[string, Record<string, string | number>][]} */ ([
    ['butterfly (destination tags), 32-ary 2-fly', { 'topology.type': 'butterfly', 'topology.k': 32, 'topology.n': 2, 'routing.algorithm': 'dest_tag' }],
    ['hypercube (e-cube), 10 dimensions', { 'topology.type': 'hypercube', 'topology.n': 10, 'routing.algorithm': 'ecube' }],
  ]).map(([network, when]) =>
    statement({
      paper: PAPERS.flattenedButterfly,
      where: 'Fig. 6(a), §3.3',
      cases: `${network}, uniform random traffic`,
      quote: 'all of the topologies providing 100% throughput except for the folded-Clos',
      stated: '100%',
      value: 1,
      when: {
        ...FB_3_2,
        ...when,
        'router.vcs': FB_VCS[when['routing.algorithm']],
        'routing.allocator': FB_ALLOCATOR[when['routing.algorithm']],
        ...trafficOf('uniform'),
      },
    }),
  ),
  statement({
    paper: PAPERS.flattenedButterfly,
    where: 'Fig. 6(b), §3.3',
    cases: 'butterfly (destination tags), 32-ary 2-fly, worst case (router shift)',
    quote: 'the conventional butterfly throughput is severely limited and performs identically to a flattened butterfly with minimal routing',
    stated: '1/32',
    value: 1 / 32,
    when: {
      ...FB_3_2,
      'topology.type': 'butterfly',
      'topology.k': 32,
      'topology.n': 2,
      'routing.algorithm': 'dest_tag',
      'router.vcs': FB_VCS.dest_tag,
      'routing.allocator': FB_ALLOCATOR.dest_tag,
      ...trafficOf('router_shift'),
    },
  }),
  // Fig. 12(a): the N = 4K flattened butterflies of Table 4 with n' from 1 to 5, which is
  // what the text says of Fig. 12 (the 2-ary 12-flat: UNCONFIRMED). VAL needs "only 2
  // VCs"; the storage is given for Fig. 12(b) only ("64 flit buffers" per channel).
  ...[
    [64, 2],
    [16, 3],
    [8, 4],
    [4, 6],
  ].map(([k, n]) =>
    statement({
      paper: PAPERS.flattenedButterfly,
      where: 'Fig. 12(a), §5.1.1',
      cases: `VAL on uniform random traffic, ${k}-ary ${n}-flat (N = 4K)`,
      quote: 'throughput remains constant at 50% of capacity',
      stated: '50%',
      value: 0.5,
      when: {
        ...FB_SIM,
        'topology.type': 'flattened_butterfly',
        'topology.k': k,
        'topology.n': n,
        'router.vcs': 2,
        'router.buffer_depth': FIG12_STORAGE,
        'router.buffer_per_port': FIG12_STORAGE,
        'routing.algorithm': 'val',
        'routing.allocator': FB_ALLOCATOR.val,
        ...trafficOf('uniform'),
      },
    }),
  ),
  ...HYPERX_PATTERNS.map((pattern) =>
    statement({
      paper: PAPERS.hyperx,
      where: 'Fig. 6, §4.1',
      cases: `Valiant on ${pattern}, HyperX S = 8, K = 1, T = 8 (β = 0.5)`,
      quote: 'Valiant routing [19] reliably achieves throughput of β',
      stated: 'β = 0.5',
      value: 0.5,
      when: { ...HYPERX_FIG6, 'routing.algorithm': 'val', 'routing.allocator': OBLIVIOUS_HYPERX, ...trafficOf(pattern) },
    }),
  ),
  statement({
    paper: PAPERS.hyperx,
    where: 'Fig. 6(a), §4.1',
    cases: 'Min-AD on bit complement, HyperX S = 8, K = 1, T = 8',
    quote: 'throughput can degrade to 1/T',
    qualifier: 'can degrade to',
    stated: '1/8',
    value: 1 / 8,
    when: { ...HYPERX_FIG6, 'routing.algorithm': 'min_ad', 'routing.allocator': 'sequential', ...trafficOf('bit_complement') },
  }),
  statement({
    paper: PAPERS.hyperx,
    where: 'Fig. 6(d), §4.1',
    cases: 'DAL on Swap2, HyperX S = 8, K = 1, T = 8 (β = 0.5)',
    quote: 'The theoretical throughput of this pattern should be 2β, which DAL is able to achieve',
    stated: '2β = 1',
    value: 1,
    when: { ...HYPERX_FIG6, 'routing.algorithm': 'dal', 'routing.allocator': oneOf('auto', 'sequential'), ...trafficOf('swap2') },
  }),
  ...DFB_PATTERNS.flatMap((pattern) => [
    statement({
      paper: PAPERS.dilated,
      where: 'Fig. 4, §IV-A',
      cases: `Adaptive 2DFB on ${pattern} traffic, 8-ary 1-dimensional 2DFB (N = 64)`,
      quote: '2DFB also provides throughput which is very close to 100% for all the given traffic patterns',
      qualifier: 'very close to',
      stated: '100%',
      value: 1,
      when: { ...DFB_1D, ...ADAPTIVE_2DFB, ...trafficOf(pattern) },
    }),
    statement({
      paper: PAPERS.dilated,
      where: 'Fig. 4, §IV-A',
      cases: `Adaptive Clos on ${pattern} traffic, 8-ary folded Clos (N = 64)`,
      quote: 'like the Clos network, 2DFB also provides throughput which is very close to 100%',
      qualifier: 'very close to',
      stated: '100%',
      value: 1,
      when: { ...CLOS_64, 'routing.algorithm': 'updown_ad', ...trafficOf(pattern) },
    }),
  ]),
  statement({
    paper: PAPERS.dilated,
    where: 'Fig. 4, §IV-A',
    cases: 'Minimal on benign traffic, 8-ary 1-dimensional 2DFB (N = 64)',
    quote: 'The Minimal algorithm provides 100% throughput only for benign traffic',
    stated: '100%',
    value: 1,
    when: { ...DFB_1D, 'routing.algorithm': 'min', ...trafficOf('benign') },
  }),
  // The paper contradicts itself here: its Fig. 4 text gives Minimal 50 % on adversarial
  // traffic, which holds for two links per switch pair each at twice the terminal
  // bandwidth (4 of a switch's 8 terminals reach the next switch directly: the network
  // simulated here); its definitions make a 2DFB either two links or one link of double
  // bandwidth, and its adversarial pattern lets "only two end-terminals" use the direct
  // link, which limits Minimal to 2/8 = 25 %. The line is the value the paper states of
  // its figure, drawn with both readings named.
  statement({
    paper: PAPERS.dilated,
    where: 'Fig. 4, §IV-A',
    cases: 'Minimal on adversarial traffic, 8-ary 1-dimensional 2DFB (N = 64)',
    quote: 'it provides 50% throughput for adversarial traffic pattern',
    stated: '50%',
    value: 0.5,
    when: { ...DFB_1D, 'routing.algorithm': 'min', ...trafficOf('adversarial') },
    readings: [
      {
        where: 'Fig. 4, §IV-A',
        quotes: ['it provides 50% throughput for adversarial traffic pattern'],
        value: 0.5,
        reading:
          'two links per switch pair, each at twice the terminal bandwidth (2 Gb/s against 1 Gb/s), which carry 4 of a switch’s 8 terminals to the next switch — the network simulated here',
      },
      {
        where: '§II-A, §IV',
        quotes: [
          'either duplicating all the interconnecting links between the switching elements or replacing it with links of double bandwidth',
          'only two end-terminals which are connected to a switching element can send traffic through the direct link',
        ],
        value: 0.25,
        reading: 'the direct link carries two of a switch’s 8 terminals (one 2 Gb/s link per switch pair), which limits Minimal to 2/8 = 25 %',
      },
    ],
  }),
];

/**
 * Values the table leaves out because the paper's text cannot confirm them, with the
 * words that leave them unconfirmed (checked like the quotes). Never drawn.
 */
export const UNCONFIRMED = [
  {
    paper: PAPERS.flattenedButterfly,
    where: 'Fig. 12(a), §5.1.1',
    cases: 'VAL on uniform random traffic, 2-ary 12-flat (N = 4K)',
    quotes: [
      'The performance of the different configurations on UR traffic using the VAL routing algorithm is shown in Figure 12(a)',
      "The figure shows that throughput degrades about 20% as $n'$ is increased from 1 to 5",
      "increases by 300% from $n' = 1$ to $n' = 5$",
      '2 12 12 11',
      "radix $k' = n(k-1) + 1$",
    ],
    why: 'Table 4 lists the 2-ary 12-flat (n′ = 11) and the text says Fig. 12(a) shows “the different configurations”, but everything it says of Figs. 12 and 13 spans n′ from 1 to 5, and the row gives k′ = 12 where the paper’s k′ = n(k − 1) + 1 gives 13. Whether Fig. 12(a) has a curve for this network, and where it saturates, the text does not say.',
  },
];

/** The value of condition key `key` (a config path or a DERIVED quantity) in `config`. */
function conditionValue(config, key) {
  const derive = DERIVED.get(key);
  return derive ? derive(config) : getPath(config, key);
}

/** Every parameter is read, when the caller does not say otherwise. */
/**
 * Whether a configuration reads config path `path` (see readerOf).
 * @typedef {(path: string, config: Record<string, any>) => boolean} Reader
 */
/** @type {Reader} */
const READS_EVERYTHING = () => true;

/**
 * Whether a configuration reads config path `path`, by the catalog's `used_when`
 * (Model, www/model/experiment.js): the reader paperValuesFor and sweepReferences take.
 */
/** @returns {Reader} */
export function readerOf(model) {
  return (path, config) => readsParam(model.specFor(path, config.topology?.type), config);
}

/**
 * Whether `config` meets the conditions `when` of an entry: every one of them, and for
 * every other parameter of `config` the rules of the header (FREE, not read, NEUTRAL).
 */
export function meets(config, when, reads = READS_EVERYTHING) {
  const stated = (path) => Object.hasOwn(when, path) || (DERIVED_PATHS.includes(path) && [...DERIVED.keys()].some((k) => Object.hasOwn(when, k)));
  for (const [path, actual] of flatten(config)) {
    if (stated(path) || FREE.has(path)) continue;
    if (!reads(path, config)) continue;
    if (!Object.hasOwn(NEUTRAL, path) || !accepts(NEUTRAL[path], actual)) return false;
  }
  return Object.entries(when).every(([key, wanted]) => accepts(wanted, conditionValue(config, key)));
}

/** The table's entries whose configuration is exactly `config`'s. */
export function paperValuesFor(config, reads = READS_EVERYTHING) {
  return PAPER_VALUES.filter((entry) => meets(config, entry.when, reads));
}

/**
 * The paper values to draw beside a sweep's curves: one per statement, with the curves
 * (sweep series {name, label, colour, config}) whose configuration it is stated for and
 * those configurations in the paper's terms (`reads`: see paperValuesFor). Returns
 * [{entry, series, cases}].
 */
export function sweepReferences(series, reads = READS_EVERYTHING) {
  const refs = [];
  for (const s of series) {
    for (const entry of paperValuesFor(s.config, reads)) {
      const same = refs.find((r) => r.entry.quote === entry.quote && r.entry.value === entry.value);
      if (!same) refs.push({ entry, series: [s], cases: [entry.cases] });
      else {
        same.series.push(s);
        if (!same.cases.includes(entry.cases)) same.cases.push(entry.cases);
      }
    }
  }
  return refs;
}

/**
 * A value as the plot writes it, with the paper's own figure where that differs: "0.5
 * (50%)", "0.031 (1/32)", "2β = 1".
 */
function valueText({ value, stated }) {
  const number = String(Number(value.toFixed(3)));
  if (stated === number || stated.endsWith(`= ${number}`)) return stated;
  return `${number} (${stated})`;
}

/**
 * The panes a reference is drawn for, "A, B", when it is not drawn for every one of the
 * sweep's `paneCount` panes; else "".
 */
function paneNames(ref, paneCount) {
  return ref.series.length < paneCount ? ref.series.map((s) => s.name).join(', ') : '';
}

/**
 * The plot's short label of a reference: "paper, B: 0.5 (50%) — Dragonfly (ISCA 2008),
 * Fig. 8(b)"; the paper's qualifying words are in its source (referenceSource).
 */
export function referenceLabel(ref, paneCount) {
  const { entry } = ref;
  const panes = paneNames(ref, paneCount);
  const contested = entry.readings ? `, one of ${entry.readings.length} readings` : '';
  return `paper${panes ? `, ${panes}` : ''}: ${valueText(entry)}${contested} — ${entry.paper.short}, ${entry.where.split(',')[0]}`;
}

/**
 * Where the paper contradicts itself: that the line is one reading, which network it
 * holds for, and the other readings in the paper's words. "" for the other entries.
 */
function readingsText(entry) {
  if (!entry.readings) return '';
  const drawn = entry.readings.find((r) => r.value === entry.value);
  const others = entry.readings.filter((r) => r !== drawn);
  const quoted = (r) => r.quotes.map((q) => `“${q}”`).join(' and ');
  const other = others.map((r) => `by ${quoted(r)} (${r.where}), ${r.reading}`).join('; ');
  return ` One of ${entry.readings.length} readings, for the paper contradicts itself: the line is what it states of ${drawn.where.split(',')[0]}, which holds for ${drawn.reading}; ${other}.`;
}

/** The reference's source in full: the value, the paper's words, the citation. */
export function referenceSource(ref, paneCount) {
  const { entry } = ref;
  const panes = paneNames(ref, paneCount);
  const words = entry.quote.includes(entry.stated) ? `“${entry.quote}”` : `“${entry.quote}” (${entry.stated})`;
  return `Dashed line at ${valueText(entry)}${panes ? ` (${panes})` : ''}: ${words} — ${entry.paper.citation}, ${entry.where}.${readingsText(entry)}`;
}

/** Tooltip text: the source, what the value is, and the configurations it is stated for. */
export function referenceTooltip(ref, paneCount) {
  return `${referenceSource(ref, paneCount)}\nThe paper's ${QUANTITY}, stated for: ${ref.cases.join('; ')}.`;
}
