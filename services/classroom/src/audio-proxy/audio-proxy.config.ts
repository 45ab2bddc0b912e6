import { envInt, type ConfigValues } from '@district/nest-common';

const int = (min: number, max: number, fallback: number) => envInt(fallback, { min, max });

/**
 * The audio proxy's limits (issue #13 item 3). Defaults suit a district; tests shrink them.
 * - CLASSROOM_AUDIO_PROXY_MAX_BYTES: the largest answer passed on (announced larger → 502; a body that runs
 *   past it is cut off).
 * - CLASSROOM_AUDIO_PROXY_TIMEOUT_MS: how long the upstream may take to connect and answer with headers, per
 *   hop (→ 504).
 * - CLASSROOM_AUDIO_PROXY_STREAM_MS: how long one answer may stream before it is cut off.
 * - CLASSROOM_AUDIO_PROXY_RATE_LIMIT per CLASSROOM_AUDIO_PROXY_RATE_WINDOW_MS: requests per signed-in user, in the
 *   shared store (a player seeking sends a few Range requests per play).
 * - CLASSROOM_AUDIO_PROXY_CACHE_BYTES (0 turns it off), CLASSROOM_AUDIO_PROXY_CACHE_FILE_BYTES,
 *   CLASSROOM_AUDIO_PROXY_CACHE_TTL_MS: the memory of recently played small files, per process (ADR 0025) — all
 *   files together, one file, and how long a file is answered from memory after its download.
 * Part of classroom's one schema (classroom.config.ts), read by its root module, which provides this part under
 * AUDIO_PROXY_CONFIG.
 */
export const audioProxySettings = {
  CLASSROOM_AUDIO_PROXY_MAX_BYTES: int(1024, 1024 * 1024 * 1024, 50 * 1024 * 1024),
  CLASSROOM_AUDIO_PROXY_TIMEOUT_MS: int(100, 120_000, 10_000),
  CLASSROOM_AUDIO_PROXY_STREAM_MS: int(100, 60 * 60_000, 5 * 60_000),
  CLASSROOM_AUDIO_PROXY_RATE_LIMIT: int(1, 1_000_000, 120),
  CLASSROOM_AUDIO_PROXY_RATE_WINDOW_MS: int(1000, 24 * 3_600_000, 60_000),
  CLASSROOM_AUDIO_PROXY_CACHE_BYTES: int(0, 1024 * 1024 * 1024, 32 * 1024 * 1024),
  CLASSROOM_AUDIO_PROXY_CACHE_FILE_BYTES: int(0, 1024 * 1024 * 1024, 16 * 1024 * 1024),
  CLASSROOM_AUDIO_PROXY_CACHE_TTL_MS: int(1000, 24 * 3_600_000, 10 * 60_000),
};

export type AudioProxyConfig = ConfigValues<typeof audioProxySettings>;

export const AUDIO_PROXY_CONFIG = Symbol('AUDIO_PROXY_CONFIG');
/** Redirects followed by hand, each hop checked again (issue #13: at most 5). */
export const AUDIO_PROXY_MAX_REDIRECTS = 5;
