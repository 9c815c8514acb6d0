// The account page: connect a CIP-30 wallet, sign the server's nonce (CIP-8 signData), then list, create and revoke
// API keys. Plain DOM code, no framework; every value from the server is written with textContent.
/* global document, window, fetch, navigator, setInterval, clearInterval */
'use strict';

const $ = (id) => document.getElementById(id);

function say(text) {
  $('status').textContent = text;
}

async function call(method, path, body) {
  const res = await fetch(`/account/api${path}`, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const err = new Error(data.error || `HTTP ${res.status}`);
    err.status = res.status;
    throw err;
  }
  return data;
}

const fmt = (iso) => (iso ? new Date(iso).toISOString().replace('T', ' ').slice(0, 16) + ' UTC' : '—');
const num = (n) => n.toLocaleString('en-US');

function cell(row, text) {
  const td = document.createElement('td');
  td.textContent = text;
  row.appendChild(td);
  return td;
}

async function showLimits() {
  const l = await call('GET', '/limits');
  const body = $('limits');
  body.replaceChildren();
  const rows = [[`No key (per IP, on each surface)`, num(l.anonymous.perMinute), 'no daily cap']];
  for (const p of l.plans) rows.push([`${p.label} key`, num(p.perMinute), num(p.perDay)]);
  for (const r of rows) {
    const tr = document.createElement('tr');
    for (const v of r) cell(tr, v);
    body.appendChild(tr);
  }
  $('limits-notes').textContent =
    (l.plansEnforced
      ? 'Each key has the limits of its account’s plan. '
      : 'Plans are not enforced yet: every key has the Free limits. ') +
    `Wallet profit and loss is a heavier call with an extra limit: ${num(l.pnl.anonymousPerMinute)} per minute per IP without a key, ` +
    `${num(l.pnl.keyPerMinute)} per minute per key.`;
}

async function showKeys() {
  const { items } = await call('GET', '/keys');
  const body = $('keys').querySelector('tbody');
  body.replaceChildren();
  for (const k of items) {
    const tr = document.createElement('tr');
    tr.dataset.keyId = k.id;
    if (k.revokedAt) tr.className = 'revoked';
    cell(tr, k.name);
    cell(tr, k.hint);
    cell(tr, fmt(k.createdAt));
    cell(tr, fmt(k.lastUsedAt));
    cell(tr, k.revokedAt ? `revoked ${fmt(k.revokedAt)}` : 'active');
    const td = cell(tr, '');
    if (!k.revokedAt) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'revoke';
      b.textContent = 'Revoke';
      b.addEventListener('click', () => revoke(k.id, k.name));
      td.appendChild(b);
    }
    body.appendChild(tr);
  }
}

async function showAccount(me) {
  $('signin').hidden = true;
  $('account').hidden = false;
  $('account-id').textContent = me.account;
  $('account-plan').textContent =
    me.plan === me.appliedPlan ? me.plan : `${me.plan} (keys get ${me.appliedPlan} limits for now)`;
  $('account-limits').textContent = `${num(me.perMinute)}/min, ${num(me.perDay)}/day per key`;
  await showKeys();
}

function showSignIn() {
  $('signin').hidden = false;
  $('account').hidden = true;
  $('new-key-box').hidden = true;
  $('new-key').textContent = '';
}

/**
 * A call refused for want of a session (it lasts an hour; or signed out in another tab): back to the wallet
 * buttons. The page stayed on the account view, its sign-in hidden, saying "sign in with your wallet" with no way
 * to do so short of reloading.
 */
function sessionLost(e) {
  if (e.status !== 401) return false;
  showSignIn();
  listWallets();
  say('Your session has ended; sign in again with your wallet.');
  return true;
}

async function revoke(id, name) {
  try {
    await call('DELETE', `/keys/${encodeURIComponent(id)}`);
    say(`Key “${name}” revoked; it is refused from now on.`);
    await showKeys();
  } catch (e) {
    if (!sessionLost(e)) say(`Could not revoke: ${e.message}`);
  }
}

async function createKey() {
  try {
    const created = await call('POST', '/keys', { name: $('key-name').value });
    $('new-key').textContent = created.key;
    $('new-key-box').hidden = false;
    $('key-name').value = '';
    say(`Key “${created.name}” created.`);
    await showKeys();
  } catch (e) {
    if (!sessionLost(e)) say(`Could not create a key: ${e.message}`);
  }
}

async function signIn(name) {
  const wallet = window.cardano[name];
  try {
    say(`Connecting ${wallet.name || name}…`);
    const api = await wallet.enable();
    // The reward address first: the wallet signs it with its stake key, and the account of a stake key is the one
    // every address of the wallet shares. A payment address's signature opens that payment key's own account.
    const reward = (await api.getRewardAddresses?.()) || [];
    const used = (await api.getUsedAddresses?.()) || [];
    const address = reward[0] || used[0] || (await api.getChangeAddress());
    const issued = await call('POST', '/nonce', { address });
    say('Sign the message in your wallet…');
    const signed = await api.signData(address, issued.payload);
    const me = await call('POST', '/session', {
      address,
      nonce: issued.nonce,
      signature: signed.signature,
      key: signed.key,
    });
    say('Signed in.');
    await showAccount(me);
  } catch (e) {
    say(`Sign-in failed: ${e.info || e.message || e}`);
  }
}

/** One button per CIP-30 wallet found; buttons already listed stay the same elements, so a click is never lost. */
function listWallets() {
  const box = $('wallets');
  const found = Object.entries(window.cardano || {}).filter(([, w]) => w && typeof w.enable === 'function');
  $('no-wallet').hidden = found.length > 0;
  const listed = new Set([...box.querySelectorAll('button')].map((b) => b.dataset.wallet));
  for (const [name, w] of found) {
    if (listed.has(name)) continue;
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.wallet = name;
    b.textContent = `Connect ${w.name || name}`;
    b.addEventListener('click', () => signIn(name));
    box.appendChild(b);
  }
}

async function start() {
  $('create-key').addEventListener('click', createKey);
  $('copy-key').addEventListener('click', () => navigator.clipboard?.writeText($('new-key').textContent));
  $('logout').addEventListener('click', async () => {
    await call('POST', '/logout', {}).catch(() => {});
    say('Signed out.');
    showSignIn();
  });
  showLimits().catch((e) => say(`Could not load the limits: ${e.message}`));
  try {
    const me = await call('GET', '/me');
    if (me.signedIn) return await showAccount(me);
  } catch (e) {
    say(e.message);
  }
  showSignIn();
  // Wallet extensions inject window.cardano shortly after the page loads, each on its own time: look again for a
  // few seconds, also after a first one was found.
  let tries = 0;
  const timer = setInterval(() => {
    listWallets();
    if (++tries > 10) clearInterval(timer);
  }, 300);
  listWallets();
}

document.addEventListener('DOMContentLoaded', start);
