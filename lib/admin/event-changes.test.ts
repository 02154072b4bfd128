// Unit tests for the history lines of an edit: old → new per field, and who made it.
import { describe, expect, it } from 'vitest';
import { eventActor, eventChanges } from './event-changes';

describe('eventChanges', () => {
  it('lists each changed field with old and new values', () => {
    expect(
      eventChanges({
        actor: { id: 'u1', email: 'owner@example.com' },
        changes: {
          notes: { from: '', to: 'VIP' },
          name: { from: 'Ada', to: 'Ada Lovelace' },
          attributes: { from: { plan: 'pro' }, to: { plan: 'team' } },
        },
      }),
    ).toEqual([
      'Name: Ada → Ada Lovelace',
      'Attributes: {"plan":"pro"} → {"plan":"team"}',
      'Notes: (empty) → VIP',
    ]);
  });

  it('shortens long values and ignores events without changes', () => {
    const [line] = eventChanges({ changes: { notes: { from: 'x'.repeat(200), to: '' } } });
    expect(line).toBe(`Notes: ${'x'.repeat(79)}… → (empty)`);
    expect(eventChanges({ list: 'newsletter' })).toEqual([]);
  });
});

describe('eventActor', () => {
  it('names the member, or nothing', () => {
    expect(eventActor({ actor: { id: 'u1', email: 'a@example.com' } })).toBe('by a@example.com');
    expect(eventActor({ actor: null })).toBeNull();
  });
});
