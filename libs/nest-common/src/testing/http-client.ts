export interface SetCookie {
  name: string;
  value: string;
  /** Attribute names lower-cased; flags map to true. */
  attributes: Record<string, string | true>;
}

export interface TestResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
  setCookies: SetCookie[];
}

export function parseSetCookie(header: string): SetCookie {
  const [pair, ...attrs] = header.split(';').map((p) => p.trim());
  const eq = pair.indexOf('=');
  const attributes: Record<string, string | true> = {};
  for (const attr of attrs) {
    const i = attr.indexOf('=');
    if (i === -1) attributes[attr.toLowerCase()] = true;
    else attributes[attr.slice(0, i).toLowerCase()] = attr.slice(i + 1);
  }
  return { name: pair.slice(0, eq), value: pair.slice(eq + 1), attributes };
}

interface StoredCookie {
  value: string;
  path: string;
}

/**
 * A cookie jar per origin, with path matching and expiry by Max-Age=0 / past Expires: just enough of a
 * browser for sign-in flows, including hops between identity and an OpenID provider.
 */
export class CookieJar {
  private readonly cookies = new Map<string, Map<string, StoredCookie>>();

  store(url: URL, header: SetCookie): void {
    const jar = this.cookies.get(url.origin) ?? new Map<string, StoredCookie>();
    this.cookies.set(url.origin, jar);
    const path = typeof header.attributes.path === 'string' ? header.attributes.path : '/';
    const expires =
      typeof header.attributes.expires === 'string' ? Date.parse(header.attributes.expires) : NaN;
    const removed = header.attributes['max-age'] === '0' || (!Number.isNaN(expires) && expires <= Date.now());
    if (removed) jar.delete(`${path} ${header.name}`);
    else jar.set(`${path} ${header.name}`, { value: header.value, path });
  }

  header(url: URL): string | undefined {
    const jar = this.cookies.get(url.origin);
    if (!jar) return undefined;
    const pairs = [...jar.entries()]
      .filter(
        ([, c]) =>
          url.pathname === c.path || url.pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`),
      )
      .map(([key, c]) => `${key.split(' ')[1]}=${c.value}`);
    return pairs.length ? pairs.join('; ') : undefined;
  }

  get(origin: string, name: string): string | undefined {
    for (const [key, c] of this.cookies.get(new URL(origin).origin) ?? [])
      if (key.split(' ')[1] === name) return c.value;
    return undefined;
  }

  set(origin: string, name: string, value: string, path = '/'): void {
    this.store(new URL(origin), { name, value, attributes: { path } });
  }
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as application/x-www-form-urlencoded instead of JSON. */
  form?: Record<string, string>;
  /** Sent as multipart/form-data (fetch sets the boundary). */
  multipart?: FormData;
  headers?: Record<string, string>;
}

/**
 * fetch with a cookie jar; redirects are not followed (tests look at them) unless through navigate().
 * `aliases` plays the gateway: a public origin the browser sees, served by a service's real address.
 */
export class HttpClient {
  readonly jar = new CookieJar();

  constructor(
    readonly baseUrl: string,
    private readonly defaultHeaders: Record<string, string> = {},
    private readonly aliases: Record<string, string> = {},
  ) {}

  get<T = unknown>(path: string, options?: RequestOptions) {
    return this.request<T>('GET', path, options);
  }
  post<T = unknown>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>('POST', path, { ...options, body });
  }
  patch<T = unknown>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>('PATCH', path, { ...options, body });
  }
  put<T = unknown>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>('PUT', path, { ...options, body });
  }
  delete<T = unknown>(path: string, options?: RequestOptions) {
    return this.request<T>('DELETE', path, options);
  }

  async request<T = unknown>(
    method: string,
    pathOrUrl: string,
    options: RequestOptions = {},
  ): Promise<TestResponse<T>> {
    const url = new URL(pathOrUrl, this.baseUrl);
    const headers: Record<string, string> = { ...this.defaultHeaders, ...options.headers };
    const cookie = this.jar.header(url);
    if (cookie) headers.cookie = cookie;
    let body: string | FormData | undefined;
    if (options.multipart) {
      body = options.multipart;
    } else if (options.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(options.form).toString();
    } else if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    }
    const alias = this.aliases[url.origin];
    const target = alias ? new URL(`${url.pathname}${url.search}`, alias) : url;
    const response = await fetch(target, { method, headers, body, redirect: 'manual' });
    const setCookies = response.headers.getSetCookie().map(parseSetCookie);
    for (const c of setCookies) this.jar.store(url, c);
    const text = await response.text();
    const json =
      (response.headers.get('content-type') ?? '').includes('application/json') && text
        ? JSON.parse(text)
        : text;
    return { status: response.status, headers: response.headers, body: json as T, text, setCookies };
  }

  /**
   * Follows redirects (across origins, like a browser) and returns the first non-redirect answer, or the
   * redirect pointing at a URL `stopAt` accepts.
   */
  async navigate(
    pathOrUrl: string,
    options: RequestOptions & { method?: string; stopAt?: (next: URL) => boolean } = {},
    maxHops = 20,
  ): Promise<TestResponse & { url: string }> {
    let url = new URL(pathOrUrl, this.baseUrl).href;
    let method = options.method ?? 'GET';
    let requestOptions: RequestOptions = options;
    for (let hop = 0; hop < maxHops; hop++) {
      const response = await this.request(method, url, requestOptions);
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) return { ...response, url };
      const next = new URL(location, url);
      if (options.stopAt?.(next)) return { ...response, url };
      url = next.href;
      method = 'GET';
      requestOptions = {};
    }
    throw new Error(`Too many redirects, last at ${url}`);
  }
}
