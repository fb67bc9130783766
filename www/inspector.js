// Inspection: the details of the router or channel under the pointer (or pinned by a
// click) — VC occupancies, credits, queue estimates — and, for the adaptive algorithms,
// the numbers behind the routing decision: the last source decision of the UGAL family and
// CLOS AD (q_m·H_m vs q_nm·H_nm, sensed vs true queue), DAL's unblocked outputs, the 2DFB
// threshold test.

const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
const list = (xs) => (xs ? xs.join(' / ') : '–');

// What q means in each algorithm's decision.
const Q_MEANING = {
  ugal: 'q = queue estimate of each path’s first-hop output (downstream occupancy from credits + flits committed here); greedy allocator',
  ugal_s: 'q = queue estimate of each path’s first-hop output; sequential allocator (each input sees the earlier decisions)',
  clos_ad: 'q_nm = the shortest first-hop queue towards a closest common ancestor (including staying); sequential allocator',
  clos_ad_hx: 'q_nm = first-hop queue towards a random closest common ancestor',
  ugal_l: 'q = occupancy of each path’s local first-hop output port, all the source router can sense',
  ugal_g: 'q = queue of the global channel each path would take, read at the router that owns it (the ideal)',
  ugal_l_vc: 'q = occupancy of the first-hop VC: VC 1 (minimal) vs VC 0 (non-minimal)',
  ugal_l_vch: 'port queues when the paths leave on different ports, VC queues when on the same port',
  ugal_l_cr: 'as UGAL-L_VCH, but credits come back late by the measured credit round-trip excess t_d, so congested paths look fuller sooner',
};

function decision(d) {
  const n = d.note;
  const alg = d.algorithm;
  if (!n) {
    return alg in Q_MEANING ? '<p class="muted">No packet has made its source routing decision at this router yet.</p>' : '';
  }
  const t = d.ugal_threshold || 0;
  const thr = t ? ` + ${t}` : '';
  const m = n.q_min * n.h_min;
  const nm = n.q_nonmin * n.h_nonmin;
  let html = `<div class="decision"><div class="decision-head">Last routing decision — cycle ${n.cycle}, packet ${n.src} → ${n.dst}:
    <b class="${n.chose_minimal ? 'min' : 'nonmin'}">${n.chose_minimal ? 'minimal' : 'non-minimal'}</b></div>
    <div class="formula">q<sub>m</sub>·H<sub>m</sub> = ${n.q_min}·${n.h_min} = <b>${m}</b>
    ${n.chose_minimal ? '≤' : '>'} q<sub>nm</sub>·H<sub>nm</sub>${thr} = ${n.q_nonmin}·${n.h_nonmin}${thr} = <b>${nm + t}</b></div>`;
  if (alg.startsWith('ugal_l')) {
    html += `<div class="formula">sensed q<sub>m</sub> = ${n.q_min} here vs true queue of the minimal global channel = <b>${n.q_true}</b>
      <span class="muted">(what UGAL-G compares)</span></div>`;
  } else if (alg === 'ugal_g') {
    html += `<div class="formula">true queue of the minimal global channel = ${n.q_true}</div>`;
  }
  html += `<div class="muted">${esc(Q_MEANING[alg] ?? '')}</div></div>`;
  return html;
}

const RULES = {
  minimal: ['an unblocked, uncongested minimal output', 'min'],
  deroute: ['no minimal output was uncongested: one deroute in this dimension', 'nonmin'],
  minimal_congested: ['nothing uncongested: a minimal output that is merely unblocked', 'min'],
  escape: ['no output unblocked: the escape VC (dimension order from here on)', 'nonmin'],
  in_escape: ['already in the escape VC: dimension order', 'nonmin'],
};

// DAL (HyperX §3.3): the last per-hop decision here, dimension by dimension.
function dalDecision(d) {
  const n = d.hop_note;
  if (!n) {
    return `<div class="decision dal-note"><span class="muted">${
      d.recording_hop_notes ? 'Recording DAL’s decisions: the next packet routed at this router will show its numbers.' : 'DAL’s decisions are recorded while you inspect a router.'
    }</span></div>`;
  }
  const [why, cls] = RULES[n.rule] ?? [n.rule, ''];
  const escaped = n.rule === 'escape' || n.rule === 'in_escape';
  const mark = (ok) => (ok ? '<span class="ok">✓</span>' : '<span class="no">✗</span>');
  const cell = (free, queue, show) => (show ? `${free} free <span class="muted">(q ${queue})</span>` : '–');
  let rows = '';
  n.per_dim.forEach((x, dim) => {
    const chosen = dim === n.dim;
    if (!x.offset) {
      rows += `<tr class="aligned"><td>${dim}</td><td colspan="4" class="muted">aligned with the destination</td></tr>`;
      return;
    }
    const minState = x.min_free >= n.need_uncongested ? 'unblocked' : x.min_free >= n.need_free ? 'congested' : 'blocked';
    const minLabel = { unblocked: 'uncongested', congested: 'unblocked but congested', blocked: 'blocked' }[minState];
    const derOk = x.has_deroute && x.deroutable && x.der_free >= n.need_uncongested;
    const derText = !x.has_deroute ? '<span class="muted">none</span>' : !x.deroutable ? `<span class="muted">already derouted</span>` : `${cell(x.der_free, x.der_queue, true)} ${mark(derOk)}`;
    rows += `<tr class="${chosen ? 'chosen' : ''}"><td>${dim}${chosen ? ' ◂' : ''}</td>
      <td class="dal-${minState}">${cell(x.min_free, x.min_queue, true)} ${minLabel}</td><td>${derText}</td></tr>`;
  });
  return `<div class="decision dal-note"><div class="decision-head">Last DAL decision — cycle ${n.cycle}, packet ${n.src} → ${n.dst} (after ${n.hops} hop${n.hops === 1 ? '' : 's'}), from port ${n.in_port} VC ${n.in_vc}:
    <b class="${cls}">${n.rule.replace('_', ' ')}</b> → port ${n.port}, VC ${n.vc}, dimension ${n.dim}</div>
    <div class="formula">Why: ${esc(why)}. Escape VC taken: <b>${escaped ? 'yes' : 'no'}</b>.</div>
    <div class="formula">unblocked = ≥ <b>${n.need_free}</b> free slots; uncongested = ≥ <b>${n.need_uncongested}</b> free slots <span class="muted">(free = not promised to packets routed here, in the output's best adaptive VC; q = port queue, the tie-breaker)</span></div>
    <table class="ports dal-dims"><thead><tr><th>dim</th><th>best minimal output</th><th>best deroute (uncongested?)</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

// DAL (HyperX §3.3): which outputs pass the unblocked test right now.
function dalCell(d, cfg, port) {
  if (port.class === 'terminal') return '<td></td>';
  const r = cfg.routing;
  const size = cfg.traffic.packet_size;
  let free = 0;
  for (let v = 0; v < d.vcs; v += 2) free = Math.max(free, d.depth - port.out.queue[v]);
  const need = Math.max(r.dal_unblocked_credits, size, d.depth - r.dal_queue_threshold);
  const flowing = Math.max(r.dal_unblocked_credits, size);
  const state = free >= need ? 'unblocked' : free >= flowing ? 'congested' : 'blocked';
  return `<td class="dal-${state}" title="free, unpromised slots in the best adaptive VC">${free} ${state}</td>`;
}

function twoDfbCell(d, cfg, port) {
  if (port.class === 'terminal') return '<td></td>';
  const th = cfg.routing.threshold;
  const ok = port.port_queue <= th;
  return `<td class="${ok ? 'dal-unblocked' : 'dal-blocked'}">${port.port_queue} ${ok ? '≤' : '>'} Th=${th}</td>`;
}

// The flits in each input VC of a port; a non-empty VC is a button that traces the packet
// at its head.
function traceableVcs(p) {
  return p.in_flits
    .map((f, v) => (f > 0 ? `<button type="button" class="vc-trace" data-port="${p.port}" data-vc="${v}" title="follow the packet at the head of VC ${v}">${f}</button>` : `${f}`))
    .join(' / ');
}

export function routerHtml(d, cfg, info) {
  const where = d.group !== null ? `group ${d.group}, router ${d.router % (info.a ?? 1)} of ${info.a}` : d.coords ? `coordinates (${d.coords.join(', ')})` : '';
  const dal = d.algorithm === 'dal';
  const tdfb = d.algorithm === 'adaptive_2dfb';
  const cr = d.ports.some((p) => p.td !== null);
  let html = `<h3>Router ${d.router} <span class="muted">${esc(where)} · cycle ${d.cycle} · ${d.load} packets inside</span>
    <button type="button" class="trace-here" data-router="${d.router}" title="Follow the next packet generated at this router">trace next packet from here</button></h3>`;
  html += dal ? dalDecision(d) : decision(d);
  if (dal) {
    const need = Math.max(cfg.routing.dal_unblocked_credits, cfg.traffic.packet_size, d.depth - cfg.routing.dal_queue_threshold);
    html += `<p class="muted">DAL takes an aligning output that is <i>unblocked</i> (≥ ${need} free slots in its best adaptive VC), else deroutes once per dimension, else takes a merely flowing aligning output, else the escape VC. The DAL column shows each output's state now.</p>`;
  }
  if (tdfb) html += `<p class="muted">Adaptive 2DFB takes a direct link whose queue is ≤ Th (or any, once the packet's priority flag is set), else one non-minimal hop in an offset dimension, else waits.</p>`;
  const waiting = d.terminals.reduce((s, t) => s + t.source_queue, 0);
  html += `<p class="muted">Terminals ${d.terminals.map((t) => t.terminal).join(', ') || '–'}: ${waiting} packets waiting in their source queues.</p>`;
  html += `<table class="ports"><thead><tr><th>port</th><th>link</th><th title="flits in this router's input VCs">in (flits/VC)</th>
    <th title="credits this router holds for the downstream VCs">credits/VC</th><th title="flits buffered downstream, per VC">downstream</th>
    <th title="queue estimate adaptive routing reads: B − credits + committed, summed over VCs">queue est.</th><th title="packets switched to this output, waiting for the channel">out q</th><th>sent</th>
    ${cr ? '<th title="UGAL-L_CR: credit round-trip excess t_d">t<sub>d</sub></th>' : ''}${dal ? '<th>DAL</th>' : ''}${tdfb ? '<th>2DFB</th>' : ''}</tr></thead><tbody>`;
  // Terminal ports in one summary row (a flattened butterfly router has k of them).
  const terms = d.ports.filter((p) => p.class === 'terminal');
  if (terms.length) {
    const sumVc = (key) => terms[0][key].map((_, v) => terms.reduce((s, p) => s + p[key][v], 0));
    html += `<tr class="terminal"><td>${terms[0].port}–${terms.at(-1).port}</td><td>${terms.length} terminal${terms.length > 1 ? 's' : ''}</td><td>${list(sumVc('in_flits'))}</td>
      <td>–</td><td>–</td><td>–</td><td>${terms.reduce((s, p) => s + p.output_queue, 0)}</td><td>${terms.reduce((s, p) => s + p.sent, 0)}</td>${cr ? '<td>–</td>' : ''}${dal || tdfb ? '<td></td>' : ''}</tr>`;
  }
  for (const p of d.ports) {
    const term = p.class === 'terminal';
    if (term) continue;
    const link = term ? `terminal ${p.terminal}` : `${p.class}${info.family === 'hyperx' ? ` d${p.dim}` : ''} → R${p.peer_router}`;
    html += `<tr class="${p.class}"><td>${p.port}</td><td>${esc(link)}</td><td>${traceableVcs(p)}</td>
      <td>${term ? '–' : list(p.out.credits)}</td><td>${term ? '–' : list(p.out.flits)}</td><td>${term ? '–' : p.port_queue}</td>
      <td>${p.output_queue}</td><td>${p.sent}</td>${cr ? `<td>${p.td ?? '–'}</td>` : ''}${dal ? dalCell(d, cfg, p) : ''}${tdfb ? twoDfbCell(d, cfg, p) : ''}</tr>`;
  }
  return `${html}</tbody></table>`;
}

export function channelHtml(d, cfg, info) {
  const util = d.cycle > 0 ? d.sent / d.cycle : 0;
  let html = `<h3>Channel ${d.channel} <span class="muted">router ${d.src} port ${d.src_port} → router ${d.dst} port ${d.dst_port} · ${d.class}${info.family === 'hyperx' ? `, dimension ${d.dim}` : ''} · cycle ${d.cycle}</span></h3>`;
  html += `<table class="ports"><thead><tr><th>VC</th><th title="flits in the downstream input VC">downstream flits</th><th title="the sender's credits for it">credits upstream</th>
    <th title="flits routed to it upstream but not yet through the switch">committed</th><th title="queue estimate adaptive routing reads">queue est.</th></tr></thead><tbody>`;
  d.flits.forEach((f, v) => {
    html += `<tr><td>${v}</td><td>${f} / ${d.depth}</td><td>${d.credits[v]}</td><td>${d.committed[v]}</td><td>${d.queue[v]}</td></tr>`;
  });
  return `${html}</tbody></table><p class="muted">${d.sent} flits sent so far (${util.toFixed(3)} per cycle on average). Credits lag the downstream occupancy by the channel latency.${
    d.td !== null ? ` UGAL-L_CR: t<sub>d</sub> = ${d.td} cycles at this output.` : ''
  }</p>`;
}
