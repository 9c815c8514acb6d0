/**
 * list_tokens hideHighRisk on the devnet: tokens the safety assessment rates high risk are left out of the whole
 * ranking before paging, so pages are full, consecutive pages neither repeat nor skip a token, and hiddenHighRisk
 * counts exactly the high-risk tokens of the list. Oracle: get_token's own safety level for every token of the
 * unfiltered list.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@modelcontextprotocol/client';
import { createApp } from '../../api/app.js';
import { acquireWorld, allListedTokens, connect, releaseWorld } from './world.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('list_tokens hideHighRisk hides before paging', function () {
  this.timeout(300_000);
  let server: Server;
  let client: Client;
  const call = async (name: string, args: Json): Promise<Json> => {
    const r = (await client.callTool({ name, arguments: args })) as Json;
    assert.notEqual(r.isError, true, JSON.stringify(r.content));
    return r.structuredContent as Json;
  };
  const allTokens = () => allListedTokens(call);

  before(async () => {
    const world = await acquireWorld();
    server = createServer(createApp(world.deps).callback());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    client = await connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/mcp`, 'modern');
  });
  after(async () => {
    await client?.close();
    server?.close();
    await releaseWorld();
  });

  it('safety leaves DEX pools out: concentration is of the top 10 other holders, an LP share is at most 100 %', async () => {
    const { stakeAddressOf } = await import('../../cardano/address.js');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
    const rest = async (path: string) => (await (await fetch(base + path)).json()) as Json;
    let checked = 0;
    for (const item of await allTokens()) {
      const unit = item.asset.unit as string;
      const { safety } = await call('get_token', { unit });
      const factor = (name: string) => (safety.factors as Json[]).find((f) => f.name === name);
      const lp = factor('topHolderLpShare')?.value;
      if (typeof lp === 'number') assert.ok(lp >= 0 && lp <= 100, `${unit}: LP share ${lp} %`);
      // The oracle: the REST holders list without the token's pools (as holders: their stake key, else address).
      const token = await rest(`/tokens/${unit}?logos=url`);
      const pools = new Set((token.pools as Json[]).map((p) => stakeAddressOf(p.address) ?? p.address));
      const holders = (await rest(`/tokens/${unit}/holders`)).items as Json[];
      const top10 = holders.filter((h) => !pools.has(h.address)).slice(0, 10);
      const supply = token.stats.totalSupply as number;
      const value = factor('holderConcentration')?.value;
      if (typeof value !== 'number' || !supply || holders.length >= 100) continue;
      const expected = (top10.reduce((sum, h) => sum + (h.quantity as number), 0) / supply) * 100;
      assert.ok(Math.abs(value - expected) <= 0.011, `${unit}: concentration ${value} % vs ${expected} %`);
      checked++;
    }
    assert.ok(checked >= 5, `${checked} tokens' concentration checked by hand`);
  });

  it('pages of the filtered list are full and the left-out tokens are exactly the high-risk ones', async () => {
    const units = (await allTokens()).map((i) => i.asset.unit as string);
    assert.ok(units.length > 6, 'the devnet lists enough tokens');
    const levels = new Map<string, string | null>();
    for (const unit of units) levels.set(unit, (await call('get_token', { unit })).safety?.level ?? null);
    const high = units.filter((u) => levels.get(u) === 'high');
    assert.ok(high.length > 0, 'the devnet has high-risk tokens (the oracle must see some)');
    const kept = units.filter((u) => levels.get(u) !== 'high');

    const size = 3;
    const seen: string[] = [];
    for (let page = 1; seen.length < kept.length; page++) {
      const p = await call('list_tokens', { sort: 'liquidity', limit: size, page, hideHighRisk: true });
      assert.equal(p.hiddenHighRisk, high.length);
      assert.equal(p.total, kept.length);
      const got = (p.items as Json[]).map((i) => i.asset.unit as string);
      assert.equal(got.length, Math.min(size, kept.length - seen.length), `page ${page} is full`);
      for (const i of p.items as Json[]) assert.notEqual(i.highRisk, true);
      seen.push(...got);
    }
    assert.deepEqual(seen, kept, 'the filtered pages are the unfiltered order without the high-risk tokens');
    const plain = await call('list_tokens', { sort: 'liquidity', limit: 5 });
    assert.equal(plain.hiddenHighRisk, 0);
  });
});
