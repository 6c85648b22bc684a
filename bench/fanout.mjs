/**
 * The fan-out part of the cost bench alone: 1 → 10 trees, Flotilla (a root agent awaiting ten
 * child agents with `Promise.all`: child jobs, suspension, replay) next to the raw BullMQ
 * step-job pattern (see `cost-shapes.mjs`), with the same figures and variables as
 * `npm run bench` (`run.mjs`). Standalone: `node bench/fanout.mjs`.
 */
import { benchCosts, costOptionsFromEnv } from './cost.mjs';

await benchCosts(await costOptionsFromEnv(['fanout']));
