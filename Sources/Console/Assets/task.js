// One task: its request, response, metrics as a timeline, events and error, and the actions URLSession
// has for it (resume, suspend, cancel, cancel producing resume data), with downloading and deleting the
// file a download task left.

import { api, blob, id, query } from './api.js';
import { h, replace, badge, problem, facts, headerTable, actionButton, saveFile } from './dom.js';
import { bytes, rate, duration, percent, time, json } from './format.js';
import { timeline } from './timeline.js';
import { eventLog } from './eventlog.js';

const pollEvery = 1000;

/** What a task's state means to a reader: a completed task succeeded, failed or was cancelled. */
export function outcome(task) {
  if (task.state !== 'completed') return badge(task.state);
  if (!task.error) return badge('completed');
  return h('span', {}, badge(task.error.code === -999 ? 'cancelled' : 'failed'), h('div', { class: 'muted' }, `${task.error.code} ${task.error.name ?? ''}`));
}

function transferred(task) {
  const sending = task.kind === 'upload' && task.countOfBytesExpectedToSend > 0 && task.countOfBytesReceived === 0;
  return sending
    ? { done: task.countOfBytesSent, expected: task.countOfBytesExpectedToSend }
    : { done: task.countOfBytesReceived, expected: task.countOfBytesExpectedToReceive };
}

/**
 * Whether the task sends a body: uploads, and requests with one (a POST's `httpBody`). A download's
 * "Sent 0 B of 0 B" says nothing, so the sent counts are shown only for these.
 */
const sendsBody = (task) => task.kind === 'upload' || task.countOfBytesExpectedToSend > 0 || task.countOfBytesSent > 0;

/** The progress bar: fraction, bytes, throughput and time remaining. */
export function progressView(task) {
  const { done, expected } = transferred(task);
  const succeeded = task.state === 'completed' && !task.error;
  let fraction = task.progress?.fractionCompleted ?? (expected > 0 ? done / expected : 0);
  if (succeeded) fraction = 1;
  const known = expected > 0 || succeeded;
  const fill = h('span', {});
  fill.style.width = `${Math.round(Math.min(1, fraction) * 1000) / 10}%`;
  const bar = h('div', {
    class: known ? 'bar' : 'bar indeterminate', role: 'progressbar', 'aria-valuemin': 0, 'aria-valuemax': 100,
    'aria-valuenow': known ? Math.floor(fraction * 100) : undefined, 'aria-label': 'progress',
  }, fill);
  const figures = [known ? percent(fraction) : '', `${bytes(done)}${expected > 0 ? ` of ${bytes(expected)}` : ''}`];
  if (task.state === 'running') {
    figures.push(rate(task.progress?.throughput));
    if (task.progress?.estimatedTimeRemaining != null) figures.push(`${duration(task.progress.estimatedTimeRemaining)} left`);
  }
  return [bar, h('div', { class: 'figures' }, figures.filter(Boolean).join(' · '))];
}

/** Moves a task's counters with a progress event, before the task is read again. */
export function applyProgressEvent(task, event) {
  const data = event.data ?? {};
  switch (event.type) {
    case 'downloadTask.didWriteData':
      task.countOfBytesReceived = data.totalBytesWritten;
      task.countOfBytesExpectedToReceive = data.totalBytesExpectedToWrite;
      break;
    case 'dataTask.didReceiveData':
      task.countOfBytesReceived = data.totalBytesReceived;
      task.countOfBytesExpectedToReceive = data.totalBytesExpectedToReceive;
      break;
    case 'task.didSendBodyData':
      task.countOfBytesSent = data.totalBytesSent;
      task.countOfBytesExpectedToSend = data.totalBytesExpectedToSend;
      break;
    default:
      return;
  }
  const { done, expected } = transferred(task);
  if (task.progress && expected > 0) task.progress.fractionCompleted = Math.min(1, done / expected);
}

/**
 * The buttons for what can be done to `task` now. `changed(task)` gets the task as the action left it;
 * `cancelled(answer)` the whole answer of a cancel producing resume data.
 */
export function taskActions(task, { signal, report, changed, cancelled, detailed = false }) {
  const call = (action, body) => async () => {
    const answer = await api(`/v1/tasks/${id(task.id)}/${action}`, { method: 'POST', body, signal });
    const updated = answer?.task ?? answer;
    if (answer?.resumeData !== undefined) cancelled?.(answer);
    changed(updated?.id ? updated : await api(`/v1/tasks/${id(task.id)}`, { signal }));
  };
  const open = task.state !== 'completed';
  const buttons = [];
  if (task.state === 'suspended') buttons.push(actionButton('Resume', call('resume'), { report }));
  if (task.state === 'running') buttons.push(actionButton('Suspend', call('suspend'), { kind: 'secondary', report }));
  if (open && task.state !== 'canceling') buttons.push(actionButton('Cancel', call('cancel', {}), { kind: 'danger', report }));
  if (detailed && open && task.kind === 'download') {
    buttons.push(actionButton('Cancel producing resume data', call('cancel', { byProducingResumeData: true }), { kind: 'danger', report }));
  }
  if (task.location) {
    // The name the service's Content-Disposition gives the file too.
    buttons.push(actionButton('Download', async () => {
      saveFile(await blob(task.location, { signal }), task.response?.suggestedFilename || task.id);
    }, { kind: 'secondary', report, title: 'Save the downloaded file' }));
  }
  if (detailed && task.location) {
    buttons.push(actionButton('Delete file', async () => {
      await api(task.location, { method: 'DELETE', signal });
      changed(await api(`/v1/tasks/${id(task.id)}`, { signal }));
    }, { kind: 'danger', report }));
  }
  return h('span', { class: 'actions' }, buttons);
}

function requestCard(title, request) {
  if (!request) return null;
  return h('div', { class: 'card' }, h('h2', {}, title), facts([
    ['Method', request.httpMethod],
    ['URL', h('span', { class: 'mono' }, request.url)],
    ['Cache policy', request.cachePolicy],
    ['Timeout', request.timeoutInterval != null ? duration(request.timeoutInterval) : null],
  ]), h('h2', {}, 'Header fields'), headerTable(request.allHTTPHeaderFields));
}

/** A header field of `fields`, whatever the case of its name. */
function field(fields, name) {
  const found = Object.entries(fields ?? {}).find(([key]) => key.toLowerCase() === name);
  return found?.[1];
}

/**
 * The length of the whole body. A 206 (a download resumed from its resume data, or fetched in parts)
 * carries only a range, and its `expectedContentLength` is that range's: shown alone beside the bytes
 * received it reads as less than what already arrived. The whole is the `Content-Range`'s complete
 * length or, failing that, what the task expects (the resume offset plus the range).
 */
function expectedLength(task) {
  const response = task.response;
  const part = response.expectedContentLength;
  if (response.statusCode !== 206) return part >= 0 ? bytes(part) : 'unknown';
  const range = /^bytes (\d+)-(\d+)\/(\d+|\*)$/i.exec(String(field(response.allHeaderFields, 'content-range') ?? '').trim());
  const whole = range && range[3] !== '*' ? Number(range[3]) : task.countOfBytesExpectedToReceive;
  if (!(whole >= 0)) return part >= 0 ? `${bytes(part)} (this range; the whole is unknown)` : 'unknown';
  const carried = part >= 0 ? `; this 206 carries ${bytes(part)}${range ? ` from byte ${Number(range[1]).toLocaleString('en')}` : ''}` : '';
  return `${bytes(whole)} (the whole file${carried})`;
}

function responseCard(task) {
  const response = task.response;
  if (!response) return h('div', { class: 'card' }, h('h2', {}, 'Response'), h('p', { class: 'muted' }, 'No response yet.'));
  return h('div', { class: 'card' }, h('h2', {}, 'Response'), facts([
    ['Status', response.statusCode],
    ['URL', h('span', { class: 'mono' }, response.url)],
    ['MIME type', response.mimeType],
    ['Expected length', expectedLength(task)],
    ['Suggested file name', response.suggestedFilename],
  ]), h('h2', {}, 'Header fields'), headerTable(response.allHeaderFields));
}

function errorCard(error) {
  if (!error) return null;
  return h('div', { class: 'card' }, h('h2', {}, 'Error'), facts([
    ['Domain', error.domain], ['Code', `${error.code} ${error.name ?? ''}`], ['Description', error.localizedDescription],
    error.underlying ? ['Underlying', `${error.underlying.domain} ${error.underlying.code}: ${error.underlying.message ?? ''}`] : null,
  ]), error.userInfo ? h('pre', {}, json(error.userInfo)) : null);
}

/** `#/tasks/{id}`: read again every second until the task completes. */
export function taskView(view, taskId) {
  const controller = new AbortController();
  const signal = controller.signal;
  const message = h('div', {});
  const body = h('div', {});
  const resume = h('div', {});
  const events = eventLog();
  let lastSequence = 0;
  let timer = null;
  let metricsShown = false;
  const metrics = h('div', { class: 'card' }, h('h2', {}, 'Metrics'), h('p', { class: 'muted' }, 'Collected when the task completes.'));
  replace(view, message, body, resume, metrics, events.element);
  const report = (error) => replace(message, problem(error));

  // The parts that change while the task runs (progress, counters) are redrawn on every read; the rest,
  // buttons included, only when the task's state does, so nothing is replaced under the reader's pointer.
  const top = h('div', {});
  const toolbar = h('div', { class: 'toolbar' });
  const progress = h('div', { class: 'progress' });
  const figures = h('div', {});
  const details = h('div', {});
  replace(body, top, h('div', { class: 'card' }, toolbar, progress, figures), details);
  let shape = null;

  function render(task) {
    replace(progress, progressView(task));
    replace(figures, facts([
      ['Id', h('span', { class: 'mono' }, task.id)],
      ['Priority', task.priority],
      ['Created', time(task.createdAt)], ['Started', time(task.startedAt)], ['Completed', time(task.completedAt)],
      sendsBody(task) ? ['Sent', `${bytes(task.countOfBytesSent)} of ${bytes(task.countOfBytesExpectedToSend)}`] : null,
      ['Received', `${bytes(task.countOfBytesReceived)} of ${bytes(task.countOfBytesExpectedToReceive)}`],
      task.location ? ['File', h('span', { class: 'mono' }, task.location)] : null,
    ]));
    const now = `${task.state} ${task.location ?? ''} ${JSON.stringify(task.response ?? null).length} ${task.error?.code ?? ''}`;
    if (now === shape) return;
    shape = now;
    replace(top,
      h('p', {}, h('a', { href: `#/sessions/${task.sessionId}` }, '← session')),
      h('h1', {}, `${task.kind} task ${task.taskIdentifier}`, task.taskDescription ? ` — ${task.taskDescription}` : ''));
    replace(toolbar, outcome(task), taskActions(task, {
      signal, report, detailed: true,
      changed: (updated) => { render(updated); schedule(updated); },
      cancelled: (answer) => replace(resume, h('div', { class: 'card' }, h('h2', {}, 'Resume data'),
        answer.resumeData
          ? [h('p', { class: 'muted' }, 'Pass it as resumeData of a new download task.'), h('textarea', { rows: 4, readonly: true }, answer.resumeData)]
          : h('p', { class: 'muted' }, 'This download cannot be resumed (null).'))),
    }));
    replace(details,
      errorCard(task.error),
      h('div', { class: 'grid2' }, requestCard('Original request', task.originalRequest), responseCard(task)),
      JSON.stringify(task.currentRequest) !== JSON.stringify(task.originalRequest) ? requestCard('Current request', task.currentRequest) : null);
  }

  async function loadEvents() {
    for (let pages = 0; pages < 20; pages += 1) {  // bounded: a task's events, 500 at a time
      const answer = await api(`/v1/tasks/${id(taskId)}/events${query({ after: lastSequence, limit: 500 })}`, { signal });
      for (const event of answer.items) { events.add(event); lastSequence = event.sequence; }
      if (!answer.nextCursor) break;
    }
  }

  async function loadMetrics() {
    const answer = await api(`/v1/tasks/${id(taskId)}/metrics`, { signal });
    replace(metrics, h('h2', {}, 'Metrics'), timeline(answer));
    metricsShown = true;
  }

  function schedule(task) {
    clearTimeout(timer);
    if (task.state !== 'completed' && !signal.aborted) timer = setTimeout(load, pollEvery);
  }

  async function load() {
    try {
      const task = await api(`/v1/tasks/${id(taskId)}`, { signal });
      render(task);
      await loadEvents();
      if (task.state === 'completed' && !metricsShown) await loadMetrics();
      schedule(task);
    } catch (error) {
      if (signal.aborted) return;
      report(error);
      if (error.status !== 404) timer = setTimeout(load, 5 * pollEvery);  // the service may be restarting
    }
  }
  load();
  return { stop: () => { controller.abort(); clearTimeout(timer); } };
}
