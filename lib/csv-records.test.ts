import { describe, expect, it } from 'vitest';
import { RowCounter } from './csv-records';

const bytes = (text: string) => new TextEncoder().encode(text);

function counted(...chunks: string[]): RowCounter {
  const counter = new RowCounter();
  for (const chunk of chunks) counter.push(bytes(chunk));
  return counter;
}

describe('RowCounter (shared by the import dialog and the function)', () => {
  it('notes the line of the first text after a closing quote, wherever the chunks split', () => {
    const text = 'email,name\na@x.io,"Ada"\nb@x.io,"Bo"b\nc@x.io,"C"x\n';
    expect(counted(text).textAfterQuote).toBe(3);
    expect(counted(text.slice(0, 29), text.slice(29)).textAfterQuote).toBe(3);
    expect(counted('email,name\na@x.io,"A ""quoted"" name",x\n').textAfterQuote).toBeNull();
  });

  it('reports the line a quote opened on while the input ends inside it', () => {
    const counter = counted('email,name\na@x.io,"Ada\n\nLovelace\n');
    expect(counter.openQuote()).toBe(2);
    counter.push(bytes('"\n'));
    expect(counter.openQuote()).toBeNull();
    expect(counter.rows()).toBe(1);
  });

  it('takes a header without a newline as ending with the input, skipping a BOM and blank lines', () => {
    expect(counted('email,name').header).toBeNull();
    expect(counted('email,name').headerAtEnd()).toEqual({ end: 10, lines: 1 });
    expect(counted('\ufeff\n\nemail\r\na@x.io').headerAtEnd()).toEqual({ end: 12, lines: 3 }); // 3 BOM + 2 + 7;
    expect(counted('\n\n').headerAtEnd()).toBeNull();
  });
});
