// The service worker's handling of a campaign's revisions (docs/site-plugin.md, "Update and
// recall"), run as the browser runs the file (vm, a worker-like global) with a notification tray
// and a Cache Storage that behave as the browser's do: a notification with a tag already shown
// replaces it; getNotifications({ tag }) lists the ones shown. The Chromium suite runs the same
// file for real.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { expect } from 'chai';

const SW = readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '../../src/plugin/assets/webpush-sw.js'), 'utf8');
const API = 'https://gateway.example/public/v1/';
const CAMPAIGN = '0b0c7f47-7a2e-4c51-9a43-2f5e1c0d9e11';

interface Shown {
  title: string;
  options: { tag: string; body: string; renotify?: boolean; data: { token: string } };
  close(): void;
}

/** A worker with its tray, cache and reports; push() hands it one push and waits for its handler. */
function worker() {
  const tray: Shown[] = [];
  const reports: unknown[] = [];
  const caches = new Map<string, Map<string, Response>>();
  const handlers: Record<string, (event: unknown) => void> = {};
  const registration = {
    scope: 'https://shop.example/',
    async showNotification(title: string, options: Shown['options']) {
      const at = tray.findIndex((n) => n.options.tag === options.tag);
      const n: Shown = { title, options, close: () => void tray.splice(tray.indexOf(n), 1) };
      if (at >= 0) tray[at] = n;
      else tray.push(n);
    },
    async getNotifications(filter: { tag?: string }) {
      return tray.filter((n) => filter.tag === undefined || n.options.tag === filter.tag);
    },
  };
  const cacheStorage = {
    async open(name: string) {
      const entries = caches.get(name) ?? new Map<string, Response>();
      caches.set(name, entries);
      return {
        put: async (url: string, res: Response) => void entries.set(url, res),
        match: async (url: string) => entries.get(url),
        keys: async () => [...entries.keys()],
        delete: async (url: string) => entries.delete(url),
      };
    },
  };
  const context = vm.createContext({
    self: {
      location: { href: `https://shop.example/webpush-sw.js?api=${encodeURIComponent(API)}&site=pub_x` },
      addEventListener: (type: string, fn: (event: unknown) => void) => (handlers[type] = fn),
      registration,
    },
    caches: cacheStorage,
    Response,
    URL,
    AbortController,
    Promise,
    JSON,
    Number,
    Math,
    Object,
    setTimeout: () => undefined,
    clearTimeout: () => undefined,
    fetch: async (_url: string, init: { body: string }) => {
      reports.push(JSON.parse(init.body));
      return { status: 202, headers: new Headers() };
    },
  });
  vm.runInContext(SW, context, { filename: 'webpush-sw.js' });
  const push = async (payload: Record<string, unknown>) => {
    let held: Promise<unknown> = Promise.resolve();
    handlers.push({ data: { json: () => payload }, waitUntil: (p: Promise<unknown>) => (held = p) });
    await held;
  };
  return { tray, reports, push };
}

const original = { v: 1, id: CAMPAIGN, title: 'Sale on shoes', body: 'Today only', url: 'https://shop.example/', token: 'tok-1' };
const update = { revision: 1, v: 1, id: CAMPAIGN, title: 'Sale on boots', body: 'Today and tomorrow', url: 'https://shop.example/boots', token: 'tok-1', renotify: true };
const recall = { v: 1, id: CAMPAIGN, revision: 2, recall: true };

describe('plugin: the service worker and a campaign\'s revisions', () => {
  it('when an update arrives while the notification shows, then it replaces it under the same tag without alerting again, reporting with the campaign\'s token', async () => {
    const w = worker();
    await w.push(original);
    await w.push(update);
    expect(w.tray.map((n) => [n.title, n.options.body, n.options.tag, n.options.renotify])).to.deep.equal([['Sale on boots', 'Today and tomorrow', CAMPAIGN, false]]);
    expect(w.reports).to.deep.equal([
      { type: 'impression', token: 'tok-1' },
      { type: 'impression', token: 'tok-1' },
    ]);
  });

  it('when the visitor closed the notification before the update came, then the update shows nothing and reports nothing', async () => {
    const w = worker();
    await w.push(original);
    w.tray[0].close();
    await w.push(update);
    expect(w.tray).to.have.length(0);
    expect(w.reports).to.have.length(1);
  });

  it('when the first push never arrived (replaced at the push service by the update), then the update is shown', async () => {
    const w = worker();
    await w.push(update);
    expect(w.tray.map((n) => n.title)).to.deep.equal(['Sale on boots']);
    expect(w.reports).to.deep.equal([{ type: 'impression', token: 'tok-1' }]);
  });

  it('when a recall arrives, then the campaign\'s notification is closed, others stay, and nothing is reported', async () => {
    const w = worker();
    await w.push(original);
    await w.push({ ...original, id: 'another-campaign', title: 'Another one' });
    await w.push(recall);
    expect(w.tray.map((n) => n.title)).to.deep.equal(['Another one']);
    expect(w.reports).to.have.length(2);
  });

  it('when a recall finds nothing shown, or an update after it finds the notification gone, then nothing is shown', async () => {
    const w = worker();
    await w.push(recall);
    expect(w.tray).to.have.length(0);
    await w.push(original);
    await w.push(recall);
    await w.push(update);
    expect(w.tray).to.have.length(0);
  });
});
