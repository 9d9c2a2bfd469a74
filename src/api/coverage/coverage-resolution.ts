/**
 * From the coverage segment of a path (`{region}` or `{lon};{lat}`) to a coverage
 * (docs/api.md, Coverages).
 */
import type { Coverage, CoverageRegistry } from '../../service/coverage-registry.js';
import { DETAILS, noRegionForCoordinates, unknownRegion } from '../errors.js';
import { pyFloat } from '../links.js';

export type CoverageRef = { kind: 'region'; text: string } | { kind: 'coord'; text: string; lon: number; lat: number };

const COORD_SEGMENT = /^(-?\d+(?:\.\d+)?);(-?\d+(?:\.\d+)?)$/;

export function coverageRef(segment: string): CoverageRef {
  const m = COORD_SEGMENT.exec(segment);
  if (!m) return { kind: 'region', text: segment };
  const lon = Number(m[1]);
  const lat = Number(m[2]);
  return { kind: 'coord', text: `${pyFloat(lon)};${pyFloat(lat)}`, lon, lat };
}

export function resolveCoverage(registry: CoverageRegistry, ref: CoverageRef): Coverage {
  if (ref.kind === 'region') {
    const c = registry.get(ref.text);
    if (!c) throw unknownRegion(ref.text).withDetails(DETAILS.unknownCoverage(ref.text));
    return c;
  }
  const c = registry.resolve(ref.lon, ref.lat);
  if (!c) {
    const swapped = registry.resolve(ref.lat, ref.lon);
    const [lon, lat] = [pyFloat(ref.lon), pyFloat(ref.lat)];
    const details = swapped ? DETAILS.pointSwapped(`${lon};${lat}`, `${lat};${lon}`, swapped.id) : DETAILS.pointInNoCoverage(`${lon};${lat}`);
    throw noRegionForCoordinates(lon, lat).withDetails(details);
  }
  return c;
}
