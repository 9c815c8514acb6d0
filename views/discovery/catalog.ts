/**
 * /.well-known/ai-catalog.json and /sitemap.xml. The AI-catalog drafts disagree on the name of an entry's media-type
 * field, so every entry carries both `type` and `mediaType`.
 */
import type { SiteInfo } from './types.js';

export function renderAiCatalog(info: SiteInfo): string {
  const s = info.site;
  const entry = (name: string, description: string, url: string, type: string, mediaType: string) => ({
    name,
    description,
    url,
    type,
    mediaType,
  });
  return JSON.stringify(
    {
      version: '1.0',
      name: info.title,
      description: info.summary,
      url: s,
      entries: [
        entry(
          'MCP server',
          'Tool server (Model Context Protocol, Streamable HTTP, stateless): read-only Cardano data tools.',
          `${s}/api/mcp/server-card`,
          'application/mcp-server-card+json',
          'application/json',
        ),
        entry(
          'REST API',
          'OpenAPI 3.1 description of the versioned REST API (/api/v1).',
          `${s}/api/v1/openapi.json`,
          'application/vnd.oai.openapi+json;version=3.1',
          'application/json',
        ),
        entry(
          'llms.txt',
          'Index of the Markdown views, the API and the tool server.',
          `${s}/llms.txt`,
          'text/markdown',
          'text/markdown',
        ),
        entry(
          'llms-full.txt',
          'The whole API and tool reference in one Markdown file.',
          `${s}/llms-full.txt`,
          'text/markdown',
          'text/markdown',
        ),
      ],
    },
    null,
    2,
  );
}

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** `paths` are site-relative; `lastmod` is the indexed tip's date (YYYY-MM-DD) when known. */
export function renderSitemap(site: string, paths: string[], lastmod: string | null): string {
  const urls = paths.map(
    (p) => `  <url><loc>${xml(site + p)}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</url>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

/**
 * robots.txt: the whole site is public read-only data meant to be read by crawlers and agents alike (the Markdown
 * views and llms.txt are written for them); it names the sitemap, where the pages and the top views are listed.
 */
export function renderRobots(site: string): string {
  return `# ${site}: public read-only Cardano data. The sitemap lists the pages and Markdown views; agents start at /llms.txt.\nUser-agent: *\nAllow: /\n\nSitemap: ${site}/sitemap.xml\n`;
}
