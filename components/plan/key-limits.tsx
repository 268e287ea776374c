"use client";

import { useState } from "react";
import { formatInteger } from "../format";
import { buttonClass } from "../ui/button";
import { ErrorMessage } from "../ui/error-message";
import { Input } from "../ui/fields";
import { rowClass, TableFrame, TableHead, tdClass } from "../ui/table";
import { useRefreshingMutation } from "../use-refreshing-mutation";

export type KeyLimitRow = {
  id: string;
  name: string;
  prefix: string;
  ratePerMinute: number | null;
  ratePerDay: number | null;
};
type Ceiling = { perMinute: number; perDay: number };
type LimitsInput = { id: string; rate_per_minute: number | null; rate_per_day: number | null };

/** An empty field is the plan's default; a number is the key's own limit. */
const parseLimit = (text: string) => (text.trim() === "" ? null : Number(text));

/** API Tier: each key's own limits, within the account's contract. */
export function KeyLimits({ keys, defaults, contract }: { keys: KeyLimitRow[]; defaults: Ceiling; contract: Ceiling }) {
  const save = useRefreshingMutation<LimitsInput>(({ id, ...body }) => ({
    url: `/api/plan/keys/${id}`,
    method: "PUT",
    body,
  }));
  return (
    <div className="space-y-3">
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        Your contract allows up to {formatInteger(contract.perMinute)} requests per minute and{" "}
        {formatInteger(contract.perDay)} per day on each key. An empty field takes the API Tier default (
        {formatInteger(defaults.perMinute)} / min, {formatInteger(defaults.perDay)} / day).
      </p>
      {save.error && <ErrorMessage>{save.error.message}</ErrorMessage>}
      <TableFrame label="Key limits">
        <table className="w-full min-w-[640px] text-sm">
          <TableHead cells={["Key", "Per minute", "Per day", { label: "Save", srOnly: true }]} />
          <tbody>
            {keys.map((k) => (
              <KeyLimitRowForm
                key={k.id}
                row={k}
                contract={contract}
                defaults={defaults}
                pending={save.isPending && save.variables?.id === k.id}
                onSave={(input) => save.mutate(input)}
              />
            ))}
          </tbody>
        </table>
      </TableFrame>
    </div>
  );
}

function KeyLimitRowForm({
  row,
  contract,
  defaults,
  pending,
  onSave,
}: {
  row: KeyLimitRow;
  contract: Ceiling;
  defaults: Ceiling;
  pending: boolean;
  onSave: (input: LimitsInput) => void;
}) {
  const [perMinute, setPerMinute] = useState(row.ratePerMinute?.toString() ?? "");
  const [perDay, setPerDay] = useState(row.ratePerDay?.toString() ?? "");
  const formId = `limits-${row.id}`;
  return (
    <tr className={rowClass}>
      <td className={tdClass}>
        {row.name} <span className="font-mono text-zinc-500">{row.prefix}…</span>
      </td>
      <LimitField
        form={formId}
        value={perMinute}
        onChange={setPerMinute}
        max={contract.perMinute}
        placeholder={defaults.perMinute}
        label={`${row.name} requests per minute`}
      />
      <LimitField
        form={formId}
        value={perDay}
        onChange={setPerDay}
        max={contract.perDay}
        placeholder={defaults.perDay}
        label={`${row.name} requests per day`}
      />
      <td className={tdClass}>
        <form
          id={formId}
          onSubmit={(e) => {
            e.preventDefault();
            onSave({ id: row.id, rate_per_minute: parseLimit(perMinute), rate_per_day: parseLimit(perDay) });
          }}
        >
          <button type="submit" className={buttonClass("secondary")} disabled={pending}>
            {pending ? "Saving…" : "Save"}
          </button>
        </form>
      </td>
    </tr>
  );
}

/** One limit of a key: empty for the plan's default (the placeholder), at most the contract's ceiling. */
function LimitField(props: {
  form: string;
  value: string;
  onChange: (value: string) => void;
  max: number;
  placeholder: number;
  label: string;
}) {
  return (
    <td className={tdClass}>
      <Input
        form={props.form}
        type="number"
        min={1}
        max={props.max}
        value={props.value}
        onChange={props.onChange}
        placeholder={String(props.placeholder)}
        aria-label={props.label}
      />
    </td>
  );
}
