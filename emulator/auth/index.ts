// The auth service's public entry.
export { createAuthService, type AuthServiceOptions } from './service.js';
