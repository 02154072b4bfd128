// Unit tests of the campaign editor's audience sentence.
import { describe, expect, it } from 'vitest';
import { audienceSummary } from './campaign-audience';

describe('audienceSummary', () => {
  const names = new Map([
    ['a', 'VIPs'],
    ['b', 'Churned'],
    ['c', 'Beta'],
  ]);
  it('names the included and left-out segments', () => {
    expect(
      audienceSummary(
        1234,
        [
          { segmentId: 'a', mode: 'include' },
          { segmentId: 'c', mode: 'include' },
          { segmentId: 'b', mode: 'exclude' },
        ],
        names,
      ),
    ).toBe('1,234 recipients with segments: only those in VIPs or Beta, leaving out Churned.');
  });
  it('says one recipient, and a segment it cannot name', () => {
    expect(audienceSummary(1, [{ segmentId: 'x', mode: 'exclude' }], names)).toBe(
      '1 recipient with segments: leaving out a segment.',
    );
    expect(audienceSummary(0, [], names)).toBe('0 recipients.');
  });
});
