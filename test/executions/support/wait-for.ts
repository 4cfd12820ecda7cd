/** Polls `read` until `done` holds for its value; fails after `limitMs` with the last value seen. */
export async function waitFor<T>(read: () => Promise<T> | T, done: (value: T) => boolean, limitMs = 10_000, pollMs = 25): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`condition not reached in ${limitMs} ms; last value: ${JSON.stringify(value)?.slice(0, 500)}`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
