// Shapes shared by the gateway and the services it routes to.

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
  close?(): Promise<void>;
}

export type ServiceName = 'rest' | 'auth' | 'storage' | 'functions' | 'realtime';
