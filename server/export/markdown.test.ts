import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fencedBlock, inlineValue } from './markdown.ts';

describe('Markdown of a store\'s texts', () => {
  it('fences a text with more backticks than any run in it, so nothing in it ends the block', () => {
    assert.equal(fencedBlock('plain'), '```text\nplain\n```\n');
    assert.equal(fencedBlock('a ``` b ````` c'), '``````text\na ``` b ````` c\n``````\n');
  });

  it('keeps a text\'s own last line break as a line of the block', () => {
    assert.equal(fencedBlock('ends with a break\n'), '```text\nends with a break\n\n```\n');
  });

  it('writes a short value as a JSON string in inline code that its backticks cannot close', () => {
    assert.equal(inlineValue('two\nlines'), '`"two\\nlines"`');
    assert.equal(inlineValue('a `tick`'), '``"a `tick`"``');
  });
});
