import { describe, expect, it } from 'vitest';
import { formatCount } from '../../../lib/admin/format';
import { sendProgressView } from './send-progress';

describe('sendProgressView', () => {
  it('counts done recipients (sent and failed) while sending, naming the failed ones', () => {
    expect(sendProgressView({ status: 'sending', sent: 3, failed: 1, recipients: 8 })).toEqual({
      label: 'Sending progress',
      state: 'running',
      text: '3 of 8 sent',
      failed: '1 failed',
      percent: 50,
      valuenow: 4,
      valuemax: 8,
      valuetext: '3 of 8 sent, 1 failed',
    });
  });

  it('leaves the failed count out when nothing failed, and rounds the percent down', () => {
    const view = sendProgressView({ status: 'sending', sent: 2, failed: 0, recipients: 3 });
    expect(view).toMatchObject({ failed: null, valuetext: '2 of 3 sent', percent: 66 });
  });

  it('names a paused or a cancelled send and marks it stopped', () => {
    expect(sendProgressView({ status: 'paused', sent: 2, failed: 0, recipients: 5 })).toMatchObject(
      { label: 'Sending paused', state: 'stopped', valuenow: 2, valuemax: 5, percent: 40 },
    );
    expect(
      sendProgressView({ status: 'cancelled', sent: 1, failed: 0, recipients: 5 }),
    ).toMatchObject({ label: 'Sending cancelled', state: 'stopped' });
  });

  it('is full and done once the campaign is sent, before the last counter update arrives', () => {
    expect(sendProgressView({ status: 'sent', sent: 2, failed: 0, recipients: 3 })).toMatchObject({
      label: 'Sending progress',
      state: 'done',
      text: '2 of 3 sent',
      percent: 100,
      valuenow: 3,
      valuemax: 3,
    });
  });

  it('shows an empty bar for a send without recipients yet, with large counts grouped', () => {
    expect(
      sendProgressView({ status: 'sending', sent: 0, failed: 0, recipients: 0 }),
    ).toMatchObject({ text: '0 of 0 sent', percent: 0, valuenow: 0, valuemax: 0 });
    expect(
      sendProgressView({ status: 'sending', sent: 12345, failed: 0, recipients: 20000 }).text,
    ).toBe(`${formatCount(12345)} of ${formatCount(20000)} sent`);
  });
});
