// The deploy hook form's rules: headers typed as `Name: value` lines, the body as JSON, the URL
// http(s); the same limits the table checks (20 headers, names as HTTP allows them).

export interface DeployHookValues {
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

export interface DeployHookErrors {
  url?: string;
  headers?: string;
  body?: string;
}

const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/;

/** Headers as the form shows them, one `Name: value` a line. */
export function headersText(headers: Record<string, string> | null | undefined): string {
  return Object.entries(headers ?? {})
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
}

/** What the owner typed, checked: the row to save, or the errors by field. */
export function readDeployHookForm(input: {
  url: string;
  headers: string;
  body: string;
}): { values: DeployHookValues; errors: null } | { values: null; errors: DeployHookErrors } {
  const errors: DeployHookErrors = {};
  const url = input.url.trim();
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error('scheme');
  } catch {
    errors.url = 'Enter the full address, starting with https://.';
  }
  const headers: Record<string, string> = {};
  const lines = input.headers.split('\n').filter((line) => line.trim());
  for (const [index, line] of lines.entries()) {
    const cut = line.indexOf(':');
    const name = cut > 0 ? line.slice(0, cut).trim() : '';
    if (!HEADER_NAME.test(name)) {
      errors.headers = `Line ${index + 1}: write each header as Name: value.`;
      break;
    }
    headers[name] = line.slice(cut + 1).trim();
  }
  if (!errors.headers && Object.keys(headers).length > 20) errors.headers = 'At most 20 headers.';
  let body: unknown = null;
  if (input.body.trim()) {
    try {
      body = JSON.parse(input.body);
      if (typeof body !== 'object' || body === null) throw new Error('not an object');
    } catch {
      errors.body = 'Enter a JSON object or array, or leave it empty.';
    }
  }
  if (Object.keys(errors).length > 0) return { values: null, errors };
  return { values: { url, headers, body }, errors: null };
}
