// Unit tests for the checks and paths of image uploads to the media bucket.
import { describe, expect, it } from 'vitest';
import { checkImage, MAX_IMAGE_BYTES, mediaPath, mediaSrc } from './media-upload';

describe('checkImage', () => {
  it('accepts the four image types up to 5 MB', () => {
    for (const type of ['image/png', 'image/jpeg', 'image/webp', 'image/gif']) {
      expect(checkImage({ name: 'a', size: MAX_IMAGE_BYTES, type })).toBeNull();
    }
  });

  it('refuses other types, larger files and empty ones', () => {
    expect(checkImage({ name: 'a.svg', size: 10, type: 'image/svg+xml' })).toMatch(/PNG, JPEG/);
    expect(checkImage({ name: 'a.png', size: MAX_IMAGE_BYTES + 1, type: 'image/png' })).toMatch(
      /5 MB/,
    );
    expect(checkImage({ name: 'a.png', size: 0, type: 'image/png' })).toMatch(/empty/);
  });
});

describe('mediaPath', () => {
  it('puts a timestamp and a safe name under the folder', () => {
    expect(mediaPath('logo', 'My Logo (final).PNG', 1763820000000)).toBe(
      'logo/1763820000000-my-logo-final.png',
    );
    expect(mediaPath('logo', 'Café.webp', 1)).toBe('logo/1-cafe.webp');
    expect(mediaPath('logo', '../../etc/passwd', 2)).toBe('logo/2-passwd');
    expect(mediaPath('logo', 'C:\\fakepath\\photo.JPG', 5)).toBe('logo/5-photo.jpg');
    expect(mediaPath('logo', '.png', 3)).toBe('logo/3-png');
    expect(mediaPath('logo', '日本.gif', 4)).toBe('logo/4-image.gif');
  });

  it('addresses the object for the image loader', () => {
    expect(mediaSrc('logo/1-a.png')).toBe('media/logo/1-a.png');
  });
});
