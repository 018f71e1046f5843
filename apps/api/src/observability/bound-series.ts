import type { Metric } from 'prom-client';

/**
 * Counters and histograms for the hot path, exported through a prom-client Registry. prom-client's own
 * bound series (`counter.labels(...)`) rebuild, validate and hash the label set and allocate at every
 * call (about 2 % of a `GET /v1/pets/{petId}` profile, plus the garbage); these keep one plain object per
 * series, bound once, so an increment is a field update. They answer the registry's `get()` as
 * prom-client's Counter and Histogram do (same names, labels, `le` buckets, sum aggregation), so the
 * exposition text is unchanged (series.spec.ts compares them).
 */

type Labels<L extends string> = Record<L, string>;

/** What prom-client's Registry reads of a metric's get(), for the text and the JSON. */
export interface Exported {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  aggregator: 'sum';
  values: { metricName?: string; labels: Record<string, string | number>; value: number }[];
}

abstract class BoundMetric<L extends string, S> {
  readonly aggregator = 'sum' as const;
  protected readonly series: { labels: Labels<L>; values: S }[] = [];
  private readonly byKey = new Map<string, S>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly L[],
  ) {}

  /** The series of these label values, created at the first call; keep it, rather than asking again per event. */
  protected bindValues(labels: Labels<L>): S {
    const key = this.labelNames.map((name) => labels[name]).join('\u0000');
    let values = this.byKey.get(key);
    if (!values) {
      values = this.create();
      this.byKey.set(key, values);
      this.series.push({ labels: { ...labels }, values });
    }
    return values;
  }

  protected abstract create(): S;

  /** Registers into `registry`s; typed as prom-client's Metric, of which the registry reads only name, type and get(). */
  registerIn(registries: { registerMetric(metric: Metric): void }[]): this {
    for (const registry of registries) registry.registerMetric(this as unknown as Metric);
    return this;
  }
}

/** What the hot path holds: a bound series (or, metrics off, a no-op). */
export interface Count {
  inc(value?: number): void;
}

export class BoundCounter<L extends string> extends BoundMetric<L, { value: number }> {
  readonly type = 'counter' as const;

  bind(labels: Labels<L>): Count {
    const values = this.bindValues(labels);
    return {
      inc(value = 1) {
        values.value += value;
      },
    };
  }

  protected create(): { value: number } {
    return { value: 0 };
  }

  get(): Promise<Exported> {
    return Promise.resolve({
      name: this.name,
      help: this.help,
      type: this.type,
      aggregator: this.aggregator,
      values: this.series.map(({ labels, values }) => ({ labels, value: values.value })),
    });
  }
}

interface HistogramValues {
  /** Observations per bucket, not cumulative; the last one past every bound (+Inf). */
  counts: number[];
  sum: number;
  count: number;
}

export interface Timing {
  observe(seconds: number): void;
}

export class BoundHistogram<L extends string> extends BoundMetric<L, HistogramValues> {
  readonly type = 'histogram' as const;

  constructor(
    name: string,
    help: string,
    labelNames: readonly L[],
    private readonly buckets: readonly number[],
  ) {
    super(name, help, labelNames);
  }

  bind(labels: Labels<L>): Timing {
    const values = this.bindValues(labels);
    const buckets = this.buckets;
    return {
      observe(seconds) {
        let i = 0;
        while (i < buckets.length && seconds > buckets[i]) i += 1;
        values.counts[i] += 1;
        values.sum += seconds;
        values.count += 1;
      },
    };
  }

  protected create(): HistogramValues {
    return { counts: new Array<number>(this.buckets.length + 1).fill(0), sum: 0, count: 0 };
  }

  get(): Promise<Exported> {
    const values: Exported['values'] = [];
    for (const { labels, values: series } of this.series) {
      // As prom-client's Histogram: cumulative buckets with `le` first, then +Inf, sum and count.
      let cumulative = 0;
      this.buckets.forEach((bound, i) => {
        cumulative += series.counts[i];
        values.push({ metricName: `${this.name}_bucket`, labels: { le: bound, ...labels }, value: cumulative });
      });
      values.push({ metricName: `${this.name}_bucket`, labels: { le: '+Inf', ...labels }, value: series.count });
      values.push({ metricName: `${this.name}_sum`, labels: { ...labels }, value: series.sum });
      values.push({ metricName: `${this.name}_count`, labels: { ...labels }, value: series.count });
    }
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values });
  }
}
