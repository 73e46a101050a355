import { createLane, threadScript, type Lane } from '../search/threadLane.ts';
import { createFileReadLane, type FileReadLane } from '../watch/readAhead.ts';
import type { ReadReply, ReadRequest } from './readerThread.ts';

// Threads that read and parse the record's large entries for a page or the file endpoint, off
// the event loop (server/search/threadLane.ts). A search's reads are the search pool's.

export type ReaderThreads = {
  /**
   * Entries over 1 MiB, one at a time, each lane: the huge ones (over 16 MiB, up to 64) in a lane
   * of their own, so that a page holding a 2 MB entry does not wait behind 60 MB ones. Each of
   * those takes hundreds of megabytes while it is parsed, and its thread is ended after it.
   */
  read: Lane<ReadRequest, ReadReply>;
  readHuge: Lane<ReadRequest, ReadReply>;
  /** An export's small files, read a batch ahead of it: one thread for each export that runs at once. */
  files: FileReadLane;
  close(): Promise<void>;
};

export function createReaderThreads(): ReaderThreads {
  // A read thread lets its memory go soon, and at once after a huge entry.
  const script = threadScript('readerThread', import.meta.url);
  const read = createLane<ReadRequest, ReadReply>({ script, threads: 1, maxWaiting: Number.POSITIVE_INFINITY, idleMs: 2_000 });
  const readHuge = createLane<ReadRequest, ReadReply>({ script, threads: 1, maxWaiting: Number.POSITIVE_INFINITY, idleMs: 0 });
  const files = createFileReadLane(2);
  return {
    read,
    readHuge,
    files,
    async close() {
      await Promise.all([read.close(), readHuge.close(), files.close()]);
    },
  };
}
