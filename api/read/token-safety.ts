/**
 * Token safety assessments (activities/safety/assess.ts documents the factors, thresholds and overall rule), as the
 * `safety` recompute stored them: read by unit for get_token and list_tokens (hideHighRisk).
 */
import { TOKEN_SAFETY, type TokenSafetyDoc } from '../../mongo/collections/index.js';
import type { Store } from '../../mongo/store.js';
import type { JsonSchema } from '../schema.js';

export type TokenSafety = Omit<TokenSafetyDoc, '_id'>;

/** The assessments of `units` that have one (tokens without a DEX pool have none). */
export async function safetyOf(deps: { store: Store }, units: readonly string[]): Promise<Map<string, TokenSafety>> {
  const docs = await deps.store.collection(TOKEN_SAFETY).getMany(units);
  const out = new Map<string, TokenSafety>();
  for (const d of docs)
    if (d) out.set(d._id, { level: d.level, highRisk: d.highRisk, factors: d.factors, computedAt: d.computedAt });
  return out;
}

const FACTOR: JsonSchema = {
  type: 'object',
  required: ['name', 'value', 'unit', 'risk', 'detail'],
  properties: {
    name: {
      type: 'string',
      enum: ['mintPolicy', 'holderConcentration', 'liquidityDepth', 'poolAge', 'topHolderLpShare'],
    },
    value: { type: ['number', 'string', 'null'], description: 'The measured value (in `unit`); null when unknown.' },
    unit: { type: ['string', 'null'], description: 'percent, ADA, hours, or null for a description.' },
    risk: { type: 'string', enum: ['low', 'medium', 'high', 'unknown'] },
    detail: { type: 'string', description: 'What was measured and why it matters.' },
  },
};

export const SAFETY_SCHEMA: JsonSchema = {
  type: ['object', 'null'],
  description:
    'Safety assessment from chain data: mint policy still able to mint, top-10 holder concentration (pools excluded), ' +
    'liquidity depth, pool age, LP share of the top LP holder. high = two or more high factors; medium = one high or ' +
    'two medium. null for a token without a DEX pool, or one not assessed yet (safetyNote says so).',
  required: ['level', 'highRisk', 'factors', 'computedAt'],
  properties: {
    level: { type: 'string', enum: ['low', 'medium', 'high'] },
    highRisk: { type: 'boolean' },
    factors: { type: 'array', items: FACTOR },
    computedAt: { type: 'string', format: 'date-time' },
  },
};
