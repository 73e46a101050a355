import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { exportFileName } from './exportStream.ts';

describe('an export\'s file name', () => {
  it('keeps letters, digits, dots, underscores and dashes only, and never begins with a dot', () => {
    assert.equal(exportFileName(['record', 'a1a1-0000'], 'md'), 'record-a1a1-0000.md');
    assert.equal(exportFileName(['record', '..\\evil"; name\r\n.txt'], 'json'), 'record-evil_name_.txt.json');
    assert.equal(exportFileName(['', '日本'], 'ndjson'), 'export.ndjson');
  });
});
