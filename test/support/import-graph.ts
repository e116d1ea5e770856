// The house rules that can be checked mechanically (docs/architecture.md, "House rules"), as a
// checker over source texts: test/infra/import-graph.test.ts runs it on the repository and on
// small made-up trees that break each rule, so a rule that stopped finding anything would fail.
// A small scanner instead of a parser: it only needs import specifiers and the text of string
// and template literals, past comments and regular expressions (the TypeScript package here is
// the native compiler, with no JavaScript API to parse with).
import path from 'node:path';

export interface Literal {
  text: string;
  line: number;
}

export interface Scanned {
  /** Specifiers of `import … from`, `export … from`, `import '…'` and `import('…')`. */
  imports: { spec: string; line: number }[];
  /** Every string and template literal (a template's text parts joined by a space). */
  literals: Literal[];
}

/** A keyword after which a `/` starts a regular expression, not a division. */
const BEFORE_REGEX = /(?:^|[^\w$.])(?:return|typeof|case|do|else|in|of|new|delete|void|throw|yield|await)$/;

/** Scans TypeScript for its import specifiers and literals; comments are skipped. */
export function scan(source: string): Scanned {
  const imports: Scanned['imports'] = [];
  const literals: Literal[] = [];
  let line = 1;
  let i = 0;
  /** The code since the last literal (comments and literals left out), for what precedes one. */
  let code = '';
  /** Open `${` of templates, by the brace depth at which each continues its template. */
  const templates: number[] = [];
  let depth = 0;

  const advance = (to: number) => {
    for (let k = i; k < to; k++) if (source[k] === '\n') line++;
    i = to;
  };
  const lastSignificant = () => code.trimEnd();

  /** Reads a template's text from i (just after ` or }) to its end or its next `${`. */
  const readTemplatePart = (): { text: string; opened: boolean } => {
    let text = '';
    while (i < source.length) {
      const c = source[i];
      if (c === '\\') {
        text += source.slice(i, i + 2);
        advance(i + 2);
      } else if (c === '`') {
        advance(i + 1);
        return { text, opened: false };
      } else if (c === '$' && source[i + 1] === '{') {
        advance(i + 2);
        return { text, opened: true };
      } else {
        text += c;
        advance(i + 1);
      }
    }
    return { text, opened: false };
  };
  let templateText: { parts: string[]; line: number }[] = [];

  while (i < source.length) {
    const c = source[i];
    const next = source[i + 1];
    if (c === '/' && next === '/') {
      const end = source.indexOf('\n', i);
      advance(end === -1 ? source.length : end);
    } else if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      advance(end === -1 ? source.length : end + 2);
    } else if (c === "'" || c === '"') {
      const start = line;
      let k = i + 1;
      let text = '';
      while (k < source.length && source[k] !== c && source[k] !== '\n') {
        if (source[k] === '\\') {
          text += source.slice(k, k + 2);
          k += 2;
        } else text += source[k++];
      }
      advance(k + 1);
      const before = lastSignificant();
      if (/(?:\bfrom|^import|[^\w$.]import|\bimport\s*\()$/.test(before)) imports.push({ spec: text, line: start });
      literals.push({ text, line: start });
      code += ' "" ';
    } else if (c === '`') {
      const start = line;
      advance(i + 1);
      const part = readTemplatePart();
      if (part.opened) {
        templateText.push({ parts: [part.text], line: start });
        templates.push(depth);
        depth++;
      } else literals.push({ text: part.text, line: start });
      code += ' "" ';
    } else if (c === '}' && templates.length > 0 && templates[templates.length - 1] === depth - 1) {
      depth--;
      templates.pop();
      advance(i + 1);
      const part = readTemplatePart();
      const open = templateText[templateText.length - 1];
      open.parts.push(part.text);
      if (part.opened) {
        templates.push(depth);
        depth++;
      } else {
        templateText.pop();
        literals.push({ text: open.parts.join(' '), line: open.line });
      }
    } else if (c === '/' && (/[(,=:[!&|?{};+\-*%<>~^]$/.test(lastSignificant()) || lastSignificant() === '' || BEFORE_REGEX.test(lastSignificant()))) {
      // A regular expression literal: skipped whole, classes included.
      let k = i + 1;
      let inClass = false;
      while (k < source.length && source[k] !== '\n') {
        if (source[k] === '\\') k += 2;
        else if (source[k] === '[') (inClass = true), k++;
        else if (source[k] === ']') (inClass = false), k++;
        else if (source[k] === '/' && !inClass) break;
        else k++;
      }
      advance(k + 1);
      code += ' /re/ ';
    } else {
      if (c === '{') depth++;
      else if (c === '}') depth--;
      code += c;
      if (code.length > 200) code = code.slice(-100);
      advance(i + 1);
    }
  }
  return { imports, literals };
}

/** SQL in a literal: a statement's leading keywords, upper case as the house writes SQL. */
const SQL = /\b(?:SELECT\b[\s\S]*\bFROM|INSERT INTO|UPDATE\s+[\w.]+\s+(?:\w+\s+)?SET|DELETE FROM|CREATE (?:TABLE|INDEX|SCHEMA)|ALTER TABLE|DROP TABLE|TRUNCATE|LOCK TABLE|SELECT\s+(?:1|pg_\w+|set_config|nextval)\b)/;

export function looksLikeSql(text: string): boolean {
  return SQL.test(text);
}

/** One service's source folder and its rules. */
export interface ServiceRules {
  /** The folder whose files are checked, repository-relative: `services/delivery/src`. */
  root: string;
  /**
   * The layers, lowest first: each lists the units in it, a unit being a folder directly under
   * the root (`push`) or a file directly in it (`app.ts`). A unit may import its own layer's and
   * lower layers' units, never a higher one's; every unit must be placed in a layer.
   */
  layers: readonly (readonly string[])[];
  /** Feature folders: the files outside one reach it only through its index.ts. */
  features: readonly string[];
}

export interface Rules {
  services: readonly ServiceRules[];
  /** Folders a service may import from outside its own root (shared code, generated contracts). */
  sharedRoots: readonly string[];
  /** Files allowed to hold SQL besides `*-store.ts`, each with the reason. */
  sqlAllowed: Readonly<Record<string, string>>;
  /** Imports the layer and feature rules let through, `from -> to` (files), each with the reason. */
  importsAllowed: Readonly<Record<string, string>>;
}

export interface Violation {
  rule: 'cycle' | 'layer' | 'feature' | 'sql' | 'service' | 'unplaced' | 'unresolved';
  where: string;
  detail: string;
}

/** Resolves a relative specifier (`./x.js`) of `from` to a file of `files`, or null. */
function resolve(from: string, spec: string, files: ReadonlySet<string>): string | null {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  const stem = base.replace(/\.(?:js|mjs|ts|tsx)$/, '');
  for (const candidate of [`${stem}.ts`, `${stem}.tsx`, base, `${base}/index.ts`]) if (files.has(candidate)) return candidate;
  return null;
}

/** The unit of a file under a service root: its first folder, or the file itself. */
function unitOf(root: string, file: string): string {
  const rest = file.slice(root.length + 1);
  const slash = rest.indexOf('/');
  return slash === -1 ? rest : rest.slice(0, slash);
}

/** Checks every rule over `files` (repository-relative path → text); returns what breaks one. */
export function checkHouseRules(files: ReadonlyMap<string, string>, rules: Rules): Violation[] {
  const violations: Violation[] = [];
  const paths = new Set(files.keys());
  const serviceOf = (file: string) => rules.services.find((s) => file.startsWith(`${s.root}/`));

  /** Unit graphs per service, for the cycle check: unit → units it imports (with one example). */
  const edges = new Map<ServiceRules, Map<string, Map<string, string>>>();

  for (const [file, text] of files) {
    const service = serviceOf(file);
    if (!service) continue;
    const scanned = scan(text);

    if (!/-store\.ts$/.test(file) && !(file in rules.sqlAllowed)) {
      for (const literal of scanned.literals) {
        if (looksLikeSql(literal.text)) violations.push({ rule: 'sql', where: `${file}:${literal.line}`, detail: 'SQL outside a *-store.ts file' });
      }
    }

    const layerOf = (unit: string) => service.layers.findIndex((layer) => layer.includes(unit));
    const fromUnit = unitOf(service.root, file);
    if (layerOf(fromUnit) === -1) violations.push({ rule: 'unplaced', where: file, detail: `${service.root}: ${fromUnit} is in no layer` });

    for (const { spec, line } of scanned.imports) {
      if (!spec.startsWith('.')) continue; // a package
      const target = resolve(file, spec, paths);
      const where = `${file}:${line}`;
      if (!target) {
        violations.push({ rule: 'unresolved', where, detail: spec });
        continue;
      }
      if (!target.startsWith(`${service.root}/`)) {
        if (!rules.sharedRoots.some((r) => target.startsWith(`${r}/`))) violations.push({ rule: 'service', where, detail: `imports ${target}, another service's code` });
        continue;
      }
      if (`${file} -> ${target}` in rules.importsAllowed) continue;
      const toUnit = unitOf(service.root, target);
      if (toUnit === fromUnit) continue;
      const from = layerOf(fromUnit);
      const to = layerOf(toUnit);
      if (from !== -1 && to !== -1 && to > from) violations.push({ rule: 'layer', where, detail: `${fromUnit} (layer ${from}) imports ${toUnit} (layer ${to}), a layer above` });
      if (service.features.includes(toUnit) && target !== `${service.root}/${toUnit}/index.ts`) {
        violations.push({ rule: 'feature', where, detail: `imports ${target}, not the feature's ${toUnit}/index.ts` });
      }
      const graph = edges.get(service) ?? new Map<string, Map<string, string>>();
      edges.set(service, graph);
      const out = graph.get(fromUnit) ?? new Map<string, string>();
      graph.set(fromUnit, out);
      if (!out.has(toUnit)) out.set(toUnit, where);
    }
  }

  for (const [service, graph] of edges) {
    for (const cycle of cyclesOf(graph)) {
      violations.push({ rule: 'cycle', where: service.root, detail: cycle.map((u, k) => (k + 1 < cycle.length ? `${u} → (${graph.get(u)!.get(cycle[k + 1])})` : u)).join(' ') });
    }
  }
  return violations;
}

/** One cycle per strongly connected component of more than one unit, as a closed path. */
function cyclesOf(graph: ReadonlyMap<string, ReadonlyMap<string, string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let counter = 0;
  const visit = (u: string) => {
    index.set(u, counter);
    low.set(u, counter++);
    stack.push(u);
    onStack.add(u);
    for (const v of graph.get(u)?.keys() ?? []) {
      if (!index.has(v)) {
        visit(v);
        low.set(u, Math.min(low.get(u)!, low.get(v)!));
      } else if (onStack.has(v)) low.set(u, Math.min(low.get(u)!, index.get(v)!));
    }
    if (low.get(u) === index.get(u)) {
      const component: string[] = [];
      let v: string;
      do {
        v = stack.pop()!;
        onStack.delete(v);
        component.push(v);
      } while (v !== u);
      if (component.length > 1) components.push(component);
    }
  };
  for (const u of [...graph.keys()].sort()) if (!index.has(u)) visit(u);
  // A closed path through each component, found by a walk inside it back to its start.
  return components.map((component) => {
    const members = new Set(component);
    const start = [...component].sort()[0];
    const pathTo = (u: string, seen: Set<string>): string[] | null => {
      for (const v of graph.get(u)?.keys() ?? []) {
        if (!members.has(v)) continue;
        if (v === start) return [u, start];
        if (seen.has(v)) continue;
        seen.add(v);
        const rest = pathTo(v, seen);
        if (rest) return [u, ...rest];
      }
      return null;
    };
    return pathTo(start, new Set([start])) ?? component;
  });
}
