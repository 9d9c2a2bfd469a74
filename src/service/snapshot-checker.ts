/**
 * The checker behind snapshot-schema.ts: rules that say why a value is refused, and the checks of
 * objects, lists and typed arrays that apply them, each failing with a SnapshotError naming the file
 * and the field. Loops over the typed arrays allocate nothing per element.
 */
import { SnapshotError } from '../model/snapshot-file.js';
import { isValidTimeZone } from '../util/time-zones.js';

/** Why a value is refused (completing "<field> …"), or undefined when it is accepted. */
export type Rule = (value: unknown) => string | undefined;

export const isString: Rule = (v) => (typeof v === 'string' ? undefined : 'is not a string');
export const isStringOrNull: Rule = (v) => (v === null || typeof v === 'string' ? undefined : 'is neither a string nor null');
export const isBoolean: Rule = (v) => (typeof v === 'boolean' ? undefined : 'is not a boolean');
export const isArray: Rule = (v) => (Array.isArray(v) ? undefined : 'is not a list');
export const isFiniteNumber: Rule = (v) => (typeof v === 'number' && Number.isFinite(v) ? undefined : 'is not a finite number');
export const isPositiveNumber: Rule = (v) => (typeof v === 'number' && v > 0 && v < Infinity ? undefined : 'is not a finite number above 0');
export const isInteger: Rule = (v) => (Number.isSafeInteger(v) ? undefined : 'is not a whole number');
export const isCount: Rule = (v) => (Number.isSafeInteger(v) && (v as number) >= 0 ? undefined : 'is not a whole number from 0');
export const isTimeZone: Rule = (v) => (typeof v === 'string' && isValidTimeZone(v) ? undefined : 'is not a known time zone');
/** A whole number from lo to hi. */
export const isWithin =
  (lo: number, hi: number): Rule =>
  (v) =>
    Number.isSafeInteger(v) && (v as number) >= lo && (v as number) <= hi ? undefined : `is not a whole number from ${lo} to ${hi}`;
export const isIndexOf =
  (count: number, table: string): Rule =>
  (v) =>
    Number.isSafeInteger(v) && (v as number) >= 0 && (v as number) < count ? undefined : `is not an index of ${table} (${count} of them)`;
// (comparisons are false for NaN: a NaN coordinate is refused too)
export const isLongitude: Rule = (v) => (typeof v === 'number' && v >= -180 && v <= 180 ? undefined : 'is not a longitude');
export const isLatitude: Rule = (v) => (typeof v === 'number' && v >= -90 && v <= 90 ? undefined : 'is not a latitude');

type TypedArray = Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array;

/** The checks, each failing with a SnapshotError that names the file and the field. */
export class Checker {
  constructor(private readonly file: string) {}

  refuse(path: string, why: string): never {
    throw new SnapshotError(`${this.file} is damaged: ${path} ${why}`);
  }

  /** `value` as a whole number from 0 (a count). */
  count(value: unknown, path: string): number {
    return this.value<number>(value, path, isCount);
  }

  /** `value` as a list. */
  list(value: unknown, path: string): unknown[] {
    return this.value<unknown[]>(value, path, isArray);
  }

  /** `value` accepted by `rule`. */
  value<T = unknown>(value: unknown, path: string, rule: Rule): T {
    const why = rule(value);
    if (why !== undefined) this.refuse(path, why);
    return value as T;
  }

  /** `value` as an object with exactly the own fields of `fields` (any other is refused: it is no field of the data). */
  fields<T>(value: unknown, path: string, fields: { [K in keyof T]: unknown }): T {
    if (!isPlainObject(value)) this.refuse(path || 'its tree', 'is not an object');
    let count = 0;
    for (const key in value) {
      if (!Object.hasOwn(fields, key)) this.refuse(fieldPath(path, key), 'is not a field of the data');
      count++;
    }
    if (count !== Object.keys(fields).length) this.missingField(value, path, fields);
    return value as T;
  }

  /** `value` as an object whose fields named in `rules` are accepted by them (others are left alone). */
  someFields<T>(value: unknown, path: string, rules: { [K in keyof T]: Rule }): T {
    if (!isPlainObject(value)) this.refuse(path, 'is not an object');
    for (const key in rules) {
      if (!Object.hasOwn(value, key)) this.refuse(`${path}.${key}`, 'is missing');
      const why = rules[key](value[key]);
      if (why !== undefined) this.refuse(`${path}.${key}`, why);
    }
    return value as T;
  }

  /** `value` as an object with exactly the fields of `rules`, each accepted by its rule. */
  record<T>(value: unknown, path: string, rules: { [K in keyof T]: Rule }): T {
    this.recordAt(value, path, -1, rules as Record<string, Rule>, Object.keys(rules).length);
    return value as T;
  }

  /** `value` as a list of records (see `record`). */
  records<T>(value: unknown, path: string, rules: { [K in keyof T]: Rule }): T[] {
    if (!Array.isArray(value)) this.refuse(path, 'is not a list');
    const fieldCount = Object.keys(rules).length;
    for (let i = 0; i < value.length; i++) this.recordAt(value[i], path, i, rules as Record<string, Rule>, fieldCount);
    return value as T[];
  }

  /** Item `index` of the list at `path` (or the object at `path` for -1); its path is written only to refuse it. */
  private recordAt(item: unknown, path: string, index: number, rules: Record<string, Rule>, fieldCount: number): void {
    if (!isPlainObject(item)) this.refuse(itemPath(path, index), 'is not an object');
    let count = 0;
    for (const key in item) {
      if (!Object.hasOwn(rules, key)) this.refuse(`${itemPath(path, index)}.${key}`, 'is not a field of the data');
      const why = rules[key]!(item[key]);
      if (why !== undefined) this.refuse(`${itemPath(path, index)}.${key}`, why);
      count++;
    }
    if (count !== fieldCount) this.missingField(item, itemPath(path, index), rules);
  }

  private missingField(value: Record<string, unknown>, path: string, fields: object): never {
    const missing = Object.keys(fields).find((key) => !Object.hasOwn(value, key))!;
    this.refuse(fieldPath(path, missing), 'is missing');
  }

  /** `value` as an object of named finite numbers (any names). */
  numbers(value: unknown, path: string): void {
    if (!isPlainObject(value)) this.refuse(path, 'is not an object');
    for (const key in value) this.value(value[key], `${path}.${key}`, isFiniteNumber);
  }

  /** `value` as a list of strings, of `length` when given. */
  strings(value: unknown, path: string, length?: number): string[] {
    if (!Array.isArray(value)) this.refuse(path, 'is not a list');
    if (length !== undefined && value.length !== length) this.refuse(path, `holds ${value.length} strings, not ${length}`);
    for (let i = 0; i < value.length; i++) if (typeof value[i] !== 'string') this.refuse(`${path}[${i}]`, 'is not a string');
    return value as string[];
  }

  /** Time zones the runtime knows, each named once (the searches size their memory by their count). */
  distinctTimeZones(zones: string[], path: string): void {
    const seen = new Set<string>();
    for (let i = 0; i < zones.length; i++) {
      this.value(zones[i], `${path}[${i}]`, isTimeZone);
      if (seen.has(zones[i]!)) this.refuse(`${path}[${i}]`, `names ${zones[i]} a second time`);
      seen.add(zones[i]!);
    }
  }

  /** `value` as a typed array of exactly `Kind` (not another kind of the same size), of `length` when given. */
  typed<T extends TypedArray>(value: unknown, Kind: { readonly prototype: T; readonly name: string }, path: string, length?: number): T {
    if (!ArrayBuffer.isView(value) || Object.getPrototypeOf(value) !== Kind.prototype) this.refuse(path, `is ${describe(value)}, not ${withArticle(Kind.name)}`);
    const array = value as T;
    if (length !== undefined && array.length !== length) this.refuse(path, `holds ${array.length} values, not ${length}`);
    return array;
  }

  /** Counts written as a number are the counts of the data they describe. */
  same(value: unknown, path: string, expected: number, what: string): void {
    if (value !== expected) this.refuse(path, `is ${describe(value)}, not the ${expected} of ${what}`);
  }

  /** Every value an index of a table of `count` items (unsigned kinds: from 0 already). */
  below(array: Uint8Array | Uint16Array | Uint32Array, path: string, count: number, table: string): void {
    for (let i = 0; i < array.length; i++) if (array[i]! >= count) this.refuse(`${path}[${i}]`, `is ${array[i]}, not an index of ${table} (${count} of them)`);
  }

  /** Every value from `lo` to below `count` (lo = -1: an index, or -1 for none). */
  between(array: Int32Array, path: string, lo: number, count: number, table: string): void {
    for (let i = 0; i < array.length; i++) {
      const v = array[i]!;
      if (v < lo || v >= count) this.refuse(`${path}[${i}]`, `is ${v}, not ${lo < 0 ? 'none (-1) nor ' : ''}an index of ${table} (${count} of them)`);
    }
  }

  /** Every value a finite number. */
  finite<T extends Float32Array | Float64Array>(array: T, path: string): T {
    // (v - v is 0 for a finite v, NaN for NaN and the infinities: one subtraction, no call)
    for (let i = 0; i < array.length; i++) if (array[i]! - array[i]! !== 0) this.refuse(`${path}[${i}]`, `is ${array[i]}, not a finite number`);
    return array;
  }

  /** Longitudes and latitudes (Float64Arrays) of `count` points, on the globe. */
  coordinates(lon: unknown, lat: unknown, lonPath: string, latPath: string, count: number): void {
    const lons = this.typed(lon, Float64Array, lonPath, count);
    const lats = this.typed(lat, Float64Array, latPath, count);
    // (comparisons are false for NaN: a NaN coordinate is refused too)
    for (let i = 0; i < count; i++) {
      if (!(lons[i]! >= -180 && lons[i]! <= 180)) this.refuse(`${lonPath}[${i}]`, `is ${lons[i]}, not a longitude`);
      if (!(lats[i]! >= -90 && lats[i]! <= 90)) this.refuse(`${latPath}[${i}]`, `is ${lats[i]}, not a latitude`);
    }
  }

  /**
   * Offsets cutting `items` items into `groups` groups: group g is [offsets[g], offsets[g+1]). One
   * more offset than groups, from 0, never decreasing, ending at the items' count.
   */
  offsets<T extends Uint32Array | Int32Array>(offsets: T, path: string, groups: number, items: number): T {
    if (offsets.length !== groups + 1) this.refuse(path, `holds ${offsets.length} offsets, not one more than the ${groups} it cuts`);
    if (offsets[0] !== 0) this.refuse(`${path}[0]`, `is ${offsets[0]}, not 0`);
    for (let g = 0; g < groups; g++) if (offsets[g + 1]! < offsets[g]!) this.refuse(`${path}[${g + 1}]`, `is ${offsets[g + 1]}, below the offset before it (${offsets[g]})`);
    if (offsets[groups] !== items) this.refuse(`${path}[${groups}]`, `is ${offsets[groups]}, not the end of the ${items} items it cuts`);
    return offsets;
  }

  /** A map from strings to ascending trips (what the headsign and code lookups read). */
  tripIndex(value: unknown, path: string, tripCount: number): void {
    if (!(value instanceof Map)) this.refuse(path, 'is not a map');
    value.forEach((trips: unknown, key: unknown) => {
      if (typeof key !== 'string') this.refuse(path, `has a key that is not a string (${describe(key)})`);
      const list = this.typed(trips, Uint32Array, `${path}{${key}}`);
      for (let i = 0; i < list.length; i++) {
        if (list[i]! >= tripCount) this.refuse(`${path}{${key}}[${i}]`, `is ${list[i]}, not an index of tt.trips (${tripCount} of them)`);
        if (i > 0 && list[i]! < list[i - 1]!) this.refuse(`${path}{${key}}[${i}]`, 'is below the trip before it (the trips are listed in ascending order)');
      }
    });
  }
}

/**
 * A value as a refusal names it: a number or a short string as it is, anything else by its kind
 * (never through its own toString, which a crafted object may have replaced by a number).
 */
export function describe(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined) return String(value);
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (Array.isArray(value)) return 'a list';
  if (ArrayBuffer.isView(value)) return withArticle(Object.getPrototypeOf(value).constructor.name);
  return value instanceof Map ? 'a map' : withArticle(typeof value);
}

/** "an Int32Array", "a Uint32Array", "an object". */
function withArticle(name: string): string {
  return `${/^[AEIOaeio]/.test(name) ? 'an' : 'a'} ${name}`;
}

function fieldPath(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

function itemPath(path: string, index: number): string {
  return index < 0 ? path : `${path}[${index}]`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || ArrayBuffer.isView(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
