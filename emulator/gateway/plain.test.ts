// NodeHeaders reads Node's parsed headers as web Headers would: same values, same iteration.
import { describe, expect, it } from 'vitest';
import { decodeUtf8, NodeHeaders } from './plain.js';

const raw = {
  'x-b': 'two',
  authorization: 'Bearer old',
  'set-cookie': ['a=1', 'b=2'],
  'x-a': 'one',
  cookie: 'k=v; l=w',
};

function webHeaders(): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (Array.isArray(value)) value.forEach((v) => headers.append(name, v));
    else headers.set(name, value);
  }
  return headers;
}

const entries = (h: { forEach(fn: (value: string, name: string) => void): void }) => {
  const out: Array<[string, string]> = [];
  h.forEach((value, name) => out.push([name, value]));
  return out;
};

describe('NodeHeaders', () => {
  it('gets and iterates like web Headers', () => {
    const node = new NodeHeaders(raw);
    const web = webHeaders();
    for (const name of ['X-A', 'authorization', 'set-cookie', 'cookie', 'missing']) {
      expect(node.get(name)).toBe(web.get(name));
    }
    expect(entries(node)).toEqual(entries(web));
  });

  it('applies changes on top of the request without touching it', () => {
    const node = new NodeHeaders(raw);
    const web = webHeaders();
    node.set('Authorization', 'Bearer new');
    web.set('authorization', 'Bearer new');
    node.set('x-a', null);
    web.delete('x-a');
    node.set('x-c', 'three');
    web.set('x-c', 'three');
    expect(node.get('authorization')).toBe('Bearer new');
    expect(node.get('x-a')).toBeNull();
    expect(entries(node)).toEqual(entries(web));
    expect(raw.authorization).toBe('Bearer old');
  });
});

describe('decodeUtf8', () => {
  it('decodes as Request.text() does, dropping a leading BOM', async () => {
    const bytes = Buffer.from('\ufeff{"a":"é"}', 'utf8');
    expect(decodeUtf8(bytes)).toBe(
      await new Request('http://x', { method: 'POST', body: bytes }).text(),
    );
    expect(decodeUtf8(bytes)).toBe('{"a":"é"}');
  });
});
