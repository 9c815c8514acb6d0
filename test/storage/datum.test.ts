/**
 * Iagon datums and event classification on hand-built Plutus data: the reference layout the devnet writes, the
 * contract repository's own CBOR test vectors (validators/staking.ak, validators/reward.ak: the exact bytes its Aiken
 * tests assert), and blocks whose transactions stake, retire, withdraw and claim.
 */
import assert from 'node:assert/strict';
import { bytes, constr, encodePlutusData } from '../../cardano/dex/plutus-data.js';
import type { Block, Transaction, TxOutput } from '../../cardano/chain/types.js';
import {
  decodeRewardCertificate,
  decodeStakeDatum,
  encodeRewardCertificate,
  encodeStakeDatum,
} from '../../activities/storage/datum.js';
import { scanStorageBlock } from '../../activities/storage/events.js';
import { IAG_NAME, IAG_POLICY, IAG_UNIT, resolveIagonScripts } from '../../cardano/iagon.js';
import { baseAddress, enterpriseAddress } from '../../cardano/address.js';
import type { UtxoDoc } from '../../mongo/collections/chain.js';

const PKH = 'e14edd775467a4e7bac7e98ce2fbb89157ab1dce924f30bea752cce3';
const STAKE_CRED = '1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6';
const PROVIDER = baseAddress('mainnet', PKH, STAKE_CRED);
const STAKE_SCRIPT = 'aa'.repeat(28);
const REWARD_SCRIPT = 'bb'.repeat(28);
const STAKE_ADDR = enterpriseAddress('mainnet', STAKE_SCRIPT, true);
const REWARD_ADDR = enterpriseAddress('mainnet', REWARD_SCRIPT, true);

/** {providerKey, providerAddr = C0[C0[pkh], Some(C0[C0[C0[stake pkh]]])], locked_until, state} built by hand. */
const handBuilt = (state: 0 | 1, locked: bigint) =>
  encodePlutusData(
    constr(
      0,
      bytes(PKH),
      constr(0, constr(0, bytes(PKH)), constr(0, constr(0, constr(0, bytes(STAKE_CRED))))),
      locked,
      constr(state),
    ),
  );

describe('Iagon datums', () => {
  it('decodes the reference layout built by hand: key, address, lock time, state', () => {
    const active = decodeStakeDatum(handBuilt(0, 1_795_000_000_000n));
    assert.deepEqual(active, {
      providerKey: PKH,
      providerAddress: PROVIDER,
      token: null,
      lockedUntilMs: 1_795_000_000_000,
      state: 'active',
      layout: 'architecture',
    });
    assert.equal(decodeStakeDatum(handBuilt(1, 5n))?.state, 'retiring');
  });

  it('encodes the reference layout to the same bytes as built by hand', () => {
    const hex = encodeStakeDatum({
      providerKey: PKH,
      providerAddress: PROVIDER,
      lockedUntilMs: 1_795_000_000_000,
      state: 'active',
    });
    assert.equal(hex, handBuilt(0, 1_795_000_000_000n));
  });

  it('decodes the validator layout from the contract repository’s CBOR test vectors', () => {
    // check_datum_cbor_without_cert: token (#"", #""), locked_until 123456, Active, cert None.
    const without = decodeStakeDatum(
      'd8799f581ce14edd775467a4e7bac7e98ce2fbb89157ab1dce924f30bea752cce39f4040ff1a0001e240d87980d87a80ff',
    );
    assert.deepEqual(without, {
      providerKey: PKH,
      providerAddress: null,
      token: 'lovelace',
      lockedUntilMs: 123456,
      state: 'active',
      layout: 'validator',
    });
    // check_stake_datum_with_cert: Retiring with Some(certificate).
    const withCert = decodeStakeDatum(
      'd8799f581ce14edd775467a4e7bac7e98ce2fbb89157ab1dce924f30bea752cce39f4040ff1a0001e240d87a80d8799fd8799fd8799f' +
        'd8799f5820768f32a1a557789b745688f3adb7ee33b4db47e6a4977ca3b070edea15f7b4b5ff00ff1b0000018b2202e264d8799f1b' +
        '0000018b2202e264ffa140a1401a000f4240ffffff',
    );
    assert.equal(withCert?.state, 'retiring');
    assert.equal(withCert?.providerKey, PKH);
  });

  it('decodes the reward certificate vector and round-trips it', () => {
    const vector =
      'd8799fd8799fd8799f5820768f32a1a557789b745688f3adb7ee33b4db47e6a4977ca3b070edea15f7b4b5ff00ff1b0000018b2202e264' +
      '581ce14edd775467a4e7bac7e98ce2fbb89157ab1dce924f30bea752cce3a140a1401a000f4240ff';
    const cert = decodeRewardCertificate(vector);
    assert.deepEqual(cert, {
      certUtxo: { txId: '768f32a1a557789b745688f3adb7ee33b4db47e6a4977ca3b070edea15f7b4b5', index: 0 },
      expiresInMs: 1697082696292,
      providerKey: PKH,
      value: { lovelace: 1_000_000n },
    });
    const iag = { ...cert!, value: { [IAG_UNIT]: 2_500_000_000n } };
    assert.deepEqual(decodeRewardCertificate(encodeRewardCertificate(iag)), iag);
  });

  it('rejects other shapes instead of guessing', () => {
    const bad = [
      encodePlutusData(constr(1, bytes(PKH), constr(0), 1n, constr(0))), // wrong constructor
      encodePlutusData(constr(0, bytes(PKH.slice(2)), constr(0, constr(0, bytes(PKH)), constr(1)), 1n, constr(0))), // 27-byte key
      encodePlutusData(constr(0, bytes(PKH), constr(0, constr(0, bytes(PKH)), constr(1)), 1n, constr(2))), // no such state
      encodePlutusData(constr(0, bytes(PKH), constr(0, constr(0, bytes(PKH)), constr(1)), -1n, constr(0))), // negative time
      'd87980',
    ];
    for (const hex of bad) assert.equal(decodeStakeDatum(hex), null, hex);
    assert.equal(decodeRewardCertificate(handBuilt(0, 1n)), null);
  });

  it('uses configured scripts, else the devnet’s only when the devnet is the chain', () => {
    const devnet = resolveIagonScripts({ DEVNET_SEED: 'x' });
    assert.equal(devnet.stake.length, 1);
    assert.match(devnet.stake[0] as string, /^[0-9a-f]{56}$/);
    assert.deepEqual(resolveIagonScripts({ DEVNET_SEED: 'x', OGMIOS_URL: 'ws://node:1337' }), {
      stake: [],
      reward: [],
    });
    // The standalone devnet (`npm run devnet`) at OGMIOS_URL, said so by OGMIOS_IS_DEVNET: its scripts, as built in.
    assert.deepEqual(
      resolveIagonScripts({ DEVNET_SEED: 'x', OGMIOS_URL: 'ws://127.0.0.1:1337', OGMIOS_IS_DEVNET: true }),
      devnet,
    );
    assert.deepEqual(
      resolveIagonScripts({ DEVNET_SEED: 'x', OGMIOS_URL: 'ws://node:1337', IAGON_STAKE_SCRIPTS: [STAKE_SCRIPT] }),
      { stake: [STAKE_SCRIPT], reward: [] },
    );
  });
});

describe('Iagon events of a block', () => {
  const iag = (q: bigint) => ({ [IAG_POLICY]: { [IAG_NAME]: q } });
  const out = (address: string, q: bigint, datum?: string): TxOutput => ({
    address,
    value: { ada: { lovelace: 2_000_000n }, ...(q > 0n ? iag(q) : {}) },
    ...(datum ? { datum } : {}),
  });
  const utxo = (id: string, address: string, cred: string, q: bigint, datum: string | null): UtxoDoc => ({
    _id: id,
    txId: id.split('#')[0] as string,
    index: Number(id.split('#')[1]),
    address,
    paymentCred: cred,
    stakeAddress: null,
    value: { lovelace: '2000000', assets: q > 0n ? { [IAG_UNIT]: String(q) } : {} },
    datumHash: null,
    datum,
    slot: 1,
  });
  const tx = (id: string, inputs: string[], outputs: TxOutput[]): Transaction => ({
    id: id.repeat(64).slice(0, 64),
    spends: 'inputs',
    inputs: inputs.map((r) => ({ transaction: { id: r.split('#')[0] as string }, index: Number(r.split('#')[1]) })),
    outputs,
  });
  const scripts = { stake: new Set([STAKE_SCRIPT]), reward: new Set([REWARD_SCRIPT]) };
  const active = encodeStakeDatum({ providerKey: PKH, providerAddress: PROVIDER, lockedUntilMs: 10, state: 'active' });
  const retiring = encodeStakeDatum({
    providerKey: PKH,
    providerAddress: PROVIDER,
    lockedUntilMs: 20,
    state: 'retiring',
  });
  const s1 = `${'1'.repeat(64)}#0`;
  const s2 = `${'2'.repeat(64)}#0`;
  const r1 = `${'3'.repeat(64)}#0`;
  const w1 = `${'4'.repeat(64)}#1`;
  const spent = new Map<string, UtxoDoc>([
    [s1, utxo(s1, STAKE_ADDR, STAKE_SCRIPT, 500_000_000n, active)],
    [s2, utxo(s2, STAKE_ADDR, STAKE_SCRIPT, 700_000_000n, retiring)],
    [r1, utxo(r1, REWARD_ADDR, REWARD_SCRIPT, 9_000_000_000n, 'd87980')],
    [w1, utxo(w1, PROVIDER, PKH, 0n, null)],
  ]);
  const cert = encodeRewardCertificate({
    certUtxo: { txId: '4'.repeat(64), index: 1 },
    expiresInMs: 99,
    providerKey: PKH,
    value: { [IAG_UNIT]: 1_250_000_000n },
  });
  const block: Block = {
    type: 'praos',
    era: 'conway',
    id: 'f'.repeat(64),
    ancestor: 'e'.repeat(64),
    height: 10,
    slot: 100,
    transactions: [
      tx('a', [w1], [out(STAKE_ADDR, 300_000_000n, active), out(PROVIDER, 1n)]), // stake
      tx('b', [s1], [out(STAKE_ADDR, 500_000_000n, retiring)]), // retire
      tx('c', [s2], [out(PROVIDER, 700_000_000n)]), // withdraw
      tx('d', [r1], [out(REWARD_ADDR, 7_750_000_000n, cert), out(PROVIDER, 1_250_000_000n)]), // claim
      tx('e', [w1], [out(REWARD_ADDR, 1_000_000_000n, 'd87980')]), // fund
      { ...tx('f', [w1], [out(STAKE_ADDR, 1n, active)]), spends: 'collaterals' }, // failed: nothing happened
    ],
  };

  it('classifies stake, retire, withdraw, claim and funding with provider and amount', () => {
    const { events, addresses } = scanStorageBlock(block, spent, scripts, 'mainnet');
    assert.deepEqual(
      events.map((e) => [e.txIndex, e.kind, e.provider, e.amount, e.state]),
      [
        [0, 'stake', PKH, 300_000_000n, 'active'],
        [1, 'retire', PKH, 500_000_000n, 'retiring'],
        [2, 'withdraw', PKH, 700_000_000n, null],
        [3, 'reward-claim', PKH, 1_250_000_000n, null],
        [4, 'reward-fund', null, 1_000_000_000n, null],
      ],
    );
    assert.equal(events[0]?.providerAddress, PROVIDER);
    assert.deepEqual(
      addresses.map((a) => [a.address, a.role]).sort(),
      [
        [STAKE_ADDR, 'stake'],
        [REWARD_ADDR, 'reward'],
      ].sort(),
    );
  });

  it('sees nothing when no script is configured', () => {
    const none = { stake: new Set<string>(), reward: new Set<string>() };
    assert.deepEqual(scanStorageBlock(block, spent, none, 'mainnet').events, []);
  });
});
