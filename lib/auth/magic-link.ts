import { Resend } from "resend";
import { config } from "@/lib/config";
import { log } from "@/lib/log";
import { emailSignInMode } from "./methods";

const LINK_TERMS = "The link works once and expires in 24 hours. If you did not ask for it, ignore this email.";

/**
 * Sends the sign-in link through Resend (RESEND_BASE_URL selects another Resend-compatible
 * endpoint, as in tests). Without RESEND_API_KEY the link is logged instead, and only on the
 * embedded defaults, where whoever reads the log is the one signing in; anywhere else a link in
 * a log would be a key to the account for whoever reads it, so the request is refused
 * (emailSignInMode, lib/auth/methods.ts).
 */
export async function sendMagicLink({ identifier: to, url }: { identifier: string; url: string }) {
  const link = onPublicOrigin(url);
  const mode = emailSignInMode();
  if (mode === "off") throw new Error("Email sign-in is not configured: set RESEND_API_KEY and APP_URL.");
  if (mode === "logged") {
    log.info("sign-in link (embedded defaults without RESEND_API_KEY: logged, not sent)", { to, url: link });
    return;
  }
  const resend = new Resend(
    config.RESEND_API_KEY,
    config.RESEND_BASE_URL ? { baseUrl: config.RESEND_BASE_URL } : undefined,
  );
  const { error } = await resend.emails.send({
    from: config.EMAIL_FROM,
    to,
    subject: "Your Onchain Intel sign-in link",
    text: `Sign in to Onchain Intel:\n\n${link}\n\n${LINK_TERMS}`,
    html: `<p>Sign in to Onchain Intel:</p><p><a href="${link}">Sign in</a></p><p>${LINK_TERMS}</p>`,
  });
  if (error) throw new Error(`Resend refused the sign-in email: ${error.message}`);
}

/**
 * The link on the configured origin (APP_URL), whatever Host or X-Forwarded-Host the request
 * carried: Auth.js is pinned to it too (AUTH_URL, lib/auth/index.ts); this holds even if not.
 */
function onPublicOrigin(url: string): string {
  const link = new URL(url);
  const origin = new URL(config.appOrigin);
  link.protocol = origin.protocol;
  link.host = origin.host;
  return link.toString();
}
