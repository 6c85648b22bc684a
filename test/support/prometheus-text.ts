/**
 * A small parser of the Prometheus text exposition format (0.0.4) for the metrics suites: every
 * family's declared type and its samples with labels, so tests assert on values, not substrings.
 */

/** One sample line: `name{labels} value`. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** A metric family: its `# TYPE` and its samples (a histogram's `_bucket`, `_sum`, `_count` too). */
export interface MetricFamily {
  type: string;
  help: string;
  samples: Sample[];
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** The families of `text` by name. @throws Error naming the first line that is not valid */
export function parsePrometheusText(text: string): Map<string, MetricFamily> {
  const families = new Map<string, MetricFamily>();
  const family = (name: string) => {
    const found = families.get(name) ?? { type: 'untyped', help: '', samples: [] };
    families.set(name, found);
    return found;
  };
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const meta = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
    if (meta) {
      const [, kind, name, rest] = meta as unknown as [string, string, string, string];
      if (kind === 'TYPE') family(name).type = rest;
      else family(name).help = rest;
      continue;
    }
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`not a Prometheus sample line: ${line}`);
    const [, name, labelText, value] = match as unknown as [string, string, string | undefined, string];
    const labels: Record<string, string> = {};
    for (const [, key, raw] of (labelText ?? '').matchAll(LABEL))
      labels[key as string] = (raw as string).replace(/\\n/g, '\n').replace(/\\(.)/g, '$1');
    const base = families.has(name) ? name : name.replace(/_(bucket|sum|count)$/, '');
    family(base).samples.push({ name, labels, value: Number(value) });
  }
  return families;
}

/** The value of the sample `name` whose labels include `labels`; 0 when there is none. */
export function sampleValue(
  families: Map<string, MetricFamily>,
  name: string,
  labels: Record<string, string> = {},
): number {
  const base = families.has(name) ? name : name.replace(/_(bucket|sum|count)$/, '');
  const sample = families
    .get(base)
    ?.samples.find(
      (candidate) =>
        candidate.name === name &&
        Object.entries(labels).every(([key, value]) => candidate.labels[key] === value),
    );
  return sample?.value ?? 0;
}
