import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { EXAMPLE, ONE, THREE, TWO, encode } from './fixtures.test.ts';

describe('the example home the tests use', () => {
  it('holds the very bytes spex wrote: each file has the size and SHA-256 found in the example home', () => {
    const found: Record<string, [number, string]> = {
      [`${ONE}/session.json`]: [646, '285f817dad00da900ebce4bee21d125e6056c5c14d7352e082549d10d5f8ae17'],
      [`${TWO}/session.json`]: [646, '05111c4ad60a88277bc4f184c24dad74e0d6e1e847398e02d0c69fbeb1753953'],
      [`${THREE}/session.json`]: [666, 'dec9fdd1a4b36b4a76d759c5f9ea1d08ee63025edd837122715fdbd74a2ae994'],
      [`${THREE}/timeline.ndjson`]: [96, '4b0cd137699114b5a4fcd46c162c329ade0bac2af6f0d6a9d1b328b591a2efa3'],
      [`${ONE}/timeline/000000000001.ndjson`]: [703, '403c6d479c8120b61d94a981469d775c27286433ddce12faf0197e8babeef5ac'],
      [`${ONE}/timeline/000000000002.ndjson`]: [1015, '12ef2c5f417b243633977f71a9530796dcf26f04e0b14a348aeeb0cf87a92861'],
      [`${ONE}/timeline/000000000003.ndjson`]: [1649, 'dfbf49c109311487e9cf1495704f7e2db7a08a9ccd7100862e0576652ddcdf5b'],
      [`${ONE}/timeline/000000000004.ndjson`]: [117, '869f2cd978a24e43c65fa78708fd72de1ce9d0dfd441cbee682cf01873945de4'],
      [`${THREE}/timeline/000000000001.ndjson`]: [112, '779675cbcf727fa966b698272b29d19d6c24d98fc635832ba958f348eed1d583'],
    };
    const ours: Record<string, [number, string]> = {};
    for (const [session, files] of Object.entries(EXAMPLE)) {
      for (const [name, text] of Object.entries(files)) {
        const bytes = encode(text);
        ours[`${session}/${name}`] = [bytes.length, createHash('sha256').update(bytes).digest('hex')];
      }
    }
    assert.deepEqual(ours, found);
  });
});
