/** A user of a running shipgate (a spawned process) over plain HTTP. */
export interface ServiceUser {
  key: string;
  get(path: string): Promise<Response>;
  /** Queues a task; resolves with the execution id (throws unless 201). */
  submit(task: string, baseUrl?: string): Promise<string>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  execution(id: string): Promise<any>;
}

const JSON_HEADERS = { 'Content-Type': 'application/json' };

export function api(url: string) {
  return {
    /** Registers a user (the first one on a fresh database becomes ADMIN). */
    async register(email: string, password = 'correct horse battery'): Promise<ServiceUser> {
      const res = await fetch(`${url}/api/v1/auth/register`, {
        method: 'POST',
        headers: JSON_HEADERS,
        body: JSON.stringify({ email, name: 'Ops', password }),
      });
      if (res.status !== 201) throw new Error(`register: ${res.status} ${await res.text()}`);
      return userOf(url, ((await res.json()) as { api_key: string }).api_key);
    },
  };
}

export function userOf(url: string, key: string): ServiceUser {
  const auth = { Authorization: `Bearer ${key}` };
  const get = (path: string, base = url) => fetch(`${base}${path}`, { headers: auth });
  return {
    key,
    get,
    async submit(task, base = url) {
      const res = await fetch(`${base}/api/v1/tasks`, {
        method: 'POST',
        headers: { ...auth, ...JSON_HEADERS },
        body: JSON.stringify({ task }),
      });
      if (res.status !== 201) throw new Error(`submit: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { id: string }).id;
    },
    async execution(id) {
      return (await get(`/api/v1/executions/${id}`)).json();
    },
  };
}

export interface LoadResult {
  statuses: Map<number, number>;
  slowestMs: number;
}

/** `connections` loops sending `request` back to back for `durationMs`; counts statuses (0 = no answer). */
export async function hammer(request: () => Promise<Response>, { connections, durationMs }: { connections: number; durationMs: number }) {
  const until = Date.now() + durationMs;
  const result: LoadResult = { statuses: new Map(), slowestMs: 0 };
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < until) {
        const started = Date.now();
        const status = await request().then(
          async (res) => (await res.arrayBuffer(), res.status),
          () => 0,
        );
        result.slowestMs = Math.max(result.slowestMs, Date.now() - started);
        result.statuses.set(status, (result.statuses.get(status) ?? 0) + 1);
      }
    }),
  );
  return result;
}

/** Every non-empty line of a process's output, parsed; throws naming the first line that is not JSON. */
export function jsonLines(output: string): Record<string, unknown>[] {
  return output
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new Error(`not a JSON log line: ${line.slice(0, 300)}`);
      }
    });
}
