// The service worker's reports, run as the browser runs the file (vm, a worker-like global): a
// report that meets a network error, a 5xx or a 429 is sent again, a bounded number of times,
// and one the server refused (4xx) is not. The browser suites run the same file for real.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { expect } from 'chai';

const SW = readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '../../src/plugin/assets/webpush-sw.js'), 'utf8');
const API = 'https://gateway.example/public/v1/';

type Answer = number | 'network error';

/** Loads the worker with a fetch that gives `answers` in turn; returns its push handler's outcome. */
async function push(answers: Answer[]) {
  const calls: { url: string; body: unknown }[] = [];
  const waits: number[] = [];
  const handlers: Record<string, (event: unknown) => void> = {};
  const self = {
    location: { href: `https://shop.example/webpush-sw.js?api=${encodeURIComponent(API)}&site=pub_x` },
    addEventListener: (type: string, fn: (event: unknown) => void) => (handlers[type] = fn),
    registration: { showNotification: async () => {} },
  };
  const context = vm.createContext({
    self,
    URL,
    AbortController,
    Promise,
    JSON,
    Number,
    Math,
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
  handlers.push({ data: { json: () => ({ id: 'c1', title: 'Sale', token: 'tok' }) }, waitUntil: (p: Promise<unknown>) => (held = p) });
  await held;
  return { calls, waits };
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
