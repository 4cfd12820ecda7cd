import { ActionError } from './action-error.js';

/** shipgate answered a 4xx other than 429: its status and `{"detail": ...}` kept, for a caller that can act on them. */
export class ShipgateRefusal extends ActionError {
  override name = 'ShipgateRefusal';
  constructor(
    message: string,
    readonly status: number,
    readonly detail: unknown,
  ) {
    super(message);
  }
}
