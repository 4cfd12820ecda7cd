import type { PublicWeb } from '../core/agent/tools/public-web.js';
import { checkPublicHost } from './check-public-host.js';
import { fetchPublicUrl } from './fetch-public-url.js';

/** The real network behind http_get: DNS and http(s) with the private-address guard. */
export const publicWeb: PublicWeb = { checkHost: checkPublicHost, fetch: fetchPublicUrl };
