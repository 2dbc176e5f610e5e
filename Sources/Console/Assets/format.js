// Numbers and times as people read them.

const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

export function bytes(count) {
  if (count === null || count === undefined || count < 0) return '?';
  let value = count;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) { value /= 1024; unit += 1; }
  return `${unit === 0 ? value : value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

export const rate = (perSecond) => (perSecond > 0 ? `${bytes(perSecond)}/s` : '');

export function duration(seconds) {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '';
  if (seconds < 1) return `${Math.round(seconds * 1000)} ms`;
  if (seconds < 90) return `${seconds.toFixed(seconds < 10 ? 1 : 0)} s`;
  if (seconds < 5400) return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
  return `${Math.floor(seconds / 3600)} h ${Math.round((seconds % 3600) / 60)} min`;
}

export const milliseconds = (seconds) => `${(seconds * 1000).toFixed(seconds < 0.01 ? 2 : 1)} ms`;

export function time(iso) {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? String(iso) : date.toLocaleString();
}

/** The time of day for today's instants, the date and time for others. */
export function clock(iso) {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return String(iso);
  return date.toDateString() === new Date().toDateString() ? date.toLocaleTimeString() : date.toLocaleString();
}

export const percent = (fraction) => `${Math.floor(Math.max(0, Math.min(1, fraction)) * 100)} %`;

/** JSON for people: objects indented, strings as they are. */
export const json = (value) => (typeof value === 'string' ? value : JSON.stringify(value, null, 2));
