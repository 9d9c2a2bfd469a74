/** The place object a map's answer shows for its centre (a coordinate as an address on its nearest street). */
import { nearestSegment, projectX, projectY, scaleAt } from '../../model/street-graph.js';
import { ANY_ACCESS } from '../../model/street-layers.js';
import type { Generation } from '../../service/generation.js';
import type { Centre } from '../../queries/map-centre.js';

/** How far a coordinate looks for the street that names it, metres. */
const STREET_NAME_RADIUS_M = 500;

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
  const y = projectY(graph.projection, lat);
  const s = nearestSegment(graph, projectX(graph.projection, lon), y, STREET_NAME_RADIUS_M * scaleAt(graph.projection, y), ANY_ACCESS);
  if (s < 0) return '';
  const name = graph.edgeName[graph.segmentEdge[s]!]!;
  return name >= 0 ? streets.names[name]! : '';
}

