// The house rules of docs/architecture.md ("House rules") that a machine can check, over the
// repository's own source: no cycles between folders, no import up a layer, feature folders
// reached only through their index.ts, SQL only in *-store.ts, no service importing another's
// code. Each rule is first shown to catch a made-up breach, so the check cannot pass by finding
// nothing.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkHouseRules, looksLikeSql, scan, type Rules } from '../support/import-graph.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The layers of each service, lowest first (docs/architecture.md, "House rules"). */
export const HOUSE_RULES: Rules = {
  services: [
    {
      root: 'services/delivery/src',
      layers: [
        ['errors.ts', 'grpc-answers.ts', 'http', 'runs.ts'],
        ['sites'],
        ['optin'],
        ['audience'],
        ['people'],
        ['ab-tests'],
        ['sending'],
        ['tracking', 'retention', 'webhooks', 'plugin', 'audit'],
        ['console'],
        ['grpc-server.ts', 'site-registry-handlers.ts', 'operators.ts', 'config.ts'],
        ['app.ts', 'main.ts'],
      ],
      features: ['ab-tests', 'audience', 'audit', 'console', 'optin', 'people', 'plugin', 'retention', 'sending', 'sites', 'tracking', 'webhooks'],
    },
    {
      root: 'services/campaign/src',
      layers: [
        ['config.ts', 'base'],
        ['sites', 'stats', 'outbox', 'scheduler'],
        ['campaigns'],
        ['ab-tests', 'accounts', 'feeds', 'notifications', 'revisions', 'templates'],
        ['automations'],
        ['grpc', 'messaging'],
        ['grpc-server.ts'],
        ['app.ts', 'main.ts'],
      ],
      features: ['ab-tests', 'accounts', 'automations', 'campaigns', 'feeds', 'notifications', 'outbox', 'revisions', 'scheduler', 'sites', 'stats', 'templates'],
    },
    {
      root: 'gateway/src',
      layers: [['texts.ts'], ['http', 'grpc', 'config.ts'], ['auth'], ['routes'], ['console'], ['express-app.ts', 'http-server.ts'], ['app.ts', 'main.ts']],
      features: ['console'],
    },
  ],
  sharedRoots: ['packages/shared/src', 'packages/contracts/src/generated'],
  sqlAllowed: {
    'services/campaign/src/app.ts': "the readiness probe's SELECT 1, on its own connection",
    'services/delivery/src/app.ts': "the readiness probe's SELECT 1, on its own connection",
    'services/delivery/src/audience/segment-sql.ts': "a segment as SQL conditions that the stores' audience queries AND in: fragments, not statements",
  },
  importsAllowed: {},
};

function repositorySources(): Map<string, string> {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.ts', '*.js', '*.mjs'], { cwd: ROOT, encoding: 'utf8' });
  const files = new Map<string, string>();
  for (const file of listed.split('\n').filter(Boolean)) {
    try {
      files.set(file, readFileSync(path.join(ROOT, file), 'utf8'));
    } catch {
      // deleted in the working tree, not yet in the index
    }
  }
  return files;
}

/** A made-up service for the breaches below: `low` under `mid` under `top`, one feature. */
const FIXTURE_RULES: Rules = {
  services: [{ root: 'svc/src', layers: [['low'], ['mid', 'feat'], ['top.ts']], features: ['feat'] }],
  sharedRoots: ['shared/src'],
  sqlAllowed: {},
  importsAllowed: {},
};

const clean: [string, string][] = [
  ['svc/src/low/a.ts', `export const a = 1;`],
  ['svc/src/mid/b.ts', `import { a } from '../low/a.js';\nimport { f } from '../feat/index.js';\nexport const b = a + f;`],
  ['svc/src/feat/index.ts', `export { f } from './f.js';`],
  ['svc/src/feat/f.ts', `import { a } from '../low/a.js';\nexport const f = a;`],
  ['svc/src/feat/f-store.ts', 'export const q = `SELECT id FROM t WHERE x = ${1}`;'],
  ['svc/src/top.ts', `import { b } from './mid/b.js';\nimport { s } from '../../shared/src/s.js';\nexport default b + s;`],
  ['shared/src/s.ts', `export const s = 1;`],
];

function check(extra: [string, string][], rules = FIXTURE_RULES) {
  return checkHouseRules(new Map([...clean, ...extra]), rules);
}

describe('house rules: the import graph and where SQL lives', () => {
  describe('the checker', () => {
    it('finds nothing in a tree that keeps every rule', () => {
      expect(check([])).to.deep.equal([]);
    });

    it('finds an import up a layer', () => {
      const found = check([['svc/src/low/up.ts', `import { b } from '../mid/b.js';`]]);
      expect(found.map((v) => v.rule)).to.include('layer');
      expect(found.find((v) => v.rule === 'layer')!.where).to.equal('svc/src/low/up.ts:1');
    });

    it('finds a cycle between folders of one layer, through a type-only or dynamic import too', () => {
      const found = check([
        ['svc/src/mid/c.ts', `import type { F } from '../feat/index.js';`],
        ['svc/src/feat/g.ts', `const m = await import('../mid/c.js');`],
      ]);
      expect(found.filter((v) => v.rule === 'cycle')).to.have.length(1);
      expect(found.find((v) => v.rule === 'cycle')!.detail).to.match(/feat → .* mid → .* feat/);
    });

    it("finds a feature reached past its index.ts, by an import or an export … from", () => {
      const found = check([
        ['svc/src/mid/d.ts', `import { f } from '../feat/f.js';`],
        ['svc/src/top2.ts', `export { f } from './feat/f.js';`],
      ]);
      expect(found.filter((v) => v.rule === 'feature').map((v) => v.where)).to.deep.equal(['svc/src/mid/d.ts:1', 'svc/src/top2.ts:1']);
      expect(found.filter((v) => v.rule === 'unplaced').map((v) => v.where)).to.deep.equal(['svc/src/top2.ts']);
    });

    it('finds SQL outside a *-store.ts file, in a template or a quoted string, unless allowed with a reason', () => {
      const breach: [string, string][] = [
        ['svc/src/mid/e.ts', 'const n = 2;\nexport const q = `\n  UPDATE app.t SET x = ${n}`;\nexport const r = "DELETE FROM app.t";'],
      ];
      expect(check(breach).filter((v) => v.rule === 'sql').map((v) => v.where)).to.deep.equal(['svc/src/mid/e.ts:2', 'svc/src/mid/e.ts:4']);
      expect(check(breach, { ...FIXTURE_RULES, sqlAllowed: { 'svc/src/mid/e.ts': 'a reason' } })).to.deep.equal([]);
    });

    it("finds an import of another service's code", () => {
      const found = check([['svc/src/low/x.ts', `import { y } from '../../../other/src/y.js';`], ['other/src/y.ts', 'export const y = 1;']]);
      expect(found.map((v) => v.rule)).to.deep.equal(['service']);
    });

    it('reads specifiers and literals past comments, regular expressions and nested templates', () => {
      const { imports, literals } = scan(
        [
          `// import { no } from './commented.js';`,
          `/* import './also-commented.js' */`,
          `import {`,
          `  a,`,
          `} from './a.js';`,
          `const re = /['"\`]/g; const half = 4 / 2; const t = \`x \${\`inner \${'s'}\`} SELECT id FROM y\`;`,
          `export * from "./b.js";`,
        ].join('\n'),
      );
      expect(imports).to.deep.equal([
        { spec: './a.js', line: 5 },
        { spec: './b.js', line: 7 },
      ]);
      expect(literals.map((l) => l.text)).to.include('x   SELECT id FROM y');
      expect(looksLikeSql('Select the campaigns from the list')).to.equal(false);
      expect(looksLikeSql('SELECT 1')).to.equal(true);
    });
  });

  it('the repository keeps every rule (or allows the exception, with its reason)', () => {
    const violations = checkHouseRules(repositorySources(), HOUSE_RULES);
    expect(violations.map((v) => `${v.rule} ${v.where}: ${v.detail}`)).to.deep.equal([]);
  });
});
