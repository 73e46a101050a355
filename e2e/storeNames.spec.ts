import path from 'node:path';
import { startDashboard, type RunningDashboard } from './support/dashboard.ts';
import { makeSacStore, makeStoresFolder, type SacStore } from './support/stores.ts';
import { expect, test } from './support/test.ts';

// Two set-agent-comm stores whose folders have the same name (each `sac`, under folders of their
// own), read by one dashboard: the way to each one's rooms names it apart from the other.

let folders: { dir: string; remove(): Promise<void> }[] = [];
let stores: SacStore[] = [];
let dashboard: RunningDashboard;

test.beforeAll(async () => {
  folders = [await makeStoresFolder('names-one'), await makeStoresFolder('names-two')];
  stores = [await makeSacStore(folders[0]!.dir), await makeSacStore(folders[1]!.dir)];
  dashboard = await startDashboard(stores.map((store) => store.dir));
});

test.afterAll(async () => {
  await dashboard?.stop();
  for (const store of stores) await store.writer.close();
  for (const folder of folders) await folder.remove();
});

test('two stores of a kind whose folders share their name are each named by as much of their path as tells them apart', async ({ page }) => {
  await page.goto(dashboard.url);
  const [one, two] = folders.map((folder) => `Rooms: ${path.basename(folder.dir)}/sac`) as [string, string];
  await expect(page.getByRole('link', { name: one, exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: two, exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Rooms: sac', exact: true })).toHaveCount(0);
});
