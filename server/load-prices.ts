import fs from 'node:fs';
import { BUILT_IN_PRICES, mergePrices, priceTableSchema } from '../core/agent/prices.js';
import type { PriceTable } from '../core/agent/runtime-deps.js';
import { ConfigError } from './load-config.js';

/** The built-in price table merged with SHIPGATE_PRICES_FILE, read once at start. */
export function loadPrices(file: string | undefined): PriceTable {
  if (!file) return BUILT_IN_PRICES;
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError(`Invalid configuration:\n  SHIPGATE_PRICES_FILE: cannot read ${file} as JSON (${(error as Error).message})`);
  }
  const table = priceTableSchema.safeParse(parsed);
  if (!table.success) {
    throw new ConfigError(
      `Invalid configuration:\n  SHIPGATE_PRICES_FILE: ${file}: ${table.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  return mergePrices(BUILT_IN_PRICES, table.data);
}
