/**
 * Holders schemas (GET /tokens/{unit}/holders). A holder is a stake address when the address holding the token has
 * a stake key (all addresses of one stake key combined), else the address itself.
 */
import { component, type JsonSchema } from '../schema.js';

/** Largest holders returned per answer. */
export const HOLDERS_LIMIT = 100;

const HolderItem = component('Holder', {
  type: 'object',
  required: ['address', 'quantity', 'quantityRaw', 'share'],
  properties: {
    address: {
      type: 'string',
      description: 'The holder: its stake address (stake1…) when the holding addresses have one, else the address.',
    },
    quantity: { type: 'number', description: 'Decimal-adjusted quantity (token decimals applied).' },
    quantityRaw: { type: 'string', pattern: '^[0-9]+$', description: 'Exact on-chain quantity.' },
    share: {
      type: ['number', 'null'],
      description:
        'Fraction of the quantity in unspent outputs held, rounded down to 10^-15 (so shares never sum above 1).',
    },
  },
});

export const HoldersResponse: JsonSchema = component('Holders', {
  type: 'object',
  required: ['items', 'total', 'partial', 'fetchedAt'],
  properties: {
    items: {
      type: 'array',
      maxItems: HOLDERS_LIMIT,
      items: HolderItem,
      description: `The ${HOLDERS_LIMIT} largest holders, quantity descending.`,
    },
    total: { type: 'integer', minimum: 0, description: 'Distinct holders with a positive quantity (exact).' },
    partial: {
      type: 'boolean',
      description: 'false: computed from the whole indexed UTxO set, not a sample.',
    },
    fetchedAt: {
      type: ['string', 'null'],
      format: 'date-time',
      description: 'Time of the indexed chain tip the answer reflects (null before the first block is indexed).',
    },
    onChainQuantity: {
      type: 'number',
      description:
        "Quantity of the token in unspent outputs at that tip (decimal-adjusted), which every holder quantity sums to and each share is of. The token's circulatingSupply (GET /tokens/{unit}) is this less what its largest holders keep locked in scripts that are not markets.",
    },
    onChainQuantityRaw: { type: 'string', pattern: '^[0-9]+$', description: 'The same, exact on-chain integer.' },
  },
});
