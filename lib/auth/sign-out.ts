"use server";

import { getAuthSql } from "@/db/client";
import { auth, signOut } from "./index";
import { closeAllSessions } from "./sessions";

/** Ends this session (its row in the session registry goes with it: lib/auth/index.ts). */
export async function signOutHere() {
  await signOut({ redirectTo: "/signin" });
}

/** Ends every session of the signed-in user, on every device, this one included. */
export async function signOutEverywhere() {
  const userId = (await auth())?.user?.id;
  if (userId) await closeAllSessions(getAuthSql(), userId);
  await signOut({ redirectTo: "/signin" });
}
