import type { Response } from 'supertest';
import type { TestApp } from '../../support/test-app.js';
import { freshKey } from './fresh-key.js';
import type { HostileRequest } from './hostile-request.js';

// A request that hangs is a failure too; supertest then rejects with a timeout error.
const TIMEOUT_MS = 5000;

/** Sends a generated request as given: the body bytes and content type untouched, the key per `caller`. */
export async function sendHostileRequest(t: TestApp, request: HostileRequest): Promise<Response> {
  let call = t.request[request.method](request.url).timeout(TIMEOUT_MS);
  if (request.caller === 'admin') call = call.set(await freshKey(t, t.admin.id));
  if (request.caller === 'invalid-key') call = call.set('Authorization', 'Bearer sg_not-a-key-anyone-was-given');
  const { body } = request;
  if (body.kind === 'json') return call.set('Content-Type', 'application/json').send(JSON.stringify(body.value));
  if (body.kind === 'raw') return call.set('Content-Type', body.type).send(body.text);
  return call;
}
