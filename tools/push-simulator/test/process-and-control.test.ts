import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import webpush from 'web-push';
import { loadSimulatorConfig } from '../src/config.js';
import { closeH2, connectH2, controlJson, h2Push, newAppServer, pushOptions, type Trust } from './support.js';

const MAIN = path.join(path.dirname(fileURLToPath(import.meta.url)), '../src/main.ts');

interface Announcement {
  origin: string;
  caCertFile: string;
  mode: string;
  pid: number;
}

function startProcess(env: Record<string, string>, args: string[] = []): Promise<{ child: ChildProcess; announcement: Announcement }> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`simulator process did not announce itself: ${err}`));
    }, 15_000);
    child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const newline = out.indexOf('\n');
      if (newline >= 0) {
        clearTimeout(timer);
        resolve({ child, announcement: JSON.parse(out.slice(0, newline)) as Announcement });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`simulator process exited with ${code}: ${err}`));
    });
  });
}

function stopProcess(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
    child.kill('SIGTERM');
  });
}

describe('push simulator: as a separate process with the control API', () => {
  let child: ChildProcess | undefined;
  let announcement: Announcement;
  let trust: Trust;
  let agent: https.Agent;
  const app = newAppServer();

  before(async () => {
    ({ child, announcement } = await startProcess({ PORT: '0', MODE: 'record' }));
    trust = { origin: announcement.origin, caCertPem: readFileSync(announcement.caCertFile, 'utf8') };
    agent = new https.Agent({ ca: trust.caCertPem, keepAlive: true });
  });

  after(async () => {
    agent?.destroy();
    if (child) await stopProcess(child);
  });

  it('announces its origin and CA file as one JSON line', () => {
    expect(announcement.origin).to.match(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(announcement.mode).to.equal('record');
    expect(trust.caCertPem).to.contain('BEGIN CERTIFICATE');
  });

  it('issues subscriptions, records pushes, expires and misbehaves on request', async () => {
    const created = await controlJson(trust, 'POST', '/_sim/subscriptions', { applicationServerKey: app.publicKey });
    expect(created.status).to.equal(201);
    const sub = JSON.parse(created.body) as { id: string; endpoint: string; keys: { p256dh: string; auth: string } };
    expect(sub.endpoint).to.equal(`${trust.origin}/push/${sub.id}`);

    expect((await webpush.sendNotification(sub, 'via process', pushOptions(app, agent))).statusCode).to.equal(201);
    const messages = JSON.parse((await controlJson(trust, 'GET', `/_sim/messages?subscription=${sub.id}`)).body);
    expect(messages.messages.map((m: { payload: string }) => m.payload)).to.deep.equal(['via process']);

    expect((await controlJson(trust, 'POST', '/_sim/behaviour', { status: 503, times: 1 })).status).to.equal(204);
    const refused = await webpush.sendNotification(sub, 'x', pushOptions(app, agent)).then(() => 0, (e: { statusCode?: number }) => e.statusCode);
    expect(refused).to.equal(503);

    expect((await controlJson(trust, 'POST', `/_sim/expire/${sub.id}`)).status).to.equal(204);
    const gone = await webpush.sendNotification(sub, 'x', pushOptions(app, agent)).then(() => 0, (e: { statusCode?: number }) => e.statusCode);
    expect(gone).to.equal(410);

    const stats = JSON.parse((await controlJson(trust, 'GET', '/_sim/stats')).body);
    expect(stats).to.deep.include({ accepted: 1, afterExpiry: 1 });
    expect(stats.byStatus).to.deep.equal({ 201: 1, 503: 1, 410: 1 });

    expect((await controlJson(trust, 'POST', '/_sim/reset')).status).to.equal(204);
    expect(JSON.parse((await controlJson(trust, 'GET', '/_sim/stats')).body).accepted).to.equal(0);
  });

  it('answers bad control requests with 400 and unknown ones with 404', async () => {
    expect((await controlJson(trust, 'POST', '/_sim/subscriptions', { applicationServerKey: 'nope' })).status).to.equal(400);
    expect((await controlJson(trust, 'POST', '/_sim/behaviour', { status: 'slow' })).status).to.equal(400);
    expect((await controlJson(trust, 'POST', '/_sim/expire/unknown')).status).to.equal(404);
    expect((await controlJson(trust, 'GET', '/_sim/nothing')).status).to.equal(404);
  });

  it('when sent SIGTERM, then it exits 0 and removes its CA file', async () => {
    const code = await stopProcess(child!);
    child = undefined;
    expect(code).to.equal(0);
    expect(existsSync(announcement.caCertFile)).to.equal(false);
  });
});

describe('push simulator: process configuration', () => {
  it('reads variables, lets flags override them, and enables devices only with a tracking URL', () => {
    const config = loadSimulatorConfig(
      { PORT: '8443', MODE: 'sink', TRACKING_BASE_URL: 'http://127.0.0.1:8080', IMPRESSION_RATE: '0.7', CLICK_RATE: '0.2' },
      ['--port=9443'],
    );
    expect(config.options).to.deep.include({ port: 9443, mode: 'sink', tls: true, trackingBaseUrl: 'http://127.0.0.1:8080' });
    expect(config.options.device).to.deep.include({ impressionRate: 0.7, clickRate: 0.2 });
    expect(loadSimulatorConfig({}, []).options.device).to.equal(undefined);
  });

  it('names the variable that is wrong', () => {
    expect(() => loadSimulatorConfig({ MODE: 'fast' }, [])).to.throw(/MODE/);
    expect(() => loadSimulatorConfig({ CLICK_RATE: '2', TRACKING_BASE_URL: 'http://x' }, [])).to.throw(/CLICK_RATE/);
    expect(() => loadSimulatorConfig({}, ['--nope=1'])).to.throw(/--nope/);
  });
});

describe('push simulator: a far push service as a process', () => {
  it('takes LATENCY_MS from the environment and --max-concurrent-streams as a flag', async () => {
    const { child, announcement } = await startProcess({ PORT: '0', MODE: 'record', LATENCY_MS: '150' }, ['--max-concurrent-streams=7']);
    const trust = { origin: announcement.origin, caCertPem: readFileSync(announcement.caCertFile, 'utf8') };
    const { session, settings } = connectH2(trust);
    try {
      expect((await settings).maxConcurrentStreams).to.equal(7);
      const app = newAppServer();
      const sub = JSON.parse((await controlJson(trust, 'POST', '/_sim/subscriptions', { applicationServerKey: app.publicKey })).body);
      const answer = await h2Push(session, sub, 'from far away', app);
      expect(answer.status).to.equal(201);
      expect(answer.ms).to.be.at.least(140);
    } finally {
      await closeH2(session);
      expect(await stopProcess(child)).to.equal(0);
    }
  });
});
