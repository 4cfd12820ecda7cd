/** How long `work` took, what it answered, and how long each /healthz asked meanwhile took to answer. */
export interface WatchedWork<T> {
  result: T;
  ms: number;
  healthzMs: number[];
}

/**
 * Runs `work` (a request, or one and the wait for its effect) and asks for /healthz meanwhile with
 * `askHealthz` (which answers the status), again as soon as each answer arrives, at least once.
 * Whatever holds the server's event loop delays the /healthz asked before: the time from asking to
 * the answer is what a load balancer's probe would see, and with one always asked no hold is missed.
 */
export async function withHealthzMeanwhile<T>(askHealthz: () => Promise<number>, work: () => Promise<T>): Promise<WatchedWork<T>> {
  const started = performance.now();
  let ms: number | undefined;
  const running = work().finally(() => (ms = performance.now() - started));
  const healthzMs: number[] = [];
  do {
    const asked = performance.now();
    const status = await askHealthz();
    if (status !== 200) throw new Error(`/healthz answered ${status}`);
    healthzMs.push(performance.now() - asked);
  } while (ms === undefined);
  return { result: await running, ms, healthzMs };
}
