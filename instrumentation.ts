/**
 * Runs once as the server starts (Next.js). A configuration the app must not run with (e.g. real
 * email without APP_URL, lib/config.ts) stops it here with its reason, before any request is
 * served; otherwise the start says how sign-in works (lib/auth/methods.ts).
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  try {
    const { signInNotes } = await import("@/lib/auth/methods");
    const { socketAddressesStamped } = await import("@/lib/auth/socket-address");
    const { log } = await import("@/lib/log");
    for (const note of signInNotes()) log.info(note);
    if (!socketAddressesStamped()) {
      log.warn(
        "Not started by scripts/serve.ts (npm run serve): visitors without an account share one meter, " +
          "as their addresses are unknown.",
      );
    }
  } catch (err) {
    console.error(`Refusing to start. ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}
