/** The product version shown in the UI (S15) and part of the stored-session key (S2). */
export const APP_VERSION = 'v8.0.34';

/** The fixed user-data key of S2; the stored session lives at `${APP_VERSION}-${USER_DATA_KEY}`. */
export const USER_DATA_KEY = 'authf649fc9a5f55';
export const SESSION_STORAGE_KEY = `${APP_VERSION}-${USER_DATA_KEY}`;

/** S2: a stored session is valid for 10 days after sign-in. */
export const SESSION_LIFETIME_MS = 864_000_000;

/** S13 */
export const LANGUAGES = ['it', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'it';
export const LANGUAGE_STORAGE_KEY = 'language';

/** S10: the custom token header and the marker put on a request retried after a refresh. */
export const AUTH_TOKEN_HEADER = 'X-Auth-Token';
export const AUTH_RETRY_HEADER = 'X-Auth-Retry';

/** S17 */
export const CSRF_COOKIE = 'XSRF-TOKEN';
/** The same cookie's name where the app is served over https (`__Host-`: Secure, Path=/, no Domain). */
export const CSRF_COOKIE_HOST = '__Host-XSRF-TOKEN';
export const CSRF_HEADER = 'X-XSRF-TOKEN';
