// @vitest-environment node
/**
 * No import cycles in the SPA (docs/architecture.md, "SPA map"). A lazy `import()` counts like a
 * static import: a screen that reads the route table it is listed in is a loop as well, even if
 * the bundler copes with it. Imports of types alone are erased at build time and do not count.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../..');
const SRC = path.join(ROOT, 'src');

/** The relative module specifiers a source file loads at run time: static imports and re-exports, and `import()`. */
function runtimeImports(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, fileName.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const out: string[] = [];
  const typeOnly = (clause: ts.ImportClause | undefined) => {
    if (!clause) return false;
    if (clause.isTypeOnly) return true;
    const named = clause.namedBindings;
    return !clause.name && named !== undefined && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly);
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && !typeOnly(node.importClause)) out.push(node.moduleSpecifier.text);
    else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier) && !node.isTypeOnly)
      out.push(node.moduleSpecifier.text);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteralLike(arg)) out.push(arg.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out.filter((s) => s.startsWith('.'));
}

function resolveImport(from: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec);
  return [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')].find(
    (p) => fs.existsSync(p) && fs.statSync(p).isFile(),
  );
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') && !/\.test\.tsx?$/.test(e.name) ? [p] : [];
  });
}

/** The import graph of src/: file → the files of src/ it loads. */
function srcGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const deps = runtimeImports(file, fs.readFileSync(file, 'utf8'))
      .map((spec) => resolveImport(file, spec))
      .filter((p): p is string => p !== undefined && p.startsWith(SRC + path.sep));
    graph.set(path.relative(ROOT, file), [...new Set(deps.map((p) => path.relative(ROOT, p)))]);
  }
  return graph;
}

/** The cycles a depth-first walk meets, each as its files from the first back to itself. */
function findCycles(graph: Map<string, string[]>): string[][] {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const walk = (node: string) => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) walk(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) walk(node);
  return cycles;
}

describe('import cycles', () => {
  it('reads static imports, re-exports and import() calls, and leaves out imports of types', () => {
    const text = [
      "import { a } from './a';",
      "import type { B } from './b';",
      "import { type C } from './c';",
      "import { type D, d } from './d';",
      "export { e } from './e';",
      "export type { F } from './f';",
      "import 'react';",
      "const g = () => import('./g');",
    ].join('\n');
    expect(runtimeImports('x.tsx', text)).toEqual(['./a', './d', './e', './g']);
  });

  it('finds a loop through a lazy import', () => {
    const graph = new Map([
      ['routes', ['home']],
      ['home', ['menu']],
      ['menu', ['routes']],
    ]);
    expect(findCycles(graph)).toEqual([['home', 'menu', 'routes', 'home']]);
    expect(
      findCycles(
        new Map([
          ['a', ['b']],
          ['b', []],
        ]),
      ),
    ).toEqual([]);
  });

  it('src/ has none', () => {
    const graph = srcGraph();
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get(path.join('src', 'routes.tsx'))).toContain(path.join('src', 'pages', 'Landing.tsx'));
    expect(findCycles(graph).map((c) => c.join(' → '))).toEqual([]);
  });
});
