// The REST service (PostgREST semantics on /rest/v1).
export { createRestService, type RestServiceOptions } from './service.js';
