// Redraws bench/results/latest.svg and latest.md from latest.json, its targets evaluated again
// (after a change to the report code, without measuring again): `npx tsx bench/render.ts`.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { evaluateTargets, formatTables, renderSvg, type Results } from './lib/report.js';

const results = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results');
const latest = JSON.parse(readFileSync(path.join(results, 'latest.json'), 'utf8')) as Results;
latest.targets = evaluateTargets(latest);
writeFileSync(path.join(results, 'latest.json'), JSON.stringify(latest, null, 2) + '\n');
writeFileSync(path.join(results, 'latest.svg'), renderSvg(latest));
writeFileSync(path.join(results, 'latest.md'), formatTables(latest) + '\n');
console.log('bench/results/latest.json targets evaluated again; latest.svg and latest.md redrawn from it');
