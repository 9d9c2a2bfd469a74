/** The centre of a map: what `from` or `to` names (a stop point, a stop area, a coordinate). */
import type { Generation } from '../service/generation.js';

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
