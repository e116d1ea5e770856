// Part 6: the console's login under a flood (docs/security.md, "Console logins"). A site's owner,
// who logged in from their address before, logs in on the idle stack, then again while 200 other
// addresses send wrong logins without pause (each address tries the owner's email, then one of
// its own; wave after wave), all through the gateway as the one trusted proxy (LOGIN_PROXY)
// tells their addresses. Recorded: every owner's try (in or not) and its time, idle and under the
// flood, and the flood's answers by status (401 and 429 expected, never a 5xx).
import http from 'node:http';
import { createAccounts } from '../../services/campaign/src/accounts/accounts.js';
import { createSite, percentile } from '../lib/sites.js';
import type { BenchStack } from '../lib/stack.js';

/** The trusted proxy the flood comes through: a loopback address no other part connects from. */
export const LOGIN_PROXY = '127.0.0.2';

const FLOOD_ADDRESSES = 200;
const OWNER_ADDRESS = '198.51.100.10';
const PASSWORD = 'the owner knows this one';

export interface LoginTries {
  tries: number;
  /** Tries answered 200 with a session. */
  ok: number;
  medianMs: number;
  maxMs: number;
}

export interface LoginFloodResult {
  floodAddresses: number;
  floodRequests: number;
  /** The flood's answers, by HTTP status. */
  floodAnswers: Record<string, number>;
  idle: LoginTries;
  underFlood: LoginTries;
  /** The slowest try under the flood ÷ the idle median: what the flood costs the owner. */
  slowestToIdleMedian: number;
}

export async function runLoginFlood(stack: BenchStack, opts: { tries: number }, log: (l: string) => void): Promise<LoginFloodResult> {
  const site = await createSite(stack, 'login-bench');
  const owner = `owner@login-bench.example`;
  await createAccounts(stack.pool).ensureMember({ site: site.id, email: owner, password: PASSWORD, role: 'owner' });
  const url = new URL(stack.services.gatewayUrl);
  const agent = new http.Agent({ localAddress: LOGIN_PROXY, keepAlive: true, maxSockets: FLOOD_ADDRESSES + 8 });

  function login(address: string, email: string, password: string): Promise<{ status: number; ms: number }> {
    const body = JSON.stringify({ email, password });
    const t0 = performance.now();
    return new Promise((resolve, reject) => {
      const req = http.request(
        { host: url.hostname, port: url.port, path: '/console/api/login', method: 'POST', agent, headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), 'X-Forwarded-For': address } },
        (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode!, ms: performance.now() - t0 }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  async function ownerTries(): Promise<LoginTries> {
    const times: number[] = [];
    let ok = 0;
    for (let k = 0; k < opts.tries; k++) {
      const r = await login(OWNER_ADDRESS, owner, PASSWORD);
      if (r.status === 200) ok++;
      times.push(r.ms);
    }
    times.sort((a, b) => a - b);
    return { tries: opts.tries, ok, medianMs: Math.round(percentile(times, 50)), maxMs: Math.round(times[times.length - 1]) };
  }

  try {
    const first = await login(OWNER_ADDRESS, owner, PASSWORD);
    if (first.status !== 200) throw new Error(`the owner could not log in: ${first.status}`);
    const idle = await ownerTries();
    log(`  owner idle: ${idle.ok}/${idle.tries} in, median ${idle.medianMs} ms, slowest ${idle.maxMs} ms`);

    const floodAnswers: Record<string, number> = {};
    let floodRequests = 0;
    let flooding = true;
    const flood = (async () => {
      for (let wave = 0; flooding; wave++) {
        await Promise.all(
          Array.from({ length: FLOOD_ADDRESSES }, async (_, i) => {
            const r = await login(`100.64.${i >> 8}.${i & 255}`, wave % 2 === 0 ? owner : `guess${i}@login-bench.example`, `wrong ${wave}`).catch(() => ({ status: 0 }));
            floodRequests++;
            floodAnswers[r.status] = (floodAnswers[r.status] ?? 0) + 1;
          }),
        );
      }
    })();
    const underFlood = await ownerTries().finally(() => (flooding = false));
    await flood;
    log(`  owner under the flood: ${underFlood.ok}/${underFlood.tries} in, median ${underFlood.medianMs} ms, slowest ${underFlood.maxMs} ms; flood: ${floodRequests} requests, ${JSON.stringify(floodAnswers)}`);
    return {
      floodAddresses: FLOOD_ADDRESSES,
      floodRequests,
      floodAnswers,
      idle,
      underFlood,
      slowestToIdleMedian: Math.round((underFlood.maxMs / Math.max(idle.medianMs, 1)) * 100) / 100,
    };
  } finally {
    agent.destroy();
  }
}
