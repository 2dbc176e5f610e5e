// The DOM, built from data without ever parsing data as HTML: every string becomes a text node or an
// attribute value. URLs, headers and descriptions are written by whoever created a task, so nothing here
// assigns markup (no HTML setters, no insertAdjacentHTML).

/** `h('td', {class: 'url'}, text, child, …)`: an element with attributes, listeners and children. */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') element.addEventListener(name.slice(2), value);
    else if (name === 'href') element.setAttribute('href', appLink(value));
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, children);
  return element;
}

/** Appends children: nodes as they are, anything else as text; nulls and false are skipped. */
export function append(parent, children) {
  for (const child of [children].flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return parent;
}

export function replace(parent, ...children) {
  parent.replaceChildren();
  return append(parent, children);
}

/** Only the console's own routes (`#/…`) become links: a `javascript:` URL from a task never does. */
function appLink(value) {
  const text = String(value);
  return text.startsWith('#/') ? text : '#/';
}

export function badge(state) {
  return h('span', { class: `badge ${String(state).replace(/[^a-z]/gi, '')}` }, state);
}

/** A `<dl>` of label → value pairs; values are text or nodes. */
export function facts(pairs) {
  return h('dl', { class: 'facts' }, pairs.filter(Boolean).map(([label, value]) => [h('dt', {}, label), h('dd', {}, value ?? '—')]));
}

/** A table that stacks into cards on a narrow screen; each cell knows its column's label. */
export function table(columns, rows, { className = '' } = {}) {
  return h('div', { class: 'scroll' },
    h('table', { class: `stack ${className}` },
      h('thead', {}, h('tr', {}, columns.map((column) => h('th', { class: column.class }, column.label)))),
      h('tbody', {}, rows)));
}

export function row(columns, cells, attributes = {}) {
  return h('tr', attributes, cells.map((cell, index) =>
    h('td', { 'data-label': columns[index].label, class: columns[index].class }, cell)));
}

/**
 * Saves `data` (a Blob) as a file called `name`, through an object URL the page made itself: the one
 * link not passed through `appLink`. The URL is revoked a minute later, once the browser has the file.
 */
export function saveFile(data, name) {
  const url = URL.createObjectURL(data);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** A problem shown in place of what failed. */
export function problem(error) {
  return h('p', { class: 'problem', role: 'alert' }, error?.message ?? String(error));
}

export function button(label, onclick, { kind = '', disabled = false, title } = {}) {
  return h('button', { type: 'button', class: kind, disabled, title, onclick }, label);
}

/** A button that disables itself while `action` runs and shows its failure under `target`. */
export function actionButton(label, action, { kind, disabled, title, report } = {}) {
  const element = button(label, async () => {
    element.disabled = true;
    try { await action(); } catch (error) { report?.(error); } finally { element.disabled = false; }
  }, { kind, disabled, title });
  return element;
}

/** `name: value` rows of a header dictionary. */
export function headerTable(fields) {
  const entries = Object.entries(fields ?? {});
  if (!entries.length) return h('p', { class: 'muted' }, 'none');
  const columns = [{ label: 'Field' }, { label: 'Value' }];
  return table(columns, entries.map(([name, value]) => row(columns, [h('code', {}, name), h('span', { class: 'mono' }, value)])));
}

/**
 * Paging over a list's cursors: `after` is the cursor of the page shown, `shown(nextCursor)` records what
 * the page's answer said and draws Previous / Next into `element`, which call `load` again.
 */
export function pager(load, { caption = (page) => `Page ${page}` } = {}) {
  const cursors = [null];  // the cursor of each page seen, to go back
  let page = 0;
  const element = h('div', { class: 'pager' });
  const go = (step) => () => { page += step; load(); };
  return {
    element,
    get after() { return cursors[page]; },
    get isLast() { return cursors[page + 1] == null; },
    reset() { page = 0; cursors.length = 1; },
    shown(nextCursor) {
      cursors[page + 1] = nextCursor;
      replace(element,
        h('button', { type: 'button', class: 'secondary', disabled: page === 0, onclick: go(-1) }, 'Previous'),
        h('span', { class: 'muted' }, caption(page + 1)),
        h('button', { type: 'button', class: 'secondary', disabled: !nextCursor, onclick: go(1) }, 'Next'));
    },
  };
}
