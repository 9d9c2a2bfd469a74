/**
 * Who may use an OpenStreetMap way, and in which direction: the walk, bike and car layers of the
 * street graph, from the highway class and the access tags.
 *
 * The result is a bit set per way (model/street-layers.ts): for each layer, "along the way's node
 * order" (forward) and "against it" (backward), plus NO_PARKING where a car cannot be left (motorways).
 */
import { BIKE_BACKWARD, BIKE_FORWARD, CAR_BACKWARD, CAR_FORWARD, Layer, layerBits, NO_PARKING, WALK_BACKWARD, WALK_FORWARD } from '../model/street-layers.js';
type Default = { walk: boolean; bike: boolean; car: boolean };

/** Default access per highway value; absent values are not part of any layer. */
const HIGHWAY_DEFAULTS: Record<string, Default> = {
  motorway: { walk: false, bike: false, car: true },
  motorway_link: { walk: false, bike: false, car: true },
  trunk: { walk: true, bike: true, car: true },
  trunk_link: { walk: true, bike: true, car: true },
  primary: { walk: true, bike: true, car: true },
  primary_link: { walk: true, bike: true, car: true },
  secondary: { walk: true, bike: true, car: true },
  secondary_link: { walk: true, bike: true, car: true },
  tertiary: { walk: true, bike: true, car: true },
  tertiary_link: { walk: true, bike: true, car: true },
  unclassified: { walk: true, bike: true, car: true },
  residential: { walk: true, bike: true, car: true },
  living_street: { walk: true, bike: true, car: true },
  road: { walk: true, bike: true, car: true },
  service: { walk: true, bike: true, car: true },
  track: { walk: true, bike: true, car: false },
  pedestrian: { walk: true, bike: false, car: false },
  footway: { walk: true, bike: false, car: false },
  steps: { walk: true, bike: false, car: false },
  corridor: { walk: true, bike: false, car: false },
  platform: { walk: true, bike: false, car: false },
  elevator: { walk: true, bike: false, car: false },
  bridleway: { walk: true, bike: false, car: false },
  path: { walk: true, bike: true, car: false },
  cycleway: { walk: true, bike: true, car: false },
};

const ALLOW = new Set(['yes', 'designated', 'permissive', 'destination', 'customers', 'delivery', 'official', 'use_sidepath']);
const DENY = new Set(['no', 'private', 'agricultural', 'forestry', 'discouraged', 'dismount']);

/** The most specific access tag present among `keys` decides; otherwise `fallback`. */
function decide(tags: Record<string, string>, keys: readonly string[], fallback: boolean, dismountWalks = false): boolean {
  for (const key of keys) {
    const v = tags[key];
    if (v === undefined) continue;
    if (dismountWalks && v === 'dismount') return false;
    if (ALLOW.has(v)) return true;
    if (DENY.has(v)) return false;
  }
  return fallback;
}

/** -1: against the node order only, 1: along it only, 0: both ways. */
function onewayOf(value: string | undefined, implied: boolean): -1 | 0 | 1 {
  if (value === 'yes' || value === '1' || value === 'true') return 1;
  if (value === '-1' || value === 'reverse') return -1;
  if (value === 'no' || value === '0' || value === 'false') return 0;
  return implied ? 1 : 0;
}

function directionBits(allowed: boolean, oneway: -1 | 0 | 1, forward: number, backward: number): number {
  if (!allowed) return 0;
  if (oneway === 1) return forward;
  if (oneway === -1) return backward;
  return forward | backward;
}

/** The layer bits of a way from its tags; 0 when no layer may use it. */
export function wayAccess(tags: Record<string, string>): number {
  const highway = tags['highway'];
  if (highway === undefined) return 0;
  const defaults = HIGHWAY_DEFAULTS[highway];
  if (!defaults) return 0;
  // A motor road (motorroad=yes: a Kraftfahrstraße, a voie express) bars walkers and cyclists by
  // law whatever its class; only a tag of their own lets them on (the generic access=yes does not).
  // (use_sidepath there sends them to the path beside it)
  const motorRoad = tags['motorroad'] === 'yes';
  const ownTagLetsOn = (key: string) => tags[key] !== 'use_sidepath' && decide(tags, [key], false);
  const walk = motorRoad ? ownTagLetsOn('foot') : decide(tags, ['foot', 'access'], defaults.walk);
  const bike = motorRoad ? ownTagLetsOn('bicycle') : decide(tags, ['bicycle', 'vehicle', 'access'], defaults.bike);
  const car = decide(tags, ['motorcar', 'motor_vehicle', 'vehicle', 'access'], defaults.car);

  const implied = tags['junction'] === 'roundabout' || tags['junction'] === 'circular' || highway === 'motorway';
  const vehicleOneway = onewayOf(tags['oneway'], implied);
  let bikeOneway = vehicleOneway;
  const bikeTag = tags['oneway:bicycle'];
  if (bikeTag !== undefined) bikeOneway = onewayOf(bikeTag, false);
  else if (/^opposite/.test(tags['cycleway'] ?? '') || /^opposite/.test(tags['cycleway:left'] ?? '') || /^opposite/.test(tags['cycleway:right'] ?? '')) bikeOneway = 0;
  const footOneway = onewayOf(tags['oneway:foot'], false);

  let bits =
    directionBits(walk, footOneway, WALK_FORWARD, WALK_BACKWARD) |
    directionBits(bike, bikeOneway, BIKE_FORWARD, BIKE_BACKWARD) |
    directionBits(car, vehicleOneway, CAR_FORWARD, CAR_BACKWARD);
  if (highway === 'motorway' || highway === 'motorway_link') bits |= NO_PARKING;
  return bits;
}

/**
 * The layers that a way's own `foot=no` or `bicycle=no` alone keeps off it: its highway class lets
 * them on, and it is not a motor road (`motorroad=yes`, where walkers and cyclists are barred by
 * law). `osm/false-islands.ts` opens such a way to them where it alone joins their network.
 */
export function deniedByOwnTag(tags: Record<string, string>): number {
  const defaults = HIGHWAY_DEFAULTS[tags['highway'] ?? ''];
  if (!defaults || tags['motorroad'] === 'yes') return 0;
  let bits = 0;
  if (defaults.walk && tags['foot'] === 'no') bits |= layerBits(Layer.Walk);
  if (defaults.bike && tags['bicycle'] === 'no') bits |= layerBits(Layer.Bike);
  return bits;
}
