/**
 * The layers of `src/`: every import points down (or stays in its own folder), and no file reaches
 * itself through its imports. The order, lowest first, is the one docs/architecture.md draws.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../src');

/** Top folders of src/, lowest first; folders on one line share a rank and may not import each other. */
const LAYERS: string[][] = [['util'], ['model'], ['gtfs', 'osm'], ['routing'], ['formats', 'ptref', 'analysis'], ['live', 'scenarios'], ['service'], ['maps'], ['queries'], ['api'], ['cli']];

const rankOf = new Map(LAYERS.flatMap((folders, rank) => folders.map((f) => [f, rank] as const)));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return e.name.endsWith('.ts') ? [full] : [];
  });
}

/** Each file of src/ (relative, with `.ts`) and the files of src/ it imports, types included. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles
      .map((i) => i.fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => path.relative(SRC, path.resolve(path.dirname(file), name)).replace(/\.js$/, '.ts'));
    graph.set(path.relative(SRC, file), targets);
  }
  return graph;
}

const topFolder = (file: string): string => (file.includes(path.sep) ? file.split(path.sep)[0]! : '');

test('every file of src/ lies in a folder of a known layer', () => {
  const unplaced = [...importGraph().keys()].filter((f) => !rankOf.has(topFolder(f)));
  assert.deepEqual(unplaced, []);
});

/** The imports that go up a layer or across to a sibling folder of the same rank. */
function upwardImports(graph: Map<string, string[]>): string[] {
  const upward: string[] = [];
  for (const [file, targets] of graph) {
    const from = topFolder(file);
    for (const target of targets) {
      const to = topFolder(target);
      if (to === from) continue;
      if (!((rankOf.get(to) ?? Infinity) < (rankOf.get(from) ?? -Infinity))) upward.push(`${file} → ${target}`);
    }
  }
  return upward;
}

/** Each cycle met by a depth-first walk, as the files around it. */
function importCycles(graph: Map<string, string[]>): string[] {
  const state = new Map<string, 'open' | 'done'>();
  const cycles: string[] = [];
  const visit = (file: string, trail: string[]) => {
    state.set(file, 'open');
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') cycles.push([...trail.slice(trail.indexOf(next)), next].join(' → '));
      else if (!state.has(next)) visit(next, [...trail, next]);
    }
    state.set(file, 'done');
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file, [file]);
  return cycles;
}

test('every import points to a lower layer or to its own folder', () => {
  assert.deepEqual(upwardImports(importGraph()), []);
});

test('no import cycle among the files of src/', () => {
  assert.deepEqual(importCycles(importGraph()), []);
});

test('the checks see an upward import, an import between siblings and a cycle', () => {
  const j = (...parts: string[]) => path.join(...parts);
  const graph = new Map<string, string[]>([
    [j('model', 'a.ts'), [j('routing', 'b.ts')]],
    [j('gtfs', 'c.ts'), [j('osm', 'd.ts'), j('model', 'e.ts')]],
    [j('routing', 'b.ts'), [j('routing', 'f.ts')]],
    [j('routing', 'f.ts'), [j('routing', 'b.ts')]],
  ]);
  assert.deepEqual(upwardImports(graph), [`${j('model', 'a.ts')} → ${j('routing', 'b.ts')}`, `${j('gtfs', 'c.ts')} → ${j('osm', 'd.ts')}`]);
  assert.deepEqual(importCycles(graph), [`${j('routing', 'b.ts')} → ${j('routing', 'f.ts')} → ${j('routing', 'b.ts')}`]);
  assert.ok(importGraph().size > 100, 'the real graph is read');
});
