/** A refusal of the query layer in the commands' words: the parameters named as their flags. */
import type { Namer, QueryError } from '../queries/query-errors.js';

/** A parameter of a table as the command line names it: `max_nb_transfers` is `--max-nb-transfers`, `percentiles[]` `--percentiles`. */
export const flagName: Namer = (param) => `--${param.replace(/\[\]$/, '').replace(/_/g, '-')}`;

/** A refusal of the query layer in the command's words: its parameters named as flags, the parameter's help, the details. */
export function refusalText(e: QueryError): string {
  const data = e.data as Record<string, string>;
  const help = e.code === 'invalidParameter' ? ` (${data['help']})` : '';
  return `${e.text(flagName)}${help}${e.details ? `: ${e.details}` : ''}`;
}
