/**
 * A disruption as the server holds it, whatever its source (the disruptions file or a GTFS-Realtime
 * ServiceAlert): one impact, its periods as instants, its impacted objects as referential indexes.
 */
import { ALERT_EFFECTS, type AlertEffect } from '../realtime/gtfs-rt.js';


/**
 * Effects of Navitia's severities: GTFS-Realtime's, but for the two its later revision added
 * (NO_EFFECT, ACCESSIBILITY_ISSUE; an alert with one of them reads as OTHER_EFFECT, alerts.ts).
 */
export const EFFECTS = ALERT_EFFECTS.slice(0, ALERT_EFFECTS.indexOf('NO_EFFECT')) as readonly Exclude<AlertEffect, 'NO_EFFECT' | 'ACCESSIBILITY_ISSUE'>[];
export type Effect = (typeof EFFECTS)[number];

/** Object types a disruption may impact. */
export const IMPACTED_TYPES = ['network', 'line', 'route', 'trip', 'stop_area', 'stop_point'] as const;
export type ImpactedType = (typeof IMPACTED_TYPES)[number];

export interface ImpactedObject {
  type: ImpactedType;
  /** index of the object in the referential */
  index: number;
}

/** Epoch seconds, both inclusive; an open bound is -Infinity or Infinity. */
export interface Period {
  begin: number;
  end: number;
}

export interface Channel {
  id: string;
  name: string;
  content_type: string;
  types: string[];
}

export interface Message {
  text: string;
  channel: Channel;
}

export interface Disruption {
  id: string;
  /** where it comes from: 'file' or 'gtfs-rt' */
  source: 'file' | 'gtfs-rt';
  tags: string[];
  cause: string;
  category: string;
  severity: { name: string; effect: Effect; color: string; priority: number };
  /** never empty; "always" is one open period */
  periods: Period[];
  messages: Message[];
  impacted: ImpactedObject[];
  /** epoch seconds, undefined when unknown */
  updatedAtSec: number | undefined;
}

export const ALWAYS: Period = { begin: -Infinity, end: Infinity };

export type DisruptionStatus = 'past' | 'active' | 'future';

/** Active when `atSec` is inside a period, future when every period begins after it, else past. */
export function statusAt(d: Disruption, atSec: number): DisruptionStatus {
  let allAfter = true;
  for (const p of d.periods) {
    if (p.begin <= atSec && atSec <= p.end) return 'active';
    if (p.begin <= atSec) allAfter = false;
  }
  return allAfter ? 'future' : 'past';
}
