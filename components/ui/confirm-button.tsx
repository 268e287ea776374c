"use client";

import { useState } from "react";
import { buttonClass } from "./button";

/**
 * Two clicks for an action that cannot be undone; the second button takes the focus, and
 * `warning` says what the action will break before it is confirmed.
 */
export function ConfirmButton({
  label,
  confirmLabel,
  onConfirm,
  disabled,
  warning,
}: {
  label: string;
  confirmLabel: string;
  onConfirm: () => void;
  disabled?: boolean;
  warning?: string;
}) {
  const [asking, setAsking] = useState(false);
  if (!asking)
    return (
      <button type="button" className={buttonClass("danger")} onClick={() => setAsking(true)} disabled={disabled}>
        {label}
      </button>
    );
  return (
    <span className="inline-flex flex-wrap items-center justify-end gap-1">
      {warning && (
        <span role="alert" className="w-full text-left text-xs text-red-700 sm:w-auto sm:max-w-xs dark:text-red-300">
          {warning}
        </span>
      )}
      <button type="button" autoFocus className={buttonClass("danger")} onClick={() => (setAsking(false), onConfirm())}>
        {confirmLabel}
      </button>
      <button type="button" className={buttonClass("secondary")} onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}
