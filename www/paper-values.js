// The saturation throughputs the four papers state, each with the configuration the paper
// states it for. The sweep plot draws one beside a measured curve whose configuration
// matches it exactly (www/stats-view.js); nothing is drawn for any other configuration.
//
// Every value is the paper's: `quote` is its own words, verbatim from its text in
// shared/papers/, and `stated` is the value as written there or, where the paper gives a
// formula (1/(ah), 1/T, 2β), as the project's claims (src/figures/claims/) evaluate it on
// the paper's network. tests/browser/paper-values.test.mjs checks both against those files.
//
// `when` lists config paths (the CLI's `--set` paths) with the value the paper fixes, or
// `oneOf(…)` several; besides config paths it may name a DERIVED quantity (buffering a
// paper gives per VC or per port, however the config spells it). A parameter the paper
// does not fix (speedup where it asks for "sufficient" speedup, the seed, the measurement
// windows, …) is not a condition. The sweep always injects by a Bernoulli process
// (www/sweep.js), as the dragonfly and flattened butterfly papers state.

import { getPath, sameValue } from './experiment.js';

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
    claims: 'hyperx.rs',
  },
  hyperx: {
    short: 'HyperX (SC 2009)',
    citation: 'Ahn, Binkert, Davis, McLaren, Schreiber: “HyperX: Topology, Routing, and Packaging of Efficient Large-Scale Networks”, SC 2009',
    file: 'hyperx-sc09.txt',
    claims: 'hyperx.rs',
  },
  dilated: {
    short: 'Thamarakuzhi & Chandy',
    citation: 'Thamarakuzhi, Chandy: “Adaptive Load Balanced Routing for 2-Dilated Flattened Butterfly Switching Network”',
    file: '2dfb-adaptive-routing.md',
    claims: 'hyperx.rs',
  },
};

/** A condition met by any of `values`. */
const oneOf = (...values) => ({ oneOf: values });

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

// Conditions shared by every value: the papers' networks have no failed links.
const INTACT = { 'faults.links': [], 'faults.random_fraction': 0 };

// Dragonfly §4.2: the 1K network (p = h = 4, a = 8; g = ah + 1 = 33 groups, fully
// connected, untapered), a single-cycle router, input buffers 16 flits deep, single-flit packets.
const DRAGONFLY_1K = {
  ...INTACT,
  'topology.type': 'dragonfly',
  'topology.p': 4,
  'topology.a': 8,
  'topology.h': 4,
  'topology.g': 33,
  'topology.intra': null,
  'topology.taper': [],
  'router.pipeline_delay': 1,
  'flits per VC': 16,
  'traffic.packet_size': 1,
};

// Flattened butterfly §3.2 (and §3.3, Fig. 6, with the same buffering): N = 1024,
// a single-cycle router, 32 flits of buffering per port, single-flit packets.
const FB_ROUTER = { ...INTACT, 'router.pipeline_delay': 1, 'flits per port': 32, 'traffic.packet_size': 1 };
const FB_1K = { ...FB_ROUTER, 'topology.type': 'flattened_butterfly', 'topology.k': 32, 'topology.n': 2 };

// FB §3.1: MIN AD and UGAL allocate greedily, UGAL-S and CLOS AD sequentially (`auto`
// is each algorithm's allocator in the paper); VAL makes no adaptive decision.
const FB_ALLOCATOR = {
  min_ad: oneOf('auto', 'greedy'),
  ugal: oneOf('auto', 'greedy'),
  ugal_s: oneOf('auto', 'sequential'),
  clos_ad: oneOf('auto', 'sequential'),
};

/** The FB paper's Fig. 4 conditions for `algorithm` on `pattern`. */
function fb4(algorithm, pattern) {
  const allocator = FB_ALLOCATOR[algorithm];
  return {
    ...FB_1K,
    'routing.algorithm': algorithm,
    ...(allocator ? { 'routing.allocator': allocator } : {}),
    ...trafficOf(pattern),
  };
}

// HyperX §4.1, Fig. 6: S = 8 in three dimensions, K = 1, T = 8 (N = 4096); 4-cycle
// switches, 1-cycle channels, 6 VCs of 32 flits, iSLIP with input speedup 2, sequential
// allocation of adaptive routes, single-flit packets.
const HYPERX_FIG6 = {
  ...INTACT,
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
  'router.speedup': 2,
  'traffic.packet_size': 1,
};
const HYPERX_PATTERNS = ['bit_complement', 'bit_rotate', 'transpose', 'swap2'];

// 2DFB §IV-A, Fig. 4: the 8-ary 1-dimensional networks (N = 64), links at twice the
// terminal bandwidth (2 Gb/s against 1 Gb/s); the Clos is "a Clos network with the same
// size", the 8-ary two-level folded Clos.
const DFB_LINKS = { ...INTACT, 'router.terminal_period': 2 };
const DFB_1D = { ...DFB_LINKS, 'topology.type': 'dilated_flattened_butterfly', 'topology.k': 8, 'topology.n': 2 };
const CLOS_64 = { ...DFB_LINKS, 'topology.type': 'folded_clos', 'topology.down': [8, 8], 'topology.up': [8] };
const DFB_PATTERNS = ['benign', 'adversarial', 'random_permutation'];

/** The traffic conditions of `pattern`: the shift patterns go to the next router or group. */
function trafficOf(pattern) {
  const shift = pattern === 'router_shift' || pattern === 'group_shift' ? { 'traffic.shift': 1 } : {};
  return { 'traffic.pattern': pattern, ...shift };
}

/** A paper's statement of one value; `cases` names the configuration in the paper's terms. */
const statement = (fields) => ({ quantity: QUANTITY, qualifier: '', ...fields });

/**
 * The table: {paper, where, cases, quote, qualifier, stated, value, quantity, when}.
 * Several entries share a statement when the paper makes it of several algorithms.
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
    when: { ...DRAGONFLY_1K, 'routing.algorithm': 'val', ...trafficOf('uniform') },
  }),
  statement({
    paper: PAPERS.dragonfly,
    where: 'Fig. 8(b), §4.2',
    cases: 'MIN on the worst case (group shift)',
    quote: 'Because MIN forwards all of the traffic from each group across a single channel, its throughput is limited to',
    stated: '1/32',
    value: 1 / 32,
    when: { ...DRAGONFLY_1K, 'routing.algorithm': 'min', ...trafficOf('group_shift') },
  }),
  statement({
    paper: PAPERS.dragonfly,
    where: 'Fig. 8(b), §4.2',
    cases: 'VAL on the worst case (group shift)',
    quote: 'VAL achieves slightly under 50% throughput',
    qualifier: 'slightly under',
    stated: '50%',
    value: 0.5,
    when: { ...DRAGONFLY_1K, 'routing.algorithm': 'val', ...trafficOf('group_shift') },
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
  ...[
    ['butterfly (destination tags), 32-ary 2-fly', { 'topology.type': 'butterfly', 'topology.k': 32, 'topology.n': 2, 'routing.algorithm': 'dest_tag' }],
    ['hypercube (e-cube), 10 dimensions', { 'topology.type': 'hypercube', 'topology.n': 10, 'routing.algorithm': 'ecube' }],
  ].map(([network, when]) =>
    statement({
      paper: PAPERS.flattenedButterfly,
      where: 'Fig. 6(a), §3.3',
      cases: `${network}, uniform random traffic`,
      quote: 'all of the topologies providing 100% throughput except for the folded-Clos',
      stated: '100%',
      value: 1,
      when: { ...FB_ROUTER, ...when, ...trafficOf('uniform') },
    }),
  ),
  statement({
    paper: PAPERS.flattenedButterfly,
    where: 'Fig. 6(b), §3.3',
    cases: 'butterfly (destination tags), 32-ary 2-fly, worst case (router shift)',
    quote: 'the conventional butterfly throughput is severely limited and performs identically to a flattened butterfly with minimal routing',
    stated: '1/32',
    value: 1 / 32,
    when: { ...FB_ROUTER, 'topology.type': 'butterfly', 'topology.k': 32, 'topology.n': 2, 'routing.algorithm': 'dest_tag', ...trafficOf('router_shift') },
  }),
  // Fig. 12(a): the N = 4K flattened butterflies of Table 4, k^n = 4096.
  ...[
    [64, 2],
    [16, 3],
    [8, 4],
    [4, 6],
    [2, 12],
  ].map(([k, n]) =>
    statement({
      paper: PAPERS.flattenedButterfly,
      where: 'Fig. 12(a), §5.1.1',
      cases: `VAL on uniform random traffic, ${k}-ary ${n}-flat (N = 4K)`,
      quote: 'throughput remains constant at 50% of capacity',
      stated: '50%',
      value: 0.5,
      when: { ...INTACT, 'topology.type': 'flattened_butterfly', 'topology.k': k, 'topology.n': n, 'traffic.packet_size': 1, 'routing.algorithm': 'val', ...trafficOf('uniform') },
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
      when: { ...HYPERX_FIG6, 'routing.algorithm': 'val', ...trafficOf(pattern) },
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
      when: { ...DFB_1D, 'routing.algorithm': 'adaptive_2dfb', ...trafficOf(pattern) },
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
  statement({
    paper: PAPERS.dilated,
    where: 'Fig. 4, §IV-A',
    cases: 'Minimal on adversarial traffic, 8-ary 1-dimensional 2DFB (N = 64)',
    quote: 'it provides 50% throughput for adversarial traffic pattern',
    stated: '50%',
    value: 0.5,
    when: { ...DFB_1D, 'routing.algorithm': 'min', ...trafficOf('adversarial') },
  }),
];

/** The value of condition key `key` (a config path or a DERIVED quantity) in `config`. */
function conditionValue(config, key) {
  const derive = DERIVED.get(key);
  return derive ? derive(config) : getPath(config, key);
}

/** Whether `config` meets every condition of `when`. */
export function meets(config, when) {
  return Object.entries(when).every(([key, wanted]) => {
    const actual = conditionValue(config, key);
    return wanted?.oneOf ? wanted.oneOf.some((v) => sameValue(v, actual)) : sameValue(wanted, actual);
  });
}

/** The table's entries whose configuration is exactly `config`'s. */
export function paperValuesFor(config) {
  return PAPER_VALUES.filter((entry) => meets(config, entry.when));
}

/**
 * The paper values to draw beside a sweep's curves: one per statement, with the curves
 * (sweep series {name, label, colour, config}) whose configuration it is stated for and
 * those configurations in the paper's terms. Returns [{entry, series, cases}].
 */
export function sweepReferences(series) {
  const refs = [];
  for (const s of series) {
    for (const entry of paperValuesFor(s.config)) {
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
  return `paper${panes ? `, ${panes}` : ''}: ${valueText(entry)} — ${entry.paper.short}, ${entry.where.split(',')[0]}`;
}

/** The reference's source in full: the value, the paper's words, the citation. */
export function referenceSource(ref, paneCount) {
  const { entry } = ref;
  const panes = paneNames(ref, paneCount);
  const words = entry.quote.includes(entry.stated) ? `“${entry.quote}”` : `“${entry.quote}” (${entry.stated})`;
  return `Dashed line at ${valueText(entry)}${panes ? ` (${panes})` : ''}: ${words} — ${entry.paper.citation}, ${entry.where}.`;
}

/** Tooltip text: the source, what the value is, and the configurations it is stated for. */
export function referenceTooltip(ref, paneCount) {
  return `${referenceSource(ref, paneCount)}\nThe paper's ${QUANTITY}, stated for: ${ref.cases.join('; ')}.`;
}
