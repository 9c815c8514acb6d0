/**
 * Documents of the tool server's own derived data, each rebuilt whole by a recompute (activities/search,
 * activities/safety): the search index, the token safety assessments and NFT rarity ranks. Chain data (names,
 * tickers, trait values) is only ever a field value here, never a field name.
 */
import { foldText } from '../../cardano/text.js';
import { defineCollection } from '../store.js';

/** Folded (foldText), spaces collapsed: the form search terms are stored and queried in. */
export const normaliseTerm = (s: string): string => foldText(s).replace(/\s+/g, ' ').trim();

export type SearchKind = 'token' | 'pool' | 'nft_collection' | 'stake_pool' | 'handle';

/** One search term of one entity: a name, ticker or identifier, lower-cased, for prefix scans over `byKindTerm`. */
export interface SearchTermDoc {
  /** `${kind}|${id}|${n}`: one document per term of an entity. */
  _id: string;
  /** Normalised term: lower case, NFKC, spaces collapsed; `$` dropped from handles. */
  term: string;
  kind: SearchKind;
  /** Entity id: token unit, pool id (decimal), policy id, pool1… bech32, handle name. */
  id: string;
  /** Name and ticker as shown to people. */
  label: string;
  /** One line of context (price, stake in whole ADA, holder address…). */
  detail: string | null;
  /** Order among hits of equal quality: larger first (liquidity in ADA, stake in ADA, volume). */
  weight: number;
}
export const SEARCH_TERMS = defineCollection<SearchTermDoc>({
  name: 'search_terms',
  // Prefix scans per kind: mainnet has over a million handles, so one scan over all kinds could end inside the
  // handles sharing a prefix before reaching the token, pool or stake pool the query names (api/read/search.ts).
  indexes: [{ name: 'byKindTerm', fields: ['kind', 'term'] }],
});

export type RiskLevel = 'low' | 'medium' | 'high';

/** One factor of a token safety assessment, with the value it was judged on. */
export interface SafetyFactor {
  name: 'mintPolicy' | 'holderConcentration' | 'liquidityDepth' | 'poolAge' | 'topHolderLpShare';
  /** The measured value (share as percent, ADA, hours, or a policy description); null when unknown. */
  value: number | string | null;
  unit: string | null;
  risk: RiskLevel | 'unknown';
  /** One sentence: what was measured and why it matters. */
  detail: string;
}

export interface TokenSafetyDoc {
  /** Token unit. */
  _id: string;
  level: RiskLevel;
  /** true when level is high: list_tokens hideHighRisk leaves the token out. */
  highRisk: boolean;
  factors: SafetyFactor[];
  computedAt: string;
}
export const TOKEN_SAFETY = defineCollection<TokenSafetyDoc>({ name: 'token_safety' });

/** Rarity rank of one NFT inside its collection (statistical rarity over its CIP-25/CIP-68 traits). */
export interface NftRarityDoc {
  /** Asset unit. */
  _id: string;
  policyId: string;
  /** 1 = rarest. */
  rank: number;
  /** Σ over trait types of 1 / frequency of the asset's value (a missing trait counts as the value "none"). */
  score: number;
  /** NFTs of the collection ranked (those with traits). */
  of: number;
}
export const NFT_RARITY = defineCollection<NftRarityDoc>({
  name: 'nft_rarity',
  indexes: [{ name: 'byPolicy', fields: ['policyId', 'rank'] }],
});

/**
 * The minting policy script of a token policy, as the latest indexed mint's witness carried it (sync extension
 * activities/safety/policy-scripts.ts, exact under rollbacks). `script` is the Ogmios JSON of a native script as
 * text (its key hashes and slots are chain data, kept as a value); Plutus policies record only their language.
 */
export interface PolicyScriptDoc {
  /** Policy id (56 hex). */
  _id: string;
  language: string;
  /** Native script JSON text (`{"clause":"all","from":[…]}`); null for Plutus. */
  script: string | null;
  /** Slot of the latest mint or burn under the policy that the index saw. */
  lastMintSlot: number;
  /** Mint and burn transactions seen. */
  mints: number;
}
export const POLICY_SCRIPTS = defineCollection<PolicyScriptDoc>({ name: 'policy_scripts' });

export const SEARCH_COLLECTIONS = [SEARCH_TERMS, TOKEN_SAFETY, NFT_RARITY, POLICY_SCRIPTS];
