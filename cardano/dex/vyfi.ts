/**
 * VyFi order datums (iris src/dex/VyFiAnalyzer.ts, dexter src/dex/vyfinance.ts): `C0[B(pkh ‖ stakeKeyHash),
 * action]`, action `Deposit C0[minLp]`, `Withdraw C1[C0[minA, minB]]`, `LPFlushA C2`, `AtoB C3[minReceive]`,
 * `BtoA C4[minReceive]`, `ZapInA C5`, `ZapInB C6`.
 *
 * There is deliberately no VyFi `DexAdapter`: every VyFi pool has its own parameterised pool and order validator
 * and its own main NFT, and the only list of them is VyFi's HTTP API (`api.vyfi.io/lp`). Nothing on chain says
 * which script hashes are VyFi pools, so an adapter would need a registry snapshot this project does not have.
 * This decoder is for when such a registry is supplied.
 */
import type { PlutusData } from './plutus-data.js';
import { PlutusShapeError, asConstr, asHex, asInt, bytes, constr, encodePlutusData, fieldsOf } from './plutus-data.js';

export type VyfiAction =
  | { type: 'deposit'; minLp: bigint }
  | { type: 'withdraw'; minA: bigint; minB: bigint }
  | { type: 'lp-flush-a' }
  | { type: 'a-to-b'; minReceive: bigint }
  | { type: 'b-to-a'; minReceive: bigint }
  | { type: 'zap-in-a' }
  | { type: 'zap-in-b' };

export interface VyfiOrderDatum {
  /** Payment key hash ‖ stake key hash of the receiver, as one byte string (56 bytes on chain). */
  receiverKeyHashes: string;
  action: VyfiAction;
}

export function decodeVyfiOrderDatum(d: PlutusData): VyfiOrderDatum {
  const [who, act] = fieldsOf(d, 0, 2);
  const c = asConstr(act);
  const one = () => asInt(fieldsOf(c, c.constr, 1)[0]);
  let action: VyfiAction;
  switch (c.constr) {
    case 0:
      action = { type: 'deposit', minLp: one() };
      break;
    case 1: {
      const [a, b] = fieldsOf(fieldsOf(c, 1, 1)[0], 0, 2);
      action = { type: 'withdraw', minA: asInt(a), minB: asInt(b) };
      break;
    }
    case 2:
      action = { type: 'lp-flush-a' };
      break;
    case 3:
      action = { type: 'a-to-b', minReceive: one() };
      break;
    case 4:
      action = { type: 'b-to-a', minReceive: one() };
      break;
    case 5:
      action = { type: 'zap-in-a' };
      break;
    case 6:
      action = { type: 'zap-in-b' };
      break;
    default:
      throw new PlutusShapeError(`unknown VyFi action ${c.constr}`);
  }
  return { receiverKeyHashes: asHex(who), action };
}

export function encodeVyfiOrderDatum(o: VyfiOrderDatum): string {
  const a = o.action;
  const action =
    a.type === 'deposit'
      ? constr(0, a.minLp)
      : a.type === 'withdraw'
        ? constr(1, constr(0, a.minA, a.minB))
        : a.type === 'lp-flush-a'
          ? constr(2)
          : a.type === 'a-to-b'
            ? constr(3, a.minReceive)
            : a.type === 'b-to-a'
              ? constr(4, a.minReceive)
              : constr(a.type === 'zap-in-a' ? 5 : 6);
  return encodePlutusData(constr(0, bytes(o.receiverKeyHashes), action), { indefinite: true });
}
