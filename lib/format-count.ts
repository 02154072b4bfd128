// A count as the public pages write it ("1,234"), in a module of its own so the home page's
// subscriber count does not bring lib/waitlist.ts's parsing along.
const number = new Intl.NumberFormat('en');

export function formatCount(value: number): string {
  return number.format(value);
}
