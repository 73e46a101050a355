import { workerData } from 'node:worker_threads';
import type { ScanShare } from '../record/scanPool.ts';

// Scan threads of which one fails (scanPool.test.ts): the first is scanWorker's; any other
// fails as it starts, before it takes a folder in line or answers an ask.

const share = workerData as ScanShare;
if (share.thread === 0) await import('../record/scanWorker.ts');
else throw new Error('a scan thread failing as it starts');
