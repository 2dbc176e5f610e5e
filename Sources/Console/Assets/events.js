// A session's events, live: its server-sent event stream, read with the tab's token and resumed after
// the last sequence seen whenever it breaks, so no event is missed or repeated.

import { readEventStream, id } from './api.js';

const sleep = (milliseconds, signal) => new Promise((resolve) => {
  const timer = setTimeout(resolve, milliseconds);
  signal.addEventListener('abort', () => { clearTimeout(timer); resolve(); }, { once: true });
});

/**
 * Follows `sessionId`'s events after sequence `after` until `stop()`. `onState` hears `live`,
 * `reconnecting` (with the error) and `ended` (the session is invalidated and every event was sent).
 * Reconnects wait 1 s, doubling to 15 s while failures last.
 */
export function followSession(sessionId, { after = 0, onEvent, onState = () => {} }) {
  const controller = new AbortController();
  let position = after;
  (async () => {
    let delay = 1000;
    while (!controller.signal.aborted) {
      try {
        const streamed = await readEventStream(`/v1/sessions/${id(sessionId)}/events`, {
          after: position,
          signal: controller.signal,
          onOpen: () => { delay = 1000; onState('live'); },
          onEvent: (event) => {
            if (event.sequence <= position) return;
            position = event.sequence;
            onEvent(event);
          },
        });
        if (!streamed) { onState('ended'); return; }
      } catch (error) {
        if (controller.signal.aborted) return;
        onState('reconnecting', error);
        if (error.status === 401 || error.status === 404) return;
      }
      await sleep(delay, controller.signal);
      delay = Math.min(delay * 2, 15000);
    }
  })();
  return { stop: () => controller.abort() };
}
