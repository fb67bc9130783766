// The papers' stories, each a complete experiment (config over the defaults, the parameter
// compared side by side, speed, view) with a short explanation. The numbers quoted were
// measured with this simulator (`hiradix run` with the same settings).

import { newExperiment } from '../model/experiment.js';

const measurement = { warmup: 1000, measure: 1000, drain_limit: 5000 };

export const PRESETS = [
  {
    id: 'ugal-l-misjudges',
    title: 'UGAL-L misjudges congestion',
    paper: 'Dragonfly, ISCA 2008, §4.2–4.3, Figs. 9, 11, 12',
    config: {
      topology: { type: 'dragonfly', p: 4, a: 8, h: 4, g: 33, arrangement: 'absolute' },
      routing: { algorithm: 'ugal_l', allocator: 'greedy' },
      traffic: { pattern: 'group_shift', load: 0.2 },
      router: { vcs: 3, buffer_depth: 16, speedup: 2, pipeline_delay: 1 },
      measurement,
      seed: 1,
    },
    compare: { param: 'routing.algorithm', values: ['ugal_l', 'ugal_l_cr', 'ugal_g'] },
    speed: 8,
    view: { metric: 'occupancy' },
    // The point is a queue building up: full colour at a quarter full.
    ranges: { occupancy: 0.25, vc0: 0.25, vc1: 0.25, vc2: 0.25 },
    sweep: '0.05:0.45:0.05',
    point:
      'The orange-cased channels are the global channels from each group to the next, the only minimal path: UGAL-L keeps their queues fuller (darker) than UGAL-G, because it cannot see them from the source router.',
    focus: { kind: 'group-shift', pattern: 'group_shift', label: 'global channels group i → i+1 (the minimal ones)' },
    // Beside the picture: the cased channels' queues, then where the routers decide to go
    // non-minimally (the Fig. 9 bars are under the picture, in the statistics).
    keyPlots: ['classes', 'decisions'],
    text: [
      "A 1056-node dragonfly (p = h = 4, a = 8, g = 33) under the worst case: every terminal of group i sends to group i+1, so a group's traffic wants the one global channel to the next group. At the source router UGAL picks the minimal path or a Valiant path through a random group by comparing q·H. ",
      { b: 'UGAL-L' },
      ' sees only its own output queues, and the minimal and non-minimal paths often leave on the same local channel, towards the router that owns the minimal global channel — equal queues, so the shorter minimal path wins until backpressure from the saturated global channel finally reaches the source. ',
      { b: 'UGAL-G' },
      " reads the global channels' queues directly (the ideal that cannot be built); ",
      { b: ['UGAL-L', { sub: 'CR' }] },
      ' compares VC queues when both paths leave on the same port (as UGAL-L',
      { sub: 'VCH' },
      ' does — that comparison is what evens its Fig. 9 bars) and senses congestion sooner by delaying credits by the measured credit round-trip time.',
    ],
    look: [
      [
        'Key plot “Where packets go non-minimally”: under UGAL-L the routers that own a minimal global channel — they see its queue — send the largest share of their packets non-minimally, while the other routers of the group, which see only their local channel towards it, send a smaller share non-minimally than under UGAL-G: they keep feeding the full channel. UGAL-G, which sees every queue, does the reverse (its owners send the smallest share non-minimally). Routers menu → “non-minimal share” colours every router by it.',
      ],
      'Fig. 9 panel (in the statistics under the picture): UGAL-L loads the minimal global channel and leaves the other global channels of that router under-used; UGAL-G spreads the non-minimal traffic evenly.',
      [
        'Latency panel (dashed: minimally routed, dotted: non-minimally routed): UGAL-L’s minimal packets wait much longer — they fill the buffers before the congestion is sensed (Figs. 11, 12); UGAL-L',
        { sub: 'CR' },
        ' cuts that latency.',
      ],
      [
        'Click a router: its last decision, q',
        { sub: 'm' },
        '·H',
        { sub: 'm' },
        ' vs q',
        { sub: 'nm' },
        '·H',
        { sub: 'nm' },
        ', next to the true queue of the minimal global channel that UGAL-L cannot see.',
      ],
    ],
  },
  {
    id: 'dal-swap2',
    title: 'DAL routes around Swap2 hotspots',
    paper: 'HyperX, SC 2009, §3.3 and §4.1, Fig. 6',
    config: {
      topology: { type: 'hyperx', s: [4, 4, 4], k: [1], t: 4 },
      routing: { algorithm: 'dal' },
      traffic: { pattern: 'swap2', load: 0.8 },
      router: { vcs: 6, buffer_depth: 32, pipeline_delay: 4, switch_allocator: 'islip', speedup: 2 },
      measurement,
      seed: 5,
    },
    compare: { param: 'routing.algorithm', values: ['dal', 'clos_ad_hx', 'min'] },
    speed: 4,
    view: { metric: 'utilization' },
    sweep: '0.1:1.0:0.1',
    point:
      "The orange-cased channels are Swap2's minimal paths: MIN piles all traffic onto them (dark) and saturates at 0.5, while DAL spreads it over the other channels of each dimension and carries the offered 0.8.",
    // The point is also in the other channels (DAL spreads onto them): they are not dimmed.
    focus: { kind: 'swap2', pattern: 'swap2', dim: 1, label: "Swap2's minimal channels (one per switch in dimensions 1 and 2)" },
    keyPlots: ['classes', 'throughput'],
    text: [
      "A 4×4×4 HyperX with 4 terminals per switch (N = 256; the paper's router: 6 VCs of 32 flits, 4-cycle switches, iSLIP, speedup 2) under ",
      { b: 'Swap2' },
      ": even terminals cross the bisection of dimension 1, odd ones that of dimension 2, so minimal routing funnels half of every switch's traffic onto one channel per dimension and ",
      { b: 'MIN' },
      ' saturates at 0.5. ',
      { b: 'DAL' },
      ' takes an aligning (minimal) channel while it has enough free buffer slots (is uncongested) and otherwise deroutes at most once per dimension, spreading the load over the other channels of that dimension: it carries the offered 0.8. ',
      { b: 'CLOS AD' },
      ' as the HyperX paper describes it (a random closest common ancestor) saturates in between.',
    ],
    look: [
      'MIN: the orange-cased minimal channels turn dark (busy every cycle) and the routers grow orange-red rings (source queues backing up); accepted throughput stays at 0.5.',
      'DAL: the load spreads over all channels of each dimension; its accepted throughput tracks the offered 0.8.',
      'Click a router under DAL: its last decision dimension by dimension (free slots of the best minimal and deroute outputs against two thresholds: unblocked = room for a packet, uncongested = room beyond the queue threshold; escape VC or not), and which outputs are uncongested, congested or blocked right now.',
      'Press t (Trace) and click a router: the next packet generated there — the same packet in all three panes — is followed hop by hop, with the cycle and VC of each hop.',
    ],
  },
  {
    id: 'min-worst-case',
    title: 'Minimal routing on the worst case',
    paper: 'Flattened butterfly, ISCA 2007, §3.2, Fig. 4(b)',
    config: {
      topology: { type: 'flattened_butterfly', k: 16, n: 2 },
      routing: { algorithm: 'min' },
      traffic: { pattern: 'router_shift', load: 0.3 },
      measurement,
      seed: 1,
    },
    compare: { param: 'routing.algorithm', values: ['min', 'val'] },
    speed: 2,
    view: { metric: 'utilization' },
    sweep: '0.05:0.6:0.05',
    point:
      'Under MIN only the orange-cased channels i → i+1 carry traffic (dark) while the other 14 channels of every router stay idle (light); Valiant spreads the same traffic over all of them.',
    focus: { kind: 'router-shift', pattern: 'router_shift', label: 'channels router i → i+1 (the only minimal path)' },
    keyPlots: ['classes', 'throughput'],
    text: [
      'A 16-ary 2-flat (16 routers of radix 31, 256 terminals) under ',
      { b: 'router shift' },
      ': every terminal of router i sends to router i+1. ',
      { b: 'Minimal' },
      ' routing has one path, the direct channel i → i+1, shared by the 16 terminals of the router: throughput 1/k = 0.0625 however idle the router’s other 14 channels are. ',
      { b: 'Valiant' },
      ' routing sends each packet through a random intermediate router, spreading it over all channels, and reaches ≈ 50 %.',
    ],
    look: [
      'MIN (links coloured by utilization): the orange-cased channel from every router to its neighbour on the ring is busy all the time (dark) and the rest idle (light); routers dark with full injection buffers, rings of waiting packets; accepted throughput flat at 0.0625.',
      'VAL: every channel busy at about 0.6 flits/cycle — each packet takes two hops, which is why Valiant tops out at 50 % — and accepted throughput equals the offered 0.3.',
    ],
  },
  {
    id: 'greedy-vs-sequential',
    title: 'Greedy vs sequential allocation',
    paper: 'Flattened butterfly, ISCA 2007, §3.1–3.2, Fig. 5',
    config: {
      topology: { type: 'flattened_butterfly', k: 32, n: 2 },
      routing: { algorithm: 'ugal' },
      traffic: { pattern: 'router_shift', injection: 'batch', batch_size: 8, load: 1 },
      measurement,
      seed: 1,
    },
    compare: { param: 'routing.algorithm', values: ['ugal', 'ugal_s', 'clos_ad'] },
    speed: 0.25,
    view: { metric: 'utilization' },
    sweep: '0.05:0.6:0.05',
    point:
      'Greedy UGAL sends too much of its batch minimally at once: its orange-cased minimal channels stay busy (dark) long after those of UGAL-S and CLOS AD have cleared, and it finishes its batch last.',
    // 32 routers on a circle: the channels to the next router are short; smaller routers
    // leave them visible.
    focus: { kind: 'router-shift', pattern: 'router_shift', routerScale: 0.5, label: 'channels router i → i+1 (the minimal ones)' },
    keyPlots: ['classes', 'batch'],
    text: [
      'Batch mode: every terminal of a 32-ary 2-flat (1024 terminals) sends 8 packets of the worst-case router-shift pattern as fast as it can; each pane shows when its whole batch was delivered, divided by the batch size (Fig. 5). ',
      { b: 'UGAL' },
      ' uses a greedy allocator: all inputs decide in the same cycle from the same queue state, so when the minimal queue is short they all pick it and overload it before anyone sees it grow (transient load imbalance). ',
      { b: 'UGAL-S' },
      ' makes the same decisions one input after another, each seeing the earlier ones; ',
      { b: 'CLOS AD' },
      ' also picks the intermediate router adaptively. Slow motion: one cycle every 4 frames.',
    ],
    look: [
      'All three panes first fill the orange-cased minimal channels (to the neighbouring router on the ring); UGAL puts less on the other channels meanwhile, and from about cycle 30 its minimal channels are still busy (dark) while those of UGAL-S and CLOS AD lighten.',
      'Pane headers: batch time per packet, UGAL ≈ 7 cycles vs UGAL-S ≈ 4.6 and CLOS AD ≈ 3.5.',
    ],
  },
  {
    id: '2dfb-adaptive',
    title: '2DFB adaptive vs minimal',
    paper: '2-dilated flattened butterfly, §III–IV, Fig. 4',
    config: {
      topology: { type: 'dilated_flattened_butterfly', k: 8, n: 2 },
      routing: { algorithm: 'adaptive_2dfb' },
      traffic: { pattern: 'adversarial', load: 0.8 },
      router: { terminal_period: 2 },
      measurement,
      seed: 1,
    },
    compare: { param: 'routing.algorithm', values: ['adaptive_2dfb', 'min'] },
    speed: 4,
    view: { metric: 'utilization' },
    sweep: '0.1:1.0:0.1',
    point:
      'Minimal routing crowds the two orange-cased links i → i+1 and saturates at 50 %; adaptive routing overflows onto the links through other switches and carries the offered 0.8.',
    focus: { kind: 'router-shift', pattern: 'adversarial', label: 'the two direct links switch i → i+1' },
    keyPlots: ['classes', 'throughput'],
    text: [
      'The 2-dilated flattened butterfly: 8 switches, fully connected with ',
      { i: 'two' },
      ' links between every pair, 8 terminals each at half the link bandwidth (terminal period 2). ',
      { b: 'Adversarial' },
      ' traffic sends every terminal of switch i to switch i+1, so the two direct links carry the whole load and ',
      { b: 'Minimal' },
      ' routing saturates at 50 %. ',
      { b: 'Adaptive 2DFB' },
      ' (Algorithm 1) takes a direct link while its queue is at most the threshold Th and otherwise one non-minimal hop through another switch, reaching ≈ 100 %.',
    ],
    look: [
      'Minimal (links coloured by utilization): the two orange-cased parallel links i → i+1 busy (dark), the rest idle, rings of waiting packets.',
      'Adaptive: the overflow spreads over the other switches; accepted throughput follows the offered 0.8.',
    ],
  },
  {
    id: 'dal-failed-links',
    title: 'DAL routes around failed links',
    paper: 'HyperX, SC 2009, §6',
    config: {
      topology: { type: 'hyperx', s: [4, 4], k: [1], t: 4 },
      routing: { algorithm: 'min' },
      traffic: { pattern: 'router_shift', load: 0.2 },
      router: { vcs: 4 },
      faults: {
        links: [
          [5, 6],
          [9, 10],
        ],
      },
      measurement,
      seed: 1,
    },
    compare: { param: 'routing.algorithm', values: ['min', 'dal'] },
    speed: 2,
    view: { metric: 'utilization' },
    sweep: '0.05:0.4:0.05',
    point:
      'The two dashed links marked × have failed. DOR (min) still routes packets onto them and loses them — its unroutable count climbs and it delivers 0.175 of the offered 0.2 — while DAL takes the orange-cased two-hop detours around them and loses none.',
    focus: { kind: 'failed-detours', label: 'the two-hop detours around each failed link' },
    keyPlots: ['unroutable', 'classes'],
    text: [
      'A 4×4 HyperX (16 switches in rows of four, every switch linked to the others of its row and of its column; 4 terminals each) under ',
      { b: 'router shift' },
      ': every terminal of switch i sends to switch i+1. Switches 5 and 9 (second column, middle rows) reach their neighbours over the links 5–6 and 9–10, which have failed (',
      { b: 'faults.links' },
      ' = 5-6, 9-10). ',
      { b: 'DOR' },
      ' (dimension-order routing, oblivious) routes their packets onto the failed link all the same, and the switch drops them as ',
      { i: 'unroutable' },
      ' (HyperX §6: oblivious routing "will block at any failed link"; the simulator counts them rather than retrying): an eighth of all packets, so it delivers 0.175 of the offered 0.2. ',
      { b: 'DAL' },
      ' never takes a failed link: it deroutes once within the row, through one of its two other switches (5 → 4 → 6 or 5 → 7 → 6), the two-hop detours the orange casing marks, and delivers every packet.',
    ],
    look: [
      'Key plot: DOR’s unroutable packets climb by about 1.6 a cycle (2 switches × 4 terminals × 0.2 packets); DAL’s stay at 0.',
      'Links coloured by utilization: the orange-cased detours carry about twice as much under DAL as under DOR (0.4 against 0.2 flits/cycle on average), and DAL’s accepted throughput is the offered 0.2.',
      'Press ✂ Fail links (or x) and click a link: it fails in both panes while the simulation runs; click it again to restore it. A failure that would cut the network in two is refused, with the reason next to the picture. The failed links go into the link (Copy link) and survive Reset.',
      'Fail all three row links of one switch (e.g. 4–5, 5–6 and 5–7): that row has no detour left for it, and DAL loses packets too — it delivers every packet only while every failed link has a detour in its line.',
    ],
  },
  {
    id: 'channel-slicing',
    title: 'Channel slicing around a degraded slice',
    paper: 'Dragonfly, ISCA 2008, §3.2',
    config: {
      topology: { type: 'dragonfly', p: 2, a: 4, h: 2, g: 9, slices: 2, slice_policy: 'shortest_queue' },
      routing: { algorithm: 'ugal_l' },
      traffic: { pattern: 'uniform', load: 0.5 },
      router: { vcs: 3 },
      // Slice 1's global channels in the engine's channel order (r < q), every third, the
      // first 12 of its 36 (as tests/channel_slicing.rs picks them).
      faults: {
        links: [
          [36, 40],
          [37, 52],
          [39, 64],
          [41, 48],
          [42, 60],
          [45, 49],
          [46, 61],
          [49, 53],
          [51, 65],
          [54, 62],
          [58, 62],
          [63, 67],
        ],
      },
      // Longer than the other stories': shortest_queue's labeled packets need more than
      // 5000 cycles to drain (a few wait thousands of cycles in the degraded slice).
      measurement: { warmup: 2000, measure: 2000, drain_limit: 20000 },
      seed: 1,
    },
    compare: { param: 'topology.slice_policy', values: ['shortest_queue', 'round_robin'] },
    speed: 10,
    view: { metric: 'utilization' },
    sweep: '0.1:0.7:0.1',
    point:
      'Slice 1 has lost 12 of its 36 global links. Picking the slice with the shorter source queue sends what slice 1 cannot carry over the orange-cased slice 0 (0.72 against 0.55 flits/cycle) and accepts the offered 0.5; round robin keeps feeding slice 1 half of every node’s packets, its source queues grow and it accepts 0.41.',
    // The point is in both slices (slice 1 carries the same in both panes): nothing dimmed.
    focus: { kind: 'slice', slice: 0, dim: 1, label: 'slice 0, the intact one' },
    keyPlots: ['classes', 'throughput'],
    text: [
      'Dragonfly §3.2: “multiple network can be connected in parallel to add capacity”. Two copies (',
      { b: 'topology.slices' },
      ' = 2) of the 72-node dragonfly (p = h = 2, a = 4, g = 9), every node with one terminal channel into each, under uniform traffic at half of a node’s channels, routed by UGAL-L. Slice 1 is degraded: 12 of its 36 global channels have failed (',
      { b: 'faults.links' },
      '), so some of its groups reach each other only through a third group, and it carries less than its share. A node puts each packet on one slice, whole (',
      { b: 'topology.slice_policy' },
      '). ',
      { b: 'shortest_queue' },
      ' picks the slice whose source queue at that node is shorter: slice 1 gets what it can carry and slice 0 the rest, and the network accepts the offered 0.50 without saturating. ',
      { b: 'round_robin' },
      ' alternates whatever the slices’ state: a fixed split is bound by the worse slice, so the source queues into slice 1 grow without end and the network saturates at 0.41 (',
      { b: 'random' },
      ' splits the same way and fares the same; ',
      { b: 'shared_queue' },
      ', one queue per node whose head leaves on whichever slice can take it, carries the 0.50 as shortest_queue does).',
    ],
    look: [
      'Links coloured by utilization: under shortest_queue the orange-cased slice 0 is darker, about 0.72 flits/cycle per channel against 0.55 under round robin; slice 1 carries about 0.41 in both panes (its failed links, dashed and crossed out, count as 0): all it can.',
      'Under round robin the routers of slice 1 grow red rings: packets waiting at the nodes to enter the degraded slice.',
      'Key plot: accepted throughput, 0.50 under shortest_queue against 0.41 under round robin.',
    ],
  },
];

export function presetExperiment(model, preset) {
  const exp = newExperiment(model.complete(preset.config));
  exp.compare = preset.compare ? { param: preset.compare.param, values: [...preset.compare.values] } : null;
  exp.speed = preset.speed;
  exp.preset = preset.id;
  if (preset.view) Object.assign(exp.view, preset.view);
  return exp;
}

/** id → {preset, experiment}, for the URL decoder and the preset menu. */
export function presetExperiments(model) {
  const map = new Map();
  for (const p of PRESETS) map.set(p.id, { preset: p, experiment: presetExperiment(model, p) });
  return map;
}
