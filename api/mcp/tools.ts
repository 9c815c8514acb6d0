/**
 * The tool server's 20 tools (spec: "Tool server (Model Context Protocol)"), in the order `tools/list` publishes
 * them. Each is a thin presenter over read functions: REST bodies (api/mcp/reads.ts) rewritten by the rules of
 * api/mcp/present.ts (fractions → `*Pct` percent, unix seconds → ISO), plus the search index, the token safety
 * assessment and NFT rarity (api/read/search.ts, token-safety.ts, nft-rarity.ts).
 *
 * `TOOLS` is the one list other surfaces import (llms-full.txt): name, title, description, inputSchema,
 * outputSchema as published (both JSON Schema 2020-12, object-rooted so both protocol eras see one shape). Every output schema
 * carries `asOf` (ISO time of the indexed tip block) and `lagSeconds` (chain tip − indexed tip), added by the
 * server (api/mcp/server.ts) to every result.
 */
import { bech32PoolId } from '../../cardano/address.js';
import { BadRequestError, NotReadyError } from '../errors.js';
import type { ApiDeps } from '../deps.js';
import { rarityOf } from '../read/nft-rarity.js';
import { nftSalesOfTx, tradesOfTx } from '../read/tx-activity.js';
import { search, SEARCH_KINDS } from '../read/search.js';
import type { Candle } from '../read/tokens.js';
import { safetyOf, SAFETY_SCHEMA } from '../read/token-safety.js';
import type { JsonSchema, ObjectSchema } from '../schema.js';
import { MAX_ADA_SUPPLY } from '../schemas/common.js';
import { UNIT_PATTERN } from '../schemas/market.js';
import { loadAssets } from '../present/market.js';
import { lovelaceToAda, lovelaceToAdaOrNull, scaleBigInt, scaleInteger } from '../../cardano/units.js';
import { factorSchema, presentSchema, presentValue } from './present.js';
import { read, routeSpec, type ReadInput } from './reads.js';

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: ObjectSchema;
  outputSchema: ObjectSchema;
}

export interface Tool extends ToolDefinition {
  /** The structured result (without asOf/lagSeconds); throws BadRequestError/NotFoundError for caller mistakes. */
  run(deps: ApiDeps, args: Record<string, unknown>): Promise<Record<string, unknown>>;
  /**
   * REST parameter → this tool's argument, for every REST parameter the tool fills from an argument of another
   * name: the REST error texts the tool passes on name the argument the caller sent (api/mcp/server.ts).
   */
  restArgs?: Readonly<Record<string, string>>;
  /**
   * Paths of the result's lists in time order with the newest item last: a result over the size budget keeps their
   * latest items (api/mcp/fit.ts), not their oldest.
   */
  newestLast?: readonly string[];
  /**
   * The result's list that `limit` and `cursor` page (its nextCursor continues after the last item read): a result
   * over the size budget is read again with a smaller limit instead of cut there (api/mcp/server.ts), or paging on
   * from its nextCursor would skip the items the cut left out.
   */
  cursorList?: string;
}

// ---------------------------------------------------------------------------------------------------------------
// Argument schemas (shared pieces)

const str = (description: string, extra: JsonSchema = {}): JsonSchema => ({ type: 'string', description, ...extra });
const int = (description: string, min: number, max: number, dflt?: number): JsonSchema => ({
  type: 'integer',
  minimum: min,
  maximum: max,
  description,
  ...(dflt === undefined ? {} : { default: dflt }),
});
/*
 * `x-expected`: what an identifier argument must be, in the words of the argument error (api/mcp/server.ts), with
 * where to get one; agents often pass a name or ticker. Not published (server.ts strips it from tools/list).
 */
// An asset1… fingerprint (CIP-14, as explorers and wallets show a token) is a hash of the unit: search finds its token.
const FIND_TOKEN = 'not a name, ticker or asset1… fingerprint (call search with it to get its unit)';
/** A swap side: any unit, ADA included. */
const UNIT = str('Token unit: policy id (56 hex) + asset name hex, or "lovelace" for ADA.', {
  pattern: `^(lovelace|${UNIT_PATTERN.slice(1, -1)})$`,
  'x-expected': `lovelace (ADA) or a token unit, policy id (56 hex) + asset name hex, ${FIND_TOKEN}`,
});
/** A token the token tools answer for: ADA (`lovelace`) is no token there, so it is not offered. */
const TOKEN_UNIT = str('Token unit: policy id (56 hex) + asset name hex (ADA itself, lovelace, has no token answer).', {
  pattern: UNIT_PATTERN,
  'x-expected': `a token unit, policy id (56 hex) + asset name hex, ${FIND_TOKEN}; ADA itself (lovelace) has no token answer`,
});
/** A stake pool id as the tool takes it: bech32 pool1…, or the pool's 28-byte key hash as 56 hex (then converted). */
const STAKE_POOL_ID = '^(pool1[02-9ac-hj-np-z]{50,60}|[0-9a-fA-F]{56})$';
/**
 * A REST query parameter's own description, for the tool argument that fills it: what its values mean (which end a
 * ranking starts from, which proposals a status holds) is said once, in the REST schema, and an agent reading
 * tools/list learns the same as a REST reader of the OpenAPI document.
 */
const restParamDescription = (operationId: string, name: string): string =>
  String((routeSpec(operationId).query.properties[name] as JsonSchema).description);
/** The REST paging and filter parameters the list tools fill from `limit` and `query`. */
const LIST_ARGS = { pageSize: 'limit', q: 'query' } as const;
const POLICY = str('NFT collection policy id (56 hex characters).', {
  pattern: '^[0-9a-fA-F]{56}$',
  'x-expected': 'an NFT policy id (56 hex), not a collection name (call list_nft_collections with query to find it)',
});
/*
 * `max` keeps a tool's largest answer under 25,000 tokens (≈ characters / 4; agents' clients refuse or cut a larger
 * result): a list pages with `cursor` or `page` instead (checked by test/mcp/tools.test.ts). A trade is ~320 tokens
 * (two assets with their logo URLs), a wallet position ~125, an NFT listing ~220 (more for a bundle), a token row
 * ~420, a governance action ~410.
 */
const LIMIT = (dflt: number, max = 200) => int(`How many items (1-${max}).`, 1, max, dflt);
/** A list tool's `query`: the REST lists' rule (api/schemas/common.ts searchText), published in the schema. */
const QUERY = (description: string, max = 100) =>
  str(`${description} Leave it out to list everything.`, {
    minLength: 1,
    maxLength: max,
    pattern: '\\S',
    'x-expected': `a search text of 1 to ${max} characters, not only spaces (leave query out to list everything)`,
  });
const CURSOR = str(
  'Opaque cursor from a previous answer (nextCursor) to continue the list after its last item (a page of large items may hold fewer than limit).',
);
/** The page a list tool answers; `what` names the list when the result also carries other fields. */
const PAGE = (what = 'the list') =>
  int(
    `Page of ${what} (1-based; pages are limit items long: ask for the next while a page comes back full).`,
    1,
    1000,
    1,
  );
/** Page `page` (from 1) of `size` items of `items`. */
const pageOf = <T>(items: readonly T[], page: unknown, size: number): T[] => {
  const from = (((page as number | undefined) ?? 1) - 1) * size;
  return items.slice(from, from + size);
};

const input = (properties: Record<string, JsonSchema>, required: string[] = []): ObjectSchema => ({
  type: 'object',
  properties,
  ...(required.length ? { required } : {}),
  additionalProperties: false,
});

/** The tool view of a REST operation's 200 body. */
const restOut = (operationId: string): ObjectSchema => presentSchema(routeSpec(operationId).response) as ObjectSchema;
const present = (operationId: string, body: unknown) =>
  presentValue(routeSpec(operationId).response, body) as Record<string, unknown>;
const get = async (deps: ApiDeps, operationId: string, args: ReadInput) =>
  present(operationId, await read(deps, operationId, args));

/** An object schema with extra properties (required) added to a REST view. */
function extend(base: ObjectSchema, props: Record<string, JsonSchema>, drop: string[] = []): ObjectSchema {
  const properties = Object.fromEntries(Object.entries(base.properties).filter(([k]) => !drop.includes(k)));
  return {
    ...base,
    properties: { ...properties, ...props },
    required: [...new Set([...(base.required ?? []).filter((r) => !drop.includes(r)), ...Object.keys(props)])],
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Compact candles

const CANDLE_ROW: JsonSchema = {
  type: 'array',
  description: '[time ISO (bucket start, UTC), open, high, low, close, volumeAda, trades]',
  prefixItems: [
    { type: 'string', format: 'date-time' },
    { type: 'number' },
    { type: 'number' },
    { type: 'number' },
    { type: 'number' },
    { type: 'number' },
    { type: 'integer' },
  ],
  minItems: 7,
  maxItems: 7,
};

// ---------------------------------------------------------------------------------------------------------------
// Stake pools: the REST list is paged in rank order; filters and sorts apply over every page.

const STAKE_SORTS = ['liveStake', 'saturation', 'margin', 'fixedCost', 'pledge', 'delegators', 'blocks', 'roa'];
interface StakePoolRow {
  id: string;
  ticker: string | null;
  status: string;
  name: string | null;
  liveStake: number;
  saturation: number;
  margin: number;
  fixedCost: number;
  pledge: number;
  delegators: number;
  blocksThisEpoch: number;
  roa: number | null;
}

async function allStakePools(deps: ApiDeps): Promise<{ items: StakePoolRow[]; epoch: unknown; computedAt: unknown }> {
  const items: StakePoolRow[] = [];
  let epoch: unknown = null;
  let computedAt: unknown = null;
  for (let page = 1; page <= 100; page++) {
    const b = await read<{ items: StakePoolRow[]; total: number; epoch: unknown; computedAt: unknown }>(
      deps,
      'listStakePools',
      { page, pageSize: 200 },
    );
    items.push(...b.items);
    epoch = b.epoch;
    computedAt = b.computedAt;
    if (items.length >= b.total || b.items.length === 0) break;
  }
  return { items, epoch, computedAt };
}

// ---------------------------------------------------------------------------------------------------------------
// The tools

const SWAP_QUOTE_OUT = extend(restOut('getSwapQuote'), {
  swapUrl: str('Page on this site that prepares the swap in the user’s own wallet (nothing is built here).', {
    format: 'uri',
  }),
  minPoolLiquidityAda: {
    type: ['number', 'null'],
    description: 'Smallest pool liquidity (TVL, whole ADA) on the best route; null when no route.',
  },
});

/** How many of a token's largest holders get_token names (the REST holders list gives 100). */
const TOKEN_TOP_HOLDERS = 10;

/**
 * get_token's largest holders: the first items of GET /tokens/{unit}/holders as the tool presents them (share as
 * sharePct). No other tool names who holds a token, so without them "who holds most of X" had no answer.
 */
const TOP_HOLDERS: JsonSchema = {
  type: 'array',
  maxItems: TOKEN_TOP_HOLDERS,
  description: `The token's ${TOKEN_TOP_HOLDERS} largest holders as of asOf, quantity descending: address (its stake key stake1… when the holding addresses have one, every address of that key combined, else the address; DEX pools and other scripts included), quantity decimal-adjusted (exact base units in quantityRaw), sharePct of the quantity in unspent outputs (percent). stats.holders counts them all; get_wallet with an address shows what else it holds.`,
  items: (restOut('getTokenHolders').properties.items as { items: JsonSchema }).items,
};

/**
 * A list tool whose recompute has not run yet (a start or resync: its stamp, updatedAt or computedAt, is null): an
 * empty list would tell an agent the chain has none of them, so the call is "not ready" (REST keeps the list shape
 * and says it with the null stamp). `every`: the recompute's interval as the read layer's own messages say it.
 */
function notComputedYet(figures: string, recompute: string, every: string, retryAfter: number): NotReadyError {
  const retry = every.endsWith('minutes') ? 'retry in a few minutes' : 'retry shortly';
  return new NotReadyError(
    `the ${figures} are not computed yet (the ${recompute} recompute runs every ${every}); ${retry}`,
    retryAfter,
  );
}

/**
 * Why a token with a DEX pool has no safety assessment: the safety recompute (every 5 minutes) has not run since its
 * first pool was indexed, or since the start. Without it, `safety: null` read as "no DEX pool" (the schema's other
 * case), just for the tokens whose pools are newest.
 */
const SAFETY_NOT_YET =
  'Not assessed yet: the safety assessment is recomputed every 5 minutes and has not run since this token’s first DEX pool was indexed (or since the service started); call again in a few minutes.';
const TOKEN_OUT = extend(restOut('getToken'), {
  safety: SAFETY_SCHEMA,
  safetyNote: {
    type: ['string', 'null'],
    description: 'Why safety is null for a token that has a DEX pool (not assessed yet); null otherwise.',
  },
  topHolders: TOP_HOLDERS,
});

const LIST_TOKENS_OUT = (() => {
  const base = restOut('listTokens');
  const items = base.properties.items as JsonSchema & { items: ObjectSchema };
  return extend(base, {
    items: { ...items, items: extend(items.items, { highRisk: { type: ['boolean', 'null'] } }) },
    hiddenHighRisk: {
      type: 'integer',
      description: 'Tokens of the whole list left out by hideHighRisk (0 without it); pages are filled after it.',
    },
  });
})();

const LISTINGS_OUT = (() => {
  const base = restOut('getNftCollectionListings');
  const items = base.properties.items as JsonSchema & { items: ObjectSchema };
  return extend(base, {
    items: {
      ...items,
      items: extend(items.items, {
        rarityRank: {
          type: ['integer', 'null'],
          description: '1 = rarest in the collection by trait frequencies; null when the collection has no traits.',
        },
      }),
    },
    rarityRankedOf: {
      type: ['integer', 'null'],
      description: 'Assets the rarity ranks are taken over (the collection’s NFTs with traits); null if unranked.',
    },
  });
})();

const STAKE_POOLS_OUT = restOut('listStakePools');

/** Swaps of the last 24 h a get_wallet answer lists (beside up to 50 positions: both within the token budget). */
const WALLET_TRADES = 20;

const WALLET_OUT = extend(restOut('getWallet'), {
  positionsTotal: {
    type: 'integer',
    description: 'Positions the wallet holds; positions lists `limit` of them, page by page (argument page).',
  },
  trades24h: {
    type: 'object',
    required: ['count', 'items'],
    properties: {
      count: {
        type: 'integer',
        description:
          'Trades of the wallet in the last 24 h (up to 200 counted): its DEX orders, executed (status complete), waiting (pending) or refunded (cancelled); each item says which.',
      },
      items: {
        ...(restOut('getWalletTrades').properties.items as JsonSchema),
        description: `The latest ${WALLET_TRADES} of them; get_recent_trades with address pages through the rest.`,
      },
    },
  },
});

const RECENT_TRADES_OUT = restOut('getTokenTrades');

const COLLECTION_OUT = restOut('getNftCollection');

const SIGNED_ASSET: JsonSchema = {
  type: 'object',
  required: ['unit', 'quantity', 'quantityRaw'],
  properties: {
    unit: { type: 'string' },
    quantity: { type: 'number', description: 'Decimal-adjusted change (negative = left the address).' },
    quantityRaw: { type: 'string', pattern: '^-?[0-9]+$' },
  },
};

const TX_OUT = extend(restOut('getTransaction'), {
  netChanges: {
    type: ['array', 'null'],
    description:
      'Per address: outputs received minus inputs spent (ADA and tokens); addresses with no change left out. ' +
      'null when an input it spent was created before the indexed history (its address and value are unknown): ' +
      'netChangesNote says so.',
    items: {
      type: 'object',
      required: ['address', 'ada', 'lovelace', 'assets'],
      properties: {
        address: { type: 'string' },
        ada: { type: 'number' },
        lovelace: { type: 'string', pattern: '^-?[0-9]+$' },
        assets: { type: 'array', items: SIGNED_ASSET },
      },
    },
  },
  netChangesNote: {
    type: ['string', 'null'],
    description: 'Why netChanges is null (inputs older than the indexed history); null when it is given.',
  },
  swaps: {
    type: 'array',
    description:
      'DEX swaps this transaction placed or executed: amounts decimal-adjusted (exact base units in *Raw), valueAda in whole ADA.',
    items: {
      type: 'object',
      required: [
        'tradeId',
        'poolId',
        'dex',
        'status',
        'side',
        'tokenIn',
        'tokenOut',
        'tokenInName',
        'tokenOutName',
        'amountIn',
        'amountOut',
        'amountInRaw',
        'amountOutRaw',
        'valueAda',
        'batcherFeeAda',
        'maker',
      ],
      properties: {
        tradeId: { type: 'integer' },
        poolId: { type: ['integer', 'null'] },
        dex: { type: 'string' },
        status: { type: 'string' },
        side: { type: ['string', 'null'] },
        tokenIn: { type: 'string' },
        tokenOut: { type: 'string' },
        tokenInName: { type: 'string', description: 'Ticker or name of tokenIn (ADA for lovelace).' },
        tokenOutName: { type: 'string', description: 'Ticker or name of tokenOut.' },
        amountIn: { type: 'number', description: 'Decimal-adjusted.' },
        amountOut: { type: ['number', 'null'], description: 'Decimal-adjusted; null while pending or when cancelled.' },
        amountInRaw: { type: 'string' },
        amountOutRaw: { type: ['string', 'null'] },
        valueAda: { type: ['number', 'null'] },
        batcherFeeAda: {
          type: ['number', 'null'],
          description: 'ADA the batcher took for executing the order; null while pending, cancelled or unknown.',
        },
        maker: { type: ['string', 'null'] },
      },
    },
  },
  nftSales: {
    type: 'array',
    description: 'NFT sales this transaction settled.',
    items: {
      type: 'object',
      required: ['units', 'priceAda', 'marketplace', 'buyer', 'seller'],
      properties: {
        units: { type: 'array', items: { type: 'string' } },
        priceAda: { type: ['number', 'null'] },
        marketplace: { type: 'string' },
        buyer: { type: ['string', 'null'] },
        seller: { type: ['string', 'null'] },
      },
    },
  },
});

interface TxSide {
  address: string | null;
  stakeAddress?: string | null;
  lovelace: string | null;
  assets: { unit: string; policyId: string; quantity: number; quantityRaw: string; decimals: number }[];
}

/**
 * Outputs minus inputs per address (valid transactions: inputs → outputs; failed: collaterals → return), with
 * `note` null. When an input it spent is unresolved (created before the indexed history), its address and value
 * are unknown and any address's change may be off by it (a change output would read as a gain): `changes` is null
 * and `note` says why.
 */
export function netChanges(tx: {
  valid: boolean;
  inputs: TxSide[];
  outputs: TxSide[];
  collaterals: TxSide[];
  collateralReturn: TxSide | null;
}) {
  const spent = tx.valid ? tx.inputs : tx.collaterals;
  const made = tx.valid ? tx.outputs : tx.collateralReturn ? [tx.collateralReturn] : [];
  const unknown = spent.filter((i) => !i.address).length;
  if (unknown > 0)
    return {
      changes: null,
      note:
        `${unknown} of the ${spent.length} ${tx.valid ? 'inputs' : 'collateral inputs'} it spent ` +
        `${unknown === 1 ? 'was' : 'were'} created before the indexed history (address and value unknown), so ` +
        'no net change per address can be given; its inputs and outputs are listed.',
    };
  const by = new Map<string, { lovelace: bigint; assets: Map<string, bigint> }>();
  // The token's decimals, to scale the exact sum as every other amount is scaled (a ratio of two doubles would
  // print 1319604694 base units at 6 decimals as 1319.6046939999999).
  const decimals = new Map<string, number>();
  const add = (side: TxSide, sign: 1n | -1n) => {
    if (!side.address) return;
    let e = by.get(side.address);
    if (!e) by.set(side.address, (e = { lovelace: 0n, assets: new Map() }));
    e.lovelace += sign * BigInt(side.lovelace ?? '0');
    for (const a of side.assets) {
      e.assets.set(a.unit, (e.assets.get(a.unit) ?? 0n) + sign * BigInt(a.quantityRaw));
      decimals.set(a.unit, a.decimals);
    }
  };
  for (const i of spent) add(i, -1n);
  for (const o of made) add(o, 1n);
  const changes = [...by.entries()].flatMap(([address, e]) => {
    const assets = [...e.assets.entries()]
      .filter(([, q]) => q !== 0n)
      .map(([unit, q]) => ({ unit, quantity: scaleBigInt(q, decimals.get(unit) ?? 0), quantityRaw: q.toString() }));
    if (e.lovelace === 0n && assets.length === 0) return [];
    return [{ address, ada: lovelaceToAda(e.lovelace), lovelace: e.lovelace.toString(), assets }];
  });
  return { changes, note: null };
}

/**
 * An address argument (addr1…, stake1…, $handle) as pasted, without the spaces or line break around it: no address
 * or handle holds one, and search and resolve_handle take the same text trimmed.
 */
const addressArg = (args: Record<string, unknown>): string => String(args.address).trim();
/**
 * An address argument: as long as REST takes one (1023 characters). Bech32 addresses stay under 120, but a Byron
 * address carries its attributes (an HD derivation path) inside and can run to hundreds of characters.
 */
const addressParam = (description: string): JsonSchema => str(description, { minLength: 2, maxLength: 1023 });

/** The tools with their implementations, in list order. */
export const TOOL_SET: readonly Tool[] = [
  {
    name: 'search',
    title: 'Search',
    description:
      'Find a token, pool, NFT collection, stake pool, handle, address, transaction, block, epoch or governance proposal by name, ticker or identifier. Each hit names the next tool and the argument to pass. Stake amounts in whole ADA.',
    inputSchema: input(
      {
        query: str(
          'Name, ticker, $handle, unit, asset1… fingerprint (of a token), policy id, DEX pool id, pool1…, addr1…/stake1…/Byron address, tx or block hash, height, epoch, gov_action1… or txId#index.',
          {
            minLength: 1,
            // As long as an address get_address takes (a Byron address carrying an HD path runs to hundreds of
            // characters): search finds every address that tool answers for.
            maxLength: 1023,
            pattern: '\\S',
            'x-expected': 'a search text of 1 to 1023 characters, not only spaces',
          },
        ),
        limit: LIMIT(10, 50),
      },
      ['query'],
    ),
    outputSchema: {
      type: 'object',
      required: ['query', 'hits'],
      properties: {
        query: { type: 'string' },
        hits: {
          type: 'array',
          items: {
            type: 'object',
            required: ['kind', 'id', 'label', 'tool', 'arguments'],
            properties: {
              kind: { type: 'string', enum: [...SEARCH_KINDS] },
              id: { type: 'string', description: 'The entity id.' },
              label: { type: 'string', description: 'Name and ticker as shown to people.' },
              detail: { type: ['string', 'null'], description: 'One line: price, stake (whole ADA), holder…' },
              tool: { type: 'string', description: 'The tool to call next for this hit.' },
              arguments: { type: 'object', description: 'The arguments to pass to that tool.' },
            },
          },
        },
        note: {
          type: 'string',
          description:
            'Only with no hits: the names index is not built yet or trails the chain, and when it catches up; ' +
            'else what search finds and how to query it, and the list tools to browse with.',
        },
      },
    },
    async run(deps, args) {
      return {
        ...(await search(deps, { query: String(args.query), limit: (args.limit as number | undefined) ?? 10 })),
      };
    },
  },
  {
    name: 'list_tokens',
    title: 'List tokens',
    description:
      'Ranked token list: prices in ADA and USD, 24 h volume and liquidity in ADA, market cap USD, price changes in percent, supplies decimal-adjusted. Default sort rank.',
    inputSchema: input({
      // What each ranking orders by (GET /tokens sort semantics, read with REST's default quote, USD, and period,
      // 24 h): gainers and losers rank the USD change, which differs from the ADA change (change24hPct) by ADA's own
      // move; 'Ranking.' left an agent reporting a gainer by its ADA change, or a 'gainer' that fell in USD.
      sort: str(
        'Ranking, largest first: rank (market cap and liquidity combined), trending (trades in the last hour), ' +
          'volume24h, liquidity, mcap and fdv (tokens with 10,000 ADA liquidity and 100 holders), holders; gainers ' +
          'and losers by the 24 h price change in USD (change24hUsdPct, not change24hPct), largest rise or largest ' +
          'fall first, among tokens traded in those 24 h with 10,000 ADA liquidity; new: newest pools first.',
        {
          enum: ['rank', 'trending', 'volume24h', 'liquidity', 'mcap', 'fdv', 'gainers', 'losers', 'new', 'holders'],
          default: 'rank',
        },
      ),
      limit: LIMIT(20, 40),
      page: PAGE(),
      minLiquidityAda: {
        type: 'number',
        minimum: 0,
        // The REST parameter's bound (a pool's two sides valued in ADA, each at most the supply), published so a
        // client's own check of the schema refuses what the read layer would.
        maximum: 2 * MAX_ADA_SUPPLY,
        'x-expected': `a number of ADA from 0 to ${2 * MAX_ADA_SUPPLY} (twice the 45 billion ADA maximum supply)`,
        description: 'Only tokens with at least this liquidity (ADA).',
      },
      hideHighRisk: {
        type: 'boolean',
        default: false,
        description: 'Leave out tokens the safety assessment rates high risk.',
      },
      query: QUERY('Filter by name, ticker, unit or a whole asset1… fingerprint.'),
    }),
    outputSchema: LIST_TOKENS_OUT,
    restArgs: { ...LIST_ARGS, minLiquidity: 'minLiquidityAda' },
    async run(deps, args) {
      const params = {
        sort: (args.sort as string | undefined) ?? 'rank',
        pageSize: (args.limit as number | undefined) ?? 20,
        page: args.page as number | undefined,
        minLiquidity: args.minLiquidityAda as number | undefined,
        q: args.query as string | undefined,
      };
      const hide = args.hideHighRisk === true;
      // Hidden before paging (the ranking carries each token's rating), so pages stay full.
      const raw = await read(deps, 'listTokens', params, { hideHighRisk: hide });
      if (raw.updatedAt === null) throw notComputedYet('token rankings', 'market', '20 s', 20);
      const body = present('listTokens', raw);
      const items = body.items as { asset: { unit: string } }[];
      const safety = await safetyOf(
        deps,
        items.map((i) => i.asset.unit),
      );
      let rows = items.map((i) => ({ ...i, highRisk: safety.get(i.asset.unit)?.highRisk ?? null }));
      // A token rated high risk since the ranking was built is left out too.
      const late = hide ? rows.filter((r) => r.highRisk === true).length : 0;
      if (hide) rows = rows.filter((r) => r.highRisk !== true);
      return { ...body, items: rows, hiddenHighRisk: hide ? Number(raw.hiddenHighRisk ?? 0) + late : 0 };
    },
  },
  {
    name: 'get_token',
    title: 'Get token',
    description:
      'One token: prices in ADA and USD, changes 5 m to 7 d (percent), volume and liquidity in ADA, market cap (ADA and USD), FDV (USD), supply (decimal-adjusted), holders (their count, and the 10 largest with their share in topHolders), largest pools, and a safety assessment with each factor’s value. Market figures as of stats.updatedAt (recomputed every 20 s).',
    inputSchema: input({ unit: TOKEN_UNIT }, ['unit']),
    outputSchema: TOKEN_OUT,
    async run(deps, args) {
      const unit = String(args.unit);
      const [body, safety, holders] = await Promise.all([
        get(deps, 'getToken', { unit }),
        safetyOf(deps, [unit]).then((m) => m.get(unit) ?? null),
        get(deps, 'getTokenHolders', { unit }),
      ]);
      const topHolders = (holders.items as unknown[]).slice(0, TOKEN_TOP_HOLDERS);
      const pooled = ((body.pools as unknown[] | undefined) ?? []).length > 0;
      return { ...body, safety, safetyNote: safety === null && pooled ? SAFETY_NOT_YET : null, topHolders };
    },
  },
  {
    name: 'get_token_candles',
    title: 'Token candles',
    description:
      'OHLCV candles of a token, newest last, as compact rows [time ISO, open, high, low, close, volumeAda, trades]: the latest `limit` intervals in which it traded, however long ago (intervals without trades have no row). Prices in ADA (default) or USD; volume in ADA.',
    inputSchema: input(
      {
        unit: TOKEN_UNIT,
        interval: str('Candle length.', { enum: ['1m', '5m', '15m', '1h', '4h', '1d'], default: '1h' }),
        quote: str('Price currency.', { enum: ['ADA', 'USD'], default: 'ADA' }),
        limit: LIMIT(100, 500),
        allPools: {
          type: 'boolean',
          default: true,
          description: 'true: the token’s candles over all its pools; false: its primary pool only.',
        },
      },
      ['unit'],
    ),
    outputSchema: {
      type: 'object',
      required: ['unit', 'interval', 'quote', 'poolId', 'columns', 'candles', 'coverageFrom'],
      properties: {
        unit: { type: 'string' },
        interval: { type: 'string' },
        quote: { type: 'string', enum: ['ADA', 'USD'] },
        poolId: { type: ['integer', 'null'], description: 'The pool the candles come from; null = all pools.' },
        columns: { type: 'array', items: { type: 'string' } },
        candles: { type: 'array', items: CANDLE_ROW },
        coverageFrom: {
          type: ['string', 'null'],
          format: 'date-time',
          description:
            'Start of the indexed history (time of the first indexed block) when the candles are all the token has in it: nothing older is known to this deployment, so the first row need not be its first trade. Null when older candles were left out by limit.',
        },
      },
    },
    async run(deps, args) {
      const unit = String(args.unit);
      const interval = (args.interval as string | undefined) ?? '1h';
      const quote = (args.quote as string | undefined) ?? 'ADA';
      const limit = (args.limit as number | undefined) ?? 100;
      // REST: no `pool` = the token's primary pool; `pool=all` = every pool combined (poolId 0).
      const pool = args.allPools === false ? undefined : 'all';
      // `from` 0: the latest candles the token has, however long ago it last traded. REST's default range is the
      // last 1,000 intervals of time (about 16.7 h at 1m), which would leave a quiet token with no rows at all.
      const body = await read<{ poolId: number | null; candles: Candle[]; coverageFrom: string | null }>(
        deps,
        'getTokenCandles',
        {
          unit,
          interval,
          quote,
          pool,
          from: 0,
        },
      );
      const candles = body.candles.slice(-limit);
      return {
        unit,
        interval,
        quote,
        poolId: body.poolId ? body.poolId : null,
        columns: ['time', 'open', 'high', 'low', 'close', 'volumeAda', 'trades'],
        candles: candles.map((c) => [
          new Date(c.time * 1000).toISOString(),
          c.open,
          c.high,
          c.low,
          c.close,
          c.volume,
          c.trades,
        ]),
        // REST's coverageFrom of the range from 0 (the first indexed block's time): the rows reach back to the start
        // of the indexed history only when every candle it holds is given; cut to `limit`, they stop short of it.
        coverageFrom: body.candles.length <= limit ? body.coverageFrom : null,
      };
    },
  },
  {
    name: 'get_pool',
    title: 'Get pool',
    description:
      'One DEX liquidity pool: DEX, pair, reserves, TVL, 24 h volume, price (quote per base), fee percent, last update.',
    inputSchema: input({ poolId: int('Pool id (integer, as in search and token answers).', 1, 2 ** 31, undefined) }, [
      'poolId',
    ]),
    outputSchema: restOut('getPool'),
    restArgs: { id: 'poolId' },
    run: (deps, args) => get(deps, 'getPool', { id: args.poolId as number }),
  },
  {
    name: 'get_recent_trades',
    title: 'Recent trades',
    description:
      'Latest DEX swaps, newest first, for exactly one of unit (a token), poolId or address (a wallet: addr1…, stake1… or $handle). Amounts in and out decimal-adjusted (exact base units in *Raw); priceAda, valueAda and batcherFee in whole ADA, valueUsd in USD.',
    inputSchema: input({
      unit: TOKEN_UNIT,
      poolId: int('Pool id.', 1, 2 ** 31),
      address: addressParam('addr1…, stake1… or $handle.'),
      limit: LIMIT(20, 50),
      cursor: CURSOR,
    }),
    outputSchema: RECENT_TRADES_OUT,
    restArgs: { id: 'poolId' },
    cursorList: 'items',
    async run(deps, args) {
      const given = (['unit', 'poolId', 'address'] as const).filter((k) => args[k] !== undefined);
      if (given.length !== 1) throw new BadRequestError('pass exactly one of unit, poolId or address');
      const page = { limit: (args.limit as number | undefined) ?? 20, cursor: args.cursor as string | undefined };
      if (args.unit !== undefined) return get(deps, 'getTokenTrades', { unit: String(args.unit), ...page });
      if (args.poolId !== undefined) return get(deps, 'getPoolTrades', { id: args.poolId as number, ...page });
      return get(deps, 'getWalletTrades', { address: addressArg(args), ...page });
    },
  },
  {
    name: 'get_market_overview',
    title: 'Market overview',
    description:
      'Whole-market snapshot: ADA/USD, DEX volume and TVL in ADA (overall and per DEX), each DEX’s typical batcher fee per order (ADA), top gainers, losers and trending tokens (supplies decimal-adjusted), and sync.lagSeconds.',
    inputSchema: input({}),
    outputSchema: restOut('getMarketOverview'),
    run: (deps) => get(deps, 'getMarketOverview', {}),
  },
  {
    name: 'get_wallet',
    title: 'Get wallet',
    description:
      'Holdings of a wallet (addr1…; stake1… = all its addresses combined; or a $handle): ADA balance, unwithdrawn staking rewards (of a stake key: ask for stake1… to include them), tokens with values, total value, and its swaps in the last 24 h. ADA amounts and values in whole ADA (USD beside them), token balances and swap amounts decimal-adjusted.',
    inputSchema: input(
      {
        address: addressParam('addr1…, stake1… or $handle.'),
        limit: int('How many positions (1-50), largest value first.', 1, 50, 50),
        page: PAGE('the positions'),
      },
      ['address'],
    ),
    outputSchema: WALLET_OUT,
    async run(deps, args) {
      const address = addressArg(args);
      const limit = (args.limit as number | undefined) ?? 50;
      const body = await get(deps, 'getWallet', { address });
      const trades = await get(deps, 'getWalletTrades', { address, limit: 200 });
      const asOf = Date.parse(String(body.asOf ?? '')) || Date.now();
      // The last 24 h up to the indexed tip, (start, end] as the market's 24 h windows count them
      // (activities/recompute/token-stats.ts windowStartSlot): a swap in the block exactly 24 h before the tip is the
      // day before's, so this count and the tokens' txns24h and volume24h hold the same swaps.
      const recent = (trades.items as { time: string }[]).filter((t) => Date.parse(t.time) > asOf - 86_400_000);
      const positions = body.positions as unknown[];
      return {
        ...body,
        positions: pageOf(positions, args.page, limit),
        positionsTotal: positions.length,
        trades24h: { count: recent.length, items: recent.slice(0, WALLET_TRADES) },
      };
    },
  },
  {
    name: 'get_wallet_pnl',
    title: 'Wallet PnL',
    description:
      'Realised and unrealised profit and loss of a wallet (FIFO, ADA and USD), win rate percent, trade count, volume, top contributing tokens (their amounts decimal-adjusted). Only swaps since coverageFrom. Slower: fewer calls per minute.',
    inputSchema: input(
      {
        address: addressParam('addr1…, stake1… or $handle.'),
        limit: int('How many per-token rows in tokens (1-50).', 1, 50, 10),
        page: PAGE('tokens'),
      },
      ['address'],
    ),
    outputSchema: extend(restOut('getWalletPnl'), {
      tokensTotal: {
        type: 'integer',
        description: 'Tokens the wallet traded; tokens lists `limit` of them, page by page (argument page).',
      },
    }),
    // The cumulative series runs oldest first: a cut keeps its latest points, which end at realisedAda.
    newestLast: ['series'],
    async run(deps, args) {
      const body = await get(deps, 'getWalletPnl', { address: addressArg(args) });
      const tokens = (body.tokens as unknown[] | undefined) ?? [];
      const limit = (args.limit as number | undefined) ?? 10;
      return { ...body, tokens: pageOf(tokens, args.page, limit), tokensTotal: tokens.length };
    },
  },
  {
    name: 'get_swap_quote',
    title: 'Swap quote',
    description:
      'Best-route estimate for swapping amount of tokenIn into tokenOut (amounts decimal-adjusted): amount out, effective price (best.effectivePrice: tokenOut per tokenIn, amountOut / amount, pool fees and price impact included), price impact percent, smallest pool liquidity on the route (ADA), and swapUrl to do it in the user’s wallet. best.batcherFee is what the route’s orders likely cost in ADA besides the amount (each DEX’s median batcher fee of the last 24 h, typically 0.5 to 2 ADA per order): not in amount out or the effective price, but routes are ranked by output less it (on a small amount the pool paying most is not the cheapest); a DEX whose fee is unknown (batcherFee null) is ranked at the highest known one. Not included: price movement before execution. With no route (best null), note says why: no pool of the pair, only pools whose curve is not quoted or that hold no liquidity, or an amount too small. Never builds, signs or submits anything.',
    inputSchema: input(
      {
        tokenIn: UNIT,
        tokenOut: UNIT,
        amount: {
          type: 'number',
          exclusiveMinimum: 0,
          description: 'Amount of tokenIn, decimal-adjusted (e.g. 100 ADA).',
        },
      },
      ['tokenIn', 'tokenOut', 'amount'],
    ),
    outputSchema: SWAP_QUOTE_OUT,
    restArgs: { in: 'tokenIn', out: 'tokenOut' },
    async run(deps, args) {
      const q = await read<Record<string, unknown>>(deps, 'getSwapQuote', {
        in: String(args.tokenIn),
        out: String(args.tokenOut),
        amount: args.amount as number,
      });
      const best = q.best as { hops: { poolId: number }[] } | null;
      let minLiquidity: number | null = null;
      for (const hop of best?.hops ?? []) {
        const pool = await read<{ tvlAda?: number | null; tvl?: number | null }>(deps, 'getPool', { id: hop.poolId });
        const tvl = pool.tvlAda ?? pool.tvl ?? null;
        if (tvl !== null && (minLiquidity === null || tvl < minLiquidity)) minLiquidity = tvl;
      }
      // The quote's own link: the units as quoted (lower case) and the amount quoted (cut to the token's decimals),
      // not the arguments as sent, so the page opens on the trade this answer priced.
      const swapUrl = String(q.link);
      return { ...present('getSwapQuote', q), swapUrl, minPoolLiquidityAda: minLiquidity };
    },
  },
  {
    name: 'list_nft_collections',
    title: 'List NFT collections',
    description:
      'Ranked NFT collections: floor in ADA and USD, 24 h floor change percent, volume 24 h and 7 d in ADA, sales, listings, supply, holders.',
    inputSchema: input({
      // Which end the ranking starts from: 'Ranking.' left an agent after the cheapest collections reading sort floor
      // as lowest floor first; it is the highest first (REST's own description).
      sort: str(restParamDescription('listNftCollections', 'sort'), {
        enum: ['volume24h', 'volume7d', 'volumeAll', 'floor', 'listings', 'sales24h', 'owners', 'supply'],
        default: 'volume24h',
      }),
      limit: LIMIT(20, 100),
      page: PAGE(),
      query: QUERY('Filter by name or policy id.'),
    }),
    outputSchema: restOut('listNftCollections'),
    restArgs: LIST_ARGS,
    async run(deps, args) {
      const body = await get(deps, 'listNftCollections', {
        sort: args.sort as string | undefined,
        pageSize: (args.limit as number | undefined) ?? 20,
        page: args.page as number | undefined,
        q: args.query as string | undefined,
      });
      if (body.computedAt === null) throw notComputedYet('NFT collection figures', 'NFT', '60 s', 60);
      return body;
    },
  },
  {
    name: 'get_nft_collection',
    title: 'Get NFT collection',
    description:
      'One NFT collection: floor, volume over 24 h, 7 d, 30 d and since the start of the indexed history (coverageFrom), sales counts, listings, supply, holders, recent sales. Floor, volumes and sale prices in whole ADA (USD beside some).',
    inputSchema: input({ policyId: POLICY }, ['policyId']),
    outputSchema: COLLECTION_OUT,
    restArgs: { policy: 'policyId' },
    run: (deps, args) => get(deps, 'getNftCollection', { policy: String(args.policyId) }),
  },
  {
    name: 'get_nft_listings',
    title: 'NFT listings',
    description:
      'Active listings of an NFT collection: asset name, price in ADA, marketplace, rarity rank when the collection’s CIP-25/CIP-68 traits allow it (1 = rarest), seller, listing time.',
    inputSchema: input(
      {
        policyId: POLICY,
        sort: str('Order.', { enum: ['price_asc', 'price_desc'], default: 'price_asc' }),
        limit: LIMIT(20, 50),
        cursor: CURSOR,
      },
      ['policyId'],
    ),
    outputSchema: LISTINGS_OUT,
    restArgs: { policy: 'policyId' },
    cursorList: 'items',
    async run(deps, args) {
      const policy = String(args.policyId);
      const body = await get(deps, 'getNftCollectionListings', {
        policy,
        sort: args.sort as string | undefined,
        limit: (args.limit as number | undefined) ?? 20,
        cursor: args.cursor as string | undefined,
      });
      const items = body.items as { asset: { unit: string } | null }[];
      const rarity = await rarityOf(
        deps,
        policy,
        items.flatMap((i) => (i.asset ? [i.asset.unit] : [])),
      );
      return {
        ...body,
        items: items.map((i) => ({ ...i, rarityRank: (i.asset && rarity.ranks.get(i.asset.unit)) ?? null })),
        rarityRankedOf: rarity.of,
      };
    },
  },
  {
    name: 'list_stake_pools',
    title: 'List stake pools',
    description:
      'Ranked stake pools: ticker, live stake (whole ADA), saturation percent, margin percent, fixed cost (ADA per epoch), pledge (whole ADA), delegators, blocks this epoch, estimated yearly return percent.',
    inputSchema: input({
      sort: str('Order (descending; margin and fixedCost ascending).', { enum: STAKE_SORTS, default: 'liveStake' }),
      limit: LIMIT(20),
      page: PAGE(),
      query: QUERY('Filter by ticker, name or pool id (pool1… or the pool’s 56-hex key hash).'),
      maxMarginPct: {
        type: 'number',
        minimum: 0,
        maximum: 100,
        description: 'Only pools with margin ≤ this percent (retired pools, which cannot be delegated to, left out).',
      },
      maxSaturationPct: {
        type: 'number',
        minimum: 0,
        description:
          'Only pools with saturation ≤ this percent (retired pools, which cannot be delegated to, left out).',
      },
    }),
    outputSchema: STAKE_POOLS_OUT,
    async run(deps, args) {
      const { items, epoch, computedAt } = await allStakePools(deps);
      if (computedAt === null) throw notComputedYet('stake pool figures', 'staking', '5 minutes', 60);
      const q = (args.query as string | undefined)?.trim().toLowerCase();
      // The pool's key hash (56 hex, how the ledger and many explorers print a pool id) names its pool1… id, as
      // get_stake_pool and search take it; no pool1… id contains it as text.
      const idOfHash = q === undefined ? undefined : bech32PoolId(q);
      const maxMargin = args.maxMarginPct as number | undefined;
      const maxSat = args.maxSaturationPct as number | undefined;
      // Either cap is a search for a pool to delegate to: a retired pool (saturation 0, its old margin) is none.
      const delegating = maxMargin !== undefined || maxSat !== undefined;
      const rows = items.filter(
        (p) =>
          (!delegating || p.status !== 'retired') &&
          (!q ||
            p.id.toLowerCase().includes(q) ||
            p.id === idOfHash ||
            (p.ticker ?? '').toLowerCase().includes(q) ||
            (p.name ?? '').toLowerCase().includes(q)) &&
          (maxMargin === undefined || p.margin * 100 <= maxMargin + 1e-9) &&
          (maxSat === undefined || p.saturation * 100 <= maxSat + 1e-9),
      );
      const sort = (args.sort as string | undefined) ?? 'liveStake';
      const key = (p: StakePoolRow): number =>
        sort === 'blocks' ? p.blocksThisEpoch : ((p[sort as keyof StakePoolRow] as number | null) ?? -Infinity);
      const asc = sort === 'margin' || sort === 'fixedCost';
      // Retired pools (no delegation possible, no rewards) rank after every pool one can delegate to, whatever the
      // order: by their last certificate's margin, cost or pledge they would otherwise top a ranking of pools to pick.
      const retired = (p: StakePoolRow): number => (p.status === 'retired' ? 1 : 0);
      rows.sort(
        (a, b) => retired(a) - retired(b) || (asc ? key(a) - key(b) : key(b) - key(a)) || a.id.localeCompare(b.id),
      );
      const limit = (args.limit as number | undefined) ?? 20;
      const page = (args.page as number | undefined) ?? 1;
      return present('listStakePools', {
        items: pageOf(rows, page, limit),
        page,
        pageSize: limit,
        total: rows.length,
        epoch,
        computedAt,
      });
    },
  },
  {
    name: 'get_stake_pool',
    title: 'Get stake pool',
    description:
      'One stake pool: name, ticker, status, margin, fixed cost, pledge, live and active stake, saturation, delegators, blocks minted, estimated and realised yearly return, description, homepage. Stake, pledge, fixed cost (per epoch) and rewards in whole ADA; margin, saturation and returns in percent.',
    inputSchema: input(
      {
        poolId: str('Pool id: pool1… (bech32) or the pool’s key hash (56 hex).', {
          minLength: 56,
          maxLength: 70,
          pattern: STAKE_POOL_ID,
          'x-expected':
            'a pool1… id (lowercase) or the pool’s key hash (56 hex), not a ticker (call search with the ticker to find it)',
        }),
      },
      ['poolId'],
    ),
    outputSchema: restOut('getStakePool'),
    restArgs: { id: 'poolId' },
    run: (deps, args) => get(deps, 'getStakePool', { id: bech32PoolId(String(args.poolId)) }),
  },
  {
    name: 'list_governance_actions',
    title: 'Governance actions',
    description:
      'On-chain governance proposals with status, epochs, requested ADA and the current yes/no vote shares (percent of voting power) of DReps and stake pools. Requested amounts, deposits and voting stake in whole ADA.',
    inputSchema: input({
      // A ratified or enacted proposal leaves the ledger's proposals (status removed): "Only proposals with this
      // status" left an agent asking for ratified ones with an enum error and nothing to say which value holds them.
      status: str(`Only proposals with this status. ${restParamDescription('listGovernanceProposals', 'status')}`, {
        enum: ['active', 'expired', 'removed'],
      }),
      limit: LIMIT(20, 40),
      page: PAGE(),
      query: QUERY('Filter by proposal id, type or title words.'),
    }),
    outputSchema: restOut('listGovernanceProposals'),
    restArgs: LIST_ARGS,
    async run(deps, args) {
      const body = await get(deps, 'listGovernanceProposals', {
        status: args.status as string | undefined,
        pageSize: (args.limit as number | undefined) ?? 20,
        page: args.page as number | undefined,
        q: args.query as string | undefined,
      });
      if (body.computedAt === null) throw notComputedYet('governance figures', 'governance', '5 minutes', 60);
      return body;
    },
  },
  {
    name: 'get_transaction',
    title: 'Get transaction',
    description:
      'Transaction by hash: block, time, fee, total output, net ADA and token change per address, minted/burned assets, certificates, withdrawals, and the DEX swaps and NFT sales it carries. A failed transaction (valid false) took only its collateral (the net changes say so); its inputs, outputs, mint, certificates and withdrawals are what its body declared, none of which took effect. ADA amounts in whole ADA (exact lovelace beside them), token quantities decimal-adjusted (exact base units in *Raw).',
    inputSchema: input(
      {
        hash: str('Transaction hash (64 hex).', {
          pattern: '^[0-9a-fA-F]{64}$',
          'x-expected': 'a transaction hash (64 hex)',
        }),
      },
      ['hash'],
    ),
    outputSchema: TX_OUT,
    async run(deps, args) {
      const hash = String(args.hash).toLowerCase();
      const raw = await read<Parameters<typeof netChanges>[0] & { slot: number; outputs: TxSide[] }>(
        deps,
        'getTransaction',
        { hash },
      );
      const sides = [...raw.inputs, ...raw.outputs];
      const makers = sides.flatMap((x) => [x.stakeAddress, x.address].filter((a): a is string => !!a));
      const policies = sides.flatMap((x) => x.assets.map((a) => a.policyId));
      const [trades, sales] = await Promise.all([
        tradesOfTx(deps, { hash, slot: raw.slot, makers }),
        nftSalesOfTx(deps, { hash, slot: raw.slot, policies }),
      ]);
      // Token amounts are decimal-adjusted on every surface (spec: Units), with the exact base units beside them.
      const assets = await loadAssets(
        deps.store,
        trades.flatMap((t) => [t.tokenIn, t.tokenOut]),
        deps.config.SITE_URL,
        'url',
      );
      const net = netChanges(raw);
      return {
        ...present('getTransaction', raw),
        netChanges: net.changes,
        netChangesNote: net.note,
        swaps: trades.map((t) => ({
          tradeId: t.id,
          poolId: t.poolId,
          dex: t.dex,
          status: t.status,
          side: t.side,
          tokenIn: t.tokenIn,
          tokenOut: t.tokenOut,
          tokenInName: assets.ref(t.tokenIn).displayName,
          tokenOutName: assets.ref(t.tokenOut).displayName,
          amountIn: scaleInteger(t.amountInRaw, assets.decimals(t.tokenIn)),
          amountOut: t.amountOutRaw === null ? null : scaleInteger(t.amountOutRaw, assets.decimals(t.tokenOut)),
          amountInRaw: t.amountInRaw,
          amountOutRaw: t.amountOutRaw,
          valueAda: t.valueLovelace === null ? null : Number(t.valueLovelace) / 1e6,
          batcherFeeAda: lovelaceToAdaOrNull(t.batcherFeeLovelace),
          maker: t.maker,
        })),
        nftSales: sales.map((x) => ({
          units: x.units,
          priceAda: x.priceLovelace === null ? null : Number(x.priceLovelace) / 1e6,
          marketplace: x.marketplace,
          buyer: x.buyer,
          seller: x.seller,
        })),
      };
    },
  },
  {
    name: 'get_address',
    title: 'Get address',
    description:
      'Payment (addr1…, or Byron base58) or stake (stake1…) address, or a $handle: type, script flag, ADA balance, tokens, stake key, delegation, rewards, first and last activity. ADA amounts in whole ADA, token quantities decimal-adjusted.',
    inputSchema: input({ address: addressParam('addr1…, stake1…, a Byron address (Ae2…, Ddz…) or $handle.') }, [
      'address',
    ]),
    outputSchema: restOut('getAddress'),
    run: (deps, args) => get(deps, 'getAddress', { address: addressArg(args) }),
  },
  {
    name: 'resolve_handle',
    title: 'Resolve handle',
    description:
      'Resolve an ADA Handle ($name, or sub@root for a subhandle) to the address holding it, its stake address and whether a script holds it.',
    inputSchema: input({ handle: str('$name, name or sub@root.', { minLength: 1, maxLength: 80 }) }, ['handle']),
    outputSchema: restOut('getHandle'),
    // Spaces around a pasted handle are no part of it (search takes the same text trimmed).
    run: (deps, args) => get(deps, 'getHandle', { handle: String(args.handle).trim() }),
  },
  {
    name: 'get_news',
    title: 'News',
    description:
      'Latest Cardano ecosystem news headlines, newest first, with source, publication time, summary and link.',
    inputSchema: input({ limit: LIMIT(10, 50), cursor: CURSOR, query: QUERY('Only items mentioning these words.') }),
    outputSchema: restOut('listNews'),
    restArgs: { q: 'query' },
    cursorList: 'items',
    run: (deps, args) =>
      get(deps, 'listNews', {
        limit: (args.limit as number | undefined) ?? 10,
        cursor: args.cursor as string | undefined,
        q: args.query as string | undefined,
      }),
  },
];

/** The as-of fields every tool result carries (added by the server, api/mcp/server.ts). */
const AS_OF_PROPS = {
  asOf: {
    type: ['string', 'null'],
    format: 'date-time',
    description: 'Time of the indexed chain tip block the answer reflects.',
  },
  lagSeconds: {
    type: ['integer', 'null'],
    description:
      'Seconds the index is behind the chain: the larger of (chain tip slot − indexed slot) and (now − time of the ' +
      'indexed tip block); at the tip, the age of the newest block.',
  },
};

/** Present only when the server cut lists to keep the result under ~20,000 tokens (api/mcp/fit.ts). */
const TRUNCATED_PROP = {
  truncated: {
    type: 'array',
    description:
      'Lists cut to keep this result under about 20,000 tokens (absent when nothing was cut): each list by its path ' +
      'in this result, with the first `shown` of its `total` items kept, or the last `shown` (the newest) where `kept` ' +
      'is "last" (a list in time order, newest last, such as a PnL series). The REST route of the same data answers whole.',
    items: {
      type: 'object',
      required: ['path', 'shown', 'total'],
      properties: {
        path: { type: 'string', description: 'The list, e.g. inputs[3].assets.' },
        shown: { type: 'integer', minimum: 1 },
        total: { type: 'integer', minimum: 2 },
        kept: {
          type: 'string',
          enum: ['last'],
          description: 'Present when the list kept its last (newest) items, not its first.',
        },
      },
    },
  },
};

/**
 * The output schema as published: the tool's own plus asOf, lagSeconds and truncated, repeated components in
 * `$defs`.
 */
export function publishedOutputSchema(tool: Pick<Tool, 'outputSchema'>): ObjectSchema {
  return factorSchema({
    ...tool.outputSchema,
    properties: { ...tool.outputSchema.properties, ...AS_OF_PROPS, ...TRUNCATED_PROP },
    required: [...(tool.outputSchema.required ?? []).filter((r) => !(r in AS_OF_PROPS)), 'asOf', 'lagSeconds'],
  }) as ObjectSchema;
}

/** Name, title, description and published schemas of every tool, in list order (for llms-full.txt and docs). */
export const TOOL_DEFINITIONS: readonly ToolDefinition[] = TOOL_SET.map((t) => ({
  name: t.name,
  title: t.title,
  description: t.description,
  inputSchema: t.inputSchema,
  outputSchema: publishedOutputSchema(t),
}));

/** The tools as `tools/list` publishes them (the discovery files read this export). */
export const TOOLS = TOOL_DEFINITIONS;
