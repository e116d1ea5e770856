// Development aid: the built console pages (as the gateway serves them, with the same route
// module) and the in-memory console API of fixture-api.ts, on one port. Build first
// (`npm run build`), then `npx tsx console/test/serve-fixture.ts [port]`.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import express from 'express';
import { consolePageRoutes, loadConsolePages } from '../../gateway/src/console/pages.js';
import { createFixtureApi, FIXTURE_INVITE, FIXTURE_USER } from './fixture-api.js';

export async function serveFixture(port = 0, opts: { impressionDelayMs?: number } = {}): Promise<{ url: string; close(): Promise<void> }> {
  const app = express();
  app.disable('x-powered-by');
  app.use('/console/api', createFixtureApi(opts).router);
  app.use(consolePageRoutes(loadConsolePages(path.resolve(import.meta.dirname, '../../dist/gateway/console-pages'))));
  app.use((_req, res) => res.status(404).json({ message: 'Not found' }));
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/console/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const s = await serveFixture(Number(process.argv[2] ?? 8099));
  console.log(`console (fixture API): ${s.url}\nlog in as ${FIXTURE_USER.email} / ${FIXTURE_USER.password}; invite: ${s.url}#/invite/${FIXTURE_INVITE}`);
}
