// The gateway's one route table: which prefix goes to which service, and how Kong treats it.
import type { ServiceName } from './types.js';

export interface Route {
  prefix: string;
  service: ServiceName;
  /** Rewrite `Authorization` from the apikey as Kong's request-transformer does (contract §0.3). */
  rewriteAuthorization: boolean;
  /** The gateway answers preflights and adds CORS headers; false leaves CORS to the service. */
  gatewayCors: boolean;
}

export const ROUTES: readonly Route[] = [
  { prefix: '/rest/v1', service: 'rest', rewriteAuthorization: true, gatewayCors: true },
  { prefix: '/auth/v1', service: 'auth', rewriteAuthorization: true, gatewayCors: true },
  { prefix: '/storage/v1', service: 'storage', rewriteAuthorization: true, gatewayCors: true },
  // Functions see the client's headers unchanged and answer their own preflights (contract §5.2, §5.4).
  {
    prefix: '/functions/v1',
    service: 'functions',
    rewriteAuthorization: false,
    gatewayCors: false,
  },
  { prefix: '/realtime/v1', service: 'realtime', rewriteAuthorization: true, gatewayCors: true },
];

export function matchRoute(pathname: string): Route | undefined {
  return ROUTES.find((r) => pathname === r.prefix || pathname.startsWith(r.prefix + '/'));
}
