/**
 * ADA Handles ($name, sub@root): one document per handle name, written by the handles sync extension
 * (activities/handles/extension.ts) inside the sync slice, so a RollBackward restores them exactly from the undo
 * journal. A handle's holder is the address of the UTxO holding its holder token (legacy name, CIP-68 (222) user
 * token, NFT subhandle), or for a virtual subhandle the `resolved_addresses.ada` of its (000) token's datum.
 * Burning the holder token removes the document. See reference/dex-nft-handles.md §4.
 */
import type { HandleKind } from '../../cardano/handles.js';
import { defineCollection } from '../store.js';

export interface HandleDoc {
  /** The handle without `$`, lowercase: `b-263-54`, `pay@acme`. */
  _id: string;
  kind: HandleKind;
  /** Root handle of a subhandle, else the handle itself. */
  root: string;
  policyId: string;
  /** Unit of the token that decides the holder: the legacy name, the (222) user token or the (000) virtual token. */
  unit: string;
  /**
   * The handle's address; null while it is unknown (only the (100) reference token was seen, e.g. the holder token
   * was minted before the indexed range and has not moved since, or a virtual subhandle's datum names no address).
   */
  address: string | null;
  /** Stake address of `address`; null without a stake key (enterprise, Byron) or without an address. */
  stakeAddress: string | null;
  /** `address` has a script payment credential (a multisig, a marketplace contract). */
  script: boolean;
  /** UTxO (`txId#index`) holding `unit`; for a virtual subhandle the Kora Labs script output with its datum. */
  utxo: string | null;
  /** The CIP-68 (100) reference token (cip68 and NFT subhandles) and the UTxO holding it with the datum. */
  referenceUnit: string | null;
  referenceUtxo: string | null;
  /** From the CIP-68 datum ((100) or (000) token), else from the mint's label 721 metadata; null when not stated. */
  image: string | null;
  /** Personalisation `default` = 1: the holder chose it as their default handle (CIP-68 only). */
  defaultHandle: boolean | null;
  /** Datum/metadata `og_number` (0 = not an OG handle) and `rarity` (basic, common, rare, ultra_rare, legendary). */
  ogNumber: number | null;
  rarity: string | null;
  /** Slot of the transaction that minted `unit`; null when minted before the indexed range. */
  mintSlot: number | null;
  /** Slot of the last change to this document. */
  updatedSlot: number;
}

export const HANDLES = defineCollection<HandleDoc>({
  name: 'handles',
  // Handles of a wallet (stake key) or of an address, for the wallet views and the agent tools.
  indexes: [
    { name: 'byStake', fields: ['stakeAddress'] },
    { name: 'byAddress', fields: ['address'] },
  ],
});

/** Written by the sync extension (rolled back exactly). */
export const HANDLES_COLLECTIONS = [HANDLES];
