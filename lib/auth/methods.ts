import { config } from "@/lib/config";

/**
 * How one can sign in with this process's configuration: the sign-in page shows these, the
 * start logs them, and the providers enforce them (lib/auth/index.ts, dev-signin.ts, magic-link.ts).
 */
export type EmailSignIn = "resend" | "logged" | "off";

export const emailSignInMode = (): EmailSignIn =>
  config.RESEND_API_KEY ? "resend" : config.onEmbeddedDefaults ? "logged" : "off";

/** DEV_SIGNIN=1 counts only on the embedded defaults (and then only from loopback). */
export const devSignInEnabled = () => config.DEV_SIGNIN && config.onEmbeddedDefaults;

/** What the start says about sign-in, one line each. */
export function signInNotes(): string[] {
  const notes = {
    resend: `Sign-in links are emailed through Resend and point to ${config.appOrigin}.`,
    logged: "Sign-in links are written to this log, not emailed (embedded defaults, RESEND_API_KEY unset).",
    off: "Email sign-in is off: set RESEND_API_KEY and APP_URL to send sign-in links.",
  };
  const lines = [notes[emailSignInMode()]];
  if (devSignInEnabled()) lines.push("Dev sign-in (no email, no password) is on, for loopback clients only.");
  else if (config.DEV_SIGNIN)
    lines.push(
      "DEV_SIGNIN is ignored: dev sign-in works only on the embedded database and dev chain without RESEND_API_KEY.",
    );
  return lines;
}
