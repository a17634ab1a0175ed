import { Migration } from '@mikro-orm/migrations';

const STATUSES = `'approved', 'pending', 'rejected', 'paused', 'disabled', 'in_appeal', 'pending_deletion'`;

/**
 * Issue #41: a template keeps what Meta has of it beyond its body (header, footer, buttons and the samples Meta's
 * reviewers saw), its quality rating and rejection reason, Meta's id (edits and deletes name it) and its recent
 * edits (Meta's edit budget); every review state is stored, not only the three that were listed.
 */
export class TemplateParts extends Migration {
  override name = 'Migration20261206210000_template_parts';

  override up(): void {
    this.addSql(
      `alter table "templates" add column "body_examples" jsonb not null default '[]', ` +
        `add column "header" jsonb null, add column "footer" text null, ` +
        `add column "buttons" jsonb not null default '[]', add column "rejected_reason" text null, ` +
        `add column "quality" text not null default 'unknown', add column "provider_template_id" varchar(64) null, ` +
        `add column "approved_edits" jsonb not null default '[]';`,
    );
    this.addSql(
      `alter table "templates" add constraint "templates_quality_check" check ("quality" in ('green', 'yellow', ` +
        `'red', 'unknown'));`,
    );
    this.addSql(`alter table "templates" drop constraint "templates_status_check";`);
    this.addSql(`alter table "templates" add constraint "templates_status_check" check ("status" in (${STATUSES}));`);
  }

  override down(): void {
    this.addSql(`delete from "templates" where "status" not in ('approved', 'pending', 'rejected');`);
    this.addSql(`alter table "templates" drop constraint "templates_status_check";`);
    this.addSql(
      `alter table "templates" add constraint "templates_status_check" check ("status" in ('approved', 'pending', ` +
        `'rejected'));`,
    );
    this.addSql(`alter table "templates" drop constraint "templates_quality_check";`);
    this.addSql(
      `alter table "templates" drop column "body_examples", drop column "header", drop column "footer", ` +
        `drop column "buttons", drop column "rejected_reason", drop column "quality", ` +
        `drop column "provider_template_id", drop column "approved_edits";`,
    );
  }
}
