import { describe, expect, it } from "vitest";
import { inboxOf } from "./sign-in-throttle";

describe("the inbox an address delivers to", () => {
  it.each([
    ["Someone@Example.com ", "someone@example.com"],
    ["someone+signin@example.com", "someone@example.com"],
    ["some.one+a+b@example.com", "some.one@example.com"],
    ["s.o.m.e.one+x@gmail.com", "someone@gmail.com"],
    ["Some.One@GoogleMail.com", "someone@gmail.com"],
    ["a.b@outlook.com", "a.b@outlook.com"],
  ])("of %j is %j", (address, inbox) => expect(inboxOf(address)).toBe(inbox));
});
