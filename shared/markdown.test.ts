import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deepenHeadings, fencedBlock, inlineValue, snippetMarkdown } from './markdown.ts';

describe('Markdown of a store\'s texts', () => {
  it('fences a text with more backticks than any run in it, so nothing in it ends the block', () => {
    assert.equal(fencedBlock('plain'), '```text\nplain\n```\n');
    assert.equal(fencedBlock('a ``` b ````` c'), '``````text\na ``` b ````` c\n``````\n');
  });

  it('puts a document under another\'s heading one level deeper, a store\'s text in its fence left as written', () => {
    const text = '# not a heading of ours\n```\n## nor this\n~~~';
    const item = `### Sent\n\n${fencedBlock(text)}\n## Degraded\n  # indented\n#hashtag\n`;
    assert.equal(deepenHeadings(item), `#### Sent\n\n${fencedBlock(text)}\n### Degraded\n  ## indented\n#hashtag\n`);
    // A fence of tildes closes only at tildes; one never closed keeps the rest.
    assert.equal(deepenHeadings('~~~~\n# in\n```\n~~~~\n# out', 2), '~~~~\n# in\n```\n~~~~\n### out');
    assert.equal(deepenHeadings('```text\n# in'), '```text\n# in');
    // A fence indented up to three spaces is one; a backtick in a backtick run's info makes it none.
    assert.equal(deepenHeadings('   ```\n# in\n   ```\n# out'), '   ```\n# in\n   ```\n## out');
    assert.equal(deepenHeadings('``` a`b\n# out'), '``` a`b\n## out');
    // The sixth level is the deepest: a seventh `#` would be no heading.
    assert.equal(deepenHeadings('###### six\n##### five', 2), '###### six\n###### five');
  });

  it('keeps a text\'s own last line break as a line of the block', () => {
    assert.equal(fencedBlock('ends with a break\n'), '```text\nends with a break\n\n```\n');
  });

  it('writes a short value as inline code that reads as the value, without quotes', () => {
    assert.equal(inlineValue('claude-code'), '`claude-code`');
    assert.equal(inlineValue('uds:/tmp/cc-socks/4242.sock'), '`uds:/tmp/cc-socks/4242.sock`');
    assert.equal(inlineValue('Kérdés <b>*not bold*</b>'), '`Kérdés <b>*not bold*</b>`');
    assert.equal(inlineValue(''), '(empty)');
  });

  it('a value with backticks cannot close its code early: its fence is longer, and a backtick at an end is padded', () => {
    assert.equal(inlineValue('a `tick`'), '`` a `tick` ``');
    assert.equal(inlineValue('``` fence'), '```` ``` fence ````');
    assert.equal(inlineValue(' both ends '), '`  both ends  `');
    assert.equal(inlineValue('  '), '`  `');
  });

  it('a value with a line break, a control or a direction-changing character is written escaped, as a JSON string, so it cannot break out or hide', () => {
    assert.equal(inlineValue('two\nlines'), '`"two\\nlines"`');
    assert.equal(inlineValue('## forged\r\n```'), '````"## forged\\r\\n```"````');
    assert.equal(inlineValue('abc\u202edcba'), '`"abc\\u202edcba"`');
    assert.equal(inlineValue('zero\u200bwidth'), '`"zero\\u200bwidth"`');
    assert.equal(inlineValue('bell\u0007'), '`"bell\\u0007"`');
    assert.equal(inlineValue('lone \ud800 half'), '`"lone \\ud800 half"`');
  });

  it('a search snippet cut from a longer text says, under its block, on which side the text goes on; one shown whole says nothing', () => {
    assert.equal(snippetMarkdown('a snippet', { before: false, after: false }), '```text\na snippet\n```\n');
    assert.equal(snippetMarkdown('middle', { before: true, after: true }), '```text\nmiddle\n```\n\n(the text goes on before and after it)\n');
    assert.equal(snippetMarkdown('head', { before: false, after: true }), '```text\nhead\n```\n\n(the text goes on after it)\n');
  });
});
