/**
 * The tool server's card (experimental MCP server-card extension, SEP-2127; served at `{site_url}/api/mcp/server-card`
 * and listed by the AI catalog). The fields follow the registry's server.json: a reverse-DNS `name` built from the
 * site's host (cds.example → `example.cds/cardano-data`), a description of at most 100 characters, and the
 * Streamable HTTP remote. Static per deployment, so it is built once with its ETag.
 */
import { createHash } from 'node:crypto';
import { PROTOCOL_REVISIONS, SERVER_VERSION } from './server.js';

export const SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';
export const SERVER_CARD_DESCRIPTION =
  'Read-only Cardano data: tokens, DEX swaps, wallets, NFTs, stake pools, governance, explorer, news.';

/** `cds.example` → `example.cds`; an IP address or a one-label host is kept as it is. */
export function reverseDns(host: string): string {
  if (/^[\d.]+$/.test(host) || host.includes(':') || !host.includes('.')) return host;
  return host.split('.').reverse().join('.');
}

export function serverCard(siteUrl: string): { body: string; etag: string } {
  const url = new URL(siteUrl);
  const card = {
    $schema: SERVER_CARD_SCHEMA,
    name: `${reverseDns(url.hostname)}/cardano-data`,
    title: 'Cardano data service',
    description: SERVER_CARD_DESCRIPTION,
    version: SERVER_VERSION,
    websiteUrl: siteUrl,
    remotes: [
      {
        type: 'streamable-http',
        url: `${siteUrl}/api/mcp`,
        supportedProtocolVersions: [...PROTOCOL_REVISIONS],
        // The card schema describes what a client sends to a remote as the remote's `headers` (server.json's
        // KeyValueInput); it has no authentication field. The key is optional: anonymous callers get the per-IP limit.
        headers: [
          {
            name: 'X-API-Key',
            description: 'Optional API key: raises the rate limits (anonymous callers share a per-IP limit).',
            isRequired: false,
            isSecret: true,
          },
        ],
      },
    ],
  };
  const body = JSON.stringify(card);
  return { body, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
}
