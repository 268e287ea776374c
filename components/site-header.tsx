import Link from "next/link";
import { Suspense } from "react";
import { marketStatus } from "@/lib/api/market-reads";
import { auth } from "@/lib/auth";
import { AccountMenu } from "./account/account-menu";
import { SignOutButtons } from "./account/sign-out-buttons";
import { StaleDataBanner } from "./freshness";
import { LiveIndicator } from "./live/live-indicator";
import { NavLinks } from "./nav-links";
import { SearchBox } from "./search/search-box";
import { buttonClass } from "./ui/button";

export async function SiteHeader() {
  // The session first: reading cookies makes the page dynamic, so the build never reads the database.
  const email = (await auth())?.user?.email;
  const status = await marketStatus().catch(() => undefined);
  return (
    <>
      <header className="border-b border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-2">
          <Link href="/" className="font-semibold tracking-tight">
            Onchain Intel
          </Link>
          <nav aria-label="Main" className="order-last w-full min-w-0 sm:order-none sm:w-auto sm:flex-1">
            <NavLinks />
          </nav>
          <Suspense fallback={<div className="order-last h-8 w-full sm:order-none sm:w-48 xl:w-52" />}>
            <SearchBox />
          </Suspense>
          <div className="ml-auto flex items-center gap-3 text-sm">
            <LiveIndicator status={status} />
            {email ? (
              <AccountMenu email={email}>
                <SignOutButtons />
              </AccountMenu>
            ) : (
              <Link href="/signin" className={buttonClass("primary")}>
                Sign in
              </Link>
            )}
          </div>
        </div>
      </header>
      <StaleDataBanner initial={status} />
    </>
  );
}
