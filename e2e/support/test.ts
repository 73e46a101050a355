import { test as base, expect, type Locator } from '@playwright/test';

// Every spec's `test`: a page that throws fails the test it happens in, whatever the test was
// looking at. A render loop in the timeline once blanked the whole app while a test that waited
// for something else would have passed.

export const test = base.extend<{ failOnPageError: void }>({
  failOnPageError: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.stack ?? error.message));
      await use();
      expect(errors, 'errors thrown in the page').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
export type { Locator, Page } from '@playwright/test';

/** Opens what a page folds under its summary where the window is short (a `details`), if it is folded. */
export async function openFolded(fold: Locator): Promise<void> {
  await expect(fold).toBeVisible();
  if ((await fold.getAttribute('open')) === null) await fold.locator(':scope > summary').click();
  await expect(fold).toHaveAttribute('open', '');
}
