import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import nodeUtil from 'node:util';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';

/* eslint-disable @typescript-eslint/no-explicit-any -- the description is untyped JSON, walked by key */
type Node = Record<string, any>;

/** One operation of GitHub's REST description, e.g. `POST /repos/{owner}/{repo}/check-runs`. */
export interface DescribedOperation {
  method: string;
  template: string;
  operation: Node;
  segments: string[];
}

/**
 * GitHub's REST description as `@octokit/openapi` ships it (api.github.com, OpenAPI 3.0.3), read once
 * per jest worker, with the schemas compiled by Ajv on first use and kept by operation. OpenAPI 3.0
 * schemas are not quite JSON Schema: `nullable: true` becomes `anyOf: [null, the schema]` (so a
 * nullable enum accepts null as GitHub sends it), and each `#/components/schemas/X` a checked schema
 * reaches is converted and added to Ajv on first use (adding all ~1,000 would cost each worker
 * about 300 ms). ARCHITECTURE.md, "Quality bars and the tests that hold them", says how the fake
 * uses it.
 */
export class GitHubDescription {
  private readonly document: Node;
  private readonly operations: DescribedOperation[] = [];
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly strictAjv = newAjv(false);
  private readonly coercingAjv = newAjv(true);
  private readonly added = new Map<Ajv, Set<string>>();

  constructor(path = createRequire(import.meta.url).resolve('@octokit/openapi/generated/api.github.com.json')) {
    this.document = JSON.parse(readFileSync(path, 'utf8')) as Node;
    for (const [template, item] of Object.entries(this.document.paths as Node)) {
      for (const [method, operation] of Object.entries(item as Node)) {
        this.operations.push({ method: method.toUpperCase(), template, operation, segments: template.split('/') });
      }
    }
  }

  /**
   * The operation GitHub routes `method path` to, with its path parameters decoded. Literal segments
   * win over parameters (`/issues/comments/1` is a comment, not issue "comments"); a last parameter
   * such as a file's `{path}` may span slashes.
   */
  find(method: string, rawPath: string): { described: DescribedOperation; params: Record<string, string> } | undefined {
    const parts = rawPath.split('/');
    const bind = (described: DescribedOperation) => {
      const { segments } = described;
      const spans = parts.length > segments.length && /^\{\w+\}$/.test(segments[segments.length - 1]);
      if (described.method !== method || (parts.length !== segments.length && !spans)) return undefined;
      const params: Record<string, string> = {};
      for (const [i, segment] of segments.entries()) {
        const part = i === segments.length - 1 && spans ? parts.slice(i).join('/') : parts[i];
        const name = /^\{(\w+)\}$/.exec(segment)?.[1];
        if (name === undefined ? part !== segment : part === '') return undefined;
        if (name !== undefined) params[name] = safeDecode(part);
      }
      return { described, params, literal: segments.filter((s) => !s.startsWith('{')).length, spans };
    };
    const found = this.operations
      .map(bind)
      .filter((m) => m !== undefined)
      .sort((a, b) => Number(a.spans) - Number(b.spans) || b.literal - a.literal);
    return found[0];
  }

  /** Resolves a `#/components/...` reference (parameters, responses) to the object it names. */
  resolve(node: Node): Node {
    if (typeof node?.$ref !== 'string') return node;
    return this.resolve(pointer(this.document, node.$ref));
  }

  /** GitHub's generic error body, for error answers an operation does not list (401, 502, rate limits). */
  get basicError(): Node {
    return this.document.components.schemas['basic-error'] as Node;
  }

  /**
   * The problems of `value` against `schema` (from this description), each as `where must ...`;
   * `key` names the schema's place so its compiled validator is kept. `coerce` reads strings as the
   * schema's types, as GitHub reads path and query parameters.
   */
  check(key: string, schema: Node, value: unknown, where: string, coerce = false): string[] {
    let validate = this.validators.get(key);
    if (!validate) {
      const ajv = coerce ? this.coercingAjv : this.strictAjv;
      validate = ajv.compile(toJsonSchema(schema, (name) => this.component(ajv, name)) as Node);
      this.validators.set(key, validate);
    }
    return validate(value) ? [] : describeErrors(validate.errors ?? [], where);
  }

  /**
   * The id under which `ajv` holds the component schema `name`, converted and added on first use
   * with the components it reaches. Ajv compiles each once and every operation calls it, so the
   * user and repository schemas that most answers embed are compiled once, not once per operation.
   */
  private component(ajv: Ajv, name: string): string {
    const id = `https://github-description.invalid/schemas/${name}`;
    const added = this.added.get(ajv) ?? new Set<string>();
    this.added.set(ajv, added);
    if (!added.has(name)) {
      added.add(name);
      const schema = toJsonSchema(this.document.components.schemas[name] as Node, (other) => this.component(ajv, other));
      ajv.addSchema(schema as Node, id);
    }
    return id;
  }
}

/**
 * Where the description is kept: on Node's own `util` module, which jest shares between the test
 * files a worker runs (each file gets fresh modules and globals), so a worker process reads and
 * compiles the description once, not once per test file. Ajv's compiled functions work on values
 * from any file's realm.
 */
const CACHE = Symbol.for('shipgate.test.github-description');
const shared = nodeUtil as unknown as { [CACHE]?: GitHubDescription };

/** The description, read on first use in the process (about 150 ms). */
export function gitHubDescription(): GitHubDescription {
  shared[CACHE] ??= new GitHubDescription();
  return shared[CACHE];
}

function newAjv(coerce: boolean): Ajv {
  // strict: false because OpenAPI adds keywords JSON Schema lacks (example, x-github, ...); verbose
  // keeps the offending value for the message.
  // inlineRefs: false and no code optimisation make compiling the large answer schemas about half
  // as slow; validating stays well under a millisecond.
  const ajv = new Ajv({
    strict: false,
    allErrors: true,
    verbose: true,
    inlineRefs: false,
    code: { optimize: false },
    coerceTypes: coerce ? 'array' : false,
  });
  ajv.addFormat('date-time', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/i);
  ajv.addFormat('date', /^\d{4}-\d\d-\d\d$/);
  ajv.addFormat('uri', (text: string) => URL.canParse(text));
  ajv.addFormat('email', /^[^\s@]+@[^\s@]+$/);
  // Annotations only: GitHub's description uses them as hints, not as constraints.
  for (const hint of ['uri-template', 'int32', 'int64', 'double', 'repo.nwo', 'binary']) ajv.addFormat(hint, true);
  return ajv;
}

/** OpenAPI 3.0 schema -> JSON Schema; `refer` gives the id of a `#/components/schemas/` component. */
function toJsonSchema(schema: Node | boolean, refer: (component: string) => string): Node | boolean {
  if (typeof schema !== 'object' || schema === null) return schema;
  const convert = (s: Node | boolean) => toJsonSchema(s, refer);
  const out: Node = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'nullable') continue;
    if (key === '$ref') {
      out.$ref = refer(String(value).replace('#/components/schemas/', ''));
    } else if (key === 'properties' || key === 'patternProperties') {
      out[key] = Object.fromEntries(Object.entries(value as Node).map(([name, s]) => [name, convert(s as Node)]));
    } else if (['items', 'additionalProperties', 'not'].includes(key)) {
      out[key] = Array.isArray(value) ? value.map(convert) : convert(value as Node);
    } else if (['allOf', 'anyOf', 'oneOf'].includes(key)) {
      out[key] = (value as Node[]).map(convert);
    } else {
      out[key] = value;
    }
  }
  return schema.nullable === true ? { anyOf: [{ type: 'null' }, out] } : out;
}

function pointer(document: Node, ref: string): Node {
  return ref
    .replace(/^#\//, '')
    .split('/')
    .reduce((node: Node, part) => node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')] as Node, document);
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** Ajv's errors as sentences; the `anyOf` wrapping of a nullable schema adds nothing a reader needs. */
function describeErrors(errors: ErrorObject[], where: string): string[] {
  const useful = errors.filter((e) => e.keyword !== 'anyOf' && !(e.keyword === 'type' && e.params.type === 'null'));
  return (useful.length ? useful : errors).map((e) => {
    const allowed = e.keyword === 'enum' ? ` ${JSON.stringify(e.params.allowedValues)}` : '';
    const got = ['enum', 'format', 'type', 'const'].includes(e.keyword) ? ` (got ${JSON.stringify(e.data)?.slice(0, 80)})` : '';
    return `${where}${e.instancePath} ${e.message}${allowed}${got}`;
  });
}
