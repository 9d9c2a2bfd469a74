/** A worker thread for worker-answer.test.ts: answers its data doubled, or stops without a word when told to. */
import { parentPort, workerData } from 'node:worker_threads';

const { value, exitSilently } = workerData as { value: number; exitSilently: boolean };
if (exitSilently) process.exit(3);
parentPort!.postMessage(value * 2);
