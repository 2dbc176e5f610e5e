// A session's page: its configuration and delegate health, a form for a new task, and its tasks with
// live state and progress, fed by the session's server-sent events. Tasks are shown a page at a time, so
// a session with 10,000 tasks costs what one page does.

import { api, query, id } from './api.js';
import { h, replace, table, row, badge, problem, facts, actionButton, pager } from './dom.js';
import { time, json } from './format.js';
import { followSession } from './events.js';
import { deliverySummary } from './sessions.js';
import { progressView, outcome, taskActions, applyProgressEvent } from './task.js';
import { newTaskForm } from './forms.js';

const pageSize = 50;
const refetchAfter = 1000;  // a task on the page is read again at most this often while its events arrive
const sessionRefreshEvery = 5000;

const columns = [
  { label: '#', class: 'num' }, { label: 'Kind' }, { label: 'URL', class: 'url' }, { label: 'State' },
  { label: 'Progress' }, { label: 'Status' }, { label: 'Actions' },
];

/** `#/sessions/{id}` (or `#/sessions/shared`). */
export function sessionView(view, sessionId) {
  const controller = new AbortController();
  const signal = controller.signal;
  const header = h('div', {});
  const message = h('div', {});
  const live = h('span', { class: 'live' }, 'connecting…');
  const stateFilter = h('select', { 'aria-label': 'State' },
    ['', 'running', 'suspended', 'canceling', 'completed'].map((state) => h('option', { value: state }, state || 'any state')));
  const list = h('div', {});
  const pages = pager(() => loadTasks(), { caption: (page) => `Page ${page} · ${pageSize} per page` });
  // A new task lands on the last page: shown at once when that is the page on view.
  const creation = newTaskForm(sessionId, { created: () => { if (pages.isLast) loadTasks(); } });
  replace(view, header, message,
    h('h2', {}, 'Tasks'),
    creation,
    h('div', { class: 'toolbar' }, stateFilter, live),
    list, pages.element);

  const rows = new Map();  // task id → { task, cells, refetch timer }
  let stream = null;
  let sessionTimer = null;
  let reloadTimer = null;
  let session = null;

  const report = (error) => replace(message, problem(error));

  async function loadSession() {
    clearTimeout(sessionTimer);
    try {
      const read = await api(`/v1/sessions/${id(sessionId)}`, { signal });
      const changed = JSON.stringify(read) !== JSON.stringify(session);
      session = read;
      if (changed) renderHeader();  // an unchanged header is left alone: an open <details> stays open
    } catch (error) {
      if (signal.aborted) return;
      replace(header, h('h1', {}, 'Session'), problem(error));
    }
    if (!signal.aborted) sessionTimer = setTimeout(loadSession, sessionRefreshEvery);
  }

  function renderHeader() {
    const delivery = session.delivery;
    const configurationOpen = header.querySelector('details')?.open ?? false;
    const canResend = delivery && (delivery.pendingEvents > 0 || ['retrying', 'held', 'disabled'].includes(delivery.state));
    replace(header,
      h('h1', {}, sessionId === 'shared' ? 'Shared session' : session.sessionDescription || session.configuration?.identifier || 'Session'),
      h('div', { class: 'grid2' },
        h('div', { class: 'card' }, facts([
          ['Id', h('span', { class: 'mono' }, session.id)],
          ['Kind', session.configuration?.kind ?? 'shared'],
          ['State', badge(session.state)],
          ['Created', time(session.createdAt)],
        ]),
        session.configuration ? h('details', { open: configurationOpen }, h('summary', {}, 'Configuration'), h('pre', {}, json(session.configuration))) : null),
        h('div', { class: 'card', id: 'delegate' },
          h('h2', {}, 'Delegate'),
          session.delegate
            ? [facts([
              ['URL', session.delegate.url
                ? h('span', { class: 'mono' }, session.delegate.url)
                : h('span', { class: 'muted' }, 'none: the delegate is in the client (events read, decisions answered over the API)')],
              ['Events', (session.delegate.events ?? []).join(', ')],
              ['Decisions', (session.delegate.decisions ?? []).join(', ') || 'none'],
              ['Webhooks', deliverySummary(session)],
              delivery?.heldAt ? ['Held since', time(delivery.heldAt)] : null,
              delivery?.disabledAt ? ['Disabled since', time(delivery.disabledAt)] : null,
              delivery?.lastFailure ? ['Last failure', `${delivery.lastFailure.reason} at ${time(delivery.lastFailure.at)}`] : null,
            ]),
            session.delegate.url && h('div', { class: 'actions' }, actionButton('Re-send held webhooks', async () => {
              session = await api(`/v1/sessions/${id(session.id)}/redeliver`, { method: 'POST', signal });
              replace(message);
              renderHeader();
            }, { disabled: !canResend, report, title: 'Send the undelivered events now: forget retry waits, a hold and a 410' }))]
            : h('p', { class: 'muted' }, 'System-provided delegate: events are read here or with GET …/events.'))));
  }

  function taskRow(task) {
    const cells = { state: h('span', {}), progress: h('div', { class: 'progress' }), status: h('span', {}), actions: h('span', {}) };
    const entry = { task, cells, timer: null, shape: null };
    const element = row(columns, [
      task.taskIdentifier, task.kind,
      h('a', { href: `#/tasks/${task.id}`, class: 'mono' }, task.currentRequest?.url ?? task.originalRequest?.url ?? task.id),
      cells.state, cells.progress, cells.status, cells.actions,
    ], { 'data-task': task.id });
    rows.set(task.id, entry);
    render(entry);
    return element;
  }

  // Progress moves on every event; the state cell and the buttons are rebuilt only when the state does,
  // so a button is not replaced under the pointer of someone about to click it.
  function render(entry) {
    const task = entry.task;
    replace(entry.cells.progress, progressView(task));
    // The file appears with the read after completion, a moment after the completion event: its button too.
    const shape = `${task.state} ${task.error?.code ?? ''} ${task.response?.statusCode ?? ''} ${task.location ?? ''}`;
    if (entry.shape === shape) return;
    entry.shape = shape;
    replace(entry.cells.state, outcome(task));
    replace(entry.cells.status, task.response?.statusCode ?? '');
    replace(entry.cells.actions, taskActions(task, { signal, report, changed: (updated) => { entry.task = updated; render(entry); } }));
  }

  // Events heard while a page of tasks is being read may be newer than what the read returns: they are
  // applied again to the rows it makes (each then read again), so a task that finished meanwhile is not
  // left showing `running` with no event to come.
  const heardDuringLoads = new Set();

  async function loadTasks() {
    const heard = [];
    heardDuringLoads.add(heard);
    try {
      const path = `/v1/sessions/${id(sessionId)}/tasks${query({ limit: pageSize, after: pages.after, state: stateFilter.value })}`;
      const answer = await api(path, { signal });
      for (const entry of rows.values()) clearTimeout(entry.timer);
      rows.clear();
      replace(list, answer.items.length
        ? table(columns, answer.items.map(taskRow))
        : h('p', { class: 'notice' }, 'No tasks here.'));
      pages.shown(answer.nextCursor);
      for (const event of heard) applyToRow(event);
    } catch (error) {
      if (!signal.aborted) replace(list, problem(error));
    } finally {
      heardDuringLoads.delete(heard);
    }
  }

  function refetch(entry) {
    if (entry.timer) return;
    entry.timer = setTimeout(async () => {
      try {
        entry.task = await api(`/v1/tasks/${id(entry.task.id)}`, { signal });
        render(entry);
      } catch (error) {
        if (!signal.aborted) report(error);
      } finally {
        entry.timer = null;
      }
    }, refetchAfter);
  }

  /** Moves the row of the event's task, if it is on the page; false when it is not. */
  function applyToRow(event) {
    const entry = event.taskId ? rows.get(event.taskId) : null;
    if (!entry) return false;
    applyProgressEvent(entry.task, event);
    if (event.data?.task?.state) entry.task.state = event.data.task.state;
    render(entry);
    refetch(entry);
    return true;
  }

  function onEvent(event) {
    for (const heard of heardDuringLoads) heard.push(event);
    const shown = applyToRow(event);
    if (!shown && event.type === 'task.didCreateTask' && pages.isLast && rows.size < pageSize && !reloadTimer) {
      reloadTimer = setTimeout(() => { reloadTimer = null; loadTasks(); }, 300);  // a new task shows on this page
    }
    if (event.type === 'session.didBecomeInvalidWithError') loadSession();
  }

  stateFilter.addEventListener('change', () => { pages.reset(); loadTasks(); });

  (async () => {
    await loadSession();
    if (signal.aborted || !session) return;
    // Only what happens from now on: the newest sequence is read before the tasks, so an event between
    // the two reads is seen twice (harmless) rather than never.
    let after = 0;
    try {
      after = (await api(`/v1/sessions/${id(session.id)}/events?limit=1`, { signal })).lastSequence ?? 0;
    } catch (error) {
      if (signal.aborted) return;
      report(error);
    }
    await loadTasks();
    if (signal.aborted) return;
    stream = followSession(session.id, {
      after,
      onEvent,
      onState: (state, error) => {
        live.className = `live ${state === 'live' ? 'on' : 'off'}`;
        live.textContent = { live: 'live', reconnecting: `reconnecting${error ? ` (${error.message})` : ''}`, ended: 'session ended' }[state];
      },
    });
  })();

  return {
    stop: () => {
      controller.abort();
      stream?.stop();
      clearTimeout(sessionTimer);
      clearTimeout(reloadTimer);
      for (const entry of rows.values()) clearTimeout(entry.timer);
    },
  };
}
