/**
 * Starts a private local Redis Cluster for the cluster suite (issue 15): `masters` nodes
 * (`redis-server --cluster-enabled yes`, each with a free loopback client port, an explicit bus
 * port inside 1..65535, no persistence and its own directory under one temporary directory),
 * joined by `redis-cli --cluster create … --cluster-replicas 0`, and ready once every node says
 * `cluster_state:ok`. Its URL is Flotilla's cluster form: `redis+cluster://host:port,host:port,…`.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { type RedisServerProcess, startRedisServer } from './redis-server.js';
import { waitUntil } from './wait-until.js';

export interface RedisClusterOptions {
  /** Number of master nodes (the 16384 slots are split between them). @default 3 */
  masters?: number;
  /** How long to wait for the cluster to form. @default 30000 */
  readyTimeoutMs?: number;
}

export interface RedisClusterProcess {
  /** `redis+cluster://127.0.0.1:<port>,…`: every node as a seed (REDIS_URL for Flotilla). */
  url: string;
  nodes: RedisServerProcess[];
  /** Stops every node and removes their directories. */
  stop(): Promise<void>;
}

/**
 * Starts and joins a cluster; stops what it started when forming it fails.
 * @throws Error naming the step (a node start, `redis-cli --cluster create`, or the wait for
 *   `cluster_state:ok`) that failed, with its output
 */
export async function startRedisCluster(options: RedisClusterOptions = {}): Promise<RedisClusterProcess> {
  const masters = options.masters ?? 3;
  const root = mkdtempSync(join(tmpdir(), 'flotilla-cluster-'));
  const nodes: RedisServerProcess[] = [];
  const stop = async () => {
    await Promise.all(nodes.map((node) => node.stop()));
    rmSync(root, { recursive: true, force: true });
  };
  try {
    for (let index = 0; index < masters; index++) {
      const dir = join(root, `node-${index}`);
      mkdirSync(dir);
      nodes.push(await startRedisServer({ clusterNode: true, dir }));
    }
    await createCluster(nodes.map((node) => `127.0.0.1:${node.port}`));
    await untilClusterOk(nodes, options.readyTimeoutMs ?? 30_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url: `redis+cluster://${nodes.map((node) => `127.0.0.1:${node.port}`).join(',')}`,
    nodes,
    stop,
  };
}

async function createCluster(addresses: string[]): Promise<void> {
  const args = ['--cluster', 'create', ...addresses, '--cluster-replicas', '0', '--cluster-yes'];
  const child = spawn('redis-cli', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`redis-cli --cluster create did not finish within 30 s:\n${output}`));
    }, 30_000);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (exitCode) => {
      clearTimeout(timer);
      resolve(exitCode);
    });
  });
  if (code !== 0) throw new Error(`redis-cli --cluster create exited with ${code}:\n${output}`);
}

/** Every node reports `cluster_state:ok` and knows every other node (so any node can redirect). */
async function untilClusterOk(nodes: RedisServerProcess[], timeoutMs: number): Promise<void> {
  const connections = nodes.map((node) => new Redis(node.port, '127.0.0.1', { lazyConnect: true }));
  try {
    await waitUntil(
      async () => {
        const infos = await Promise.all(connections.map((connection) => connection.cluster('INFO')));
        const ready = infos.every(
          (info) => info.includes('cluster_state:ok') && info.includes(`cluster_known_nodes:${nodes.length}`),
        );
        return ready ? true : undefined;
      },
      { what: `cluster_state:ok on all ${nodes.length} cluster nodes`, timeoutMs },
    );
  } finally {
    for (const connection of connections) connection.disconnect();
  }
}
