DROP INDEX "tokens_symbol_prefix_idx";--> statement-breakpoint
DROP INDEX "tokens_name_prefix_idx";--> statement-breakpoint
DROP INDEX "tokens_address_prefix_idx";