import Link from "next/link";
import type { getTokenProfile } from "@/lib/queries/tokens";
import { Address, walletHref } from "../address";
import { creatorHoldingText, creatorSoldText, unknownCreatorText } from "./words";

type Profile = NonNullable<Awaited<ReturnType<typeof getTokenProfile>>>;

/** Who made the token, what it holds of it now and whether it sold, in words. */
export function TokenCreator({ token }: { token: Profile }) {
  const { creator, creator_holding: holding } = token;
  if (!creator.address) return <p className="text-sm">{unknownCreatorText(creator)}</p>;
  return (
    <div className="space-y-2 text-sm" data-creator={creator.address}>
      <p>
        Created by <Address value={creator.address} href={walletHref(creator.address)} /> on {creator.via.name}.
      </p>
      {holding && (
        <p data-sold={holding.sold}>
          {creatorHoldingText(holding, token.symbol)}{" "}
          <strong className="font-medium">{creatorSoldText(holding)}</strong>
        </p>
      )}
      <Link
        href={`${walletHref(creator.address)}#launches`}
        className="inline-block text-xs text-indigo-700 hover:underline dark:text-indigo-300"
      >
        What else it launched →
      </Link>
    </div>
  );
}
