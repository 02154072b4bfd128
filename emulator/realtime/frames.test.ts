// Unit tests for Phoenix framing, including the binary broadcast kinds realtime-js sends and decodes.
import Serializer from '@supabase/realtime-js/dist/main/lib/serializer.js';
import { describe, expect, it } from 'vitest';
import { decodeBinary, decodeText, encodeText, encodeUserBroadcast, FrameError } from './frames.js';

describe('text frames', () => {
  it('reads and writes vsn 2.0.0 arrays', () => {
    const msg = decodeText('["1","2","realtime:room","phx_join",{"a":1}]', '2.0.0');
    expect(msg).toEqual({
      joinRef: '1',
      ref: '2',
      topic: 'realtime:room',
      event: 'phx_join',
      payload: { a: 1 },
    });
    expect(encodeText({ ...msg, joinRef: null }, '2.0.0')).toBe(
      '[null,"2","realtime:room","phx_join",{"a":1}]',
    );
  });

  it('reads and writes vsn 1.0.0 objects', () => {
    const msg = decodeText('{"topic":"phoenix","event":"heartbeat","payload":{},"ref":7}', '1.0.0');
    expect(msg).toEqual({
      joinRef: null,
      ref: '7',
      topic: 'phoenix',
      event: 'heartbeat',
      payload: {},
    });
    expect(JSON.parse(encodeText(msg, '1.0.0'))).toEqual({
      topic: 'phoenix',
      event: 'heartbeat',
      payload: {},
      ref: '7',
      join_ref: null,
    });
  });

  it('rejects frames of the wrong shape', () => {
    expect(() => decodeText('{"topic":"x"}', '2.0.0')).toThrow(FrameError);
    expect(() => decodeText('[1,2,3]', '2.0.0')).toThrow(FrameError);
    expect(() => decodeText('not json', '1.0.0')).toThrow(FrameError);
  });
});

describe('binary frames', () => {
  it('decodes the probe capture of contract §4.1', () => {
    const head = [3, 1, 1, 14, 6, 0, 1];
    const text = new TextEncoder().encode('67realtime:room1cursor{"x":1}');
    const msg = decodeBinary(new Uint8Array([...head, ...text]));
    expect(msg).toEqual({
      joinRef: '6',
      ref: '7',
      topic: 'realtime:room1',
      event: 'broadcast',
      payload: { type: 'broadcast', event: 'cursor', payload: { x: 1 } },
    });
  });

  it('decodes what realtime-js encodes, JSON, metadata and raw bytes, with UTF-8 names', () => {
    const serializer = new Serializer();
    const encode = (payload: Record<string, unknown>) =>
      new Promise<ArrayBuffer>((resolve) =>
        serializer.encode(
          { join_ref: '12', ref: '13', topic: 'realtime:salle-é', event: 'broadcast', payload },
          (out: string | ArrayBuffer) => resolve(out as ArrayBuffer),
        ),
      );
    return (async () => {
      const json = decodeBinary(
        new Uint8Array(
          await encode({ type: 'broadcast', event: 'ça', payload: { n: 'ü' }, persist: true }),
        ),
      );
      expect(json).toMatchObject({ joinRef: '12', ref: '13', topic: 'realtime:salle-é' });
      expect(json.payload).toEqual({
        type: 'broadcast',
        event: 'ça',
        payload: { n: 'ü' },
        meta: { persist: true },
      });
      const bytes = new Uint8Array([1, 2, 255]).buffer;
      const raw = decodeBinary(
        new Uint8Array(await encode({ type: 'broadcast', event: 'bin', payload: bytes })),
      );
      expect(raw.payload).toEqual({
        type: 'broadcast',
        event: 'bin',
        payload: new Uint8Array([1, 2, 255]),
      });
    })();
  });

  it('refuses other kinds and truncated frames', () => {
    expect(() => decodeBinary(new Uint8Array([4, 0, 0, 0, 0, 0, 1]))).toThrow(/kind 4/);
    expect(() => decodeBinary(new Uint8Array([3, 5, 0, 0, 0, 0, 1, 65]))).toThrow(/truncated/);
  });

  it('encodes kind-4 user broadcasts that realtime-js decodes', () => {
    const out = encodeUserBroadcast('realtime:r', 'ev', new Uint8Array([9, 8]), { id: 'x' });
    const serializer = new Serializer();
    let decoded: unknown;
    serializer.decode(
      out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength) as ArrayBuffer,
      (m: unknown) => (decoded = m),
    );
    expect(decoded).toMatchObject({
      topic: 'realtime:r',
      event: 'broadcast',
      payload: { type: 'broadcast', event: 'ev', meta: { id: 'x' } },
    });
    expect(
      new Uint8Array((decoded as { payload: { payload: ArrayBuffer } }).payload.payload),
    ).toEqual(new Uint8Array([9, 8]));
  });
});
