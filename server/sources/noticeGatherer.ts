/**
 * How long a source gathers changes before it tells them: a file often changes in pieces, and
 * the pieces of one write make one notice.
 */
export const NOTICE_GATHER_MS = 5;

type NoticeGatherer<K> = {
  /** Notes what changed (or, with no key, only that something did): told together, a moment after the first. */
  gather(...keys: K[]): void;
  /** Resolves once what was gathered so far is told: at once when nothing waits. */
  told(): Promise<void>;
  /** Forgets what was gathered and tells nothing more: the source is closing. */
  close(): void;
};

/**
 * Every source's batching of its notices: what changed within NOTICE_GATHER_MS of the first
 * change is told at once, each key once, in the order first gathered.
 */
export function createNoticeGatherer<K>(tell: (keys: K[]) => void, gatherMs = NOTICE_GATHER_MS): NoticeGatherer<K> {
  let gathered = new Set<K>();
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  /** Who waits for what is gathered now to be told. */
  const waiting: (() => void)[] = [];
  const flush = () => {
    timer = null;
    const keys = [...gathered];
    gathered = new Set();
    try {
      tell(keys);
    } finally {
      for (const resolve of waiting.splice(0)) resolve();
    }
  };
  return {
    gather(...keys) {
      if (closed) return;
      for (const key of keys) gathered.add(key);
      timer ??= setTimeout(flush, gatherMs);
    },
    told() {
      return timer === null ? Promise.resolve() : new Promise((resolve) => waiting.push(resolve));
    },
    close() {
      closed = true;
      for (const resolve of waiting.splice(0)) resolve();
      if (timer !== null) clearTimeout(timer);
      timer = null;
      gathered.clear();
    },
  };
}
