/**
 * The centre of a map: what `from` or `to` names (a stop point, a stop area, a coordinate), and the
 * place object the answer shows for it (a coordinate as an address on its nearest street).
 */
import { nearestSegment, projectX, projectY } from '../../model/street-graph.js';
import { ANY_ACCESS } from '../../model/street-layers.js';
import type { Generation } from '../../service/generation.js';

/** How far a coordinate looks for the street that names it, metres. */
const STREET_NAME_RADIUS_M = 500;

export type Centre =
  | { kind: 'coord'; lon: number; lat: number }
  | { kind: 'stop_area'; index: number; lon: number; lat: number }
  | { kind: 'stop_point'; index: number; lon: number; lat: number }
  /** `outOfRange`: a coordinate past ±180, ±90; else an id of a type maps do not take, or of none */
  | { kind: 'invalid'; outOfRange?: true }
  | { kind: 'unknown' };

const NUMBER = '(-?\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?)';
const LON_LAT = new RegExp(`^${NUMBER};${NUMBER}$`);
const COORD = new RegExp(`^coord:${NUMBER}:${NUMBER}$`);

export function resolveCentre(g: Generation, id: string): Centre {
  const m = LON_LAT.exec(id) ?? COORD.exec(id);
  if (m) {
    const lon = Number(m[1]);
    const lat = Number(m[2]);
    if (Math.abs(lon) > 180 || Math.abs(lat) > 90) return { kind: 'invalid', outOfRange: true };
    return { kind: 'coord', lon, lat };
  }
  const tt = g.tt;
  const sp = g.ref.indexOf('stop_point', id);
  if (sp >= 0) return { kind: 'stop_point', index: sp, lon: tt.stopPoints.lon[sp]!, lat: tt.stopPoints.lat[sp]! };
  const sa = g.ref.indexOf('stop_area', id);
  if (sa >= 0) return { kind: 'stop_area', index: sa, lon: tt.stopAreas[sa]!.lon, lat: tt.stopAreas[sa]!.lat };
  if (/^(coord|stop_area|stop_point|address|admin):/.test(id)) return { kind: 'invalid' };
  return { kind: 'unknown' };
}

const coordJson = (lon: number, lat: number) => ({ lon: String(lon), lat: String(lat) });

export function placeJson(g: Generation, centre: Centre): string {
  const tt = g.tt;
  const areaObject = (a: number) => {
    const area = tt.stopAreas[a]!;
    return { id: area.id, name: area.name, label: area.name, coord: coordJson(area.lon, area.lat), timezone: tt.timezone, links: [] };
  };
  switch (centre.kind) {
    case 'stop_area': {
      const area = areaObject(centre.index);
      return JSON.stringify({ id: area.id, name: area.name, quality: 0, embedded_type: 'stop_area', stop_area: area });
    }
    case 'stop_point': {
      const s = centre.index;
      const point = {
        id: tt.stopPoints.ids[s]!,
        name: tt.stopPoints.names[s]!,
        label: tt.stopPoints.names[s]!,
        coord: coordJson(tt.stopPoints.lon[s]!, tt.stopPoints.lat[s]!),
        links: [],
        stop_area: areaObject(tt.stopPoints.area[s]!),
      };
      return JSON.stringify({ id: point.id, name: point.name, quality: 0, embedded_type: 'stop_point', stop_point: point });
    }
    default: {
      const c = centre as { lon: number; lat: number };
      const id = `${c.lon};${c.lat}`;
      const street = streetNameNear(g, c.lon, c.lat);
      const address = { id, name: street, label: street, coord: coordJson(c.lon, c.lat), house_number: 0 };
      return JSON.stringify({ id, name: street, quality: 0, embedded_type: 'address', address });
    }
  }
}

/** Name of the street nearest to a coordinate (within STREET_NAME_RADIUS_M), or "". */
function streetNameNear(g: Generation, lon: number, lat: number): string {
  const streets = g.streets;
  if (!streets) return '';
  const graph = streets.data.graph;
  const s = nearestSegment(graph, projectX(graph.projection, lon), projectY(graph.projection, lat), STREET_NAME_RADIUS_M, ANY_ACCESS);
  if (s < 0) return '';
  const name = graph.edgeName[graph.segmentEdge[s]!]!;
  return name >= 0 ? streets.names[name]! : '';
}

