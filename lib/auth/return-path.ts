/** Any origin will do: a path is safe when, resolved against it, it stays on it. */
const BASE = "http://return-path.invalid";

/**
 * Where to go after signing in: a path on this site only (never another origin: no open
 * redirect). Backslashes and control characters are refused outright: browsers read `/\x` as
 * `//x` and drop tabs and newlines, so `/\evil.example` and `/<TAB>/evil.example` lead off-site.
 */
export function safeReturnPath(value: unknown): string {
  if (typeof value !== "string" || !value.startsWith("/") || /[\\\p{Cc}]/u.test(value)) return "/";
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return "/";
  }
  // The resolved path is what the browser gets: `/.//evil.example` resolves to `//evil.example`.
  if (url.origin !== BASE || url.pathname.startsWith("//")) return "/";
  return `${url.pathname}${url.search}${url.hash}`;
}
