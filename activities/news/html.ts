/**
 * Feed summaries and titles carry HTML (escaped in the XML, or in CDATA): paragraphs, links, images, entities such
 * as &rsquo; or &#8217;. This turns such a fragment into one line of plain text with htmlparser2 (a tolerant HTML
 * tokenizer that decodes every HTML entity): text is kept, script/style bodies are dropped, block elements and
 * <br> become spaces, whitespace collapses. Pure.
 */
import { Parser } from 'htmlparser2';

const SKIP = new Set(['script', 'style', 'noscript', 'template', 'iframe', 'svg']);
const BLOCK = new Set([
  'p',
  'br',
  'div',
  'li',
  'ul',
  'ol',
  'tr',
  'td',
  'th',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'pre',
  'figure',
  'figcaption',
  'section',
  'article',
  'header',
  'footer',
  'hr',
  'img',
  'table',
]);

export function htmlToText(html: string): string {
  const parts: string[] = [];
  let skipping = 0;
  const parser = new Parser(
    {
      onopentagname(name) {
        if (SKIP.has(name)) skipping++;
        else if (BLOCK.has(name)) parts.push(' ');
      },
      onclosetag(name) {
        if (SKIP.has(name)) skipping = Math.max(0, skipping - 1);
        else if (BLOCK.has(name)) parts.push(' ');
      },
      ontext(text) {
        if (skipping === 0) parts.push(text);
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  return parts.join('').replace(/\s+/g, ' ').trim();
}

/** At most `max` characters, cut at a word boundary when one is near, with an ellipsis when cut. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:.–-]+$/, '')}…`;
}
