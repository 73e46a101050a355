import { test as base, expect } from '@playwright/test';

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
export type { Page } from '@playwright/test';
