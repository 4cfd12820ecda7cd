import fc from 'fast-check';
import type { JsonSchema } from './openapi-operations.js';

type Resolve = (schema: JsonSchema) => JsonSchema;

// Generated arrays and strings stay short: the point is plausible values, not volume.
const MAX_ITEMS = 4;
const MAX_STRING = 40;

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<string> {
  if (schema.format === 'uuid') return fc.uuid();
  if (schema.format === 'date-time')
    return fc.date({ min: new Date('2000-01-01'), max: new Date(), noInvalidDate: true }).map((d) => d.toISOString());
  if (schema.format === 'uri') return fc.webUrl();
  if (schema.format === 'email') return fc.emailAddress();
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? MAX_STRING, MAX_STRING));
  if (schema.pattern) {
    return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length >= minLength && s.length <= (schema.maxLength ?? Infinity));
  }
  return fc.string({ minLength, maxLength });
}

function numberArbitrary(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : -1_000_000);
  const max = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : 1_000_000);
  const bounded = { min: Math.max(min, Number.MIN_SAFE_INTEGER), max: Math.min(max, Number.MAX_SAFE_INTEGER) };
  return integer ? fc.integer(bounded) : fc.double({ ...bounded, noNaN: true, noDefaultInfinity: true });
}

function objectArbitrary(schema: JsonSchema, resolve: Resolve, requiredOnly = false): fc.Arbitrary<Record<string, unknown>> {
  const required = schema.required ?? [];
  const entries = Object.entries(schema.properties ?? {}).filter(([k]) => !requiredOnly || required.includes(k));
  const properties = Object.fromEntries(entries.map(([k, v]) => [k, schemaArbitrary(v, resolve)]));
  return fc.record(properties, { requiredKeys: required.filter((k) => k in properties) }) as fc.Arbitrary<Record<string, unknown>>;
}

/**
 * For an object schema, objects with only the required properties: every optional field is a
 * chance to fail validation, so these get past it (and reach the handler) far more often.
 */
export function minimalArbitrary(raw: JsonSchema, resolve: Resolve): fc.Arbitrary<unknown> {
  const schema = resolve(raw);
  return schema.type === 'object' ? objectArbitrary(schema, resolve, true) : schemaArbitrary(schema, resolve);
}

/**
 * Values that satisfy the schema's structural keywords (type, enum, bounds, pattern, format,
 * required). Refinements the schema cannot express (a cursor we issued, a ceiling that covers
 * the defaults) may still fail, which is fine: these are starting points for mutation.
 */
export function schemaArbitrary(raw: JsonSchema, resolve: Resolve): fc.Arbitrary<unknown> {
  const schema = resolve(raw);
  // The documented default and example are the likeliest values to get past the refinements.
  const known = [schema.default, schema.example].filter((v) => v !== undefined);
  const generated = structuralArbitrary(schema, resolve);
  return known.length ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: generated }) : generated;
}

function structuralArbitrary(schema: JsonSchema, resolve: Resolve): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((s) => schemaArbitrary(s, resolve)));
  if (schema.allOf?.length) return schemaArbitrary(schema.allOf[0], resolve);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return stringArbitrary(schema);
    case 'integer':
      return numberArbitrary(schema, true);
    case 'number':
      return numberArbitrary(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = schema.minItems ?? 0;
      return fc.array(schemaArbitrary(schema.items ?? {}, resolve), {
        minLength,
        maxLength: Math.max(minLength, Math.min(schema.maxItems ?? MAX_ITEMS, MAX_ITEMS)),
      });
    }
    case 'object':
      return objectArbitrary(schema, resolve);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}
