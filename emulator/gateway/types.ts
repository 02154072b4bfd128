// Shapes shared by the gateway and the services it routes to.
import type { PlainRequest, PlainResponse } from './plain.js';

/** What the gateway worked out about the caller before handing the request on. */
export interface GatewayContext {
  /** The `apikey` header (or realtime's `apikey` query parameter), as sent. */
  apikey: string | null;
  /** Client address, for rate limits and `x-forwarded-for`. */
  remoteAddress: string;
}

/**
 * A service answers web-standard requests. The path it sees still starts with its prefix
 * (`/rest/v1/...`), as upstream services behind Kong see theirs after strip_path.
 */
export interface Service {
  handle(req: Request, ctx: GatewayContext): Promise<Response>;
  /**
   * The same answer without web Request/Response objects (see plain.ts), which the gateway uses
   * when a service has it and the request body is small: building and reading those objects
   * costs a short REST request more than its own SQL work.
   */
  handlePlain?(req: PlainRequest, ctx: GatewayContext): Promise<PlainResponse>;
  close?(): Promise<void>;
}

export type ServiceName = 'rest' | 'auth' | 'storage' | 'functions' | 'realtime';
