import assert from 'node:assert/strict';
import type { TxOutput } from '../../cardano/chain/types.js';
import { baseAddress, enterpriseAddress, parseAddress, stakeAddressOf } from '../../cardano/address.js';
import { bech32 } from '@scure/base';
import { bytesToHex } from '../../cardano/dex/cbor.js';
import { constr, encodePlutusData } from '../../cardano/dex/plutus-data.js';
import type { PlutusData } from '../../cardano/dex/plutus-data.js';
import {
  HANDLE_DEMI_POLICY,
  HANDLE_POLICY,
  HandleInputError,
  decodeHandleDatum,
  handleMovementsOf,
  handleOfAsset,
  handleUnits,
  isHandleName,
  parseHandleInput,
  resolveHandle,
} from '../../cardano/handles.js';
import type { HandleHolderSource } from '../../cardano/handles.js';
import { realBlock, realTx } from '../dex/fixtures.js';

const hex = (s: string) => Buffer.from(s, 'utf8').toString('hex');
const KORA_SCRIPT_ADDRESS = 'addr1wxktka03n943759y4pcexpmftdhzsrrv8kcd2qs8cwgtdhgg6j4ux';

describe('ADA Handle asset encodings', () => {
  it('legacy: policy ‖ hex(name), no label', () => {
    const unit = HANDLE_POLICY + hex('rickdeckard');
    assert.equal(unit.slice(56), '7269636b6465636b617264'); // as held in block 11322313 tx 13
    assert.deepEqual(handleOfAsset(unit), {
      handle: 'rickdeckard',
      kind: 'legacy',
      role: 'holder',
      root: 'rickdeckard',
      policyId: HANDLE_POLICY,
      assetNameHex: '7269636b6465636b617264',
      unit,
    });
  });

  it('CIP-68: (222) 000de140 ‖ hex(name) is the holder token, (100) 000643b0 ‖ hex(name) the reference', () => {
    assert.equal('000de140' + hex('b-263-54'), '000de140622d3236332d3534');
    const user = handleOfAsset(`${HANDLE_POLICY}000de140622d3236332d3534`);
    assert.equal(user?.handle, 'b-263-54');
    assert.equal(user?.kind, 'cip68');
    assert.equal(user?.role, 'holder');
    const ref = handleOfAsset(`${HANDLE_POLICY}000643b0622d3236332d3534`);
    assert.equal(ref?.kind, 'cip68');
    assert.equal(ref?.role, 'reference');
  });

  it('subhandles: NFT = 000de140 ‖ hex("sub@root"), virtual = 00000000 ‖ hex("sub@root")', () => {
    const nft = handleOfAsset(HANDLE_DEMI_POLICY + '000de140' + hex('pay@acme'));
    assert.equal(nft?.handle, 'pay@acme');
    assert.equal(nft?.kind, 'subhandle');
    assert.equal(nft?.root, 'acme');
    assert.equal(nft?.role, 'holder');
    const virtual = handleOfAsset(HANDLE_POLICY + '00000000' + hex('pay@acme'));
    assert.equal(virtual?.kind, 'virtual');
    assert.equal(virtual?.role, 'virtual');
  });

  it('is not a handle: other policies, (001) settings tokens, (000) roots, legacy names with @, bad names', () => {
    assert.equal(handleOfAsset('b558ea5ecfa2a6e9701dab150248e94104402f789c090426eb60eb60536e656b6b696533343934'), null);
    assert.equal(handleOfAsset(HANDLE_POLICY + '00001070' + hex('acme')), null);
    assert.equal(handleOfAsset(HANDLE_POLICY + '00000000' + hex('acme')), null);
    assert.equal(handleOfAsset(HANDLE_POLICY + hex('pay@acme')), null);
    assert.equal(handleOfAsset(HANDLE_POLICY + hex('UPPER')), null);
  });

  it('the reference naming rule', () => {
    for (const ok of ['a', 'b-263-54', 'xn--ada-3r6ad', 'a@b', 'eventbrite.ca', 'x'.repeat(28)])
      assert.ok(isHandleName(ok), ok);
    for (const bad of ['', 'x'.repeat(29), 'A', 'a b', '@b', 'a@', 'a@b@c', `${'x'.repeat(20)}@${'y'.repeat(8)}`])
      assert.ok(!isHandleName(bad), bad);
  });
});

describe('parseHandleInput', () => {
  it('normalises $Name, name and sub@root', () => {
    assert.deepEqual(parseHandleInput('$B-263-54'), { handle: 'b-263-54', root: 'b-263-54', sub: null });
    assert.deepEqual(parseHandleInput('  rickdeckard '), { handle: 'rickdeckard', root: 'rickdeckard', sub: null });
    assert.deepEqual(parseHandleInput('$Pay@Acme'), { handle: 'pay@acme', root: 'acme', sub: 'pay' });
  });

  it('rejects malformed input with a message naming the rule', () => {
    const cases: Array<[string, RegExp]> = [
      ['', /empty/],
      ['$', /empty/],
      ['a$b', /"\$"/],
      ['a b', /a-z, 0-9/],
      ['émile', /a-z, 0-9/],
      ['a@b@c', /exactly one "@"/],
      ['@acme', /both a sub and a root/],
      ['x'.repeat(29), /1 to 28/],
      [`${'x'.repeat(20)}@${'y'.repeat(8)}`, /3 to 28/],
    ];
    for (const [input, re] of cases)
      assert.throws(
        () => parseHandleInput(input),
        (e: unknown) => e instanceof HandleInputError && re.test(e.message),
        input,
      );
  });

  it('lists the units to look up, per policy', () => {
    assert.deepEqual(
      handleUnits(parseHandleInput('$b-263-54')).map((u) => [u.unit, u.kind]),
      [
        [HANDLE_POLICY + hex('b-263-54'), 'legacy'],
        [`${HANDLE_POLICY}000de140${hex('b-263-54')}`, 'cip68'],
        [HANDLE_DEMI_POLICY + hex('b-263-54'), 'legacy'],
        [`${HANDLE_DEMI_POLICY}000de140${hex('b-263-54')}`, 'cip68'],
      ],
    );
    assert.deepEqual(
      handleUnits(parseHandleInput('pay@acme'))
        .slice(0, 2)
        .map((u) => [u.unit, u.kind]),
      [
        [`${HANDLE_POLICY}000de140${hex('pay@acme')}`, 'subhandle'],
        [`${HANDLE_POLICY}00000000${hex('pay@acme')}`, 'virtual'],
      ],
    );
  });
});

describe('handles in real mainnet blocks', () => {
  it('block 11321965 tx 0 mints b-263-54: (222) to a wallet, (100) to the Kora Labs script with its datum', () => {
    const tx = realTx(11321965, 0);
    const moves = handleMovementsOf(tx);
    assert.deepEqual(
      moves.map((m) => [m.kind, m.asset.handle, m.asset.role, m.outputIndex, m.address]),
      [
        ['mint', 'b-263-54', 'holder', 0, tx.outputs[0]!.address],
        ['mint', 'b-263-54', 'reference', 1, KORA_SCRIPT_ADDRESS],
      ],
    );
    const datum = decodeHandleDatum(tx.outputs[1]!.datum!);
    assert.equal(datum?.metadata.name, '$b-263-54');
    assert.equal(datum?.metadata.og_number, 0);
    assert.equal(datum?.version, 1);
    assert.equal(datum?.personalization.validated_by, '4da965a049dfd15ed1ee19fba6e2974a0b79fc416dd1796a1f97f5e1');
    assert.equal(datum?.resolvedAda, null, 'a root handle resolves through its (222) token, not the datum');
  });

  it('block 11322286 tx 35 moves eight legacy handles to one wallet', () => {
    const moves = handleMovementsOf(realTx(11322286, 35));
    assert.equal(moves.length, 8);
    assert.ok(moves.every((m) => m.kind === 'move' && m.asset.kind === 'legacy'));
    assert.ok(moves.some((m) => m.asset.handle === 'eventbrite.ca'));
    assert.equal(new Set(moves.map((m) => m.address)).size, 1);
  });

  /** The UTxO set after the three real blocks, reduced to "latest output holding each handle unit". */
  function holdersFromBlocks(): HandleHolderSource {
    const latest = new Map<string, TxOutput>();
    for (const h of [11321965, 11322286, 11322313] as const)
      for (const tx of realBlock(h).transactions ?? [])
        for (const m of handleMovementsOf(tx))
          if (m.outputIndex !== null) latest.set(m.asset.unit, tx.outputs[m.outputIndex]!);
    return { holderOf: async (unit) => latest.get(unit) ?? null };
  }

  it('resolves $b-263-54 (CIP-68) and $rickdeckard (legacy) to their holder in block 11322313 tx 13', async () => {
    const source = holdersFromBlocks();
    const holder = realTx(11322313, 13).outputs[0]!.address;
    const cip68 = await resolveHandle('$B-263-54', source);
    assert.deepEqual(cip68, {
      handle: 'b-263-54',
      kind: 'cip68',
      address: holder,
      stakeAddress: stakeAddressOf(holder),
      script: false,
      assetUnit: `${HANDLE_POLICY}000de140622d3236332d3534`,
    });
    assert.match(cip68!.stakeAddress!, /^stake1/);
    const legacy = await resolveHandle('rickdeckard', source);
    assert.equal(legacy?.kind, 'legacy');
    assert.equal(legacy?.address, holder);
    assert.equal(legacy?.assetUnit, HANDLE_POLICY + hex('rickdeckard'));
    assert.equal(await resolveHandle('$nosuchhandle', source), null);
  });
});

describe('subhandle resolution', () => {
  const wallet = baseAddress('mainnet', 'a1'.repeat(28), 'b2'.repeat(28));
  const multisig = baseAddress('mainnet', 'c3'.repeat(28), 'd4'.repeat(28), true, false);
  const walletBytes = bytesToHex(bech32.fromWords(bech32.decode(wallet as `addr1${string}`, 1023).words));
  const utf8 = (s: string) => Uint8Array.from(Buffer.from(s, 'utf8'));
  /** CIP-68 layout as the reference describes for a virtual subhandle: field 2 holds `resolved_addresses.ada`. */
  const virtualDatum = (ada: string | null): string =>
    encodePlutusData(
      constr(0, { map: [[utf8('name'), utf8('$pay@acme')]] }, 1n, {
        map:
          ada === null
            ? []
            : [[utf8('resolved_addresses'), { map: [[utf8('ada'), Uint8Array.from(Buffer.from(ada, 'hex'))]] }]],
      } as PlutusData),
      { indefinite: true },
    );
  const source = (held: Record<string, Pick<TxOutput, 'address' | 'datum'>>): HandleHolderSource => ({
    holderOf: async (unit) => held[unit] ?? null,
  });

  it('virtual: the holder is the address in the (000) token datum, not the script holding the token', async () => {
    const unit = `${HANDLE_POLICY}00000000${hex('pay@acme')}`;
    const r = await resolveHandle(
      'pay@acme',
      source({ [unit]: { address: KORA_SCRIPT_ADDRESS, datum: virtualDatum(walletBytes) } }),
    );
    assert.deepEqual(r, {
      handle: 'pay@acme',
      kind: 'virtual',
      address: wallet,
      stakeAddress: stakeAddressOf(wallet),
      script: false,
      assetUnit: unit,
    });
    const none = await resolveHandle(
      'pay@acme',
      source({ [unit]: { address: KORA_SCRIPT_ADDRESS, datum: virtualDatum(null) } }),
    );
    assert.equal(none, null);
  });

  it('NFT subhandle: resolved like any handle, and a script holder is flagged', async () => {
    const unit = `${HANDLE_DEMI_POLICY}000de140${hex('pay@acme')}`;
    const r = await resolveHandle('$pay@acme', source({ [unit]: { address: multisig } }));
    assert.equal(r?.kind, 'subhandle');
    assert.equal(r?.address, multisig);
    assert.equal(r?.script, true);
    assert.equal(parseAddress(r!.address).paymentCred, 'c3'.repeat(28));
  });

  it('an enterprise holder has no stake address', async () => {
    const ent = enterpriseAddress('mainnet', 'e5'.repeat(28));
    const r = await resolveHandle('acme', source({ [HANDLE_POLICY + hex('acme')]: { address: ent } }));
    assert.equal(r?.stakeAddress, null);
  });

  it('malformed input throws HandleInputError before any lookup', async () => {
    await assert.rejects(resolveHandle('a b', source({})), HandleInputError);
  });
});
