import { isDeepStrictEqual } from 'node:util';
import type { RouteDef } from './route.js';

/** Why a success response does not match what its route declares, or undefined when it does. */
export type ResponseContractViolation = string | undefined;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The first place where the parsed body lost or changed something: an undeclared field, mostly. */
function firstDifference(sent: unknown, parsed: unknown, path: string): string | undefined {
  if (isPlainObject(sent) && isPlainObject(parsed)) {
    for (const key of Object.keys(sent)) {
      if (!(key in parsed)) return `undeclared field ${path}.${key}`;
      const inner = firstDifference(sent[key], parsed[key], `${path}.${key}`);
      if (inner) return inner;
    }
    for (const key of Object.keys(parsed)) if (!(key in sent)) return `field ${path}.${key} is missing (the schema fills a default)`;
    return undefined;
  }
  if (Array.isArray(sent) && Array.isArray(parsed)) {
    for (let i = 0; i < sent.length; i++) {
      const inner = firstDifference(sent[i], parsed[i], `${path}[${i}]`);
      if (inner) return inner;
    }
    return undefined;
  }
  return isDeepStrictEqual(sent, parsed) ? undefined : `value at ${path} changes when parsed by the schema`;
}

function isJson(contentType: string | undefined): boolean {
  return !contentType || contentType === 'application/json';
}

/**
 * Parses a success body STRICTLY against the route's declared response schema: the body as it goes
 * on the wire (after JSON serialisation) must parse, and parsing must give back exactly the body, so
 * a missing field, a wrong type and an undeclared field (which zod would silently strip) all fail.
 * Bodies that are not JSON (SVG badge, attachments declared with another content type) are skipped.
 */
export function checkResponseContract(route: RouteDef, status: number, body: unknown): ResponseContractViolation {
  if (status < 200 || status > 299) return undefined;
  const where = `${route.method.toUpperCase()} ${route.path} ${status}`;
  const spec = route.responses[status];
  if (!spec) return `${where}: status not declared by the route`;
  if (!isJson(spec.contentType)) return undefined;
  if (body === undefined || body === null) return spec.schema ? `${where}: declared a body, sent none` : undefined;
  // A JSON body sent as its text already (the decision's, core/release/decision-answer-json.ts) is checked as parsed.
  const text = Buffer.isBuffer(body) ? body.toString('utf8') : undefined;
  if (text === undefined && (typeof body !== 'object' || typeof (body as { pipe?: unknown }).pipe === 'function')) return undefined;
  if (!spec.schema) return `${where}: sent a JSON body, but the route declares none`;
  const sent: unknown = JSON.parse(text ?? JSON.stringify(body));
  const result = spec.schema.safeParse(sent);
  if (!result.success) {
    const issues = result.error.issues.map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`);
    return `${where}: ${issues.join('; ')}`;
  }
  const difference = firstDifference(sent, result.data, '$');
  return difference ? `${where}: ${difference}` : undefined;
}
