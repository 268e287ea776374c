import { describe, expect, it } from "vitest";
import { tokenFilterFields } from "../tokens/filter-fields";
import { refusalInWords } from "./in-words";

const fields = tokenFilterFields();

describe("the alert builder's refusals, in words", () => {
  it.each([
    ["alert.webhook_url: must be an http(s) URL", "alert.webhook_url", "The webhook URL must be an http(s) URL."],
    [
      "alert.webhook_url: is required for the webhook channel",
      "alert.webhook_url",
      "The webhook URL is required for the webhook channel.",
    ],
    [
      "webhook_url: applies only to the webhook channel",
      "webhook_url",
      "The webhook URL applies only to the webhook channel.",
    ],
    [
      "alert.conditions.min_market_cap_usd: must not exceed max_market_cap_usd",
      "alert.conditions.min_market_cap_usd",
      "The minimum market cap in USD must not exceed the maximum market cap in USD.",
    ],
    [
      "alert.conditions: must contain at least one filter field",
      "alert.conditions",
      "The conditions must contain at least one filter field.",
    ],
    [
      "alert.name: Too small: expected string to have >=1 characters",
      "alert.name",
      "The alert name: Too small: expected string to have >=1 characters.",
    ],
    // Already words: the alerts service's refusals and the plan's.
    ["The webhook URL's host does not resolve.", "webhook_url", "The webhook URL's host does not resolve."],
    [
      "The Free plan allows 3 active alerts; pause or delete one first.",
      null,
      "The Free plan allows 3 active alerts; pause or delete one first.",
    ],
    [
      "webhook_url is required for the webhook channel.",
      "webhook_url",
      "The webhook URL is required for the webhook channel.",
    ],
  ])("%j", (message, param, words) => expect(refusalInWords(message, param, fields)).toBe(words));
});
