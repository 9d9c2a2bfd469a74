/**
 * The matrix Indexed Job's pods (deploy/kubernetes/matrix-job.yaml) as a bench runs them on this
 * machine: each pod's `navette matrix` arguments from the Job's own, an even sample of a point set's
 * origins, and what a pod's run says about itself on standard error.
 */
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';

export const MATRIX_JOB = 'deploy/kubernetes/matrix-job.yaml';
const JOB_NAME = 'navette-matrix';
/** What Kubernetes puts where the Job writes `$(JOB_COMPLETION_INDEX)`: the pod's slice. */
const COMPLETION_INDEX = '$(JOB_COMPLETION_INDEX)';

export interface IndexedJob {
  /** the container's arguments, `matrix` first */
  args: string[];
  /** the Job's completions: its slices */
  completions: number;
  /** what a pod asks for and may use */
  resources: { requests?: Record<string, string>; limits?: Record<string, string> };
}

/** The navette-matrix Job of `file`. */
export function readMatrixJob(file = MATRIX_JOB): IndexedJob {
  for (const doc of parseAllDocuments(readFileSync(file, 'utf8'))) {
    const o = doc.toJS() as { kind?: string; metadata?: { name?: string }; spec?: { completions?: number; template?: { spec?: { containers?: { args?: string[]; resources?: IndexedJob['resources'] }[] } } } };
    if (o.kind !== 'Job' || o.metadata?.name !== JOB_NAME) continue;
    const container = o.spec?.template?.spec?.containers?.[0];
    if (!container?.args || !o.spec?.completions) break;
    return { args: container.args, completions: o.spec.completions, resources: container.resources ?? {} };
  }
  throw new Error(`${file}: no Job ${JOB_NAME} with a container's args and its completions`);
}

/**
 * A pod's arguments: the Job's, each `--name value` of `set` put in place of the Job's value (or
 * added after them), each of `drop` left out, and the completion index replaced by `index`. What
 * the bench does not set (the departure window, the percentiles, `--threads`) stays the Job's.
 */
export function podArgs(job: IndexedJob, index: number, set: Record<string, string>, drop: readonly string[] = []): string[] {
  const [command, ...rest] = job.args;
  const pairs: [string, string][] = [];
  for (let i = 0; i < rest.length; i += 2) {
    const name = rest[i]!;
    if (!name.startsWith('--') || i + 1 >= rest.length) throw new Error(`${MATRIX_JOB}: expected --name value pairs after ${command}, found ${name}`);
    pairs.push([name.slice(2), rest[i + 1]!]);
  }
  const out = pairs.filter(([name]) => !drop.includes(name)).map(([name, value]): [string, string] => [name, set[name] ?? value]);
  for (const [name, value] of Object.entries(set)) if (!out.some(([n]) => n === name)) out.push([name, value]);
  return [command!, ...out.flatMap(([name, value]) => [`--${name}`, value.replaceAll(COMPLETION_INDEX, String(index))])];
}

const QUANTITY_UNITS: Record<string, number> = { '': 1, K: 1e3, M: 1e6, G: 1e9, T: 1e12, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40 };

/** A Kubernetes memory quantity (`2Gi`, `512Mi`, `1G`) in bytes; undefined when there is none or it is not one of these forms. */
export function memoryBytes(quantity: string | undefined): number | undefined {
  const m = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|K|M|G|T)?$/.exec(quantity ?? '');
  return m ? Number(m[1]) * QUANTITY_UNITS[m[2] ?? '']! : undefined;
}

/** `count` ids spread evenly over `ids` (the middle of each of `count` equal runs), in their order; all of them when there are no more. */
export function evenSample(ids: readonly string[], count: number): string[] {
  if (ids.length <= count) return [...ids];
  return Array.from({ length: count }, (_, i) => ids[Math.floor(((i + 0.5) * ids.length) / count)]!);
}

/**
 * A `--import` module (a data URL) that prints `loaded-cpu <CPU s>` on standard error when the
 * command says its coverage is loaded: the CPU of the load (every thread), so that a run's compute
 * is its CPU at exit less this.
 */
export const LOAD_CPU_MARK = `data:text/javascript,const w=process.stderr.write.bind(process.stderr);let m=false;process.stderr.write=(c,...r)=>{if(!m&&String(c).includes(' loaded from its ')){m=true;const u=process.cpuUsage();w('loaded-cpu '+((u.user+u.system)/1e6).toFixed(1)+'\\n')}return w(c,...r)}`;

export interface MatrixRunLines {
  /** where the coverage came from (`snapshot`: what a pod reading the shared snapshots does) */
  loadedFrom: string;
  loadSeconds: number;
  loadCpu: number;
  origins: number;
  destinations: number;
  /** the command's own time for its origins, from the first to the last written */
  computeSeconds: number;
}

/** What `navette matrix` printed on standard error about its load and its origins. */
export function matrixRunLines(stderr: string): MatrixRunLines {
  const loaded = / loaded from its (\S+) in ([\d.]+) s$/m.exec(stderr);
  const cpu = /^loaded-cpu ([\d.]+)$/m.exec(stderr);
  const done = /: (\d+) origins × (\d+) destinations in ([\d.]+) s /.exec(stderr);
  if (!loaded || !cpu || !done) throw new Error(`navette matrix did not say what it did: ${stderr.trim().split('\n').slice(-3).join(' | ')}`);
  return { loadedFrom: loaded[1]!, loadSeconds: Number(loaded[2]), loadCpu: Number(cpu[1]), origins: Number(done[1]), destinations: Number(done[2]), computeSeconds: Number(done[3]) };
}
