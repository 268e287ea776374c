import Link from "next/link";
import { CopyButton } from "./copy-button";
import { shortAddress } from "./format";

/** A shortened address, linked to its page when it has one, with the full value to copy. */
export function Address({ value, href, chars }: { value: string; href?: string; chars?: number }) {
  const text = <span className="font-mono">{shortAddress(value, chars)}</span>;
  return (
    <span className="inline-flex items-center gap-0.5 whitespace-nowrap" title={value}>
      {href ? (
        <Link href={href} className="text-indigo-700 hover:underline dark:text-indigo-300">
          {text}
        </Link>
      ) : (
        text
      )}
      <CopyButton value={value} label={`Copy ${value}`} />
    </span>
  );
}

export const tokenHref = (address: string) => `/tokens/${address}`;
export const walletHref = (address: string) => `/wallets/${address}`;
