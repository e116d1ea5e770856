// The template language and a template's checks (packages/contracts/src/template.ts, template-input.ts;
// docs/api-decisions.md, "Templates"): tags and defaults, the escaping of text and URL fields, the
// content fields' limits on what is rendered, unknown variables by name, unicode, hostile input.
import { expect } from 'chai';
import fc from 'fast-check';
import { ValidationError } from '../src/base/errors.js';
import { parse, render, plainText, urlEscape, type Parsed } from '@webpush/contracts/template.js';
import { renderContent, validateTemplateInput, validateTemplateUpdate, variablesField, variablesOf } from '../src/templates/template-input.js';
import { validateContentInput } from '../src/campaigns/create-input.js';

const messagesOf = (fn: () => unknown): string[] => {
  try {
    fn();
  } catch (err) {
    if (err instanceof ValidationError) return [...err.messages];
    throw err;
  }
  expect.fail('expected a ValidationError');
};
const valid = { name: 'Welcome', title: 'Hi {{ first_name | "there" }}', body: 'Your {{ product }} is back in stock', link: 'https://shop.example/p/{{ product_id }}?ref=push' };
const text = (template: string, values: Record<string, string | number> = {}, escape = plainText) => {
  const missing = new Set<string>();
  const out = render(parse(template) as Parsed, values, escape, missing);
  return { out, missing: [...missing] };
};

describe('templates: the renderer', () => {
  it('renders {{ name }} and {{ name | "default" }}, spaces optional, a default only when the value is absent', () => {
    expect(text('Hi {{first_name}}!', { first_name: 'Ana' }).out).to.equal('Hi Ana!');
    expect(text('Hi {{  first_name |"there"  }}!').out).to.equal('Hi there!');
    expect(text('Hi {{ first_name | "there" }}!', { first_name: '' }).out, 'an empty value is a value').to.equal('Hi !');
    expect(text('{{ n }} items', { n: 3 }).out).to.equal('3 items');
    expect(text('{{ a | "say \\"hi\\" \\\\ }}" }}').out, 'escaped quote and backslash, and }} inside a default').to.equal('say "hi" \\ }}');
  });

  it('names every variable with neither a value nor a default, once', () => {
    expect(text('{{ a }} {{ b | "x" }} {{ a }} {{ c }}').missing).to.deep.equal(['a', 'c']);
    expect(messagesOf(() => renderContent({ title: 'Hi {{ first_name }}', body: '{{ city }} deals' }, {}))).to.deep.equal([
      'Template variable first_name has no value and no default',
      'Template variable city has no value and no default',
    ]);
  });

  it('inserts values as plain text in text fields (no HTML escaping, no second pass over a value)', () => {
    expect(text('{{ v }}', { v: '<b>&amp;</b>' }).out).to.equal('<b>&amp;</b>');
    expect(text('{{ v }}', { v: '{{ other }}' }).out, 'a value is never a template').to.equal('{{ other }}');
    expect(text('{{ v }}', { v: '$& $1' }).out).to.equal('$& $1');
  });

  it('percent-encodes values in URL fields, so a value is one piece of the path, query or fragment', () => {
    expect(text('https://a.example/{{ p }}', { p: '../x?y=1#z' }, urlEscape).out).to.equal('https://a.example/..%2Fx%3Fy%3D1%23z');
    expect(text('https://a.example/?q={{ q }}', { q: 'café & bar' }, urlEscape).out).to.equal('https://a.example/?q=caf%C3%A9%20%26%20bar');
  });

  it('counts unicode as the create does: a rendered title of 100 emoji fits, 101 do not', () => {
    const t = { ...valid, title: '{{ t }}' };
    const c = renderContent(validateTemplateInput(t).content, { t: '👍🏽'.repeat(100), product: 'x', product_id: 1 });
    expect(validateContentInput(c).title).to.equal('👍🏽'.repeat(100));
    const over = renderContent(validateTemplateInput(t).content, { t: '👍🏽'.repeat(101), product: 'x', product_id: 1 });
    expect(messagesOf(() => validateContentInput(over))).to.deep.equal(['Title must be between 3 and 100 characters']);
  });

  it('judges what is rendered by the create rules: each field too long is refused by name, a link is still a valid URL', () => {
    const content = validateTemplateInput({ ...valid, callToAction: 'Buy {{ what }}' }).content;
    const long = renderContent(content, { first_name: 'x'.repeat(200), product: 'y'.repeat(300), product_id: 'z', what: 'w'.repeat(30) });
    expect(messagesOf(() => validateContentInput(long))).to.deep.equal([
      'Title must be between 3 and 100 characters',
      'Body must be between 3 and 300 characters',
      'Call to action must not exceed 20 characters',
    ]);
    const longLink = renderContent(content, { product: 'p', product_id: 'z'.repeat(3000), what: 'w' });
    expect(messagesOf(() => validateContentInput(longLink))).to.deep.equal(['Link must be a valid URL']);
  });

  it('lists the variables a template uses, in order, required when a tag has no default', () => {
    expect(variablesOf(validateTemplateInput({ ...valid, actions: [{ title: '{{ cta | "Open" }}', link: 'https://shop.example/{{ product_id }}' }] }).content)).to.deep.equal([
      { name: 'first_name', required: false },
      { name: 'product', required: true },
      { name: 'product_id', required: true },
      { name: 'cta', required: false },
    ]);
  });
});

describe('templates: a template body', () => {
  it('takes a name and the create body content fields, kept as given', () => {
    const t = validateTemplateInput({ ...valid, icon: 'https://shop.example/i.png', requireInteraction: true, vibrate: [100], actions: [{ title: 'See', link: 'https://shop.example/{{ product_id }}' }] });
    expect(t.name).to.equal('Welcome');
    expect(t.content).to.deep.equal({ title: valid.title, body: valid.body, link: valid.link, icon: 'https://shop.example/i.png', requireInteraction: true, vibrate: [100], actions: [{ title: 'See', link: 'https://shop.example/{{ product_id }}' }] });
  });

  it('refuses a malformed tag by field and character, unknown fields, and a missing name', () => {
    expect(messagesOf(() => validateTemplateInput({ title: 'Hi {{ First }}', body: 'ok {{ a | \'x\' }}', link: 'https://a.example/{{ }}', colour: 'red' }))).to.deep.equal([
      'name must be a string of 1 to 100 characters',
      'A template takes only name and the content fields: title, body, link, icon, image, callToAction, utmSource, utmMedium, utmCampaign, actions, badge, requireInteraction, renotify, silent, vibrate, timestamp, dir, lang',
      'title has a malformed tag at character 3: a tag is {{ name }} or {{ name | "default" }}, a name of a-z, 0-9 and _ (at most 64)',
      'body has a malformed tag at character 3: a tag is {{ name }} or {{ name | "default" }}, a name of a-z, 0-9 and _ (at most 64)',
      'link has a malformed tag at character 18: a tag is {{ name }} or {{ name | "default" }}, a name of a-z, 0-9 and _ (at most 64)',
    ]);
    expect(messagesOf(() => validateTemplateInput({ ...valid, title: `{{ ${'a'.repeat(65)} }}` }))[0]).to.match(/^title has a malformed tag at character 0/);
  });

  it('refuses a variable before the end of a URL field address host: a value never moves a link elsewhere', () => {
    for (const link of ['https://{{ host }}/x', 'https://a.example{{ p }}', 'https://a.example@{{ p }}/', '{{ url }}', 'https://{{ sub }}.a.example/']) {
      expect(messagesOf(() => validateTemplateInput({ ...valid, link })), link).to.deep.equal(["link may use variables only after its address's host and the /, ? or # that ends it"]);
    }
    expect(messagesOf(() => validateTemplateInput({ ...valid, icon: 'http://a.example/{{ p }}' }))).to.deep.equal(['Icon must be a valid URL']);
  });

  it('applies the create rules to the fields without variables, and to the literal text of those with them', () => {
    expect(messagesOf(() => validateTemplateInput({ name: 'x', title: 'Hi', body: '{{ b }}', link: 'ftp://a' }))).to.deep.equal(['Title must be between 3 and 100 characters', 'Link must be a valid URL']);
    expect(messagesOf(() => validateTemplateInput({ ...valid, body: 'x'.repeat(301) + '{{ b }}' }))).to.deep.equal(['Body must be between 3 and 300 characters']);
    expect(messagesOf(() => validateTemplateInput({ ...valid, dir: 'sideways', vibrate: 'yes' }))).to.deep.equal(['vibrate must be an array of at most 10 whole numbers of milliseconds from 0 to 10000', 'dir must be auto, ltr or rtl']);
    expect(validateTemplateInput({ ...valid, title: '{{ t }}' }).content.title, 'a title that is one variable is fine').to.equal('{{ t }}');
  });

  it('an update replaces the fields given, null removes an optional one, and the result is checked whole', () => {
    const current = validateTemplateInput({ ...valid, icon: 'https://a.example/i.png' });
    const next = validateTemplateUpdate({ icon: null, body: 'New {{ product }}' }, current);
    expect(next.content).to.deep.equal({ title: valid.title, body: 'New {{ product }}', link: valid.link });
    expect(messagesOf(() => validateTemplateUpdate({ title: null }, current))).to.deep.equal(['Title is required']);
    expect(messagesOf(() => validateTemplateUpdate({}, current))).to.deep.equal(['An update must give at least one field']);
  });

  it('variables: names by the rule, values strings or finite numbers without NUL or unpaired surrogates', () => {
    const errors: string[] = [];
    expect({ ...variablesField({ a: 'x', b_2: 3 }, errors) }).to.deep.equal({ a: 'x', b_2: 3 });
    const proto = variablesField(JSON.parse('{"__proto__": "x", "constructor": "y"}'), errors);
    expect(text('{{ __proto__ }} {{ constructor }} {{ value_of | "z" }}', proto).out, 'names of Object.prototype are variables like any other').to.equal('x y z');
    variablesField({ a: null, b: true, c: 'x'.repeat(1001), d: 'a\u0000', e: '\ud800', f: Infinity }, errors);
    expect(errors).to.deep.equal([
      'variables.a must be a string of at most 1000 characters or a finite number',
      'variables.b must be a string of at most 1000 characters or a finite number',
      'variables.c must be a string of at most 1000 characters or a finite number',
      'variables.d must not contain NUL characters or unpaired surrogates',
      'variables.e must not contain NUL characters or unpaired surrogates',
      'variables.f must be a string of at most 1000 characters or a finite number',
    ]);
    for (const bad of [[], 'x', { 'Bad-Name': 1 }, { __proto__: 1, ['1a']: 1 }, Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`v${i}`, 1]))]) {
      const e: string[] = [];
      variablesField(bad, e);
      expect(e, JSON.stringify(bad)).to.have.length(1);
    }
  });

  it('hostile texts and values never throw anything but a ValidationError, and never render outside the rules', function () {
    this.timeout(120_000);
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.string({ unit: 'binary' }), fc.double(), fc.object())), (template, vars) => {
        for (const body of [{ ...valid, title: template }, { ...valid, link: `https://shop.example/${template}` }, { ...valid, body: `{{ ${template} }}` }]) {
          try {
            const t = validateTemplateInput(body);
            const errors: string[] = [];
            const values = variablesField(vars, errors);
            if (errors.length > 0) continue;
            const content = validateContentInput(renderContent(t.content, { first_name: 'x', product: 'y', product_id: 'z', ...values }));
            expect(new URL(content.link).host).to.equal('shop.example');
          } catch (err) {
            if (!(err instanceof ValidationError)) throw err;
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
