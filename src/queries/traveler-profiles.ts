import type { StreetMode } from './journey-params.js';
/**
 * Traveller profiles of `traveler_type` (Navitia's): speeds, access limits, modes and
 * accessibility. A profile fills only what the request leaves unset; what neither sets takes the
 * parameter table's fallback (journey-params.ts).
 */

export interface TravelerProfile {
  walking_speed: number;
  bike_speed: number;
  bss_speed: number;
  car_speed: number;
  max_walking_duration_to_pt: number;
  max_bike_duration_to_pt: number;
  max_bss_duration_to_pt: number;
  max_car_duration_to_pt: number;
  first_section_mode: StreetMode[];
  last_section_mode: StreetMode[];
  wheelchair: boolean;
}

const everyday: StreetMode[] = ['walking', 'bss', 'bike'];
const limits = (walk: number, bike: number, bss: number, car: number) => ({
  max_walking_duration_to_pt: walk,
  max_bike_duration_to_pt: bike,
  max_bss_duration_to_pt: bss,
  max_car_duration_to_pt: car,
});

export const TRAVELER_PROFILES: Record<string, TravelerProfile> = {
  standard: { walking_speed: 1.11, bike_speed: 3.33, bss_speed: 3.33, car_speed: 11.11, ...limits(1200, 1200, 1200, 1200), first_section_mode: everyday, last_section_mode: everyday, wheelchair: false },
  slow_walker: { walking_speed: 0.83, bike_speed: 2.77, bss_speed: 2.77, car_speed: 11.11, ...limits(1200, 1200, 1200, 1200), first_section_mode: everyday, last_section_mode: everyday, wheelchair: false },
  fast_walker: { walking_speed: 1.67, bike_speed: 4.16, bss_speed: 4.16, car_speed: 11.11, ...limits(1200, 1200, 1200, 1200), first_section_mode: everyday, last_section_mode: everyday, wheelchair: false },
  luggage: { walking_speed: 1.11, bike_speed: 3.33, bss_speed: 3.33, car_speed: 11.11, ...limits(1200, 1200, 1200, 1200), first_section_mode: ['walking'], last_section_mode: ['walking'], wheelchair: true },
  wheelchair: { walking_speed: 0.83, bike_speed: 3.33, bss_speed: 3.33, car_speed: 11.11, ...limits(720, 720, 720, 720), first_section_mode: ['walking'], last_section_mode: ['walking'], wheelchair: true },
  cyclist: { walking_speed: 1.11, bike_speed: 3.33, bss_speed: 3.33, car_speed: 11.11, ...limits(1200, 1200, 1200, 1200), first_section_mode: everyday, last_section_mode: ['walking', 'bss'], wheelchair: false },
  motorist: { walking_speed: 1.11, bike_speed: 3.33, bss_speed: 3.33, car_speed: 11.11, ...limits(900, 1200, 1200, 2100), first_section_mode: ['walking', 'car'], last_section_mode: ['walking'], wheelchair: false },
};
