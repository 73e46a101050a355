import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

// The README is the front door and docs/ the manual; pages link to each other's sections, and
// others add pages and sections as they go. A link that leads nowhere is found here, not by a
// reader: every relative link names a file that exists, and every anchor a heading of its page.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PAGES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

type Link = { line: number; target: string };

/**
 * The page's lines outside fenced code blocks, where a link is a link and a heading a heading;
 * inline code is dropped (a link in it is not one), or kept as its text (a heading's anchor has it).
 */
function proseOf(markdown: string, inlineCode: 'drop' | 'keep-text'): string[] {
  let fenced = false;
  return markdown.split('\n').map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line.replace(/`([^`]*)`/g, inlineCode === 'drop' ? '' : '$1');
  });
}

/** Inline links and images: `[text](target)`, `![alt](target)`. */
function readLinks(markdown: string): Link[] {
  return proseOf(markdown, 'drop').flatMap((line, at) => [...line.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => ({ line: at + 1, target: match[1]! })));
}

/** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function readAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseOf(markdown, 'keep-text')) {
    const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading === null) continue;
    const text = heading[1]!.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1');
    const slug = text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** What is wrong with each relative link of the page at `page` (relative to the repository). */
function findBrokenLinks(page: string, markdown: string, readPage: (path: string) => string | null): string[] {
  const broken: string[] = [];
  for (const { line, target } of readLinks(markdown)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: and the like: not ours to check
    const [path = '', anchor] = target.split('#', 2);
    const file = path === '' ? page : relative(ROOT, join(ROOT, dirname(page), decodeURIComponent(path)));
    const text = readPage(file);
    if (text === null) {
      broken.push(`${page}:${line}: ${target}: no file ${file}`);
      continue;
    }
    if (anchor === undefined) continue;
    if (!file.endsWith('.md')) broken.push(`${page}:${line}: ${target}: an anchor into a file that is not a page`);
    else if (!readAnchors(text).has(anchor)) broken.push(`${page}:${line}: ${target}: ${file} has no heading #${anchor}`);
  }
  return broken;
}

function readRepositoryFile(path: string): string | null {
  const at = join(ROOT, path);
  if (!existsSync(at)) return null;
  return statSync(at).isFile() ? readFileSync(at, 'utf8') : '';
}

describe('the links of the README and docs/', () => {
  for (const page of PAGES) {
    it(`${page}: every relative link names a file that exists, and every anchor a heading of its page`, () => {
      assert.deepEqual(findBrokenLinks(page, readFileSync(join(ROOT, page), 'utf8'), readRepositoryFile), []);
    });
  }

  it('a link to a missing page, a missing heading or a heading of another page is found; links and headings in code are not links and headings', () => {
    const pages: Record<string, string> = {
      'docs/a.md': '# A page\n\n## Its `first` section\n\n## Twice\n\n## Twice\n\n```sh\n# a comment, not a heading\n```\n',
      'docs/b.md': [
        '[fine](a.md#its-first-section) [fine](a.md#twice-1) [fine](#b) [fine](../README.md) [web](https://example.com/#x)',
        '[gone](c.md) [no heading](a.md#second) [not here](#its-first-section)',
        '[in a fence of a.md](a.md#a-comment-not-a-heading)',
        '`[in code](nowhere.md)`',
        '```',
        '[in a fence](nowhere.md)',
        '```',
        '# B',
      ].join('\n'),
      'README.md': '# R\n',
    };
    assert.deepEqual(findBrokenLinks('docs/b.md', pages['docs/b.md']!, (path) => pages[path] ?? null), [
      'docs/b.md:2: c.md: no file docs/c.md',
      'docs/b.md:2: a.md#second: docs/a.md has no heading #second',
      'docs/b.md:2: #its-first-section: docs/b.md has no heading #its-first-section',
      'docs/b.md:3: a.md#a-comment-not-a-heading: docs/a.md has no heading #a-comment-not-a-heading',
    ]);
  });
});
