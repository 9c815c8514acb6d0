/**
 * A CIP-30 wallet holding a real Ed25519 key, for tests: its UTxOs are the devnet ledger's at its address, it
 * signs the body hash of a transaction (vkey witness) and submits through the devnet's Ogmios `submitTransaction`
 * over HTTP, as a light wallet talks to its node.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { blake2b } from '@noble/hashes/blake2.js';
import { bech32, hex } from '@scure/base';
import { encodeCbor, type Cbor } from '../../cardano/dex/cbor.js';
import { baseAddress, keyHash } from '../../cardano/address.js';
import type { Devnet } from '../../devnet/index.js';
import { itemEnd } from '../../devnet/submit.js';

const int = (v: bigint | number): Cbor => ({ t: 'int', v: BigInt(v) });
const bytes = (b: Uint8Array): Cbor => ({ t: 'bytes', v: b });
const arr = (v: Cbor[]): Cbor => ({ t: 'array', v, indef: false });
const map = (v: Array<[Cbor, Cbor]>): Cbor => ({ t: 'map', v, indef: false });

export class DevnetWallet {
  readonly paymentSk: Uint8Array;
  readonly paymentVk: string;
  readonly address: string;
  signed = 0;

  constructor(
    private readonly devnet: Devnet,
    seed = 'swap-test-wallet',
  ) {
    this.paymentSk = blake2b(new TextEncoder().encode(`${seed}/payment`), { dkLen: 32 });
    const stakeSk = blake2b(new TextEncoder().encode(`${seed}/stake`), { dkLen: 32 });
    this.paymentVk = hex.encode(ed25519.getPublicKey(this.paymentSk));
    const stakeVk = hex.encode(ed25519.getPublicKey(stakeSk));
    this.address = baseAddress('mainnet', keyHash(this.paymentVk), keyHash(stakeVk));
  }

  get addressHex(): string {
    return hex.encode(bech32.fromWords(bech32.decode(this.address as `${string}1${string}`, 1023).words));
  }

  /** CIP-30 getUtxos: hex CBOR [input, output] of every unspent output at the address. */
  utxos(): string[] {
    const out: string[] = [];
    for (const u of this.devnet.ledger.utxosAt(this.address)) {
      const byPolicy = new Map<string, Array<[Cbor, Cbor]>>();
      for (const [p, names] of Object.entries(u.value.assets))
        byPolicy.set(
          p,
          Object.entries(names).map(([n, q]) => [bytes(hex.decode(n)), int(q)]),
        );
      const value = byPolicy.size
        ? arr([int(u.value.coin), map([...byPolicy].map(([p, names]) => [bytes(hex.decode(p)), map(names)]))])
        : int(u.value.coin);
      const output = map([
        [int(0), bytes(hex.decode(this.addressHex))],
        [int(1), value],
      ]);
      out.push(hex.encode(encodeCbor(arr([arr([bytes(hex.decode(u.txId)), int(u.index)]), output]))));
    }
    return out;
  }

  /** CIP-30 signTx(tx, partial): the witness set with one vkey witness over the body hash. */
  signTx(txHex: string): string {
    const b = hex.decode(txHex);
    const end = itemEnd(b, 1);
    const id = blake2b(b.subarray(1, end), { dkLen: 32 });
    const sig = ed25519.sign(id, this.paymentSk);
    this.signed++;
    return hex.encode(
      encodeCbor(
        map([[int(0), { t: 'tag', tag: 258n, v: arr([arr([bytes(hex.decode(this.paymentVk)), bytes(sig)])]) }]]),
      ),
    );
  }

  /** CIP-30 submitTx: Ogmios submitTransaction on the devnet's HTTP endpoint; the transaction id. */
  async submitTx(txHex: string): Promise<string> {
    const res = await fetch(this.devnet.httpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        method: 'submitTransaction',
        params: { transaction: { cbor: txHex } },
        id: 1,
      }),
    });
    const body = (await res.json()) as {
      result?: { transaction: { id: string } };
      error?: { code: number; message: string };
    };
    if (body.error) throw new Error(`submit refused (${body.error.code}): ${body.error.message}`);
    return body.result!.transaction.id;
  }
}
