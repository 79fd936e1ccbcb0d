ALTER TABLE "audio_sessions" ALTER COLUMN "coaching" SET DATA TYPE jsonb USING CASE WHEN "coaching" IS NULL THEN NULL ELSE jsonb_build_object('legacyText', "coaching") END;--> statement-breakpoint
ALTER TABLE "sessions" ALTER COLUMN "coaching" SET DATA TYPE jsonb USING CASE WHEN "coaching" IS NULL THEN NULL ELSE jsonb_build_object('legacyText', "coaching") END;--> statement-breakpoint
ALTER TABLE "audio_sessions" ADD COLUMN "step" text;--> statement-breakpoint
ALTER TABLE "audio_sessions" ADD COLUMN "processing_started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "audio_sessions" ADD COLUMN "expected_ms" integer;--> statement-breakpoint
ALTER TABLE "audio_sessions" ADD COLUMN "waits_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "audio_sessions" ADD COLUMN "transcript_version" text;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "owner_key" text;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "cost" integer;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "steps" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "transcript_version" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "call_started_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "jobs_owner_idx" ON "jobs" USING btree ("owner_key","status");