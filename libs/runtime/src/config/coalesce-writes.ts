import type { Redis } from 'ioredis';

/**
 * Makes the commands `redis` sends within one tick go out in one socket write (the socket is
 * corked at the first and uncorked on the next tick), as auto-pipelining would, without its
 * cost: ioredis' auto-pipelining builds a pipeline per tick, and every pipeline copies each
 * script defined on the connection (BullMQ defines ~60 on a client's), which cost a client more
 * CPU than the writes it saved. Each socket write is a system call whose loopback delivery is
 * charged to the writer: with commands of concurrent runs sharing writes, the client spends
 * markedly less CPU per run, and Redis reads fewer, larger requests (docs/performance.md, round 3).
 * Nothing else changes: commands keep their order, replies and timeouts, and a command written
 * while the socket is corked is failed like any other when the connection drops.
 * Not for a `Cluster` (its node connections are its own) nor a blocking connection (one command
 * at a time): those are left as they are.
 */
export function coalesceWrites(redis: Redis): void {
  if (redis.isCluster) return;
  let corked: Redis['stream'] | undefined;
  const uncork = () => {
    const socket = corked;
    corked = undefined;
    socket?.uncork();
  };
  const uncorkNext = () => process.nextTick(uncork);
  const send = redis.sendCommand;
  // Its two parameters named, not `...args`: no array per command.
  redis.sendCommand = function sendCoalesced(
    this: Redis,
    command: Parameters<Redis['sendCommand']>[0],
    stream?: Parameters<Redis['sendCommand']>[1],
  ) {
    // A command given a stream of its own (a pipeline's) is written there, not on this socket.
    const socket = this.stream;
    if (corked === undefined && stream === undefined && socket?.writable) {
      socket.cork();
      corked = socket;
      // Two hops: the calls a `TickBatch` (shared/tick-batch.ts) collected in this tick are sent
      // from a nextTick queued after this one, and go in this write too.
      process.nextTick(uncorkNext);
    }
    return send.call(this, command, stream);
  };
}
