/** Where to go after signing in: a path on this site only (never another origin: no open redirect). */
export function safeReturnPath(value: unknown): string {
  return typeof value === "string" && /^\/(?!\/)/.test(value) ? value : "/";
}
