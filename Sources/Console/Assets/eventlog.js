// A task's events as a table, with filters. A transfer reports its progress every half second
// (`downloadTask.didWriteData` and its kin), and those rows bury the few events that say what happened,
// so they are hidden until asked for; a type picked in the list shows that type alone.

import { h, row } from './dom.js';
import { time, json } from './format.js';

/** The events a running transfer repeats (`delegate.progressInterval`). */
const progressTypes = new Set(['task.didSendBodyData', 'dataTask.didReceiveData', 'downloadTask.didWriteData']);

const columns = [{ label: 'Sequence', class: 'num' }, { label: 'Time' }, { label: 'Event' }, { label: 'Data' }];

function eventRow(event) {
  const data = { ...(event.data ?? {}) };
  delete data.task;  // the task is the page's own
  return row(columns, [event.sequence, time(event.timestamp), h('code', {}, event.type), h('pre', {}, json(data))],
    { 'data-type': event.type });
}

/** The events card: `element` to place, `add(event)` for each event in sequence order. */
export function eventLog() {
  const body = h('tbody', {});
  const showProgress = h('input', { type: 'checkbox', id: 'show-progress' });
  const typeFilter = h('select', { 'aria-label': 'Event type' }, h('option', { value: '' }, 'every type'));
  const hiddenNote = h('span', { class: 'muted', id: 'events-hidden' });
  const typesListed = new Set();
  let hiddenCount = 0;  // counted, not recounted per row: a task may have thousands of events

  const isShown = (type) => (typeFilter.value ? type === typeFilter.value : showProgress.checked || !progressTypes.has(type));

  function noteHidden() {
    hiddenNote.textContent = hiddenCount ? `${hiddenCount} event${hiddenCount === 1 ? '' : 's'} hidden by the filter` : '';
  }

  function applyFilter() {
    hiddenCount = 0;
    for (const tr of body.rows) {
      tr.hidden = !isShown(tr.dataset.type);
      if (tr.hidden) hiddenCount += 1;
    }
    noteHidden();
  }

  showProgress.addEventListener('change', applyFilter);
  typeFilter.addEventListener('change', applyFilter);

  const element = h('div', { class: 'card', id: 'events' }, h('h2', {}, 'Events'),
    h('div', { class: 'filters' }, h('label', {}, showProgress, ' Show progress events'), typeFilter, hiddenNote),
    h('div', { class: 'scroll' }, h('table', { class: 'stack' },
      h('thead', {}, h('tr', {}, columns.map((column) => h('th', { class: column.class }, column.label)))), body)));

  return {
    element,
    add(event) {
      if (!typesListed.has(event.type)) {  // options are only added, never rebuilt under an open list
        typesListed.add(event.type);
        typeFilter.append(h('option', { value: event.type }, event.type));
      }
      const tr = eventRow(event);
      tr.hidden = !isShown(event.type);
      body.append(tr);
      if (tr.hidden) {
        hiddenCount += 1;
        noteHidden();
      }
    },
  };
}
