/**
 * `/places` ranked the way the search first did it, kept as the reference of ptref/places-index.ts:
 * every folded name in one string, `indexOf` over all of it, each hit's rank read where it falls
 * (exact 0, name prefix 1, word prefix 2 if any occurrence follows a space, else substring 3),
 * then all hits sorted by rank, stop areas first, shorter raw name, id, entry. It reads every
 * name: slow on a country, plain to check.
 */
import type { Referential } from '../../src/ptref/referential.js';
import { foldText } from '../../src/util/fold-text.js';

export interface ReferenceHit {
  /** stop area e when e < areaCount, else stop point e − areaCount */
  entry: number;
  rank: number;
}

/** Folded names and tie keys of a referential, built once for many searches. */
export class PlacesReference {
  private readonly text: string;
  private readonly starts: number[] = [];
  private readonly lengths: number[] = [];
  private readonly rawLengths: number[] = [];
  private readonly ids: string[] = [];
  readonly areaCount: number;

  constructor(ref: Referential) {
    const { stopAreas, stopPoints } = ref.tt;
    this.areaCount = stopAreas.length;
    const names: string[] = [];
    for (const a of stopAreas) {
      names.push(foldText(a.name));
      this.rawLengths.push(a.name.length);
      this.ids.push(a.id);
    }
    for (let s = 0; s < stopPoints.ids.length; s++) {
      names.push(stopPoints.isZone[s] ? '' : foldText(stopPoints.names[s]!));
      this.rawLengths.push(stopPoints.names[s]!.length);
      this.ids.push(stopPoints.ids[s]!);
    }
    let offset = 0;
    for (const name of names) {
      offset += 1;
      this.starts.push(offset);
      this.lengths.push(name.length);
      offset += name.length;
    }
    this.text = names.map((name) => `\n${name}`).join('');
  }

  /** The best `count` hits of `q`, of the types asked. */
  search(q: string, areas: boolean, points: boolean, count: number): ReferenceHit[] {
    const folded = foldText(q);
    if (folded === '' || count <= 0 || (!areas && !points)) return [];
    const hits: ReferenceHit[] = [];
    let entry = 0;
    for (let pos = this.text.indexOf(folded); pos >= 0; ) {
      while (entry + 1 < this.starts.length && this.starts[entry + 1]! <= pos) entry++;
      const start = this.starts[entry]!;
      const end = start + this.lengths[entry]!;
      const isArea = entry < this.areaCount;
      if (isArea ? areas : points) {
        let rank: number;
        if (pos === start) rank = folded.length === this.lengths[entry] ? 0 : 1;
        else {
          rank = 3;
          for (let p = pos; p >= 0 && p + folded.length <= end; p = this.text.indexOf(folded, p + 1)) if (this.text.charCodeAt(p - 1) === 32) rank = 2;
        }
        hits.push({ entry, rank });
      }
      pos = this.text.indexOf(folded, end);
    }
    const { rawLengths, ids, areaCount } = this;
    hits.sort(
      (a, b) =>
        a.rank - b.rank ||
        Number(b.entry < areaCount) - Number(a.entry < areaCount) ||
        rawLengths[a.entry]! - rawLengths[b.entry]! ||
        (ids[a.entry]! < ids[b.entry]! ? -1 : ids[a.entry]! > ids[b.entry]! ? 1 : a.entry - b.entry),
    );
    return hits.slice(0, count);
  }
}
