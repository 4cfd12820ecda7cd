import fc from 'fast-check';
import { garbageCursor, hostileNumber, hostileString, hostileText, hostileValue, spliced } from './hostile-arbitraries.js';
import type { JsonSchema, Operation, Parameter } from './openapi-operations.js';
import { minimalArbitrary, schemaArbitrary } from './schema-arbitrary.js';

export type Body = { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'raw'; type: string; text: string };

export interface HostileRequest {
  method: Operation['method'];
  url: string;
  body: Body;
  caller: 'admin' | 'none' | 'invalid-key';
}

type Resolve = (schema: JsonSchema) => JsonSchema;

/** Percent-encodes any string, lone surrogates included (encodeURIComponent throws on those). */
export function urlComponent(value: string): string {
  return encodeURIComponent(value.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'));
}

// Already encoded on purpose: malformed escapes, an encoded slash, NUL.
const RAW_SEGMENTS = ['%', '%zz', '%E0%A4%A', '%00', '%2F', '%2e%2e', '..', '.', '%ff%fe'];

/** The schema's plausible value as text, sometimes with a troublesome character spliced in. */
function plausibleText(schema: JsonSchema | undefined, resolve: Resolve): fc.Arbitrary<string> {
  const text = schemaArbitrary(schema ?? {}, resolve).map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
  return fc.oneof(text, text.chain(spliced));
}

function pathValue(param: Parameter, resolve: Resolve, knownIds: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    plausibleText(param.schema, resolve).map(urlComponent),
    fc.constantFrom(...knownIds),
    fc.uuid().map(urlComponent),
    hostileText(3000)
      .filter((s) => s.length > 0)
      .map(urlComponent),
    fc.constantFrom(...RAW_SEGMENTS),
  );
}

function queryValue(param: Parameter, resolve: Resolve): fc.Arbitrary<string[]> {
  const one = fc.oneof(
    { weight: 5, arbitrary: plausibleText(param.schema, resolve).map(urlComponent) },
    { weight: 2, arbitrary: hostileText(3000).map(urlComponent) },
    { weight: 2, arbitrary: hostileNumber.map((n) => urlComponent(String(n))) },
    { weight: 1, arbitrary: fc.constantFrom('UNKNOWN_VALUE', 'true', '[]', '{}', 'Infinity', '-Infinity', '1.5', '1e3').map(urlComponent) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_SEGMENTS) },
    { weight: param.name === 'cursor' ? 4 : 0, arbitrary: garbageCursor.map(urlComponent) },
  );
  // Repeating a key makes the parsed value an array instead of a string.
  return fc.array(one, { minLength: 1, maxLength: 3 }).chain((values) => fc.constantFrom(values.slice(0, 1), values));
}

function queryString(operation: Operation, resolve: Resolve): fc.Arbitrary<string> {
  const params = [...operation.queryParams, { name: 'unexpected_param', in: 'query' as const }];
  const pairs = params.map((param) =>
    fc
      .option(queryValue(param, resolve), { nil: undefined, freq: 3 })
      .map((values) => (values ?? []).map((v) => `${urlComponent(param.name)}=${v}`)),
  );
  return fc.tuple(...pairs).map((all) => all.flat().join('&'));
}

type Mutation = 'replace' | 'remove' | 'extra' | 'splice';

/** The first string inside `value` (itself, or in an array) with a character spliced in; else undefined. */
function splicedInside(value: unknown, insert: (s: string) => string): unknown {
  if (typeof value === 'string') return insert(value);
  if (Array.isArray(value) && typeof value[0] === 'string') return [insert(value[0]), ...value.slice(1)];
  return undefined;
}

/**
 * A plausible body with one field replaced by a hostile value, removed, joined by an extra field,
 * or with a troublesome character spliced into its text.
 */
function mutatedBody(schema: JsonSchema, resolve: Resolve): fc.Arbitrary<unknown> {
  const schemaKeys = Object.keys(resolve(schema).properties ?? {});
  const how = fc.constantFrom<Mutation>('replace', 'remove', 'extra', 'splice', 'splice');
  const insert = spliced('').map((c) => (s: string) => s.slice(0, 1) + c + s.slice(1));
  const plausible = fc.oneof(schemaArbitrary(schema, resolve), minimalArbitrary(schema, resolve));
  return fc.tuple(plausible, fc.nat(), hostileValue, how, insert).map(([valid, at, hostile, mutation, splice]) => {
    if (typeof valid !== 'object' || valid === null || Array.isArray(valid) || schemaKeys.length === 0) return hostile;
    // Splice into a field the body has; the other mutations may pick any field of the schema.
    const present = Object.keys(valid);
    const keys = mutation === 'splice' && present.length ? present : schemaKeys;
    const key = keys[at % keys.length];
    const copy: Record<string, unknown> = { ...valid };
    if (mutation === 'replace') copy[key] = hostile;
    else if (mutation === 'remove') delete copy[key];
    else if (mutation === 'extra') copy[`extra_${at}`] = hostile;
    else copy[key] = splicedInside(copy[key], splice) ?? hostile;
    return copy;
  });
}

function bodyArbitrary(operation: Operation, resolve: Resolve): fc.Arbitrary<Body> {
  const json = (value: fc.Arbitrary<unknown>) => value.map((v): Body => ({ kind: 'json', value: v }));
  const raw = fc
    .oneof(
      fc.tuple(fc.constant('application/json'), fc.constantFrom('{', '{"a":', 'nul', '[1,]', '\u0000', '{"a":1}{"b":2}', '\ufeff{}')),
      fc.tuple(
        fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'multipart/form-data'),
        fc.string({ maxLength: 50 }),
      ),
    )
    .map(([type, text]): Body => ({ kind: 'raw', type, text }));
  if (!operation.body)
    return fc.oneof({ weight: 4, arbitrary: fc.constant<Body>({ kind: 'none' }) }, { weight: 1, arbitrary: json(hostileValue) });
  return fc.oneof(
    { weight: 1, arbitrary: json(schemaArbitrary(operation.body, resolve)) },
    { weight: 1, arbitrary: json(minimalArbitrary(operation.body, resolve)) },
    { weight: 4, arbitrary: json(mutatedBody(operation.body, resolve)) },
    { weight: 2, arbitrary: json(hostileValue) },
    { weight: 1, arbitrary: json(fc.dictionary(hostileString, hostileValue, { maxKeys: 8 })) },
    { weight: 1, arbitrary: fc.constant<Body>({ kind: 'none' }) },
    { weight: 1, arbitrary: raw },
  );
}

/**
 * Requests for one operation: hostile path parameters, query strings and bodies, with or without a
 * key. `knownIds` (of resources that exist) let path parameters reach past the 404.
 */
export function hostileRequest(operation: Operation, resolve: Resolve, knownIds: string[]): fc.Arbitrary<HostileRequest> {
  const params = operation.pathParams.map((p) => pathValue(p, resolve, knownIds).map((value) => [p.name, value] as const));
  return fc
    .record({
      params: fc.tuple(...params),
      query: queryString(operation, resolve),
      body: bodyArbitrary(operation, resolve),
      caller: fc.oneof(
        { weight: 6, arbitrary: fc.constant<HostileRequest['caller']>('admin') },
        { weight: 1, arbitrary: fc.constantFrom<HostileRequest['caller']>('none', 'invalid-key') },
      ),
    })
    .map(({ params: values, query, body, caller }) => {
      let path = operation.path;
      for (const [name, value] of values) path = path.replace(`{${name}}`, value);
      return { method: operation.method, url: query ? `${path}?${query}` : path, body, caller };
    });
}
