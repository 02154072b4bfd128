// GoTrue's metadata update rule: top-level keys merge, a null value deletes the key.

export function mergeMetadata(
  current: Record<string, unknown> | null,
  update: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...(current ?? {}) };
  for (const [key, value] of Object.entries(update)) {
    if (value === null) delete out[key];
    else out[key] = value;
  }
  return out;
}

/** Parses GoTrue's `ban_duration` (a Go duration such as `24h`, `1h30m`, or `none`) into ms. */
export function parseBanDuration(value: string): number | null {
  if (value === 'none') return null;
  const units: Record<string, number> = {
    ns: 1e-6,
    us: 1e-3,
    µs: 1e-3,
    ms: 1,
    s: 1e3,
    m: 6e4,
    h: 36e5,
  };
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/gy;
  let total = 0;
  let matched = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(value))) {
    total += Number(m[1]) * units[m[2]!]!;
    matched += m[0].length;
  }
  if (!value || matched !== value.length) return NaN;
  return total;
}
