import { ID_PATTERN } from '@flotilla/runtime/internals';
import { createRoute, z } from '@hono/zod-openapi';
import { clientFor } from '../http/client-for.js';
import { defineApiRoute, errorResponses, jsonContent } from './api-route.js';

/** At most this many agents named in `?agents=` (the dashboard names those of its run page). */
const MAX_NAMED_AGENTS = 100;

const querySchema = z.strictObject({
  agents: z
    .string()
    .max(MAX_NAMED_AGENTS * 65)
    .optional()
    .transform((list) => (list ?? '').split(',').filter((agentId) => agentId !== ''))
    .pipe(
      z
        .array(z.string().regex(ID_PATTERN, { error: 'must list agent ids, comma-separated' }))
        .max(MAX_NAMED_AGENTS, { error: `must name at most ${MAX_NAMED_AGENTS} agents` }),
    )
    .openapi({
      param: { name: 'agents', in: 'query' },
      type: 'string',
      description: 'Agents to report besides those live workers serve (comma-separated ids)',
      example: 'research,summarize',
    }),
});

const queueSchema = z.object({
  waiting: z.int().openapi({ description: 'Ready for a worker (waiting and prioritized)' }),
  active: z.int().openapi({ description: 'Held by a worker' }),
  delayed: z.int().openapi({ description: 'Due later (retry backoff, a slot handed back)' }),
  waitingChildren: z.int().openapi({ description: 'Parents suspended until their child runs end' }),
});

const fleetAgentSchema = z
  .object({
    agentId: z.string(),
    servedBy: z.array(z.string()).openapi({ description: 'The ids of the live workers serving it' }),
    live: z.boolean().openapi({ description: 'Whether at least one live worker serves it' }),
    queue: queueSchema,
  })
  .openapi('FleetAgent');

const fleetSchema = z
  .object({
    workers: z.array(z.looseObject({ workerId: z.string(), agents: z.array(z.string()) })),
    agents: z.array(fleetAgentSchema),
  })
  .openapi('Fleet');

/**
 * `GET /fleet?agents=a,b` → 200 `{ workers, agents }`: the live workers (as `GET /workers`) and,
 * for every agent they serve plus the agents named, which live workers serve it and its queue
 * depth. An agent named that no live worker serves has `live: false` (its runs wait). Workers
 * and queues serve agents, not tenants: every principal sees the same fleet.
 */
export const getFleet = defineApiRoute(
  createRoute({
    method: 'get',
    path: '/fleet',
    summary: 'The fleet: live workers, the agents served (or not) and their queue depths',
    request: { query: querySchema },
    responses: { 200: jsonContent(fleetSchema, 'The fleet'), ...errorResponses() },
  }),
  async (c) => {
    const { agents: named } = c.req.valid('query');
    const client = clientFor(c);
    const workers = await client.listWorkers();
    const agentIds = [...new Set([...workers.flatMap((worker) => worker.agents), ...named])].sort();
    const depths = await client.getQueueDepths(agentIds);
    const agents = depths.map(({ agentId, ...queue }) => {
      const servedBy = workers
        .filter((worker) => worker.agents.includes(agentId))
        .map((worker) => worker.workerId);
      return { agentId, servedBy, live: servedBy.length > 0, queue };
    });
    return c.json({ workers, agents }, 200);
  },
);
