/**
 * A tiny deterministic chain for sync unit tests: a handful of wallets paying each other ADA and a token, with
 * stake registrations/delegations, and optional forks (orphan blocks followed by a RollBackward). The canonical
 * chain does not depend on whether forks are included, so a forked stream and a clean one must index alike.
 */
import { baseAddress, hash256, poolIdFromVkey, keyHash } from '../../cardano/address.js';
import type { Block, ChainEvent, Transaction, TxOutput, Value } from '../../cardano/chain/types.js';

const enc = new TextEncoder();
const h = (s: string) => hash256(enc.encode(s));
const cred = (s: string) => h(s).slice(0, 56);
const POLICY = cred('policy');
const TOKEN = '544f4b454e'; // "TOKEN"

export interface Utxo {
  ref: { txId: string; index: number };
  out: TxOutput;
}

function rng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

export function buildChain(opts: { blocks: number; forkEvery?: number; forkDepth?: number; seed?: number }): {
  events: ChainEvent[];
  canonical: Block[];
} {
  const wallets = Array.from({ length: 6 }, (_, i) => ({
    address: baseAddress('mainnet', cred(`pay${i}`), cred(`stake${i}`)),
    stakeCred: cred(`stake${i}`),
  }));
  const poolVkey = h('pool-cold-key');
  const poolId = poolIdFromVkey(poolVkey);
  void keyHash;
  // The faucet's genesis output is not produced by any block: the indexer records that input as unresolved.
  let utxos: Utxo[] = [];
  const events: ChainEvent[] = [];
  const canonical: Block[] = [];
  let prev = 'genesis';

  const makeBlock = (height: number, ancestor: string, txs: Transaction[], tag: string): Block => ({
    type: 'praos',
    era: 'conway',
    id: h(`block-${height}-${tag}-${txs.map((t) => t.id).join()}`),
    ancestor,
    height,
    slot: height * 20,
    size: { bytes: 1000 + txs.length * 300 },
    issuer: { verificationKey: poolVkey },
    protocol: { version: { major: 10, minor: 0 } },
    transactions: txs,
  });

  const payment = (
    r: () => number,
    pool: Utxo[],
    tag: string,
  ): { tx: Transaction; spent: Set<string>; created: Utxo[] } | null => {
    if (pool.length === 0) return null;
    const u = pool[Math.floor(r() * pool.length)]!;
    const to = wallets[Math.floor(r() * wallets.length)]!;
    const lovelace = u.out.value.ada.lovelace;
    if (lovelace < 5_000_000n) return null;
    const fee = 170_000n;
    const send = lovelace / 3n;
    const tokenQ = u.out.value[POLICY]?.[TOKEN];
    const sendValue: Value = { ada: { lovelace: send } };
    const changeValue: Value = { ada: { lovelace: lovelace - send - fee } };
    if (tokenQ) {
      sendValue[POLICY] = { [TOKEN]: tokenQ / 2n };
      if (tokenQ - tokenQ / 2n > 0n) changeValue[POLICY] = { [TOKEN]: tokenQ - tokenQ / 2n };
    }
    const outputs: TxOutput[] = [
      { address: to.address, value: sendValue },
      { address: u.out.address, value: changeValue },
    ];
    const id = h(`tx-${tag}-${u.ref.txId}-${u.ref.index}`);
    const tx: Transaction = {
      id,
      spends: 'inputs',
      inputs: [{ transaction: { id: u.ref.txId }, index: u.ref.index }],
      outputs,
      fee: { ada: { lovelace: fee } },
      signatories: [],
    };
    return {
      tx,
      spent: new Set([`${u.ref.txId}#${u.ref.index}`]),
      created: outputs.map((out, index) => ({ ref: { txId: id, index }, out })),
    };
  };

  for (let height = 1; height <= opts.blocks; height++) {
    const r = rng((opts.seed ?? 1) * 100_003 + height);
    const txs: Transaction[] = [];
    if (height === 1) {
      // Faucet: spends an output from before the indexed range, mints the token, registers and delegates stake.
      const id = h('faucet');
      const outputs: TxOutput[] = wallets.map((w, i) => ({
        address: w.address,
        value: { ada: { lovelace: 100_000_000_000n }, ...(i % 2 === 0 ? { [POLICY]: { [TOKEN]: 1_000_000n } } : {}) },
      }));
      txs.push({
        id,
        spends: 'inputs',
        inputs: [{ transaction: { id: h('genesis') }, index: 0 }],
        outputs,
        fee: { ada: { lovelace: 200_000n } },
        mint: { [POLICY]: { [TOKEN]: 3_000_000n } },
        certificates: [
          {
            type: 'stakeCredentialRegistration',
            credential: wallets[1]!.stakeCred,
            from: 'verificationKey',
            deposit: { ada: { lovelace: 2_000_000n } },
          },
          {
            type: 'stakeDelegation',
            credential: wallets[1]!.stakeCred,
            from: 'verificationKey',
            stakePool: { id: poolId },
          },
        ],
        metadata: { hash: h('meta'), labels: { '674': { json: { msg: ['faucet'] } } } },
        signatories: [],
      });
      utxos.push(...outputs.map((out, index) => ({ ref: { txId: id, index }, out })));
    } else {
      let pool = [...utxos];
      for (let t = 0; t < 3; t++) {
        const p = payment(r, pool, `c${height}-${t}`);
        if (!p) continue;
        txs.push(p.tx);
        pool = pool.filter((u) => !p.spent.has(`${u.ref.txId}#${u.ref.index}`)).concat(p.created);
      }
      utxos = pool;
    }
    const block = makeBlock(height, prev, txs, 'c');
    // A fork: orphan blocks on top of the previous block, then a RollBackward to it, then the canonical block.
    if (opts.forkEvery && height > 2 && height % opts.forkEvery === 0) {
      const fr = rng(height * 7919);
      let orphanPrev = prev;
      let orphanPool = [...utxos];
      // 1-3 orphan blocks by default; `forkDepth` makes every fork that deep (a devnet's DEVNET_FORK_DEPTH above 3).
      const depth = opts.forkDepth ?? 1 + (height % 3);
      for (let d = 0; d < depth; d++) {
        const p = payment(fr, orphanPool, `o${height}-${d}`);
        const ob = makeBlock(height + d, orphanPrev, p ? [p.tx] : [], `o${d}`);
        events.push({ direction: 'forward', block: ob, tip: { slot: ob.slot!, id: ob.id, height: ob.height } });
        orphanPrev = ob.id;
        if (p) orphanPool = orphanPool.filter((u) => !p.spent.has(`${u.ref.txId}#${u.ref.index}`)).concat(p.created);
      }
      const prevBlock = canonical[canonical.length - 1]!;
      events.push({
        direction: 'backward',
        point: { slot: prevBlock.slot!, id: prevBlock.id },
        tip: { slot: prevBlock.slot!, id: prevBlock.id, height: prevBlock.height },
      });
    }
    events.push({ direction: 'forward', block, tip: { slot: block.slot!, id: block.id, height } });
    canonical.push(block);
    prev = block.id;
  }
  return { events, canonical };
}
