/**
 * Operator commands for keys and plans (`npm run ops -- keys …`, or standalone `node --import tsx
 * scripts/ops-keys.ts …`):
 *   keys create <account> [--name N]     create a key (printed once) for an account
 *   keys list <account>                  the account's keys (never the secrets)
 *   keys revoke <keyId>                  revoke a key (refused with 401 from then on)
 *   keys plan <account> <free|plus|pro>  set the account's plan (its keys follow within a minute)
 * `<account>` is the account id (stake1… or a payment key hash) or any address of the wallet (addr1…, stake1…).
 */
import { AddressError, parseAddress, type Network } from '../../cardano/address.js';
import type { PlanName } from '../../mongo/collections/access.js';
import type { Store } from '../../mongo/store.js';
import { accountIdOf, SignInError } from './cose.js';
import { KeyError, KeyRegistry, type KeyView } from './keys.js';
import { isPlanName, PLAN_NAMES } from './plans.js';

export const KEYS_USAGE = [
  'keys create <account> [--name N]     create an API key for an account (shown once)',
  'keys list <account>                  list the account’s keys',
  'keys revoke <keyId>                  revoke a key',
  `keys plan <account> <${PLAN_NAMES.join('|')}>  set the account’s plan`,
  '<account>: stake1… / payment key hash (hex), or any addr1… address of the wallet',
].join('\n');

/** A mistake in the command line or an unknown key: exit code 2 with this one-line reason. */
export class KeysCommandError extends Error {}

export type KeysCommand =
  | { cmd: 'create'; account: string; name: string }
  | { cmd: 'list'; account: string }
  | { cmd: 'revoke'; keyId: string }
  | { cmd: 'plan'; account: string; plan: PlanName };

/**
 * The account id an operator means: an account id as is, or the account an address belongs to. With `network`
 * (CARDANO_NETWORK), an address of another network is refused, as a sign-in refuses it: the same stake key has
 * another stake address there (stake_test1… for stake1…), an account no sign-in to this service ever opens, so a
 * key made for it is not on the wallet's account page and a plan set on it does not reach the wallet's keys.
 */
export function resolveAccount(input: string, network?: Network): string {
  // A payment key hash, as a sign-in records it (lower-case hex), whatever case the operator copied it in.
  if (/^[0-9a-f]{56}$/i.test(input)) return input.toLowerCase();
  try {
    const account = accountIdOf(input);
    const on = parseAddress(input).network;
    if (network && on && on !== network)
      throw new KeysCommandError(
        `not an account of this service: ${input} is a ${on} address and CARDANO_NETWORK is ${network} (use the wallet's ${network} address)`,
      );
    return account;
  } catch (e) {
    if (e instanceof AddressError || e instanceof SignInError)
      throw new KeysCommandError(`not an account: ${input} (${e.message})`);
    throw e;
  }
}

/** Parse the words after `keys`; `network` (CARDANO_NETWORK) refuses accounts of another network. */
export function parseKeysArgs(args: readonly string[], network?: Network): KeysCommand {
  const [sub, ...rest] = args;
  const positional: string[] = [];
  let name = 'default';
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    if (a === '--name') {
      const v = rest[++i];
      if (!v) throw new KeysCommandError('--name needs a value');
      name = v;
    } else if (a.startsWith('--name=')) name = a.slice('--name='.length);
    else positional.push(a);
  }
  // One line, as every `ops` mistake (README: exit code 2 and one line); the whole usage is `ops -- keys help`.
  const need = (n: number) => {
    const takes = {
      create: '<account> [--name N]',
      list: '<account>',
      revoke: '<keyId>',
      plan: `<account> <${PLAN_NAMES.join('|')}>`,
    };
    if (positional.length !== n)
      throw new KeysCommandError(
        `keys ${sub} takes ${takes[sub as keyof typeof takes]} (usage: npm run ops -- keys help)`,
      );
  };
  switch (sub) {
    case 'create':
      need(1);
      return { cmd: 'create', account: resolveAccount(positional[0]!, network), name };
    case 'list':
      need(1);
      return { cmd: 'list', account: resolveAccount(positional[0]!, network) };
    case 'revoke':
      need(1);
      return { cmd: 'revoke', keyId: positional[0]! };
    case 'plan': {
      need(2);
      const plan = positional[1]!;
      if (!isPlanName(plan)) throw new KeysCommandError(`plan must be one of ${PLAN_NAMES.join(', ')}`);
      return { cmd: 'plan', account: resolveAccount(positional[0]!, network), plan };
    }
    default:
      throw new KeysCommandError(
        `unknown keys command: ${sub} (keys create, list, revoke, plan; usage: npm run ops -- keys help)`,
      );
  }
}

const row = (k: KeyView) =>
  `${k.id}  ${k.hint}  ${k.revokedAt ? `revoked ${k.revokedAt}` : 'active'}  created ${k.createdAt}  last used ${k.lastUsedAt ?? 'never'}  ${k.name}`;

/** Run a parsed command against the store; returns the lines to print. */
export async function runKeysCommand(store: Store, cmd: KeysCommand, now: () => number = Date.now): Promise<string[]> {
  const registry = new KeyRegistry(store, now);
  try {
    switch (cmd.cmd) {
      case 'create': {
        const { key, view } = await registry.create(cmd.account, cmd.name);
        return [
          `created ${view.id} (${view.name}) for account ${cmd.account}`,
          `key: ${key}`,
          'This is the only time the key is shown; it is stored as a hash.',
        ];
      }
      case 'list': {
        const keys = await registry.list(cmd.account);
        const account = await registry.getAccount(cmd.account);
        return [
          `account ${cmd.account}: plan ${account?.plan ?? 'free (no account yet)'}, ${keys.length} key(s)`,
          ...keys.map(row),
        ];
      }
      case 'revoke': {
        const view = await registry.revoke(cmd.keyId);
        return [`revoked ${view.id} (${view.name}) at ${view.revokedAt}; running APIs refuse it within 30 s`];
      }
      case 'plan': {
        const account = await registry.setPlan(cmd.account, cmd.plan);
        return [
          `account ${account._id} is now on plan ${account.plan}; its keys follow within 30 s (when PLANS_ENFORCED=true; until then every key gets Free)`,
        ];
      }
    }
  } catch (e) {
    if (e instanceof KeyError) throw new KeysCommandError(e.message);
    throw e;
  }
}
