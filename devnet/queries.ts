/**
 * Ledger-state and network queries (Ogmios v6 `queryLedgerState/*`, `queryNetwork/*`), answered from the
 * canonical ledger after the last canonical block. Results are JSON strings (bigints written as plain
 * integers); an unknown method yields null so the server can answer -32601.
 */
import { parseAddress } from '../cardano/address.js';
import type { DevChain } from './chain.js';
import type { Ledger } from './ledger.js';
import { stringify } from './json.js';
import {
  ACTIVE_SLOTS_COEFFICIENT,
  MAX_KES_EVOLUTIONS,
  MAX_LOVELACE_SUPPLY,
  MIN_FEE_COEFFICIENT,
  MIN_FEE_CONSTANT,
  MIN_POOL_COST,
  NETWORK_MAGIC,
  DESIRED_STAKE_POOLS,
  PLEDGE_INFLUENCE,
  PROTOCOL_VERSION,
  REWARD_PER_BLOCK,
  SECURITY_PARAMETER,
  SLOT_LENGTH_MS,
  SLOTS_PER_KES_PERIOD,
  STAKE_CREDENTIAL_DEPOSIT,
  STAKE_POOL_DEPOSIT,
  UTXO_COST_PER_BYTE,
} from './params.js';
import { poolJson, valueStr } from './tx.js';
import {
  delegateRepresentativesResult,
  DREP_ACTIVITY,
  DREP_DEPOSIT,
  GOV_ACTION_DEPOSIT,
  GOV_ACTION_LIFETIME,
  governanceProposalsResult,
} from './governance.js';

export interface QueryEnv {
  chain: DevChain;
  ledger: Ledger;
  systemStartMs: number;
  epochLength: number;
}

export type QueryResult = { result: string } | { error: { code: number; message: string; data?: unknown } };

const isoTime = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
const ada = (n: bigint) => ({ ada: { lovelace: n } });
const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? a : gcd(b, a % b));

function pointJson(t: QueryEnv['chain']['tip']): string {
  return t === 'origin' ? '"origin"' : `{"slot":${t.slot},"id":"${t.id}"}`;
}

/**
 * The point the ledger state is at: the last canonical block. While a fork is served, the chain's tip is an orphan
 * the ledger never applies, and every queryLedgerState answer is the state after the fork point.
 */
const ledgerTip = (env: QueryEnv) => env.chain.canonical[env.chain.canonical.length - 1] ?? 'origin';

function protocolParameters(): Record<string, unknown> {
  return {
    minFeeCoefficient: Number(MIN_FEE_COEFFICIENT),
    minFeeConstant: ada(MIN_FEE_CONSTANT),
    minUtxoDepositCoefficient: Number(UTXO_COST_PER_BYTE),
    minUtxoDepositConstant: ada(0n),
    maxBlockBodySize: { bytes: 90112 },
    maxBlockHeaderSize: { bytes: 1100 },
    maxTransactionSize: { bytes: 16384 },
    maxValueSize: { bytes: 5000 },
    stakeCredentialDeposit: ada(STAKE_CREDENTIAL_DEPOSIT),
    stakePoolDeposit: ada(STAKE_POOL_DEPOSIT),
    stakePoolRetirementEpochBound: 18,
    stakePoolPledgeInfluence: PLEDGE_INFLUENCE,
    minStakePoolCost: ada(MIN_POOL_COST),
    desiredNumberOfStakePools: DESIRED_STAKE_POOLS,
    monetaryExpansion: '3/1000',
    treasuryExpansion: '1/5',
    // Conway governance (devnet/governance.ts): lifetime in epochs, deposits in lovelace, DRep idle epochs.
    governanceActionLifetime: GOV_ACTION_LIFETIME,
    governanceActionDeposit: ada(GOV_ACTION_DEPOSIT),
    delegateRepresentativeDeposit: ada(DREP_DEPOSIT),
    delegateRepresentativeMaxIdleTime: DREP_ACTIVITY,
    version: PROTOCOL_VERSION,
  };
}

/** The devnet's treasury receives nothing (fees leave circulation); its reserves pay the block rewards. */
function treasuryAndReserves(env: QueryEnv): string {
  return stringify({ treasury: ada(0n), reserves: ada(env.ledger.reserves()) });
}

/**
 * The reward computation of the last completed epoch, in the shape of Ogmios' `stakePoolsPerformances`. The devnet
 * pays a pool REWARD_PER_BLOCK per block it made; in the Shelley formula a pool earns maxPool(R, σ) × p̂ with
 * σ = stake / circulation and apparent performance p̂ = (blocks / all blocks) / (stake / active stake), i.e.
 * R × (blocks / all blocks) × active / circulation (no pledge term), capped at σ = 1/k as the devnet caps it. So the
 * pot that the Shelley formula needs to pay exactly what the devnet paid is
 * R = REWARD_PER_BLOCK × all blocks × circulation / active.
 */
function stakePoolsPerformances(env: QueryEnv): string {
  const r = env.ledger.lastRewards;
  let active = 0n;
  for (const s of r?.stakes.values() ?? []) active += s;
  const pot = r && active > 0n ? (REWARD_PER_BLOCK * BigInt(r.totalBlocks) * r.circulating) / active : 0n;
  const pools: Record<string, unknown> = {};
  for (const [id, stake] of r?.stakes ?? []) {
    // The terms the epoch was paid by, not an update registered since (which only the next boundary applies).
    // A pool retired at that boundary is no longer registered: not listed, as before.
    const p = env.ledger.pools.has(id) ? r?.params.get(id) : undefined;
    if (!p || !r) continue;
    const blocks = r.blocks.get(id) ?? 0;
    pools[id] = {
      id,
      stake: ada(stake),
      ownerStake: ada(r.ownerStakes.get(id) ?? 0n),
      approximatePerformance:
        stake > 0n && r.totalBlocks > 0 ? blocks / r.totalBlocks / (Number(stake) / Number(active)) : 0,
      parameters: { cost: ada(p.cost), margin: `${p.margin[0]}/${p.margin[1]}`, pledge: ada(p.pledge) },
    };
  }
  return stringify({
    desiredNumberOfStakePools: DESIRED_STAKE_POOLS,
    stakePoolPledgeInfluence: PLEDGE_INFLUENCE,
    totalRewardsInEpoch: ada(pot),
    activeStakeInEpoch: ada(active),
    totalStakeInEpoch: ada(r?.circulating ?? MAX_LOVELACE_SUPPLY - env.ledger.reserves()),
    stakePools: pools,
  });
}

export function genesisShelley(env: QueryEnv): Record<string, unknown> {
  return {
    era: 'shelley',
    startTime: isoTime(env.systemStartMs),
    networkMagic: NETWORK_MAGIC,
    network: 'mainnet',
    activeSlotsCoefficient: ACTIVE_SLOTS_COEFFICIENT,
    securityParameter: SECURITY_PARAMETER,
    epochLength: env.epochLength,
    slotsPerKesPeriod: SLOTS_PER_KES_PERIOD,
    maxKesEvolutions: MAX_KES_EVOLUTIONS,
    slotLength: { milliseconds: SLOT_LENGTH_MS },
    updateQuorum: 5,
    maxLovelaceSupply: MAX_LOVELACE_SUPPLY,
    initialParameters: protocolParameters(),
    initialDelegates: [],
    initialFunds: {},
    initialStakePools: { stakePools: {}, delegators: {} },
  };
}

function stakePools(env: QueryEnv, params: Record<string, unknown>): string {
  const includeStake = params.includeStake === true;
  const filter = Array.isArray(params.stakePools)
    ? new Set((params.stakePools as { id?: unknown }[]).map((p) => String(p?.id)))
    : null;
  const stakes = includeStake ? env.ledger.poolStakes() : null;
  const out: Record<string, unknown> = {};
  for (const [id, p] of env.ledger.pools) {
    if (filter && !filter.has(id)) continue;
    const view = poolJson(p.params);
    if (stakes) view.stake = ada(stakes.get(id) ?? 0n);
    out[id] = view;
  }
  return stringify(out);
}

function liveStakeDistribution(env: QueryEnv): string {
  const stakes = env.ledger.poolStakes();
  let total = 0n;
  for (const s of stakes.values()) total += s;
  const out: Record<string, { stake: string; vrf: string }> = {};
  for (const [id, s] of stakes) {
    const g = total === 0n ? 1n : gcd(s, total) || 1n;
    out[id] = {
      stake: total === 0n ? '0/1' : `${s / g}/${total / g}`,
      vrf: env.ledger.pools.get(id)?.params.vrfVerificationKeyHash ?? '',
    };
  }
  return JSON.stringify(out);
}

function utxo(env: QueryEnv, params: Record<string, unknown>): string {
  const parts: string[] = [];
  const write = (u: {
    txId: string;
    index: number;
    address: string;
    value: Parameters<typeof valueStr>[0];
    datum?: string;
  }) =>
    parts.push(
      `{"transaction":{"id":"${u.txId}"},"index":${u.index},"address":"${u.address}","value":${valueStr(u.value)}` +
        (u.datum === undefined ? '' : `,"datum":"${u.datum}"`) +
        '}',
    );
  if (Array.isArray(params.addresses)) {
    for (const a of params.addresses) for (const u of env.ledger.utxosAt(String(a))) write(u);
  } else if (Array.isArray(params.outputReferences)) {
    for (const r of params.outputReferences as { transaction?: { id?: unknown }; index?: unknown }[]) {
      const u = env.ledger.utxos.get(`${String(r?.transaction?.id)}#${String(r?.index)}`);
      if (u) write(u);
    }
  } else {
    for (const u of env.ledger.utxos.values()) write(u);
  }
  return `[${parts.join(',')}]`;
}

/** Stake credential (hex) of a `keys` entry given as hex or as a `stake1…` address. */
function credentialOf(key: string): string | null {
  if (/^[0-9a-f]{56}$/i.test(key)) return key.toLowerCase();
  try {
    const p = parseAddress(key);
    return p.kind === 'reward' ? p.stakeCred : null;
  } catch {
    return null;
  }
}

function rewardAccountSummaries(env: QueryEnv, params: Record<string, unknown>): string {
  const keys = Array.isArray(params.keys) ? params.keys.map((k) => credentialOf(String(k))) : null;
  const creds = keys ? keys.filter((k): k is string => k !== null) : [...env.ledger.rewards.keys()];
  const out: unknown[] = [];
  for (const cred of creds) {
    const rewards = env.ledger.rewards.get(cred);
    if (rewards === undefined) continue;
    const pool = env.ledger.delegations.get(cred);
    out.push({
      from: 'verificationKey',
      credential: cred,
      ...(pool ? { stakePool: { id: pool } } : {}),
      rewards: ada(rewards),
      deposit: ada(STAKE_CREDENTIAL_DEPOSIT),
    });
  }
  return stringify(out);
}

export function answerQuery(env: QueryEnv, method: string, params: Record<string, unknown>): QueryResult | null {
  const tip = env.chain.tip;
  switch (method) {
    case 'queryNetwork/tip':
      return { result: pointJson(tip) };
    case 'queryLedgerState/tip':
      return { result: pointJson(ledgerTip(env)) };
    case 'queryNetwork/blockHeight':
      return { result: tip === 'origin' ? '"origin"' : String(tip.height) };
    case 'queryNetwork/startTime':
      return { result: JSON.stringify(isoTime(env.systemStartMs)) };
    case 'queryNetwork/genesisConfiguration':
      if (params.era !== 'shelley')
        return {
          error: {
            code: -32602,
            message: `Invalid genesis era: the devnet describes its network with era 'shelley' only.`,
          },
        };
      return { result: stringify(genesisShelley(env)) };
    case 'queryLedgerState/eraSummaries':
      return {
        result: JSON.stringify([
          {
            start: { time: { seconds: 0 }, slot: 0, epoch: 0 },
            parameters: {
              epochLength: env.epochLength,
              slotLength: { milliseconds: SLOT_LENGTH_MS },
              safeZone: 3 * SECURITY_PARAMETER * 20,
            },
          },
        ]),
      };
    case 'queryLedgerState/epoch': {
      const at = ledgerTip(env);
      return { result: String(at === 'origin' ? 0 : Math.floor(at.slot / env.epochLength)) };
    }
    case 'queryLedgerState/protocolParameters':
      return { result: stringify(protocolParameters()) };
    case 'queryLedgerState/stakePools':
      return { result: stakePools(env, params) };
    case 'queryLedgerState/liveStakeDistribution':
      return { result: liveStakeDistribution(env) };
    case 'queryLedgerState/utxo':
      return { result: utxo(env, params) };
    case 'queryLedgerState/treasuryAndReserves':
      return { result: treasuryAndReserves(env) };
    case 'queryLedgerState/stakePoolsPerformances':
      return { result: stakePoolsPerformances(env) };
    case 'queryLedgerState/rewardAccountSummaries':
      return { result: rewardAccountSummaries(env, params) };
    case 'queryLedgerState/governanceProposals':
      return { result: governanceProposalsResult(env.ledger.gov, params) };
    case 'queryLedgerState/delegateRepresentatives': {
      // A DRep's stake: what its delegators control, as the pools' live stake counts it (UTxO stake + rewards).
      const l = env.ledger;
      const stakeOf = (cred: string) => (l.utxoStake.get(cred) ?? 0n) + (l.rewards.get(cred) ?? 0n);
      return { result: delegateRepresentativesResult(l.gov, stakeOf, params) };
    }
    default:
      return null;
  }
}
