import { config } from "@/lib/config";
import { log } from "@/lib/log";
import { type LlmEndpoint, type SummaryInput, writeSummary } from "@/lib/scoring";

/**
 * ai_summary from the model without holding up indexing. The range transaction writes the
 * deterministic paragraph whenever the figures it states change (summary_facts_hash); with
 * LLM_URL and LLM_MODEL set, the model is asked in the background on a material change
 * (summary_input_hash), and its answer is written by a later refresh (the next block's
 * transaction) only if the token's figures are still exactly the ones it was written from:
 * a summary never states a number that differs from the fields served beside it.
 */
const LLM_TIMEOUT_MS = 15_000;
const CONCURRENCY = 2;

export type UpgradedSummary = { address: string; factsHash: string; text: string };

export function llmEndpoint(): LlmEndpoint | null {
  if (!config.LLM_URL || !config.LLM_MODEL) return null;
  return { url: config.LLM_URL, apiKey: config.LLM_API_KEY, model: config.LLM_MODEL, timeoutMs: LLM_TIMEOUT_MS };
}

export class SummaryUpgrades {
  private readonly queue = new Map<string, { address: string; input: SummaryInput; factsHash: string }>();
  private readonly ready: UpgradedSummary[] = [];
  private running = 0;

  constructor(private readonly llm: LlmEndpoint | null) {}

  /**
   * Asks the model for a summary of `input`, whose figures hash to `factsHash` (a newer request for a token replaces a
   * queued one).
   */
  request(address: string, input: SummaryInput, factsHash: string) {
    if (!this.llm) return;
    this.queue.set(address, { address, input, factsHash });
    this.pump();
  }

  /** Answers received since the last call. */
  take(): UpgradedSummary[] {
    return this.ready.splice(0);
  }

  private pump() {
    while (this.running < CONCURRENCY && this.queue.size > 0) {
      const [address, job] = this.queue.entries().next().value!;
      this.queue.delete(address);
      this.running++;
      void writeSummary(job.input, this.llm)
        .then((s) => {
          if (s.source === "llm") this.ready.push({ address, factsHash: job.factsHash, text: s.text });
          else
            log.warn("llm summary fell back to the deterministic text", { token: address, reason: s.fallbackReason });
        })
        .finally(() => {
          this.running--;
          this.pump();
        });
    }
  }
}

/** The worker process's one queue. */
export const summaryUpgrades = new SummaryUpgrades(llmEndpoint());
