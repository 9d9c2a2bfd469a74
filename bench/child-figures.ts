/**
 * What a bench's child process cost, read from outside it: node's `--import` of this module's
 * `AT_EXIT` makes the child print, as it exits, its CPU seconds (every thread) and its peak resident
 * memory on a line of its standard error; `childFigures` reads that line back.
 */

/** A `--import` module (a data URL) that prints `figures <peak RSS kB> <CPU s>` on standard error at exit. */
export const FIGURES_AT_EXIT = `data:text/javascript,process.on('exit',()=>{const u=process.resourceUsage();process.stderr.write('figures '+u.maxRSS+' '+((u.userCPUTime+u.systemCPUTime)/1e6).toFixed(1)+'\\n')})`;

/** The child's CPU seconds and peak resident bytes from its standard error; the other lines of it apart. */
export function childFigures(stderr: string): { cpu: number; peakBytes: number; lines: string[] } {
  const lines = stderr.trim().split('\n');
  const line = lines.find((l) => l.startsWith('figures '));
  if (!line) throw new Error(`the child printed no figures: ${lines.at(-1) ?? ''}`);
  const [, rssKb, cpu] = line.split(' ');
  return { cpu: Number(cpu), peakBytes: Number(rssKb) * 1024, lines: lines.filter((l) => l !== line) };
}
