/**
 * Network constants of the devnet. Mainnet values where they matter to parsers (1 s slots, k = 2160,
 * f = 1/20, fee and deposit parameters, protocol version 10.0); the epoch is 6 hours (21,600 slots) instead of
 * mainnet's 5 days so that the default 48 h backfill spans 8 epochs of rewards, retirements and stake snapshots.
 */
export const SLOT_LENGTH_MS = 1000;
export const DEFAULT_EPOCH_LENGTH = 21_600;
export const SECURITY_PARAMETER = 2160;
export const ACTIVE_SLOTS_COEFFICIENT = '1/20';
/** Mean slots between blocks = 1/f. Block gaps are geometric, as leader election makes them on mainnet. */
export const MEAN_BLOCK_GAP = 20;
export const NETWORK_MAGIC = 764824073;
export const PROTOCOL_VERSION = { major: 10, minor: 0 } as const;
export const SLOTS_PER_KES_PERIOD = 129_600;
export const MAX_KES_EVOLUTIONS = 62;
export const MAX_LOVELACE_SUPPLY = 45_000_000_000_000_000n;

/** Linear fee: fee = MIN_FEE_CONSTANT + MIN_FEE_COEFFICIENT × tx size in bytes (lovelace). */
export const MIN_FEE_COEFFICIENT = 44n;
export const MIN_FEE_CONSTANT = 155_381n;
/** Babbage min-UTxO: (160 + output size) × this many lovelace per byte. */
export const UTXO_COST_PER_BYTE = 4310n;
export const STAKE_CREDENTIAL_DEPOSIT = 2_000_000n;
export const STAKE_POOL_DEPOSIT = 500_000_000n;
export const MIN_POOL_COST = 170_000_000n;
/**
 * Lovelace a pool earns per block it makes (split between operator and delegators at the epoch boundary). With
 * ~1,080 blocks an epoch (1,460 six-hour epochs a year) and ~130 M ADA delegated, 10 ADA a block pays the largest
 * pools' delegators a few percent a year after the fixed cost, and the smallest nothing, as on mainnet.
 */
export const REWARD_PER_BLOCK = 10_000_000n;

/**
 * nOpt (k). The saturation point is circulation / k: mainnet's k = 500 over ~38 B ADA puts it near 77 M ADA, above
 * its largest pools; the devnet's ~3 B ADA (mostly the faucet's) with k = 300 puts it near 10 M ADA, around the
 * devnet's largest pools (~8–12 M ADA), so saturation reads like mainnet's and a pool can be saturated.
 */
export const DESIRED_STAKE_POOLS = 300;
/**
 * Pledge influence a0: the devnet pays each pool its blocks × REWARD_PER_BLOCK without the pledge term (a pool whose
 * owners' stake is below its pledge is paid nothing, as the ledger's pledge rule has it).
 */
export const PLEDGE_INFLUENCE = '0/1';

/** What the genesis output holds: the faucet that funds every devnet wallet (lovelace). */
export const GENESIS_FUNDS = 3_000_000_000_000_000n;
