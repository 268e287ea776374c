import { route, withPublic } from "@/lib/api/handler";

/** Liveness of the web process alone (no database); the benchmark's baseline route. */
export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withPublic(async () => ({ ok: true })),
});
