import fc from 'fast-check';

/** Long generated strings cut to their start and length, so a failure report stays readable. */
function shorten(value: unknown): unknown {
  if (typeof value === 'string') return value.length > 200 ? `${value.slice(0, 200)}…(${value.length} chars)` : value;
  if (Array.isArray(value))
    return value.length > 20 ? [...value.slice(0, 20).map(shorten), `…(${value.length} items)`] : value.map(shorten);
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(
      Object.entries(value)
        .slice(0, 30)
        .map(([k, v]) => [k, shorten(v)]),
    );
  return value;
}

/**
 * fc.assert's reporter: on failure, the seed and path to replay it, the request (shortened) and
 * what was wrong with the answer.
 */
export function shortReport<T>(details: fc.RunDetails<T>): void {
  if (!details.failed) return;
  const counterexample = JSON.stringify(shorten(details.counterexample), null, 1)?.slice(0, 4000);
  const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  throw new Error(
    `Property failed after ${details.numRuns} runs (replay with FC_SEED=${details.seed}; shrink path "${details.counterexamplePath}")\n` +
      `Request: ${counterexample}\nProblem: ${cause.slice(0, 1000)}`,
  );
}
