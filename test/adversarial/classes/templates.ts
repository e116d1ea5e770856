// Class 22: /v2/templates and a create's `template` (docs/api-decisions.md, "Templates"), attacked
// with an ordinary key: every template field hostile, and texts made of almost-right tags (→ 200,
// 400 or 409, bad text refused, nothing stored on a 4xx); hostile variables on the preview and on
// a create (→ 200 or 400, a link rendered from a value never leaves the template's host); the
// bystander's template on every route (404 `Template not found`) and in a create (400); odd ids.
// The bystander's templates are unchanged throughout.
import fc from 'fast-check';
import type { RequestSpec } from '../support/http.js';
import { hasBadText, hostileString, hostileValue, ODD_SEGMENTS, toJsonText } from '../support/hostile.js';
import { fuzz, probe } from '../support/probe.js';
import { assertNoViolations, endOfClassChecks, getCtx, show, trackViolations, violation } from '../support/suite.js';

export const CLASS_TEMPLATES = '22 templates';
const cls = CLASS_TEMPLATES;

const TEMPLATE_FIELDS = [
  'name', 'title', 'body', 'link', 'icon', 'image', 'callToAction', 'utmSource', 'utmMedium', 'utmCampaign',
  'actions', 'badge', 'requireInteraction', 'renotify', 'silent', 'vibrate', 'timestamp', 'dir', 'lang',
] as const;
const VALID = { title: 'Hi {{ first_name | "there" }}', body: 'Your {{ product }} is back', link: 'https://shop.example/p/{{ product_id }}' };
const HOST = 'shop.example';

/** Texts of tags almost right: odd names, quotes, braces, nesting, huge defaults, tags in hosts. */
const tagText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '{{', '}}', '{{}}', '{{ }}', '{{ a', 'a }}', '{{ A }}', '{{ 1a }}', '{{ a-b }}', '{{ a.b }}', '{{ a | }}', '{{ a | x }}', "{{ a | 'x' }}", '{{ a | "x }}',
    '{{ a | "\\x" }}', '{{ a | "x" | "y" }}', '{{ {{ a }} }}', '{{{ a }}}', '{{# a }}{{/ a }}', '{{> partial }}', '{{ __proto__ }}', '{{ constructor }}',
    `{{ ${'a'.repeat(64)} }}`, `{{ ${'a'.repeat(65)} }}`, `{{ a | "${'d'.repeat(1001)}" }}`, '{{\ta\t|\t"b"\t}}', '{{\na\n}}', '{{ a | "\u0000" }}',
    'https://{{ host }}/', 'https://shop.example{{ p }}', 'https://shop.example@{{ p }}/', 'javascript:{{ a }}', '//{{ a }}/x',
  ),
  fc.tuple(hostileString, fc.constantFrom('{{ a }}', '{{ a | "b" }}', '{{'), hostileString).map(([a, t, b]) => a + t + b),
);

function v2(method: string, path: string, key: string, body?: string): RequestSpec {
  const headers: [string, string][] = [['Authorization', key]];
  if (body !== undefined) headers.push(['Content-Type', 'application/json']);
  return { method, path, headers, body };
}

/** The site's templates, for "nothing stored on a 4xx" (the suite's snapshot covers campaigns). */
async function templatesOf(siteId: string): Promise<string> {
  const { rows } = await getCtx().db.query(
    `SELECT count(*)::int AS n, coalesce(md5(string_agg(id || ':' || name || ':' || version || ':' || content::text, ',' ORDER BY id)), '') AS h FROM campaign.templates WHERE site_id = $1`,
    [siteId],
  );
  return `${rows[0].n}/${rows[0].h}`;
}

export function registerTemplates(): void {
  describe(CLASS_TEMPLATES, function () {
    this.timeout(120_000);
    trackViolations(cls);
    let seq = 0;

    /** A probe that also checks the site's templates are unchanged on a 4xx. */
    async function templateProbe(spec: RequestSpec, what: string, allowed: number[], mustReject = false) {
      const { sites } = getCtx();
      const before = await templatesOf(sites.fuzz.id);
      const r = await probe(cls, spec, { siteId: sites.fuzz.id, allowed, mustReject, what });
      if (r.status === undefined || r.status >= 400) {
        const after = await templatesOf(sites.fuzz.id);
        if (after !== before) violation(cls, `${spec.method} ${spec.path} ${what}: answered ${r.status} but the templates changed`);
      }
      return r;
    }

    it('create and update: every field hostile, texts of almost-right tags → 200/400/409, bad text refused, nothing stored on a 4xx', async () => {
      const { sites } = getCtx();
      const value = fc.oneof({ arbitrary: hostileValue, weight: 2 }, { arbitrary: tagText, weight: 3 });
      const mutation = fc.tuple(fc.constantFrom<string>(...TEMPLATE_FIELDS, 'unknownField', '__proto__'), fc.option(value, { nil: undefined, freq: 8 }));
      const made: string[] = [];
      await fuzz(fc.array(mutation, { minLength: 1, maxLength: 3 }), { numRuns: 300, timeMs: 15_000, seedOffset: 2201 }, async (mutations) => {
        const body: Record<string, unknown> = { name: `adv ${++seq}`, ...VALID };
        for (const [field, v] of mutations) {
          if (v === undefined) delete body[field];
          else body[field] = v;
        }
        const bad = TEMPLATE_FIELDS.some((f) => Object.hasOwn(body, f) && hasBadText(body[f]));
        const r = await templateProbe(v2('POST', '/v2/templates', sites.fuzz.apiKey, toJsonText(body)), show(body, 200), [200, 400, 409, 413, 429], bad);
        if (r.status === 200 && typeof r.body?.id === 'string') made.push(r.body.id);
      });
      // The same hostile fields as changes of a template that exists.
      const target = made[0] ?? (await probe(cls, v2('POST', '/v2/templates', sites.fuzz.apiKey, JSON.stringify({ name: 'adv target', ...VALID })), { siteId: sites.fuzz.id, what: 'target' })).body.id;
      await fuzz(fc.array(mutation, { minLength: 1, maxLength: 3 }), { numRuns: 200, timeMs: 10_000, seedOffset: 2202 }, async (mutations) => {
        const body = Object.fromEntries(mutations.map(([f, v]) => [f, v === undefined ? null : v]));
        const bad = TEMPLATE_FIELDS.some((f) => Object.hasOwn(body, f) && hasBadText(body[f]));
        await templateProbe(v2('PATCH', `/v2/templates/${target}`, sites.fuzz.apiKey, toJsonText(body)), show(body, 200), [200, 400, 409, 413, 429], bad);
      });
      await endOfClassChecks(cls);
      assertNoViolations(cls);
    });

    it('render and a create with template: hostile variables → 200/400, a rendered link never leaves the template host, nothing stored on a 4xx', async () => {
      const { sites } = getCtx();
      const created = await probe(cls, v2('POST', '/v2/templates', sites.fuzz.apiKey, JSON.stringify({ name: 'adv render', ...VALID, actions: [{ title: '{{ cta | "Go" }}', link: 'https://shop.example/a?x={{ product_id }}' }] })), {
        siteId: sites.fuzz.id,
        allowed: [200],
        what: 'render target',
      });
      const id = created.body?.id as string;
      const name = fc.oneof(fc.constantFrom('first_name', 'product', 'product_id', 'cta', '__proto__', 'constructor', 'A', '1a', 'a'.repeat(65), ''), hostileString);
      const variables = fc.oneof({ arbitrary: fc.dictionary(name, fc.oneof(hostileValue, tagText), { maxKeys: 5 }), weight: 4 }, { arbitrary: hostileValue, weight: 1 });
      await fuzz(fc.tuple(variables, fc.boolean()), { numRuns: 300, timeMs: 15_000, seedOffset: 2203 }, async ([vars, asCampaign]) => {
        const bad = hasBadText(vars);
        if (!asCampaign) {
          const r = await templateProbe(v2('POST', `/v2/templates/${id}/render`, sites.fuzz.apiKey, toJsonText({ variables: vars })), show(vars, 200), [200, 400, 413, 429], bad);
          if (r.status === 200) {
            for (const link of [r.body?.content?.link, ...(r.body?.content?.actions ?? []).map((a: { link: string }) => a.link)]) {
              if (new URL(link).host !== HOST) violation(cls, `render ${show(vars)}: a link left the template's host: ${show(link)}`);
            }
          }
          return;
        }
        const body = { template: { id, variables: vars }, topics: ['news'], status: 'draft', scheduleMode: 'now' };
        const r = await templateProbe(v2('POST', '/v2/campaign/create', sites.fuzz.apiKey, toJsonText(body)), show(body, 200), [200, 400, 413, 429], bad);
        if (r.status === 200) {
          const got = await probe(cls, v2('GET', `/v2/campaign/${r.body.id}`, sites.fuzz.apiKey), { siteId: sites.fuzz.id, allowed: [200], what: '(read back)' });
          if (new URL(got.body?.link).host !== HOST) violation(cls, `create ${show(vars)}: the campaign's link left the template's host: ${show(got.body?.link)}`);
        }
      });
      await endOfClassChecks(cls);
      assertNoViolations(cls);
    });

    it("the bystander's template on every route → 404 Template not found, in a create → 400; odd ids → 4xx; the bystander's templates unchanged", async () => {
      const { sites } = getCtx();
      const theirs = await probe(cls, v2('POST', '/v2/templates', sites.other.apiKey, JSON.stringify({ name: 'bystander', ...VALID })), { siteId: sites.other.id, allowed: [200], what: 'bystander template' });
      const theirId = theirs.body?.id as string;
      const before = await templatesOf(sites.other.id);
      const routes = (tid: string): [string, string, string | undefined][] => [
        ['GET', `/v2/templates/${tid}`, undefined],
        ['PATCH', `/v2/templates/${tid}`, JSON.stringify({ name: 'stolen', title: 'Stolen title' })],
        ['DELETE', `/v2/templates/${tid}`, undefined],
        ['POST', `/v2/templates/${tid}/render`, JSON.stringify({ variables: { product: 'x', product_id: 1 } })],
      ];
      for (const [method, path, body] of routes(theirId)) {
        const r = await templateProbe(v2(method, path, sites.fuzz.apiKey, body), 'the bystander template', [404]);
        if (r.status === 404 && r.body?.message !== 'Template not found') violation(cls, `${method} ${path}: ${show(r.body)}`);
      }
      const create = await templateProbe(
        v2('POST', '/v2/campaign/create', sites.fuzz.apiKey, JSON.stringify({ template: { id: theirId, variables: { product: 'x', product_id: 1 } }, topics: ['news'], status: 'draft', scheduleMode: 'now' })),
        'a create with the bystander template',
        [400],
      );
      if (create.body?.message !== 'template.id is not a template of this site') violation(cls, `create with the bystander's template: ${show(create.body)}`);
      for (const odd of ODD_SEGMENTS) {
        for (const [method, path, body] of routes(odd)) await templateProbe(v2(method, path, sites.fuzz.apiKey, body), `odd id ${show(odd)}`, [400, 404, 405, 413, 429]);
      }
      if ((await templatesOf(sites.other.id)) !== before) violation(cls, "the bystander's templates changed");
      await endOfClassChecks(cls);
      assertNoViolations(cls);
    });
  });
}
