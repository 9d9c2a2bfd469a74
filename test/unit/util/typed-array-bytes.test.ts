/** What a cache's arrays weigh (util/typed-array-bytes.ts): each buffer once, the data and shared memory left out. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reachable, typedArrayBytes } from '../../../src/util/typed-array-bytes.js';

test('each buffer is counted once, however many views and paths reach it, through fields, arrays and maps', () => {
  const buffer = new ArrayBuffer(64);
  const scratch = { a: new Int32Array(buffer), b: new Uint8Array(buffer, 8, 8), list: [new Float64Array(4)], byKey: new Map([['k', { x: new Uint32Array(10) }]]) };
  assert.equal(typedArrayBytes({ scratch, again: scratch }), 64 + 32 + 40);
});

test('what the data holds is not counted, nor shared memory unless asked', () => {
  const data = { graph: { edges: new Int32Array(1000) } };
  const engine = { data, graph: data.graph, scratch: new Float64Array(10), shared: new Int32Array(new SharedArrayBuffer(400)) };
  assert.equal(typedArrayBytes(engine, reachable(data)), 80);
  assert.equal(typedArrayBytes(engine, reachable(data), true), 480);
  assert.equal(typedArrayBytes(engine), 4000 + 80);
});
