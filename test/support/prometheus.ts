/** One sample of the Prometheus text format: metric name, labels and value. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: \d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Parses an exposition (format 0.0.4); throws on a line that is neither a comment nor a sample. */
export function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = LINE.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, name, value] of (match[2] ?? '').matchAll(LABEL)) labels[name] = value.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}

/** A sample's identity: its name and labels, sorted. */
export function seriesKey(sample: Pick<Sample, 'name' | 'labels'>): string {
  return `${sample.name}{${Object.keys(sample.labels)
    .sort()
    .map((k) => `${k}="${sample.labels[k]}"`)
    .join(',')}}`;
}

/** The value of the one sample with this name and exactly these labels (undefined when absent). */
export function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const key = seriesKey({ name, labels });
  return samples.find((sample) => seriesKey(sample) === key)?.value;
}
