// What each service reads from its environment, taken from the sources themselves (config.ts is
// each service's only reader of process.env), and what docs/configuration.md documents about each variable.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../../scripts/lib/local-env.js';

export type ServiceName = 'gateway' | 'campaign' | 'delivery';

export const CONFIG_FILES: Record<ServiceName, string> = {
  gateway: 'gateway/src/config.ts',
  campaign: 'services/campaign/src/config.ts',
  delivery: 'services/delivery/src/config.ts',
};

export interface ServiceEnv {
  /** Every variable name the config reads. */
  reads: string[];
  /** Those without a default (requireString / secret / internalToken): start-up fails without them. */
  required: string[];
}

export function serviceEnv(service: ServiceName): ServiceEnv {
  const source = readFileSync(path.join(ROOT, CONFIG_FILES[service]), 'utf8');
  const reads = new Set<string>();
  // A variable is a whole string literal in UPPER_SNAKE_CASE (passed to the shared helpers) or env.NAME.
  for (const m of source.matchAll(/'([A-Z][A-Z0-9_]{2,})'/g)) reads.add(m[1]);
  for (const m of source.matchAll(/\benv\.([A-Z][A-Z0-9_]{2,})\b/g)) reads.add(m[1]);
  for (const m of source.matchAll(/\benv\[\s*'([A-Z][A-Z0-9_]{2,})'\s*\]/g)) reads.add(m[1]);
  const required = new Set<string>();
  for (const m of source.matchAll(/\b(?:requireString|secret|internalToken)\(\s*env,\s*'([A-Z][A-Z0-9_]+)'/g)) required.add(m[1]);
  return { reads: [...reads].sort(), required: [...required].sort() };
}

export interface DocumentedVariable {
  name: string;
  usedBy: string;
  default: string;
}

/** Rows of docs/configuration.md's tables: `| \`A\` / \`B\` | used by | default | meaning |`. */
export function documentedVariables(doc = readFileSync(path.join(ROOT, 'docs/configuration.md'), 'utf8')): Map<string, DocumentedVariable> {
  const out = new Map<string, DocumentedVariable>();
  for (const line of doc.split('\n')) {
    if (!line.startsWith('| `')) continue;
    const cells = line.split('|').slice(1, -1).map((c) => c.trim());
    if (cells.length < 4) continue;
    const names = [...cells[0].matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]);
    // "A / B" rows pair their defaults the same way: "`127.0.0.1` / `8080`".
    const defaults = cells[2].split(' / ');
    names.forEach((name, i) => out.set(name, { name, usedBy: cells[1], default: (names.length > 1 && defaults.length === names.length ? defaults[i] : cells[2]).trim() }));
  }
  return out;
}
