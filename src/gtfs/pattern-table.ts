/** Distinct stop sequences of the trips, interned by content. */
import { growUint32 } from '../model/growable.js';
import type { Timetable } from '../model/timetable.js';

export class PatternTable {
  private readonly byHash = new Map<number, number[]>();
  private readonly offsets = growUint32();
  private readonly stops = growUint32(1 << 14);

  constructor() {
    this.offsets.push(0);
  }

  intern(seq: Uint32Array): number {
    let h = seq.length | 0;
    for (let i = 0; i < seq.length; i++) h = (Math.imul(h, 31) + seq[i]!) | 0;
    const candidates = this.byHash.get(h);
    if (candidates) {
      for (const p of candidates) if (this.equals(p, seq)) return p;
    }
    const p = this.offsets.length - 1;
    for (let i = 0; i < seq.length; i++) this.stops.push(seq[i]!);
    this.offsets.push(this.stops.length);
    if (candidates) candidates.push(p);
    else this.byHash.set(h, [p]);
    return p;
  }

  private equals(p: number, seq: Uint32Array): boolean {
    const s = this.offsets.data[p]!;
    const e = this.offsets.data[p + 1]!;
    if (e - s !== seq.length) return false;
    const stops = this.stops.data;
    for (let i = 0; i < seq.length; i++) if (stops[s + i] !== seq[i]) return false;
    return true;
  }

  finish(): Timetable['patterns'] {
    return { stopOffset: this.offsets.finish(), stops: this.stops.finish() };
  }
}

