/** The order statistics every bench reports, one definition (docs/benchmarks.md). */

/** The value at fraction `p` (0.5 median, 0.99 p99) of an ascending list. */
export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

/** Milliseconds rounded to microseconds, as the tables print them. */
export const ms = (value: number) => +value.toFixed(3);

/** An ascending copy. */
export const sortedOf = (values: number[]) => [...values].sort((a, b) => a - b);

/** A row of the per-call benches (MCP gateway, hooks): a measure, its median and p99, and the goal it is judged by. */
export interface PerCallRow {
  measure: string;
  median_ms: number;
  p99_ms: number | null;
  goal: string;
}
