/**
 * Schemas of the handles resource: GET /handles/{handle} and the `handle` object the wallet and explorer address
 * answers carry when they were asked for a handle. Objects are open (fields may be added within /v1).
 */
import { component, type JsonSchema, type ObjectSchema } from '../schema.js';
import { handleSchemas } from './common.js';

const d = (schema: JsonSchema, description: string): JsonSchema => ({ ...schema, description });
const strOrNull: JsonSchema = { type: ['string', 'null'] };

export const HandleParams: ObjectSchema = {
  type: 'object',
  required: ['handle'],
  properties: {
    handle: {
      type: 'string',
      anyOf: handleSchemas(true),
      description:
        'An ADA Handle: $name (URL-encoded %24name), name, or sub@root for a subhandle. Case-insensitive; a root is 1-28 of a-z 0-9 _ - . and sub@root 3-28 characters.',
    },
  },
};

/**
 * What a wallet or address answer asked for by handle echoes: the handle and where it resolved. A component of its
 * own, declared as `handle` by each answer that carries it (GET /wallet/{address}, its trades and pnl, GET
 * /explorer/address/{address}), so a client generating types from the document sees it.
 */
export const HandleRef = component('HandleRef', {
  type: 'object',
  description:
    'Present only when the address was given as an ADA Handle ($name or sub@root): the handle and where it resolved (the answer is for that stake key, or that address when it has none).',
  required: ['handle', 'name', 'kind', 'address', 'stakeAddress', 'script'],
  properties: {
    handle: d({ type: 'string' }, 'The handle without $, lowercase.'),
    name: d({ type: 'string' }, 'The handle as written: $ followed by the handle.'),
    kind: d(
      { type: 'string', enum: ['legacy', 'cip68', 'subhandle', 'virtual'] },
      'legacy: CIP-25 handle (2022); cip68: CIP-68 (222) handle; subhandle: NFT subhandle sub@root; virtual: virtual subhandle (held at a Kora Labs script, holder named in its datum).',
    ),
    address: d(
      { type: 'string' },
      'The address holding the handle (for a virtual subhandle: the address its datum names).',
    ),
    stakeAddress: d(strOrNull, 'Stake address of that address; null when it has no stake key.'),
    script: d({ type: 'boolean' }, 'The holding address has a script payment credential (multisig, marketplace).'),
  },
} satisfies ObjectSchema);

export const HandleResponse = component('Handle', {
  type: 'object',
  required: [
    ...HandleRef.required,
    'root',
    'policyId',
    'unit',
    'referenceUnit',
    'utxo',
    'image',
    'defaultHandle',
    'ogNumber',
    'rarity',
    'mintSlot',
    'mintTime',
    'updatedSlot',
    'updatedTime',
  ],
  properties: {
    ...HandleRef.properties,
    root: d({ type: 'string' }, 'Root handle of a subhandle, else the handle itself.'),
    policyId: d({ type: 'string' }, 'Minting policy (one of the two ADA Handle policies).'),
    unit: d(
      { type: 'string' },
      'policyId + asset name (hex) of the token that decides the holder: the legacy name, the (222) user token, or the (000) virtual subhandle token.',
    ),
    referenceUnit: d(
      strOrNull,
      'CIP-68 (100) reference token carrying the datum; null for legacy and virtual handles.',
    ),
    utxo: d(strOrNull, 'UTxO holding `unit`, txId#index.'),
    image: d(strOrNull, 'Image URI from the CIP-68 datum or the mint metadata (label 721).'),
    defaultHandle: d(
      { type: ['boolean', 'null'] },
      'The holder marked it as their default handle (CIP-68 personalisation); null when not stated.',
    ),
    ogNumber: d({ type: ['integer', 'null'] }, 'OG number (0: not an OG handle); null when not stated.'),
    rarity: d(strOrNull, 'basic, common, rare, ultra_rare or legendary (by length); null when not stated.'),
    mintSlot: d({ type: ['integer', 'null'] }, 'Slot of the mint; null when minted before the indexed range.'),
    mintTime: d({ type: ['string', 'null'], format: 'date-time' }, 'Time of mintSlot.'),
    updatedSlot: d({ type: 'integer' }, 'Slot of the last change seen (mint, transfer, datum update).'),
    updatedTime: d({ type: 'string', format: 'date-time' }, 'Time of updatedSlot.'),
  },
});
