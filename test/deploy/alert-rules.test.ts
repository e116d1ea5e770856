// The alert rules (deploy/prometheus/alerts.yaml) as operators meet them, checked offline: every
// runbook link reaches a section that exists and can be made absolute (alerting tools render a
// repository path dead), and the instance-down rule selects the scrape job our Kubernetes
// PodMonitors really produce (promtool evaluates the rule on series labelled as the Prometheus
// Operator labels them). The rules' own unit tests are alerts.test.yaml (`npm run check:alerts`).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { parse, stringify } from 'yaml';
import { ROOT } from '../../scripts/lib/local-env.js';
import { renderKustomization, type Resource } from './support/kustomize.js';

const ALERTS = path.join(ROOT, 'deploy/prometheus/alerts.yaml');
const RUNBOOK = path.join(ROOT, 'docs/operations.md');
interface Rule {
  alert: string;
  annotations: Record<string, string>;
}
const rules = (parse(readFileSync(ALERTS, 'utf8')) as { groups: { rules: Rule[] }[] }).groups.flatMap((g) => g.rules);

/** The anchors GitHub (and most Markdown renderers) give the headings of a Markdown file. */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  for (const line of markdown.split('\n')) {
    const m = /^#{1,6}\s+(.*?)\s*$/.exec(line);
    if (m) anchors.add(m[1].toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-'));
  }
  return anchors;
}

/**
 * The `job` label the Prometheus Operator gives a PodMonitor's targets: `<namespace>/<name>`,
 * replaced by the pod label `spec.jobLabel` names when set, then by the endpoint's own
 * relabelings (applied last), of which only those writing `job` with a fixed value matter here.
 */
function operatorJob(monitor: Resource, podLabels: Record<string, string>): string {
  let job = `${monitor.metadata.namespace}/${monitor.metadata.name}`;
  if (monitor.spec.jobLabel && podLabels[monitor.spec.jobLabel]) job = podLabels[monitor.spec.jobLabel];
  for (const r of monitor.spec.podMetricsEndpoints[0].relabelings ?? []) {
    if (r.targetLabel !== 'job') continue;
    expect(r.action ?? 'replace', 'a relabeling of job this test understands').to.equal('replace');
    expect(r.sourceLabels, 'a fixed job name').to.equal(undefined);
    job = r.replacement;
  }
  return job;
}

describe('alert rules (deploy/prometheus/alerts.yaml) as operators run them', () => {
  before(function () {
    this.timeout(600_000);
    // Idempotent: present on a machine that ran `npm test` (check:alerts) before.
    execFileSync('bash', [path.join(ROOT, 'scripts/install-promtool.sh')], { stdio: 'ignore' });
  });

  it('links every alert to a section of docs/operations.md that exists, under a base operators can set', () => {
    const anchors = headingAnchors(readFileSync(RUNBOOK, 'utf8'));
    expect(rules.length).to.be.greaterThan(5);
    for (const rule of rules) {
      const m = /^\{\{ with \$externalLabels\.webpush_runbook_base \}\}\{\{ \. \}\}\{\{ else \}\}docs\/operations\.md\{\{ end \}\}#([a-z0-9-]+)$/.exec(rule.annotations.runbook_url);
      expect(m, `${rule.alert}: runbook_url ${rule.annotations.runbook_url}`).to.not.equal(null);
      expect(anchors, `${rule.alert}: docs/operations.md has no section #${m![1]}`).to.include(m![1]);
    }
  });

  it('fires WebpushInstanceDown for a pod scraped through the PodMonitors (deploy/k8s/monitoring), with the labels the Operator gives it', () => {
    const monitors = renderKustomization(path.join(ROOT, 'deploy/k8s/monitoring'));
    const production = renderKustomization(path.join(ROOT, 'deploy/k8s/overlays/production'), { envFile: (file) => `${file}.example` });
    const dir = mkdtempSync(path.join(os.tmpdir(), 'alert-rules-'));
    try {
      const tests = monitors.map((m) => {
        const pod = production.find((r) => r.kind === 'Deployment' && r.metadata.name === m.metadata.name)!.spec.template.metadata.labels;
        const labels = { job: operatorJob(m, pod), namespace: m.metadata.namespace, pod: `${m.metadata.name}-6d5f8c7b9-x2k4q`, container: m.metadata.name, endpoint: m.spec.podMetricsEndpoints[0].port, instance: '10.42.0.17:9466' };
        // promtool compares annotations too: these are the rule's, for this instance.
        const annotations = { summary: `Instance ${labels.instance} is down`, description: `The scrape of ${labels.instance} has failed for 3 minutes.`, runbook_url: 'docs/operations.md#service-down' };
        const selector = Object.entries(labels).map(([k, v]) => `${k}="${v}"`).join(',');
        return {
          interval: '1m',
          input_series: [{ series: `up{${selector}}`, values: '1x2 0x10' }],
          alert_rule_test: [{ eval_time: '7m', alertname: 'WebpushInstanceDown', exp_alerts: [{ exp_labels: { severity: 'warning', ...labels }, exp_annotations: annotations }] }],
        };
      });
      writeFileSync(path.join(dir, 'test.yaml'), stringify({ rule_files: [ALERTS], evaluation_interval: '1m', tests }));
      try {
        execFileSync('promtool', ['test', 'rules', path.join(dir, 'test.yaml')], { encoding: 'utf8', stdio: 'pipe' });
      } catch (err) {
        const e = err as { stdout?: string; stderr?: string };
        expect.fail(`promtool: the rule does not fire for the Operator's targets:\n${e.stdout ?? ''}${e.stderr ?? ''}`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
