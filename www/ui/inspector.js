// Inspection: the details of the router or channel under the pointer (or pinned by a
// click) — VC occupancies, credits, queue estimates — and, for the adaptive algorithms,
// the numbers behind the routing decision: the last source decision of the UGAL family and
// CLOS AD (q_m·H_m vs q_nm·H_nm, sensed vs true queue), DAL's unblocked outputs, the 2DFB
// threshold test. Built as DOM nodes (www/lib/dom.js): no markup.

import { el } from '../lib/dom.js';

// q_m, H_nm, t_d: a letter with its subscript.
const sub = (x, s) => [x, el('sub', {}, s)];
const muted = (...text) => el('span', { class: 'muted' }, ...text);
const list = (xs) => (xs ? xs.join(' / ') : '–');
const td = (content, attrs = {}) => el('td', attrs, content);
const th = (text, title) => el('th', { title }, text);

// The last source decision by q·H (the algorithm's declaration says what q measures and
// what is shown beside it: src/routing/mod.rs, Decisions).
function decision(d) {
  const n = d.note;
  const qh = d.decisions?.kind === 'queue_times_hops' ? d.decisions : null;
  if (!n) {
    return qh ? el('p', { class: 'muted' }, 'No packet has made its source routing decision at this router yet.') : null;
  }
  const t = d.ugal_threshold || 0;
  const thr = t ? ` + ${t}` : '';
  const m = n.q_min * n.h_min;
  const nm = n.q_nonmin * n.h_nonmin;
  const box = el(
    'div',
    { class: 'decision' },
    el(
      'div',
      { class: 'decision-head' },
      `Last routing decision — cycle ${n.cycle}, packet ${n.src} → ${n.dst}: `,
      el('b', { class: n.chose_minimal ? 'min' : 'nonmin' }, n.chose_minimal ? 'minimal' : 'non-minimal'),
    ),
    el(
      'div',
      { class: 'formula' },
      sub('q', 'm'),
      '·',
      sub('H', 'm'),
      ` = ${n.q_min}·${n.h_min} = `,
      el('b', {}, m),
      ` ${n.chose_minimal ? '≤' : '>'} `,
      sub('q', 'nm'),
      '·',
      sub('H', 'nm'),
      `${thr} = ${n.q_nonmin}·${n.h_nonmin}${thr} = `,
      el('b', {}, nm + t),
    ),
  );
  if (qh?.true_queue === 'compare') {
    box.append(
      el(
        'div',
        { class: 'formula' },
        'sensed ',
        sub('q', 'm'),
        ` = ${n.q_min} here vs true queue of the minimal global channel = `,
        el('b', {}, n.q_true),
        ' ',
        muted('(what UGAL-G compares)'),
      ),
    );
  } else if (qh?.true_queue === 'read') {
    box.append(el('div', { class: 'formula' }, `true queue of the minimal global channel = ${n.q_true}`));
  }
  box.append(el('div', { class: 'muted' }, qh?.q ?? ''));
  return box;
}

// DAL (HyperX §3.3): the last per-hop decision here, dimension by dimension.
function dalDecision(d) {
  const n = d.hop_note;
  if (!n) {
    const text = d.recording_hop_notes
      ? 'Recording DAL’s decisions: the next packet routed at this router will show its numbers.'
      : 'DAL’s decisions are recorded while you inspect a router.';
    return el('div', { class: 'decision dal-note' }, muted(text));
  }
  // The rule that decided, as the algorithm declares it (routing::HopRule).
  const rule = (d.decisions?.rules ?? []).find((r) => r.name === n.rule);
  const why = rule?.explains ?? n.rule;
  const cls = rule ? (rule.hop === 'minimal' ? 'min' : 'nonmin') : '';
  const escaped = rule?.hop === 'escape';
  const mark = (ok) => (ok ? el('span', { class: 'ok' }, '✓') : el('span', { class: 'no' }, '✗'));
  const cell = (free, queue) => [`${free} free `, muted(`(q ${queue})`)];
  const rows = n.per_dim.map((x, dim) => {
    const chosen = dim === n.dim;
    if (!x.offset) return el('tr', { class: 'aligned' }, td(dim), td('aligned with the destination', { colspan: 2, class: 'muted' }));
    const minState = x.min_free >= n.need_uncongested ? 'uncongested' : x.min_free >= n.need_free ? 'congested' : 'blocked';
    const minLabel = { uncongested: 'uncongested', congested: 'unblocked but congested', blocked: 'blocked' }[minState];
    const derOk = x.has_deroute && x.deroutable && x.der_free >= n.need_uncongested;
    const derText = !x.has_deroute ? muted('none') : !x.deroutable ? muted('already derouted') : [cell(x.der_free, x.der_queue), ' ', mark(derOk)];
    return el(
      'tr',
      { class: chosen ? 'chosen' : '' },
      td(`${dim}${chosen ? ' ◂' : ''}`),
      td([cell(x.min_free, x.min_queue), ` ${minLabel}`], { class: `dal-${minState}` }),
      td(derText),
    );
  });
  return el(
    'div',
    { class: 'decision dal-note' },
    el(
      'div',
      { class: 'decision-head' },
      `Last DAL decision — cycle ${n.cycle}, packet ${n.src} → ${n.dst} (after ${n.hops} hop${n.hops === 1 ? '' : 's'}), from port ${n.in_port} VC ${n.in_vc}: `,
      el('b', { class: cls }, String(n.rule).replace('_', ' ')),
      ` → port ${n.port}, VC ${n.vc}, dimension ${n.dim}`,
    ),
    // The outputs' free slots first (what a scene's answer points to), then the rule.
    el(
      'table',
      { class: 'ports dal-dims' },
      el('thead', {}, el('tr', {}, th('dim'), th('best minimal output'), th('best deroute (uncongested?)'))),
      el('tbody', {}, rows),
    ),
    el('div', { class: 'formula' }, `Why: ${why}. Escape VC taken: `, el('b', {}, escaped ? 'yes' : 'no'), '.'),
    el(
      'div',
      { class: 'formula' },
      'unblocked = ≥ ',
      el('b', {}, n.need_free),
      ' free slots; uncongested = ≥ ',
      el('b', {}, n.need_uncongested),
      ' free slots ',
      muted("(free = not promised to packets routed here, in the output's best adaptive VC; q = port queue, the tie-breaker)"),
    ),
  );
}

// DAL (HyperX §3.3): which outputs pass the uncongested test right now (uncongested:
// room beyond the queue threshold; congested: unblocked, room for a packet only; blocked).
function dalCell(d, cfg, port) {
  if (port.class === 'terminal') return td('');
  const r = cfg.routing;
  const size = cfg.traffic.packet_size;
  let free = 0;
  for (let v = 0; v < d.vcs; v += 2) free = Math.max(free, d.depth - port.out.queue[v]);
  const need = Math.max(r.dal_unblocked_credits, size, d.depth - r.dal_queue_threshold);
  const flowing = Math.max(r.dal_unblocked_credits, size);
  const state = free >= need ? 'uncongested' : free >= flowing ? 'congested' : 'blocked';
  return td(`${free} ${state}`, { class: `dal-${state}`, title: 'free, unpromised slots in the best adaptive VC' });
}

function twoDfbCell(d, cfg, port) {
  if (port.class === 'terminal') return td('');
  const th = cfg.routing.threshold;
  const ok = port.port_queue <= th;
  return td(`${port.port_queue} ${ok ? '≤' : '>'} Th=${th}`, { class: ok ? 'dal-unblocked' : 'dal-blocked' });
}

// The flits in each input VC of a port; a non-empty VC is a button that traces the packet
// at its head.
function traceableVcs(p) {
  const out = [];
  p.in_flits.forEach((f, v) => {
    if (v > 0) out.push(' / ');
    out.push(
      f > 0
        ? el('button', { type: 'button', class: 'vc-trace', dataset: { port: p.port, vc: v }, title: `follow the packet at the head of VC ${v}` }, f)
        : String(f),
    );
  });
  return out;
}

/** The inspector's content for a router: [nodes]. */
export function routerNodes(d, cfg, info) {
  // A sliced dragonfly's routers are numbered slice by slice; the engine gives the group
  // within the slice.
  const slice = info.slices > 1 && info.a && info.g ? `slice ${Math.floor(d.router / (info.a * info.g))} · ` : '';
  const where =
    d.group !== null ? `${slice}group ${d.group}, router ${d.router % (info.a ?? 1)} of ${info.a}` : d.coords ? `coordinates (${d.coords.join(', ')})` : '';
  const dal = d.decisions?.kind === 'per_hop_dimensions';
  const tdfb = d.decisions?.kind === 'queue_threshold';
  const cr = d.ports.some((p) => p.td !== null);
  const out = [
    el(
      'h3',
      {},
      `Router ${d.router} `,
      muted(`${where} · cycle ${d.cycle} · ${d.load} packets inside`),
      ' ',
      el(
        'button',
        { type: 'button', class: 'trace-here', dataset: { router: d.router }, title: 'Follow the next packet generated at this router' },
        'trace next packet from here',
      ),
    ),
    dal ? dalDecision(d) : decision(d),
  ];
  if (dal) {
    const need = Math.max(cfg.routing.dal_unblocked_credits, cfg.traffic.packet_size, d.depth - cfg.routing.dal_queue_threshold);
    out.push(
      el(
        'p',
        { class: 'muted' },
        'DAL takes an aligning output that is ',
        el('i', {}, 'uncongested'),
        ` (≥ ${need} free slots in its best adaptive VC), else deroutes once per dimension, else takes a merely unblocked aligning output (room for a packet), else the escape VC. The DAL column shows each output's state now.`,
      ),
    );
  }
  if (tdfb)
    out.push(
      el(
        'p',
        { class: 'muted' },
        "Adaptive 2DFB takes a direct link whose queue is ≤ Th (or any, once the packet's priority flag is set), else one non-minimal hop in an offset dimension, else waits.",
      ),
    );
  const waiting = d.terminals.reduce((s, t) => s + t.source_queue, 0);
  // A sliced network's terminal s·N + n is node n's channel into slice s: name the node.
  const nodes = info.slices > 1 ? info.terminals / info.slices : 0;
  const terminalName = (t) => (nodes ? `${t} (node ${t % nodes})` : String(t));
  out.push(
    el(
      'p',
      { class: 'muted' },
      `Terminals ${d.terminals.map((t) => terminalName(t.terminal)).join(', ') || '–'}: ${waiting} packets waiting in their source queues.`,
    ),
  );
  const head = el(
    'tr',
    {},
    th('port'),
    th('link'),
    th('in (flits/VC)', "flits in this router's input VCs"),
    th('credits/VC', 'credits this router holds for the downstream VCs'),
    th('downstream', 'flits buffered downstream, per VC'),
    th('queue est.', 'queue estimate adaptive routing reads: B − credits + committed, summed over VCs'),
    th('out q', 'packets switched to this output, waiting for the channel'),
    th('sent'),
    cr && el('th', { title: 'UGAL-L_CR: credit round-trip excess t_d' }, sub('t', 'd')),
    dal && th('DAL'),
    tdfb && th('2DFB'),
  );
  const rows = [];
  // Terminal ports in one summary row (a flattened butterfly router has k of them).
  const terms = d.ports.filter((p) => p.class === 'terminal');
  if (terms.length) {
    const sumVc = (key) => terms[0][key].map((_, v) => terms.reduce((s, p) => s + p[key][v], 0));
    rows.push(
      el(
        'tr',
        { class: 'terminal' },
        td(`${terms[0].port}–${terms.at(-1).port}`),
        td(`${terms.length} terminal${terms.length > 1 ? 's' : ''}`),
        td(list(sumVc('in_flits'))),
        td('–'),
        td('–'),
        td('–'),
        td(terms.reduce((s, p) => s + p.output_queue, 0)),
        td(terms.reduce((s, p) => s + p.sent, 0)),
        cr && td('–'),
        (dal || tdfb) && td(''),
      ),
    );
  }
  for (const p of d.ports) {
    if (p.class === 'terminal') continue;
    rows.push(
      el(
        'tr',
        { class: p.class },
        td(p.port),
        td(`${p.class}${info.family === 'hyperx' ? ` d${p.dim}` : ''} → R${p.peer_router}`),
        td(traceableVcs(p)),
        td(list(p.out.credits)),
        td(list(p.out.flits)),
        td(p.port_queue),
        td(p.output_queue),
        td(p.sent),
        cr && td(p.td ?? '–'),
        dal && dalCell(d, cfg, p),
        tdfb && twoDfbCell(d, cfg, p),
      ),
    );
  }
  out.push(el('table', { class: 'ports' }, el('thead', {}, head), el('tbody', {}, rows)));
  return out;
}

/** The inspector's content for a channel: [nodes]. */
export function channelNodes(d, cfg, info) {
  const util = d.cycle > 0 ? d.sent / d.cycle : 0;
  const head = el(
    'tr',
    {},
    th('VC'),
    th('downstream flits', 'flits in the downstream input VC'),
    th('credits upstream', "the sender's credits for it"),
    th('committed', 'flits routed to it upstream but not yet through the switch'),
    th('queue est.', 'queue estimate adaptive routing reads'),
  );
  const rows = d.flits.map((f, v) => el('tr', {}, td(v), td(`${f} / ${d.depth}`), td(d.credits[v]), td(d.committed[v]), td(d.queue[v])));
  return [
    el(
      'h3',
      {},
      `Channel ${d.channel} `,
      muted(
        `router ${d.src} port ${d.src_port} → router ${d.dst} port ${d.dst_port} · ${d.class}${info.family === 'hyperx' ? `, dimension ${d.dim}` : ''}${info.slices > 1 && info.a && info.g ? ` · slice ${Math.floor(d.src / (info.a * info.g))}` : ''} · cycle ${d.cycle}`,
      ),
    ),
    el('table', { class: 'ports' }, el('thead', {}, head), el('tbody', {}, rows)),
    el(
      'p',
      { class: 'muted' },
      `${d.sent} flits sent so far (${util.toFixed(3)} per cycle on average). Credits lag the downstream occupancy by the channel latency.`,
      d.td !== null && [' UGAL-L_CR: ', sub('t', 'd'), ` = ${d.td} cycles at this output.`],
    ),
  ];
}
