/**
 * A module resolution hook (registered by postgres-reach.ts in the embedded database's keeper):
 * the embedded PostgreSQL's platform package, imported by name, resolves to its copy where the
 * OS user postgres can run the binaries.
 */
let redirect = { specifier: "", url: "" };

export function initialize(data) {
  redirect = data;
}

export function resolve(specifier, context, next) {
  return specifier === redirect.specifier ? { url: redirect.url, shortCircuit: true } : next(specifier, context);
}
