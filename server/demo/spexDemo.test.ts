import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { spexSessionResponseSchema, spexSummarySchema } from '../../shared/wire/spex.ts';
import { createSpexSource } from '../spex/spexSource.ts';
import { writeSpexBacklog } from './spexDemo.ts';

test("the demo's spex home shows a person's message, a peer's with spex's hint, every declaration word, and hides the settlement", async () => {
  const home = mkdtempSync(join(tmpdir(), 'spex-demo-'));
  const source = createSpexSource({ root: home });
  try {
    const [a, b, c] = writeSpexBacklog(home);
    await source.start();
    const pageOf = async (id: string) => spexSessionResponseSchema.parse(await source.page(id, { offset: 0, limit: 200 }, new AbortController().signal));
    const first = await pageOf(a!.id);
    const words = first.items.flatMap((item) => (item.type === 'declaration' ? [item.word] : []));
    assert.deepEqual(words, ['working', 'asking', 'review', 'done', 'parked']);
    assert.ok(first.items.some((item) => item.type === 'received' && item.from.by === 'person'));
    assert.ok(first.items.some((item) => item.type === 'received' && item.from.by === 'session' && item.hintAt !== null));
    assert.ok(first.session.segments > 1, 'rolled into several segments');
    assert.doesNotMatch(JSON.stringify(first), /dispatch|ZGVtbw|sha256:demo/);
    assert.equal((await pageOf(b!.id)).session.counts.damaged, 1);
    assert.equal((await pageOf(c!.id)).session.counts.pending + (await pageOf(c!.id)).session.counts.torn, 1);
    for (const conversation of source.conversations()) spexSummarySchema.parse(JSON.parse(conversation.json));
  } finally {
    await source.close();
    rmSync(home, { recursive: true, force: true });
  }
});
