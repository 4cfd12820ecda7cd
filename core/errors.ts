/**
 * Named domain errors. Core code throws these; the API's one error middleware maps each
 * class to an HTTP status, so no domain module ever speaks HTTP.
 */
export class ShipgateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** A resource that does not exist, or that the caller may not see (never reveal which). */
export class NotFoundError extends ShipgateError {
  constructor(
    readonly resource: string,
    readonly id?: string,
  ) {
    // A sentence: `NotFoundError('held call')` says "Held call not found."
    super(`${resource.charAt(0).toUpperCase()}${resource.slice(1)} not found.`);
  }
}

export class ConflictError extends ShipgateError {}

export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/** Input that fails validation; `issues` are what the client gets as `detail`. */
export class ValidationError extends ShipgateError {
  constructor(readonly issues: ValidationIssue[]) {
    super(issues.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; '));
  }

  static single(loc: (string | number)[], msg: string, type = 'value_error'): ValidationError {
    return new ValidationError([{ loc, msg, type }]);
  }
}

/** No credentials, or credentials that do not identify an active key. */
export class AuthenticationError extends ShipgateError {}

/** Authenticated, but not allowed (role, deactivated account, separation of duties). */
export class ForbiddenError extends ShipgateError {}

export interface DeniedPermission {
  permission: string;
  reason: string;
  detail: string;
}

/** A request for capabilities beyond what a policy allows; carries every denial. */
export class PolicyDeniedError extends ShipgateError {
  constructor(
    message: string,
    readonly denied: DeniedPermission[],
  ) {
    super(message);
  }
}

export class RateLimitedError extends ShipgateError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** A dependency we cannot do without (the database) is unreachable. */
export class UnavailableError extends ShipgateError {}

/**
 * An evidence document that does not read as its format (docs/release-gate.md, "Evidence read by content"). `loc`
 * is the path inside the document (e.g. `['runs', 0, 'results']`), `[]` for the document as a whole.
 */
export class EvidenceDocumentInvalid extends ShipgateError {
  constructor(
    readonly loc: (string | number)[],
    message: string,
  ) {
    super(message);
  }
}

/**
 * An evidence document whose parse ran longer than SHIPGATE_PARSE_DEADLINE_SECONDS (docs/operations.md, "Security"):
 * refused like a document that does not read as its format, and nothing is stored.
 */
export class EvidenceParseDeadlineExceeded extends ShipgateError {
  constructor(readonly seconds: number) {
    super(
      `The document took longer than ${seconds} s to parse, the limit SHIPGATE_PARSE_DEADLINE_SECONDS sets for one document. Nothing was stored.`,
    );
  }
}
