// A site's audit log in the delivery service (docs/console.md, "Audit log"), over the gRPC
// AuditLog service as the gateway calls it, against a real Postgres: entries appended with their
// `audit.entry` webhook event in one statement, pages newest first, the CSV export, the retention
// setting and its purge in the retention pass, and the table's append-only triggers.
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { AppendAuditEntryRequest } from '@webpush/contracts/generated/delivery/v1/AppendAuditEntryRequest.js';
import { createRetention } from '../../src/retention/index.js';
import { newSite, startTestDelivery, type TestDelivery } from '../support.js';

type Unary = 'Append' | 'ListAuditEntries' | 'GetAuditSettings' | 'UpdateAuditSettings';

describe('delivery: the audit log', function () {
  this.timeout(60_000);
  let t: TestDelivery;

  before(async () => {
    t = await startTestDelivery('audit_log', { WEBHOOK_TEST_HOSTS: '127.0.0.1' });
  });
  after(async () => {
    await t?.stop();
  });

  function call(method: Unary, req: object): Promise<any> {
    const client = t.auditLog as unknown as Record<Unary, (r: object, cb: (err: grpc.ServiceError | null, res?: unknown) => void) => void>;
    return new Promise((resolve, reject) => client[method].call(t.auditLog, req, (err, res) => (err ? reject(err) : resolve(res))));
  }
  const refusal = (p: Promise<unknown>) => p.then(() => expect.fail('expected a refusal'), (err: grpc.ServiceError) => ({ code: err.code, details: err.details }));

  function entry(siteId: string, over: Partial<AppendAuditEntryRequest> = {}): AppendAuditEntryRequest {
    return {
      siteId,
      actor: { kind: 'user', id: 'owner@example.com', prefix: '', label: '' },
      action: 'createCampaign',
      target: randomUUID(),
      status: 200,
      clientAddress: '198.51.100.7',
      requestId: randomUUID(),
      ...over,
    };
  }

  function exportCsv(siteId: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const parts: Buffer[] = [];
      const stream = t.auditLog.ExportAuditEntries({ siteId });
      stream.on('data', (c: { data: Buffer }) => parts.push(c.data));
      stream.on('error', reject);
      stream.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    });
  }

  /** Rows written as they would be at `daysAgo` (the table takes INSERTs only; `at` is a column like any). */
  async function insertOld(siteId: string, daysAgo: number, n: number): Promise<void> {
    await t.pool.query(
      `INSERT INTO delivery.audit_log (site_id, at, actor_kind, actor, action, status)
       SELECT $1, now() - $2 * interval '1 day', 'user', 'old@example.com', 'old', 200 FROM generate_series(1, $3)`,
      [siteId, daysAgo, n],
    );
  }

  it('when an entry is appended, then the site lists it newest first with every field, and another site lists nothing of it', async () => {
    const site = await newSite(t);
    const other = await newSite(t);
    const first = entry(site.siteId, { actor: { kind: 'key', id: randomUUID(), prefix: 'wpk_abcd', label: 'CRM' }, action: 'deleteCampaign', status: 404 });
    const second = entry(site.siteId);
    const a = await call('Append', first);
    const b = await call('Append', second);
    expect(b.id).to.be.greaterThan(a.id);
    const page = await call('ListAuditEntries', { siteId: site.siteId, before: 0, limit: 0 });
    expect(page.entries.map((e: { id: number }) => e.id)).to.deep.equal([b.id, a.id]);
    expect(page.nextBefore).to.equal(0);
    const { at, ...rest } = page.entries[1];
    expect(rest).to.deep.equal({
      id: a.id,
      actor: first.actor,
      action: 'deleteCampaign',
      target: first.target,
      status: 404,
      clientAddress: '198.51.100.7',
      requestId: first.requestId,
    });
    expect(Date.now() - Date.parse(at)).to.be.within(-5_000, 60_000);
    expect((await call('ListAuditEntries', { siteId: other.siteId, before: 0, limit: 0 })).entries).to.deep.equal([]);
  });

  it('when a site has more entries than a page, then pages follow each other by `before` without a gap or a repeat', async () => {
    const site = await newSite(t);
    const ids: number[] = [];
    for (let i = 0; i < 7; i++) ids.push((await call('Append', entry(site.siteId, { action: `a${i}` }))).id);
    const seen: number[] = [];
    let before = 0;
    for (let pages = 0; pages < 10; pages++) {
      const page = await call('ListAuditEntries', { siteId: site.siteId, before, limit: 3 });
      seen.push(...page.entries.map((e: { id: number }) => e.id));
      if (page.nextBefore === 0) break;
      before = page.nextBefore;
    }
    expect(seen).to.deep.equal([...ids].reverse());
  });

  it('when a page size is out of range, then it is refused with its message', async () => {
    const site = await newSite(t);
    for (const limit of [-1, 101]) {
      expect(await refusal(call('ListAuditEntries', { siteId: site.siteId, before: 0, limit }))).to.deep.equal({ code: grpc.status.INVALID_ARGUMENT, details: 'limit must be an integer from 1 to 100' });
    }
  });

  it('when an entry is appended for a site with an endpoint that wants audit.entry, then its event is written by the same statement with the entry as its data', async () => {
    const site = await newSite(t);
    const hook = (events: string[], path: string) =>
      new Promise<{ endpoint: { id: string } }>((resolve, reject) =>
        t.webhooks.CreateWebhook({ siteId: site.siteId, webhookId: '', eventId: '', bodyJson: JSON.stringify({ url: `https://127.0.0.1/${path}`, events }) }, (err, res) =>
          err ? reject(err) : resolve(res as { endpoint: { id: string } }),
        ),
      );
    const wants = await hook(['audit.entry'], 'audit');
    await hook(['campaign.completed'], 'other');
    const input = entry(site.siteId, { actor: { kind: 'key', id: randomUUID(), prefix: 'wpk_1234', label: 'Zapier' }, target: 'c/1' });
    const { id } = await call('Append', input);
    const { rows } = await t.pool.query(`SELECT endpoint_id, event_type, body FROM delivery.webhook_deliveries WHERE event_type = 'audit.entry' AND endpoint_id IN (SELECT id FROM delivery.webhook_endpoints WHERE site_id = $1)`, [site.siteId]);
    expect(rows.map((r) => r.endpoint_id)).to.deep.equal([wants.endpoint.id]);
    const event = JSON.parse(rows[0].body);
    expect(event.type).to.equal('audit.entry');
    const stored = (await call('ListAuditEntries', { siteId: site.siteId, before: 0, limit: 1 })).entries[0];
    expect(event.data).to.deep.equal({
      id,
      at: stored.at,
      actor: input.actor,
      action: input.action,
      target: 'c/1',
      status: 200,
      clientAddress: input.clientAddress,
      requestId: input.requestId,
    });
    // Key order as the API writes it (json, not jsonb).
    expect(Object.keys(event.data)).to.deep.equal(['id', 'at', 'actor', 'action', 'target', 'status', 'clientAddress', 'requestId']);
  });

  it('when an append is refused (unknown site, bad actor kind or status), then neither an entry nor an event is written', async () => {
    const before = (await t.pool.query('SELECT count(*)::int AS n FROM delivery.audit_log')).rows[0].n;
    expect(await refusal(call('Append', entry(randomUUID())))).to.deep.equal({ code: grpc.status.NOT_FOUND, details: 'Site not found' });
    expect(await refusal(call('Append', entry('not-a-uuid')))).to.deep.equal({ code: grpc.status.NOT_FOUND, details: 'Site not found' });
    const site = await newSite(t);
    expect(await refusal(call('Append', entry(site.siteId, { actor: { kind: 'operator', id: 'x', prefix: '', label: '' }, status: 99 })))).to.deep.equal({
      code: grpc.status.INVALID_ARGUMENT,
      details: 'actor.kind must be user or key, status must be an HTTP status from 100 to 599',
    });
    expect((await t.pool.query('SELECT count(*)::int AS n FROM delivery.audit_log')).rows[0].n).to.equal(before);
  });

  it('when texts taken from a request hold NUL or control characters or are long, then they are stored escaped and bounded', async () => {
    const site = await newSite(t);
    await call('Append', entry(site.siteId, { target: 'a\u0000b\u001bc\n', clientAddress: 'x'.repeat(500), requestId: 'r'.repeat(500) }));
    const e = (await call('ListAuditEntries', { siteId: site.siteId, before: 0, limit: 1 })).entries[0];
    expect(e.target).to.equal('a\\u0000b\\u001bc\\u000a');
    expect(e.clientAddress).to.have.length(64);
    expect(e.requestId).to.have.length(128);
  });

  it('when the log is exported, then it is CSV with a header, newest first, cells a spreadsheet would run made inert', async () => {
    const site = await newSite(t);
    const a = await call('Append', entry(site.siteId, { target: '=HYPERLINK("x")' }));
    const b = await call('Append', entry(site.siteId, { actor: { kind: 'key', id: 'k1', prefix: 'wpk_ab', label: 'a,b' } }));
    const lines = (await exportCsv(site.siteId)).split('\r\n');
    expect(lines[0]).to.equal('id,at,actorKind,actor,actorPrefix,actorLabel,action,target,status,clientAddress,requestId');
    expect(lines[1]).to.match(new RegExp(`^${b.id},[^,]+,key,k1,wpk_ab,"a,b",createCampaign,`));
    expect(lines[2]).to.match(new RegExp(`^${a.id},.*,"'=HYPERLINK\\(""x""\\)",200,`));
    expect(lines.slice(3)).to.deep.equal(['']);
  });

  it('when the retention is read and set, then 365 is the default, 7 to 3650 whole days are taken and anything else is refused with nothing changed', async () => {
    const site = await newSite(t);
    expect(await call('GetAuditSettings', { siteId: site.siteId })).to.deep.equal({ retentionDays: 365 });
    expect(await call('UpdateAuditSettings', { siteId: site.siteId, bodyJson: '{"retentionDays":30}' })).to.deep.equal({ retentionDays: 30 });
    for (const body of ['{"retentionDays":6}', '{"retentionDays":3651}', '{"retentionDays":7.5}', '{"retentionDays":"30"}', '{}', '{"retentionDays":null}']) {
      expect(await refusal(call('UpdateAuditSettings', { siteId: site.siteId, bodyJson: body })), body).to.deep.equal({
        code: grpc.status.INVALID_ARGUMENT,
        details: 'retentionDays must be an integer from 7 to 3650',
      });
    }
    expect(await refusal(call('UpdateAuditSettings', { siteId: site.siteId, bodyJson: '[]' }))).to.deep.equal({ code: grpc.status.INVALID_ARGUMENT, details: 'Invalid JSON body' });
    expect(await call('GetAuditSettings', { siteId: site.siteId })).to.deep.equal({ retentionDays: 30 });
    expect(await refusal(call('GetAuditSettings', { siteId: randomUUID() }))).to.deep.equal({ code: grpc.status.NOT_FOUND, details: 'Site not found' });
  });

  it('when a retention pass runs, then entries past their own site\'s retention are deleted and every other entry is kept', async () => {
    const short = await newSite(t);
    const long = await newSite(t);
    await call('UpdateAuditSettings', { siteId: short.siteId, bodyJson: '{"retentionDays":7}' });
    await insertOld(short.siteId, 8, 3);
    await insertOld(short.siteId, 6, 2);
    await insertOld(long.siteId, 8, 2);
    await call('Append', entry(short.siteId));
    const report = await createRetention(t.pool, t.config.retention).pass();
    expect(report?.auditDeleted).to.be.at.least(3);
    const left = async (siteId: string) => (await t.pool.query('SELECT count(*)::int AS n FROM delivery.audit_log WHERE site_id = $1', [siteId])).rows[0].n;
    expect(await left(short.siteId)).to.equal(3);
    expect(await left(long.siteId)).to.equal(2);
  });

  describe('append-only, in the database', () => {
    it('when any UPDATE or TRUNCATE is tried, then Postgres refuses it and nothing changes', async () => {
      const site = await newSite(t);
      await call('Append', entry(site.siteId, { action: 'kept' }));
      for (const sql of [`UPDATE delivery.audit_log SET action = 'forged' WHERE site_id = '${site.siteId}'`, 'TRUNCATE delivery.audit_log']) {
        const err = await t.pool.query(sql).then(() => expect.fail(`${sql} went through`), (e: { code: string; message: string }) => e);
        expect(err.code, sql).to.equal('42501');
        expect(err.message).to.match(/append-only/);
      }
      expect((await t.pool.query('SELECT action FROM delivery.audit_log WHERE site_id = $1', [site.siteId])).rows).to.deep.equal([{ action: 'kept' }]);
    });

    it('when a DELETE takes an entry still within its site\'s retention, then the whole statement is refused, also when it takes expired ones with it', async () => {
      const site = await newSite(t);
      await insertOld(site.siteId, 400, 2);
      await call('Append', entry(site.siteId));
      const err = await t.pool.query('DELETE FROM delivery.audit_log WHERE site_id = $1', [site.siteId]).then(
        () => expect.fail('the DELETE went through'),
        (e: { code: string }) => e,
      );
      expect(err.code).to.equal('42501');
      expect((await t.pool.query('SELECT count(*)::int AS n FROM delivery.audit_log WHERE site_id = $1', [site.siteId])).rows[0].n).to.equal(3);
      // Past the retention (365 days by default) a DELETE is what the purge does, and is let through.
      const gone = await t.pool.query(`DELETE FROM delivery.audit_log WHERE site_id = $1 AND at < now() - interval '365 days'`, [site.siteId]);
      expect(gone.rowCount).to.equal(2);
    });
  });
});
