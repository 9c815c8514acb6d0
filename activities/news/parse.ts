/**
 * RSS 2.0 (and RSS 1.0/RDF) and Atom 1.0 documents → feed items, with fast-xml-parser (CDATA sections become text,
 * XML entities are decoded, DOCTYPE entity expansion is bounded by the library's defaults). Pure: a document that
 * is neither format throws FeedParseError, so one bad feed is reported and skipped by the ingest.
 *
 * Per item: guid/id (the stable identity when present), title, link (RSS <link>, a permalink <guid>, or Atom's
 * rel="alternate" href), publication time (RSS pubDate or dc:date, Atom published or updated; null when absent or
 * unparsable), and the summary HTML (RSS description, else content:encoded; Atom summary, else content).
 */
import { XMLParser } from 'fast-xml-parser';

export class FeedParseError extends Error {}

export interface FeedItem {
  guid: string | null;
  title: string;
  link: string | null;
  /** Unix ms, or null. */
  publishedMs: number | null;
  /** HTML or plain text as the feed carries it; null when absent. */
  summaryHtml: string | null;
}

export interface ParsedFeed {
  format: 'rss' | 'atom' | 'rdf';
  title: string | null;
  items: FeedItem[];
}

type Node = Record<string, unknown>;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  textNodeName: '#text',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
  htmlEntities: true,
  isArray: (name) => name === 'item' || name === 'entry' || name === 'link',
  // Atom text constructs may be type="xhtml" markup, whose mixed content an object tree would reorder: they are
  // kept raw here and decoded by atomText.
  stopNodes: ['feed.entry.summary', 'feed.entry.content'],
});

/** Parses a fragment of escaped XML text (entities, CDATA) into the text it denotes. */
const fragmentParser = new XMLParser({
  parseTagValue: false,
  trimValues: true,
  processEntities: true,
  htmlEntities: true,
});

/** The text of an element: a string, `#text` of an element with attributes, or the text under parsed XHTML. */
function text(v: unknown): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return text(v[0]);
  if (typeof v === 'object') {
    const o = v as Node;
    if ('#text' in o) return text(o['#text']);
    // Atom type="xhtml": the content is markup parsed into elements; keep its text.
    const parts = Object.entries(o)
      .filter(([k]) => !k.startsWith('@_'))
      .map(([, c]) => text(c))
      .filter((s): s is string => !!s);
    return parts.length ? parts.join(' ') : null;
  }
  return null;
}

const nonEmpty = (s: string | null): string | null => (s && s.trim() ? s.trim() : null);

function time(v: unknown): number | null {
  const s = nonEmpty(text(v));
  if (!s) return null;
  const ms = Date.parse(s);
  return Number.isFinite(ms) ? ms : null;
}

function rssItem(it: Node): FeedItem {
  const guidNode = it.guid;
  const guid = nonEmpty(text(guidNode));
  const permalink =
    guid && /^https?:\/\//i.test(guid) && (guidNode as Node)?.['@_isPermaLink'] !== 'false' ? guid : null;
  return {
    guid,
    title: nonEmpty(text(it.title)) ?? '',
    link: nonEmpty(text(it.link)) ?? permalink,
    publishedMs: time(it.pubDate) ?? time(it['dc:date']),
    summaryHtml: nonEmpty(text(it.description)) ?? nonEmpty(text(it['content:encoded'])),
  };
}

function atomLink(links: unknown): string | null {
  const list = (Array.isArray(links) ? links : [links]).filter((l): l is Node => !!l && typeof l === 'object');
  const pick = list.find((l) => !l['@_rel'] || l['@_rel'] === 'alternate') ?? list[0];
  return pick ? nonEmpty(text(pick['@_href'])) : null;
}

/** An Atom text construct kept raw: xhtml is markup (returned as is, HTML); text/html is escaped XML text. */
function atomText(v: unknown): string | null {
  if (v === undefined || v === null) return null;
  const node = typeof v === 'object' ? (v as Node) : { '#text': v };
  const raw = typeof node['#text'] === 'string' ? node['#text'] : '';
  if (node['@_type'] === 'xhtml') return nonEmpty(raw);
  try {
    return nonEmpty(text((fragmentParser.parse(`<x>${raw}</x>`) as Node).x));
  } catch {
    return null;
  }
}

function atomEntry(e: Node): FeedItem {
  return {
    guid: nonEmpty(text(e.id)),
    title: nonEmpty(text(e.title)) ?? '',
    link: atomLink(e.link),
    publishedMs: time(e.published) ?? time(e.updated),
    summaryHtml: atomText(e.summary) ?? atomText(e.content),
  };
}

export function parseFeed(xml: string): ParsedFeed {
  let doc: Node;
  try {
    doc = parser.parse(xml, true) as Node;
  } catch (e) {
    throw new FeedParseError(`not well-formed XML: ${(e as Error).message}`);
  }
  const rss = doc.rss as Node | undefined;
  if (rss && typeof rss === 'object') {
    const channel = rss.channel as Node | undefined;
    if (!channel || typeof channel !== 'object') throw new FeedParseError('RSS document without a channel');
    const items = (channel.item as Node[] | undefined) ?? [];
    return { format: 'rss', title: nonEmpty(text(channel.title)), items: items.map(rssItem) };
  }
  const feed = doc.feed as Node | undefined;
  if (feed && typeof feed === 'object') {
    const entries = (feed.entry as Node[] | undefined) ?? [];
    return { format: 'atom', title: nonEmpty(text(feed.title)), items: entries.map(atomEntry) };
  }
  const rdf = doc['rdf:RDF'] as Node | undefined;
  if (rdf && typeof rdf === 'object') {
    const channel = rdf.channel as Node | undefined;
    const items = (rdf.item as Node[] | undefined) ?? [];
    return { format: 'rdf', title: nonEmpty(text(channel?.title)), items: items.map(rssItem) };
  }
  throw new FeedParseError('neither an RSS nor an Atom document');
}
