/**
 * A point set (R5's word): places, each with a position and counts of opportunities (people, jobs,
 * schools…), the destinations whose reach an accessibility figure sums. Held column-wise, one typed
 * array per column, point i being the i-th entry of each. `analysis/point-set-reader.ts` reads them
 * from CSV or GeoJSON files.
 */

/** One kind of opportunity: its count at each point, and the sum of those counts. */
export interface OpportunityColumn {
  name: string;
  values: Float64Array;
  total: number;
}

export interface PointSetData {
  name: string;
  /** The file it was read from, as the source named it. */
  file: string;
  ids: string[];
  /** WGS84 degrees. */
  lon: Float64Array;
  lat: Float64Array;
  columns: OpportunityColumn[];
}

/** Where a point set is read from, and which of the file's columns mean what. */
export interface PointSetSource {
  name: string;
  /** A `.csv`, `.geojson` or `.json` file. */
  file: string;
  /** The column (CSV) or property (GeoJSON) holding the point's id; `id` when not given. */
  idColumn?: string;
  /** The CSV columns holding the position; `lon` and `lat` when not given (GeoJSON: the Point's coordinates). */
  lonColumn?: string;
  latColumn?: string;
  /** The opportunity columns to keep; every other numeric column when not given. */
  opportunities?: string[];
}
