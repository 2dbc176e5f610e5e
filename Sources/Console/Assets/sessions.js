// The tenant's sessions: kind, state, description and the health of each delegate's webhooks, and the
// form that creates one.

import { api, query } from './api.js';
import { h, replace, table, row, badge, problem, pager } from './dom.js';
import { time, clock } from './format.js';
import { newSessionForm } from './forms.js';

const pageSize = 50;
const refreshEvery = 3000;

const columns = [
  { label: 'Session' }, { label: 'Kind' }, { label: 'State' }, { label: 'Delegate' }, { label: 'Webhooks' }, { label: 'Created' },
];

/** The webhook health of a session's delegate, in a few words. */
export function deliverySummary(session) {
  const delivery = session.delivery;
  if (!session.delegate) return h('span', { class: 'muted' }, 'no delegate');
  // A delegate without a url lives in the client: nothing is POSTed, so there is no health to show.
  if (!session.delegate.url) return h('span', { class: 'muted' }, 'in the client (no webhooks)');
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

function sessionRow(session, { shared = false } = {}) {
  const name = shared ? 'Shared session' : session.sessionDescription || session.configuration?.identifier || session.id;
  return row(columns, [
    [h('a', { href: shared ? '#/sessions/shared' : `#/sessions/${session.id}` }, name), h('div', { class: 'muted mono' }, session.id)],
    shared ? `${session.configuration?.kind ?? 'default'} (URLSession.shared)` : session.configuration?.kind ?? '—',
    badge(session.state),
    session.delegate
      ? (session.delegate.url ? h('span', { class: 'mono' }, session.delegate.url) : h('span', { class: 'muted' }, 'in the client'))
      : h('span', { class: 'muted' }, 'system-provided'),
    deliverySummary(session),
    time(session.createdAt),
  ], { 'data-session': session.id, 'data-shared': shared || undefined });
}

/**
 * `#/sessions`: the shared session first, then one page of the others, read again every few seconds so
 * new ones appear. The list holds the shared session too, under its own id, once it has been used; it is
 * shown once, pinned above the page, instead of as a link beside the list and again as a row of it.
 */
export function sessionsView(view) {
  const controller = new AbortController();
  let timer = null;
  const list = h('div', {});
  const pages = pager(() => load());
  replace(view, h('h1', {}, 'Sessions'),
    newSessionForm({ created: (session) => { location.hash = `#/sessions/${session.id}`; } }),
    list, pages.element);

  async function load() {
    clearTimeout(timer);
    const signal = controller.signal;
    try {
      // GET /v1/sessions/shared makes the shared session on first use, as touching URLSession.shared
      // does; it counts against no quota.
      const [shared, answer] = await Promise.all([
        api('/v1/sessions/shared', { signal }),
        api(`/v1/sessions${query({ limit: pageSize, after: pages.after })}`, { signal }),
      ]);
      const others = answer.items.filter((session) => session.id !== shared.id);
      const rows = [pages.after ? null : sessionRow(shared, { shared: true }), others.map((session) => sessionRow(session))];
      replace(list, table(columns, rows),
        others.length || pages.after ? null : h('p', { class: 'notice' }, 'No sessions of your own yet: create one with New session.'));
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
