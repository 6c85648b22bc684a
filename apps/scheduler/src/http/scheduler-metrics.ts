import { RUNS_WAITING_HELP, type WaitingRunsReport } from '@flotilla/runtime/internals';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { StreamCaps } from './stream-caps.js';

const REQUEST_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The scheduler's Prometheus metrics (served on `GET /metrics`, behind the API's bearer token):
 * answered requests by method, route pattern and status (fed by the access log middleware; an
 * SSE stream counts when its response starts), open SSE streams, the fleet's waiting runs (when
 * given a {@link WaitingRunsReport}), and the default process metrics.
 * Route labels are patterns (`/runs/:id`) or `(no route)`, never client text.
 */
export class SchedulerMetrics {
  readonly registry = new Registry();
  readonly #requests: Counter<'method' | 'route' | 'status'>;
  readonly #seconds: Histogram<'method' | 'route'>;

  constructor(
    streams: StreamCaps,
    options: { processMetrics?: boolean; waitingRuns?: WaitingRunsReport | undefined } = {},
  ) {
    const registers = [this.registry];
    this.#requests = new Counter({
      name: 'flotilla_http_requests_total',
      help: 'Answered API requests by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'] as const,
      registers,
    });
    this.#seconds = new Histogram({
      name: 'flotilla_http_request_duration_seconds',
      help: 'Time to answer an API request (to the start of the response for SSE streams), by method and route pattern.',
      labelNames: ['method', 'route'] as const,
      buckets: REQUEST_SECONDS,
      registers,
    });
    new Gauge({
      name: 'flotilla_sse_streams_open',
      help: 'Run event streams (SSE) open on this scheduler.',
      registers,
      collect() {
        this.set(streams.total);
      },
    });
    const { waitingRuns } = options;
    if (waitingRuns)
      new Gauge({
        name: 'flotilla_runs_waiting',
        help: RUNS_WAITING_HELP,
        labelNames: ['agent', 'kind'] as const,
        registers,
        async collect() {
          await waitingRuns.report(this);
        },
      });
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry });
  }

  /** Counts one answered request. */
  observeRequest(request: { method: string; route: string; status: number; durationMs: number }): void {
    const { method, route } = request;
    this.#requests.inc({ method, route, status: String(request.status) });
    this.#seconds.observe({ method, route }, request.durationMs / 1000);
  }
}
