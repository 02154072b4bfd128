// SQL text helpers: identifier quoting and a collector of `$n` parameters (values never enter SQL text).

/** Quotes an identifier the way Postgres's quote_ident does for any input. */
export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Collects values and hands out their `$n` placeholders, in order. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
  /** Drops the values added after `mark` (a count from `values.length`) whose SQL was discarded. */
  truncate(mark: number): void {
    this.values.length = mark;
  }
}

/** A Postgres array literal (`{"a","b,c"}`) for `= any($n)`; every element is quoted. */
export function arrayLiteral(values: string[]): string {
  return `{${values.map((v) => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(',')}}`;
}
