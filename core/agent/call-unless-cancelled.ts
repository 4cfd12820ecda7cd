export type Cancellable<T> = { cancelled: true } | { cancelled: false; value: T };

/**
 * Runs `call` with a signal that fires once `isCancelled` says so, asking every `pollMs` while
 * the call is in flight (and once before it starts, so a cancelled run never pays for a call).
 * An error thrown after the signal fired counts as the cancellation, not as a failure.
 */
export async function callUnlessCancelled<T>(
  isCancelled: () => Promise<boolean>,
  pollMs: number,
  call: (signal: AbortSignal) => Promise<T>,
): Promise<Cancellable<T>> {
  if (await isCancelled()) return { cancelled: true };
  const controller = new AbortController();
  let polling = false;
  const timer = setInterval(() => {
    if (polling) return;
    polling = true;
    isCancelled()
      .then((cancelled) => cancelled && controller.abort(new Error('execution cancelled')))
      // A failed poll is retried at the next tick; the call itself is unaffected.
      .catch(() => undefined)
      .finally(() => (polling = false));
  }, pollMs);
  timer.unref?.();
  try {
    const value = await call(controller.signal);
    return controller.signal.aborted ? { cancelled: true } : { cancelled: false, value };
  } catch (error) {
    if (controller.signal.aborted) return { cancelled: true };
    throw error;
  } finally {
    clearInterval(timer);
  }
}
