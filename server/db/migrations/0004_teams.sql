CREATE TABLE "team_comments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"team_id" uuid NOT NULL,
	"session_kind" text NOT NULL,
	"session_id" uuid NOT NULL,
	"line" integer NOT NULL,
	"quote" text NOT NULL,
	"author_id" uuid,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "team_invites" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"team_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "team_invites_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "team_members" (
	"team_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"role" text NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "team_members_team_id_account_id_pk" PRIMARY KEY("team_id","account_id")
);
--> statement-breakpoint
CREATE TABLE "teams" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "audio_sessions_account_idx";--> statement-breakpoint
DROP INDEX "sessions_account_idx";--> statement-breakpoint
ALTER TABLE "audio_sessions" ADD COLUMN "section_scores" smallint[] GENERATED ALWAYS AS (array[(jsonb_path_query_first(coaching, '$.sections[*] ? (@.key == "empathy").score ? (@.type() == "number" && @ >= 0 && @ <= 10)'))::smallint, (jsonb_path_query_first(coaching, '$.sections[*] ? (@.key == "needsAnalysis").score ? (@.type() == "number" && @ >= 0 && @ <= 10)'))::smallint, (jsonb_path_query_first(coaching, '$.sections[*] ? (@.key == "exploringOptions").score ? (@.type() == "number" && @ >= 0 && @ <= 10)'))::smallint, (jsonb_path_query_first(coaching, '$.sections[*] ? (@.key == "objectionHandling").score ? (@.type() == "number" && @ >= 0 && @ <= 10)'))::smallint, (jsonb_path_query_first(coaching, '$.sections[*] ? (@.key == "closing").score ? (@.type() == "number" && @ >= 0 && @ <= 10)'))::smallint, (jsonb_path_query_first(coaching, '$.sections[*] ? (@.key == "followUp").score ? (@.type() == "number" && @ >= 0 && @ <= 10)'))::smallint]) STORED;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "section_scores" smallint[] GENERATED ALWAYS AS (array[(jsonb_path_query_first(coaching, '$.sections[*] ? (@.key == "empathy").score ? (@.type() == "number" && @ >= 0 && @ <= 10)'))::smallint, (jsonb_path_query_first(coaching, '$.sections[*] ? (@.key == "needsAnalysis").score ? (@.type() == "number" && @ >= 0 && @ <= 10)'))::smallint, (jsonb_path_query_first(coaching, '$.sections[*] ? (@.key == "exploringOptions").score ? (@.type() == "number" && @ >= 0 && @ <= 10)'))::smallint, (jsonb_path_query_first(coaching, '$.sections[*] ? (@.key == "objectionHandling").score ? (@.type() == "number" && @ >= 0 && @ <= 10)'))::smallint, (jsonb_path_query_first(coaching, '$.sections[*] ? (@.key == "closing").score ? (@.type() == "number" && @ >= 0 && @ <= 10)'))::smallint, (jsonb_path_query_first(coaching, '$.sections[*] ? (@.key == "followUp").score ? (@.type() == "number" && @ >= 0 && @ <= 10)'))::smallint]) STORED;--> statement-breakpoint
ALTER TABLE "team_comments" ADD CONSTRAINT "team_comments_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_comments" ADD CONSTRAINT "team_comments_author_id_accounts_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_invites" ADD CONSTRAINT "team_invites_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_invites" ADD CONSTRAINT "team_invites_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teams" ADD CONSTRAINT "teams_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "team_comments_session_idx" ON "team_comments" USING btree ("session_id","session_kind");--> statement-breakpoint
CREATE INDEX "team_invites_team_idx" ON "team_invites" USING btree ("team_id");--> statement-breakpoint
CREATE INDEX "team_members_account_idx" ON "team_members" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "audio_sessions_account_idx" ON "audio_sessions" USING btree ("account_id","uploaded_at","id","stage","section_scores");--> statement-breakpoint
CREATE INDEX "sessions_account_idx" ON "sessions" USING btree ("account_id","started_at","id","stage","section_scores");