/**
 * The usage of every `navette` command, each written once: `navette COMMAND --help` (or `-h`)
 * prints its own on stdout, `navette --help` all of them. What is not in brackets is required.
 */
import { DEFAULT_PORT, DEFAULT_WATCH_INTERVAL_SEC } from './config.js';

export const SERVE_USAGE = `  navette serve --gtfs PATH [--gtfs PATH…] [--osm PATH] [--realtime FILE_OR_URL…] [--realtime-interval SECONDS]
                [--disruptions FILE] [--disruptions-interval SECONDS] [--id NAME] [--timezone TZ] [--board-slack SECONDS]
                [--points NAME=FILE…] [--scenario NAME=FILE…] [--port N] [--host HOST] [--rate-limit N] [--trust-proxy VALUE]
  navette serve --config FILE [--only ID,ID…] [--port N] [--host HOST] [--rate-limit N] [--trust-proxy VALUE]
  serve options for every form: [--snapshots DIR] [--watch-interval SECONDS]

serve: answers a Navitia-compatible API on http://HOST:PORT/v1/coverage (default port ${DEFAULT_PORT}).
A GTFS PATH is a zip file or a folder; several feeds make one coverage.
--trust-proxy: true, false (the default) or the reverse proxies' addresses and CIDR ranges,
comma-separated, whose X-Forwarded-For names the client.
--snapshots: each coverage loads from DIR/<id>.snapshot when it is valid, and writes it when it is
missing or stale. Coverages reload on SIGHUP, and when their files change (checked every
--watch-interval seconds, default ${DEFAULT_WATCH_INTERVAL_SEC}; 0: never).
--only: serve those coverages of the file only, as one replica of a shard behind nginx: the API
answers 503 until they are loaded, the others are listed from the shards nginx names.`;

export const BUILD_USAGE = `  navette build (--config FILE | --gtfs PATH… [--osm PATH] [--id NAME] [--timezone TZ]) --out DIR

build: compiles each coverage into DIR/<id>.snapshot.`;

/** The options both analyses take, after their own. */
const ANALYSIS_OPTIONS = `  both: [--snapshots DIR] [--threads N] [--shard K/N] [--departure-window SECONDS] [--percentiles 5,50,95]
        [--scenario NAME] (one of the coverage's scenarios)
        and every heat-map parameter as --kebab-case (--max-duration, --walking-speed, --max-nb-transfers…);
        a list is comma-separated. --datetime is the coverage's local time, a day and a time of day.`;

export const DEPLOY_USAGE = `  navette deploy nginx --config FILE [--shards K] [--replicas N] [--replica-address TEMPLATE] [--first-port N]
                       [--listen ADDRESS] [--workers N|auto] [--snapshots DIR] [--upstream-header] [--out FILE]

deploy nginx: the nginx configuration in front of N replicas (default 2) of each shard. Shards are the
coverages' "shard" keys, else K shards (default: one per coverage) balanced by snapshot (or source) size.
TEMPLATE names a replica, with {shard}, {replica} (0…) and {port} (--first-port + its rank); default
navette-{shard}-{replica}:9090. --listen: default 8080.`;

export const MATRIX_USAGE = `  navette matrix --config FILE --coverage ID --origins SET --datetime YYYYMMDDThhmmss
                 --out FILE.csv[.gz] | FILE.parquet | FILE.omx
                 [--destinations SET] [--origin-ids ID,…] [--destination-ids ID,…] [--breakdown [--routes]]

matrix: the travel times from every point of --origins (or those --origin-ids names, in that order)
to every point of --destinations (the origins' set by default; or those --destination-ids names).
--breakdown: each travel time's journey in parts (access, wait, ride, transfer, egress, rides), a row
per percentile (in OMX, a matrix per part and percentile); --routes: the lines ridden.`;

export const ACCESSIBILITY_USAGE = `  navette accessibility --config FILE --coverage ID (--origins SET | --grid METRES) --opportunities SET:COLUMN[,…]
                        --datetime YYYYMMDDThhmmss
                        --out FILE.csv[.gz] | FILE.parquet | FILE.geoparquet | FILE.fgb | FILE.tif
                        [--cutoffs SECONDS[,…]] [--decay-function NAME …]
                        [--compare-scenario NAME|base | --compare-data-freshness LEVEL]: each value the difference

accessibility: the opportunities each origin reaches, per percentile and cutoff.`;

export const MERGE_USAGE = `  navette merge --out FILE PART…

merge: the parts of --shard runs, in order, as one file.`;

/** The analyses' usage, as the full usage shows it. */
export const ANALYSIS_USAGE = `${MATRIX_USAGE}\n${ACCESSIBILITY_USAGE}\n${ANALYSIS_OPTIONS}\n${MERGE_USAGE}`;

/** `navette matrix --help`: its usage and the options it shares with accessibility. */
export const MATRIX_HELP = `${MATRIX_USAGE}\n${ANALYSIS_OPTIONS.replace('both:', '     ')}`;
export const ACCESSIBILITY_HELP = `${ACCESSIBILITY_USAGE}\n${ANALYSIS_OPTIONS.replace('both:', '     ')}`;

/** Whether a command's arguments ask for its usage. */
export const asksForHelp = (args: readonly string[]) => args.includes('--help') || args.includes('-h');

/** A command's usage as `--help` prints it. */
export const helpText = (usage: string) => `Usage:\n${usage}\n`;
