import { type AbiEvent, parseAbiItem, toEventSelector } from "viem";
import { abiStringAt, hexBytes, type RawChainText } from "@/lib/chain-text";
import type { ChainProfile, Launchpad } from "../profiles/types";
import type { ChainLog, LogRef, MalformedLog } from "./decode";

/** Where a launch event carries one field: a topic, or a head word of the data. */
type Slot = { topic: number } | { word: number };

/** A launchpad's event, compiled from its profile signature into where each field sits. */
export type LaunchEvent = {
  topic0: string;
  decode: (ref: LogRef, topics: string[], data: string) => ChainLog | MalformedLog;
};

const ADDRESS_FIELDS = { token: ["token"], pool: ["pool", "pair"], creator: ["creator", "deployer"] } as const;
const TEXT_FIELDS = { name: ["name"], symbol: ["symbol"] } as const;
/** Head words of a data parameter: one for every static elementary type and every dynamic type. */
const TOPIC = /^0x[0-9a-fA-F]{64}$/;
const ONE_WORD = /^(address|bool|u?int\d*|bytes\d+|string|bytes|.+\[\])$/;

/**
 * Compiles a launchpad's event signature (a human-readable Solidity event with parameter names,
 * see Launchpad) into a decoder. Throws a clear error for a signature it cannot use, so a profile
 * mistake stops the worker at start instead of missing every launch.
 */
export function compileLaunchEvent(pad: Launchpad): LaunchEvent {
  let item: AbiEvent;
  try {
    const parsed = parseAbiItem(pad.event.trim().startsWith("event ") ? pad.event : `event ${pad.event}`);
    if (parsed.type !== "event") throw new Error("not an event");
    item = parsed;
  } catch (err) {
    throw new Error(
      `launchpad ${pad.name}: cannot parse its event "${pad.event}" ` +
        `(${err instanceof Error ? err.message.split("\n")[0] : err})`,
    );
  }
  const slots = new Map<string, { slot: Slot; type: string }>();
  let topic = 1;
  let word = 0;
  for (const input of item.inputs) {
    const slot: Slot = input.indexed ? { topic: topic++ } : { word: word++ };
    if (!input.indexed && !ONE_WORD.test(input.type)) {
      throw new Error(
        `launchpad ${pad.name}: parameter ${input.name ?? "?"} of type ${input.type} ` +
          "is not supported in a launch event",
      );
    }
    if (input.name) slots.set(input.name, { slot, type: input.type });
  }
  const find = (names: readonly string[], type: string, required: boolean) => {
    const found = names.map((n) => slots.get(n)).find((s) => s !== undefined);
    if (found && found.type !== type)
      throw new Error(`launchpad ${pad.name}: parameter ${names[0]} is ${found.type}, ${type} expected`);
    if (!found && required)
      throw new Error(`launchpad ${pad.name}: its event "${pad.event}" names no ${names.join(" or ")} parameter`);
    return found?.slot ?? null;
  };
  const token = find(ADDRESS_FIELDS.token, "address", true)!;
  const pool = find(ADDRESS_FIELDS.pool, "address", false);
  const creator = find(ADDRESS_FIELDS.creator, "address", false);
  // An indexed string is a hash: no name to read.
  const textSlot = (names: readonly string[]) => {
    const s = find(names, "string", false);
    return s && "word" in s ? s : null;
  };
  const name = textSlot(TEXT_FIELDS.name);
  const symbol = textSlot(TEXT_FIELDS.symbol);
  const topics = topic;
  const words = word;

  return {
    topic0: toEventSelector(item),
    decode(ref, logTopics, data) {
      const malformed = (why: string): MalformedLog => ({
        ...ref,
        kind: "malformed",
        reason: `malformed ${item.name} log: ${why}`,
      });
      const bytes = hexBytes(data);
      if (!bytes) return malformed("data is not hex");
      if (!logTopics.every((t) => TOPIC.test(t))) return malformed("a topic is not 32 bytes of hex");
      if (logTopics.length < topics) return malformed(`${logTopics.length} topics, ${topics} expected`);
      if (bytes.length < words * 32) return malformed(`${bytes.length} bytes of data, ${words * 32} expected`);
      const address = (s: Slot | null) => {
        if (!s) return null;
        const hex = "topic" in s ? logTopics[s.topic] : data.slice(2 + s.word * 64, 2 + (s.word + 1) * 64);
        return `0x${hex.slice(-40)}`.toLowerCase();
      };
      const text = (s: { word: number } | null): RawChainText | null => (s ? abiStringAt(bytes, s.word * 32) : null);
      return {
        ...ref,
        kind: "tokenLaunched",
        token: address(token)!,
        pair: address(pool),
        creator: address(creator),
        name: text(name),
        symbol: text(symbol),
      };
    },
  };
}

const compiled = new WeakMap<ChainProfile, Map<string, LaunchEvent>>();

/** Every launchpad's compiled event by launchpad address (compiled once per profile). */
export function launchEvents(profile: ChainProfile): Map<string, LaunchEvent> {
  let events = compiled.get(profile);
  if (!events) {
    events = new Map(profile.launchpads.map((p) => [p.address, compileLaunchEvent(p)]));
    compiled.set(profile, events);
  }
  return events;
}
