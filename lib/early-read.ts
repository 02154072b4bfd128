// A read the exported HTML starts itself, before the page's scripts have downloaded: a page that
// must read the API before it can show anything (an issue published after the build, opened at
// `/archive/issue/?slug=`) would otherwise wait for ~120 KB of JavaScript, hydration and an effect
// before its request even left, and then for the request. An inline script sends exactly the
// request lib/supabase-public.ts would send and leaves the pending response under the request's
// key; the page's first read of it takes that response instead of fetching (once: a retry or a
// later read fetches again; lib/use-archive-issue.ts). On the issue page this overlaps the read
// with the scripts' download.
import { SUPABASE_URL } from './config';
import { rpcBody } from './supabase-public';

interface EarlyReads {
  [key: string]: Promise<Response> | undefined;
}

declare global {
  interface Window {
    __postboxEarlyReads?: EarlyReads;
  }
}

/** The key of a request: its path under /rest/v1/ and its body. */
export function earlyReadKey(path: string, body: string): string {
  return `${path} ${body}`;
}

/** The pending response to the call of `fn` with `args` if the page's HTML started it, once. */
export function takeEarlyRpc(fn: string, args: object): Promise<Response> | undefined {
  return takeEarlyRead(`rpc/${fn}`, rpcBody(args));
}

/** The pending response to this request if the page's HTML started it, once. */
export function takeEarlyRead(path: string, body: string): Promise<Response> | undefined {
  if (typeof window === 'undefined') return undefined;
  const reads = window.__postboxEarlyReads;
  const key = earlyReadKey(path, body);
  const read = reads?.[key];
  if (read) delete reads[key];
  return read;
}

/**
 * The inline script that calls the function `fn` with `{ [arg]: <the query string's param> }` when
 * the page's address has that parameter, with `headers` (what lib/supabase-public.ts sends).
 */
export function earlyRpcScript(
  fn: string,
  param: string,
  arg: string,
  headers: Record<string, string>,
): string {
  const path = `rpc/${fn}`;
  const url = `${SUPABASE_URL}/rest/v1/${path}`;
  // JSON.stringify of every value: the script is built from constants only, and `<` is escaped so
  // nothing can end the element.
  const js = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');
  return (
    '(function(){try{' +
    `var v=new URLSearchParams(location.search).get(${js(param)});if(!v)return;` +
    `var a={};a[${js(arg)}]=v;var b=JSON.stringify(a);` +
    `var p=fetch(${js(url)},{method:"POST",headers:${js(headers)},body:b});` +
    // Handled here so a failed read is not an "uncaught" error; the taker sees the rejection.
    'p.catch(function(){});' +
    `var r=window.__postboxEarlyReads=window.__postboxEarlyReads||{};r[${js(path)}+" "+b]=p;` +
    '}catch(e){}})();'
  );
}
