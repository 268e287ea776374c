import { Resend } from "resend";
import { config } from "@/lib/config";
import { log } from "@/lib/log";

/**
 * Sends the sign-in link through Resend (RESEND_BASE_URL selects another Resend-compatible
 * endpoint, as in tests); without RESEND_API_KEY the link is logged instead, for local use.
 */
export async function sendMagicLink({ identifier: to, url }: { identifier: string; url: string }) {
  const link = onPublicOrigin(url);
  if (!config.RESEND_API_KEY) {
    log.info("sign-in link (RESEND_API_KEY unset, not sent)", { to, url: link });
    return;
  }
  const resend = new Resend(config.RESEND_API_KEY, config.RESEND_BASE_URL ? { baseUrl: config.RESEND_BASE_URL } : undefined);
  const { error } = await resend.emails.send({
    from: config.EMAIL_FROM,
    to,
    subject: "Your Onchain Intel sign-in link",
    text: `Sign in to Onchain Intel:\n\n${link}\n\nThe link works once and expires in 24 hours. If you did not ask for it, ignore this email.`,
    html: `<p>Sign in to Onchain Intel:</p><p><a href="${link}">Sign in</a></p><p>The link works once and expires in 24 hours. If you did not ask for it, ignore this email.</p>`,
  });
  if (error) throw new Error(`Resend refused the sign-in email: ${error.message}`);
}

/**
 * Auth.js builds the link from the request's host; with APP_URL set the link points there
 * instead, so a forged Host header cannot send someone's token to another site.
 */
function onPublicOrigin(url: string): string {
  if (!config.APP_URL) return url;
  const link = new URL(url);
  const origin = new URL(config.APP_URL);
  link.protocol = origin.protocol;
  link.host = origin.host;
  return link.toString();
}
