import { signOutEverywhere, signOutHere } from "@/lib/auth/sign-out";
import { buttonClass } from "../ui/button";

/** Sign out of this browser, or of every session of the account (a lost laptop, a shared machine). */
export function SignOutButtons() {
  return (
    <>
      <form action={signOutHere}>
        <button type="submit" className={buttonClass("secondary")}>
          Sign out
        </button>
      </form>
      <form action={signOutEverywhere}>
        <button
          type="submit"
          className={buttonClass("secondary")}
          title="End every session of this account, on every device"
        >
          Sign out everywhere
        </button>
      </form>
    </>
  );
}
