"use client";

import { useState } from "react";
import { buttonClass } from "./button";

/** Two clicks for an action that cannot be undone; the second button takes the focus. */
export function ConfirmButton({
  label,
  confirmLabel,
  onConfirm,
  disabled,
}: {
  label: string;
  confirmLabel: string;
  onConfirm: () => void;
  disabled?: boolean;
}) {
  const [asking, setAsking] = useState(false);
  if (!asking)
    return (
      <button type="button" className={buttonClass("danger")} onClick={() => setAsking(true)} disabled={disabled}>
        {label}
      </button>
    );
  return (
    <span className="inline-flex gap-1">
      <button type="button" autoFocus className={buttonClass("danger")} onClick={() => (setAsking(false), onConfirm())}>
        {confirmLabel}
      </button>
      <button type="button" className={buttonClass("secondary")} onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}
