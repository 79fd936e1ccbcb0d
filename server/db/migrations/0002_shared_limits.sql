-- Per-address limits shared by the processes on one database. UNLOGGED: counters only, no WAL;
-- a database crash empties them (allowances are forgotten, no data is lost).
CREATE UNLOGGED TABLE "limit_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"hits" integer NOT NULL,
	"resets_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNLOGGED TABLE "limit_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNLOGGED TABLE "limit_slots" (
	"key" text NOT NULL,
	"slot" integer NOT NULL,
	"holder" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "limit_slots_key_slot_pk" PRIMARY KEY("key","slot")
);
--> statement-breakpoint
CREATE INDEX "limit_events_key_idx" ON "limit_events" USING btree ("key","at");--> statement-breakpoint
CREATE INDEX "limit_events_expires_idx" ON "limit_events" USING btree ("expires_at");