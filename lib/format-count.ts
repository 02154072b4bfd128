// A count as the public pages write it ("1,234"), in a module of its own so the home page's
// subscriber count does not bring lib/waitlist.ts's parsing along.
//
// Whole numbers are grouped here rather than by Intl.NumberFormat: the first Intl object a page
// creates loads ICU's locale data, which cost ~20 ms of main-thread time on `/` (≈ 90 ms of
// Lighthouse's 4× throttled Total Blocking Time; issue 22). Anything else (never a count, but the
// function must not lie) still goes through Intl, created on first use.
let intl: Intl.NumberFormat | undefined;

export function formatCount(value: number): string {
  if (Number.isSafeInteger(value)) {
    const digits = String(Math.abs(value)).replace(/\B(?=(\d{3})+$)/g, ',');
    return value < 0 ? `-${digits}` : digits;
  }
  intl ??= new Intl.NumberFormat('en');
  return intl.format(value);
}
