import { gitHubDescription, type DescribedOperation } from './github-description.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- parameters and responses are untyped description JSON */
type Node = Record<string, any>;

export interface CheckedRequest {
  /** The operation GitHub would route the request to; undefined when there is none. */
  described: DescribedOperation | undefined;
  /** `POST /repos/{owner}/{repo}/check-runs`, or the request's own method and path when not described. */
  operation: string;
  /** Everything GitHub's description does not allow in the request, as sentences. */
  problems: string[];
}

/**
 * Checks a request against GitHub's REST description: the operation exists, its path and query
 * parameters have the described types, enums and limits, and the JSON body is valid against the
 * operation's requestBody schema (`maxLength`, enums, required fields...). Header parameters are
 * not checked: what the App sends there is checked by the tests of its client.
 */
export function checkGitHubRequest(method: string, path: string, query: URLSearchParams, body: unknown): CheckedRequest {
  const description = gitHubDescription();
  const found = description.find(method, path);
  if (!found) return { described: undefined, operation: 'none', problems: ["no such operation in GitHub's REST description"] };
  const { described, params } = found;
  const operation = `${described.method} ${described.template}`;
  const parameters = ((described.operation.parameters ?? []) as Node[]).map((p) => description.resolve(p));
  const queryValues: Record<string, unknown> = {};
  for (const name of new Set(query.keys())) {
    const all = query.getAll(name);
    queryValues[name] = all.length === 1 ? all[0] : all;
  }
  const requestBody = description.resolve(described.operation.requestBody as Node);
  const bodySchema = requestBody?.content?.['application/json']?.schema as Node | undefined;
  const problems = [
    ...description.check(`${operation} path`, parametersSchema(parameters, 'path'), params, 'path', true),
    ...description.check(`${operation} query`, parametersSchema(parameters, 'query'), queryValues, 'query', true),
    ...(body instanceof Error
      ? [`body is not JSON: ${body.message}`]
      : body === undefined
        ? requestBody?.required
          ? ['body is required']
          : []
        : !requestBody
          ? ['body sent to an operation that takes none']
          : bodySchema
            ? description.check(`${operation} body`, bodySchema, body, 'body')
            : []),
  ];
  return { described, operation, problems };
}

/**
 * Checks an answer against the operation's response for its status. An error status the operation
 * does not list (401 bad credentials, a 502, a secondary rate limit) is held to GitHub's generic
 * error body; an unlisted success status is a problem. A raw text answer (the `raw` media type) is
 * not described by the description, so only its status is checked.
 */
export function checkGitHubAnswer(described: DescribedOperation, status: number, reply: { body?: unknown; text?: string }): string[] {
  const description = gitHubDescription();
  const operation = `${described.method} ${described.template}`;
  const declared = described.operation.responses?.[String(status)] as Node | undefined;
  if (!declared) {
    if (status < 400) return [`status ${status} is not an answer GitHub's description lists for this operation`];
    return reply.text === undefined ? description.check('basic-error', description.basicError, reply.body ?? {}, 'body') : [];
  }
  const content = description.resolve(declared).content as Node | undefined;
  if (reply.text !== undefined || status === 204) return [];
  if (!content) return reply.body === undefined ? [] : ['body sent with a status GitHub answers without one'];
  const type = 'application/json' in content ? 'application/json' : Object.keys(content).find((t) => t.includes('json'));
  const schema = type ? (content[type].schema as Node | undefined) : undefined;
  return schema ? description.check(`${operation} ${status}`, schema, reply.body ?? {}, 'body') : [];
}

function parametersSchema(parameters: Node[], where: 'path' | 'query'): Node {
  const own = parameters.filter((p) => p.in === where);
  return {
    type: 'object',
    properties: Object.fromEntries(own.map((p) => [p.name, p.schema ?? {}])),
    required: own.filter((p) => p.required || where === 'path').map((p) => p.name),
    additionalProperties: false,
  };
}
