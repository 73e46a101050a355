import { expect, test, type Page } from './support/test.ts';
import { textFields } from '../server/demo/entryFile.ts';
import { conversationPath, sourceIdOf, waitForItems } from './support/dashboard.ts';
import { useLiveRecord } from './support/liveRecord.ts';
import { SessionWriting } from './support/record.ts';

// The record spec's criteria for messages, as the UI shows them.

const live = useLiveRecord(test, 'messages');

const entry = (page: Page, file: string) => page.locator(`article[data-file="${file}"]`);

test('one message each way: the text is identical byte for byte, CRLF and emoji included, on screen and when copied', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const alpha = new SessionWriting(live.writer, '/e2e/alpha');
  const beta = new SessionWriting(live.writer, '/e2e/beta');
  const there = 'Does the cart still POST /v1/orders?\r\nAsking for 🛒 reasons.\ttab\r\n';
  const back = 'Still /v1 — unchanged.\r\n👍🏽 and 👩‍💻 agree.';
  await alpha.start();
  await waitForItems(live.url, alpha.sessionId, 1);
  await beta.start();
  await waitForItems(live.url, beta.sessionId, 1);
  const alphaSent = await alpha.sent({ as: 'beta' }, there);
  const betaReceived = await beta.received({ as: 'uds:/tmp/cc-socks/1001.sock' }, there, 'consumed');
  const betaSent = await beta.sent({ as: 'uds:/tmp/cc-socks/1000.sock' }, back);
  const alphaReceived = await alpha.received({ as: 'beta' }, back, 'consumed');

  for (const [sessionId, files] of [
    [alpha.sessionId, [[alphaSent, there], [alphaReceived, back]]],
    [beta.sessionId, [[betaReceived, there], [betaSent, back]]],
  ] as const) {
    await page.goto(`${live.url}/session/${sessionId}`);
    for (const [file, text] of files) {
      const shown = entry(page, file).locator('.entry-text');
      await expect(shown).toBeVisible();
      const dom = await shown.evaluate((element) => element.textContent ?? '');
      expect(Buffer.from(dom, 'utf8').equals(Buffer.from(text, 'utf8'))).toBe(true);
      await entry(page, file).getByRole('button', { name: 'Copy the exact text' }).click();
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      expect(Buffer.from(copied, 'utf8').toString('hex')).toBe(Buffer.from(text, 'utf8').toString('hex'));
    }
  }
  // The sent entry sits in the Sent column, the received one in the Received column.
  await expect(page.locator('.cell-received').locator(`article[data-file="${betaReceived}"]`)).toBeVisible();
  await expect(page.locator('.cell-sent').locator(`article[data-file="${betaSent}"]`)).toBeVisible();
  // CR is marked, not hidden: the reader can see that the lines end in CRLF.
  await expect(entry(page, betaReceived).locator('.mk-cr').first()).toHaveAttribute('title', /carriage return/);
});

test('a refused send shows "not queued" with the host\'s reason, and the refusing session holds no message entry', async ({ page }) => {
  const sender = new SessionWriting(live.writer, '/e2e/alpha');
  const refuser = new SessionWriting(live.writer, '/e2e/docs');
  await refuser.start('refuse');
  await waitForItems(live.url, refuser.sessionId, 1);
  await sender.start();
  await waitForItems(live.url, sender.sessionId, 1);
  const reason = 'recipient refuses inbound messages (crossSessionInbound=refuse)';
  const file = await sender.sent({ as: 'docs' }, 'Can you update the page?', { isQueued: false, reason });

  await page.goto(`${live.url}/session/${sender.sessionId}`);
  const refused = entry(page, file);
  await expect(refused.locator('.outcome')).toHaveText(`not queued: ${reason}`);
  await expect(refused).toHaveClass(/tone-refused/);
  await expect(page.locator('.session-header')).toContainText('1 not queued');

  await page.goto(`${live.url}/session/${refuser.sessionId}`);
  await expect(page.locator('.start-facts')).toContainText('inbound setting refuse');
  await expect(page.locator('.session-header')).toContainText('0 sent · 0 received');
});

test('every receive outcome is shown in its own words, and nothing says delivered', async ({ page }) => {
  const session = new SessionWriting(live.writer, '/e2e/beta');
  await session.start();
  await waitForItems(live.url, session.sessionId, 1);
  const words: [string, string][] = [
    ['queued', 'queued: neither read nor acted on'],
    ['consumed', 'consumed'],
    ['rejected', 'rejected: the receive hook was refused'],
    ['unknown', 'outcome unknown'],
  ];
  const files: string[] = [];
  for (const [outcome] of words) files.push(await session.received({ as: 'api-service' }, `an ${outcome} message`, outcome));
  const sent = await session.sent({ as: 'api-service' }, 'and one sent');

  await page.goto(`${live.url}/session/${session.sessionId}`);
  for (const [i, [, said]] of words.entries()) await expect(entry(page, files[i]!).locator('.outcome')).toHaveText(said);
  await expect(entry(page, sent).locator('.outcome')).toHaveText('queued by the host');
  // A receive rejected is marked as a send not queued is: what was refused reads alike from either side.
  await expect(entry(page, files[2]!)).toHaveCSS('border-left-width', '6px');
  await expect(entry(page, files[1]!)).toHaveCSS('border-left-width', '4px');
  const text = await page.locator('main').innerText();
  expect(text).not.toMatch(/deliver/i);
  expect(text).not.toMatch(/\bread by\b|\bwas read\b|: read\b/i);
});

test('identical texts from two peers are each attributed only to the peer as given, or to no one', async ({ page }) => {
  const receiver = new SessionWriting(live.writer, '/e2e/gamma');
  const senderOne = new SessionWriting(live.writer, '/e2e/one');
  await senderOne.start();
  await waitForItems(live.url, senderOne.sessionId, 1);
  await senderOne.sent({ as: 'gamma' }, 'Ship it.');
  await receiver.start();
  await waitForItems(live.url, receiver.sessionId, 1);
  const fromOne = await receiver.received({ as: 'uds:/tmp/cc-socks/2001.sock' }, 'Ship it.');
  const fromTwo = await receiver.received({ as: 'uds:/tmp/cc-socks/2002.sock' }, 'Ship it.');
  const fromNobody = await receiver.received({ as: '' }, 'Ship it.');
  const resolved = await receiver.received({ as: 'one', sessionId: senderOne.sessionId }, 'Ship it.');

  await page.goto(`${live.url}/session/${receiver.sessionId}`);
  await expect(entry(page, fromOne).locator('.peer-as')).toHaveText('uds:/tmp/cc-socks/2001.sock');
  await expect(entry(page, fromTwo).locator('.peer-as')).toHaveText('uds:/tmp/cc-socks/2002.sock');
  await expect(entry(page, fromNobody).locator('.peer')).toHaveText('from unknown');
  // A resolved id is a link to that session, and only where the entry holds one.
  const senderPath = conversationPath(sourceIdOf('record', live.dir), senderOne.sessionId);
  await expect(entry(page, resolved).locator('.peer-session')).toHaveAttribute('href', senderPath);
  for (const file of [fromOne, fromTwo, fromNobody]) {
    await expect(entry(page, file).locator('a[href^="/source/"]').filter({ hasNotText: /^\d{4}-/ })).toHaveCount(0);
    await expect(entry(page, file).locator('.correlation')).toHaveText('Which sent entry this corresponds to: not shown by the record.');
  }
  // The one sender whose entry holds the same text is linked from nowhere but the resolved entry.
  await expect(page.locator('main').locator(`a[href="${senderPath}"]`)).toHaveCount(1);
});

test('metadata mode: the text is withheld, its length and hash are shown, and the hash checker tells a match', async ({ page }) => {
  const session = new SessionWriting(live.writer, '/e2e/secret');
  const secret = 'The staging token rotated.\nIt is in the vault.';
  const fields = textFields(secret, 'metadata') as { textLength: number; textHash: string };
  await session.start();
  await waitForItems(live.url, session.sessionId, 1);
  const file = await session.sent({ as: 'ops' }, fields);

  await page.goto(`${live.url}/session/${session.sessionId}`);
  const withheld = entry(page, file);
  await expect(withheld.locator('.withheld')).toContainText(`Text withheld (recordText set to metadata): ${fields.textLength} bytes`);
  await expect(withheld.locator('.hash')).toHaveText(fields.textHash);
  await expect(page.locator('main')).not.toContainText('staging token');

  await withheld.getByText('Check a candidate text against the hash').click();
  const box = withheld.getByLabel(/Candidate text/);
  await box.fill('The staging token rotated.');
  await withheld.getByRole('button', { name: 'Check' }).click();
  await expect(withheld.locator('output')).toContainText('does not match');
  await box.fill(secret);
  await withheld.getByRole('button', { name: 'Check' }).click();
  await expect(withheld.locator('output')).toHaveText('matches: this candidate is the withheld text, byte for byte');
});

test('an entry text of <script> and <img onerror> renders as inert text', async ({ page }) => {
  const session = new SessionWriting(live.writer, '/e2e/hostile');
  const script = '<script>window.__pwned=1</script>';
  const img = '<img src=x onerror="window.__pwned=1">';
  await session.start();
  await waitForItems(live.url, session.sessionId, 1);
  const one = await session.received({ as: '<b>peer</b>' }, script);
  const two = await session.received({ as: 'evil' }, `**bold** ${img}`);

  await page.goto(`${live.url}/session/${session.sessionId}`);
  await expect(entry(page, one).locator('.entry-text')).toHaveText(script);
  await expect(entry(page, two).locator('.entry-text')).toHaveText(`**bold** ${img}`);
  await expect(entry(page, one).locator('.peer-as')).toHaveText('<b>peer</b>');
  await expect(page.locator('main img, main script, main b')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
});
