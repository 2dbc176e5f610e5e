// The tenant's sessions: kind, state, description and the health of each delegate's webhooks.

import { api, query } from './api.js';
import { h, replace, table, row, badge, problem, pager } from './dom.js';
import { time, clock } from './format.js';

const pageSize = 50;
const refreshEvery = 3000;

const columns = [
  { label: 'Session' }, { label: 'Kind' }, { label: 'State' }, { label: 'Delegate' }, { label: 'Webhooks' }, { label: 'Created' },
];

/** The webhook health of a session's delegate, in a few words. */
export function deliverySummary(session) {
  const delivery = session.delivery;
  if (!session.delegate) return h('span', { class: 'muted' }, 'no delegate');
  if (!delivery) return h('span', { class: 'muted' }, '—');
  const parts = [badge(delivery.state)];
  if (delivery.pendingEvents > 0) parts.push(` ${delivery.pendingEvents} waiting`);
  if (delivery.lastDeliveredAt) parts.push(h('div', { class: 'muted' }, `last delivered at ${clock(delivery.lastDeliveredAt)}`));
  if (delivery.consecutiveFailures > 0) {
    const reason = delivery.lastFailure ? ` (${delivery.lastFailure.reason})` : '';
    parts.push(h('div', { class: 'muted' }, `${delivery.consecutiveFailures} failed${reason}`));
  }
  if (delivery.nextAttemptAt) parts.push(h('div', { class: 'muted' }, `next attempt at ${clock(delivery.nextAttemptAt)}`));
  return h('span', {}, parts);
}

function sessionRow(session) {
  const name = session.sessionDescription || session.configuration?.identifier || session.id;
  return row(columns, [
    [h('a', { href: `#/sessions/${session.id}` }, name), h('div', { class: 'muted mono' }, session.id)],
    session.configuration?.kind ?? 'shared',
    badge(session.state),
    session.delegate ? h('span', { class: 'mono' }, session.delegate.url) : h('span', { class: 'muted' }, 'system-provided'),
    deliverySummary(session),
    time(session.createdAt),
  ], { 'data-session': session.id });
}

/** `#/sessions`: one page of sessions, read again every few seconds so new ones appear. */
export function sessionsView(view) {
  const controller = new AbortController();
  let timer = null;
  const list = h('div', {});
  const pages = pager(() => load());
  replace(view, h('h1', {}, 'Sessions'), h('p', { class: 'muted' }, h('a', { href: '#/sessions/shared' }, 'The shared session'), ' (URLSession.shared)'), list, pages.element);

  async function load() {
    clearTimeout(timer);
    try {
      const answer = await api(`/v1/sessions${query({ limit: pageSize, after: pages.after })}`, { signal: controller.signal });
      replace(list, answer.items.length
        ? table(columns, answer.items.map(sessionRow))
        : h('p', { class: 'notice' }, 'No sessions yet. Create one with POST /v1/sessions.'));
      pages.shown(answer.nextCursor);
    } catch (error) {
      if (controller.signal.aborted) return;
      replace(list, problem(error));
    }
    if (!controller.signal.aborted) timer = setTimeout(load, refreshEvery);
  }
  load();
  return { stop: () => { controller.abort(); clearTimeout(timer); } };
}
