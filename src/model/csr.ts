/**
 * Compressed sparse rows: the items of each group, stored as one flat array plus offsets.
 *
 *   offsets: [0, 2, 2, 5]        group g owns items[offsets[g] .. offsets[g+1])
 *   items:   [7, 9, 1, 4, 8]     group 0 -> {7, 9}, group 1 -> {}, group 2 -> {1, 4, 8}
 *
 * Items of a group come out sorted ascending when they are added in ascending order, which
 * `groupBy` does.
 */
export interface Csr {
  readonly offsets: Uint32Array;
  readonly items: Uint32Array;
}

/** Items of group `g` as a view (no copy). */
export function csrRow(csr: Csr, g: number): Uint32Array {
  return csr.items.subarray(csr.offsets[g]!, csr.offsets[g + 1]!);
}

/**
 * Group items 0..n-1 by `groupOf(item)` (a group index in 0..groupCount-1, or -1 for none).
 * Within a group, items stay in ascending order.
 */
export function groupBy(n: number, groupCount: number, groupOf: (item: number) => number): Csr {
  const offsets = new Uint32Array(groupCount + 1);
  for (let i = 0; i < n; i++) {
    const g = groupOf(i);
    if (g >= 0) offsets[g + 1]!++;
  }
  for (let g = 0; g < groupCount; g++) offsets[g + 1]! += offsets[g]!;
  const items = new Uint32Array(offsets[groupCount]!);
  const fill = offsets.slice(0, groupCount);
  for (let i = 0; i < n; i++) {
    const g = groupOf(i);
    if (g >= 0) items[fill[g]!++] = i;
  }
  return { offsets, items };
}

/**
 * Group items by several groups each: `forEachGroup(item, add)` calls `add(g)` for every group of the
 * item (duplicates are the caller's business). Items within a group stay ascending.
 */
export function groupByMany(
  n: number,
  groupCount: number,
  forEachGroup: (item: number, add: (g: number) => void) => void,
): Csr {
  const offsets = new Uint32Array(groupCount + 1);
  for (let i = 0; i < n; i++) forEachGroup(i, (g) => offsets[g + 1]!++);
  for (let g = 0; g < groupCount; g++) offsets[g + 1]! += offsets[g]!;
  const items = new Uint32Array(offsets[groupCount]!);
  const fill = offsets.slice(0, groupCount);
  for (let i = 0; i < n; i++) forEachGroup(i, (g) => (items[fill[g]!++] = i));
  return { offsets, items };
}
