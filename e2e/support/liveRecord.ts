import type { TestType } from '@playwright/test';
import { startDashboard, type RunningDashboard } from './dashboard.ts';
import { makeRecordDir, startWriter, type Writer } from './record.ts';
import { loadShared, type SharedRecord } from './sharedRecord.ts';

// A spec file's own record: a fresh temp directory, a real writer process writing into it, and
// the real command reading it. Tests in the file use sessions of their own within it.

export type LiveRecord = { dir: string; writer: Writer; dashboard: RunningDashboard; url: string };

export function useLiveRecord(test: TestType<object, object>, label: string): LiveRecord {
  const live = {} as LiveRecord;
  let remove = async () => {};
  test.beforeAll(async () => {
    const made = await makeRecordDir(label);
    remove = made.remove;
    live.dir = made.dir;
    live.writer = await startWriter(made.dir);
    live.dashboard = await startDashboard(made.dir);
    live.url = live.dashboard.url;
  });
  test.afterAll(async () => {
    await live.dashboard?.stop();
    await live.writer?.kill();
    await remove();
  });
  return live;
}

export type SharedView = { shared: SharedRecord; url: string };

/** The finished shared record (see sharedRecord.ts), read by a command of this file's own. */
export function useSharedRecord(test: TestType<object, object>): SharedView {
  const view = {} as SharedView;
  let dashboard: RunningDashboard | null = null;
  test.beforeAll(async () => {
    view.shared = (await loadShared()).shared;
    dashboard = await startDashboard(view.shared.dir);
    view.url = dashboard.url;
  });
  test.afterAll(async () => {
    await dashboard?.stop();
  });
  return view;
}
