// The allow-list is a contract between the proxy and the web app (which sends links on these hosts through the
// proxy): it lives in @district/contracts/classroom, and this file keeps the proxy's own name for it.
export { AUDIO_PROXY_ALLOW_LIST, isAllowedHost } from '@district/contracts/classroom';
