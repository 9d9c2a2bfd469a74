/**
 * Disruptions files that ask for much work in few bytes (issue 30): NO_SERVICE on a whole network
 * for a year, many times over, or with a flood of application periods. Shared by the budget
 * benchmark and its test.
 */

/** `n` NO_SERVICE disruptions on network `network`, each for all of 2019. */
export function networkClosures(n: number, network = 'BART'): string {
  const entries = Array.from({ length: n }, (_, i) => ({
    id: `n${i}`,
    severity: { effect: 'NO_SERVICE' },
    application_periods: [{ begin: '20190101T000000', end: '20191231T235959' }],
    impacted_objects: [{ type: 'network', id: network }],
  }));
  return JSON.stringify({ disruptions: entries });
}

/** One NO_SERVICE disruption on network `network` with `n` one-minute periods from 2019-01-01. */
export function periodFlood(n: number, network = 'BART'): string {
  const start = Date.UTC(2019, 0, 1) / 1000;
  const stamp = (sec: number) => new Date(sec * 1000).toISOString().slice(0, 19).replace(/[-:]/g, '');
  const periods = Array.from({ length: n }, (_, i) => ({ begin: stamp(start + i * 60), end: stamp(start + i * 60 + 30) }));
  return JSON.stringify({ disruptions: [{ id: 'flood', severity: { effect: 'NO_SERVICE' }, application_periods: periods, impacted_objects: [{ type: 'network', id: network }] }] });
}
