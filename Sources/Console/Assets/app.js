// The console's shell: sign-in, the header, and the routes of the page (`#/sessions`, `#/sessions/{id}`,
// `#/tasks` across sessions, `#/tasks/{id}`, `#/admin`). Routes live in the fragment, which is never
// sent to the server; the token never appears in any URL.

import { api, token, onUnauthorized } from './api.js';
import { replace } from './dom.js';
import { sessionsView } from './sessions.js';
import { sessionView } from './tasks.js';
import { taskView } from './task.js';
import { overviewView } from './overview.js';
import { adminView } from './admin.js';

const element = (name) => document.getElementById(name);
const view = element('view');
const form = element('sign-in');
const field = element('token');
const signInError = element('sign-in-error');
let current = null;

function showSignIn(message) {
  current?.stop();
  current = null;
  replace(view);
  element('nav').hidden = true;
  element('sign-out').hidden = true;
  element('who').textContent = '';
  form.hidden = false;
  signInError.hidden = !message;
  signInError.textContent = message ?? '';
  field.focus();
}

/** Who the token is: its tenant (from /v1/usage) and whether it may use /v1/admin. */
async function identify() {
  const usage = await api('/v1/usage');
  let admin = false;
  try {
    await api('/v1/admin/nodes');
    admin = true;
  } catch (error) {
    if (error.status !== 403) throw error;
  }
  element('who').textContent = `${usage.tenant}${admin ? ' · admin' : ''}`;
  element('nav-admin').hidden = !admin;
  element('nav').hidden = false;
  element('sign-out').hidden = false;
  form.hidden = true;
}

function route() {
  current?.stop();
  current = null;
  if (!token.get()) return showSignIn();
  const [page, name] = location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  switch (page) {
    case 'sessions': current = name ? sessionView(view, name) : sessionsView(view); break;
    case 'tasks': current = name ? taskView(view, name) : overviewView(view); break;
    case 'admin': current = adminView(view); break;
    default: location.hash = '#/sessions';
  }
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const value = field.value.trim();
  if (!value) return;
  token.set(value);
  try {
    await identify();
    field.value = '';
    signInError.hidden = true;
    route();
  } catch (error) {
    token.clear();
    showSignIn(error.message);
  }
});

element('sign-out').addEventListener('click', () => {
  token.clear();
  showSignIn();
});

onUnauthorized((error) => {
  token.clear();
  showSignIn(error.message);
});

window.addEventListener('hashchange', () => { if (token.get()) route(); });

if (token.get()) {
  identify().then(route, (error) => { token.clear(); showSignIn(error.message); });
} else {
  showSignIn();
}
