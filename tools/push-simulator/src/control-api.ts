// /_sim/*: the same simulator driven over HTTP when it runs as its own process.
import { BehaviourError } from './behaviours.js';
import type { Exchange } from './exchange.js';
import { sendJson } from './push-handler.js';
import type { Behaviour, PushSimulator } from './types.js';

const CONTROL_BODY_LIMIT = 64 * 1024;

export async function handleControl(ex: Exchange, url: URL, sim: PushSimulator): Promise<void> {
  const method = ex.method;
  const route = `${method} ${url.pathname}`;
  try {
    if (route === 'POST /_sim/subscriptions') {
      const body = await readJson(ex);
      const key = (body as { applicationServerKey?: unknown }).applicationServerKey;
      if (typeof key !== 'string') return sendJson(ex, 400, {}, { message: 'applicationServerKey is required' });
      return sendJson(ex, 201, {}, sim.createSubscription(key));
    }
    if (route === 'GET /_sim/stats') return sendJson(ex, 200, {}, sim.stats());
    if (route === 'GET /_sim/messages') {
      return sendJson(ex, 200, {}, { messages: sim.received(url.searchParams.get('subscription') ?? undefined) });
    }
    if (route === 'GET /_sim/ca.pem') return ex.respond(200, { 'content-type': 'application/x-pem-file' }, sim.caCertPem);
    if (route === 'POST /_sim/behaviour') {
      sim.setBehaviour((await readJson(ex)) as Behaviour);
      return ex.respond(204, {}, '');
    }
    if (route === 'DELETE /_sim/behaviour') {
      sim.clearBehaviours();
      return ex.respond(204, {}, '');
    }
    if (route === 'POST /_sim/reset') {
      sim.reset();
      return ex.respond(204, {}, '');
    }
    const expire = /^\/_sim\/expire\/([A-Za-z0-9_-]+)$/.exec(url.pathname);
    if (method === 'POST' && expire) {
      return sim.expireSubscription(expire[1])
        ? ex.respond(204, {}, '')
        : sendJson(ex, 404, {}, { message: 'no such subscription' });
    }
    return sendJson(ex, 404, {}, { message: `no control route ${route}` });
  } catch (err) {
    if (err instanceof BadControlRequest || err instanceof BehaviourError || err instanceof TypeError) {
      return sendJson(ex, 400, {}, { message: err.message });
    }
    throw err;
  }
}

class BadControlRequest extends Error {}

async function readJson(ex: Exchange): Promise<object> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ex.body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > CONTROL_BODY_LIMIT) throw new BadControlRequest('body too large');
    chunks.push(chunk);
  }
  try {
    const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    if (value && typeof value === 'object' && !Array.isArray(value)) return value;
  } catch {
    // reported below
  }
  throw new BadControlRequest('body must be a JSON object');
}
