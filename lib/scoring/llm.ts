/**
 * ai_summary from an OpenAI-compatible chat-completions endpoint, told to use only the token's
 * data, with the answer checked before it is used; writeSummary falls back to the deterministic
 * paragraph on any failure (timeout, non-2xx, malformed JSON, an implausible answer).
 */
import { z } from "zod";
import { deterministicSummary, summaryInputHash, type SummaryInput } from "./summary";
import { LLM_SUMMARY } from "./weights";

export type LlmEndpoint = {
  /** The full chat-completions URL (LLM_URL), e.g. https://host/v1/chat/completions. */
  url: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
  /** Injected in tests; the global fetch otherwise. */
  fetch?: typeof fetch;
};

export const SUMMARY_SYSTEM_PROMPT = [
  "You write the summary of a token for an on-chain data API: one plain-text paragraph of 3 to 5 sentences.",
  "Use only the data in the user's JSON. Do not add facts, prices, predictions or advice, and no number that is not in the data.",
  "Say what the token is (name, symbol, sector, launchpad, launch date), how it trades (holders, liquidity, market cap, 24h volume)",
  "and how risky it is (risk level and score, and for each raised flag its key metric compared with its threshold).",
  "Shares in the data are fractions: 0.41 means 41%. Round USD values to three significant figures. No markdown.",
].join(" ");

export class LlmSummaryError extends Error {
  constructor(readonly reason: string) {
    super(`LLM summary rejected: ${reason}`);
  }
}

const completionSchema = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string() }) })).min(1),
});

/** The data the model sees: the summary input, with dates as dates and without hashes and addresses. */
export function llmFacts(input: SummaryInput) {
  return {
    ...input,
    createdAt: new Date(input.createdAt * 1000).toISOString(),
    flagEvidence: input.flagEvidence.map(({ flag, metrics, thresholds }) => ({ flag, metrics, thresholds })),
  };
}

// ---- checking the answer ------------------------------------------------------------------

const SUFFIX: Record<string, number> = { k: 1e3, thousand: 1e3, m: 1e6, million: 1e6, b: 1e9, billion: 1e9 };

/** Numbers written in a text, with k/M/B and thousand/million/billion applied. */
export function numbersInText(text: string): number[] {
  const re = /(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?:\s?(k|m|b|thousand|million|billion)\b)?/gi;
  return [...text.matchAll(re)].map(([, int, frac, suffix]) => {
    const value = Number(int.replace(/,/g, "") + (frac ?? ""));
    return value * (suffix ? SUFFIX[suffix.toLowerCase()] : 1);
  });
}

function numbersInData(value: unknown): number[] {
  if (typeof value === "number") return Math.abs(value) <= 1 ? [value, value * 100] : [value];
  if (Array.isArray(value)) return value.flatMap(numbersInData);
  if (value && typeof value === "object") return Object.values(value).flatMap(numbersInData);
  return [];
}

function allowedNumbers(input: SummaryInput): number[] {
  const d = new Date(input.createdAt * 1000);
  const dateParts = [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()];
  return [...numbersInData(input), ...dateParts, ...LLM_SUMMARY.everydayNumbers];
}

/** Why an answer is unusable, or null when it is fine. */
export function summaryProblem(text: string, input: SummaryInput): string | null {
  if (text.length < LLM_SUMMARY.minChars) return "too_short";
  if (text.length > LLM_SUMMARY.maxChars) return "too_long";
  const lower = text.toLowerCase();
  if (!lower.includes(input.symbol.toLowerCase()) && !lower.includes(input.name.toLowerCase())) return "off_topic";
  const allowed = allowedNumbers(input);
  const near = (x: number) =>
    allowed.some((a) => Math.abs(x - a) <= LLM_SUMMARY.numberTolerance * Math.max(Math.abs(a), 10));
  const invented = numbersInText(text).find((x) => !near(x));
  return invented === undefined ? null : `invented_number:${invented}`;
}

// ---- calling the model --------------------------------------------------------------------

export async function generateSummaryWithLlm(args: LlmEndpoint & { input: SummaryInput }): Promise<string> {
  const { url, apiKey, model, input, timeoutMs } = args;
  const fetchImpl = args.fetch ?? globalThis.fetch;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const res = await fetchImpl(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
      body: JSON.stringify({
        model,
        temperature: 0.2,
        max_tokens: LLM_SUMMARY.maxTokens,
        messages: [
          { role: "system", content: SUMMARY_SYSTEM_PROMPT },
          { role: "user", content: JSON.stringify(llmFacts(input)) },
        ],
      }),
      signal: controller.signal,
    });
    const body = await res.text();
    if (!res.ok) throw new LlmSummaryError(`http_${res.status}`);
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      throw new LlmSummaryError("malformed_json");
    }
    const parsed = completionSchema.safeParse(json);
    if (!parsed.success) throw new LlmSummaryError("unexpected_shape");
    const text = parsed.data.choices[0].message.content.trim().replace(/\s+/g, " ");
    const problem = summaryProblem(text, input);
    if (problem) throw new LlmSummaryError(problem);
    return text;
  } catch (e) {
    if (e instanceof LlmSummaryError) throw e;
    throw new LlmSummaryError(controller.signal.aborted ? "timeout" : `request_failed:${(e as Error).message}`);
  } finally {
    clearTimeout(timer);
  }
}

export type WrittenSummary = {
  text: string;
  source: "llm" | "deterministic";
  /** Why the model's answer was not used; null when it was, or when no model is configured. */
  fallbackReason: string | null;
  /** summaryInputHash(input): store it with the text (token_scores.summary_input_hash). */
  inputHash: string;
};

/** The model's summary when an endpoint is configured and answers well; the deterministic one otherwise. */
export async function writeSummary(input: SummaryInput, llm: LlmEndpoint | null): Promise<WrittenSummary> {
  const inputHash = summaryInputHash(input);
  if (!llm) return { text: deterministicSummary(input), source: "deterministic", fallbackReason: null, inputHash };
  try {
    return { text: await generateSummaryWithLlm({ ...llm, input }), source: "llm", fallbackReason: null, inputHash };
  } catch (e) {
    const reason = e instanceof LlmSummaryError ? e.reason : String(e);
    return { text: deterministicSummary(input), source: "deterministic", fallbackReason: reason, inputHash };
  }
}
