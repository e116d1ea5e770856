// Runs the push-service simulator (tools/push-simulator) as its own process for the local
// stack: the demo site's "browsers" live there, receive real pushes, and report impressions
// and clicks through the gateway like service workers would.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import https from 'node:https';
import { compiledPath, ensureBuilt } from './build-output.js';
import { stopWithThisProcess } from './exit-reaper.js';
import { ROOT } from './local-env.js';

export interface SimulatorProcess {
  origin: string;
  caCertFile: string;
  createSubscription(applicationServerKey: string): Promise<{ id: string; endpoint: string; keys: { p256dh: string; auth: string } }>;
  stop(): Promise<void>;
}

export async function startSimulatorProcess(env: Record<string, string>, timeoutMs = 30_000): Promise<SimulatorProcess> {
  await ensureBuilt();
  const child = spawn(process.execPath, [compiledPath('tools/push-simulator/src/main.ts')], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  stopWithThisProcess(child);
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-4000)));
  const info = await new Promise<{ origin: string; caCertFile: string }>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`push simulator did not start within ${timeoutMs} ms: ${stderr}`)), timeoutMs);
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const line = out.split('\n')[0];
      if (out.includes('\n')) {
        clearTimeout(timer);
        try {
          resolve(JSON.parse(line));
        } catch {
          reject(new Error(`push simulator said: ${line}`));
        }
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`push simulator exited with code ${code}: ${stderr}`));
    });
  });
  return {
    ...info,
    async createSubscription(applicationServerKey) {
      const ca = await readFile(info.caCertFile);
      const body = JSON.stringify({ applicationServerKey });
      return new Promise((resolve, reject) => {
        const req = https.request(
          `${info.origin}/_sim/subscriptions`,
          { method: 'POST', ca, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }, timeout: 10_000 },
          (res) => {
            let text = '';
            res.setEncoding('utf8').on('data', (d: string) => (text += d));
            res.on('end', () => (res.statusCode === 201 ? resolve(JSON.parse(text)) : reject(new Error(`push simulator refused a subscription: ${res.statusCode} ${text}`))));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}
