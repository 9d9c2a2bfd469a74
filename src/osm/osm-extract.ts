/**
 * What the OpenStreetMap readers hand to the street-graph builder: the ways that carry a `highway`
 * tag (with the few tags the graph needs) and the nodes they use, on dense integer indexes.
 *
 * The readers push elements in file order; `finish()` resolves way references whatever that order
 * (extracts are not always sorted by id) through the nodes' table (osm-nodes.ts): every node read, or,
 * for a reader that reads the ways first (`startNodePass`), only the nodes they name. A reference to a node missing from the extract (a way cut at its edge) splits the way
 * into the runs on either side; runs of fewer than two nodes are dropped.
 */
import { Growable } from '../model/growable.js';
import { AllNodes, NeededNodes, type NodeTable } from './osm-nodes.js';
import { BasemapDraft, BasemapKind, basemapKindOf, type OsmBasemap } from './basemap-draft.js';

/** Way tags kept for the street graph. */
export const KEPT_WAY_TAGS = [
  'highway',
  'name',
  'foot',
  'bicycle',
  'motor_vehicle',
  'motorcar',
  'vehicle',
  'access',
  'motorroad',
  'oneway',
  'oneway:bicycle',
  'oneway:foot',
  'junction',
  'area',
  'sidewalk',
  'cycleway',
  'cycleway:left',
  'cycleway:right',
  'maxspeed',
  'service',
  'footway',
  'bridge',
  'tunnel',
  'layer',
] as const;

export interface OsmStats {
  nodesRead: number;
  waysRead: number;
  relationsRead: number;
  /** kept ways (after splitting at missing nodes) */
  waysKept: number;
  /** references, in any way, to nodes absent from the extract (ways cut at its edge) */
  missingNodeRefs: number;
  /** runs of a kept way left with fewer than two known nodes */
  waysDroppedTooShort: number;
  /** highway ways whose id came again (the first one is kept) */
  duplicateWays: number;
  bbox: [number, number, number, number] | null;
}

export interface OsmExtract {
  nodeCount: number;
  nodeIds: Float64Array;
  lon: Float64Array;
  lat: Float64Array;
  wayCount: number;
  wayIds: Float64Array;
  /** nodes of way w: wayNodes[wayNodeOffset[w] .. wayNodeOffset[w+1]) */
  wayNodeOffset: Uint32Array;
  wayNodes: Uint32Array;
  /**
   * The kept tags of way w but its name: tagSets[wayTagSet[w]] (ways share a few thousand such sets
   * where a country has tens of millions of ways: one object per way filled the JavaScript heap)
   */
  wayTagSet: Uint32Array;
  tagSets: ReadonlyArray<Readonly<Record<string, string>>>;
  /** the name of way w: names[wayName[w]], -1 for none */
  wayName: Int32Array;
  names: readonly string[];
  stats: OsmStats;
  /** water, parks, railways and places (basemap-draft.ts), when the reading asked for them */
  basemap?: OsmBasemap;
}

/** A way member of a relation: its id and role (`outer`, `inner`, or empty). */
export interface RelationMember {
  ref: number;
  role: string;
}

/** What a reading keeps: the streets (the highway ways), the basemap, or both. */
export interface OsmReadOptions {
  /** keep the highway ways (default true) */
  streets?: boolean;
  /** keep the basemap's ways and places (default false) */
  basemap?: boolean;
}

export class OsmExtractBuilder {
  private nodes: AllNodes | NeededNodes = new AllNodes();
  private readonly wayId = new Growable(Float64Array, 1 << 12);
  private readonly wayRefStart = new Growable(Uint32Array, 1 << 12);
  private readonly wayRefs = new Growable(Float64Array, 1 << 16);
  private readonly wayTagSet = new Growable(Uint32Array, 1 << 12);
  private readonly wayName = new Growable(Int32Array, 1 << 12);
  private readonly tags = new WayTagTable();
  /** node refs of the other ways, only to count the missing ones */
  private readonly otherRefs = new Growable(Float64Array, 1 << 12);
  private waysRead = 0;
  relationsRead = 0;
  private readonly keepStreets: boolean;
  private readonly basemap: BasemapDraft | undefined;

  constructor(options: OsmReadOptions = {}) {
    this.keepStreets = options.streets ?? true;
    this.basemap = options.basemap ? new BasemapDraft() : undefined;
  }

  /**
   * Whether a reader that can read its file twice should read the ways first, then only the nodes
   * they name (`startNodePass`): not for the basemap, which needs tagged nodes and every way.
   */
  get readsNodesAfterWays(): boolean {
    return this.basemap === undefined;
  }

  /** The ways were all read: the nodes come next, and only those the ways name are kept. */
  startNodePass(): void {
    if (this.nodes.read > 0) throw new Error('the nodes pass starts before any node is read');
    this.nodes = new NeededNodes([this.wayRefs.data, this.otherRefs.data], [this.wayRefs.length, this.otherRefs.length]);
  }

  /** Whether the readers should decode nodes' tags and hand tagged nodes to `taggedNode` (only the basemap reads them). */
  get wantsNodeTags(): boolean {
    return this.basemap !== undefined;
  }

  /** Whether the readers should decode relations' members and tags and hand them to `relation` (only the basemap reads them). */
  get wantsRelations(): boolean {
    return this.basemap !== undefined;
  }

  /** A relation with its way members (called, members decoded, only when `wantsRelations`; else only counted). */
  relation(wayMembers: readonly RelationMember[], tags: Record<string, string>): void {
    this.relationsRead++;
    if (!this.basemap || tags['type'] !== 'multipolygon') return;
    const kind = basemapKindOf(tags);
    if (kind === BasemapKind.Water || kind === BasemapKind.Park) this.basemap.multipolygon(kind, wayMembers.filter((m) => m.role !== 'inner').map((m) => m.ref));
  }

  /** A node that has tags (called besides `node`, only when `wantsNodeTags`). */
  taggedNode(lon: number, lat: number, tags: Record<string, string>): void {
    this.basemap?.node(lon, lat, tags);
  }

  node(id: number, lon: number, lat: number): void {
    this.nodes.node(id, lon, lat);
  }

  /** A way with its node ids and all its tags (only highway ways are kept). */
  way(id: number, refs: ArrayLike<number>, tags: Record<string, string>): void {
    this.waysRead++;
    // the basemap keeps every way: one of no kind may be a member of a multipolygon
    this.basemap?.way(basemapKindOf(tags), id, refs);
    if (tags['highway'] === undefined || !this.keepStreets) {
      for (let i = 0; i < refs.length; i++) this.otherRefs.push(refs[i]!);
      return;
    }
    this.wayId.push(id);
    this.wayRefStart.push(this.wayRefs.length);
    for (let i = 0; i < refs.length; i++) this.wayRefs.push(refs[i]!);
    this.wayTagSet.push(this.tags.setOf(tags));
    this.wayName.push(this.tags.nameOf(tags));
  }

  finish(): OsmExtract {
    const nodesRead = this.nodes.read;
    const table = this.nodes instanceof NeededNodes ? this.nodes : this.nodes.table();
    const { repeated, duplicates } = repeatedWays(this.wayId.data, this.wayId.length);
    const kept = this.splitWaysAtMissingNodes(table, repeated);
    const missingOtherRefs = this.countMissingOtherRefs(table);
    // what follows needs neither: a country's references are a gigabyte
    this.otherRefs.clear();
    this.wayRefs.clear();
    const nodes = usedNodeColumns(table, kept.usedNodes.data, kept.usedNodes.length);
    const basemap = this.basemap?.finish(table);
    return {
      nodeCount: kept.usedNodes.length,
      nodeIds: nodes.nodeIds,
      lon: nodes.lon,
      lat: nodes.lat,
      wayCount: kept.wayIds.length,
      wayIds: kept.wayIds.finish(),
      wayNodeOffset: kept.offsets.finish(),
      wayNodes: kept.nodes.finish(),
      ...keptWayTags(kept.tagSet.finish(), kept.name.finish(), this.tags),
      stats: {
        nodesRead,
        waysRead: this.waysRead,
        relationsRead: this.relationsRead,
        waysKept: kept.wayIds.length,
        missingNodeRefs: kept.missingRefs + missingOtherRefs,
        waysDroppedTooShort: kept.tooShort,
        duplicateWays: duplicates,
        bbox: nodes.bbox,
      },
      ...(basemap ? { basemap } : {}),
    };
  }

  /** The highway ways (but the repeated ones) as runs of the nodes that the extract has. */
  private splitWaysAtMissingNodes(nodes: NodeTable, repeated: Uint8Array): KeptWays {
    const kept = new KeptWays(nodes.slots);
    const refs = this.wayRefs.data;
    const starts = this.wayRefStart.data;
    const wayCountIn = this.wayId.length;
    for (let w = 0; w < wayCountIn; w++) {
      if (repeated[w]) continue;
      const end = w + 1 < wayCountIn ? starts[w + 1]! : this.wayRefs.length;
      kept.splitWay(nodes, refs, starts[w]!, end, this.wayId.data[w]!, this.wayTagSet.data[w]!, this.wayName.data[w]!);
    }
    return kept;
  }

  /** References of the other ways to nodes absent from the extract. */
  private countMissingOtherRefs(nodes: NodeTable): number {
    let missing = 0;
    for (let k = 0; k < this.otherRefs.length; k++) if (nodes.find(this.otherRefs.data[k]!) < 0) missing++;
    return missing;
  }
}

/** Ids and coordinates of the used nodes (slots, in their dense order), and their bounding box. */
function usedNodeColumns(table: NodeTable, usedNodes: Uint32Array, count: number) {
  const lon = new Float64Array(count);
  const lat = new Float64Array(count);
  const nodeIds = new Float64Array(count);
  let minLon = Infinity;
  let minLat = Infinity;
  let maxLon = -Infinity;
  let maxLat = -Infinity;
  for (let i = 0; i < count; i++) {
    const raw = usedNodes[i]!;
    lon[i] = table.lon[raw]!;
    lat[i] = table.lat[raw]!;
    nodeIds[i] = table.ids[raw]!;
    minLon = Math.min(minLon, lon[i]!);
    maxLon = Math.max(maxLon, lon[i]!);
    minLat = Math.min(minLat, lat[i]!);
    maxLat = Math.max(maxLat, lat[i]!);
  }
  const bbox: OsmStats['bbox'] = count > 0 ? [minLon, minLat, maxLon, maxLat] : null;
  return { nodeIds, lon, lat, bbox };
}

/** 1 for each way whose id came before (some extracts repeat a way: the first one is kept), and their count. */
function repeatedWays(wayIds: Float64Array, count: number): { repeated: Uint8Array; duplicates: number } {
  const repeated = new Uint8Array(count);
  // a sorted file's ids increase: no way came before (and no sort of a country's 25 M ways)
  let increasing = true;
  for (let w = 1; w < count && increasing; w++) increasing = wayIds[w]! > wayIds[w - 1]!;
  if (increasing) return { repeated, duplicates: 0 };
  const wayOrder = Array.from({ length: count }, (_, w) => w).sort((a, b) => wayIds[a]! - wayIds[b]! || a - b);
  let duplicates = 0;
  for (let k = 1; k < count; k++) {
    if (wayIds[wayOrder[k]!] === wayIds[wayOrder[k - 1]!]) {
      repeated[wayOrder[k]!] = 1;
      duplicates++;
    }
  }
  return { repeated, duplicates };
}

/** The kept ways as they are split: each run of known nodes a way, its nodes numbered densely in order of first use. */
class KeptWays {
  /** dense index of each raw node index, -1 while unused */
  private readonly dense: Int32Array;
  // typed arrays, not JavaScript ones: a country's ways hold a hundred million node references
  /** raw index of each dense node */
  readonly usedNodes = new Growable(Uint32Array, 1 << 16);
  readonly wayIds = new Growable(Float64Array, 1 << 12);
  readonly offsets = new Growable(Uint32Array, 1 << 12);
  readonly nodes = new Growable(Uint32Array, 1 << 16);
  readonly tagSet = new Growable(Uint32Array, 1 << 12);
  readonly name = new Growable(Int32Array, 1 << 12);
  missingRefs = 0;
  tooShort = 0;
  /** raw nodes of the run being read */
  private readonly run: number[] = [];

  constructor(rawNodeCount: number) {
    this.dense = new Int32Array(rawNodeCount).fill(-1);
    this.offsets.push(0);
  }

  /** Way `refs[start..end)` cut at its missing nodes, its repeated consecutive nodes merged. */
  splitWay(nodes: NodeTable, refs: Float64Array, start: number, end: number, id: number, tagSet: number, name: number): void {
    const run = this.run;
    let pieces = 0;
    for (let k = start; k < end; k++) {
      const raw = nodes.find(refs[k]!);
      if (raw < 0) {
        this.missingRefs++;
        if (run.length > 0) {
          this.endRun(id, tagSet, name);
          pieces++;
        }
        continue;
      }
      if (run.length > 0 && run[run.length - 1] === raw) continue; // repeated node
      run.push(raw);
    }
    if (run.length > 0 || pieces === 0) this.endRun(id, tagSet, name);
  }

  /** The run kept as a way when it has two nodes or more, else counted as too short. */
  private endRun(id: number, tagSet: number, name: number): void {
    const { run, dense } = this;
    if (run.length >= 2) {
      for (const raw of run) {
        if (dense[raw]! < 0) {
          dense[raw] = this.usedNodes.length;
          this.usedNodes.push(raw);
        }
        this.nodes.push(dense[raw]!);
      }
      this.offsets.push(this.nodes.length);
      this.wayIds.push(id);
      this.tagSet.push(tagSet);
      this.name.push(name);
    } else this.tooShort++;
    run.length = 0;
  }
}

/** Values numbered as they first come, by a key (a way's tag set, a name): the same key, the same number. */
class Interned<T> {
  readonly values: T[] = [];
  private readonly index = new Map<string, number>();

  indexOf(key: string, value: T): number {
    let k = this.index.get(key);
    if (k === undefined) {
      k = this.values.push(value) - 1;
      this.index.set(key, k);
    }
    return k;
  }
}

/** The kept tags of ways numbered as sets (but the name) and names, each distinct one once. */
class WayTagTable {
  readonly sets = new Interned<Record<string, string>>();
  readonly names = new Interned<string>();

  /** The number of the set of `tags`' kept tags but the name. */
  setOf(tags: Readonly<Record<string, string>>): number {
    const kept: Record<string, string> = {};
    let key = '';
    // in KEPT_WAY_TAGS' order: the same tags make the same key whatever the order the file gives them in
    for (const k of KEPT_WAY_TAGS) {
      const v = tags[k];
      if (v === undefined || k === 'name') continue;
      kept[k] = v;
      key += `${k}\u0000${v}\u0000`;
    }
    return this.sets.indexOf(key, kept);
  }

  /** The number of `tags`' name, -1 for none. */
  nameOf(tags: Readonly<Record<string, string>>): number {
    const name = tags['name'];
    return name === undefined ? -1 : this.names.indexOf(name, name);
  }
}

/** The tag columns of an extract (`OsmExtract`'s) from each way's tags, as a reader makes them. */
export function wayTagColumns(perWay: readonly Readonly<Record<string, string>>[]): Pick<OsmExtract, 'wayTagSet' | 'tagSets' | 'wayName' | 'names'> {
  const table = new WayTagTable();
  return {
    wayTagSet: Uint32Array.from(perWay, (tags) => table.setOf(tags)),
    wayName: Int32Array.from(perWay, (tags) => table.nameOf(tags)),
    tagSets: table.sets.values,
    names: table.names.values,
  };
}

/** Way w's kept tags but its name (shared by the ways of the same set: read, never changed). */
export const wayTagSetOf = (x: OsmExtract, w: number): Readonly<Record<string, string>> => x.tagSets[x.wayTagSet[w]!]!;

/** Way w's kept tags, its name included (a new object). */
export function wayTagsOf(x: OsmExtract, w: number): Record<string, string> {
  const tags = { ...wayTagSetOf(x, w) };
  const name = x.wayName[w]!;
  if (name >= 0) tags['name'] = x.names[name]!;
  return tags;
}

/**
 * The tag columns of the kept ways: sets and names numbered again in their order of first use, so
 * that those of dropped ways (repeated, cut to one node) are left out and the numbering is the one
 * `wayTagColumns` gives the kept ways' tags.
 */
function keptWayTags(wayTagSet: Uint32Array, wayName: Int32Array, table: WayTagTable): Pick<OsmExtract, 'wayTagSet' | 'tagSets' | 'wayName' | 'names'> {
  return { wayTagSet, tagSets: renumbered(wayTagSet, table.sets.values), wayName, names: renumbered(wayName, table.names.values) };
}

/** `values` used by `indices` (-1: none), numbered again in order of first use; `indices` rewritten to match. */
function renumbered<T>(indices: Uint32Array | Int32Array, values: readonly T[]): T[] {
  const to = new Int32Array(values.length).fill(-1);
  const used: T[] = [];
  for (let w = 0; w < indices.length; w++) {
    const k = indices[w]!;
    if (k < 0) continue;
    if (to[k]! < 0) to[k] = used.push(values[k]!) - 1;
    indices[w] = to[k]!;
  }
  return used;
}
