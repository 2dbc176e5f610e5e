// Creating from the page: a session (`POST /v1/sessions`) and a task on a session
// (`POST /v1/sessions/{id}/tasks`), with the API's own defaults for everything the form does not ask.
// The API is the one judge of what is valid: a refused request shows its problem's detail and the field
// at fault under the form, and marks that field, so the reader can correct it and try again.

import { api, id } from './api.js';
import { h, replace } from './dom.js';

const labelled = (label, input, attributes = {}) => h('div', { class: 'field', ...attributes }, h('label', { for: input.id }, label), input);
const textInput = (inputId, placeholder) => h('input', { id: inputId, type: 'text', spellcheck: 'false', autocomplete: 'off', placeholder });
const choice = (inputId, values) => h('select', { id: inputId }, values.map((value) => h('option', { value }, value)));

/** The input a problem's `field` (a dotted path from the body's root) names, or its nearest parent's. */
function inputFor(inputs, field) {
  for (let path = field; path; path = path.includes('.') ? path.slice(0, path.lastIndexOf('.')) : '') {
    if (inputs[path]) return inputs[path];
  }
  return null;
}

/**
 * A creation form in a `<details>`, closed until wanted. It never submits itself (the policy says
 * `form-action 'none'`, and `novalidate` leaves the checks to the API): `create()` runs instead, its
 * button disabled meanwhile. `inputs` maps problem fields to the inputs that set them.
 */
function creationForm({ formId, title, submitLabel, fields, inputs, create }) {
  const problem = h('div', { class: 'problem', role: 'alert', id: `${formId}-problem`, hidden: true });
  const submit = h('button', { type: 'submit' }, submitLabel);
  const form = h('form', { novalidate: true, autocomplete: 'off' }, fields, h('div', { class: 'field' }, submit));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    submit.disabled = true;
    for (const input of Object.values(inputs)) input.removeAttribute('aria-invalid');
    try {
      await create();
      problem.hidden = true;
      replace(problem);
    } catch (error) {
      const field = error.problem?.field;
      inputFor(inputs, field)?.setAttribute('aria-invalid', 'true');
      replace(problem, h('div', {}, error.message), field ? h('div', {}, 'Field: ', h('code', {}, field)) : null);
      problem.hidden = false;
    } finally {
      submit.disabled = false;
    }
  });
  return h('details', { class: 'card create', id: formId }, h('summary', {}, title), form, problem);
}

/** "New session": a kind (background asks for its identifier) and an optional description. */
export function newSessionForm({ created }) {
  const kind = choice('new-session-kind', ['default', 'ephemeral', 'background']);
  const identifier = textInput('new-session-identifier', 'com.example.nightly');
  const description = textInput('new-session-description', 'optional');
  const identifierField = labelled('Identifier', identifier, { hidden: true });
  kind.addEventListener('change', () => { identifierField.hidden = kind.value !== 'background'; });
  return creationForm({
    formId: 'new-session', title: 'New session', submitLabel: 'Create session',
    fields: [labelled('Kind', kind), identifierField, labelled('Description', description)],
    inputs: { configuration: kind, 'configuration.identifier': identifier, sessionDescription: description },
    async create() {
      const configuration = { kind: kind.value };
      // Left out when empty, so the API says what is missing rather than what is wrong with "".
      if (kind.value === 'background' && identifier.value.trim()) configuration.identifier = identifier.value.trim();
      const body = { configuration };
      if (description.value.trim()) body.sessionDescription = description.value.trim();
      created(await api('/v1/sessions', { method: 'POST', body }));
    },
  });
}

/** "New task" on `sessionId`: a data or download task of one URL, resumed at once unless unticked. */
export function newTaskForm(sessionId, { created }) {
  const kind = choice('new-task-kind', ['data', 'download']);
  const url = textInput('new-task-url', 'https://example.com/file.bin');
  const resume = h('input', { id: 'new-task-resume', type: 'checkbox', checked: true });
  const result = h('span', { class: 'muted', id: 'new-task-created', 'aria-live': 'polite' });
  return creationForm({
    formId: 'new-task', title: 'New task', submitLabel: 'Create task',
    fields: [
      labelled('Kind', kind), labelled('URL', url, { class: 'field url' }),
      h('div', { class: 'field' }, h('label', {}, resume, ' Resume immediately')),
      h('div', { class: 'field' }, result),
    ],
    inputs: { kind, request: url, resume },
    async create() {
      replace(result);
      const body = { kind: kind.value, request: { url: url.value.trim() }, resume: resume.checked };
      const task = await api(`/v1/sessions/${id(sessionId)}/tasks`, { method: 'POST', body });
      replace(result, 'Created ', h('a', { href: `#/tasks/${task.id}` }, `task ${task.taskIdentifier}`), ` (${task.state}).`);
      created(task);
    },
  });
}
