/**
 * GTFS route_type (basic 0-12 and the extended 100-1700 values) to Navitia physical and commercial
 * modes. Ids follow Navitia's usual form: `physical_mode:Bus`, `commercial_mode:Bus`.
 */
export interface ModeOfRouteType {
  key: string;
  name: string;
}

const BASIC: Record<number, ModeOfRouteType> = {
  0: { key: 'Tramway', name: 'Tramway' },
  1: { key: 'Metro', name: 'Métro' },
  2: { key: 'Train', name: 'Train' },
  3: { key: 'Bus', name: 'Bus' },
  4: { key: 'Ferry', name: 'Ferry' },
  5: { key: 'Tramway', name: 'Tramway' }, // cable tram
  6: { key: 'SuspendedCableCar', name: 'Suspended cable car' },
  7: { key: 'Funicular', name: 'Funicular' },
  11: { key: 'Bus', name: 'Bus' }, // trolleybus
  12: { key: 'Train', name: 'Train' }, // monorail
};

/** Extended types by hundreds (Google's extended route types). */
const EXTENDED: Record<number, ModeOfRouteType> = {
  1: { key: 'Train', name: 'Train' }, // 100 railway
  2: { key: 'Coach', name: 'Coach' },
  3: { key: 'Train', name: 'Train' }, // 300 suburban railway
  4: { key: 'RapidTransit', name: 'Rapid transit' }, // 400 urban railway
  5: { key: 'Metro', name: 'Métro' },
  6: { key: 'Metro', name: 'Métro' }, // underground
  7: { key: 'Bus', name: 'Bus' },
  8: { key: 'Bus', name: 'Bus' }, // trolleybus
  9: { key: 'Tramway', name: 'Tramway' },
  10: { key: 'Ferry', name: 'Ferry' },
  11: { key: 'Air', name: 'Air' },
  12: { key: 'Ferry', name: 'Ferry' },
  13: { key: 'SuspendedCableCar', name: 'Suspended cable car' },
  14: { key: 'Funicular', name: 'Funicular' },
  15: { key: 'Taxi', name: 'Taxi' },
  16: { key: 'Other', name: 'Other' },
  17: { key: 'Other', name: 'Other' },
};

/** The mode of a route_type, or undefined when the value is not a known GTFS route type. */
export function modeOfRouteType(routeType: number): ModeOfRouteType | undefined {
  if (routeType < 100) return BASIC[routeType];
  return EXTENDED[Math.floor(routeType / 100)];
}
