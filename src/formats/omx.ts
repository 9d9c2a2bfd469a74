/**
 * Open Matrix (OMX 0.2, HDF5) written by h5wasm: the root's attributes `OMX_VERSION` ("0.2") and
 * `SHAPE` (zones × zones, int32), one dataset per matrix under `/data`, the zones' ids under
 * `/lookup`. The matrices are float32 with NaN where there is no value (an unreached pair): whole
 * seconds are exact in float32 up to 2^24 (194 days), at half the bytes of float64, and NaN is what
 * OMX's readers (openmatrix, TransCAD, Emme's importers) take for "no value".
 *
 * Rows are written as they come, a few at a time (OMX_ROWS_PER_WRITE) into chunks of as many rows:
 * memory holds those rows, not the matrices.
 */
// h5wasm (a WebAssembly HDF5) is loaded by the first OMX written, not by every command: its start costs tens of milliseconds

export const OMX_VERSION = '0.2';
/** Rows of each matrix gathered before one write into the file (and the chunks' height). */
const OMX_ROWS_PER_WRITE = 64;
/** The matrices' deflate level: 1 keeps the write within seconds for a city and halves the file. */
const OMX_DEFLATE_LEVEL = 1;

export interface OmxWriter {
  /** Row `row` of matrix `matrix` (its index in the names given): one value per zone, NaN for none. */
  writeRow(matrix: number, row: number, values: Float32Array): void;
  close(): void;
}

/** Create the OMX file `path` of square matrices over `zones` (whose ids become `/lookup/<lookupName>`). */
export async function createOmx(path: string, zones: readonly string[], lookupName: string, matrices: readonly string[]): Promise<OmxWriter> {
  const h5wasm = (await import('h5wasm/node')).default;
  const { File } = await h5wasm.ready.then(() => h5wasm);
  const n = zones.length;
  const file = new File(path, 'w');
  file.create_attribute('OMX_VERSION', OMX_VERSION);
  file.create_attribute('SHAPE', new Int32Array([n, n]), [2], '<i');
  file.create_group('data');
  file.create_group('lookup');
  file.create_dataset({ name: `lookup/${lookupName}`, data: [...zones] });
  const chunkRows = Math.max(1, Math.min(OMX_ROWS_PER_WRITE, n));
  const datasets = matrices.map((name) => {
    // created empty and grown to its size: h5wasm would otherwise want every value at once
    const dataset = file.create_dataset({ name: `data/${name}`, data: new Float32Array(0), shape: [0, n], maxshape: [null, n], chunks: [chunkRows, Math.max(1, n)], dtype: '<f', compression: OMX_DEFLATE_LEVEL });
    dataset.resize([n, n]);
    return dataset;
  });
  // per matrix, the rows gathered and where they start
  const pending = matrices.map(() => ({ first: -1, count: 0, values: new Float32Array(chunkRows * n) }));
  const flush = (m: number) => {
    const rows = pending[m]!;
    if (rows.count === 0) return;
    datasets[m]!.write_slice([[rows.first, rows.first + rows.count], [0, n]], rows.values.subarray(0, rows.count * n));
    rows.count = 0;
  };
  return {
    writeRow(matrix, row, values) {
      const rows = pending[matrix]!;
      // rows come in order; a gap (another slice's rows) starts a new write
      if (rows.count > 0 && (row !== rows.first + rows.count || rows.count === chunkRows)) flush(matrix);
      if (rows.count === 0) rows.first = row;
      rows.values.set(values, rows.count * n);
      rows.count++;
    },
    close() {
      matrices.forEach((_, m) => flush(m));
      file.close();
    },
  };
}
