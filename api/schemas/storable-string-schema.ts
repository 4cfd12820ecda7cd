import { z } from 'zod';
import { isStorableText } from '../../core/storable-text.js';

/**
 * A string field PostgreSQL can store as given (no NUL, no lone UTF-16 surrogate), refused at
 * its own location before the route does anything else (an override checks GitHub first).
 */
export function storableString() {
  return z.string().refine(isStorableText, 'Text cannot contain a NUL character or a lone UTF-16 surrogate.');
}
