// The operator's dashboard (deploy/grafana/) and alert rules (deploy/prometheus/) read only
// metrics the services really export: the three services run as real processes (compiled, as
// deployed) and every metric name in every PromQL expression — and in the promtool tests' input
// series — is looked up in what their /metrics answers. A renamed metric or a typo would
// otherwise leave a panel empty and an alert silent, with nothing failing. Also: no expression
// uses a `service` label (ours is `webpush_service`), every alert links a runbook section, and
// docs/operations.md, "Health, metrics, logs", names every metric of our own.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { parse } from 'yaml';
import { ROOT } from '../../scripts/lib/local-env.js';
import { freePort } from '@webpush/shared/ports.js';
import { startStack, type Stack } from '../e2e/support/harness.js';

type ServiceName = 'gateway' | 'campaign' | 'delivery';

/** Names a Prometheus scrape of this text yields: histograms as their _bucket, _sum and _count series. */
function exportedNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(name + suffix);
    else if (type === 'summary') for (const suffix of ['', '_sum', '_count']) names.add(name + suffix);
    else names.add(name);
  }
  return names;
}

const KEYWORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'and', 'or', 'unless', 'bool', 'offset', 'inf', 'nan']);

/** Metric names a PromQL expression selects, each with the `webpush_service` it requires, if any. */
function selectedMetrics(expr: string): { name: string; service?: string }[] {
  const text = expr
    .replace(/\$\{?\w+\}?/g, 'x') // Grafana variables ($__rate_interval, $webpush_service)
    .replace(/\[[^\]]*\]/g, '') // range and subquery windows
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '') // label lists
    .replace(/\boffset\s+\w+/g, '');
  const found: { name: string; service?: string }[] = [];
  // A name not preceded by a word character or a dot (1e3, 0.05) and not followed by `(` (a function).
  for (const m of text.matchAll(/(?<![\w.:"])([a-zA-Z_:][a-zA-Z0-9_:]*)\s*(\{[^}]*\})?(\s*\()?/g)) {
    const [, name, matchers, call] = m;
    if (call && !matchers) continue;
    if (KEYWORDS.has(name.toLowerCase())) continue;
    // Inside a matcher block: a label name, not a metric.
    const before = text.slice(0, m.index);
    if (before.lastIndexOf('{') > before.lastIndexOf('}')) continue;
    const service = matchers ? /webpush_service\s*=\s*"([a-z]+)"/.exec(matchers)?.[1] : undefined;
    found.push({ name, service });
  }
  return found;
}

/** Label names an expression matches on or aggregates by. */
function labelNames(expr: string): string[] {
  const names: string[] = [];
  for (const [, list] of expr.matchAll(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\(([^)]*)\)/g)) names.push(...list.split(',').map((s) => s.trim()).filter(Boolean));
  for (const [, block] of expr.matchAll(/\{([^}]*)\}/g)) for (const [, label] of block.matchAll(/([a-zA-Z_]\w*)\s*(?:=~|!~|!=|=)/g)) names.push(label);
  return names;
}

interface PanelLike {
  title?: string;
  targets?: { expr?: string }[];
  panels?: PanelLike[];
}

function dashboardExpressions(file: string): { where: string; expr: string }[] {
  const dashboard = JSON.parse(readFileSync(file, 'utf8')) as { panels: PanelLike[]; templating: { list: { name: string; definition?: string }[] } };
  const out: { where: string; expr: string }[] = [];
  const walk = (panels: PanelLike[]) => {
    for (const p of panels) {
      for (const t of p.targets ?? []) if (t.expr) out.push({ where: `panel "${p.title}"`, expr: t.expr });
      walk(p.panels ?? []);
    }
  };
  walk(dashboard.panels);
  for (const v of dashboard.templating.list) {
    const inner = v.definition && /^label_values\((.*),\s*\w+\)$/.exec(v.definition)?.[1];
    if (inner) out.push({ where: `variable ${v.name}`, expr: inner });
  }
  return out;
}

interface Rule {
  alert?: string;
  expr: string;
  annotations?: Record<string, string>;
}

const DASHBOARD = path.join(ROOT, 'deploy/grafana/webpush-overview.json');
const ALERTS = path.join(ROOT, 'deploy/prometheus/alerts.yaml');
const ALERT_TESTS = path.join(ROOT, 'deploy/prometheus/alerts.test.yaml');
const rules = (parse(readFileSync(ALERTS, 'utf8')) as { groups: { rules: Rule[] }[] }).groups.flatMap((g) => g.rules);
/** Series Prometheus makes itself, not the services. */
const PROMETHEUS_OWN = new Set(['up']);

describe('dashboard and alert rules against the metrics the services export', () => {
  let stack: Stack;
  const exported = {} as Record<ServiceName, Set<string>>;

  before(async function () {
    this.timeout(120_000);
    const ops = { gateway: await freePort(), campaign: await freePort(), delivery: await freePort() };
    stack = await startStack('observability', { GATEWAY_OPS_PORT: String(ops.gateway), CAMPAIGN_METRICS_PORT: String(ops.campaign), DELIVERY_OPS_PORT: String(ops.delivery) });
    for (const service of ['gateway', 'campaign', 'delivery'] as const) {
      const res = await fetch(`http://127.0.0.1:${ops[service]}/metrics`);
      expect(res.status).to.equal(200);
      exported[service] = exportedNames(await res.text());
    }
  });

  after(async () => {
    await stack?.stop();
  });

  const check = (where: string, expr: string) => {
    const selected = selectedMetrics(expr);
    expect(selected, `${where}: no metric found in ${expr}`).to.not.be.empty;
    for (const { name, service } of selected) {
      if (PROMETHEUS_OWN.has(name)) continue;
      const by = service ? [service as ServiceName] : (Object.keys(exported) as ServiceName[]);
      expect(by.some((s) => exported[s]?.has(name)), `${where}: ${name}${service ? ` (webpush_service="${service}")` : ''} is not exported`).to.equal(true);
    }
    expect(labelNames(expr), `${where}: uses the label "service" (ours is webpush_service)`).to.not.include('service');
  };

  it('every PromQL expression of the Grafana dashboard reads metrics the services export', () => {
    const exprs = dashboardExpressions(DASHBOARD);
    expect(exprs.length).to.be.greaterThan(20);
    for (const { where, expr } of exprs) check(where, expr);
  });

  it('every alert rule reads metrics the services export, and says what happened and where its runbook is', () => {
    expect(rules.map((r) => r.alert)).to.include.members(['WebpushServiceDown', 'WebpushHttp5xxRatioHigh', 'WebpushPushFailureRatioHigh', 'WebpushConsumerLagGrowing', 'WebpushOutboxStuck', 'WebpushSchedulerLate']);
    for (const rule of rules) {
      check(`alert ${rule.alert}`, rule.expr);
      expect(rule.annotations?.summary, `${rule.alert} summary`).to.be.a('string').and.not.empty;
      expect(rule.annotations?.description, `${rule.alert} description`).to.be.a('string').and.not.empty;
      // Which section, and that it exists: alert-rules.test.ts.
      expect(rule.annotations?.runbook_url, `${rule.alert} runbook`).to.match(/docs\/operations\.md\{\{ end \}\}#[a-z0-9-]+$/);
    }
  });

  it('the promtool tests feed the rules series the services really export', () => {
    const tests = (parse(readFileSync(ALERT_TESTS, 'utf8')) as { tests: { input_series: { series: string }[] }[] }).tests;
    for (const series of tests.flatMap((t) => t.input_series.map((s) => s.series))) check('alerts.test.yaml', series);
  });

  it('docs/operations.md, "Health, metrics, logs", names every metric of our own (Node\'s process metrics aside)', () => {
    const operations = readFileSync(path.join(ROOT, 'docs/operations.md'), 'utf8');
    const section = /^## Health, metrics, logs\n([\s\S]*?)^## /m.exec(operations)?.[1];
    expect(section, 'docs/operations.md has a "Health, metrics, logs" section').to.be.a('string');
    const own = new Set(Object.values(exported).flatMap((names) => [...names]).filter((n) => !/^(process|nodejs)_/.test(n)).map((n) => n.replace(/_(bucket|sum|count)$/, '')));
    for (const name of own) expect(section, `"Health, metrics, logs" does not mention ${name}`).to.include(`\`${name}`);
  });
});

describe('PromQL metric extraction (used above)', () => {
  it('finds selected metrics, not functions, keywords, labels, numbers or Grafana variables', () => {
    const expr = 'histogram_quantile(0.99, sum by (le, push_service) (rate(delivery_push_request_duration_seconds_bucket{webpush_service="delivery",code=~"5.."}[$__rate_interval]))) > 1e3 and on (x) up == 0 or absent(process_start_time_seconds{webpush_service="gateway"}) unless foo offset 5m';
    expect(selectedMetrics(expr)).to.deep.equal([
      { name: 'delivery_push_request_duration_seconds_bucket', service: 'delivery' },
      { name: 'up', service: undefined },
      { name: 'process_start_time_seconds', service: 'gateway' },
      { name: 'foo', service: undefined },
    ]);
  });
});
