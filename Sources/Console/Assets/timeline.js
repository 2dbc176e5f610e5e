// URLSessionTaskMetrics as a timeline: one row per transaction (each redirect, retry or cache load),
// its phases — DNS, connect, TLS, request, waiting, response — placed on the task's time axis.

import { h } from './dom.js';
import { milliseconds, bytes } from './format.js';

const phases = [
  { name: 'dns', label: 'DNS', from: 'domainLookupStartDate', to: 'domainLookupEndDate' },
  { name: 'connect', label: 'Connect', from: 'connectStartDate', to: ['secureConnectionStartDate', 'connectEndDate'] },
  { name: 'tls', label: 'TLS', from: 'secureConnectionStartDate', to: 'secureConnectionEndDate' },
  { name: 'request', label: 'Request', from: 'requestStartDate', to: 'requestEndDate' },
  { name: 'wait', label: 'Waiting', from: 'requestEndDate', to: 'responseStartDate' },
  { name: 'response', label: 'Response', from: 'responseStartDate', to: 'responseEndDate' },
];

const instant = (value) => (value ? Date.parse(value) : NaN);
const first = (transaction, names) => [names].flat().map((name) => instant(transaction[name])).find(Number.isFinite) ?? NaN;

/** The spans of one transaction's phases that happened, in milliseconds since the epoch. */
function spans(transaction) {
  return phases.map((phase) => ({ phase, start: instant(transaction[phase.from]), end: first(transaction, phase.to) }))
    .filter(({ start, end }) => Number.isFinite(start) && Number.isFinite(end) && end >= start);
}

export function timeline(metrics) {
  const transactions = metrics.transactionMetrics ?? [];
  if (!transactions.length) return h('p', { class: 'muted' }, 'No transactions (the task never sent a request).');
  const taskStart = instant(metrics.taskInterval?.start);
  const all = transactions.flatMap((transaction) => [instant(transaction.fetchStartDate), ...spans(transaction).flatMap((span) => [span.start, span.end])]);
  const origin = Math.min(...[taskStart, ...all].filter(Number.isFinite));
  const end = Math.max(origin + (metrics.taskInterval?.duration ?? 0) * 1000, ...all.filter(Number.isFinite));
  const scale = Math.max(1, end - origin);

  const rows = transactions.map((transaction, index) => {
    const track = h('div', { class: 'track' });
    const described = [];
    for (const { phase, start, end: stop } of spans(transaction)) {
      const bar = h('span', { class: `phase ${phase.name}`, title: `${phase.label} ${milliseconds((stop - start) / 1000)}` });
      bar.style.left = `${((start - origin) / scale) * 100}%`;
      bar.style.width = `${((stop - start) / scale) * 100}%`;
      track.append(bar);
      described.push(`${phase.label} ${milliseconds((stop - start) / 1000)}`);
    }
    const response = transaction.response;
    const label = [
      `${index + 1}. ${transaction.request?.httpMethod ?? ''} ${response?.statusCode ?? ''}`,
      h('div', { class: 'muted mono' }, transaction.request?.url ?? ''),
      h('div', { class: 'muted' }, [transaction.networkProtocolName, transaction.resourceFetchType,
        transaction.isReusedConnection ? 'reused connection' : null, transaction.remoteAddress].filter(Boolean).join(' · ')),
    ];
    return h('div', { class: 'row' }, h('div', { class: 'label' }, label), track,
      h('div', { class: 'phases' }, described.join(' · ') || 'no network phases',
        ` · ${bytes(transaction.countOfResponseBodyBytesReceived ?? 0)} received`));
  });
  return h('div', {},
    h('p', { class: 'muted' }, `${transactions.length} transaction(s), ${metrics.redirectCount} redirect(s), ${milliseconds(scale / 1000)} in all`),
    h('div', { class: 'legend' }, phases.map((phase) => h('span', {}, h('span', { class: `swatch phase ${phase.name}` }), phase.label))),
    h('div', { class: 'timeline' }, rows));
}
