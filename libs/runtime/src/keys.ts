/**
 * Every Redis key Flotilla writes, built in one place. All keys of one run share the hash tag
 * `{r:<runId>}` and all keys of one conversation share `{c:<conversationId>}`, so each group
 * lands in one Redis Cluster slot and multi-key Lua scripts stay legal.
 */
export interface RunKeys {
  /** Journal: hash of position → recorded entry (JSON). */
  journal: string;
  /** `equipMemory` values: hash of key → JSON. */
  memory: string;
  /** Events: capped stream. */
  events: string;
  /** Run record: hash with status, output/error, usage, timestamps. */
  record: string;
  /** Cancel flag. */
  cancel: string;
}

export interface ConversationKeys {
  /** Header: hash with schema version, version, system prompt, model, usage, timestamps. */
  header: string;
  /** Append-only log of messages (list of JSON); entry i is message i. */
  messages: string;
  /** Version index: list where entry v is the message count at version v+1 … see ConversationStore. */
  versions: string;
}

export function runKeys(prefix: string, runId: string): RunKeys {
  const base = `${prefix}:run:{r:${runId}}`;
  return {
    journal: `${base}:journal`,
    memory: `${base}:memory`,
    events: `${base}:events`,
    record: `${base}:record`,
    cancel: `${base}:cancel`,
  };
}

export function conversationKeys(prefix: string, conversationId: string): ConversationKeys {
  const base = `${prefix}:conv:{c:${conversationId}}`;
  return { header: `${base}:header`, messages: `${base}:messages`, versions: `${base}:versions` };
}

/** Content-addressed media blob (sha256 of the bytes); shared by every conversation. */
export function blobKey(prefix: string, sha256: string): string {
  return `${prefix}:blob:${sha256}`;
}

/** Default key prefix; also BullMQ's queue prefix. */
export const DEFAULT_PREFIX = 'flotilla';
