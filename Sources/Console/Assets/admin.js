// For admin tokens: network paths (with the admin's override), the nodes, each tenant's usage and the
// service's own figures, the last two from /metrics.

import { api, text, id } from './api.js';
import { h, replace, table, row, badge, problem, actionButton } from './dom.js';
import { time, bytes } from './format.js';

const refreshEvery = 5000;

/** The Prometheus text exposition as families: name → { type, help, series: [{ labels, value }] }. */
export function parseMetrics(exposition) {
  const families = new Map();
  const family = (name) => {
    if (!families.has(name)) families.set(name, { name, type: 'untyped', help: '', series: [] });
    return families.get(name);
  };
  for (const line of exposition.split('\n')) {
    const meta = line.match(/^# (HELP|TYPE) (\S+) ?(.*)$/);
    if (meta) { family(meta[2])[meta[1] === 'HELP' ? 'help' : 'type'] = meta[3]; continue; }
    const sample = line.match(/^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)/);
    if (!sample) continue;
    const labels = {};
    for (const [, name, value] of (sample[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[name] = value.replace(/\\(.)/g, '$1');
    const base = families.has(sample[1]) ? sample[1] : sample[1].replace(/_(bucket|sum|count)$/, '');
    family(base).series.push({ metric: sample[1], labels, value: Number(sample[3]) });
  }
  return [...families.values()];
}

const networkColumns = [
  { label: 'Path' }, { label: 'Type' }, { label: 'State' }, { label: 'Flags' }, { label: 'Binds' }, { label: 'Changes', class: 'num' }, { label: 'Override' },
];

function networksCard(networks, reload, report) {
  const rows = networks.map((network) => row(networkColumns, [
    h('strong', {}, network.name),
    network.type,
    badge(network.available ? 'up' : 'down'),
    [network.expensive ? 'expensive' : null, network.constrained ? 'constrained' : null].filter(Boolean).join(', ') || '—',
    network.interface ?? network.sourceAddress ?? 'default route',
    network.changes,
    h('span', { class: 'actions' },
      network.adminOverride === null ? h('span', { class: 'muted' }, 'none ') : h('span', {}, `${network.adminOverride ? 'up' : 'down'} `),
      actionButton(network.available ? 'Mark down' : 'Mark up', async () => {
        await api(`/v1/admin/networks/${id(network.name)}`, { method: 'PUT', body: { available: !network.available } });
        reload();
      }, { kind: 'secondary', report })),
  ]));
  return h('div', { class: 'card', id: 'networks' }, h('h2', {}, 'Network paths'), table(networkColumns, rows));
}

const nodeColumns = [{ label: 'Node' }, { label: 'State' }, { label: 'Heartbeat' }, { label: 'Active', class: 'num' }, { label: 'Claimed', class: 'num' }];

function nodesCard(nodes) {
  return h('div', { class: 'card', id: 'nodes' }, h('h2', {}, 'Nodes'), table(nodeColumns, nodes.map((node) => row(nodeColumns, [
    [h('span', { class: 'mono' }, node.id), node.isThisNode ? h('span', { class: 'muted' }, ' (this one)') : null],
    badge(node.state), time(node.heartbeatAt), `${node.activeTasks ?? 0} / ${node.maximumTransfers ?? '?'}`, node.claimedTasks ?? 0,
  ]))));
}

// The quotas as /metrics labels them, with the column heading a reader understands.
const quotas = [
  { key: 'sessions', label: 'Sessions' }, { key: 'tasks', label: 'Tasks' }, { key: 'blobBytes', label: 'Blob bytes' },
  { key: 'blobCount', label: 'Blobs' }, { key: 'storedBytes', label: 'Stored bytes' }, { key: 'streams', label: 'Streams' },
];
const byteQuotas = new Set(['blobBytes', 'storedBytes']);

function usageCard(families) {
  const usage = families.find((family) => family.name === 'urlsessiond_tenant_usage')?.series ?? [];
  const limits = families.find((family) => family.name === 'urlsessiond_tenant_quota')?.series ?? [];
  const tenants = [...new Set(usage.map((series) => series.labels.tenant))].sort();
  const columns = [{ label: 'Tenant' }, ...quotas.map((quota) => ({ label: quota.label, class: 'num' }))];
  const value = (series, tenant, quota) => series.find((s) => s.labels.tenant === tenant && s.labels.quota === quota)?.value;
  const cell = (tenant, quota) => {
    const used = value(usage, tenant, quota) ?? 0;
    const limit = value(limits, tenant, quota);
    const show = byteQuotas.has(quota) ? bytes : String;
    return limit ? `${show(used)} / ${show(limit)}` : show(used);
  };
  return h('div', { class: 'card', id: 'usage' }, h('h2', {}, 'Usage by tenant'),
    tenants.length ? table(columns, tenants.map((tenant) => row(columns, [tenant, ...quotas.map((quota) => cell(tenant, quota.key))])))
      : h('p', { class: 'muted' }, 'No tenant has used the service yet.'));
}

function figuresCard(families, exposition, open) {
  const columns = [{ label: 'Figure' }, { label: 'Value', class: 'num' }];
  const shown = families.filter((family) => ['counter', 'gauge'].includes(family.type) && family.series.length && !family.name.startsWith('urlsessiond_tenant_'));
  const total = (family) => family.series.reduce((sum, series) => sum + series.value, 0);
  return h('div', { class: 'card', id: 'figures' }, h('h2', {}, 'Service figures'),
    table(columns, shown.map((family) => row(columns, [h('code', { title: family.help }, family.name), Number(total(family).toFixed(3)).toLocaleString()]))),
    h('details', { open }, h('summary', {}, 'All of /metrics'), h('pre', {}, exposition)));
}

/** `#/admin`. */
export function adminView(view) {
  const controller = new AbortController();
  const signal = controller.signal;
  const message = h('div', {});
  const parts = { networks: h('div', {}), nodes: h('div', {}), usage: h('div', {}), figures: h('div', {}) };
  let timer = null;
  replace(view, h('h1', {}, 'Service'), message, parts.networks, parts.nodes, parts.usage, parts.figures);
  const report = (error) => replace(message, problem(error));

  // A part is redrawn only when what it shows changed, so its buttons are not replaced under the pointer.
  const shown = new Map();
  async function each(target, read, draw) {
    try {
      const data = await read();
      const key = JSON.stringify(data);
      if (shown.get(target) === key) return;
      shown.set(target, key);
      replace(target, draw(data));
    } catch (error) {
      if (signal.aborted) return;
      shown.delete(target);
      replace(target, problem(error));
    }
  }

  async function load() {
    clearTimeout(timer);
    await Promise.all([
      each(parts.networks, async () => (await api('/v1/networks?limit=1000', { signal })).items,
        (networks) => networksCard(networks, load, report)),
      each(parts.nodes, async () => (await api('/v1/admin/nodes', { signal })).items ?? [], nodesCard),
      (async () => {
        try {
          const exposition = await text('/metrics', { signal });
          const families = parseMetrics(exposition);
          replace(parts.usage, usageCard(families));
          replace(parts.figures, figuresCard(families, exposition, parts.figures.querySelector('details')?.open));
        } catch (error) {
          if (signal.aborted) return;
          const hint = error.status === 401 ? ' (/metrics takes the metrics token, URLSESSIOND_METRICS_TOKEN, not a tenant token)' : '';
          replace(parts.usage, problem(new Error(`${error.message}${hint}`)));
          replace(parts.figures);
        }
      })(),
    ]);
    if (!signal.aborted) timer = setTimeout(load, refreshEvery);
  }
  load();
  return { stop: () => { controller.abort(); clearTimeout(timer); } };
}
