// The service worker, run as the browser runs the file (vm, a worker-like global): a report that
// meets a network error, a 5xx or a 429 is sent again, a bounded number of times, and one the
// server refused (4xx) is not; a Declarative Web Push message is shown by the worker, or left to
// a browser that shows it itself. The browser suites run the same file for real.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { expect } from 'chai';

const SW = readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '../../src/plugin/assets/webpush-sw.js'), 'utf8');
const API = 'https://gateway.example/public/v1/';

type Answer = number | 'network error';

/**
 * Loads the worker with a fetch that gives `answers` in turn and pushes `message` (with the
 * event's other members `event`); returns its reports, waits and shown notifications.
 */
async function push(answers: Answer[], message: unknown = { id: 'c1', title: 'Sale', token: 'tok' }, event: Record<string, unknown> = {}) {
  const calls: { url: string; body: unknown }[] = [];
  const shown: { title: string; options: any }[] = [];
  const waits: number[] = [];
  const handlers: Record<string, (event: unknown) => void> = {};
  const self = {
    location: { href: `https://shop.example/webpush-sw.js?api=${encodeURIComponent(API)}&site=pub_x` },
    addEventListener: (type: string, fn: (event: unknown) => void) => (handlers[type] = fn),
    registration: { showNotification: async (title: string, options: unknown) => void shown.push({ title, options }) },
  };
  const context = vm.createContext({
    self,
    URL,
    AbortController,
    Promise,
    JSON,
    Number,
    Math,
    Array,
    Object,
    clearTimeout,
    // Backoff waits (at most 8 s) pass at once and are recorded; the 10 s request timeout never fires.
    setTimeout: (fn: () => void, ms: number) => {
      if (ms === 10_000) return undefined;
      waits.push(ms);
      queueMicrotask(fn);
      return undefined;
    },
    fetch: async (url: string, init: { body: string }) => {
      calls.push({ url, body: JSON.parse(init.body) });
      const answer = answers[Math.min(calls.length, answers.length) - 1];
      if (answer === 'network error') throw new TypeError('NetworkError when attempting to fetch resource.');
      return { status: answer, headers: new Headers(answer === 429 ? { 'Retry-After': '7' } : {}) };
    },
  });
  vm.runInContext(SW, context, { filename: 'webpush-sw.js' });
  let held: Promise<unknown> = Promise.resolve();
  handlers.push({ data: { json: () => message }, waitUntil: (p: Promise<unknown>) => (held = p), ...event });
  await held;
  return { calls, waits, shown };
}

describe('plugin: the service worker\'s reports', () => {
  it('when an impression meets a network error, then a 502, then it is sent again until it is stored (202)', async () => {
    const { calls, waits } = await push(['network error', 502, 202]);
    expect(calls).to.deep.equal(Array(3).fill({ url: `${API}events`, body: { type: 'impression', token: 'tok' } }));
    expect(waits).to.deep.equal([1000, 4000]);
  });

  it('when every attempt fails, then it stops after three (bounded), and honours Retry-After within its bound', async () => {
    expect((await push(['network error'])).calls).to.have.length(3);
    const limited = await push([429]);
    expect(limited.calls).to.have.length(3);
    expect(limited.waits).to.deep.equal([7000, 7000]);
  });

  it('when the server refuses the report (400) or stores it at once, then it is sent once', async () => {
    expect((await push([400])).calls).to.have.length(1);
    expect((await push([202])).calls).to.have.length(1);
  });
});

describe('plugin: the service worker and Declarative Web Push messages', () => {
  const navigate = 'https://gateway.example/public/v1/r/tok';
  const message = {
    web_push: 8030,
    notification: {
      title: 'Final tonight', tag: 'c1', body: 'Kick-off', lang: 'pt-BR', requireInteraction: true, timestamp: 5, navigate,
      actions: [{ action: 'open', title: 'Watch', navigate }, { action: 'link-0', title: 'Scores', navigate: `${navigate}?button=0` }],
      data: { id: 'c1', token: 'tok' },
    },
    mutable: true,
  };

  it('when the browser does not show it itself, then the worker shows the same notification, its links the redirect, and reports the impression', async () => {
    const { calls, shown } = await push([202], message);
    expect(shown).to.have.length(1);
    expect(shown[0].title).to.equal('Final tonight');
    expect(JSON.parse(JSON.stringify(shown[0].options))).to.deep.equal({
      body: 'Kick-off', tag: 'c1', lang: 'pt-BR', requireInteraction: true, timestamp: 5,
      actions: [{ action: 'open', title: 'Watch' }, { action: 'link-0', title: 'Scores' }],
      data: { id: 'c1', url: navigate, token: 'tok', links: { 'link-0': `${navigate}?button=0` } },
    });
    expect(calls).to.deep.equal([{ url: `${API}events`, body: { type: 'impression', token: 'tok' } }]);
  });

  it('when the browser shows it itself (a mutable message with event.notification), then the worker shows nothing and reports the impression', async () => {
    const { calls, shown } = await push([202], message, { notification: { title: 'Final tonight' } });
    expect(shown).to.deep.equal([]);
    expect(calls).to.deep.equal([{ url: `${API}events`, body: { type: 'impression', token: 'tok' } }]);
  });

  it('when a declarative message lacks its title or navigate, then nothing is shown or reported', async () => {
    for (const broken of [{ ...message, web_push: 8031 }, { ...message, notification: { ...message.notification, navigate: 1 } }, { web_push: 8030 }]) {
      const { calls, shown } = await push([202], broken);
      expect([calls, shown], JSON.stringify(broken)).to.deep.equal([[], []]);
    }
  });
});
