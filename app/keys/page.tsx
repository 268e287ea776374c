import type { Metadata } from "next";
import Link from "next/link";
import { KeyManager } from "@/components/keys/key-manager";
import { PageHeader } from "@/components/ui/page-header";
import { getDb } from "@/db/client";
import { requireAccount } from "@/lib/auth/account";
import { listKeys } from "@/lib/keys/store";

export const metadata: Metadata = { title: "API keys" };

const iso = (d: Date | null) => d?.toISOString() ?? null;

export default async function KeysPage() {
  const account = await requireAccount("/keys");
  const keys = await listKeys(getDb(), account.id);
  return (
    <>
      <PageHeader
        title="API keys"
        subtitle={
          <>
            Send a key as <code className="font-mono">Authorization: Bearer &lt;key&gt;</code>. Keys share your{" "}
            <Link href="/plan" className="text-indigo-700 underline dark:text-indigo-300">
              {account.planLabel} plan
            </Link>
            ; rate limits count per key.
          </>
        }
      />
      <KeyManager
        keys={keys.map((k) => ({
          id: k.id,
          name: k.name,
          prefix: k.prefix,
          createdAt: k.createdAt.toISOString(),
          lastUsedAt: iso(k.lastUsedAt),
          revokedAt: iso(k.revokedAt),
        }))}
      />
    </>
  );
}
