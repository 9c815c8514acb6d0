/** The human docs page at /docs: surfaces, keys and limits (the 429 answers' `docs` link). Static HTML, no script. */
import { BATCH_RULE, LIMITS_OFF } from './llms.js';
import type { SiteInfo } from './types.js';

/**
 * The page's one inline stylesheet, exactly the text of its <style> element: the route allows it in the page's CSP
 * by its sha-256 (api/discovery/routes.ts), so any other inline style or script stays refused.
 */
export const DOCS_STYLE = `
body{font-family:system-ui,sans-serif;margin:0;color:#1b1f24;background:#fafafa}
main{max-width:52rem;margin:0 auto;padding:1rem 1.25rem 3rem}
code{background:#eef0f3;padding:0 .25em;border-radius:3px}
table{border-collapse:collapse}th,td{text-align:left;padding:.3rem .6rem;border-bottom:1px solid #dde1e6}
`;

const h = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function renderDocsPage(info: SiteInfo): string {
  const s = h(info.site);
  const l = info.limits;
  const plans = l.plans
    .map((p) => `<tr><td>${h(p.name)} key</td><td>${p.perMinute}</td><td>${p.perDay.toLocaleString('en-US')}</td></tr>`)
    .join('\n');
  // A view taking an id (/token/{unit}) is named, not linked: there is no page at its path without the id (the
  // link to /api/md/token was a 404), and the literal template is a 400.
  const views = info.views
    .map((v) => {
      const name = `<code>/api/md${h(v.path)}</code>`;
      const item = v.path.includes('{') ? name : `<a href="${s}/api/md${h(v.path)}">${name}</a>`;
      return `<li>${item} — ${h(v.title)}</li>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<title>${h(info.title)}: docs</title>
<link rel="icon" href="data:," />
<link rel="alternate" type="text/markdown" href="${s}/llms.txt" />
<style>${DOCS_STYLE}</style>
</head>
<body>
<main>
<h1>${h(info.title)}</h1>
<p>${h(info.summary)} Read-only: nothing here builds, accepts or submits a transaction.</p>

<h2 id="surfaces">Surfaces</h2>
<ul>
<li><strong>REST</strong> <code>${s}/api/v1</code> — JSON, every endpoint a GET; <a href="${s}/api/v1/openapi.json">OpenAPI 3.1</a>. Send <code>Accept: text/markdown</code> to get the Markdown view of a resource where one exists.</li>
<li><strong>Markdown views</strong> <code>${s}/api/md</code> — compact text with units, an as-of time and links:
<ul>
${views}
</ul></li>
<li><strong>Tool server (MCP)</strong> <code>${s}/api/mcp</code> — Streamable HTTP, stateless; <a href="${s}/api/mcp/server-card">server card</a>.</li>
<li><strong>Swap page</strong> <a href="${s}/swap">${s}/swap</a> — the swap quote’s link: review the order and sign it in your own wallet.</li>
<li>Discovery: <a href="${s}/llms.txt">llms.txt</a>, <a href="${s}/llms-full.txt">llms-full.txt</a>, <a href="${s}/.well-known/ai-catalog.json">AI catalog</a>, <a href="${s}/sitemap.xml">sitemap</a>.</li>
</ul>

<h2 id="keys">Keys</h2>
<p>No key is needed. A key raises the limits: create one at <a href="${s}/account">${s}/account</a> after signing in with a Cardano wallet (a one-time signed message; no e-mail, no fee). Send it as <code>x-api-key: &lt;key&gt;</code> or <code>Authorization: Bearer &lt;key&gt;</code> (REST and Markdown) or <code>X-API-Key</code> (tool server). A key works on all three surfaces. An invalid or revoked key gets HTTP 401.</p>

<h2 id="limits">Limits</h2>
${l.enforced ? '' : `<p><strong>${h(LIMITS_OFF)}</strong></p>\n`}<table>
<thead><tr><th>Caller</th><th>Requests per minute</th><th>Requests per day</th></tr></thead>
<tbody>
<tr><td>no key (per IP address, on each surface)</td><td>${l.anonPerMinute}</td><td>no daily cap</td></tr>
${plans}
</tbody>
</table>
<p>${l.plansEnforced ? 'Each key gets its account’s plan.' : 'Plans are not enforced yet: every key gets the Free limits.'} Wallet profit and loss is an expensive call: ${l.pnlAnonPerMinute} per minute without a key, ${l.pnlKeyPerMinute} with one. The logo endpoint is never limited. ${h(BATCH_RULE)}</p>
<p>Answers to keyed requests carry <code>X-RateLimit-Limit</code>, <code>X-RateLimit-Remaining</code> and <code>X-Daily-Remaining</code>. Over a limit the answer is <strong>HTTP 429</strong> with a <code>Retry-After</code> header (seconds) and a JSON body <code>{ error, hint, docs, retryAfter }</code>: wait <code>Retry-After</code> seconds, then continue.</p>
<p>Paging: <code>pageSize</code> at most 200; cursor lists take <code>limit</code> 1–200 (default 50) and return <code>nextCursor</code>; the Markdown token table takes <code>limit</code> 1–100.</p>
</main>
</body>
</html>
`;
}
