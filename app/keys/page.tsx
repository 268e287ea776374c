import type { Metadata } from "next";
import Link from "next/link";
import { formatInteger } from "@/components/format";
import { KeyManager } from "@/components/keys/key-manager";
import { PageHeader } from "@/components/ui/page-header";
import { getDb } from "@/db/client";
import { requireAccount } from "@/lib/auth/account";
import { listKeys } from "@/lib/keys/store";
import { planOfAccount } from "@/lib/queries/plans";

export const metadata: Metadata = { title: "API keys" };

const iso = (d: Date | null) => d?.toISOString() ?? null;

export default async function KeysPage() {
  const account = await requireAccount("/keys");
  const db = getDb();
  const [keys, plan] = await Promise.all([listKeys(db, account.id), planOfAccount(db, account.id)]);
  const planLink = (
    <Link href="/plan" className="text-indigo-700 underline dark:text-indigo-300">
      {account.planLabel} plan
    </Link>
  );
  return (
    <>
      <PageHeader
        title="API keys"
        subtitle={
          <>
            Send a key as <code className="font-mono">Authorization: Bearer &lt;key&gt;</code>.{" "}
            {account.plan === "api_tier" ? (
              <>Keys share your {planLink}; each key has rate limits of its own, which a rotation keeps.</>
            ) : (
              <>
                Keys share your {planLink} and its rate limits: every key&apos;s requests, and the dashboard&apos;s,
                count against your account&apos;s, so a new or rotated key starts no fresh count.
              </>
            )}{" "}
            It allows {formatInteger(plan.maxKeys)} live keys, and {formatInteger(plan.keysPerDay)} new ones a day,
            rotations included.
          </>
        }
      />
      <KeyManager
        cap={{ plan: plan.label, maxKeys: plan.maxKeys }}
        keys={keys.map((k) => ({
          id: k.id,
          name: k.name,
          prefix: k.prefix,
          createdAt: k.createdAt.toISOString(),
          lastUsedAt: iso(k.lastUsedAt),
          revokedAt: iso(k.revokedAt),
          disabledAt: iso(k.disabledAt),
        }))}
      />
    </>
  );
}
