/**
 * Problems met while loading a coverage: each malformed row is reported with its file, line and
 * reason, then skipped. Counts are kept per reason; only the first few rows of each reason are kept
 * as examples, so a feed with a million bad rows does not flood the log.
 */
export interface Problem {
  file: string;
  line: number;
  reason: string;
}

const EXAMPLES_PER_REASON = 5;

export interface LoadReportState {
  counts: [string, number][];
  examples: Problem[];
  notes: string[];
}

export class LoadReport {
  readonly counts = new Map<string, number>();
  readonly examples: Problem[] = [];
  /** Informational lines (what was found, what was ignored on purpose). */
  readonly notes: string[] = [];

  constructor(private readonly onProblem?: (p: Problem, firstOfItsKind: boolean) => void) {}

  /** Report a row problem; `reason` should not contain per-row values so that counts group well. */
  problem(file: string, line: number, reason: string, detail = ''): void {
    const n = (this.counts.get(reason) ?? 0) + 1;
    this.counts.set(reason, n);
    if (n <= EXAMPLES_PER_REASON) {
      const p = { file, line, reason: detail ? `${reason}: ${detail}` : reason };
      this.examples.push(p);
      this.onProblem?.(p, n === 1);
    }
  }

  note(text: string): void {
    this.notes.push(text);
  }

  get problemCount(): number {
    let n = 0;
    for (const c of this.counts.values()) n += c;
    return n;
  }

  /** What a snapshot keeps of the report. */
  state(): LoadReportState {
    return { counts: [...this.counts], examples: this.examples, notes: this.notes };
  }

  /** The report a snapshot kept. */
  static restore(state: LoadReportState): LoadReport {
    const report = new LoadReport();
    for (const [reason, n] of state.counts) report.counts.set(reason, n);
    report.examples.push(...state.examples);
    report.notes.push(...state.notes);
    return report;
  }

  /** One line per reason: "123 × <reason>". */
  summary(): string[] {
    return [...this.counts].map(([reason, n]) => `${n} × ${reason}`);
  }
}

/** The feed cannot be used at all (missing required file, no trips…): loading stops with this message. */
export class FeedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FeedError';
  }
}
