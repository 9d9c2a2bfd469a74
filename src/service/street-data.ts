/**
 * The heat-map side of a generation: the street graph from the coverage's OpenStreetMap extract,
 * the stops snapped on it, the walking footpaths between stops, and the transit search data, all on
 * shared memory for the worker threads.
 */
import { workerAnswer } from '../util/worker-answer.js';
import { ServiceDays } from '../model/service-days.js';
import { sharedCopy } from '../model/shared-arrays.js';
import type { Timetable } from '../model/timetable.js';
import type { HeatMapData } from '../routing/heat-map.js';
import { buildRaptorDataInTurns } from '../routing/raptor-data.js';
import { DEFAULT_WALKING_SPEED, pruneTransfersSteps, routeGaps } from '../routing/transfer-pruning.js';
import { inSlices } from '../util/stepwise.js';
import type { LoadReport } from '../gtfs/load-report.js';
import type { StreetNetwork } from './street-network-build.js';
import type { PointSetSource } from '../model/point-set.js';
import { loadPointSets, type PointSetInfo } from './point-sets.js';

export { TRANSFER_HORIZON_M } from './street-network-build.js';

let streetDataCounter = 0;

export interface StreetData {
  /** Identifies this data across generations that share it (realtime updates do): engines are kept per id. */
  id: number;
  data: HeatMapData;
  /** street names, by `graph.edgeName` */
  names: string[];
  stats: Record<string, number>;
  /** the point sets' ids and totals, in the order of `data.pointSets` */
  pointSets: PointSetInfo[];
}

/**
 * The street data of a coverage: its street network built in a worker thread (two seconds for a
 * city, which would otherwise hold every coverage's requests during a reload), then the transit
 * search data on this thread, a step at a time.
 */
export async function buildStreetData(tt: Timetable, osmPath: string, pointSetConfigs: readonly PointSetSource[], report: LoadReport): Promise<StreetData> {
  const network = await streetNetworkInWorker(osmPath, tt.stopPoints.lon, tt.stopPoints.lat);
  for (const note of network.notes) report.note(note);
  const pointSets = await loadPointSets(pointSetConfigs, network.graph, report);
  const raptor = await buildRaptorDataInTurns(tt, network.footpaths);
  const prunedTransfers = await inSlices(pruneTransfersSteps(raptor, routeGaps(raptor), DEFAULT_WALKING_SPEED));
  const days = new ServiceDays(tt);
  const data: HeatMapData = {
    graph: network.graph,
    snaps: network.snaps,
    raptor,
    prunedTransfers,
    serviceDayOrigins: days.originSec.map((o) => sharedCopy(Float64Array, o)),
    serviceFirstDay: days.firstDay,
    stopLon: sharedCopy(Float64Array, tt.stopPoints.lon),
    stopLat: sharedCopy(Float64Array, tt.stopPoints.lat),
    pointSets: pointSets.linked,
  };
  return withStreetDataId({ data, names: network.names, stats: network.stats, pointSets: pointSets.info });
}

/** `buildStreetNetwork` in a worker thread (street-network-worker.ts); its errors keep their name and message. */
async function streetNetworkInWorker(osmPath: string, stopLon: Float64Array, stopLat: Float64Array): Promise<StreetNetwork> {
  const answer = await workerAnswer<{ network?: StreetNetwork; error?: { name: string; message: string } }>(new URL('./street-network-worker.js', import.meta.url), {
    osmPath,
    stopLon,
    stopLat,
  });
  if (answer.network) return answer.network;
  const error = new Error(answer.error?.message ?? `${osmPath}: the street network could not be built`);
  error.name = answer.error?.name ?? 'Error';
  throw error;
}

/** Street data under a new id (built, or read from a snapshot). */
export function withStreetDataId(parts: Omit<StreetData, 'id'>): StreetData {
  return { id: ++streetDataCounter, ...parts };
}
