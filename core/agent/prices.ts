import { z } from 'zod';
import type { ModelPrice, PriceTable } from './runtime-deps.js';

/**
 * Built-in prices in US cents per million tokens (list prices of the providers). Fractions are
 * fine here; charges are rounded up to whole cents per provider call (see budget.ts).
 * `cached_input` prices OpenAI cached prompt tokens and Anthropic cache reads; `cache_write`
 * prices Anthropic cache creation.
 */
export const BUILT_IN_PRICES: PriceTable = {
  'gpt-4o-mini': { input: 15, cached_input: 7.5, output: 60 },
  'gpt-4o': { input: 250, cached_input: 125, output: 1000 },
  'gpt-4.1': { input: 200, cached_input: 50, output: 800 },
  'gpt-4.1-mini': { input: 40, cached_input: 10, output: 160 },
  'gpt-4.1-nano': { input: 10, cached_input: 2.5, output: 40 },
  'o4-mini': { input: 110, cached_input: 27.5, output: 440 },
  o3: { input: 200, cached_input: 50, output: 800 },
  'o3-mini': { input: 110, cached_input: 55, output: 440 },
  'gpt-5': { input: 125, cached_input: 12.5, output: 1000 },
  'gpt-5-mini': { input: 25, cached_input: 2.5, output: 200 },
  'gpt-5-nano': { input: 5, cached_input: 0.5, output: 40 },
  'claude-3-5-haiku-latest': { input: 80, cache_write: 100, cached_input: 8, output: 400 },
  'claude-3-5-sonnet-latest': { input: 300, cache_write: 375, cached_input: 30, output: 1500 },
  'claude-3-7-sonnet-latest': { input: 300, cache_write: 375, cached_input: 30, output: 1500 },
  'claude-sonnet-4': { input: 300, cache_write: 375, cached_input: 30, output: 1500 },
  'claude-sonnet-4-0': { input: 300, cache_write: 375, cached_input: 30, output: 1500 },
  'claude-sonnet-4-5': { input: 300, cache_write: 375, cached_input: 30, output: 1500 },
  'claude-opus-4': { input: 1500, cache_write: 1875, cached_input: 150, output: 7500 },
  'claude-opus-4-0': { input: 1500, cache_write: 1875, cached_input: 150, output: 7500 },
  'claude-opus-4-1': { input: 1500, cache_write: 1875, cached_input: 150, output: 7500 },
  'claude-opus-4-5': { input: 500, cache_write: 625, cached_input: 50, output: 2500 },
  'claude-haiku-4-5': { input: 100, cache_write: 125, cached_input: 10, output: 500 },
};

const cents = z.number().finite().min(0);

/** The shape of SHIPGATE_PRICES_FILE: model -> cents per million tokens. */
export const priceTableSchema = z.record(
  z.string().min(1),
  z.strictObject({ input: cents, output: cents, cached_input: cents.optional(), cache_write: cents.optional() }),
);

/** The prices file's entries override (or add to) the built-in ones, model by model. */
export function mergePrices(builtIn: PriceTable, fromFile: PriceTable | undefined): PriceTable {
  return { ...builtIn, ...fromFile };
}

/** Dated snapshots (`gpt-4o-2024-08-06`, `claude-sonnet-4-20250514`) are priced as their family. */
const DATE_SUFFIX = /-(\d{4}-\d{2}-\d{2}|\d{8})$/;

/** The model's price, or undefined (`model_price_unknown`: a budget that cannot be counted cannot be enforced). */
export function priceFor(table: PriceTable, model: string): ModelPrice | undefined {
  const own = Object.hasOwn(table, model) ? table[model] : undefined;
  if (own) return own;
  const family = model.replace(DATE_SUFFIX, '');
  return family !== model && Object.hasOwn(table, family) ? table[family] : undefined;
}
