// `#/tasks`: the tenant's running or failed tasks, whatever their session. The API has no tenant-wide
// task list (tasks are listed per session, GET /v1/sessions/{id}/tasks), so this page is built from the
// task lists of the tenant's first sessions: a bounded number of requests per read, and the page says
// when sessions or tasks were left out.

import { api, query, id } from './api.js';
import { h, replace, table, row, problem } from './dom.js';
import { progressView, outcome } from './task.js';

const sessionsSearched = 50;  // the first page of the tenant's sessions, in creation order
const tasksPerSession = 500;  // one page of each session's tasks in the state asked for
const readsAtOnce = 4;
const refreshEvery = 5000;

// A failed task is a completed one with an error other than a cancel (-999, which the reader asked for).
const filters = {
  running: { state: 'running', keep: () => true },
  failed: { state: 'completed', keep: (task) => task.error != null && task.error.code !== -999 },
};

const columns = [
  { label: 'Session' }, { label: '#', class: 'num' }, { label: 'Kind' }, { label: 'URL', class: 'url' },
  { label: 'State' }, { label: 'Progress' },
];

/** `work` over `items`, at most `limit` at a time, results in the items' order. */
async function eachLimited(items, limit, work) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await work(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

function taskRow(session, task) {
  const sessionName = session.sessionDescription || session.configuration?.identifier || session.id;
  return row(columns, [
    h('a', { href: `#/sessions/${session.id}` }, sessionName),
    task.taskIdentifier, task.kind,
    h('a', { href: `#/tasks/${task.id}`, class: 'mono' }, task.currentRequest?.url ?? task.originalRequest?.url ?? task.id),
    outcome(task), h('div', { class: 'progress' }, progressView(task)),
  ], { 'data-task': task.id });
}

export function overviewView(view) {
  const controller = new AbortController();
  const signal = controller.signal;
  let timer = null;
  let latest = 0;  // the newest read: an older one still under way when the choice changed shows nothing
  const stateFilter = h('select', { id: 'overview-state', 'aria-label': 'Tasks to show' },
    h('option', { value: 'running' }, 'running'), h('option', { value: 'failed' }, 'failed'));
  const note = h('p', { class: 'muted', id: 'overview-note' });
  const list = h('div', {});
  replace(view, h('h1', {}, 'Tasks across sessions'), h('div', { class: 'toolbar' }, stateFilter), list, note);

  async function load() {
    clearTimeout(timer);
    const read = ++latest;
    const filter = filters[stateFilter.value];
    try {
      const sessions = await api(`/v1/sessions${query({ limit: sessionsSearched })}`, { signal });
      const pages = await eachLimited(sessions.items, readsAtOnce, (session) =>
        api(`/v1/sessions/${id(session.id)}/tasks${query({ state: filter.state, limit: tasksPerSession })}`, { signal }));
      const found = sessions.items.flatMap((session, index) =>
        pages[index].items.filter(filter.keep).map((task) => taskRow(session, task)));
      if (read !== latest) return;
      replace(list, found.length ? table(columns, found) : h('p', { class: 'notice' }, `No ${stateFilter.value} tasks.`));
      const cutTasks = pages.some((page) => page.nextCursor);
      note.textContent = [
        `Read from the task lists of ${sessions.items.length} session(s): the API lists tasks per session.`,
        sessions.nextCursor ? `Sessions after the first ${sessionsSearched} were not searched.` : '',
        cutTasks ? `Only the first ${tasksPerSession} ${filter.state} tasks of each session were searched.` : '',
      ].filter(Boolean).join(' ');
    } catch (error) {
      if (signal.aborted || read !== latest) return;
      replace(list, problem(error));
    }
    if (!signal.aborted) timer = setTimeout(load, refreshEvery);
  }

  stateFilter.addEventListener('change', () => { replace(list, h('p', { class: 'muted' }, 'Reading…')); load(); });
  load();
  return { stop: () => { controller.abort(); clearTimeout(timer); } };
}
