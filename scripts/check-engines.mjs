#!/usr/bin/env node
// Fails when a package in package-lock.json declares an `engines.node` range that excludes the
// lowest Node version package.json promises (`engines.node`, e.g. ">=20.19" → 20.19.0).
// No dependencies: a small semver range check covering what the lock holds
// (comparators <, <=, >, >=, =, ^, ~, x/X/* wildcards, partial versions, hyphen ranges, ||).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8'));

/** "20", "20.x", "20.19", "v20.19.1" → { parts: [20, 19, 1], given: how many were not wildcards } */
function partial(text) {
  const m = /^v?(\d+|[xX*])(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/.exec(text);
  if (!m) throw new Error(`cannot read version "${text}"`);
  const raw = [m[1], m[2], m[3]];
  let given = 0;
  while (given < 3 && raw[given] !== undefined && !/^[xX*]$/.test(raw[given])) given++;
  const parts = raw.map((p, i) => (i < given ? Number(p) : 0));
  return { parts, given };
}

function cmp(a, b) {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

/** The first version above a partial one: 20 → 21.0.0, 20.19 → 20.20.0. */
function bump(parts, given) {
  const out = parts.slice();
  out[given - 1] += 1;
  for (let i = given; i < 3; i++) out[i] = 0;
  return out;
}

/** One comparator (`>=20.19`, `^20`, `20.x`, `*`) → list of [op, version] tests, all of which must hold. */
function comparator(text) {
  const m = /^(<=|>=|<|>|=|\^|~>?|)\s*(.*)$/.exec(text);
  const op = m[1];
  const { parts, given } = partial(m[2] || '*');
  if (given === 0) return op === '<' || op === '>' ? [['<', [0, 0, 0]]] : [];
  switch (op) {
    case '>=':
      return [['>=', parts]];
    case '>':
      return given === 3 ? [['>', parts]] : [['>=', bump(parts, given)]];
    case '<':
      return [['<', parts]];
    case '<=':
      return given === 3 ? [['<=', parts]] : [['<', bump(parts, given)]];
    case '^': {
      const lead = parts.findIndex((p, i) => p !== 0 || i === given - 1);
      const upTo = Math.min(lead === -1 ? given : lead + 1, given);
      return [
        ['>=', parts],
        ['<', bump(parts, upTo)],
      ];
    }
    case '~':
    case '~>':
      return [
        ['>=', parts],
        ['<', bump(parts, Math.min(given, 2))],
      ];
    default:
      return given === 3
        ? [['=', parts]]
        : [
            ['>=', parts],
            ['<', bump(parts, given)],
          ];
  }
}

function satisfies(version, range) {
  return range.split('||').some((alternative) => {
    let text = alternative.trim().replace(/(<=|>=|<|>|=|\^|~>?)\s+/g, '$1');
    const hyphen = /^(\S+)\s+-\s+(\S+)$/.exec(text);
    if (hyphen) text = `>=${hyphen[1]} <=${hyphen[2]}`;
    const tests = text === '' ? [] : text.split(/\s+/).flatMap(comparator);
    return tests.every(([op, v]) => {
      const c = cmp(version, v);
      return op === '>=' ? c >= 0 : op === '>' ? c > 0 : op === '<' ? c < 0 : op === '<=' ? c <= 0 : c === 0;
    });
  });
}

const promised = pkg.engines?.node;
if (!promised) {
  console.error('package.json has no engines.node');
  process.exit(1);
}
const lowestMatch = /^\s*>=?\s*(v?[\d.xX*]+)\s*$/.exec(promised);
if (!lowestMatch) {
  console.error(`package.json engines.node "${promised}" should be of the form ">=MAJOR.MINOR"`);
  process.exit(1);
}
const lowest = partial(lowestMatch[1]).parts;
const lowestText = lowest.join('.');

const failures = [];
let checked = 0;
for (const [where, entry] of Object.entries(lock.packages ?? {})) {
  if (where === '' || entry.link) continue;
  // Some old packages still write engines as an array of strings ("node >= 0.8").
  const range = Array.isArray(entry.engines) ? entry.engines.find((e) => /^node\b/.test(e))?.replace(/^node\s*/, '') : entry.engines?.node;
  if (typeof range !== 'string') continue;
  checked++;
  let ok;
  try {
    ok = satisfies(lowest, range);
  } catch (error) {
    failures.push(`${where.replace(/^.*node_modules\//, '')}@${entry.version} (${where}): engines.node "${range}" unreadable: ${error.message}`);
    continue;
  }
  if (!ok) failures.push(`${where.replace(/^.*node_modules\//, '')}@${entry.version} (${where}): engines.node "${range}"`);
}

if (failures.length) {
  console.error(`Node ${lowestText} (package.json engines.node "${promised}") is excluded by ${failures.length} package(s):`);
  for (const f of failures) console.error(`  ${f}`);
  process.exit(1);
}
console.log(`engines: all ${checked} packages in package-lock.json that declare engines.node allow Node ${lowestText} (package.json: "${promised}")`);
